/* test_threads.c: what mmm/mmm.h's thread-safety section promises for the
 * core library.  One program, loaded once, is shared by several threads;
 * each makes its own instance, evaluates it at its own parameter value and
 * computes the measures and a schedule, many times over, while other
 * threads load the same file again.  Every result must equal the one
 * computed first in a single thread: any global state the core kept
 * (scratch buffers, caches, statics) would show up as a wrong number here
 * (and as a report under -fsanitize=thread).  And one evaluated instance
 * is read by several threads at once: launch by launch (its repeat index)
 * and through the simulator, which evaluates launch by launch too. */
#include <criterion/criterion.h>
#include <pthread.h>
#include <stdlib.h>
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

/* One instance shared by readers: fork_join.xml's kernels read their repeat
 * index, so every launch is evaluated on its own (mmm_instance_eval_copy),
 * which must not write the index into the shared instance. */
#define SHARED_ FILE_DIR_ "/fork_join.xml"
#define FILE_DIR_ MMM_DAGS_DIR
#define MAXC 64

typedef struct reader {
    const mmm_instance *inst;
    int t, bad, failed;
    double makespan;
} reader;

/* Every launch's classes, evaluated in one thread first. */
typedef struct launch {
    size_t k;
    int64_t copy;
    mmm_class_val cv[MAXC];
} launch;

static launch *launches;
static size_t nlaunches;

static int eval_all(const mmm_instance *inst)
{
    const mmm_program *p = inst->program;
    size_t n = 0;
    for (size_t k = 0; k < p->nkernels; k++)
        n += (size_t)inst->kernels[k].repeat;
    launches = calloc(n ? n : 1, sizeof *launches);
    if (!launches)
        return -1;
    for (size_t k = 0; k < p->nkernels; k++) {
        if (p->kernels[k].nclasses > MAXC)
            return -1;
        for (int64_t c = 1; c <= inst->kernels[k].repeat; c++) {
            launch *l = &launches[nlaunches++];
            l->k = k;
            l->copy = c;
            if (mmm_instance_eval_copy(inst, k, c, l->cv, NULL) < 0)
                return -1;
        }
    }
    return 0;
}

#define CALLS 40000

/* CALLS launches in a thread's own pseudo-random order, each compared with
 * the one-thread evaluation. */
static int check_launches(const mmm_instance *inst, int t)
{
    mmm_class_val cv[MAXC];
    uint64_t st = 88172645463325252ull + (uint64_t)t;
    int bad = 0;
    for (int i = 0; i < CALLS; i++) {
        st ^= st << 13, st ^= st >> 7, st ^= st << 17;
        const launch *l = &launches[st % nlaunches];
        size_t nc = inst->program->kernels[l->k].nclasses;
        if (mmm_instance_eval_copy(inst, l->k, l->copy, cv, NULL) < 0)
            return -1;
        for (size_t c = 0; c < nc; c++)
            if (cv[c].work != l->cv[c].work || cv[c].span != l->cv[c].span ||
                cv[c].count != l->cv[c].count || cv[c].cost != l->cv[c].cost)
                bad++;
    }
    return bad;
}

static double want_makespan;

static void *read_shared(void *arg)
{
    reader *r = arg;
    int b = check_launches(r->inst, r->t);
    if (b < 0)
        r->failed++;
    else
        r->bad += b;
    for (int i = 0; i < ROUNDS; i++) {
        mmm_sim_options so = MMM_SIM_OPTIONS_INIT;
        mmm_sim_result res;
        memset(&res, 0, sizeof res);
        so.p = 3;
        if (mmm_simulate(&res, r->inst, &so, NULL) < 0)
            r->failed++;
        else if (res.makespan != want_makespan)
            r->bad++;
        mmm_sim_result_dispose(&res);
    }
    return NULL;
}

Test(threads, one_instance_many_readers)
{
    mmm_program *prog;
    mmm_instance *inst;
    mmm_error err;
    reader rd[NTHREADS];
    pthread_t th[NTHREADS];
    mmm_sim_options so = MMM_SIM_OPTIONS_INIT;
    mmm_sim_result res;
    cr_assert_eq(mmm_program_load_file(&prog, SHARED_, NULL, &err), 0, "%s",
                 err.message);
    cr_assert_eq(mmm_instance_new(&inst, prog, &err), 0);
    cr_assert_eq(mmm_instance_eval(inst, NULL, 0, &err), 0, "%s", err.message);
    cr_assert_eq(eval_all(inst), 0);
    /* the launches differ, so a launch evaluated at another's index shows */
    cr_assert_gt(nlaunches, 1);
    cr_assert(launches[0].cv[0].work != launches[1].cv[0].work ||
              launches[0].cv[0].count != launches[1].cv[0].count);
    memset(&res, 0, sizeof res);
    so.p = 3;
    cr_assert_eq(mmm_simulate(&res, inst, &so, &err), 0, "%s", err.message);
    want_makespan = res.makespan;
    mmm_sim_result_dispose(&res);
    for (int t = 0; t < NTHREADS; t++) {
        memset(&rd[t], 0, sizeof rd[t]);
        rd[t].inst = inst;
        rd[t].t = t;
        cr_assert_eq(pthread_create(&th[t], NULL, read_shared, &rd[t]), 0);
    }
    for (int t = 0; t < NTHREADS; t++)
        cr_assert_eq(pthread_join(th[t], NULL), 0);
    for (int t = 0; t < NTHREADS; t++) {
        cr_expect_eq(rd[t].failed, 0, "thread %d: %d calls failed", t,
                     rd[t].failed);
        cr_expect_eq(rd[t].bad, 0, "thread %d: %d of %d launches or schedules "
                     "differ", t, rd[t].bad, CALLS + ROUNDS);
    }
    free(launches);
    mmm_instance_free(inst);
    mmm_program_free(prog);
}
