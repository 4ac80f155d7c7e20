/* import_internal.h: the readers of task-graph formats in the core
 * library, called by the dispatcher (src/io/import.c) on the whole file read
 * into memory (base/file.c). */
#ifndef MMM_IMPORT_INTERNAL_H
#define MMM_IMPORT_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "mmm/import.h"

/* Standard Task Graph (import_stg.c). */
int mmm__read_stg(mmm_program **out, const char *buf, size_t len,
                  const char *name, const mmm_import_options *opt,
                  mmm_import_report *rep, mmm_error *err);
/* WfCommons JSON (import_wfcommons.c, jansson). */
int mmm__read_wfcommons(mmm_program **out, const char *buf, size_t len,
                        const char *name, const mmm_import_options *opt,
                        mmm_import_report *rep, mmm_error *err);
/* Pegasus DAX (parse_dax.c, libxml2, beside the XML loader). */
int mmm__read_dax(mmm_program **out, const char *buf, size_t len,
                  const char *name, const mmm_import_options *opt,
                  mmm_import_report *rep, mmm_error *err);

#endif
