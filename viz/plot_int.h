/* plot_int.h: what plot.c drew where, for the tests: the boxes of its
 * texts, frames and legends (estimated from the character height and the
 * number of characters), the marks' positions and each curve's colour and
 * key.  Private to viz/ and the tests. */
#ifndef MMM_VIZ_PLOT_INT_H
#define MMM_VIZ_PLOT_INT_H

#include <stddef.h>

#include "mmm/plot.h"
#include "mmm/scale.h"
#include "mmm/sweep_plot.h"

enum {
    MMM__PLOT_FRAME,       /* a panel's frame */
    MMM__PLOT_TICK,        /* a tick label */
    MMM__PLOT_AXIS_TITLE,  /* an axis title */
    MMM__PLOT_TITLE,       /* the title or subtitle */
    MMM__PLOT_LEGEND       /* a panel's legend */
};

#define MMM__PLOT_MAX_BOXES 512
#define MMM__PLOT_MAX_CURVES 64
#define MMM__PLOT_MAX_MARKS 32

typedef struct mmm__plot_box {
    int kind, panel;
    double x0, y0, x1, y1;   /* mm, y upwards, origin at the bottom left */
    char text[40];           /* a text's first characters, PLplot escapes
                                (#u, #d) included */
} mmm__plot_box;

typedef struct mmm__plot_series {
    int panel;
    unsigned rgb;            /* 0xRRGGBB */
    mmm_plot_line line;
    int draws_line;          /* some run of two points or more */
    int key_line;            /* the legend shows a line */
} mmm__plot_series;

typedef struct mmm__plot_markpos {
    int panel;
    double x;                /* mm */
} mmm__plot_markpos;

typedef struct mmm__plot_layout {
    double width, height;    /* the page, mm */
    mmm__plot_box boxes[MMM__PLOT_MAX_BOXES];
    size_t nboxes;
    mmm__plot_series curves[MMM__PLOT_MAX_CURVES];
    size_t ncurves;
    mmm__plot_markpos marks[MMM__PLOT_MAX_MARKS];
    size_t nmarks;
    size_t nbands;           /* bands filled between two curves */
    size_t nheat;            /* cells of heat maps drawn */
    size_t ngrey;            /* ... of them without a value */
    size_t nspans;           /* shaded ranges drawn (over every panel) */
} mmm__plot_layout;

/* Draw plot as SVG into memory (as mmm__plot_svg) and, when rec is not
 * NULL, record its layout there. */
int mmm__plot_layout_svg(const mmm_plot *plot, mmm__plot_layout *rec, char **out,
                         size_t *len, mmm_error *err);

/* The sweep figure (mmm__sweep_plot_svg) with its layout recorded. */
int mmm__sweep_plot_layout(mmm_sweep_plot *sp, const mmm_sweep_result *res,
                           mmm_instance *inst, const mmm_sweep_spec *spec,
                           mmm__plot_layout *rec, char **out, size_t *len,
                           mmm_error *err);

/* The speedup figure (mmm_speedup_plot_write_measured) with its layout
 * recorded. */
int mmm__speedup_plot_layout(const mmm_speedup *s, const mmm_speedup_measured *m,
                             const char *program_name, mmm__plot_layout *rec, char **svg,
                             size_t *len, mmm_error *err);

/* The colour of palette index c (mmm_plot_curve.color), 0xRRGGBB. */
unsigned mmm__plot_color_rgb(int c);

#endif
