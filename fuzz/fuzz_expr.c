/* fuzz_expr.c: the expression compiler and evaluator on arbitrary text.
 * Names a..z resolve to slots 0..25 with fixed values; anything else is
 * unknown.  Checks that parse either fails cleanly or yields an expression
 * whose evaluation fails cleanly or gives a value consistent with itself. */
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
    if (mmm_expr_parse(&e, text, resolve, NULL, &lim, &err) == 0) {
        mmm_value v;
        if (mmm_expr_eval(e, vars, 26, &v, &err) == 0) {
            int64_t c;
            if (v.exact && v.den <= 0)
                abort();
            if (v.exact && fabs(v.d - (double)v.num / (double)v.den) >
                               1e-9 * fabs(v.d) + 1e-300)
                abort();
            (void)mmm_value_to_count(&c, v, "count", &err);
        }
        (void)mmm_expr_max_slot(e);
        mmm_expr_free(e);
    }
    free(text);
    return 0;
}
