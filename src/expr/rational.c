/* rational.c: the public value helpers of include/mmm/expr.h (mmm_value_*);
 * the arithmetic of exact rational values is rational.h's. */
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "expr/rational.h"

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
    return mmm__v_parts((num < 0) != (den < 0), u_abs(num), u_abs(den));
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
