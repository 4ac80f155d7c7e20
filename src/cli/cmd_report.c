/* cmd_report.c: `mmm report FILE -o report.html`: one self-contained HTML
 * page about a program (viz/report.c builds it). */
#include <stddef.h>
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
    "plot); when p is known, the greedy schedules of every policy with the\n"
    "Gantt chart of the best; with a machine file's time-model constants, the\n"
    "predicted times and the roofline.  Tables sort and fold, figures zoom;\n"
    "the page loads nothing from the network.\n"
    "\n"
    "  -o, --output OUT     file to write (atomically; '-' writes to stdout)\n"
    "  --color C            DAG fill, as render's: auto (default), type, overhead,\n"
    "                       work, span, cost or none\n"
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
    int64_t max_nodes; /* 0: not given */
    mmm_report_options opt;
    cli_common c;
} report_args;

static int color(void *out, const char *v)
{
    return mmm_render_color_parse(out, v) < 0 ? -1 : 0;
}

static int sweep(void *args, const char *v)
{
    report_args *a = args;
    if (a->nsweep == MMM_REPORT_MAX_SWEEPS)
        return cli_usage("report", "at most %d --sweep", MMM_REPORT_MAX_SWEEPS), -2;
    a->sweep[a->nsweep++] = v;
    return 0;
}

static int no_format(void *args, const char *v)
{
    (void)args;
    (void)v;
    return -1;
}

#define R_(field) offsetof(report_args, field)
static const cli_opt report_opts[] = {
    {"--no-sweep", CLI_FLAG, R_(opt.no_sweep), .bad = NULL},
    {"--no-simulation", CLI_FLAG, R_(opt.no_simulation), .bad = NULL},
    {"-o|--output", CLI_STR, R_(out), NULL, .fn = NULL},
    {"--color", CLI_FN, R_(opt.color), "--color is auto, type, overhead, work, span, cost "
     "or none, not '%s'", .fn = color},
    {"--max-nodes", CLI_INT, R_(max_nodes), "--max-nodes needs a number from 1 to "
     "1000000", 1, 1000000, .fn = NULL},
    {"--sweep", CLI_FN, 0, NULL, .fn = sweep},
    {"--format", CLI_FN, 0, "the report is HTML: no --format", .fn = no_format},
    {NULL}};

static const cli_cmd report_cmd = {"report", report_help, "--format", .opts = report_opts,
                                   .missing = "option '%s' needs a value"};

int cmd_report(int argc, char **argv)
{
    static const mmm_report_options opt_init = MMM_REPORT_OPTIONS_INIT;
    report_args a;
    mmm_override ov[CLI_MAX_DEFS + 1];
    size_t nov = 0;
    mmm_program *prog = NULL;
    mmm_instance *inst = NULL;
    mmm_metrics m;
    mmm_error err;
    int rc;

    memset(&a, 0, sizeof a);
    memset(&m, 0, sizeof m);
    a.opt = opt_init;
    cli_common_init(&a.c, "report");
    if ((rc = cli_args(&report_cmd, &a, &a.c, &a.file, argc, argv)) != CLI_OK)
        return rc < 0 ? CLI_OK : rc;
    if (!a.out)
        return cli_usage("report", "missing -o OUT.html");
    if (a.max_nodes)
        a.opt.max_nodes = (size_t)a.max_nodes;
    if ((rc = cli_load_full(&a.c, a.file, 0, 1, &prog, &inst, NULL, ov, &nov)) != CLI_OK)
        return rc;
    a.opt.overrides = ov;
    a.opt.noverrides = nov;
    a.opt.source = a.file;
    a.opt.progress = cli_progress(&a.c);
    a.opt.progress_payload = &a.c;
    if (a.nsweep) {
        a.opt.sweep = a.sweep;
        a.opt.nsweep = a.nsweep;
    }
    mmm_error_clear(&err);
    if (mmm_metrics_compute(&m, inst, 0, &err) < 0 || mmm_report_write(a.out, inst, &m, &a.opt, &err) < 0) {
        cli_print_error(&err);
        rc = CLI_FAIL;
    }
    mmm_metrics_dispose(&m);
    mmm_instance_free(inst);
    mmm_program_free(prog);
    return rc;
}
