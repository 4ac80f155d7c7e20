/* render_group.c: the kinds of the kernels and the condensed picture of a
 * large DAG (render_group.h). */
#include "render_group.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const mmm__kind_fill[MMM_KIND_COLOURS] = {
    "#8dd3c7", "#fdb462", "#bebada", "#fb8072", "#80b1d3", "#b3de69",
    "#fccde5", "#ffffb3", "#bc80bd", "#ccebc5", "#ffed6f"};

const char *mmm__kind_colour(uint32_t kind)
{
    return kind < MMM_KIND_COLOURS ? mmm__kind_fill[kind] : MMM_KIND_OTHER;
}

static int nomem(mmm_error *err)
{
    return mmm_error_set(err, MMM_ENOMEM, NULL, 0, "out of memory");
}

char *mmm__fmt_thousands(long long v, char *buf, size_t size)
{
    char d[32];
    size_t n, i, o = 0;
    int neg = v < 0;
    snprintf(d, sizeof d, "%llu", neg ? 0ULL - (unsigned long long)v : (unsigned long long)v);
    n = strlen(d);
    if (size == 0)
        return buf;
    if (neg && o + 1 < size)
        buf[o++] = '-';
    for (i = 0; i < n && o + 1 < size; i++) {
        if (i > 0 && (n - i) % 3 == 0 && o + 2 < size)
            buf[o++] = ',';
        buf[o++] = d[i];
    }
    buf[o] = '\0';
    return buf;
}

/* ------------------------------------------------------------------ */
/* Kinds                                                               */

/* Length of the kind an id names: without its trailing digits, then
 * without the separators before them. */
static size_t stem_len(const char *id)
{
    size_t n = strlen(id);
    while (n > 0 && id[n - 1] >= '0' && id[n - 1] <= '9')
        n--;
    while (n > 0 && strchr("_-.#:/ ", id[n - 1]))
        n--;
    return n;
}

typedef struct keyed {
    const char *key;
    uint32_t k;
} keyed;

static int keyed_cmp(const void *a, const void *b)
{
    const keyed *x = a, *y = b;
    int c = strcmp(x->key, y->key);
    return c ? c : (x->k > y->k) - (x->k < y->k);
}

static const size_t *kind_count_sort;
static const char *const *kind_name_sort;
static int kind_cmp(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    if (kind_count_sort[x] != kind_count_sort[y])
        return kind_count_sort[x] > kind_count_sort[y] ? -1 : 1;
    return strcmp(kind_name_sort[x], kind_name_sort[y]);
}

void mmm__kinds_dispose(mmm__kinds *k)
{
    free(k->name);
    free(k->count);
    free(k->of);
    free(k->names);
    memset(k, 0, sizeof *k);
}

int mmm__kinds_compute(mmm__kinds *out, const mmm_program *p, mmm_error *err)
{
    size_t n = p->nkernels, total = 0, i, nk = 0, o = 0;
    keyed *ks = NULL;
    uint32_t *order = NULL, *rank = NULL;
    const char **nm = NULL;
    size_t *cnt = NULL;
    memset(out, 0, sizeof *out);
    for (i = 0; i < n; i++) {
        const char *t = mmm_kernel_type(p, i);
        if (t)
            out->declared = 1;
        total += (t ? strlen(t) : mmm_kernel_copy(p, i) != MMM_COPY_NONE
                                      ? 16 : stem_len(p->kernels[i].id) + 5) + 1;
    }
    out->names = malloc(total ? total : 1);
    out->of = malloc((n ? n : 1) * sizeof *out->of);
    ks = malloc((n ? n : 1) * sizeof *ks);
    if (!out->names || !out->of || !ks)
        goto oom;
    for (i = 0; i < n; i++) {
        const char *t = mmm_kernel_type(p, i);
        char *d = out->names + o;
        if (t)
            strcpy(d, t);
        else if (mmm_kernel_copy(p, i) != MMM_COPY_NONE)
            snprintf(d, 16, "%s copy", mmm_copy_kind_name(mmm_kernel_copy(p, i)));
        else if (stem_len(p->kernels[i].id) == 0)
            strcpy(d, "task");
        else {
            size_t l = stem_len(p->kernels[i].id);
            memcpy(d, p->kernels[i].id, l);
            d[l] = '\0';
        }
        o += strlen(d) + 1;
        ks[i].key = d;
        ks[i].k = (uint32_t)i;
    }
    qsort(ks, n, sizeof *ks, keyed_cmp);
    for (i = 0; i < n; i++)
        if (i == 0 || strcmp(ks[i].key, ks[i - 1].key))
            nk++;
    nm = malloc((nk ? nk : 1) * sizeof *nm);
    cnt = calloc(nk ? nk : 1, sizeof *cnt);
    order = malloc((nk ? nk : 1) * sizeof *order);
    rank = malloc((nk ? nk : 1) * sizeof *rank);
    if (!nm || !cnt || !order || !rank)
        goto oom;
    for (i = 0, nk = 0; i < n; i++) {
        if (i == 0 || strcmp(ks[i].key, ks[i - 1].key))
            nm[nk++] = ks[i].key;
        cnt[nk - 1]++;
        out->of[ks[i].k] = (uint32_t)(nk - 1);
    }
    /* number the kinds by decreasing count */
    for (i = 0; i < nk; i++)
        order[i] = (uint32_t)i;
    kind_count_sort = cnt;
    kind_name_sort = nm;
    qsort(order, nk, sizeof *order, kind_cmp);
    out->name = malloc((nk ? nk : 1) * sizeof *out->name);
    out->count = malloc((nk ? nk : 1) * sizeof *out->count);
    if (!out->name || !out->count)
        goto oom;
    for (i = 0; i < nk; i++) {
        rank[order[i]] = (uint32_t)i;
        out->name[i] = nm[order[i]];
        out->count[i] = cnt[order[i]];
    }
    for (i = 0; i < n; i++)
        out->of[i] = rank[out->of[i]];
    out->n = nk;
    free(ks);
    free(nm);
    free(cnt);
    free(order);
    free(rank);
    return 0;
oom:
    free(ks);
    free(nm);
    free(cnt);
    free(order);
    free(rank);
    mmm__kinds_dispose(out);
    return nomem(err);
}

/* ------------------------------------------------------------------ */
/* Levels and condensation                                             */

int mmm__levels(const mmm_program *p, uint32_t **level_out, uint32_t *nlevels,
                size_t *widest, mmm_error *err)
{
    size_t n = p->nkernels, i;
    uint32_t *level = calloc(n ? n : 1, sizeof *level), j, nl = 0;
    size_t *width;
    if (!level)
        return nomem(err);
    for (i = 0; i < n; i++) {
        uint32_t u = p->topo[i];
        for (j = p->succ_start[u]; j < p->succ_start[u + 1]; j++)
            if (level[p->succ[j]] < level[u] + 1)
                level[p->succ[j]] = level[u] + 1;
    }
    for (i = 0; i < n; i++)
        if (level[i] + 1 > nl)
            nl = level[i] + 1;
    *nlevels = nl;
    *widest = 0;
    width = calloc(nl ? nl : 1, sizeof *width);
    if (!width) {
        free(level);
        return nomem(err);
    }
    for (i = 0; i < n; i++)
        if (++width[level[i]] > *widest)
            *widest = width[level[i]];
    free(width);
    *level_out = level;
    return 0;
}

void mmm__condensed_dispose(mmm__condensed *c)
{
    free(c->group);
    free(c->edge);
    free(c->group_of);
    memset(c, 0, sizeof *c);
}

/* Sort keys of the kernels: level, single (a kernel of its own), kind,
 * then topological position. */
typedef struct ckey {
    uint32_t level, single, kind, pos, k;
} ckey;

static int ckey_cmp(const void *a, const void *b)
{
    const ckey *x = a, *y = b;
    if (x->level != y->level)
        return x->level < y->level ? -1 : 1;
    if (x->single != y->single)
        return x->single < y->single ? -1 : 1;
    if (x->kind != y->kind)
        return x->kind < y->kind ? -1 : 1;
    if (x->single && x->pos != y->pos)
        return x->pos < y->pos ? -1 : 1;
    return 0;
}

static int same_group(const ckey *x, const ckey *y)
{
    return x->level == y->level && !x->single && !y->single && x->kind == y->kind;
}

static int cedge_cmp(const void *a, const void *b)
{
    const mmm__cedge *x = a, *y = b;
    if (x->from != y->from)
        return x->from < y->from ? -1 : 1;
    return (x->to > y->to) - (x->to < y->to);
}

static uint32_t find(uint32_t *parent, uint32_t g)
{
    while (parent[g] != g)
        g = parent[g] = parent[parent[g]];
    return g;
}

/* The distinct edges between groups of c->group_of, with counts (self
 * loops dropped): c->edge, c->nedges. */
static int group_edges(mmm__condensed *c, const mmm_program *p, const uint32_t *span_next,
                       mmm_error *err)
{
    size_t i, n = 0;
    mmm__cedge *e = malloc((p->nedges ? p->nedges : 1) * sizeof *e);
    if (!e)
        return nomem(err);
    for (i = 0; i < p->nedges; i++) {
        uint32_t u = p->edges[i].from, v = p->edges[i].to;
        if (c->group_of[u] == c->group_of[v])
            continue;
        e[n].from = c->group_of[u];
        e[n].to = c->group_of[v];
        e[n].count = 1;
        e[n].span = span_next[u] == v;
        n++;
    }
    qsort(e, n, sizeof *e, cedge_cmp);
    {
        size_t w = 0;
        for (i = 0; i < n; i++) {
            if (w > 0 && e[w - 1].from == e[i].from && e[w - 1].to == e[i].to) {
                e[w - 1].count++;
                e[w - 1].span |= e[i].span;
            } else {
                e[w++] = e[i];
            }
        }
        n = w;
    }
    free(c->edge);
    c->edge = e;
    c->nedges = n;
    return 0;
}

/* Fold chains: g into its only successor h when h has no other
 * predecessor and both are groups of the same kind and count. */
static int fold_chains(mmm__condensed *c, const mmm_program *p, mmm_error *err)
{
    size_t ng = c->ngroups, i, w = 0;
    uint32_t *parent = malloc((ng ? ng : 1) * sizeof *parent);
    uint32_t *outd = calloc(ng ? ng : 1, sizeof *outd), *ind = calloc(ng ? ng : 1, sizeof *ind);
    uint32_t *remap = malloc((ng ? ng : 1) * sizeof *remap);
    int rc = 0, folded = 0;
    if (!parent || !outd || !ind || !remap) {
        rc = nomem(err);
        goto done;
    }
    for (i = 0; i < ng; i++)
        parent[i] = (uint32_t)i;
    for (i = 0; i < c->nedges; i++) {
        outd[c->edge[i].from]++;
        ind[c->edge[i].to]++;
    }
    for (i = 0; i < c->nedges; i++) { /* by source group: by level */
        const mmm__cgroup *g = &c->group[c->edge[i].from], *h = &c->group[c->edge[i].to];
        if (outd[c->edge[i].from] == 1 && ind[c->edge[i].to] == 1 && !g->single &&
            !h->single && g->kind == h->kind && g->count == h->count) {
            parent[c->edge[i].to] = find(parent, c->edge[i].from);
            folded = 1;
        }
    }
    if (!folded)
        goto done;
    /* merge: the root (lowest level) keeps its place; group_totals
     * recomputes the totals from the kernels */
    for (i = 0; i < ng; i++)
        if (parent[i] == i) {
            remap[i] = (uint32_t)w;
            c->group[w++] = c->group[i];
        }
    for (i = 0; i < p->nkernels; i++)
        c->group_of[i] = remap[find(parent, c->group_of[i])];
    c->ngroups = w;
    rc = 1;
done:
    free(parent);
    free(outd);
    free(ind);
    free(remap);
    return rc;
}

/* Totals of every group from its kernels. */
static void group_totals(mmm__condensed *c, const mmm_instance *inst,
                         const unsigned char *on_span, const uint32_t *level)
{
    const mmm_program *p = inst->program;
    size_t i;
    for (i = 0; i < c->ngroups; i++) {
        mmm__cgroup *g = &c->group[i];
        g->count = 0;
        g->launches = 0;
        g->W = g->S = g->O = g->C = 0;
        g->on_span = 0;
        g->level_lo = UINT32_MAX;
        g->level_hi = 0;
        g->kernel = UINT32_MAX;
    }
    for (i = 0; i < p->nkernels; i++) {
        uint32_t k = p->topo[i];
        mmm__cgroup *g = &c->group[c->group_of[k]];
        const mmm_kernel_val *kv = &inst->kernels[k];
        if (g->kernel == UINT32_MAX)
            g->kernel = k;
        g->count++;
        g->launches += kv->repeat;
        g->W += kv->W;
        g->O += kv->O;
        if (kv->S > g->S)
            g->S = kv->S;
        if (kv->C > g->C)
            g->C = kv->C;
        g->on_span |= on_span[k];
        if (level[k] < g->level_lo)
            g->level_lo = level[k];
        if (level[k] > g->level_hi)
            g->level_hi = level[k];
    }
}

int mmm__condense(mmm__condensed *c, const mmm_instance *inst, const mmm_metrics *m,
                  const mmm__kinds *kinds, int critical, mmm_error *err)
{
    const mmm_program *p = inst->program;
    size_t n = p->nkernels, i, ng = 0;
    uint32_t *level = NULL, *span_next = NULL, *pos = NULL;
    unsigned char *on_span = NULL;
    ckey *key = NULL;
    int rc;
    memset(c, 0, sizeof *c);
    if ((rc = mmm__levels(p, &level, &c->nlevels, &c->widest, err)) < 0)
        return rc;
    span_next = malloc((n ? n : 1) * sizeof *span_next);
    pos = malloc((n ? n : 1) * sizeof *pos);
    on_span = calloc(n ? n : 1, 1);
    key = malloc((n ? n : 1) * sizeof *key);
    c->group_of = malloc((n ? n : 1) * sizeof *c->group_of);
    c->group = malloc((n ? n : 1) * sizeof *c->group);
    if (!span_next || !pos || !on_span || !key || !c->group_of || !c->group) {
        rc = nomem(err);
        goto done;
    }
    for (i = 0; i < n; i++) {
        span_next[i] = UINT32_MAX;
        pos[p->topo[i]] = (uint32_t)i;
    }
    for (i = 0; i < m->span_path_len; i++) {
        on_span[m->span_path[i]] = 1;
        if (i + 1 < m->span_path_len)
            span_next[m->span_path[i]] = m->span_path[i + 1];
    }
    for (i = 0; i < n; i++) {
        key[i].level = level[i];
        key[i].single = critical && on_span[i];
        key[i].kind = kinds->of[i];
        key[i].pos = pos[i];
        key[i].k = (uint32_t)i;
    }
    qsort(key, n, sizeof *key, ckey_cmp);
    for (i = 0; i < n; i++) {
        if (i == 0 || !same_group(&key[i - 1], &key[i])) {
            memset(&c->group[ng], 0, sizeof c->group[ng]);
            c->group[ng].kind = key[i].kind;
            c->group[ng].level_lo = key[i].level;
            c->group[ng].single = (unsigned char)key[i].single;
            ng++;
        }
        c->group[ng - 1].count++;
        c->group_of[key[i].k] = (uint32_t)(ng - 1);
    }
    c->ngroups = ng;
    if ((rc = group_edges(c, p, span_next, err)) < 0 ||
        (rc = fold_chains(c, p, err)) < 0)
        goto done;
    if (rc == 1 && (rc = group_edges(c, p, span_next, err)) < 0)
        goto done;
    group_totals(c, inst, on_span, level);
    rc = 0;
done:
    free(level);
    free(span_next);
    free(pos);
    free(on_span);
    free(key);
    if (rc < 0)
        mmm__condensed_dispose(c);
    return rc;
}
