/* cmd_scale.c: `mmm scale FILE`: the speedup over p (mmm/scale.h): bounds,
 * simulated makespans and the speedup range for each number of SMs
 * (mmm_write_speedup prints them), and Cilkview's picture. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "mmm/scale.h"

static const char scale_help[] =
    "usage: mmm scale FILE [-p LIST|A..B] [--policy NAME|all] [--seed N]\n"
    "                      [--plot OUT.svg|png|pdf] [--measured RUNS.csv]\n"
    "                      [-D NAME=VALUE]...\n"
    "                      [--machine FILE] [--format text|json|csv]\n\n"
    "The speedup over the number of SMs p.  Above the table: W, S, the\n"
    "parallelism W/S, T1 (the sum of the block costs S(B) + O(B): the makespan on\n"
    "one SM), the critical path (the longest block path by the same costs) and K.\n"
    "Then one row per p: the lower bound max(T1/p, critical path), Graham's bound\n"
    "T1/p + (1 - 1/p) critical path, the Graham-Brent bound (N/p + L)C, the\n"
    "corollary (N/K + L)C, which holds only for p >= K ('-' in the rows where\n"
    "p < K, null in JSON), the makespan of a simulated greedy schedule and the\n"
    "speedup range T1/Graham .. T1/lower bound that every greedy schedule meets.\n"
    "When the program declares a parameter p, each row evaluates it with that p.\n\n"
    "options:\n"
    "  -p LIST              the values of p: integers and ranges A..B separated by\n"
    "                       commas (or two dashes); default 1, 2, 4, ... up to past\n"
    "                       the parallelism, plus the machine's p\n"
    "  --policy NAME|all    the simulated policy (default fifo; see 'mmm simulate\n"
    "                       --help'); 'all' gives one makespan per policy\n"
    "  --seed N             seed of the random policy (default 1)\n"
    "  --plot OUT           Cilkview's picture: speedup against p with the bound\n"
    "                       band, the simulated speedup and perfect speedup\n"
    "                       (.svg, .png or .pdf)\n"
    "  --measured RUNS.csv  measured speedups to show beside the bounds: columns p\n"
    "                       and speedup or seconds (docs/simulate.md)\n"
    "  --max-launches N     give up beyond N launches simulated one by one\n"
    "                       (default 100000000)\n";

typedef struct scale_args {
    cli_common c;
    const char *file;
    const char *plist;
    const char *policy;
    const char *plot, *measured;
    uint64_t seed;
    int64_t max_launches;
} scale_args;

#define S_(field) offsetof(scale_args, field)
static const cli_opt scale_opts[] = {
    /* -p/--p take a list here: before the common options. */
    {"-p|--p", CLI_STR, S_(plist), NULL, .fn = NULL},
    {"--policy", CLI_STR, S_(policy), NULL, .fn = NULL},
    {"--plot", CLI_STR, S_(plot), NULL, .fn = NULL},
    {"--measured", CLI_STR, S_(measured), NULL, .fn = NULL},
    {"--seed", CLI_U64, S_(seed), "--seed needs a non-negative integer", .fn = NULL},
    {"--max-launches", CLI_INT, S_(max_launches), "--max-launches needs a positive "
     "integer", 1, INT64_MAX, .fn = NULL},
    {NULL}};

static const cli_cmd scale_cmd = {"scale", scale_help, "-p", .opts = scale_opts,
                                  .missing = "%s needs an argument"};

static int parse_args(scale_args *a, int argc, char **argv)
{
    int rc;
    memset(a, 0, sizeof *a);
    cli_common_init(&a->c, "scale");
    a->policy = "fifo";
    a->seed = 1;
    if ((rc = cli_args(&scale_cmd, a, &a->c, &a->file, argc, argv)) != CLI_OK)
        return rc;
    if (strcmp(a->policy, "all") && !mmm_sim_policy_find(a->policy))
        return cli_usage("scale", "unknown policy '%s' (see mmm simulate --help)",
                         a->policy);
    return cli_plot_path("scale", "--plot", a->plot);
}

#define MAX_POLICIES 32

int cmd_scale(int argc, char **argv)
{
    scale_args a;
    mmm_program *prog = NULL;
    mmm_instance *inst = NULL;
    mmm_override ov[CLI_MAX_DEFS + 1];
    size_t nov = 0, np = 0;
    const mmm_sim_policy *pol[MAX_POLICIES];
    mmm_speedup_options so = MMM_SPEEDUP_OPTIONS_INIT;
    mmm_speedup s;
    mmm_writer *w = NULL;
    int64_t *plist = NULL;
    mmm_speedup_measured *meas = NULL;
    mmm_error err;
    int rc, all;

    memset(&s, 0, sizeof s);
    if ((rc = parse_args(&a, argc, argv)) != 0)
        return rc < 0 ? CLI_OK : rc;
    if (mmm_sim_policy_count() > MAX_POLICIES)
        return CLI_FAIL;
    if (a.plist && mmm_speedup_parse_p(&plist, &np, a.plist, &err) < 0)
        return cli_usage("scale", "%s", err.message);
    all = strcmp(a.policy, "all") == 0;
    if ((rc = cli_load_full(&a.c, a.file, 0, 1, &prog, &inst, NULL, ov, &nov)) != CLI_OK)
        goto done;
    so.npolicies = all ? mmm_sim_policy_count() : 1;
    for (size_t i = 0; i < so.npolicies; i++)
        pol[i] = all ? mmm_sim_policy_at(i) : mmm_sim_policy_find(a.policy);
    so.policies = pol;
    so.p = plist;
    so.np = np;
    so.seed = a.seed;
    so.max_launches = a.max_launches;
    so.progress = cli_progress(&a.c);
    so.progress_payload = &a.c;
    if ((a.measured && mmm_speedup_measured_read_file(&meas, a.measured, &err) < 0) ||
        (so.measured = meas, mmm_speedup_compute(&s, inst, ov, nov, &so, &err) < 0) ||
        mmm_writer_new(&w, stdout, a.c.format, &err) < 0) {
        rc = cli_fail(&err);
        goto done;
    }
    if (mmm_write_speedup_measured(w, prog, a.file, &s, all, meas, &err) < 0) {
        fprintf(stderr, "mmm scale: %s\n", err.message);
        rc = CLI_FAIL;
    }
    if (rc == CLI_OK && a.plot &&
        mmm_speedup_plot_write_measured(&s, meas, prog->name, a.plot, &err) < 0)
        rc = cli_fail(&err);
    if (cli_flushed("mmm scale: error writing the output\n") != CLI_OK)
        rc = CLI_FAIL;
done:
    mmm_writer_free(w);
    mmm_speedup_dispose(&s);
    free(plist);
    mmm_speedup_measured_free(meas);
    mmm_instance_free(inst);
    mmm_program_free(prog);
    return rc;
}
