/*
 * test_report.c: mmm report.  The page is self-contained (nothing to fetch,
 * one inline script, a Content-Security-Policy that forbids fetching and
 * any other script), holds the measures, the DAG with every kernel, the
 * tables, the sweeps and the schedules when they apply; the sweep's
 * minimizer agrees with a brute-force search; a DAG too large to draw
 * becomes a note; the command line behaves; numbers have one format per
 * table column.  The page in a browser (sorting, folding, zoom, text
 * sizes, console) is ctest report_chromium (tests/report_chromium.sh).
 */
#include <criterion/criterion.h>

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "mmm/mmm.h"
#include "mmm/report.h"
#include "shell.h"
#include "../viz/numfmt.h"
#include "../viz/report_int.h"

typedef struct loaded {
    mmm_program *prog;
    mmm_instance *inst;
    mmm_metrics m;
} loaded;

static void load_with(loaded *l, const char *path, const char *text)
{
    mmm_load_options opt = MMM_LOAD_OPTIONS_INIT;
    mmm_error err;
    memset(l, 0, sizeof *l);
    if (text)
        cr_assert_eq(mmm_program_load_memory(&l->prog, text, strlen(text), path, &opt, &err),
                     0, "%s", err.message);
    else
        cr_assert_eq(mmm_program_load_file(&l->prog, path, &opt, &err), 0, "%s: %s", path,
                     err.message);
    cr_assert_eq(mmm_instance_new(&l->inst, l->prog, &err), 0, "%s", err.message);
    cr_assert_eq(mmm_instance_eval(l->inst, NULL, 0, &err), 0, "%s", err.message);
    cr_assert_eq(mmm_metrics_compute(&l->m, l->inst, 0, &err), 0, "%s", err.message);
}

static void load(loaded *l, const char *path)
{
    load_with(l, path, NULL);
}

static void unload(loaded *l)
{
    mmm_metrics_dispose(&l->m);
    mmm_instance_free(l->inst);
    mmm_program_free(l->prog);
}

static char *report(const loaded *l, const mmm_report_options *o)
{
    mmm_error err;
    char *html = NULL;
    size_t len = 0;
    cr_assert_eq(mmm_report_html(&html, &len, l->inst, &l->m, o, &err), 0, "%s",
                 err.message);
    cr_assert_not_null(html);
    cr_assert_eq(strlen(html), len);
    return html;
}

/* Nothing in the page may make a browser fetch: the only URLs are the SVG
 * and XLink namespace names, which are identifiers, never loaded. */
static void assert_self_contained(const char *html)
{
    const char *p = html;
    const char *script = strstr(html, "<script");
    cr_assert(strstr(html, "Content-Security-Policy\" content=\"default-src 'none'; "
                           "style-src 'unsafe-inline'; img-src data:; script-src 'sha256-"));
    /* one script, inline, at the end (its hash is checked against
     * Python's hashlib by tests/report_chromium.sh) */
    cr_assert_not_null(script);
    cr_assert_eq(strncmp(script, "<script>", 8), 0);
    cr_assert_null(strstr(script + 1, "<script"));
    cr_assert(strstr(script, "</script>\n</body>\n</html>\n"));
    cr_assert_null(strstr(html, "<link"));
    cr_assert_null(strstr(html, "<img"));
    cr_assert_null(strstr(html, "<iframe"));
    cr_assert_null(strstr(html, "@import"));
    cr_assert_null(strstr(html, "url(http"));
    cr_assert_null(strstr(html, "src="));
    while ((p = strstr(p, "http"))) {
        cr_assert(strncmp(p, "http-equiv", 10) == 0 ||
                      strncmp(p, "http://www.w3.org/2000/svg\"", 27) == 0 ||
                      strncmp(p, "http://www.w3.org/1999/xlink\"", 29) == 0,
                  "external reference: %.60s", p);
        p += 4;
    }
}

static void assert_names_kernels(const char *html, const mmm_program *p)
{
    size_t k;
    for (k = 0; k < p->nkernels; k++) {
        char title[300];
        snprintf(title, sizeof title, "<title>%s</title>", p->kernels[k].id);
        cr_assert(strstr(html, title), "kernel %s is not in the DAG", p->kernels[k].id);
        snprintf(title, sizeof title, "<code>%s</code>", p->kernels[k].id);
        cr_assert(strstr(html, title), "kernel %s is not in the table", p->kernels[k].id);
    }
}

Test(report, bundled_programs_give_self_contained_pages)
{
    static const char *const files[] = {"diamond.xml", "fork_join.xml",
                                        "not_series_parallel.xml", "poly_div_naive.xml",
                                        "poly_div_opt.xml", "poly_mul.xml"};
    size_t i;
    for (i = 0; i < sizeof files / sizeof files[0]; i++) {
        char path[512];
        loaded l;
        char *html;
        snprintf(path, sizeof path, "%s/%s", MMM_DAGS_DIR, files[i]);
        load(&l, path);
        html = report(&l, NULL);
        cr_assert_eq(strncmp(html, "<!DOCTYPE html>", 15), 0);
        cr_assert(strstr(html, "</html>\n"));
        cr_assert(strstr(html, "<section id=\"dag\">"));
        cr_assert(strstr(html, "<svg"), "%s: no inline SVG", files[i]);
        cr_assert_null(strstr(html, "<?xml"), "the SVG prolog must be dropped");
        assert_self_contained(html);
        assert_names_kernels(html, l.prog);
        /* p is declared by every bundled program: the schedules are there. */
        cr_assert(strstr(html, "<section id=\"simulation\">"), "%s", files[i]);
        free(html);
        unload(&l);
    }
}

/* The numbers worked out by hand in dags/diamond.xml. */
Test(report, summary_shows_the_measures)
{
    loaded l;
    char *html;
    load(&l, MMM_DAGS_DIR "/diamond.xml");
    html = report(&l, NULL);
    cr_assert(strstr(html, "<div class=\"v\">104</div>"));     /* W */
    cr_assert(strstr(html, "<div class=\"v\">16</div>"));      /* S */
    cr_assert(strstr(html, "<div class=\"v\">230</div>"));     /* O */
    cr_assert(strstr(html, "<div class=\"v\">11</div>"));      /* N */
    cr_assert(strstr(html, "<div class=\"v\">55</div>"));      /* C */
    cr_assert(strstr(html, "<div class=\"v\">8</div>"));       /* K */
    cr_assert(strstr(html, "<div class=\"v\">6.5</div>"));     /* W/S */
    cr_assert(strstr(html, "<td class=\"n\">467.5</td>"));     /* (11/2 + 3) 55 */
    cr_assert(strstr(html, "<td class=\"n\">240.625</td>"));   /* (11/8 + 3) 55 */
    cr_assert(strstr(html, "<span class=\"list\"><span><code>a</code> \xe2\x86\x92 </span>"
                           "<span><code>c</code> \xe2\x86\x92 </span><span><code>d</code>"
                           "</span></span>"), "span path a c d");
    /* no parameter declares a range: no sweep section */
    cr_assert_null(strstr(html, "id=\"sweeps\""));
    free(html);
    unload(&l);
}

/* The sweep of s in poly_div_opt (n = 2^16, m = 2^12, U = 400, Z = 12288):
 * O(s) = ceil((n-m+1)/s) ceil(m/(2s)) (r+w) U with r+w = 9, for
 * 1 <= s <= floor(Z/7); the smallest s among the minimizers. */
Test(report, sweep_minimizer_agrees_with_brute_force)
{
    const int64_t n = 65536, m = 4096, U = 400, Z = 12288;
    int64_t s, best_s = 0, best = INT64_MAX;
    char want[256];
    loaded l;
    char *html;
    for (s = 1; 7 * s <= Z; s++) {
        int64_t launches = (n - m + 1 + s - 1) / s, blocks = (m + 2 * s - 1) / (2 * s);
        int64_t o = launches * blocks * 9 * U;
        if (o < best) {
            best = o;
            best_s = s;
        }
    }
    load(&l, MMM_DAGS_DIR "/poly_div_opt.xml");
    html = report(&l, NULL);
    cr_assert(strstr(html, "<section id=\"sweeps\">"));
    /* digits grouped in threes by U+202F from five digits on */
    cr_assert(best_s < 10000 && best >= 100000 && best < 1000000);
    snprintf(want, sizeof want,
             "<tr><td>smallest overhead O</td><td class=\"n\" data-v=\"%lld\">%lld</td>"
             "<td class=\"n\" data-v=\"%lld\">%lld\xe2\x80\xaf%03lld</td>",
             (long long)best_s, (long long)best_s, (long long)best, (long long)best / 1000,
             (long long)best % 1000);
    cr_assert(strstr(html, want), "expected %s", want);
    cr_assert(strstr(html, "1755 values swept"));
    free(html);
    unload(&l);
}

Test(report, optional_sections_can_be_left_out)
{
    mmm_report_options o = MMM_REPORT_OPTIONS_INIT;
    loaded l;
    char *html;
    load(&l, MMM_DAGS_DIR "/poly_div_opt.xml");
    o.no_sweep = 1;
    o.no_simulation = 1;
    html = report(&l, &o);
    cr_assert_null(strstr(html, "id=\"sweeps\""));
    cr_assert_null(strstr(html, "id=\"simulation\""));
    cr_assert(strstr(html, "id=\"kernels\""));
    free(html);
    unload(&l);
}

Test(report, without_p_there_is_no_schedule)
{
    static const char text[] =
        "<program name=\"nop\">\n"
        "  <param name=\"U\" value=\"5\"/>\n"
        "  <kernel id=\"a\" blocks=\"2\" work=\"4\" span=\"2\" reads=\"1\" writes=\"0\"/>\n"
        "  <kernel id=\"b\" blocks=\"3\" work=\"1\" span=\"1\" reads=\"0\" writes=\"1\"/>\n"
        "  <edge from=\"a\" to=\"b\"/>\n"
        "</program>\n";
    loaded l;
    char *html;
    load_with(&l, "nop.xml", text);
    html = report(&l, NULL);
    cr_assert_null(strstr(html, "id=\"simulation\""));
    cr_assert(strstr(html, "p is not known"));
    assert_names_kernels(html, l.prog);
    free(html);
    unload(&l);
}

Test(report, a_dag_too_large_to_draw_is_a_note)
{
    mmm_report_options o = MMM_REPORT_OPTIONS_INIT;
    loaded l;
    char *html;
    load(&l, MMM_DAGS_DIR "/diamond.xml");
    o.max_nodes = 3; /* 4 kernels */
    o.no_simulation = 1; /* its Gantt chart is an SVG too */
    html = report(&l, &o);
    cr_assert(strstr(html, "would draw 4 kernels, more than --max-nodes 3"));
    cr_assert_null(strstr(html, "<svg"));
    cr_assert(strstr(html, "<code>d</code>"));
    free(html);
    unload(&l);
}

Test(report, names_are_escaped)
{
    static const char text[] =
        "<program name=\"a&lt;b&amp;c\">\n"
        "  <description>x &lt;script&gt; y</description>\n"
        "  <kernel id=\"k\" blocks=\"1\" work=\"1\" span=\"1\" reads=\"0\" writes=\"0\"/>\n"
        "</program>\n";
    loaded l;
    char *html;
    load_with(&l, "esc.xml", text);
    html = report(&l, NULL);
    cr_assert(strstr(html, "<h1>a&lt;b&amp;c</h1>"));
    cr_assert(strstr(html, "x &lt;script&gt; y"));
    assert_self_contained(html); /* the page's own script only */
    free(html);
    unload(&l);
}

Test(report, cli)
{
    char dir[256], path[300];
    FILE *f;
    char buf[64] = {0};
    snprintf(dir, sizeof dir, "%s/mmm-test-report-XXXXXX",
             getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    cr_assert_not_null(mkdtemp(dir));
    cr_assert_eq(run("'%s' report '%s/diamond.xml' -o '%s/r.html'", MMM_BIN, MMM_DAGS_DIR,
                     dir), 0);
    cr_assert_eq(run("grep -q '<svg' '%s/r.html'", dir), 0);
    cr_assert_eq(run("'%s' report '%s/poly_div_opt.xml' --no-sweep -o - | "
                     "grep -c 'id=\"sweeps\"' | grep -q '^0$'", MMM_BIN, MMM_DAGS_DIR), 0);
    cr_assert_eq(run("'%s' report '%s/poly_mul.xml' --sweep l --no-simulation -o - | "
                     "grep -q '<h3>l</h3>'", MMM_BIN, MMM_DAGS_DIR), 0);
    /* Where each value comes from: -p and -D are the command line. */
    cr_assert_eq(run("'%s' report '%s/poly_div_opt.xml' -p 5 -D n=2^14 --no-sweep "
                     "--no-simulation -o - > '%s/params.html'", MMM_BIN, MMM_DAGS_DIR, dir), 0);
    cr_assert_eq(run("grep -q '<code>p</code></td><td class=\"n\" data-v=\"5\">5</td>.*"
                     "<td>command line</td>' '%s/params.html' && grep -q '<code>n</code></td>"
                     "<td class=\"n\" data-v=\"16384\">16\xe2\x80\xaf" "384</td>"
                     ".*<td>command line</td>' '%s/params.html' && grep -q '<code>m</code></td>"
                     ".*<td>default</td>' '%s/params.html'", dir, dir, dir), 0);
    cr_assert_eq(run("'%s' report --help >/dev/null", MMM_BIN), 0);
    cr_assert_eq(run("'%s' report '%s/diamond.xml' 2>/dev/null", MMM_BIN, MMM_DAGS_DIR), 2);
    cr_assert_eq(run("'%s' report '%s/diamond.xml' --format json -o x.html 2>/dev/null",
                     MMM_BIN, MMM_DAGS_DIR), 2);
    /* Bad input: 1, and the existing page is left as it was. */
    snprintf(path, sizeof path, "%s/keep.html", dir);
    f = fopen(path, "w");
    cr_assert_not_null(f);
    fputs("keep me\n", f);
    fclose(f);
    cr_assert_eq(run("'%s' report '%s/missing.xml' -o '%s' 2>/dev/null", MMM_BIN, dir, path),
                 1);
    cr_assert_eq(run("'%s' report '%s/diamond.xml' --sweep nope -o '%s' 2>&1 | grep -q "
                     "'diamond.xml: error: --sweep: the program has no parameter .nope.$'",
                     MMM_BIN, MMM_DAGS_DIR, path), 0);
    cr_assert_eq(run("'%s' report '%s/diamond.xml' --sweep nope -o '%s' 2>/dev/null",
                     MMM_BIN, MMM_DAGS_DIR, path), 1);
    f = fopen(path, "r");
    cr_assert_not_null(f);
    cr_assert_not_null(fgets(buf, sizeof buf, f));
    fclose(f);
    cr_assert_str_eq(buf, "keep me\n");
    cr_assert_eq(run("rm -rf '%s'", dir), 0);
}

/* The roofline section: with a machine that gives the time model's
 * constants, the picture and a row per kernel with operations; without
 * one, no section. */
Test(report, roofline_section_with_a_machine_only)
{
    cr_assert_eq(run("'%s' report '%s/gpu/scan.xml' --machine '%s/machines/h100-fitted.xml' "
                     "--no-sweep --no-simulation -o - | tr '\\n' ' ' | "
                     "grep -o '<section id=\"roofline\">.*' | sed 's,</section>.*,,' | "
                     "grep '<h2>Roofline</h2>' | grep '<svg' | grep '>blocks</td>' | "
                     "grep '>sums</td>' | grep -q '>add</td>'", MMM_BIN, MMM_DAGS_DIR,
                     MMM_DAGS_DIR), 0);
    /* add by hand: parts = n/(tpb k) blocks of tpb threads of 2k + 6
     * operations, n = 2^24, k = 1: 8n = 2^27 operations; it reads and
     * writes one 4-byte word a thread: 8n bytes, 1 operation per byte */
    cr_assert_eq(run("'%s' report '%s/gpu/scan.xml' --machine '%s/machines/h100-fitted.xml' "
                     "--no-sweep --no-simulation -o - | grep -q '>add</td><td class=\"n\" "
                     "data-v=\"1\">1</td><td class=\"n\" data-v=\"134217728\">[^<]*</td>"
                     "<td class=\"n\" data-v=\"134217728\">[^<]*</td><td class=\"n\" "
                     "data-v=\"1\">'", MMM_BIN, MMM_DAGS_DIR, MMM_DAGS_DIR), 0);
    cr_assert_eq(run("'%s' report '%s/gpu/scan.xml' --no-sweep --no-simulation -o - | "
                     "grep -c 'id=\"roofline\"' | grep -q '^0$'", MMM_BIN, MMM_DAGS_DIR), 0);
    cr_assert_eq(run("'%s' report '%s/diamond.xml' --no-sweep --no-simulation -o - | "
                     "grep -c 'id=\"roofline\"' | grep -q '^0$'", MMM_BIN, MMM_DAGS_DIR), 0);
}

/* Numbers: digits in groups of three from five digits on, U+202F between. */
Test(report, numbers_group_digits_in_threes)
{
    char b[96];
#define NB "\xe2\x80\xaf"
    cr_assert_str_eq(mmm__fmt_grouped(1234, 0, b, sizeof b), "1234");
    cr_assert_str_eq(mmm__fmt_grouped(12345, 0, b, sizeof b), "12" NB "345");
    cr_assert_str_eq(mmm__fmt_grouped(-1282963.5, 1, b, sizeof b), "-1" NB "282" NB "963.5");
    cr_assert_str_eq(mmm__fmt_grouped(123456, 2, b, sizeof b), "123" NB "456.00");
    cr_assert_str_eq(mmm__fmt_grouped(0.25, 2, b, sizeof b), "0.25");
    cr_assert_str_eq(mmm__fmt_grouped(-0.0001, 2, b, sizeof b), "0.00");
    cr_assert_str_eq(mmm__fmt_grouped(1e15, 0, b, sizeof b),
                     "1" NB "000" NB "000" NB "000" NB "000" NB "000");
    /* 1.2829635 rounds to 1.2830 (five digits kept); 999999.7 carries */
    cr_assert_str_eq(mmm__fmt_sci(1282963.5, 5, b, sizeof b),
                     "1.2830\xc2\xb7" "10\xe2\x81\xb6");
    cr_assert_str_eq(mmm__fmt_sci(999999.7, 4, b, sizeof b),
                     "1.000\xc2\xb7" "10\xe2\x81\xb6");
    cr_assert_str_eq(mmm__fmt_sci(5e-9, 4, b, sizeof b),
                     "5.000\xc2\xb7" "10\xe2\x81\xbb\xe2\x81\xb9");
    /* one number alone: an integer in full, a real to 6 digits */
    cr_assert_str_eq(mmm__report_num(85540166000.0, b, sizeof b),
                     "85" NB "540" NB "166" NB "000");
    cr_assert_str_eq(mmm__report_num(26.04527, b, sizeof b), "26.0453");
    cr_assert_str_eq(mmm__report_num(467.5, b, sizeof b), "467.5");
    cr_assert_str_eq(mmm__report_num(8425271937.5, b, sizeof b), "8" NB "425" NB "271" NB "938");
}

/* A table's numeric column has one format for all its values, chosen from
 * them: the Graham column of the speedup table once mixed "1.28296·10⁶"
 * with plain integers. */
Test(report, one_number_format_per_column)
{
    static const double a[] = {1282963.5, 12, 7}, r[] = {0.5, 1.25, 10},
                        n[] = {1, 20000, 300}, sec[] = {0.002, 0.0005, 0.00125};
    mmm__tab tb;
    mmm__text t;
    mmm_error err;
    size_t i;
    mmm__text_init(&t);
    mmm__tab_init(&tb, NULL);
    mmm__tab_col(&tb, "name", MMM__TAB_TEXT);
    mmm__tab_col(&tb, "a", MMM__TAB_NUM);
    mmm__tab_col(&tb, "r", MMM__TAB_NUM);
    mmm__tab_col(&tb, "n", MMM__TAB_NUM);
    mmm__tab_col(&tb, "t", MMM__TAB_SECONDS);
    for (i = 0; i < 3; i++) {
        mmm__tab_row(&tb, i == 0 ? "span" : NULL);
        mmm__tab_text(&tb, NAN, i == 0 ? "x<y" : "k", 1);
        mmm__tab_num(&tb, a[i]);
        mmm__tab_num(&tb, r[i]);
        mmm__tab_num(&tb, n[i]);
        mmm__tab_num(&tb, sec[i]);
    }
    cr_assert_eq(mmm__tab_end(&tb, &t, &err), 0);
    cr_assert_not_null(t.s);
    /* reals: the decimals that give the largest value 6 digits, less those
     * that are 0 in every value (10.0000, 1.2500, 0.5000: two) */
    cr_assert(strstr(t.s, "<tr class=\"span\"><td><code>x&lt;y</code></td>"
                          "<td class=\"n\" data-v=\"1282963.5\">1" NB "282" NB "964</td>"
                          "<td class=\"n\" data-v=\"0.5\">0.50</td>"
                          "<td class=\"n\" data-v=\"1\">1</td>"
                          "<td class=\"n\" data-v=\"0.002\">2.00</td></tr>"), "%s", t.s);
    cr_assert(strstr(t.s, "<td class=\"n\" data-v=\"12\">12</td>"
                          "<td class=\"n\" data-v=\"1.25\">1.25</td>"
                          "<td class=\"n\" data-v=\"20000\">20" NB "000</td>"
                          "<td class=\"n\" data-v=\"0.0005\">0.50</td>"),
              "%s", t.s);
    cr_assert(strstr(t.s, "<th class=\"n\">t (ms)</th>"), "%s", t.s);
    cr_assert(strstr(t.s, "<table class=\"data\">\n<thead><tr><th>name</th>"), "%s", t.s);
    mmm__text_dispose(&t);
#undef NB
}
