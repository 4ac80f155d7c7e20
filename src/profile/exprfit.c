/* exprfit.c: the simplest expression through points (mmm_profile_fit,
 * docs/profile.md "How an attribute becomes an expression").
 *
 * An expression is a sum of at most four terms, each a rational
 * coefficient times
 *   - a monomial of the varying variables, x^e (e from -1 to 3, the
 *     absolute exponents summing to 3 at most), optionally times the log2
 *     of one variable; or
 *   - ceil(M/d) or floor(M/d) of a monomial M (exponents -1 to 2) with d
 *     a small integer or a power of two up to 2^16 (or 1 when M is a
 *     quotient), optionally times one variable or its inverse: the
 *     integer divisions of a launch's configuration (blocks =
 *     ceil(n/256)).
 * The sets of terms are tried by size, smallest first; for each, the
 * relative least squares in doubles screens it, and a set that comes
 * within 1e-7 of every point is solved again in exact rational arithmetic
 * over every point (Gauss-Jordan elimination: an inconsistent row or a
 * step past 64 bits refuses it), which is also the check that it
 * reproduces them all.  The cheapest exact set of the smallest size wins
 * (smaller powers, fewer logs and ceilings, smaller coefficients); its
 * text is parsed and evaluated once more by the expression language, so
 * that what is written is what reproduces the points.  Without an exact
 * expression, the relative least-squares fit of the fewest terms that
 * comes near the best of one to three terms, coefficients to 6 digits. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profile_internal.h"
#include "base/text.h"

#define MAXV 8          /* varying variables a term may use */
#define MAXS 4          /* terms of an expression */
#define SCREEN 1e-7     /* relative residual below which a set is solved exactly */

enum { T_PLAIN, T_CEIL, T_FLOOR };

typedef struct term {
    signed char e[MAXV]; /* exponents of the varying variables */
    signed char m[MAXV]; /* ceil/floor: the multiplier's exponents */
    signed char lg;      /* the variable under log2, -1: none */
    unsigned char kind;
    int64_t d;           /* ceil/floor divisor */
    int64_t num;         /* ceil/floor: a numerator over a quotient
                            (ceil(1024/(a*b))), 1 otherwise */
    int cost;
    int exact;           /* every point's value is exact */
    double *dv;          /* values at the points */
    mmm_value *ev;
} term;

typedef struct fitctx {
    size_t n;                 /* points */
    size_t nv;                /* varying variables */
    const char *name[MAXV];
    mmm_value *xv;            /* n * nv, the varying variables' values */
    int positive[MAXV];       /* > 0 at every point */
    int pow2[MAXV];           /* an exact power of two at every point */
    const mmm_value *y;
    double *yd, *w;           /* y as doubles, row weights 1/max(|y|, tiny) */
    int y_exact;
    term *t;
    size_t nt, cap;
    double *scratch;
    /* the best so far */
    int best_size;
    int best_cost;
    size_t best_set[MAXS];
    mmm_value best_coef[MAXS];
    int have_best;
    /* approximate */
    double approx_err[MAXS + 1];
    int approx_cost[MAXS + 1];
    size_t approx_set[MAXS + 1][MAXS];
    double approx_coef[MAXS + 1][MAXS];
} fitctx;

/* ------------------------------------------------------------------ */
/* Terms                                                               */

static mmm_value v_pow(mmm_value x, int e)
{
    mmm_value r = mmm_value_int(1);
    if (e >= 0) {
        for (int i = 0; i < e; i++)
            r = mmm__pv_mul(r, x);
    } else {
        for (int i = 0; i < -e; i++)
            r = mmm__pv_div(r, x);
    }
    return r;
}

/* log2 of an exact power of two 2^k (k may be negative). */
static mmm_value v_log2(mmm_value x)
{
    if (x.exact && x.num > 0) {
        uint64_t a = (uint64_t)x.num, b = (uint64_t)x.den;
        if ((a & (a - 1)) == 0 && (b & (b - 1)) == 0)
            return mmm_value_int(__builtin_ctzll(a) - __builtin_ctzll(b));
    }
    mmm_value r = mmm_value_double(log2(x.d));
    r.exact = 0;
    r.d = log2(x.d);
    return r;
}

static mmm_value v_ceil_floor(mmm_value x, int ceil_)
{
    if (x.exact) {
        int64_t q = x.num / x.den, r = x.num % x.den;
        if (r != 0 && ((x.num > 0) == ceil_))
            q += ceil_ ? 1 : -1;
        return mmm_value_int(q);
    }
    return mmm_value_double(ceil_ ? ceil(x.d) : floor(x.d));
}

static mmm_value monomial(const fitctx *c, size_t i, const signed char *e)
{
    mmm_value r = mmm_value_int(1);
    for (size_t j = 0; j < c->nv; j++)
        if (e[j])
            r = mmm__pv_mul(r, v_pow(c->xv[i * c->nv + j], e[j]));
    return r;
}

static int add_term(fitctx *c, const term *proto)
{
    term t = *proto;
    int any_nonint = 0, all_zero = 1;
    if (c->nt == c->cap) {
        size_t cap = c->cap ? 2 * c->cap : 256;
        term *nt = realloc(c->t, cap * sizeof *nt);
        if (!nt)
            return -1;
        c->t = nt;
        c->cap = cap;
    }
    t.dv = malloc(c->n * sizeof *t.dv);
    t.ev = malloc(c->n * sizeof *t.ev);
    if (!t.dv || !t.ev) {
        free(t.dv);
        free(t.ev);
        return -1;
    }
    t.exact = 1;
    for (size_t i = 0; i < c->n; i++) {
        mmm_value v;
        if (t.kind == T_PLAIN) {
            v = monomial(c, i, t.e);
            if (t.lg >= 0)
                v = mmm__pv_mul(v, v_log2(c->xv[i * c->nv + (size_t)t.lg]));
        } else {
            mmm_value in = mmm__pv_div(mmm__pv_mul(monomial(c, i, t.e),
                                                   mmm_value_int(t.num)),
                                       mmm_value_int(t.d));
            mmm_value cf = v_ceil_floor(in, t.kind == T_CEIL);
            if (!mmm__pv_equal(cf, in))
                any_nonint = 1;
            v = mmm__pv_mul(monomial(c, i, t.m), cf);
        }
        if (!isfinite(v.d)) {
            free(t.dv);
            free(t.ev);
            return 0;
        }
        t.exact &= v.exact;
        t.ev[i] = v;
        t.dv[i] = v.d;
        if (v.d != 0)
            all_zero = 0;
    }
    /* a ceiling that never rounds is its monomial: that one is cheaper */
    if (all_zero || (t.kind != T_PLAIN && !any_nonint)) {
        free(t.dv);
        free(t.ev);
        return 0;
    }
    c->t[c->nt++] = t;
    return 0;
}

static int abs_sum(const signed char *e, size_t nv)
{
    int s = 0;
    for (size_t j = 0; j < nv; j++)
        s += e[j] < 0 ? -e[j] : e[j];
    return s;
}

/* Every exponent vector of nv entries in [lo, hi] with absolute sum <=
 * max: fn(e) for each. */
static int each_exps(fitctx *c, int lo, int hi, int max,
                     int (*fn)(fitctx *, const signed char *, void *), void *arg)
{
    signed char e[MAXV] = {0};
    size_t nv = c->nv;
    for (size_t j = 0; j < nv; j++)
        e[j] = (signed char)lo;
    for (;;) {
        int ok = abs_sum(e, nv) <= max;
        for (size_t j = 0; j < nv && ok; j++)
            if (e[j] < 0 && !c->positive[j])
                ok = 0;
        if (ok && fn(c, e, arg) < 0)
            return -1;
        size_t j = 0;
        while (j < nv && e[j] == hi) {
            e[j] = (signed char)lo;
            j++;
        }
        if (j == nv)
            return 0;
        e[j]++;
    }
}

static int plain_terms(fitctx *c, const signed char *e, void *arg)
{
    (void)arg;
    term t;
    int s = abs_sum(e, c->nv);
    memset(&t, 0, sizeof t);
    memcpy(t.e, e, sizeof t.e);
    t.lg = -1;
    t.kind = T_PLAIN;
    if (s > 0) {
        t.cost = s;
        for (size_t j = 0; j < c->nv; j++)
            t.cost += e[j] < 0;
        if (add_term(c, &t) < 0)
            return -1;
    }
    if (s <= 2)
        for (size_t j = 0; j < c->nv; j++) {
            if (!c->positive[j] || (c->y_exact && !c->pow2[j]))
                continue;
            t.lg = (signed char)j;
            t.cost = s + 2;
            for (size_t k = 0; k < c->nv; k++)
                t.cost += e[k] < 0;
            if (add_term(c, &t) < 0)
                return -1;
        }
    return 0;
}

static const int64_t divisors[] = {
    1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 16, 24, 32, 48, 64, 96, 128, 192, 256,
    384, 512, 768, 1024, 2048, 4096, 8192, 16384, 32768, 65536};
/* numerators of a quotient: ceil(1024/(a*b)) */
static const int64_t numerators[] = {
    2, 3, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384,
    32768, 65536, 131072, 262144, 524288, 1048576};

static int ceil_terms(fitctx *c, const signed char *e, void *arg)
{
    (void)arg;
    int pos = 0, neg = 0;
    for (size_t j = 0; j < c->nv; j++) {
        pos |= e[j] > 0;
        neg |= e[j] < 0;
    }
    if (!pos && !neg)
        return 0;
    size_t nd = pos ? sizeof divisors / sizeof divisors[0]
                    : sizeof numerators / sizeof numerators[0];
    for (size_t di = 0; di < nd; di++) {
        int64_t d = pos ? divisors[di] : 1, num = pos ? 1 : numerators[di];
        if (d == 1 && num == 1 && !neg)
            continue;
        for (int kind = T_CEIL; kind <= T_FLOOR; kind++)
            for (size_t mj = 0; mj <= 2 * c->nv; mj++) {
                term t;
                memset(&t, 0, sizeof t);
                memcpy(t.e, e, sizeof t.e);
                t.lg = -1;
                t.kind = (unsigned char)kind;
                t.d = d;
                t.num = num;
                if (mj > 0) {
                    size_t j = (mj - 1) / 2;
                    int inv = (mj - 1) % 2;
                    if (inv && !c->positive[j])
                        continue;
                    t.m[j] = (signed char)(inv ? -1 : 1);
                }
                /* dearer than any plain term: a ceiling only where no
                 * expression of as many plain terms does it */
                t.cost = 12 + abs_sum(e, c->nv) + (mj > 0) + (d > 1 || num > 1) +
                         (kind == T_FLOOR);
                if (add_term(c, &t) < 0)
                    return -1;
            }
    }
    return 0;
}

/* ------------------------------------------------------------------ */
/* Least squares (doubles): Householder QR of the weighted columns      */

/* Solve min ||W(A c - y)|| for the s columns of set; coef[] receives c.
 * Returns the largest weighted residual, or INFINITY when singular. */
static double lsq(fitctx *c, const size_t *set, size_t s, double *coef)
{
    size_t n = c->n;
    double *A = c->scratch;        /* n x s, column major */
    double *b = A + n * MAXS;
    double tau[MAXS], scale[MAXS];
    for (size_t k = 0; k < s; k++) {
        double mx = 0;
        for (size_t i = 0; i < n; i++) {
            double v = c->t[set[k]].dv[i] * c->w[i];
            A[k * n + i] = v;
            if (fabs(v) > mx)
                mx = fabs(v);
        }
        if (mx == 0)
            return INFINITY;
        scale[k] = mx;
        for (size_t i = 0; i < n; i++)
            A[k * n + i] /= mx;
    }
    for (size_t i = 0; i < n; i++)
        b[i] = c->yd[i] * c->w[i];
    for (size_t k = 0; k < s; k++) {
        double norm = 0;
        for (size_t i = k; i < n; i++)
            norm += A[k * n + i] * A[k * n + i];
        norm = sqrt(norm);
        if (norm < 1e-12)
            return INFINITY;
        double alpha = A[k * n + k] > 0 ? -norm : norm;
        double v0 = A[k * n + k] - alpha;
        /* v = (v0, A[k+1..n-1]); H = I - 2 v v^T / (v^T v) */
        double vv = v0 * v0;
        for (size_t i = k + 1; i < n; i++)
            vv += A[k * n + i] * A[k * n + i];
        if (vv == 0)
            return INFINITY;
        for (size_t j = k + 1; j < s; j++) {
            double dot = v0 * A[j * n + k];
            for (size_t i = k + 1; i < n; i++)
                dot += A[k * n + i] * A[j * n + i];
            double f = 2 * dot / vv;
            A[j * n + k] -= f * v0;
            for (size_t i = k + 1; i < n; i++)
                A[j * n + i] -= f * A[k * n + i];
        }
        {
            double dot = v0 * b[k];
            for (size_t i = k + 1; i < n; i++)
                dot += A[k * n + i] * b[i];
            double f = 2 * dot / vv;
            b[k] -= f * v0;
            for (size_t i = k + 1; i < n; i++)
                b[i] -= f * A[k * n + i];
        }
        tau[k] = alpha;
    }
    for (size_t k = s; k-- > 0;) {
        double sum = b[k];
        for (size_t j = k + 1; j < s; j++)
            sum -= A[j * n + k] * coef[j];
        if (fabs(tau[k]) < 1e-12)
            return INFINITY;
        coef[k] = sum / tau[k];
    }
    for (size_t k = 0; k < s; k++)
        coef[k] /= scale[k];
    double worst = 0;
    for (size_t i = 0; i < n; i++) {
        double f = 0;
        for (size_t k = 0; k < s; k++)
            f += coef[k] * c->t[set[k]].dv[i];
        double r = fabs(f - c->yd[i]) * c->w[i];
        if (!(r <= worst))
            worst = r;
    }
    return worst;
}

/* ------------------------------------------------------------------ */
/* Exact solution over every point                                      */

/* Gauss-Jordan on [T | y] over all points; 0 with coef[] when the
 * system is consistent with full column rank, -1 otherwise. */
static int exact_solve(fitctx *c, const size_t *set, size_t s, mmm_value *coef)
{
    size_t n = c->n, w = s + 1;
    mmm_value *M = malloc(n * w * sizeof *M);
    int rc = -1;
    if (!M)
        return -1;
    for (size_t i = 0; i < n; i++) {
        for (size_t k = 0; k < s; k++)
            M[i * w + k] = c->t[set[k]].ev[i];
        M[i * w + s] = c->y[i];
    }
    for (size_t k = 0; k < s; k++) {
        size_t p = k;
        while (p < n && !(M[p * w + k].exact && M[p * w + k].num != 0))
            p++;
        if (p == n)
            goto out;
        if (p != k)
            for (size_t j = 0; j < w; j++) {
                mmm_value tmp = M[k * w + j];
                M[k * w + j] = M[p * w + j];
                M[p * w + j] = tmp;
            }
        mmm_value piv = M[k * w + k];
        for (size_t j = k; j < w; j++) {
            M[k * w + j] = mmm__pv_div(M[k * w + j], piv);
            if (!M[k * w + j].exact)
                goto out;
        }
        for (size_t i = 0; i < n; i++) {
            if (i == k)
                continue;
            mmm_value f = M[i * w + k];
            if (f.exact && f.num == 0)
                continue;
            for (size_t j = k; j < w; j++) {
                M[i * w + j] = mmm__pv_sub(M[i * w + j],
                                           mmm__pv_mul(f, M[k * w + j]));
                if (!M[i * w + j].exact)
                    goto out;
            }
        }
    }
    for (size_t i = s; i < n; i++)
        if (M[i * w + s].num != 0)
            goto out;
    for (size_t k = 0; k < s; k++)
        coef[k] = M[k * w + s];
    rc = 0;
out:
    free(M);
    return rc;
}

/* How hard a coefficient is to read: the digits of its odd part (a
 * power of two is as simple as 1). */
static int digits64(int64_t v)
{
    int d = 1;
    if (v < 0)
        v = -v;
    while (v && !(v & 1))
        v >>= 1;
    while (v >= 10) {
        v /= 10;
        d++;
    }
    return d;
}

/* Try a set: screened in doubles, solved exactly; keeps the best. */
static void try_set(fitctx *c, const size_t *set, size_t s)
{
    double coef[MAXS];
    mmm_value ec[MAXS];
    int cost = 0;
    for (size_t k = 0; k < s; k++) {
        if (!c->t[set[k]].exact)
            return;
        cost += c->t[set[k]].cost;
    }
    if (c->have_best && (int)s == c->best_size && cost >= c->best_cost)
        return;
    double r = lsq(c, set, s, coef);
    if (!(r < SCREEN))
        return;
    if (exact_solve(c, set, s, ec) < 0)
        return;
    for (size_t k = 0; k < s; k++) {
        if (ec[k].num == 0)
            return; /* a smaller set does it */
        cost += digits64(ec[k].num) - 1 + (ec[k].den != 1 ? digits64(ec[k].den) : 0);
    }
    if (c->have_best && (int)s == c->best_size && cost >= c->best_cost)
        return;
    c->have_best = 1;
    c->best_size = (int)s;
    c->best_cost = cost;
    memcpy(c->best_set, set, s * sizeof *set);
    memcpy(c->best_coef, ec, s * sizeof *ec);
}

/* The same for the approximation: the least relative error per size,
 * the cheaper terms where two sets come within 2 % of each other.  A
 * quantity that is never negative at the points (every count profile
 * measures) gets no negative coefficient: the approximation stands for
 * sizes that were not profiled, and a difference of terms fitted to a few
 * points turns negative there (global wavefronts of -1,057 a warp at a
 * larger size were seen). */
static void try_approx(fitctx *c, const size_t *set, size_t s)
{
    double coef[MAXS];
    double r = lsq(c, set, s, coef);
    int cost = 0, nonneg = 1;
    if (!isfinite(r) || !(r < c->approx_err[s] * 1.02))
        return;
    for (size_t i = 0; i < c->n; i++)
        nonneg &= c->yd[i] >= 0;
    for (size_t k = 0; k < s; k++) {
        if (!isfinite(coef[k]) || (nonneg && coef[k] < 0))
            return;
        cost += c->t[set[k]].cost;
    }
    if (!(r < c->approx_err[s]) && cost >= c->approx_cost[s])
        return;
    c->approx_err[s] = r;
    c->approx_cost[s] = cost;
    memcpy(c->approx_set[s], set, s * sizeof *set);
    memcpy(c->approx_coef[s], coef, s * sizeof *coef);
}

/* ------------------------------------------------------------------ */
/* Text                                                                */

static void put_factor(mmm__text *t, const char *name, int e, int *first)
{
    if (!*first)
        mmm__text_put(t, "*");
    *first = 0;
    mmm__text_put(t, name);
    if (e > 1)
        mmm__text_printf(t, "^%d", e);
}

/* num factors (and cnum, when not 1), over den factors and cden: "a*b/(c*d)". */
static void put_quotient(mmm__text *t, const fitctx *c, const signed char *e,
                         int lg, const char *cnum, const char *cden)
{
    int first = 1, nden = 0;
    if (cnum) {
        mmm__text_put(t, cnum);
        first = 0;
    }
    for (size_t j = 0; j < c->nv; j++)
        if (e[j] > 0)
            put_factor(t, c->name[j], e[j], &first);
    if (lg >= 0) {
        if (!first)
            mmm__text_put(t, "*");
        first = 0;
        mmm__text_printf(t, "log2(%s)", c->name[lg]);
    }
    if (first)
        mmm__text_put(t, "1");
    nden = cden != NULL;
    for (size_t j = 0; j < c->nv; j++)
        nden += e[j] < 0;
    if (!nden)
        return;
    mmm__text_put(t, nden > 1 ? "/(" : "/");
    first = 1;
    if (cden) {
        mmm__text_put(t, cden);
        first = 0;
    }
    for (size_t j = 0; j < c->nv; j++)
        if (e[j] < 0)
            put_factor(t, c->name[j], -e[j], &first);
    if (nden > 1)
        mmm__text_put(t, ")");
}

/* One term with its coefficient (positive: the sign is written before). */
static void put_term(mmm__text *t, const fitctx *c, const term *tm,
                     const char *cnum, const char *cden)
{
    if (tm->kind == T_PLAIN) {
        int any = tm->lg >= 0;
        for (size_t j = 0; j < c->nv; j++)
            any |= tm->e[j] != 0;
        if (!any) { /* the constant */
            mmm__text_put(t, cnum ? cnum : "1");
            if (cden)
                mmm__text_printf(t, "/%s", cden);
            return;
        }
        put_quotient(t, c, tm->e, tm->lg, cnum, cden);
        return;
    }
    char d[32], nm[32];
    snprintf(d, sizeof d, "%lld", (long long)tm->d);
    snprintf(nm, sizeof nm, "%lld", (long long)tm->num);
    int mult = 0;
    for (size_t j = 0; j < c->nv; j++)
        mult |= tm->m[j] != 0;
    /* coefficient and multiplier, then the ceiling: 3*s*ceil(n/256)/2 */
    int first = 1;
    if (cnum) {
        mmm__text_put(t, cnum);
        first = 0;
    }
    for (size_t j = 0; j < c->nv; j++)
        if (tm->m[j] > 0)
            put_factor(t, c->name[j], 1, &first);
    if (!first)
        mmm__text_put(t, "*");
    mmm__text_put(t, tm->kind == T_CEIL ? "ceil(" : "floor(");
    put_quotient(t, c, tm->e, -1, tm->num > 1 ? nm : NULL, tm->d > 1 ? d : NULL);
    mmm__text_put(t, ")");
    int nden = cden != NULL;
    for (size_t j = 0; j < c->nv; j++)
        nden += tm->m[j] < 0;
    if (nden) {
        mmm__text_put(t, nden > 1 ? "/(" : "/");
        first = 1;
        if (cden) {
            mmm__text_put(t, cden);
            first = 0;
        }
        for (size_t j = 0; j < c->nv; j++)
            if (tm->m[j] < 0)
                put_factor(t, c->name[j], 1, &first);
        if (nden > 1)
            mmm__text_put(t, ")");
    }
    (void)mult;
}

/* The terms in order of decreasing cost (the constant last). */
static void order_terms(const fitctx *c, size_t *set, void *coef, size_t es, size_t s)
{
    for (size_t a = 1; a < s; a++)
        for (size_t b = a; b > 0 && c->t[set[b]].cost > c->t[set[b - 1]].cost; b--) {
            size_t tmp = set[b];
            set[b] = set[b - 1];
            set[b - 1] = tmp;
            char buf[sizeof(mmm_value) > sizeof(double) ? sizeof(mmm_value) : sizeof(double)];
            memcpy(buf, (char *)coef + b * es, es);
            memcpy((char *)coef + b * es, (char *)coef + (b - 1) * es, es);
            memcpy((char *)coef + (b - 1) * es, buf, es);
        }
}

static void text_exact(mmm__text *t, fitctx *c, size_t *set, mmm_value *coef, size_t s)
{
    order_terms(c, set, coef, sizeof *coef, s);
    for (size_t k = 0; k < s; k++) {
        mmm_value v = coef[k];
        int neg = v.num < 0;
        char num[32], den[32];
        snprintf(num, sizeof num, "%lld", (long long)(neg ? -v.num : v.num));
        snprintf(den, sizeof den, "%lld", (long long)v.den);
        if (k == 0 && neg)
            mmm__text_put(t, "-");
        else if (k > 0)
            mmm__text_put(t, neg ? " - " : " + ");
        put_term(t, c, &c->t[set[k]], strcmp(num, "1") ? num : NULL,
                 v.den != 1 ? den : NULL);
    }
}

static void text_approx(mmm__text *t, fitctx *c, size_t *set, double *coef, size_t s)
{
    order_terms(c, set, coef, sizeof *coef, s);
    for (size_t k = 0; k < s; k++) {
        double v = coef[k];
        int neg = v < 0;
        char num[40];
        snprintf(num, sizeof num, "%.6g", neg ? -v : v);
        if (k == 0 && neg)
            mmm__text_put(t, "-");
        else if (k > 0)
            mmm__text_put(t, neg ? " - " : " + ");
        put_term(t, c, &c->t[set[k]], strcmp(num, "1") ? num : NULL, NULL);
    }
}

/* ------------------------------------------------------------------ */
/* Checking the text with the expression language                     */

typedef struct resolve_arg {
    const char *const *names;
    size_t n;
} resolve_arg;

static int resolve(const char *name, size_t len, void *payload)
{
    const resolve_arg *a = payload;
    for (size_t j = 0; j < a->n; j++)
        if (strlen(a->names[j]) == len && !memcmp(a->names[j], name, len))
            return (int)j;
    return -1;
}

/* Evaluate text at every point: *exact 1 when every value equals y
 * exactly; *max_rel the largest relative error.  -1 when it does not
 * parse or evaluate. */
int mmm__fit_check_text(const char *text, const char *const *names, size_t nvars,
                      const mmm_value *x, const mmm_value *y, size_t n,
                      int *exact, double *max_rel)
{
    mmm_expr *e = NULL;
    resolve_arg ra = {names, nvars};
    if (mmm_expr_parse(&e, text, resolve, &ra, NULL, NULL) < 0)
        return -1;
    *exact = 1;
    *max_rel = 0;
    for (size_t i = 0; i < n; i++) {
        mmm_value v;
        if (mmm_expr_eval(e, x + i * nvars, nvars, &v, NULL) < 0) {
            mmm_expr_free(e);
            return -1;
        }
        if (!(v.exact && y[i].exact && mmm__pv_equal(v, y[i])))
            *exact = 0;
        double den = fabs(y[i].d) > 0 ? fabs(y[i].d) : 1;
        double r = fabs(v.d - y[i].d) / den;
        if (!(r <= *max_rel))
            *max_rel = r;
    }
    mmm_expr_free(e);
    return 0;
}

int mmm__fit_eval_text(const char *text, const char *const *names, size_t nvars,
                       const mmm_value *x, size_t n, double *out)
{
    mmm_expr *e = NULL;
    resolve_arg ra = {names, nvars};
    if (mmm_expr_parse(&e, text, resolve, &ra, NULL, NULL) < 0)
        return -1;
    for (size_t i = 0; i < n; i++) {
        mmm_value v;
        if (mmm_expr_eval(e, x + i * nvars, nvars, &v, NULL) < 0) {
            mmm_expr_free(e);
            return -1;
        }
        out[i] = v.d;
    }
    mmm_expr_free(e);
    return 0;
}

/* ------------------------------------------------------------------ */
/* The search                                                          */

static void search_exact(fitctx *c)
{
    size_t n = c->n, nt = c->nt, plain = 0, cheap = 0, reduced = 0;
    size_t set[MAXS];
    /* term 0 is the constant; then the plain terms, then the ceilings */
    while (plain < nt && c->t[plain].kind == T_PLAIN)
        plain++;
    for (size_t i = 0; i < plain; i++) {
        cheap += c->t[i].cost <= 2;
        reduced += c->t[i].cost <= 3;
    }
    for (size_t s = 1; s <= MAXS && s < n && !c->have_best; s++) {
        if (s == 1) {
            for (size_t a = 0; a < nt; a++) {
                set[0] = a;
                try_set(c, set, 1);
            }
        } else if (s == 2) {
            for (size_t a = 1; a < nt; a++) { /* constant + any term */
                set[0] = 0;
                set[1] = a;
                try_set(c, set, 2);
            }
            for (size_t a = 1; a < plain; a++)
                for (size_t b = a + 1; b < plain; b++) {
                    set[0] = a;
                    set[1] = b;
                    try_set(c, set, 2);
                }
            for (size_t a = 1; a < plain; a++) /* a cheap monomial + a ceiling */
                if (c->t[a].cost <= 2)
                    for (size_t b = plain; b < nt; b++) {
                        set[0] = a;
                        set[1] = b;
                        try_set(c, set, 2);
                    }
        } else if (s == 3) {
            for (size_t a = 1; a < plain; a++)
                for (size_t b = a + 1; b < plain; b++) {
                    set[0] = 0;
                    set[1] = a;
                    set[2] = b;
                    try_set(c, set, 3);
                }
            for (size_t a = 1; a < plain; a++)
                if (c->t[a].cost <= 3)
                    for (size_t b = a + 1; b < plain; b++)
                        if (c->t[b].cost <= 3)
                            for (size_t d = b + 1; d < plain; d++)
                                if (c->t[d].cost <= 3) {
                                    set[0] = a;
                                    set[1] = b;
                                    set[2] = d;
                                    try_set(c, set, 3);
                                }
            for (size_t a = 1; a < plain; a++) /* constant + monomial + ceiling */
                if (c->t[a].cost <= 2)
                    for (size_t b = plain; b < nt; b++) {
                        set[0] = 0;
                        set[1] = a;
                        set[2] = b;
                        try_set(c, set, 3);
                    }
        } else {
            for (size_t a = 1; a < plain; a++)
                if (c->t[a].cost <= 3)
                    for (size_t b = a + 1; b < plain; b++)
                        if (c->t[b].cost <= 3)
                            for (size_t d = b + 1; d < plain; d++)
                                if (c->t[d].cost <= 3) {
                                    set[0] = 0;
                                    set[1] = a;
                                    set[2] = b;
                                    set[3] = d;
                                    try_set(c, set, 4);
                                }
        }
    }
    (void)cheap;
    (void)reduced;
}

static void search_approx(fitctx *c)
{
    size_t nt = c->nt, plain = 0, set[MAXS];
    while (plain < nt && c->t[plain].kind == T_PLAIN)
        plain++;
    for (size_t s = 0; s <= MAXS; s++)
        c->approx_err[s] = INFINITY;
    /* plain terms only: a ceiling that rounds at the measured points is
     * no better a guess between them */
    for (size_t a = 0; a < plain; a++) {
        set[0] = a;
        try_approx(c, set, 1);
    }
    if (c->n >= 3)
        for (size_t a = 1; a < plain; a++) {
            set[0] = 0;
            set[1] = a;
            try_approx(c, set, 2);
            for (size_t b = a + 1; b < plain; b++) {
                set[0] = a;
                set[1] = b;
                try_approx(c, set, 2);
            }
        }
    if (c->n >= 4)
        for (size_t a = 1; a < plain; a++)
            if (c->t[a].cost <= 3)
                for (size_t b = a + 1; b < plain; b++)
                    if (c->t[b].cost <= 3) {
                        set[0] = 0;
                        set[1] = a;
                        set[2] = b;
                        try_approx(c, set, 3);
                    }
}

static void free_ctx(fitctx *c)
{
    for (size_t i = 0; i < c->nt; i++) {
        free(c->t[i].dv);
        free(c->t[i].ev);
    }
    free(c->t);
    free(c->xv);
    free(c->yd);
    free(c->w);
    free(c->scratch);
}

int mmm_profile_fit(const char *const *names, size_t nvars, const mmm_value *x,
                    const mmm_value *y, size_t npoints,
                    mmm_profile_fit_result *res, mmm_error *err)
{
    fitctx c;
    mmm__text txt;
    int rc = 0;
    if (!res || !y || !npoints || (nvars && (!names || !x)))
        return mmm_error_set(err, MMM_EINVAL, NULL, 0,
                             "mmm_profile_fit: missing argument or no points");
    memset(res, 0, sizeof *res);
    memset(&c, 0, sizeof c);
    mmm__text_init(&txt);
    c.n = npoints;
    c.y = y;
    c.y_exact = 1;
    for (size_t i = 0; i < npoints; i++)
        c.y_exact &= y[i].exact;

    /* one point, or the same value everywhere: a constant */
    int same = 1;
    for (size_t i = 1; i < npoints && same; i++)
        same = mmm__pv_equal(y[i], y[0]) && y[i].exact == y[0].exact;
    if (same) {
        mmm__pv_text(y[0], res->text, sizeof res->text);
        res->exact = y[0].exact;
        res->terms = 1;
        return 0;
    }

    /* the variables that vary */
    for (size_t j = 0; j < nvars; j++) {
        int varies = 0;
        for (size_t i = 1; i < npoints && !varies; i++)
            varies = !mmm__pv_equal(x[i * nvars + j], x[j]);
        if (varies && c.nv < MAXV)
            c.name[c.nv++] = names[j];
    }
    c.xv = malloc((c.nv ? c.nv : 1) * npoints * sizeof *c.xv);
    c.yd = malloc(npoints * sizeof *c.yd);
    c.w = malloc(npoints * sizeof *c.w);
    c.scratch = malloc((MAXS + 1) * npoints * sizeof *c.scratch);
    if (!c.xv || !c.yd || !c.w || !c.scratch) {
        rc = mmm_error_set(err, MMM_ENOMEM, NULL, 0, "out of memory");
        goto out;
    }
    for (size_t k = 0, j = 0; j < nvars && k < c.nv; j++) {
        if (strcmp(names[j], c.name[k]))
            continue;
        c.positive[k] = c.pow2[k] = 1;
        for (size_t i = 0; i < npoints; i++) {
            mmm_value v = x[i * nvars + j];
            c.xv[i * c.nv + k] = v;
            if (!(v.d > 0))
                c.positive[k] = 0;
            if (!(v.exact && v.num > 0 && (v.num & (v.num - 1)) == 0 &&
                  (v.den & (v.den - 1)) == 0))
                c.pow2[k] = 0;
        }
        k++;
    }
    double ymax = 0;
    for (size_t i = 0; i < npoints; i++)
        if (fabs(y[i].d) > ymax)
            ymax = fabs(y[i].d);
    for (size_t i = 0; i < npoints; i++) {
        c.yd[i] = y[i].d;
        c.w[i] = 1 / (fabs(y[i].d) > 1e-12 * ymax && y[i].d != 0 ? fabs(y[i].d)
                                                                   : (ymax > 0 ? ymax : 1));
    }

    {
        term one;
        memset(&one, 0, sizeof one);
        one.lg = -1;
        one.kind = T_PLAIN;
        if (add_term(&c, &one) < 0 || c.nt != 1 ||
            (c.nv && each_exps(&c, -1, 3, c.nv >= 3 ? 2 : 3, plain_terms, NULL) < 0) ||
            (c.nv && each_exps(&c, -1, 2, 2, ceil_terms, NULL) < 0)) {
            rc = mmm_error_set(err, MMM_ENOMEM, NULL, 0, "out of memory");
            goto out;
        }
    }

    if (c.y_exact)
        search_exact(&c);
    if (c.have_best) {
        size_t s = (size_t)c.best_size;
        text_exact(&txt, &c, c.best_set, c.best_coef, s);
        if (txt.oom) {
            rc = mmm_error_set(err, MMM_ENOMEM, NULL, 0, "out of memory");
            goto out;
        }
        int ex;
        double mr;
        if (strlen(txt.s) < sizeof res->text &&
            mmm__fit_check_text(txt.s, names, nvars, x, y, npoints, &ex, &mr) == 0 && ex) {
            snprintf(res->text, sizeof res->text, "%s", txt.s);
            res->exact = 1;
            res->terms = s;
            goto out;
        }
        c.have_best = 0;
    }

    /* no exact expression: the best approximation */
    search_approx(&c);
    {
        double best = INFINITY;
        size_t pick = 0;
        for (size_t s = 1; s <= MAXS; s++)
            if (c.approx_err[s] < best)
                best = c.approx_err[s];
        for (size_t s = 1; s <= MAXS; s++)
            if (c.approx_err[s] <= (best * 1.25 > best + 0.002 ? best * 1.25 : best + 0.002)) {
                pick = s;
                break;
            }
        if (!pick) {
            /* not even one term fits: the mean */
            double mean = 0;
            for (size_t i = 0; i < npoints; i++)
                mean += y[i].d / (double)npoints;
            snprintf(res->text, sizeof res->text, "%.6g", mean);
            res->terms = 1;
        } else {
            mmm__text_dispose(&txt);
            mmm__text_init(&txt);
            text_approx(&txt, &c, c.approx_set[pick], c.approx_coef[pick], pick);
            if (txt.oom) {
                rc = mmm_error_set(err, MMM_ENOMEM, NULL, 0, "out of memory");
                goto out;
            }
            snprintf(res->text, sizeof res->text, "%s", txt.s);
            res->terms = pick;
        }
        int ex;
        double mr;
        if (mmm__fit_check_text(res->text, names, nvars, x, y, npoints, &ex, &mr) == 0) {
            res->exact = ex;
            res->max_rel_error = ex ? 0 : mr;
        } else {
            res->max_rel_error = INFINITY;
        }
    }
out:
    mmm__text_dispose(&txt);
    free_ctx(&c);
    return rc;
}
