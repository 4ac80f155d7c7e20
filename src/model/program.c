/* program.c: the program model and its builder: parameters, constraints,
 * kernels and their block classes.  Their expressions are compiled (each
 * text once) in program_expr.c, strings, growing arrays and the id tables
 * are in program_ids.c, the edges and finalize in program_graph.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/program_internal.h"

/* ------------------------------------------------------------------ */
/* Limits                                                              */

mmm_limits mmm_limits_effective(const mmm_limits *in)
{
    mmm_limits l = MMM_LIMITS_INIT;
    if (in)
        l = *in;
    if (!l.max_file_bytes)
        l.max_file_bytes = (uint64_t)1 << 30;
    if (!l.max_kernels)
        l.max_kernels = 10000000;
    if (!l.max_edges)
        l.max_edges = 50000000;
    if (!l.max_params)
        l.max_params = 10000;
    if (!l.max_expr_length)
        l.max_expr_length = 4096;
    if (!l.max_depth)
        l.max_depth = 64;
    if (l.max_index_repeat <= 0)
        l.max_index_repeat = 10000000;
    return l;
}

static int nomem(mmm_error *err)
{
    return mmm_error_set(err, MMM_ENOMEM, NULL, 0, "out of memory");
}

/* ------------------------------------------------------------------ */
/* Program                                                             */

int mmm__program_check_open(const mmm_program *p, mmm_error *err)
{
    if (!p)
        return mmm_error_set(err, MMM_EINVAL, NULL, 0, "no program");
    if (p->finalized)
        return mmm_error_set(err, MMM_EINVAL, p->file, 0,
                             "the program is finalized: it cannot change");
    return 0;
}

/* Refresh the public views after an array moved. */
void mmm__program_sync_views(mmm_program *p)
{
    struct mmm_program_priv *pv = p->priv;
    p->params = pv->params;
    p->constraints = pv->constraints;
    p->kernels = pv->kernels;
    p->classes = pv->classes;
    p->edges = pv->edges;
    p->arrays = pv->arrays;
    p->accesses = pv->accesses;
    p->nslots = p->nparams + pv->nindexed;
}

/* Zeroed memory of whole 64-byte lines (freed with free). */
static void *calloc_lines(size_t size)
{
    size = (size + 63) & ~(size_t)63;
    void *m = aligned_alloc(64, size);
    if (m)
        memset(m, 0, size);
    return m;
}

int mmm_program_new(mmm_program **out, const char *file,
                    const mmm_limits *limits, mmm_error *err)
{
    if (!out)
        return mmm_error_set(err, MMM_EINVAL, NULL, 0, "no output pointer");
    *out = NULL;
    /* Cache lines of their own: the loader may build in a second thread
     * (src/base/pipe.c), and a line shared with the parser's data would bounce
     * between the two cores at every element. */
    mmm_program *p = calloc_lines(sizeof *p);
    struct mmm_program_priv *pv = calloc_lines(sizeof *pv);
    if (!p || !pv) {
        free(p);
        free(pv);
        return nomem(err);
    }
    p->priv = pv;
    atomic_init(&pv->cache, NULL);
    pv->limits = mmm_limits_effective(limits);
    p->file = mmm__arena_strdup(&pv->arena, file ? file : "");
    p->name = "";
    p->description = "";
    if (!p->file) {
        mmm_program_free(p);
        return nomem(err);
    }
    *out = p;
    return 0;
}

void mmm_program_free(mmm_program *p)
{
    if (!p)
        return;
    struct mmm_program_priv *pv = p->priv;
    if (pv) {
        for (size_t i = 0; i < pv->nexprs; i++)
            mmm_expr_free(pv->exprs[i].expr);
        free(pv->exprs);
        free(pv->expr_slots);
        free(pv->params);
        free(pv->constraints);
        mmm__big_free(pv->kernels);
        mmm__big_free(pv->classes);
        mmm__big_free(pv->edges);
        free(pv->arrays);
        free(pv->array_eid);
        mmm__big_free(pv->accesses);
        mmm__big_free(pv->access_eid);
        mmm__big_free(pv->array_tab.slots);
        free(pv->machine_value);
        free(pv->declared_by_prog);
        mmm__big_free(pv->kernel_eid);
        mmm__big_free(pv->kernel_ext);
        mmm__big_free(pv->class_acc);
        mmm__big_free(pv->kernel_minimal);
        mmm__big_free(pv->class_eid);
        mmm__big_free(pv->param_tab.slots);
        mmm__big_free(pv->machine_tab.slots);
        mmm__big_free(pv->kernel_tab.slots);
        mmm__big_free(pv->num_kernel);
        free(pv->pending);
        mmm__big_free(pv->succ_start);
        mmm__big_free(pv->succ);
        mmm__big_free(pv->pred_start);
        mmm__big_free(pv->pred);
        mmm__big_free(pv->topo);
        mmm__program_cache_entry *e = atomic_load(&pv->cache);
        if (e)
            e->dispose(e);
        mmm__arena_free(&pv->arena);
        free(pv);
    }
    free(p);
}

int mmm_program_set_name(mmm_program *p, const char *name, long line,
                         mmm_error *err)
{
    int r = mmm__program_check_open(p, err);
    if (r < 0)
        return r;
    const char *s = mmm__arena_strdup(&p->priv->arena, name ? name : "");
    if (!s)
        return nomem(err);
    p->name = s;
    p->line = line;
    return 0;
}

int mmm_program_set_description(mmm_program *p, const char *text,
                                 mmm_error *err)
{
    int r = mmm__program_check_open(p, err);
    if (r < 0)
        return r;
    const char *s = mmm__arena_strdup(&p->priv->arena, text ? text : "");
    if (!s)
        return nomem(err);
    p->description = s;
    return 0;
}

int mmm_program_set_cost_unit(mmm_program *p, const char *unit, mmm_error *err)
{
    const char *s = NULL;
    if (!p || !p->priv)
        return mmm_error_set(err, MMM_EINVAL, NULL, 0, "mmm_program_set_cost_unit: no program");
    if (unit && !(s = mmm__arena_strdup(&p->priv->arena, unit)))
        return nomem(err);
    p->priv->cost_unit = s;
    return 0;
}

const char *mmm_program_cost_unit(const mmm_program *p)
{
    return p && p->priv ? p->priv->cost_unit : NULL;
}

/* ------------------------------------------------------------------ */
/* Parameters and constraints                                          */

/* Append a fresh parameter; its value/min/max ids are compiled already. */
static int append_param(mmm_program *p, const char *name, long line,
                        const char *value_text, const char *min_text,
                        const char *max_text, mmm__idtab *tab, mmm_error *err)
{
    struct mmm_program_priv *pv = p->priv;
    size_t n = p->nparams;
    size_t cap = pv->params_cap;
    if (mmm__program_grow(&pv->params, &cap, n, sizeof *pv->params) < 0)
        return nomem(err);
    if (cap != pv->params_cap) {
        mmm_value *mv = realloc(pv->machine_value, cap * sizeof *mv);
        if (mv)
            pv->machine_value = mv;
        uint8_t *dp = realloc(pv->declared_by_prog, cap);
        if (dp)
            pv->declared_by_prog = dp;
        mmm__program_sync_views(p);
        if (!mv || !dp)
            return nomem(err); /* params_cap stays: it fits all three */
        pv->params_cap = cap;
    }
    mmm_param *pa = &pv->params[n];
    memset(pa, 0, sizeof *pa);
    pa->name = mmm__arena_strdup(&pv->arena, name);
    pa->value_text = mmm__arena_strdup(&pv->arena, value_text);
    pa->min_text = min_text ? mmm__arena_strdup(&pv->arena, min_text) : NULL;
    pa->max_text = max_text ? mmm__arena_strdup(&pv->arena, max_text) : NULL;
    if (!pa->name || !pa->value_text || (min_text && !pa->min_text) ||
        (max_text && !pa->max_text)) {
        mmm__program_sync_views(p);
        return nomem(err);
    }
    pa->line = line;
    pv->machine_value[n] = mmm_value_int(0);
    pv->declared_by_prog[n] = 0;
    p->nparams = n + 1;
    mmm__program_sync_views(p);
    if (mmm__idtab_insert(tab, pv->params[n].name, (uint32_t)n) < 0) {
        p->nparams = n;
        mmm__program_sync_views(p);
        return nomem(err);
    }
    return 0;
}

/* Checks shared by program and machine parameters before a new one. */
static int check_new_param(mmm_program *p, const char *name, long line,
                           mmm_error *err)
{
    struct mmm_program_priv *pv = p->priv;
    if (!mmm__prog_is_identifier(name))
        return mmm_error_set(err, MMM_EINPUT, p->file, line,
                             "invalid parameter name '%s' (letters, digits "
                             "and '_', not starting with a digit)",
                             name);
    if (pv->nindexed > 0) {
        const mmm_kernel *k = NULL;
        for (size_t i = 0; i < p->nkernels && !k; i++)
            if (pv->kernels[i].index)
                k = &pv->kernels[i];
        return mmm_error_set(err, MMM_EINPUT, p->file, line,
                             "parameter '%s' must be declared before kernel "
                             "'%s' (line %ld), which has an index",
                             name, k ? k->id : "?", k ? k->line : 0L);
    }
    if (p->nparams >= pv->limits.max_params)
        return mmm_error_set(err, MMM_ELIMIT, p->file, line,
                             "more than %zu parameters (raise the limit "
                             "with --max-params)",
                             pv->limits.max_params);
    return 0;
}

/* A program parameter redeclaring a machine one: the machine value wins,
 * the program's line and range apply. */
static int redeclare_machine_param(mmm_program *p, int slot,
                                   const char *value_text,
                                   const char *min_text, const char *max_text,
                                   long line, mmm_error *err)
{
    struct mmm_program_priv *pv = p->priv;
    mmm__expr_scope sc = {NULL, -1, (size_t)slot, NULL};
    mmm__expr_scope all = mmm__prog_params_scope(p);
    uint32_t v, lo, hi;
    int r;
    /* The default is compiled only to report its mistakes (the machine's
     * value replaces it), in the machine parameter's place: before the
     * program's own parameters.  A default that needs them is the
     * program's own quantity under a machine parameter's name. */
    if (mmm__prog_compile(p, &v, value_text, &sc, line, NULL) < 0 &&
        mmm__prog_compile(p, &v, value_text, &all, line, NULL) == 0)
        return mmm_error_set(err, MMM_EINPUT, p->file, line,
                             "parameter '%s' is a parameter of the machine "
                             "file, whose value replaces this default "
                             "('%s'), but the default uses this program's "
                             "own parameters: rename it if it is not the "
                             "machine's %s",
                             pv->params[slot].name, value_text,
                             pv->params[slot].name);
    if ((r = mmm__prog_compile(p, &v, value_text, &sc, line, err)) < 0 ||
        (r = mmm__prog_compile_opt(p, &lo, min_text, &sc, line, err)) < 0 ||
        (r = mmm__prog_compile_opt(p, &hi, max_text, &sc, line, err)) < 0)
        return r;
    mmm_param *pa = &pv->params[slot];
    pa->line = line;
    pa->min = mmm__prog_expr_of(p, lo);
    pa->max = mmm__prog_expr_of(p, hi);
    pa->min_text = min_text ? mmm__arena_strdup(&pv->arena, min_text) : NULL;
    pa->max_text = max_text ? mmm__arena_strdup(&pv->arena, max_text) : NULL;
    if ((min_text && !pa->min_text) || (max_text && !pa->max_text))
        return nomem(err);
    pv->declared_by_prog[slot] = 1;
    return 0;
}

int mmm_program_add_param(mmm_program *p, const char *name,
                          const char *value_text, const char *min_text,
                          const char *max_text, long line, mmm_error *err)
{
    int r = mmm__program_check_open(p, err);
    if (r < 0)
        return r;
    if (!name || !value_text)
        return mmm_error_set(err, MMM_EINVAL, p->file, line,
                             "a parameter needs a name and a value");
    struct mmm_program_priv *pv = p->priv;
    /* a constant of the machine file is no program parameter: a program
     * parameter of its name is the program's own */
    int slot = mmm__param_find_visible(p, name);
    if (slot >= 0) {
        const mmm_param *old = &pv->params[slot];
        if (old->from_machine && !pv->declared_by_prog[slot])
            return redeclare_machine_param(p, slot, value_text, min_text,
                                           max_text, line, err);
        return mmm_error_set(err, MMM_EINPUT, p->file, line,
                             "duplicate parameter '%s' (first declared at "
                             "line %ld)",
                             name, old->line);
    }
    if ((r = check_new_param(p, name, line, err)) < 0)
        return r;
    mmm__expr_scope sc = mmm__prog_params_scope(p);
    uint32_t v, lo, hi;
    if ((r = mmm__prog_compile(p, &v, value_text, &sc, line, err)) < 0 ||
        (r = mmm__prog_compile_opt(p, &lo, min_text, &sc, line, err)) < 0 ||
        (r = mmm__prog_compile_opt(p, &hi, max_text, &sc, line, err)) < 0)
        return r;
    if ((r = append_param(p, name, line, value_text, min_text, max_text,
                          &pv->param_tab, err)) < 0)
        return r;
    mmm_param *pa = &pv->params[p->nparams - 1];
    pa->value = mmm__prog_expr_of(p, v);
    pa->min = mmm__prog_expr_of(p, lo);
    pa->max = mmm__prog_expr_of(p, hi);
    pv->declared_by_prog[p->nparams - 1] = 1;
    return 0;
}

/* The text of a machine value, as an expression that gives it back. */
static void machine_value_text(mmm_value value, char *buf, size_t size)
{
    char tmp[96], *o = buf;
    mmm_value_format(value, 1, tmp, sizeof tmp);
    /* "%.17g" may write "1e+20": keep only what the grammar reads. */
    for (const char *s = tmp; *s && (size_t)(o - buf) + 1 < size; s++)
        if (!(*s == '+' && s > tmp && (s[-1] == 'e' || s[-1] == 'E')))
            *o++ = *s;
    *o = '\0';
}

int mmm_program_add_machine_param(mmm_program *p, const char *name,
                                  mmm_value value, mmm_error *err)
{
    int r = mmm__program_check_open(p, err);
    if (r < 0)
        return r;
    if (!name)
        return mmm_error_set(err, MMM_EINVAL, p->file, 0,
                             "a machine parameter needs a name");
    struct mmm_program_priv *pv = p->priv;
    char text[128];
    machine_value_text(value, text, sizeof text);
    /* The models' machine parameters (U, Z, p, the TMM's) are parameters
     * expressions see, which a program may declare with a default; any
     * other name is a constant of the machine, which only the models read
     * and which never merges with a program parameter of its name. */
    int model = mmm__model_param_is(name);
    mmm__idtab *tab = model ? &pv->param_tab : &pv->machine_tab;
    long slot = model ? mmm__param_find_visible(p, name)
                      : mmm__idtab_find(pv, tab, mmm__param_name, name,
                                        strlen(name));
    mmm__expr_scope sc = {NULL, -1, 0, NULL}; /* a constant sees nothing */
    uint32_t v;
    if (slot < 0 && (r = check_new_param(p, name, 0, err)) < 0)
        return r;
    if ((r = mmm__prog_compile(p, &v, text, &sc, 0, err)) < 0)
        return r;
    if (slot < 0) {
        if ((r = append_param(p, name, 0, text, NULL, NULL, tab, err)) < 0)
            return r;
        slot = (long)p->nparams - 1;
    } else {
        const char *t = mmm__arena_strdup(&pv->arena, text);
        if (!t)
            return nomem(err);
        pv->params[slot].value_text = t;
    }
    mmm_param *pa = &pv->params[slot];
    pa->value = mmm__prog_expr_of(p, v);
    pa->from_machine = model ? MMM_PARAM_MACHINE : MMM_PARAM_MACHINE_CONST;
    pv->machine_value[slot] = value;
    return 0;
}

int mmm_program_add_constraint(mmm_program *p, const char *test_text,
                               long line, mmm_error *err)
{
    int r = mmm__program_check_open(p, err);
    if (r < 0)
        return r;
    if (!test_text)
        return mmm_error_set(err, MMM_EINVAL, p->file, line,
                             "a constraint needs a test");
    struct mmm_program_priv *pv = p->priv;
    mmm__expr_scope sc = mmm__prog_params_scope(p);
    uint32_t t;
    if ((r = mmm__prog_compile(p, &t, test_text, &sc, line, err)) < 0)
        return r;
    if (mmm__program_grow(&pv->constraints, &pv->constraints_cap,
                          p->nconstraints, sizeof *pv->constraints) < 0)
        return nomem(err);
    mmm_constraint *c = &pv->constraints[p->nconstraints];
    c->text = pv->exprs[t].text;
    c->line = line;
    c->test = mmm__prog_expr_of(p, t);
    p->nconstraints++;
    mmm__program_sync_views(p);
    return 0;
}

/* ------------------------------------------------------------------ */
/* Kernels and classes                                                 */

/* Compile the texts of a class in the scope of its kernel; its accesses
 * into *ca (disposed of by the caller), their words summed for its reads
 * and writes. */
static int compile_class(mmm_program *p, uint32_t eid[MMM_CX_N],
                         const mmm_class_spec *cs, const mmm_access_spec *acc,
                         size_t nacc, const mmm_kernel *k, const char *id,
                         int minimal, mmm__class_accesses *ca, mmm_error *err)
{
    static const char *const names[] = {"count", "work", "span", "reads",
                                        "writes"};
    const char *req[] = {cs->count, cs->work, cs->span, cs->reads,
                         cs->writes};
    mmm__expr_scope sc = {k->index, k->index_slot, p->nparams, NULL};
    char *sums[2] = {NULL, NULL};
    int r;
    memset(ca, 0, sizeof *ca);
    if (nacc > 0) {
        if (cs->reads || cs->writes)
            return mmm_error_set(err, MMM_EINPUT, p->file, cs->line,
                                 "%skernel '%s' gives %s and <access> "
                                 "children: its reads and writes are the "
                                 "sums of the accesses' words (leave them "
                                 "out)",
                                 minimal ? "" : "<blocks> of ", id,
                                 cs->reads ? "reads" : "writes");
        if ((r = mmm__access_compile(p, acc, nacc, cs->attr, &sc, id, ca,
                                     &sums[0], &sums[1], err)) < 0)
            return r;
        req[3] = sums[0];
        req[4] = sums[1];
    }
    r = 0;
    for (int i = 0; i < 5 && r == 0; i++) {
        if (!req[i])
            r = mmm_error_set(err, MMM_EINPUT, p->file, cs->line,
                              "%skernel '%s' lacks attribute '%s'%s",
                              minimal ? "" : "<blocks> of ", id,
                              i == 0 && minimal ? "blocks" : names[i],
                              i >= 3 ? " (or <access> children)" : "");
        else
            r = mmm__prog_compile(p, &eid[MMM_CX_COUNT + i], req[i], &sc,
                                  cs->line, err);
    }
    free(sums[0]);
    free(sums[1]);
    if (r < 0)
        goto fail;
    if ((r = mmm__prog_compile_opt(p, &eid[MMM_CX_THREADS], cs->threads, &sc, cs->line,
                         err)) < 0 ||
        (r = mmm__prog_compile_opt(p, &eid[MMM_CX_SHARED], cs->shared, &sc, cs->line,
                         err)) < 0)
        goto fail;
    for (int a = 0; a < MMM_ATTR_N; a++)
        if ((r = mmm__prog_compile_opt(p, &eid[MMM_CX_ATTR0 + a],
                                       cs->attr ? cs->attr[a] : NULL, &sc,
                                       cs->line, err)) < 0)
            goto fail;
    return 0;
fail:
    /* the accesses compiled before the failure (fuzz_analyze found them
     * leaked: tests/data/fuzz/fuzz_analyze/access_then_bad_threads.xml) */
    mmm__access_dispose(ca);
    return r;
}

/* Append the accesses of the class being appended. */
static int append_accesses(mmm_program *p, const mmm__class_accesses *ca,
                           uint32_t *first, mmm_error *err)
{
    struct mmm_program_priv *pv = p->priv;
    size_t cap = pv->accesses_cap;
    *first = (uint32_t)p->naccesses;
    if (ca->n == 0)
        return 0;
    if (p->naccesses + ca->n >= UINT32_MAX - 1)
        return mmm_error_set(err, MMM_ELIMIT, p->file, ca->a[0].line,
                             "too many accesses");
    if (p->naccesses + ca->n > cap) {
        while (cap < p->naccesses + ca->n)
            cap = cap ? 2 * cap : 16;
        void *a = mmm__big_realloc(pv->accesses,
                                   p->naccesses * sizeof *pv->accesses,
                                   cap * sizeof *pv->accesses);
        if (!a)
            return nomem(err);
        pv->accesses = a;
        mmm__program_sync_views(p);
        void *n = mmm__big_realloc(pv->access_eid,
                                   p->naccesses * sizeof *pv->access_eid,
                                   cap * sizeof *pv->access_eid);
        if (!n)
            return nomem(err);
        pv->access_eid = n;
        pv->accesses_cap = cap;
    }
    memcpy(pv->accesses + p->naccesses, ca->a, ca->n * sizeof *ca->a);
    memcpy(pv->access_eid + p->naccesses, ca->eid, ca->n * sizeof *ca->eid);
    p->naccesses += ca->n;
    mmm__program_sync_views(p);
    return 0;
}

static int append_class(mmm_program *p, size_t kernel,
                        const uint32_t eid[MMM_CX_N], const mmm_class_spec *cs,
                        const mmm__class_accesses *ca, mmm_error *err)
{
    struct mmm_program_priv *pv = p->priv;
    size_t cap = pv->classes_cap;
    uint32_t first_access;
    if (p->nclasses >= UINT32_MAX - 1)
        return mmm_error_set(err, MMM_ELIMIT, p->file, cs->line,
                             "too many block classes");
    int r = append_accesses(p, ca, &first_access, err);
    if (r < 0)
        return r;
    if (mmm__program_grow_big(&pv->classes, &cap, p->nclasses,
                              sizeof *pv->classes) < 0)
        return nomem(err);
    if (cap != pv->classes_cap) {
        void *n = mmm__big_realloc(pv->class_eid,
                                   p->nclasses * sizeof *pv->class_eid,
                                   cap * sizeof *pv->class_eid);
        if (!n) {
            mmm__program_sync_views(p);
            return nomem(err);
        }
        pv->class_eid = n;
        void *ca2 = mmm__big_realloc(pv->class_acc,
                                     p->nclasses * sizeof *pv->class_acc,
                                     cap * sizeof *pv->class_acc);
        if (!ca2) {
            mmm__program_sync_views(p);
            return nomem(err);
        }
        pv->class_acc = ca2;
        pv->classes_cap = cap;
    }
    mmm_block_class *c = &pv->classes[p->nclasses];
    c->line = cs->line;
    c->count = mmm__prog_expr_of(p, eid[MMM_CX_COUNT]);
    c->work = mmm__prog_expr_of(p, eid[MMM_CX_WORK]);
    c->span = mmm__prog_expr_of(p, eid[MMM_CX_SPAN]);
    c->reads = mmm__prog_expr_of(p, eid[MMM_CX_READS]);
    c->writes = mmm__prog_expr_of(p, eid[MMM_CX_WRITES]);
    c->threads = mmm__prog_expr_of(p, eid[MMM_CX_THREADS]);
    c->shared = mmm__prog_expr_of(p, eid[MMM_CX_SHARED]);
    c->access = cs->access;
    pv->class_acc[p->nclasses].first = first_access;
    pv->class_acc[p->nclasses].n = (uint32_t)ca->n;
    memcpy(pv->class_eid[p->nclasses], eid, sizeof pv->class_eid[0]);
    mmm_kernel *k = &pv->kernels[kernel];
    k->nclasses++;
    for (int i = 0; i < MMM_CX_N; i++)
        if (eid[i] != MMM_NO_EXPR && pv->exprs[eid[i]].uses_index)
            k->uses_index = 1;
    for (size_t a = 0; a < ca->n; a++)
        for (int i = 0; i < MMM_AX_N; i++)
            if (ca->eid[a][i] != MMM_NO_EXPR &&
                pv->exprs[ca->eid[a][i]].uses_index)
                k->uses_index = 1;
    p->nclasses++;
    mmm__program_sync_views(p);
    return 0;
}

static int check_new_kernel(mmm_program *p, const mmm_kernel_spec *s,
                            mmm_error *err)
{
    struct mmm_program_priv *pv = p->priv;
    if (!s->id || !*s->id)
        return mmm_error_set(err, MMM_EINPUT, p->file, s->line,
                             "a kernel needs a non-empty id");
    long old = mmm__kernel_find(pv, s->id, strlen(s->id));
    if (old >= 0)
        return mmm_error_set(err, MMM_EINPUT, p->file, s->line,
                             "duplicate kernel id '%s' (first at line %ld)",
                             s->id, pv->kernels[old].line);
    if (p->nkernels >= pv->limits.max_kernels || p->nkernels >= UINT32_MAX - 1)
        return mmm_error_set(err, MMM_ELIMIT, p->file, s->line,
                             "more than %zu kernels (raise the limit with "
                             "--max-kernels)",
                             pv->limits.max_kernels);
    if (s->index) {
        if (!mmm__prog_is_identifier(s->index))
            return mmm_error_set(err, MMM_EINPUT, p->file, s->line,
                                 "invalid index name '%s' of kernel '%s'",
                                 s->index, s->id);
        if (mmm__param_find_visible(p, s->index) >= 0)
            return mmm_error_set(err, MMM_EINPUT, p->file, s->line,
                                 "index '%s' of kernel '%s' hides the "
                                 "parameter of that name",
                                 s->index, s->id);
    }
    if (!s->blocks && (s->work || s->span || s->reads || s->writes))
        return mmm_error_set(err, MMM_EINPUT, p->file, s->line,
                             "kernel '%s' gives work, span, reads or writes "
                             "without blocks",
                             s->id);
    return 0;
}

static int grow_kernels(mmm_program *p, mmm_error *err)
{
    struct mmm_program_priv *pv = p->priv;
    size_t cap = pv->kernels_cap;
    if (mmm__program_grow_big(&pv->kernels, &cap, p->nkernels,
                              sizeof *pv->kernels) < 0)
        return nomem(err);
    if (cap != pv->kernels_cap) {
        void *n = mmm__big_realloc(pv->kernel_eid,
                                   p->nkernels * sizeof *pv->kernel_eid,
                                   cap * sizeof *pv->kernel_eid);
        mmm__program_sync_views(p);
        if (!n)
            return nomem(err);
        pv->kernel_eid = n;
        uint8_t *km = mmm__big_realloc(pv->kernel_minimal, p->nkernels, cap);
        if (!km)
            return nomem(err);
        pv->kernel_minimal = km;
        void *ke = mmm__big_realloc(pv->kernel_ext,
                                    p->nkernels * sizeof *pv->kernel_ext,
                                    cap * sizeof *pv->kernel_ext);
        if (!ke)
            return nomem(err);
        pv->kernel_ext = ke;
        pv->kernels_cap = cap;
    }
    return 0;
}

int mmm_program_add_kernel(mmm_program *p, const mmm_kernel_spec *spec,
                           size_t *index_out, mmm_error *err)
{
    return mmm_program_add_kernel_accesses(p, spec, NULL, 0, index_out, err);
}

int mmm_program_add_kernel_accesses(mmm_program *p, const mmm_kernel_spec *spec,
                                    const mmm_access_spec *accesses,
                                    size_t naccesses, size_t *index_out,
                                    mmm_error *err)
{
    int r = mmm__program_check_open(p, err);
    if (r < 0)
        return r;
    if (!spec)
        return mmm_error_set(err, MMM_EINVAL, p->file, 0, "no kernel spec");
    if ((r = check_new_kernel(p, spec, err)) < 0)
        return r;
    struct mmm_program_priv *pv = p->priv;
    mmm_kernel k;
    memset(&k, 0, sizeof k);
    k.line = spec->line;
    k.index_slot = -1;
    if (spec->index) {
        k.index = mmm__arena_strdup(&pv->arena, spec->index);
        if (!k.index)
            return nomem(err);
        k.index_slot = (int)(p->nparams + pv->nindexed);
    }
    uint32_t keid[MMM_KX_N] = {MMM_NO_EXPR, MMM_NO_EXPR, MMM_NO_EXPR},
             ceid[MMM_CX_N];
    mmm__expr_scope rs = {NULL, -1, p->nparams, k.index};
    mmm__expr_scope ks = {k.index, k.index_slot, p->nparams, NULL};
    if ((r = mmm__prog_compile_opt(p, &keid[MMM_KX_REPEAT], spec->repeat, &rs,
                         spec->line, err)) < 0 ||
        (r = mmm__prog_compile_opt(p, &keid[MMM_KX_THREADS], spec->threads, &ks,
                         spec->line, err)) < 0)
        return r;
    mmm_class_spec cs = {spec->line,   spec->blocks, spec->work,
                         spec->span,   spec->reads,  spec->writes,
                         NULL,         spec->shared, spec->access,
                         spec->attr};
    mmm__class_accesses ca = {NULL, NULL, 0};
    if (naccesses && !accesses)
        return mmm_error_set(err, MMM_EINVAL, p->file, spec->line,
                             "kernel '%s': %zu accesses and no array of them",
                             spec->id, naccesses);
    if (spec->blocks &&
        (r = compile_class(p, ceid, &cs, accesses, naccesses, &k, spec->id, 1,
                           &ca, err)) < 0)
        return r;
    if (!spec->blocks && naccesses)
        return mmm_error_set(err, MMM_EINPUT, p->file, spec->line,
                             "kernel '%s' has <blocks> children: its "
                             "<access> children go inside each <blocks>",
                             spec->id);

    if ((r = grow_kernels(p, err)) < 0) {
        mmm__access_dispose(&ca);
        return r;
    }
    k.id = mmm__arena_strdup(&pv->arena, spec->id);
    if (!k.id) {
        mmm__access_dispose(&ca);
        return nomem(err);
    }
    k.repeat = mmm__prog_expr_of(p, keid[MMM_KX_REPEAT]);
    k.threads = mmm__prog_expr_of(p, keid[MMM_KX_THREADS]);
    k.uses_index = keid[MMM_KX_THREADS] != MMM_NO_EXPR &&
                   pv->exprs[keid[MMM_KX_THREADS]].uses_index;
    k.first_class = (uint32_t)p->nclasses;
    size_t idx = p->nkernels;
    pv->kernels[idx] = k;
    memcpy(pv->kernel_eid[idx], keid, sizeof keid);
    pv->kernel_minimal[idx] = spec->blocks != NULL;
    pv->kernel_ext[idx] = (struct mmm__kernel_ext){MMM_COPY_NONE, -1, -1, NULL};
    p->nkernels = idx + 1;
    mmm__program_sync_views(p);
    if (mmm__kernel_id_insert(pv, idx) < 0) {
        p->nkernels = idx;
        mmm__access_dispose(&ca);
        return nomem(err);
    }
    if (spec->index) {
        pv->nindexed++;
        mmm__program_sync_views(p);
    }
    pv->last_kernel_minimal = spec->blocks != NULL;
    if (spec->blocks)
        r = append_class(p, idx, ceid, &cs, &ca, err);
    mmm__access_dispose(&ca);
    if (r < 0)
        return r;
    if (index_out)
        *index_out = idx;
    return 0;
}

static const char *const copy_kind_names[MMM_COPY_NKINDS] = {
    [MMM_COPY_NONE] = "kernel", [MMM_COPY_D2D] = "d2d",
    [MMM_COPY_H2D] = "h2d",     [MMM_COPY_D2H] = "d2h",
    [MMM_COPY_SET] = "set"};

const char *mmm_copy_kind_name(mmm_copy_kind k)
{
    return (unsigned)k < MMM_COPY_NKINDS ? copy_kind_names[k] : NULL;
}

int mmm_copy_kind_find(const char *name)
{
    for (int k = MMM_COPY_NONE + 1; name && k < MMM_COPY_NKINDS; k++)
        if (!strcmp(copy_kind_names[k], name))
            return k;
    return -1;
}

int mmm_program_add_copy(mmm_program *p, const mmm_copy_spec *spec,
                         size_t *index_out, mmm_error *err)
{
    int r = mmm__program_check_open(p, err);
    if (r < 0)
        return r;
    if (!spec)
        return mmm_error_set(err, MMM_EINVAL, p->file, 0, "no copy spec");
    if (spec->kind <= MMM_COPY_NONE || spec->kind >= MMM_COPY_NKINDS)
        return mmm_error_set(err, MMM_EINVAL, p->file, spec->line,
                             "copy '%s': kind %d is not a copy's",
                             spec->id ? spec->id : "", (int)spec->kind);
    mmm_kernel_spec ks;
    memset(&ks, 0, sizeof ks);
    ks.id = spec->id;
    ks.line = spec->line;
    if ((r = check_new_kernel(p, &ks, err)) < 0)
        return r;
    if (!spec->bytes)
        return mmm_error_set(err, MMM_EINPUT, p->file, spec->line,
                             "copy '%s' lacks attribute 'bytes'", spec->id);
    struct mmm_program_priv *pv = p->priv;
    uint32_t keid[MMM_KX_N] = {MMM_NO_EXPR, MMM_NO_EXPR, MMM_NO_EXPR};
    mmm__expr_scope sc = {NULL, -1, p->nparams, NULL};
    if ((r = mmm__prog_compile_opt(p, &keid[MMM_KX_REPEAT], spec->repeat,
                                   &sc, spec->line, err)) < 0 ||
        (r = mmm__prog_compile(p, &keid[MMM_KX_BYTES], spec->bytes, &sc,
                               spec->line, err)) < 0 ||
        (r = grow_kernels(p, err)) < 0)
        return r;
    mmm_kernel k;
    memset(&k, 0, sizeof k);
    k.line = spec->line;
    k.index_slot = -1;
    k.id = mmm__arena_strdup(&pv->arena, spec->id);
    if (!k.id)
        return nomem(err);
    k.repeat = mmm__prog_expr_of(p, keid[MMM_KX_REPEAT]);
    k.first_class = (uint32_t)p->nclasses;
    const char *names[2] = {spec->src, spec->dst};
    int32_t arr[2] = {-1, -1};
    for (int i = 0; i < 2; i++) {
        if (names[i] && (arr[i] = (int32_t)mmm__array_find(pv, names[i])) < 0)
            return mmm_error_set(err, MMM_EINPUT, p->file, spec->line,
                                 "copy '%s' names array '%s', which is not "
                                 "declared (declare it before with <array "
                                 "name=\"%s\" bytes=\"...\"/>)",
                                 spec->id, names[i], names[i]);
    }
    if (spec->kind == MMM_COPY_SET && spec->src)
        return mmm_error_set(err, MMM_EINPUT, p->file, spec->line,
                             "copy '%s': a set has no source array",
                             spec->id);
    size_t idx = p->nkernels;
    pv->kernels[idx] = k;
    memcpy(pv->kernel_eid[idx], keid, sizeof keid);
    pv->kernel_minimal[idx] = 1;
    pv->kernel_ext[idx] =
        (struct mmm__kernel_ext){(uint8_t)spec->kind, arr[0], arr[1], NULL};
    p->nkernels = idx + 1;
    mmm__program_sync_views(p);
    if (mmm__kernel_id_insert(pv, idx) < 0) {
        p->nkernels = idx;
        return nomem(err);
    }
    pv->last_kernel_minimal = 1;
    if (index_out)
        *index_out = idx;
    return 0;
}

int mmm_program_add_class(mmm_program *p, size_t kernel,
                          const mmm_class_spec *spec, mmm_error *err)
{
    return mmm_program_add_class_accesses(p, kernel, spec, NULL, 0, err);
}

int mmm_program_add_class_accesses(mmm_program *p, size_t kernel,
                                   const mmm_class_spec *spec,
                                   const mmm_access_spec *accesses,
                                   size_t naccesses, mmm_error *err)
{
    int r = mmm__program_check_open(p, err);
    if (r < 0)
        return r;
    if (!spec)
        return mmm_error_set(err, MMM_EINVAL, p->file, 0, "no class spec");
    if (p->nkernels == 0 || kernel != p->nkernels - 1)
        return mmm_error_set(err, MMM_EINVAL, p->file, spec->line,
                             "block classes must be added to the last "
                             "kernel added");
    struct mmm_program_priv *pv = p->priv;
    const mmm_kernel *k = &pv->kernels[kernel];
    if (pv->kernel_ext[kernel].copy != MMM_COPY_NONE)
        return mmm_error_set(err, MMM_EINPUT, p->file, spec->line,
                             "'%s' is a copy: it has no blocks", k->id);
    if (naccesses && !accesses)
        return mmm_error_set(err, MMM_EINVAL, p->file, spec->line,
                             "kernel '%s': %zu accesses and no array of them",
                             k->id, naccesses);
    if (pv->last_kernel_minimal)
        return mmm_error_set(err, MMM_EINPUT, p->file, spec->line,
                             "kernel '%s' has both a blocks attribute and "
                             "<blocks> children",
                             k->id);
    uint32_t eid[MMM_CX_N];
    mmm__class_accesses ca;
    if ((r = compile_class(p, eid, spec, accesses, naccesses, k, k->id, 0, &ca,
                           err)) < 0)
        return r;
    r = append_class(p, kernel, eid, spec, &ca, err);
    mmm__access_dispose(&ca);
    return r;
}

int mmm_program_add_array(mmm_program *p, const char *name,
                          const char *bytes_text, long line, mmm_error *err)
{
    int r = mmm__program_check_open(p, err);
    if (r < 0)
        return r;
    if (!name || !bytes_text)
        return mmm_error_set(err, MMM_EINVAL, p->file, line,
                             "an array needs a name and its bytes");
    struct mmm_program_priv *pv = p->priv;
    if (!mmm__prog_is_identifier(name))
        return mmm_error_set(err, MMM_EINPUT, p->file, line,
                             "invalid array name '%s' (letters, digits and "
                             "'_', not starting with a digit)",
                             name);
    long old = mmm__array_find(pv, name);
    if (old >= 0)
        return mmm_error_set(err, MMM_EINPUT, p->file, line,
                             "duplicate array '%s' (first declared at line "
                             "%ld)",
                             name, pv->arrays[old].line);
    mmm__expr_scope sc = mmm__prog_params_scope(p);
    uint32_t b;
    if ((r = mmm__prog_compile(p, &b, bytes_text, &sc, line, err)) < 0)
        return r;
    size_t cap = pv->arrays_cap;
    if (mmm__program_grow(&pv->arrays, &cap, p->narrays, sizeof *pv->arrays) < 0)
        return nomem(err);
    if (cap != pv->arrays_cap) {
        uint32_t *n = realloc(pv->array_eid, cap * sizeof *n);
        mmm__program_sync_views(p);
        if (!n)
            return nomem(err);
        pv->array_eid = n;
        pv->arrays_cap = cap;
    }
    mmm_array *a = &pv->arrays[p->narrays];
    a->name = mmm__arena_strdup(&pv->arena, name);
    a->line = line;
    a->bytes = mmm__prog_expr_of(p, b);
    if (!a->name)
        return nomem(err);
    pv->array_eid[p->narrays] = b;
    if (mmm__idtab_insert(&pv->array_tab, a->name, (uint32_t)p->narrays) < 0)
        return nomem(err);
    p->narrays++;
    mmm__program_sync_views(p);
    return 0;
}

long mmm_program_find_array(const mmm_program *p, const char *name)
{
    return p ? mmm__array_find(p->priv, name) : -1;
}

const mmm_expr *mmm_block_class_attr(const mmm_program *p, size_t c,
                                     mmm_attr a)
{
    if (!p || c >= p->nclasses || (int)a < 0 || (int)a >= MMM_ATTR_N)
        return NULL;
    return mmm__prog_expr_of(p, p->priv->class_eid[c][MMM_CX_ATTR0 + a]);
}

mmm_copy_kind mmm_kernel_copy(const mmm_program *p, size_t k)
{
    return p && k < p->nkernels ? (mmm_copy_kind)p->priv->kernel_ext[k].copy
                                : MMM_COPY_NONE;
}

int mmm_program_set_kernel_type(mmm_program *p, size_t k, const char *type,
                                mmm_error *err)
{
    int r = mmm__program_check_open(p, err);
    const char *s = NULL;
    if (r < 0)
        return r;
    if (k >= p->nkernels)
        return mmm_error_set(err, MMM_EINVAL, p->file, 0,
                             "mmm_program_set_kernel_type: no kernel %zu", k);
    if (type && *type && !(s = mmm__arena_strdup(&p->priv->arena, type)))
        return nomem(err);
    p->priv->kernel_ext[k].type = s;
    return 0;
}

const char *mmm_kernel_type(const mmm_program *p, size_t k)
{
    return p && k < p->nkernels ? p->priv->kernel_ext[k].type : NULL;
}

const mmm_expr *mmm_kernel_copy_bytes(const mmm_program *p, size_t k)
{
    return p && k < p->nkernels
               ? mmm__prog_expr_of(p, p->priv->kernel_eid[k][MMM_KX_BYTES])
               : NULL;
}

void mmm_kernel_copy_arrays(const mmm_program *p, size_t k, int32_t *src,
                            int32_t *dst)
{
    int ok = p && k < p->nkernels;
    if (src)
        *src = ok ? p->priv->kernel_ext[k].src : -1;
    if (dst)
        *dst = ok ? p->priv->kernel_ext[k].dst : -1;
}

size_t mmm_block_class_accesses(const mmm_program *p, size_t c, size_t *first)
{
    if (!p || c >= p->nclasses) {
        if (first)
            *first = 0;
        return 0;
    }
    if (first)
        *first = p->priv->class_acc[c].first;
    return p->priv->class_acc[c].n;
}

mmm__program_cache_entry *mmm__program_cache(const mmm_program *p)
{
    return atomic_load(&p->priv->cache);
}

mmm__program_cache_entry *mmm__program_cache_offer(const mmm_program *p,
                                                   mmm__program_cache_entry *e)
{
    mmm__program_cache_entry *expected = NULL;
    if (atomic_compare_exchange_strong(&p->priv->cache, &expected, e))
        return e;
    e->dispose(e); /* another thread was first: keep its value */
    return expected;
}
