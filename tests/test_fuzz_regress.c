/* test_fuzz_regress.c: every input under tests/data/fuzz/HARNESS/ (crash
 * regressions: inputs that once made a harness abort or a sanitizer
 * report) is run again through that libFuzzer harness, compiled in here
 * with its entry point renamed.  A harness aborts on a broken invariant, so
 * a regression shows as a crashed test; under ASan+UBSan (the CI leg) the
 * sanitizers check these inputs too.  Every corpus must hold at least one
 * input: an empty or missing folder fails (replay_dir), so that a lost
 * corpus cannot pass unnoticed.  fuzz_load has no finding of its own yet;
 * its folder holds the two loader regressions found by the hostile probe
 * (long_ids_cycle.xml, line_ends_cr_only.xml; docs/hardening.md). */
#include <criterion/criterion.h>
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define LLVMFuzzerTestOneInput fuzz_expr_one
#include "../fuzz/fuzz_expr.c"
#undef LLVMFuzzerTestOneInput
#define LLVMFuzzerTestOneInput fuzz_load_one
#include "../fuzz/fuzz_load.c"
#undef LLVMFuzzerTestOneInput
#define LLVMFuzzerTestOneInput fuzz_analyze_one
#include "../fuzz/fuzz_analyze.c"
#undef LLVMFuzzerTestOneInput
#define LLVMFuzzerTestOneInput fuzz_import_one
#include "../fuzz/fuzz_import.c"
#undef LLVMFuzzerTestOneInput
#define LLVMFuzzerTestOneInput fuzz_runs_one
#include "../fuzz/fuzz_runs.c"
#undef LLVMFuzzerTestOneInput
#define LLVMFuzzerTestOneInput fuzz_ncu_one
#include "../fuzz/fuzz_ncu.c"
#undef LLVMFuzzerTestOneInput
#define LLVMFuzzerTestOneInput fuzz_measured_one
#include "../fuzz/fuzz_measured.c"
#undef LLVMFuzzerTestOneInput

typedef int (*harness_fn)(const uint8_t *data, size_t size);

static unsigned char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    unsigned char *buf;
    long n;
    cr_assert(f != NULL, "cannot open %s", path);
    fseek(f, 0, SEEK_END);
    n = ftell(f);
    fseek(f, 0, SEEK_SET);
    buf = malloc((size_t)n + 1);
    cr_assert(buf != NULL);
    cr_assert_eq(fread(buf, 1, (size_t)n, f), (size_t)n);
    fclose(f);
    *len = (size_t)n;
    return buf;
}

/* Run every file of dir (not those starting with '.') through h; returns
 * how many, or -1 when dir cannot be opened. */
static long replay(const char *dir, harness_fn h)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    long n = 0;
    if (!d)
        return -1;
    while ((e = readdir(d))) {
        char path[1024];
        size_t len;
        unsigned char *data;
        if (e->d_name[0] == '.')
            continue;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        data = slurp(path, &len);
        cr_log_info("%s", path);
        h(data, len);
        free(data);
        n++;
    }
    closedir(d);
    return n;
}

/* replay, failing the test when dir is missing or holds no input. */
static void replay_dir(const char *dir, harness_fn h)
{
    long n = replay(dir, h);
    cr_assert_neq(n, -1, "cannot open the corpus %s", dir);
    cr_assert_geq(n, 1, "the corpus %s holds no input", dir);
}

static int count_only(const uint8_t *data, size_t size)
{
    (void)data;
    (void)size;
    return 0;
}

/* The check itself: a missing folder and one holding only dotfiles (the
 * .keep that keeps an empty folder in git) count as no corpus. */
Test(fuzz_regress, empty_or_missing_corpus_is_detected)
{
    const char *tmp = getenv("TMPDIR");
    char dir[256], keep[300];
    FILE *f;
    snprintf(dir, sizeof dir, "%s/mmm_corpus_XXXXXX", tmp && *tmp ? tmp : "/tmp");
    cr_assert_not_null(mkdtemp(dir));
    cr_expect_eq(replay(dir, count_only), 0);
    snprintf(keep, sizeof keep, "%s/.keep", dir);
    f = fopen(keep, "w");
    cr_assert_not_null(f);
    fclose(f);
    cr_expect_eq(replay(dir, count_only), 0);
    unlink(keep);
    rmdir(dir);
    cr_expect_eq(replay(dir, count_only), -1);
}

Test(fuzz_regress, expr)
{
    replay_dir(MMM_TEST_DATA "/fuzz/fuzz_expr", fuzz_expr_one);
}

Test(fuzz_regress, load)
{
    replay_dir(MMM_TEST_DATA "/fuzz/fuzz_load", fuzz_load_one);
}

Test(fuzz_regress, analyze)
{
    replay_dir(MMM_TEST_DATA "/fuzz/fuzz_analyze", fuzz_analyze_one);
}

Test(fuzz_regress, import)
{
    cr_expect_geq(replay(MMM_TEST_DATA "/fuzz/fuzz_import", fuzz_import_one), 1);
}

/* The hostile corpus goes through the loader and analyze harnesses too. */
Test(fuzz_regress, runs)
{
    cr_expect_geq(replay(MMM_TEST_DATA "/fuzz/fuzz_runs", fuzz_runs_one), 1);
}

Test(fuzz_regress, ncu)
{
    cr_expect_geq(replay(MMM_TEST_DATA "/fuzz/fuzz_ncu", fuzz_ncu_one), 1);
}

Test(fuzz_regress, measured)
{
    cr_expect_geq(replay(MMM_TEST_DATA "/fuzz/fuzz_measured", fuzz_measured_one), 1);
}

Test(fuzz_regress, hostile_files)
{
    replay_dir(MMM_TEST_DATA "/hostile", fuzz_load_one);
    replay_dir(MMM_TEST_DATA "/hostile", fuzz_analyze_one);
}

/* The value of a constant expression (the test fails if it has none). */
static mmm_value eval_text(const char *text)
{
    mmm_expr_limits lim = {4096, 64};
    mmm_expr *e = NULL;
    mmm_value v = mmm_value_int(0);
    mmm_error err;
    cr_assert_eq(mmm_expr_parse(&e, text, resolve, NULL, &lim, &err), 0, "%s", text);
    cr_assert_eq(mmm_expr_eval(e, NULL, 0, &v, &err), 0, "%s", text);
    mmm_expr_free(e);
    return v;
}

/* The first fuzz_expr finding, directly: a 17-digit decimal literal gets
 * the double nearest to it (it used to be one ulp off). */
Test(fuzz_regress, decimal_literal_nearest_double)
{
    static const char *lits[] = {"0.45454545454545453", "0.33333333333333331",
                                 "0.1", "123456789.123456789",
                                 "0.000000001234567890123", "2448.743404481271",
                                 "0.03328571428571429"};
    for (size_t i = 0; i < sizeof lits / sizeof lits[0]; i++) {
        mmm_value v = eval_text(lits[i]);
        cr_expect_eq(v.d, strtod(lits[i], NULL), "%s: %.17g", lits[i], v.d);
    }
}

/* A fraction of two integers gets the double nearest to it, as the decimal
 * it equals does through strtod (correctly rounded by the C library): the
 * long double division used before rounded twice, one ulp off for about one
 * 17-digit numerator in ten thousand (fuzz_expr: 10976590901954731 over
 * 10^17).  Numerators from a fixed generator over the whole int64 range,
 * denominators 10^1 .. 10^18, both signs. */
Test(fuzz_regress, fraction_nearest_double)
{
    static const char *found[] = {"10976590901954731/100000000000000000",
                                  "10830173858909279/100000000000000000",
                                  "10877051414742301/100000000000000000"};
    uint64_t x = 88172645463325252u;
    long checked = 0;
    static const char *as_decimal[] = {"0.10976590901954731",
                                       "0.10830173858909279",
                                       "0.10877051414742301"};
    for (size_t i = 0; i < sizeof found / sizeof found[0]; i++) {
        mmm_value v = eval_text(found[i]);
        cr_expect_eq(v.d, strtod(as_decimal[i], NULL), "%s: %.17g", found[i], v.d);
    }
    for (int i = 0; i < 200000; i++) {
        char frac[64], dec[64];
        int k = 1 + i % 18, neg = (i / 18) % 2;
        uint64_t num;
        mmm_value v;
        x ^= x << 13; /* xorshift64 */
        x ^= x >> 7;
        x ^= x << 17;
        num = (x >> (i % 11)) & INT64_MAX;
        snprintf(frac, sizeof frac, "%s%" PRIu64 "/1%0*d", neg ? "-" : "", num, k, 0);
        snprintf(dec, sizeof dec, "%s%" PRIu64 "e-%d", neg ? "-" : "", num, k);
        v = eval_text(frac);
        if (v.d != strtod(dec, NULL))
            cr_expect(0, "%s: %.17g, strtod %.17g", frac, v.d, strtod(dec, NULL));
        checked++;
    }
    cr_expect_eq(checked, 200000);
}
