/* cmd_compare.c: `mmm compare A.xml B.xml`: two programs under the same
 * parameters and machine, each measure side by side with the ratio A/B,
 * and R, the ratio of their running-time bounds (Graham–Brent with p, and
 * the corollary), as the MMM slides compare the naive and the optimized
 * division. */
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
    cli_models extra;   /* --model other than mmm */
} side;

/* --time: predicted seconds of both sides. */
static int with_time;

static double ratio(double a, double b)
{
    return a / b; /* 0/0 and x/0 print as null / inf: said, not hidden */
}

/* The -D names must be declared by at least one of the two files. */
static int check_defs(const cli_common *c, const side *a, const side *b)
{
    size_t i;
    for (i = 0; i < c->ndefs; i++) {
        char name[256];
        size_t len = (size_t)(strchr(c->def_name[i], '=') - c->def_name[i]);
        if (len >= sizeof name)
            len = sizeof name - 1;
        memcpy(name, c->def_name[i], len);
        name[len] = '\0';
        if (mmm_program_find_param(a->prog, name) < 0 &&
            mmm_program_find_param(b->prog, name) < 0) {
            fprintf(stderr, "error: -D %s: neither %s nor %s declares a "
                    "parameter '%s'\n", name, a->prog->file, b->prog->file, name);
            return CLI_FAIL;
        }
    }
    return CLI_OK;
}

static int gb_known(const side *a, const side *b, int corollary_only)
{
    return !corollary_only && a->m.has_p && b->m.has_p;
}

/* ---- text ---- */

static void print_params(const char *tag, const side *s)
{
    printf("%-10s", tag);
    cli_print_params(s->inst);
    printf("\n");
}

static void row(const char *label, double a, double b)
{
    char x[32], y[32], z[32];
    printf("%-30s %16s %16s %14s\n", label, cli_fmt_num(a, x, sizeof x),
           cli_fmt_num(b, y, sizeof y), cli_fmt_num(ratio(a, b), z, sizeof z));
}

static void print_text(const side *a, const side *b, int corollary_only)
{
    char label[64], x[32];
    printf("A          %s  (%s)\n", a->prog->name, a->prog->file);
    printf("B          %s  (%s)\n", b->prog->name, b->prog->file);
    print_params("params A", a);
    print_params("params B", b);
    printf("\n%-30s %16s %16s %14s\n", "", "A", "B", "A/B");
    row("W  work", a->m.W, b->m.W);
    row("S  span", a->m.S, b->m.S);
    row("O  parallelism overhead", a->m.O, b->m.O);
    row("N  thread blocks", (double)a->m.N, (double)b->m.N);
    row("L  blocks on a longest path", (double)a->m.L, (double)b->m.L);
    row("C  max S(B) + O(B)", a->m.C, b->m.C);
    row("K  largest antichain", (double)a->m.K, (double)b->m.K);
    if (gb_known(a, b, corollary_only)) {
        if (a->m.p == b->m.p)
            snprintf(label, sizeof label, "Graham-Brent (N/p + L)C, p=%lld",
                     (long long)a->m.p);
        else
            snprintf(label, sizeof label, "Graham-Brent, p=%lld vs %lld",
                     (long long)a->m.p, (long long)b->m.p);
        row(label, a->m.graham_brent, b->m.graham_brent);
    }
    row("corollary (N/K + L)C, p >= K", a->m.corollary, b->m.corollary);
    if (with_time)
        row("time model, seconds", a->t.seconds, b->t.seconds);
    printf("\n");
    if (gb_known(a, b, corollary_only))
        printf("R (Graham-Brent) = %s: %s\n",
               cli_fmt_num(ratio(a->m.graham_brent, b->m.graham_brent), x, sizeof x),
               a->m.graham_brent > b->m.graham_brent ? "B has the lower bound"
               : a->m.graham_brent < b->m.graham_brent ? "A has the lower bound"
                                                       : "equal bounds");
    else if (!corollary_only)
        printf("R (Graham-Brent): p unknown (use -p P)\n");
    printf("R (corollary, each for p >= its K) = %s: %s\n",
           cli_fmt_num(ratio(a->m.corollary, b->m.corollary), x, sizeof x),
           a->m.corollary > b->m.corollary ? "B has the lower bound"
           : a->m.corollary < b->m.corollary ? "A has the lower bound"
                                             : "equal bounds");
    if (with_time)
        printf("R (time)         = %s: %s\n",
               cli_fmt_num(ratio(a->t.seconds, b->t.seconds), x, sizeof x),
               a->t.seconds > b->t.seconds   ? "B is predicted faster"
               : a->t.seconds < b->t.seconds ? "A is predicted faster"
                                             : "equal predicted times");
}

/* ---- JSON and CSV ---- */

static void print_json(const side *a, const side *b, int corollary_only)
{
    cli_json_writer w;
    cli_json_init(&w, stdout);
    cli_json_begin_object(&w);
    cli_json_key(&w, "a");
    cli_json_begin_object(&w);
    cli_json_analysis(&w, a->inst, &a->m);
    if (with_time)
        cli_time_json(&w, &a->t, a->inst);
    cli_models_json(&w, &a->extra, a->inst);
    cli_json_end_object(&w);
    cli_json_key(&w, "b");
    cli_json_begin_object(&w);
    cli_json_analysis(&w, b->inst, &b->m);
    if (with_time)
        cli_time_json(&w, &b->t, b->inst);
    cli_models_json(&w, &b->extra, b->inst);
    cli_json_end_object(&w);
    cli_json_key(&w, "ratios");
    cli_json_begin_object(&w);
    cli_json_key(&w, "W"); cli_json_double(&w, ratio(a->m.W, b->m.W));
    cli_json_key(&w, "S"); cli_json_double(&w, ratio(a->m.S, b->m.S));
    cli_json_key(&w, "O"); cli_json_double(&w, ratio(a->m.O, b->m.O));
    cli_json_key(&w, "N"); cli_json_double(&w, ratio((double)a->m.N, (double)b->m.N));
    cli_json_key(&w, "L"); cli_json_double(&w, ratio((double)a->m.L, (double)b->m.L));
    cli_json_key(&w, "C"); cli_json_double(&w, ratio(a->m.C, b->m.C));
    cli_json_key(&w, "K"); cli_json_double(&w, ratio((double)a->m.K, (double)b->m.K));
    if (gb_known(a, b, corollary_only)) {
        cli_json_key(&w, "graham_brent");
        cli_json_double(&w, ratio(a->m.graham_brent, b->m.graham_brent));
    }
    cli_json_key(&w, "corollary");
    cli_json_double(&w, ratio(a->m.corollary, b->m.corollary));
    if (with_time) {
        cli_json_key(&w, "time");
        cli_json_double(&w, ratio(a->t.seconds, b->t.seconds));
    }
    if (a->extra.which & CLI_MODEL_TMM) {
        cli_json_key(&w, "tmm_TP");
        cli_json_double(&w, ratio(a->extra.tmm.program.TP_global,
                              b->extra.tmm.program.TP_global));
    }
    cli_json_end_object(&w);
    cli_json_end_object(&w);
    cli_json_finish(&w);
}

static void csv_row(const char *name, double a, double b)
{
    printf("%s,%.17g,%.17g,%.17g\n", name, a, b, ratio(a, b));
}

static void print_csv(const side *a, const side *b, int corollary_only)
{
    printf("measure,a,b,ratio\n");
    csv_row("W", a->m.W, b->m.W);
    csv_row("S", a->m.S, b->m.S);
    csv_row("O", a->m.O, b->m.O);
    csv_row("N", (double)a->m.N, (double)b->m.N);
    csv_row("L", (double)a->m.L, (double)b->m.L);
    csv_row("C", a->m.C, b->m.C);
    csv_row("K", (double)a->m.K, (double)b->m.K);
    if (gb_known(a, b, corollary_only))
        csv_row("graham_brent", a->m.graham_brent, b->m.graham_brent);
    csv_row("corollary", a->m.corollary, b->m.corollary);
    if (with_time)
        csv_row("time_s", a->t.seconds, b->t.seconds);
    if (a->extra.which & CLI_MODEL_TMM)
        csv_row("tmm_TP", a->extra.tmm.program.TP_global, b->extra.tmm.program.TP_global);
}

/* The other models' sections of both programs, and their ratios. */
static void print_models_text(const side *a, const side *b)
{
    char x[64];
    if (!(a->extra.which & ~CLI_MODEL_MMM))
        return;
    printf("\n==== A: %s ====\n", a->prog->name);
    cli_models_text(stdout, &a->extra, a->inst, 20);
    printf("\n==== B: %s ====\n", b->prog->name);
    cli_models_text(stdout, &b->extra, b->inst, 20);
    printf("\n");
    if (a->extra.which & CLI_MODEL_TMM)
        printf("R (TMM T_P, Eq. 2)  = %s\n",
               cli_fmt_num(ratio(a->extra.tmm.program.TP_global,
                                 b->extra.tmm.program.TP_global), x, sizeof x));
}

/* ---- the command ---- */

static int load_side(const cli_common *c, side *s, unsigned models)
{
    mmm_error err;
    if (cli_load(c, s->path, 1, &s->prog, &s->inst) != CLI_OK)
        return CLI_FAIL;
    if (mmm_metrics_compute(&s->m, s->inst, 0, &err) < 0 ||
        (with_time && cli_time_compute(&s->t, s->inst, c->launch, &err) < 0)) {
        cli_print_error(&err);
        return CLI_FAIL;
    }
    cli_note_inexact(s->prog->file, &s->m);
    s->extra.launch = c->launch;
    return cli_models_compute(&s->extra, s->inst,
                              models & ~(CLI_MODEL_MMM | CLI_MODEL_TIME));
}

static int parse_args(cli_common *c, int *corollary_only, unsigned *models,
                      side *s, int argc, char **argv)
{
    int i, nfiles = 0;
    for (i = 1; i < argc; i++) {
        int r;
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            printf("%s%s", compare_help, cli_common_help);
            return -1;
        }
        r = cli_common_option(c, argc, argv, &i);
        if (r < 0)
            return CLI_USAGE;
        if (r > 0)
            continue;
        if (!strcmp(argv[i], "--corollary"))
            *corollary_only = 1;
        else if (!strcmp(argv[i], "--time"))
            with_time = 1;
        else if (!strcmp(argv[i], "--model")) {
            if (i + 1 >= argc || cli_model_parse(argv[++i], models) < 0)
                return cli_usage("compare",
                                 "--model must be mmm, tmm, balance, time or all");
        }
        else if (argv[i][0] == '-' && argv[i][1] != '\0')
            return cli_usage("compare", "unknown option '%s'", argv[i]);
        else if (nfiles == 2)
            return cli_usage("compare", "two files only ('%s' is a third)", argv[i]);
        else
            s[nfiles++].path = argv[i];
    }
    if (nfiles < 2)
        return cli_usage("compare", "needs two files A.xml B.xml");
    if (*corollary_only && c->has_p)
        return cli_usage("compare", "-p and --corollary exclude each other");
    return CLI_OK;
}

int cmd_compare(int argc, char **argv)
{
    cli_common c;
    side s[2];
    int corollary_only = 0, rc, k;
    unsigned models = CLI_MODEL_MMM;

    memset(s, 0, sizeof s);
    cli_common_init(&c, "compare");
    rc = parse_args(&c, &corollary_only, &models, s, argc, argv);
    if (models & CLI_MODEL_TIME)
        with_time = 1; /* --model time is --time: one time section */
    if (rc < 0)
        return CLI_OK;
    if (rc != CLI_OK)
        return rc;
    if ((rc = load_side(&c, &s[0], models)) == CLI_OK &&
        (rc = load_side(&c, &s[1], models)) == CLI_OK &&
        (rc = check_defs(&c, &s[0], &s[1])) == CLI_OK) {
        if (c.format == CLI_JSON)
            print_json(&s[0], &s[1], corollary_only);
        else if (c.format == CLI_CSV)
            print_csv(&s[0], &s[1], corollary_only);
        else {
            print_text(&s[0], &s[1], corollary_only);
            print_models_text(&s[0], &s[1]);
        }
        if (fflush(stdout) != 0 || ferror(stdout)) {
            fprintf(stderr, "mmm compare: error: cannot write the output\n");
            rc = CLI_FAIL;
        }
    }
    for (k = 0; k < 2; k++) {
        cli_models_dispose(&s[k].extra);
        mmm_metrics_dispose(&s[k].m);
        mmm_time_dispose(&s[k].t);
        mmm_instance_free(s[k].inst);
        mmm_program_free(s[k].prog);
    }
    return rc;
}
