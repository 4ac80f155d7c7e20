/* cmd_analyze.c: `mmm analyze FILE`: the MMM measures, the Graham–Brent
 * bounds, the critical paths and the per-kernel table. */
#include <stdio.h>
#include <string.h>

#include "cli.h"

static const char analyze_help[] =
    "usage: mmm analyze FILE [-D NAME=VALUE]... [--machine FILE] [-p P]\n"
    "                        [--format text|json|csv] [--max-rows N]\n"
    "                        [--model mmm|tmm|balance|time|all] [--totals]\n\n"
    "Evaluate the program's parameters and compute the Many-core Machine Model\n"
    "measures: W (work), S (span), O (parallelism overhead, (r+w)U per block),\n"
    "N (thread blocks), L (blocks on the longest path), C (max S(B)+O(B)),\n"
    "K (largest antichain), the Graham-Brent bound (N/p + L)C when p is known\n"
    "and its corollary (N/K + L)C (a bound for p >= K only), the critical paths\n"
    "and a per-kernel table.\n\n"
    "options:\n"
    "  --max-rows N         text: show at most N kernels (default 200, 0 = all)\n"
    "  --totals             csv: the program's totals and bounds as rows\n"
    "                       measure,value (W, S, O, N, L, C, K, parallelism, p,\n"
    "                       graham_brent, corollary, corollary_holds_from_p,\n"
    "                       exact) instead of one row per kernel\n"
    "  --model M            mmm (default), tmm (threaded many-core memory model),\n"
    "                       balance (balance principle), time (predicted seconds\n"
    "                       on a real GPU, docs/time.md), all (mmm, tmm and\n"
    "                       balance), or a comma list; tmm, balance and time\n"
    "                       read their machine parameters from --machine FILE\n"
    "                       (dags/machines/, docs/tmm.md)\n";

static void print_path(const mmm_instance *inst, const uint32_t *path,
                       size_t len)
{
    size_t i;
    for (i = 0; i < len; i++) {
        const mmm_kernel_val *k = &inst->kernels[path[i]];
        printf("%s%s", i ? " -> " : "", inst->program->kernels[path[i]].id);
        if (k->repeat != 1)
            printf(" x%lld", (long long)k->repeat);
    }
    printf("\n");
}

static void print_text(const mmm_instance *inst, const mmm_metrics *m,
                       int64_t max_rows)
{
    const mmm_program *prog = inst->program;
    char a[64], b[64], c[64], d[64];
    size_t i;

    printf("program  %s  (%s)\n", prog->name, prog->file);
    if (prog->description[0])
        printf("         %s\n", prog->description);
    printf("params  ");
    cli_print_params(inst);
    printf("\n\nmeasures\n");
    printf("  W  work                      %s\n",
           cli_fmt_exact(m->W, m->W_i, m->exact & MMM_EXACT_W, a, sizeof a));
    printf("  S  span                      %s\n",
           cli_fmt_exact(m->S, m->S_i, m->exact & MMM_EXACT_S, a, sizeof a));
    printf("  O  parallelism overhead      %s\n",
           cli_fmt_exact(m->O, m->O_i, m->exact & MMM_EXACT_O, a, sizeof a));
    printf("  N  thread blocks             %lld\n", (long long)m->N);
    printf("  L  blocks on a longest path  %lld\n", (long long)m->L);
    printf("  C  max S(B) + O(B)           %s\n",
           cli_fmt_exact(m->C, m->C_i, m->exact & MMM_EXACT_C, a, sizeof a));
    printf("  K  largest antichain         %lld  (%s)\n", (long long)m->K,
           m->k_method == MMM_K_FLOW ? "minimum flow" : "series-parallel");
    printf("     parallelism W/S           %s\n",
           cli_fmt_num(m->parallelism, a, sizeof a));
    printf("\nbounds\n");
    if (m->has_p) {
        char pv[48];
        snprintf(pv, sizeof pv, "p = %lld", (long long)m->p);
        printf("  Graham-Brent  (N/p + L)C  %-12s %s\n", pv,
               cli_fmt_num(m->graham_brent, a, sizeof a));
    } else {
        printf("  Graham-Brent  (N/p + L)C  p unknown (use -p P)\n");
    }
    {
        /* The corollary is a bound only on p >= K SMs. */
        char kv[48];
        snprintf(kv, sizeof kv, "p >= K = %lld", (long long)m->K);
        printf("  corollary     (N/K + L)C  %-12s %s%s\n", kv,
               cli_fmt_num(m->corollary, a, sizeof a),
               m->has_p && m->p < m->K ? "  (not a bound at this p < K)" : "");
    }
    printf("\ncritical path (span S)  ");
    print_path(inst, m->span_path, m->span_path_len);
    printf("critical path (blocks L) ");
    print_path(inst, m->l_path, m->l_path_len);

    /* Columns as wide as their widest cell: numbers of any size stay
     * apart.  Ids longer than 32 characters are cut. */
    {
        static const char *head[] = {"kernel", "repeat", "blocks", "N", "W",
                                     "S", "O", "C"};
        cli_table tb;
        size_t shown = 0, j;
        int bad = 0;
        cli_table_init(&tb, 8);
        for (j = 0; j < 8; j++)
            bad |= cli_table_add(&tb, head[j]);
        for (i = 0; i < prog->nkernels; i++) {
            const mmm_kernel_val *k = &inst->kernels[prog->topo[i]];
            char cell[64];
            if (max_rows > 0 && (int64_t)i >= max_rows)
                break;
            snprintf(cell, sizeof cell, "%.32s", prog->kernels[prog->topo[i]].id);
            bad |= cli_table_add(&tb, cell);
            snprintf(cell, sizeof cell, "x%lld", (long long)k->repeat);
            bad |= cli_table_add(&tb, cell);
            snprintf(cell, sizeof cell, "%lld%s", (long long)k->blocks,
                     k->varies ? "*" : "");
            bad |= cli_table_add(&tb, cell);
            snprintf(cell, sizeof cell, "%lld", (long long)k->N);
            bad |= cli_table_add(&tb, cell);
            bad |= cli_table_add(&tb, cli_fmt_exact(k->W, k->W_i, k->exact & MMM_EXACT_W, a, sizeof a));
            bad |= cli_table_add(&tb, cli_fmt_exact(k->S, k->S_i, k->exact & MMM_EXACT_S, b, sizeof b));
            bad |= cli_table_add(&tb, cli_fmt_exact(k->O, k->O_i, k->exact & MMM_EXACT_O, c, sizeof c));
            bad |= cli_table_add(&tb, cli_fmt_exact(k->C, k->C_i, k->exact & MMM_EXACT_C, d, sizeof d));
            shown++;
        }
        printf("\n");
        if (!bad)
            cli_table_print(&tb, stdout, "", 1u);
        else
            printf("(out of memory: no kernel table)\n");
        cli_table_dispose(&tb);
        if (shown < prog->nkernels)
            printf("... %zu more kernels (--max-rows 0 shows all)\n",
                   prog->nkernels - shown);
    }
    for (i = 0; i < prog->nkernels; i++)
        if (inst->kernels[i].varies) {
            printf("(* launches differ: blocks is the largest launch)\n");
            break;
        }
}

/* A CSV number: the exact integer, or the double to 17 digits. */
static char *csv_exact(double v, int64_t vi, unsigned exact, char *buf, size_t size)
{
    if (exact)
        snprintf(buf, size, "%lld", (long long)vi);
    else
        snprintf(buf, size, "%.17g", v);
    return buf;
}

/* --format csv --totals: the program's measures and bounds. */
static void print_csv_totals(const mmm_metrics *m)
{
    char v[32];
    printf("measure,value\n");
    printf("W,%s\n", csv_exact(m->W, m->W_i, m->exact & MMM_EXACT_W, v, sizeof v));
    printf("S,%s\n", csv_exact(m->S, m->S_i, m->exact & MMM_EXACT_S, v, sizeof v));
    printf("O,%s\n", csv_exact(m->O, m->O_i, m->exact & MMM_EXACT_O, v, sizeof v));
    printf("N,%lld\nL,%lld\n", (long long)m->N, (long long)m->L);
    printf("C,%s\n", csv_exact(m->C, m->C_i, m->exact & MMM_EXACT_C, v, sizeof v));
    printf("K,%lld\nparallelism,%.17g\n", (long long)m->K, m->parallelism);
    if (m->has_p)
        printf("p,%lld\ngraham_brent,%.17g\n", (long long)m->p, m->graham_brent);
    else
        printf("p,\ngraham_brent,\n");
    printf("corollary,%.17g\ncorollary_holds_from_p,%lld\nexact,%s\n", m->corollary,
           (long long)m->K, m->lost ? "false" : "true");
}

static void print_csv(const mmm_instance *inst)
{
    const mmm_program *prog = inst->program;
    size_t i;
    printf("id,repeat,blocks,N,L,K,W,S,O,C\n");
    for (i = 0; i < prog->nkernels; i++) {
        const mmm_kernel_val *k = &inst->kernels[i];
        const char *id = prog->kernels[i].id;
        /* ids may hold any character but white space: quote (RFC 4180,
         * a quote doubled) when one would break the row. */
        if (strpbrk(id, ",\"\n\r")) {
            putchar('"');
            for (const char *q = id; *q; q++) {
                if (*q == '"')
                    putchar('"');
                putchar(*q);
            }
            putchar('"');
        } else {
            printf("%s", id);
        }
        {
            char w[32], sp[32], o[32], c[32];
            printf(",%lld,%lld,%lld,%lld,%lld,%s,%s,%s,%s\n",
                   (long long)k->repeat, (long long)k->blocks, (long long)k->N,
                   (long long)k->L, (long long)k->K,
                   csv_exact(k->W, k->W_i, k->exact & MMM_EXACT_W, w, sizeof w),
                   csv_exact(k->S, k->S_i, k->exact & MMM_EXACT_S, sp, sizeof sp),
                   csv_exact(k->O, k->O_i, k->exact & MMM_EXACT_O, o, sizeof o),
                   csv_exact(k->C, k->C_i, k->exact & MMM_EXACT_C, c, sizeof c));
        }
    }
}

int cmd_analyze(int argc, char **argv)
{
    cli_common c;
    const char *file = NULL;
    int64_t max_rows = 200;
    unsigned models = CLI_MODEL_MMM;
    int totals = 0;
    cli_models extra;
    mmm_program *prog = NULL;
    mmm_instance *inst = NULL;
    mmm_metrics m;
    mmm_error err;
    int i, rc;

    memset(&m, 0, sizeof m);
    memset(&extra, 0, sizeof extra);
    cli_common_init(&c, "analyze");
    for (i = 1; i < argc; i++) {
        int r;
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            printf("%s%s", analyze_help, cli_common_help);
            return CLI_OK;
        }
        r = cli_common_option(&c, argc, argv, &i);
        if (r < 0)
            return CLI_USAGE;
        if (r > 0)
            continue;
        if (!strcmp(argv[i], "--max-rows")) {
            if (i + 1 >= argc || cli_parse_int64(argv[++i], &max_rows) < 0 || max_rows < 0)
                return cli_usage("analyze", "--max-rows needs a number >= 0");
        } else if (!strcmp(argv[i], "--totals")) {
            totals = 1;
        } else if (!strcmp(argv[i], "--model")) {
            if (i + 1 >= argc || cli_model_parse(argv[++i], &models) < 0)
                return cli_usage("analyze", "--model must be mmm, tmm, balance, time or all");
        } else if (argv[i][0] == '-' && argv[i][1] != '\0') {
            return cli_usage("analyze", "unknown option '%s'", argv[i]);
        } else if (file) {
            return cli_usage("analyze", "one FILE only ('%s' and '%s')", file, argv[i]);
        } else {
            file = argv[i];
        }
    }
    if (!file)
        return cli_usage("analyze", "missing FILE");
    if (totals && (c.format != CLI_CSV || models != CLI_MODEL_MMM))
        return cli_usage("analyze", "--totals goes with --format csv (and the mmm model)");

    /* The measures, their table and paths need no class values (the
     * other models do): the largest array of a big evaluation saved. */
    if (models == CLI_MODEL_MMM)
        c.instance_flags = MMM_INSTANCE_NO_CLASSES;
    rc = cli_load(&c, file, 0, &prog, &inst);
    if (rc != CLI_OK)
        return rc;
    if (mmm_metrics_compute(&m, inst, 0, &err) < 0) {
        cli_print_error(&err);
        rc = CLI_FAIL;
        goto done;
    }
    cli_note_inexact(prog->file, &m);
    extra.launch = c.launch;
    if ((rc = cli_models_compute(&extra, inst, models)) != CLI_OK)
        goto done;
    if (c.format == CLI_JSON) {
        cli_json_writer w;
        cli_json_init(&w, stdout);
        cli_json_begin_object(&w);
        cli_json_analysis(&w, inst, &m);
        cli_models_json(&w, &extra, inst);
        cli_json_end_object(&w);
        cli_json_finish(&w);
    } else if (c.format == CLI_CSV) {
        if (totals)
            print_csv_totals(&m);
        else if (models == CLI_MODEL_MMM)
            print_csv(inst);
        else
            cli_models_csv(stdout, &extra, inst);
    } else {
        if (models & CLI_MODEL_MMM)
            print_text(inst, &m, max_rows);
        else
            printf("program  %s  (%s)\n", prog->name, prog->file);
        cli_models_text(stdout, &extra, inst, max_rows);
    }
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "mmm analyze: error writing the output\n");
        rc = CLI_FAIL;
    }
done:
    cli_models_dispose(&extra);
    mmm_metrics_dispose(&m);
    mmm_instance_free(inst);
    mmm_program_free(prog);
    return rc;
}
