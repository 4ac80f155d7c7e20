/* base/csv.h: records of a comma-separated file (RFC 4180 quoting; LF,
 * CRLF or a lone CR end a line; blank lines skipped), with the line of
 * every record for FILE:LINE errors.  Internal: the runs file of `mmm fit`
 * and the measured speedups of `mmm scale` read with it. */
#ifndef MMM_BASE_CSV_H
#define MMM_BASE_CSV_H

#include <stddef.h>

#include "mmm/error.h"

typedef struct mmm__csv {
    const char *name; /* in messages */
    const char *p, *end;
    long line;
    char *out; /* where the next cell is copied (unquoted, NUL-ended) */
} mmm__csv;

/* Start reading buf[0 .. len) named name; the cells are copied into out,
 * which holds len + 1 bytes.  A byte order mark is skipped.  MMM_EINPUT
 * (at its line) when buf holds a NUL byte (a CSV file is text). */
int mmm__csv_start(mmm__csv *s, const char *buf, size_t len, const char *name,
                   char *out, mmm_error *err);

/* One record: up to max cells into cell[] (*n of them), each trimmed of
 * blanks and tabs at both ends; *line receives its first line.  1 when a
 * record was read, 0 at the end of the input, or an error code (MMM_EINPUT
 * for bad quoting, MMM_ELIMIT beyond max cells), with err set at the
 * line. */
int mmm__csv_record(mmm__csv *s, const char **cell, size_t max, size_t *n, long *line,
                    mmm_error *err);

/* A strict finite number (the whole of s, as strtod reads it): 0 or -1. */
int mmm__csv_number(const char *s, double *out);

#endif
