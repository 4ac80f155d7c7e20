/* gantt_draw.h: a tiny display list (rectangles, lines, text in pixel
 * coordinates, y downwards) and its backends: hand-written SVG and
 * PLplot's pngcairo and pdfcairo devices.  Private to viz/gantt*.c. */
#ifndef MMM_GANTT_DRAW_H
#define MMM_GANTT_DRAW_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "mmm/error.h"

enum { GD_RECT, GD_LINE, GD_TEXT };
enum { GD_START, GD_MIDDLE, GD_END };

typedef struct mmm__gd_item {
    int kind;
    double x, y, w, h;  /* rect: corner and size; line: from (x,y) by (w,h);
                           text: anchor point on the baseline */
    uint32_t rgb;       /* 0xRRGGBB */
    double alpha;       /* rect fill opacity */
    double size;        /* line width or font size, pixels */
    int dash;           /* line: dashed */
    int anchor;         /* text: GD_START/MIDDLE/END */
    int bold;
    char *text;         /* text, or a rect's tooltip (may be NULL) */
} mmm__gd_item;

typedef struct mmm__gd_list {
    mmm__gd_item *v;
    size_t n, cap;
    double width, height;
    int oom;            /* an allocation failed: the list is incomplete */
} mmm__gd_list;

void mmm__gd_init(mmm__gd_list *d, double width, double height);
void mmm__gd_dispose(mmm__gd_list *d);
void mmm__gd_rect(mmm__gd_list *d, double x, double y, double w, double h,
                  uint32_t rgb, double alpha, const char *tooltip);
void mmm__gd_line(mmm__gd_list *d, double x1, double y1, double x2, double y2,
                  uint32_t rgb, double width, int dash);
void mmm__gd_text(mmm__gd_list *d, double x, double y, double size, int anchor,
                  uint32_t rgb, int bold, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 8, 9)))
#endif
    ;

/* Write the list as a standalone SVG document. */
void mmm__gd_write_svg(FILE *f, const mmm__gd_list *d);
/* Draw the list into the file path through the PLplot device dev
 * ("pngcairo" or "pdfcairo"), atomically.  MMM_EINVAL without PLplot,
 * MMM_EIO without the device. */
int mmm__gd_write_pl(const char *path, const char *dev, const mmm__gd_list *d,
                     mmm_error *err);
int mmm__gd_png_available(void);
int mmm__gd_pdf_available(void);

#endif
