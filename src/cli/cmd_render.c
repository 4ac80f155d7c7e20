/* cmd_render.c: `mmm render FILE -o OUT`: the annotated DAG as SVG, PNG,
 * PDF or DOT (viz/render.c does the drawing). */
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
    "  --color MEASURE      fill by overhead (default), work, span, cost or none\n"
    "  --max-nodes N        refuse to draw more nodes (default 2000, at most 10^6)\n"
    "  --dpi N              resolution of a PNG (default 144)\n";

typedef struct render_args {
    const char *file;
    const char *out;
    const char *format;
    mmm_render_options opt;
} render_args;

/* Returns 1 when argv[*i] was one of ours, 0 when not, -1 on a usage error
 * (already printed). */
static int render_option(render_args *a, int argc, char **argv, int *i)
{
    int missing = 0;
    const char *v;
    int64_t n;
    if ((v = cli_option_value("-o", argc, argv, i, &missing)) ||
        (!missing && (v = cli_option_value("--output", argc, argv, i, &missing)))) {
        a->out = v;
    } else if (!missing && (v = cli_option_value("--format", argc, argv, i, &missing))) {
        a->format = v;
    } else if (!missing && (v = cli_option_value("--level", argc, argv, i, &missing))) {
        if (mmm_render_level_parse(&a->opt.level, v) < 0)
            return cli_usage("render", "--level is kernel or block, not '%s'", v), -1;
    } else if (!missing && (v = cli_option_value("--color", argc, argv, i, &missing))) {
        if (mmm_render_color_parse(&a->opt.color, v) < 0)
            return cli_usage("render", "--color is overhead, work, span, cost or none, "
                                       "not '%s'", v), -1;
    } else if (!missing && (v = cli_option_value("--max-nodes", argc, argv, i, &missing))) {
        if (cli_parse_int64(v, &n) < 0 || n < 1 || n > 1000000)
            return cli_usage("render", "--max-nodes needs a number from 1 to 1000000"), -1;
        a->opt.max_nodes = (size_t)n;
    } else if (!missing && (v = cli_option_value("--dpi", argc, argv, i, &missing))) {
        if (cli_parse_int64(v, &n) < 0 || n < 10 || n > 2400)
            return cli_usage("render", "--dpi needs a number from 10 to 2400"), -1;
        a->opt.dpi = (double)n;
    } else if (missing) {
        return cli_usage("render", "option '%s' needs a value", argv[*i]), -1;
    } else {
        return 0;
    }
    return 1;
}

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

static int write_stdout(const mmm_instance *inst, const mmm_metrics *m,
                        const mmm_render_options *opt, mmm_error *err)
{
    char *data = NULL;
    size_t len = 0;
    int rc = mmm_render_memory(&data, &len, inst, m, opt, err);
    if (rc == 0)
        rc = cli_write_stdout(data, len, err);
    free(data);
    return rc;
}

int cmd_render(int argc, char **argv)
{
    static const mmm_render_options opt_init = MMM_RENDER_OPTIONS_INIT;
    cli_common c;
    render_args a;
    mmm_program *prog = NULL;
    mmm_instance *inst = NULL;
    mmm_metrics m;
    mmm_error err;
    int i, rc;

    memset(&a, 0, sizeof a);
    memset(&m, 0, sizeof m);
    a.opt = opt_init;
    cli_common_init(&c, "render");
    for (i = 1; i < argc; i++) {
        int r;
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            printf("%s", render_help);
            cli_print_common_help_except("--format");
            return CLI_OK;
        }
        if ((r = render_option(&a, argc, argv, &i)) < 0)
            return CLI_USAGE;
        if (r > 0)
            continue;
        if ((r = cli_common_option(&c, argc, argv, &i)) < 0)
            return CLI_USAGE;
        if (r > 0)
            continue;
        if (argv[i][0] == '-' && argv[i][1] != '\0')
            return cli_usage("render", "unknown option '%s'", argv[i]);
        if (a.file)
            return cli_usage("render", "one FILE only ('%s' and '%s')", a.file, argv[i]);
        a.file = argv[i];
    }
    if (!a.file)
        return cli_usage("render", "missing FILE");
    if (!a.out)
        return cli_usage("render", "missing -o OUT");
    if (resolve_format(&a) != CLI_OK)
        return CLI_USAGE;

    rc = cli_load(&c, a.file, 0, &prog, &inst);
    if (rc != CLI_OK)
        return rc;
    mmm_error_clear(&err);
    if (mmm_metrics_compute(&m, inst, 0, &err) < 0 ||
        (strcmp(a.out, "-") == 0 ? write_stdout(inst, &m, &a.opt, &err)
                                 : mmm_render_file(a.out, inst, &m, &a.opt, &err)) < 0) {
        cli_print_error(&err);
        rc = CLI_FAIL;
    }
    mmm_metrics_dispose(&m);
    mmm_instance_free(inst);
    mmm_program_free(prog);
    return rc;
}
