/* limits.h (internal): the check of one block against a machine's launch
 * limits (defined in timemodel.c, beside the formula that reads the
 * block's attributes), used by the time model and by
 * mmm_time_check_launches (limits.c). */
#ifndef MMM_TIME_LIMITS_H
#define MMM_TIME_LIMITS_H

#include <stdint.h>

#include "mmm/eval.h"
#include "mmm/timemodel.h"

/* Whether a block of class v (its attributes at, mmm/attr.h) of kernel
 * kr, declared at line, fits machine m: its threads within
 * block_threads, its shared memory (its bytes when the file gives them,
 * else shared words per thread x threads x word_bytes) within
 * block_shared_bytes, and at least one such block resident on an SM
 * (mmm_time_occupancy).  MMM_OK with
 * *resident blocks per SM and the *limit that sets it; else MMM_EINPUT
 * with a message ("more than <whose>block_threads = 1024") and *excess
 * saying which limit. */
int mmm__time_block_fits(const mmm_time_machine *m, const mmm_program *prog,
                         const mmm_kernel *kr, long line,
                         const mmm_class_val *v, const mmm_attr_value *at,
                         const char *whose, int64_t *resident,
                         mmm_time_limit *limit, mmm_time_excess *excess,
                         mmm_error *err);

/* 1 when name is a parameter mmm_time_limits_get reads. */
int mmm__time_limit_param(const char *name);

#endif
