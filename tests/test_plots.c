/*
 * test_plots.c: the pictures can be read.  Plots (optimize --plot, the
 * report's sweeps, scale --plot): the layout plot.c records while it draws
 * (text boxes from the character height, frames, legends, marks, each
 * curve's colour and key) has no text box over another or over a frame,
 * nothing outside the page, one tick format per axis, a colour per curve
 * of a grid sweep, marks inside the frames, W, S and O on their own axes,
 * a key line only for a curve drawn as a line, a filled band.  Gantt
 * charts (their SVG read back): no text over another (close bounds
 * included), every lane labelled or a lane axis, tall lanes for a small
 * schedule, PDF output.
 *
 * Expected values are properties of the picture, not an earlier output:
 * boxes are compared with each other and with the frames, colours with
 * each other, positions with the frames they must lie in.
 */
#include <criterion/criterion.h>

#include <math.h>
#include <regex.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "mmm/mmm.h"
#include "mmm/gantt.h"
#include "mmm/plot.h"
#include "mmm/sweep_plot.h"
#include "../viz/plot_int.h"
#include "tmpdir.h"
#include "shell.h"
#include "slurp.h"

/* ------------------------------------------------------------------ */
/* Layout checks                                                       */

static int overlap(const mmm__plot_box *a, const mmm__plot_box *b)
{
    const double eps = 0.05; /* mm: touching is not overlapping */
    return a->x0 < b->x1 - eps && b->x0 < a->x1 - eps && a->y0 < b->y1 - eps &&
           b->y0 < a->y1 - eps;
}

static const mmm__plot_box *frame_of(const mmm__plot_layout *r, int panel)
{
    size_t i;
    for (i = 0; i < r->nboxes; i++)
        if (r->boxes[i].kind == MMM__PLOT_FRAME && r->boxes[i].panel == panel)
            return &r->boxes[i];
    cr_assert_fail("no frame for panel %d", panel);
    return NULL;
}

/* The form of a tick label: 'p' plain number (*dec decimals), 'e' a power
 * of ten (10^k or m×10^k), 'u' the unit of an axis (×10^k), '?' else. */
static int tick_form(const char *s, int *dec)
{
    static regex_t plain, power;
    static int ready;
    regmatch_t m[2];
    if (!ready) {
        cr_assert_eq(regcomp(&plain, "^-?[0-9]+(\\.([0-9]+))?$", REG_EXTENDED), 0);
        cr_assert_eq(regcomp(&power, "^([0-9]+\xc3\x97)?10#u-?[0-9]+#d$", REG_EXTENDED), 0);
        ready = 1;
    }
    if (!strncmp(s, "\xc3\x97", 2))
        return 'u';
    if (!regexec(&plain, s, 2, m, 0)) {
        const char *dot = strchr(s, '.');
        *dec = dot ? (int)strlen(dot + 1) : 0;
        return 'p';
    }
    if (!regexec(&power, s, 0, NULL, 0))
        return 'e';
    return '?';
}

static void check_layout(const mmm__plot_layout *r, const char *what)
{
    size_t i, j;
    cr_assert_gt(r->width, 0);
    cr_assert_lt(r->nboxes, MMM__PLOT_MAX_BOXES, "%s: boxes lost", what);
    for (i = 0; i < r->nboxes; i++) {
        const mmm__plot_box *a = &r->boxes[i];
        /* Nothing clipped by the page. */
        cr_assert(a->x0 >= 0 && a->y0 >= 0 && a->x1 <= r->width && a->y1 <= r->height,
                  "%s: '%s' (kind %d) at [%g,%g]x[%g,%g] leaves the page %gx%g", what,
                  a->text, a->kind, a->x0, a->x1, a->y0, a->y1, r->width, r->height);
        for (j = i + 1; j < r->nboxes; j++) {
            const mmm__plot_box *b = &r->boxes[j];
            if (a->kind == MMM__PLOT_FRAME && b->kind == MMM__PLOT_FRAME)
                continue;
            /* No text or legend over another, nor over a frame. */
            cr_assert(!overlap(a, b),
                      "%s: '%s' (kind %d, panel %d) [%g,%g]x[%g,%g] overlaps '%s' "
                      "(kind %d, panel %d) [%g,%g]x[%g,%g]",
                      what, a->text, a->kind, a->panel, a->x0, a->x1, a->y0, a->y1,
                      b->text, b->kind, b->panel, b->x0, b->x1, b->y0, b->y1);
        }
    }
    /* One tick format per axis: the y labels of a panel, the x labels. */
    for (i = 0; i < r->nboxes; i++) {
        const mmm__plot_box *a = &r->boxes[i], *f;
        int fa, da = 0;
        if (a->kind != MMM__PLOT_TICK)
            continue;
        fa = tick_form(a->text, &da);
        cr_assert_neq(fa, '?', "%s: tick label '%s'", what, a->text);
        if (fa == 'u')
            continue;
        f = frame_of(r, a->panel);
        for (j = i + 1; j < r->nboxes; j++) {
            const mmm__plot_box *b = &r->boxes[j];
            int fb, db = 0;
            /* left of the frame: the y axis; right of it: a colour bar;
             * else the x axis */
            int same_axis = b->kind == MMM__PLOT_TICK && b->panel == a->panel &&
                            ((a->x1 <= f->x0) == (b->x1 <= f->x0)) &&
                            ((a->x0 >= f->x1) == (b->x0 >= f->x1));
            if (!same_axis || (fb = tick_form(b->text, &db)) == 'u')
                continue;
            cr_assert(fa == fb && da == db, "%s: '%s' and '%s' on one axis", what,
                      a->text, b->text);
        }
    }
    /* Marks inside their frames, away from the edges. */
    for (i = 0; i < r->nmarks; i++) {
        const mmm__plot_box *f = frame_of(r, r->marks[i].panel);
        double m = 0.005 * (f->x1 - f->x0);
        cr_assert(r->marks[i].x > f->x0 + m && r->marks[i].x < f->x1 - m,
                  "%s: mark at %g not inside the frame [%g, %g]", what, r->marks[i].x,
                  f->x0, f->x1);
    }
}

/* ------------------------------------------------------------------ */
/* Sweeps                                                              */

static mmm_program *load(const char *path)
{
    mmm_load_options opt = MMM_LOAD_OPTIONS_INIT;
    mmm_program *prog;
    mmm_error err;
    cr_assert_eq(mmm_program_load_file(&prog, path, &opt, &err), 0, "%s", err.message);
    return prog;
}

static int add_point(const mmm_sweep_point *pt, const mmm_error *why, void *payload)
{
    (void)why;
    return mmm_sweep_plot_add(payload, pt);
}

/* What sweep_layout minimizes (default: O). */
static mmm_objective sweep_objective = MMM_OBJECTIVE_OVERHEAD;

/* Sweep poly_div_opt (naxes 1 or 2: the first over v0, the second over
 * v1) and record the figure's layout. */
static void sweep_layout(mmm__plot_layout *rec, const char *p0, const mmm_value *v0,
                         size_t n0, const char *p1, const mmm_value *v1, size_t n1)
{
    mmm_program *prog = load(MMM_DAGS_DIR "/poly_div_opt.xml");
    mmm_instance *inst;
    mmm_sweep_spec spec = MMM_SWEEP_SPEC_INIT;
    mmm_sweep_result plan, res;
    mmm_sweep_plot *sp;
    mmm_error err;
    uint64_t n;
    char *svg;
    size_t len;
    cr_assert_eq(mmm_instance_new(&inst, prog, &err), 0, "%s", err.message);
    spec.naxes = p1 ? 2 : 1;
    spec.objective = sweep_objective;
    spec.axes[0].slot = mmm_program_find_param(prog, p0);
    spec.axes[0].values = v0;
    spec.axes[0].nvalues = n0;
    if (p1) {
        spec.axes[1].slot = mmm_program_find_param(prog, p1);
        spec.axes[1].values = v1;
        spec.axes[1].nvalues = n1;
    }
    cr_assert_eq(mmm_sweep_resolve(&plan, &n, inst, &spec, &err), 0, "%s", err.message);
    cr_assert_eq(mmm_sweep_plot_new(&sp, prog, &plan, plan.axes[0].count, &err), 0);
    cr_assert_eq(mmm_sweep_run(&res, inst, &spec, add_point, sp, &err), 0, "%s",
                 err.message);
    cr_assert(res.has_best);
    cr_assert_eq(mmm__sweep_plot_layout(sp, &res, inst, &spec, rec, &svg, &len, &err), 0,
                 "%s", err.message);
    cr_assert(len > 0 && strstr(svg, "</svg>"));
    free(svg);
    mmm_sweep_plot_free(sp);
    mmm_instance_free(inst);
    mmm_program_free(prog);
}

static mmm_value *powers_of_two(size_t n)
{
    mmm_value *v = calloc(n, sizeof *v);
    size_t i;
    cr_assert_not_null(v);
    for (i = 0; i < n; i++)
        v[i] = mmm_value_int((int64_t)1 << i);
    return v;
}

/* One parameter: the objective (O), W and S each on its own axis, then the bounds; the
 * best value is the last one (O falls as s grows: the best mark sits at
 * the right end of the data) and stays inside the frame. */
Test(plots, one_parameter_small_multiples)
{
    static mmm__plot_layout rec;
    mmm_value *s = powers_of_two(9); /* 1..256 */
    size_t i, per_panel[4] = {0, 0, 0, 0};
    sweep_layout(&rec, "s", s, 9, NULL, NULL, 0);
    check_layout(&rec, "sweep of s");
    for (i = 0; i < rec.ncurves; i++) {
        cr_assert_lt(rec.curves[i].panel, 4);
        per_panel[rec.curves[i].panel]++;
        /* short sweep, no gaps: every curve a line, and so is its key */
        cr_assert(rec.curves[i].draws_line && rec.curves[i].key_line);
    }
    cr_assert_eq(per_panel[0], 1, "the objective, O, alone");
    cr_assert_eq(per_panel[1], 1, "W alone");
    cr_assert_eq(per_panel[2], 1, "S alone");
    cr_assert_eq(per_panel[3], 2, "the Graham-Brent bound and the corollary");
    cr_assert_eq(rec.nmarks, 2 * 4, "best and baseline across the four panels");
    free(s);
}

/* The top panel draws what the sweep minimizes: the Graham-Brent bound
 * (in its green), the best point named in the subtitle, the infeasible
 * values (s = 4096 is past the parameter's max) shaded; O moves to the
 * last panel with the corollary. */
Test(plots, one_parameter_objective_on_top)
{
    static mmm__plot_layout rec;
    mmm_value s[6] = {mmm_value_int(1), mmm_value_int(2), mmm_value_int(4),
                      mmm_value_int(8), mmm_value_int(16), mmm_value_int(4096)};
    size_t i, sub = 0;
    sweep_objective = MMM_OBJECTIVE_BOUND;
    sweep_layout(&rec, "s", s, 6, NULL, NULL, 0);
    sweep_objective = MMM_OBJECTIVE_OVERHEAD;
    check_layout(&rec, "sweep of s, bound");
    cr_assert_eq(rec.curves[0].panel, 0);
    cr_assert_eq(rec.curves[0].rgb, mmm__plot_color_rgb(2), "the bound's colour");
    for (i = 0; i < rec.ncurves; i++)
        cr_assert(rec.curves[i].panel != 0 || i == 0, "the objective alone on top");
    for (i = 0; i < rec.nboxes; i++)
        if (rec.boxes[i].kind == MMM__PLOT_TITLE && !strncmp(rec.boxes[i].text, "best: s = ", 10))
            sub++;
    cr_assert_eq(sub, 1, "the subtitle names the best point");
    cr_assert_eq(rec.nspans, 4, "s = 4096 shaded in each of the four panels");
}

/* Two parameters: one heat map of the objective (a cell per point, no
 * curve, no legend), its colour bar's labels on the page and off the
 * rest (check_layout); a grid of more than 200 values of one parameter is
 * binned into 200 cells. */
Test(plots, grid_sweep_heat_map)
{
    static mmm__plot_layout rec;
    mmm_value U[3] = {mmm_value_int(100), mmm_value_int(200), mmm_value_int(400)};
    mmm_value *s = powers_of_two(10); /* 1..512 */
    size_t i, bar = 0;
    sweep_layout(&rec, "U", U, 3, "s", s, 10);
    check_layout(&rec, "grid of U and s");
    cr_assert_eq(rec.nheat, 3 * 10);
    cr_assert_eq(rec.ngrey, 0);
    cr_assert_eq(rec.ncurves, 0, "no line per value");
    for (i = 0; i < rec.nboxes; i++)
        if (rec.boxes[i].kind == MMM__PLOT_TICK && rec.boxes[i].x0 > rec.boxes[0].x1)
            bar++;
    cr_assert_geq(bar, 2, "the colour bar has labels");
    free(s);
    s = calloc(300, sizeof *s);
    cr_assert_not_null(s);
    for (i = 0; i < 300; i++)
        s[i] = mmm_value_int((int64_t)i + 1);
    sweep_layout(&rec, "U", U, 3, "s", s, 300);
    check_layout(&rec, "grid of U and 300 values of s");
    cr_assert_eq(rec.nheat, 3 * 200);
    free(s);
}

/* Log axes: over 1..32 the x axis is labelled at 1, 2, 5, 10, 20 (not
 * only 1 and 10); a y range within a factor 1.5 still gets two labels or
 * more. */
Test(plots, log_axes_readable)
{
    static mmm__plot_layout rec;
    mmm_plot_curve c;
    mmm_plot_panel pan;
    mmm_plot plot;
    mmm_error err;
    char *svg;
    size_t len, i, nx = 0, ny = 0;
    cr_assert_eq(mmm_plot_curve_init(&c, "y", 6, 0), 0);
    for (i = 0; i < 6; i++)
        cr_assert_eq(mmm_plot_curve_add(&c, (double)(1 << i), 3e5 + 3e4 * (double)i), 0);
    cr_assert_eq(mmm_plot_curve_finish(&c), 0);
    memset(&pan, 0, sizeof pan);
    pan.ylabel = "O (cycles)";
    pan.yscale = MMM_PLOT_LOG;
    pan.curves = &c;
    pan.ncurves = 1;
    memset(&plot, 0, sizeof plot);
    plot.title = "ticks";
    plot.xlabel = "s";
    plot.xscale = MMM_PLOT_LOG;
    plot.panels = &pan;
    plot.npanels = 1;
    cr_assert_eq(mmm__plot_layout_svg(&plot, &rec, &svg, &len, &err), 0, "%s", err.message);
    free(svg);
    check_layout(&rec, "log axes");
    for (i = 0; i < rec.nboxes; i++) {
        const mmm__plot_box *b = &rec.boxes[i];
        if (b->kind != MMM__PLOT_TICK)
            continue;
        if (b->y1 <= rec.boxes[0].y0)
            nx++;
        else if (b->x1 <= rec.boxes[0].x0)
            ny++;
    }
    cr_assert_geq(nx, 5, "x labels 1, 2, 5, 10, 20");
    cr_assert_geq(ny, 2, "two y labels at least");
    mmm_plot_curve_dispose(&c);
}

/* A figure made by hand: a curve whose points all stand alone (every other
 * value infeasible) is keyed as dots, not as a line; a band between two
 * curves is filled; one panel with a title and a subtitle and large
 * linear values (labels in units of 10^6, said once) fits the page. */
Test(plots, keys_band_and_single_panel_geometry)
{
    static mmm__plot_layout rec;
    mmm_plot_curve c[3];
    mmm_plot_panel pan;
    mmm_plot_mark mk = {10, "best x = 10", 6, MMM_PLOT_SOLID};
    mmm_plot plot;
    mmm_error err;
    char *svg;
    size_t len, i;
    int unit = 0;
    for (i = 0; i < 3; i++)
        cr_assert_eq(mmm_plot_curve_init(&c[i], i == 0 ? "lone points" : "bound", 10, 0), 0);
    for (i = 1; i <= 10; i++) {
        double x = (double)i;
        cr_assert_eq(mmm_plot_curve_add(&c[0], x, i % 2 ? 2e6 + 1e5 * x : NAN), 0);
        cr_assert_eq(mmm_plot_curve_add(&c[1], x, 3e6 + 2e5 * x), 0);
        cr_assert_eq(mmm_plot_curve_add(&c[2], x, 1e6 + 1e5 * x), 0);
    }
    for (i = 0; i < 3; i++) {
        cr_assert_eq(mmm_plot_curve_finish(&c[i]), 0);
        c[i].color = (int)i;
    }
    c[1].band_with = 3;
    memset(&pan, 0, sizeof pan);
    pan.ylabel = "time (cycles)";
    pan.curves = c;
    pan.ncurves = 3;
    memset(&plot, 0, sizeof plot);
    plot.title = "a title";
    plot.subtitle = "a subtitle";
    plot.xlabel = "x";
    plot.panels = &pan;
    plot.npanels = 1;
    plot.marks = &mk;
    plot.nmarks = 1;
    cr_assert_eq(mmm__plot_layout_svg(&plot, &rec, &svg, &len, &err), 0, "%s", err.message);
    free(svg);
    check_layout(&rec, "hand-made figure");
    cr_assert_eq(rec.ncurves, 3);
    cr_assert(!rec.curves[0].draws_line && !rec.curves[0].key_line);
    cr_assert(rec.curves[1].draws_line && rec.curves[1].key_line);
    cr_assert_eq(rec.nbands, 1);
    for (i = 0; i < rec.nboxes; i++)
        if (rec.boxes[i].kind == MMM__PLOT_TICK && !strcmp(rec.boxes[i].text, "\xc3\x97" "10#u6#d"))
            unit++;
    cr_assert_eq(unit, 1, "the y labels' unit 10^6, once");
    /* The mark at the largest x stays inside the frame. */
    cr_assert_eq(rec.nmarks, 1);
    for (i = 0; i < 3; i++)
        mmm_plot_curve_dispose(&c[i]);
}

/* The speedup figure of mmm scale, from a result made by hand: T1 =
 * 2482077, critical path 3627, three policies of which fifo and
 * critical-path have the same makespan at every p.  The figure keeps its
 * title, subtitle and axis titles on the page and off each other (the
 * checks of check_layout), fills the band between the bounds, draws fifo
 * and critical-path as one curve (one would hide the other) in a colour of
 * its own, draws the two bounds last (dashed, over a schedule that meets
 * them), and prints T1 in full, not as 2.48208e+06.  With all three
 * equal, one policy curve is left. */
static void speedup_layout_m(mmm__plot_layout *rec, int all_equal,
                             const mmm_speedup_measured *meas);
static void speedup_layout(mmm__plot_layout *rec, int all_equal)
{
    speedup_layout_m(rec, all_equal, NULL);
}

static void speedup_layout_m(mmm__plot_layout *rec, int all_equal,
                             const mmm_speedup_measured *meas)
{
    const mmm_sim_policy *pol[3] = {&mmm_sim_policy_fifo, &mmm_sim_policy_lifo,
                                    &mmm_sim_policy_critical_path};
    const double T1 = 2482077, cp = 3627;
    int64_t ps[5] = {1, 2, 4, 8, 16};
    mmm_speedup_row rows[5];
    double mk[5][3];
    mmm_speedup s;
    mmm_error err;
    char *svg;
    size_t len, i;
    memset(&s, 0, sizeof s);
    s.W = T1;
    s.S = cp;
    s.parallelism = T1 / cp;
    s.T1 = T1;
    s.critical_path = cp;
    s.N = 2053;
    s.L = 3;
    s.K = 4;
    s.C = 1209;
    s.npolicies = 3;
    s.policies = pol;
    s.nrows = 5;
    s.rows = rows;
    for (i = 0; i < 5; i++) {
        double p = (double)ps[i], lb = fmax(T1 / p, cp), gr = T1 / p + (1 - 1 / p) * cp;
        rows[i].p = ps[i];
        rows[i].lower_bound = lb;
        rows[i].graham = gr;
        rows[i].graham_brent = (2053 / p + 3) * 1209;
        rows[i].has_corollary = ps[i] >= 4;
        rows[i].corollary = rows[i].has_corollary ? (2053 / 4.0 + 3) * 1209 : 0;
        mk[i][0] = mk[i][2] = (lb + gr) / 2;
        mk[i][1] = all_equal ? mk[i][0] : gr;
        rows[i].makespan = mk[i];
        rows[i].speedup_min = T1 / gr;
        rows[i].speedup_max = T1 / lb;
        rows[i].T1 = T1;
    }
    cr_assert_eq(mmm__speedup_plot_layout(&s, meas, "reduction", rec, &svg, &len, &err), 0,
                 "%s", err.message);
    cr_assert(len > 0 && strstr(svg, "</svg>"));
    free(svg);
}

Test(plots, speedup_figure)
{
    static mmm__plot_layout rec;
    size_t i, j;
    int sub = 0;
    speedup_layout(&rec, 0);
    check_layout(&rec, "speedup figure");
    /* perfect, T1/lower bound, T1/Graham, fifo = critical-path, lifo */
    cr_assert_eq(rec.ncurves, 5, "%zu curves", rec.ncurves);
    cr_assert_eq(rec.nbands, 1, "the band between the bounds is filled");
    /* The bounds (dashed) are drawn last, over a schedule that meets them. */
    cr_assert_eq(rec.curves[3].line, MMM_PLOT_DASHED);
    cr_assert_eq(rec.curves[4].line, MMM_PLOT_DASHED);
    cr_assert_eq(rec.curves[1].line, MMM_PLOT_SOLID);
    for (i = 0; i < rec.ncurves; i++)
        for (j = i + 1; j < rec.ncurves; j++)
            cr_assert_neq(rec.curves[i].rgb, rec.curves[j].rgb, "curves %zu and %zu", i, j);
    for (i = 0; i < rec.nboxes; i++)
        if (rec.boxes[i].kind == MMM__PLOT_TITLE &&
            !strncmp(rec.boxes[i].text, "T1 = 2482077, critical path = 3627", 34))
            sub++;
    cr_assert_eq(sub, 1, "the subtitle gives T1 and the critical path in full");
    speedup_layout(&rec, 1);
    check_layout(&rec, "speedup figure, equal policies");
    cr_assert_eq(rec.ncurves, 4, "%zu curves", rec.ncurves);
}

/* Measured speedups: every run a black dot (no line), the medians a
 * black line, drawn last, over the bounds; the legend names both. */
Test(plots, speedup_figure_with_measured_runs)
{
    static mmm__plot_layout rec;
    static const char runs[] = "p,speedup\n1,1\n2,1.9\n2,1.7\n4,3.1\n8,5\n16,6.2\n";
    mmm_speedup_measured *m = NULL;
    mmm_error err;
    size_t i, keys = 0;
    cr_assert_eq(mmm_speedup_measured_read_memory(&m, runs, sizeof runs - 1, "r.csv", &err), 0,
                 "%s", err.message);
    speedup_layout_m(&rec, 0, m);
    check_layout(&rec, "speedup figure with measured runs");
    cr_assert_eq(rec.ncurves, 7, "%zu curves", rec.ncurves);
    cr_assert_eq(rec.curves[5].rgb, 0x000000);
    cr_assert_eq(rec.curves[6].rgb, 0x000000);
    cr_assert_not(rec.curves[5].draws_line, "the runs are dots");
    cr_assert(rec.curves[6].draws_line, "the medians are joined");
    for (i = 0; i < 5; i++)
        cr_assert_neq(rec.curves[i].rgb, 0x000000, "curve %zu is black too", i);
    for (i = 0; i < rec.nboxes; i++)
        if (rec.boxes[i].kind == MMM__PLOT_LEGEND)
            keys++;
    cr_assert_geq(keys, 1);
    mmm_speedup_measured_free(m);
}

/* Colours of the palette differ from each other. */
Test(plots, palette_colours_differ)
{
    int i, j;
    for (i = 0; i < MMM_PLOT_NCOLORS; i++)
        for (j = i + 1; j < MMM_PLOT_NCOLORS; j++)
            cr_assert_neq(mmm__plot_color_rgb(i), mmm__plot_color_rgb(j), "%d, %d", i, j);
}

/* ------------------------------------------------------------------ */
/* Gantt charts                                                        */

typedef struct svg_text {
    double x0, x1, y0, y1, x, y;
    char s[128];
} svg_text;

/* The <text> elements of a Gantt SVG, with their boxes: 0.6 em a
 * character (UTF-8 sequences count once), from 0.8 em above the baseline
 * to 0.25 em below it. */
static size_t svg_texts(const char *svg, svg_text *t, size_t max)
{
    size_t n = 0;
    const char *p = svg;
    while ((p = strstr(p, "<text ")) && n < max) {
        double x, y, size, w;
        char anchor[16];
        const char *gt = strchr(p, '>'), *end;
        size_t len, i, chars = 0;
        cr_assert_eq(sscanf(p, "<text x=\"%lf\" y=\"%lf\" font-size=\"%lf\" text-anchor=\"%15[a-z]\"",
                            &x, &y, &size, anchor), 4);
        end = strstr(gt, "</text>");
        len = (size_t)(end - gt - 1);
        if (len >= sizeof t[n].s)
            len = sizeof t[n].s - 1;
        memcpy(t[n].s, gt + 1, len);
        t[n].s[len] = '\0';
        for (i = 0; i < len; i++)
            chars += ((unsigned char)t[n].s[i] & 0xc0) != 0x80;
        w = 0.6 * size * (double)chars;
        t[n].x0 = !strcmp(anchor, "start") ? x : !strcmp(anchor, "middle") ? x - w / 2 : x - w;
        t[n].x1 = t[n].x0 + w;
        t[n].y0 = y - 0.8 * size;
        t[n].y1 = y + 0.25 * size;
        t[n].x = x;
        t[n].y = y;
        n++;
        p = end;
    }
    return n;
}

static void check_texts_apart(const svg_text *t, size_t n, const char *what)
{
    size_t i, j;
    for (i = 0; i < n; i++)
        for (j = i + 1; j < n; j++)
            cr_assert(!(t[i].x0 < t[j].x1 && t[j].x0 < t[i].x1 && t[i].y0 < t[j].y1 &&
                        t[j].y0 < t[i].y1),
                      "%s: '%s' at (%g, %g) overlaps '%s' at (%g, %g)", what, t[i].s,
                      t[i].x, t[i].y, t[j].s, t[j].x, t[j].y);
}

static svg_text texts[4096];

static char *gantt(const char *dir, const char *args, const char *ext)
{
    char path[512];
    snprintf(path, sizeof path, "%s/g.%s", dir, ext);
    cr_assert_eq(run("%s simulate %s --gantt %s > /dev/null", MMM_BIN, args, path), 0,
                 "%s", args);
    return slurp(path, NULL);
}

/* The four bounds within 2% of each other (poly_div_opt, n = 2^12,
 * m = 2^10 on 100 SMs: lower bound = makespan = 56784, Graham 57351.8,
 * (N/p + L)C 57919.7): their tags and every other text stay apart; 100
 * lanes get a lane axis: "SM" above, numbers at least 14 pixels apart,
 * from 0, increasing, the last lane's included. */
Test(gantt, close_bounds_and_lane_axis)
{
    char dir[256];
    char *svg;
    size_t n, i;
    double last_y = -1e9;
    int last = -1, title = 0, lanes = 0;
    mmm_tmpdir_make(dir, sizeof dir, "mmm_gantt");
    svg = gantt(dir, MMM_DAGS_DIR "/poly_div_opt.xml -D n=2^12 -D m=2^10 -p 100", "svg");
    n = svg_texts(svg, texts, 4096);
    check_texts_apart(texts, n, "p = 100");
    for (i = 0; i < n; i++) {
        char *end;
        long v;
        if (!strcmp(texts[i].s, "SM"))
            title++;
        if (texts[i].x > 116) /* the lane axis is left of the lanes (at 120) */
            continue;
        v = strtol(texts[i].s, &end, 10);
        if (*end || end == texts[i].s)
            continue;
        cr_assert_eq(v > last, 1, "lane labels in order: %ld after %d", v, last);
        if (last < 0)
            cr_assert_eq(v, 0);
        else
            cr_assert_geq(texts[i].y - last_y, 14, "lanes %d and %ld too close", last, v);
        last = (int)v;
        last_y = texts[i].y;
        lanes++;
    }
    cr_assert_eq(title, 1);
    cr_assert_eq(last, 99, "the last lane is labelled");
    cr_assert_geq(lanes, 6);
    free(svg);
    mmm_tmpdir_remove(dir);
}

/* A small schedule: every lane labelled "SM i", lanes at least 40 pixels
 * tall (the lane area is the light rectangle under the blocks), texts
 * apart. */
Test(gantt, small_schedule_is_readable)
{
    static const int ps[] = {1, 2, 4};
    char dir[256], args[512];
    size_t k;
    mmm_tmpdir_make(dir, sizeof dir, "mmm_gantt");
    for (k = 0; k < 3; k++) {
        char *svg, want[16], *bg;
        size_t n, i;
        int p = ps[k], labelled = 0;
        double h;
        snprintf(args, sizeof args, "%s/fork_join.xml -p %d", MMM_DAGS_DIR, p);
        svg = gantt(dir, args, "svg");
        n = svg_texts(svg, texts, 4096);
        check_texts_apart(texts, n, args);
        for (i = 0; i < n; i++) {
            int j;
            for (j = 0; j < p; j++) {
                snprintf(want, sizeof want, "SM %d", j);
                labelled += !strcmp(texts[i].s, want);
            }
        }
        cr_assert_eq(labelled, p, "%s: %d lane labels", args, labelled);
        bg = strstr(svg, "fill=\"#f6f6f6\"");
        cr_assert_not_null(bg);
        while (bg > svg && strncmp(bg, "<rect", 5))
            bg--;
        cr_assert_eq(sscanf(bg, "<rect x=\"%*f\" y=\"%*f\" width=\"%*f\" height=\"%lf\"", &h), 1);
        cr_assert_geq(h / p, 40, "%s: lanes of %g pixels", args, h / p);
        /* The blocks' rectangles leave white between lanes (3 pixels or
         * more), so that one kernel's blocks on neighbouring SMs do not
         * read as one bar. */
        {
            const char *q = bg + 5;
            int blocks = 0;
            while ((q = strstr(q, "<rect x=\"")) != NULL) {
                double bh;
                if (sscanf(q, "<rect x=\"%*f\" y=\"%*f\" width=\"%*f\" height=\"%lf\"",
                           &bh) == 1 && bh > 0.5 * h / p && bh < h / p + 0.01) {
                    cr_assert_leq(bh, h / p - 3, "%s: a block %g pixels high in a lane of %g",
                                  args, bh, h / p);
                    blocks++;
                }
                q += 5;
            }
            cr_assert_gt(blocks, 0, "%s: no block rectangles found", args);
        }
        free(svg);
    }
    mmm_tmpdir_remove(dir);
}

/* The time axis has one format: a schedule of 3/4 time units has ticks
 * every 0.1, all written with one decimal (the old axis wrote "0" beside
 * "0.1"). */
Test(gantt, time_axis_one_format)
{
    char dir[256], path[512];
    char *svg;
    size_t n, i;
    int ticks = 0;
    double axis_y = -1;
    FILE *f;
    mmm_tmpdir_make(dir, sizeof dir, "mmm_gantt");
    snprintf(path, sizeof path, "%s/q.xml", dir);
    f = fopen(path, "w");
    cr_assert_not_null(f);
    fputs("<program name='q'><kernel id='a' blocks='1' work='1' span='3/4' reads='0' "
          "writes='0'/></program>\n", f);
    fclose(f);
    snprintf(path, sizeof path, "%s/q.xml -p 1", dir);
    svg = gantt(dir, path, "svg");
    n = svg_texts(svg, texts, 4096);
    for (i = 0; i < n; i++)
        if (!strcmp(texts[i].s, "0.0") || !strcmp(texts[i].s, "0"))
            axis_y = texts[i].y; /* the first tick's row */
    cr_assert_geq(axis_y, 0, "no tick at 0");
    for (i = 0; i < n; i++) {
        const char *dot = strchr(texts[i].s, '.');
        if (texts[i].y != axis_y)
            continue;
        cr_assert(dot && strlen(dot + 1) == 1, "tick '%s'", texts[i].s);
        ticks++;
    }
    cr_assert_geq(ticks, 7, "0.0 to 0.7 at least");
    free(svg);
    mmm_tmpdir_remove(dir);
}

/* The time axis writes plain numbers, digits grouped by U+202F from five
 * digits on, never "10^k": the ticks of div_opt on 8 SMs (7.7·10⁷ cycles)
 * are 0, s, 2s, ... with s 1, 2 or 5 times a power of ten, apart, and the
 * title names the unit; a WfCommons graph's microseconds (runtimes of a
 * few seconds) are shown in seconds. */
static void axis_ticks(const char *args, const char *unit, double *step_out, int *nticks)
{
    char dir[256], want[96];
    char *svg;
    size_t n, i;
    double axis_y = -1, prev = -1, step = 0;
    int ticks = 0, titled = 0;
    mmm_tmpdir_make(dir, sizeof dir, "mmm_gantt");
    svg = gantt(dir, args, "svg");
    cr_assert_null(strstr(svg, "10^"), "%s: an exponent on the axis", args);
    n = svg_texts(svg, texts, 4096);
    check_texts_apart(texts, n, args);
    snprintf(want, sizeof want, "time in %s (one block takes S(B) + O(B))", unit);
    for (i = 0; i < n; i++) {
        titled += !strcmp(texts[i].s, want);
        if (!strcmp(texts[i].s, "0") && texts[i].x == 120.0)
            axis_y = texts[i].y;
    }
    cr_assert_eq(titled, 1, "%s: no title '%s'", args, want);
    cr_assert_geq(axis_y, 0, "%s: no tick 0 at the axis' start", args);
    /* the key's values in the axis's unit: "makespan 8 425.1 s" where the
     * axis is in s; a plain number where it is in cycles */
    int keyed = 0;
    for (i = 0; i < n; i++)
        if (!strncmp(texts[i].s, "makespan ", 9)) {
            size_t l = strlen(texts[i].s), u = strlen(unit);
            keyed++;
            int has = l > u + 1 && texts[i].s[l - u - 1] == ' ' &&
                      !strcmp(texts[i].s + l - u, unit);
            cr_assert_eq(has, strcmp(unit, "cycles") != 0, "%s: key '%s'", args, texts[i].s);
        }
    cr_assert_eq(keyed, 1, "%s: no makespan in the key", args);
    for (i = 0; i < n; i++) {
        char digits[96], *o = digits, *end;
        const char *q = texts[i].s;
        size_t len = 0;
        double v;
        if (texts[i].y != axis_y)
            continue;
        for (; *q && o < digits + sizeof digits - 1; q++) {
            if (!strncmp(q, "\xe2\x80\xaf", 3)) { /* a group of three follows */
                cr_assert(strlen(q + 3) >= 3, "'%s'", texts[i].s);
                q += 2;
                continue;
            }
            *o++ = *q;
            len++;
        }
        *o = 0;
        v = strtod(digits, &end);
        cr_assert(*end == 0 && end != digits, "%s: tick '%s' is not a plain number", args,
                  texts[i].s);
        cr_assert_eq(strstr(texts[i].s, "\xe2\x80\xaf") != NULL, len >= 5,
                     "%s: tick '%s' grouped wrongly", args, texts[i].s);
        if (ticks == 1)
            step = v - prev;
        else if (ticks > 1)
            cr_assert_float_eq(v - prev, step, 1e-9 * step, "%s: uneven ticks", args);
        prev = v;
        ticks++;
    }
    *step_out = step;
    *nticks = ticks;
    free(svg);
    mmm_tmpdir_remove(dir);
}

Test(gantt, time_axis_plain_numbers)
{
    double step, mant;
    int ticks;
    axis_ticks(MMM_DAGS_DIR "/cumodp/div_opt.xml -p 8", "cycles", &step, &ticks);
    mant = step / pow(10, floor(log10(step)));
    cr_assert(mant == 1 || mant == 2 || mant == 5, "step %g", step);
    cr_assert_geq(step, 1e6);
    cr_assert_geq(ticks, 4);
    axis_ticks(MMM_TEST_DATA "/import/hand/graph_v15.json -p 2", "s", &step, &ticks);
    cr_assert_geq(ticks, 4);
}

/* --gantt out.pdf, like --plot: a PDF document (header and end marker of
 * the PDF specification); another extension is a usage error naming the
 * three. */
Test(gantt, pdf)
{
    char dir[256], path[512];
    char *pdf;
    size_t len;
    if (!mmm_gantt_pdf_available())
        cr_skip_test("no pdfcairo in this build");
    mmm_tmpdir_make(dir, sizeof dir, "mmm_gantt");
    pdf = gantt(dir, MMM_DAGS_DIR "/fork_join.xml -p 3", "pdf");
    (void)pdf;
    snprintf(path, sizeof path, "%s/g.pdf", dir);
    free(pdf);
    pdf = slurp(path, &len);
    cr_assert(len > 100 && !memcmp(pdf, "%PDF-", 5));
    cr_assert(strstr(pdf + len - 32 > pdf ? pdf + len - 32 : pdf, "%%EOF"));
    free(pdf);
    cr_assert_eq(run("%s simulate %s/fork_join.xml -p 3 --gantt %s/g.jpg 2> %s/err > /dev/null",
                     MMM_BIN, MMM_DAGS_DIR, dir, dir), 2);
    snprintf(path, sizeof path, "%s/err", dir);
    pdf = slurp(path, NULL);
    cr_assert(strstr(pdf, ".svg, .png or .pdf"), "%s", pdf);
    free(pdf);
    mmm_tmpdir_remove(dir);
}

/* ------------------------------------------------------------------ */
/* The roofline (mmm/roofline.h)                                        */

/* Against a hand computation from dags/machines/h100-fitted.xml
 * (issue_per_cycle 3.67706341, warp_size 32, p 132, clock_hz 1.98e9,
 * bandwidth_bytes_per_cycle 1533.38177) and the program's attributes
 * (tests/data/roofline/stream.xml: l2_bytes_per_cycle 5000): the roofs,
 * each kernel's work, bytes and intensity exactly; its throughput is
 * its work over the time model's execution seconds; the figure is drawn. */
Test(plots, roofline_numbers)
{
    mmm_load_options lo = MMM_LOAD_OPTIONS_INIT;
    mmm_machine *m;
    mmm_program *prog;
    mmm_instance *inst;
    mmm_time t;
    mmm_roofline r;
    mmm_error err;
    char *svg;
    size_t len;
    const double peak = 3.67706341 * 32 * 132 * 1.98e9, bw = 1533.38177 * 1.98e9,
                 l2 = 5000 * 1.98e9, bytes = 1024.0 * 256 * 5 * 4;
    cr_assert_eq(mmm_machine_load_file(&m, MMM_DAGS_DIR "/machines/h100-fitted.xml",
                                       &lo.limits, &err), 0, "%s", err.message);
    lo.machine = m;
    cr_assert_eq(mmm_program_load_file(&prog, MMM_TEST_DATA "/roofline/stream.xml", &lo,
                                       &err), 0, "%s", err.message);
    cr_assert_eq(mmm_instance_new(&inst, prog, &err), 0, "%s", err.message);
    cr_assert_eq(mmm_instance_eval(inst, NULL, 0, &err), 0, "%s", err.message);
    cr_assert_eq(mmm_time_compute(&t, inst, NULL, &err), 0, "%s", err.message);
    cr_assert_eq(mmm_roofline_compute(&r, &t, inst, &err), 0, "%s", err.message);
    cr_assert_float_eq(r.peak_ops_per_s, peak, 1e-9 * peak);
    cr_assert_float_eq(r.dram_bytes_per_s, bw, 1e-9 * bw);
    cr_assert_float_eq(r.l2_bytes_per_s, l2, 1e-9 * l2);
    cr_assert_float_eq(r.ridge, peak / bw, 1e-9 * peak / bw);
    cr_assert_eq(r.nkernels, 2);
    cr_assert_eq(r.nskipped, 0);
    cr_assert_eq(r.kernels[0].work, 1024.0 * 256 * 10);
    cr_assert_eq(r.kernels[0].dram_bytes, bytes);
    cr_assert_eq(r.kernels[0].l2_bytes, bytes, "no L2 modelled: every byte both");
    cr_assert_eq(r.kernels[0].intensity, 0.5);
    cr_assert_eq(r.kernels[1].intensity, 20.0);
    cr_assert_eq(r.kernels[0].throughput, r.kernels[0].work / t.kernels[0].exec_seconds);
    /* copy: 0.5 op/byte, under the DRAM roof (0.5 bw < peak); heavy: 20
     * op/byte, past the ridge peak / bw = 10.1: under the compute roof */
    cr_assert_eq(r.kernels[0].bound, MMM_ROOFLINE_DRAM);
    cr_assert_float_eq(r.kernels[0].roof, 0.5 * bw, 1e-9 * bw);
    cr_assert_eq(r.kernels[1].bound, MMM_ROOFLINE_COMPUTE);
    cr_assert_float_eq(r.kernels[1].roof, peak, 1e-9 * peak);
    cr_assert_leq(r.kernels[0].fraction, 1 + 1e-12, "the model never beats a roof");
    cr_assert_leq(r.kernels[1].fraction, 1 + 1e-12);
    cr_assert_eq(mmm_roofline_plot_svg(&r, prog, NULL, &svg, &len, &err), 0, "%s",
                 err.message);
    cr_assert(len > 0 && strstr(svg, "</svg>"));
    free(svg);
    if (getenv("MMM_ROOFLINE_PNG"))
        cr_assert_eq(mmm_roofline_plot_write(&r, prog, NULL, getenv("MMM_ROOFLINE_PNG"), &err),
                     0, "%s", err.message);
    mmm_roofline_dispose(&r);
    mmm_time_dispose(&t);
    mmm_instance_free(inst);
    mmm_program_free(prog);
    mmm_machine_free(m);
}

/* mmm fit --plot: a report of 3 runs of two programs drawn (the picture
 * itself looked at: docs/img/fit_cumodp.png); a report without runs
 * refused. */
Test(plots, fit_plot)
{
    static const char csv[] = "program,time_s\nd,0.001\nd,0.002\nd,0.01\n";
    mmm_load_options lo = MMM_LOAD_OPTIONS_INIT;
    mmm_program *a, *b;
    mmm_runs *runs;
    mmm_error err;
    double predicted[3] = {0.0011, 0.0018, 0.012};
    mmm_fit_result res = {.predicted = predicted, .median_rel_error = 0.1,
                          .max_rel_error = 0.2};
    char dir[256], path[300], *svg;
    size_t len;
    cr_assert_eq(mmm_program_load_file(&a, MMM_DAGS_DIR "/diamond.xml", &lo, &err), 0);
    cr_assert_eq(mmm_program_load_file(&b, MMM_DAGS_DIR "/fork_join.xml", &lo, &err), 0);
    cr_assert_eq(mmm_runs_read_memory(&runs, csv, strlen(csv), "runs.csv", 0, &err), 0,
                 "%s", err.message);
    mmm_fit_run fr[3] = {{runs, 0, a}, {runs, 1, b}, {runs, 2, a}};
    mmm_fit_report rep = {NULL, NULL, &res, fr, 3, 2, NULL};
    mmm_tmpdir_make(dir, sizeof dir, "mmm_fitplot");
    snprintf(path, sizeof path, "%s/fit.svg", dir);
    cr_assert_eq(mmm_fit_plot_write(&rep, path, &err), 0, "%s", err.message);
    svg = slurp(path, &len);
    cr_assert_not_null(svg);
    cr_expect_not_null(strstr(svg, "<svg"));
    cr_expect_not_null(strstr(svg, "</svg>"));
    free(svg);
    rep.nruns = 0;
    cr_expect_eq(mmm_fit_plot_write(&rep, path, &err), MMM_EINVAL);
    mmm_tmpdir_remove(dir);
    mmm_runs_free(runs);
    mmm_program_free(a);
    mmm_program_free(b);
}
