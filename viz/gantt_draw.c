/* gantt_draw.c: the Gantt chart's display list and its backends: SVG written
 * by hand (rectangles with <title> tooltips, lines, text) and PNG through
 * PLplot's pngcairo or pdfcairo device (the page is the pixel grid of the
 * list),
 * written atomically by plstream.c. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "gantt_draw.h"
#include "plstream.h"
#include "base/text.h"
#include "base/grow.h"

#ifdef MMM_HAVE_PLPLOT
#include <plplot.h>
#endif

void mmm__gd_init(mmm__gd_list *d, double width, double height)
{
    memset(d, 0, sizeof *d);
    d->width = width;
    d->height = height;
}

void mmm__gd_dispose(mmm__gd_list *d)
{
    size_t i;
    for (i = 0; i < d->n; i++)
        free(d->v[i].text);
    free(d->v);
    memset(d, 0, sizeof *d);
}

static mmm__gd_item *add(mmm__gd_list *d, int kind)
{
    mmm__gd_item *it, *v = mmm__grow(d->v, &d->cap, d->n + 1, sizeof *v, 256);
    if (!v) {
        d->oom = 1;
        return NULL;
    }
    d->v = v;
    it = &d->v[d->n++];
    memset(it, 0, sizeof *it);
    it->kind = kind;
    it->alpha = 1.0;
    return it;
}

static char *dup(mmm__gd_list *d, const char *s)
{
    size_t n;
    char *t;
    if (!s)
        return NULL;
    n = strlen(s) + 1;
    t = malloc(n);
    if (!t)
        d->oom = 1;
    else
        memcpy(t, s, n);
    return t;
}

void mmm__gd_rect(mmm__gd_list *d, double x, double y, double w, double h,
                  uint32_t rgb, double alpha, const char *tooltip)
{
    mmm__gd_item *it = add(d, GD_RECT);
    if (!it)
        return;
    it->x = x;
    it->y = y;
    it->w = w;
    it->h = h;
    it->rgb = rgb;
    it->alpha = alpha;
    it->text = dup(d, tooltip);
}

void mmm__gd_line(mmm__gd_list *d, double x1, double y1, double x2, double y2,
                  uint32_t rgb, double width, int dash)
{
    mmm__gd_item *it = add(d, GD_LINE);
    if (!it)
        return;
    it->x = x1;
    it->y = y1;
    it->w = x2 - x1;
    it->h = y2 - y1;
    it->rgb = rgb;
    it->size = width;
    it->dash = dash;
}

void mmm__gd_text(mmm__gd_list *d, double x, double y, double size, int anchor,
                  uint32_t rgb, int bold, const char *fmt, ...)
{
    char buf[512];
    va_list ap;
    mmm__gd_item *it = add(d, GD_TEXT);
    if (!it)
        return;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    it->x = x;
    it->y = y;
    it->size = size;
    it->anchor = anchor;
    it->rgb = rgb;
    it->bold = bold;
    it->text = dup(d, buf);
}

/* ------------------------------------------------------------------ */
/* SVG                                                                */

static void svg_item(FILE *f, const mmm__gd_item *it)
{
    static const char *anchors[] = {"start", "middle", "end"};
    switch (it->kind) {
    case GD_RECT:
        fprintf(f, "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" "
                   "fill=\"#%06x\"", it->x, it->y, it->w, it->h,
                (unsigned)it->rgb);
        if (it->alpha < 1.0)
            fprintf(f, " fill-opacity=\"%.2f\"", it->alpha);
        if (it->text) {
            fputs("><title>", f);
            mmm__fput_xml(f, it->text);
            fputs("</title></rect>\n", f);
        } else {
            fputs("/>\n", f);
        }
        break;
    case GD_LINE:
        fprintf(f, "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" "
                   "stroke=\"#%06x\" stroke-width=\"%.2f\"%s/>\n", it->x, it->y,
                it->x + it->w, it->y + it->h, (unsigned)it->rgb, it->size,
                it->dash ? " stroke-dasharray=\"6,4\"" : "");
        break;
    default:
        fprintf(f, "<text x=\"%.2f\" y=\"%.2f\" font-size=\"%.1f\" "
                   "text-anchor=\"%s\" fill=\"#%06x\"%s>", it->x, it->y, it->size,
                anchors[it->anchor], (unsigned)it->rgb,
                it->bold ? " font-weight=\"bold\"" : "");
        mmm__fput_xml(f, it->text ? it->text : "");
        fputs("</text>\n", f);
    }
}

void mmm__gd_write_svg(FILE *f, const mmm__gd_list *d)
{
    size_t i;
    fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
               "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" "
               "height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" "
               "font-family=\"Helvetica, Arial, sans-serif\">\n"
               "<rect x=\"0\" y=\"0\" width=\"%.0f\" height=\"%.0f\" fill=\"#ffffff\"/>\n",
            d->width, d->height, d->width, d->height, d->width, d->height);
    for (i = 0; i < d->n; i++)
        svg_item(f, &d->v[i]);
    fputs("</svg>\n", f);
}

/* ------------------------------------------------------------------ */
/* PNG through PLplot                                                 */

#ifdef MMM_HAVE_PLPLOT

#define SCRATCH 15 /* colour map 0 index used for every item */
#define DPI 90.0

int mmm__gd_png_available(void)
{
    return mmm__pl_have_device("pngcairo");
}

int mmm__gd_pdf_available(void)
{
    return mmm__pl_have_device("pdfcairo");
}

static void colour(uint32_t rgb, double alpha)
{
    plscol0a(SCRATCH, (PLINT)(rgb >> 16 & 0xff), (PLINT)(rgb >> 8 & 0xff),
             (PLINT)(rgb & 0xff), alpha);
    plcol0(SCRATCH);
}

/* PLplot reads '#' as an escape: double it. */
static void pl_escape(const char *s, char *out, size_t size)
{
    size_t j = 0;
    for (; *s && j + 2 < size; s++) {
        if (*s == '#')
            out[j++] = '#';
        out[j++] = *s;
    }
    out[j] = '\0';
}

static void pl_item(const mmm__gd_item *it, double h)
{
    PLFLT x[4], y[4];
    char text[1100];
    switch (it->kind) {
    case GD_RECT:
        x[0] = x[3] = it->x;
        x[1] = x[2] = it->x + it->w;
        y[0] = y[1] = h - it->y;
        y[2] = y[3] = h - it->y - it->h;
        colour(it->rgb, it->alpha);
        plfill(4, x, y);
        break;
    case GD_LINE: {
        PLINT mark = 1500, space = 1000;
        colour(it->rgb, 1.0);
        plwidth(it->size);
        if (it->dash)
            plstyl(1, &mark, &space);
        pljoin(it->x, h - it->y, it->x + it->w, h - it->y - it->h);
        plstyl(0, NULL, NULL);
        plwidth(1.0);
        break;
    }
    default:
        colour(it->rgb, 1.0);
        /* Font size in pixels to PLplot's character height in mm (about
         * 0.7 em is the height of a capital). */
        plschr(0.7 * it->size * 25.4 / DPI, 1.0);
        plsfont(PL_FCI_SANS, PL_FCI_UPRIGHT,
                it->bold ? PL_FCI_BOLD : PL_FCI_MEDIUM);
        pl_escape(it->text ? it->text : "", text, sizeof text);
        /* plptex centres the text vertically on its reference point: move
         * it from the baseline up by half a capital. */
        plptex(it->x, h - it->y + 0.35 * it->size, 1.0, 0.0,
               it->anchor == GD_START ? 0.0 : it->anchor == GD_MIDDLE ? 0.5 : 1.0,
               text);
    }
}

static void setup(void *payload)
{
    (void)payload;
    plscolbg(255, 255, 255);
}

static void draw(void *payload)
{
    const mmm__gd_list *d = payload;
    size_t i;
    plvpor(0.0, 1.0, 0.0, 1.0);
    plwind(0.0, d->width, 0.0, d->height);
    for (i = 0; i < d->n; i++)
        pl_item(&d->v[i], d->height);
}

int mmm__gd_write_pl(const char *path, const char *dev, const mmm__gd_list *d,
                     mmm_error *err)
{
    mmm__pl_page pg;
    memset(&pg, 0, sizeof pg);
    pg.dev = dev;
    pg.dpi = DPI;
    pg.width = (int)d->width;
    pg.height = (int)d->height;
    pg.setup = setup;
    pg.draw = draw;
    pg.payload = (void *)d;
    return mmm__pl_write_file(&pg, path, err);
}

#else

int mmm__gd_png_available(void)
{
    return 0;
}

int mmm__gd_pdf_available(void)
{
    return 0;
}

int mmm__gd_write_pl(const char *path, const char *dev, const mmm__gd_list *d,
                     mmm_error *err)
{
    (void)d;
    return mmm_error_set(err, MMM_EINVAL, path, 0,
                         "this build draws no %s (no PLplot): use .svg",
                         strcmp(dev, "pdfcairo") ? "PNG" : "PDF");
}

#endif
