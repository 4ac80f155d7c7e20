/* compare_out.c: the output of `mmm compare A B` (mmm_write_comparison):
 * two programs under the same parameters and machine, each measure side by
 * side with the ratio A/B, and R, the ratio of their running-time bounds
 * (Graham-Brent with p, and the corollary), as the MMM slides compare the
 * naive and the optimized division. */
#include <stdio.h>
#include <string.h>

#include "output/output_internal.h"

/* One program, as the printers read it. */
typedef struct side {
    const mmm_program *prog;
    const mmm_instance *inst;
    mmm_metrics m;
    mmm_time t;         /* when with_time */
    mmm_models extra;   /* models other than mmm */
    int with_time;      /* both sides have the time model's seconds */
} side;

static double ratio(double a, double b)
{
    return a / b; /* 0/0 and x/0 print as null / inf: said, not hidden */
}

static int gb_known(const side *a, const side *b, int corollary_only)
{
    return !corollary_only && a->m.has_p && b->m.has_p;
}

/* ---- text ---- */

static void print_params(FILE *f, const char *tag, const side *s)
{
    fprintf(f, "%-10s", tag);
    mmm__print_params(f, s->inst);
    fprintf(f, "\n");
}

static void row(FILE *f, const char *label, double a, double b)
{
    char x[32], y[32], z[32];
    fprintf(f, "%-30s %16s %16s %14s\n", label, mmm__fmt_num(a, x, sizeof x),
           mmm__fmt_num(b, y, sizeof y), mmm__fmt_num(ratio(a, b), z, sizeof z));
}

static void print_text(FILE *f, const side *a, const side *b, int corollary_only)
{
    char label[64], x[32];
    fprintf(f, "A          %s  (%s)\n", a->prog->name, a->prog->file);
    fprintf(f, "B          %s  (%s)\n", b->prog->name, b->prog->file);
    print_params(f, "params A", a);
    print_params(f, "params B", b);
    fprintf(f, "\n%-30s %16s %16s %14s\n", "", "A", "B", "A/B");
    row(f, "W  work", a->m.W, b->m.W);
    row(f, "S  span", a->m.S, b->m.S);
    row(f, "O  parallelism overhead", a->m.O, b->m.O);
    row(f, "N  thread blocks", (double)a->m.N, (double)b->m.N);
    row(f, "L  blocks on a longest path", (double)a->m.L, (double)b->m.L);
    row(f, "C  max S(B) + O(B)", a->m.C, b->m.C);
    row(f, "K  largest antichain", (double)a->m.K, (double)b->m.K);
    if (gb_known(a, b, corollary_only)) {
        if (a->m.p == b->m.p)
            snprintf(label, sizeof label, "Graham-Brent (N/p + L)C, p=%lld",
                     (long long)a->m.p);
        else
            snprintf(label, sizeof label, "Graham-Brent, p=%lld vs %lld",
                     (long long)a->m.p, (long long)b->m.p);
        row(f, label, a->m.graham_brent, b->m.graham_brent);
    }
    row(f, "corollary (N/K + L)C, p >= K", a->m.corollary, b->m.corollary);
    if (a->with_time)
        row(f, "time model, seconds", a->t.seconds, b->t.seconds);
    fprintf(f, "\n");
    if (gb_known(a, b, corollary_only))
        fprintf(f, "R (Graham-Brent) = %s: %s\n",
               mmm__fmt_num(ratio(a->m.graham_brent, b->m.graham_brent), x, sizeof x),
               a->m.graham_brent > b->m.graham_brent ? "B has the lower bound"
               : a->m.graham_brent < b->m.graham_brent ? "A has the lower bound"
                                                       : "equal bounds");
    else if (!corollary_only)
        fprintf(f, "R (Graham-Brent): p unknown (use -p P)\n");
    fprintf(f, "R (corollary, each for p >= its K) = %s: %s\n",
           mmm__fmt_num(ratio(a->m.corollary, b->m.corollary), x, sizeof x),
           a->m.corollary > b->m.corollary ? "B has the lower bound"
           : a->m.corollary < b->m.corollary ? "A has the lower bound"
                                             : "equal bounds");
    if (a->with_time)
        fprintf(f, "R (time)         = %s: %s\n",
               mmm__fmt_num(ratio(a->t.seconds, b->t.seconds), x, sizeof x),
               a->t.seconds > b->t.seconds   ? "B is predicted faster"
               : a->t.seconds < b->t.seconds ? "A is predicted faster"
                                             : "equal predicted times");
}

/* ---- JSON and CSV ---- */

static void print_json(FILE *f, const side *a, const side *b, int corollary_only)
{
    mmm__json w;
    mmm__json_init(&w, f);
    mmm__json_begin_object(&w);
    mmm__json_key(&w, "a");
    mmm__json_begin_object(&w);
    mmm__json_analysis(&w, a->inst, &a->m);
    if (a->with_time)
        mmm__time_json(&w, &a->t, a->inst);
    mmm__models_json(&w, &a->extra, a->inst);
    mmm__json_end_object(&w);
    mmm__json_key(&w, "b");
    mmm__json_begin_object(&w);
    mmm__json_analysis(&w, b->inst, &b->m);
    if (a->with_time)
        mmm__time_json(&w, &b->t, b->inst);
    mmm__models_json(&w, &b->extra, b->inst);
    mmm__json_end_object(&w);
    mmm__json_key(&w, "ratios");
    mmm__json_begin_object(&w);
    mmm__json_num(&w, "W", ratio(a->m.W, b->m.W));
    mmm__json_num(&w, "S", ratio(a->m.S, b->m.S));
    mmm__json_num(&w, "O", ratio(a->m.O, b->m.O));
    mmm__json_num(&w, "N", ratio((double)a->m.N, (double)b->m.N));
    mmm__json_num(&w, "L", ratio((double)a->m.L, (double)b->m.L));
    mmm__json_num(&w, "C", ratio(a->m.C, b->m.C));
    mmm__json_num(&w, "K", ratio((double)a->m.K, (double)b->m.K));
    if (gb_known(a, b, corollary_only)) {
        mmm__json_num(&w, "graham_brent", ratio(a->m.graham_brent, b->m.graham_brent));
    }
    mmm__json_num(&w, "corollary", ratio(a->m.corollary, b->m.corollary));
    if (a->with_time) {
        mmm__json_num(&w, "time", ratio(a->t.seconds, b->t.seconds));
    }
    if (a->extra.which & MMM_MODEL_TMM) {
        mmm__json_key(&w, "tmm_TP");
        mmm__json_double(&w, ratio(a->extra.tmm.program.TP_global,
                              b->extra.tmm.program.TP_global));
    }
    mmm__json_end_object(&w);
    mmm__json_end_object(&w);
    mmm__json_finish(&w);
}

static void csv_row(FILE *f, const char *name, double a, double b)
{
    fprintf(f, "%s,%.17g,%.17g,%.17g\n", name, a, b, ratio(a, b));
}

static void print_csv(FILE *f, const side *a, const side *b, int corollary_only)
{
    fprintf(f, "measure,a,b,ratio\n");
    csv_row(f, "W", a->m.W, b->m.W);
    csv_row(f, "S", a->m.S, b->m.S);
    csv_row(f, "O", a->m.O, b->m.O);
    csv_row(f, "N", (double)a->m.N, (double)b->m.N);
    csv_row(f, "L", (double)a->m.L, (double)b->m.L);
    csv_row(f, "C", a->m.C, b->m.C);
    csv_row(f, "K", (double)a->m.K, (double)b->m.K);
    if (gb_known(a, b, corollary_only))
        csv_row(f, "graham_brent", a->m.graham_brent, b->m.graham_brent);
    csv_row(f, "corollary", a->m.corollary, b->m.corollary);
    if (a->with_time)
        csv_row(f, "time_s", a->t.seconds, b->t.seconds);
    if (a->extra.which & MMM_MODEL_TMM)
        csv_row(f, "tmm_TP", a->extra.tmm.program.TP_global, b->extra.tmm.program.TP_global);
}

/* The other models' sections of both programs, and their ratios. */
static void print_models_text(FILE *f, const side *a, const side *b)
{
    char x[64];
    if (!(a->extra.which & ~MMM_MODEL_MMM))
        return;
    fprintf(f, "\n==== A: %s ====\n", a->prog->name);
    mmm__models_text(f, &a->extra, a->inst, 20);
    fprintf(f, "\n==== B: %s ====\n", b->prog->name);
    mmm__models_text(f, &b->extra, b->inst, 20);
    fprintf(f, "\n");
    if (a->extra.which & MMM_MODEL_TMM)
        fprintf(f, "R (TMM T_P, Eq. 2)  = %s\n",
               mmm__fmt_num(ratio(a->extra.tmm.program.TP_global,
                                 b->extra.tmm.program.TP_global), x, sizeof x));
}


static void side_of(side *s, const mmm_comparison_side *c, int with_time)
{
    memset(s, 0, sizeof *s);
    s->prog = c->inst->program;
    s->inst = c->inst;
    s->m = *c->metrics;
    s->with_time = with_time;
    if (with_time)
        s->t = *c->time;
    if (c->models)
        s->extra = *c->models;
    s->extra.which &= ~(unsigned)MMM_MODEL_TIME; /* the time is s->t */
}

int mmm_write_comparison(mmm_writer *w, const mmm_comparison_side *a,
                         const mmm_comparison_side *b, int corollary_only,
                         mmm_error *err)
{
    side sa, sb;
    int rc = mmm__writer_check(w, MMM__ALL_FORMATS, "mmm_write_comparison", err);
    if (rc < 0)
        return rc;
    if (!a || !b || !a->inst || !b->inst || !a->metrics || !b->metrics)
        return mmm_error_set(err, MMM_EINVAL, NULL, 0,
                             "mmm_write_comparison: a side without instance or metrics");
    side_of(&sa, a, a->time && b->time);
    side_of(&sb, b, a->time && b->time);
    if (w->format == MMM_FORMAT_JSON)
        print_json(w->f, &sa, &sb, corollary_only);
    else if (w->format == MMM_FORMAT_CSV)
        print_csv(w->f, &sa, &sb, corollary_only);
    else {
        print_text(w->f, &sa, &sb, corollary_only);
        print_models_text(w->f, &sa, &sb);
    }
    return MMM_OK;
}
