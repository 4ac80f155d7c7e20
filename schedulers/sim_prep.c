/* sim_prep.c: what every schedule shares: Σ block costs, the critical path
 * of the block DAG and, per kernel, the longest path of launch costs after
 * it (the critical-path policy's levels).  O(kernels + edges + classes),
 * plus O(repeat) for a kernel whose expressions use the index. */
#include <stdlib.h>
#include <string.h>

#include "sim_int.h"
#include "analysis/longest_path.h"

/* The largest block cost and Σ block costs of one launch. */
static void launch_costs(const mmm_class_val *cv, size_t n, double *cmax,
                         double *busy)
{
    size_t c;
    *cmax = 0.0;
    *busy = 0.0;
    for (c = 0; c < n; c++) {
        if (cv[c].count == 0)
            continue; /* a class without blocks lies on no path */
        if (cv[c].cost > *cmax)
            *cmax = cv[c].cost;
        *busy += (double)cv[c].count * cv[c].cost;
    }
}

/* Launch by launch, for a kernel whose launches differ. */
static int varying_kernel(mmm__sim_prep *s, const mmm_instance *inst, size_t k,
                          mmm_class_val *buf, double *busy_out,
                          mmm_error *err)
{
    const mmm_kernel *kd = &inst->program->kernels[k];
    int64_t j, repeat = inst->kernels[k].repeat;
    double cmax, busy;
    *busy_out = 0.0;
    s->kchain[k] = 0.0;
    for (j = 1; j <= repeat; j++) {
        int rc = mmm_instance_eval_copy(inst, k, j, buf, err);
        if (rc < 0)
            return rc;
        launch_costs(buf, kd->nclasses, &cmax, &busy);
        if (j == 1) {
            s->cmax[k] = cmax;
            s->busy1[k] = busy;
        }
        s->kchain[k] += cmax;
        *busy_out += busy;
    }
    return MMM_OK;
}

static int64_t sat_add(int64_t a, int64_t b)
{
    return a > INT64_MAX - b ? INT64_MAX : a + b;
}

static int kernel_totals(mmm__sim_prep *s, const mmm_instance *inst,
                         mmm_class_val *buf, mmm_error *err)
{
    const mmm_program *prog = inst->program;
    size_t k;
    for (k = 0; k < prog->nkernels; k++) {
        const mmm_kernel *kd = &prog->kernels[k];
        const mmm_kernel_val *kv = &inst->kernels[k];
        double busy;
        if (kv->N > INT64_MAX - s->blocks)
            return mmm_error_set(err, MMM_EOVERFLOW, prog->file, kd->line,
                                 "the number of thread blocks overflows 64 bits");
        s->blocks += kv->N;
        s->launches = sat_add(s->launches, kv->repeat);
        if (kv->repeat == 0)
            continue;
        if (kv->varies) {
            int rc = varying_kernel(s, inst, k, buf, &busy, err);
            if (rc < 0)
                return rc;
        } else {
            launch_costs(&inst->classes[kd->first_class], kd->nclasses,
                         &s->cmax[k], &s->busy1[k]);
            s->kchain[k] = (double)kv->repeat * s->cmax[k];
            busy = (double)kv->repeat * s->busy1[k];
        }
        s->total += busy;
    }
    return MMM_OK;
}

/* tail[k] = max over successors t of kchain[t] + tail[t] (0 without one),
 * the heaviest path of launch costs after k; the critical path is the
 * heaviest path of all: analysis/longest_path.c, backwards. */
static int paths(mmm__sim_prep *s, const mmm_program *prog)
{
    size_t n = prog->nkernels, k;
    double *dist = malloc((n ? n : 1) * sizeof *dist);
    uint32_t *from = malloc((n ? n : 1) * sizeof *from), end;
    if (!dist || !from) {
        free(dist);
        free(from);
        return MMM_ENOMEM;
    }
    mmm__longest_path(prog, MMM__LP_BACKWARD, s->kchain, sizeof *s->kchain, dist, from, &end);
    for (k = 0; k < n; k++)
        s->tail[k] = from[k] == MMM__NO_VERTEX ? 0.0 : dist[from[k]];
    s->critical_path = end == MMM__NO_VERTEX ? 0.0 : dist[end];
    free(dist);
    free(from);
    return MMM_OK;
}

int mmm__sim_prep_init(mmm__sim_prep *s, const mmm_instance *inst, mmm_error *err)
{
    const mmm_program *prog = inst->program;
    size_t n = prog->nkernels, k;
    mmm_class_val *buf = NULL;
    int rc;

    memset(s, 0, sizeof *s);
    if (!inst->classes)
        return mmm_error_set(err, MMM_EINVAL, prog->file, 0,
                             "the instance keeps no class values "
                             "(MMM_INSTANCE_NO_CLASSES)");
    for (k = 0; k < n; k++)
        if (prog->kernels[k].nclasses > s->max_classes)
            s->max_classes = prog->kernels[k].nclasses;
    s->cmax = calloc(n ? n : 1, sizeof *s->cmax);
    s->kchain = calloc(n ? n : 1, sizeof *s->kchain);
    s->tail = calloc(n ? n : 1, sizeof *s->tail);
    s->busy1 = calloc(n ? n : 1, sizeof *s->busy1);
    buf = calloc(s->max_classes ? s->max_classes : 1, sizeof *buf);
    if (!s->cmax || !s->kchain || !s->tail || !s->busy1 || !buf) {
        free(buf);
        mmm__sim_prep_dispose(s);
        return mmm_error_set(err, MMM_ENOMEM, NULL, 0, "out of memory");
    }
    rc = kernel_totals(s, inst, buf, err);
    free(buf);
    if (rc < 0) {
        mmm__sim_prep_dispose(s);
        return rc;
    }
    if (paths(s, prog) < 0) {
        mmm__sim_prep_dispose(s);
        return mmm_error_set(err, MMM_ENOMEM, NULL, 0, "out of memory");
    }
    return MMM_OK;
}

void mmm__sim_prep_dispose(mmm__sim_prep *s)
{
    free(s->cmax);
    free(s->kchain);
    free(s->tail);
    free(s->busy1);
    memset(s, 0, sizeof *s);
}
