/* limits.c: a machine's launch limits (threads and shared memory per
 * block; threads, shared memory and registers per SM: what a block needs
 * to be resident at all) and the check of every launch of an instance
 * against them, with the time model's own check of a block
 * (mmm__time_block_fits, timemodel.c), so that a sweep that enforces the
 * limits for every objective rejects exactly the values the time model
 * rejects. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mmm/timemodel.h"
#include "model/program_internal.h"
#include "time/limits.h"
#include "time/time_inputs.h"

static const char *const excess_names[] = {
    [MMM_TIME_FITS] = "", [MMM_TIME_OVER_BLOCK_THREADS] = "block_threads",
    [MMM_TIME_OVER_BLOCK_SHARED] = "block_shared_bytes",
    [MMM_TIME_OVER_SM_THREADS] = "sm_threads",
    [MMM_TIME_OVER_SM_SHARED] = "sm_shared_bytes",
    [MMM_TIME_OVER_SM_REGISTERS] = "sm_registers"};
_Static_assert(sizeof excess_names / sizeof *excess_names == MMM_TIME_NEXCESS,
               "a name for every excess");

const char *mmm_time_excess_name(mmm_time_excess e)
{
    return (unsigned)e < MMM_TIME_NEXCESS ? excess_names[e] : "?";
}

/* The largest limits of current GPUs (NVIDIA's compute capability 9.0,
 * the H100 and H200: the largest shared memory; 1024 threads per block
 * since compute capability 2.0). */
static const struct {
    int id;
    int64_t value;
} current[] = {
    {MMM__TI_SM_THREADS, 2048},          {MMM__TI_SM_BLOCKS, 32},
    {MMM__TI_BLOCK_THREADS, 1024},       {MMM__TI_SM_SHARED_BYTES, 233472},
    {MMM__TI_BLOCK_SHARED_BYTES, 232448}, {MMM__TI_SHARED_RESERVED_BYTES, 1024},
    {MMM__TI_SHARED_GRANULE_BYTES, 128}, {MMM__TI_SM_REGISTERS, 65536},
    {MMM__TI_REGISTER_GRANULE, 256},     {MMM__TI_REGISTER_PARTITIONS, 4},
    {MMM__TI_WARP_SIZE, 32}};

/* The machine's value of row id (the machine file's, else the program's
 * parameter of that name); 0 when it gives none. */
static int given_value(const mmm_instance *inst, int id, int is_int, int64_t *iv,
                       double *dv, mmm_error *err)
{
    const char *name = mmm__time_input_name(id);
    int slot = mmm_program_find_machine_param(inst->program, name);
    if (slot < 0)
        return 0;
    mmm_value v = inst->values[slot];
    long line = inst->program->params[slot].line;
    if (is_int && (!v.exact || v.den != 1 || v.num < 0))
        return mmm_error_set(err, MMM_EINPUT, inst->program->file, line,
                             "machine parameter '%s' must be an integer >= 0, "
                             "not %g", name, v.d);
    if (!is_int && !(v.d > 0 && isfinite(v.d)))
        return mmm_error_set(err, MMM_EINPUT, inst->program->file, line,
                             "machine parameter '%s' must be positive, not %g",
                             name, v.d);
    if (is_int)
        *iv = v.num;
    else
        *dv = v.d;
    return 1;
}

/* The parameters of the launch limits, where mmm_time_limits_get puts
 * them, their value when not given (MMM_TIME_LIMITS_GIVEN; -1: see
 * there), and whether *given counts them. */
static const struct {
    int id;
    size_t offset;
    int64_t unlimited; /* MMM_TIME_LIMITS_GIVEN, when not given */
    int counted;       /* one of the limits *given counts */
} ints[] = {
    {MMM__TI_WARP_SIZE, offsetof(mmm_time_machine, warp_size), 32, 0},
    {MMM__TI_SM_THREADS, offsetof(mmm_time_machine, sm_threads), INT64_MAX, 1},
    {MMM__TI_SM_BLOCKS, offsetof(mmm_time_machine, sm_blocks), INT64_MAX, 0},
    {MMM__TI_BLOCK_THREADS, offsetof(mmm_time_machine, block_threads), INT64_MAX, 1},
    {MMM__TI_SM_SHARED_BYTES, offsetof(mmm_time_machine, sm_shared_bytes),
     INT64_MAX, 1},
    {MMM__TI_BLOCK_SHARED_BYTES, offsetof(mmm_time_machine, block_shared_bytes),
     -1, 1},
    {MMM__TI_SHARED_RESERVED_BYTES,
     offsetof(mmm_time_machine, shared_reserved_bytes), 0, 0},
    {MMM__TI_SHARED_GRANULE_BYTES, offsetof(mmm_time_machine, shared_granule_bytes),
     1, 0},
    {MMM__TI_SM_REGISTERS, offsetof(mmm_time_machine, sm_registers), INT64_MAX, 1},
    {MMM__TI_REGISTER_GRANULE, offsetof(mmm_time_machine, register_granule), 1, 0},
    {MMM__TI_REGISTER_PARTITIONS, offsetof(mmm_time_machine, register_partitions),
     1, 0}};

int mmm__time_limit_param(const char *name)
{
    if (!name)
        return 0;
    if (!strcmp(name, mmm__time_input_name(MMM__TI_WORD_BYTES)))
        return 1;
    for (size_t i = 0; i < sizeof ints / sizeof *ints; i++)
        if (!strcmp(name, mmm__time_input_name(ints[i].id)))
            return 1;
    return 0;
}

int mmm_time_limits_get(mmm_time_machine *m, const mmm_instance *inst, int from,
                        int *given, mmm_error *err)
{
    int n = 0, r, sm_shared_given = 0;
    if (!m || !inst)
        return mmm_error_set(err, MMM_EINVAL, NULL, 0, "mmm_time_limits_get: missing argument");
    memset(m, 0, sizeof *m);
    m->word_bytes = 4;
    if ((r = given_value(inst, MMM__TI_WORD_BYTES, 0, NULL, &m->word_bytes, err)) < 0)
        return r;
    for (size_t i = 0; i < sizeof ints / sizeof *ints; i++) {
        int64_t *at = (int64_t *)(void *)((char *)m + ints[i].offset), v = 0;
        if ((r = given_value(inst, ints[i].id, 1, &v, NULL, err)) < 0)
            return r;
        if (r > 0) {
            *at = v;
            n += ints[i].counted;
            sm_shared_given |= ints[i].id == MMM__TI_SM_SHARED_BYTES;
            continue;
        }
        *at = ints[i].unlimited;
        if (from == MMM_TIME_LIMITS_CURRENT)
            for (size_t c = 0; c < sizeof current / sizeof *current; c++)
                if (current[c].id == ints[i].id)
                    *at = current[c].value;
        if (ints[i].id == MMM__TI_BLOCK_SHARED_BYTES)
            /* docs/time.md: sm_shared_bytes when not given */
            *at = sm_shared_given ? m->sm_shared_bytes : *at < 0 ? INT64_MAX : *at;
    }
    if (m->warp_size <= 0)
        return mmm_error_set(err, MMM_EINPUT, inst->program->file, 0,
                             "machine parameter 'warp_size' must be positive");
    if (given)
        *given = n;
    return MMM_OK;
}

int mmm_time_check_launches(const mmm_instance *inst, const mmm_time_machine *m,
                            mmm_time_excess *which, mmm_error *err)
{
    const mmm_program *prog;
    size_t maxc = 1;
    mmm_class_val *cv;
    mmm_attr_value *av;
    mmm_time_machine largest;
    int r = MMM_OK;
    if (which)
        *which = MMM_TIME_FITS;
    if (!inst)
        return mmm_error_set(err, MMM_EINVAL, NULL, 0,
                             "mmm_time_check_launches: missing argument");
    if (!m) {
        if ((r = mmm_time_limits_get(&largest, inst, MMM_TIME_LIMITS_CURRENT, NULL,
                                     err)) < 0)
            return r;
        m = &largest;
    }
    prog = inst->program;
    for (size_t k = 0; k < prog->nkernels; k++)
        if (prog->kernels[k].nclasses > maxc)
            maxc = prog->kernels[k].nclasses;
    cv = malloc(maxc * sizeof *cv);
    av = malloc(maxc * MMM_ATTR_N * sizeof *av);
    if (!cv || !av) {
        free(cv);
        free(av);
        return mmm_error_set(err, MMM_ENOMEM, prog->file, 0, "out of memory");
    }
    for (size_t k = 0; k < prog->nkernels && r == MMM_OK; k++) {
        const mmm_kernel *kr = &prog->kernels[k];
        const mmm_kernel_val *kv = &inst->kernels[k];
        int64_t copies = kv->varies ? kv->repeat : (kv->repeat > 0 ? 1 : 0);
        for (int64_t j = 1; j <= copies && r == MMM_OK; j++) {
            if ((r = mmm_instance_eval_copy(inst, k, j, cv, err)) < 0 ||
                (r = mmm_instance_eval_attrs(inst, k, j, av, err)) < 0)
                break;
            for (size_t c = 0; c < kr->nclasses; c++) {
                int64_t a;
                mmm_time_limit l;
                mmm_time_excess x;
                if (cv[c].count <= 0 || cv[c].threads <= 0)
                    continue; /* nothing launched, or no threads to check */
                if (mmm__time_block_fits(m, prog, kr, prog->classes[kr->first_class + c].line,
                                         &cv[c], av + c * MMM_ATTR_N, "", &a, &l,
                                         &x, err) < 0) {
                    if (which)
                        *which = x;
                    if (err)
                        err->code = MMM_EINFEASIBLE;
                    r = MMM_EINFEASIBLE;
                    break;
                }
            }
        }
    }
    free(cv);
    free(av);
    return r;
}
