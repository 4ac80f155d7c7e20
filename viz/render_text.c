/* render_text.c: number formatting, colour scale and the Graphviz
 * HTML-label escaping shared by the renderer and the report (the text
 * buffer is base/text.c). */
#include "render_text.h"
#include "numfmt.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* XML-escaped runs (base/text.c) with their backslashes doubled. */
static void gv_html_sink(void *ctx, const char *s, size_t n)
{
    const char *b;
    while ((b = memchr(s, '\\', n)) != NULL) {
        mmm__text_putn(ctx, s, (size_t)(b - s) + 1);
        mmm__text_putn(ctx, "\\", 1);
        n -= (size_t)(b - s) + 1;
        s = b + 1;
    }
    mmm__text_putn(ctx, s, n);
}

void mmm__text_put_gv_html(mmm__text *t, const char *s)
{
    mmm__escape_xml(s, gv_html_sink, t);
}

/* ------------------------------------------------------------------ */
/* Numbers                                                             */

/* Print "m·10^e" (m with `digits` significant digits) with a UTF-8
 * superscript exponent. */
static char *fmt_scientific(double v, int digits, char *buf, size_t size)
{
    int e = (int)floor(log10(fabs(v)));
    char mant[40];
    /* Rounding may carry into the next decade (9.996 -> 10). */
    snprintf(mant, sizeof mant, "%.*g", digits, v / pow(10.0, e));
    if (fabs(strtod(mant, NULL)) >= 10.0) {
        e++;
        snprintf(mant, sizeof mant, "%.*g", digits, v / pow(10.0, e));
    }
    return mmm__fmt_times_ten(mant, strlen(mant), e, buf, size);
}

/* `digits` significant digits without an exponent, trailing zeros
 * dropped: 3073.33 -> 3073 (3 digits), 12.345 -> 12.3, 0.25 -> 0.25. */
static char *fmt_fixed(double v, int digits, char *buf, size_t size)
{
    int decimals = digits - 1 - (int)floor(log10(fabs(v)));
    char *dot, *end;
    if (decimals < 0)
        decimals = 0;
    snprintf(buf, size, "%.*f", decimals, v);
    dot = strchr(buf, '.');
    if (dot) {
        end = buf + strlen(buf) - 1;
        while (end > dot && *end == '0')
            *end-- = '\0';
        if (end == dot)
            *end = '\0';
    }
    return buf;
}

static char *fmt_digits(double v, int digits, double exact_below, char *buf, size_t size)
{
    double a = fabs(v);
    if (size == 0)
        return buf;
    if (isnan(v))
        snprintf(buf, size, "nan");
    else if (isinf(v))
        snprintf(buf, size, v < 0 ? "-inf" : "inf");
    else if (v == floor(v) && a < exact_below)
        snprintf(buf, size, "%.0f", v);
    else if (a >= 1e6 || a < 1e-3)
        fmt_scientific(v, digits, buf, size);
    else
        fmt_fixed(v, digits, buf, size);
    return buf;
}

char *mmm__fmt_compact(double v, char *buf, size_t size)
{
    return fmt_digits(v, 3, 1e6, buf, size);
}

char *mmm__fmt_full(double v, char *buf, size_t size)
{
    return fmt_digits(v, 6, 1e15, buf, size);
}

/* ------------------------------------------------------------------ */
/* Colour scale                                                        */

const char *const mmm__scale_fill[MMM_SCALE_CLASSES] = {
    "#ffffcc", "#ffeda0", "#fed976", "#feb24c", "#fd8d3c",
    "#fc4e2a", "#e31a1c", "#bd0026", "#800026"};

/* WCAG contrast: black text on the six lighter classes, white on the three
 * darker ones. */
const char *const mmm__scale_ink[MMM_SCALE_CLASSES] = {
    "#000000", "#000000", "#000000", "#000000", "#000000",
    "#000000", "#ffffff", "#ffffff", "#ffffff"};

void mmm__scale_init(mmm__scale *sc)
{
    memset(sc, 0, sizeof *sc);
}

void mmm__scale_add(mmm__scale *sc, double v)
{
    if (!isfinite(v))
        return;
    if (!sc->any) {
        sc->lo = sc->hi = v;
        sc->any = 1;
    }
    if (v < sc->lo)
        sc->lo = v;
    if (v > sc->hi)
        sc->hi = v;
    if (v > 0 && (sc->lo_pos == 0 || v < sc->lo_pos))
        sc->lo_pos = v;
}

void mmm__scale_finish(mmm__scale *sc)
{
    sc->log = sc->any && sc->lo >= 0 && sc->lo_pos > 0 &&
              sc->hi / sc->lo_pos >= 100.0;
}

int mmm__scale_class(const mmm__scale *sc, double v)
{
    double f;
    int c;
    if (!sc->any || !(sc->hi > sc->lo))
        return MMM_SCALE_CLASSES / 2;
    if (sc->log) {
        if (v <= 0)
            return 0;
        f = log(v / sc->lo_pos) / log(sc->hi / sc->lo_pos);
    } else {
        f = (v - sc->lo) / (sc->hi - sc->lo);
    }
    if (!(f > 0))
        return 0;
    c = (int)(f * MMM_SCALE_CLASSES);
    return c >= MMM_SCALE_CLASSES ? MMM_SCALE_CLASSES - 1 : c;
}
