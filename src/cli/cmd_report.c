/* cmd_report.c: `mmm report FILE -o report.html`: one self-contained HTML
 * page about a program (viz/report.c builds it). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "mmm/report.h"

static const char report_help[] =
    "usage: mmm report FILE -o OUT.html [OPTIONS]\n"
    "\n"
    "Write one self-contained HTML page about a program: its measures and\n"
    "bounds, the kernel DAG (inline SVG), the parameters and a per-kernel\n"
    "table; a sweep of each parameter declared with min and max (table and\n"
    "plot); and, when p is known, the greedy schedules of every policy with\n"
    "the Gantt chart of the best.  The page loads nothing from the network.\n"
    "\n"
    "  -o, --output OUT     file to write (atomically; '-' writes to stdout)\n"
    "  --color MEASURE      DAG fill: overhead (default), work, span, cost, none\n"
    "  --max-nodes N        largest DAG drawn, in kernels (default 2000)\n"
    "  --sweep NAME         sweep this parameter (repeatable, at most 4);\n"
    "                       default: every parameter declaring min and max\n"
    "  --no-sweep           leave the sweeps out\n"
    "  --no-simulation      leave the schedules out\n";

typedef struct report_args {
    const char *file;
    const char *out;
    const char *sweep[MMM_REPORT_MAX_SWEEPS];
    size_t nsweep;
    mmm_report_options opt;
} report_args;

/* 1: consumed, 0: not ours, -1: usage error printed. */
static int report_option(report_args *a, int argc, char **argv, int *i)
{
    int missing = 0;
    const char *v;
    int64_t n;
    if (!strcmp(argv[*i], "--no-sweep")) {
        a->opt.no_sweep = 1;
    } else if (!strcmp(argv[*i], "--no-simulation")) {
        a->opt.no_simulation = 1;
    } else if ((v = cli_option_value("-o", argc, argv, i, &missing)) ||
               (!missing && (v = cli_option_value("--output", argc, argv, i, &missing)))) {
        a->out = v;
    } else if (!missing && (v = cli_option_value("--color", argc, argv, i, &missing))) {
        if (mmm_render_color_parse(&a->opt.color, v) < 0)
            return cli_usage("report", "--color is overhead, work, span, cost or none, "
                                       "not '%s'", v), -1;
    } else if (!missing && (v = cli_option_value("--max-nodes", argc, argv, i, &missing))) {
        if (cli_parse_int64(v, &n) < 0 || n < 1 || n > 1000000)
            return cli_usage("report", "--max-nodes needs a number from 1 to 1000000"), -1;
        a->opt.max_nodes = (size_t)n;
    } else if (!missing && (v = cli_option_value("--sweep", argc, argv, i, &missing))) {
        if (a->nsweep == MMM_REPORT_MAX_SWEEPS)
            return cli_usage("report", "at most %d --sweep", MMM_REPORT_MAX_SWEEPS), -1;
        a->sweep[a->nsweep++] = v;
    } else if (!missing && (v = cli_option_value("--format", argc, argv, i, &missing))) {
        return cli_usage("report", "the report is HTML: no --format"), -1;
    } else if (missing) {
        return cli_usage("report", "option '%s' needs a value", argv[*i]), -1;
    } else {
        return 0;
    }
    return 1;
}

static int parse_args(report_args *a, cli_common *c, int argc, char **argv)
{
    int i;
    for (i = 1; i < argc; i++) {
        int r;
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            printf("%s", report_help);
            cli_print_common_help_except("--format");
            return -1;
        }
        if ((r = report_option(a, argc, argv, &i)) < 0)
            return CLI_USAGE;
        if (r > 0)
            continue;
        if ((r = cli_common_option(c, argc, argv, &i)) < 0)
            return CLI_USAGE;
        if (r > 0)
            continue;
        if (argv[i][0] == '-' && argv[i][1] != '\0')
            return cli_usage("report", "unknown option '%s'", argv[i]);
        if (a->file)
            return cli_usage("report", "one FILE only ('%s' and '%s')", a->file, argv[i]);
        a->file = argv[i];
    }
    if (!a->file)
        return cli_usage("report", "missing FILE");
    if (!a->out)
        return cli_usage("report", "missing -o OUT.html");
    return CLI_OK;
}

static int write_report(const report_args *a, const mmm_instance *inst,
                        const mmm_metrics *m, mmm_error *err)
{
    char *html = NULL;
    size_t len = 0;
    int rc;
    if (strcmp(a->out, "-") != 0)
        return mmm_report_write(a->out, inst, m, &a->opt, err);
    rc = mmm_report_html(&html, &len, inst, m, &a->opt, err);
    if (rc == 0)
        rc = cli_write_stdout(html, len, err);
    free(html);
    return rc;
}

int cmd_report(int argc, char **argv)
{
    static const mmm_report_options opt_init = MMM_REPORT_OPTIONS_INIT;
    cli_common c;
    report_args a;
    mmm_override ov[CLI_MAX_DEFS + 1];
    size_t nov = 0, i;
    mmm_program *prog = NULL;
    mmm_instance *inst = NULL;
    mmm_metrics m;
    mmm_error err;
    int rc;

    memset(&a, 0, sizeof a);
    memset(&m, 0, sizeof m);
    a.opt = opt_init;
    cli_common_init(&c, "report");
    if ((rc = parse_args(&a, &c, argc, argv)) != CLI_OK)
        return rc < 0 ? CLI_OK : rc;
    if ((rc = cli_load_full(&c, a.file, 0, 1, &prog, &inst, NULL, ov, &nov)) != CLI_OK)
        return rc;
    for (i = 0; i < a.nsweep; i++)
        if (mmm_program_find_param(prog, a.sweep[i]) < 0) {
            fprintf(stderr, "%s: error: --sweep: the program has no parameter '%s'\n",
                    a.file, a.sweep[i]);
            rc = CLI_FAIL;
            goto done;
        }
    a.opt.overrides = ov;
    a.opt.noverrides = nov;
    a.opt.source = a.file;
    if (a.nsweep) {
        a.opt.sweep = a.sweep;
        a.opt.nsweep = a.nsweep;
    }
    mmm_error_clear(&err);
    if (mmm_metrics_compute(&m, inst, 0, &err) < 0 || write_report(&a, inst, &m, &err) < 0) {
        cli_print_error(&err);
        rc = CLI_FAIL;
    }
done:
    mmm_metrics_dispose(&m);
    mmm_instance_free(inst);
    mmm_program_free(prog);
    return rc;
}
