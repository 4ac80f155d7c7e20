/* scale_measured.c: measured speedups for `mmm scale --measured`
 * (mmm/scale.h): a CSV file of p and a speedup or a time per run; every
 * error FILE:LINE. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mmm/scale.h"
#include "base/csv.h"
#include "base/file.h"
#include "base/grow.h"

#define MEASURED_MAX_BYTES (64u << 20)
#define MEASURED_MAX_ROWS 1000000u
#define MEASURED_MAX_COLS 256u

void mmm_speedup_measured_free(mmm_speedup_measured *m)
{
    if (!m)
        return;
    free((void *)m->file);
    free(m->points);
    free(m->medians);
    free(m);
}

/* A time column: its factor to seconds, else 0. */
static double time_scale(const char *h)
{
    return !strcmp(h, "seconds") || !strcmp(h, "time_s") ? 1
           : !strcmp(h, "time_ms")                       ? 1e-3
           : !strcmp(h, "time_us")                       ? 1e-6
                                                         : 0;
}

/* The columns of the header: 0 or MMM_EINPUT at its line. */
static int header(const char *const *hdr, size_t nh, const char *name, long line,
                  int *pcol, int *vcol, double *scale, mmm_error *err)
{
    size_t c, d;
    *pcol = *vcol = -1;
    *scale = 0;
    for (c = 0; c < nh; c++) {
        double sc = time_scale(hdr[c]);
        if (!*hdr[c])
            return mmm_error_set(err, MMM_EINPUT, name, line,
                                 "column %zu of the header has no name", c + 1);
        for (d = 0; d < c; d++)
            if (!strcmp(hdr[d], hdr[c]))
                return mmm_error_set(err, MMM_EINPUT, name, line,
                                     "column '%s' appears twice in the header", hdr[c]);
        if (!strcmp(hdr[c], "p"))
            *pcol = (int)c;
        else if (sc > 0 || !strcmp(hdr[c], "speedup")) {
            if (*vcol >= 0)
                return mmm_error_set(err, MMM_EINPUT, name, line,
                                     "two measures ('%s' and '%s'): keep one of speedup, "
                                     "seconds, time_s, time_ms, time_us",
                                     hdr[*vcol], hdr[c]);
            *vcol = (int)c;
            *scale = sc;
        }
    }
    if (*pcol < 0 || *vcol < 0)
        return mmm_error_set(err, MMM_EINPUT, name, line,
                             "the header needs a column 'p' and one of 'speedup' or "
                             "'seconds' (or time_s, time_ms, time_us)");
    return MMM_OK;
}

/* p: a decimal integer >= 1. */
static int parse_p(const char *s, int64_t *out)
{
    char *end;
    long long v;
    if (!isdigit((unsigned char)*s))
        return -1;
    errno = 0;
    v = strtoll(s, &end, 10);
    if (*end || errno || v < 1)
        return -1;
    *out = v;
    return 0;
}

static int by_p(const void *a, const void *b)
{
    const mmm_speedup_point *x = a, *y = b;
    if (x->p != y->p)
        return (x->p > y->p) - (x->p < y->p);
    return (x->line > y->line) - (x->line < y->line);
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The median of v[0 .. n), n > 0 (v is sorted, non-negative); the mean
 * of the middle two as a + (b - a)/2, which neither overflows near
 * DBL_MAX nor leaves [a, b] when both are subnormal (a/2 + b/2 did). */
static double median(double *v, size_t n)
{
    qsort(v, n, sizeof *v, by_value);
    return n % 2 ? v[n / 2] : v[n / 2 - 1] + (v[n / 2] - v[n / 2 - 1]) / 2;
}

/* The medians per p of m->points (sorted by p), and from times the
 * speedups: T1 = the median time at p = 1 (in the points' speedup
 * fields until then).  tmp holds n doubles. */
static int finish(mmm_speedup_measured *m, double *tmp, long hline, mmm_error *err)
{
    size_t i, j, k = 0;
    if (m->from_seconds) {
        for (i = 0; i < m->n && m->points[i].p == 1; i++)
            tmp[i] = m->points[i].speedup;
        if (i == 0)
            return mmm_error_set(err, MMM_EINPUT, m->file, hline,
                                 "times without a row of p = 1: the speedup at p is the "
                                 "time at p = 1 over the time at p (add runs at p = 1, or "
                                 "give a speedup column)");
        m->t1 = median(tmp, i);
        for (i = 0; i < m->n; i++) {
            double sp = m->t1 / m->points[i].speedup;
            if (!isfinite(sp) || !(sp > 0))
                return mmm_error_set(err, MMM_EINPUT, m->file, m->points[i].line,
                                     "the speedup T(1)/t = %g/%g is not a positive "
                                     "finite number (a time too small or too large "
                                     "beside the times at p = 1)",
                                     m->t1, m->points[i].speedup);
            m->points[i].speedup = sp;
        }
    }
    for (i = 0; i < m->n; i = j) {
        size_t c = 0;
        for (j = i; j < m->n && m->points[j].p == m->points[i].p; j++)
            tmp[c++] = m->points[j].speedup;
        m->medians[k].p = m->points[i].p;
        m->medians[k].speedup = median(tmp, c);
        m->medians[k].line = 0;
        k++;
    }
    m->nmedians = k;
    return MMM_OK;
}

/* The rows after the header into m->points: 0 or an error code. */
static int rows(mmm_speedup_measured *m, mmm__csv *s, size_t nh, int pcol, int vcol,
                double scale, const char *vname, mmm_error *err)
{
    const char *cells[MEASURED_MAX_COLS];
    size_t nc, cap = 0;
    long line = 0;
    int got;
    while ((got = mmm__csv_record(s, cells, MEASURED_MAX_COLS, &nc, &line, err)) > 0) {
        mmm_speedup_point *pt;
        double v;
        if (nc != nh)
            return mmm_error_set(err, MMM_EINPUT, m->file, line,
                                 "%zu fields where the header has %zu columns", nc, nh);
        if (m->n >= MEASURED_MAX_ROWS)
            return mmm_error_set(err, MMM_ELIMIT, m->file, line, "more than %u rows",
                                 MEASURED_MAX_ROWS);
        if (!(pt = mmm__grow(m->points, &cap, m->n + 1, sizeof *pt, 64)))
            return mmm_error_set(err, MMM_ENOMEM, m->file, 0, "out of memory");
        m->points = pt;
        pt += m->n;
        pt->line = line;
        if (parse_p(cells[pcol], &pt->p) < 0)
            return mmm_error_set(err, MMM_EINPUT, m->file, line,
                                 "p '%s' is not an integer >= 1", cells[pcol]);
        if (mmm__csv_number(cells[vcol], &v) < 0 || !(v > 0))
            return mmm_error_set(err, MMM_EINPUT, m->file, line,
                                 "%s '%s' is not a positive number", vname, cells[vcol]);
        pt->speedup = scale > 0 ? v * scale : v;
        if (!(pt->speedup > 0)) /* a time that underflows in seconds */
            return mmm_error_set(err, MMM_EINPUT, m->file, line,
                                 "%s '%s' is too small", vname, cells[vcol]);
        m->n++;
    }
    return got < 0 ? got : MMM_OK;
}

int mmm_speedup_measured_read_memory(mmm_speedup_measured **out, const char *buf,
                                     size_t len, const char *name, mmm_error *err)
{
    mmm_error own; /* the code of a failure, when the caller passes no err */
    const char *hdr[MEASURED_MAX_COLS];
    mmm_speedup_measured *m;
    char *text = NULL;
    double *tmp = NULL, scale;
    size_t nh;
    long hline = 1;
    int pcol, vcol, rc;
    mmm__csv s;
    if (!err)
        err = &own;
    if (!out || (!buf && len))
        return mmm_error_set(err, MMM_EINVAL, NULL, 0,
                             "mmm_speedup_measured_read_memory: missing argument");
    *out = NULL;
    if (!name)
        name = "<measured>";
    if (len > MEASURED_MAX_BYTES)
        return mmm_error_set(err, MMM_ELIMIT, name, 0, "file too big: %zu bytes (limit %u)",
                             len, MEASURED_MAX_BYTES);
    if (!(m = calloc(1, sizeof *m)) || !(m->file = strdup(name)) ||
        !(text = malloc(len + 1))) {
        rc = mmm_error_set(err, MMM_ENOMEM, name, 0, "out of memory");
        goto done;
    }
    if ((rc = mmm__csv_start(&s, buf ? buf : "", len, name, text, err)) < 0 ||
        (rc = mmm__csv_record(&s, hdr, MEASURED_MAX_COLS, &nh, &hline, err)) < 0)
        goto done;
    if (rc == 0) {
        rc = mmm_error_set(err, MMM_EINPUT, name, 1,
                           "empty file: a header line is needed (p and speedup, or p "
                           "and seconds)");
        goto done;
    }
    if ((rc = header(hdr, nh, name, hline, &pcol, &vcol, &scale, err)) < 0)
        goto done;
    m->from_seconds = scale > 0;
    if ((rc = rows(m, &s, nh, pcol, vcol, scale, hdr[vcol], err)) < 0)
        goto done;
    if (m->n == 0) {
        rc = mmm_error_set(err, MMM_EINPUT, name, hline, "no rows after the header");
        goto done;
    }
    qsort(m->points, m->n, sizeof *m->points, by_p);
    if (!(tmp = malloc(m->n * sizeof *tmp)) ||
        !(m->medians = malloc(m->n * sizeof *m->medians))) {
        rc = mmm_error_set(err, MMM_ENOMEM, name, 0, "out of memory");
        goto done;
    }
    rc = finish(m, tmp, hline, err);
done:
    free(text);
    free(tmp);
    if (rc < 0)
        mmm_speedup_measured_free(m);
    else
        *out = m;
    return rc < 0 ? rc : MMM_OK;
}

int mmm_speedup_measured_read_file(mmm_speedup_measured **out, const char *path,
                                   mmm_error *err)
{
    char *buf = NULL;
    size_t len = 0;
    int rc;
    if (!out || !path)
        return mmm_error_set(err, MMM_EINVAL, NULL, 0,
                             "mmm_speedup_measured_read_file: missing argument");
    *out = NULL;
    if ((rc = mmm__read_whole_file(path, MEASURED_MAX_BYTES, &buf, &len, err)) < 0)
        return rc;
    rc = mmm_speedup_measured_read_memory(out, buf, len, mmm__input_name(path), err);
    free(buf);
    return rc;
}
