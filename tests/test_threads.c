/* test_threads.c: what mmm/mmm.h's thread-safety section promises for the
 * core library.  One program, loaded once, is shared by several threads;
 * each makes its own instance, evaluates it at its own parameter value and
 * computes the measures and a schedule, many times over, while other
 * threads load the same file again.  Every result must equal the one
 * computed first in a single thread: any global state the core kept
 * (scratch buffers, caches, statics) would show up as a wrong number here
 * (and as a report under -fsanitize=thread). */
#include <criterion/criterion.h>
#include <pthread.h>
#include <string.h>

#include "mmm/mmm.h"

#define FILE_ MMM_DAGS_DIR "/poly_div_opt.xml"
#define NTHREADS 4
#define ROUNDS 25

typedef struct result {
    double W, S, O, C, makespan;
    int64_t N, L, K;
} result;

typedef struct job {
    const mmm_program *prog;
    int64_t s;
    result want;
    int bad, failed;
    size_t nkernels;
} job;

static int compute(const mmm_program *prog, int64_t s, result *out)
{
    mmm_instance *inst = NULL;
    mmm_metrics m;
    mmm_sim_options so = MMM_SIM_OPTIONS_INIT;
    mmm_sim_result r;
    mmm_override ov = {mmm_program_find_param(prog, "s"), mmm_value_int(s)};
    int rc;
    memset(&m, 0, sizeof m);
    memset(&r, 0, sizeof r);
    so.p = 14;
    if ((rc = mmm_instance_new(&inst, prog, NULL)) < 0 ||
        (rc = mmm_instance_eval(inst, &ov, 1, NULL)) < 0 ||
        (rc = mmm_metrics_compute(&m, inst, 0, NULL)) < 0 ||
        (rc = mmm_simulate(&r, inst, &so, NULL)) < 0)
        goto done;
    out->W = m.W;
    out->S = m.S;
    out->O = m.O;
    out->C = m.C;
    out->N = m.N;
    out->L = m.L;
    out->K = m.K;
    out->makespan = r.makespan;
done:
    mmm_sim_result_dispose(&r);
    mmm_metrics_dispose(&m);
    mmm_instance_free(inst);
    return rc;
}

static void *worker(void *arg)
{
    job *j = arg;
    for (int i = 0; i < ROUNDS; i++) {
        result got;
        mmm_program *again = NULL;
        if (compute(j->prog, j->s, &got) < 0) {
            j->failed++;
            continue;
        }
        if (memcmp(&got, &j->want, sizeof got) != 0)
            j->bad++;
        /* a load of its own, beside the others' evaluations */
        if (mmm_program_load_file(&again, FILE_, NULL, NULL) < 0 ||
            again->nkernels != j->nkernels)
            j->failed++;
        mmm_program_free(again);
    }
    return NULL;
}

Test(threads, one_program_many_instances)
{
    static const int64_t s[NTHREADS] = {16, 32, 64, 128};
    mmm_program *prog;
    mmm_error err;
    job jobs[NTHREADS];
    pthread_t th[NTHREADS];
    /* The first load happens here, in the main thread (libxml2's set-up). */
    cr_assert_eq(mmm_program_load_file(&prog, FILE_, NULL, &err), 0, "%s",
                 err.message);
    for (int t = 0; t < NTHREADS; t++) {
        memset(&jobs[t], 0, sizeof jobs[t]);
        memset(&jobs[t].want, 0, sizeof jobs[t].want);
        jobs[t].prog = prog;
        jobs[t].s = s[t];
        jobs[t].nkernels = prog->nkernels;
        cr_assert_eq(compute(prog, s[t], &jobs[t].want), 0, "s = %lld",
                     (long long)s[t]);
    }
    /* The values differ from one s to the next, so a thread that saw
     * another's instance would be caught. */
    cr_assert_neq(jobs[0].want.O, jobs[1].want.O);
    cr_assert_neq(jobs[2].want.N, jobs[3].want.N);
    for (int t = 0; t < NTHREADS; t++)
        cr_assert_eq(pthread_create(&th[t], NULL, worker, &jobs[t]), 0);
    for (int t = 0; t < NTHREADS; t++)
        cr_assert_eq(pthread_join(th[t], NULL), 0);
    for (int t = 0; t < NTHREADS; t++) {
        cr_expect_eq(jobs[t].failed, 0, "s = %lld: %d calls failed",
                     (long long)s[t], jobs[t].failed);
        cr_expect_eq(jobs[t].bad, 0, "s = %lld: %d of %d rounds differ",
                     (long long)s[t], jobs[t].bad, ROUNDS);
    }
    mmm_program_free(prog);
}
