/* base/text.c: the text buffer and the XML and JSON escaping (see
 * base/text.h). */
#include "base/text.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "base/grow.h"

void mmm__text_init(mmm__text *t)
{
    t->s = NULL;
    t->len = 0;
    t->cap = 0;
    t->oom = 0;
}

void mmm__text_dispose(mmm__text *t)
{
    free(t->s);
    mmm__text_init(t);
}

/* Make room for n more bytes plus the terminating NUL. */
static int text_reserve(mmm__text *t, size_t n)
{
    if (t->oom)
        return -1;
    if (n > (size_t)-1 / 2 - t->len) {
        t->oom = 1;
        return -1;
    }
    char *s = mmm__grow(t->s, &t->cap, t->len + n + 1, 1, 256);
    if (!s) {
        t->oom = 1;
        return -1;
    }
    t->s = s;
    return 0;
}

void mmm__text_putn(mmm__text *t, const char *s, size_t n)
{
    if (text_reserve(t, n) < 0)
        return;
    memcpy(t->s + t->len, s, n);
    t->len += n;
    t->s[t->len] = '\0';
}

void mmm__text_put(mmm__text *t, const char *s)
{
    mmm__text_putn(t, s, strlen(s));
}

void mmm__text_printf(mmm__text *t, const char *fmt, ...)
{
    va_list ap;
    int n;
    char small[256];
    va_start(ap, fmt);
    n = vsnprintf(small, sizeof small, fmt, ap);
    va_end(ap);
    if (n < 0) {
        t->oom = 1;
        return;
    }
    if ((size_t)n < sizeof small) {
        mmm__text_putn(t, small, (size_t)n);
        return;
    }
    if (text_reserve(t, (size_t)n) < 0)
        return;
    va_start(ap, fmt);
    vsnprintf(t->s + t->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    t->len += (size_t)n;
}

char *mmm__text_take(mmm__text *t)
{
    char *s;
    if (t->oom) {
        mmm__text_dispose(t);
        return NULL;
    }
    if (!t->s && text_reserve(t, 0) < 0)
        return NULL;
    if (!t->s)
        return NULL;
    t->s[t->len] = '\0';
    s = t->s;
    mmm__text_init(t);
    return s;
}

/* ------------------------------------------------------------------ */
/* One line                                                            */

static int is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

int mmm__needs_one_line(const char *s)
{
    size_t i;
    if (!s || !s[0])
        return 0;
    if (is_space(s[0]))
        return 1;
    for (i = 1; s[i]; i++)
        if (is_space(s[i]) && (s[i] != ' ' || is_space(s[i - 1]) || !s[i + 1]))
            return 1;
    return 0;
}

size_t mmm__one_line(char *dst, const char *src)
{
    size_t o = 0;
    int gap = 0;
    for (; *src; src++) {
        if (is_space(*src)) {
            gap = o > 0;
            continue;
        }
        if (gap)
            dst[o++] = ' ';
        gap = 0;
        dst[o++] = *src;
    }
    dst[o] = '\0';
    return o;
}

/* ------------------------------------------------------------------ */
/* Characters                                                          */

size_t mmm__utf8_char(const unsigned char *s, unsigned *cp)
{
    unsigned c = s[0], v;
    size_t n;
    if (c < 0x80) {
        v = c, n = 1;
    } else if (c >= 0xC2 && c <= 0xDF) {
        if ((s[1] & 0xC0) != 0x80)
            return 0;
        v = ((c & 0x1Fu) << 6) | (s[1] & 0x3Fu), n = 2;
    } else if (c >= 0xE0 && c <= 0xEF) {
        if ((s[1] & 0xC0) != 0x80 || (s[2] & 0xC0) != 0x80)
            return 0;
        v = ((c & 0x0Fu) << 12) | ((s[1] & 0x3Fu) << 6) | (s[2] & 0x3Fu);
        if (v < 0x800 || (v >= 0xD800 && v <= 0xDFFF))
            return 0;
        n = 3;
    } else if (c >= 0xF0 && c <= 0xF4) {
        if ((s[1] & 0xC0) != 0x80 || (s[2] & 0xC0) != 0x80 ||
            (s[3] & 0xC0) != 0x80)
            return 0;
        v = ((c & 0x07u) << 18) | ((s[1] & 0x3Fu) << 12) |
            ((s[2] & 0x3Fu) << 6) | (s[3] & 0x3Fu);
        if (v < 0x10000 || v > 0x10FFFF)
            return 0;
        n = 4;
    } else {
        return 0;
    }
    if (cp)
        *cp = v;
    return n;
}

size_t mmm__xml_char(const unsigned char *s)
{
    unsigned cp;
    size_t n = mmm__utf8_char(s, &cp);
    if (n == 0 || (cp < 0x20 && cp != '\t' && cp != '\n' && cp != '\r') ||
        cp == 0xFFFE || cp == 0xFFFF)
        return 0;
    return n;
}

/* ------------------------------------------------------------------ */
/* Escaping                                                            */

/* What one escaping writes for the character at p: NULL when it stays
 * as it is (*n: its length in bytes), else the replacement of its first
 * byte (u: room for one built in place). */
typedef const char *escape_fn(const unsigned char *p, size_t *n, char u[8]);

static const char *xml_rep(const unsigned char *p, size_t *n, char u[8])
{
    (void)u;
    switch (*p) {
    case '&': return "&amp;";
    case '<': return "&lt;";
    case '>': return "&gt;";
    case '"': return "&quot;";
    case '\'': return "&#39;";
    case '\t': return "&#9;";
    case '\n': return "&#10;";
    case '\r': return "&#13;";
    default:
        *n = *p >= 0x20 && *p < 0x80 ? 1 : mmm__xml_char(p);
        return *n ? NULL : "?";
    }
}

static const char *json_rep(const unsigned char *p, size_t *n, char u[8])
{
    static const char hex[] = "0123456789abcdef";
    switch (*p) {
    case '"': return "\\\"";
    case '\\': return "\\\\";
    case '\n': return "\\n";
    case '\r': return "\\r";
    case '\t': return "\\t";
    default:
        if (*p < 0x20) {
            memcpy(u, "\\u00", 4);
            u[4] = hex[*p >> 4], u[5] = hex[*p & 15], u[6] = '\0';
            return u;
        }
        *n = *p < 0x80 ? 1 : mmm__utf8_char(p, NULL);
        return *n ? NULL : "?";
    }
}

/* Runs of characters that stay go to put whole, between replacements. */
static void escape(const char *s, escape_fn *rep_of, mmm__sink *put, void *ctx)
{
    const unsigned char *p = (const unsigned char *)s, *run = p;
    while (*p) {
        char u[8];
        size_t n;
        const char *rep = rep_of(p, &n, u);
        if (!rep) {
            p += n;
            continue;
        }
        if (p > run)
            put(ctx, (const char *)run, (size_t)(p - run));
        put(ctx, rep, strlen(rep));
        run = ++p;
    }
    if (p > run)
        put(ctx, (const char *)run, (size_t)(p - run));
}

void mmm__escape_xml(const char *s, mmm__sink *put, void *ctx)
{
    escape(s, xml_rep, put, ctx);
}

void mmm__escape_json(const char *s, mmm__sink *put, void *ctx)
{
    escape(s, json_rep, put, ctx);
}

static void text_sink(void *ctx, const char *s, size_t n)
{
    mmm__text_putn(ctx, s, n);
}

static void file_sink(void *ctx, const char *s, size_t n)
{
    fwrite(s, 1, n, ctx);
}

void mmm__text_put_xml(mmm__text *t, const char *s)
{
    mmm__escape_xml(s, text_sink, t);
}

void mmm__text_put_json(mmm__text *t, const char *s)
{
    mmm__escape_json(s, text_sink, t);
}

void mmm__fput_xml(FILE *f, const char *s)
{
    mmm__escape_xml(s, file_sink, f);
}

void mmm__fput_json(FILE *f, const char *s)
{
    mmm__escape_json(s, file_sink, f);
}

void mmm__fput_xml_comment(FILE *f, const char *s)
{
    char last = '\0';
    for (; *s; last = *s++) {
        size_t n = mmm__xml_char((const unsigned char *)s);
        if (n > 1) {
            fwrite(s, 1, n, f);
            s += n - 1;
            continue;
        }
        fputc(n == 0 || *s == '\t' || *s == '\r' ? '?' : *s, f);
        if (*s == '-' && s[1] == '-')
            fputc(' ', f);
    }
    if (last == '-')
        fputc(' ', f);
}
