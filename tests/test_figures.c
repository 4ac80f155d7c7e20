/*
 * test_figures.c: the figures the report embeds are drawn in memory; the
 * report's sweep figure is `mmm optimize --plot`'s; file extensions are
 * compared without regard to case; the report accepts a NULL error
 * pointer.
 *
 * Expected values are not outputs of an earlier run: the report's sweep
 * figure is compared with the one `mmm optimize` draws for the same sweep,
 * an upper-case extension with the lower-case one, and the PNG signature
 * is the one fixed by the PNG specification.
 */
#include <criterion/criterion.h>

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "mmm/mmm.h"
#include "mmm/plot.h"
#include "mmm/report.h"
#include "tmpdir.h"
#include "slurp.h"
#include "shell.h"

static int same_file(const char *a, const char *b)
{
    size_t la, lb;
    char *x = slurp(a, &la), *y = slurp(b, &lb);
    int same = la == lb && memcmp(x, y, la) == 0;
    free(x);
    free(y);
    return same;
}

static size_t count(const char *s, const char *what)
{
    size_t n = 0;
    while ((s = strstr(s, what))) {
        n++;
        s += strlen(what);
    }
    return n;
}

/* An SVG document from "<svg" to "</svg>" with the report's id prefix
 * removed and cairo's surface numbers (a count over the process) folded,
 * so that a figure inline in the page compares with the file. */
static char *normalized_svg(const char *text, const char *prefix)
{
    const char *start = strstr(text, "<svg"), *end;
    char *out, *o;
    size_t plen = strlen(prefix);
    cr_assert_not_null(start, "no <svg");
    end = strstr(start, "</svg>");
    cr_assert_not_null(end, "no </svg>");
    end += 6;
    out = o = malloc((size_t)(end - start) + 1);
    cr_assert_not_null(out);
    while (start < end) {
        if (!strncmp(start, prefix, plen) && start[plen] == '-') {
            start += plen + 1;
            continue;
        }
        if (!strncmp(start, "surface", 7)) {
            memcpy(o, "surface", 7);
            o += 7;
            start += 7;
            while (start < end && *start >= '0' && *start <= '9')
                start++;
            continue;
        }
        *o++ = *start++;
    }
    *o = '\0';
    return out;
}

Test(figures, report_sweep_figure_is_the_optimize_plot)
{
    char dir[256], path[512];
    char *html, *svg, *a, *b;
    const char *sec;
    if (!mmm_plot_available())
        cr_skip_test("no PLplot in this build");
    mmm_tmpdir_make(dir, sizeof dir, "mmm_figures");
    /* poly_div_opt declares s in 1..floor(Z/7) and s = 256: the report
     * sweeps s with its current value as the baseline, as optimize does
     * with --baseline 256. */
    cr_assert_eq(run("'%s' report '%s/poly_div_opt.xml' --no-simulation -o '%s/r.html'",
                     MMM_BIN, MMM_DAGS_DIR, dir), 0);
    cr_assert_eq(run("'%s' optimize '%s/poly_div_opt.xml' --param s --baseline 256 "
                     "--plot '%s/s.svg' > /dev/null", MMM_BIN, MMM_DAGS_DIR, dir), 0);
    snprintf(path, sizeof path, "%s/r.html", dir);
    html = slurp(path, NULL);
    sec = strstr(html, "<section id=\"sweeps\">");
    cr_assert_not_null(sec);
    a = normalized_svg(sec, "sweep5");
    snprintf(path, sizeof path, "%s/s.svg", dir);
    svg = slurp(path, NULL);
    b = normalized_svg(svg, "sweep5");
    cr_assert_str_eq(a, b, "the report's figure differs from optimize --plot's");
    free(a);
    free(b);
    free(svg);
    free(html);
    mmm_tmpdir_remove(dir);
}

/* The report drew its sweep figure, its Gantt chart and its speedup
 * figure into files of a temporary folder it read back: with TMPDIR naming
 * no folder they are all there all the same. */
Test(figures, report_needs_no_temporary_folder)
{
    char dir[256], path[512];
    char *html;
    if (!mmm_plot_available())
        cr_skip_test("no PLplot in this build");
    mmm_tmpdir_make(dir, sizeof dir, "mmm_figures");
    cr_assert_eq(run("TMPDIR='%s/none' '%s' report '%s/poly_div_opt.xml' -o '%s/r.html'",
                     dir, MMM_BIN, MMM_DAGS_DIR, dir), 0);
    snprintf(path, sizeof path, "%s/r.html", dir);
    html = slurp(path, NULL);
    /* the DAG, the sweep of s, the Gantt chart, the speedup over p */
    cr_assert_eq(count(html, "<svg"), 4, "%zu figures", count(html, "<svg"));
    cr_assert_null(strstr(html, "no figure"));
    cr_assert_null(strstr(html, "no Gantt chart"));
    free(html);
    mmm_tmpdir_remove(dir);
}

Test(figures, extensions_ignore_case)
{
    static const unsigned char png_sig[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    char dir[256], a[512], b[512];
    char *data;
    size_t len;
    mmm_tmpdir_make(dir, sizeof dir, "mmm_figures");
    cr_assert_eq(run("cd '%s' && '%s' simulate '%s/fork_join.xml' -p 2 --gantt g.svg "
                     "> /dev/null && '%s' simulate '%s/fork_join.xml' -p 2 --gantt g.SVG "
                     "> /dev/null", dir, MMM_BIN, MMM_DAGS_DIR, MMM_BIN, MMM_DAGS_DIR), 0);
    snprintf(a, sizeof a, "%s/g.svg", dir);
    snprintf(b, sizeof b, "%s/g.SVG", dir);
    cr_assert(same_file(a, b), "g.SVG is not g.svg");
    if (mmm_plot_available()) {
        cr_assert_eq(run("cd '%s' && '%s' optimize '%s/poly_mul.xml' --param s --plot p.png "
                         "> /dev/null && '%s' optimize '%s/poly_mul.xml' --param s "
                         "--plot p.PNG > /dev/null && '%s' optimize '%s/poly_mul.xml' "
                         "--param s --plot p.Pdf > /dev/null", dir, MMM_BIN, MMM_DAGS_DIR,
                         MMM_BIN, MMM_DAGS_DIR, MMM_BIN, MMM_DAGS_DIR), 0);
        snprintf(a, sizeof a, "%s/p.png", dir);
        snprintf(b, sizeof b, "%s/p.PNG", dir);
        cr_assert(same_file(a, b), "p.PNG is not p.png");
        data = slurp(b, &len);
        cr_assert(len > 8 && memcmp(data, png_sig, 8) == 0, "p.PNG is no PNG");
        free(data);
        snprintf(b, sizeof b, "%s/p.Pdf", dir);
        data = slurp(b, &len);
        cr_assert(len > 5 && memcmp(data, "%PDF-", 5) == 0, "p.Pdf is no PDF");
        free(data);
    }
    /* an unknown extension is still refused, whatever its case */
    cr_assert_eq(run("cd '%s' && '%s' simulate '%s/fork_join.xml' -p 2 --gantt g.SVGZ "
                     "> /dev/null 2>&1", dir, MMM_BIN, MMM_DAGS_DIR), 2);
    mmm_tmpdir_remove(dir);
}

/* A report whose DAG section fails (a colour scheme out of range) returns
 * the error instead of writing through the NULL error pointer. */
Test(figures, report_accepts_null_error)
{
    mmm_report_options o = MMM_REPORT_OPTIONS_INIT;
    mmm_program *prog = NULL;
    mmm_instance *inst = NULL;
    mmm_metrics m;
    mmm_error err;
    char *html = (char *)1;
    size_t len = 1;
    char path[512];
    snprintf(path, sizeof path, "%s/diamond.xml", MMM_DAGS_DIR);
    cr_assert_eq(mmm_program_load_file(&prog, path, NULL, &err), 0, "%s", err.message);
    cr_assert_eq(mmm_instance_new(&inst, prog, &err), 0);
    cr_assert_eq(mmm_instance_eval(inst, NULL, 0, &err), 0);
    cr_assert_eq(mmm_metrics_compute(&m, inst, 0, &err), 0);
    o.color = (mmm_render_color)99;
    o.no_sweep = 1;
    o.no_simulation = 1;
    cr_assert_eq(mmm_report_html(&html, &len, inst, &m, &o, NULL), MMM_EINVAL);
    cr_assert_null(html);
    cr_assert_eq(mmm_report_html(&html, &len, inst, &m, &o, &err), MMM_EINVAL);
    cr_assert_eq(err.code, MMM_EINVAL);
    cr_assert_eq(mmm_report_write("/nonexistent-dir/r.html", inst, &m, &o, NULL), MMM_EINVAL);
    mmm_metrics_dispose(&m);
    mmm_instance_free(inst);
    mmm_program_free(prog);
}
