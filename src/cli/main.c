/* main.c: `mmm COMMAND ...`: dispatch to one file per subcommand. */
#include <stdio.h>
#include <string.h>

#include "cli.h"

static const struct {
    const char *name;
    int (*fn)(int, char **);
    const char *help;
    int draws;   /* needs the drawing module */
} commands[] = {
    {"analyze", cmd_analyze, "MMM measures and Graham-Brent bounds of a program", 0},
    {"optimize", cmd_optimize, "choose program parameters minimizing overhead or a bound", 0},
    {"compare", cmd_compare, "two programs side by side, with the ratio of their bounds", 0},
    {"simulate", cmd_simulate, "greedy schedules of the thread blocks on p SMs", 0},
    {"scale", cmd_scale, "speedup over p: bounds and simulated makespans per p", 0},
    {"roofline", cmd_roofline, "kernel intensity and throughput under the roofs", 0},
    {"render", cmd_render, "draw the annotated DAG (svg, png, pdf, dot)", 1},
    {"report", cmd_report, "one self-contained HTML page about a program", 1},
    {"convert", cmd_convert, "write a task graph (STG, WfCommons, DAX, DOT) as mmm XML", 0},
    {"fit", cmd_fit, "fit the time model's constants to measured runs", 0},
    {"calibrate", cmd_calibrate, "measure the GPU and write its machine file (CUDA)", 0},
    {"profile", cmd_profile, "a DAG file measured by Nsight Compute (ncu)", 0},
};

/* 1 when argv asks for --help (which works without the drawing module). */
static int wants_help(int argc, char **argv)
{
    int i;
    for (i = 1; i < argc; i++)
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h"))
            return 1;
    return 0;
}

static void usage(FILE *f)
{
    size_t i;
    fprintf(f, "usage: mmm COMMAND [OPTIONS] FILE...\n\n"
               "Analyze GPU programs written as two-level DAGs (kernels of thread blocks)\n"
               "under the Many-core Machine Model.\n\ncommands:\n");
    for (i = 0; i < sizeof commands / sizeof commands[0]; i++)
        fprintf(f, "  %-10s %s\n", commands[i].name, commands[i].help);
    fprintf(f, "\n'mmm COMMAND --help' describes a command; 'man mmm' the whole tool.\n"
               "A file read named '-' is standard input, a file written standard output.\n"
               "Exit status: 0 success, 1 bad input or failed analysis, 2 wrong usage.\n");
}

int main(int argc, char **argv)
{
    const char *names[sizeof commands / sizeof commands[0]], *near;
    size_t i;
    if (argc < 2) {
        usage(stderr);
        return CLI_USAGE;
    }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
        if (argc > 2 && strcmp(argv[1], "help") == 0) {
            for (i = 0; i < sizeof commands / sizeof commands[0]; i++)
                if (!strcmp(argv[2], commands[i].name)) {
                    char *args[] = {argv[2], (char *)"--help", NULL};
                    return commands[i].fn(2, args);
                }
        }
        usage(stdout);
        return CLI_OK;
    }
    if (!strcmp(argv[1], "--version")) {
        printf("mmm %s\n", mmm_version());
        return CLI_OK;
    }
    for (i = 0; i < sizeof commands / sizeof commands[0] && (names[i] = commands[i].name); i++)
        if (!strcmp(argv[1], commands[i].name)) {
            const char *why;
            if (commands[i].draws && !wants_help(argc - 1, argv + 1) &&
                !mmm_draw_available(&why)) {
                fprintf(stderr, "mmm %s: error: %s: '%s' is not available\n",
                        commands[i].name, why, commands[i].name);
                return CLI_FAIL;
            }
            return commands[i].fn(argc - 1, argv + 1);
        }
    if ((near = mmm_closest(argv[1], names, i)))
        return fprintf(stderr, "mmm: unknown command '%s'; did you mean '%s'?\n", argv[1],
                       near), CLI_USAGE;
    fprintf(stderr, "mmm: unknown command '%s'\n", argv[1]);
    usage(stderr);
    return CLI_USAGE;
}
