/* csv.c: the runs file of `mmm fit` (include/mmm/fit.h): a header, one
 * row per timed run, RFC 4180 quoting; every error FILE:LINE. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mmm/fit.h"
#include "base/csv.h"
#include "base/file.h"
#include "base/grow.h"

#define RUNS_MAX_BYTES (64u << 20)
#define RUNS_MAX_ROWS 1000000u
#define RUNS_MAX_COLS 256u

typedef struct runs_priv {
    char *text;        /* the cells, NUL-separated, owned */
    const char **cells; /* nrows+1 lines of ncols pointers (header first) */
} runs_priv;

void mmm_runs_free(mmm_runs *r)
{
    if (!r)
        return;
    runs_priv *pv = r->priv;
    if (pv) {
        free(pv->text);
        free(pv->cells);
        free(pv);
    }
    free(r->rows);
    free((void *)r->file);
    free(r);
}

int mmm_runs_read_memory(mmm_runs **out, const char *buf, size_t len,
                         const char *name, int graph_default, mmm_error *err)
{
    mmm_error own; /* the code of a failure, when the caller passes no err */
    if (!err)
        err = &own;
    mmm_runs *r = calloc(1, sizeof *r);
    runs_priv *pv = calloc(1, sizeof *pv);
    const char **rec = NULL;
    size_t cap = 0;
    *out = NULL;
    if (!name)
        name = "<runs>";
    if (!r || !pv) {
        free(r);
        free(pv);
        return mmm_error_set(err, MMM_ENOMEM, name, 0, "out of memory");
    }
    r->priv = pv;
    if (!(r->file = strdup(name)))
        goto nomem;
    if (len > RUNS_MAX_BYTES) {
        mmm_error_set(err, MMM_ELIMIT, name, 0,
                      "file too big: %zu bytes (limit %u)", len,
                      RUNS_MAX_BYTES);
        goto fail;
    }
    if (!(pv->text = malloc(len + 1)))
        goto nomem;
    mmm__csv s;
    if (mmm__csv_start(&s, buf, len, name, pv->text, err) < 0)
        goto fail;
    const char *hdr[RUNS_MAX_COLS];
    size_t nh;
    long line;
    int got = mmm__csv_record(&s, hdr, RUNS_MAX_COLS, &nh, &line, err);
    if (got < 0)
        goto fail;
    if (got == 0) {
        mmm_error_set(err, MMM_EINPUT, name, 1,
                      "empty file: a header line is needed (program, the "
                      "parameters, time_ms)");
        goto fail;
    }
    r->ncols = nh;
    r->program_col = r->time_col = r->launch_col = -1;
    double scale = 0;
    for (size_t c = 0; c < nh; c++) {
        const char *h = hdr[c];
        if (!*h) {
            mmm_error_set(err, MMM_EINPUT, name, line,
                          "column %zu of the header has no name", c + 1);
            goto fail;
        }
        for (size_t d = 0; d < c; d++)
            if (!strcmp(hdr[d], h)) {
                mmm_error_set(err, MMM_EINPUT, name, line,
                              "column '%s' appears twice in the header", h);
                goto fail;
            }
        double sc = !strcmp(h, "time_s")    ? 1
                    : !strcmp(h, "time_ms") ? 1e-3
                    : !strcmp(h, "time_us") ? 1e-6
                                            : 0;
        if (sc > 0) {
            if (r->time_col >= 0) {
                mmm_error_set(err, MMM_EINPUT, name, line,
                              "two time columns ('%s' and '%s'): keep one",
                              hdr[r->time_col], h);
                goto fail;
            }
            r->time_col = (int)c;
            scale = sc;
        } else if (!strcmp(h, "program"))
            r->program_col = (int)c;
        else if (!strcmp(h, "launch"))
            r->launch_col = (int)c;
    }
    if (r->program_col < 0 || r->time_col < 0) {
        mmm_error_set(err, MMM_EINPUT, name, line,
                      "the header needs a 'program' column and a time "
                      "column (time_ms, time_s or time_us)");
        goto fail;
    }
    /* rows */
    size_t nrows = 0;
    const char *cells[RUNS_MAX_COLS];
    size_t nc;
    while ((got = mmm__csv_record(&s, cells, RUNS_MAX_COLS, &nc, &line, err)) >
           0) {
        if (nc != nh) {
            mmm_error_set(err, MMM_EINPUT, name, line,
                          "%zu fields where the header has %zu columns", nc,
                          nh);
            goto fail;
        }
        if (nrows >= RUNS_MAX_ROWS) {
            mmm_error_set(err, MMM_ELIMIT, name, line, "more than %u rows",
                          RUNS_MAX_ROWS);
            goto fail;
        }
        /* the fields of a row (nh of them) and the row grow together */
        if (mmm__grow2(&rec, &r->rows, &cap, nrows + 1, nh * sizeof *rec,
                       sizeof *r->rows, 64) < 0)
            goto nomem;
        mmm_run_row *row = &r->rows[nrows];
        memset(row, 0, sizeof *row);
        row->line = line;
        for (size_t c = 0; c < nh; c++)
            rec[nrows * nh + c] = cells[c];
        const char *prog = rec[nrows * nh + (size_t)r->program_col];
        const char *t = rec[nrows * nh + (size_t)r->time_col];
        double v;
        if (!*prog) {
            mmm_error_set(err, MMM_EINPUT, name, line,
                          "the program cell is blank");
            goto fail;
        }
        if (mmm__csv_number(t, &v) < 0 || v <= 0) {
            mmm_error_set(err, MMM_EINPUT, name, line,
                          "%s '%s' is not a positive number",
                          hdr[r->time_col], t);
            goto fail;
        }
        row->seconds = v * scale;
        row->graph = graph_default;
        if (r->launch_col >= 0) {
            const char *l = rec[nrows * nh + (size_t)r->launch_col];
            if (!strcmp(l, "graph"))
                row->graph = 1;
            else if (!strcmp(l, "stream"))
                row->graph = 0;
            else if (*l) {
                mmm_error_set(err, MMM_EINPUT, name, line,
                              "launch '%s' must be stream or graph", l);
                goto fail;
            }
        }
        nrows++;
    }
    if (got < 0)
        goto fail;
    if (nrows == 0) {
        mmm_error_set(err, MMM_EINPUT, name, line,
                      "no rows after the header");
        goto fail;
    }
    /* header + rows in one array, fixed now */
    pv->cells = malloc((nrows + 1) * nh * sizeof *pv->cells);
    if (!pv->cells)
        goto nomem;
    memcpy(pv->cells, hdr, nh * sizeof *hdr);
    memcpy(pv->cells + nh, rec, nrows * nh * sizeof *rec);
    free(rec);
    r->columns = pv->cells;
    r->nrows = nrows;
    for (size_t i = 0; i < nrows; i++) {
        r->rows[i].cells = pv->cells + (i + 1) * nh;
        r->rows[i].program = r->rows[i].cells[r->program_col];
    }
    *out = r;
    return 0;
nomem:
    mmm_error_set(err, MMM_ENOMEM, name, 0, "out of memory");
fail:
    free(rec);
    mmm_runs_free(r);
    return err->code;
}

int mmm_runs_read_file(mmm_runs **out, const char *path, int graph_default,
                       mmm_error *err)
{
    char *buf = NULL;
    size_t len = 0;
    *out = NULL;
    int r = mmm__read_whole_file(path, RUNS_MAX_BYTES, &buf, &len, err);
    if (r < 0)
        return r;
    r = mmm_runs_read_memory(out, buf, len, mmm__input_name(path),
                             graph_default, err);
    free(buf);
    return r;
}

int mmm_runs_overrides(const mmm_runs *r, size_t row, const mmm_program *p,
                       mmm_override *ov, size_t *nov, mmm_error *err)
{
    if (!r || row >= r->nrows || !p || !ov || !nov)
        return mmm_error_set(err, MMM_EINVAL, NULL, 0,
                             "mmm_runs_overrides: bad argument");
    const mmm_run_row *rw = &r->rows[row];
    *nov = 0;
    for (size_t c = 0; c < r->ncols; c++) {
        if ((int)c == r->program_col || (int)c == r->time_col ||
            (int)c == r->launch_col || !*rw->cells[c])
            continue;
        int slot = mmm_program_find_param(p, r->columns[c]);
        if (slot < 0)
            continue;
        double v;
        if (mmm__csv_number(rw->cells[c], &v) < 0)
            return mmm_error_set(err, MMM_EINPUT, r->file, rw->line,
                                 "%s '%s' is not a number", r->columns[c],
                                 rw->cells[c]);
        ov[*nov].slot = slot;
        ov[*nov].value = mmm_value_double(v);
        (*nov)++;
    }
    return 0;
}
