/* cmd_analyze.c: `mmm analyze FILE`: the MMM measures, the Graham–Brent
 * bounds, the critical paths and the per-kernel table, and the other
 * models (mmm_write_analysis prints them). */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"

static const char analyze_help[] =
    "usage: mmm analyze FILE [-D NAME=VALUE]... [--machine FILE] [-p P]\n"
    "                        [--format text|json|csv] [--max-rows N]\n"
    "                        [--model mmm|tmm|balance|time|all] [--totals]\n\n"
    "Evaluate the program's parameters and compute the Many-core Machine Model\n"
    "measures: W (work), S (span), O (parallelism overhead, (r+w)U per block),\n"
    "N (thread blocks), L (blocks on the longest path), C (max S(B)+O(B)),\n"
    "K (largest antichain), the Graham-Brent bound (N/p + L)C when p is known\n"
    "and its corollary (N/K + L)C (a bound for p >= K only), the critical paths\n"
    "and a per-kernel table.\n\n"
    "options:\n"
    "  --max-rows N         text: show at most N kernels (default 200, 0 = all)\n"
    "  --totals             csv: the program's totals and bounds as rows\n"
    "                       measure,value (W, S, O, N, L, C, K, parallelism, p,\n"
    "                       graham_brent, corollary, corollary_holds_from_p,\n"
    "                       exact) instead of one row per kernel\n"
    "  --model M            mmm (default), tmm (threaded many-core memory model),\n"
    "                       balance (balance principle), time (predicted seconds\n"
    "                       on a real GPU, docs/time.md), all (mmm, tmm and\n"
    "                       balance), or a comma list; tmm, balance and time\n"
    "                       read their machine parameters from --machine FILE\n"
    "                       (dags/machines/, docs/tmm.md)\n";

typedef struct analyze_args {
    cli_common c;
    const char *file;
    int64_t max_rows;
    unsigned models;
    int totals;
} analyze_args;

static int models_opt(void *models, const char *v)
{
    return mmm_models_parse(models, v) < 0 ? -1 : 0;
}

#define A_(field) offsetof(analyze_args, field)
static const cli_opt analyze_opts[] = {
    {"--max-rows", CLI_INT, A_(max_rows), "--max-rows needs a number >= 0", 0,
     INT64_MAX, .exact = 1},
    {"--totals", CLI_FLAG, A_(totals), .bad = NULL},
    {"--model", CLI_FN, A_(models), "--model must be mmm, tmm, balance, time or all",
     .fn = models_opt, .exact = 1},
    {NULL}};

static const cli_cmd analyze_cmd = {"analyze", analyze_help, "", .opts = analyze_opts};

int cmd_analyze(int argc, char **argv)
{
    analyze_args a = {.max_rows = 200, .models = MMM_MODEL_MMM};
    mmm_models extra;
    mmm_writer *w = NULL;
    mmm_program *prog = NULL;
    mmm_instance *inst = NULL;
    mmm_metrics m;
    mmm_error err;
    int rc;

    memset(&m, 0, sizeof m);
    memset(&extra, 0, sizeof extra);
    cli_common_init(&a.c, "analyze");
    if ((rc = cli_args(&analyze_cmd, &a, &a.c, &a.file, argc, argv)) != CLI_OK)
        return rc < 0 ? CLI_OK : rc;
    if (a.totals && (a.c.format != MMM_FORMAT_CSV || a.models != MMM_MODEL_MMM))
        return cli_usage("analyze", "--totals goes with --format csv (and the mmm model)");

    /* The measures, their table and paths need no class values (the
     * other models do): the largest array of a big evaluation saved. */
    if (a.models == MMM_MODEL_MMM)
        a.c.instance_flags = MMM_INSTANCE_NO_CLASSES;
    if ((rc = cli_load(&a.c, a.file, 0, &prog, &inst)) != CLI_OK)
        return rc;
    if (mmm_metrics_compute(&m, inst, 0, &err) < 0) {
        rc = cli_fail(&err);
        goto done;
    }
    cli_note_inexact(prog->file, &m);
    if (mmm_models_compute(&extra, inst, a.models, a.c.launch, &err) < 0 ||
        mmm_writer_new(&w, stdout, a.c.format, &err) < 0 ||
        mmm_write_analysis(w, inst, &m, &extra, a.max_rows, a.totals, &err) < 0) {
        rc = cli_fail(&err);
        goto done;
    }
    if (cli_flushed("mmm analyze: error writing the output\n") != CLI_OK)
        rc = CLI_FAIL;
done:
    mmm_writer_free(w);
    mmm_models_dispose(&extra);
    mmm_metrics_dispose(&m);
    mmm_instance_free(inst);
    mmm_program_free(prog);
    return rc;
}
