/* cmd_scale.c: `mmm scale FILE`: the speedup over p (mmm/scale.h): bounds,
 * simulated makespans and the speedup range for each number of SMs, and
 * Cilkview's picture. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "mmm/scale.h"

static const char scale_help[] =
    "usage: mmm scale FILE [--p LIST|A..B] [--policy NAME|all] [--seed N]\n"
    "                      [--plot OUT.svg|png|pdf] [-D NAME=VALUE]...\n"
    "                      [--machine FILE] [--format text|json|csv]\n\n"
    "The speedup over the number of SMs p.  Above the table: W, S, the\n"
    "parallelism W/S, T1 (the sum of the block costs S(B) + O(B): the makespan on\n"
    "one SM), the critical path (the longest block path by the same costs) and K.\n"
    "Then one row per p: the lower bound max(T1/p, critical path), Graham's bound\n"
    "T1/p + (1 - 1/p) critical path, the Graham-Brent bound (N/p + L)C, the\n"
    "corollary (N/K + L)C, which holds only for p >= K ('-' in the rows where\n"
    "p < K, null in JSON), the makespan of a simulated greedy schedule and the\n"
    "speedup range T1/Graham .. T1/lower bound that every greedy schedule meets.\n"
    "When the program declares a parameter p, each row evaluates it with that p.\n\n"
    "options:\n"
    "  --p LIST             the values of p: integers and ranges A..B separated by\n"
    "                       commas (also -p LIST); default 1, 2, 4, ... up to past\n"
    "                       the parallelism, plus the machine's p\n"
    "  --policy NAME|all    the simulated policy (default fifo; see 'mmm simulate\n"
    "                       --help'); 'all' gives one makespan per policy\n"
    "  --seed N             seed of the random policy (default 1)\n"
    "  --plot OUT           Cilkview's picture: speedup against p with the bound\n"
    "                       band, the simulated speedup and perfect speedup\n"
    "                       (.svg, .png or .pdf)\n"
    "  --max-launches N     give up beyond N launches simulated one by one\n"
    "                       (default 100000000)\n";

typedef struct scale_args {
    cli_common c;
    const char *file;
    const char *plist;
    const char *policy;
    const char *plot;
    uint64_t seed;
    int64_t max_launches;
} scale_args;

/* Options of scale itself; 1 consumed, 0 not ours, -1 usage error. */
static int own_option(scale_args *a, int argc, char **argv, int *i)
{
    static const char *names[] = {"--p", "-p", "--policy", "--plot", "--seed",
                                  "--max-launches"};
    size_t k;
    for (k = 0; k < sizeof names / sizeof names[0]; k++) {
        int missing = 0;
        const char *v = cli_option_value(names[k], argc, argv, i, &missing);
        if (!v && !missing)
            continue;
        if (!v)
            return cli_usage("scale", "%s needs an argument", names[k]), -1;
        switch (k) {
        case 0:
        case 1: a->plist = v; break;
        case 2: a->policy = v; break;
        case 3: a->plot = v; break;
        case 4:
            if (cli_parse_u64(v, &a->seed) < 0)
                return cli_usage("scale", "--seed needs a non-negative integer"), -1;
            break;
        default:
            if (cli_parse_int64(v, &a->max_launches) < 0 || a->max_launches <= 0)
                return cli_usage("scale", "--max-launches needs a positive integer"), -1;
        }
        return 1;
    }
    return 0;
}

static int parse_args(scale_args *a, int argc, char **argv)
{
    int i;
    memset(a, 0, sizeof *a);
    cli_common_init(&a->c, "scale");
    a->policy = "fifo";
    a->seed = 1;
    for (i = 1; i < argc; i++) {
        int r;
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            printf("%s", scale_help);
            cli_print_common_help_except("-p");
            return -1;
        }
        /* -p/--p take a list here: before the common options. */
        if ((r = own_option(a, argc, argv, &i)) < 0)
            return CLI_USAGE;
        if (r > 0)
            continue;
        if ((r = cli_common_option(&a->c, argc, argv, &i)) < 0)
            return CLI_USAGE;
        if (r > 0)
            continue;
        if (argv[i][0] == '-' && argv[i][1] != '\0')
            return cli_usage("scale", "unknown option '%s'", argv[i]);
        if (a->file)
            return cli_usage("scale", "one FILE only ('%s' and '%s')", a->file, argv[i]);
        a->file = argv[i];
    }
    if (!a->file)
        return cli_usage("scale", "missing FILE");
    if (strcmp(a->policy, "all") && !mmm_sim_policy_find(a->policy))
        return cli_usage("scale", "unknown policy '%s' (see mmm simulate --help)",
                         a->policy);
    if (a->plot && !cli_has_suffix(a->plot, ".svg") && !cli_has_suffix(a->plot, ".png") &&
        !cli_has_suffix(a->plot, ".pdf"))
        return cli_usage("scale", "--plot writes .svg, .png or .pdf files, not '%s'",
                         a->plot);
    if (a->plot && !mmm_plot_available())
        return cli_usage("scale", "this build draws no plots (no PLplot)");
    return 0;
}

/* ------------------------------------------------------------------ */
/* Output                                                             */

static void json_num_or_null(cli_json_writer *w, int have, double v)
{
    if (have)
        cli_json_double(w, v);
    else
        cli_json_null(w);
}

static void print_json(const mmm_program *prog, const mmm_speedup *s, int all)
{
    cli_json_writer w;
    size_t i, j;
    cli_json_init(&w, stdout);
    cli_json_begin_object(&w);
    cli_json_key(&w, "program");
    cli_json_string(&w, prog->name);
    cli_json_key(&w, "W");
    cli_json_double(&w, s->W);
    cli_json_key(&w, "S");
    cli_json_double(&w, s->S);
    cli_json_key(&w, "T1");
    cli_json_double(&w, s->T1);
    cli_json_key(&w, "critical_path");
    cli_json_double(&w, s->critical_path);
    cli_json_key(&w, "parallelism");
    cli_json_double(&w, s->parallelism);
    cli_json_key(&w, "K");
    cli_json_int(&w, s->K);
    cli_json_key(&w, "p_dependent");
    cli_json_bool(&w, s->p_dependent);
    cli_json_key(&w, "policy");
    cli_json_string(&w, all ? "all" : s->policies[0]->name);
    cli_json_key(&w, "rows");
    cli_json_begin_array(&w);
    for (i = 0; i < s->nrows; i++) {
        const mmm_speedup_row *r = &s->rows[i];
        cli_json_begin_object_flat(&w);
        cli_json_key(&w, "p");
        cli_json_int(&w, r->p);
        cli_json_key(&w, "lower_bound");
        cli_json_double(&w, r->lower_bound);
        cli_json_key(&w, "graham");
        cli_json_double(&w, r->graham);
        cli_json_key(&w, "graham_brent");
        cli_json_double(&w, r->graham_brent);
        cli_json_key(&w, "corollary");
        json_num_or_null(&w, r->has_corollary, r->corollary);
        cli_json_key(&w, "makespan");
        if (all) {
            cli_json_begin_object_flat(&w);
            for (j = 0; j < s->npolicies; j++) {
                cli_json_key(&w, s->policies[j]->name);
                cli_json_double(&w, r->makespan[j]);
            }
            cli_json_end_object(&w);
        } else {
            cli_json_double(&w, r->makespan[0]);
        }
        cli_json_key(&w, "speedup_min");
        cli_json_double(&w, r->speedup_min);
        cli_json_key(&w, "speedup_max");
        cli_json_double(&w, r->speedup_max);
        cli_json_end_object(&w);
    }
    cli_json_end_array(&w);
    cli_json_end_object(&w);
    cli_json_finish(&w);
}

static void print_csv(const mmm_speedup *s, int all)
{
    size_t i, j;
    printf("p,lower_bound,graham,graham_brent,corollary");
    for (j = 0; j < s->npolicies; j++)
        printf(all ? ",makespan_%s" : ",makespan", s->policies[j]->name);
    printf(",speedup_min,speedup_max\n");
    for (i = 0; i < s->nrows; i++) {
        const mmm_speedup_row *r = &s->rows[i];
        printf("%lld,%.17g,%.17g,%.17g,", (long long)r->p, r->lower_bound, r->graham,
               r->graham_brent);
        if (r->has_corollary)
            printf("%.17g", r->corollary);
        for (j = 0; j < s->npolicies; j++)
            printf(",%.17g", r->makespan[j]);
        printf(",%.17g,%.17g\n", r->speedup_min, r->speedup_max);
    }
}

static int add_num(cli_table *t, double v)
{
    char buf[64];
    return cli_table_add(t, cli_fmt_num(v, buf, sizeof buf));
}

static int print_text(const mmm_program *prog, const char *file, const mmm_speedup *s,
                      int all)
{
    cli_table t;
    char a[64], b[64];
    size_t i, j, ncols = 7 + s->npolicies;
    int rc = 0, any_without = 0;

    printf("program  %s  (%s)\n", prog->name, file);
    printf("policy   %s\n\n", all ? "all" : s->policies[0]->name);
    printf("  W                %s\n", cli_fmt_num(s->W, a, sizeof a));
    printf("  S                %s\n", cli_fmt_num(s->S, a, sizeof a));
    printf("  parallelism W/S  %s\n", cli_fmt_num(s->parallelism, a, sizeof a));
    printf("  T1               %-14s sum of S(B) + O(B) over the blocks: the makespan on one SM\n",
           cli_fmt_num(s->T1, a, sizeof a));
    printf("  critical path    %-14s longest block path by S(B) + O(B); T1 / critical path = %s\n",
           cli_fmt_num(s->critical_path, a, sizeof a),
           cli_fmt_num(s->critical_path > 0 ? s->T1 / s->critical_path : 1, b, sizeof b));
    printf("  K                %-14s largest antichain of blocks: the corollary (N/K + L)C holds for p >= K\n",
           cli_fmt_num((double)s->K, a, sizeof a));
    if (s->p_dependent)
        printf("\n  The program declares p: each row evaluates it with its own p.\n");
    printf("\n");

    cli_table_init(&t, ncols);
    rc |= cli_table_add(&t, "p");
    rc |= cli_table_add(&t, "lower bound");
    rc |= cli_table_add(&t, "Graham");
    rc |= cli_table_add(&t, "Graham-Brent");
    rc |= cli_table_add(&t, "corollary");
    for (j = 0; j < s->npolicies; j++) {
        char h[64];
        snprintf(h, sizeof h, "makespan %s", s->policies[j]->name);
        rc |= cli_table_add(&t, h);
    }
    rc |= cli_table_add(&t, "speedup min");
    rc |= cli_table_add(&t, "speedup max");
    for (i = 0; i < s->nrows; i++) {
        const mmm_speedup_row *r = &s->rows[i];
        rc |= add_num(&t, (double)r->p);
        rc |= add_num(&t, r->lower_bound);
        rc |= add_num(&t, r->graham);
        rc |= add_num(&t, r->graham_brent);
        if (r->has_corollary)
            rc |= add_num(&t, r->corollary);
        else {
            rc |= cli_table_add(&t, "-");
            any_without = 1;
        }
        for (j = 0; j < s->npolicies; j++)
            rc |= add_num(&t, r->makespan[j]);
        snprintf(a, sizeof a, "%.4g", r->speedup_min);
        rc |= cli_table_add(&t, a);
        snprintf(a, sizeof a, "%.4g", r->speedup_max);
        rc |= cli_table_add(&t, a);
    }
    if (rc == 0)
        cli_table_print(&t, stdout, "  ", 0);
    cli_table_dispose(&t);
    if (any_without)
        printf("\n  -: p < K = %lld, where the corollary does not hold.\n", (long long)s->K);
    printf("  speedup min = T1 / Graham, speedup max = T1 / lower bound: every greedy\n"
           "  schedule's speedup T1 / makespan lies between them.\n");
    return rc ? -1 : 0;
}

/* ------------------------------------------------------------------ */

static int policies_of(const scale_args *a, const mmm_sim_policy **pol, size_t *n)
{
    size_t i;
    if (strcmp(a->policy, "all") != 0) {
        pol[0] = mmm_sim_policy_find(a->policy);
        *n = 1;
        return 0;
    }
    *n = mmm_sim_policy_count();
    for (i = 0; i < *n; i++)
        pol[i] = mmm_sim_policy_at(i);
    return 0;
}

#define MAX_POLICIES 32

int cmd_scale(int argc, char **argv)
{
    scale_args a;
    mmm_program *prog = NULL;
    mmm_instance *inst = NULL;
    mmm_override ov[CLI_MAX_DEFS + 1];
    size_t nov = 0, npol = 0, np = 0;
    const mmm_sim_policy *pol[MAX_POLICIES];
    mmm_speedup_options so = MMM_SPEEDUP_OPTIONS_INIT;
    mmm_speedup s;
    int64_t *plist = NULL;
    mmm_error err;
    int rc, all;

    memset(&s, 0, sizeof s);
    if ((rc = parse_args(&a, argc, argv)) != 0)
        return rc < 0 ? CLI_OK : rc;
    if (mmm_sim_policy_count() > MAX_POLICIES)
        return CLI_FAIL;
    if (a.plist && mmm_speedup_parse_p(&plist, &np, a.plist, &err) < 0)
        return cli_usage("scale", "%s", err.message);
    all = strcmp(a.policy, "all") == 0;
    if ((rc = cli_load(&a.c, a.file, 0, &prog, &inst)) != CLI_OK)
        goto done;
    if ((rc = cli_overrides(&a.c, prog, 0, ov, &nov)) != CLI_OK)
        goto done;
    policies_of(&a, pol, &npol);
    so.p = plist;
    so.np = np;
    so.policies = pol;
    so.npolicies = npol;
    so.seed = a.seed;
    so.max_launches = a.max_launches;
    if (mmm_speedup_compute(&s, inst, ov, nov, &so, &err) < 0) {
        cli_print_error(&err);
        rc = CLI_FAIL;
        goto done;
    }
    if (a.c.format == CLI_JSON)
        print_json(prog, &s, all);
    else if (a.c.format == CLI_CSV)
        print_csv(&s, all);
    else if (print_text(prog, a.file, &s, all) < 0) {
        fprintf(stderr, "mmm scale: out of memory\n");
        rc = CLI_FAIL;
    }
    if (rc == CLI_OK && a.plot &&
        mmm_speedup_plot_write(&s, prog->name, a.plot, &err) < 0) {
        cli_print_error(&err);
        rc = CLI_FAIL;
    }
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "mmm scale: error writing the output\n");
        rc = CLI_FAIL;
    }
done:
    mmm_speedup_dispose(&s);
    free(plist);
    mmm_instance_free(inst);
    mmm_program_free(prog);
    return rc;
}
