/* render_text.h: the number and colour formatting (and the Graphviz
 * HTML-label escaping) shared by the renderer (render.c) and the report
 * (report.c).
 * Private to viz/. */
#ifndef MMM_VIZ_RENDER_TEXT_H
#define MMM_VIZ_RENDER_TEXT_H

#include <stddef.h>

#include "base/text.h"

/* Append s escaped for the text of a Graphviz HTML-like label: XML
 * escaping (base/text.h) and, since Graphviz also expands escape sequences
 * there (\N is the node name), backslashes doubled. */
void mmm__text_put_gv_html(mmm__text *t, const char *s);

/* A measure for a person: integers below 10^6 exactly ("185088"), others
 * with 3 significant digits as "5.69·10⁸" (UTF-8 superscripts) or "0.25".
 * Non-finite values print as "inf"/"nan". */
char *mmm__fmt_compact(double v, char *buf, size_t size);
/* For totals: integers below 10^15 in full, others with 6 significant
 * digits ("589.333", "3.56342·10¹⁵"). */
char *mmm__fmt_full(double v, char *buf, size_t size);

/* The sequential colour scale of the pictures: ColorBrewer YlOrRd, 9
 * classes (Cynthia Brewer, colorbrewer2.org; light = low). */
#define MMM_SCALE_CLASSES 9
extern const char *const mmm__scale_fill[MMM_SCALE_CLASSES];
/* Text colour readable on each class (black on light, white on dark). */
extern const char *const mmm__scale_ink[MMM_SCALE_CLASSES];

/* Maps values in [lo, hi] to classes; logarithmic when the positive values
 * span two decades or more (zero and negative values take class 0). */
typedef struct mmm__scale {
    double lo, hi;     /* smallest and largest value seen */
    double lo_pos;     /* smallest positive value, 0 if none */
    int log;           /* logarithmic */
    int any;           /* at least one value seen */
} mmm__scale;

void mmm__scale_init(mmm__scale *sc);
void mmm__scale_add(mmm__scale *sc, double v);
/* Decide linear or logarithmic once every value was added. */
void mmm__scale_finish(mmm__scale *sc);
int mmm__scale_class(const mmm__scale *sc, double v);

#endif
