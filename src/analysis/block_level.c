/* block_level.c: the parallelism of the thread-block DAG (mmm_metrics T1,
 * T_inf): T1 = the sum over all blocks of S(B) + O(B), the time of one SM;
 * T_inf = the heaviest path of launches, each weighing its costliest block,
 * the time of infinitely many SMs.  T1/T_inf bounds the speedup of any
 * schedule of the blocks (what mmm scale shows saturate), where W/S is the
 * parallelism of the threads.  The same sums as the simulator's
 * (schedulers/sim_prep.c), so that both print the same numbers.
 * O(kernels + edges + classes), plus O(repeat) for a kernel whose
 * expressions use the index. */
#include <stdlib.h>

#include "analysis/block_level.h"
#include "analysis/longest_path.h"

/* The costliest block and the sum of block costs of one launch. */
static void launch(const mmm_class_val *cv, size_t n, double *cmax, double *busy)
{
    *cmax = 0.0;
    *busy = 0.0;
    for (size_t c = 0; c < n; c++) {
        if (cv[c].count == 0)
            continue; /* a class without blocks lies on no path */
        if (cv[c].cost > *cmax)
            *cmax = cv[c].cost;
        *busy += (double)cv[c].count * cv[c].cost;
    }
}

int mmm__block_level(const mmm_instance *inst, double *T1, double *Tinf, mmm_error *err)
{
    const mmm_program *prog = inst->program;
    size_t n = prog->nkernels, maxc = 1, k;
    double *kchain = malloc((n ? n : 1) * sizeof *kchain);
    double *dist = malloc((n ? n : 1) * sizeof *dist);
    mmm_class_val *buf;
    uint32_t end;
    int rc = 0;
    for (k = 0; k < n; k++)
        if (prog->kernels[k].nclasses > maxc)
            maxc = prog->kernels[k].nclasses;
    buf = malloc(maxc * sizeof *buf);
    *T1 = *Tinf = 0.0;
    if (!kchain || !dist || !buf) {
        rc = mmm_error_set(err, MMM_ENOMEM, NULL, 0, "out of memory");
        goto done;
    }
    for (k = 0; k < n && rc == 0; k++) {
        const mmm_kernel *kd = &prog->kernels[k];
        const mmm_kernel_val *kv = &inst->kernels[k];
        const mmm_class_val *cv = inst->classes ? &inst->classes[kd->first_class] : buf;
        double cmax, busy;
        kchain[k] = 0.0;
        if (kv->repeat == 0)
            continue;
        if (kv->varies) { /* launch by launch */
            for (int64_t j = 1; j <= kv->repeat && rc == 0; j++)
                if ((rc = mmm_instance_eval_copy(inst, k, j, buf, err)) == 0) {
                    launch(buf, kd->nclasses, &cmax, &busy);
                    kchain[k] += cmax;
                    *T1 += busy;
                }
            continue;
        }
        if (!inst->classes && (rc = mmm_instance_eval_copy(inst, k, 1, buf, err)) < 0)
            break;
        launch(cv, kd->nclasses, &cmax, &busy);
        kchain[k] = (double)kv->repeat * cmax;
        *T1 += (double)kv->repeat * busy;
    }
    if (rc == 0) {
        mmm__longest_path(prog, MMM__LP_BACKWARD, kchain, sizeof *kchain, dist, NULL, &end);
        *Tinf = end == MMM__NO_VERTEX ? 0.0 : dist[end];
    }
done:
    free(kchain);
    free(dist);
    free(buf);
    return rc;
}
