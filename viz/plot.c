/* plot.c: line plots with PLplot, and the streaming decimation of curves.
 * The page is set up and written (atomically into a file, or into memory)
 * by plstream.c. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "mmm/plot.h"
#include "figure_int.h"
#include "plstream.h"
#include "util/grow.h"
#include "util/path.h"

/* ------------------------------------------------------------------ */
/* Curves and decimation (no PLplot needed). */

int mmm_plot_curve_init(mmm_plot_curve *c, const char *label,
                        uint64_t expected, size_t max_points)
{
    uint64_t buckets;
    memset(c, 0, sizeof *c);
    c->label = label;
    if (max_points < 8)
        max_points = MMM_PLOT_DEFAULT_MAX_POINTS;
    /* A bucket emits at most 4 points (first, min, max, last). */
    buckets = max_points / 4;
    c->bucket = expected <= max_points ? 1 : (expected + buckets - 1) / buckets;
    c->markers = expected <= 60;
    return MMM_OK;
}

static int push(mmm_plot_curve *c, double x, double y)
{
    if (mmm__grow2(&c->x, &c->y, &c->cap, c->n + 1, sizeof *c->x, sizeof *c->y,
                   256) < 0)
        return MMM_ENOMEM;
    c->x[c->n] = x;
    c->y[c->n] = y;
    c->n++;
    return MMM_OK;
}

/* A break in the line, never two in a row nor at the start. */
static int push_gap(mmm_plot_curve *c)
{
    if (c->n == 0 || isnan(c->y[c->n - 1]))
        return MMM_OK;
    return push(c, c->x[c->n - 1], NAN);
}

static int keep_cmp(const void *a, const void *b)
{
    const mmm_plot_keep_ *p = a, *q = b;
    return (p->i > q->i) - (p->i < q->i);
}

/* Emit the kept points of the bucket in input order, with breaks where the
 * bucket had infeasible points (approximately: between the kept points
 * whose index range meets the NaNs'). */
static int flush_bucket(mmm_plot_curve *c)
{
    mmm_plot_keep_ k[4];
    size_t nk = 0, j;
    int rc = MMM_OK;
    const mmm_plot_keep_ *all[4] = {&c->first, &c->lo, &c->hi, &c->last};

    for (j = 0; j < 4; j++)
        if (all[j]->set)
            k[nk++] = *all[j];
    qsort(k, nk, sizeof k[0], keep_cmp);
    if (nk == 0 && c->gap)
        rc = push_gap(c);
    for (j = 0; j < nk && rc == MMM_OK; j++) {
        if (j > 0 && k[j].i == k[j - 1].i)
            continue;
        if (c->gap && (j == 0 ? c->gap_lo < k[j].i
                              : c->gap_lo < k[j].i && c->gap_hi > k[j - 1].i))
            rc = push_gap(c);
        if (rc == MMM_OK)
            rc = push(c, k[j].x, k[j].y);
    }
    if (rc == MMM_OK && nk > 0 && c->gap && c->gap_hi > k[nk - 1].i)
        rc = push_gap(c);
    c->first.set = c->lo.set = c->hi.set = c->last.set = 0;
    c->gap = 0;
    return rc;
}

int mmm_plot_curve_add(mmm_plot_curve *c, double x, double y)
{
    uint64_t i = c->seen++;
    mmm_plot_keep_ p;
    if (c->bucket <= 1)
        return isnan(y) ? push_gap(c) : push(c, x, y);
    p.x = x;
    p.y = y;
    p.i = i;
    p.set = 1;
    if (isnan(y)) {
        if (!c->gap)
            c->gap_lo = i;
        c->gap_hi = i;
        c->gap = 1;
    } else {
        if (!c->first.set)
            c->first = p;
        if (!c->lo.set || y < c->lo.y)
            c->lo = p;
        if (!c->hi.set || y > c->hi.y)
            c->hi = p;
        c->last = p;
    }
    if (c->seen % c->bucket == 0)
        return flush_bucket(c);
    return MMM_OK;
}

int mmm_plot_curve_finish(mmm_plot_curve *c)
{
    if (c->bucket <= 1)
        return MMM_OK;
    return flush_bucket(c);
}

void mmm_plot_curve_dispose(mmm_plot_curve *c)
{
    free(c->x);
    free(c->y);
    c->x = c->y = NULL;
    c->n = c->cap = 0;
}

#ifndef MMM_HAVE_PLPLOT

int mmm_plot_available(void)
{
    return 0;
}

int mmm_plot_write(const mmm_plot *plot, const char *path, mmm_error *err)
{
    (void)plot;
        return mmm_error_set(err, MMM_EINVAL, path, 0,
                         "this mmm was built without PLplot: plots are not "
                         "available (install libplplot-dev and rebuild)");
}

int mmm__plot_svg(const mmm_plot *plot, char **out, size_t *len, mmm_error *err)
{
    (void)plot;
    *out = NULL;
    *len = 0;
    return mmm_error_set(err, MMM_EINVAL, NULL, 0,
                         "this mmm was built without PLplot: plots are not "
                         "available (install libplplot-dev and rebuild)");
}

#else

#include <plplot.h>

int mmm_plot_available(void)
{
    return 1;
}

/* Colour map 0: 0 background, 1 ink, 2..9 the Okabe–Ito palette (safe
 * for colour-blind readers), its yellow replaced by grey (unreadable on
 * white), 10 grid, 11 secondary text. */
#define INK 1
#define PALETTE0 2
/* A filled circle, centred on the point by plstring. */
#define MARKER "\xe2\x97\x8f"
/* Text size relative to PLplot's default for the page. */
#define CHAR_SCALE 0.75
#define GRID 10
#define MUTED 11

static void set_colours(void)
{
    static const int rgb[12][3] = {
        {255, 255, 255}, {0, 0, 0},
        {0, 114, 178},   {213, 94, 0},  {0, 158, 115}, {204, 121, 167},
        {230, 159, 0},   {86, 180, 233}, {0, 0, 0},    {128, 128, 128},
        {225, 225, 225}, {90, 90, 90}};
    int i;
    plscmap0n(16);
    for (i = 0; i < 12; i++)
        plscol0(i, rgb[i][0], rgb[i][1], rgb[i][2]);
}

static void set_line(mmm_plot_line line)
{
    /* Lengths in micrometres of the page. */
    static PLINT dash_mark[] = {5000}, dash_space[] = {3000};
    static PLINT dot_mark[] = {1200}, dot_space[] = {1800};
    if (line == MMM_PLOT_DASHED)
        plstyl(1, dash_mark, dash_space);
    else if (line == MMM_PLOT_DOTTED)
        plstyl(1, dot_mark, dot_space);
    else
        plstyl(0, NULL, NULL);
}

/* Is v drawable on an axis with this scale? */
static int usable(double v, int logscale)
{
    return isfinite(v) && (!logscale || v > 0);
}

static double tr(double v, int logscale)
{
    return logscale ? log10(v) : v;
}

/* Range of the finite (positive when pos) x or y values of some curves. */
static int data_range(const mmm_plot_curve *cs, size_t nc, int want_y,
                      int pos, double *lo, double *hi)
{
    size_t i, j;
    int any = 0;
    for (i = 0; i < nc; i++)
        for (j = 0; j < cs[i].n; j++) {
            double v = want_y ? cs[i].y[j] : cs[i].x[j];
            if (isnan(cs[i].y[j]) || !usable(v, pos))
                continue;
            if (!any || v < *lo)
                *lo = v;
            if (!any || v > *hi)
                *hi = v;
            any = 1;
        }
    return any;
}

static int pick_log(mmm_plot_scale s, const mmm_plot_curve *cs, size_t nc,
                    int want_y)
{
    double lo = 0, hi = 0, plo = 0, phi = 0;
    if (s != MMM_PLOT_AUTO)
        return s == MMM_PLOT_LOG;
    if (!data_range(cs, nc, want_y, 0, &lo, &hi) || lo <= 0)
        return 0;
    (void)data_range(cs, nc, want_y, 1, &plo, &phi);
    return phi / plo >= 10;
}

/* Window limits: the data range in plot coordinates, padded. */
static void window(double lo, double hi, int logscale, double pad,
                   double *wlo, double *whi)
{
    double a = tr(lo, logscale), b = tr(hi, logscale), d;
    if (b - a <= 1e-12 * fmax(fabs(a), 1)) {
        d = logscale ? 0.5 : fmax(fabs(a) * 0.1, 1);
        a -= d;
        b += d;
    }
    d = (b - a) * pad;
    *wlo = a - d;
    *whi = b + d;
}

/* Draw one curve: runs of usable points as lines, lone points as dots. */
static void draw_curve(const mmm_plot_curve *c, int logx, int logy)
{
    PLFLT *x = malloc((c->n ? c->n : 1) * sizeof *x);
    PLFLT *y = malloc((c->n ? c->n : 1) * sizeof *y);
    size_t j = 0;
    if (!x || !y) {
        free(x);
        free(y);
        return;
    }
    plcol0(PALETTE0 + (c->color & 7));
    plwidth(2.2);
    set_line(c->line);
    while (j < c->n) {
        PLINT m = 0;
        while (j < c->n && !(usable(c->y[j], logy) && usable(c->x[j], logx)))
            j++;
        while (j < c->n && usable(c->y[j], logy) && usable(c->x[j], logx)) {
            x[m] = tr(c->x[j], logx);
            y[m] = tr(c->y[j], logy);
            m++;
            j++;
        }
        if (m > 1)
            plline(m, x, y);
        if (m == 1 || (m > 0 && c->markers)) {
            set_line(MMM_PLOT_SOLID);
            plssym(0, 0.75);
            plstring(m, x, y, MARKER); /* filled circle */
            set_line(c->line);
        }
    }
    set_line(MMM_PLOT_SOLID);
    free(x);
    free(y);
}

static PLINT legend_style(mmm_plot_line l)
{
    /* pllegend takes pllsty numbers: 1 solid, 2 short dashes, 8 dots. */
    return l == MMM_PLOT_DASHED ? 3 : l == MMM_PLOT_DOTTED ? 2 : 1;
}

#define MAX_LEGEND 24

static void draw_legend(const mmm_plot_panel *pan, const mmm_plot *plot,
                        int with_marks)
{
    PLINT opt[MAX_LEGEND], tcol[MAX_LEGEND], lcol[MAX_LEGEND],
        lsty[MAX_LEGEND], scol[MAX_LEGEND], snum[MAX_LEGEND];
    PLFLT lwid[MAX_LEGEND], sscale[MAX_LEGEND];
    const char *text[MAX_LEGEND], *sym[MAX_LEGEND];
    PLFLT w, h;
    PLINT n = 0;
    size_t i;

    for (i = 0; i < pan->ncurves && n < MAX_LEGEND; i++, n++) {
        const mmm_plot_curve *c = &pan->curves[i];
        opt[n] = PL_LEGEND_LINE | (c->markers ? PL_LEGEND_SYMBOL : 0);
        text[n] = c->label ? c->label : "";
        lcol[n] = scol[n] = PALETTE0 + (c->color & 7);
        lsty[n] = legend_style(c->line);
        lwid[n] = 2.2;
        sym[n] = MARKER;
        sscale[n] = 0.75;
        snum[n] = 1;
        tcol[n] = INK;
    }
    for (i = 0; with_marks && i < plot->nmarks && n < MAX_LEGEND; i++, n++) {
        const mmm_plot_mark *mk = &plot->marks[i];
        opt[n] = PL_LEGEND_LINE;
        text[n] = mk->label ? mk->label : "";
        lcol[n] = scol[n] = PALETTE0 + (mk->color & 7);
        lsty[n] = legend_style(mk->line);
        lwid[n] = 1.6;
        sym[n] = "";
        sscale[n] = 1;
        snum[n] = 0;
        tcol[n] = INK;
    }
    if (n == 0)
        return;
    plwidth(1.0);
    plschr(0, 0.95 * CHAR_SCALE);
    pllegend(&w, &h, PL_LEGEND_BACKGROUND | PL_LEGEND_BOUNDING_BOX,
             PL_POSITION_RIGHT | PL_POSITION_OUTSIDE,
             0.02, 0.0, 0.05, 0, GRID, 1, 0, 0, n, opt, 0.8, 0.8, 2.0, 0.0,
             tcol, text, NULL, NULL, NULL, NULL, lcol, lsty, lwid, scol,
             sscale, snum, sym);
    plschr(0, CHAR_SCALE);
}

/* Labels of a log axis.  PLplot labels decades only (10^0, 10^1), which
 * says little over a short range and crowds a long one: over up to about
 * three decades label 1, 2, 5, 10, 20, 50... (at PLplot's minor ticks),
 * over more every decade, or every second or third past eight.  Short
 * ranges of moderate numbers are written plainly, others as 10^k.
 * side is "b" (x axis) or "lv" (y axis). */
static void log_labels(const char *side, double wlo, double whi)
{
    static const double mant[] = {1, 2, 5};
    double span = whi - wlo;
    int dense = span <= 3.2;
    int step = span > 8 ? (int)ceil(span / 7) : 1;
    int plain = floor(wlo) >= -3 && ceil(whi) <= 5;
    int k, j;
    for (k = (int)floor(wlo); k <= (int)ceil(whi); k++)
        for (j = 0; j < (dense ? 3 : 1); j++) {
            double v = mant[j] * pow(10, k), lv = log10(v);
            char buf[32];
            if (lv < wlo - 1e-9 || lv > whi + 1e-9 || (j == 0 && k % step != 0))
                continue;
            if (plain || j > 0)
                snprintf(buf, sizeof buf, "%g", v);
            else
                snprintf(buf, sizeof buf, "10#u%d#d", k);
            if (side[0] == 'b')
                plmtex(side, 1.6, (lv - wlo) / span, 0.5, buf);
            else
                plmtex(side, 0.6, (lv - wlo) / span, 1.0, buf);
        }
}

/* Geometry of the page in normalized subpage coordinates. */
#define LEFT 0.095
#define RIGHT 0.64
#define TOP 0.90
#define BOTTOM 0.085
#define GAP 0.045

static void draw_panel(const mmm_plot *plot, size_t k, double xlo, double xhi,
                       int logx)
{
    const mmm_plot_panel *pan = &plot->panels[k];
    double h = (TOP - BOTTOM - GAP * (double)(plot->npanels - 1)) /
               (double)plot->npanels;
    double top = TOP - (double)k * (h + GAP);
    int logy = pick_log(pan->yscale, pan->curves, pan->ncurves, 1);
    int last = k + 1 == plot->npanels;
    double lo = 1, hi = 1, ylo, yhi;
    char xopt[16], yopt[16];
    size_t i;

    if (!data_range(pan->curves, pan->ncurves, 1, logy, &lo, &hi))
        lo = hi = logy ? 1 : 0;
    window(lo, hi, logy, 0.06, &ylo, &yhi);
    plvpor(LEFT, RIGHT, top - h, top);
    plwind(xlo, xhi, ylo, yhi);

    /* Grid first, in light grey, under everything. */
    plcol0(GRID);
    plwidth(0.8);
    snprintf(xopt, sizeof xopt, "g%s", logx ? "l" : "");
    snprintf(yopt, sizeof yopt, "g%s", logy ? "l" : "");
    plbox(xopt, 0, 0, yopt, 0, 0);

    for (i = 0; i < pan->ncurves; i++)
        draw_curve(&pan->curves[i], logx, logy);
    for (i = 0; i < plot->nmarks; i++) {
        const mmm_plot_mark *mk = &plot->marks[i];
        if (!usable(mk->x, logx))
            continue;
        plcol0(PALETTE0 + (mk->color & 7));
        plwidth(1.6);
        set_line(mk->line);
        pljoin(tr(mk->x, logx), ylo, tr(mk->x, logx), yhi);
        set_line(MMM_PLOT_SOLID);
    }

    plcol0(INK);
    plwidth(1.0);
    snprintf(xopt, sizeof xopt, "bcst%s%s", last && !logx ? "n" : "",
             logx ? "l" : "");
    snprintf(yopt, sizeof yopt, "bcst%s", logy ? "l" : "nv");
    plbox(xopt, 0, 0, yopt, 0, 0);
    if (logy)
        log_labels("lv", ylo, yhi);
    if (last && logx)
        log_labels("b", xlo, xhi);
    if (pan->ylabel)
        plmtex("l", 5.2, 0.5, 0.5, pan->ylabel);
    if (last && plot->xlabel)
        plmtex("b", 3.3, 0.5, 0.5, plot->xlabel);
    if (k == 0) {
        if (plot->title) {
            plschr(0, 1.25 * CHAR_SCALE);
            plmtex("t", plot->subtitle ? 3.0 : 1.6, 0.5, 0.5, plot->title);
            plschr(0, CHAR_SCALE);
        }
        if (plot->subtitle) {
            plcol0(MUTED);
            plschr(0, 0.9 * CHAR_SCALE);
            plmtex("t", 1.3, 0.5, 0.5, plot->subtitle);
            plschr(0, CHAR_SCALE);
            plcol0(INK);
        }
    }
    draw_legend(pan, plot, k == 0);
}

/* The x range is common to the panels: log only when every panel's x
 * values suit it, the window spans all of them. */
static void x_window(const mmm_plot *plot, int *logx, double *wxlo,
                     double *wxhi)
{
    double xlo = 0, xhi = 1;
    int first = 1;
    size_t k;
    *logx = 1;
    for (k = 0; k < plot->npanels; k++)
        *logx = *logx && pick_log(plot->xscale, plot->panels[k].curves,
                                  plot->panels[k].ncurves, 0);
    for (k = 0; k < plot->npanels; k++) {
        double a, b;
        if (!data_range(plot->panels[k].curves, plot->panels[k].ncurves, 0,
                        *logx, &a, &b))
            continue;
        if (first || a < xlo)
            xlo = a;
        if (first || b > xhi)
            xhi = b;
        first = 0;
    }
    if (first) {
        xlo = *logx ? 1 : 0;
        xhi = *logx ? 10 : 1;
    }
    window(xlo, xhi, *logx, 0.03, wxlo, wxhi);
}

typedef struct page {
    const mmm_plot *plot;
    double wxlo, wxhi;
    int logx;
} page;

static void setup(void *payload)
{
    (void)payload;
    set_colours();
}

static void draw(void *payload)
{
    const page *pg = payload;
    size_t k;
    plschr(0, CHAR_SCALE);
    for (k = 0; k < pg->plot->npanels; k++)
        draw_panel(pg->plot, k, pg->wxlo, pg->wxhi, pg->logx);
}

/* The device for a format: cairo's SVG draws the text as outlines, so it
 * looks exactly like the PNG whatever fonts the viewer has; PLplot's own
 * svg device (no extra package) is the fallback. */
static const char *device(const char *ext)
{
    if (!strcasecmp(ext, "svg"))
        return mmm__pl_have_device("svgcairo") ? "svgcairo" : "svg";
    if (!strcasecmp(ext, "png"))
        return "pngcairo";
    if (!strcasecmp(ext, "pdf"))
        return "pdfcairo";
    return NULL;
}

static void page_init(mmm__pl_page *pp, page *pg, const mmm_plot *plot, const char *dev)
{
    pg->plot = plot;
    x_window(plot, &pg->logx, &pg->wxlo, &pg->wxhi);
    memset(pp, 0, sizeof *pp);
    pp->dev = dev;
    pp->width = 1300;
    pp->height = 240 + 340 * (int)plot->npanels;
    pp->setup = setup;
    pp->draw = draw;
    pp->payload = pg;
}

int mmm_plot_write(const mmm_plot *plot, const char *path, mmm_error *err)
{
    const char *ext = mmm__path_extension(path);
    const char *dev = device(ext);
    mmm__pl_page pp;
    page pg;

    if (!dev)
        return mmm_error_set(err, MMM_EINVAL, path, 0,
                             "unknown plot format '.%s': use .svg, .png or .pdf",
                             ext);
    if (plot->npanels == 0)
        return mmm_error_set(err, MMM_EINVAL, path, 0, "nothing to plot");
    page_init(&pp, &pg, plot, dev);
    return mmm__pl_write_file(&pp, path, err);
}

int mmm__plot_svg(const mmm_plot *plot, char **out, size_t *len, mmm_error *err)
{
    mmm__pl_page pp;
    page pg;
    *out = NULL;
    *len = 0;
    if (plot->npanels == 0)
        return mmm_error_set(err, MMM_EINVAL, NULL, 0, "nothing to plot");
    page_init(&pp, &pg, plot, device("svg"));
    return mmm__pl_write_memory(&pp, out, len, err);
}

#endif
