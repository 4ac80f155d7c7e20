/* rational.h: exact rational values and their arithmetic, for the
 * expression evaluator (expr_eval.c), the parser (expr_parse.c) and the
 * public value helpers (rational.c).  Internal.
 *
 * The arithmetic is defined here, static inline, not in rational.c: the
 * evaluator's loop (mmm__expr_run) must inline it.  Called across files it
 * made evaluation and measures of dags/poly_div_opt.xml 33% slower
 * (bench/bench_eval.c: 400 -> 530 ns), since every step with a fraction or
 * a comparison of rationals became a call.
 *
 * Values are exact rationals (int64 num/den, reduced, den > 0) until a step
 * is not exact or its exact result does not fit in 64 bits; the step then
 * falls back to double and the value says so (exact = 0).  The operations
 * return F_OK or the fault_kind that says why the step failed; they store
 * their result only on F_OK. */
#ifndef MMM_RATIONAL_H
#define MMM_RATIONAL_H

#include <math.h>
#include <stdint.h>

#include "mmm/expr.h"

#define TWO63 9223372036854775808.0 /* 2^63 */
#define TWO53 9007199254740992.0    /* 2^53 */

/* Why an evaluation step failed (0 = it did not). */
enum mmm__fault_kind {
    F_OK = 0,
    F_DIV0,
    F_LOG2,
    F_SQRT,
    F_ZEROPOW,
    F_NEGPOW,
    F_NONFINITE,
    F_BADVAR
};

static inline mmm_value v_int(int64_t n)
{
    mmm_value v;
    v.exact = 1;
    v.num = n;
    v.den = 1;
    v.d = (double)n;
    return v;
}

static inline mmm_value v_inexact(double d)
{
    mmm_value v;
    v.exact = 0;
    v.num = 0;
    v.den = 1;
    v.d = d;
    return v;
}

static inline int v_truthy(const mmm_value *v)
{
    return v->exact ? v->num != 0 : v->d != 0.0;
}

/* ------------------------------------------------------------------------ */
/* Exact arithmetic                                                          */

static inline uint64_t u_abs(int64_t x)
{
    return x < 0 ? (uint64_t)0 - (uint64_t)x : (uint64_t)x;
}

/* Binary gcd; gcd(0, b) = b. */
static inline uint64_t u_gcd(uint64_t a, uint64_t b)
{
    int shift;
    if (a == 0)
        return b;
    if (b == 0)
        return a;
    if ((a & (a - 1)) == 0 || (b & (b - 1)) == 0)
        return (a | b) & ((uint64_t)0 - (a | b)); /* one is 2^k: low bit */
    shift = __builtin_ctzll(a | b);
    a >>= __builtin_ctzll(a);
    do {
        b >>= __builtin_ctzll(b);
        if (a > b) {
            uint64_t t = a;
            a = b;
            b = t;
        }
        b -= a;
    } while (b != 0);
    return a << shift;
}

/* A double result: non-finite values are a domain error. */
static inline int v_dbl(mmm_value *r, double d)
{
    if (!isfinite(d))
        return F_NONFINITE;
    *r = v_inexact(d);
    return F_OK;
}

/* un/ud (ud != 0) as the nearest double, ties to even: correctly rounded
 * whatever the sizes.  One IEEE division does that only when both are exact
 * doubles; past 2^53 a long double division rounds twice (to 64 bits, then
 * to 53), one ulp off about once in ten thousand 17-digit literals read back
 * as fractions (fuzz_expr found 0.45454545454545453, then
 * 10976590901954731/10^17).  So: 55 or 56 quotient bits by an integer
 * division in 128 bits, the remainder as a sticky bit, and the rounding to
 * 53 bits done here, once. */
static inline double div_nearest(uint64_t un, uint64_t ud)
{
    __extension__ typedef unsigned __int128 mmm__u128;
    int lu, ld, s, extra;
    uint64_t q, keep, low, half;
    int sticky;
    if (un == 0)
        return 0.0;
    lu = 64 - __builtin_clzll(un);
    ld = 64 - __builtin_clzll(ud);
    s = 55 - (lu - ld); /* un * 2^s / ud lies in [2^54, 2^56) */
    if (s >= 0) {       /* un * 2^s has lu + s = 55 + ld <= 119 bits */
        mmm__u128 n = (mmm__u128)un << s;
        q = (uint64_t)(n / ud);
        sticky = n % ud != 0;
    } else {            /* -s = lu - ld - 55 <= 8 */
        mmm__u128 d = (mmm__u128)ud << -s;
        q = (uint64_t)(un / d);
        sticky = un % d != 0;
    }
    extra = (64 - __builtin_clzll(q)) - 53; /* 2 or 3 bits to round off */
    keep = q >> extra;
    low = q & (((uint64_t)1 << extra) - 1);
    half = (uint64_t)1 << (extra - 1);
    if (low > half || (low == half && (sticky || (keep & 1))))
        keep++; /* 2^53 at most: still exact */
    return ldexp((double)keep, extra - s);
}

/* The value (neg ? -1 : 1) * un / ud with gcd(un, ud) = 1, ud != 0: exact
 * when it fits in int64 (a numerator of -2^63 included), else inexact. */
static inline mmm_value v_fit(int neg, uint64_t un, uint64_t ud)
{
    mmm_value v;
    if (ud > (uint64_t)INT64_MAX || un > (uint64_t)INT64_MAX + (uint64_t)neg) {
        double d = div_nearest(un, ud);
        return v_inexact(neg ? -d : d);
    }
    if (un == 0)
        neg = 0;
    v.exact = 1;
    v.num = neg ? -(int64_t)(un - 1) - 1 : (int64_t)un;
    v.den = (int64_t)ud;
    v.d = ud == 1 ? (double)v.num
                  : (neg ? -div_nearest(un, ud) : div_nearest(un, ud));
    return v;
}

/* The same for any un/ud (ud != 0): reduces first. */
static inline mmm_value mmm__v_parts(int neg, uint64_t un, uint64_t ud)
{
    uint64_t g = ud == 1 ? 1 : u_gcd(un, ud);
    return v_fit(neg, un / g, ud / g);
}

/* An already reduced rational (den > 0). */
static inline mmm_value v_rat(int64_t num, int64_t den)
{
    mmm_value v;
    if (den == 1)
        return v_int(num);
    v.exact = 1;
    v.num = num;
    v.den = den;
    v.d = num < 0 ? -div_nearest(u_abs(num), (uint64_t)den)
                  : div_nearest((uint64_t)num, (uint64_t)den);
    return v;
}

static inline int v_is_zero(const mmm_value *v)
{
    return v->exact ? v->num == 0 : v->d == 0.0;
}

/* a +/- b for exact rationals (Knuth 4.5.1); 0 when it overflows. */
static inline int rat_addsub(mmm_value *r, const mmm_value *a, const mmm_value *b,
                      int sub)
{
    int64_t g = (int64_t)u_gcd((uint64_t)a->den, (uint64_t)b->den);
    int64_t ad = a->den / g, bd = b->den / g, t1, t2, t, g2, den;
    if (__builtin_mul_overflow(a->num, bd, &t1) ||
        __builtin_mul_overflow(b->num, ad, &t2))
        return 0;
    if (sub ? __builtin_sub_overflow(t1, t2, &t)
            : __builtin_add_overflow(t1, t2, &t))
        return 0;
    if (t == 0) {
        *r = v_int(0);
        return 1;
    }
    g2 = (int64_t)u_gcd(u_abs(t), (uint64_t)g);
    if (__builtin_mul_overflow(ad, b->den / g2, &den))
        return 0;
    *r = v_rat(t / g2, den);
    return 1;
}

static inline int mmm__v_addsub(mmm_value *r, mmm_value a, mmm_value b, int sub)
{
    if (a.exact && b.exact) {
        if (a.den == 1 && b.den == 1) {
            int64_t s;
            if (!(sub ? __builtin_sub_overflow(a.num, b.num, &s)
                      : __builtin_add_overflow(a.num, b.num, &s))) {
                *r = v_int(s);
                return F_OK;
            }
        } else if (rat_addsub(r, &a, &b, sub)) {
            return F_OK;
        }
    }
    return v_dbl(r, sub ? a.d - b.d : a.d + b.d);
}

static inline int mmm__v_mul(mmm_value *r, mmm_value a, mmm_value b)
{
    if (a.exact && b.exact) {
        uint64_t an = u_abs(a.num), bn = u_abs(b.num), g1, g2, n, d;
        int neg = (a.num < 0) != (b.num < 0);
        if (a.den == 1 && b.den == 1) {
            int64_t p;
            if (!__builtin_mul_overflow(a.num, b.num, &p)) {
                *r = v_int(p);
                return F_OK;
            }
        } else if (an == 0 || bn == 0) {
            *r = v_int(0);
            return F_OK;
        }
        /* cross-reduce so that the products are already in lowest terms */
        g1 = u_gcd(an, (uint64_t)b.den);
        g2 = u_gcd(bn, (uint64_t)a.den);
        if (!__builtin_mul_overflow(an / g1, bn / g2, &n) &&
            !__builtin_mul_overflow((uint64_t)a.den / g2, (uint64_t)b.den / g1,
                                    &d)) {
            mmm_value v = v_fit(neg, n, d);
            if (v.exact) {
                *r = v;
                return F_OK;
            }
        }
    }
    return v_dbl(r, a.d * b.d);
}

static inline int mmm__v_div(mmm_value *r, mmm_value a, mmm_value b)
{
    if (v_is_zero(&b))
        return F_DIV0;
    if (a.exact && b.exact) {
        uint64_t an = u_abs(a.num), bn = u_abs(b.num), g1, g2, n, d;
        int neg = (a.num < 0) != (b.num < 0);
        if (a.den == 1 && b.den == 1) {
            mmm_value v = an % bn == 0 ? v_fit(neg, an / bn, 1)
                                       : mmm__v_parts(neg, an, bn);
            if (v.exact) {
                *r = v;
                return F_OK;
            }
        } else {
            g1 = u_gcd(an, bn);
            g2 = u_gcd((uint64_t)a.den, (uint64_t)b.den);
            if (!__builtin_mul_overflow(an / g1, (uint64_t)b.den / g2, &n) &&
                !__builtin_mul_overflow((uint64_t)a.den / g2, bn / g1, &d)) {
                mmm_value v = v_fit(neg, n, d);
                if (v.exact) {
                    *r = v;
                    return F_OK;
                }
            }
        }
    }
    return v_dbl(r, a.d / b.d);
}

/* base^e in uint64; 0 on overflow. */
static inline int mmm__u_pow(uint64_t *out, uint64_t base, uint64_t e)
{
    uint64_t acc = 1;
    if (base <= 1) {
        *out = e == 0 ? 1 : base;
        return 1;
    }
    for (;;) {
        if ((e & 1) && __builtin_mul_overflow(acc, base, &acc))
            return 0;
        e >>= 1;
        if (e == 0)
            break;
        if (__builtin_mul_overflow(base, base, &base))
            return 0; /* base^2 would be a factor of the result */
    }
    *out = acc;
    return 1;
}

static inline int mmm__v_pow(mmm_value *r, mmm_value a, mmm_value b)
{
    int b_int = b.exact ? b.den == 1 : (b.d == floor(b.d));
    if (v_is_zero(&a) && (b.exact ? b.num < 0 : b.d < 0))
        return F_ZEROPOW;
    if (a.exact && b.exact && b.den == 1) {
        uint64_t e = u_abs(b.num), n = u_abs(a.num), d = (uint64_t)a.den, pn,
                 pd;
        int neg = a.num < 0 && (e & 1);
        if (b.num < 0) {
            uint64_t t = n;
            n = d;
            d = t;
        }
        if (mmm__u_pow(&pn, n, e) && mmm__u_pow(&pd, d, e)) {
            mmm_value v = v_fit(neg, pn, pd); /* powers of coprimes */
            if (v.exact) {
                *r = v;
                return F_OK;
            }
        }
    }
    if (a.d < 0 && !b_int)
        return F_NEGPOW;
    return v_dbl(r, pow(a.d, b.d));
}

static inline int64_t floor_div(int64_t n, int64_t d, int64_t *rem)
{
    int64_t q = n / d, m = n % d;
    if (m < 0) {
        q--;
        m += d;
    }
    *rem = m;
    return q;
}

/* Compare p1/q1 and p2/q2 with 0 <= p < q, exactly, by continued fractions. */
static inline int frac_cmp(uint64_t p1, uint64_t q1, uint64_t p2, uint64_t q2)
{
    int sign = 1;
    for (;;) {
        uint64_t i1, i2, r1, r2;
        if (p1 == 0 || p2 == 0)
            return sign * ((p1 != 0) - (p2 != 0));
        /* p1/q1 <=> p2/q2  is  q2/p2 <=> q1/p1 */
        i1 = q1 / p1;
        r1 = q1 % p1;
        i2 = q2 / p2;
        r2 = q2 % p2;
        sign = -sign;
        if (i1 != i2)
            return i1 > i2 ? sign : -sign;
        q1 = p1;
        p1 = r1;
        q2 = p2;
        p2 = r2;
    }
}

static inline int rat_cmp(const mmm_value *a, const mmm_value *b)
{
    int64_t x, y, ra, rb;
    if (a->den == b->den)
        return (a->num > b->num) - (a->num < b->num);
    if (!__builtin_mul_overflow(a->num, b->den, &x) &&
        !__builtin_mul_overflow(b->num, a->den, &y))
        return (x > y) - (x < y);
    x = floor_div(a->num, a->den, &ra);
    y = floor_div(b->num, b->den, &rb);
    if (x != y)
        return x > y ? 1 : -1;
    return frac_cmp((uint64_t)ra, (uint64_t)a->den, (uint64_t)rb,
                    (uint64_t)b->den);
}

/* Exact when both are exact; mixed or inexact operands compare as doubles. */
static inline int mmm__v_cmp(const mmm_value *a, const mmm_value *b)
{
    if (a->exact && b->exact)
        return rat_cmp(a, b);
    return (a->d > b->d) - (a->d < b->d);
}

static inline int mmm__v_round(mmm_value *r, mmm_value a, int up)
{
    if (a.exact) {
        int64_t q = a.num / a.den, m = a.num % a.den;
        if (up && m > 0)
            q++;
        else if (!up && m < 0)
            q--;
        *r = v_int(q);
        return F_OK;
    } else {
        double x = up ? ceil(a.d) : floor(a.d);
        if (fabs(x) < TWO63)
            *r = v_int((int64_t)x);
        else
            *r = v_inexact(x);
        return F_OK;
    }
}

/* floor(sqrt(x)) for x < 2^63. */
static inline uint64_t u_isqrt(uint64_t x)
{
    uint64_t s = (uint64_t)sqrt((double)x);
    while (s > 0 && s * s > x)
        s--;
    while ((s + 1) * (s + 1) <= x)
        s++;
    return s;
}

static inline int mmm__v_sqrt(mmm_value *r, mmm_value a)
{
    if (a.exact ? a.num < 0 : a.d < 0)
        return F_SQRT;
    if (a.exact) {
        uint64_t sn = u_isqrt((uint64_t)a.num), sd = u_isqrt((uint64_t)a.den);
        if (sn * sn == (uint64_t)a.num && sd * sd == (uint64_t)a.den) {
            *r = v_rat((int64_t)sn, (int64_t)sd);
            return F_OK;
        }
    }
    return v_dbl(r, sqrt(a.d));
}

static inline int mmm__v_log2(mmm_value *r, mmm_value a)
{
    if (a.exact ? a.num <= 0 : a.d <= 0)
        return F_LOG2;
    if (a.exact) {
        uint64_t n = (uint64_t)a.num, d = (uint64_t)a.den;
        if (d == 1 && (n & (n - 1)) == 0) {
            *r = v_int(__builtin_ctzll(n));
            return F_OK;
        }
        if (n == 1 && (d & (d - 1)) == 0) {
            *r = v_int(-(int64_t)__builtin_ctzll(d));
            return F_OK;
        }
    }
    return v_dbl(r, log2(a.d));
}

static inline int mmm__v_neg(mmm_value *r, mmm_value a)
{
    if (a.exact && a.num != INT64_MIN) {
        *r = v_rat(-a.num, a.den);
        return F_OK;
    }
    return v_dbl(r, -a.d);
}

#endif
