/* records.c: CSV records (RFC 4180: fields separated by commas, quoted
 * with '"' when they hold a comma, a quote ("" inside) or a line end;
 * LF, CRLF or CR line ends) for the readers of `mmm profile`. */
#include <stdlib.h>
#include <string.h>

#include "profile_internal.h"
#include "base/grow.h"

void mmm__csv_init(mmm__csv *c, const char *name, const char *text, size_t len)
{
    memset(c, 0, sizeof *c);
    c->name = name;
    c->p = text;
    c->end = text + len;
    c->line = 1;
    /* a UTF-8 byte order mark */
    if (len >= 3 && !memcmp(text, "\xEF\xBB\xBF", 3))
        c->p += 3;
}

long mmm__nul_line(const char *text, size_t len)
{
    const char *z = memchr(text, '\0', len);
    long line = 1;
    if (!z)
        return 0;
    for (const char *p = text; p < z; p++)
        line += *p == '\n';
    return line;
}

void mmm__csv_dispose(mmm__csv *c)
{
    free(c->buf);
    free(c->cells);
    free(c->offs);
    c->buf = NULL;
    c->cells = NULL;
    c->offs = NULL;
}

static void skip_blank(mmm__csv *c)
{
    while (c->p < c->end && (*c->p == '\n' || *c->p == '\r')) {
        if (*c->p == '\r' && c->p + 1 < c->end && c->p[1] == '\n')
            c->p++;
        c->p++;
        c->line++;
    }
}

int mmm__csv_peek_line(mmm__csv *c, const char **line_start, size_t *line_len,
                       long *lineno)
{
    skip_blank(c);
    if (c->p >= c->end)
        return 0;
    const char *q = c->p;
    while (q < c->end && *q != '\n' && *q != '\r')
        q++;
    *line_start = c->p;
    *line_len = (size_t)(q - c->p);
    *lineno = c->line;
    return 1;
}

void mmm__csv_skip_line(mmm__csv *c)
{
    skip_blank(c);
    while (c->p < c->end && *c->p != '\n' && *c->p != '\r')
        c->p++;
    skip_blank(c);
}

/* A new cell starting at offset start of buf (buf may move while the
 * record is read: the pointers are made at its end). */
static int add_cell(mmm__csv *c, size_t start)
{
    if (mmm__grow2(&c->cells, &c->offs, &c->cells_cap, c->ncells + 1,
                   sizeof *c->cells, sizeof *c->offs, 16) < 0)
        return -1;
    c->offs[c->ncells++] = start;
    return 0;
}

int mmm__csv_next(mmm__csv *c, size_t max_cells, long *lineno, mmm_error *err)
{
    size_t n = 0;
    skip_blank(c);
    c->ncells = 0;
    if (c->p >= c->end)
        return 0;
    *lineno = c->line;
    /* the record's cells take at most its bytes plus one NUL each */
    for (;;) {
        size_t start = n;
        if (c->ncells >= max_cells)
            return mmm_error_set(err, MMM_ELIMIT, c->name, c->line,
                                 "more than %zu fields in a record", max_cells);
        if (add_cell(c, start) < 0)
            return mmm_error_set(err, MMM_ENOMEM, c->name, c->line, "out of memory");
        int quoted = c->p < c->end && *c->p == '"';
        long qline = c->line;
        if (quoted)
            c->p++;
        for (;;) {
            char ch;
            if (c->p >= c->end) {
                if (quoted)
                    return mmm_error_set(err, MMM_EPARSE, c->name, qline,
                                         "unterminated quoted field (a '\"' is "
                                         "missing: a truncated file?)");
                break;
            }
            ch = *c->p;
            if (quoted) {
                if (ch == '"') {
                    if (c->p + 1 < c->end && c->p[1] == '"') {
                        c->p += 2;
                    } else {
                        c->p++;
                        if (c->p < c->end && *c->p != ',' && *c->p != '\n' &&
                            *c->p != '\r')
                            return mmm_error_set(err, MMM_EPARSE, c->name, c->line,
                                                 "text after the closing quote of "
                                                 "a field");
                        break;
                    }
                } else {
                    if (ch == '\n' || (ch == '\r' && !(c->p + 1 < c->end &&
                                                      c->p[1] == '\n')))
                        c->line++;
                    c->p++;
                }
            } else {
                if (ch == ',' || ch == '\n' || ch == '\r')
                    break;
                if (ch == '"')
                    return mmm_error_set(err, MMM_EPARSE, c->name, c->line,
                                         "a '\"' inside an unquoted field (quote "
                                         "the field and double the quote)");
                c->p++;
            }
            char *b = mmm__grow(c->buf, &c->buf_cap, n + 2, 1, 256);
            if (!b)
                return mmm_error_set(err, MMM_ENOMEM, c->name, c->line,
                                     "out of memory");
            c->buf = b;
            c->buf[n++] = ch;
        }
        char *b = mmm__grow(c->buf, &c->buf_cap, n + 1, 1, 256);
        if (!b)
            return mmm_error_set(err, MMM_ENOMEM, c->name, c->line, "out of memory");
        c->buf = b;
        c->buf[n++] = '\0';
        if (c->p < c->end && *c->p == ',') {
            c->p++;
            continue;
        }
        break;
    }
    /* the record ends at a line end or at the end of the input */
    if (c->p < c->end) {
        if (*c->p == '\r' && c->p + 1 < c->end && c->p[1] == '\n')
            c->p++;
        c->p++;
        c->line++;
    }
    for (size_t i = 0; i < c->ncells; i++)
        c->cells[i] = c->buf + c->offs[i];
    return 1;
}
