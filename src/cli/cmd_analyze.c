/* cmd_analyze.c: `mmm analyze FILE`: the MMM measures, the Graham–Brent
 * bounds, the critical paths and the per-kernel table, and the other
 * models (mmm_write_analysis prints them). */
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

int cmd_analyze(int argc, char **argv)
{
    cli_common c;
    const char *file = NULL;
    int64_t max_rows = 200;
    unsigned models = MMM_MODEL_MMM;
    int totals = 0;
    mmm_models extra;
    mmm_writer *w = NULL;
    mmm_program *prog = NULL;
    mmm_instance *inst = NULL;
    mmm_metrics m;
    mmm_error err;
    int i, rc;

    memset(&m, 0, sizeof m);
    memset(&extra, 0, sizeof extra);
    cli_common_init(&c, "analyze");
    for (i = 1; i < argc; i++) {
        int r;
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            printf("%s%s", analyze_help, cli_common_help);
            return CLI_OK;
        }
        r = cli_common_option(&c, argc, argv, &i);
        if (r < 0)
            return CLI_USAGE;
        if (r > 0)
            continue;
        if (!strcmp(argv[i], "--max-rows")) {
            if (i + 1 >= argc || cli_parse_int64(argv[++i], &max_rows) < 0 || max_rows < 0)
                return cli_usage("analyze", "--max-rows needs a number >= 0");
        } else if (!strcmp(argv[i], "--totals")) {
            totals = 1;
        } else if (!strcmp(argv[i], "--model")) {
            if (i + 1 >= argc || mmm_models_parse(&models, argv[++i]) < 0)
                return cli_usage("analyze", "--model must be mmm, tmm, balance, time or all");
        } else if (argv[i][0] == '-' && argv[i][1] != '\0') {
            return cli_usage("analyze", "unknown option '%s'", argv[i]);
        } else if (file) {
            return cli_usage("analyze", "one FILE only ('%s' and '%s')", file, argv[i]);
        } else {
            file = argv[i];
        }
    }
    if (!file)
        return cli_usage("analyze", "missing FILE");
    if (totals && (c.format != MMM_FORMAT_CSV || models != MMM_MODEL_MMM))
        return cli_usage("analyze", "--totals goes with --format csv (and the mmm model)");

    /* The measures, their table and paths need no class values (the
     * other models do): the largest array of a big evaluation saved. */
    if (models == MMM_MODEL_MMM)
        c.instance_flags = MMM_INSTANCE_NO_CLASSES;
    rc = cli_load(&c, file, 0, &prog, &inst);
    if (rc != CLI_OK)
        return rc;
    if (mmm_metrics_compute(&m, inst, 0, &err) < 0) {
        rc = cli_fail(&err);
        goto done;
    }
    cli_note_inexact(prog->file, &m);
    if (mmm_models_compute(&extra, inst, models, c.launch, &err) < 0 ||
        mmm_writer_new(&w, stdout, c.format, &err) < 0 ||
        mmm_write_analysis(w, inst, &m, &extra, max_rows, totals, &err) < 0) {
        rc = cli_fail(&err);
        goto done;
    }
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "mmm analyze: error writing the output\n");
        rc = CLI_FAIL;
    }
done:
    mmm_writer_free(w);
    mmm_models_dispose(&extra);
    mmm_metrics_dispose(&m);
    mmm_instance_free(inst);
    mmm_program_free(prog);
    return rc;
}
