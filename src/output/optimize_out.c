/* optimize_out.c: the output of `mmm optimize` (text, JSON, CSV), point by
 * point as the sweep streams them, and the summary after it: the best
 * value, the baseline, the minimizers of the bounds and the notes about
 * the choice (mmm_write_sweep_*).  The figure is the drawing module's
 * (mmm/sweep_plot.h), fed by the caller. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output/output_internal.h"
#include "base/grow.h"
#include "base/abi.h"

/* A row of the text table, and why its point is infeasible. */
typedef struct row {
    mmm_sweep_point pt;
    char reason[200];
} row;

/* The state of one sweep's output (the writer's). */
typedef struct mmm__sweep_out {
    FILE *f;
    mmm_format format;
    const mmm_program *prog;
    const mmm_sweep_result *plan;   /* resolved axes */
    uint64_t total;
    mmm__json *jw;
    int show_time;                  /* --objective time: a column of seconds */
    /* text: a sample of the rows */
    row *rows;
    size_t nrows, cap;
    uint64_t stride;
    int stream;                     /* text rows printed as they come */
} sink;

/* max_rows 0 keeps every row of a sweep up to this many values, to size
 * the table's columns to their content; beyond, the rows are printed as
 * they come (constant memory, fixed columns). */
#define OPT_KEEP_ALL_ROWS 20000

/* ------------------------------------------------------------------ */
/* The per-point sink: JSON/CSV rows, sampled text rows. */


static void print_table_row(const sink *s, const mmm_sweep_point *pt,
                            const char *reason);

static const char *pname(const sink *s, size_t a)
{
    return s->prog->params[s->plan->axes[a].slot].name;
}

static void opt_point_text(char *buf, size_t size, const sink *s,
                           const mmm_sweep_point *pt)
{
    mmm_sweep_point_format(buf, size, s->prog, s->plan, pt);
}

static void put_value(FILE *f, mmm_value v)
{
    char buf[64];
    fputs(mmm_value_format(v, 0, buf, sizeof buf), f);
}

/* "FILE:LINE: message": where and why a point is infeasible (not an
 * error of the run, so without "error:"). */
static char *fmt_reason(const mmm_error *why, char *buf, size_t size)
{
    if (why->file[0] && why->line > 0)
        snprintf(buf, size, "%s:%ld: %s", why->file, why->line, why->message);
    else if (why->file[0])
        snprintf(buf, size, "%s: %s", why->file, why->message);
    else
        snprintf(buf, size, "%s", why->message);
    return buf;
}

static void json_row(sink *s, const mmm_sweep_point *pt, const mmm_error *why)
{
    mmm__json *w = s->jw;
    size_t a;
    int ok = pt->status == 0;
    mmm__json_begin_object_flat(w); /* one point per line */
    mmm__json_key(w, "params");
    mmm__json_begin_object(w);
    for (a = 0; a < s->plan->naxes; a++) {
        mmm__json_key(w, pname(s, a));
        mmm__json_value(w, pt->params[a]);
    }
    mmm__json_end_object(w);
#define NUM_(key, v) do { mmm__json_key(w, key); if (ok) mmm__json_double(w, v); else mmm__json_null(w); } while (0)
#define INT_(key, v) do { mmm__json_key(w, key); if (ok) mmm__json_int(w, v); else mmm__json_null(w); } while (0)
    NUM_("W", pt->W);
    NUM_("S", pt->S);
    NUM_("O", pt->O);
    INT_("N", pt->N);
    INT_("L", pt->L);
    NUM_("C", pt->C);
    INT_("K", pt->K);
    mmm__json_key(w, "graham_brent");
    if (ok && pt->has_p)
        mmm__json_double(w, pt->graham_brent);
    else
        mmm__json_null(w);
    NUM_("corollary", pt->corollary);
    if (s->show_time) {
        mmm__json_key(w, "seconds");
        if (ok)
            mmm__json_double(w, pt->seconds);
        else
            mmm__json_null(w);
    }
#undef NUM_
#undef INT_
    mmm__json_boolk(w, "feasible", ok);
    if (!ok) {
        char buf[2048];
        mmm__json_str(w, "reason", fmt_reason(why, buf, sizeof buf));
    }
    mmm__json_end_object(w);
}

static void csv_quote(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

static void csv_header(const sink *s)
{
    size_t a;
    for (a = 0; a < s->plan->naxes; a++)
        fprintf(s->f, "%s,", pname(s, a));
    fprintf(s->f, "feasible,W,S,O,N,L,C,K,graham_brent,corollary,%sreason\n",
           s->show_time ? "seconds," : "");
}

static void csv_row(const sink *s, const mmm_sweep_point *pt,
                    const mmm_error *why)
{
    size_t a;
    for (a = 0; a < s->plan->naxes; a++) {
        put_value(s->f, pt->params[a]);
        fputc(',', s->f);
    }
    if (pt->status == 0) {
        fprintf(s->f, "1,%.17g,%.17g,%.17g,%lld,%lld,%.17g,%lld,", pt->W, pt->S,
               pt->O, (long long)pt->N, (long long)pt->L, pt->C,
               (long long)pt->K);
        if (pt->has_p)
            fprintf(s->f, "%.17g", pt->graham_brent);
        fprintf(s->f, ",%.17g,", pt->corollary);
        if (s->show_time)
            fprintf(s->f, "%.17g,", pt->seconds);
        fputc('\n', s->f);
    } else {
        char buf[2048];
        fprintf(s->f, "0,,,,,,,,,,%s", s->show_time ? "," : "");
        csv_quote(s->f, fmt_reason(why, buf, sizeof buf));
        fputc('\n', s->f);
    }
}

static int keep_row(sink *s, const mmm_sweep_point *pt, const mmm_error *why)
{
    row *r = mmm__grow(s->rows, &s->cap, s->nrows + 1, sizeof *r, 64);
    if (!r)
        return MMM_ENOMEM;
    s->rows = r;
    r = &s->rows[s->nrows++];
    r->pt = *pt;
    r->reason[0] = '\0';
    if (why) {
        /* Truncated on purpose: the table shows a one-line summary. */
        size_t n = strlen(why->message);
        if (n >= sizeof r->reason)
            n = sizeof r->reason - 1;
        memcpy(r->reason, why->message, n);
        r->reason[n] = '\0';
    }
    return MMM_OK;
}

static int opt_on_point(const mmm_sweep_point *pt, const mmm_error *why,
                        void *payload)
{
    sink *s = payload;
    int rc = MMM_OK;
    if (s->format == MMM_FORMAT_JSON)
        json_row(s, pt, why);
    else if (s->format == MMM_FORMAT_CSV)
        csv_row(s, pt, why);
    else if (s->stream) {
        /* All rows of a huge sweep: print them as they come (constant
         * memory); the summary follows the table. */
        print_table_row(s, pt, why ? why->message : "");
        fputc('\n', s->f);
    } else if (pt->index % s->stride == 0 || pt->index + 1 == s->total)
        rc = keep_row(s, pt, why);
    return rc;
}

/* ------------------------------------------------------------------ */
/* Warnings and notes about the choice, shared by text and JSON. */

#define MAX_MSGS 8
/* W or S varying by more than this over the range gets a note. */
#define PREMISE_FACTOR 2.0

typedef struct msgs {
    char text[MAX_MSGS][600];
    int warning[MAX_MSGS];
    size_t n;
} msgs;

static void add_msg(msgs *m, int warning, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

static void add_msg(msgs *m, int warning, const char *fmt, ...)
{
    va_list ap;
    if (m->n == MAX_MSGS)
        return;
    va_start(ap, fmt);
    vsnprintf(m->text[m->n], sizeof m->text[m->n], fmt, ap);
    va_end(ap);
    m->warning[m->n++] = warning;
}

/* A ratio with enough digits that one close to 1 does not print as "1". */
static char *fmt_ratio(double v, char *buf, size_t size)
{
    snprintf(buf, size, "%.6g", v);
    if (v != 1 && strtod(buf, NULL) == 1)
        snprintf(buf, size, "%.12g", v);
    return buf;
}

/* A cell of the s0/best row: "undefined" where the best value is 0. */
static const char *ratio_cell(double v, char *buf, size_t size)
{
    return isnan(v) ? "undefined" : mmm__fmt_num(v, buf, size);
}

/* One bound (Graham–Brent or corollary): fails the check, or is minimized
 * elsewhere than at the best point. */
static void bound_msgs(msgs *m, const sink *s, const mmm_sweep_result *res,
                       const mmm_sweep_spec *spec, int gb)
{
    const char *obj = mmm_objective_name(spec->objective);
    const char *what = gb ? "Graham-Brent" : "corollary";
    const mmm_sweep_point *mn = gb ? &res->min_bound : &res->min_corollary;
    double at_best = gb ? res->best.graham_brent : res->best.corollary;
    double at_base = gb ? res->baseline.graham_brent : res->baseline.corollary;
    double at_min = gb ? mn->graham_brent : mn->corollary;
    int ok = gb ? res->graham_brent_not_worse : res->corollary_not_worse;
    char b[128], s0[128], mnt[128], pbuf[48] = "";
    char x[32], y[32];

    opt_point_text(b, sizeof b, s, &res->best);
    opt_point_text(s0, sizeof s0, s, &res->baseline);
    opt_point_text(mnt, sizeof mnt, s, mn);
    if (gb)
        snprintf(pbuf, sizeof pbuf, " (p = %lld)", (long long)res->best.p);
    if (!ok)
        add_msg(m, 1, "the %s-optimal %s fails the %s check: its %s bound%s "
                "is %sx the baseline's (%s); the %s bound is smallest at %s "
                "(%s)", obj, b, what, what, pbuf,
                fmt_ratio(at_best / at_base, x, sizeof x), s0, what, mnt,
                mmm__fmt_num(at_min, y, sizeof y));
    else if (mmm_sweep_points_differ(res, mn, &res->best))
        add_msg(m, 0, "the %s bound%s is smallest at %s (%s, %sx the bound at "
                "the best value)", what, pbuf, mnt,
                mmm__fmt_num(at_min, x, sizeof x),
                fmt_ratio(at_min / at_best, y, sizeof y));
}

/* "7997 over block_threads, 3 by the program": the infeasible points by
 * why (mmm_sweep_result.infeasible_by), the counts that are not 0. */
static void why_counts(char *buf, size_t size, const mmm_sweep_result *res)
{
    size_t len = 0;
    buf[0] = '\0';
    for (int w = 0; w < MMM_SWEEP_NWHY && len < size; w++) {
        int n;
        if (!res->infeasible_by[w])
            continue;
        n = snprintf(buf + len, size - len, "%s%llu %s%s", len ? ", " : "",
                     (unsigned long long)res->infeasible_by[w],
                     w == MMM_SWEEP_WHY_PROGRAM ? "by the program"
                     : w == MMM_SWEEP_WHY_TIME  ? "refused by the time model"
                                                : "over ",
                     w == MMM_SWEEP_WHY_PROGRAM || w == MMM_SWEEP_WHY_TIME
                         ? ""
                         : mmm_time_excess_name((mmm_time_excess)w));
        if (n < 0)
            break;
        len += (size_t)n;
    }
}

/* Without launch limits from the machine: does the best point launch what
 * no current GPU can?  inst is at the best point. */
static void current_msg(msgs *m, const sink *s, const mmm_sweep_result *res,
                        const mmm_sweep_spec *spec, const mmm_instance *inst)
{
    mmm_error why;
    char b[128];
    if (!inst || res->limits_given > 0 || spec->objective == MMM_OBJECTIVE_TIME ||
        mmm_time_check_launches(inst, NULL, NULL, &why) != MMM_EINFEASIBLE)
        return;
    opt_point_text(b, sizeof b, s, &res->best);
    add_msg(m, 1, "the best %s launches what no current GPU can: %s, the largest "
            "current GPUs allow; give --machine FILE with a GPU's launch limits to "
            "sweep within them", b, why.message);
}

static void collect_msgs(msgs *m, const sink *s, const mmm_sweep_result *res,
                         const mmm_sweep_spec *spec, const mmm_instance *inst)
{
    memset(m, 0, sizeof *m);
    if (!res->has_best)
        return;
    current_msg(m, s, res, spec, inst);
    if (res->has_p)
        bound_msgs(m, s, res, spec, 1);
    bound_msgs(m, s, res, spec, 0);
    if (res->W_factor > PREMISE_FACTOR || res->S_factor > PREMISE_FACTOR) {
        char w[32], x[32];
        add_msg(m, 0, "W varies by a factor %s and S by %s over the range: the "
                "slides' recipe assumes both stay within a small constant "
                "factor, so judge by the bounds, not by O alone",
                mmm__fmt_num(res->W_factor, w, sizeof w),
                mmm__fmt_num(res->S_factor, x, sizeof x));
    }
    {
        const double r[] = {res->ratio_W, res->ratio_S, res->ratio_O,
                            res->has_p ? res->ratio_graham_brent : 0,
                            res->ratio_corollary};
        static const char *const name[] = {"W", "S", "O", "Graham-Brent",
                                           "corollary"};
        char list[96] = "";
        size_t i, n = 0;
        for (i = 0; i < 5; i++)
            if (isnan(r[i])) {
                size_t l = strlen(list);
                snprintf(list + l, sizeof list - l, "%s%s", l ? ", " : "",
                         name[i]);
                n++;
            }
        if (n)
            add_msg(m, 0, "s0/best of %s is undefined (null in JSON): %s 0 "
                    "at the best value", list, n > 1 ? "they are" : "it is");
    }
    if (res->nfeasible < res->npoints) {
        char at[128];
        mmm_sweep_point tmp;
        memset(&tmp, 0, sizeof tmp);
        memcpy(tmp.params, res->first_infeasible_params, sizeof tmp.params);
        char by[256];
        opt_point_text(at, sizeof at, s, &tmp);
        why_counts(by, sizeof by, res);
        add_msg(m, 0, "%llu of %llu values are infeasible: %s (first: %s: %s)",
                (unsigned long long)(res->npoints - res->nfeasible),
                (unsigned long long)res->npoints, by, at,
                res->first_infeasible.message);
    }
}

/* ------------------------------------------------------------------ */
/* JSON */

static void json_params(mmm__json *w, const sink *s, const mmm_value *v)
{
    size_t a;
    mmm__json_key(w, "params");
    mmm__json_begin_object(w);
    for (a = 0; a < s->plan->naxes; a++) {
        mmm__json_key(w, pname(s, a));
        mmm__json_value(w, v[a]);
    }
    mmm__json_end_object(w);
}

static void json_head(sink *s, const mmm_sweep_spec *spec)
{
    mmm__json *w = s->jw;
    size_t a;
    uint64_t i;
    mmm__json_begin_object(w);
    mmm__json_str(w, "program", s->prog->name);
    mmm__json_str(w, "file", s->prog->file);
    mmm__json_key(w, "param");
    mmm__json_begin_array(w);
    for (a = 0; a < s->plan->naxes; a++)
        mmm__json_string(w, pname(s, a));
    mmm__json_end_array(w);
    mmm__json_str(w, "objective", mmm_objective_name(spec->objective));
    mmm__json_key(w, "ranges");
    mmm__json_begin_object(w);
    for (a = 0; a < s->plan->naxes; a++) {
        const mmm_sweep_range *r = &s->plan->axes[a];
        mmm__json_key(w, pname(s, a));
        mmm__json_begin_object(w);
        if (r->values) {
            mmm__json_key(w, "values");
            mmm__json_begin_array(w);
            for (i = 0; i < r->count; i++)
                mmm__json_value(w, r->values[i]);
            mmm__json_end_array(w);
        } else {
            mmm__json_key(w, "from"); mmm__json_value(w, r->from);
            mmm__json_key(w, "to"); mmm__json_value(w, r->to);
            mmm__json_key(w, r->geometric ? "factor" : "step");
            mmm__json_value(w, r->step);
        }
        mmm__json_intk(w, "count", (int64_t)r->count);
        if (r->tied) {
            size_t h = a;
            while (h > 0 && s->plan->axes[h].tied)
                h--;
            mmm__json_str(w, "with", pname(s, h));
        }
        mmm__json_end_object(w);
    }
    mmm__json_end_object(w);
    mmm__json_key(w, "sweep");
    mmm__json_begin_array(w);
}

static void json_point(mmm__json *w, const sink *s, const char *key,
                       const mmm_sweep_point *pt, const mmm_metrics *m)
{
    mmm__json_key(w, key);
    if (!m) {
        mmm__json_null(w);
        return;
    }
    mmm__json_begin_object(w);
    json_params(w, s, pt->params);
    mmm__json_metrics(w, m);
    mmm__json_bounds(w, m);
    if (s->show_time)
        mmm__json_num(w, "seconds", pt->seconds);
    mmm__json_end_object(w);
}

static void json_minimizer(mmm__json *w, const sink *s, const char *key,
                           const mmm_sweep_point *pt, double v)
{
    mmm__json_key(w, key);
    mmm__json_begin_object(w);
    json_params(w, s, pt->params);
    mmm__json_num(w, "value", v);
    mmm__json_end_object(w);
}

static void json_tail(sink *s, const mmm_sweep_result *res,
                      const mmm_metrics *mb, const mmm_metrics *m0,
                      const msgs *m)
{
    mmm__json *w = s->jw;
    size_t i;
    int have = res->has_best;
    mmm__json_end_array(w); /* sweep */
    mmm__json_intk(w, "points", (int64_t)res->npoints);
    mmm__json_intk(w, "feasible", (int64_t)res->nfeasible);
    mmm__json_key(w, "infeasible");
    mmm__json_begin_object(w);
    for (int k = 0; k < MMM_SWEEP_NWHY; k++)
        mmm__json_intk(w, k == MMM_SWEEP_WHY_PROGRAM ? "program"
                          : k == MMM_SWEEP_WHY_TIME  ? "time"
                                                     : mmm_time_excess_name((mmm_time_excess)k),
                       (int64_t)res->infeasible_by[k]);
    mmm__json_end_object(w);
    mmm__json_intk(w, "launch_limits", res->limits_given);
    json_point(w, s, "best", &res->best, have ? mb : NULL);
    json_point(w, s, "baseline", &res->baseline, have ? m0 : NULL);
    if (have) {
        mmm__json_key(w, "ratios");
        mmm__json_begin_object(w);
        mmm__json_num(w, "W", res->ratio_W);
        mmm__json_num(w, "S", res->ratio_S);
        mmm__json_num(w, "O", res->ratio_O);
        if (res->has_p) {
            mmm__json_num(w, "graham_brent", res->ratio_graham_brent);
        }
        mmm__json_num(w, "corollary", res->ratio_corollary);
        mmm__json_end_object(w);
        mmm__json_key(w, "factors");
        mmm__json_begin_object(w);
        mmm__json_num(w, "W", res->W_factor);
        mmm__json_num(w, "S", res->S_factor);
        mmm__json_end_object(w);
        mmm__json_key(w, "checks");
        mmm__json_begin_object(w);
        if (res->has_p) {
            mmm__json_boolk(w, "graham_brent_not_worse", res->graham_brent_not_worse);
        }
        mmm__json_boolk(w, "corollary_not_worse", res->corollary_not_worse);
        mmm__json_end_object(w);
        mmm__json_key(w, "minimizers");
        mmm__json_begin_object(w);
        json_minimizer(w, s, "overhead", &res->min_overhead, res->min_overhead.O);
        if (res->has_p)
            json_minimizer(w, s, "graham_brent", &res->min_bound,
                           res->min_bound.graham_brent);
        json_minimizer(w, s, "corollary", &res->min_corollary,
                       res->min_corollary.corollary);
        mmm__json_end_object(w);
    }
    mmm__json_key(w, "warnings");
    mmm__json_begin_array(w);
    for (i = 0; i < m->n; i++)
        if (m->warning[i])
            mmm__json_string(w, m->text[i]);
    mmm__json_end_array(w);
    mmm__json_key(w, "notes");
    mmm__json_begin_array(w);
    for (i = 0; i < m->n; i++)
        if (!m->warning[i])
            mmm__json_string(w, m->text[i]);
    mmm__json_end_array(w);
    mmm__json_end_object(w);
    mmm__json_finish(w);
}

/* ------------------------------------------------------------------ */
/* Text */

/* Axes a .. a + n: one axis, or a list of tuples (axes tied to a). */
static size_t tuple_width(const sink *s, size_t a)
{
    size_t n = 1;
    while (a + n < s->plan->naxes && s->plan->axes[a + n].tied)
        n++;
    return n;
}

/* The range of axis a (and of those tied to it). */
static void print_range(const sink *s, size_t a)
{
    const mmm_sweep_range *r = &s->plan->axes[a];
    size_t n = tuple_width(s, a), k;
    char x[64], y[64], z[64];
    uint64_t i;
    if (r->values) {
        for (k = 0; k < n; k++)
            fprintf(s->f, "%s%s", k ? ", " : n > 1 ? "(" : "", pname(s, a + k));
        fprintf(s->f, "%s in {", n > 1 ? ")" : "");
        for (i = 0; i < r->count && i < 12; i++)
            for (k = 0; k < n; k++)
                fprintf(s->f, "%s%s%s%s", k ? ", " : i ? ", " : "",
                        k == 0 && n > 1 ? "(" : "",
                        mmm_value_format(s->plan->axes[a + k].values[i], 0, x, sizeof x),
                        k + 1 == n && n > 1 ? ")" : "");
        fprintf(s->f, "%s}", r->count > 12 ? ", ..." : "");
        return;
    }
    fprintf(s->f, "%s = %s .. %s step %s%s", pname(s, a),
           mmm_value_format(r->from, 0, x, sizeof x),
           mmm_value_format(r->to, 0, y, sizeof y), r->geometric ? "*" : "",
           mmm_value_format(r->step, 0, z, sizeof z));
}

/* Cells of a table sized to its content (mmm__table): the swept values,
 * then the measures (full: N, L, C and K too). */
static int add_params(mmm__table *t, const sink *s, const mmm_value *v)
{
    size_t a;
    char buf[64];
    for (a = 0; a < s->plan->naxes; a++)
        if (mmm__table_add(t, mmm_value_format(v[a], 0, buf, sizeof buf)) < 0)
            return -1;
    return 0;
}

static int add_measures(mmm__table *t, const sink *s, const mmm_sweep_point *pt,
                        int full)
{
    char b[7][64];
    int rc = 0;
    rc |= mmm__table_add(t, mmm__fmt_num(pt->W, b[0], sizeof b[0]));
    rc |= mmm__table_add(t, mmm__fmt_num(pt->S, b[1], sizeof b[1]));
    rc |= mmm__table_add(t, mmm__fmt_num(pt->O, b[2], sizeof b[2]));
    if (full) {
        snprintf(b[3], sizeof b[3], "%lld", (long long)pt->N);
        snprintf(b[4], sizeof b[4], "%lld", (long long)pt->L);
        snprintf(b[5], sizeof b[5], "%lld", (long long)pt->K);
        rc |= mmm__table_add(t, b[3]);
        rc |= mmm__table_add(t, b[4]);
        rc |= mmm__table_add(t, mmm__fmt_num(pt->C, b[6], sizeof b[6]));
        rc |= mmm__table_add(t, b[5]);
    }
    rc |= mmm__table_add(t, pt->has_p ? mmm__fmt_num(pt->graham_brent, b[0], sizeof b[0]) : "-");
    rc |= mmm__table_add(t, mmm__fmt_num(pt->corollary, b[1], sizeof b[1]));
    if (s->show_time)
        rc |= mmm__table_add(t, pt->seconds > 0 ? mmm__fmt_seconds(pt->seconds, b[2], sizeof b[2])
                                               : "-");
    return rc ? -1 : 0;
}

static int add_header(mmm__table *t, const sink *s, int full)
{
    static const char *const head[] = {"W", "S", "O", "N", "L", "C", "K"};
    size_t a, i;
    int rc = 0;
    for (a = 0; a < s->plan->naxes; a++)
        rc |= mmm__table_add(t, pname(s, a));
    for (i = 0; i < 7; i++)
        if (full || i < 3)
            rc |= mmm__table_add(t, head[i]);
    rc |= mmm__table_add(t, "Graham-Brent");
    rc |= mmm__table_add(t, "corollary");
    if (s->show_time)
        rc |= mmm__table_add(t, "time");
    return rc ? -1 : 0;
}

static void print_measures(const sink *s, const mmm_sweep_point *pt, int full)
{
    char a[32], b[32], c[32], d[32], e[32], f[32];
    fprintf(s->f, " %12s %12s %12s", mmm__fmt_num(pt->W, a, sizeof a),
           mmm__fmt_num(pt->S, b, sizeof b), mmm__fmt_num(pt->O, c, sizeof c));
    if (full)
        fprintf(s->f, " %12lld %10lld %12s %12lld", (long long)pt->N, (long long)pt->L,
               mmm__fmt_num(pt->C, d, sizeof d), (long long)pt->K);
    fprintf(s->f, " %13s %12s",
           pt->has_p ? mmm__fmt_num(pt->graham_brent, e, sizeof e) : "-",
           mmm__fmt_num(pt->corollary, f, sizeof f));
    if (s->show_time)
        fprintf(s->f, " %12s", pt->seconds > 0 ? mmm__fmt_seconds(pt->seconds, a,
                                                           sizeof a)
                                        : "-");
}

static void print_summary(const sink *s, const mmm_sweep_result *res,
                          const mmm_sweep_spec *spec,
                          const mmm_instance *inst_at_best, const msgs *m)
{
    const mmm_program *prog = s->prog;
    char a[32], b[32], c[32], d[32], e[32];
    size_t i;

    fprintf(s->f, "program    %s  (%s)\n", prog->name, prog->file);
    fprintf(s->f, "sweep      ");
    for (i = 0; i < s->plan->naxes; i += tuple_width(s, i)) {
        if (i)
            fprintf(s->f, "  x  ");
        print_range(s, i);
    }
    fprintf(s->f, ": %llu values, %llu feasible\n", (unsigned long long)res->npoints,
           (unsigned long long)res->nfeasible);
    fprintf(s->f, "objective  %s (minimized; ties go to the smaller value)\n",
           spec->objective == MMM_OBJECTIVE_OVERHEAD ? "overhead O"
           : spec->objective == MMM_OBJECTIVE_BOUND
               ? "Graham-Brent bound (N/p + L)C"
           : spec->objective == MMM_OBJECTIVE_TIME
               ? "time model, predicted seconds (docs/time.md)"
               : "corollary bound (N/K + L)C, a bound for p >= K");
    if (!res->has_best)
        return;
    fprintf(s->f, "at best   ");
    mmm__print_params(s->f, inst_at_best);
    fprintf(s->f, "\n\n");
    {
        /* best, baseline and their ratios, columns sized to their content */
        mmm__table t;
        size_t nc = 1 + s->plan->naxes + 5 + (s->show_time ? 1 : 0);
        int rc = 0;
        mmm__table_init(&t, nc);
        rc |= mmm__table_add(&t, "");
        rc |= add_header(&t, s, 0);
        rc |= mmm__table_add(&t, "best");
        rc |= add_params(&t, s, res->best.params);
        rc |= add_measures(&t, s, &res->best, 0);
        rc |= mmm__table_add(&t, "baseline");
        rc |= add_params(&t, s, res->baseline.params);
        rc |= add_measures(&t, s, &res->baseline, 0);
        rc |= mmm__table_add(&t, "s0/best");
        for (i = 0; i < s->plan->naxes; i++)
            rc |= mmm__table_add(&t, "");
        rc |= mmm__table_add(&t, ratio_cell(res->ratio_W, a, sizeof a));
        rc |= mmm__table_add(&t, ratio_cell(res->ratio_S, b, sizeof b));
        rc |= mmm__table_add(&t, ratio_cell(res->ratio_O, c, sizeof c));
        rc |= mmm__table_add(&t, res->has_p ? ratio_cell(res->ratio_graham_brent, d, sizeof d)
                                           : "-");
        rc |= mmm__table_add(&t, ratio_cell(res->ratio_corollary, e, sizeof e));
        if (s->show_time)
            rc |= mmm__table_add(&t, "");
        if (rc == 0)
            mmm__table_print(&t, s->f, "", 1ul);
        else
            fprintf(s->f, "(out of memory: the table is left out)\n");
        mmm__table_dispose(&t);
    }
    fprintf(s->f, "\nW varies by a factor %s over the feasible values (%s .. %s)\n",
           mmm__fmt_num(res->W_factor, a, sizeof a),
           mmm__fmt_num(res->W_min, b, sizeof b),
           mmm__fmt_num(res->W_max, c, sizeof c));
    fprintf(s->f, "S varies by a factor %s over the feasible values (%s .. %s)\n",
           mmm__fmt_num(res->S_factor, a, sizeof a),
           mmm__fmt_num(res->S_min, b, sizeof b),
           mmm__fmt_num(res->S_max, c, sizeof c));
    if (res->has_p)
        fprintf(s->f, "check      Graham-Brent bound (p = %lld) at best <= at baseline: %s\n",
               (long long)res->best.p,
               res->graham_brent_not_worse ? "yes" : "NO");
    else
        fprintf(s->f, "check      Graham-Brent bound: p unknown (use -p P)\n");
    fprintf(s->f, "check      corollary bound (p >= K) at best <= at baseline: %s\n",
           res->corollary_not_worse ? "yes" : "NO");
    for (i = 0; i < m->n; i++) /* warnings first */
        if (m->warning[i])
            fprintf(s->f, "warning    %s\n", m->text[i]);
    for (i = 0; i < m->n; i++)
        if (!m->warning[i])
            fprintf(s->f, "note       %s\n", m->text[i]);
}

static void print_table_head(const sink *s)
{
    size_t a;
    for (a = 0; a < s->plan->naxes; a++)
        fprintf(s->f, "%s%10.10s", a ? " " : "", pname(s, a));
    fprintf(s->f, " %12s %12s %12s %12s %10s %12s %12s %13s %12s%s\n", "W", "S",
           "O", "N", "L", "C", "K", "Graham-Brent", "corollary",
           s->show_time ? "         time" : "");
}

/* One row without its tag and newline. */
static void print_table_row(const sink *s, const mmm_sweep_point *pt,
                            const char *reason)
{
    size_t a;
    char buf[64];
    for (a = 0; a < s->plan->naxes; a++)
        fprintf(s->f, "%s%10s", a ? " " : "",
               mmm_value_format(pt->params[a], 0, buf, sizeof buf));
    if (pt->status == 0)
        print_measures(s, pt, 1);
    else
        fprintf(s->f, "  infeasible: %s", reason);
}

static int row_cmp(const void *x, const void *y)
{
    const row *p = x, *q = y;
    return (p->pt.index > q->pt.index) - (p->pt.index < q->pt.index);
}

static const char *row_tag(const mmm_sweep_result *res, const row *r)
{
    uint64_t i = r->pt.index;
    if (r->pt.status != 0)
        return "";
    if (res->has_best && i == res->best.index)
        return "<- best";
    if (res->baseline_in_sweep && i == res->baseline.index)
        return "<- baseline";
    if (res->has_p && i == res->min_bound.index)
        return "<- min Graham-Brent";
    if (i == res->min_corollary.index)
        return "<- min corollary";
    if (i == res->min_overhead.index)
        return "<- min O";
    return "";
}

static int print_table(sink *s, const mmm_sweep_result *res)
{
    const mmm_sweep_point *extra[5];
    size_t i, ne = 0, shown = 0;
    if (res->has_best) {
        extra[ne++] = &res->best;
        if (res->baseline_in_sweep)
            extra[ne++] = &res->baseline;
        if (res->has_p)
            extra[ne++] = &res->min_bound;
        extra[ne++] = &res->min_corollary;
        extra[ne++] = &res->min_overhead;
    }
    for (i = 0; i < ne; i++)
        if (keep_row(s, extra[i], NULL) < 0)
            return MMM_ENOMEM;
    qsort(s->rows, s->nrows, sizeof *s->rows, row_cmp);
    {
        /* Columns sized to their content; the tag (or why a value is
         * infeasible) last. */
        mmm__table t;
        size_t nc = s->plan->naxes + 9 + (s->show_time ? 1 : 0) + 1;
        int rc = 0;
        mmm__table_init(&t, nc);
        rc |= add_header(&t, s, 1);
        rc |= mmm__table_add(&t, "");
        for (i = 0; i < s->nrows && rc == 0; i++) {
            const row *r = &s->rows[i];
            size_t k;
            char why[sizeof r->reason + 16];
            if (i > 0 && r->pt.index == s->rows[i - 1].pt.index)
                continue;
            rc |= add_params(&t, s, r->pt.params);
            if (r->pt.status == 0) {
                rc |= add_measures(&t, s, &r->pt, 1);
                rc |= mmm__table_add(&t, row_tag(res, r));
            } else {
                for (k = s->plan->naxes; k + 1 < nc; k++)
                    rc |= mmm__table_add(&t, "-");
                snprintf(why, sizeof why, "infeasible: %s", r->reason);
                rc |= mmm__table_add(&t, why);
            }
            shown++;
        }
        if (rc != 0) {
            mmm__table_dispose(&t);
            return MMM_ENOMEM;
        }
        fprintf(s->f, "\n");
        mmm__table_print(&t, s->f, "", 1ul << (nc - 1));
        mmm__table_dispose(&t);
    }
    if (shown < res->npoints)
        fprintf(s->f, "(%zu of %llu values shown; --max-rows 0 shows all, "
               "--format csv lists them)\n",
               shown, (unsigned long long)res->npoints);
    return MMM_OK;
}

/* ------------------------------------------------------------------ */
/* The sink */

static void opt_sink_init(sink *s, FILE *f, mmm_format format, int64_t max_rows,
                          const mmm_program *prog, const mmm_sweep_result *plan,
                          const mmm_sweep_spec *spec, uint64_t total, mmm__json *jw)
{
    memset(s, 0, sizeof *s);
    s->f = f;
    s->format = format;
    s->prog = prog;
    s->plan = plan;
    s->total = total;
    s->jw = jw;
    s->show_time = spec->objective == MMM_OBJECTIVE_TIME;
    s->stride = 1;
    s->stream = max_rows == 0 && total > OPT_KEEP_ALL_ROWS;
    if (max_rows > 0 && total > (uint64_t)max_rows)
        s->stride = (total + (uint64_t)max_rows - 1) / (uint64_t)max_rows;
}

static void sweep_out_free(sink *s)
{
    if (s)
        free(s->rows);
    free(s);
}

static void opt_out_begin(sink *s, const mmm_sweep_spec *spec)
{
    if (s->format == MMM_FORMAT_JSON)
        json_head(s, spec);
    else if (s->format == MMM_FORMAT_CSV)
        csv_header(s);
    else if (s->stream)
        print_table_head(s);
}

static int opt_out_end(sink *s, const mmm_sweep_result *res, const mmm_sweep_spec *spec,
                       const mmm_instance *inst, const mmm_metrics *mb,
                       const mmm_metrics *m0)
{
    msgs m;
    collect_msgs(&m, s, res, spec, inst);
    if (s->format == MMM_FORMAT_JSON) {
        json_tail(s, res, mb, m0, &m);
    } else if (s->format == MMM_FORMAT_TEXT && s->stream) {
        fprintf(s->f, "\n");
        print_summary(s, res, spec, inst, &m);
    } else if (s->format == MMM_FORMAT_TEXT) {
        print_summary(s, res, spec, inst, &m);
        return print_table(s, res);
    }
    return MMM_OK;
}

/* ------------------------------------------------------------------ */
/* The public calls */

int mmm_write_sweep_begin(mmm_writer *w, const mmm_program *prog,
                          const mmm_sweep_result *plan, const mmm_sweep_spec *spec,
                          uint64_t npoints, int64_t max_rows, mmm_error *err)
{
    int rc = mmm__writer_check(w, MMM__ALL_FORMATS, "mmm_write_sweep_begin", err);
    if (rc < 0)
        return rc;
    if (!prog || !plan || !spec || plan->naxes == 0)
        return mmm_error_set(err, MMM_EINVAL, NULL, 0,
                             "mmm_write_sweep_begin: no program or sweep");
    MMM__CHECK_VERSION(spec, mmm_sweep_spec, SWEEP_SPEC, err);
    if (w->sweep)
        return mmm_error_set(err, MMM_EINVAL, NULL, 0,
                             "mmm_write_sweep_begin: a sweep is being written");
    if (!(w->sweep = malloc(sizeof *w->sweep)))
        return mmm_error_set(err, MMM_ENOMEM, NULL, 0, "out of memory");
    w->sweep_free = sweep_out_free;
    opt_sink_init(w->sweep, w->f, w->format, max_rows, prog, plan, spec, npoints,
                  &w->json);
    w->sweep_spec = spec;
    opt_out_begin(w->sweep, spec);
    return MMM_OK;
}

int mmm_write_sweep_point(const mmm_sweep_point *pt, const mmm_error *why,
                          void *writer)
{
    mmm_writer *w = writer;
    if (!w || !w->sweep || !pt)
        return MMM_EINVAL;
    return opt_on_point(pt, why, w->sweep);
}

int mmm_write_sweep_end(mmm_writer *w, const mmm_sweep_result *res,
                        const mmm_instance *at_best, const mmm_metrics *best,
                        const mmm_metrics *baseline, mmm_error *err)
{
    int rc;
    if (!w || !w->sweep || !res || (res->has_best && (!at_best || !best || !baseline)))
        return mmm_error_set(err, MMM_EINVAL, NULL, 0,
                             "mmm_write_sweep_end: no sweep begun, or no result");
    rc = opt_out_end(w->sweep, res, w->sweep_spec, at_best, best, baseline);
    sweep_out_free(w->sweep);
    w->sweep = NULL;
    if (rc < 0)
        return mmm_error_set(err, rc, NULL, 0, "out of memory");
    return MMM_OK;
}

/* ---- The whole sweep: mmm_write_sweep ---- */

/* Each point to the writer, then to the caller's function. */
typedef struct sweep_sink {
    mmm_writer *w;
    mmm_sweep_fn fn;
    void *payload;
    mmm_progress_fn progress; /* the spec's (version 2), else NULL */
    void *progress_payload;
    uint64_t done, total;
} sweep_sink;

static int sink_point(const mmm_sweep_point *pt, const mmm_error *why, void *payload)
{
    sweep_sink *s = payload;
    int rc = mmm_write_sweep_point(pt, why, s->w);
    if (rc == MMM_OK && s->fn)
        rc = s->fn(pt, why, s->payload);
    if (s->progress)
        s->progress(s->progress_payload, "sweeping", ++s->done, s->total);
    return rc;
}

int mmm_write_sweep(mmm_writer *w, mmm_sweep_result *res, mmm_instance *inst,
                    const mmm_sweep_spec *spec, int64_t max_rows, mmm_sweep_fn fn,
                    void *payload, mmm_error *err)
{
    sweep_sink to = {w, fn, payload, NULL, NULL, 0, 0};
    mmm_sweep_result plan;
    mmm_metrics best, base;
    uint64_t total = 0;
    int rc;
    if (!w || !res || !inst || !spec)
        return mmm_error_set(err, MMM_EINVAL, NULL, 0, "mmm_write_sweep: missing argument");
    const mmm_program *prog = inst->program;
    memset(&best, 0, sizeof best);
    memset(&base, 0, sizeof base);
    if ((rc = mmm_sweep_resolve(&plan, &total, inst, spec, err)) < 0 ||
        (rc = mmm_write_sweep_begin(w, prog, &plan, spec, total, max_rows, err)) < 0)
        return rc;
    if (spec->version >= 2) {
        to.progress = spec->progress;
        to.progress_payload = spec->progress_payload;
        to.total = total;
    }
    rc = mmm_sweep_run(res, inst, spec, sink_point, &to, err);
    if (to.progress)
        to.progress(to.progress_payload, NULL, to.done, to.total);
    if (rc < 0) {
        fflush(w->f); /* the rows before the failure, before its message */
        return rc;
    }
    /* the full analyses of the baseline and the best point (for JSON and
     * the "at best" line), the instance left at the best point */
    if (res->has_best &&
        ((rc = mmm_sweep_eval(&base, inst, spec, res->baseline.params, 0, err)) < 0 ||
         (rc = mmm_sweep_eval(&best, inst, spec, res->best.params, 0, err)) < 0))
        goto done;
    if ((rc = mmm_write_sweep_end(w, res, inst, &best, &base, err)) == 0 && !res->has_best) {
        char at[128];
        mmm_sweep_point tmp;
        memset(&tmp, 0, sizeof tmp);
        memcpy(tmp.params, res->first_infeasible_params, sizeof tmp.params);
        mmm_sweep_point_format(at, sizeof at, prog, &plan, &tmp);
        rc = mmm_error_set(err, MMM_EINFEASIBLE, prog->file, 0, "no feasible value in "
                           "the sweep (%s: %s)", at, res->first_infeasible.message);
    }
done:
    mmm_metrics_dispose(&best);
    mmm_metrics_dispose(&base);
    return rc;
}
