/* csv.c: the records of a comma-separated file (base/csv.h). */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/csv.h"

int mmm__csv_start(mmm__csv *s, const char *buf, size_t len, const char *name,
                   char *out, mmm_error *err)
{
    const char *z = memchr(buf, '\0', len);
    s->name = name;
    s->p = buf;
    s->end = buf + len;
    s->line = 1;
    s->out = out;
    if (z) {
        long line = 1;
        for (const char *q = buf; q < z; q++)
            line += *q == '\n';
        return mmm_error_set(err, MMM_EINPUT, name, line,
                             "a NUL byte (a CSV file is text)");
    }
    if (len >= 3 && (unsigned char)buf[0] == 0xEF && (unsigned char)buf[1] == 0xBB &&
        (unsigned char)buf[2] == 0xBF)
        s->p += 3; /* byte order mark */
    return 0;
}

static char *trim(char *c)
{
    while (*c == ' ' || *c == '\t')
        c++;
    size_t n = strlen(c);
    while (n && (c[n - 1] == ' ' || c[n - 1] == '\t'))
        c[--n] = '\0';
    return c;
}

/* A quoted field, from its opening quote: 0 or an error code. */
static int quoted(mmm__csv *s, mmm_error *err)
{
    long qline = s->line;
    s->p++;
    for (;;) {
        if (s->p >= s->end)
            return mmm_error_set(err, MMM_EINPUT, s->name, qline,
                                 "unterminated quoted field (a '\"' is missing)");
        if (*s->p == '"') {
            if (s->p + 1 < s->end && s->p[1] == '"') {
                *s->out++ = '"';
                s->p += 2;
                continue;
            }
            s->p++;
            break;
        }
        if (*s->p == '\n' || (*s->p == '\r' && (s->p + 1 >= s->end || s->p[1] != '\n')))
            s->line++;
        *s->out++ = *s->p++;
    }
    if (s->p < s->end && *s->p != ',' && *s->p != '\n' && *s->p != '\r')
        return mmm_error_set(err, MMM_EINPUT, s->name, s->line,
                             "text after a quoted field (quote the whole field)");
    return 0;
}

int mmm__csv_record(mmm__csv *s, const char **cell, size_t max, size_t *n, long *line,
                    mmm_error *err)
{
    int rc;
    *n = 0;
    /* skip blank lines (a line ends with LF, CRLF or a lone CR) */
    while (s->p < s->end && (*s->p == '\n' || *s->p == '\r')) {
        if (*s->p == '\r' && s->p + 1 < s->end && s->p[1] == '\n')
            s->p++;
        s->p++;
        s->line++;
    }
    if (s->p >= s->end)
        return 0;
    *line = s->line;
    for (;;) {
        char *start = s->out;
        if (*n >= max)
            return mmm_error_set(err, MMM_ELIMIT, s->name, s->line, "more than %zu columns",
                                 max);
        if (s->p < s->end && *s->p == '"') {
            if ((rc = quoted(s, err)) < 0)
                return rc;
        } else {
            while (s->p < s->end && *s->p != ',' && *s->p != '\n' && *s->p != '\r') {
                if (*s->p == '"')
                    return mmm_error_set(err, MMM_EINPUT, s->name, s->line,
                                         "a '\"' inside an unquoted field (quote the "
                                         "field and double the '\"')");
                *s->out++ = *s->p++;
            }
        }
        *s->out++ = '\0';
        cell[(*n)++] = trim(start);
        if (s->p < s->end && *s->p == ',') {
            s->p++;
            continue;
        }
        if (s->p < s->end && *s->p == '\r') {
            s->p++;
            if (s->p < s->end && *s->p == '\n')
                s->p++;
            s->line++;
        } else if (s->p < s->end && *s->p == '\n') {
            s->p++;
            s->line++;
        }
        return 1;
    }
}

int mmm__csv_number(const char *s, double *out)
{
    char *end;
    if (!*s)
        return -1;
    errno = 0;
    double v = strtod(s, &end);
    if (*end || errno == ERANGE || !isfinite(v))
        return -1;
    *out = v;
    return 0;
}
