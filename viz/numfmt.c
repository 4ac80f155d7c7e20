/* numfmt.c: grouped and scientific numbers (numfmt.h). */
#include "numfmt.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char *mmm__fmt_grouped(double v, int decimals, char *buf, size_t size)
{
    char raw[400], *dot;
    size_t ndig, i, o = 0, start;
    if (size == 0)
        return buf;
    if (isnan(v) || isinf(v)) {
        snprintf(buf, size, "%s", isnan(v) ? "nan" : v < 0 ? "-inf" : "inf");
        return buf;
    }
    decimals = decimals < 0 ? 0 : decimals > 9 ? 9 : decimals;
    snprintf(raw, sizeof raw, "%.*f", decimals, v);
    if (raw[0] == '-' && strspn(raw + 1, "0.") == strlen(raw + 1))
        memmove(raw, raw + 1, strlen(raw)); /* no "-0.00" */
    start = raw[0] == '-';
    dot = strchr(raw, '.');
    ndig = (dot ? (size_t)(dot - raw) : strlen(raw)) - start;
    for (i = 0; raw[i]; i++) {
        /* a digit of the integer part that starts a group of three */
        int sep = ndig >= 5 && i > start && i < start + ndig && (start + ndig - i) % 3 == 0;
        if (sep) {
            if (o + 3 >= size)
                break;
            memcpy(buf + o, MMM__THIN, 3);
            o += 3;
        }
        if (o + 1 >= size)
            break;
        buf[o++] = raw[i];
    }
    buf[o] = '\0';
    return buf;
}

static const char *const superscript[10] = {
    "\xe2\x81\xb0", "\xc2\xb9", "\xc2\xb2", "\xc2\xb3", "\xe2\x81\xb4",
    "\xe2\x81\xb5", "\xe2\x81\xb6", "\xe2\x81\xb7", "\xe2\x81\xb8", "\xe2\x81\xb9"};

char *mmm__fmt_times_ten(const char *mant, size_t len, int e, char *buf, size_t size)
{
    char exp[16];
    size_t used, i;
    if (size == 0)
        return buf;
    snprintf(buf, size, "%.*s\xc2\xb7" "10", (int)len, mant);
    used = strlen(buf);
    if (e < 0 && used + 4 < size) {
        memcpy(buf + used, "\xe2\x81\xbb", 4); /* superscript minus */
        used += 3;
    }
    snprintf(exp, sizeof exp, "%d", abs(e));
    for (i = 0; exp[i]; i++) {
        const char *g = superscript[exp[i] - '0'];
        size_t n = strlen(g);
        if (used + n + 1 > size)
            break;
        memcpy(buf + used, g, n + 1);
        used += n;
    }
    return buf;
}

char *mmm__fmt_sci(double v, int digits, char *buf, size_t size)
{
    char mant[40];
    const char *ep;
    int e;
    if (size == 0)
        return buf;
    if (v == 0 || isnan(v) || isinf(v))
        return mmm__fmt_grouped(v, 0, buf, size);
    digits = digits < 1 ? 1 : digits > 15 ? 15 : digits;
    /* %e rounds the mantissa and carries into the exponent itself */
    snprintf(mant, sizeof mant, "%.*e", digits - 1, v);
    ep = strchr(mant, 'e');
    e = ep ? atoi(ep + 1) : 0;
    return mmm__fmt_times_ten(mant, ep ? (size_t)(ep - mant) : strlen(mant), e, buf, size);
}
