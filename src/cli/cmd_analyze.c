/* cmd_analyze.c: `mmm analyze FILE`: the MMM measures, the Graham–Brent
 * bounds, the critical paths and the per-kernel table, and the other
 * models (mmm_write_analysis prints them). */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"

static const char analyze_help[] =
    "usage: mmm analyze FILE... [-D NAME=VALUE]... [--machine FILE] [-p P]\n"
    "                        [--format text|json|csv] [--max-rows N]\n"
    "                        [--model mmm|tmm|balance|time|all] [--totals]\n\n"
    "Evaluate the program's parameters and compute the Many-core Machine Model\n"
    "measures: W (work), S (span), O (parallelism overhead, (r+w)U per block),\n"
    "N (thread blocks), L (blocks on the longest path), C (max S(B)+O(B)),\n"
    "K (largest antichain), the Graham-Brent bound (N/p + L)C when p is known\n"
    "and its corollary (N/K + L)C (a bound for p >= K only), the critical paths\n"
    "and a per-kernel table.  Several files: one result each (text: a header\n"
    "per file; JSON: one object per line; CSV: a first column 'file'); a file\n"
    "that fails is skipped, the exit status says so.\n\n"
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

#define A_(field) offsetof(analyze_args, field)
static const cli_opt analyze_opts[] = {
    {"--max-rows", CLI_INT, A_(max_rows), "--max-rows needs a number >= 0", 0,
     INT64_MAX, .fn = NULL},
    {"--totals", CLI_FLAG, A_(totals), .bad = NULL},
    {"--model", CLI_FN, A_(models), "--model must be mmm, tmm, balance, time or all",
     .fn = cli_models},
    {NULL}};

static const cli_cmd analyze_cmd = {"analyze", analyze_help, "", .opts = analyze_opts,
                                    .many = 1};

int cmd_analyze(int argc, char **argv)
{
    analyze_args a = {.max_rows = 200, .models = MMM_MODEL_MMM};
    mmm_analyze_options opt = MMM_ANALYZE_OPTIONS_INIT;
    mmm_writer *w = NULL;
    mmm_error err;
    size_t failed = 0;
    int rc;

    cli_common_init(&a.c, "analyze");
    if ((rc = cli_args(&analyze_cmd, &a, &a.c, &a.file, argc, argv)) != CLI_OK)
        return rc < 0 ? CLI_OK : rc;
    if (a.totals && (a.c.format != MMM_FORMAT_CSV || a.models != MMM_MODEL_MMM))
        return cli_usage("analyze", "--totals goes with --format csv (and the mmm model)");
    /* The measures, their table and paths need no class values (the
     * other models do): the largest array of a big evaluation saved. */
    if (a.models == MMM_MODEL_MMM)
        a.c.instance_flags = MMM_INSTANCE_NO_CLASSES;
    cli_open_options(&a.c, MMM_DEFINE_STRICT, 1, &opt.open);
    opt.models = a.models;
    opt.launch = a.c.launch;
    opt.max_rows = a.max_rows;
    opt.totals = a.totals;
    opt.on_file = cli_on_file;
    opt.payload = &a.c;
    if (mmm_writer_new(&w, stdout, a.c.format, &err) < 0 ||
        mmm_analyze_files(w, a.c.files, a.c.nfiles, &opt, &failed, &err) < 0)
        rc = cli_fail(&err);
    mmm_writer_free(w);
    return rc != CLI_OK || failed ? CLI_FAIL : CLI_OK;
}
