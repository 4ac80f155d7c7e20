/* fuzz_analyze.c: load + evaluate + every measure (the whole `mmm analyze`
 * path, output aside), then the TMM and balance models and the scheduler
 * simulation, with limits that cap the work of one input.  Aborts (a
 * finding) when a result breaks an invariant of the model:
 *   - W, S, O, C, W/S and the bounds are finite and non-negative
 *     (an overflow must be an error, never inf or NaN);
 *   - L <= N, K <= N, and K >= 1 and L >= 1 when there is a block;
 *   - a simulated greedy schedule lies between its lower bound and
 *     Graham's bound, and below the MMM bound (N/p + L)·C. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "mmm/mmm.h"
#include "mmm/sim.h"
#include "mmm/tmm.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int bad_double(double x)
{
    return !isfinite(x) || x < 0;
}

static void check_metrics(const mmm_metrics *m)
{
    if (bad_double(m->W) || bad_double(m->S) || bad_double(m->O) ||
        bad_double(m->C) || bad_double(m->parallelism) ||
        bad_double(m->graham_brent) || bad_double(m->corollary))
        abort();
    if (m->N < 0 || m->L < 0 || m->K < 0 || m->K > m->N || m->L > m->N)
        abort();
    if (m->N > 0 && (m->K < 1 || m->L < 1))
        abort();
}

/* A few policies (deterministic and seeded), recorded as for --gantt. */
static void simulate(const mmm_instance *inst, const mmm_metrics *m)
{
    static const char *const names[] = {"fifo", "critical-path", "random"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        mmm_sim_options opt = MMM_SIM_OPTIONS_INIT;
        mmm_sim_result r;
        mmm_error err;
        opt.p = 0; /* the instance's p: 7, or the program's own */
        opt.policy = mmm_sim_policy_find(names[i]);
        opt.seed = 12345;
        opt.record = 1;
        opt.max_records = 2000;
        opt.max_launches = 20000;
        if (mmm_simulate(&r, inst, &opt, &err) < 0)
            continue;
        if (mmm_sim_check(&r, m->has_p ? m->graham_brent : -1, &err) < 0)
            abort();
        mmm_sim_result_dispose(&r);
    }
}

static void other_models(const mmm_instance *inst)
{
    mmm_tmm t;
    mmm_balance b;
    mmm_error err;
    if (mmm_tmm_compute(&t, inst, &err) == 0)
        mmm_tmm_dispose(&t);
    if (mmm_balance_compute(&b, inst, &err) == 0)
        mmm_balance_dispose(&b);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    mmm_load_options opt = MMM_LOAD_OPTIONS_INIT;
    mmm_program *prog = NULL;
    mmm_instance *inst = NULL;
    mmm_metrics m = {0};
    mmm_error err;
    opt.limits.max_file_bytes = 1 << 20;
    opt.limits.max_kernels = 300;
    opt.limits.max_edges = 2000;
    opt.limits.max_params = 100;
    opt.limits.max_index_repeat = 10000;
    if (mmm_program_load_memory(&prog, (const char *)data, size, "fuzz.xml",
                                &opt, &err) < 0)
        return 0;
    if (mmm_instance_new(&inst, prog, &err) == 0) {
        mmm_instance_set_p(inst, 7);
        if (mmm_instance_eval(inst, NULL, 0, &err) == 0) {
            if (mmm_metrics_compute(&m, inst, 0, &err) == 0) {
                check_metrics(&m);
                simulate(inst, &m);
            }
            other_models(inst);
        }
        mmm_metrics_dispose(&m);
        mmm_instance_free(inst);
    }
    mmm_program_free(prog);
    return 0;
}
