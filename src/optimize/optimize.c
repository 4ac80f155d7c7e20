/* optimize.c: sweeps over one or two program parameters and the summary the
 * MMM recipe needs (best point, baseline, ratios, W/S factors, the
 * Graham–Brent checks).  One instance is re-evaluated point after point;
 * nothing is stored per point. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mmm/optimize.h"
#include "mmm/timemodel.h"
#include "optimize/optimize_internal.h"
#include "time/limits.h"
#include "base/abi.h"

/* Relative tolerance under which two costs are the same (see the header). */
#define COST_RTOL 1e-12

static const char *const objective_names[] = {
    [MMM_OBJECTIVE_OVERHEAD] = "overhead", [MMM_OBJECTIVE_BOUND] = "bound",
    [MMM_OBJECTIVE_COROLLARY] = "corollary", [MMM_OBJECTIVE_TIME] = "time"};
#define NOBJECTIVES (sizeof objective_names / sizeof *objective_names)
_Static_assert(NOBJECTIVES == MMM_OBJECTIVE_TIME + 1, "a name for every objective");

/* An unknown value is the default objective, O. */
const char *mmm_objective_name(mmm_objective o)
{
    return (unsigned)o < NOBJECTIVES ? objective_names[o] : "overhead";
}

int mmm_objective_parse(mmm_objective *out, const char *name)
{
    for (unsigned i = 0; i < NOBJECTIVES; i++)
        if (!strcmp(name, objective_names[i])) {
            *out = (mmm_objective)i;
            return MMM_OK;
        }
    return MMM_EINVAL;
}

int mmm__cost_equal(double a, double b)
{
    if (a == b)
        return 1;
    return fabs(a - b) <= COST_RTOL * fmax(fabs(a), fabs(b));
}

char *mmm_sweep_point_format(char *buf, size_t size, const mmm_program *prog,
                             const mmm_sweep_result *res, const mmm_sweep_point *pt)
{
    size_t a, len = 0;
    if (!buf || size == 0)
        return buf;
    buf[0] = '\0';
    for (a = 0; prog && res && pt && a < res->naxes && len + 1 < size; a++) {
        char v[64];
        int n = snprintf(buf + len, size - len, "%s%s = %s", a ? ", " : "",
                         prog->params[res->axes[a].slot].name,
                         mmm_value_format(pt->params[a], 0, v, sizeof v));
        if (n < 0)
            break;
        len += (size_t)n;
    }
    return buf;
}

int mmm_sweep_points_differ(const mmm_sweep_result *res, const mmm_sweep_point *a,
                            const mmm_sweep_point *b)
{
    size_t i;
    for (i = 0; i < res->naxes; i++)
        if (a->params[i].d != b->params[i].d)
            return 1;
    return 0;
}

/* ------------------------------------------------------------------ */
/* Exact rational arithmetic on mmm_value, falling back to double when a
 * step overflows 64 bits (the value then says it is inexact). */

static int exact2(mmm_value a, mmm_value b)
{
    return a.exact && b.exact;
}

/* a + k·b exactly when possible. */
static mmm_value q_add_mul(mmm_value a, int64_t k, mmm_value b)
{
    int64_t n1, n2, kn, den, num;
    if (exact2(a, b) &&
        !__builtin_mul_overflow(a.num, b.den, &n1) &&
        !__builtin_mul_overflow(b.num, k, &kn) &&
        !__builtin_mul_overflow(kn, a.den, &n2) &&
        !__builtin_add_overflow(n1, n2, &num) &&
        !__builtin_mul_overflow(a.den, b.den, &den))
        return mmm_value_ratio(num, den);
    return mmm_value_double(a.d + (double)k * b.d);
}

/* a·b exactly when possible. */
static mmm_value q_mul(mmm_value a, mmm_value b)
{
    int64_t num, den;
    if (exact2(a, b) && !__builtin_mul_overflow(a.num, b.num, &num) &&
        !__builtin_mul_overflow(a.den, b.den, &den))
        return mmm_value_ratio(num, den);
    return mmm_value_double(a.d * b.d);
}

/* a·f^i exactly when possible (by squaring), else in doubles. */
static mmm_value q_geometric(mmm_value a, mmm_value f, uint64_t i)
{
    mmm_value r = a, b = f;
    for (uint64_t k = i; k > 0 && r.exact; k >>= 1) {
        if (k & 1)
            r = q_mul(r, b);
        if (k > 1)
            b = q_mul(b, b);
    }
    if (!r.exact)
        return mmm_value_double(a.d * pow(f.d, (double)i));
    return r;
}

/* floor((to - from) / step) exactly; returns 0 and *out, or -1 when the
 * exact computation overflows. */
static int q_steps(int64_t *out, mmm_value from, mmm_value to, mmm_value step)
{
    int64_t a, b, num, den, q;
    /* (to - from)/step = (to.num·from.den - from.num·to.den)·step.den
     *                    / (to.den·from.den·step.num) */
    if (__builtin_mul_overflow(to.num, from.den, &a) ||
        __builtin_mul_overflow(from.num, to.den, &b) ||
        __builtin_sub_overflow(a, b, &num) ||
        __builtin_mul_overflow(num, step.den, &num) ||
        __builtin_mul_overflow(to.den, from.den, &den) ||
        __builtin_mul_overflow(den, step.num, &den))
        return -1;
    if (den < 0) {
        if (num == INT64_MIN || den == INT64_MIN)
            return -1;
        num = -num;
        den = -den;
    }
    q = num / den;
    if (num % den != 0 && num < 0)
        q--; /* C truncates toward zero; we want floor */
    *out = q;
    return 0;
}

/* -1, 0, 1 as a < b, a == b, a > b (exactly when both are exact and the
 * cross products fit). */
static int value_cmp(mmm_value a, mmm_value b)
{
    int64_t x, y;
    if (exact2(a, b) && !__builtin_mul_overflow(a.num, b.den, &x) &&
        !__builtin_mul_overflow(b.num, a.den, &y))
        return (x > y) - (x < y);
    return (a.d > b.d) - (a.d < b.d);
}

mmm_value mmm_sweep_range_value(const mmm_sweep_range *r, uint64_t i)
{
    if (r->values)
        return r->values[i];
    if (r->geometric)
        return q_geometric(r->from, r->step, i);
    if (i > (uint64_t)INT64_MAX)
        return mmm_value_double(r->from.d + (double)i * r->step.d);
    return q_add_mul(r->from, (int64_t)i, r->step);
}

/* ------------------------------------------------------------------ */
/* Evaluation context: the override list, built once. */

typedef struct sweep_ctx {
    mmm_instance *inst;
    const mmm_sweep_spec *spec;
    mmm_override *ov;  /* nbase fixed ones, then one per axis */
    size_t nbase;
    int set_p;         /* p given and not a (swept) parameter of the program */
    /* The machine's launch limits (mmm_time_limits_get), read at the
     * first point, again at every point when a machine parameter is
     * swept; limits_given of them given (0: none enforced). */
    mmm_time_machine limits;
    int limits_read, limits_vary, limits_given;
} sweep_ctx;

static int is_swept(const mmm_sweep_spec *spec, int slot)
{
    size_t a;
    for (a = 0; a < spec->naxes; a++)
        if (spec->axes[a].slot == slot)
            return 1;
    return 0;
}

static int ctx_init(sweep_ctx *ctx, mmm_instance *inst,
                    const mmm_sweep_spec *spec, mmm_error *err)
{
    const mmm_program *prog = inst->program;
    int pslot = mmm_program_find_param(prog, "p");
    int p_override = spec->has_p && pslot >= 0 && !is_swept(spec, pslot);
    size_t i, n = 0;

    memset(ctx, 0, sizeof *ctx);
    ctx->inst = inst;
    ctx->spec = spec;
    ctx->ov = malloc((spec->nfixed + 1 + MMM_SWEEP_MAX_AXES) * sizeof *ctx->ov);
    if (!ctx->ov)
        return mmm_error_set(err, MMM_ENOMEM, NULL, 0, "out of memory");
    /* A sweep value wins over a fixed override of the same parameter, and
     * -p over a -D p. */
    for (i = 0; i < spec->nfixed; i++) {
        int slot = spec->fixed[i].slot;
        if (is_swept(spec, slot) || (p_override && slot == pslot))
            continue;
        ctx->ov[n++] = spec->fixed[i];
    }
    if (p_override) {
        ctx->ov[n].slot = pslot;
        ctx->ov[n++].value = mmm_value_int(spec->p);
    }
    ctx->nbase = n;
    ctx->set_p = spec->has_p && pslot < 0;
    for (i = 0; i < spec->naxes; i++)
        ctx->limits_vary |= mmm__time_limit_param(prog->params[spec->axes[i].slot].name);
    return MMM_OK;
}

static void ctx_dispose(sweep_ctx *ctx)
{
    free(ctx->ov);
    ctx->ov = NULL;
}

/* Evaluate the instance with the fixed overrides and, when params is not
 * NULL, the sweep values. */
static int ctx_eval(sweep_ctx *ctx, const mmm_value *params, mmm_error *err)
{
    size_t a, n = ctx->nbase;
    int rc;
    if (params)
        for (a = 0; a < ctx->spec->naxes; a++) {
            ctx->ov[n].slot = ctx->spec->axes[a].slot;
            ctx->ov[n++].value = params[a];
        }
    if (ctx->set_p)
        mmm_instance_set_p(ctx->inst, ctx->spec->p);
    rc = mmm_instance_eval(ctx->inst, ctx->ov, n, err);
    if (ctx->set_p)
        mmm_instance_set_p(ctx->inst, ctx->spec->p);
    return rc;
}

static int infeasible_code(int rc)
{
    return rc == MMM_EINFEASIBLE || rc == MMM_EDOMAIN || rc == MMM_EOVERFLOW;
}

/* Infeasible when a launch exceeds a limit of machine m (the reason in
 * why, its kind in pt->why); a fatal error otherwise. */
static int check_limits(const sweep_ctx *ctx, const mmm_time_machine *m,
                        mmm_sweep_point *pt, mmm_error *why, mmm_error *err)
{
    mmm_time_excess x = MMM_TIME_FITS;
    int rc = mmm_time_check_launches(ctx->inst, m, &x, why);
    if (rc == MMM_EINFEASIBLE) {
        pt->status = rc;
        pt->why = (int)x;
        return MMM_OK;
    }
    if (rc < 0 && err)
        *err = *why;
    return rc;
}

/* The launch limits the machine gives, enforced for every objective. */
static int point_limits(sweep_ctx *ctx, mmm_sweep_point *pt, mmm_error *why,
                        mmm_error *err)
{
    int rc;
    if (!ctx->limits_read || ctx->limits_vary) {
        if ((rc = mmm_time_limits_get(&ctx->limits, ctx->inst, MMM_TIME_LIMITS_GIVEN,
                                      &ctx->limits_given, err)) < 0)
            return rc;
        ctx->limits_read = 1;
    }
    return ctx->limits_given > 0 ? check_limits(ctx, &ctx->limits, pt, why, err)
                                 : MMM_OK;
}

/* The time model's seconds of the evaluated point: a machine parameter
 * missing or out of range stops the sweep; a block this machine cannot run
 * makes the point infeasible. */
static int point_time(sweep_ctx *ctx, mmm_sweep_point *pt, mmm_error *why,
                      mmm_error *err)
{
    mmm_time_machine m;
    mmm_time t;
    int rc = mmm_time_machine_get(&m, ctx->inst, 1, err);
    if (rc < 0)
        return rc;
    if (ctx->spec->launch == 1)
        m.graph = 0;
    else if (ctx->spec->launch == 2)
        m.graph = 1;
    /* its limits, with the time model's defaults (block_threads 1024) */
    if ((rc = check_limits(ctx, &m, pt, why, err)) < 0 || pt->status != 0)
        return rc;
    rc = mmm_time_compute(&t, ctx->inst, &m, why);
    if (rc == MMM_EINPUT) {
        pt->status = MMM_EINFEASIBLE;
        pt->why = MMM_SWEEP_WHY_TIME;
        return MMM_OK;
    }
    if (rc < 0) {
        if (err)
            *err = *why;
        return rc;
    }
    pt->seconds = pt->objective = t.seconds;
    mmm_time_dispose(&t);
    return MMM_OK;
}

/* Evaluate one point into pt.  Returns 0 (pt->status says whether it is
 * feasible; why gets the reason) or a fatal error. */
static int eval_point(mmm_sweep_point *pt, sweep_ctx *ctx, mmm_error *why,
                      mmm_error *err)
{
    mmm_metrics m;
    int rc;
    size_t a;
    mmm_value params[MMM_SWEEP_MAX_AXES];

    for (a = 0; a < ctx->spec->naxes; a++)
        params[a] = pt->params[a];
    pt->status = 0;
    pt->why = MMM_SWEEP_WHY_PROGRAM;
    pt->W = pt->S = pt->O = pt->C = 0;
    pt->N = pt->L = pt->K = 0;
    pt->has_p = 0;
    pt->p = 0;
    pt->graham_brent = pt->corollary = pt->objective = pt->seconds = 0;

    rc = ctx_eval(ctx, params, why);
    if (rc == MMM_OK) {
        memset(&m, 0, sizeof m);
        rc = mmm_metrics_compute(&m, ctx->inst, MMM_METRICS_NO_PATHS, why);
        if (rc == MMM_OK) {
            pt->W = m.W;
            pt->S = m.S;
            pt->O = m.O;
            pt->C = m.C;
            pt->N = m.N;
            pt->L = m.L;
            pt->K = m.K;
            pt->has_p = m.has_p;
            pt->p = m.p;
            pt->graham_brent = m.graham_brent;
            pt->corollary = m.corollary;
        }
        mmm_metrics_dispose(&m);
    }
    if (rc < 0) {
        if (!infeasible_code(rc)) {
            if (err)
                *err = *why;
            return rc;
        }
        pt->status = rc;
        return MMM_OK;
    }
    if ((rc = point_limits(ctx, pt, why, err)) < 0 || pt->status != 0)
        return rc;
    switch (ctx->spec->objective) {
    case MMM_OBJECTIVE_BOUND:
        if (!pt->has_p)
            return mmm_error_set(err, MMM_EINVAL, ctx->inst->program->file, 0,
                                 "the bound objective needs p (the number of SMs)");
        pt->objective = pt->graham_brent;
        break;
    case MMM_OBJECTIVE_COROLLARY: pt->objective = pt->corollary; break;
    case MMM_OBJECTIVE_TIME: return point_time(ctx, pt, why, err);
    default: pt->objective = pt->O; break;
    }
    return MMM_OK;
}

/* ------------------------------------------------------------------ */
/* Resolving the axes. */

/* Values of every parameter at the fixed overrides, for the default range
 * ends.  The instance's own evaluation is authoritative; when the default
 * point itself is infeasible (a constraint the sweep will vary), evaluate
 * the parameters in declaration order ourselves. */
static int param_values(mmm_value *vals, sweep_ctx *ctx, mmm_error *err)
{
    const mmm_program *prog = ctx->inst->program;
    size_t i, k;
    mmm_error ignored, inner;

    if (ctx_eval(ctx, NULL, &ignored) == MMM_OK) {
        for (i = 0; i < prog->nslots && i < ctx->inst->nvalues; i++)
            vals[i] = ctx->inst->values[i];
        return MMM_OK;
    }
    for (i = 0; i < prog->nparams; i++) {
        int found = 0;
        for (k = 0; k < ctx->nbase; k++)
            if (ctx->ov[k].slot == (int)i) {
                vals[i] = ctx->ov[k].value;
                found = 1;
            }
        if (!found && mmm_expr_eval(prog->params[i].value, vals, prog->nslots,
                                    &vals[i], &inner) < 0)
            return mmm_error_set(err, inner.code, prog->file,
                                 prog->params[i].line,
                                 "cannot evaluate parameter '%s': %s",
                                 prog->params[i].name, inner.message);
    }
    return MMM_OK;
}

static int range_end(mmm_value *out, const mmm_program *prog, int slot,
                     int is_max, const mmm_value *vals, mmm_error *err)
{
    const mmm_param *par = &prog->params[slot];
    const mmm_expr *e = is_max ? par->max : par->min;
    mmm_error inner;
    if (!e)
        return mmm_error_set(err, MMM_EINVAL, prog->file, par->line,
                             "parameter '%s' declares no %s: give the %s of "
                             "the range", par->name, is_max ? "max" : "min",
                             is_max ? "end" : "start");
    if (mmm_expr_eval(e, vals, prog->nslots, out, &inner) < 0)
        return mmm_error_set(err, inner.code, prog->file, par->line,
                             "cannot evaluate the %s of '%s': %s",
                             is_max ? "max" : "min", par->name, inner.message);
    return MMM_OK;
}

/* Value v of a geometric range r does not pass its end. */
static int geometric_within(const mmm_sweep_range *r, int up, uint64_t i)
{
    int c = value_cmp(mmm_sweep_range_value(r, i), r->to);
    return up ? c <= 0 : c >= 0;
}

/* from, from·f, from·f², ... not passing to: growing in value when from
 * and f - 1 have the same sign, else falling. */
static int resolve_geometric(mmm_sweep_range *r, const char *name, mmm_error *err)
{
    double f = r->step.d, q, n;
    int up = (r->from.d > 0) == (f > 1);
    uint64_t k;
    char a[64], b[64], c[64];
    if (!(f > 0) || f == 1 || !isfinite(f))
        return mmm_error_set(err, MMM_EINVAL, NULL, 0, "the factor of '%s' must be "
                             "positive and not 1", name);
    if (r->from.d == 0)
        return mmm_error_set(err, MMM_EINVAL, NULL, 0, "a geometric range of '%s' "
                             "cannot start at 0", name);
    if (!geometric_within(r, up, 0))
        return mmm_error_set(err, MMM_EINVAL, NULL, 0, "the range of '%s' is empty "
                             "(from %s to %s with factor %s)", name,
                             mmm_value_format(r->from, 0, a, sizeof a),
                             mmm_value_format(r->to, 0, b, sizeof b),
                             mmm_value_format(r->step, 0, c, sizeof c));
    q = r->to.d / r->from.d;
    n = q > 0 ? floor(log(q) / log(f) + 1e-9) : HUGE_VAL;
    if (!(n < 1e18))
        return mmm_error_set(err, MMM_EINVAL, NULL, 0, "the range of '%s' has too "
                             "many values (from %s, factor %s, to %s)", name,
                             mmm_value_format(r->from, 0, a, sizeof a),
                             mmm_value_format(r->step, 0, c, sizeof c),
                             mmm_value_format(r->to, 0, b, sizeof b));
    /* the estimate made exact: the last value within the range */
    for (k = n > 0 ? (uint64_t)n : 0; geometric_within(r, up, k + 1); k++)
        ;
    while (k > 0 && !geometric_within(r, up, k))
        k--;
    r->count = k + 1;
    r->to = mmm_sweep_range_value(r, k);
    return MMM_OK;
}

static int resolve_range(mmm_sweep_range *r, const mmm_sweep_axis *ax,
                         const mmm_program *prog, const mmm_value *vals,
                         mmm_error *err)
{
    const char *name = prog->params[ax->slot].name;
    long line = prog->params[ax->slot].line; /* its declaration */
    int64_t steps;
    int rc;

    r->step = ax->has_step ? ax->step : mmm_value_int(ax->geometric ? 2 : 1);
    r->geometric = ax->geometric != 0;
    if (r->step.d == 0 || !isfinite(r->step.d))
        return mmm_error_set(err, MMM_EINVAL, prog->file, line,
                             "the step of '%s' must be a non-zero number", name);
    if (ax->has_from)
        r->from = ax->from;
    else if ((rc = range_end(&r->from, prog, ax->slot, 0, vals, err)) < 0)
        return rc;
    if (ax->has_to)
        r->to = ax->to;
    else if ((rc = range_end(&r->to, prog, ax->slot, 1, vals, err)) < 0)
        return rc;
    if (r->geometric)
        return resolve_geometric(r, name, err);

    if (r->from.exact && r->to.exact && r->step.exact &&
        q_steps(&steps, r->from, r->to, r->step) == 0) {
        if (steps < 0)
            goto empty;
        r->count = (uint64_t)steps + 1;
    } else {
        double q = (r->to.d - r->from.d) / r->step.d;
        if (!(q >= -1e-9) || !isfinite(q))
            goto empty;
        if (q > 1e18)
            return mmm_error_set(err, MMM_EINVAL, prog->file, line,
                                 "the range of '%s' has too many values", name);
        /* 1e-9 absorbs the rounding of (to - from)/step in doubles. */
        r->count = (uint64_t)floor(q + 1e-9) + 1;
    }
    r->to = mmm_sweep_range_value(r, r->count - 1);
    return MMM_OK;
empty: {
        char a[64], b[64];
        return mmm_error_set(err, MMM_EINVAL, prog->file, line,
                             "the range of '%s' is empty (from %s to %s with "
                             "step %s): give a start below the end (--from, --to) "
                             "or a negative --step", name,
                             mmm_value_format(r->from, 0, a, sizeof a),
                             mmm_value_format(r->to, 0, b, sizeof b),
                             r->step.d > 0 ? "> 0" : "< 0");
    }
}

static int resolve_axes(mmm_sweep_result *out, sweep_ctx *ctx, mmm_error *err)
{
    const mmm_sweep_spec *spec = ctx->spec;
    const mmm_program *prog = ctx->inst->program;
    mmm_value *vals = NULL;
    uint64_t total = 1, cap;
    size_t a;
    int rc = MMM_OK;

    for (a = 0; a < spec->naxes; a++) {
        const mmm_sweep_axis *ax = &spec->axes[a];
        mmm_sweep_range *r = &out->axes[a];
        r->slot = ax->slot;
        r->tied = ax->tied != 0;
        if (ax->tied && (!ax->values || !spec->axes[a - 1].values ||
                         ax->nvalues != spec->axes[a - 1].nvalues))
            return mmm_error_set(err, MMM_EINVAL, NULL, 0, "'%s' moves with '%s': both "
                                 "need lists of values of the same length",
                                 prog->params[ax->slot].name,
                                 prog->params[spec->axes[a - 1].slot].name);
        if (ax->values) {
            if (ax->nvalues == 0)
                return mmm_error_set(err, MMM_EINVAL, prog->file,
                                     prog->params[ax->slot].line,
                                     "the list of values of '%s' is empty",
                                     prog->params[ax->slot].name);
            r->values = ax->values;
            r->count = ax->nvalues;
            r->from = ax->values[0];
            r->to = ax->values[ax->nvalues - 1];
            r->step = mmm_value_int(0);
            continue;
        }
        if (!vals) {
            vals = calloc(prog->nslots ? prog->nslots : 1, sizeof *vals);
            if (!vals)
                return mmm_error_set(err, MMM_ENOMEM, NULL, 0, "out of memory");
            if ((rc = param_values(vals, ctx, err)) < 0)
                break;
        }
        if ((rc = resolve_range(r, ax, prog, vals, err)) < 0)
            break;
    }
    free(vals);
    if (rc < 0)
        return rc;
    cap = spec->max_points ? spec->max_points : MMM_SWEEP_DEFAULT_MAX_POINTS;
    for (a = 0; a < spec->naxes; a++) {
        if (out->axes[a].tied)
            continue;
        if (out->axes[a].count > cap / total)
            return mmm_error_set(err, MMM_EINVAL, prog->file, 0,
                                 "the sweep has more than %llu points: sweep fewer "
                                 "values or raise --max-points",
                                 (unsigned long long)cap);
        total *= out->axes[a].count;
    }
    return MMM_OK;
}

static int check_spec(const mmm_sweep_spec *spec, const mmm_program *prog,
                      mmm_error *err)
{
    size_t a;
    if (!spec)
        return mmm_error_set(err, MMM_EINVAL, NULL, 0, "no sweep spec");
    MMM__CHECK_VERSION(spec, mmm_sweep_spec, SWEEP_SPEC, err);
    if (spec->naxes < 1 || spec->naxes > MMM_SWEEP_MAX_AXES)
        return mmm_error_set(err, MMM_EINVAL, NULL, 0,
                             "a sweep has 1 to %d parameters", MMM_SWEEP_MAX_AXES);
    if (spec->axes[0].tied)
        return mmm_error_set(err, MMM_EINVAL, NULL, 0,
                             "the first axis of a sweep cannot move with another");
    if (spec->objective == MMM_OBJECTIVE_BOUND && !spec->has_p &&
        mmm_program_find_param(prog, "p") < 0)
        return mmm_error_set(err, MMM_EINVAL, prog->file, 0,
                             "the bound objective needs p (the number of SMs): give "
                             "-p P or declare a parameter p");
    for (a = 0; a < spec->naxes; a++) {
        int slot = spec->axes[a].slot;
        if (slot < 0 || (size_t)slot >= prog->nparams)
            return mmm_error_set(err, MMM_EINVAL, NULL, 0,
                                 "swept parameter %d is not a parameter", slot);
        for (size_t b = 0; b < a; b++)
            if (spec->axes[b].slot == slot)
                return mmm_error_set(err, MMM_EINVAL, NULL, 0,
                                     "parameter '%s' is swept twice",
                                     prog->params[slot].name);
    }
    return MMM_OK;
}

/* ------------------------------------------------------------------ */
/* The summary. */

/* Lexicographic order of the parameter values. */
static int params_cmp(const mmm_sweep_point *a, const mmm_sweep_point *b,
                      size_t naxes)
{
    size_t i;
    for (i = 0; i < naxes; i++) {
        int c = value_cmp(a->params[i], b->params[i]);
        if (c)
            return c;
    }
    return 0;
}

/* Is cost ca at a better than cb at b?  Ties go to the smaller values. */
static int better(double ca, const mmm_sweep_point *a, double cb,
                  const mmm_sweep_point *b, size_t naxes)
{
    if (!mmm__cost_equal(ca, cb))
        return ca < cb;
    return params_cmp(a, b, naxes) < 0;
}

static void summary_add(mmm_sweep_result *r, const mmm_sweep_point *pt,
                        int first)
{
    size_t n = r->naxes;
    if (first) {
        r->best = r->min_overhead = r->min_corollary = *pt;
        if (pt->has_p)
            r->min_bound = *pt;
        r->W_min = r->W_max = pt->W;
        r->S_min = r->S_max = pt->S;
        r->has_p = pt->has_p;
        return;
    }
    if (better(pt->objective, pt, r->best.objective, &r->best, n))
        r->best = *pt;
    if (better(pt->O, pt, r->min_overhead.O, &r->min_overhead, n))
        r->min_overhead = *pt;
    if (better(pt->corollary, pt, r->min_corollary.corollary,
               &r->min_corollary, n))
        r->min_corollary = *pt;
    r->has_p = r->has_p && pt->has_p;
    if (pt->has_p && better(pt->graham_brent, pt, r->min_bound.graham_brent,
                            &r->min_bound, n))
        r->min_bound = *pt;
    r->W_min = fmin(r->W_min, pt->W);
    r->W_max = fmax(r->W_max, pt->W);
    r->S_min = fmin(r->S_min, pt->S);
    r->S_max = fmax(r->S_max, pt->S);
}

static int not_worse(double at_best, double at_base)
{
    return at_best <= at_base || mmm__cost_equal(at_best, at_base);
}

/* Baseline over best; NaN (undefined) when the best value is 0: 0/0 when
 * the baseline's is 0 too, and no finite factor otherwise. */
static double ratio(double at_base, double at_best)
{
    return at_best == 0 ? NAN : at_base / at_best;
}

static void summary_finish(mmm_sweep_result *r)
{
    const mmm_sweep_point *b = &r->best, *s0 = &r->baseline;
    if (!r->has_best)
        return;
    r->ratio_W = ratio(s0->W, b->W);
    r->ratio_S = ratio(s0->S, b->S);
    r->ratio_O = ratio(s0->O, b->O);
    r->ratio_graham_brent = ratio(s0->graham_brent, b->graham_brent);
    r->ratio_corollary = ratio(s0->corollary, b->corollary);
    r->W_factor = r->W_max / r->W_min;
    r->S_factor = r->S_max / r->S_min;
    r->has_p = r->has_p && s0->has_p;
    r->graham_brent_not_worse =
        r->has_p && not_worse(b->graham_brent, s0->graham_brent);
    r->corollary_not_worse = not_worse(b->corollary, s0->corollary);
}

/* "s=3, l=64" for messages. */
static void params_text(char *buf, size_t size, const mmm_program *prog,
                        const mmm_sweep_spec *spec, const mmm_value *params)
{
    size_t a, len = 0;
    buf[0] = '\0';
    for (a = 0; a < spec->naxes && len < size; a++) {
        char v[64];
        int n = snprintf(buf + len, size - len, "%s%s=%s", a ? ", " : "",
                         prog->params[spec->axes[a].slot].name,
                         mmm_value_format(params[a], 0, v, sizeof v));
        if (n < 0)
            break;
        len += (size_t)n;
    }
}

static int eval_baseline(mmm_sweep_result *out, sweep_ctx *ctx, mmm_error *err)
{
    const mmm_sweep_spec *spec = ctx->spec;
    mmm_sweep_point *pt = &out->baseline;
    mmm_error why;
    char at[256];
    size_t a;
    int rc;

    memset(pt, 0, sizeof *pt);
    pt->index = UINT64_MAX;
    for (a = 0; a < spec->naxes; a++)
        pt->params[a] = spec->baseline[a];
    mmm_error_clear(&why);
    if ((rc = eval_point(pt, ctx, &why, err)) < 0)
        return rc;
    if (pt->status != 0) {
        params_text(at, sizeof at, ctx->inst->program, spec, pt->params);
        return mmm_error_set(err, MMM_EINFEASIBLE, why.file[0] ? why.file : NULL,
                             why.line, "the baseline %s is infeasible: %s", at,
                             why.message);
    }
    return MMM_OK;
}

static uint64_t total_points(const mmm_sweep_result *r)
{
    uint64_t n = 1;
    for (size_t a = 0; a < r->naxes; a++)
        if (!r->axes[a].tied)
            n *= r->axes[a].count; /* checked by resolve_axes */
    return n;
}

/* Index i of the grid (row-major, axis 0 outer; a tied axis takes the
 * index of the axis it moves with) into pt->params. */
static void grid_point(mmm_sweep_point *pt, const mmm_sweep_result *r,
                       uint64_t i)
{
    uint64_t at[MMM_SWEEP_MAX_AXES];
    size_t a;
    for (a = r->naxes; a-- > 0;)
        if (!r->axes[a].tied) {
            at[a] = i % r->axes[a].count;
            i /= r->axes[a].count;
        }
    for (a = 0; a < r->naxes; a++) {
        if (r->axes[a].tied)
            at[a] = at[a - 1];
        pt->params[a] = mmm_sweep_range_value(&r->axes[a], at[a]);
    }
}

static int sweep_loop(mmm_sweep_result *out, sweep_ctx *ctx, mmm_sweep_fn fn,
                      void *payload, mmm_error *err)
{
    uint64_t i, total = total_points(out);
    mmm_sweep_point pt;
    mmm_error why;
    int rc;

    memset(&pt, 0, sizeof pt);
    mmm_error_clear(&why);
    for (i = 0; i < total; i++) {
        pt.index = i;
        grid_point(&pt, out, i);
        why.code = 0;
        if ((rc = eval_point(&pt, ctx, &why, err)) < 0)
            return rc;
        out->npoints++;
        out->limits_given = ctx->limits_given;
        if (pt.status != 0) {
            out->infeasible_by[pt.why >= 0 && pt.why < MMM_SWEEP_NWHY ? pt.why : 0]++;
            if (out->first_infeasible.code == 0) {
                out->first_infeasible = why;
                memcpy(out->first_infeasible_params, pt.params,
                       sizeof pt.params);
            }
        } else {
            summary_add(out, &pt, out->nfeasible == 0);
            if (out->nfeasible == 0 && !ctx->spec->has_baseline) {
                out->baseline = pt;
                out->baseline_in_sweep = 1;
            } else if (ctx->spec->has_baseline && !out->baseline_in_sweep &&
                       params_cmp(&pt, &out->baseline, out->naxes) == 0) {
                out->baseline.index = i;
                out->baseline_in_sweep = 1;
            }
            out->nfeasible++;
            out->has_best = 1;
        }
        if (fn && (rc = fn(&pt, pt.status ? &why : NULL, payload)) < 0) {
            if (err && err->code == 0)
                mmm_error_set(err, rc, NULL, 0, "%s", mmm_status_str(rc));
            return rc;
        }
    }
    return MMM_OK;
}

/* The start of a sweep: *out emptied, the spec checked, the context made
 * (nothing to dispose when this fails). */
static int sweep_open(sweep_ctx *ctx, mmm_sweep_result *out,
                      mmm_instance *inst, const mmm_sweep_spec *spec,
                      mmm_error *err)
{
    int rc;
    memset(out, 0, sizeof *out);
    mmm_error_clear(&out->first_infeasible);
    if (err)
        mmm_error_clear(err);
    if ((rc = check_spec(spec, inst->program, err)) < 0)
        return rc;
    out->naxes = spec->naxes;
    return ctx_init(ctx, inst, spec, err);
}

int mmm_sweep_resolve(mmm_sweep_result *out, uint64_t *npoints,
                      mmm_instance *inst, const mmm_sweep_spec *spec,
                      mmm_error *err)
{
    sweep_ctx ctx;
    int rc;

    if ((rc = sweep_open(&ctx, out, inst, spec, err)) < 0)
        return rc;
    rc = resolve_axes(out, &ctx, err);
    ctx_dispose(&ctx);
    if (rc == MMM_OK && npoints)
        *npoints = total_points(out);
    return rc;
}

int mmm_sweep_run(mmm_sweep_result *out, mmm_instance *inst,
                  const mmm_sweep_spec *spec, mmm_sweep_fn fn, void *payload,
                  mmm_error *err)
{
    sweep_ctx ctx;
    int rc;

    if ((rc = sweep_open(&ctx, out, inst, spec, err)) < 0)
        return rc;
    if ((rc = resolve_axes(out, &ctx, err)) < 0)
        goto done;
    if (spec->has_baseline && (rc = eval_baseline(out, &ctx, err)) < 0)
        goto done;
    if ((rc = sweep_loop(out, &ctx, fn, payload, err)) < 0)
        goto done;
    summary_finish(out);
done:
    ctx_dispose(&ctx);
    return rc;
}

int mmm_sweep_eval(mmm_metrics *out, mmm_instance *inst,
                   const mmm_sweep_spec *spec, const mmm_value *params,
                   unsigned flags, mmm_error *err)
{
    sweep_ctx ctx;
    int rc;

    memset(out, 0, sizeof *out);
    if ((rc = check_spec(spec, inst->program, err)) < 0)
        return rc;
    if ((rc = ctx_init(&ctx, inst, spec, err)) < 0)
        return rc;
    rc = ctx_eval(&ctx, params, err);
    if (rc == MMM_OK)
        rc = mmm_metrics_compute(out, inst, flags, err);
    ctx_dispose(&ctx);
    return rc;
}

void mmm_sweep_spec_init(mmm_sweep_spec *spec)
{
    static const mmm_sweep_spec defaults = MMM_SWEEP_SPEC_INIT;
    if (spec)
        *spec = defaults;
}
