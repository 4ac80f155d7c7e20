/* plot.c: line plots with PLplot: axes and their tick labels, panels,
 * curves, bands, marks and legends.  The curves and their decimation are
 * in plot_curve.c; the page is set up and written (atomically into a file,
 * or into memory) by plstream.c. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "mmm/plot.h"
#include "figure_int.h"
#include "plot_int.h"
#include "plstream.h"
#include "base/path.h"

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
    return mmm__plot_layout_svg(plot, NULL, out, len, err);
}

unsigned mmm__plot_color_rgb(int c)
{
    (void)c;
    return 0;
}

int mmm__plot_layout_svg(const mmm_plot *plot, mmm__plot_layout *rec, char **out,
                         size_t *len, mmm_error *err)
{
    (void)plot;
    (void)rec;
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

/* Colour map 0: 0 background, 1 ink, PALETTE0.. the curves' palette (the
 * Okabe–Ito colours, safe for colour-blind readers, its yellow replaced by
 * grey, then five of Paul Tol's, so that a grid sweep's ten curves and its
 * best one all differ), then the grid, secondary text and a scratch slot
 * for translucent fills. */
#define INK 1
#define PALETTE0 2
#define NPAL MMM_PLOT_NCOLORS
#define GRID (PALETTE0 + NPAL)
#define MUTED (GRID + 1)
#define SCRATCH (GRID + 2)
#define SHADE (GRID + 3)
/* A filled circle and a down-pointing triangle, centred by plstring. */
#define MARKER "\xe2\x97\x8f"
#define TRIANGLE "\xe2\x96\xbc"
/* Text size relative to PLplot's default for the page. */
#define CHAR_SCALE 0.75
/* Width of a digit in character heights (DejaVu Sans through cairo; a
 * little generous, so that estimated boxes contain the drawn ones). */
#define CHAR_W 0.9

static const int palette_rgb[NPAL][3] = {
    {0, 114, 178},  {213, 94, 0},   {0, 158, 115}, {204, 121, 167},
    {230, 159, 0},  {86, 180, 233}, {0, 0, 0},     {128, 128, 128},
    {136, 34, 85},  {153, 153, 51}, {51, 34, 136}, {68, 170, 153},
    {140, 81, 10}};

static int pal(int c)
{
    return ((c % NPAL) + NPAL) % NPAL;
}

unsigned mmm__plot_color_rgb(int c)
{
    const int *v = palette_rgb[pal(c)];
    return (unsigned)(v[0] << 16 | v[1] << 8 | v[2]);
}

static void set_colours(void)
{
    int i;
    plscmap0n(32);
    plscol0(0, 255, 255, 255);
    plscol0(INK, 0, 0, 0);
    for (i = 0; i < NPAL; i++)
        plscol0(PALETTE0 + i, palette_rgb[i][0], palette_rgb[i][1], palette_rgb[i][2]);
    plscol0(GRID, 225, 225, 225);
    plscol0(MUTED, 90, 90, 90);
    plscol0(SHADE, 232, 232, 232);
    {
        /* colour map 1: viridis (perceptually uniform, colour-blind safe) */
        static PLFLT pos[] = {0, 0.25, 0.5, 0.75, 1};
        static PLFLT r[] = {68 / 255., 59 / 255., 33 / 255., 94 / 255., 253 / 255.};
        static PLFLT g[] = {1 / 255., 82 / 255., 145 / 255., 201 / 255., 231 / 255.};
        static PLFLT b[] = {84 / 255., 139 / 255., 140 / 255., 98 / 255., 37 / 255.};
        plscmap1n(256);
        plscmap1l(1, 5, pos, r, g, b, NULL);
    }
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

/* The runs of a curve: does it draw a line (two usable points in a row)
 * and lone points (drawn as dots)? */
static void curve_shape(const mmm_plot_curve *c, int logx, int logy, int *line,
                        int *dots)
{
    size_t j = 0;
    *line = *dots = 0;
    while (j < c->n) {
        size_t m = 0;
        while (j < c->n && !(usable(c->y[j], logy) && usable(c->x[j], logx)))
            j++;
        while (j < c->n && usable(c->y[j], logy) && usable(c->x[j], logx)) {
            m++;
            j++;
        }
        if (m > 1)
            *line = 1;
        else if (m == 1)
            *dots = 1;
    }
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
    plcol0(PALETTE0 + pal(c->color));
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
            plssym(0, 0.5);
            plstring(m, x, y, MARKER); /* filled circle */
            set_line(c->line);
        }
    }
    set_line(MMM_PLOT_SOLID);
    free(x);
    free(y);
}

/* The band between curve c and curve c->band_with - 1 (same x values, in
 * the same order), filled lightly in c's colour. */
static void draw_band(const mmm_plot_curve *a, const mmm_plot_curve *b, int logx,
                      int logy)
{
    size_t n = a->n < b->n ? a->n : b->n, j, m = 0;
    const int *rgb = palette_rgb[pal(a->color)];
    PLFLT *x = malloc((2 * n + 1) * sizeof *x), *y = malloc((2 * n + 1) * sizeof *y);
    if (!x || !y) {
        free(x);
        free(y);
        return;
    }
    for (j = 0; j < n; j++)
        if (usable(a->x[j], logx) && usable(a->y[j], logy) && usable(b->y[j], logy)) {
            x[m] = tr(a->x[j], logx);
            y[m++] = tr(a->y[j], logy);
        }
    for (j = n; j-- > 0;)
        if (usable(a->x[j], logx) && usable(a->y[j], logy) && usable(b->y[j], logy)) {
            x[m] = tr(b->x[j], logx);
            y[m++] = tr(b->y[j], logy);
        }
    if (m >= 4) {
        plscol0a(SCRATCH, rgb[0], rgb[1], rgb[2], 0.16);
        plcol0(SCRATCH);
        plfill((PLINT)m, x, y);
    }
    free(x);
    free(y);
}

static PLINT legend_style(mmm_plot_line l)
{
    /* pllegend takes pllsty numbers: 1 solid, 2 short dashes, 8 dots. */
    return l == MMM_PLOT_DASHED ? 3 : l == MMM_PLOT_DOTTED ? 2 : 1;
}

#define MAX_LEGEND 24

/* ------------------------------------------------------------------ */
/* Tick labels: one format per axis                                    */

#define MAX_TICKS 64

typedef struct axis {
    int logscale;
    double wlo, whi;      /* window, in plot coordinates */
    double step;          /* linear: the tick step (0: PLplot's) */
    int exp10;            /* linear: labels in units of 10^exp10 */
    int n;
    double at[MAX_TICKS]; /* plot coordinates */
    char text[MAX_TICKS][40];
    double width;         /* widest label, in character heights */
    int maxn;             /* labels that fit along the axis */
} axis;

/* Width of a label in character heights: escapes (#u, #d) take no room,
 * superscripts three quarters, a UTF-8 sequence one character. */
static double text_width(const char *s)
{
    double w = 0, scale = 1;
    for (; *s; s++) {
        if (s[0] == '#' && (s[1] == 'u' || s[1] == 'd')) {
            scale = s[1] == 'u' ? 0.75 : 1;
            s++;
            continue;
        }
        if (((unsigned char)*s & 0xc0) == 0x80)
            continue;
        w += CHAR_W * scale;
    }
    return w;
}

static void axis_add(axis *a, double at, const char *text)
{
    double w;
    if (a->n == MAX_TICKS)
        return;
    a->at[a->n] = at;
    snprintf(a->text[a->n], sizeof a->text[a->n], "%s", text);
    w = text_width(text);
    if (w > a->width)
        a->width = w;
    a->n++;
}

static double nice_step(double range, double ticks)
{
    double raw = range / ticks, mag, f;
    if (!(raw > 0) || !isfinite(raw))
        return 1.0;
    mag = pow(10.0, floor(log10(raw)));
    f = raw / mag;
    return (f < 1.5 ? 1.0 : f < 3.5 ? 2.0 : f < 7.5 ? 5.0 : 10.0) * mag;
}

/* A linear axis: about six ticks at multiples of 1, 2 or 5 times a power
 * of ten, written with the same number of decimals; past 10^5 (or below
 * 10^-3) in units of a power of ten said once in the axis title. */
static void linear_labels(axis *a)
{
    double maxabs = fmax(fabs(a->wlo), fabs(a->whi)), unit, t;
    int dec, i, i0;
    a->step = nice_step(a->whi - a->wlo, a->maxn < 6 ? a->maxn : 6);
    a->exp10 = maxabs >= 1e5 || (maxabs > 0 && maxabs < 1e-3)
                   ? (int)floor(log10(maxabs)) : 0;
    unit = pow(10.0, a->exp10);
    dec = (int)-floor(log10(a->step / unit) + 1e-9);
    dec = dec < 0 ? 0 : dec > 8 ? 8 : dec;
    i0 = (int)ceil(a->wlo / a->step - 1e-9);
    for (i = i0; (t = i * a->step) <= a->whi + 1e-9 * a->step && a->n < MAX_TICKS; i++) {
        char buf[40];
        double v = t / unit;
        if (fabs(v) < 1e-12)
            v = 0; /* never "-0" */
        snprintf(buf, sizeof buf, "%.*f", dec, v);
        axis_add(a, t, buf);
    }
}

/* A label of a log axis at value v = m·10^k: plain numbers over short
 * ranges of moderate numbers, otherwise powers of ten (2×10^6 beside
 * 10^6), so that every label of an axis has the same form. */
static void log_label(axis *a, double v, int plain)
{
    char buf[40];
    int k = (int)floor(log10(v) + 1e-9);
    double m = v / pow(10, k);
    if (plain)
        snprintf(buf, sizeof buf, "%.6g", v);
    else if (fabs(m - 1) < 1e-9)
        snprintf(buf, sizeof buf, "10#u%d#d", k);
    else
        snprintf(buf, sizeof buf, "%.3g\xc3\x97" "10#u%d#d", m, k);
    axis_add(a, log10(v), buf);
}

/* Labels of a log axis at m·10^k for the mantissas m (every step-th
 * decade for m = 1 alone); with count set, only count them. */
static int log_set(axis *a, const double *mant, int nm, int step, int plain, int count)
{
    int k, j, n = 0;
    for (k = (int)floor(a->wlo) - 1; k <= (int)ceil(a->whi); k++)
        for (j = 0; j < nm; j++) {
            double v = mant[j] * pow(10, k), lv = log10(v);
            if (lv < a->wlo - 1e-9 || lv > a->whi + 1e-9 || (nm == 1 && k % step != 0))
                continue;
            n++;
            if (!count)
                log_label(a, v, plain);
        }
    return n;
}

/* A log axis.  PLplot labels decades only (10^0, 10^1), which says little
 * over a short range and crowds a long one.  Over four decades or more:
 * every decade, or every second or third past eight.  Over less: 1, 2,
 * 5, 10, 20, 50... when they fit, else the decades; 1, 2, 3, ... 9 times
 * a power of ten when 1, 2, 5 give fewer than three labels; within less
 * than a factor two of one value, evenly spaced values as on a linear
 * axis.  At least two labels on every axis. */
static void log_labels(axis *a)
{
    static const double one[] = {1}, m125[] = {1, 2, 5},
                        m19[] = {1, 2, 3, 4, 5, 6, 7, 8, 9};
    double span = a->whi - a->wlo;
    int fit = a->maxn < 8 ? a->maxn : 8; /* decades labelled at most */
    int step = span + 1 > fit ? (int)ceil((span + 1) / fit) : 1;
    int plain = floor(a->wlo) >= -3 && ceil(a->whi) <= 5;
    int ndec = log_set(a, one, 1, 1, plain, 1);
    int n125 = log_set(a, m125, 3, 1, plain, 1);
    int n19 = log_set(a, m19, 9, 1, plain, 1);
    if (ndec >= 4 || (ndec >= 2 && n125 > a->maxn)) {
        log_set(a, one, 1, step, plain, 0);
    } else if (n125 >= 3 && n125 <= a->maxn) {
        log_set(a, m125, 3, 1, plain, 0);
    } else if (n19 >= 2 && n19 <= a->maxn) {
        log_set(a, m19, 9, 1, plain, 0);
    } else if (n125 >= 2) {
        log_set(a, m125, 3, 1, plain, 0);
    } else {
        /* a narrow range: nice steps of the values themselves */
        double lo = pow(10, a->wlo), hi = pow(10, a->whi), t;
        double st = nice_step(hi - lo, a->maxn < 5 ? a->maxn : 5);
        long i;
        for (i = (long)ceil(lo / st - 1e-9); (t = (double)i * st) <= hi * (1 + 1e-12) &&
                                             a->n < MAX_TICKS; i++)
            if (t > 0)
                log_label(a, t, plain);
    }
}

/* A heat map's axis: its few values themselves as the labels (when each
 * label has room). */
static void axis_values(axis *a, const double *v, size_t n)
{
    size_t i;
    if (n == 0 || (int)n > a->maxn)
        return;
    a->n = 0;
    a->width = 0;
    a->exp10 = 0;
    for (i = 0; i < n; i++) {
        char buf[40];
        snprintf(buf, sizeof buf, "%.6g", v[i]);
        axis_add(a, tr(v[i], a->logscale), buf);
    }
}

static void axis_init(axis *a, int logscale, double wlo, double whi, int maxn)
{
    memset(a, 0, sizeof *a);
    a->maxn = maxn < 2 ? 2 : maxn;
    a->logscale = logscale;
    a->wlo = wlo;
    a->whi = whi;
    if (logscale)
        log_labels(a);
    else
        linear_labels(a);
}

/* ------------------------------------------------------------------ */
/* Layout: margins from the character height, text boxes recorded       */

/* Where the drawing goes; text boxes recorded for the tests. */
typedef struct page {
    const mmm_plot *plot;
    double wxlo, wxhi;
    int logx;
    mmm__plot_layout *rec;   /* NULL unless a test asks */
    double sub_w, sub_h;     /* subpage, mm */
    double ch;               /* character height, mm */
    double left, right, top, bottom, gap; /* normalized subpage */
    double lift;             /* title raised over the first panel's unit */
} page;

static void record_box(page *pg, int kind, int panel, double x0, double y0,
                       double x1, double y1, const char *text)
{
    mmm__plot_layout *r = pg->rec;
    mmm__plot_box *b;
    if (!r || r->nboxes == MMM__PLOT_MAX_BOXES)
        return;
    b = &r->boxes[r->nboxes++];
    b->kind = kind;
    b->panel = panel;
    b->x0 = fmin(x0, x1);
    b->x1 = fmax(x0, x1);
    b->y0 = fmin(y0, y1);
    b->y1 = fmax(y0, y1);
    snprintf(b->text, sizeof b->text, "%s", text ? text : "");
}

/* A text written by plmtex on a side of the viewport [vx0,vx1]x[vy0,vy1]
 * (mm): its box, from the estimated width and one character height
 * (superscripts add half of one). */
static void record_mtex(page *pg, int kind, int panel, const char *side, double disp,
                        double pos, double just, const char *text, double scale,
                        double vx0, double vx1, double vy0, double vy1)
{
    double w = text_width(text) * pg->ch * scale, h = pg->ch * scale;
    double up = strstr(text, "#u") ? 0.5 * h : 0;
    double d = disp * pg->ch * scale;
    if (side[0] == 'b') {
        double x = vx0 + pos * (vx1 - vx0) - just * w;
        record_box(pg, kind, panel, x, vy0 - d - h / 2, x + w, vy0 - d + h / 2 + up, text);
    } else if (side[0] == 't') {
        double x = vx0 + pos * (vx1 - vx0) - just * w;
        record_box(pg, kind, panel, x, vy1 + d - h / 2, x + w, vy1 + d + h / 2 + up, text);
    } else if (side[0] == 'r' && side[1] == 'v') { /* right, perpendicular */
        double y = vy0 + pos * (vy1 - vy0);
        double x0 = vx1 + d - just * w;
        record_box(pg, kind, panel, x0, y - h / 2, x0 + w, y + h / 2 + up, text);
    } else if (side[0] == 'r') { /* right, parallel (rotated) */
        double y = vy0 + pos * (vy1 - vy0) - just * w;
        record_box(pg, kind, panel, vx1 + d - h / 2, y, vx1 + d + h / 2 + up, y + w, text);
    } else if (side[1] == 'v') { /* left, perpendicular: right-justified */
        double y = vy0 + pos * (vy1 - vy0);
        double x1 = vx0 - d + (1 - just) * w;
        record_box(pg, kind, panel, x1 - w, y - h / 2, x1, y + h / 2 + up, text);
    } else { /* left, parallel (rotated) */
        double y = vy0 + pos * (vy1 - vy0) - just * w;
        record_box(pg, kind, panel, vx0 - d - h / 2 - up, y, vx0 - d + h / 2, y + w,
                   text);
    }
}

static void mtex(page *pg, int kind, int panel, const char *side, double disp,
                 double pos, double just, const char *text, double scale,
                 double vx0, double vx1, double vy0, double vy1)
{
    plmtex(side, disp, pos, just, text);
    record_mtex(pg, kind, panel, side, disp, pos, just, text, scale, vx0, vx1, vy0, vy1);
}

static void draw_legend(page *pg, size_t k, int logy, double vx1, double vy0,
                        double vy1)
{
    const mmm_plot *plot = pg->plot;
    const mmm_plot_panel *pan = &plot->panels[k];
    PLINT opt[MAX_LEGEND], tcol[MAX_LEGEND], lcol[MAX_LEGEND],
        lsty[MAX_LEGEND], scol[MAX_LEGEND], snum[MAX_LEGEND], bcol[MAX_LEGEND] = {0},
        bpat[MAX_LEGEND] = {0};
    PLFLT bscale[MAX_LEGEND] = {0}, bwid[MAX_LEGEND] = {0};
    PLFLT lwid[MAX_LEGEND], sscale[MAX_LEGEND];
    const char *text[MAX_LEGEND], *sym[MAX_LEGEND];
    PLFLT w, h;
    PLINT n = 0;
    size_t i;
    int with_marks = k == 0;

    for (i = 0; i < pan->ncurves && n < MAX_LEGEND; n += pan->curves[i++].label != NULL) {
        const mmm_plot_curve *c = &pan->curves[i]; /* no label: no key */
        int line, dots;
        curve_shape(c, pg->logx, logy, &line, &dots);
        /* The key shows what is drawn: a line when the curve has one, a
         * dot when its points are marked or some stand alone. */
        opt[n] = (line || !dots ? PL_LEGEND_LINE : 0) |
                 (c->markers || dots ? PL_LEGEND_SYMBOL : 0);
        text[n] = c->label ? c->label : "";
        lcol[n] = scol[n] = PALETTE0 + pal(c->color);
        lsty[n] = legend_style(c->line);
        lwid[n] = 2.2;
        sym[n] = MARKER;
        sscale[n] = 0.5;
        snum[n] = 1;
        tcol[n] = INK;
        if (pg->rec && pg->rec->ncurves < MMM__PLOT_MAX_CURVES) {
            mmm__plot_series *se = &pg->rec->curves[pg->rec->ncurves++];
            se->panel = (int)k;
            se->rgb = mmm__plot_color_rgb(c->color);
            se->line = c->line;
            se->draws_line = line;
            se->key_line = (opt[n] & PL_LEGEND_LINE) != 0;
        }
    }
    if (with_marks && plot->nspans > 0 && plot->span_label && n < MAX_LEGEND) {
        opt[n] = PL_LEGEND_COLOR_BOX;
        text[n] = plot->span_label;
        lcol[n] = scol[n] = tcol[n] = INK;
        bcol[n] = SHADE;
        bscale[n] = 0.8;
        bwid[n] = 1;
        lsty[n] = 1;
        lwid[n] = 1;
        sym[n] = "";
        sscale[n] = 1;
        snum[n] = 0;
        n++;
    }
    for (i = 0; with_marks && i < plot->nmarks && n < MAX_LEGEND; i++, n++) {
        const mmm_plot_mark *mk = &plot->marks[i];
        opt[n] = PL_LEGEND_LINE;
        text[n] = mk->label ? mk->label : "";
        lcol[n] = scol[n] = PALETTE0 + pal(mk->color);
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
             tcol, text, bcol, bpat, bscale, bwid, lcol, lsty, lwid, scol,
             sscale, snum, sym);
    plschr(0, CHAR_SCALE);
    /* w, h: the legend's size in normalized viewport coordinates; it is
     * centred on the right edge, 0.02 of the viewport away. */
    {
        double vw = vx1 - (pg->left * pg->sub_w), vh = vy1 - vy0;
        double x0 = vx1 + 0.02 * vw, yc = (vy0 + vy1) / 2;
        record_box(pg, MMM__PLOT_LEGEND, (int)k, x0, yc - h * vh / 2, x0 + w * vw,
                   yc + h * vh / 2, NULL);
    }
}

/* ------------------------------------------------------------------ */
/* Heat maps, notes and shaded ranges                                   */

/* A log scale for these values (auto: all > 0 spanning a factor 10)? */
static int values_log(mmm_plot_scale sc, const double *v, size_t n)
{
    double lo = 0, hi = 0;
    size_t i;
    int any = 0;
    if (sc != MMM_PLOT_AUTO)
        return sc == MMM_PLOT_LOG;
    for (i = 0; i < n; i++) {
        if (!isfinite(v[i]))
            continue;
        if (v[i] <= 0)
            return 0;
        lo = any ? fmin(lo, v[i]) : v[i];
        hi = any ? fmax(hi, v[i]) : v[i];
        any = 1;
    }
    return any && hi / lo >= 10;
}

/* The edge between cells i - 1 and i (0 .. n), in plot coordinates: halfway
 * between their centres; the outer edges as far out as the inner ones. */
static double cell_edge(const double *c, size_t n, int logscale, size_t i)
{
    double half = 0.5;
    if (n >= 2)
        half = (i == 0 ? tr(c[1], logscale) - tr(c[0], logscale)
                       : tr(c[n - 1], logscale) - tr(c[n - 2], logscale)) / 2;
    else if (!logscale)
        half = fmax(fabs(c[0]) * 0.1, 0.5);
    if (i == 0)
        return tr(c[0], logscale) - half;
    if (i == n)
        return tr(c[n - 1], logscale) + half;
    return (tr(c[i - 1], logscale) + tr(c[i], logscale)) / 2;
}

static void cell_edges(const double *c, size_t n, int logscale, double *lo, double *hi)
{
    *lo = n ? cell_edge(c, n, logscale, 0) : 0;
    *hi = n ? cell_edge(c, n, logscale, n) : 1;
}

/* The range of the finite (positive on a log scale) z of a heat map. */
static int heat_range(const mmm_plot_heat *h, int logz, double *lo, double *hi)
{
    size_t i;
    int any = 0;
    for (i = 0; i < h->nx * h->ny; i++)
        if (usable(h->z[i], logz)) {
            *lo = any ? fmin(*lo, h->z[i]) : h->z[i];
            *hi = any ? fmax(*hi, h->z[i]) : h->z[i];
            any = 1;
        }
    return any;
}

static double heat_t(double z, int logz, double lo, double hi)
{
    double a = tr(lo, logz), b = tr(hi, logz);
    return b > a ? (tr(z, logz) - a) / (b - a) : 0.5;
}

static void fill_box(double x0, double x1, double y0, double y1)
{
    PLFLT x[4] = {x0, x1, x1, x0}, y[4] = {y0, y0, y1, y1};
    plfill(4, x, y);
}

/* The cells of a heat map (x on the page's x axis, y on the panel's). */
/* A heat map's colours on a log scale when its values are all positive
 * and span a factor 2 or more: times and costs differ by ratios. */
static int heat_log(const mmm_plot_heat *h)
{
    double lo = 0, hi = 0;
    if (h->zscale != MMM_PLOT_AUTO)
        return h->zscale == MMM_PLOT_LOG;
    if (!heat_range(h, 0, &lo, &hi) || lo <= 0)
        return 0;
    return hi / lo >= 2;
}

static void draw_heat(page *pg, const mmm_plot_heat *h, int logy)
{
    int logz = heat_log(h);
    double lo = 0, hi = 0;
    size_t i, j;
    int any = heat_range(h, logz, &lo, &hi);
    for (i = 0; i < h->nx; i++) {
        double x0 = cell_edge(h->x, h->nx, pg->logx, i),
               x1 = cell_edge(h->x, h->nx, pg->logx, i + 1);
        for (j = 0; j < h->ny; j++) {
            double z = h->z[i * h->ny + j];
            if (any && usable(z, logz))
                plcol1(heat_t(z, logz, lo, hi));
            else
                plcol0(SHADE);
            if (pg->rec) {
                pg->rec->nheat++;
                pg->rec->ngrey += !(any && usable(z, logz));
            }
            fill_box(x0, x1, cell_edge(h->y, h->ny, logy, j),
                     cell_edge(h->y, h->ny, logy, j + 1));
        }
    }
}

/* A ring r mm wide around the point (x, y) (plot coordinates) of a panel
 * whose y window spans yspan over vh mm. */
static void ring(const page *pg, double x, double y, double r, double yspan, double vh)
{
    double vw = (pg->right - pg->left) * pg->sub_w;
    double a = r * (pg->wxhi - pg->wxlo) / vw, b = r * yspan / vh;
    plcol0(0);
    plwidth(5.0);
    plarc(x, y, a, b, 0, 360, 0, 0);
    plcol0(INK);
    plwidth(2.2);
    plarc(x, y, a, b, 0, 360, 0, 0);
    plwidth(1.0);
}

/* The colour bar of a heat map, right of the panel [vy0, vy1] (normalized
 * subpage), with its labels and title. */
static void colour_bar(page *pg, size_t k, const mmm_plot_heat *h, double ny0,
                       double ny1)
{
    int logz = heat_log(h);
    double lo = 0, hi = 0, zlo, zhi, bx0 = pg->right + 0.03, bx1 = pg->right + 0.055;
    double vx0 = bx0 * pg->sub_w, vx1 = bx1 * pg->sub_w, vy0 = ny0 * pg->sub_h,
           vy1 = ny1 * pg->sub_h;
    axis za;
    int j, n = 64;
    if (!heat_range(h, logz, &lo, &hi))
        return;
    zlo = tr(lo, logz);
    zhi = tr(hi, logz);
    if (zhi <= zlo) {
        zlo -= 0.5;
        zhi += 0.5;
    }
    plvpor(bx0, bx1, ny0, ny1);
    plwind(0, 1, zlo, zhi);
    for (j = 0; j < n; j++) {
        plcol1((j + 0.5) / n);
        fill_box(0, 1, zlo + (zhi - zlo) * j / n, zlo + (zhi - zlo) * (j + 1) / n);
    }
    plcol0(INK);
    plwidth(1.0);
    plbox("bc", 0, 0, "bc", 0, 0);
    axis_init(&za, logz, zlo, zhi, (int)((vy1 - vy0) / (2.0 * pg->ch)));
    for (j = 0; j < za.n; j++)
        mtex(pg, MMM__PLOT_TICK, (int)k, "rv", 0.6, (za.at[j] - zlo) / (zhi - zlo), 0.0,
             za.text[j], 1, vx0, vx1, vy0, vy1);
    if (h->zlabel)
        mtex(pg, MMM__PLOT_AXIS_TITLE, (int)k, "r", 0.6 + za.width + 1.3, 0.5, 0.5,
             h->zlabel, 1, vx0, vx1, vy0, vy1);
}

/* The notes of panel k (its window set). */
/* Characters (not bytes) of UTF-8 text. */
static size_t utf8_len(const char *s)
{
    size_t n = 0;
    for (; *s; s++)
        n += ((unsigned char)*s & 0xC0) != 0x80;
    return n;
}

/* A level note's box on the page (mm from the viewport's corner) when it
 * is drawn with just and raise: its text CHAR_W character heights a
 * character, its height one, 0.7 heights off the point. */
typedef struct note_box {
    double x0, x1, y0, y1;
} note_box;

static note_box level_box(double px, double py, double ch, size_t chars, double just,
                          double raise)
{
    double w = (double)chars * CHAR_W * ch * 0.8,
           along = (just < 0.25 ? 0.7 : just > 0.75 ? -0.7 : 0) * ch;
    note_box b;
    b.x0 = px + along - just * w;
    b.x1 = b.x0 + w;
    b.y0 = py + raise * ch - 0.5 * ch;
    b.y1 = b.y0 + ch;
    return b;
}

static int boxes_meet(const note_box *a, const note_box *b)
{
    return a->x0 < b->x1 && b->x0 < a->x1 && a->y0 < b->y1 && b->y0 < a->y1;
}

#define MAX_PLACED 64

static void draw_notes(const page *pg, size_t k, const axis *ya, double vw, double vh)
{
    const mmm_plot *plot = pg->plot;
    size_t i, nplaced = 0;
    note_box placed[MAX_PLACED];
    for (i = 0; i < plot->nnotes; i++) {
        const mmm_plot_note *n = &plot->notes[i];
        double x, y, ux = (pg->wxhi - pg->wxlo) / vw, uy = (ya->whi - ya->wlo) / vh;
        double dx = 1, dy = n->slope, len, just = n->just, raise = n->raise;
        if (n->panel != k || !n->text || !usable(n->x, pg->logx) ||
            !usable(n->y, ya->logscale))
            continue;
        x = tr(n->x, pg->logx);
        y = tr(n->y, ya->logscale);
        /* A level note that starts at its point (a point's label) and
         * would cover one drawn before, or leave the frame, moves: a line
         * or two down or up, then to the other side of its point, and
         * so; where none is free it stays as asked. */
        if (n->slope == 0 && n->just == 0 && nplaced < MAX_PLACED) {
            static const double tries[][2] = {{0, 0},    {0, -1.1}, {0, 1.1}, {0, -2.2},
                                              {0, 2.2},  {1, 0},    {1, -1.1}, {1, 1.1},
                                              {1, -2.2}, {1, 2.2}};
            double px = (x - pg->wxlo) / ux, py = (y - ya->wlo) / uy;
            size_t chars = utf8_len(n->text), t, j;
            for (t = 0; t < sizeof tries / sizeof tries[0]; t++) {
                double tj = tries[t][0] ? 1 - n->just : n->just, tr_ = n->raise + tries[t][1];
                note_box b = level_box(px, py, pg->ch, chars, tj, tr_);
                for (j = 0; j < nplaced && !boxes_meet(&b, &placed[j]); j++)
                    ;
                if (j == nplaced && b.x0 >= 0 && b.x1 <= vw && b.y0 >= 0 && b.y1 <= vh) {
                    just = tj;
                    raise = tr_;
                    break;
                }
            }
            placed[nplaced++] = level_box(px, py, pg->ch, chars, just, raise);
        } else if (n->slope == 0 && nplaced < MAX_PLACED) {
            /* another level note stays, and is in the way of the later */
            placed[nplaced++] = level_box((x - pg->wxlo) / ((pg->wxhi - pg->wxlo) / vw),
                                          (y - ya->wlo) / ((ya->whi - ya->wlo) / vh), pg->ch,
                                          utf8_len(n->text), just, raise);
        }
        /* the direction on the page (mm), for the offsets */
        len = hypot(dx / ux, dy / uy);
        /* off the point along the text (a gap of 0.7 character heights
         * when it starts or ends there) and up, across it */
        {
            double along = (just < 0.25 ? 0.7 : just > 0.75 ? -0.7 : 0) * pg->ch;
            double up = raise * pg->ch;
            double ex = dx / ux / len, ey = dy / uy / len; /* unit, mm */
            x += (along * ex - up * ey) * ux;
            y += (along * ey + up * ex) * uy;
        }
        plcol0(n->color < 0 ? INK : PALETTE0 + pal(n->color));
        plptex(x, y, dx, dy, just, n->text);
    }
    plcol0(INK);
}

/* The shaded ranges of x, under the curves. */
static void draw_spans(page *pg, const axis *ya)
{
    const mmm_plot *plot = pg->plot;
    size_t i;
    plcol0(SHADE);
    for (i = 0; i < plot->nspans; i++) {
        const mmm_plot_span *sp = &plot->spans[i];
        double a = sp->x0, b = sp->x1;
        if (!usable(a, pg->logx) || !usable(b, pg->logx))
            continue;
        a = usable(sp->before, pg->logx)
                ? (tr(sp->before, pg->logx) + tr(a, pg->logx)) / 2 : pg->wxlo;
        b = usable(sp->after, pg->logx)
                ? (tr(sp->after, pg->logx) + tr(b, pg->logx)) / 2 : pg->wxhi;
        a = fmax(a, pg->wxlo);
        b = fmin(b, pg->wxhi);
        if (b > a) {
            fill_box(a, b, ya->wlo, ya->whi);
            if (pg->rec)
                pg->rec->nspans++;
        }
    }
}

static double panel_height(const page *pg)
{
    size_t n = pg->plot->npanels;
    return (pg->top - pg->bottom - pg->gap * (double)(n - 1)) / (double)n;
}

/* The y axis of panel k (its window and labels: one per two character
 * heights of the panel at most). */
static void y_axis(const page *pg, size_t k, axis *ya)
{
    double h = panel_height(pg) * pg->sub_h;
    const mmm_plot_panel *pan = &pg->plot->panels[k];
    int logy = pick_log(pan->yscale, pan->curves, pan->ncurves, 1);
    double lo = 1, hi = 1, ylo, yhi;
    if (pan->heat) {
        logy = values_log(pan->yscale, pan->heat->y, pan->heat->ny);
        cell_edges(pan->heat->y, pan->heat->ny, logy, &ylo, &yhi);
    } else {
        if (!data_range(pan->curves, pan->ncurves, 1, logy, &lo, &hi))
            lo = hi = logy ? 1 : 0;
        window(lo, hi, logy, 0.06, &ylo, &yhi);
    }
    axis_init(ya, logy, ylo, yhi, (int)(h / (2.0 * pg->ch)));
    if (pan->heat)
        axis_values(ya, pan->heat->y, pan->heat->ny);
}

static void draw_panel(page *pg, size_t k, const axis *xa)
{
    const mmm_plot *plot = pg->plot;
    const mmm_plot_panel *pan = &plot->panels[k];
    double h = panel_height(pg);
    double top = pg->top - (double)k * (h + pg->gap);
    int last = k + 1 == plot->npanels;
    double vx0 = pg->left * pg->sub_w, vx1 = pg->right * pg->sub_w;
    double vy0 = (top - h) * pg->sub_h, vy1 = top * pg->sub_h;
    axis ya;
    char xopt[16], yopt[16], title[300];
    size_t i;
    int j;

    y_axis(pg, k, &ya);
    plvpor(pg->left, pg->right, top - h, top);
    plwind(pg->wxlo, pg->wxhi, ya.wlo, ya.whi);
    record_box(pg, MMM__PLOT_FRAME, (int)k, vx0, vy0, vx1, vy1, NULL);

    /* The shaded ranges, then the grid in light grey, under everything
     * (a heat map covers its grid). */
    draw_spans(pg, &ya);
    if (pan->heat) {
        draw_heat(pg, pan->heat, ya.logscale);
    } else {
        plcol0(GRID);
        plwidth(0.8);
        snprintf(xopt, sizeof xopt, "g%s", pg->logx ? "l" : "");
        snprintf(yopt, sizeof yopt, "g%s", ya.logscale ? "l" : "");
        plbox(xopt, xa->step, 0, yopt, ya.step, 0);
    }

    for (i = 0; i < pan->ncurves; i++)
        if (pan->curves[i].band_with > 0 &&
            (size_t)pan->curves[i].band_with <= pan->ncurves)
        {
            draw_band(&pan->curves[i], &pan->curves[pan->curves[i].band_with - 1],
                      pg->logx, ya.logscale);
            if (pg->rec)
                pg->rec->nbands++;
        }
    for (i = 0; i < pan->ncurves; i++)
        draw_curve(&pan->curves[i], pg->logx, ya.logscale);

    draw_notes(pg, k, &ya, vx1 - vx0, vy1 - vy0);
    if (pan->heat && pan->heat->has_best &&
        usable(pan->heat->best_x, pg->logx) && usable(pan->heat->best_y, ya.logscale))
        ring(pg, tr(pan->heat->best_x, pg->logx), tr(pan->heat->best_y, ya.logscale),
             2.2, ya.whi - ya.wlo, vy1 - vy0);
    plcol0(INK);
    plwidth(1.0);
    snprintf(xopt, sizeof xopt, "bcst%s", pg->logx ? "l" : "");
    snprintf(yopt, sizeof yopt, "bcst%s", ya.logscale ? "l" : "");
    plbox(xopt, xa->step, 0, yopt, ya.step, 0);

    /* The marks over the frame, so that one at the edge stays visible,
     * each with a triangle just inside the top. */
    for (i = 0; i < plot->nmarks; i++) {
        const mmm_plot_mark *mk = &plot->marks[i];
        PLFLT mx, my;
        if (!usable(mk->x, pg->logx))
            continue;
        mx = tr(mk->x, pg->logx);
        my = ya.whi - 0.035 * (ya.whi - ya.wlo);
        plcol0(PALETTE0 + pal(mk->color));
        plwidth(mk->line == MMM_PLOT_SOLID ? 2.0 : 1.6);
        set_line(mk->line);
        pljoin(mx, ya.wlo, mx, ya.whi);
        set_line(MMM_PLOT_SOLID);
        plssym(0, 0.6);
        plstring(1, &mx, &my, TRIANGLE);
        if (pg->rec && pg->rec->nmarks < MMM__PLOT_MAX_MARKS) {
            mmm__plot_markpos *m = &pg->rec->marks[pg->rec->nmarks++];
            m->panel = (int)k;
            m->x = vx0 + (mx - pg->wxlo) / (pg->wxhi - pg->wxlo) * (vx1 - vx0);
        }
    }

    plcol0(INK);
    for (j = 0; j < ya.n; j++)
        mtex(pg, MMM__PLOT_TICK, (int)k, "lv", 0.6,
             (ya.at[j] - ya.wlo) / (ya.whi - ya.wlo), 1.0, ya.text[j], 1, vx0, vx1,
             vy0, vy1);
    for (j = 0; last && j < xa->n; j++)
        mtex(pg, MMM__PLOT_TICK, (int)k, "b", 1.6,
             (xa->at[j] - xa->wlo) / (xa->whi - xa->wlo), 0.5, xa->text[j], 1, vx0,
             vx1, vy0, vy1);
    if (ya.exp10) { /* the unit of the labels, above them */
        snprintf(title, sizeof title, "\xc3\x97" "10#u%d#d", ya.exp10);
        mtex(pg, MMM__PLOT_TICK, (int)k, "t", 1.0, 0.0, 1.0, title, 1, vx0, vx1, vy0,
             vy1);
    }
    if (pan->ylabel) /* beyond the widest tick label (at 0.6, right-justified) */
        mtex(pg, MMM__PLOT_AXIS_TITLE, (int)k, "l", 0.6 + ya.width + 1.3, 0.5, 0.5,
             pan->ylabel, 1, vx0, vx1, vy0, vy1);
    if (last && plot->xlabel) {
        if (xa->exp10)
            snprintf(title, sizeof title, "%s  (\xc3\x97" "10#u%d#d)", plot->xlabel,
                     xa->exp10);
        else
            snprintf(title, sizeof title, "%s", plot->xlabel);
        mtex(pg, MMM__PLOT_AXIS_TITLE, (int)k, "b", 3.4, 0.5, 0.5, title, 1, vx0, vx1,
             vy0, vy1);
    }
    if (k == 0) {
        /* centred over the panel; both over the page when one is wider
         * than the panel (narrowed by a long legend) */
        double page_pos = (0.5 * pg->sub_w - vx0) / (vx1 - vx0);
        int wide = (plot->title && text_width(plot->title) * 1.25 * pg->ch > vx1 - vx0) ||
                   (plot->subtitle && text_width(plot->subtitle) * 0.9 * pg->ch > vx1 - vx0);
        if (plot->title) {
            plschr(0, 1.25 * CHAR_SCALE);
            mtex(pg, MMM__PLOT_TITLE, 0, "t",
                 (plot->subtitle ? 2.4 : 1.2) + pg->lift / 1.25,
                 wide ? page_pos : 0.5, 0.5,
                 plot->title, 1.25, vx0, vx1, vy0, vy1);
            plschr(0, CHAR_SCALE);
        }
        if (plot->subtitle) {
            plcol0(MUTED);
            plschr(0, 0.9 * CHAR_SCALE);
            mtex(pg, MMM__PLOT_TITLE, 0, "t", 1.2 + pg->lift / 0.9,
                 wide ? page_pos : 0.5, 0.5,
                 plot->subtitle, 0.9, vx0, vx1, vy0, vy1);
            plschr(0, CHAR_SCALE);
            plcol0(INK);
        }
    }
    if (pan->heat)
        colour_bar(pg, k, pan->heat, top - h, top);
    else
        draw_legend(pg, k, ya.logscale, vx1, vy0, vy1);
}

/* The x range is common to the panels: log only when every panel's x
 * values suit it, the window spans all of them and the marks. */
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
    for (k = 0; k < plot->npanels; k++) {
        const mmm_plot_heat *h = plot->panels[k].heat;
        if (h && h->nx > 0) { /* the cells exactly, no margin */
            *logx = values_log(plot->xscale, h->x, h->nx);
            cell_edges(h->x, h->nx, *logx, wxlo, wxhi);
            return;
        }
    }
    for (k = 0; k < 2 * plot->nspans; k++) { /* the shaded values too */
        double v = k % 2 ? plot->spans[k / 2].x1 : plot->spans[k / 2].x0;
        if (!usable(v, *logx))
            continue;
        if (first || v < xlo)
            xlo = v;
        if (first || v > xhi)
            xhi = v;
        first = 0;
    }
    for (k = 0; k < plot->nmarks; k++) {
        double v = plot->marks[k].x;
        if (!usable(v, *logx))
            continue;
        if (first || v < xlo)
            xlo = v;
        if (first || v > xhi)
            xhi = v;
        first = 0;
    }
    if (first) {
        xlo = *logx ? 1 : 0;
        xhi = *logx ? 10 : 1;
    }
    window(xlo, xhi, *logx, 0.04, wxlo, wxhi);
}

static void setup(void *payload)
{
    (void)payload;
    set_colours();
}

/* Margins from the character height: room for the title and subtitle
 * above, the tick labels and the x title below, the widest y tick label
 * and the y title on the left. */
static void layout(page *pg)
{
    const mmm_plot *plot = pg->plot;
    PLFLT def, ht, x0, x1, y0, y1;
    double widest = 0;
    size_t k;
    plgchr(&def, &ht);
    plgspa(&x0, &x1, &y0, &y1);
    pg->ch = ht;
    pg->sub_w = x1 - x0;
    pg->sub_h = y1 - y0;
    /* the legends' room; a heat map's colour bar needs less; a long key
     * takes more (up to 0.55 of the page), so that no key is cut at the
     * right edge (a key's text 0.92 of what text_width() gives, the
     * key's line and gaps 5.5 character heights) */
    pg->right = plot->npanels == 1 && plot->panels[0].heat ? 0.80 : 0.64;
    {
        double longest = 0;
        for (k = 0; k < plot->npanels; k++)
            for (size_t i = 0; i < plot->panels[k].ncurves; i++)
                if (plot->panels[k].curves[i].label)
                    longest = fmax(longest, text_width(plot->panels[k].curves[i].label));
        for (size_t i = 0; i < plot->nmarks; i++)
            if (plot->marks[i].label)
                longest = fmax(longest, text_width(plot->marks[i].label));
        double need = (longest * 0.92 + 5.5) * 0.95 * ht / pg->sub_w + 0.02;
        if (longest > 0 && 1 - need < pg->right)
            pg->right = fmax(0.45, 1 - need);
    }
    pg->bottom = (3.4 + 1.0 + 1.2) * ht / pg->sub_h;
    pg->gap = 2.2 * ht / pg->sub_h;
    /* A first try of the top, for the panels' heights; then room for the
     * first panel's unit (x10^k above its labels) under the titles. */
    pg->top = 1 - 4.5 * ht / pg->sub_h;
    {
        axis first;
        y_axis(pg, 0, &first);
        /* and room for a top label written as a power of ten */
        pg->lift = plot->title ? (first.exp10 ? 1.6 : 0) + 0.6 : 0;
    }
    pg->top = 1 - ((plot->title ? 1.25 * (plot->subtitle ? 2.4 : 1.2) + 1.0 : 0.5) +
                   pg->lift + 1.0) * ht / pg->sub_h;
    for (k = 0; k < plot->npanels; k++) {
        axis ya;
        y_axis(pg, k, &ya);
        if (ya.width > widest)
            widest = ya.width;
    }
    /* y title at 0.6 + widest + 1.3, half a character high, and a margin. */
    pg->left = (0.6 + widest + 1.3 + 0.6 + 1.2) * ht / pg->sub_w;
}

static void draw(void *payload)
{
    page *pg = payload;
    axis xa;
    size_t k;
    plschr(0, CHAR_SCALE);
    layout(pg);
    /* x labels: room for labels of five characters and a space. */
    axis_init(&xa, pg->logx, pg->wxlo, pg->wxhi,
              (int)((pg->right - pg->left) * pg->sub_w / (6 * CHAR_W * pg->ch)));
    for (k = 0; k < pg->plot->npanels; k++)
        if (pg->plot->panels[k].heat)
            axis_values(&xa, pg->plot->panels[k].heat->x, pg->plot->panels[k].heat->nx);
    if (pg->rec) {
        pg->rec->width = pg->sub_w;
        pg->rec->height = pg->sub_h;
    }
    for (k = 0; k < pg->plot->npanels; k++)
        draw_panel(pg, k, &xa);
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
    memset(pg, 0, sizeof *pg);
    pg->plot = plot;
    x_window(plot, &pg->logx, &pg->wxlo, &pg->wxhi);
    memset(pp, 0, sizeof *pp);
    pp->dev = dev;
    pp->width = 1300;
    /* Panels of 340 pixels, 290 when there are more than two. */
    pp->height = 200 + (plot->npanels > 2 ? 290 : 340) * (int)plot->npanels;
    if (plot->npanels == 1 && plot->panels[0].heat)
        pp->height = 850; /* cells of a useful height */
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
    return mmm__plot_layout_svg(plot, NULL, out, len, err);
}

int mmm__plot_layout_svg(const mmm_plot *plot, mmm__plot_layout *rec, char **out,
                         size_t *len, mmm_error *err)
{
    mmm__pl_page pp;
    page pg;
    *out = NULL;
    *len = 0;
    if (rec)
        memset(rec, 0, sizeof *rec);
    if (plot->npanels == 0)
        return mmm_error_set(err, MMM_EINVAL, NULL, 0, "nothing to plot");
    page_init(&pp, &pg, plot, device("svg"));
    pg.rec = rec;
    return mmm__pl_write_memory(&pp, out, len, err);
}

#endif
