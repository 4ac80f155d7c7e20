/* cmd_simulate.c: `mmm simulate FILE -p P`: greedy schedules of the thread
 * blocks on p SMs under one or all policies, checked against the lower
 * bound, Graham's bound and the MMM bound (mmm_write_simulation prints
 * them); Gantt chart and Chrome trace. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "mmm/gantt.h"
#include "mmm/scale.h"
#include "mmm/sim.h"

static const char simulate_help[] =
    "usage: mmm simulate FILE [-p P|LIST] [--policy NAME|all] [--seed N]\n"
    "                         [--gantt OUT.svg|png|pdf] [--trace OUT.json]\n"
    "                         [-D NAME=VALUE]... [--machine FILE] [--format text|json|csv]\n\n"
    "Simulate a greedy schedule of the program's thread blocks on p identical SMs:\n"
    "an SM runs one block at a time for S(B) + O(B); a block is ready when every\n"
    "block of every preceding launch has finished; no SM idles while a block is\n"
    "ready.  Prints the makespan, the utilization and idle time, the lower bound\n"
    "max(total/p, critical path), Graham's bound total/p + (1 - 1/p) critical path\n"
    "and the MMM bound (N/p + L)C.  A makespan outside its bounds is reported as\n"
    "an internal error (exit 1).\n\n"
    "options:\n"
    "  -p P|LIST            number of SMs, or a list (1,2,4 or 1..8: one table\n"
    "                       per p; JSON: {\"program\", \"runs\": [...]})\n"
    "  --policy NAME        which ready block goes first (default fifo); 'all' runs\n"
    "                       every policy into one table:\n";

static const char simulate_help2[] =
    "  --seed N             seed of the random policy (default 1)\n"
    "  --gantt OUT          Gantt chart, .svg, .png or .pdf, - for SVG on stdout\n"
    "                       (with --policy all: the run with the smallest makespan)\n"
    "  --trace OUT.json     Chrome trace events (Perfetto, chrome://tracing; - stdout)\n"
    "  --max-launches N     give up beyond N launches simulated one by one\n"
    "                       (default 100000000)\n";

typedef struct sim_args {
    cli_common c;
    const char *file;
    const char *policy;
    const char *gantt;
    const char *trace;
    uint64_t seed;
    int64_t max_launches;
    int64_t *plist; /* -p LIST (malloc'ed), NULL for one p or none */
    size_t np;
} sim_args;

static void print_help(void)
{
    size_t i;
    printf("%s", simulate_help);
    for (i = 0; i < mmm_sim_policy_count(); i++)
        printf("                         %-15s %s\n", mmm_sim_policy_at(i)->name,
               mmm_sim_policy_at(i)->summary);
    printf("%s%s", simulate_help2, cli_common_help);
}

/* -p LIST (1,2,4 or 1..8; --p as scale); a later -p P wins over a list. */
static int p_list(void *args, int argc, char **argv, int *i)
{
    sim_args *a = args;
    const char *s = argv[*i] + (!strcmp(argv[*i], "--p") || !strncmp(argv[*i], "--p=", 4)), *v;
    mmm_error err;
    if (strncmp(s, "-p", 2))
        return 0;
    free(a->plist);
    a->plist = NULL;
    a->np = 0;
    v = s[2] ? s + 2 + (s[2] == '=') : *i + 1 < argc ? argv[*i + 1] : NULL;
    if (!v || !strpbrk(v, ",."))
        return 0;
    if (mmm_speedup_parse_p(&a->plist, &a->np, v, &err) < 0)
        return cli_usage("simulate", "-p: %s", err.message), -1;
    *i += !s[2];
    return 1;
}

#define S_(field) offsetof(sim_args, field)
static const cli_opt sim_opts[] = {
    {"--policy", CLI_STR, S_(policy), NULL, .fn = NULL},
    {"--gantt", CLI_STR, S_(gantt), NULL, .fn = NULL},
    {"--trace", CLI_STR, S_(trace), NULL, .fn = NULL},
    {"--seed", CLI_U64, S_(seed), "--seed needs a non-negative integer", .fn = NULL},
    {"--max-launches", CLI_INT, S_(max_launches), "--max-launches needs a positive "
     "integer", 1, INT64_MAX, .fn = NULL},
    {NULL}};

static const cli_cmd sim_cmd = {"simulate", .print_help = print_help, .opts = sim_opts,
                                .missing = "%s needs an argument", .special = p_list};

static int parse_args(sim_args *a, int argc, char **argv)
{
    const char *why;
    int rc;
    memset(a, 0, sizeof *a);
    cli_common_init(&a->c, "simulate");
    a->policy = "fifo";
    a->seed = 1;
    if ((rc = cli_args(&sim_cmd, a, &a->c, &a->file, argc, argv)) != CLI_OK)
        return rc;
    if (strcmp(a->policy, "all") && !mmm_sim_policy_find(a->policy))
        return cli_usage("simulate", "unknown policy '%s' (see --help)", a->policy);
    if (a->plist && a->np == 1) {
        a->c.has_p = 1;
        a->c.p = a->plist[0];
    } else if (a->plist && (a->gantt || a->trace)) {
        return cli_usage("simulate", "%s draws one schedule: give one p, not a list",
                         a->gantt ? "--gantt" : "--trace");
    }
    if (a->gantt && strcmp(a->gantt, "-") && !cli_picture(a->gantt))
        return cli_usage("simulate", "--gantt writes .svg, .png or .pdf files, not '%s'",
                         a->gantt);
    if (a->gantt && !mmm_draw_available(&why)) {
        fprintf(stderr, "mmm simulate: error: %s: --gantt is not available\n", why);
        return CLI_FAIL;
    }
    if (a->gantt && cli_has_suffix(a->gantt, ".png") && !mmm_gantt_png_available())
        return cli_usage("simulate", "this build draws no PNG (no PLplot): use .svg");
    if (a->gantt && cli_has_suffix(a->gantt, ".pdf") && !mmm_gantt_pdf_available())
        return cli_usage("simulate", "this build draws no PDF (no PLplot with its cairo "
                                     "driver): use .svg");
    return 0;
}

/* ------------------------------------------------------------------ */
/* Running                                                            */

static int write_pictures(const sim_args *a, const mmm_program *prog,
                          const mmm_sim_result *r, double mmm_bound)
{
    mmm_error err;
    if (a->gantt) {
        mmm_gantt_options go = MMM_GANTT_OPTIONS_INIT;
        go.mmm_bound = mmm_bound;
        if (mmm_gantt_write(a->gantt, r, prog, &go, &err) < 0)
            return cli_fail(&err);
    }
    if (a->trace && mmm_sim_trace_write(a->trace, r, prog, mmm_bound, &err) < 0)
        return cli_fail(&err);
    return CLI_OK;
}

/* Evaluate the program at p (a -p list): -D, the machine and p, as
 * cli_load does. */
static int eval_at(const sim_args *a, const mmm_program *prog, mmm_instance *inst,
                   int64_t p)
{
    mmm_override ov[CLI_MAX_DEFS + 1];
    size_t nov = 0;
    mmm_error err;
    if (mmm_overrides_parse(prog, a->c.defs, a->c.ndefs, p, MMM_DEFINE_STRICT, ov, &nov,
                            NULL, &err) < 0 ||
        mmm_instance_eval_p(inst, ov, nov, p, &err) < 0)
        return cli_fail(&err);
    return CLI_OK;
}

/* Simulate at the instance's p (mmm_simulate_policies) and print with w;
 * a run outside its bounds still shows its table. */
static int simulate_at(const sim_args *a, const mmm_program *prog,
                       const mmm_instance *inst, mmm_writer *w)
{
    mmm_sim_options opt = MMM_SIM_OPTIONS_INIT;
    mmm_sim_runs r;
    mmm_notes bad = MMM_NOTES_INIT;
    mmm_metrics m;
    mmm_error err;
    int rc, all = strcmp(a->policy, "all") == 0;

    memset(&m, 0, sizeof m);
    if (mmm_metrics_compute(&m, inst, MMM_METRICS_NO_K | MMM_METRICS_NO_PATHS,
                            &err) < 0)
        return cli_fail(&err);
    opt.policy = all ? NULL : mmm_sim_policy_find(a->policy);
    opt.seed = a->seed;
    opt.record = a->gantt || a->trace;
    opt.max_launches = a->max_launches;
    opt.progress = cli_progress((cli_common *)&a->c);
    opt.progress_payload = (void *)&a->c;
    rc = cli_noted(&bad, mmm_simulate_policies(&r, inst, &opt, all, m.graham_brent, &bad,
                                               &err)) < 0 ? cli_fail(&err)
         : r.nbad ? CLI_FAIL : CLI_OK;
    if (r.n && mmm_write_simulation(w, r.runs, r.n, all, r.best, m.graham_brent, &err) < 0)
        rc = cli_fail(&err);
    if (rc == CLI_OK && (a->gantt || a->trace))
        rc = write_pictures(a, prog, &r.runs[r.best], m.graham_brent);
    mmm_sim_runs_dispose(&r);
    mmm_metrics_dispose(&m);
    return rc;
}

int cmd_simulate(int argc, char **argv)
{
    sim_args a;
    mmm_program *prog = NULL;
    mmm_instance *inst = NULL;
    mmm_writer *w = NULL;
    mmm_error err;
    int rc, list;
    size_t k;

    if ((rc = parse_args(&a, argc, argv)) != 0) {
        free(a.plist);
        return rc < 0 ? CLI_OK : rc;
    }
    list = a.plist && a.np > 1;
    if ((rc = cli_load_full(&a.c, a.file, 0, 1, &prog, &inst, NULL, NULL, NULL)) != CLI_OK)
        goto done;
    if (!list && !inst->has_p) {
        rc = cli_usage("simulate", "the number of SMs is unknown: give -p P, "
                       "a machine file that sets p (--machine FILE), or declare "
                       "a parameter p in the program");
        goto done;
    }
    if (mmm_writer_new(&w, stdout, a.c.format, &err) < 0 ||
        mmm_write_simulation_begin(w, prog, a.file, list, &err) < 0) {
        rc = cli_fail(&err);
        goto done;
    }
    for (k = 0; k < (list ? a.np : 1) && rc == CLI_OK; k++) {
        if (list && (rc = eval_at(&a, prog, inst, a.plist[k])) != CLI_OK)
            break;
        rc = simulate_at(&a, prog, inst, w);
    }
    mmm_write_simulation_end(w, NULL);
    if (cli_flushed("mmm simulate: error writing the output\n") != CLI_OK)
        rc = CLI_FAIL;
done:
    mmm_writer_free(w);
    free(a.plist);
    mmm_instance_free(inst);
    mmm_program_free(prog);
    return rc;
}
