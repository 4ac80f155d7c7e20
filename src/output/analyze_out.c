/* analyze_out.c: the output of `mmm analyze` (mmm_write_analysis): the
 * measures, the Graham-Brent bounds, the critical paths and the per-kernel
 * table in text, JSON and CSV, then the other models' sections. */
#include <stdio.h>
#include <string.h>

#include "output/output_internal.h"

void mmm__print_params(FILE *f, const mmm_instance *inst)
{
    const mmm_program *prog = inst->program;
    size_t shown = 0, from_machine = 0;
    for (size_t i = 0; i < prog->nparams; i++) {
        char v[64];
        const char *nm = prog->params[i].name;
        if (prog->params[i].from_machine && strcmp(nm, "U") &&
            strcmp(nm, "Z") && strcmp(nm, "p")) {
            from_machine++;
            continue;
        }
        fprintf(f, " %s=%s", nm,
                mmm_value_format(inst->values[i], 0, v, sizeof v));
        shown++;
    }
    if (!shown && !from_machine)
        fprintf(f, " (none)");
    if (from_machine)
        fprintf(f, "  (and %zu more constants of the machine file)",
                from_machine);
}

/* The copies of the program (no blocks: the table shows zeros), with
 * their kind and bytes per call. */
static void print_copies(FILE *f, const mmm_instance *inst, int64_t max_rows)
{
    const mmm_program *prog = inst->program;
    size_t n = 0;
    for (size_t i = 0; i < prog->nkernels; i++) {
        size_t k = prog->topo[i];
        const mmm_kernel *kr = &prog->kernels[k];
        if (mmm_kernel_copy(prog, k) == MMM_COPY_NONE)
            continue;
        if (max_rows > 0 && (int64_t)n >= max_rows) {
            fprintf(f, "  ... more copies (--max-rows 0 shows all)\n");
            break;
        }
        if (n++ == 0)
            fprintf(f, "copies (no thread blocks: the MMM's measures count "
                       "none of their bytes)\n");
        fprintf(f, "  %.32s  %s  %lld bytes per call\n", kr->id,
                mmm_copy_kind_name(mmm_kernel_copy(prog, k)),
                (long long)mmm_instance_copy_bytes(inst, k));
    }
}

static void print_text(FILE *f, const mmm_instance *inst, const mmm_metrics *m,
                       int64_t max_rows)
{
    const mmm_program *prog = inst->program;
    char a[64], b[64], c[64], d[64];
    size_t i;

    fprintf(f, "program  %s  (%s)\n", prog->name, prog->file);
    if (prog->description[0])
        fprintf(f, "         %s\n", prog->description);
    fprintf(f, "params  ");
    mmm__print_params(f, inst);
    if (mmm_program_cost_unit(prog)) /* a task graph's */
        fprintf(f, "\ncosts    in %s (a task graph: a task is one block of its cost, no "
                   "memory traffic)", mmm_program_cost_unit(prog));
    fprintf(f, "\n\nmeasures\n");
    fprintf(f, "  W  work                      %s\n",
           mmm__fmt_measure(m->W, m->W_i, m->exact & MMM_EXACT_W, a, sizeof a));
    fprintf(f, "  S  span                      %s\n",
           mmm__fmt_measure(m->S, m->S_i, m->exact & MMM_EXACT_S, a, sizeof a));
    fprintf(f, "  O  parallelism overhead      %s\n",
           mmm__fmt_measure(m->O, m->O_i, m->exact & MMM_EXACT_O, a, sizeof a));
    fprintf(f, "  N  thread blocks             %lld\n", (long long)m->N);
    fprintf(f, "  L  blocks on a longest path  %lld\n", (long long)m->L);
    fprintf(f, "  C  max S(B) + O(B)           %s\n",
           mmm__fmt_measure(m->C, m->C_i, m->exact & MMM_EXACT_C, a, sizeof a));
    fprintf(f, "  K  largest antichain         %lld  (%s)\n", (long long)m->K,
           m->k_method == MMM_K_FLOW ? "minimum flow" : "series-parallel");
    fprintf(f, "     parallelism W/S           %s  (threads: work over span)\n",
           mmm__fmt_num(m->parallelism, a, sizeof a));
    if (m->has_blocks)
        fprintf(f, "     parallelism T1/Tinf       %s  (blocks: T1 = %s, Tinf = %s; the "
                   "largest speedup on SMs)\n", mmm__fmt_num(m->parallelism_blocks, a, sizeof a),
                mmm__fmt_num(m->T1, b, sizeof b), mmm__fmt_num(m->T_inf, c, sizeof c));
    fprintf(f, "\nbounds\n");
    if (m->has_p) {
        char pv[48];
        snprintf(pv, sizeof pv, "p = %lld", (long long)m->p);
        fprintf(f, "  Graham-Brent  (N/p + L)C  %-12s %s\n", pv,
               mmm__fmt_num(m->graham_brent, a, sizeof a));
    } else {
        fprintf(f, "  Graham-Brent  (N/p + L)C  p unknown (use -p P)\n");
    }
    {
        /* The corollary is a bound only on p >= K SMs. */
        char kv[48];
        snprintf(kv, sizeof kv, "p >= K = %lld", (long long)m->K);
        fprintf(f, "  corollary     (N/K + L)C  %-12s %s%s\n", kv,
               mmm__fmt_num(m->corollary, a, sizeof a),
               m->has_p && m->p < m->K ? "  (not a bound at this p < K)" : "");
    }
    fprintf(f, "\ncritical path (span S)  ");
    mmm__print_kernel_path(f, inst, m->span_path, m->span_path_len);
    fprintf(f, "critical path (blocks L) ");
    mmm__print_kernel_path(f, inst, m->l_path, m->l_path_len);

    /* Columns as wide as their widest cell: numbers of any size stay
     * apart.  Ids longer than 32 characters are cut. */
    {
        static const char *head[] = {"kernel", "repeat", "blocks", "N", "W",
                                     "S", "O", "C"};
        mmm__table tb;
        size_t shown = 0, j;
        int bad = 0;
        mmm__table_init(&tb, 8);
        for (j = 0; j < 8; j++)
            bad |= mmm__table_add(&tb, head[j]);
        for (i = 0; i < prog->nkernels; i++) {
            const mmm_kernel_val *k = &inst->kernels[prog->topo[i]];
            char cell[64];
            if (max_rows > 0 && (int64_t)i >= max_rows)
                break;
            snprintf(cell, sizeof cell, "%.32s", prog->kernels[prog->topo[i]].id);
            bad |= mmm__table_add(&tb, cell);
            snprintf(cell, sizeof cell, "x%lld", (long long)k->repeat);
            bad |= mmm__table_add(&tb, cell);
            snprintf(cell, sizeof cell, "%lld%s", (long long)k->blocks,
                     k->varies ? "*" : "");
            bad |= mmm__table_add(&tb, cell);
            snprintf(cell, sizeof cell, "%lld", (long long)k->N);
            bad |= mmm__table_add(&tb, cell);
            bad |= mmm__table_add(&tb, mmm__fmt_measure(k->W, k->W_i, k->exact & MMM_EXACT_W, a, sizeof a));
            bad |= mmm__table_add(&tb, mmm__fmt_measure(k->S, k->S_i, k->exact & MMM_EXACT_S, b, sizeof b));
            bad |= mmm__table_add(&tb, mmm__fmt_measure(k->O, k->O_i, k->exact & MMM_EXACT_O, c, sizeof c));
            bad |= mmm__table_add(&tb, mmm__fmt_measure(k->C, k->C_i, k->exact & MMM_EXACT_C, d, sizeof d));
            shown++;
        }
        fprintf(f, "\n");
        if (!bad)
            mmm__table_print(&tb, f, "", 1u);
        else
            fprintf(f, "(out of memory: no kernel table)\n");
        mmm__table_dispose(&tb);
        if (shown < prog->nkernels)
            fprintf(f, "... %zu more kernels (--max-rows 0 shows all)\n",
                   prog->nkernels - shown);
    }
    for (i = 0; i < prog->nkernels; i++)
        if (inst->kernels[i].varies) {
            fprintf(f, "(* launches differ: blocks is the largest launch)\n");
            break;
        }
    print_copies(f, inst, max_rows);
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
static void print_csv_totals(FILE *f, const mmm_metrics *m)
{
    char v[32];
    fprintf(f, "measure,value\n");
    fprintf(f, "W,%s\n", csv_exact(m->W, m->W_i, m->exact & MMM_EXACT_W, v, sizeof v));
    fprintf(f, "S,%s\n", csv_exact(m->S, m->S_i, m->exact & MMM_EXACT_S, v, sizeof v));
    fprintf(f, "O,%s\n", csv_exact(m->O, m->O_i, m->exact & MMM_EXACT_O, v, sizeof v));
    fprintf(f, "N,%lld\nL,%lld\n", (long long)m->N, (long long)m->L);
    fprintf(f, "C,%s\n", csv_exact(m->C, m->C_i, m->exact & MMM_EXACT_C, v, sizeof v));
    fprintf(f, "K,%lld\nparallelism,%.17g\nparallelism_threads,%.17g\n", (long long)m->K,
            m->parallelism, m->parallelism);
    if (m->has_blocks)
        fprintf(f, "T1,%.17g\nT_inf,%.17g\nparallelism_blocks,%.17g\n", m->T1, m->T_inf,
                m->parallelism_blocks);
    if (m->has_p)
        fprintf(f, "p,%lld\ngraham_brent,%.17g\n", (long long)m->p, m->graham_brent);
    else
        fprintf(f, "p,\ngraham_brent,\n");
    fprintf(f, "corollary,%.17g\ncorollary_holds_from_p,%lld\nexact,%s\n", m->corollary,
           (long long)m->K, m->lost ? "false" : "true");
}

static void print_csv(FILE *f, const mmm_instance *inst)
{
    const mmm_program *prog = inst->program;
    size_t i;
    fprintf(f, "id,repeat,blocks,N,L,K,W,S,O,C\n");
    for (i = 0; i < prog->nkernels; i++) {
        const mmm_kernel_val *k = &inst->kernels[i];
        const char *id = prog->kernels[i].id;
        /* ids may hold any character but white space: quoted (RFC 4180,
         * a quote doubled) when one would break the row. */
        mmm__csv_id(f, id);
        {
            char w[32], sp[32], o[32], c[32];
            fprintf(f, ",%lld,%lld,%lld,%lld,%lld,%s,%s,%s,%s\n",
                   (long long)k->repeat, (long long)k->blocks, (long long)k->N,
                   (long long)k->L, (long long)k->K,
                   csv_exact(k->W, k->W_i, k->exact & MMM_EXACT_W, w, sizeof w),
                   csv_exact(k->S, k->S_i, k->exact & MMM_EXACT_S, sp, sizeof sp),
                   csv_exact(k->O, k->O_i, k->exact & MMM_EXACT_O, o, sizeof o),
                   csv_exact(k->C, k->C_i, k->exact & MMM_EXACT_C, c, sizeof c));
        }
    }
}

int mmm_write_analysis(mmm_writer *w, const mmm_instance *inst,
                       const mmm_metrics *m, const mmm_models *models,
                       int64_t max_rows, int totals, mmm_error *err)
{
    static const mmm_models mmm_only = {.which = MMM_MODEL_MMM};
    int rc = mmm__writer_check(w, MMM__ALL_FORMATS, "mmm_write_analysis", err);
    if (rc < 0)
        return rc;
    if (!inst || !m)
        return mmm_error_set(err, MMM_EINVAL, NULL, 0,
                             "mmm_write_analysis: no instance or metrics");
    if (!models)
        models = &mmm_only;
    if (w->format == MMM_FORMAT_JSON) {
        mmm__json_begin_object(&w->json);
        mmm__json_analysis(&w->json, inst, m);
        mmm__models_json(&w->json, models, inst);
        mmm__json_end_object(&w->json);
        mmm__json_finish(&w->json);
    } else if (w->format == MMM_FORMAT_CSV) {
        if (totals)
            print_csv_totals(w->f, m);
        else if (models->which == MMM_MODEL_MMM)
            print_csv(w->f, inst);
        else
            mmm__models_csv(w->f, models, inst);
    } else {
        if (models->which & MMM_MODEL_MMM)
            print_text(w->f, inst, m, max_rows);
        else
            fprintf(w->f, "program  %s  (%s)\n", inst->program->name,
                    inst->program->file);
        mmm__models_text(w->f, models, inst, max_rows);
    }
    return MMM_OK;
}
