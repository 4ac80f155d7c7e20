/* tmm.c: the Threaded Many-core Memory model and the balance principle on an
 * evaluated program (formulas in include/mmm/tmm.h and docs/tmm.md).
 *
 * Both models need, per launch of a kernel, the work, the span and the
 * number of global memory transactions; one pass over the kernels computes
 * them (and, for the TMM, the threads per core and the latency term).  A
 * kernel whose launches are identical is computed from one launch times
 * its repeat; only a kernel that uses its index is evaluated launch by
 * launch, exactly as mmm_instance_eval does. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mmm/tmm.h"
#include "tmm/tmm_internal.h"
#include "analysis/longest_path.h"

/* ------------------------------------------------------------------ */
/* Helpers                                                            */

/* Value of the machine parameter `name` as a double (the machine file's,
 * else the program's: mmm_program_find_machine_param); 0 when neither
 * declares it. */
static int param_get(const mmm_instance *inst, const char *name, double *out)
{
    int slot = mmm_program_find_machine_param(inst->program, name);
    if (slot < 0 || (size_t)slot >= inst->nvalues)
        return 0;
    *out = inst->values[slot].d;
    return 1;
}

/* a/b where 0/0 is 0 and x/0 is +infinity (a, b >= 0). */
static double safe_div(double a, double b)
{
    if (b > 0)
        return a / b;
    return a > 0 ? HUGE_VAL : 0.0;
}

/* ceil(x) that forgives the rounding error of a product of doubles which
 * should be an integer (x = 544.0000000000001 is 544 transactions). */
static double ceil_tolerant(double x)
{
    double f = floor(x);
    if (x - f <= 1e-12 * fmax(1.0, x))
        return f;
    return f + 1.0;
}

/* The names of the terms and of the limits, by value. */
static const char *const term_names[] = {[MMM_TMM_WORK] = "work", [MMM_TMM_SPAN] = "span",
                                         [MMM_TMM_LATENCY] = "latency"};
static const char *const limit_names[] = {
    [MMM_TMM_LIMIT_NONE] = "none", [MMM_TMM_LIMIT_X] = "X",
    [MMM_TMM_LIMIT_MEMORY] = "memory", [MMM_TMM_LIMIT_THREADS] = "threads"};
#define NAMES(a) (sizeof(a) / sizeof *(a))
_Static_assert(NAMES(term_names) == MMM_TMM_LATENCY + 1 &&
                   NAMES(limit_names) == MMM_TMM_LIMIT_THREADS + 1,
               "a name for every term and every limit");

const char *mmm_tmm_term_name(mmm_tmm_term t)
{
    return (unsigned)t < NAMES(term_names) ? term_names[t] : "?";
}

const char *mmm_tmm_limit_name(mmm_tmm_limit l)
{
    return (unsigned)l < NAMES(limit_names) ? limit_names[l] : "?";
}

/* ------------------------------------------------------------------ */
/* Machine parameters                                                 */

typedef struct param_spec {
    const char *name;
    const char *meaning;
    int may_be_zero;
} param_spec;

/* Read one required parameter: declared, finite, > 0 (or >= 0). */
static int require_param(const mmm_instance *inst, const param_spec *ps,
                         const char *model, double *out, mmm_error *err)
{
    const char *file = inst->program->file;
    if (!param_get(inst, ps->name, out))
        return mmm_error_set(err, MMM_EINPUT, file, 0,
                             "the %s needs the machine parameter '%s' (%s): "
                             "give a machine file (--machine FILE) or declare it",
                             model, ps->name, ps->meaning);
    if (!isfinite(*out) || *out < 0 || (*out == 0 && !ps->may_be_zero))
        return mmm_error_set(err, MMM_EINPUT, file, 0,
                             "machine parameter '%s' (%s) must be %s, not %g",
                             ps->name, ps->meaning,
                             ps->may_be_zero ? ">= 0" : "> 0", *out);
    return 0;
}

int mmm_tmm_machine_get(mmm_tmm_machine *out, const mmm_instance *inst,
                        mmm_error *err)
{
    static const param_spec spec[6] = {
        {"L", "latency of a global memory access", 1},
        {"P", "number of cores", 0},
        {"C", "words per memory transaction", 0},
        {"Z", "fast memory words per core group", 0},
        {"Q", "cores per core group", 0},
        {"X", "threads per core limit", 0},
    };
    double *dst[6];
    int i, rc;
    dst[0] = &out->L; dst[1] = &out->P; dst[2] = &out->C;
    dst[3] = &out->Z; dst[4] = &out->Q; dst[5] = &out->X;
    for (i = 0; i < 6; i++)
        if ((rc = require_param(inst, &spec[i], "TMM", dst[i], err)) < 0)
            return rc;
    return 0;
}

/* ------------------------------------------------------------------ */
/* One launch                                                         */

double mmm__tmm_transactions(double count, double threads, double rw,
                             double C, mmm_access access)
{
    double words = threads * rw;
    if (count <= 0 || words <= 0)
        return 0.0;
    if (access == MMM_ACCESS_IRREGULAR)
        return count * words;           /* one transaction per word */
    return count * ceil_tolerant(words / C); /* C words per transaction */
}

double mmm__tmm_threads_per_core(const mmm_tmm_machine *m, double threads,
                                 double s, mmm_tmm_limit *limit)
{
    mmm_tmm_limit lim = MMM_TMM_LIMIT_X;
    double t = m->X;
    if (threads <= 0) {
        if (limit)
            *limit = MMM_TMM_LIMIT_NONE;
        return 0.0;
    }
    if (s > 0 && m->Z / (m->Q * s) < t) {
        t = m->Z / (m->Q * s);
        lim = MMM_TMM_LIMIT_MEMORY;
    }
    if (threads / m->P < t) {
        t = threads / m->P;
        lim = MMM_TMM_LIMIT_THREADS;
    }
    if (limit)
        *limit = lim;
    return t;
}

typedef struct launch {
    double W, S, M, words, threads, T, lat;
    mmm_tmm_limit limit;
} launch;

/* The costs of one launch of kernel k from its evaluated classes.  With
 * with_T == 0 only W, S, M and words are computed (balance principle). */
static int launch_eval(launch *o, const mmm_instance *inst, size_t k,
                       const mmm_class_val *cv, const mmm_tmm_machine *mc,
                       int with_T, mmm_error *err)
{
    const mmm_program *prog = inst->program;
    const mmm_kernel *ker = &prog->kernels[k];
    double shared = 0.0;
    uint32_t j;

    memset(o, 0, sizeof *o);
    for (j = 0; j < ker->nclasses; j++) {
        const mmm_class_val *c = &cv[j];
        double count = (double)c->count, thr = (double)c->threads;
        double rw = c->reads + c->writes;
        if (c->count <= 0)
            continue;
        o->W += count * c->work;
        if (c->span > o->S)
            o->S = c->span;
        if (rw > 0 && c->threads <= 0)
            return mmm_error_set(err, MMM_EINPUT, prog->file,
                                 prog->classes[ker->first_class + j].line,
                                 "kernel '%s': the TMM counts memory transactions "
                                 "per thread and needs the threads per block "
                                 "(add threads=\"...\")", ker->id);
        o->M += mmm__tmm_transactions(count, thr, rw, mc->C, c->access);
        o->words += count * thr * rw;
        o->threads += count * thr;
        shared += count * thr * c->shared;
    }
    if (!with_T)
        return 0;
    /* The launch's threads share the fast memory: its limit uses their
     * mean shared words per thread. */
    o->T = mmm__tmm_threads_per_core(mc, o->threads,
                                     o->threads > 0 ? shared / o->threads : 0,
                                     &o->limit);
    o->lat = o->M > 0 ? o->M * mc->L / (o->T * mc->P) : 0.0;
    return 0;
}

static double launch_time(const launch *l, double P)
{
    return fmax(fmax(l->W / P, l->S), l->lat);
}

/* ------------------------------------------------------------------ */
/* Kernels and program                                                */

/* Accumulates the launches of one kernel (or the kernels of a program). */
typedef struct accum {
    double inv;      /* Σ M_i / T_i */
    double tmin;     /* smallest positive T */
    double lat_max;  /* largest latency term seen, for `limit` */
    int seen;
} accum;

static void accum_add(mmm_tmm_cost *c, accum *a, double W, double S,
                      double M, double words, double threads, double T,
                      double lat, double time, double inv,
                      mmm_tmm_limit limit)
{
    c->T1 += W;
    c->Tinf += S;
    c->M += M;
    c->words += words;
    c->latency_term += lat;
    c->TP += time;
    a->inv += inv;
    if (threads > c->threads)
        c->threads = threads;
    if (T > 0 && (a->tmin == 0 || T < a->tmin))
        a->tmin = T;
    if (!a->seen || lat > a->lat_max) {
        a->lat_max = lat;
        c->limit = limit;
        a->seen = 1;
    }
}

/* The derived fields from T1, Tinf, M, latency_term and the accumulator. */
static void cost_finish(mmm_tmm_cost *c, const accum *a,
                        const mmm_tmm_machine *mc)
{
    c->T = c->M > 0 && a->inv > 0 ? c->M / a->inv : a->tmin;
    c->work_term = c->T1 / mc->P;
    c->span_term = c->Tinf;
    c->pram = fmax(c->work_term, c->span_term);
    c->TP_global = fmax(c->pram, c->latency_term);
    c->Tstar = c->T1 > 0 ? c->M * mc->L / c->T1 : 0.0;
    c->speedup = c->TP_global > 0 ? c->T1 / c->TP_global : 0.0;
    /* Ties go to the PRAM terms: T = T* is already the PRAM range. */
    if (c->work_term >= c->span_term && c->work_term >= c->latency_term)
        c->dominant = MMM_TMM_WORK;
    else if (c->span_term >= c->latency_term)
        c->dominant = MMM_TMM_SPAN;
    else
        c->dominant = MMM_TMM_LATENCY;
}

static int kernel_cost(mmm_tmm_cost *c, const mmm_instance *inst, size_t k,
                       const mmm_tmm_machine *mc, int with_T,
                       mmm_class_val *scratch, mmm_error *err)
{
    const mmm_kernel *ker = &inst->program->kernels[k];
    const mmm_kernel_val *kv = &inst->kernels[k];
    accum a = {0, 0, 0, 0};
    launch l;
    int64_t copy;
    int rc;

    memset(c, 0, sizeof *c);
    if (kv->repeat <= 0) {
        cost_finish(c, &a, mc);
        return 0;
    }
    if (!kv->varies) {
        double r = (double)kv->repeat;
        if ((rc = launch_eval(&l, inst, k, inst->classes + ker->first_class,
                              mc, with_T, err)) < 0)
            return rc;
        accum_add(c, &a, r * l.W, r * l.S, r * l.M, r * l.words, l.threads,
                  l.T, r * l.lat, r * launch_time(&l, mc->P),
                  l.T > 0 ? r * l.M / l.T : 0, l.limit);
    } else {
        for (copy = 1; copy <= kv->repeat; copy++) {
            if ((rc = mmm_instance_eval_copy(inst, k, copy, scratch, err)) < 0)
                return rc;
            if ((rc = launch_eval(&l, inst, k, scratch, mc, with_T, err)) < 0)
                return rc;
            accum_add(c, &a, l.W, l.S, l.M, l.words, l.threads, l.T, l.lat,
                      launch_time(&l, mc->P), l.T > 0 ? l.M / l.T : 0,
                      l.limit);
        }
    }
    if (!with_T)
        c->TP = 0;
    cost_finish(c, &a, mc);
    return 0;
}

/* Longest path of the kernel DAG with node weights w: returns the length,
 * and the path when path != NULL (caller frees *path). */
static int longest_path(double *len, uint32_t **path, size_t *path_len,
                        const mmm_program *prog, const double *w,
                        mmm_error *err)
{
    size_t n = prog->nkernels;
    double *dist;
    uint32_t *from, end;

    *len = 0;
    if (path) {
        *path = NULL;
        *path_len = 0;
    }
    if (n == 0)
        return 0;
    dist = malloc(n * sizeof *dist);
    from = malloc(n * sizeof *from);
    if (!dist || !from) {
        free(dist);
        free(from);
        return mmm_error_set(err, MMM_ENOMEM, NULL, 0, "out of memory");
    }
    mmm__longest_path(prog, 0, w, sizeof *w, dist, from, &end);
    *len = dist[end];
    free(dist);
    if (path && mmm__longest_path_walk(path, path_len, from, end) < 0) {
        free(from);
        return mmm_error_set(err, MMM_ENOMEM, NULL, 0, "out of memory");
    }
    free(from);
    return 0;
}

/* Every kernel's costs, the program's totals and (with_T) its DAG time. */
static int tmm_pass(mmm_tmm *out, const mmm_instance *inst,
                    const mmm_tmm_machine *mc, int with_T, mmm_error *err)
{
    const mmm_program *prog = inst->program;
    size_t n = prog->nkernels, k, maxc = 1;
    mmm_class_val *scratch = NULL;
    double *w = NULL;
    accum a = {0, 0, 0, 0};
    int rc = 0;

    memset(out, 0, sizeof *out);
    out->machine = *mc;
    out->nkernels = n;
    for (k = 0; k < n; k++)
        if (prog->kernels[k].nclasses > maxc)
            maxc = prog->kernels[k].nclasses;
    out->kernels = calloc(n ? n : 1, sizeof *out->kernels);
    scratch = calloc(maxc, sizeof *scratch);
    w = calloc(n ? n : 1, sizeof *w);
    if (!out->kernels || !scratch || !w) {
        rc = mmm_error_set(err, MMM_ENOMEM, NULL, 0, "out of memory");
        goto done;
    }
    for (k = 0; k < n; k++) {
        mmm_tmm_cost *c = &out->kernels[k];
        if ((rc = kernel_cost(c, inst, k, mc, with_T, scratch, err)) < 0)
            goto done;
        accum_add(&out->program, &a, c->T1, 0, c->M, c->words, c->threads,
                  c->T, c->latency_term, 0, c->T > 0 ? c->M / c->T : 0,
                  c->limit);
    }
    for (k = 0; k < n; k++)
        w[k] = out->kernels[k].Tinf;
    if ((rc = longest_path(&out->program.Tinf, NULL, NULL, prog, w, err)) < 0)
        goto done;
    if (with_T) {
        for (k = 0; k < n; k++)
            w[k] = out->kernels[k].TP;
        if ((rc = longest_path(&out->program.TP, &out->path, &out->path_len,
                               prog, w, err)) < 0)
            goto done;
    }
    cost_finish(&out->program, &a, mc);
done:
    free(scratch);
    free(w);
    if (rc < 0)
        mmm_tmm_dispose(out);
    return rc;
}

/* The models read the class values that an instance made with
 * MMM_INSTANCE_NO_CLASSES does not keep. */
static int need_classes(const mmm_instance *inst, mmm_error *err)
{
    if (inst && !inst->classes)
        return mmm_error_set(err, MMM_EINVAL, inst->program->file, 0,
                             "the instance keeps no class values "
                             "(MMM_INSTANCE_NO_CLASSES)");
    return 0;
}

int mmm_tmm_compute(mmm_tmm *out, const mmm_instance *inst, mmm_error *err)
{
    mmm_tmm_machine mc;
    int rc;
    memset(out, 0, sizeof *out);
    if ((rc = need_classes(inst, err)) < 0)
        return rc;
    if ((rc = mmm_tmm_machine_get(&mc, inst, err)) < 0)
        return rc;
    return tmm_pass(out, inst, &mc, 1, err);
}

void mmm_tmm_dispose(mmm_tmm *t)
{
    if (!t)
        return;
    free(t->kernels);
    free(t->path);
    memset(t, 0, sizeof *t);
}

/* ------------------------------------------------------------------ */
/* Balance principle                                                  */

double mmm__balance_crossover(double b0, double gb, double i0, double gi)
{
    if (gb == gi)
        return HUGE_VAL; /* parallel in log scale: they never cross */
    return log2(i0 / b0) / (gb - gi);
}

/* The optional growth parameters; 1 when all are declared and non-zero. */
static int growth_get(mmm_balance_machine *m, const mmm_instance *inst,
                      double dbl[6], mmm_error *err)
{
    static const char *const names[6] = {"dbl_flops", "dbl_beta", "half_alpha",
                                         "dbl_C", "dbl_Ztotal", "dbl_P"};
    int i, have = 0;
    for (i = 0; i < 6; i++) {
        if (!param_get(inst, names[i], &dbl[i]))
            continue;
        if (!isfinite(dbl[i]) || dbl[i] == 0)
            return mmm_error_set(err, MMM_EINPUT, inst->program->file, 0,
                                 "machine parameter '%s' (a doubling time in "
                                 "years) must be finite and non-zero", names[i]);
        have++;
    }
    m->years = 10;
    if (param_get(inst, "years", &m->years) && !isfinite(m->years))
        return mmm_error_set(err, MMM_EINPUT, inst->program->file, 0,
                             "parameter 'years' must be finite");
    m->has_year0 = param_get(inst, "year0", &m->year0);
    return have == 6;
}

static void projection(mmm_balance_machine *m, const double dbl[6])
{
    double t = m->years;
    double gb = 1 / dbl[0] - 1 / dbl[1];            /* of P·C0/beta */
    double gi = 0.5 * (1 / dbl[4] - 1 / dbl[5]);    /* of sqrt(Z/P) */
    m->at_peak = m->peak * exp2(t / dbl[0]);
    m->at_beta = m->beta * exp2(t / dbl[1]);
    m->at_alpha = m->alpha * exp2(-t / dbl[2]);
    m->at_transaction_bytes = m->transaction_bytes * exp2(t / dbl[3]);
    m->at_Ztotal = m->Ztotal * exp2(t / dbl[4]);
    m->at_P = m->P * exp2(t / dbl[5]);
    m->at_balance_bytes = m->at_peak / m->at_beta;
    m->at_matmul = sqrt(m->at_Ztotal / m->at_P);
    m->crossover = mmm__balance_crossover(m->balance_bytes, gb, m->matmul, gi);
    m->crossover_irony =
        mmm__balance_crossover(m->balance_bytes, gb, sqrt(2.0) * m->matmul, gi);
    m->crossover_words = mmm__balance_crossover(m->balance, gb, m->matmul, gi);
}

int mmm_balance_machine_get(mmm_balance_machine *out,
                            const mmm_instance *inst, mmm_error *err)
{
    static const param_spec spec[6] = {
        {"P", "number of cores", 0},
        {"C0", "operations per second per core", 0},
        {"beta", "memory bandwidth, bytes per second", 0},
        {"alpha", "memory latency, seconds", 1},
        {"C", "words per memory transaction", 0},
        {"word_bytes", "bytes per word", 0},
    };
    double *dst[6], dbl[6];
    int i, rc;

    memset(out, 0, sizeof *out);
    dst[0] = &out->P; dst[1] = &out->C0; dst[2] = &out->beta;
    dst[3] = &out->alpha; dst[4] = &out->C; dst[5] = &out->word_bytes;
    for (i = 0; i < 6; i++)
        if ((rc = require_param(inst, &spec[i], "balance principle", dst[i], err)) < 0)
            return rc;
    out->peak = out->P * out->C0;
    out->balance_bytes = out->peak / out->beta;
    out->balance = out->balance_bytes * out->word_bytes;
    out->transaction_bytes = out->C * out->word_bytes;
    out->littles = out->alpha * out->beta / out->transaction_bytes;
    out->matmul = out->sort = NAN;
    out->crossover = out->crossover_irony = out->crossover_words = NAN;
    out->has_Z = param_get(inst, "Ztotal", &out->Ztotal);
    if (out->has_Z) {
        if (!isfinite(out->Ztotal) || out->Ztotal <= 0)
            return mmm_error_set(err, MMM_EINPUT, inst->program->file, 0,
                                 "machine parameter 'Ztotal' (fast memory of "
                                 "the chip, words) must be > 0");
        out->matmul = sqrt(out->Ztotal / out->P);
        out->sort = log2(out->Ztotal / out->P);
        out->matmul_ok = out->balance_bytes <= out->matmul;
    }
    if ((rc = growth_get(out, inst, dbl, err)) < 0)
        return rc;
    out->has_growth = rc == 1 && out->has_Z;
    if (out->has_growth)
        projection(out, dbl);
    return 0;
}

void mmm__balance_eval(mmm_balance_cost *out, const mmm_balance_machine *m,
                       double W, double D, double Q)
{
    memset(out, 0, sizeof *out);
    out->W = W;
    out->D = D;
    out->Q = Q;
    out->words = Q * m->C;
    out->intensity = safe_div(W, out->words);
    /* Little's law: alpha·beta/L transactions must be in flight, and the
     * program offers Q/D per step of its critical path. */
    out->little = 1 + safe_div(m->alpha * m->beta * D, m->transaction_bytes * Q);
    out->amdahl = 1 + safe_div(m->P * D, W);
    out->lhs = m->balance * out->little;
    out->rhs = out->intensity * out->amdahl;
    out->T_comp = (D + W / m->P) / m->C0;
    out->T_mem = m->alpha * D + Q * m->transaction_bytes / m->beta;
    out->ratio = safe_div(out->T_mem, out->T_comp);
    out->memory_bound = out->T_mem > out->T_comp;
}

int mmm_balance_compute(mmm_balance *out, const mmm_instance *inst,
                        mmm_error *err)
{
    mmm_tmm traffic;
    mmm_tmm_machine mc = {0, 1, 1, 1, 1, 1};
    size_t k;
    int rc;

    memset(out, 0, sizeof *out);
    if ((rc = need_classes(inst, err)) < 0 ||
        (rc = mmm_balance_machine_get(&out->machine, inst, err)) < 0)
        return rc;
    mc.P = out->machine.P;
    mc.C = out->machine.C;
    if ((rc = tmm_pass(&traffic, inst, &mc, 0, err)) < 0)
        return rc;
    out->nkernels = traffic.nkernels;
    out->kernels = calloc(traffic.nkernels ? traffic.nkernels : 1,
                          sizeof *out->kernels);
    if (!out->kernels) {
        mmm_tmm_dispose(&traffic);
        return mmm_error_set(err, MMM_ENOMEM, NULL, 0, "out of memory");
    }
    for (k = 0; k < traffic.nkernels; k++) {
        const mmm_tmm_cost *c = &traffic.kernels[k];
        mmm__balance_eval(&out->kernels[k], &out->machine, c->T1, c->Tinf, c->M);
    }
    mmm__balance_eval(&out->program, &out->machine, traffic.program.T1,
                      traffic.program.Tinf, traffic.program.M);
    mmm_tmm_dispose(&traffic);
    return 0;
}

void mmm_balance_dispose(mmm_balance *b)
{
    if (!b)
        return;
    free(b->kernels);
    memset(b, 0, sizeof *b);
}
