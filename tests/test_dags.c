/*
 * test_dags.c: every bundled file under dags/ loads; every program analyzes
 * at its default parameters; the small hand-checkable programs give the
 * numbers worked out by hand in their comments.
 */
#include <criterion/criterion.h>

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "mmm/mmm.h"
#include "xml_files.h"

/* The root element decides what a file is; it is found after the XML
 * declaration, comments, processing instructions and a DOCTYPE.  The head
 * of the file is enough (the comments of the bundled files are short). */
#define HEAD_BYTES (256 * 1024)

enum kind { KIND_OTHER, KIND_PROGRAM, KIND_MACHINE };

typedef struct tally {
    int programs, machines, others;
} tally;

static const char *skip_markup(const char *p)
{
    for (;;) {
        while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n')
            p++;
        if (strncmp(p, "\xEF\xBB\xBF", 3) == 0) {
            p += 3;
        } else if (strncmp(p, "<?", 2) == 0) {
            const char *e = strstr(p, "?>");
            if (!e)
                return NULL;
            p = e + 2;
        } else if (strncmp(p, "<!--", 4) == 0) {
            const char *e = strstr(p + 4, "-->");
            if (!e)
                return NULL;
            p = e + 3;
        } else if (strncmp(p, "<!", 2) == 0) {
            const char *e = strchr(p, '>');
            if (!e)
                return NULL;
            p = e + 1;
        } else {
            return p;
        }
    }
}

static enum kind root_kind(const char *path)
{
    FILE *f = fopen(path, "rb");
    cr_assert_not_null(f, "cannot open %s", path);
    char *buf = malloc(HEAD_BYTES + 1);
    cr_assert_not_null(buf);
    size_t len = fread(buf, 1, HEAD_BYTES, f);
    fclose(f);
    buf[len] = '\0';
    const char *p = skip_markup(buf);
    enum kind k = KIND_OTHER;
    if (p && strncmp(p, "<program", 8) == 0 && strchr(" \t\r\n>/", p[8]))
        k = KIND_PROGRAM;
    else if (p && strncmp(p, "<machine", 8) == 0 && strchr(" \t\r\n>/", p[8]))
        k = KIND_MACHINE;
    free(buf);
    return k;
}

static void check_program(const char *path)
{
    mmm_program *prog = NULL;
    mmm_instance *inst = NULL;
    mmm_metrics met;
    mmm_error err;
    mmm_load_options opt = MMM_LOAD_OPTIONS_INIT;
    mmm_error_clear(&err);
    memset(&met, 0, sizeof met);
    int rc = mmm_program_load_file(&prog, path, &opt, &err);
    cr_expect_eq(rc, 0, "%s:%ld: %s", path, err.line, err.message);
    if (rc < 0)
        return;
    rc = mmm_instance_new(&inst, prog, &err);
    cr_expect_eq(rc, 0, "%s: %s", path, err.message);
    if (rc == 0)
        rc = mmm_instance_eval(inst, NULL, 0, &err);
    cr_expect_eq(rc, 0, "%s:%ld: evaluation: %s", path, err.line,
                 err.message);
    if (rc == 0) {
        rc = mmm_metrics_compute(&met, inst, 0, &err);
        cr_expect_eq(rc, 0, "%s: metrics: %s", path, err.message);
        cr_expect(met.N >= 0 && met.L >= 0 && met.K >= 0 && met.K <= met.N &&
                      met.L <= met.N && isfinite(met.W) && isfinite(met.O),
                  "%s: implausible measures", path);
        mmm_metrics_dispose(&met);
    }
    mmm_instance_free(inst);
    mmm_program_free(prog);
}

static void check_machine(const char *path)
{
    mmm_machine *m = NULL;
    mmm_error err;
    mmm_error_clear(&err);
    int rc = mmm_machine_load_file(&m, path, NULL, &err);
    cr_expect_eq(rc, 0, "%s:%ld: %s", path, err.line, err.message);
    mmm_machine_free(m);
}

/* One bundled .xml file: a program or a machine file, checked and counted. */
static void visit(const char *path, void *arg)
{
    tally *t = arg;
    switch (root_kind(path)) {
    case KIND_PROGRAM:
        check_program(path);
        t->programs++;
        break;
    case KIND_MACHINE:
        check_machine(path);
        t->machines++;
        break;
    default:
        t->others++;
        break;
    }
}

Test(dags, every_bundled_file_loads_and_analyzes)
{
    tally t = {0, 0, 0};
    for_each_xml_file(MMM_DAGS_DIR, visit, &t);
    /* at least the three polynomial programs and the three small ones */
    cr_expect_geq(t.programs, 6, "found only %d programs", t.programs);
    cr_log_info("dags/: %d programs, %d machine files, %d other .xml",
                t.programs, t.machines, t.others);
}

/* ------------------------------------------------------------------ */
/* The hand-checked programs                                           */

typedef struct hand {
    const char *file;
    double W, S, O, C;
    int64_t N, L, K;
    double gb, cor;
    mmm_k_method method;
    const char *span_path[4]; /* NULL-terminated kernel ids */
    const char *l_path[4];    /* NULL-terminated; {NULL}: not checked */
    double T1, Tinf;          /* the block level: sum and path of S(B)+O(B) */
} hand;

/* T1 and Tinf by hand, from the per-block tables of the files' comments:
 *   diamond:   T1 = 2*24 + 3*32 + 5*17 + 55 = 284,
 *              Tinf = max(a b d: 24+32+55 = 111, a c d: 24+17+55 = 96) = 111
 *   fork_join: T1 = 24 + (2*31 + 3*32 + 4*33) + 6*25 + 2*20 + 52 = 556,
 *              Tinf = 24 + max(w1: 31+32+33, w2: 25, w3: 20+20) + 52 = 172
 *   not_series_parallel: T1 = 5*6 + 7 + 8 + 5*3 = 60,
 *              Tinf = max(a c: 6+8, b c: 7+8, b d: 7+3) = 15 */

static void expect_path(const mmm_program *prog, const uint32_t *path,
                        size_t len, const char *const *ids,
                        const char *what, const char *file)
{
    size_t n = 0;
    while (ids[n])
        n++;
    cr_expect_eq(len, n, "%s: %s path has %zu kernels, expected %zu", file,
                 what, len, n);
    for (size_t i = 0; i < n && i < len; i++)
        cr_expect_str_eq(prog->kernels[path[i]].id, ids[i],
                         "%s: %s path[%zu]", file, what, i);
}

static void check_hand(const hand *h)
{
    char path[1024];
    mmm_program *prog = NULL;
    mmm_instance *inst = NULL;
    mmm_metrics m;
    mmm_error err;
    mmm_load_options opt = MMM_LOAD_OPTIONS_INIT;
    memset(&m, 0, sizeof m);
    snprintf(path, sizeof path, "%s/%s", MMM_DAGS_DIR, h->file);
    cr_assert_eq(mmm_program_load_file(&prog, path, &opt, &err), 0, "%s: %s",
                 path, err.message);
    cr_assert_eq(mmm_instance_new(&inst, prog, &err), 0);
    cr_assert_eq(mmm_instance_eval(inst, NULL, 0, &err), 0, "%s: %s", path,
                 err.message);
    cr_assert_eq(mmm_metrics_compute(&m, inst, 0, &err), 0, "%s: %s", path,
                 err.message);
    /* every hand value is exact in binary except the two bounds of
     * fork_join, which are fractions: a relative 1e-12 covers both */
    cr_expect(fabs(m.W - h->W) <= 1e-12 * h->W, "%s: W = %g", h->file, m.W);
    cr_expect(fabs(m.S - h->S) <= 1e-12 * h->S, "%s: S = %g", h->file, m.S);
    cr_expect(fabs(m.O - h->O) <= 1e-12 * h->O, "%s: O = %g", h->file, m.O);
    cr_expect(fabs(m.C - h->C) <= 1e-12 * h->C, "%s: C = %g", h->file, m.C);
    cr_expect_eq(m.N, h->N, "%s: N = %lld", h->file, (long long)m.N);
    cr_expect_eq(m.L, h->L, "%s: L = %lld", h->file, (long long)m.L);
    cr_expect_eq(m.K, h->K, "%s: K = %lld", h->file, (long long)m.K);
    cr_expect(fabs(m.parallelism - h->W / h->S) <= 1e-12 * h->W / h->S,
              "%s: W/S = %g", h->file, m.parallelism);
    cr_expect(m.has_p, "%s: p not known", h->file);
    cr_expect(fabs(m.graham_brent - h->gb) <= 1e-12 * h->gb,
              "%s: Graham-Brent = %.17g, expected %.17g", h->file,
              m.graham_brent, h->gb);
    cr_expect(fabs(m.corollary - h->cor) <= 1e-12 * h->cor,
              "%s: corollary = %.17g, expected %.17g", h->file, m.corollary,
              h->cor);
    cr_expect_eq(m.k_method, h->method, "%s: K method %d", h->file,
                 (int)m.k_method);
    cr_expect(m.has_blocks && m.T1 == h->T1 && m.T_inf == h->Tinf &&
                  m.parallelism_blocks == h->T1 / h->Tinf,
              "%s: T1 = %g, T_inf = %g, expected %g, %g", h->file, m.T1, m.T_inf, h->T1,
              h->Tinf);
    expect_path(prog, m.span_path, m.span_path_len, h->span_path, "span",
                h->file);
    if (h->l_path[0])
        expect_path(prog, m.l_path, m.l_path_len, h->l_path, "L", h->file);
    mmm_metrics_dispose(&m);
    mmm_instance_free(inst);
    /* the same from an instance without class values (each launch
     * evaluated again) */
    cr_assert_eq(mmm_instance_new_flags(&inst, prog, MMM_INSTANCE_NO_CLASSES, &err), 0);
    cr_assert_eq(mmm_instance_eval(inst, NULL, 0, &err), 0, "%s", err.message);
    cr_assert_eq(mmm_metrics_compute(&m, inst, MMM_METRICS_NO_K, &err), 0, "%s", err.message);
    cr_expect(m.T1 == h->T1 && m.T_inf == h->Tinf, "%s without classes: T1 = %g, T_inf = %g",
              h->file, m.T1, m.T_inf);
    mmm_metrics_dispose(&m);
    cr_assert_eq(mmm_metrics_compute(&m, inst, MMM_METRICS_NO_PATHS, &err), 0);
    cr_expect(!m.has_blocks && m.T1 == 0, "%s: NO_PATHS computes no T1", h->file);
    mmm_metrics_dispose(&m);
    mmm_instance_free(inst);
    mmm_program_free(prog);
}

Test(dags, diamond_by_hand)
{
    static const hand h = {
        "diamond.xml", 104, 16, 230, 55, 11, 3, 8,
        (11.0 / 2 + 3) * 55, (11.0 / 8 + 3) * 55, MMM_K_SERIES_PARALLEL,
        {"a", "c", "d", NULL}, {NULL}, 284, 111};
    check_hand(&h);
}

Test(dags, fork_join_by_hand)
{
    static const hand h = {
        "fork_join.xml", 116, 26, 480, 52, 19, 5, 11,
        1768.0 / 3, 3848.0 / 11, MMM_K_SERIES_PARALLEL,
        {"fork", "w3", "join", NULL}, {"fork", "w1", "join", NULL}, 556, 172};
    check_hand(&h);
}

Test(dags, not_series_parallel_by_hand)
{
    static const hand h = {
        "not_series_parallel.xml", 22, 7, 38, 8, 12, 2, 10,
        40, 25.6, MMM_K_FLOW,
        {"b", "c", NULL}, {NULL}, 60, 15};
    check_hand(&h);
}
