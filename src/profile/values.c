/* values.c: exact rational arithmetic on mmm_value for `mmm profile`
 * (64-bit numerator and denominator, 128-bit intermediates; a result that
 * does not fit falls back to the doubles, marked inexact). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profile_internal.h"

__extension__ typedef __int128 i128;

static i128 gcd128(i128 a, i128 b)
{
    if (a < 0)
        a = -a;
    if (b < 0)
        b = -b;
    while (b) {
        i128 t = a % b;
        a = b;
        b = t;
    }
    return a;
}

static mmm_value inexact(double d)
{
    mmm_value v;
    memset(&v, 0, sizeof v);
    v.exact = 0;
    v.d = d;
    return v;
}

/* num/den reduced into a value; inexact when it does not fit. */
static mmm_value make(i128 num, i128 den, double fallback)
{
    if (den == 0)
        return inexact(NAN);
    if (den < 0) {
        num = -num;
        den = -den;
    }
    i128 g = gcd128(num, den);
    if (g > 1) {
        num /= g;
        den /= g;
    }
    if (num > INT64_MAX || num < -(i128)INT64_MAX || den > INT64_MAX)
        return inexact(fallback);
    return mmm_value_ratio((int64_t)num, (int64_t)den);
}

mmm_value mmm__pv_add(mmm_value a, mmm_value b)
{
    if (a.exact && b.exact)
        return make((i128)a.num * b.den + (i128)b.num * a.den,
                    (i128)a.den * b.den, a.d + b.d);
    return inexact(a.d + b.d);
}

mmm_value mmm__pv_sub(mmm_value a, mmm_value b)
{
    if (a.exact && b.exact)
        return make((i128)a.num * b.den - (i128)b.num * a.den,
                    (i128)a.den * b.den, a.d - b.d);
    return inexact(a.d - b.d);
}

mmm_value mmm__pv_mul(mmm_value a, mmm_value b)
{
    if (a.exact && b.exact) {
        /* cross-reduce first so that the products stay small */
        i128 g1 = gcd128(a.num, b.den), g2 = gcd128(b.num, a.den);
        if (g1 == 0)
            g1 = 1;
        if (g2 == 0)
            g2 = 1;
        return make((i128)(a.num / g1) * (b.num / g2),
                    (i128)(a.den / g2) * (b.den / g1), a.d * b.d);
    }
    return inexact(a.d * b.d);
}

mmm_value mmm__pv_div(mmm_value a, mmm_value b)
{
    if (b.exact ? b.num == 0 : b.d == 0)
        return inexact(NAN);
    if (a.exact && b.exact) {
        mmm_value inv = make(b.den, b.num, 1 / b.d);
        if (inv.exact)
            return mmm__pv_mul(a, inv);
    }
    return inexact(a.d / b.d);
}

int mmm__pv_equal(mmm_value a, mmm_value b)
{
    if (a.exact && b.exact)
        return a.num == b.num && a.den == b.den;
    return a.d == b.d;
}

void mmm__pv_text(mmm_value v, char *buf, size_t size)
{
    if (v.exact && v.den == 1)
        snprintf(buf, size, "%lld", (long long)v.num);
    else if (v.exact)
        snprintf(buf, size, "%lld/%lld", (long long)v.num, (long long)v.den);
    else if (v.d == floor(v.d) && fabs(v.d) < 9007199254740992.0)
        snprintf(buf, size, "%.0f", v.d);
    else
        snprintf(buf, size, "%.17g", v.d);
}

int mmm__pv_parse(const char *s, mmm_value *out)
{
    const char *p = s;
    int neg = 0, digits = 0, exact = 1;
    int64_t num = 0, den = 1;
    while (*p == ' ' || *p == '\t')
        p++;
    if (*p == '-' || *p == '+')
        neg = *p++ == '-';
    for (; *p >= '0' && *p <= '9'; p++, digits++)
        if (__builtin_mul_overflow(num, 10, &num) ||
            __builtin_add_overflow(num, *p - '0', &num))
            exact = 0;
    if (*p == '.') {
        p++;
        for (; *p >= '0' && *p <= '9'; p++, digits++)
            if (__builtin_mul_overflow(num, 10, &num) ||
                __builtin_add_overflow(num, *p - '0', &num) ||
                __builtin_mul_overflow(den, 10, &den))
                exact = 0;
    }
    if (!digits)
        return -1;
    if (*p == 'e' || *p == 'E') {
        const char *q = p + 1;
        int eneg = 0, e = 0, ed = 0;
        if (*q == '-' || *q == '+')
            eneg = *q++ == '-';
        for (; *q >= '0' && *q <= '9'; q++, ed++)
            if (e < 1000)
                e = e * 10 + (*q - '0');
        if (!ed)
            return -1;
        for (int i = 0; i < e && exact; i++)
            if (eneg ? __builtin_mul_overflow(den, 10, &den)
                     : __builtin_mul_overflow(num, 10, &num))
                exact = 0;
        p = q;
    }
    while (*p == ' ' || *p == '\t')
        p++;
    if (*p)
        return -1;
    char *end;
    double d = strtod(s, &end);
    if (!isfinite(d))
        return -1;
    if (exact) {
        *out = mmm_value_ratio(neg ? -num : num, den);
        return 0;
    }
    *out = inexact(d);
    return 0;
}
