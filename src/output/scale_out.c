/* scale_out.c: the output of `mmm scale` (mmm_write_speedup): the speedup
 * over p, bounds and simulated makespans per p, in text, JSON and CSV. */
#include <stdio.h>

#include "base/file.h"
#include "output/output_internal.h"

static void json_num_or_null(mmm__json *w, int have, double v)
{
    if (have)
        mmm__json_double(w, v);
    else
        mmm__json_null(w);
}

static void print_json(FILE *f, const mmm_program *prog, const mmm_speedup *s,
                       int all, const mmm_speedup_measured *m)
{
    mmm__json w;
    size_t i, j;
    mmm__json_init(&w, f);
    mmm__json_begin_object(&w);
    mmm__json_str(&w, "program", prog->name);
    mmm__json_num(&w, "W", s->W);
    mmm__json_num(&w, "S", s->S);
    mmm__json_num(&w, "T1", s->T1);
    mmm__json_num(&w, "critical_path", s->critical_path);
    mmm__json_num(&w, "parallelism", s->parallelism); /* = parallelism_threads */
    mmm__json_num(&w, "parallelism_threads", s->parallelism);
    mmm__json_num(&w, "parallelism_blocks", s->critical_path > 0 ? s->T1 / s->critical_path : 0);
    mmm__json_intk(&w, "K", s->K);
    mmm__json_boolk(&w, "p_dependent", s->p_dependent);
    mmm__json_str(&w, "policy", all ? "all" : s->policies[0]->name);
    mmm__json_key(&w, "rows");
    mmm__json_begin_array(&w);
    for (i = 0; i < s->nrows; i++) {
        const mmm_speedup_row *r = &s->rows[i];
        mmm__json_begin_object_flat(&w);
        mmm__json_intk(&w, "p", r->p);
        mmm__json_num(&w, "lower_bound", r->lower_bound);
        mmm__json_num(&w, "graham", r->graham);
        mmm__json_num(&w, "graham_brent", r->graham_brent);
        mmm__json_key(&w, "corollary");
        json_num_or_null(&w, r->has_corollary, r->corollary);
        mmm__json_key(&w, "makespan");
        if (all) {
            mmm__json_begin_object_flat(&w);
            for (j = 0; j < s->npolicies; j++) {
                mmm__json_num(&w, s->policies[j]->name, r->makespan[j]);
            }
            mmm__json_end_object(&w);
        } else {
            mmm__json_double(&w, r->makespan[0]);
        }
        mmm__json_num(&w, "speedup_min", r->speedup_min);
        mmm__json_num(&w, "speedup_max", r->speedup_max);
        mmm__json_end_object(&w);
    }
    mmm__json_end_array(&w);
    if (m) {
        /* every measured run, by increasing p */
        mmm__json_key(&w, "measured");
        mmm__json_begin_array(&w);
        for (i = 0; i < m->n; i++) {
            mmm__json_begin_object_flat(&w);
            mmm__json_intk(&w, "p", m->points[i].p);
            mmm__json_num(&w, "speedup", m->points[i].speedup);
            mmm__json_end_object(&w);
        }
        mmm__json_end_array(&w);
    }
    mmm__json_end_object(&w);
    mmm__json_finish(&w);
}

static void print_csv(FILE *f, const mmm_speedup *s, int all)
{
    size_t i, j;
    fprintf(f, "p,lower_bound,graham,graham_brent,corollary");
    for (j = 0; j < s->npolicies; j++)
        fprintf(f, all ? ",makespan_%s" : ",makespan", s->policies[j]->name);
    fprintf(f, ",speedup_min,speedup_max\n");
    for (i = 0; i < s->nrows; i++) {
        const mmm_speedup_row *r = &s->rows[i];
        fprintf(f, "%lld,%.17g,%.17g,%.17g,", (long long)r->p, r->lower_bound, r->graham,
               r->graham_brent);
        if (r->has_corollary)
            fprintf(f, "%.17g", r->corollary);
        for (j = 0; j < s->npolicies; j++)
            fprintf(f, ",%.17g", r->makespan[j]);
        fprintf(f, ",%.17g,%.17g\n", r->speedup_min, r->speedup_max);
    }
}

static int add_num(mmm__table *t, double v)
{
    char buf[64];
    return mmm__table_add(t, mmm__fmt_num(v, buf, sizeof buf));
}

/* The measured speedups: per p, the runs, their median, least and
 * largest speedup. */
static int print_measured(FILE *f, const mmm_speedup_measured *m)
{
    mmm__table t;
    char a[64];
    size_t i = 0, k;
    int rc = 0;
    if (m->from_seconds)
        fprintf(f, "\n  measured (%s): speedup = T(1) / T(p), T(1) = %s s, the median time "
                "at p = 1\n\n", m->file, mmm__fmt_num(m->t1, a, sizeof a));
    else
        fprintf(f, "\n  measured (%s)\n\n", m->file);
    mmm__table_init(&t, 5);
    rc |= mmm__table_add(&t, "p");
    rc |= mmm__table_add(&t, "runs");
    rc |= mmm__table_add(&t, "median speedup");
    rc |= mmm__table_add(&t, "least");
    rc |= mmm__table_add(&t, "largest");
    for (k = 0; k < m->nmedians; k++) {
        size_t j = i; /* points i .. j have this p, sorted by line */
        double lo = m->points[i].speedup, hi = lo;
        for (; j < m->n && m->points[j].p == m->medians[k].p; j++) {
            lo = m->points[j].speedup < lo ? m->points[j].speedup : lo;
            hi = m->points[j].speedup > hi ? m->points[j].speedup : hi;
        }
        rc |= add_num(&t, (double)m->medians[k].p);
        rc |= add_num(&t, (double)(j - i));
        snprintf(a, sizeof a, "%.4g", m->medians[k].speedup);
        rc |= mmm__table_add(&t, a);
        snprintf(a, sizeof a, "%.4g", lo);
        rc |= mmm__table_add(&t, a);
        snprintf(a, sizeof a, "%.4g", hi);
        rc |= mmm__table_add(&t, a);
        i = j;
    }
    if (rc == 0)
        mmm__table_print(&t, f, "  ", 0);
    mmm__table_dispose(&t);
    return rc;
}

static int print_text(FILE *f, const mmm_program *prog, const char *file,
                      const mmm_speedup *s, int all, const mmm_speedup_measured *m)
{
    mmm__table t;
    char a[64], b[64];
    size_t i, j, ncols = 7 + s->npolicies;
    int rc = 0, any_without = 0;

    fprintf(f, "program  %s  (%s)\n", prog->name, file);
    fprintf(f, "policy   %s\n\n", all ? "all" : s->policies[0]->name);
    fprintf(f, "  W                %s\n", mmm__fmt_num(s->W, a, sizeof a));
    fprintf(f, "  S                %s\n", mmm__fmt_num(s->S, a, sizeof a));
    fprintf(f, "  parallelism W/S  %-14s of the threads: work over span\n",
            mmm__fmt_num(s->parallelism, a, sizeof a));
    fprintf(f, "  T1               %-14s sum of S(B) + O(B) over the blocks: the makespan on one SM\n",
           mmm__fmt_num(s->T1, a, sizeof a));
    fprintf(f, "  critical path    %-14s Tinf, longest block path by S(B) + O(B); T1/Tinf = %s, the blocks' parallelism: the speedup's limit\n",
           mmm__fmt_num(s->critical_path, a, sizeof a),
           mmm__fmt_num(s->critical_path > 0 ? s->T1 / s->critical_path : 1, b, sizeof b));
    fprintf(f, "  K                %-14s largest antichain of blocks: the corollary (N/K + L)C holds for p >= K\n",
           mmm__fmt_num((double)s->K, a, sizeof a));
    if (s->p_dependent)
        fprintf(f, "\n  The program declares p: each row evaluates it with its own p.\n");
    fprintf(f, "\n");

    mmm__table_init(&t, ncols);
    rc |= mmm__table_add(&t, "p");
    rc |= mmm__table_add(&t, "lower bound");
    rc |= mmm__table_add(&t, "Graham");
    rc |= mmm__table_add(&t, "Graham-Brent");
    rc |= mmm__table_add(&t, "corollary");
    for (j = 0; j < s->npolicies; j++) {
        char h[64];
        snprintf(h, sizeof h, "makespan %s", s->policies[j]->name);
        rc |= mmm__table_add(&t, h);
    }
    rc |= mmm__table_add(&t, "speedup min");
    rc |= mmm__table_add(&t, "speedup max");
    for (i = 0; i < s->nrows; i++) {
        const mmm_speedup_row *r = &s->rows[i];
        rc |= add_num(&t, (double)r->p);
        rc |= add_num(&t, r->lower_bound);
        rc |= add_num(&t, r->graham);
        rc |= add_num(&t, r->graham_brent);
        if (r->has_corollary)
            rc |= add_num(&t, r->corollary);
        else {
            rc |= mmm__table_add(&t, "-");
            any_without = 1;
        }
        for (j = 0; j < s->npolicies; j++)
            rc |= add_num(&t, r->makespan[j]);
        snprintf(a, sizeof a, "%.4g", r->speedup_min);
        rc |= mmm__table_add(&t, a);
        snprintf(a, sizeof a, "%.4g", r->speedup_max);
        rc |= mmm__table_add(&t, a);
    }
    if (rc == 0)
        mmm__table_print(&t, f, "  ", 0);
    mmm__table_dispose(&t);
    if (any_without)
        fprintf(f, "\n  -: p < K = %lld, where the corollary does not hold.\n", (long long)s->K);
    fprintf(f, "  speedup min = T1 / Graham, speedup max = T1 / lower bound: every greedy\n"
           "  schedule's speedup T1 / makespan lies between them.\n");
    if (rc == 0 && m)
        rc = print_measured(f, m);
    return rc ? -1 : 0;
}

int mmm_write_speedup_measured(mmm_writer *w, const mmm_program *prog, const char *file,
                               const mmm_speedup *s, int all, const mmm_speedup_measured *m,
                               mmm_error *err)
{
    int rc = mmm__writer_check(w, MMM__ALL_FORMATS, "mmm_write_speedup", err);
    if (rc < 0)
        return rc;
    if (!prog || !s || s->npolicies == 0)
        return mmm_error_set(err, MMM_EINVAL, NULL, 0,
                             "mmm_write_speedup: no program or speedup");
    if (w->format == MMM_FORMAT_JSON)
        print_json(w->f, prog, s, all, m);
    else if (w->format == MMM_FORMAT_CSV)
        print_csv(w->f, s, all);
    else if (print_text(w->f, prog, file ? mmm__input_name(file) : prog->file, s, all, m) < 0)
        return mmm_error_set(err, MMM_ENOMEM, NULL, 0, "out of memory");
    return MMM_OK;
}

int mmm_write_speedup(mmm_writer *w, const mmm_program *prog, const char *file,
                      const mmm_speedup *s, int all, mmm_error *err)
{
    return mmm_write_speedup_measured(w, prog, file, s, all, NULL, err);
}
