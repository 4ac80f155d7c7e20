/* program.c: the program model and its builder: parameters, constraints,
 * kernels and their block classes; identical expression texts are
 * compiled once (a million kernels with blocks="4" share one mmm_expr).
 * Strings and the id tables are in program_ids.c, the edges and finalize
 * in program_graph.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "program_internal.h"
#include "suggest.h"

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

/* ------------------------------------------------------------------ */
/* Growing arrays                                                      */

/* Make room for one more element of size elem in *arr (capacity *cap):
 * with realloc (mmm__program_grow) or, for the arrays that grow with the
 * kernels and edges, with mmm__big_realloc (mmm__program_grow_big). */
static int grow_with(void *arr, size_t *cap, size_t count, size_t elem,
                     int big)
{
    void **pa = arr;
    if (count < *cap)
        return 0;
    size_t ncap = *cap ? *cap * 2 : 16;
    if (ncap > SIZE_MAX / elem)
        return MMM_ENOMEM;
    void *n = big ? mmm__big_realloc(*pa, count * elem, ncap * elem)
                  : realloc(*pa, ncap * elem);
    if (!n)
        return MMM_ENOMEM;
    *pa = n;
    *cap = ncap;
    return 0;
}

int mmm__program_grow(void *arr, size_t *cap, size_t count, size_t elem)
{
    return grow_with(arr, cap, count, elem, 0);
}

int mmm__program_grow_big(void *arr, size_t *cap, size_t count, size_t elem)
{
    return grow_with(arr, cap, count, elem, 1);
}

static int nomem(mmm_error *err)
{
    return mmm_error_set(err, MMM_ENOMEM, NULL, 0, "out of memory");
}

/* ------------------------------------------------------------------ */
/* Names                                                               */

static int is_name_start(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static int is_name_char(char c)
{
    return is_name_start(c) || (c >= '0' && c <= '9');
}

static int is_identifier(const char *s)
{
    if (!is_name_start(*s))
        return 0;
    while (*++s)
        if (!is_name_char(*s))
            return 0;
    return 1;
}

/* Does text contain the identifier name as a token?  Conservative: a
 * function name equal to it counts too (that only costs sharing). */
static int has_token(const char *text, const char *name)
{
    size_t len = strlen(name);
    const char *s = text;
    while (*s) {
        if (is_name_start(*s)) {
            const char *b = s;
            while (is_name_char(*s))
                s++;
            if ((size_t)(s - b) == len && memcmp(b, name, len) == 0)
                return 1;
        } else if ((*s >= '0' && *s <= '9') || *s == '.') {
            /* a number, with its exponent: "1e6" holds no name "e6" */
            while ((*s >= '0' && *s <= '9') || *s == '.')
                s++;
            if (*s == 'e' || *s == 'E') {
                s++;
                if (*s == '+' || *s == '-')
                    s++;
                while (*s >= '0' && *s <= '9')
                    s++;
            }
        } else {
            s++;
        }
    }
    return 0;
}

/* ------------------------------------------------------------------ */
/* Expressions                                                         */

typedef struct resolve_ctx {
    const struct mmm_program_priv *priv;
    const char *index; /* kernel index name visible, or NULL */
    int index_slot;
    size_t limit;      /* only parameters with slot < limit are visible */
    const char *hidden_index; /* an index name that is not visible here */
    int saw_hidden;
    const char *unknown; /* the name that is not known, for the message */
    size_t unknown_len;
} resolve_ctx;

static int resolve(const char *name, size_t len, void *payload)
{
    resolve_ctx *c = payload;
    if (c->index && mmm__key_equal(c->index, name, len))
        return c->index_slot;
    long slot = mmm__idtab_find(c->priv, &c->priv->param_tab,
                                mmm__param_name, name, len);
    if (slot >= 0 && (size_t)slot < c->limit)
        return (int)slot;
    if (c->hidden_index && mmm__key_equal(c->hidden_index, name, len))
        c->saw_hidden = 1;
    c->unknown = name;
    c->unknown_len = len;
    return -1;
}

static uint64_t expr_hash(const char *text, int32_t ctx)
{
    uint64_t h = mmm__hash_mem(text, strlen(text));
    return h ^ ((uint64_t)(uint32_t)(ctx + 1) * 0x9e3779b97f4a7c15u);
}

static long expr_find(const struct mmm_program_priv *pv, const char *text,
                      int32_t ctx, uint64_t h)
{
    if (!pv->expr_slots_cap)
        return -1;
    size_t mask = pv->expr_slots_cap - 1;
    for (size_t i = h & mask;; i = (i + 1) & mask) {
        uint32_t v = pv->expr_slots[i];
        if (!v)
            return -1;
        const mmm_expr_entry *e = &pv->exprs[v - 1];
        if (e->hash == h && e->key_ctx == ctx && strcmp(e->text, text) == 0)
            return (long)(v - 1);
    }
}

static void expr_place(uint32_t *slots, size_t cap, uint32_t id, uint64_t h)
{
    size_t i = h & (cap - 1);
    while (slots[i])
        i = (i + 1) & (cap - 1);
    slots[i] = id + 1;
}

static int expr_table_add(struct mmm_program_priv *pv, uint32_t id)
{
    if ((pv->nexprs + 1) * 2 > pv->expr_slots_cap) {
        size_t cap = pv->expr_slots_cap ? pv->expr_slots_cap * 2 : 64;
        uint32_t *slots = calloc(cap, sizeof *slots);
        if (!slots)
            return MMM_ENOMEM;
        for (size_t i = 0; i < pv->expr_slots_cap; i++)
            if (pv->expr_slots[i]) {
                uint32_t old = pv->expr_slots[i] - 1;
                expr_place(slots, cap, old, pv->exprs[old].hash);
            }
        free(pv->expr_slots);
        pv->expr_slots = slots;
        pv->expr_slots_cap = cap;
    }
    expr_place(pv->expr_slots, pv->expr_slots_cap, id, pv->exprs[id].hash);
    return 0;
}

/* Where an expression is compiled: the kernel index it may read. */
typedef struct expr_scope {
    const char *index;     /* visible index name, or NULL */
    int index_slot;
    size_t limit;          /* visible parameters: slots < limit */
    const char *hidden_index;
} expr_scope;

static expr_scope params_scope(const mmm_program *p)
{
    expr_scope s = {NULL, -1, p->nparams, NULL};
    return s;
}

/* Compile text in scope (or find it compiled already); *id receives the
 * expression id.  Errors get the file and line. */
static int compile(mmm_program *p, uint32_t *id, const char *text,
                   const expr_scope *scope, long line, mmm_error *err)
{
    struct mmm_program_priv *pv = p->priv;
    int shareable = scope->limit == p->nparams;
    int32_t ctx = scope->index && has_token(text, scope->index)
                      ? scope->index_slot
                      : -1;
    uint64_t h = expr_hash(text, ctx);
    if (shareable) {
        long found = expr_find(pv, text, ctx, h);
        if (found >= 0) {
            *id = (uint32_t)found;
            return 0;
        }
    }
    if (pv->nexprs >= UINT32_MAX - 1)
        return mmm_error_set(err, MMM_ELIMIT, p->file, line,
                             "too many distinct expressions");
    if (mmm__program_grow(&pv->exprs, &pv->exprs_cap, pv->nexprs,
                          sizeof *pv->exprs) < 0)
        return nomem(err);

    resolve_ctx rc = {pv, scope->index, scope->index_slot, scope->limit,
                      scope->hidden_index, 0, NULL, 0};
    mmm_expr_limits lim = {pv->limits.max_expr_length, pv->limits.max_depth};
    mmm_error sub;
    mmm_expr *e = NULL;
    mmm_error_clear(&sub);
    int r = mmm_expr_parse(&e, text, resolve, &rc, &lim, &sub);
    if (r < 0) {
        if (rc.saw_hidden)
            return mmm_error_set(err, r, p->file, line,
                                 "%s (a kernel's repeat cannot use its own "
                                 "index '%s')",
                                 sub.message, scope->hidden_index);
        if (rc.unknown && r == MMM_EINPUT) {
            /* a close name, another kernel's index; the loader looks
             * for a declaration later in the file (unknown_name) */
            char hint[512];
            size_t len = strlen(sub.message);
            if (!mmm__unknown_param_hint(hint, sizeof hint, p, rc.unknown,
                                         rc.unknown_len, scope->limit,
                                         scope->index) &&
                rc.unknown_len < sizeof pv->unknown_name) {
                memcpy(pv->unknown_name, rc.unknown, rc.unknown_len);
                pv->unknown_name[rc.unknown_len] = '\0';
                pv->unknown_cut = len;
            }
            return mmm_error_set(err, r, p->file, line, "%s%s", sub.message,
                                 hint);
        }
        return mmm_error_set(err, r, p->file, line, "%s", sub.message);
    }
    const char *t = mmm__arena_strdup(&pv->arena, text);
    if (!t) {
        mmm_expr_free(e);
        return nomem(err);
    }
    mmm_expr_entry *en = &pv->exprs[pv->nexprs];
    en->text = t;
    en->hash = h;
    en->expr = e;
    en->key_ctx = ctx;
    en->uses_index = scope->index && mmm_expr_uses(e, scope->index_slot);
    en->shareable = (uint8_t)shareable;
    *id = (uint32_t)pv->nexprs++;
    if (shareable && expr_table_add(pv, *id) < 0)
        return nomem(err);
    return 0;
}

/* Compile an optional text: MMM_NO_EXPR when absent. */
static int compile_opt(mmm_program *p, uint32_t *id, const char *text,
                       const expr_scope *scope, long line, mmm_error *err)
{
    *id = MMM_NO_EXPR;
    return text ? compile(p, id, text, scope, line, err) : 0;
}

static const mmm_expr *expr_of(const mmm_program *p, uint32_t id)
{
    return id == MMM_NO_EXPR ? NULL : p->priv->exprs[id].expr;
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
     * (src/pipe.c), and a line shared with the parser's data would bounce
     * between the two cores at every element. */
    mmm_program *p = calloc_lines(sizeof *p);
    struct mmm_program_priv *pv = calloc_lines(sizeof *pv);
    if (!p || !pv) {
        free(p);
        free(pv);
        return nomem(err);
    }
    p->priv = pv;
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
        free(pv->machine_value);
        free(pv->declared_by_prog);
        mmm__big_free(pv->kernel_eid);
        mmm__big_free(pv->kernel_minimal);
        mmm__big_free(pv->class_eid);
        mmm__big_free(pv->param_tab.slots);
        mmm__big_free(pv->kernel_tab.slots);
        mmm__big_free(pv->num_kernel);
        free(pv->pending);
        mmm__big_free(pv->succ_start);
        mmm__big_free(pv->succ);
        mmm__big_free(pv->pred_start);
        mmm__big_free(pv->pred);
        mmm__big_free(pv->topo);
        mmm__sp_plan_dispose(&pv->sp);
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

/* ------------------------------------------------------------------ */
/* Parameters and constraints                                          */

/* Append a fresh parameter; its value/min/max ids are compiled already. */
static int append_param(mmm_program *p, const char *name, long line,
                        const char *value_text, const char *min_text,
                        const char *max_text, mmm_error *err)
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
    if (mmm__idtab_insert(&pv->param_tab, pv->params[n].name,
                          (uint32_t)n) < 0) {
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
    if (!is_identifier(name))
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
    expr_scope sc = {NULL, -1, (size_t)slot, NULL};
    expr_scope all = params_scope(p);
    uint32_t v, lo, hi;
    int r;
    /* The default is compiled only to report its mistakes (the machine's
     * value replaces it), in the machine parameter's place: before the
     * program's own parameters.  A default that needs them is the
     * program's own quantity under a machine parameter's name. */
    if (compile(p, &v, value_text, &sc, line, NULL) < 0 &&
        compile(p, &v, value_text, &all, line, NULL) == 0)
        return mmm_error_set(err, MMM_EINPUT, p->file, line,
                             "parameter '%s' is a parameter of the machine "
                             "file, whose value replaces this default "
                             "('%s'), but the default uses this program's "
                             "own parameters: rename it if it is not the "
                             "machine's %s",
                             pv->params[slot].name, value_text,
                             pv->params[slot].name);
    if ((r = compile(p, &v, value_text, &sc, line, err)) < 0 ||
        (r = compile_opt(p, &lo, min_text, &sc, line, err)) < 0 ||
        (r = compile_opt(p, &hi, max_text, &sc, line, err)) < 0)
        return r;
    mmm_param *pa = &pv->params[slot];
    pa->line = line;
    pa->min = expr_of(p, lo);
    pa->max = expr_of(p, hi);
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
    int slot = mmm_program_find_param(p, name);
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
    expr_scope sc = params_scope(p);
    uint32_t v, lo, hi;
    if ((r = compile(p, &v, value_text, &sc, line, err)) < 0 ||
        (r = compile_opt(p, &lo, min_text, &sc, line, err)) < 0 ||
        (r = compile_opt(p, &hi, max_text, &sc, line, err)) < 0)
        return r;
    if ((r = append_param(p, name, line, value_text, min_text, max_text,
                          err)) < 0)
        return r;
    mmm_param *pa = &pv->params[p->nparams - 1];
    pa->value = expr_of(p, v);
    pa->min = expr_of(p, lo);
    pa->max = expr_of(p, hi);
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
    int slot = mmm_program_find_param(p, name);
    expr_scope sc = {NULL, -1, 0, NULL}; /* a constant sees nothing */
    uint32_t v;
    if (slot < 0 && (r = check_new_param(p, name, 0, err)) < 0)
        return r;
    if ((r = compile(p, &v, text, &sc, 0, err)) < 0)
        return r;
    if (slot < 0) {
        if ((r = append_param(p, name, 0, text, NULL, NULL, err)) < 0)
            return r;
        slot = (int)p->nparams - 1;
    } else {
        const char *t = mmm__arena_strdup(&pv->arena, text);
        if (!t)
            return nomem(err);
        pv->params[slot].value_text = t;
    }
    mmm_param *pa = &pv->params[slot];
    pa->value = expr_of(p, v);
    pa->from_machine = 1;
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
    expr_scope sc = params_scope(p);
    uint32_t t;
    if ((r = compile(p, &t, test_text, &sc, line, err)) < 0)
        return r;
    if (mmm__program_grow(&pv->constraints, &pv->constraints_cap,
                          p->nconstraints, sizeof *pv->constraints) < 0)
        return nomem(err);
    mmm_constraint *c = &pv->constraints[p->nconstraints];
    c->text = pv->exprs[t].text;
    c->line = line;
    c->test = expr_of(p, t);
    p->nconstraints++;
    mmm__program_sync_views(p);
    return 0;
}

/* ------------------------------------------------------------------ */
/* Kernels and classes                                                 */

/* Compile the texts of a class in the scope of its kernel. */
static int compile_class(mmm_program *p, uint32_t eid[MMM_CX_N],
                         const mmm_class_spec *cs, const mmm_kernel *k,
                         const char *id, int minimal, mmm_error *err)
{
    static const char *const names[] = {"count", "work", "span", "reads",
                                        "writes"};
    const char *req[] = {cs->count, cs->work, cs->span, cs->reads,
                         cs->writes};
    expr_scope sc = {k->index, k->index_slot, p->nparams, NULL};
    int r;
    for (int i = 0; i < 5; i++) {
        if (!req[i])
            return mmm_error_set(err, MMM_EINPUT, p->file, cs->line,
                                 "%skernel '%s' lacks attribute '%s'",
                                 minimal ? "" : "<blocks> of ", id,
                                 i == 0 && minimal ? "blocks" : names[i]);
        if ((r = compile(p, &eid[MMM_CX_COUNT + i], req[i], &sc, cs->line,
                         err)) < 0)
            return r;
    }
    if ((r = compile_opt(p, &eid[MMM_CX_THREADS], cs->threads, &sc, cs->line,
                         err)) < 0 ||
        (r = compile_opt(p, &eid[MMM_CX_SHARED], cs->shared, &sc, cs->line,
                         err)) < 0 ||
        (r = compile_opt(p, &eid[MMM_CX_SHARED_BYTES], cs->shared_bytes, &sc,
                         cs->line, err)) < 0 ||
        (r = compile_opt(p, &eid[MMM_CX_REGISTERS], cs->registers, &sc,
                         cs->line, err)) < 0 ||
        (r = compile_opt(p, &eid[MMM_CX_BARRIERS], cs->barriers, &sc,
                         cs->line, err)) < 0 ||
        (r = compile_opt(p, &eid[MMM_CX_ROUNDS], cs->rounds, &sc, cs->line,
                         err)) < 0 ||
        (r = compile_opt(p, &eid[MMM_CX_WAVEFRONTS], cs->wavefronts, &sc,
                         cs->line, err)) < 0 ||
        (r = compile_opt(p, &eid[MMM_CX_READ_STRIDE], cs->read_stride, &sc,
                         cs->line, err)) < 0 ||
        (r = compile_opt(p, &eid[MMM_CX_WRITE_STRIDE], cs->write_stride, &sc,
                         cs->line, err)) < 0)
        return r;
    return 0;
}

static int append_class(mmm_program *p, size_t kernel,
                        const uint32_t eid[MMM_CX_N], const mmm_class_spec *cs,
                        mmm_error *err)
{
    struct mmm_program_priv *pv = p->priv;
    size_t cap = pv->classes_cap;
    if (p->nclasses >= UINT32_MAX - 1)
        return mmm_error_set(err, MMM_ELIMIT, p->file, cs->line,
                             "too many block classes");
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
        pv->classes_cap = cap;
    }
    mmm_block_class *c = &pv->classes[p->nclasses];
    c->line = cs->line;
    c->count = expr_of(p, eid[MMM_CX_COUNT]);
    c->work = expr_of(p, eid[MMM_CX_WORK]);
    c->span = expr_of(p, eid[MMM_CX_SPAN]);
    c->reads = expr_of(p, eid[MMM_CX_READS]);
    c->writes = expr_of(p, eid[MMM_CX_WRITES]);
    c->threads = expr_of(p, eid[MMM_CX_THREADS]);
    c->shared = expr_of(p, eid[MMM_CX_SHARED]);
    c->shared_bytes = expr_of(p, eid[MMM_CX_SHARED_BYTES]);
    c->registers = expr_of(p, eid[MMM_CX_REGISTERS]);
    c->barriers = expr_of(p, eid[MMM_CX_BARRIERS]);
    c->rounds = expr_of(p, eid[MMM_CX_ROUNDS]);
    c->wavefronts = expr_of(p, eid[MMM_CX_WAVEFRONTS]);
    c->read_stride = expr_of(p, eid[MMM_CX_READ_STRIDE]);
    c->write_stride = expr_of(p, eid[MMM_CX_WRITE_STRIDE]);
    c->access = cs->access;
    memcpy(pv->class_eid[p->nclasses], eid, sizeof pv->class_eid[0]);
    mmm_kernel *k = &pv->kernels[kernel];
    k->nclasses++;
    for (int i = 0; i < MMM_CX_N; i++)
        if (eid[i] != MMM_NO_EXPR && pv->exprs[eid[i]].uses_index)
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
        if (!is_identifier(s->index))
            return mmm_error_set(err, MMM_EINPUT, p->file, s->line,
                                 "invalid index name '%s' of kernel '%s'",
                                 s->index, s->id);
        if (mmm_program_find_param(p, s->index) >= 0)
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
        pv->kernels_cap = cap;
    }
    return 0;
}

int mmm_program_add_kernel(mmm_program *p, const mmm_kernel_spec *spec,
                           size_t *index_out, mmm_error *err)
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
    uint32_t keid[MMM_KX_N], ceid[MMM_CX_N];
    expr_scope rs = {NULL, -1, p->nparams, k.index};
    expr_scope ks = {k.index, k.index_slot, p->nparams, NULL};
    if ((r = compile_opt(p, &keid[MMM_KX_REPEAT], spec->repeat, &rs,
                         spec->line, err)) < 0 ||
        (r = compile_opt(p, &keid[MMM_KX_THREADS], spec->threads, &ks,
                         spec->line, err)) < 0)
        return r;
    mmm_class_spec cs = {spec->line,         spec->blocks,
                         spec->work,         spec->span,
                         spec->reads,        spec->writes,
                         NULL,               spec->shared,
                         spec->access,       spec->shared_bytes,
                         spec->registers,    spec->barriers,
                         spec->rounds,       spec->wavefronts,
                         spec->read_stride,    spec->write_stride};
    if (spec->blocks &&
        (r = compile_class(p, ceid, &cs, &k, spec->id, 1, err)) < 0)
        return r;

    if ((r = grow_kernels(p, err)) < 0)
        return r;
    k.id = mmm__arena_strdup(&pv->arena, spec->id);
    if (!k.id)
        return nomem(err);
    k.repeat = expr_of(p, keid[MMM_KX_REPEAT]);
    k.threads = expr_of(p, keid[MMM_KX_THREADS]);
    k.uses_index = keid[MMM_KX_THREADS] != MMM_NO_EXPR &&
                   pv->exprs[keid[MMM_KX_THREADS]].uses_index;
    k.first_class = (uint32_t)p->nclasses;
    size_t idx = p->nkernels;
    pv->kernels[idx] = k;
    memcpy(pv->kernel_eid[idx], keid, sizeof keid);
    pv->kernel_minimal[idx] = spec->blocks != NULL;
    p->nkernels = idx + 1;
    mmm__program_sync_views(p);
    if (mmm__kernel_id_insert(pv, idx) < 0) {
        p->nkernels = idx;
        return nomem(err);
    }
    if (spec->index) {
        pv->nindexed++;
        mmm__program_sync_views(p);
    }
    pv->last_kernel_minimal = spec->blocks != NULL;
    if (spec->blocks && (r = append_class(p, idx, ceid, &cs, err)) < 0)
        return r;
    if (index_out)
        *index_out = idx;
    return 0;
}

int mmm_program_add_class(mmm_program *p, size_t kernel,
                          const mmm_class_spec *spec, mmm_error *err)
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
    if (pv->last_kernel_minimal)
        return mmm_error_set(err, MMM_EINPUT, p->file, spec->line,
                             "kernel '%s' has both a blocks attribute and "
                             "<blocks> children",
                             k->id);
    uint32_t eid[MMM_CX_N];
    if ((r = compile_class(p, eid, spec, k, k->id, 0, err)) < 0)
        return r;
    return append_class(p, kernel, eid, spec, err);
}
