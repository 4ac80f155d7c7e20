/* cmd_fit.c: `mmm fit --data RUNS.csv PROGRAM.xml...`: fit the time
 * model's constants to measured runs (docs/time.md); mmm_write_fit
 * prints what the fit found. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const char fit_help[] =
    "usage: mmm fit --data RUNS.csv [--data RUNS2.csv]... PROGRAM.xml...\n"
    "               [--machine BASE.xml] [-o FITTED.xml] [--format text|json]\n"
    "               [--launch stream|graph] [--fit NAME,...] [--fix NAME,...]\n"
    "               [--plot OUT.svg|png|pdf]\n\n"
    "Fit the time model's constants (docs/time.md) to measured runs of one or\n"
    "more programs at once: least squares on the logarithm of the times, each\n"
    "constant kept in its physical bounds.  Prints every constant with its\n"
    "value, its uncertainty (the standard deviation of its logarithm, about\n"
    "a relative one; 'lower bound' or 'upper bound' where the fit stopped\n"
    "at one; 'undetermined' where no run depends on it or the runs cannot\n"
    "tell it from another) and its unit, a note for each pair of constants\n"
    "the runs trade one for the other (correlation of at least 0.95 in\n"
    "magnitude), every run's measured and predicted time and relative\n"
    "error, and the median and largest error.\n\n"
    "RUNS.csv: a header; a 'program' column (the <program name>); one column\n"
    "per parameter (a blank cell keeps the default; columns that name no\n"
    "parameter are ignored); the time in 'time_ms', 'time_s' or 'time_us';\n"
    "optionally 'launch' (stream or graph).\n\n"
    "options:\n"
    "  --data FILE          a runs file (repeatable)\n"
    "  --launch MODE        launch mode of the rows of the --data files that\n"
    "                       follow (stream, the default, or graph) when they\n"
    "                       have no launch column\n"
    "  --machine FILE       the base machine: hardware limits, starting values\n"
    "                       and the constants that are not fitted\n"
    "  -o, --output FILE    write the fitted machine file (atomically): the\n"
    "                       base machine with the fitted constants\n"
    "  --fit NAMES          fit only these constants (comma list; none: only\n"
    "                       predict with the machine's constants)\n"
    "  --fix NAMES          keep these constants at the base machine's values\n"
    "  --name TEXT          the <machine name> of the written file\n"
    "  --plot OUT           each run's predicted time against its measured one,\n"
    "                       and the error against the measured time (.svg, .png, .pdf)\n"
    "  -D NAME=VALUE        override a parameter of every program\n"
    "  --format FMT         text (default) or json\n"
    "constants: launch_s, launch_graph_s, op_cycles, issue_per_cycle,\n"
    "sync_cycles, sync_cycles_per_warp, mem_latency_cycles,\n"
    "bandwidth_bytes_per_cycle; optional (0 when a machine has none):\n"
    "start_s, block_cycles, latency_exposed, atomic_cycles\n";

#define FIT_MAX_FILES 64

typedef struct fit_args {
    cli_common c;
    const char *data[FIT_MAX_FILES], *progs;
    int data_graph[FIT_MAX_FILES];
    size_t ndata, nprogs;
    const char *out, *name, *plot;
    int graph, fit[MMM_TIME_NCONST];
} fit_args;

static int launch(void *graph, const char *v)
{
    mmm_launch l;
    if (mmm_launch_parse(&l, v) < 0)
        return -1;
    *(int *)graph = l == MMM_LAUNCH_GRAPH;
    return 0;
}

static int data(void *args, const char *v)
{
    fit_args *a = args;
    if (a->ndata >= FIT_MAX_FILES)
        return cli_usage("fit", "at most %d --data files", FIT_MAX_FILES), -2;
    a->data_graph[a->ndata] = a->graph;
    a->data[a->ndata++] = v;
    return 0;
}

static int fit_only(void *fit, const char *v)
{
    int only[MMM_TIME_NCONST] = {0};
    if (strcmp(v, "none") && mmm_time_const_mark(v, only, 1) < 0)
        return -1;
    memcpy(fit, only, sizeof only);
    return 0;
}

static int fix(void *fit, const char *v)
{
    return mmm_time_const_mark(v, fit, 0);
}

#define F_(field) offsetof(fit_args, field)
static const cli_opt fit_opts[] = {
    {"--launch", CLI_FN, F_(graph), "--launch must be stream or graph", .fn = launch},
    {"--data", CLI_FN, 0, NULL, .fn = data, .missing = "--data needs a FILE"},
    {"--fit", CLI_FN, F_(fit), "--fit needs constant names (see --help)", .fn = fit_only},
    {"--fix", CLI_FN, F_(fit), "--fix needs constant names (see --help)", .fn = fix},
    {"--name", CLI_STR, F_(name), NULL, .missing = "--name needs a TEXT"},
    {"-o|--output", CLI_STR, F_(out), NULL, .missing = "-o needs a FILE"},
    {"--plot", CLI_STR, F_(plot), NULL, .missing = "--plot needs a file name"},
    {NULL}};

static const cli_cmd fit_cmd = {"fit", fit_help, NULL, .opts = fit_opts,
                                .file_word = "PROGRAM.xml", .many = 1};

int cmd_fit(int argc, char **argv)
{
    fit_args a;
    size_t i;
    int rc = CLI_FAIL;
    mmm_machine *base = NULL;
    mmm_program *prog[FIT_MAX_FILES] = {0};
    mmm_runs *runs[FIT_MAX_FILES] = {0};
    mmm_fit_samples fs = {0};
    mmm_notes notes = MMM_NOTES_INIT;
    mmm_writer *w = NULL;
    mmm_fit_result res = {.predicted = NULL};
    mmm_error err;

    memset(&a, 0, sizeof a);
    for (i = 0; i < MMM_TIME_NCONST; i++)
        a.fit[i] = 1;
    cli_common_init(&a.c, "fit");
    if ((rc = cli_args(&fit_cmd, &a, &a.c, &a.progs, argc, argv)) != CLI_OK)
        return rc < 0 ? CLI_OK : rc;
    const cli_common c = a.c;
    if (!a.ndata)
        return cli_usage("fit", "missing --data RUNS.csv");
    if ((a.nprogs = c.nfiles) > FIT_MAX_FILES)
        return cli_usage("fit", "at most %d programs", FIT_MAX_FILES);
    if (c.format == MMM_FORMAT_CSV)
        return cli_usage("fit", "--format must be text or json");
    if (a.out && !c.machine_path)
        return cli_usage("fit", "-o needs --machine BASE.xml (the hardware "
                                "limits the written file keeps)");
    if ((rc = cli_plot_path("fit", "--plot", a.plot)) != CLI_OK)
        return rc;

    rc = CLI_FAIL;
    mmm_error_clear(&err);
    if (c.machine_path &&
        mmm_machine_load_file(&base, c.machine_path, &c.io.load.limits, &err) < 0)
        goto fail_err;
    for (i = 0; i < a.nprogs; i++) {
        mmm_load_options lo = c.io.load;
        lo.machine = base;
        if (mmm_program_load_file(&prog[i], c.files[i], &lo, &err) < 0)
            goto fail_err;
    }
    for (i = 0; i < a.ndata; i++)
        if (mmm_runs_read_file(&runs[i], a.data[i], a.data_graph[i], &err) < 0)
            goto fail_err;
    if (cli_noted(&notes, mmm_fit_samples_make(&fs, runs, a.ndata, prog, a.nprogs, c.defs,
                                               c.ndefs, &notes, &err)) < 0)
        goto fail_err;

    mmm_time_machine m;
    if (mmm_time_machine_get(&m, fs.inst[0], 0, &err) < 0)
        goto fail_err;
    mmm_fit_options fo;
    mmm_fit_options_init(&fo);
    memcpy(fo.fit, a.fit, sizeof fo.fit);
    if (mmm_time_fit(&m, fs.samples, fs.n, &fo, &res, &err) < 0)
        goto fail_err;
    char note[512];
    if (a.out && mmm_time_machine_write(a.out, a.name, base, &m, mmm_fit_note(note,
                    sizeof note, &res, fs.n, c.machine_path), &err) < 0)
        goto fail_err;

    mmm_fit_report report = {&m, a.fit, &res, fs.runs, fs.n, a.nprogs, a.out};
    if (mmm_writer_new(&w, stdout, c.format, &err) < 0 ||
        mmm_write_fit(w, &report, &err) < 0 ||
        (a.plot && mmm_fit_plot_write(&report, a.plot, &err) < 0))
        goto fail_err;
    rc = cli_flushed("mmm fit: error writing the output\n");
    goto done;
fail_err:
    cli_on_file((void *)&c, NULL, &notes, &err); /* -D's NAME as "mmm fit: " */
done:
    mmm_writer_free(w);
    mmm_fit_result_dispose(&res);
    mmm_fit_samples_dispose(&fs);
    for (i = 0; i < a.ndata; i++)
        mmm_runs_free(runs[i]);
    for (i = 0; i < a.nprogs; i++)
        mmm_program_free(prog[i]);
    mmm_machine_free(base);
    return rc;
}
