/* model/defines.h: what -D, --param and sweep values share inside the
 * library: constants from text, and the error about a parameter the
 * program does not declare.  Internal. */
#ifndef MMM_MODEL_DEFINES_H
#define MMM_MODEL_DEFINES_H

#include <stddef.h>

#include "mmm/error.h"
#include "mmm/expr.h"
#include "mmm/program.h"

/* A constant expression (2^20, 1/2, 1e6; at most max characters) into
 * out: 0, or the parser's or evaluator's status with err; a name in it
 * (MMM_EINPUT) is copied into name (65 bytes, as the message quotes it;
 * NULL: not copied). */
int mmm__constant(const char *text, size_t max, mmm_value *out, char *name,
                  mmm_error *err);

/* MMM_EINPUT at prog's file: "OPT NAME: the file declares no parameter
 * 'NAME'", then advice when given, else a close name or the declared
 * ones. */
int mmm__no_param(mmm_error *err, const mmm_program *prog, const char *opt,
                  const char *name, const char *advice);

#endif
