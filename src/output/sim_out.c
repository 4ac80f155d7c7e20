/* sim_out.c: the output of `mmm simulate` (mmm_write_simulation_*): the
 * greedy schedules of one or all policies at each p, with the lower
 * bound, Graham's bound and the MMM bound, in text, JSON and CSV. */
#include <stdio.h>

#include "base/file.h"
#include "output/output_internal.h"

static void json_run(mmm__json *w, const mmm_sim_result *r, double mmm_bound)
{
    mmm__json_begin_object(w);
    mmm__json_intk(w, "p", r->p);
    mmm__json_str(w, "policy", r->policy->name);
    if (r->policy->uses_seed) {
        mmm__json_intk(w, "seed", (int64_t)r->seed);
    }
    mmm__json_num(w, "makespan", r->makespan);
    mmm__json_num(w, "lower_bound", r->lower_bound);
    mmm__json_num(w, "graham", r->graham);
    mmm__json_num(w, "graham_brent", mmm_bound);
    mmm__json_num(w, "utilization", r->utilization);
    mmm__json_num(w, "idle", r->idle);
    mmm__json_num(w, "total_block_time", r->total);
    mmm__json_num(w, "critical_path", r->critical_path);
    mmm__json_num(w, "ratio_to_lower_bound", r->lower_bound > 0 ? r->makespan / r->lower_bound : 1.0);
    mmm__json_intk(w, "blocks", r->blocks);
    mmm__json_intk(w, "launches", r->launches);
    mmm__json_intk(w, "events", (int64_t)r->events);
    mmm__json_end_object(w);
}

static void print_json(FILE *f, const mmm_program *prog, const mmm_sim_result *runs,
                       size_t nruns, int all, double mmm_bound)
{
    mmm__json w;
    size_t i;
    mmm__json_init(&w, f);
    if (!all) {
        json_run(&w, &runs[0], mmm_bound);
        mmm__json_finish(&w);
        return;
    }
    mmm__json_begin_object(&w);
    mmm__json_str(&w, "program", prog->name);
    mmm__json_intk(&w, "p", runs[0].p);
    mmm__json_key(&w, "runs");
    mmm__json_begin_array(&w);
    for (i = 0; i < nruns; i++)
        json_run(&w, &runs[i], mmm_bound);
    mmm__json_end_array(&w);
    mmm__json_end_object(&w);
    mmm__json_finish(&w);
}

static void print_csv(FILE *f, const mmm_sim_result *runs, size_t nruns,
                      double mmm_bound, int header)
{
    size_t i;
    if (header)
        fprintf(f, "policy,p,seed,makespan,utilization,idle,lower_bound,graham,"
           "graham_brent,total_block_time,critical_path\n");
    for (i = 0; i < nruns; i++) {
        const mmm_sim_result *r = &runs[i];
        fprintf(f, "%s,%lld,", r->policy->name, (long long)r->p);
        if (r->policy->uses_seed)
            fprintf(f, "%llu", (unsigned long long)r->seed);
        fprintf(f, ",%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g\n", r->makespan,
               r->utilization, r->idle, r->lower_bound, r->graham, mmm_bound,
               r->total, r->critical_path);
    }
}

static void print_bounds(FILE *f, const mmm_sim_result *r, double mmm_bound)
{
    char a[64], b[64], c[64];
    fprintf(f, "  lower bound            %-14s max(total/p = %s, critical path = %s)\n",
           mmm__fmt_num(r->lower_bound, a, sizeof a),
           mmm__fmt_num(r->total / (double)r->p, b, sizeof b),
           mmm__fmt_num(r->critical_path, c, sizeof c));
    fprintf(f, "  Graham bound           %-14s total/p + (1 - 1/p) critical path\n",
           mmm__fmt_num(r->graham, a, sizeof a));
    fprintf(f, "  MMM bound              %-14s (N/p + L)C\n",
           mmm__fmt_num(mmm_bound, a, sizeof a));
}

static void print_text(FILE *f, const mmm_program *prog, const char *file,
                       const mmm_sim_result *runs, size_t nruns, int all,
                       size_t best, double mmm_bound, int first)
{
    char a[64], b[64];
    size_t i;
    if (first)
        fprintf(f, "program  %s  (%s)\n", prog->name, file);
    else
        fprintf(f, "\n");
    if (!all) {
        const mmm_sim_result *r = &runs[0];
        fprintf(f, "policy   %s", r->policy->name);
        if (r->policy->uses_seed)
            fprintf(f, " (seed %llu)", (unsigned long long)r->seed);
        fprintf(f, ", p = %lld SMs\n\n", (long long)r->p);
        fprintf(f, "  makespan               %s\n", mmm__fmt_num(r->makespan, a, sizeof a));
        fprintf(f, "  utilization            %.2f%%  (idle %s SM time units)\n",
               100.0 * r->utilization, mmm__fmt_num(r->idle, b, sizeof b));
        print_bounds(f, r, mmm_bound);
        fprintf(f, "  makespan / lower bound %.4f\n",
               r->lower_bound > 0 ? r->makespan / r->lower_bound : 1.0);
        fprintf(f, "\n%lld blocks in %lld launches; %llu events\n", (long long)r->blocks,
               (long long)r->launches, (unsigned long long)r->events);
        return;
    }
    fprintf(f, "p = %lld SMs, %lld blocks in %lld launches\n\n", (long long)runs[0].p,
           (long long)runs[0].blocks, (long long)runs[0].launches);
    print_bounds(f, &runs[0], mmm_bound);
    fprintf(f, "\n  %-16s %14s %12s %14s %10s\n", "policy", "makespan", "utilization",
           "idle", "/ lower");
    for (i = 0; i < nruns; i++) {
        const mmm_sim_result *r = &runs[i];
        fprintf(f, "  %-16s %14s %11.2f%% %14s %10.4f%s\n", r->policy->name,
               mmm__fmt_num(r->makespan, a, sizeof a), 100.0 * r->utilization,
               mmm__fmt_num(r->idle, b, sizeof b),
               r->lower_bound > 0 ? r->makespan / r->lower_bound : 1.0,
               i == best ? "  best" : "");
    }
}

int mmm_write_simulation_begin(mmm_writer *w, const mmm_program *prog,
                               const char *file, int list, mmm_error *err)
{
    int rc = mmm__writer_check(w, MMM__ALL_FORMATS, "mmm_write_simulation_begin",
                               err);
    if (rc < 0)
        return rc;
    if (!prog)
        return mmm_error_set(err, MMM_EINVAL, NULL, 0,
                             "mmm_write_simulation_begin: no program");
    w->sim_prog = prog;
    w->sim_file = file ? mmm__input_name(file) : prog->file;
    w->sim_list = list;
    w->sim_count = 0;
    if (list && w->format == MMM_FORMAT_JSON) {
        mmm__json_begin_object(&w->json);
        mmm__json_str(&w->json, "program", prog->name);
        mmm__json_key(&w->json, "runs");
        mmm__json_begin_array(&w->json);
    }
    return MMM_OK;
}

int mmm_write_simulation(mmm_writer *w, const mmm_sim_result *runs, size_t nruns,
                         int all, size_t best, double mmm_bound, mmm_error *err)
{
    size_t i, k;
    int rc = mmm__writer_check(w, MMM__ALL_FORMATS, "mmm_write_simulation", err);
    if (rc < 0)
        return rc;
    if (!w->sim_prog || !runs || nruns == 0 || best >= nruns)
        return mmm_error_set(err, MMM_EINVAL, NULL, 0,
                             "mmm_write_simulation: not begun, or no runs");
    k = w->sim_count++;
    if (w->format == MMM_FORMAT_JSON && w->sim_list)
        for (i = 0; i < nruns; i++)
            json_run(&w->json, &runs[i], mmm_bound);
    else if (w->format == MMM_FORMAT_JSON)
        print_json(w->f, w->sim_prog, runs, nruns, all, mmm_bound);
    else if (w->format == MMM_FORMAT_CSV)
        print_csv(w->f, runs, nruns, mmm_bound, k == 0);
    else
        print_text(w->f, w->sim_prog, w->sim_file, runs, nruns, all, best,
                   mmm_bound, k == 0);
    return MMM_OK;
}

int mmm_write_simulation_end(mmm_writer *w, mmm_error *err)
{
    int rc = mmm__writer_check(w, MMM__ALL_FORMATS, "mmm_write_simulation_end", err);
    if (rc < 0)
        return rc;
    if (!w->sim_prog)
        return mmm_error_set(err, MMM_EINVAL, NULL, 0,
                             "mmm_write_simulation_end: not begun");
    if (w->sim_list && w->format == MMM_FORMAT_JSON) {
        mmm__json_end_array(&w->json);
        mmm__json_end_object(&w->json);
        mmm__json_finish(&w->json);
    }
    w->sim_prog = NULL;
    return MMM_OK;
}
