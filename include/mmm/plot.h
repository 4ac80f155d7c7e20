/**
 * mmm/plot.h: line plots of measures against a parameter (optimize --plot).
 *
 * Drawing is done by PLplot (the svg, pngcairo and pdfcairo devices) and
 * lives in viz/ only.  A figure has one or more panels stacked vertically
 * and sharing the x axis; each panel holds curves, with a legend; vertical
 * marks (the best value, the baseline...) cross every panel.
 *
 * Curves are filled point by point and decimated on the fly, so that a
 * sweep of millions of points costs a few thousand plotted points per
 * curve: each bucket of consecutive points keeps its first, smallest,
 * largest and last value (the shape of the curve, spikes included).  A NaN
 * y (an infeasible point) breaks the line; an isolated point is drawn as a
 * dot.  On a log axis, values <= 0 are left out like NaN.
 *
 *   mmm_plot_curve o;
 *   mmm_plot_curve_init(&o, "O overhead", npoints, 0);
 *   for (...) mmm_plot_curve_add(&o, s, O);
 *   mmm_plot_curve_finish(&o);
 *   ... panel.curves = &o; plot.panels = &panel; ...
 *   mmm_plot_write(&plot, "out.png", &err);
 *   mmm_plot_curve_dispose(&o);
 */
#ifndef MMM_PLOT_H
#define MMM_PLOT_H

#include <stddef.h>
#include <stdint.h>

#include "mmm/export.h"
#include "mmm/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Default plotted points per curve after decimation. */
#define MMM_PLOT_DEFAULT_MAX_POINTS 4000
/** Colours of the palette (mmm_plot_curve.color is taken modulo it). */
#define MMM_PLOT_NCOLORS 13

typedef enum mmm_plot_scale {
    MMM_PLOT_AUTO = 0,   /**< log when all values are > 0 and span a
                              factor 10 or more */
    MMM_PLOT_LINEAR = 1,
    MMM_PLOT_LOG = 2
} mmm_plot_scale;

typedef enum mmm_plot_line {
    MMM_PLOT_SOLID = 0,
    MMM_PLOT_DASHED = 1,
    MMM_PLOT_DOTTED = 2
} mmm_plot_line;

/** Per bucket: first, min, max, last of the feasible points. */
typedef struct mmm_plot_keep_ {
    double x, y;
    uint64_t i;
    int set;
} mmm_plot_keep_;

/** A curve: a label, a style and its (decimated) points. */
typedef struct mmm_plot_curve {
    const char *label;      /**< legend text (borrowed); NULL: no
                                 entry in the legend */
    int color;              /**< palette index 0..12: blue, vermillion,
                                 green, purple, orange, sky blue, black,
                                 grey (Okabe–Ito, colour-blind safe), then
                                 wine, olive, indigo, teal, brown (Tol) */
    mmm_plot_line line;
    int markers;            /**< draw a dot at every point (small sweeps);
                                 set by init when nothing is decimated */
    int band_with;          /**< 1 + index of another curve of the same
                                 panel with the same x values: the area
                                 between the two is filled lightly in
                                 this curve's colour; 0: none */
    double *x, *y;          /**< the points to draw; NaN y breaks the line */
    size_t n, cap;
    /* decimation state */
    uint64_t bucket;        /**< input points per bucket (1: keep all) */
    uint64_t seen;          /**< input points so far */
    mmm_plot_keep_ first, lo, hi, last;
    uint64_t gap_lo, gap_hi; /**< input indices of NaNs in this bucket */
    int gap;
} mmm_plot_curve;

/**
 * Prepare an empty curve for about `expected` input points, keeping at
 * most about max_points (0: MMM_PLOT_DEFAULT_MAX_POINTS).  label is
 * borrowed.  Returns 0 or MMM_ENOMEM.
 */
MMM_API int mmm_plot_curve_init(mmm_plot_curve *c, const char *label,
                                uint64_t expected, size_t max_points);
/** Append a point (y NaN: no value there).  0 or MMM_ENOMEM. */
MMM_API int mmm_plot_curve_add(mmm_plot_curve *c, double x, double y);
/** Flush the last bucket.  0 or MMM_ENOMEM. */
MMM_API int mmm_plot_curve_finish(mmm_plot_curve *c);
MMM_API void mmm_plot_curve_dispose(mmm_plot_curve *c);

/**
 * A heat map: the panel's y axis is a second variable and the colour of
 * each cell the value z there, read on a colour bar beside the panel.
 * Cells are centred on x[i], y[j] (both ascending) and reach halfway to
 * their neighbours (on the axis's scale); a NaN z is drawn light grey
 * (no value there: an infeasible point).
 */
typedef struct mmm_plot_heat {
    size_t nx, ny;
    const double *x, *y;
    const double *z;        /**< nx·ny values, z[i·ny + j] at (x[i], y[j]) */
    const char *zlabel;     /**< the colour bar's title */
    mmm_plot_scale zscale;
    int has_best;           /**< ring the cell (best_x, best_y) */
    double best_x, best_y;
} mmm_plot_heat;

/** A panel: curves sharing a y axis, or a heat map. */
typedef struct mmm_plot_panel {
    const char *ylabel;
    mmm_plot_scale yscale;
    const mmm_plot_curve *curves;
    size_t ncurves;
    const mmm_plot_heat *heat; /**< when set, the panel draws it (its y
                                    values on the y axis) and no curve */
} mmm_plot_panel;

/** A text at a point of a panel, in the data's coordinates. */
typedef struct mmm_plot_note {
    size_t panel;
    double x, y;
    const char *text;
    int color;              /**< palette index; -1: black */
    double just;            /**< 0: the text starts at the point, 0.5:
                                 centred on it, 1: ends at it */
    double slope;           /**< the text runs along a line of this slope
                                 in the axes' coordinates (0: level; 1 on
                                 log-log axes: along a bandwidth roof) */
    double raise;           /**< moved up by this many character heights */
} mmm_plot_note;

/** A range of x values [x0, x1] shaded light grey across every panel:
 *  the shade reaches halfway (on the x axis's scale) to the values just
 *  outside it, before and after (NaN: to the edge of the plot). */
typedef struct mmm_plot_span {
    double x0, x1;
    double before, after;
} mmm_plot_span;

/** A vertical line across every panel, labelled at the top. */
typedef struct mmm_plot_mark {
    double x;
    const char *label;
    int color;              /**< palette index */
    mmm_plot_line line;
} mmm_plot_mark;

typedef struct mmm_plot {
    const char *title;
    const char *subtitle;   /**< a smaller second line, may be NULL */
    const char *xlabel;
    mmm_plot_scale xscale;
    const mmm_plot_panel *panels;
    size_t npanels;
    const mmm_plot_mark *marks;
    size_t nmarks;
    const mmm_plot_note *notes;
    size_t nnotes;
    const mmm_plot_span *spans;
    size_t nspans;
    const char *span_label; /**< the spans' key in the first legend
                                 ("infeasible"); NULL: none */
} mmm_plot;

/** 1 when this build can draw (PLplot was found at build time). */
MMM_API int mmm_plot_available(void);

/**
 * Draw the figure into path, atomically (mmm__outfile).  The format comes
 * from the extension: .svg, .png or .pdf.  MMM_EINVAL for another
 * extension, an empty figure, or a build without PLplot; MMM_EIO when the
 * PLplot device is not installed (the message names the Debian package)
 * or the file cannot be written.
 */
MMM_API int mmm_plot_write(const mmm_plot *plot, const char *path, mmm_error *err);

#ifdef __cplusplus
}
#endif
#endif
