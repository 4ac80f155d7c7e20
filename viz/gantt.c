/* gantt.c: the layout of a Gantt chart of a simulated schedule.  One lane
 * per SM, one rectangle per SM of each record, coloured by kernel; or, when
 * that would be too many rectangles, one bar per kernel.  Bounds are
 * vertical lines.  Drawn into a display list, written as SVG or PNG. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gantt_draw.h"
#include "numfmt.h"
#include "mmm/gantt.h"
#include "base/outfile.h"
#include "base/path.h"
#include "figure_int.h"
#include "render_group.h"
#include "base/abi.h"

#define WIDTH 1100.0
#define LEFT 120.0      /* lane labels */
#define RIGHT 24.0
#define TOP 128.0       /* title, key of the lines, tags on up to 4 levels */
#define MAX_LANES 256
#define MAX_ROWS 40
#define DEFAULT_MAX_RECTS 5000
#define TAG_SIZE 11     /* the bound lines' tags: size, and their levels' step */
#define TAG_STEP 13

#define INK 0x222222u
#define MUTED 0x666666u
#define GRID 0xdddddd
#define C_LOWER 0x2ca02cu
#define C_MAKESPAN 0x222222u
#define C_GRAHAM 0xff7f0eu
#define C_MMM 0xd62728u

/* Tableau 10 and its light companions: distinct, print well. */
static const uint32_t palette[20] = {
    0x4e79a7, 0xf28e2b, 0xe15759, 0x76b7b2, 0x59a14f, 0xedc948, 0xb07aa1,
    0xff9da7, 0x9c755f, 0xbab0ac, 0xa0cbe8, 0xffbe7d, 0x8cd17d, 0x86bcb6,
    0xf1ce63, 0xd4a6c8, 0xfabfd2, 0xd37295, 0xb6992d, 0x499894};

typedef struct chart {
    mmm__gd_list d;
    const mmm_sim_result *r;
    const mmm_program *prog;
    double mmm_bound;
    double x0, x1, tmax;  /* time axis: tmax at x1 */
    double y0, y1;        /* lanes or rows */
    /* More kernels than colours: coloured by kind (render_group.h), the
     * 19 commonest kinds in colours of their own, the others grey. */
    int by_kind;
    mmm__kinds kinds;
} chart;

#define OTHER_KINDS 0xbab0acu /* the grey of the palette, for the rest */

static uint32_t kernel_colour(const chart *c, uint32_t k)
{
    if (!c->by_kind)
        return palette[k % 20];
    return c->kinds.of[k] < 19 ? palette[c->kinds.of[k] < 9 ? c->kinds.of[k]
                                                            : c->kinds.of[k] + 1]
                               : OTHER_KINDS;
}

static double X(const chart *c, double t)
{
    return c->x0 + (c->x1 - c->x0) * t / c->tmax;
}

/* Estimated width of n characters at this font size (pixels): 0.6 em a
 * character is a little more than Helvetica's digits and lower case. */
static double text_w(double size, size_t n)
{
    return 0.6 * size * (double)n;
}

/* ------------------------------------------------------------------ */
/* Header, axis, bound lines                                          */

static double nice_step(double range)
{
    double raw = range / 8.0, mag, f;
    if (!(raw > 0))
        return 1.0;
    mag = pow(10.0, floor(log10(raw)));
    f = raw / mag;
    return (f < 1.5 ? 1.0 : f < 3.5 ? 2.0 : f < 7.5 ? 5.0 : 10.0) * mag;
}

/* The time axis: plain numbers with grouped digits (numfmt.h) in a unit
 * named in its title.  A program's cost unit that is a time (s, ms, us,
 * ns) is shown in the unit that keeps the numbers short (a makespan of
 * 8.4·10⁹ us is 8 425 s); machine cycles and a file's own unit as they
 * are.  The step is 1, 2 or 5 times a power of ten, larger while the
 * labels would meet. */
typedef struct axis {
    double scale;     /* axis value = time * scale */
    double step;      /* in time units */
    int decimals;     /* of the labels */
    const char *unit; /* for the title */
} axis;

static size_t glyphs(const char *s)
{
    size_t n = 0;
    for (; *s; s++)
        n += ((unsigned char)*s & 0xc0) != 0x80;
    return n;
}

static void axis_of(const chart *c, axis *a)
{
    static const struct { const char *in, *name; double s; } units[] = {
        {"s", "s", 1}, {"ms", "ms", 1e-3}, {"us", "\xc2\xb5s", 1e-6}, {"ns", "ns", 1e-9}};
    const char *u = mmm_program_cost_unit(c->prog);
    double width = c->x1 - c->x0, range, step;
    size_t i, j;
    char b[96];
    a->scale = 1;
    a->unit = u ? u : "cycles";
    for (i = 0; u && i < 4; i++) {
        if (strcmp(u, units[i].in) != 0)
            continue;
        /* the largest unit in which the axis reaches 1 */
        for (j = 0; j < 3 && c->tmax * units[i].s < units[j].s; j++)
            ;
        a->scale = units[i].s / units[j].s;
        a->unit = units[j].name;
    }
    range = c->tmax * a->scale;
    step = nice_step(range);
    for (i = 0; i < 60; i++) {
        double mant = step / pow(10.0, floor(log10(step) + 1e-9));
        int dec = (int)-floor(log10(step) + 1e-9);
        dec = dec < 0 ? 0 : dec > 8 ? 8 : dec;
        mmm__fmt_grouped(floor(range / step) * step, dec, b, sizeof b);
        a->decimals = dec;
        if ((range / step + 1) * (text_w(11, glyphs(b)) + 12) <= width)
            break;
        step = mant < 1.5 ? step * 2 : mant < 3.5 ? step * 2.5 : step * 2;
    }
    a->step = step / a->scale;
}

static void header(chart *c, const char *title, const char *note)
{
    const mmm_sim_result *r = c->r;
    struct { const char *name; double v; uint32_t rgb; int dash; } key[4] = {
        {"lower bound", r->lower_bound, C_LOWER, 1},
        {"makespan", r->makespan, C_MAKESPAN, 0},
        {"Graham bound", r->graham, C_GRAHAM, 1},
        {"MMM bound (N/p+L)C", c->mmm_bound, C_MMM, 1}};
    double x = c->x0;
    char a[64], v[80];
    int i;
    axis ax;
    axis_of(c, &ax);

    mmm__gd_text(&c->d, c->x0, 24, 16, GD_START, INK, 1, "%s", title);
    if (ax.scale != 1)
        snprintf(v, sizeof v, "%s SM\xc2\xb7%s", mmm__fig_num(r->idle * ax.scale, a, sizeof a),
                 ax.unit);
    else
        snprintf(v, sizeof v, "%s SM time units", mmm__fig_num(r->idle, a, sizeof a));
    mmm__gd_text(&c->d, c->x0, 43, 12, GD_START, MUTED, 0,
                 "utilization %.1f%%, idle %s, %lld blocks in %lld launches%s",
                 100.0 * r->utilization, v, (long long)r->blocks, (long long)r->launches, note);
    for (i = 0; i < 4; i++) {
        const char *off;
        if (key[i].v < 0)
            continue;
        /* A bound beyond the time axis is said here, not on the chart. */
        off = key[i].v > c->tmax ? " (off the chart \xe2\x86\x92)" : "";
        mmm__gd_line(&c->d, x, 58, x + 22, 58, key[i].rgb, 2, key[i].dash);
        /* in the time axis's unit when it is not the cost unit (a task
           graph's us drawn in s) */
        if (ax.scale != 1)
            snprintf(v, sizeof v, "%s %s", mmm__fig_num(key[i].v * ax.scale, a, sizeof a),
                     ax.unit);
        else
            snprintf(v, sizeof v, "%s", mmm__fig_num(key[i].v, a, sizeof a));
        mmm__gd_text(&c->d, x + 27, 62, 12, GD_START, INK, 0, "%s %s%s", key[i].name, v, off);
        x += 27 + text_w(12, strlen(key[i].name) + glyphs(v) + 1 + (*off ? 17 : 0)) + 18;
    }
}

/* Vertical grid lines at the ticks, under the rectangles. */
static void grid(chart *c)
{
    axis a;
    double t;
    int i;
    axis_of(c, &a);
    mmm__gd_rect(&c->d, c->x0, c->y0, c->x1 - c->x0, c->y1 - c->y0, 0xf6f6f6, 1.0, NULL);
    for (i = 0, t = 0.0; t <= c->tmax * (1 + 1e-12) && i < 1000; t = ++i * a.step)
        mmm__gd_line(&c->d, X(c, t), c->y0, X(c, t), c->y1, GRID, 0.5, 0);
}

/* The time axis under the lanes; returns the y below it. */
static double time_axis(chart *c)
{
    double t, y = c->y1 + 2;
    char b[96];
    axis a;
    int i;
    axis_of(c, &a);
    mmm__gd_line(&c->d, c->x0, y, c->x1, y, INK, 1, 0);
    for (i = 0, t = 0.0; t <= c->tmax * (1 + 1e-12) && i < 1000; t = ++i * a.step) {
        double x = X(c, t);
        mmm__gd_line(&c->d, x, y, x, y + 5, INK, 1, 0);
        mmm__gd_text(&c->d, x, y + 18, 11, GD_MIDDLE, INK, 0, "%s",
                     mmm__fmt_grouped(t * a.scale, a.decimals, b, sizeof b));
    }
    mmm__gd_text(&c->d, (c->x0 + c->x1) / 2, y + 36, 12, GD_MIDDLE, INK, 0,
                 "time in %s (one block takes S(B) + O(B))", a.unit);
    return y + 44;
}

static void bound_lines(chart *c)
{
    const mmm_sim_result *r = c->r;
    struct { const char *tag; double v; uint32_t rgb; int dash; } l[4] = {
        {"lower", r->lower_bound, C_LOWER, 1},
        {"makespan", r->makespan, C_MAKESPAN, 0},
        {"Graham", r->graham, C_GRAHAM, 1},
        {"MMM", c->mmm_bound, C_MMM, 1}};
    /* Tags already placed on each of the levels above the lanes. */
    double lo[4][4], hi[4][4];
    int nl[4] = {0, 0, 0, 0};
    int i;
    for (i = 0; i < 4; i++) {
        double x, w, a, b;
        int level, j, free_;
        if (l[i].v < 0 || l[i].v > c->tmax) /* off the chart: in the key */
            continue;
        x = X(c, l[i].v);
        mmm__gd_line(&c->d, x, c->y0 - 4, x, c->y1, l[i].rgb, 1.6, l[i].dash);
        /* The tag, centred on the line but kept on the page, goes on the
         * first level where it meets no other tag. */
        w = text_w(TAG_SIZE, strlen(l[i].tag)) + 6;
        a = x - w / 2;
        if (a < c->x0 - LEFT + 4)
            a = c->x0 - LEFT + 4;
        if (a + w > WIDTH - 4)
            a = WIDTH - 4 - w;
        b = a + w;
        for (level = 0; level < 3; level++) {
            for (free_ = 1, j = 0; j < nl[level]; j++)
                if (a < hi[level][j] && lo[level][j] < b)
                    free_ = 0;
            if (free_)
                break;
        }
        lo[level][nl[level]] = a;
        hi[level][nl[level]++] = b;
        mmm__gd_text(&c->d, (a + b) / 2, c->y0 - 6 - TAG_STEP * level, TAG_SIZE,
                     GD_MIDDLE, l[i].rgb, 0, "%s", l[i].tag);
    }
}

/* ------------------------------------------------------------------ */
/* Detailed: a lane per SM                                            */

/* Every lane labelled while lanes are 12 pixels or more; otherwise a lane
 * axis: a tick and a number every 1, 2, 5, 10, 20... lanes (at least 14
 * pixels apart), the last lane's too when there is room, and the title
 * "SM" above. */
static void lane_labels(chart *c, double lane_h)
{
    static const int64_t steps[] = {1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000};
    int64_t every = 1, i, p = c->r->p;
    size_t k;
    double size = lane_h >= 14 ? 12 : 11;
    if (lane_h >= 12) {
        for (i = 0; i < p; i++)
            mmm__gd_text(&c->d, c->x0 - 6, c->y0 + ((double)i + 0.5) * lane_h + size * 0.35,
                         size, GD_END, INK, 0, "SM %lld", (long long)i);
        return;
    }
    for (k = 0; k < sizeof steps / sizeof steps[0]; k++)
        if ((double)(every = steps[k]) * lane_h >= 14)
            break;
    mmm__gd_text(&c->d, c->x0 - 8, c->y0 - 6, size, GD_END, INK, 1, "SM");
    for (i = 0; i < p; i += every) {
        double y = c->y0 + ((double)i + 0.5) * lane_h;
        mmm__gd_line(&c->d, c->x0 - 5, y, c->x0, y, INK, 1, 0);
        mmm__gd_text(&c->d, c->x0 - 8, y + size * 0.35, size, GD_END, INK, 0, "%lld",
                     (long long)i);
    }
    /* The last lane, unless its label would meet the last one drawn. */
    if ((p - 1) % every != 0 && (double)((p - 1) % every) * lane_h >= 14) {
        double y = c->y0 + ((double)(p - 1) + 0.5) * lane_h;
        mmm__gd_line(&c->d, c->x0 - 5, y, c->x0, y, INK, 1, 0);
        mmm__gd_text(&c->d, c->x0 - 8, y + size * 0.35, size, GD_END, INK, 0, "%lld",
                     (long long)(p - 1));
    }
}

static void record_rects(chart *c, const mmm_sim_record *rec, double lane_h)
{
    const mmm_kernel *kd = &c->prog->kernels[rec->kernel];
    /* White between lanes, wide enough on tall lanes that blocks of one
     * kernel on neighbouring SMs do not merge into one bar. */
    double gap = lane_h >= 24 ? 4.0 : lane_h >= 6 ? 1.0 : 0.0;
    double x = X(c, rec->start), w = X(c, rec->end) - x;
    char tip[600], a[64], b[64];
    int64_t sm;

    if (w > 3) { /* a hairline between consecutive rectangles */
        x += 0.5;
        w -= 1.0;
    }
    if (w < 0.6)
        w = 0.6;
    if (rec->kind == MMM_SIM_LAUNCHES)
        snprintf(tip, sizeof tip, "%s: launches %lld..%lld (each like the one "
                 "before), %s to %s", kd->id, (long long)rec->copy,
                 (long long)(rec->copy + rec->copies - 1),
                 mmm__fig_num(rec->start, a, sizeof a), mmm__fig_num(rec->end, b, sizeof b));
    else
        snprintf(tip, sizeof tip, "%s launch %lld class %u: %s to %s, %lld block%s",
                 kd->id, (long long)rec->copy, (unsigned)(rec->klass - kd->first_class),
                 mmm__fig_num(rec->start, a, sizeof a), mmm__fig_num(rec->end, b, sizeof b),
                 (long long)rec->waves, rec->waves == 1 ? "" : "s per SM");
    for (sm = rec->sm_first; sm < rec->sm_first + rec->sm_count; sm++) {
        double y = c->y0 + (double)sm * lane_h + gap / 2;
        mmm__gd_rect(&c->d, x, y, w, lane_h - gap, kernel_colour(c, rec->kernel),
                     rec->kind == MMM_SIM_LAUNCHES ? 0.45 : 1.0, tip);
        /* Wave boundaries, where they are visible. */
        if (rec->kind == MMM_SIM_BLOCKS && rec->waves > 1 && rec->waves <= 64
            && w / (double)rec->waves >= 4) {
            int64_t k;
            for (k = 1; k < rec->waves; k++) {
                double xs = x + w * (double)k / (double)rec->waves;
                mmm__gd_line(&c->d, xs, y, xs, y + lane_h - gap, 0xffffff, 1, 0);
            }
        }
    }
    if (rec->kind == MMM_SIM_LAUNCHES && w > 90)
        mmm__gd_text(&c->d, x + w / 2, c->y0 + (double)c->r->p * lane_h / 2 + 4, 11,
                     GD_MIDDLE, INK, 0, "\xc3\x97%lld launches", (long long)rec->copies);
}

/* A swatch and its name at (*x, *y), on the next line when it would
 * pass the right edge. */
static void legend_item(chart *c, double *x, double *y, uint32_t rgb, const char *name,
                        const char *count)
{
    size_t n = strlen(name) < 24 ? strlen(name) : 24;
    double w = 7.0 * (double)(n + strlen(count)) + 30;
    if (*x + w > c->x1) {
        *x = c->x0;
        *y += 18;
    }
    mmm__gd_rect(&c->d, *x, *y - 10, 12, 12, rgb, 1.0, name);
    mmm__gd_text(&c->d, *x + 17, *y, 12, GD_START, INK, 0, "%.24s%s", name, count);
    *x += w;
}

/* By kind: every kind with a colour of its own that the schedule shows,
 * with its count of kernels, then the grey of the others. */
static double legend_kinds(chart *c, double y, const char *seen)
{
    size_t *count = calloc(c->kinds.n ? c->kinds.n : 1, sizeof *count), i, other = 0, nother = 0;
    double x = c->x0 + text_w(12, c->kinds.declared ? 11 : 6);
    char b[40], n[32];
    if (!count) {
        c->d.oom = 1;
        return y;
    }
    for (i = 0; i < c->r->nkernels && i < c->prog->nkernels; i++)
        if (seen[i])
            count[c->kinds.of[i]]++;
    mmm__gd_text(&c->d, c->x0, y, 12, GD_START, INK, 1, "%s:",
                 c->kinds.declared ? "task type" : "kind");
    for (i = 0; i < c->kinds.n; i++) {
        if (!count[i])
            continue;
        if (i >= 19) {
            other += count[i];
            nother++;
            continue;
        }
        snprintf(b, sizeof b, " (%s)", mmm__fmt_thousands((long long)count[i], n, sizeof n));
        legend_item(c, &x, &y, i < 9 ? palette[i] : palette[i + 1], c->kinds.name[i], b);
    }
    if (nother) {
        snprintf(b, sizeof b, "%zu other kinds (%s)", nother,
                 mmm__fmt_thousands((long long)other, n, sizeof n));
        legend_item(c, &x, &y, OTHER_KINDS, b, "");
    }
    free(count);
    return y + 14;
}

/* The legend of the one-bar-per-kernel chart coloured by kind. */
static double legend_kinds_all(chart *c, double y)
{
    char *seen = calloc(c->r->nkernels ? c->r->nkernels : 1, 1);
    size_t i;
    if (!seen) {
        c->d.oom = 1;
        return y;
    }
    for (i = 0; i < c->r->nkernels; i++)
        seen[i] = c->r->kernels[i].blocks > 0;
    y = legend_kinds(c, y, seen);
    free(seen);
    return y;
}

static double legend(chart *c, double y)
{
    const mmm_sim_result *r = c->r;
    char *seen = calloc(r->nkernels ? r->nkernels : 1, 1);
    double x = c->x0;
    size_t i;
    if (!seen) {
        c->d.oom = 1;
        return y;
    }
    for (i = 0; i < r->nrecords; i++)
        seen[r->records[i].kernel] = 1;
    if (c->by_kind) {
        y = legend_kinds(c, y, seen);
        free(seen);
        return y;
    }
    mmm__gd_text(&c->d, c->x0, y, 12, GD_START, INK, 1, "kernel:");
    x += text_w(12, 8);
    for (i = 0; i < r->nkernels; i++)
        if (seen[i])
            legend_item(c, &x, &y, kernel_colour(c, (uint32_t)i), c->prog->kernels[i].id, "");
    free(seen);
    return y + 14;
}

static void detailed(chart *c)
{
    const mmm_sim_result *r = c->r;
    double lane_h = 480.0 / (double)r->p;
    size_t i;
    /* Few SMs: tall lanes (at least 160 pixels in all), so that a small
     * schedule is not a thin strip. */
    if (lane_h > 40)
        lane_h = 40;
    if (lane_h * (double)r->p < 160)
        lane_h = fmin(60.0, 160.0 / (double)r->p);
    if (lane_h < 2)
        lane_h = 2;
    c->y1 = c->y0 + lane_h * (double)r->p;
    grid(c);
    lane_labels(c, lane_h);
    for (i = 0; i < r->nrecords; i++)
        record_rects(c, &r->records[i], lane_h);
}

/* ------------------------------------------------------------------ */
/* Aggregated: a bar per kernel                                       */

typedef struct kstart {
    double start;
    uint32_t k;
} kstart;

static int by_start(const void *a, const void *b)
{
    const kstart *x = a, *y = b;
    if (x->start != y->start)
        return x->start < y->start ? -1 : 1;
    return x->k < y->k ? -1 : x->k > y->k;
}

static void kernel_bar(chart *c, uint32_t k, double y, double h)
{
    const mmm_sim_kernel_stat *st = &c->r->kernels[k];
    double x = X(c, st->first_start), w = X(c, st->last_end) - x;
    double span = st->last_end - st->first_start;
    double mean = span > 0 ? st->busy / span : (double)c->r->p;
    double frac = mean / (double)c->r->p;
    char tip[600], a[64], b[64];
    if (w < 0.6)
        w = 0.6;
    if (frac > 1)
        frac = 1;
    if (frac < 0.08)
        frac = 0.08;
    snprintf(tip, sizeof tip, "%s: %s to %s, %lld blocks, %.1f SMs busy on average",
             c->prog->kernels[k].id, mmm__fig_num(st->first_start, a, sizeof a),
             mmm__fig_num(st->last_end, b, sizeof b), (long long)st->blocks, mean);
    mmm__gd_rect(&c->d, x, y, w, h, kernel_colour(c, k), 0.25, tip);
    mmm__gd_rect(&c->d, x, y + h * (1 - frac), w, h * frac, kernel_colour(c, k), 1.0, tip);
}

/* A row holding kernels ks[0..n): their union of intervals. */
static void group_row(chart *c, const uint32_t *ks, size_t n, double y,
                      double h, uint32_t rgb)
{
    const mmm_sim_kernel_stat *st = c->r->kernels;
    double lo = st[ks[0]].first_start, hi = st[ks[0]].last_end;
    size_t i;
    for (i = 1; i <= n; i++) {
        if (i < n && st[ks[i]].first_start <= hi) {
            if (st[ks[i]].last_end > hi)
                hi = st[ks[i]].last_end;
            continue;
        }
        {
            double x = X(c, lo), w = X(c, hi) - x;
            mmm__gd_rect(&c->d, x, y, w < 0.6 ? 0.6 : w, h, rgb, 0.85, NULL);
        }
        if (i < n) {
            lo = st[ks[i]].first_start;
            hi = st[ks[i]].last_end;
        }
    }
}

static void aggregated(chart *c)
{
    const mmm_sim_result *r = c->r;
    size_t cap = r->nkernels ? r->nkernels : 1, n = 0, i, rows, per;
    uint32_t *ks = malloc(cap * sizeof *ks);
    kstart *order = malloc(cap * sizeof *order);
    double row_h;
    if (!ks || !order) {
        free(ks);
        free(order);
        c->d.oom = 1;
        return;
    }
    for (i = 0; i < r->nkernels; i++)
        if (r->kernels[i].blocks > 0) {
            order[n].start = r->kernels[i].first_start;
            order[n++].k = (uint32_t)i;
        }
    qsort(order, n, sizeof *order, by_start);
    for (i = 0; i < n; i++)
        ks[i] = order[i].k;
    free(order);
    rows = n < MAX_ROWS ? n : MAX_ROWS;
    per = rows ? (n + rows - 1) / rows : 1;
    rows = per ? (n + per - 1) / per : 0;
    row_h = rows ? 440.0 / (double)rows : 20;
    row_h = row_h > 24 ? 24 : row_h < 10 ? 10 : row_h;
    c->y1 = c->y0 + row_h * (double)(rows ? rows : 1);
    grid(c);
    for (i = 0; i < rows; i++) {
        size_t a = i * per, b = a + per < n ? a + per : n;
        double y = c->y0 + (double)i * row_h;
        const char *first = c->prog->kernels[ks[a]].id;
        if (b - a == 1) {
            mmm__gd_text(&c->d, c->x0 - 6, y + row_h / 2 + 4, 11, GD_END, INK, 0,
                         "%.16s", first);
            kernel_bar(c, ks[a], y + 1, row_h - 2);
        } else {
            mmm__gd_text(&c->d, c->x0 - 6, y + row_h / 2 + 4, 10, GD_END, INK, 0,
                         "%.9s\xe2\x80\xa6 (%zu)", first, b - a);
            group_row(c, ks + a, b - a, y + 1, row_h - 2,
                      c->by_kind ? kernel_colour(c, ks[a]) : palette[i % 10]);
        }
    }
    free(ks);
}

/* ------------------------------------------------------------------ */

static size_t rect_count(const mmm_sim_result *r, size_t limit)
{
    size_t i, n = 0;
    for (i = 0; i < r->nrecords && n <= limit; i++)
        n += (size_t)r->records[i].sm_count;
    return n;
}

static int build(chart *c, const mmm_gantt_options *opt)
{
    const mmm_sim_result *r = c->r;
    size_t max_rects = opt->max_rects ? opt->max_rects : DEFAULT_MAX_RECTS;
    size_t nrects = r->records ? rect_count(r, max_rects) : 0;
    int detail = r->records && !r->records_truncated && r->p <= MAX_LANES
                 && nrects <= max_rects;
    char title[600], note[200];
    double y, top = r->makespan;
    size_t i, drawn = 0;
    int rc;

    if (r->graham > top)
        top = r->graham;
    if (c->mmm_bound > top && c->mmm_bound <= 1.3 * top)
        top = c->mmm_bound; /* close enough to show on the chart */
    c->tmax = top > 0 ? 1.03 * top : 1.0;
    c->x0 = LEFT;
    c->x1 = WIDTH - RIGHT;
    c->y0 = TOP;
    if (opt->title)
        snprintf(title, sizeof title, "%s", opt->title);
    else
        snprintf(title, sizeof title, "%s: %s, p = %lld SMs",
                 c->prog->name ? c->prog->name : "",
                 r->policy ? r->policy->name : "", (long long)r->p);
    /* More kernels drawn than colours: colour by kind */
    for (i = 0; i < r->nkernels; i++)
        drawn += r->kernels[i].blocks > 0;
    if (drawn > 20) {
        if (mmm__kinds_compute(&c->kinds, c->prog, NULL) < 0)
            return MMM_ENOMEM;
        c->by_kind = 1;
    }
    note[0] = '\0';
    if (!detail)
        snprintf(note, sizeof note, "; one bar per kernel (height: mean busy SMs)");
    header(c, title, note);
    if (detail)
        detailed(c);
    else
        aggregated(c);
    bound_lines(c);
    y = time_axis(c);
    if (detail)
        y = legend(c, y + 10);
    else if (c->by_kind)
        y = legend_kinds_all(c, y + 10);
    c->d.height = y + 8;
    rc = c->d.oom ? MMM_ENOMEM : MMM_OK;
    mmm__kinds_dispose(&c->kinds);
    return rc;
}

int mmm_gantt_png_available(void)
{
    return mmm__gd_png_available();
}

/* The chart of r as a display list (disposed by the caller). */
static int chart_build(chart *c, const mmm_sim_result *r, const mmm_program *prog,
                       const mmm_gantt_options *opt)
{
    static const mmm_gantt_options defaults = MMM_GANTT_OPTIONS_INIT;
    if (!opt)
        opt = &defaults;
    memset(c, 0, sizeof *c);
    c->r = r;
    c->prog = prog;
    c->mmm_bound = opt->mmm_bound;
    mmm__gd_init(&c->d, WIDTH, 0);
    return build(c, opt);
}

int mmm_gantt_pdf_available(void)
{
    return mmm__gd_pdf_available();
}

int mmm_gantt_write(const char *path, const mmm_sim_result *r,
                    const mmm_program *prog, const mmm_gantt_options *opt,
                    mmm_error *err)
{
    int png = mmm__has_extension(path, "png"), pdf = mmm__has_extension(path, "pdf");
    chart c;
    int rc;

    MMM__CHECK_VERSION(opt, mmm_gantt_options, GANTT_OPTIONS, err);
    if (!png && !pdf && !mmm__has_extension(path, "svg") && strcmp(path, "-"))
        return mmm_error_set(err, MMM_EINVAL, path, 0,
                             "a Gantt chart is written as .svg, .png or .pdf");
    if ((rc = chart_build(&c, r, prog, opt)) < 0) {
        mmm__gd_dispose(&c.d);
        return mmm_error_set(err, rc, path, 0, "out of memory");
    }
    if (png || pdf) {
        rc = mmm__gd_write_pl(path, png ? "pngcairo" : "pdfcairo", &c.d, err);
    } else {
        mmm__outfile of;
        if ((rc = mmm__outfile_open(&of, path, err)) == MMM_OK) {
            mmm__gd_write_svg(of.fp, &c.d);
            rc = mmm__outfile_commit(&of, err);
        }
    }
    mmm__gd_dispose(&c.d);
    return rc;
}

int mmm__gantt_svg(char **out, size_t *len, const mmm_sim_result *r,
                   const mmm_program *prog, const mmm_gantt_options *opt,
                   mmm_error *err)
{
    chart c;
    FILE *f;
    int rc;
    *out = NULL;
    *len = 0;
    if ((rc = chart_build(&c, r, prog, opt)) < 0 || !(f = open_memstream(out, len))) {
        mmm__gd_dispose(&c.d);
        return mmm_error_set(err, MMM_ENOMEM, NULL, 0, "out of memory");
    }
    mmm__gd_write_svg(f, &c.d);
    mmm__gd_dispose(&c.d);
    if (fclose(f) != 0 || !*out) {
        free(*out);
        *out = NULL;
        *len = 0;
        return mmm_error_set(err, MMM_ENOMEM, NULL, 0, "out of memory");
    }
    return MMM_OK;
}
