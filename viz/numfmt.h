/* numfmt.h: numbers as the report's tables and the Gantt chart's time axis
 * print them: plain digits grouped in threes by a narrow no-break space,
 * one format per column or axis.  Private to viz/. */
#ifndef MMM_VIZ_NUMFMT_H
#define MMM_VIZ_NUMFMT_H

#include <stddef.h>

/* U+202F NARROW NO-BREAK SPACE: the thin space between digit groups
 * (SI brochure, 5.4.4), which never breaks a number over two lines. */
#define MMM__THIN "\xe2\x80\xaf"

/* v with `decimals` decimals (0 to 9), the digits of its integer part
 * grouped in threes when there are five or more: "1234", "12 345",
 * "1 282 963.5", "-0.25".  Non-finite values print as "inf", "-inf",
 * "nan".  Returns buf. */
char *mmm__fmt_grouped(double v, int decimals, char *buf, size_t size);

/* v as m·10ⁿ, m with `digits` significant digits (trailing zeros kept, so
 * that a column lines up): "1.2830·10⁶", "5.000·10⁻⁹"; 0 as "0".  Returns
 * buf. */
char *mmm__fmt_sci(double v, int digits, char *buf, size_t size);
/* "mant·10ᵉ": the first len bytes of mant, then 10 with e in UTF-8
 * superscripts (shared by mmm__fmt_sci and render_text.c). */
char *mmm__fmt_times_ten(const char *mant, size_t len, int e, char *buf, size_t size);

#endif
