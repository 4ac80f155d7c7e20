/* tmm_out.c: the TMM and balance-principle sections of `mmm analyze
 * --model tmm|balance|all` in text, JSON and CSV (docs/tmm.md). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "output/output_internal.h"

/* The models mmm_models_parse knows. */
static const struct {
    const char *name;
    unsigned bits;
} names[] = {{"mmm", MMM_MODEL_MMM},
             {"tmm", MMM_MODEL_TMM},
             {"balance", MMM_MODEL_BALANCE},
             {"time", MMM_MODEL_TIME},
             {"all", MMM_MODEL_ALL}};

static int model_item(const char *item, size_t len, void *payload)
{
    unsigned *bits = payload;
    int found = 0;
    size_t i;
    for (i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strlen(names[i].name) == len && !strncmp(item, names[i].name, len)) {
            *bits |= names[i].bits;
            found = 1;
        }
    return found ? 0 : -1;
}

int mmm_models_parse(unsigned *out, const char *s)
{
    unsigned bits = 0;
    const char *start = s;
    /* A comma list: "tmm,balance". */
    if (!out || !s || !*s)
        return MMM_EINVAL;
    for (;; s++) {
        if (*s != '\0' && *s != ',')
            continue;
        if (model_item(start, (size_t)(s - start), &bits) != 0)
            return MMM_EINVAL;
        if (*s == '\0')
            break;
        start = s + 1;
    }
    *out = bits;
    return MMM_OK;
}

int mmm_models_compute(mmm_models *m, const mmm_instance *inst,
                       unsigned which, mmm_launch launch, mmm_error *err)
{
    int rc = MMM_OK;
    if (!m || !inst)
        return mmm_error_set(err, MMM_EINVAL, NULL, 0,
                             "mmm_models_compute: no models or no instance");
    memset(m, 0, sizeof *m);
    m->which = which;
    if ((which & MMM_MODEL_TMM) && (rc = mmm_tmm_compute(&m->tmm, inst, err)) < 0)
        goto fail;
    if ((which & MMM_MODEL_BALANCE) &&
        (rc = mmm_balance_compute(&m->balance, inst, err)) < 0)
        goto fail;
    if ((which & MMM_MODEL_TIME) &&
        (rc = mmm_models_time(&m->time, inst, launch, err)) < 0)
        goto fail;
    return MMM_OK;
fail:
    mmm_models_dispose(m);
    return rc;
}

void mmm_models_dispose(mmm_models *m)
{
    if (!m)
        return;
    mmm_tmm_dispose(&m->tmm);
    mmm_balance_dispose(&m->balance);
    mmm_time_dispose(&m->time);
}

/* ------------------------------------------------------------------ */
/* Text                                                               */

static const char *limit_words(mmm_tmm_limit l)
{
    switch (l) {
    case MMM_TMM_LIMIT_X: return "the hardware limit X";
    case MMM_TMM_LIMIT_MEMORY: return "fast memory, Z/(Q*shared)";
    case MMM_TMM_LIMIT_THREADS: return "the threads launched, /P";
    case MMM_TMM_LIMIT_NONE: break;
    }
    return "no threads";
}

static void tmm_text(FILE *f, const mmm_tmm *t, const mmm_instance *inst,
                     int64_t max_rows)
{
    const mmm_program *prog = inst->program;
    const mmm_tmm_cost *c = &t->program;
    const mmm_tmm_machine *mc = &t->machine;
    char a[64], b[64], d[64], e[64], g[64], h[64];
    size_t i, width = mmm__id_width(prog);

    fprintf(f, "\nTMM (threaded many-core memory model)\n");
    fprintf(f, "  machine  L=%s P=%s C=%s Z=%s Q=%s X=%s\n",
            mmm__fmt_num(mc->L, a, sizeof a), mmm__fmt_num(mc->P, b, sizeof b),
            mmm__fmt_num(mc->C, d, sizeof d), mmm__fmt_num(mc->Z, e, sizeof e),
            mmm__fmt_num(mc->Q, g, sizeof g), mmm__fmt_num(mc->X, h, sizeof h));
    fprintf(f, "  T1    work                        %s\n", mmm__fmt_num(c->T1, a, sizeof a));
    fprintf(f, "  Tinf  span                        %s\n", mmm__fmt_num(c->Tinf, a, sizeof a));
    fprintf(f, "  M     memory transactions         %s  (%s words)\n",
            mmm__fmt_num(c->M, a, sizeof a), mmm__fmt_num(c->words, b, sizeof b));
    {
        /* One launch, or X itself: the limit sets T.  Otherwise T is a mean
         * over launches whose limits may differ. */
        int same = 1;
        for (i = 0; i < t->nkernels; i++)
            if (t->kernels[i].T > 0 &&
                (inst->kernels[i].varies || t->kernels[i].T != c->T))
                same = 0;
        if (same || (c->limit == MMM_TMM_LIMIT_X && c->T == mc->X))
            fprintf(f, "  T     threads per core            %s  (set by %s)\n",
                    mmm__fmt_num(c->T, a, sizeof a), limit_words(c->limit));
        else
            fprintf(f, "  T     threads per core            %s  (a mean over the launches, "
                       "weighted by their transactions; the launch with the largest "
                       "latency term is limited by %s)\n",
                    mmm__fmt_num(c->T, a, sizeof a), limit_words(c->limit));
    }
    fprintf(f, "  T_P   Eq. (2) on the totals       %s  = max(T1/P %s, Tinf %s, M*L/(T*P) %s): %s\n",
            mmm__fmt_num(c->TP_global, a, sizeof a), mmm__fmt_num(c->work_term, b, sizeof b),
            mmm__fmt_num(c->span_term, d, sizeof d), mmm__fmt_num(c->latency_term, e, sizeof e),
            mmm_tmm_term_name(c->dominant));
    fprintf(f, "  T_P   longest kernel path         %s  (sum of per-kernel T_P)\n",
            mmm__fmt_num(c->TP, a, sizeof a));
    fprintf(f, "  PRAM  max(T1/P, Tinf)             %s\n", mmm__fmt_num(c->pram, a, sizeof a));
    fprintf(f, "  S_P   speedup T1/T_P, Eq. (3)     %s  (of P = %s)\n",
            mmm__fmt_num(c->speedup, a, sizeof a), mmm__fmt_num(mc->P, b, sizeof b));
    fprintf(f, "  T*    M*L/T1, latency hidden from %s threads per core: %s\n",
            mmm__fmt_num(c->Tstar, a, sizeof a),
            c->latency_term <= c->work_term ? "T >= T*, the PRAM range"
                                            : "T < T*, latency-bound");
    fprintf(f, "  critical path (T_P)  ");
    mmm__print_kernel_path(f, inst, t->path, t->path_len);

    fprintf(f, "\n%-*s %8s %12s %12s %12s %10s %12s %12s  %s\n", (int)width,
            "kernel", "repeat", "T1", "Tinf", "M", "T", "T_P", "T*", "dominant");
    for (i = 0; i < prog->nkernels; i++) {
        uint32_t k = prog->topo[i];
        const mmm_tmm_cost *kc = &t->kernels[k];
        char rep[32];
        if (mmm__rows_done(f, i, prog->nkernels, max_rows))
            break;
        snprintf(rep, sizeof rep, "x%lld", (long long)inst->kernels[k].repeat);
        fprintf(f, "%-*.*s %8s %12s %12s %12s %10s %12s %12s  %s\n", (int)width,
                (int)width, prog->kernels[k].id, rep,
                mmm__fmt_num(kc->T1, a, sizeof a), mmm__fmt_num(kc->Tinf, b, sizeof b),
                mmm__fmt_num(kc->M, d, sizeof d), mmm__fmt_num(kc->T, e, sizeof e),
                mmm__fmt_num(kc->TP, g, sizeof g), mmm__fmt_num(kc->Tstar, h, sizeof h),
                mmm_tmm_term_name(kc->dominant));
    }
}

static void balance_machine_text(FILE *f, const mmm_balance_machine *m)
{
    char a[64], b[64], d[64], e[64], g[64], h[64], k[64];
    fprintf(f, "  machine  P=%s cores, P*C0=%s ops/s, beta=%s B/s, alpha=%s s, "
               "L=%s B (C=%s words of %s B)\n",
            mmm__fmt_num(m->P, a, sizeof a), mmm__fmt_num(m->peak, b, sizeof b),
            mmm__fmt_num(m->beta, d, sizeof d), mmm__fmt_num(m->alpha, e, sizeof e),
            mmm__fmt_num(m->transaction_bytes, g, sizeof g),
            mmm__fmt_num(m->C, h, sizeof h), mmm__fmt_num(m->word_bytes, k, sizeof k));
    fprintf(f, "  balance P*C0/beta          %s ops/word  (%s ops/byte)\n",
            mmm__fmt_num(m->balance, a, sizeof a), mmm__fmt_num(m->balance_bytes, b, sizeof b));
    fprintf(f, "  Little alpha*beta/L        %s transactions in flight\n",
            mmm__fmt_num(m->littles, a, sizeof a));
    if (!m->has_Z)
        return;
    fprintf(f, "  Eq. (5) matrix multiply    sqrt(Z/P) = %s (Z = %s words) %s P*C0/beta = %s ops/byte: %s\n",
            mmm__fmt_num(m->matmul, a, sizeof a), mmm__fmt_num(m->Ztotal, b, sizeof b),
            m->matmul_ok ? ">=" : "<", mmm__fmt_num(m->balance_bytes, d, sizeof d),
            m->matmul_ok ? "compute-bound" : "memory-bound");
    fprintf(f, "  Eq. (6) sort               log2(Z/P) = %s\n", mmm__fmt_num(m->sort, a, sizeof a));
    if (!m->has_growth)
        return;
    fprintf(f, "  in %s years                P*C0=%s ops/s beta=%s B/s alpha=%s s L=%s B Z=%s words P=%s\n",
            mmm__fmt_num(m->years, a, sizeof a), mmm__fmt_num(m->at_peak, b, sizeof b),
            mmm__fmt_num(m->at_beta, d, sizeof d), mmm__fmt_num(m->at_alpha, e, sizeof e),
            mmm__fmt_num(m->at_transaction_bytes, g, sizeof g),
            mmm__fmt_num(m->at_Ztotal, h, sizeof h), mmm__fmt_num(m->at_P, k, sizeof k));
    fprintf(f, "                             P*C0/beta = %s ops/byte, sqrt(Z/P) = %s\n",
            mmm__fmt_num(m->at_balance_bytes, a, sizeof a), mmm__fmt_num(m->at_matmul, b, sizeof b));
    fprintf(f, "  Eq. (5) crossing           after %s years", mmm__fmt_num(m->crossover, a, sizeof a));
    if (m->has_year0 && isfinite(m->crossover))
        fprintf(f, " (%s)", mmm__fmt_num(m->year0 + m->crossover, a, sizeof a));
    fprintf(f, ": the paper's reading, ops/byte against sqrt(Z/P) with Z in words\n");
    fprintf(f, "                             %s years keeping Irony et al.'s sqrt(2); %s years with both sides per word\n",
            mmm__fmt_num(m->crossover_irony, a, sizeof a),
            mmm__fmt_num(m->crossover_words, b, sizeof b));
}

static const char *bound_name(const mmm_balance_cost *c)
{
    return c->memory_bound ? "memory-bound" : "compute-bound";
}

static void balance_text(FILE *f, const mmm_balance *bal,
                         const mmm_instance *inst, int64_t max_rows)
{
    const mmm_program *prog = inst->program;
    const mmm_balance_cost *c = &bal->program;
    char a[64], b[64], d[64], e[64], g[64], h[64];
    size_t i, width = mmm__id_width(prog);

    fprintf(f, "\nbalance principle (Czechowski et al.)\n");
    balance_machine_text(f, &bal->machine);
    fprintf(f, "  program  W=%s D=%s Q=%s transactions (%s words)\n",
            mmm__fmt_num(c->W, a, sizeof a), mmm__fmt_num(c->D, b, sizeof b),
            mmm__fmt_num(c->Q, d, sizeof d), mmm__fmt_num(c->words, e, sizeof e));
    fprintf(f, "  intensity W/(Q*L)          %s ops/word\n", mmm__fmt_num(c->intensity, a, sizeof a));
    fprintf(f, "  Eq. (3) balance*Little %s %s intensity*Amdahl %s: %s (T_mem/T_comp = %s)\n",
            mmm__fmt_num(c->lhs, a, sizeof a), c->memory_bound ? ">" : "<=",
            mmm__fmt_num(c->rhs, b, sizeof b), bound_name(c), mmm__fmt_num(c->ratio, d, sizeof d));
    fprintf(f, "           Little 1+(alpha*beta/L)/(Q/D) = %s, Amdahl 1+P/(W/D) = %s\n",
            mmm__fmt_num(c->little, a, sizeof a), mmm__fmt_num(c->amdahl, b, sizeof b));

    fprintf(f, "\n%-*s %8s %12s %12s %12s %10s %10s %10s  %s\n", (int)width, "kernel",
            "repeat", "W", "D", "Q", "intensity", "Little", "Tmem/Tcomp", "bound");
    for (i = 0; i < prog->nkernels; i++) {
        uint32_t k = prog->topo[i];
        const mmm_balance_cost *kc = &bal->kernels[k];
        char rep[32];
        if (mmm__rows_done(f, i, prog->nkernels, max_rows))
            break;
        snprintf(rep, sizeof rep, "x%lld", (long long)inst->kernels[k].repeat);
        fprintf(f, "%-*.*s %8s %12s %12s %12s %10s %10s %10s  %s\n", (int)width,
                (int)width, prog->kernels[k].id, rep, mmm__fmt_num(kc->W, a, sizeof a),
                mmm__fmt_num(kc->D, b, sizeof b), mmm__fmt_num(kc->Q, d, sizeof d),
                mmm__fmt_num(kc->intensity, e, sizeof e), mmm__fmt_num(kc->little, g, sizeof g),
                mmm__fmt_num(kc->ratio, h, sizeof h), bound_name(kc));
    }
}

void mmm__models_text(FILE *f, const mmm_models *m, const mmm_instance *inst,
                     int64_t max_rows)
{
    if (m->which & MMM_MODEL_TMM)
        tmm_text(f, &m->tmm, inst, max_rows);
    if (m->which & MMM_MODEL_BALANCE)
        balance_text(f, &m->balance, inst, max_rows);
    if (m->which & MMM_MODEL_TIME)
        mmm__time_text(f, &m->time, inst, max_rows);
}

/* ------------------------------------------------------------------ */
/* JSON                                                               */

/* The contract keys, then the extras. */
static void tmm_cost_json(mmm__json *w, const mmm_tmm_cost *c)
{
    mmm__json_num(w, "T1", c->T1);
    mmm__json_num(w, "Tinf", c->Tinf);
    mmm__json_num(w, "M", c->M);
    mmm__json_num(w, "T", c->T);
    mmm__json_num(w, "TP", c->TP);
    mmm__json_num(w, "TP_global", c->TP_global);
    mmm__json_num(w, "pram", c->pram);
    mmm__json_str(w, "dominant", mmm_tmm_term_name(c->dominant));
    mmm__json_num(w, "work_term", c->work_term);
    mmm__json_num(w, "span_term", c->span_term);
    mmm__json_num(w, "latency_term", c->latency_term);
    mmm__json_num(w, "Tstar", c->Tstar);
    mmm__json_boolk(w, "pram_range", c->latency_term <= c->work_term);
    mmm__json_num(w, "speedup", c->speedup);
    mmm__json_num(w, "words", c->words);
    mmm__json_num(w, "threads", c->threads);
    mmm__json_str(w, "T_limit", mmm_tmm_limit_name(c->limit));
}

static void tmm_json(mmm__json *w, const mmm_tmm *t, const mmm_instance *inst)
{
    const mmm_program *prog = inst->program;
    size_t i;
    mmm__json_key(w, "tmm");
    mmm__json_begin_object(w);
    mmm__json_key(w, "machine");
    mmm__json_begin_object(w);
    mmm__json_num(w, "L", t->machine.L);
    mmm__json_num(w, "P", t->machine.P);
    mmm__json_num(w, "C", t->machine.C);
    mmm__json_num(w, "Z", t->machine.Z);
    mmm__json_num(w, "Q", t->machine.Q);
    mmm__json_num(w, "X", t->machine.X);
    mmm__json_end_object(w);
    tmm_cost_json(w, &t->program);
    mmm__json_key(w, "critical_path");
    mmm__json_begin_array(w);
    for (i = 0; i < t->path_len; i++)
        mmm__json_string(w, prog->kernels[t->path[i]].id);
    mmm__json_end_array(w);
    mmm__json_key(w, "kernels");
    mmm__json_begin_array(w);
    for (i = 0; i < t->nkernels; i++) {
        mmm__json_begin_object_flat(w);
        mmm__json_str(w, "id", prog->kernels[i].id);
        mmm__json_intk(w, "repeat", inst->kernels[i].repeat);
        tmm_cost_json(w, &t->kernels[i]);
        mmm__json_end_object(w);
    }
    mmm__json_end_array(w);
    mmm__json_end_object(w);
}

static void balance_machine_json(mmm__json *w, const mmm_balance_machine *m)
{
    mmm__json_key(w, "machine");
    mmm__json_begin_object(w);
    mmm__json_num(w, "P", m->P);
    mmm__json_num(w, "C0", m->C0);
    mmm__json_num(w, "beta", m->beta);
    mmm__json_num(w, "alpha", m->alpha);
    mmm__json_num(w, "C", m->C);
    mmm__json_num(w, "word_bytes", m->word_bytes);
    mmm__json_num(w, "peak", m->peak);
    mmm__json_num(w, "balance", m->balance);
    mmm__json_num(w, "balance_per_byte", m->balance_bytes);
    mmm__json_num(w, "transaction_bytes", m->transaction_bytes);
    mmm__json_num(w, "littles", m->littles);
    if (m->has_Z) {
        mmm__json_num(w, "Ztotal", m->Ztotal);
        mmm__json_num(w, "matmul_sqrt_Z_over_P", m->matmul);
        mmm__json_num(w, "sort_log2_Z_over_P", m->sort);
        mmm__json_boolk(w, "matmul_balanced", m->matmul_ok);
    }
    if (m->has_growth) {
        mmm__json_key(w, "projection");
        mmm__json_begin_object(w);
        mmm__json_num(w, "years", m->years);
        mmm__json_num(w, "peak", m->at_peak);
        mmm__json_num(w, "beta", m->at_beta);
        mmm__json_num(w, "alpha", m->at_alpha);
        mmm__json_num(w, "transaction_bytes", m->at_transaction_bytes);
        mmm__json_num(w, "Ztotal", m->at_Ztotal);
        mmm__json_num(w, "P", m->at_P);
        mmm__json_num(w, "balance_per_byte", m->at_balance_bytes);
        mmm__json_num(w, "matmul_sqrt_Z_over_P", m->at_matmul);
        mmm__json_num(w, "crossover_years", m->crossover);
        if (m->has_year0)
            mmm__json_num(w, "crossover_year", m->year0 + m->crossover);
        mmm__json_num(w, "crossover_years_irony", m->crossover_irony);
        mmm__json_num(w, "crossover_years_per_word", m->crossover_words);
        mmm__json_end_object(w);
    }
    mmm__json_end_object(w);
}

static void balance_cost_json(mmm__json *w, const mmm_balance_cost *c)
{
    mmm__json_num(w, "W", c->W);
    mmm__json_num(w, "D", c->D);
    mmm__json_num(w, "Q", c->Q);
    mmm__json_num(w, "words", c->words);
    mmm__json_num(w, "intensity", c->intensity);
    mmm__json_num(w, "little", c->little);
    mmm__json_num(w, "amdahl", c->amdahl);
    mmm__json_num(w, "lhs", c->lhs);
    mmm__json_num(w, "rhs", c->rhs);
    mmm__json_num(w, "T_comp", c->T_comp);
    mmm__json_num(w, "T_mem", c->T_mem);
    mmm__json_num(w, "ratio", c->ratio);
    mmm__json_str(w, "bound", c->memory_bound ? "memory" : "compute");
}

static void balance_json(mmm__json *w, const mmm_balance *b,
                         const mmm_instance *inst)
{
    size_t i;
    mmm__json_key(w, "balance");
    mmm__json_begin_object(w);
    balance_machine_json(w, &b->machine);
    balance_cost_json(w, &b->program);
    mmm__json_key(w, "kernels");
    mmm__json_begin_array(w);
    for (i = 0; i < b->nkernels; i++) {
        mmm__json_begin_object_flat(w);
        mmm__json_str(w, "id", inst->program->kernels[i].id);
        mmm__json_intk(w, "repeat", inst->kernels[i].repeat);
        balance_cost_json(w, &b->kernels[i]);
        mmm__json_end_object(w);
    }
    mmm__json_end_array(w);
    mmm__json_end_object(w);
}

void mmm__models_json(mmm__json *w, const mmm_models *m,
                     const mmm_instance *inst)
{
    if (m->which & MMM_MODEL_TMM)
        tmm_json(w, &m->tmm, inst);
    if (m->which & MMM_MODEL_BALANCE)
        balance_json(w, &m->balance, inst);
    if (m->which & MMM_MODEL_TIME)
        mmm__time_json(w, &m->time, inst);
}

/* ------------------------------------------------------------------ */
/* CSV                                                                */

/* RFC 4180: quoted when needed, a quote doubled. */
void mmm__csv_id(FILE *f, const char *id)
{
    if (!strpbrk(id, ",\"\n\r")) {
        fputs(id, f);
        return;
    }
    fputc('"', f);
    for (; *id; id++) {
        if (*id == '"')
            fputc('"', f);
        fputc(*id, f);
    }
    fputc('"', f);
}

void mmm__models_csv(FILE *f, const mmm_models *m, const mmm_instance *inst)
{
    const mmm_program *prog = inst->program;
    size_t i;
    fputs("id,repeat", f);
    if (m->which & MMM_MODEL_MMM)
        fputs(",blocks,N,L,K,W,S,O,C", f);
    if (m->which & MMM_MODEL_TMM)
        fputs(",T1,Tinf,M,T,TP,TP_global,pram,Tstar,dominant", f);
    if (m->which & MMM_MODEL_BALANCE)
        fputs(",intensity,little,amdahl,T_comp,T_mem,bound", f);
    if (m->which & MMM_MODEL_TIME)
        mmm__time_csv(f, &m->time, (size_t)-1);
    fputc('\n', f);
    for (i = 0; i < prog->nkernels; i++) {
        const mmm_kernel_val *k = &inst->kernels[i];
        mmm__csv_id(f, prog->kernels[i].id);
        fprintf(f, ",%lld", (long long)k->repeat);
        if (m->which & MMM_MODEL_MMM)
            fprintf(f, ",%lld,%lld,%lld,%lld,%.17g,%.17g,%.17g,%.17g",
                    (long long)k->blocks, (long long)k->N, (long long)k->L,
                    (long long)k->K, k->W, k->S, k->O, k->C);
        if (m->which & MMM_MODEL_TMM) {
            const mmm_tmm_cost *c = &m->tmm.kernels[i];
            fprintf(f, ",%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%s",
                    c->T1, c->Tinf, c->M, c->T, c->TP, c->TP_global, c->pram,
                    c->Tstar, mmm_tmm_term_name(c->dominant));
        }
        if (m->which & MMM_MODEL_BALANCE) {
            const mmm_balance_cost *c = &m->balance.kernels[i];
            fprintf(f, ",%.17g,%.17g,%.17g,%.17g,%.17g,%s", c->intensity,
                    c->little, c->amdahl, c->T_comp, c->T_mem,
                    c->memory_bound ? "memory" : "compute");
        }
        if (m->which & MMM_MODEL_TIME)
            mmm__time_csv(f, &m->time, i);
        fputc('\n', f);
    }
}
