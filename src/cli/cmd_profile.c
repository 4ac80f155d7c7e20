/* cmd_profile.c: `mmm profile build|run|metrics`: DAG files measured by
 * Nsight Compute (include/mmm/profile.h, docs/profile.md): the library
 * runs the program under ncu (mmm_profile_run) and builds the file from
 * the captures (mmm_profile_build). */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "mmm/profile.h"

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
    "run: runs COMMAND per point of the --param grid ({NAME} in its ARGs is the\n"
    "point's value): alone with the launch tracer libmmm_trace.so (the list of\n"
    "launches, copies, sets; $MMM_TRACER names another, empty: ncu lists), then\n"
    "under ncu with every metric for the first N launches of each configuration\n"
    "(kernel, grid, block, shared memory), which stand for the others; builds.\n"
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

/* Build from points (skeleton and name may be NULL) and write out (NULL or
 * "-": stdout); the build's notes on stderr. */
static int build(const char *points, const char *skeleton, const char *name,
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
    if (mmm_profile_build(&p, points, &opt, &err) < 0)
        return cli_fail(&err);
    for (size_t i = 0; i < mmm_profile_nnotes(p); i++)
        fprintf(stderr, "mmm profile: %s\n", mmm_profile_note(p, i));
    if (mmm_profile_save_xml(p, out ? out : "-", &err) < 0) {
        rc = cli_fail(&err);
    } else if (out && strcmp(out, "-")) {
        char buf[256];
        fprintf(stderr, "mmm profile: wrote %s: %s\n", out,
                mmm_profile_summary(p, buf, sizeof buf));
    }
    mmm_profile_free(p);
    return rc;
}

typedef struct profile_args {
    const char *points, *skeleton, *name, *out, *keep, *ncu;
    uint64_t max_bytes;
    int64_t samples;
    mmm_profile_grid *grid;
    char **cmd; /* run: the command and its arguments */
    int ncmd;
} profile_args;

static int max_bytes(void *field, const char *v)
{
    return mmm_parse_u64(v, field) < 0 || *(uint64_t *)field == 0 ? -1 : 0;
}

static int samples(void *field, const char *v)
{
    int64_t *n = field;
    *n = 0; /* all */
    return strcmp(v, "all") && (mmm_parse_int64(v, n) < 0 || *n < 1) ? -1 : 0;
}

static int param(void *args, const char *v)
{
    mmm_error err;
    if (mmm_profile_grid_add(((profile_args *)args)->grid, v, &err) < 0)
        return cli_usage("profile", "%s", err.message), -2;
    return 0;
}

/* build: the one POINTS.csv. */
static int points(void *args, int argc, char **argv, int *i)
{
    profile_args *a = args;
    (void)argc;
    if (argv[*i][0] == '-' && argv[*i][1] != '\0')
        return 0;
    if (a->points)
        return cli_usage("profile", "one POINTS.csv only ('%s' and '%s')", a->points,
                         argv[*i]), -1;
    a->points = argv[*i];
    return 1;
}

/* run: the command, after "--" or at the first argument that is no option. */
static int command(void *args, int argc, char **argv, int *i)
{
    profile_args *a = args;
    int at = *i + !strcmp(argv[*i], "--");
    if (argv[*i][0] == '-' && at == *i)
        return 0;
    a->cmd = at < argc ? argv + at : NULL;
    a->ncmd = argc - at;
    *i = argc - 1;
    return 1;
}

#define P_(field) offsetof(profile_args, field)
#define BUILD_OPTS                                                            \
    {"-o|--output", CLI_STR, P_(out), NULL, .fn = NULL},                      \
    {"--skeleton", CLI_STR, P_(skeleton), NULL, .fn = NULL},                  \
    {"--name", CLI_STR, P_(name), NULL, .fn = NULL},                          \
    {"--max-file-bytes", CLI_FN, P_(max_bytes), "--max-file-bytes needs a "   \
     "positive integer, not '%s'", .fn = max_bytes}
static const cli_opt build_opts[] = {BUILD_OPTS, {NULL}};
static const cli_opt run_opts[] = {
    BUILD_OPTS,
    {"--keep", CLI_STR, P_(keep), NULL, .fn = NULL},
    {"--ncu", CLI_STR, P_(ncu), NULL, .fn = NULL},
    {"--samples", CLI_FN, P_(samples), "--samples needs a positive integer or all, "
     "not '%s'", .fn = samples},
    {"--param", CLI_FN, 0, NULL, .fn = param},
    {NULL}};

static const cli_cmd build_cmd = {"profile", profile_help, .opts = build_opts,
                                  .missing = "option '%s' needs a value",
                                  .special = points,
                                  .unknown = "unknown option '%s' of profile build"};
static const cli_cmd run_cmd = {"profile", profile_help, .opts = run_opts,
                                .missing = "option '%s' needs a value",
                                .special = command,
                                .unknown = "unknown option '%s' of profile run (the "
                                           "command to run comes after --)"};

static void progress(const char *line, void *payload)
{
    (void)payload;
    fprintf(stderr, "mmm profile: %s\n", line);
}

/* run: the captures (mmm_profile_run), then build. */
static int run(const profile_args *a)
{
    mmm_profile_run_options ro = MMM_PROFILE_RUN_OPTIONS_INIT;
    mmm_profile_captures *cap = NULL;
    mmm_notes details = MMM_NOTES_INIT;
    mmm_error err;
    char buf[2048];
    int rc;
    ro.ncu = a->ncu;
    ro.keep = a->keep;
    ro.samples = a->samples;
    ro.progress = progress;
    if (mmm_profile_run(&cap, a->grid, a->cmd, (size_t)a->ncmd, &ro, &details, &err) < 0) {
        fprintf(stderr, "mmm profile: %s\n", mmm_error_format(&err, buf, sizeof buf));
        return cli_noted(&details, CLI_FAIL);
    }
    rc = build(mmm_profile_captures_points(cap), a->skeleton, a->name, a->out, a->max_bytes);
    if (rc == CLI_OK && a->keep)
        fprintf(stderr, "mmm profile: the captures are in %s ('mmm profile build "
                        "%s/POINTS.csv' reads them again)\n", a->keep, a->keep);
    mmm_profile_captures_free(cap);
    return rc;
}

int cmd_profile(int argc, char **argv)
{
    profile_args a = {.samples = 1};
    mmm_error err;
    int rc;
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
    if (!strcmp(argv[1], "metrics"))
        return cmd_metrics(argc - 1, argv + 1);
    if (!strcmp(argv[1], "build")) {
        if ((rc = cli_args(&build_cmd, &a, NULL, NULL, argc - 1, argv + 1)) != CLI_OK)
            return rc < 0 ? CLI_OK : rc;
        if (!a.points)
            return cli_usage("profile", "profile build: missing POINTS.csv");
        if (!a.out)
            return cli_usage("profile", "profile build: missing -o OUT.xml ('-o -' "
                                        "writes to stdout)");
        return build(a.points, a.skeleton, a.name, a.out, a.max_bytes);
    }
    if (strcmp(argv[1], "run"))
        return cli_usage("profile", "unknown '%s': mmm profile build, run or metrics",
                         argv[1]);
    if (mmm_profile_grid_new(&a.grid, &err) < 0)
        return cli_fail(&err);
    rc = cli_args(&run_cmd, &a, NULL, NULL, argc - 1, argv + 1);
    if (rc == CLI_OK && !a.cmd)
        rc = cli_usage("profile", "profile run: missing the command to run "
                                  "(mmm profile run [OPTIONS] -- COMMAND [ARG...])");
    if (rc == CLI_OK)
        rc = run(&a);
    mmm_profile_grid_free(a.grid);
    return rc < 0 ? CLI_OK : rc;
}
