/* cmd_compare.c: `mmm compare A.xml B.xml`: two programs under the same
 * parameters and machine, each measure side by side with the ratio A/B,
 * and R, the ratio of their running-time bounds (Graham–Brent with p, and
 * the corollary), as the MMM slides compare the naive and the optimized
 * division (mmm_write_comparison prints them). */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"

static const char compare_help[] =
    "usage: mmm compare A.xml B.xml [-D NAME=VALUE]... [--machine FILE]\n"
    "                   [-p P | --corollary] [--time]\n"
    "                   [--format text|json|csv] [--model mmm|tmm|balance|time|all]\n\n"
    "Evaluate two programs with the same -D, --machine and -p and show each\n"
    "MMM measure (W, S, O, N, L, C, K) side by side with the ratio A/B, and\n"
    "R = bound(A)/bound(B) for the Graham-Brent bound (N/p + L)C when p is\n"
    "known and for its corollary (N/K + L)C, a bound for p >= K.  R > 1 means\n"
    "B's running-time estimate is the lower one.  A -D name that only one\n"
    "file declares is ignored for the other (a note says so); a name neither\n"
    "declares is an error.\n\n"
    "options:\n"
    "  --corollary          compare by the corollary only (no p needed)\n"
    "  --time               also the time model's predicted seconds and their\n"
    "                       ratio (machine parameters from --machine,\n"
    "                       docs/time.md)\n"
    "  --model M            also the other models, as mmm analyze --model: each\n"
    "                       program's sections, and the ratio A/B of the TMM's\n"
    "                       T_P (Eq. 2); time is --time (a comma list such as\n"
    "                       tmm,balance; default mmm)\n";

typedef struct side {
    const char *path;
    mmm_program *prog;
    mmm_instance *inst;
    mmm_metrics m;
    mmm_time t;    /* with --time */
    mmm_models extra;   /* --model other than mmm */
} side;

/* ---- the command ---- */

static int load_side(const cli_common *c, side *s, unsigned models, int with_time)
{
    mmm_error err;
    if (cli_load_full(c, s->path, 1, 1, &s->prog, &s->inst, NULL, NULL, NULL) != CLI_OK)
        return CLI_FAIL;
    if (mmm_metrics_compute(&s->m, s->inst, 0, &err) < 0 ||
        (with_time && mmm_models_time(&s->t, s->inst, c->launch, &err) < 0))
        return cli_fail(&err);
    cli_note_inexact(s->prog->file, &s->m);
    if (mmm_models_compute(&s->extra, s->inst,
                           models & ~(MMM_MODEL_MMM | MMM_MODEL_TIME), c->launch,
                           &err) < 0)
        return cli_fail(&err);
    return CLI_OK;
}

typedef struct compare_args {
    cli_common c;
    side s[2];
    const char *file;
    int corollary_only, with_time; /* --time: seconds of both sides */
    unsigned models;
} compare_args;

#define C_(field) offsetof(compare_args, field)
static const cli_opt compare_opts[] = {
    {"--corollary", CLI_FLAG, C_(corollary_only), .bad = NULL},
    {"--time", CLI_FLAG, C_(with_time), .bad = NULL},
    {"--model", CLI_FN, C_(models), "--model must be mmm, tmm, balance, time or all",
     .fn = cli_models},
    {NULL}};

static const cli_cmd compare_cmd = {"compare", compare_help, "", .opts = compare_opts,
                                    .file_word = "A.xml B.xml", .many = 1};

int cmd_compare(int argc, char **argv)
{
    compare_args a = {.models = MMM_MODEL_MMM};
    side *s = a.s;
    mmm_writer *w = NULL;
    mmm_error err;
    int rc, k;

    cli_common_init(&a.c, "compare");
    rc = cli_args(&compare_cmd, &a, &a.c, &a.file, argc, argv);
    if (rc == CLI_OK && a.c.nfiles != 2)
        rc = a.c.nfiles < 2 ? cli_usage("compare", "needs two files A.xml B.xml")
                            : cli_usage("compare", "two files only ('%s' is a third)",
                                        a.c.files[2]);
    for (k = 0; k < 2 && rc == CLI_OK; k++)
        s[k].path = a.c.files[k];
    if (rc == CLI_OK && a.corollary_only && a.c.has_p)
        rc = cli_usage("compare", "-p and --corollary exclude each other");
    if (a.models & MMM_MODEL_TIME)
        a.with_time = 1; /* --model time is --time: one time section */
    if (rc < 0)
        return CLI_OK;
    if (rc != CLI_OK)
        return rc;
    if ((rc = load_side(&a.c, &s[0], a.models, a.with_time)) == CLI_OK &&
        (rc = load_side(&a.c, &s[1], a.models, a.with_time)) == CLI_OK &&
        (mmm_overrides_declared((const mmm_program *[]){s[0].prog, s[1].prog}, 2,
                                a.c.defs, a.c.ndefs, &err) == 0 || (rc = cli_fail(&err)) == 0)) {
        mmm_comparison_side sa = {s[0].inst, &s[0].m, a.with_time ? &s[0].t : NULL,
                                  &s[0].extra};
        mmm_comparison_side sb = {s[1].inst, &s[1].m, a.with_time ? &s[1].t : NULL,
                                  &s[1].extra};
        if (mmm_writer_new(&w, stdout, a.c.format, &err) < 0 ||
            mmm_write_comparison(w, &sa, &sb, a.corollary_only, &err) < 0)
            rc = cli_fail(&err);
        else
            rc = cli_flushed("mmm compare: error: cannot write the output\n");
    }
    mmm_writer_free(w);
    for (k = 0; k < 2; k++) {
        mmm_models_dispose(&s[k].extra);
        mmm_metrics_dispose(&s[k].m);
        mmm_time_dispose(&s[k].t);
        mmm_instance_free(s[k].inst);
        mmm_program_free(s[k].prog);
    }
    return rc;
}
