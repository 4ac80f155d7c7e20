/* fit_out.c: the output of `mmm fit` (mmm_write_fit): the fitted
 * constants of the time model with their uncertainty, the trade-offs
 * between them, and every run measured against its prediction, in text
 * and JSON (docs/time.md). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output/output_internal.h"

/* Correlations of two fitted constants' logarithms at or beyond this
 * (in magnitude) are reported as a trade-off. */
#define TRADEOFF 0.95

/* Whether the runs trade fitted constants a and b one for the other
 * (false for a correlation that is NAN). */
static int trades(const mmm_fit_result *res, const int *fit, int a, int b)
{
    return fit[a] && fit[b] && fabs(res->corr[a][b]) >= TRADEOFF;
}

/* The uncertainty column of constant q: "+/-3.2%", "kept", "lower bound"
 * or "upper bound", "undetermined" (no run depends on it, or the runs
 * cannot tell it from the others), "-" (as many constants as runs). */
static const char *uncertainty(const mmm_fit_result *res, const int *fit,
                               int q, char *buf, size_t size)
{
    if (!fit[q])
        return "kept";
    if (res->at_bound[q])
        return res->at_bound[q] < 0 ? "lower bound" : "upper bound";
    if (isinf(res->rel_sd[q]))
        return "undetermined";
    if (!isfinite(res->rel_sd[q]))
        return "-";
    snprintf(buf, size, "+/-%.3g%%", 100 * res->rel_sd[q]);
    return buf;
}

/* "note:" lines for the pairs of fitted constants the runs trade off, the
 * constants no run depends on and those that ended at a bound. */
static void print_tradeoffs(FILE *f, const mmm_fit_result *res, const int *fit)
{
    int any = 0;
    for (int a = 0; a < MMM_TIME_NCONST; a++)
        for (int b = a + 1; b < MMM_TIME_NCONST; b++) {
            if (!trades(res, fit, a, b))
                continue;
            fprintf(f, "%snote: these runs trade %s against %s (correlation "
                   "%+.3f): their values are not determined apart; keep "
                   "one at a measured value (--fix)\n",
                   any ? "" : "\n", mmm_time_const_name(a),
                   mmm_time_const_name(b), res->corr[a][b]);
            any = 1;
        }
    for (int q = 0; q < MMM_TIME_NCONST; q++) {
        int partner = 0;
        for (int b = 0; b < MMM_TIME_NCONST; b++)
            partner |= b != q && fit[b] && isfinite(res->corr[q][b]);
        if (fit[q] && isinf(res->rel_sd[q]) && !partner) {
            fprintf(f, "%snote: no run depends on %s near its fitted value, "
                   "so the runs do not determine it; keep it at a measured "
                   "value (--fix)\n",
                   any ? "" : "\n", mmm_time_const_name(q));
            any = 1;
        }
    }
    for (int q = 0; q < MMM_TIME_NCONST; q++)
        if (fit[q] && res->at_bound[q]) {
            fprintf(f, "%snote: %s ended at its %s bound: the runs would take "
                   "it past its physical range; keep it at a measured "
                   "value (--fix)\n",
                   any ? "" : "\n", mmm_time_const_name(q),
                   res->at_bound[q] < 0 ? "lower" : "upper");
            any = 1;
        }
}

/* "uncertainty": {name: relative sd or null}, "at_bound": {name: "lower"
 * | "upper"}, "tradeoffs": [{"constants": [a, b], "correlation": c}] */
static void json_uncertainty(mmm__json *w, const mmm_fit_result *res,
                             const int *fit)
{
    mmm__json_key(w, "uncertainty");
    mmm__json_begin_object(w);
    for (int q = 0; q < MMM_TIME_NCONST; q++)
        if (fit[q]) {
            mmm__json_key(w, mmm_time_const_name(q));
            if (isfinite(res->rel_sd[q]))
                mmm__json_double(w, res->rel_sd[q]);
            else
                mmm__json_null(w);
        }
    mmm__json_end_object(w);
    mmm__json_key(w, "at_bound");
    mmm__json_begin_object(w);
    for (int q = 0; q < MMM_TIME_NCONST; q++)
        if (fit[q] && res->at_bound[q]) {
            mmm__json_str(w, mmm_time_const_name(q), res->at_bound[q] < 0 ? "lower" : "upper");
        }
    mmm__json_end_object(w);
    mmm__json_key(w, "tradeoffs");
    mmm__json_begin_array(w);
    for (int a = 0; a < MMM_TIME_NCONST; a++)
        for (int b = a + 1; b < MMM_TIME_NCONST; b++)
            if (trades(res, fit, a, b)) {
                mmm__json_begin_object_flat(w);
                mmm__json_key(w, "constants");
                mmm__json_begin_array(w);
                mmm__json_string(w, mmm_time_const_name(a));
                mmm__json_string(w, mmm_time_const_name(b));
                mmm__json_end_array(w);
                mmm__json_num(w, "correlation", res->corr[a][b]);
                mmm__json_end_object(w);
            }
    mmm__json_end_array(w);
}

static void print_params(FILE *f, const mmm_runs *r, size_t row,
                         const mmm_program *p, mmm__json *w)
{
    const mmm_run_row *rw = &r->rows[row];
    int first = 1;
    if (w)
        mmm__json_begin_object(w);
    for (size_t c = 0; c < r->ncols; c++) {
        if ((int)c == r->program_col || (int)c == r->time_col ||
            (int)c == r->launch_col || !*rw->cells[c] ||
            mmm_program_find_param(p, r->columns[c]) < 0)
            continue;
        if (w) {
            mmm__json_num(w, r->columns[c], strtod(rw->cells[c], NULL));
        } else {
            fprintf(f, "%s%s=%s", first ? "" : " ", r->columns[c],
                    rw->cells[c]);
        }
        first = 0;
    }
    if (w)
        mmm__json_end_object(w);
}

int mmm_write_fit(mmm_writer *wr, const mmm_fit_report *r, mmm_error *err)
{
    int rc = mmm__writer_check(wr, MMM__FORMAT_BIT(MMM_FORMAT_TEXT) |
                                       MMM__FORMAT_BIT(MMM_FORMAT_JSON),
                               "mmm_write_fit", err);
    if (rc < 0)
        return rc;
    if (!r || !r->machine || !r->fitted || !r->result || (r->nruns && !r->runs))
        return mmm_error_set(err, MMM_EINVAL, NULL, 0, "mmm_write_fit: no fit");
    FILE *f = wr->f;
    const mmm_time_machine *m = r->machine;
    const int *fit = r->fitted;
    const mmm_fit_result *res = r->result;
    const mmm_fit_run *fr = r->runs;
    size_t k, nruns = r->nruns;

    if (wr->format == MMM_FORMAT_JSON) {
        mmm__json w;
        mmm__json_init(&w, f);
        mmm__json_begin_object(&w);
        mmm__json_key(&w, "constants");
        mmm__json_begin_object(&w);
        for (int q = 0; q < MMM_TIME_NCONST; q++) {
            mmm__json_num(&w, mmm_time_const_name(q), m->c[q]);
        }
        mmm__json_end_object(&w);
        mmm__json_key(&w, "units");
        mmm__json_begin_object(&w);
        for (int q = 0; q < MMM_TIME_NCONST; q++) {
            mmm__json_str(&w, mmm_time_const_name(q), mmm_time_const_unit(q));
        }
        mmm__json_end_object(&w);
        mmm__json_key(&w, "fitted");
        mmm__json_begin_array(&w);
        for (int q = 0; q < MMM_TIME_NCONST; q++)
            if (fit[q])
                mmm__json_string(&w, mmm_time_const_name(q));
        mmm__json_end_array(&w);
        json_uncertainty(&w, res, fit);
        mmm__json_key(&w, "rows");
        mmm__json_begin_array(&w);
        for (k = 0; k < nruns; k++) {
            const mmm_run_row *rw = &fr[k].runs->rows[fr[k].row];
            mmm__json_begin_object_flat(&w);
            mmm__json_str(&w, "program", rw->program);
            mmm__json_key(&w, "params");
            print_params(NULL, fr[k].runs, fr[k].row, fr[k].program, &w);
            mmm__json_str(&w, "launch", rw->graph ? "graph" : "stream");
            mmm__json_str(&w, "file", fr[k].runs->file);
            mmm__json_intk(&w, "line", rw->line);
            mmm__json_num(&w, "measured_s", rw->seconds);
            mmm__json_num(&w, "predicted_s", res->predicted[k]);
            mmm__json_num(&w, "rel_error", (res->predicted[k] - rw->seconds) / rw->seconds);
            mmm__json_end_object(&w);
        }
        mmm__json_end_array(&w);
        mmm__json_num(&w, "median_rel_error", res->median_rel_error);
        mmm__json_num(&w, "max_rel_error", res->max_rel_error);
        mmm__json_num(&w, "cost", res->cost);
        mmm__json_intk(&w, "iterations", res->iterations);
        mmm__json_end_object(&w);
        mmm__json_finish(&w);
    } else {
        char a[64], b[64];
        fprintf(f, "fit  %zu runs, %zu programs, cost %.6g (sum of squared log "
               "errors), %d iterations\n\n",
               nruns, r->nprograms, res->cost, res->iterations);
        fprintf(f, "%-26s %-14s %-12s %-24s %s\n", "constant", "value",
               "uncertainty", "unit", "meaning");
        for (int q = 0; q < MMM_TIME_NCONST; q++) {
            char u[32];
            fprintf(f, "%-26s %-14.6g %-12s %-24s %s\n", mmm_time_const_name(q),
                   m->c[q], uncertainty(res, fit, q, u, sizeof u),
                   mmm_time_const_unit(q), mmm_time_const_meaning(q));
        }
        print_tradeoffs(f, res, fit);
        fprintf(f, "\n%-12s %-32s %-7s %12s %12s %9s\n", "program", "params",
               "launch", "measured", "predicted", "error");
        for (k = 0; k < nruns; k++) {
            const mmm_run_row *rw = &fr[k].runs->rows[fr[k].row];
            char pbuf[256];
            FILE *mf = fmemopen(pbuf, sizeof pbuf, "w");
            if (mf) {
                print_params(mf, fr[k].runs, fr[k].row, fr[k].program,
                             NULL);
                fclose(mf);
            } else {
                pbuf[0] = '\0';
            }
            fprintf(f, "%-12s %-32s %-7s %12s %12s %+8.1f%%\n", rw->program, pbuf,
                   rw->graph ? "graph" : "stream",
                   mmm__fmt_seconds(rw->seconds, a, sizeof a),
                   mmm__fmt_seconds(res->predicted[k], b, sizeof b),
                   100 * (res->predicted[k] - rw->seconds) / rw->seconds);
        }
        fprintf(f, "\nmedian relative error  %.1f%%\nmax relative error     "
               "%.1f%%\n",
               100 * res->median_rel_error, 100 * res->max_rel_error);
        if (r->written)
            fprintf(f, "wrote %s\n", r->written);
    }
    return MMM_OK;
}
