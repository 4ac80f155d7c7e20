/* scale.c: the sweep over the number of SMs p (mmm/scale.h): bounds,
 * simulated makespans and the speedup range for each p. */
#include "mmm/scale.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mmm/metrics.h"
#include "sim_int.h"
#include "base/grow.h"
#include "base/abi.h"

static int nomem(mmm_error *err)
{
    return mmm_error_set(err, MMM_ENOMEM, NULL, 0, "out of memory");
}

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* Sort and drop repetitions. */
static size_t sort_unique(int64_t *v, size_t n)
{
    size_t i, m = 0;
    qsort(v, n, sizeof *v, cmp_i64);
    for (i = 0; i < n; i++)
        if (m == 0 || v[m - 1] != v[i])
            v[m++] = v[i];
    return m;
}

/* The p of the measured speedups m (may be NULL) joined to the list. */
static int add_measured_p(int64_t **v, size_t *n, const mmm_speedup_measured *m,
                          mmm_error *err)
{
    int64_t *w;
    size_t i;
    if (!m || m->nmedians == 0)
        return MMM_OK;
    if (m->nmedians > MMM_SPEEDUP_MAX_ROWS)
        return mmm_error_set(err, MMM_ELIMIT, m->file, 0,
                             "more than %d values of p", MMM_SPEEDUP_MAX_ROWS);
    if (!(w = realloc(*v, (*n + m->nmedians) * sizeof *w)))
        return nomem(err);
    for (i = 0; i < m->nmedians; i++)
        w[*n + i] = m->medians[i].p;
    *v = w;
    *n = sort_unique(w, *n + m->nmedians);
    return MMM_OK;
}

int mmm_speedup_default_p(int64_t **out, size_t *n, double parallelism,
                        int64_t N, int64_t p_machine, mmm_error *err)
{
    double limit = parallelism;
    int64_t *v, p;
    size_t m = 0;
    if (!out || !n)
        return mmm_error_set(err, MMM_EINVAL, NULL, 0,
                             "mmm_speedup_default_p: missing argument");
    if (!(limit >= 1)) /* NaN too */
        limit = 1;
    if (N >= 1 && limit > (double)N)
        limit = (double)N;
    /* 1, 2, 4, ... and the first power of two at or past the limit, and
     * one more so that the flat part past it shows. */
    v = malloc(66 * sizeof *v);
    if (!v)
        return nomem(err);
    for (p = 1; m < 62; p *= 2) {
        v[m++] = p;
        if ((double)p >= 2 * limit || (double)p >= 2e9)
            break;
    }
    if (p_machine > 0)
        v[m++] = p_machine;
    *n = sort_unique(v, m);
    *out = v;
    return MMM_OK;
}

/* A positive integer at *s (spaces skipped); advances *s. */
static int parse_pos(const char **s, int64_t *out)
{
    char *end;
    long long v;
    while (isspace((unsigned char)**s))
        (*s)++;
    if (!isdigit((unsigned char)**s))
        return -1;
    errno = 0;
    v = strtoll(*s, &end, 10);
    if (errno || v <= 0)
        return -1;
    *s = end;
    while (isspace((unsigned char)**s))
        (*s)++;
    *out = v;
    return 0;
}

int mmm_speedup_parse_p(int64_t **out, size_t *n, const char *text,
                      mmm_error *err)
{
    const char *s = text;
    int64_t *v = NULL;
    size_t m = 0, cap = 0;
    *out = NULL;
    *n = 0;
    for (;;) {
        int64_t a, b, x;
        if (parse_pos(&s, &a) < 0)
            goto bad;
        b = a;
        if (s[0] == '.' && s[1] == '.') {
            s += 2;
            if (parse_pos(&s, &b) < 0)
                goto bad;
            if (b < a) {
                free(v);
                return mmm_error_set(err, MMM_EINVAL, NULL, 0,
                                     "p range '%lld..%lld' is empty: write the "
                                     "smaller end first",
                                     (long long)a, (long long)b);
            }
        }
        if ((uint64_t)(b - a) >= MMM_SPEEDUP_MAX_ROWS ||
            m + (size_t)(b - a) + 1 > MMM_SPEEDUP_MAX_ROWS) {
            free(v);
            return mmm_error_set(err, MMM_ELIMIT, NULL, 0,
                                 "more than %d values of p", MMM_SPEEDUP_MAX_ROWS);
        }
        for (x = a;; x++) {
            int64_t *nv = mmm__grow(v, &cap, m + 1, sizeof *nv, 16);
            if (!nv) {
                free(v);
                return nomem(err);
            }
            v = nv;
            v[m++] = x;
            if (x == b)
                break;
        }
        if (*s == '\0')
            break;
        if (*s != ',')
            goto bad;
        s++;
    }
    *n = sort_unique(v, m);
    *out = v;
    return MMM_OK;
bad:
    free(v);
    return mmm_error_set(err, MMM_EINVAL, NULL, 0,
                         "bad list of p '%s': write positive integers and "
                         "ranges separated by commas, e.g. 1,2,4 or 1..16",
                         text);
}

void mmm_speedup_dispose(mmm_speedup *s)
{
    if (!s)
        return;
    free(s->rows);
    free(s->makespans_);
    free(s->policies);
    memset(s, 0, sizeof *s);
}

/* The figures of one evaluated instance that the rows need. */
typedef struct figures {
    double T1, crit;
    mmm_metrics m;
} figures;

static int get_figures(figures *f, const mmm_instance *inst, unsigned flags,
                       mmm_error *err)
{
    int rc;
    memset(f, 0, sizeof *f);
    mmm__sim_prep prep;
    if ((rc = mmm_metrics_compute(&f->m, inst, flags | MMM_METRICS_NO_PATHS,
                                  err)) < 0)
        return rc;
    if ((rc = mmm__sim_prep_init(&prep, inst, err)) < 0)
        return rc;
    f->T1 = prep.total;
    f->crit = prep.critical_path;
    mmm__sim_prep_dispose(&prep);
    return MMM_OK;
}

static void fill_bounds(mmm_speedup_row *r, const figures *f, int64_t p)
{
    double pd = (double)p;
    r->p = p;
    r->T1 = f->T1;
    r->lower_bound = fmax(f->T1 / pd, f->crit);
    r->graham = f->T1 / pd + (1.0 - 1.0 / pd) * f->crit;
    /* Greedy schedules never beat the lower bound nor lose to Graham's. */
    if (r->graham < r->lower_bound)
        r->graham = r->lower_bound;
    r->graham_brent = ((double)f->m.N / pd + (double)f->m.L) * f->m.C;
    r->has_corollary = f->m.K > 0 && p >= f->m.K;
    r->corollary = r->has_corollary ? f->m.corollary : 0;
    r->speedup_min = r->graham > 0 ? f->T1 / r->graham : 1;
    r->speedup_max = r->lower_bound > 0 ? f->T1 / r->lower_bound : 1;
}

static int simulate_row(mmm_speedup *s, size_t i, const mmm_instance *inst,
                        const mmm_speedup_options *opt, mmm_error *err)
{
    size_t j;
    for (j = 0; j < s->npolicies; j++) {
        mmm_sim_options so = MMM_SIM_OPTIONS_INIT;
        mmm_sim_result res;
        int rc;
        so.p = s->rows[i].p;
        so.policy = s->policies[j];
        so.seed = opt->seed;
        so.max_launches = opt->max_launches;
        so.progress = MMM__PROGRESS(opt, 2);
        so.progress_payload = so.progress ? opt->progress_payload : NULL;
        if ((rc = mmm_simulate(&res, inst, &so, err)) < 0)
            return rc;
        s->rows[i].makespan[j] = res.makespan;
        mmm_sim_result_dispose(&res);
    }
    return MMM_OK;
}

/* Evaluate the program again with p = value (a p-dependent program). */
static int eval_at(mmm_instance *w, const mmm_override *ov, size_t nov,
                   mmm_override *buf, int pslot, int64_t p, mmm_error *err)
{
    size_t i, n = 0;
    int rc;
    for (i = 0; i < nov; i++)
        if (ov[i].slot != pslot)
            buf[n++] = ov[i];
    buf[n].slot = pslot;
    buf[n++].value = mmm_value_int(p);
    if ((rc = mmm_instance_eval(w, buf, n, err)) < 0)
        return rc;
    mmm_instance_set_p(w, p);
    return MMM_OK;
}

static int alloc_result(mmm_speedup *s, const mmm_speedup_options *opt,
                        size_t nrows, mmm_error *err)
{
    size_t i;
    s->npolicies = opt->npolicies && opt->policies ? opt->npolicies : 1;
    s->policies = malloc(s->npolicies * sizeof *s->policies);
    s->rows = calloc(nrows ? nrows : 1, sizeof *s->rows);
    s->makespans_ = calloc(nrows * s->npolicies + 1, sizeof *s->makespans_);
    if (!s->policies || !s->rows || !s->makespans_)
        return nomem(err);
    for (i = 0; i < s->npolicies; i++)
        s->policies[i] = opt->npolicies && opt->policies ? opt->policies[i]
                                                          : &mmm_sim_policy_fifo;
    for (i = 0; i < nrows; i++)
        s->rows[i].makespan = s->makespans_ + i * s->npolicies;
    s->nrows = nrows;
    return MMM_OK;
}

void mmm_speedup_options_init(mmm_speedup_options *opt)
{
    static const mmm_speedup_options defaults = MMM_SPEEDUP_OPTIONS_INIT;
    if (opt)
        *opt = defaults;
}

int mmm_speedup_compute(mmm_speedup *out, const mmm_instance *inst,
                      const mmm_override *ov, size_t nov,
                      const mmm_speedup_options *opt, mmm_error *err)
{
    static const mmm_speedup_options defaults = MMM_SPEEDUP_OPTIONS_INIT;
    mmm_speedup s;
    figures base, row;
    int64_t *plist = NULL;
    size_t np, i;
    mmm_instance *w = NULL;
    mmm_override *buf = NULL;
    const mmm_speedup_measured *meas;
    int pslot, rc;

    if (!out || !inst || (nov && !ov))
        return mmm_error_set(err, MMM_EINVAL, NULL, 0,
                             "mmm_speedup_compute: missing argument");
    MMM__CHECK_VERSION(opt, mmm_speedup_options, SPEEDUP_OPTIONS, err);
    if (!opt)
        opt = &defaults;
    memset(&s, 0, sizeof s);
    memset(&row, 0, sizeof row);
    meas = opt->version >= 3 ? opt->measured : NULL;
    if ((rc = get_figures(&base, inst, 0, err)) < 0) {
        mmm_metrics_dispose(&base.m);
        return rc;
    }
    s.W = base.m.W;
    s.S = base.m.S;
    s.parallelism = base.m.parallelism;
    s.T1 = base.T1;
    s.critical_path = base.crit;
    s.N = base.m.N;
    s.L = base.m.L;
    s.K = base.m.K;
    s.C = base.m.C;
    s.has_p = inst->has_p;
    s.p = inst->has_p ? inst->p : 0;
    pslot = mmm_program_find_param(inst->program, "p");
    s.p_dependent = pslot >= 0;

    if (opt->p) {
        np = opt->np;
        for (i = 0; i < np; i++)
            if (opt->p[i] <= 0) {
                rc = mmm_error_set(err, MMM_EINVAL, NULL, 0,
                                   "p must be positive (%lld)",
                                   (long long)opt->p[i]);
                goto fail;
            }
    } else {
        /* the block level bounds the speedup: past T1/T_inf the rows are flat */
        double par = base.crit > 0 ? base.T1 / base.crit : 1;
        if ((rc = mmm_speedup_default_p(&plist, &np, par, s.N, s.p, err)) < 0 ||
            (rc = add_measured_p(&plist, &np, meas, err)) < 0)
            goto fail;
    }
    if ((rc = alloc_result(&s, opt, np, err)) < 0)
        goto fail;
    if (s.p_dependent) {
        buf = malloc((nov + 1) * sizeof *buf);
        if (!buf) {
            rc = nomem(err);
            goto fail;
        }
        if ((rc = mmm_instance_new(&w, inst->program, err)) < 0)
            goto fail;
    }
    for (i = 0; i < np; i++) {
        int64_t p = opt->p ? opt->p[i] : plist[i];
        const mmm_instance *at = inst;
        const figures *f = &base;
        if (s.p_dependent) {
            mmm_metrics_dispose(&row.m);
            if ((rc = eval_at(w, ov, nov, buf, pslot, p, err)) < 0 ||
                (rc = get_figures(&row, w, 0, err)) < 0)
                goto fail;
            at = w;
            f = &row;
        }
        fill_bounds(&s.rows[i], f, p);
        if (MMM__PROGRESS(opt, 2))
            opt->progress(opt->progress_payload, "speedup over p", i, np);
        if ((rc = simulate_row(&s, i, at, opt, err)) < 0)
            goto fail;
    }
    *out = s;
    rc = MMM_OK;
    goto done;
fail:
    mmm_speedup_dispose(&s);
done:
    if (MMM__PROGRESS(opt, 2))
        opt->progress(opt->progress_payload, NULL, 0, 0);
    mmm_metrics_dispose(&base.m);
    mmm_metrics_dispose(&row.m);
    mmm_instance_free(w);
    free(buf);
    free(plist);
    return rc;
}
