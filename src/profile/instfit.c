/* instfit.c: one expression per template instance, where a kernel's
 * counts are no single expression of the parameters (docs/profile.md "How
 * an attribute becomes an expression").
 *
 * A kernel that is a template instantiated per configuration (sgemm<16>,
 * sgemm<32>; or one function per configuration, mul_s1_l256::mul) is
 * compiled once per instance, and the compiler may unroll a loop in one
 * and not in another: its instruction counts can be one polynomial in s
 * up to 16 and another at 32.  When the fit through every point is not
 * exact, the points are grouped by the function their launch ran; the
 * parameters that are the same within every group and tell the groups
 * apart are the instance's (tile, r); each group gets its own fit in the
 * others, and the text joins them with indicators:
 *   (tile == 16 && r == 1)*(A) + (tile == 16 && r == 2)*(B) + ...
 *   + (tile == 16 && r == 1) + ... == 0)*(the fit through every point)
 * The last term keeps a value at a configuration that no point ran.  A
 * group without an exact fit takes its own approximation when that has
 * one term, or fewer than its points less one (bench/profile_check.py: a
 * 2-term curve through 3 points of pagerank put one count 370 times off
 * at a larger size), or else the fit through every point times the
 * group's own factor, whichever is nearer.  The result is used when it is
 * exact, or when its largest relative error is under half the fit through
 * every point's. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profile_internal.h"
#include "base/text.h"

/* The parameters (a bit each, of the first 64) that are the same within
 * every group and differ between two groups; 0 when some two groups have
 * the same values of all of them (the names differ for another reason). */
static uint64_t instance_keys(size_t nvars, const mmm_value *x, size_t n,
                              const size_t *gid, size_t ng, const size_t *first)
{
    uint64_t keys = 0;
    for (size_t j = 0; j < nvars && j < 64; j++) {
        int same = 1, varies = 0;
        for (size_t i = 0; i < n && same; i++)
            same = mmm__pv_equal(x[i * nvars + j], x[first[gid[i]] * nvars + j]);
        for (size_t g = 1; g < ng && same && !varies; g++)
            varies = !mmm__pv_equal(x[first[g] * nvars + j], x[first[0] * nvars + j]);
        if (same && varies)
            keys |= (uint64_t)1 << j;
    }
    for (size_t a = 0; a < ng; a++)
        for (size_t b = a + 1; b < ng; b++) {
            int differ = 0;
            for (size_t j = 0; j < nvars && j < 64 && !differ; j++)
                differ = ((keys >> j) & 1) &&
                         !mmm__pv_equal(x[first[a] * nvars + j], x[first[b] * nvars + j]);
            if (!differ)
                return 0;
        }
    return keys;
}

/* The rows of group g vary in some parameter that is not a key. */
static int group_varies(size_t nvars, const mmm_value *x, size_t n, const size_t *gid,
                        size_t g, const size_t *first, uint64_t keys)
{
    for (size_t i = 0; i < n; i++) {
        if (gid[i] != g)
            continue;
        for (size_t j = 0; j < nvars; j++)
            if (!(j < 64 && ((keys >> j) & 1)) &&
                !mmm__pv_equal(x[i * nvars + j], x[first[g] * nvars + j]))
                return 1;
    }
    return 0;
}

static void put_indicator(mmm__text *t, const char *const *names, size_t nvars,
                          const mmm_value *row, uint64_t keys)
{
    mmm__text_put(t, "(");
    for (size_t j = 0, k = 0; j < nvars && j < 64; j++) {
        if (!((keys >> j) & 1))
            continue;
        char b[64];
        mmm__pv_text(row[j], b, sizeof b);
        mmm__text_printf(t, "%s%s == %s", k++ ? " && " : "", names[j], b);
    }
    mmm__text_put(t, ")");
}

int mmm__fit_instances(const char *const *names, size_t nvars, const mmm_value *x,
                       const mmm_value *y, size_t n, const char *const *inst,
                       const char *whole_text, double whole_err, char *out,
                       size_t outsize, int *exact, double *max_rel, mmm_error *err)
{
    size_t *gid = malloc(n * sizeof *gid), *first = malloc(n * sizeof *first);
    mmm_value *gx = malloc((nvars ? nvars : 1) * n * sizeof *gx), *gy = malloc(n * sizeof *gy);
    double *wv = malloc(n * sizeof *wv);
    mmm_profile_fit_result *fits = NULL;
    mmm__text t;
    size_t ng = 0;
    int rc = 0;
    mmm__text_init(&t);
    if (!gid || !first || !gx || !gy || !wv)
        goto oom;
    for (size_t i = 0; i < n; i++) {
        size_t g = 0;
        while (g < ng && strcmp(inst[first[g]], inst[i]))
            g++;
        if (g == ng)
            first[ng++] = i;
        gid[i] = g;
    }
    if (ng < 2 || ng == n)
        goto out;
    uint64_t keys = instance_keys(nvars, x, n, gid, ng, first);
    if (!keys)
        goto out;
    /* if one group varies in the other parameters, every group must: a
     * group of one size would give a constant where the others scale */
    int vary = 0, all_vary = 1;
    for (size_t g = 0; g < ng; g++) {
        int v = group_varies(nvars, x, n, gid, g, first, keys);
        vary |= v;
        all_vary &= v;
    }
    if (vary && !all_vary)
        goto out;

    if (!(fits = calloc(ng, sizeof *fits)))
        goto oom;
    if (mmm__fit_eval_text(whole_text, names, nvars, x, n, wv) < 0)
        goto out;
    for (size_t g = 0; g < ng; g++) {
        size_t m = 0;
        for (size_t i = 0; i < n; i++)
            if (gid[i] == g) {
                memcpy(gx + m * nvars, x + i * nvars, nvars * sizeof *gx);
                gy[m++] = y[i];
            }
        if ((rc = mmm_profile_fit(names, nvars, gx, gy, m, &fits[g], err)) < 0)
            goto out;
        if (fits[g].text[0] && fits[g].exact)
            continue;
        /* no exact fit: the group's own approximation if it has fewer
           terms than points less one (a 2-term curve through 3 points
           of pagerank was 370 times off at a larger size), or the fit
           through every point times the group's factor (least squares
           of the relative error), whichever is nearer */
        double sa = 0, sb = 0, scaled_err = 0;
        for (size_t i = 0; i < n; i++)
            if (gid[i] == g && y[i].d != 0) {
                double q = wv[i] / y[i].d;
                sa += q;
                sb += q * q;
            }
        double k = sb > 0 ? sa / sb : NAN;
        for (size_t i = 0; i < n && isfinite(k); i++)
            if (gid[i] == g) {
                double den = fabs(y[i].d) > 0 ? fabs(y[i].d) : 1,
                       e = fabs(k * wv[i] - y[i].d) / den;
                if (e > scaled_err)
                    scaled_err = e;
            }
        int own_ok = fits[g].text[0] && (fits[g].terms == 1 || fits[g].terms + 2 <= m);
        if (own_ok && !(isfinite(k) && scaled_err < fits[g].max_rel_error))
            continue;
        if (!isfinite(k))
            goto out;
        snprintf(fits[g].text, sizeof fits[g].text, "%.6g*(%s)", k, whole_text);
        fits[g].exact = 0;
    }

    /* the text: groups with the same expression share their term */
    for (size_t g = 0; g < ng; g++) {
        size_t h = 0;
        while (h < g && strcmp(fits[h].text, fits[g].text))
            h++;
        if (h < g)
            continue;
        if (t.len)
            mmm__text_put(&t, " + ");
        int shared = 0;
        for (size_t k = g + 1; k < ng; k++)
            shared |= !strcmp(fits[k].text, fits[g].text);
        mmm__text_put(&t, shared ? "(" : "");
        for (size_t k = g; k < ng; k++) {
            if (strcmp(fits[k].text, fits[g].text))
                continue;
            if (k > g)
                mmm__text_put(&t, " || ");
            put_indicator(&t, names, nvars, x + first[k] * nvars, keys);
        }
        mmm__text_printf(&t, "%s*(%s)", shared ? ")" : "", fits[g].text);
    }
    mmm__text_put(&t, " + (");
    for (size_t g = 0; g < ng; g++) {
        if (g)
            mmm__text_put(&t, " + ");
        put_indicator(&t, names, nvars, x + first[g] * nvars, keys);
    }
    mmm__text_printf(&t, " == 0)*(%s)", whole_text);
    if (t.oom)
        goto oom;
    if (t.len >= outsize)
        goto out;
    int ex;
    double mr;
    if (mmm__fit_check_text(t.s, names, nvars, x, y, n, &ex, &mr) < 0 ||
        !(ex || mr < 0.5 * whole_err))
        goto out;
    snprintf(out, outsize, "%s", t.s);
    *exact = ex;
    *max_rel = ex ? 0 : mr;
    rc = 1;
    goto out;
oom:
    rc = mmm_error_set(err, MMM_ENOMEM, NULL, 0, "out of memory");
out:
    mmm__text_dispose(&t);
    free(fits);
    free(gid);
    free(first);
    free(gx);
    free(gy);
    free(wv);
    return rc;
}
