/* cmd_profile.c: `mmm profile build|run|metrics`: DAG files measured by
 * Nsight Compute (include/mmm/profile.h, docs/profile.md).  `run`, which
 * starts processes, is in profile_run.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "mmm/profile.h"
#include "profile_run.h"

static const char profile_help[] =
    "usage: mmm profile build POINTS.csv [--skeleton SKEL.xml] [--name NAME] -o OUT.xml\n"
    "       mmm profile run [--param NAME=LIST]... [--skeleton SKEL.xml] [--keep DIR]\n"
    "                       [-o OUT.xml] [--name NAME] [--ncu PATH] [--samples N|all]\n"
    "                       -- COMMAND [ARG...]\n"
    "       mmm profile metrics [--launch]\n"
    "\n"
    "Build a DAG file whose kernels carry what Nsight Compute measured: blocks,\n"
    "threads, work, span, reads, writes, and the time model's registers, shared\n"
    "memory, barriers, shared and global wavefronts and atomics (docs/profile.md\n"
    "defines each).\n"
    "\n"
    "build: POINTS.csv has a column 'ncu' (a capture of ncu's raw page in CSV,\n"
    "relative to POINTS.csv) and one column per parameter; two rows with\n"
    "the same values are one run whose sample and launch list are two files.\n"
    "One point gives its exact DAG; several points, each attribute as the\n"
    "simplest expression in the parameters that reproduces every point (else\n"
    "an approximation, marked APPROXIMATE in the kernel's comment).  Without a\n"
    "skeleton every point must launch the same kernels in the same order.\n"
    "\n"
    "run: runs COMMAND under ncu once per point of the grid of the --param\n"
    "lists ({NAME} in COMMAND and its ARGs is replaced by the point's value):\n"
    "once for the list of every launch (launch statistics only) and once with\n"
    "every metric for the first N launches of each configuration (kernel,\n"
    "grid, block, shared memory), which stand for the others; then build.\n"
    "\n"
    "  -o, --output OUT     the DAG file to write (atomically; '-' writes to\n"
    "                       stdout; run: stdout when not given)\n"
    "  --skeleton SKEL.xml  fill in this DAG file: its kernels, repeats, blocks,\n"
    "                       threads and edges are expressions, each cost to\n"
    "                       measure is \"?\" (work=\"?\" span=\"?\" ...)\n"
    "  --name NAME          the program's name (default: the skeleton's, else\n"
    "                       the POINTS file's)\n"
    "  --param NAME=LIST    run: a parameter's values, a comma list (n=1024,2^12)\n"
    "  --keep DIR           run: leave the captures and POINTS.csv in DIR (a\n"
    "                       folder profile build reads again)\n"
    "  --ncu PATH           run: the ncu to use (default: ncu in PATH, in\n"
    "                       /usr/local/cuda/bin, or /opt/nvidia/nsight-compute/*)\n"
    "  --samples N|all      run: launches of each configuration measured with\n"
    "                       every metric (default 1); all: every launch, in one\n"
    "                       run of ncu a point (slower; for kernels whose work\n"
    "                       depends on their data)\n"
    "  --launch             metrics: the launch statistics only\n"
    "  --max-file-bytes N   refuse larger captures and skeletons (default 1 GiB)\n";

static int cmd_metrics(int argc, char **argv)
{
    int launch = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--launch"))
            launch = 1;
        else
            return cli_usage("profile", "unknown option '%s' of profile metrics",
                             argv[i]);
    }
    printf("%s\n", mmm_ncu_metric_list(launch ? MMM_NCU_SET_LAUNCH : MMM_NCU_SET_FULL));
    return CLI_OK;
}

/* Notes of the build on stderr. */
void cli_profile_notes(const mmm_profile *p)
{
    for (size_t i = 0; i < mmm_profile_nnotes(p); i++)
        fprintf(stderr, "mmm profile: %s\n", mmm_profile_note(p, i));
}

int cli_profile_build(const char *points, const char *skeleton, const char *name,
                      const char *out, uint64_t max_bytes)
{
    mmm_profile_options opt = MMM_PROFILE_OPTIONS_INIT;
    mmm_profile *p = NULL;
    mmm_error err;
    int rc = CLI_OK;
    opt.skeleton = skeleton;
    opt.name = name;
    opt.limits.max_file_bytes = max_bytes;
    mmm_error_clear(&err);
    if (mmm_profile_build(&p, points, &opt, &err) < 0) {
        cli_print_error(&err);
        return CLI_FAIL;
    }
    cli_profile_notes(p);
    if (!out || !strcmp(out, "-")) {
        const char *x = mmm_profile_xml(p);
        if (cli_write_stdout(x, strlen(x), &err) < 0) {
            cli_print_error(&err);
            rc = CLI_FAIL;
        }
    } else if (mmm_profile_save_xml(p, out, &err) < 0) {
        cli_print_error(&err);
        rc = CLI_FAIL;
    } else {
        fprintf(stderr, "mmm profile: wrote %s: %zu kernel%s from %zu point%s",
                out, mmm_profile_nkernels(p), mmm_profile_nkernels(p) == 1 ? "" : "s",
                mmm_profile_npoints(p), mmm_profile_npoints(p) == 1 ? "" : "s");
        if (mmm_profile_napprox(p))
            fprintf(stderr, ", %zu attribute%s approximate", mmm_profile_napprox(p),
                    mmm_profile_napprox(p) == 1 ? "" : "s");
        fprintf(stderr, "\n");
    }
    mmm_profile_free(p);
    return rc;
}

static int cmd_build(int argc, char **argv)
{
    const char *points = NULL, *skeleton = NULL, *name = NULL, *out = NULL;
    uint64_t max_bytes = 0;
    for (int i = 1; i < argc; i++) {
        int missing = 0;
        const char *v;
        if ((v = cli_option_value("-o", argc, argv, &i, &missing)) ||
            (!missing && (v = cli_option_value("--output", argc, argv, &i, &missing)))) {
            out = v;
            continue;
        }
        if (!missing && (v = cli_option_value("--skeleton", argc, argv, &i, &missing))) {
            skeleton = v;
            continue;
        }
        if (!missing && (v = cli_option_value("--name", argc, argv, &i, &missing))) {
            name = v;
            continue;
        }
        if (!missing &&
            (v = cli_option_value("--max-file-bytes", argc, argv, &i, &missing))) {
            if (cli_parse_u64(v, &max_bytes) < 0 || max_bytes == 0)
                return cli_usage("profile", "--max-file-bytes needs a positive "
                                            "integer, not '%s'", v);
            continue;
        }
        if (missing)
            return cli_usage("profile", "option '%s' needs a value", argv[i]);
        if (argv[i][0] == '-' && argv[i][1] != '\0')
            return cli_usage("profile", "unknown option '%s' of profile build",
                             argv[i]);
        if (points)
            return cli_usage("profile", "one POINTS.csv only ('%s' and '%s')",
                             points, argv[i]);
        points = argv[i];
    }
    if (!points)
        return cli_usage("profile", "profile build: missing POINTS.csv");
    if (!out)
        return cli_usage("profile", "profile build: missing -o OUT.xml ('-o -' "
                                    "writes to stdout)");
    return cli_profile_build(points, skeleton, name, out, max_bytes);
}

int cmd_profile(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--"))
            break;
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            printf("%s", profile_help);
            return CLI_OK;
        }
    }
    if (argc < 2)
        return cli_usage("profile", "missing build, run or metrics");
    if (!strcmp(argv[1], "build"))
        return cmd_build(argc - 1, argv + 1);
    if (!strcmp(argv[1], "run"))
        return cli_profile_run(argc - 1, argv + 1);
    if (!strcmp(argv[1], "metrics"))
        return cmd_metrics(argc - 1, argv + 1);
    return cli_usage("profile", "unknown '%s': mmm profile build, run or metrics",
                     argv[1]);
}
