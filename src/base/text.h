/* base/text.h: the text buffer of the library, and its one XML and one
 * JSON escaping (for buffers, FILE streams and any other sink).  Internal.
 *
 * XML (text and attribute values, so also HTML and SVG):
 *   & < > " '      ->  &amp; &lt; &gt; &quot; &#39;
 *   tab LF CR      ->  &#9; &#10; &#13; (kept through attribute-value
 *                      normalization and line-end handling)
 *   a byte that is not part of a character XML 1.0 allows (another C0
 *   control, broken or overlong UTF-8, a surrogate, U+FFFE/U+FFFF) -> '?'
 *   everything else, UTF-8 included, as it is.
 * JSON string contents (RFC 8259, without the quotes):
 *   " \            ->  \" \\
 *   LF CR tab      ->  \n \r \t
 *   other C0       ->  \u00XX (lower-case hex)
 *   a byte that is not part of well-formed UTF-8 -> '?'
 *   everything else, UTF-8 included, as it is. */
#ifndef MMM_BASE_TEXT_H
#define MMM_BASE_TEXT_H

#include <stddef.h>
#include <stdio.h>

/* A NUL-terminated growable string.  An allocation failure sets oom and
 * turns every later append into a no-op, so that callers check once at the
 * end instead of after every append. */
typedef struct mmm__text {
    char *s;
    size_t len, cap;
    int oom;
} mmm__text;

void mmm__text_init(mmm__text *t);
void mmm__text_dispose(mmm__text *t);
void mmm__text_put(mmm__text *t, const char *s);
void mmm__text_putn(mmm__text *t, const char *s, size_t n);
void mmm__text_printf(mmm__text *t, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* Append s escaped for XML / for inside a JSON string (rules above). */
void mmm__text_put_xml(mmm__text *t, const char *s);
void mmm__text_put_json(mmm__text *t, const char *s);
/* Take the string (never NULL unless oom); the buffer is reset. */
char *mmm__text_take(mmm__text *t);

/* Where escaped text goes: n bytes at s. */
typedef void mmm__sink(void *ctx, const char *s, size_t n);
void mmm__escape_xml(const char *s, mmm__sink *put, void *ctx);
void mmm__escape_json(const char *s, mmm__sink *put, void *ctx);

/* The same written to a stream. */
void mmm__fput_xml(FILE *f, const char *s);
void mmm__fput_json(FILE *f, const char *s);
/* s as the text of an XML comment: "--" becomes "- -", a trailing '-'
 * gets a space, tab and CR and what XML cannot hold become '?'. */
void mmm__fput_xml_comment(FILE *f, const char *s);

/* A text on one line: each run of white space (space, tab, line ends,
 * as an XML attribute written over several lines becomes after the
 * parser's normalization) one space, none at either end.  dst holds
 * strlen(src) + 1 bytes (may be src itself); returns the new length.
 * mmm__needs_one_line says whether it would change s. */
int mmm__needs_one_line(const char *s);
size_t mmm__one_line(char *dst, const char *src);

/* Length of the well-formed UTF-8 character at s (1 to 4; no overlong
 * form, no surrogate, nothing past U+10FFFF), else 0.  *cp (when not NULL)
 * gets its code point. */
size_t mmm__utf8_char(const unsigned char *s, unsigned *cp);
/* Length of the UTF-8 character at s when XML 1.0 text may hold it (no C0
 * control but tab and line ends, no surrogate, U+FFFE/U+FFFF or overlong
 * form), else 0. */
size_t mmm__xml_char(const unsigned char *s);

#endif
