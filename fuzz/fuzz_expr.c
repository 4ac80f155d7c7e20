/* fuzz_expr.c: the expression compiler and evaluator on arbitrary text.
 * Names a..z resolve to slots 0..25 with fixed values; anything else is
 * unknown.  Parsing must fail cleanly or give an expression whose
 * evaluation fails cleanly or gives a value that keeps the invariants
 * (aborts otherwise, a finding):
 *   - a finite double (an overflow is an error, never inf or NaN);
 *   - an exact value is reduced, den > 0, and its double is num/den;
 *   - evaluation is deterministic;
 *   - a constant expression uses no slot, and the other way round;
 *   - the printed value reads back as the same value (the formatter and
 *     the number parser agree), as a decimal and as a fraction. */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mmm/mmm.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int resolve(const char *name, size_t len, void *payload)
{
    (void)payload;
    if (len == 1 && name[0] >= 'a' && name[0] <= 'z')
        return name[0] - 'a';
    return -1;
}

static int64_t gcd64(int64_t a, int64_t b)
{
    /* on magnitudes as unsigned: |INT64_MIN| fits */
    uint64_t x = a < 0 ? -(uint64_t)a : (uint64_t)a;
    uint64_t y = b < 0 ? -(uint64_t)b : (uint64_t)b;
    while (y) {
        uint64_t t = x % y;
        x = y;
        y = t;
    }
    return (int64_t)x;
}

/* Print v, read it back as a constant expression: the same value. */
static void round_trip(mmm_value v, int as_fraction)
{
    static const mmm_expr_limits lim = {4096, 64};
    char buf[128];
    mmm_expr *e = NULL;
    mmm_value w;
    mmm_error err;
    mmm_value_format(v, as_fraction, buf, sizeof buf);
    if (mmm_expr_parse(&e, buf, resolve, NULL, &lim, &err) < 0)
        abort();
    if (mmm_expr_eval(e, NULL, 0, &w, &err) < 0)
        abort();
    mmm_expr_free(e);
    if (w.d != v.d)
        abort();
    if (as_fraction && v.exact && (!w.exact || w.num != v.num || w.den != v.den))
        abort();
}

static void check_value(const mmm_expr *e, const mmm_value *vars, mmm_value v)
{
    mmm_value again;
    mmm_error err;
    int64_t c;
    if (!isfinite(v.d))
        abort();
    if (v.exact) {
        if (v.den <= 0 || gcd64(v.num, v.den) != 1)
            abort();
        if (fabs(v.d - (double)v.num / (double)v.den) > 1e-9 * fabs(v.d) + 1e-300)
            abort();
    }
    if (mmm_expr_eval(e, vars, 26, &again, &err) < 0 || again.d != v.d ||
        again.exact != v.exact || (v.exact && (again.num != v.num ||
                                               again.den != v.den)))
        abort();
    (void)mmm_value_to_count(&c, v, "count", &err);
    /* Subnormal doubles are refused as literals ("number out of range"),
     * and -2^63 has no exact literal: no round trip for those. */
    if (v.d != 0 && fabs(v.d) < DBL_MIN)
        return;
    if (v.exact && v.num == INT64_MIN)
        return;
    round_trip(v, 0);
    round_trip(v, 1);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    mmm_value vars[26];
    mmm_expr_limits lim = {4096, 64};
    mmm_expr *e = NULL;
    mmm_error err;
    int i;
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    for (i = 0; i < 26; i++)
        vars[i] = (i % 3 == 0) ? mmm_value_int(i - 7)
                               : mmm_value_ratio(i * 3 + 1, i % 5 + 1);
    vars[25] = mmm_value_double(1e300); /* z: overflow nearby */
    vars[24] = mmm_value_int(INT64_MAX);  /* y: exact overflow nearby */
    if (mmm_expr_parse(&e, text, resolve, NULL, &lim, &err) == 0) {
        mmm_value v;
        if ((mmm_expr_max_slot(e) < 0) != (mmm_expr_is_constant(e) != 0))
            abort();
        if (mmm_expr_eval(e, vars, 26, &v, &err) == 0)
            check_value(e, vars, v);
        mmm_expr_free(e);
    }
    free(text);
    return 0;
}
