/* program.c: the program model and its builder.
 *
 * Strings live in an arena; identical expression texts are compiled once
 * (a million kernels with blocks="4" share one mmm_expr); kernel ids and
 * parameter names are found through open-addressing hash tables.
 * finalize resolves the edges, builds the CSR adjacency, a topological
 * order (Kahn) and the series-parallel plan used for K. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "program_internal.h"
#include "suggest.h"
#include "util/csr.h"

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
/* Arena                                                               */

struct mmm_arena_chunk {
    mmm_arena_chunk *next;
    size_t size, used;
    char data[];
};

#define ARENA_MIN_CHUNK ((size_t)4096)
#define ARENA_MAX_CHUNK ((size_t)1 << 20)

static char *arena_alloc(mmm_arena *a, size_t n)
{
    mmm_arena_chunk *c = a->head;
    if (!c || c->size - c->used < n) {
        /* Chunks double up to 1 MiB, so a small program stays small. */
        size_t size = c ? c->size * 2 : ARENA_MIN_CHUNK;
        if (size > ARENA_MAX_CHUNK)
            size = ARENA_MAX_CHUNK;
        if (size < n)
            size = n;
        c = malloc(sizeof *c + size);
        if (!c)
            return NULL;
        c->size = size;
        c->used = 0;
        c->next = a->head;
        a->head = c;
    }
    c->used += n;
    return c->data + c->used - n;
}

static const char *arena_strndup(mmm_arena *a, const char *s, size_t len)
{
    char *d = arena_alloc(a, len + 1);
    if (d) {
        memcpy(d, s, len);
        d[len] = '\0';
    }
    return d;
}

static const char *arena_strdup(mmm_arena *a, const char *s)
{
    return arena_strndup(a, s, strlen(s));
}

static void arena_free(mmm_arena *a)
{
    while (a->head) {
        mmm_arena_chunk *next = a->head->next;
        free(a->head);
        a->head = next;
    }
}

/* ------------------------------------------------------------------ */
/* Hashing and the id tables                                           */

static uint64_t hash_mem(const char *s, size_t len)
{
    uint64_t h = 0xcbf29ce484222325u; /* FNV-1a, then a final mix */
    for (size_t i = 0; i < len; i++) {
        h ^= (unsigned char)s[i];
        h *= 0x100000001b3u;
    }
    h ^= h >> 29;
    h *= 0xbf58476d1ce4e5b9u;
    h ^= h >> 32;
    return h;
}

/* The hash of a kernel id, which places ids that differ only in a
 * trailing number next to each other: "k8" .. "k15" share one 64-byte line
 * of the table (eight 8-byte slots), "k16" .. "k23" the next line of
 * their own, at a random place.  Programs name kernels in sequence and
 * their edges mostly join kernels declared close together, so adding a
 * kernel or resolving an edge end touches a line of the table that is
 * most likely in cache already, where a hash of the whole string costs a
 * miss (on 10^6 kernels, that miss was most of the cost of adding a kernel
 * or an edge).  Groups of eight keys at random places probe like single
 * keys at the same load.  Ids without a trailing number, or whose number
 * has more than 9 digits, hash as a whole. */
static uint32_t kernel_hash(const char *s, size_t len)
{
    size_t d = len;
    while (d > 0 && len - d < 9 && s[d - 1] >= '0' && s[d - 1] <= '9')
        d--;
    if (d == len || (d > 0 && s[d - 1] >= '0' && s[d - 1] <= '9'))
        return (uint32_t)hash_mem(s, len);
    uint32_t v = 0;
    for (size_t i = d; i < len; i++)
        v = v * 10 + (uint32_t)(s[i] - '0');
    uint64_t h = hash_mem(s, d) + (v >> 3);
    h ^= h >> 31;
    h *= 0x94d049bb133111ebu;
    h ^= h >> 29;
    return ((uint32_t)h & ~(uint32_t)7) | (v & 7);
}

/* Whether id s (len bytes) is "<prefix><number>" with the number written
 * without leading zeros in 1 to 9 digits (not preceded by a digit): its
 * prefix length and number then. */
static int id_number(const char *s, size_t len, size_t *plen, uint32_t *num)
{
    size_t d = len;
    while (d > 0 && len - d < 10 && s[d - 1] >= '0' && s[d - 1] <= '9')
        d--;
    size_t digits = len - d;
    if (digits == 0 || digits > 9 || (digits > 1 && s[d] == '0'))
        return 0;
    uint32_t v = 0;
    for (size_t i = d; i < len; i++)
        v = v * 10 + (uint32_t)(s[i] - '0');
    *plen = d;
    *num = v;
    return 1;
}

/* Whether s has the prefix of the numbered ids (plen bytes long). */
static int num_prefix_is(const struct mmm_program_priv *pv, const char *s,
                         size_t plen)
{
    return pv->num_prefix && plen == pv->num_prefix_len &&
           memcmp(s, pv->num_prefix, plen) == 0;
}

static int key_equal(const char *key, const char *s, size_t len)
{
    return strncmp(key, s, len) == 0 && key[len] == '\0';
}

/* The string of entry idx of a table: the kernel's id, the parameter's
 * name. */
typedef const char *(*key_fn)(const struct mmm_program_priv *pv,
                              uint32_t idx);

static const char *kernel_id(const struct mmm_program_priv *pv, uint32_t idx)
{
    return pv->kernels[idx].id;
}

static const char *param_name(const struct mmm_program_priv *pv, uint32_t idx)
{
    return pv->params[idx].name;
}

static long idtab_find_h(const struct mmm_program_priv *pv,
                         const mmm_idtab *t, key_fn key, const char *s,
                         size_t len, uint32_t h)
{
    if (!t->cap)
        return -1;
    size_t mask = t->cap - 1;
    for (size_t i = h & mask;; i = (i + 1) & mask) {
        const mmm_idslot *sl = &t->slots[i];
        if (!sl->idx1)
            return -1;
        if (sl->hash == h && key_equal(key(pv, sl->idx1 - 1), s, len))
            return (long)sl->idx1 - 1;
    }
}

static long idtab_find(const struct mmm_program_priv *pv, const mmm_idtab *t,
                       key_fn key, const char *s, size_t len)
{
    return idtab_find_h(pv, t, key, s, len, (uint32_t)hash_mem(s, len));
}

static void idtab_place(mmm_idslot *slots, size_t cap, mmm_idslot v)
{
    size_t i = v.hash & (cap - 1);
    while (slots[i].idx1)
        i = (i + 1) & (cap - 1);
    slots[i] = v;
}

/* Insert idx, whose string (absent from the table) hashes to h.  The load
 * stays at most 1/2. */
static int idtab_insert_h(mmm_idtab *t, uint32_t idx, uint32_t h)
{
    if ((t->count + 1) * 2 > t->cap) {
        size_t cap = t->cap ? t->cap * 2 : 64;
        mmm_idslot *slots = mmm__big_calloc(cap, sizeof *slots);
        if (!slots)
            return MMM_ENOMEM;
        for (size_t i = 0; i < t->cap; i++)
            if (t->slots[i].idx1)
                idtab_place(slots, cap, t->slots[i]);
        mmm__big_free(t->slots);
        t->slots = slots;
        t->cap = cap;
    }
    mmm_idslot v = {h, idx + 1};
    idtab_place(t->slots, t->cap, v);
    t->count++;
    return 0;
}

static int idtab_insert(mmm_idtab *t, const char *key, uint32_t idx)
{
    return idtab_insert_h(t, idx, (uint32_t)hash_mem(key, strlen(key)));
}

/* ------------------------------------------------------------------ */
/* Growing arrays                                                      */

/* Make room for one more element of size elem in *arr (capacity *cap):
 * with realloc (grow) or, for the arrays that grow with the kernels and
 * edges, with mmm__big_realloc (grow_big). */
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

static int grow(void *arr, size_t *cap, size_t count, size_t elem)
{
    return grow_with(arr, cap, count, elem, 0);
}

static int grow_big(void *arr, size_t *cap, size_t count, size_t elem)
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
    if (c->index && key_equal(c->index, name, len))
        return c->index_slot;
    long slot = idtab_find(c->priv, &c->priv->param_tab, param_name, name,
                           len);
    if (slot >= 0 && (size_t)slot < c->limit)
        return (int)slot;
    if (c->hidden_index && key_equal(c->hidden_index, name, len))
        c->saw_hidden = 1;
    c->unknown = name;
    c->unknown_len = len;
    return -1;
}

static uint64_t expr_hash(const char *text, int32_t ctx)
{
    uint64_t h = hash_mem(text, strlen(text));
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
    if (grow(&pv->exprs, &pv->exprs_cap, pv->nexprs, sizeof *pv->exprs) < 0)
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
    const char *t = arena_strdup(&pv->arena, text);
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

struct mmm_pending_edge {
    uint32_t edge;
    const char *from, *to; /* NULL when already resolved */
};

static int check_open(const mmm_program *p, mmm_error *err)
{
    if (!p)
        return mmm_error_set(err, MMM_EINVAL, NULL, 0, "no program");
    if (p->finalized)
        return mmm_error_set(err, MMM_EINVAL, p->file, 0,
                             "the program is finalized: it cannot change");
    return 0;
}

/* Refresh the public views after an array moved. */
static void sync_views(mmm_program *p)
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
    p->file = arena_strdup(&pv->arena, file ? file : "");
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
        arena_free(&pv->arena);
        free(pv);
    }
    free(p);
}

int mmm_program_set_name(mmm_program *p, const char *name, long line,
                         mmm_error *err)
{
    int r = check_open(p, err);
    if (r < 0)
        return r;
    const char *s = arena_strdup(&p->priv->arena, name ? name : "");
    if (!s)
        return nomem(err);
    p->name = s;
    p->line = line;
    return 0;
}

int mmm_program_set_description(mmm_program *p, const char *text,
                                 mmm_error *err)
{
    int r = check_open(p, err);
    if (r < 0)
        return r;
    const char *s = arena_strdup(&p->priv->arena, text ? text : "");
    if (!s)
        return nomem(err);
    p->description = s;
    return 0;
}

int mmm_program_find_param(const mmm_program *p, const char *name)
{
    if (!p || !name)
        return -1;
    return (int)idtab_find(p->priv, &p->priv->param_tab, param_name, name,
                           strlen(name));
}

/* The kernel named s (len bytes), or -1. */
static long find_kernel_len(const struct mmm_program_priv *pv, const char *s,
                            size_t len)
{
    size_t plen;
    uint32_t num;
    if (id_number(s, len, &plen, &num) && num_prefix_is(pv, s, plen)) {
        if (num < pv->num_cap && pv->num_kernel[num])
            return (long)pv->num_kernel[num] - 1;
        if (!pv->num_in_tab)
            return -1;
    }
    return idtab_find_h(pv, &pv->kernel_tab, kernel_id, s, len,
                        kernel_hash(s, len));
}

/* Record kernel idx (its id already in pv->kernels) in the array of
 * numbered ids or in the hash table. */
static int kernel_id_insert(struct mmm_program_priv *pv, size_t idx)
{
    const char *s = pv->kernels[idx].id;
    size_t len = strlen(s), plen;
    uint32_t num;
    int numbered = id_number(s, len, &plen, &num);
    if (numbered && !pv->num_prefix) {
        pv->num_prefix = s; /* in the arena: lives as long as p */
        pv->num_prefix_len = plen;
    }
    if (numbered && num_prefix_is(pv, s, plen)) {
        if (num >= pv->num_cap && num < 4 * (idx + 1) + 4096) {
            size_t cap = pv->num_cap ? pv->num_cap : 4096;
            while (cap <= num)
                cap *= 2;
            uint32_t *a = mmm__big_realloc(pv->num_kernel,
                                           pv->num_cap * sizeof *a,
                                           cap * sizeof *a);
            if (!a)
                return MMM_ENOMEM;
            memset(a + pv->num_cap, 0, (cap - pv->num_cap) * sizeof *a);
            pv->num_kernel = a;
            pv->num_cap = cap;
        }
        if (num < pv->num_cap) {
            pv->num_kernel[num] = (uint32_t)idx + 1;
            return 0;
        }
        pv->num_in_tab++;
    }
    return idtab_insert_h(&pv->kernel_tab, (uint32_t)idx,
                          kernel_hash(s, len));
}

long mmm_program_find_kernel(const mmm_program *p, const char *id)
{
    if (!p || !id)
        return -1;
    return find_kernel_len(p->priv, id, strlen(id));
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
    if (grow(&pv->params, &cap, n, sizeof *pv->params) < 0)
        return nomem(err);
    if (cap != pv->params_cap) {
        mmm_value *mv = realloc(pv->machine_value, cap * sizeof *mv);
        if (mv)
            pv->machine_value = mv;
        uint8_t *dp = realloc(pv->declared_by_prog, cap);
        if (dp)
            pv->declared_by_prog = dp;
        sync_views(p);
        if (!mv || !dp)
            return nomem(err); /* params_cap stays: it fits all three */
        pv->params_cap = cap;
    }
    mmm_param *pa = &pv->params[n];
    memset(pa, 0, sizeof *pa);
    pa->name = arena_strdup(&pv->arena, name);
    pa->value_text = arena_strdup(&pv->arena, value_text);
    pa->min_text = min_text ? arena_strdup(&pv->arena, min_text) : NULL;
    pa->max_text = max_text ? arena_strdup(&pv->arena, max_text) : NULL;
    if (!pa->name || !pa->value_text || (min_text && !pa->min_text) ||
        (max_text && !pa->max_text)) {
        sync_views(p);
        return nomem(err);
    }
    pa->line = line;
    pv->machine_value[n] = mmm_value_int(0);
    pv->declared_by_prog[n] = 0;
    p->nparams = n + 1;
    sync_views(p);
    if (idtab_insert(&pv->param_tab, pv->params[n].name, (uint32_t)n) < 0) {
        p->nparams = n;
        sync_views(p);
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
    uint32_t v, lo, hi;
    int r;
    /* The default is compiled only to report its mistakes. */
    if ((r = compile(p, &v, value_text, &sc, line, err)) < 0 ||
        (r = compile_opt(p, &lo, min_text, &sc, line, err)) < 0 ||
        (r = compile_opt(p, &hi, max_text, &sc, line, err)) < 0)
        return r;
    mmm_param *pa = &pv->params[slot];
    pa->line = line;
    pa->min = expr_of(p, lo);
    pa->max = expr_of(p, hi);
    pa->min_text = min_text ? arena_strdup(&pv->arena, min_text) : NULL;
    pa->max_text = max_text ? arena_strdup(&pv->arena, max_text) : NULL;
    if ((min_text && !pa->min_text) || (max_text && !pa->max_text))
        return nomem(err);
    pv->declared_by_prog[slot] = 1;
    return 0;
}

int mmm_program_add_param(mmm_program *p, const char *name,
                          const char *value_text, const char *min_text,
                          const char *max_text, long line, mmm_error *err)
{
    int r = check_open(p, err);
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
    int r = check_open(p, err);
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
        const char *t = arena_strdup(&pv->arena, text);
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
    int r = check_open(p, err);
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
    if (grow(&pv->constraints, &pv->constraints_cap, p->nconstraints,
             sizeof *pv->constraints) < 0)
        return nomem(err);
    mmm_constraint *c = &pv->constraints[p->nconstraints];
    c->text = pv->exprs[t].text;
    c->line = line;
    c->test = expr_of(p, t);
    p->nconstraints++;
    sync_views(p);
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
    if (grow_big(&pv->classes, &cap, p->nclasses, sizeof *pv->classes) < 0)
        return nomem(err);
    if (cap != pv->classes_cap) {
        void *n = mmm__big_realloc(pv->class_eid,
                                   p->nclasses * sizeof *pv->class_eid,
                                   cap * sizeof *pv->class_eid);
        if (!n) {
            sync_views(p);
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
    sync_views(p);
    return 0;
}

static int check_new_kernel(mmm_program *p, const mmm_kernel_spec *s,
                            mmm_error *err)
{
    struct mmm_program_priv *pv = p->priv;
    if (!s->id || !*s->id)
        return mmm_error_set(err, MMM_EINPUT, p->file, s->line,
                             "a kernel needs a non-empty id");
    long old = find_kernel_len(pv, s->id, strlen(s->id));
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
    if (grow_big(&pv->kernels, &cap, p->nkernels, sizeof *pv->kernels) < 0)
        return nomem(err);
    if (cap != pv->kernels_cap) {
        void *n = mmm__big_realloc(pv->kernel_eid,
                                   p->nkernels * sizeof *pv->kernel_eid,
                                   cap * sizeof *pv->kernel_eid);
        sync_views(p);
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
    int r = check_open(p, err);
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
        k.index = arena_strdup(&pv->arena, spec->index);
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
    k.id = arena_strdup(&pv->arena, spec->id);
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
    sync_views(p);
    if (kernel_id_insert(pv, idx) < 0) {
        p->nkernels = idx;
        return nomem(err);
    }
    if (spec->index) {
        pv->nindexed++;
        sync_views(p);
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
    int r = check_open(p, err);
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

/* ------------------------------------------------------------------ */
/* Edges                                                               */

/* The kernel named id (or -1).  A numbered id is one read of the array
 * of numbered ids; another tries *last first: the same kernel as the last
 * edge's, at the cost of one string compare. */
static long edge_end(mmm_program *p, uint32_t *last, const char *id)
{
    struct mmm_program_priv *pv = p->priv;
    size_t len = strlen(id), plen;
    uint32_t num;
    if (id_number(id, len, &plen, &num) && num_prefix_is(pv, id, plen) &&
        num < pv->num_cap && pv->num_kernel[num])
        return (long)pv->num_kernel[num] - 1;
    if (*last && strcmp(pv->kernels[*last - 1].id, id) == 0)
        return (long)*last - 1;
    long k = mmm_program_find_kernel(p, id);
    *last = k >= 0 ? (uint32_t)k + 1 : 0;
    return k;
}

int mmm_program_add_edge(mmm_program *p, const char *from, const char *to,
                         long line, mmm_error *err)
{
    int r = check_open(p, err);
    if (r < 0)
        return r;
    if (!from || !to)
        return mmm_error_set(err, MMM_EINVAL, p->file, line,
                             "an edge needs from and to");
    struct mmm_program_priv *pv = p->priv;
    if (p->nedges >= pv->limits.max_edges || p->nedges >= UINT32_MAX - 1)
        return mmm_error_set(err, MMM_ELIMIT, p->file, line,
                             "more than %zu edges (raise the limit with "
                             "--max-edges)",
                             pv->limits.max_edges);
    long f = edge_end(p, &pv->last_from, from);
    long t = edge_end(p, &pv->last_to, to);
    if (f >= 0 && f == t)
        return mmm_error_set(err, MMM_ECYCLE, p->file, line,
                             "cycle: %s -> %s (an edge from a kernel to "
                             "itself)",
                             from, to);
    if (f < 0 || t < 0) {
        if (!strcmp(from, to))
            return mmm_error_set(err, MMM_ECYCLE, p->file, line,
                                 "cycle: %s -> %s (an edge from a kernel to "
                                 "itself)",
                                 from, to);
        if (grow(&pv->pending, &pv->pending_cap, pv->npending,
                 sizeof *pv->pending) < 0)
            return nomem(err);
        struct mmm_pending_edge *pe = &pv->pending[pv->npending];
        pe->edge = (uint32_t)p->nedges;
        pe->from = f < 0 ? arena_strdup(&pv->arena, from) : NULL;
        pe->to = t < 0 ? arena_strdup(&pv->arena, to) : NULL;
        if ((f < 0 && !pe->from) || (t < 0 && !pe->to))
            return nomem(err);
    }
    if (grow_big(&pv->edges, &pv->edges_cap, p->nedges, sizeof *pv->edges) < 0)
        return nomem(err);
    if (f < 0 || t < 0)
        pv->npending++;
    mmm_edge *e = &pv->edges[p->nedges++];
    e->from = f < 0 ? UINT32_MAX : (uint32_t)f;
    e->to = t < 0 ? UINT32_MAX : (uint32_t)t;
    e->line = line;
    sync_views(p);
    return 0;
}

/* ------------------------------------------------------------------ */
/* Finalize                                                            */

static int resolve_pending(mmm_program *p, mmm_error *err)
{
    struct mmm_program_priv *pv = p->priv;
    for (size_t i = 0; i < pv->npending; i++) {
        const struct mmm_pending_edge *pe = &pv->pending[i];
        mmm_edge *e = &pv->edges[pe->edge];
        if (pe->from) {
            long f = mmm_program_find_kernel(p, pe->from);
            if (f < 0)
                return mmm_error_set(err, MMM_EINPUT, p->file, e->line,
                                     "edge from unknown kernel '%s'",
                                     pe->from);
            e->from = (uint32_t)f;
        }
        if (pe->to) {
            long t = mmm_program_find_kernel(p, pe->to);
            if (t < 0)
                return mmm_error_set(err, MMM_EINPUT, p->file, e->line,
                                     "edge to unknown kernel '%s'", pe->to);
            e->to = (uint32_t)t;
        }
        if (e->from == e->to)
            return mmm_error_set(err, MMM_ECYCLE, p->file, e->line,
                                 "cycle: %s -> %s (an edge from a kernel to "
                                 "itself)",
                                 pv->kernels[e->from].id,
                                 pv->kernels[e->to].id);
    }
    free(pv->pending);
    pv->pending = NULL;
    pv->npending = pv->pending_cap = 0;
    return 0;
}

/* CSR adjacency without duplicate edges, successor and predecessor lists
 * sorted by kernel index (util/csr.c). */
static int build_csr(mmm_program *p, mmm_error *err)
{
    struct mmm_program_priv *pv = p->priv;
    static const mmm_edge e0;
    const mmm_edge *edges = p->nedges ? pv->edges : &e0;
    mmm__csr c;
    if (mmm__csr_build(&c, p->nkernels, p->nedges, &edges->from, &edges->to,
                       sizeof(mmm_edge)) < 0)
        return nomem(err);
    pv->succ_start = c.succ_start, pv->succ = c.succ;
    pv->pred_start = c.pred_start, pv->pred = c.pred;
    p->succ_start = c.succ_start, p->succ = c.succ;
    p->pred_start = c.pred_start, p->pred = c.pred;
    return 0;
}

/* Append s to buf (of size cap, used *len) if it fits entirely. */
static int put(char *buf, size_t cap, size_t *len, const char *s)
{
    size_t l = strlen(s);
    if (*len + l + 1 > cap)
        return 0;
    memcpy(buf + *len, s, l + 1);
    *len += l;
    return 1;
}

/* Append a kernel id, shortened to about 60 bytes (at a UTF-8 character
 * boundary) so that a huge id cannot push the whole cycle out of the
 * message. */
static void put_id(char *buf, size_t cap, size_t *len, const char *id)
{
    char s[72];
    size_t l = strlen(id);
    if (l < 64) {
        put(buf, cap, len, id);
        return;
    }
    l = 60;
    while (l > 0 && ((unsigned char)id[l] & 0xC0) == 0x80)
        l--;
    memcpy(s, id, l);
    memcpy(s + l, "...", 4);
    put(buf, cap, len, s);
}

/* Report one cycle among the kernels Kahn could not order (indeg[v] > 0).
 * Every such kernel has a predecessor among them, so walking predecessors
 * must revisit a kernel: the walk from there is a cycle, reversed. */
static int report_cycle(mmm_program *p, const uint32_t *indeg,
                        mmm_error *err)
{
    struct mmm_program_priv *pv = p->priv;
    size_t n = p->nkernels;
    uint32_t *pos = malloc(n * sizeof *pos), *walk = malloc(n * sizeof *walk);
    if (!pos || !walk) {
        free(pos), free(walk);
        return nomem(err);
    }
    for (size_t v = 0; v < n; v++)
        pos[v] = UINT32_MAX;
    uint32_t v = 0, len = 0;
    while (indeg[v] == 0)
        v++;
    while (pos[v] == UINT32_MAX) {
        pos[v] = len;
        walk[len++] = v;
        uint32_t j = pv->pred_start[v];
        while (indeg[pv->pred[j]] == 0)
            j++;
        v = pv->pred[j];
    }
    /* walk[pos[v]..len) follows edges backwards: reverse it. */
    uint32_t b = pos[v], cnt = len - b;
    char msg[900];
    size_t ml = 0;
    put(msg, sizeof msg, &ml, "cycle: ");
    put_id(msg, sizeof msg, &ml, pv->kernels[walk[b]].id);
    uint32_t shown = 1;
    for (uint32_t i = len - 1; i > b; i--, shown++) {
        if (ml > 600) /* room for the closing part */
            break;
        put(msg, sizeof msg, &ml, " -> ");
        put_id(msg, sizeof msg, &ml, pv->kernels[walk[i]].id);
    }
    if (shown < cnt) {
        char more[64];
        snprintf(more, sizeof more, " -> ... (%u kernels in all)", cnt);
        put(msg, sizeof msg, &ml, more);
    }
    put(msg, sizeof msg, &ml, " -> ");
    put_id(msg, sizeof msg, &ml, pv->kernels[walk[b]].id);
    /* The line of the cycle's first edge. */
    uint32_t a = walk[b], c = cnt > 1 ? walk[len - 1] : walk[b];
    long line = 0;
    for (size_t i = 0; i < p->nedges && !line; i++)
        if (pv->edges[i].from == a && pv->edges[i].to == c)
            line = pv->edges[i].line;
    free(pos);
    free(walk);
    return mmm_error_set(err, MMM_ECYCLE, p->file, line, "%s", msg);
}

/* Kahn's algorithm, FIFO from the sources in declaration order. */
static int build_topo(mmm_program *p, mmm_error *err)
{
    struct mmm_program_priv *pv = p->priv;
    size_t n = p->nkernels;
    uint32_t *indeg = mmm__big_malloc((n ? n : 1) * sizeof *indeg);
    uint32_t *topo = mmm__big_malloc((n ? n : 1) * sizeof *topo);
    if (!indeg || !topo) {
        mmm__big_free(indeg), mmm__big_free(topo);
        return nomem(err);
    }
    size_t tail = 0;
    for (size_t v = 0; v < n; v++) {
        indeg[v] = pv->pred_start[v + 1] - pv->pred_start[v];
        if (!indeg[v])
            topo[tail++] = (uint32_t)v;
    }
    for (size_t head = 0; head < tail; head++) {
        uint32_t u = topo[head];
        for (uint32_t j = pv->succ_start[u]; j < pv->succ_start[u + 1]; j++)
            if (--indeg[pv->succ[j]] == 0)
                topo[tail++] = pv->succ[j];
    }
    int r = 0;
    if (tail < n)
        r = report_cycle(p, indeg, err);
    mmm__big_free(indeg);
    if (r < 0) {
        mmm__big_free(topo);
        return r;
    }
    pv->topo = topo;
    p->topo = topo;
    return 0;
}

int mmm_program_finalize(mmm_program *p, mmm_error *err)
{
    int r = check_open(p, err);
    if (r < 0)
        return r;
    struct mmm_program_priv *pv = p->priv;
    for (size_t i = 0; i < p->nkernels; i++)
        if (pv->kernels[i].nclasses == 0)
            return mmm_error_set(err, MMM_EINPUT, p->file,
                                 pv->kernels[i].line,
                                 "kernel '%s' has no blocks (give blocks=... "
                                 "or <blocks> children)",
                                 pv->kernels[i].id);
    if ((r = resolve_pending(p, err)) < 0 || (r = build_csr(p, err)) < 0 ||
        (r = build_topo(p, err)) < 0)
        return r;
    if ((r = mmm__sp_plan_build(&pv->sp, p->nkernels, pv->succ_start,
                                pv->succ, err)) < 0)
        return r;
    /* The dedupe table is not needed any more: the entries stay. */
    free(pv->expr_slots);
    pv->expr_slots = NULL;
    pv->expr_slots_cap = 0;
    sync_views(p);
    p->finalized = 1;
    return 0;
}
