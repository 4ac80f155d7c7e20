/*
 * expr.c: parametric expressions (see include/mmm/expr.h).
 *
 * Text is compiled once into flat postfix code (an array of instructions plus
 * a constant pool); evaluation runs that code on a fixed stack that lives on
 * the C stack, so mmm_expr_eval never allocates.  The parser is a precedence
 * climber whose recursion is bounded by the nesting limit (at most
 * MMM_EXPR_MAX_DEPTH levels), so hostile input cannot exhaust the C stack.
 *
 * Values are exact rationals (int64 num/den, reduced, den > 0) until a step
 * is not exact or its exact result does not fit in 64 bits; the step then
 * falls back to double and the value says so (exact = 0).  Integers
 * (den == 1) take a fast path without gcd.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <locale.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "expr_internal.h"
#include "mmm/expr.h"

#define TWO63 9223372036854775808.0 /* 2^63 */
#define TWO53 9007199254740992.0    /* 2^53 */

/* ------------------------------------------------------------------------ */
/* Instructions                                                              */

enum op {
    OP_CONST, /* push consts[arg] */
    OP_VAR,   /* push vars[arg] */
    OP_NEG,
    OP_NOT,
    OP_CEIL,
    OP_FLOOR,
    OP_LOG2,
    OP_SQRT,
    OP_BOOL, /* top = (top != 0) */
    OP_ADD,
    OP_SUB,
    OP_MUL,
    OP_DIV,
    OP_POW,
    OP_LT,
    OP_LE,
    OP_GT,
    OP_GE,
    OP_EQ,
    OP_NE,
    OP_MIN, /* binary; min(a,b,c) compiles to a b MIN c MIN */
    OP_MAX,
    OP_ANDJ, /* top false: top = 0, jump to arg; else pop */
    OP_ORJ   /* top true: top = 1, jump to arg; else pop */
};

typedef struct instr {
    uint32_t op;
    uint32_t arg;
} instr;

struct mmm_expr {
    instr *code;
    size_t ncode;
    mmm_value *consts;
    size_t nconst;
    int *slots; /* sorted, distinct variable slots read */
    size_t nslots;
    size_t stack; /* evaluation stack entries needed */
};

/* Why an evaluation step failed (0 = it did not). */
enum fault_kind {
    F_OK = 0,
    F_DIV0,
    F_LOG2,
    F_SQRT,
    F_ZEROPOW,
    F_NEGPOW,
    F_NONFINITE,
    F_BADVAR
};

typedef struct fault {
    int kind;
    uint32_t op;
    mmm_value a, b;
} fault;

/* ------------------------------------------------------------------------ */
/* Exact arithmetic helpers                                                  */

static uint64_t u_abs(int64_t x)
{
    return x < 0 ? (uint64_t)0 - (uint64_t)x : (uint64_t)x;
}

/* Binary gcd; gcd(0, b) = b. */
static uint64_t u_gcd(uint64_t a, uint64_t b)
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

static mmm_value v_int(int64_t n)
{
    mmm_value v;
    v.exact = 1;
    v.num = n;
    v.den = 1;
    v.d = (double)n;
    return v;
}

static mmm_value v_inexact(double d)
{
    mmm_value v;
    v.exact = 0;
    v.num = 0;
    v.den = 1;
    v.d = d;
    return v;
}

/* A double result: non-finite values are a domain error. */
static int v_dbl(mmm_value *r, double d)
{
    if (!isfinite(d))
        return F_NONFINITE;
    *r = v_inexact(d);
    return F_OK;
}

/* num/den as the nearest double.  When both are exact doubles one IEEE
 * division rounds once.  Past 2^53, (double)num rounds
 * before dividing (the literal 0.45454545454545453 came out one ulp off;
 * found by fuzz_expr): divide in long double, where both are exact (64-bit
 * significands on x86-64), so that only the final roundings err. */
static double div_nearest(long double num, long double den)
{
    double n = (double)num, d = (double)den;
    if ((long double)n == num && (long double)d == den)
        return n / d; /* both exact doubles (10^17 is one): one rounding */
    return (double)(num / den);
}

/* The value (neg ? -1 : 1) * un / ud with gcd(un, ud) = 1, ud != 0: exact
 * when it fits in int64 (a numerator of -2^63 included), else inexact. */
static mmm_value v_fit(int neg, uint64_t un, uint64_t ud)
{
    mmm_value v;
    if (ud > (uint64_t)INT64_MAX || un > (uint64_t)INT64_MAX + (uint64_t)neg) {
        double d = div_nearest((long double)un, (long double)ud);
        return v_inexact(neg ? -d : d);
    }
    if (un == 0)
        neg = 0;
    v.exact = 1;
    v.num = neg ? -(int64_t)(un - 1) - 1 : (int64_t)un;
    v.den = (int64_t)ud;
    v.d = ud == 1 ? (double)v.num
                  : div_nearest((long double)v.num, (long double)v.den);
    return v;
}

/* The same for any un/ud (ud != 0): reduces first. */
static mmm_value v_parts(int neg, uint64_t un, uint64_t ud)
{
    uint64_t g = ud == 1 ? 1 : u_gcd(un, ud);
    return v_fit(neg, un / g, ud / g);
}

/* An already reduced rational (den > 0). */
static mmm_value v_rat(int64_t num, int64_t den)
{
    mmm_value v;
    if (den == 1)
        return v_int(num);
    v.exact = 1;
    v.num = num;
    v.den = den;
    v.d = div_nearest((long double)num, (long double)den);
    return v;
}

static int v_truthy(const mmm_value *v)
{
    return v->exact ? v->num != 0 : v->d != 0.0;
}

static int v_is_zero(const mmm_value *v)
{
    return v->exact ? v->num == 0 : v->d == 0.0;
}

/* a +/- b for exact rationals (Knuth 4.5.1); 0 when it overflows. */
static int rat_addsub(mmm_value *r, const mmm_value *a, const mmm_value *b,
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

static int v_addsub(mmm_value *r, mmm_value a, mmm_value b, int sub)
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

static int v_mul(mmm_value *r, mmm_value a, mmm_value b)
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

static int v_div(mmm_value *r, mmm_value a, mmm_value b)
{
    if (v_is_zero(&b))
        return F_DIV0;
    if (a.exact && b.exact) {
        uint64_t an = u_abs(a.num), bn = u_abs(b.num), g1, g2, n, d;
        int neg = (a.num < 0) != (b.num < 0);
        if (a.den == 1 && b.den == 1) {
            mmm_value v = an % bn == 0 ? v_fit(neg, an / bn, 1)
                                       : v_parts(neg, an, bn);
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
static int u_pow(uint64_t *out, uint64_t base, uint64_t e)
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

static int v_pow(mmm_value *r, mmm_value a, mmm_value b)
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
        if (u_pow(&pn, n, e) && u_pow(&pd, d, e)) {
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

static int64_t floor_div(int64_t n, int64_t d, int64_t *rem)
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
static int frac_cmp(uint64_t p1, uint64_t q1, uint64_t p2, uint64_t q2)
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

static int rat_cmp(const mmm_value *a, const mmm_value *b)
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
static int v_cmp(const mmm_value *a, const mmm_value *b)
{
    if (a->exact && b->exact)
        return rat_cmp(a, b);
    return (a->d > b->d) - (a->d < b->d);
}

static int v_round(mmm_value *r, mmm_value a, int up)
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
static uint64_t u_isqrt(uint64_t x)
{
    uint64_t s = (uint64_t)sqrt((double)x);
    while (s > 0 && s * s > x)
        s--;
    while ((s + 1) * (s + 1) <= x)
        s++;
    return s;
}

static int v_sqrt(mmm_value *r, mmm_value a)
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

static int v_log2(mmm_value *r, mmm_value a)
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

static int v_neg(mmm_value *r, mmm_value a)
{
    if (a.exact && a.num != INT64_MIN) {
        *r = v_rat(-a.num, a.den);
        return F_OK;
    }
    return v_dbl(r, -a.d);
}

/* ------------------------------------------------------------------------ */
/* Public value helpers                                                      */

mmm_value mmm_value_int(int64_t v)
{
    return v_int(v);
}

mmm_value mmm_value_double(double d)
{
    if (isfinite(d) && d == floor(d) && fabs(d) < TWO63)
        return v_int((int64_t)d);
    return v_inexact(d);
}

mmm_value mmm_value_ratio(int64_t num, int64_t den)
{
    if (den == 0)
        return v_inexact((double)num / 0.0);
    return v_parts((num < 0) != (den < 0), u_abs(num), u_abs(den));
}

int mmm_value_is_int(mmm_value v)
{
    return v.exact && v.den == 1;
}

/* Shortest "%.Ng" (N = 15..17) that reads back as d. */
static void format_double(double d, char *buf, size_t size)
{
    char tmp[40];
    int prec;
    if (isnan(d)) {
        snprintf(buf, size, "nan");
        return;
    }
    if (isinf(d)) {
        snprintf(buf, size, d < 0 ? "-inf" : "inf");
        return;
    }
    for (prec = 15; prec < 17; prec++) {
        snprintf(tmp, sizeof tmp, "%.*g", prec, d);
        if (strtod(tmp, NULL) == d)
            break;
    }
    if (prec == 17)
        snprintf(tmp, sizeof tmp, "%.17g", d);
    snprintf(buf, size, "%s", tmp);
}

char *mmm_value_format(mmm_value v, int as_fraction, char *buf, size_t size)
{
    if (!buf || size == 0)
        return buf;
    if (v.exact && v.den == 1)
        snprintf(buf, size, "%" PRId64, v.num);
    else if (v.exact && as_fraction)
        snprintf(buf, size, "%" PRId64 "/%" PRId64, v.num, v.den);
    else
        format_double(v.d, buf, size);
    return buf;
}

int mmm_value_to_count(int64_t *out, mmm_value v, const char *what,
                       mmm_error *err)
{
    char num[64];
    if (!what)
        what = "value";
    if (v.exact && v.den == 1 && v.num >= 0) {
        if (out)
            *out = v.num;
        return MMM_OK;
    }
    mmm_value_format(v, 0, num, sizeof num);
    if (!v.exact && !isfinite(v.d))
        return mmm_error_set(err, MMM_EOVERFLOW, NULL, 0,
                             "%s = %s does not fit in 64 bits", what, num);
    if (v.exact ? v.num < 0 : v.d < 0)
        return mmm_error_set(err, MMM_EINFEASIBLE, NULL, 0,
                             "%s = %s is negative", what, num);
    if (v.exact || v.d != floor(v.d))
        return mmm_error_set(err, MMM_EINFEASIBLE, NULL, 0,
                             "%s = %s is not an integer (use ceil() or floor())",
                             what, num);
    if (v.d >= TWO63)
        return mmm_error_set(err, MMM_EOVERFLOW, NULL, 0,
                             "%s = %s does not fit in 64 bits", what, num);
    if (v.d >= TWO53)
        return mmm_error_set(err, MMM_EOVERFLOW, NULL, 0,
                             "%s = %s is too large to be counted exactly "
                             "(it was computed in floating point)",
                             what, num);
    if (out)
        *out = (int64_t)v.d;
    return MMM_OK;
}

/* ------------------------------------------------------------------------ */
/* The evaluation engine                                                     */

static int op_arity(uint32_t op)
{
    return op >= OP_ADD && op <= OP_MAX ? 2 : 1;
}

/* Integer fast path of the evaluation loop: no gcd, no call. */
#define BOTH_INT(a, b) ((a).exact && (b).exact && ((a).den | (b).den) == 1)
#define SET_INT(v, n) ((v).num = (n), (v).d = (double)(n))
#define CMP(a, b)                                                             \
    (BOTH_INT(a, b) ? ((a).num > (b).num) - ((a).num < (b).num)               \
                    : v_cmp(&(a), &(b)))

/* Run code[0..n) on stack (room for the needed entries); the result is the
 * one value left.  Jump targets are absolute indices into code. */
static int run(const instr *code, size_t n, const mmm_value *consts,
               const mmm_value *vars, mmm_value *stack, mmm_value *out,
               fault *f)
{
    mmm_value *sp = stack;
    size_t pc;
    int64_t t;
    int k = F_OK;
    for (pc = 0; pc < n; pc++) {
        const instr in = code[pc];
        switch ((enum op)in.op) {
        case OP_CONST:
            *sp++ = consts[in.arg];
            continue;
        case OP_VAR:
            *sp = vars[in.arg];
            if (sp->exact ? sp->den <= 0 : !isfinite(sp->d)) {
                k = F_BADVAR;
                f->a = *sp;
                f->b = v_int((int64_t)in.arg);
                f->kind = k;
                f->op = in.op;
                return k;
            }
            sp++;
            continue;
        case OP_ANDJ:
            if (!v_truthy(&sp[-1])) {
                sp[-1] = v_int(0);
                pc = in.arg - 1;
            } else {
                sp--;
            }
            continue;
        case OP_ORJ:
            if (v_truthy(&sp[-1])) {
                sp[-1] = v_int(1);
                pc = in.arg - 1;
            } else {
                sp--;
            }
            continue;
        case OP_NEG:
            k = v_neg(&sp[-1], sp[-1]);
            break;
        case OP_NOT:
            sp[-1] = v_int(!v_truthy(&sp[-1]));
            continue;
        case OP_BOOL:
            sp[-1] = v_int(v_truthy(&sp[-1]));
            continue;
        case OP_CEIL:
            k = v_round(&sp[-1], sp[-1], 1);
            break;
        case OP_FLOOR:
            k = v_round(&sp[-1], sp[-1], 0);
            break;
        case OP_LOG2:
            k = v_log2(&sp[-1], sp[-1]);
            break;
        case OP_SQRT:
            k = v_sqrt(&sp[-1], sp[-1]);
            break;
        case OP_ADD:
            sp--;
            if (BOTH_INT(sp[-1], sp[0]) &&
                !__builtin_add_overflow(sp[-1].num, sp[0].num, &t)) {
                SET_INT(sp[-1], t);
                continue;
            }
            k = v_addsub(&sp[-1], sp[-1], sp[0], 0);
            break;
        case OP_SUB:
            sp--;
            if (BOTH_INT(sp[-1], sp[0]) &&
                !__builtin_sub_overflow(sp[-1].num, sp[0].num, &t)) {
                SET_INT(sp[-1], t);
                continue;
            }
            k = v_addsub(&sp[-1], sp[-1], sp[0], 1);
            break;
        case OP_MUL:
            sp--;
            if (BOTH_INT(sp[-1], sp[0]) &&
                !__builtin_mul_overflow(sp[-1].num, sp[0].num, &t)) {
                SET_INT(sp[-1], t);
                continue;
            }
            k = v_mul(&sp[-1], sp[-1], sp[0]);
            break;
        case OP_DIV:
            sp--;
            k = v_div(&sp[-1], sp[-1], sp[0]);
            break;
        case OP_POW:
            sp--;
            k = v_pow(&sp[-1], sp[-1], sp[0]);
            break;
        case OP_LT:
            sp--;
            sp[-1] = v_int(CMP(sp[-1], sp[0]) < 0);
            continue;
        case OP_LE:
            sp--;
            sp[-1] = v_int(CMP(sp[-1], sp[0]) <= 0);
            continue;
        case OP_GT:
            sp--;
            sp[-1] = v_int(CMP(sp[-1], sp[0]) > 0);
            continue;
        case OP_GE:
            sp--;
            sp[-1] = v_int(CMP(sp[-1], sp[0]) >= 0);
            continue;
        case OP_EQ:
            sp--;
            sp[-1] = v_int(CMP(sp[-1], sp[0]) == 0);
            continue;
        case OP_NE:
            sp--;
            sp[-1] = v_int(CMP(sp[-1], sp[0]) != 0);
            continue;
        case OP_MIN:
            sp--;
            if (CMP(sp[0], sp[-1]) < 0)
                sp[-1] = sp[0];
            continue;
        case OP_MAX:
            sp--;
            if (CMP(sp[0], sp[-1]) > 0)
                sp[-1] = sp[0];
            continue;
        }
        if (k != F_OK) {
            /* the operands are still in place: the result was not stored */
            f->kind = k;
            f->op = in.op;
            f->a = sp[-1];
            f->b = op_arity(in.op) == 2 ? sp[0] : sp[-1];
            return k;
        }
    }
    *out = stack[0];
    return F_OK;
}

static const char *op_symbol(uint32_t op)
{
    static const char *const names[] = {
        [OP_CONST] = "constant", [OP_VAR] = "variable", [OP_NEG] = "-",
        [OP_NOT] = "!",          [OP_CEIL] = "ceil",    [OP_FLOOR] = "floor",
        [OP_LOG2] = "log2",      [OP_SQRT] = "sqrt",    [OP_BOOL] = "bool",
        [OP_ADD] = "+",          [OP_SUB] = "-",        [OP_MUL] = "*",
        [OP_DIV] = "/",          [OP_POW] = "^",        [OP_LT] = "<",
        [OP_LE] = "<=",          [OP_GT] = ">",         [OP_GE] = ">=",
        [OP_EQ] = "==",          [OP_NE] = "!=",        [OP_MIN] = "min",
        [OP_MAX] = "max",        [OP_ANDJ] = "&&",      [OP_ORJ] = "||"};
    return op < sizeof names / sizeof names[0] ? names[op] : "?";
}

/* A value as an operand of '^' in a message: "(-1/2)", "3". */
static void format_operand(mmm_value v, char *buf, size_t size)
{
    char t[60];
    mmm_value_format(v, 1, t, sizeof t);
    if (strchr(t, '/') || strchr(t, 'e') || t[0] == '-')
        snprintf(buf, size, "(%s)", t);
    else
        snprintf(buf, size, "%s", t);
}

static int fault_message(const fault *f, mmm_error *err)
{
    char a[64], b[64];
    mmm_value_format(f->a, 1, a, sizeof a);
    mmm_value_format(f->b, 1, b, sizeof b);
    if (f->kind == F_ZEROPOW || f->kind == F_NEGPOW) {
        format_operand(f->a, a, sizeof a);
        format_operand(f->b, b, sizeof b);
    }
    switch (f->kind) {
    case F_DIV0:
        return mmm_error_set(err, MMM_EDOMAIN, NULL, 0, "division by zero");
    case F_LOG2:
        return mmm_error_set(err, MMM_EDOMAIN, NULL, 0,
                             "log2 of %s (the argument must be positive)", a);
    case F_SQRT:
        return mmm_error_set(err, MMM_EDOMAIN, NULL, 0,
                             "sqrt of %s (the argument must not be negative)",
                             a);
    case F_ZEROPOW:
        return mmm_error_set(err, MMM_EDOMAIN, NULL, 0,
                             "0^%s: zero to a negative power", b);
    case F_NEGPOW:
        return mmm_error_set(err, MMM_EDOMAIN, NULL, 0,
                             "%s^%s is not a real number (negative base, "
                             "fractional exponent)",
                             a, b);
    case F_BADVAR:
        return mmm_error_set(err, MMM_EINVAL, NULL, 0,
                             "variable slot %s holds an invalid value "
                             "(denominator <= 0, infinite or nan)",
                             b);
    default:
        return mmm_error_set(err, MMM_EDOMAIN, NULL, 0,
                             "result of '%s' is not a finite number "
                             "(overflow)",
                             op_symbol(f->op));
    }
}

int mmm_expr_eval(const mmm_expr *e, const mmm_value *vars, size_t nvars,
                  mmm_value *out, mmm_error *err)
{
    mmm_value stack[MMM_EXPR_STACK];
    fault f;
    if (!e || !out)
        return mmm_error_set(err, MMM_EINVAL, NULL, 0,
                             "mmm_expr_eval: NULL expression or result");
    if (e->nslots > 0 &&
        (!vars || (size_t)e->slots[e->nslots - 1] >= nvars))
        return mmm_error_set(err, MMM_EINVAL, NULL, 0,
                             "expression reads variable slot %d but only %zu "
                             "values were given",
                             e->slots[e->nslots - 1], vars ? nvars : 0);
    if (e->ncode == 1 && e->code[0].op == OP_CONST) {
        *out = e->consts[e->code[0].arg]; /* blocks="4", the commonest */
        return MMM_OK;
    }
    if (run(e->code, e->ncode, e->consts, vars, stack, out, &f) != F_OK)
        return fault_message(&f, err);
    return MMM_OK;
}

int mmm_expr_uses(const mmm_expr *e, int slot)
{
    size_t lo = 0, hi;
    if (!e || slot < 0)
        return 0;
    hi = e->nslots;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (e->slots[mid] == slot)
            return 1;
        if (e->slots[mid] < slot)
            lo = mid + 1;
        else
            hi = mid;
    }
    return 0;
}

int mmm_expr_max_slot(const mmm_expr *e)
{
    return e && e->nslots > 0 ? e->slots[e->nslots - 1] : -1;
}

int mmm_expr_is_constant(const mmm_expr *e)
{
    return !e || e->nslots == 0;
}

size_t mmm__expr_code_length(const mmm_expr *e)
{
    return e ? e->ncode : 0;
}

size_t mmm__expr_stack_need(const mmm_expr *e)
{
    return e ? e->stack : 0;
}

void mmm_expr_free(mmm_expr *e)
{
    if (!e)
        return;
    free(e->code);
    free(e->consts);
    free(e->slots);
    free(e);
}

/* ------------------------------------------------------------------------ */
/* The parser                                                                */

typedef struct parser {
    const char *text;
    size_t len, pos;
    size_t depth, max_depth;
    mmm_resolve_fn resolve;
    void *payload;
    mmm_error *err;
    instr *code;
    size_t ncode, capcode;
    mmm_value *consts;
    size_t nconst, capconst;
    size_t barrier; /* constant folding never reaches below this index */
    uint8_t prefix[MMM_EXPR_MAX_DEPTH]; /* pending unary operators */
    size_t nprefix;
} parser;

enum { PREC_OR = 1, PREC_AND, PREC_CMP, PREC_SUM, PREC_PRODUCT };

/* The expression text for a message, cut to a window around pos. */
static void quote_text(const parser *p, size_t pos, char *buf, size_t size)
{
    enum { WIDTH = 60, BEFORE = 40 };
    size_t start = 0, end = p->len, i, o = 0;
    if (p->len > WIDTH) {
        start = pos > BEFORE ? pos - BEFORE : 0;
        end = start + WIDTH - 6 < p->len ? start + WIDTH - 6 : p->len;
    }
    if (start > 0 && o + 3 < size) {
        memcpy(buf + o, "...", 3);
        o += 3;
    }
    for (i = start; i < end && o + 1 < size; i++) {
        unsigned char c = (unsigned char)p->text[i];
        buf[o++] = (c >= 0x20 && c < 0x7f && c != '\'') ? (char)c
                   : isspace(c)                          ? ' '
                   : c == '\''                           ? '"'
                                                         : '?';
    }
    if (end < p->len && o + 3 < size) {
        memcpy(buf + o, "...", 3);
        o += 3;
    }
    buf[o < size ? o : size - 1] = '\0';
}

static int syntax_error(parser *p, size_t pos, const char *what)
{
    char q[80];
    quote_text(p, pos, q, sizeof q);
    return mmm_error_set(p->err, MMM_EPARSE, NULL, 0,
                         "%s at column %zu in '%s'", what, pos + 1, q);
}

static int nomem(parser *p)
{
    return mmm_error_set(p->err, MMM_ENOMEM, NULL, 0, "out of memory");
}

static char cur(const parser *p)
{
    return p->pos < p->len ? p->text[p->pos] : '\0';
}

static char peek_at(const parser *p, size_t off)
{
    return p->pos + off < p->len ? p->text[p->pos + off] : '\0';
}

static void skip_ws(parser *p)
{
    while (p->pos < p->len && isspace((unsigned char)p->text[p->pos]))
        p->pos++;
}

static int enter(parser *p)
{
    if (p->depth >= p->max_depth)
        return mmm_error_set(p->err, MMM_ELIMIT, NULL, 0,
                             "expression nested too deeply (more than %zu "
                             "levels of parentheses, unary operators or '^') "
                             "at column %zu",
                             p->max_depth, p->pos + 1);
    p->depth++;
    return 0;
}

static int emit(parser *p, uint32_t op, uint32_t arg)
{
    if (p->ncode == p->capcode) {
        size_t cap = p->capcode ? 2 * p->capcode : 16;
        instr *c = realloc(p->code, cap * sizeof *c);
        if (!c)
            return nomem(p);
        p->code = c;
        p->capcode = cap;
    }
    p->code[p->ncode].op = op;
    p->code[p->ncode].arg = arg;
    p->ncode++;
    return 0;
}

static int emit_const(parser *p, mmm_value v)
{
    if (p->nconst == p->capconst) {
        size_t cap = p->capconst ? 2 * p->capconst : 8;
        mmm_value *c;
        if (cap > UINT32_MAX)
            return mmm_error_set(p->err, MMM_ELIMIT, NULL, 0,
                                 "expression has too many constants");
        c = realloc(p->consts, cap * sizeof *c);
        if (!c)
            return nomem(p);
        p->consts = c;
        p->capconst = cap;
    }
    p->consts[p->nconst] = v;
    return emit(p, OP_CONST, (uint32_t)p->nconst++);
}

/* Emit an operator; when its operands are constants just emitted (and no
 * jump lands between them), compute it now instead.  A step that fails
 * (1/0) is left for evaluation, where && and || may skip it. */
static int emit_op(parser *p, uint32_t op)
{
    int ar = op_arity(op);
    size_t n = p->ncode, i;
    if (n >= p->barrier + (size_t)ar) {
        int all_const = 1;
        for (i = n - (size_t)ar; i < n; i++)
            all_const &= p->code[i].op == OP_CONST;
        if (all_const) {
            instr tmp[3];
            mmm_value stack[2], res;
            fault f;
            tmp[0] = p->code[n - (size_t)ar];
            if (ar == 2)
                tmp[1] = p->code[n - 1];
            tmp[ar].op = op;
            tmp[ar].arg = 0;
            if (run(tmp, (size_t)ar + 1, p->consts, NULL, stack, &res, &f) ==
                F_OK) {
                /* the operands are the last constants of the pool */
                p->ncode -= (size_t)ar;
                p->nconst -= (size_t)ar;
                return emit_const(p, res);
            }
        }
    }
    return emit(p, op, 0);
}

static int parse_binary(parser *p, int min_prec);

/* Binary operator at the cursor: its precedence (0 when none), op, length. */
static int peek_binop(parser *p, uint32_t *op, size_t *len)
{
    char c, c2;
    skip_ws(p);
    c = cur(p);
    c2 = peek_at(p, 1);
    *len = 1;
    switch (c) {
    case '|':
        if (c2 != '|')
            return 0;
        *len = 2;
        *op = OP_ORJ;
        return PREC_OR;
    case '&':
        if (c2 != '&')
            return 0;
        *len = 2;
        *op = OP_ANDJ;
        return PREC_AND;
    case '<':
    case '>':
        *len = c2 == '=' ? 2 : 1;
        *op = c == '<' ? (c2 == '=' ? OP_LE : OP_LT)
                       : (c2 == '=' ? OP_GE : OP_GT);
        return PREC_CMP;
    case '=':
    case '!':
        if (c2 != '=')
            return 0;
        *len = 2;
        *op = c == '=' ? OP_EQ : OP_NE;
        return PREC_CMP;
    case '+':
        *op = OP_ADD;
        return PREC_SUM;
    case '-':
        *op = OP_SUB;
        return PREC_SUM;
    case '*':
        *op = OP_MUL;
        return PREC_PRODUCT;
    case '/':
        *op = OP_DIV;
        return PREC_PRODUCT;
    default:
        return 0;
    }
}

static int accumulate_digit(uint64_t *m, uint64_t *zeros, int digit)
{
    if (digit == 0) {
        (*zeros)++;
        return 1;
    }
    for (; *zeros > 0; (*zeros)--)
        if (__builtin_mul_overflow(*m, 10, m) || *m > INT64_MAX)
            return 0;
    if (__builtin_mul_overflow(*m, 10, m) ||
        __builtin_add_overflow(*m, (uint64_t)digit, m) || *m > INT64_MAX)
        return 0;
    return 1;
}

/* A literal that has no exact int64 rational form: the nearest double. */
static int number_double(parser *p, size_t start, size_t end, mmm_value *out)
{
    char small[64], *buf = small, *stop;
    size_t n = end - start, i;
    double d;
    if (n + 1 > sizeof small && !(buf = malloc(n + 1)))
        return nomem(p);
    memcpy(buf, p->text + start, n);
    buf[n] = '\0';
    errno = 0;
    d = strtod(buf, &stop);
    if (stop != buf + n) {
        /* a locale whose decimal point is not '.' */
        const struct lconv *lc = localeconv();
        char point = lc && lc->decimal_point ? lc->decimal_point[0] : '.';
        for (i = 0; i < n; i++)
            if (buf[i] == '.')
                buf[i] = point;
        errno = 0;
        d = strtod(buf, &stop);
    }
    if (buf != small)
        free(buf);
    if (errno == ERANGE || !isfinite(d))
        return syntax_error(p, start, "number out of range");
    *out = v_inexact(d);
    return 0;
}

static int is_digit(char c)
{
    return c >= '0' && c <= '9';
}

static int is_name_start(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static int is_name_char(char c)
{
    return is_name_start(c) || is_digit(c);
}

/* NUMBER := digits ["." digits] [("e"|"E") ["+"|"-"] digits], or "." digits
 * ...: exact when mantissa * 10^exponent is an int64 rational. */
static int parse_number(parser *p)
{
    size_t start = p->pos;
    uint64_t m = 0, zeros = 0;
    int64_t scale = 0, ex = 0;
    int fits = 1, exneg = 0;
    mmm_value v;
    while (is_digit(cur(p))) {
        fits = fits && accumulate_digit(&m, &zeros, cur(p) - '0');
        p->pos++;
    }
    if (cur(p) == '.') {
        p->pos++;
        if (!is_digit(cur(p)))
            return syntax_error(p, p->pos, "expected a digit after '.'");
        while (is_digit(cur(p))) {
            fits = fits && accumulate_digit(&m, &zeros, cur(p) - '0');
            scale--;
            p->pos++;
        }
    }
    if (cur(p) == 'e' || cur(p) == 'E') {
        p->pos++;
        if (cur(p) == '+' || cur(p) == '-') {
            exneg = cur(p) == '-';
            p->pos++;
        }
        if (!is_digit(cur(p)))
            return syntax_error(p, p->pos, "expected digits in the exponent");
        for (; is_digit(cur(p)); p->pos++)
            if (ex < 100000000) /* clamp: beyond is out of range anyway */
                ex = ex * 10 + (cur(p) - '0');
    }
    if ((cur(p) == 'x' || cur(p) == 'X') && p->pos == start + 1 &&
        p->text[start] == '0')
        return syntax_error(p, start,
                            "hexadecimal numbers are not supported (write "
                            "decimal numbers such as 12, 2.5, 1e6)");
    if (cur(p) == '.')
        return syntax_error(p, p->pos, "malformed number");
    if (is_name_char(cur(p)))
        return syntax_error(p, p->pos,
                            "expected an operator after the number (write "
                            "2*n, not 2n)");
    scale += (int64_t)zeros + (exneg ? -ex : ex);
    if (fits && m == 0) {
        v = v_int(0);
    } else if (fits && scale >= 0 && scale <= 18) {
        uint64_t t;
        if (!u_pow(&t, 10, (uint64_t)scale) ||
            __builtin_mul_overflow(m, t, &t) || t > INT64_MAX)
            fits = 0;
        else
            v = v_int((int64_t)t);
    } else if (fits && scale < 0 && scale >= -18) {
        uint64_t t = 1;
        u_pow(&t, 10, (uint64_t)-scale);
        v = v_parts(0, m, t);
        if (v.exact) {
            /* exact value kept; its double is strtod's, correctly rounded
             * (num/den in doubles can round twice: 233/7000 printed as
             * 0.03328571428571429 read back one ulp off; fuzz_expr) */
            mmm_value near;
            int rc = number_double(p, start, p->pos, &near);
            if (rc)
                return rc;
            v.d = near.d;
        }
    } else {
        fits = 0;
    }
    if (!fits) {
        int rc = number_double(p, start, p->pos, &v);
        if (rc)
            return rc;
    }
    return emit_const(p, v);
}

typedef struct func_desc {
    const char *name;
    uint32_t op;
    int min_args, max_args; /* max_args < 0: unbounded */
} func_desc;

static const func_desc funcs[] = {
    {"ceil", OP_CEIL, 1, 1}, {"floor", OP_FLOOR, 1, 1},
    {"log2", OP_LOG2, 1, 1}, {"sqrt", OP_SQRT, 1, 1},
    {"min", OP_MIN, 2, -1},  {"max", OP_MAX, 2, -1},
};

static int arity_error(parser *p, const func_desc *fd)
{
    if (fd->max_args == fd->min_args)
        return mmm_error_set(p->err, MMM_EINPUT, NULL, 0,
                             "%s() takes %d argument%s", fd->name,
                             fd->min_args, fd->min_args == 1 ? "" : "s");
    return mmm_error_set(p->err, MMM_EINPUT, NULL, 0,
                         "%s() takes at least %d arguments", fd->name,
                         fd->min_args);
}

/* NAME "(" expr ("," expr)* ")" with the cursor on "(". */
static int parse_call(parser *p, const char *name, size_t len)
{
    const func_desc *fd = NULL;
    size_t i;
    int nargs = 0, rc;
    for (i = 0; i < sizeof funcs / sizeof funcs[0]; i++)
        if (strlen(funcs[i].name) == len && !memcmp(funcs[i].name, name, len))
            fd = &funcs[i];
    if (!fd)
        return mmm_error_set(p->err, MMM_EINPUT, NULL, 0,
                             "unknown function '%.*s'",
                             (int)(len > 64 ? 64 : len), name);
    if ((rc = enter(p)) != 0)
        return rc;
    p->pos++; /* "(" */
    skip_ws(p);
    if (cur(p) == ')')
        return arity_error(p, fd);
    for (;;) {
        if ((rc = parse_binary(p, PREC_OR)) != 0)
            return rc;
        nargs++;
        if (fd->max_args >= 0 && nargs > fd->max_args)
            return arity_error(p, fd);
        if (nargs >= 2 && (rc = emit_op(p, fd->op)) != 0)
            return rc; /* min/max: pairwise, so the stack stays small */
        skip_ws(p);
        if (cur(p) == ')')
            break;
        if (cur(p) != ',')
            return syntax_error(p, p->pos, "expected ',' or ')'");
        p->pos++;
    }
    p->pos++; /* ")" */
    p->depth--;
    if (nargs < fd->min_args)
        return arity_error(p, fd);
    return fd->min_args == 1 ? emit_op(p, fd->op) : 0;
}

static int parse_name(parser *p)
{
    const char *name = p->text + p->pos;
    size_t len = 0;
    int slot;
    while (is_name_char(peek_at(p, len)))
        len++;
    p->pos += len;
    skip_ws(p);
    if (cur(p) == '(')
        return parse_call(p, name, len);
    slot = p->resolve ? p->resolve(name, len, p->payload) : -1;
    if (slot < 0)
        return mmm_error_set(p->err, MMM_EINPUT, NULL, 0,
                             "unknown parameter '%.*s'",
                             (int)(len > 64 ? 64 : len), name);
    return emit(p, OP_VAR, (uint32_t)slot);
}

static int operand_error(parser *p)
{
    char c = cur(p), what[96];
    if (p->pos >= p->len)
        return syntax_error(p, p->pos, "expected a number, a name or '('");
    if (c >= 0x20 && c < 0x7f && !strchr("+-*/^()<>=!&|,.", c))
        snprintf(what, sizeof what, "unexpected character '%c'", c);
    else if (c < 0x20 || c >= 0x7f)
        snprintf(what, sizeof what, "unexpected byte 0x%02x",
                 (unsigned)(unsigned char)c);
    else
        snprintf(what, sizeof what,
                 "expected a number, a name or '(' instead of '%c'", c);
    return syntax_error(p, p->pos, what);
}

/* atom := NUMBER | NAME | NAME "(" args ")" | "(" expr ")" */
static int parse_atom(parser *p)
{
    char c;
    int rc;
    skip_ws(p);
    c = cur(p);
    if (is_digit(c) || (c == '.' && is_digit(peek_at(p, 1))))
        return parse_number(p);
    if (is_name_start(c))
        return parse_name(p);
    if (c != '(')
        return operand_error(p);
    if ((rc = enter(p)) != 0)
        return rc;
    p->pos++;
    if ((rc = parse_binary(p, PREC_OR)) != 0)
        return rc;
    skip_ws(p);
    if (cur(p) != ')')
        return syntax_error(p, p->pos, "expected ')'");
    p->pos++;
    p->depth--;
    return 0;
}

/* unary := ("-"|"!") unary | atom ["^" unary].  Prefix operators are kept
 * on p->prefix (bounded by the depth limit) rather than by recursion. */
static int parse_unary(parser *p)
{
    size_t base = p->nprefix;
    int rc;
    for (;;) {
        char c;
        skip_ws(p);
        c = cur(p);
        if (!(c == '-' || (c == '!' && peek_at(p, 1) != '=')))
            break;
        if ((rc = enter(p)) != 0)
            return rc;
        p->prefix[p->nprefix++] = (uint8_t)(c == '-' ? OP_NEG : OP_NOT);
        p->pos++;
    }
    if ((rc = parse_atom(p)) != 0)
        return rc;
    skip_ws(p);
    if (cur(p) == '^') {
        if ((rc = enter(p)) != 0)
            return rc;
        p->pos++;
        if ((rc = parse_unary(p)) != 0 || (rc = emit_op(p, OP_POW)) != 0)
            return rc;
        p->depth--;
    }
    while (p->nprefix > base) {
        if ((rc = emit_op(p, p->prefix[--p->nprefix])) != 0)
            return rc;
        p->depth--;
    }
    return 0;
}

/* Precedence climbing over || && comparisons + - * /. */
static int parse_binary(parser *p, int min_prec)
{
    int rc = parse_unary(p);
    while (rc == 0) {
        uint32_t op, op2;
        size_t len, len2;
        int prec = peek_binop(p, &op, &len);
        if (prec == 0 || prec < min_prec)
            return 0;
        p->pos += len;
        if (op == OP_ANDJ || op == OP_ORJ) {
            size_t j = p->ncode;
            if ((rc = emit(p, op, 0)) != 0 ||
                (rc = parse_binary(p, prec + 1)) != 0 ||
                (rc = emit(p, OP_BOOL, 0)) != 0)
                return rc;
            p->code[j].arg = (uint32_t)p->ncode;
            p->barrier = p->ncode; /* a jump lands here */
            continue;
        }
        if ((rc = parse_binary(p, prec + 1)) != 0 ||
            (rc = emit_op(p, op)) != 0)
            return rc;
        if (prec == PREC_CMP && peek_binop(p, &op2, &len2) == PREC_CMP)
            return syntax_error(p, p->pos,
                                "comparisons do not chain (use && between "
                                "them)");
    }
    return rc;
}

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* Stack need and the sorted slot list, from the finished code. */
static int finish(parser *p, mmm_expr *e)
{
    size_t i, depth = 0, n = 0;
    for (i = 0; i < p->ncode; i++) {
        uint32_t op = p->code[i].op;
        if (op == OP_CONST || op == OP_VAR) {
            if (++depth > e->stack)
                e->stack = depth;
            n += op == OP_VAR;
        } else if (op == OP_ANDJ || op == OP_ORJ || op_arity(op) == 2) {
            depth--; /* a jump's fall-through pops its operand */
        }
    }
    if (e->stack > MMM_EXPR_STACK)
        return mmm_error_set(p->err, MMM_ELIMIT, NULL, 0,
                             "expression too complex: it needs %zu "
                             "evaluation stack entries (limit %d)",
                             e->stack, MMM_EXPR_STACK);
    if (n > 0) {
        if (!(e->slots = malloc(n * sizeof *e->slots)))
            return nomem(p);
        for (i = 0; i < p->ncode; i++)
            if (p->code[i].op == OP_VAR)
                e->slots[e->nslots++] = (int)p->code[i].arg;
        qsort(e->slots, e->nslots, sizeof *e->slots, cmp_int);
        for (n = 1, i = 1; i < e->nslots; i++)
            if (e->slots[i] != e->slots[n - 1])
                e->slots[n++] = e->slots[i];
        e->nslots = n;
    }
    return 0;
}

static size_t effective_depth(const mmm_expr_limits *limits)
{
    size_t d = limits && limits->max_depth ? limits->max_depth : 256;
    return d > MMM_EXPR_MAX_DEPTH ? MMM_EXPR_MAX_DEPTH : d;
}

int mmm_expr_parse(mmm_expr **out, const char *text, mmm_resolve_fn resolve,
                   void *payload, const mmm_expr_limits *limits,
                   mmm_error *err)
{
    parser *p;
    mmm_expr *e;
    int rc;
    size_t maxlen = limits ? limits->max_length : 0;
    if (!out || !text)
        return mmm_error_set(err, MMM_EINVAL, NULL, 0,
                             "mmm_expr_parse: NULL argument");
    *out = NULL;
    if (maxlen && strnlen(text, maxlen + 1) > maxlen)
        return mmm_error_set(err, MMM_ELIMIT, NULL, 0,
                             "expression too long (more than %zu characters)",
                             maxlen);
    if (!(p = calloc(1, sizeof *p)) || !(e = calloc(1, sizeof *e))) {
        free(p);
        return mmm_error_set(err, MMM_ENOMEM, NULL, 0, "out of memory");
    }
    p->text = text;
    p->len = strlen(text);
    p->max_depth = effective_depth(limits);
    p->resolve = resolve;
    p->payload = payload;
    p->err = err;
    skip_ws(p);
    if (p->pos == p->len)
        rc = mmm_error_set(err, MMM_EPARSE, NULL, 0, "empty expression");
    else
        rc = parse_binary(p, PREC_OR);
    if (rc == 0) {
        skip_ws(p);
        if (p->pos < p->len)
            rc = p->depth == 0 && cur(p) == ')'
                     ? syntax_error(p, p->pos, "unbalanced ')'")
                     : syntax_error(p, p->pos,
                                    cur(p) == '='
                                        ? "expected an operator ('=' is not "
                                          "one: use '==')"
                                        : "expected an operator or the end "
                                          "of the expression");
    }
    if (rc == 0)
        rc = finish(p, e);
    if (rc == 0) {
        e->code = p->code;
        e->ncode = p->ncode;
        e->consts = p->consts;
        e->nconst = p->nconst;
        *out = e;
    } else {
        free(p->code);
        free(p->consts);
        mmm_expr_free(e);
    }
    free(p);
    return rc;
}
