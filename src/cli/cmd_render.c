/* cmd_render.c: `mmm render FILE -o OUT`: the annotated DAG as SVG, PNG,
 * PDF or DOT (viz/render.c does the drawing). */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "mmm/render.h"

static const char render_help[] =
    "usage: mmm render FILE -o OUT [OPTIONS]\n"
    "\n"
    "Draw the DAG of a program annotated with its MMM measures: one node per\n"
    "kernel (a repeat drawn once, marked xk) with blocks x threads, W, S, O and\n"
    "S(B)+O(B); the critical path (span) and the longest block path (L)\n"
    "highlighted; nodes filled by a measure; the parameters, totals and bounds\n"
    "in the title.  Layout and rendering by Graphviz, in process.\n"
    "\n"
    "  -o, --output OUT     file to write (atomically; '-' writes to stdout)\n"
    "  --format FMT         svg, png, pdf or dot (default: OUT's extension)\n"
    "  --level LEVEL        kernel (default) or block: every thread block, each\n"
    "                       launch a cluster of its blocks\n"
    "  --color C            auto (an imported graph's task types, else the first of\n"
    "                       overhead, work, span, cost that varies), type or none\n"
    "  --condense WHEN      auto (above 200 kernels or 40 on a level), always or never\n"
    "  --view V             all, or critical: the critical path, the others condensed\n"
    "  --rankdir D          TB (default), LR, BT or RL\n"
    "  --max-nodes N        refuse to draw more nodes (default 2000, at most 10^6)\n"
    "  --dpi N              resolution of a PNG (default 144)\n";

typedef struct render_args {
    const char *file;
    const char *out;
    const char *format;
    int64_t max_nodes, dpi; /* 0: not given */
    mmm_render_options opt;
    cli_common c;
} render_args;

#define R_(field) offsetof(render_args, field)
static const cli_opt render_opts[] = {
    {"-o|--output", CLI_STR, R_(out), NULL, .fn = NULL},
    {"--format", CLI_STR, R_(format), NULL, .fn = NULL},
    {"--level", CLI_CHOICE, R_(opt.level), "--level is kernel or block", .choices = "kernel|block"},
    {"--color", CLI_CHOICE, R_(opt.color), "--color is overhead, work, span, cost, none, type "
     "or auto, not '%s'", .choices = "overhead|work|span|cost|none|type|auto"},
    {"--condense", CLI_CHOICE, R_(opt.condense), "--condense is auto, always or never",
     .choices = "auto|always|never"},
    {"--view", CLI_CHOICE, R_(opt.view), "--view is all or critical", .choices = "all|critical"},
    {"--rankdir", CLI_CHOICE, R_(opt.rankdir), "--rankdir is TB, LR, BT or RL",
     .choices = "TB|LR|BT|RL"},
    {"--max-nodes", CLI_INT, R_(max_nodes), "--max-nodes needs a number from 1 to "
     "1000000", 1, 1000000, .fn = NULL},
    {"--dpi", CLI_INT, R_(dpi), "--dpi needs a number from 10 to 2400", 10, 2400, .fn = NULL},
    {NULL}};

static const cli_cmd render_cmd = {"render", render_help, "--format", .opts = render_opts,
                                   .missing = "option '%s' needs a value"};

static int resolve_format(render_args *a)
{
    if (a->format) {
        if (mmm_render_format_parse(&a->opt.format, a->format) < 0)
            return cli_usage("render", "--format is svg, png, pdf or dot, not '%s'", a->format);
    } else if (strcmp(a->out, "-") == 0) {
        return cli_usage("render", "writing to stdout needs --format");
    } else if (mmm_render_format_from_path(&a->opt.format, a->out) < 0) {
        return cli_usage("render", "cannot tell the format of '%s': name it .svg, .png, "
                                   ".pdf or .dot, or give --format", a->out);
    }
    return CLI_OK;
}

int cmd_render(int argc, char **argv)
{
    static const mmm_render_options opt_init = MMM_RENDER_OPTIONS_INIT;
    render_args a;
    mmm_program *prog = NULL;
    mmm_instance *inst = NULL;
    mmm_metrics m;
    mmm_error err;
    mmm_notes notes = MMM_NOTES_INIT;
    int rc;

    memset(&a, 0, sizeof a);
    memset(&m, 0, sizeof m);
    a.opt = opt_init;
    a.opt.notes = &notes;
    cli_common_init(&a.c, "render");
    if ((rc = cli_args(&render_cmd, &a, &a.c, &a.file, argc, argv)) != CLI_OK)
        return rc < 0 ? CLI_OK : rc;
    a.opt.max_nodes = (size_t)a.max_nodes; /* 0: the defaults */
    a.opt.dpi = (double)a.dpi;
    if (!a.out)
        return cli_usage("render", "missing -o OUT");
    if (resolve_format(&a) != CLI_OK)
        return CLI_USAGE;

    rc = cli_load_full(&a.c, a.file, 0, 1, &prog, &inst, NULL, NULL, NULL);
    if (rc != CLI_OK)
        return rc;
    mmm_error_clear(&err);
    if (mmm_metrics_compute(&m, inst, 0, &err) < 0 ||
        cli_noted(&notes, mmm_render_file(a.out, inst, &m, &a.opt, &err)) < 0) {
        cli_print_error(&err);
        rc = CLI_FAIL;
    }
    mmm_metrics_dispose(&m);
    mmm_instance_free(inst);
    mmm_program_free(prog);
    return rc;
}
