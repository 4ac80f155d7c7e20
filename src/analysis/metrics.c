/* metrics.c: the MMM measures of an evaluated program (W, S, O, N, L, C,
 * K), its critical paths and the Graham–Brent bounds.  Everything works on
 * the kernel DAG: S and L are longest paths (one pass in topological
 * order), K is the largest weighted antichain (antichain.c). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mmm/metrics.h"
#include "model/program_internal.h"
#include "analysis/antichain.h"
#include "analysis/block_level.h"
#include "analysis/longest_path.h"

static int nomem(mmm_error *err)
{
    return mmm_error_set(err, MMM_ENOMEM, NULL, 0, "out of memory");
}

/* The measures are doubles: a sum past DBL_MAX would be inf, printed as a
 * number; refuse it like a 64-bit count overflow. */
static int check_finite(const mmm_instance *inst, const char *what, double v,
                        mmm_error *err)
{
    if (isfinite(v))
        return 0;
    return mmm_error_set(err, MMM_EOVERFLOW, inst->program->file, 0,
                         "%s overflows (more than 1.8e308)", what);
}

void mmm_metrics_dispose(mmm_metrics *m)
{
    if (!m)
        return;
    free(m->span_path);
    free(m->l_path);
    m->span_path = m->l_path = NULL;
    m->span_path_len = m->l_path_len = 0;
}

/* W, O, C and N: sums and a max over the kernels. */
static int sum_kernels(mmm_metrics *m, const mmm_instance *inst,
                       mmm_error *err)
{
    const mmm_program *p = inst->program;
    m->exact = MMM_EXACT_ALL;
    for (size_t i = 0; i < p->nparams && i < inst->nvalues; i++)
        if (!inst->values[i].exact && fabs(inst->values[i].d) >= 9007199254740992.0)
            m->lost = 1; /* -D n=10^19+1: exact arithmetic overflowed */
    for (size_t k = 0; k < inst->nkernels; k++) {
        const mmm_kernel_val *kv = &inst->kernels[k];
        m->W += kv->W;
        m->O += kv->O;
        if (kv->C > m->C)
            m->C = kv->C;
        m->exact &= kv->exact;
        m->lost |= kv->lost;
        if ((m->exact & MMM_EXACT_W) && __builtin_add_overflow(m->W_i, kv->W_i, &m->W_i))
            m->exact &= ~MMM_EXACT_W, m->lost = 1;
        if ((m->exact & MMM_EXACT_O) && __builtin_add_overflow(m->O_i, kv->O_i, &m->O_i))
            m->exact &= ~MMM_EXACT_O, m->lost = 1;
        if ((m->exact & MMM_EXACT_C) && kv->C_i > m->C_i)
            m->C_i = kv->C_i;
        if (__builtin_add_overflow(m->N, kv->N, &m->N))
            return mmm_error_set(err, MMM_EOVERFLOW, p->file, 0,
                                 "N (the number of thread blocks of the "
                                 "program) overflows 64 bits");
    }
    if (m->exact & MMM_EXACT_W)
        m->W = (double)m->W_i;
    if (m->exact & MMM_EXACT_O)
        m->O = (double)m->O_i;
    if (m->exact & MMM_EXACT_C)
        m->C = (double)m->C_i;
    int r;
    if ((r = check_finite(inst, "W (the work of the program)", m->W, err)) < 0 ||
        (r = check_finite(inst, "O (the overhead of the program)", m->O,
                          err)) < 0)
        return r;
    return 0;
}

/* S and L: longest paths weighted by the kernels' S and L, and (unless
 * NO_PATHS) a path achieving each.  L sums are bounded by N (checked). */
static int longest_paths(mmm_metrics *m, const mmm_instance *inst,
                         unsigned flags, mmm_error *err)
{
    const mmm_program *p = inst->program;
    size_t n = p->nkernels;
    if (n == 0)
        return 0;
    int paths = !(flags & MMM_METRICS_NO_PATHS);
    /* With exact integer spans the path sums are exact too (64-bit,
     * overflow checked), and the comparisons see every unit. */
    int xs = (m->exact & MMM_EXACT_S) != 0;
    double *ds = mmm__big_malloc(n * sizeof *ds);
    int64_t *dl = mmm__big_malloc(n * sizeof *dl);
    int64_t *dsi = xs ? mmm__big_malloc(n * sizeof *dsi) : NULL;
    uint32_t *bs = paths ? mmm__big_malloc(n * sizeof *bs) : NULL;
    uint32_t *bl = paths ? mmm__big_malloc(n * sizeof *bl) : NULL;
    int r = 0;
    if (!ds || !dl || (paths && (!bs || !bl)) || (xs && !dsi)) {
        r = nomem(err);
        goto done;
    }
    /* >=: among the ends of longest paths take the last in topological
     * order, so that kernels of cost 0 after the last costly one stay on
     * the path (it then ends at a sink). */
    uint32_t ends, endl;
    if (xs && mmm__longest_path_i64(p, MMM__LP_LAST_END, &inst->kernels[0].S_i,
                                    sizeof *inst->kernels, dsi, bs, &ends) == 0) {
        m->S_i = dsi[ends];
        m->S = (double)m->S_i;
    } else {
        if (xs) { /* past 2^63: doubles */
            m->exact &= ~MMM_EXACT_S;
            m->lost = 1;
        }
        mmm__longest_path(p, MMM__LP_LAST_END, &inst->kernels[0].S,
                          sizeof *inst->kernels, ds, bs, &ends);
        m->S = ds[ends];
        m->S_i = 0;
    }
    /* L sums are <= N, which did not overflow */
    mmm__longest_path_i64(p, MMM__LP_LAST_END, &inst->kernels[0].L,
                          sizeof *inst->kernels, dl, bl, &endl);
    m->L = dl[endl];
    if (!isfinite(m->S)) {
        r = check_finite(inst, "S (the span of the program)", m->S, err);
        goto done;
    }
    if (paths && (mmm__longest_path_walk(&m->span_path, &m->span_path_len, bs, ends) < 0 ||
                  mmm__longest_path_walk(&m->l_path, &m->l_path_len, bl, endl) < 0))
        r = nomem(err);
done:
    mmm__big_free(ds), mmm__big_free(dl), mmm__big_free(dsi);
    mmm__big_free(bs), mmm__big_free(bl);
    return r;
}


/* The series-parallel plan of the program's kernel DAG, built on the first
 * call and kept with the program (mmm__program_cache). */
typedef struct sp_cache {
    mmm__program_cache_entry head;
    mmm__sp_plan plan;
} sp_cache;

static void sp_cache_dispose(mmm__program_cache_entry *e)
{
    sp_cache *c = (sp_cache *)e;
    mmm__sp_plan_dispose(&c->plan);
    free(c);
}

static int sp_plan_of(const mmm_program *p, const mmm__sp_plan **out,
                      mmm_error *err)
{
    mmm__program_cache_entry *e = mmm__program_cache(p);
    if (!e) {
        sp_cache *c = calloc(1, sizeof *c);
        if (!c)
            return nomem(err);
        c->head.dispose = sp_cache_dispose;
        int r = mmm__sp_plan_build(&c->plan, p->nkernels, p->succ_start,
                                   p->succ, err);
        if (r < 0) {
            sp_cache_dispose(&c->head);
            return r;
        }
        e = mmm__program_cache_offer(p, &c->head);
    }
    *out = &((const sp_cache *)e)->plan;
    return 0;
}

static int compute_k(mmm_metrics *m, const mmm_instance *inst,
                     mmm_error *err)
{
    const mmm_program *p = inst->program;
    size_t n = p->nkernels;
    int64_t *w = mmm__big_malloc((n ? n : 1) * sizeof *w);
    if (!w)
        return nomem(err);
    /* Each weight is at most the kernel's N, so Σw <= N fits. */
    for (size_t k = 0; k < n; k++)
        w[k] = inst->kernels[k].K;
    const mmm__sp_plan *plan = NULL;
    int r = sp_plan_of(p, &plan, err);
    if (r < 0) {
        mmm__big_free(w);
        return r;
    }
    if (plan->is_sp) {
        m->k_method = MMM_K_SERIES_PARALLEL;
        r = mmm__sp_plan_eval(&m->K, plan, w, err);
    } else {
        m->k_method = MMM_K_FLOW;
        r = mmm__antichain_flow_preds(&m->K, n, w, p->succ_start, p->succ,
                                      p->pred_start, p->pred, err);
    }
    mmm__big_free(w);
    return r;
}

int mmm_metrics_compute(mmm_metrics *out, const mmm_instance *inst,
                        unsigned flags, mmm_error *err)
{
    if (!out || !inst)
        return mmm_error_set(err, MMM_EINVAL, NULL, 0,
                             "mmm_metrics_compute: missing argument");
    memset(out, 0, sizeof *out);
    int r;
    if ((r = sum_kernels(out, inst, err)) < 0 ||
        (r = longest_paths(out, inst, flags, err)) < 0 ||
        (!(flags & MMM_METRICS_NO_K) && (r = compute_k(out, inst, err)) < 0)) {
        mmm_metrics_dispose(out);
        return r;
    }
    if (!(flags & MMM_METRICS_NO_PATHS)) {
        if ((r = mmm__block_level(inst, &out->T1, &out->T_inf, err)) < 0) {
            mmm_metrics_dispose(out);
            return r;
        }
        out->has_blocks = 1;
        out->parallelism_blocks = out->T_inf > 0 ? out->T1 / out->T_inf : 0;
    }
    out->parallelism = out->S > 0 ? out->W / out->S : 0;
    out->has_p = inst->has_p;
    out->p = inst->p;
    if (out->has_p && out->p > 0)
        out->graham_brent =
            ((double)out->N / (double)out->p + (double)out->L) * out->C;
    if (out->K > 0)
        out->corollary =
            ((double)out->N / (double)out->K + (double)out->L) * out->C;
    if ((r = check_finite(inst, "W/S (the parallelism)", out->parallelism,
                          err)) < 0 ||
        (r = check_finite(inst, "the Graham-Brent bound (N/p + L)·C",
                          out->graham_brent, err)) < 0 ||
        (r = check_finite(inst, "the corollary bound (N/K + L)·C",
                          out->corollary, err)) < 0) {
        mmm_metrics_dispose(out);
        return r;
    }
    return 0;
}
