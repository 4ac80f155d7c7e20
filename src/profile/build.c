/* build.c: the DAG file from the points' launches (mmm_profile_build).
 *
 * Without a skeleton, each point's launches, in launch order, become
 * kernels: consecutive identical launches (the same kernel on the same
 * stream with the same attributes) one kernel with a repeat, and each
 * kernel follows the previous one of its stream (an edge), the nodes a
 * CUDA graph ran it after, and what a launch trace's records of stream
 * order (events, the host's waits, the legacy default stream) make it
 * wait for (put_edges).  A kernel is
 * named after its function (return type, template arguments and
 * parameters dropped: sgemm_k<16> and sgemm_k<32> are both sgemm_k), with
 * "#2", "#3" for the later places the same function is launched from.
 * One point gives its own exact DAG; several points must launch the same
 * kernels in the same order, and each attribute (and repeat) becomes an
 * expression in the parameters (exprfit.c).  With a skeleton, skeleton.c
 * fills in the skeleton's "?" instead. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mmm/version.h"
#include "profile_internal.h"
#include "base/grow.h"
#include "base/file.h"
#include "base/outfile.h"
#include "base/abi.h"


/* ------------------------------------------------------------------ */
/* Kernels of one point                                                */

typedef struct pgroup {
    size_t first, count;
    char id[160];
    mmm_value a[PA_N]; /* the launches' attributes: the L1's wavefronts as
                          their mean */
} pgroup;

/* The L1's wavefronts of a launch depend on timing (hits and misses of
 * gathers), so launches that do the same work may count a few more or
 * fewer: within this share they are the same. */
#define WAVEFRONT_SPREAD 0.1

int mmm__same_launch(const mmm__profile_launch *a, const mmm__profile_launch *b)
{
    if (strcmp(a->kernel, b->kernel) || strcmp(a->stream, b->stream) ||
        a->have_a != b->have_a || a->graph != b->graph || a->node != b->node)
        return 0;
    for (int k = 0; k < PA_N; k++) {
        if (!(a->have_a & (1u << k)) || mmm__pv_equal(a->a[k], b->a[k]))
            continue;
        if ((k == PA_WAVEFRONTS || k == PA_GLOBAL_WAVEFRONTS) &&
            fabs(a->a[k].d - b->a[k].d) <=
                WAVEFRONT_SPREAD * fmax(fabs(a->a[k].d), fabs(b->a[k].d)))
            continue;
        return 0;
    }
    return 1;
}

/* The copies and sets of a point (those of its launch trace), in the
 * order they were issued; *n of them (NULL, 0 when none). */
static const mmm__copy **point_copies(const mmm__profile_point *pt, size_t *n)
{
    size_t total = 0, k = 0;
    for (size_t c = 0; c < pt->ncaps; c++)
        total += mmm__ncu_ncopies(pt->caps[c]);
    *n = total;
    if (!total)
        return NULL;
    const mmm__copy **v = malloc(total * sizeof *v);
    if (!v)
        return NULL;
    for (size_t c = 0; c < pt->ncaps; c++)
        for (size_t j = 0; j < mmm__ncu_ncopies(pt->caps[c]); j++)
            v[k++] = mmm__ncu_copy(pt->caps[c], j);
    return v;
}

/* The copy kinds of the format: h2d, d2h, d2d, set (-1: none). */
static int copy_kind(const mmm__copy *c)
{
    switch (c->kind) {
    case MMM__COPY_H2D: return MMM_COPY_H2D;
    case MMM__COPY_D2H: return MMM_COPY_D2H;
    case MMM__COPY_D2D: return MMM_COPY_D2D;
    case MMM__COPY_SET: return MMM_COPY_SET;
    default: return -1;
    }
}

/* A node of the DAG a point gives: a group of launches, or a run of
 * identical copies (same kind, bytes, stream) between two launches. */
typedef struct pnode {
    int copy;          /* 0: the group `group`; else the copy kind */
    size_t group;      /* kernel groups: its index */
    const mmm__copy *c; /* copies: the first of the run */
    int64_t count;     /* copies: the calls of the run */
    size_t cfirst, clast; /* copies: the run's first and last in the point's
                             copies (those between of other kinds left out) */
    char id[64];       /* copies */
} pnode;

/* A node's id: a run of copies its own, a group its first launch's. */
static const char *node_id(const pgroup *g, const pnode *nd)
{
    return nd->copy ? nd->id : g[nd->group].id;
}


static void put_attr(mmm__text *t, const char *name, const char *value)
{
    mmm__text_printf(t, " %s=\"", name);
    mmm__text_put_xml(t, value);
    mmm__text_put(t, "\"");
}

/* ------------------------------------------------------------------ */
/* CUDA graphs                                                         */

/* The graph structure of a point (its launch trace's): the edges of the
 * graphs instantiated, the executables made from them, the nodes cloned
 * into the executables. */
typedef struct pgraphs {
    const mmm__graph_link **l;
    size_t n;
} pgraphs;

static int point_graphs(const mmm__profile_point *pt, pgraphs *gs)
{
    size_t total = 0, k = 0;
    gs->l = NULL;
    gs->n = 0;
    for (size_t c = 0; c < pt->ncaps; c++)
        total += mmm__ncu_nlinks(pt->caps[c]);
    if (!total)
        return 0;
    if (!(gs->l = malloc(total * sizeof *gs->l)))
        return -1;
    for (size_t c = 0; c < pt->ncaps; c++)
        for (size_t j = 0; j < mmm__ncu_nlinks(pt->caps[c]); j++)
            gs->l[k++] = mmm__ncu_link(pt->caps[c], j);
    gs->n = total;
    return 0;
}

/* The graph and node a launch ran as the graph instantiated knows them:
 * an executable's id to its graph's, a cloned node to the node it was
 * cloned from (CUPTI gives a launch the executable's ids). */
static void graph_origin(const pgraphs *gs, uint32_t graph, uint64_t node, uint32_t *g,
                         uint64_t *v)
{
    *g = graph;
    *v = node;
    for (size_t i = 0; i < gs->n; i++)
        if (gs->l[i]->kind == MMM__GRAPH_EXEC && gs->l[i]->a == graph) {
            *g = gs->l[i]->graph;
            break;
        }
    for (int hop = 0; hop < 4; hop++) {
        size_t i = 0;
        while (i < gs->n && !(gs->l[i]->kind == MMM__GRAPH_CLONE && gs->l[i]->a == *v))
            i++;
        if (i == gs->n)
            break;
        *v = gs->l[i]->b;
    }
}

static void pnode_graph(const mmm__profile_point *pt, const pgroup *g, const pnode *nd,
                        const pgraphs *gs, uint32_t *graph, uint64_t *node)
{
    if (nd->copy)
        graph_origin(gs, nd->c->graph, nd->c->node, graph, node);
    else
        graph_origin(gs, pt->l[g[nd->group].first].graph, pt->l[g[nd->group].first].node,
                     graph, node);
}

static void put_edge(mmm__text *t, const char *from, const char *to)
{
    mmm__text_put(t, "  <edge");
    put_attr(t, "from", from);
    put_attr(t, "to", to);
    mmm__text_put(t, "/>\n");
}

/* The edges of point pt's DAG: a node that a CUDA graph ran after others
 * (an edge of the graph into its node) follows the last node before it
 * that ran each of them; every other node follows the previous node of
 * its stream (a graph's first nodes: what its stream did before the
 * graph's launch). */
/* ------------------------------------------------------------------ */
/* Stream order                                                        */

/* A list of node indices. */
typedef struct ilist {
    size_t *v;
    size_t n, cap;
} ilist;

static int ilist_add(ilist *l, size_t x)
{
    size_t *nv = mmm__grow(l->v, &l->cap, l->n + 1, sizeof *nv, 8);
    if (!nv)
        return -1;
    l->v = nv;
    l->v[l->n++] = x;
    return 0;
}

static int ilist_cat(ilist *l, const ilist *m)
{
    for (size_t i = 0; i < m->n; i++)
        if (ilist_add(l, m->v[i]) < 0)
            return -1;
    return 0;
}

/* What a stream has issued: its last node (none: SIZE_MAX), the events it
 * waits for before its next one (their nodes), how many of the host's
 * waits its next node has seen, its kind. */
typedef struct pstream {
    const char *name;
    size_t last;
    ilist pend;
    size_t seen;
    mmm__stream_kind kind;
    size_t met; /* the node of the other side of the legacy default
                   stream's synchronization it last followed or gave */
} pstream;

/* The nodes an event stands for, by the event's id. */
typedef struct pevent {
    uint64_t id;
    ilist at;
} pevent;

typedef struct porder {
    pstream *s;
    size_t ns, caps;
    pevent *e;
    size_t ne, cape;
    size_t *slot; /* an index of e by id: open addressing, i + 1 (0 free) */
    size_t nslot; /* a power of two, at least twice ne */
    ilist host;  /* nodes the host waited for: every later node follows them */
    int legacy;  /* the trace names the legacy default stream */
} porder;

static pstream *stream_of(porder *o, const char *name)
{
    for (size_t i = 0; i < o->ns; i++)
        if (!strcmp(o->s[i].name, name))
            return &o->s[i];
    pstream *ns = mmm__grow(o->s, &o->caps, o->ns + 1, sizeof *ns, 8);
    if (!ns)
        return NULL;
    o->s = ns;
    pstream *st = &o->s[o->ns++];
    memset(st, 0, sizeof *st);
    st->name = name;
    st->last = st->met = SIZE_MAX;
    st->kind = MMM__STREAM_BLOCKING;
    return st;
}

static size_t event_hash(uint64_t id, size_t nslot)
{
    return (size_t)((id * UINT64_C(0x9E3779B97F4A7C15)) >> 17) & (nslot - 1);
}

/* Event id's entry; with make, a new one where there is none (NULL out of
 * memory, or without make when there is none).  A trace can record an
 * event for every launch: the index keeps each lookup O(1). */
static pevent *event_of(porder *o, uint64_t id, int make)
{
    size_t h = o->nslot ? event_hash(id, o->nslot) : 0;
    for (; o->nslot && o->slot[h]; h = (h + 1) & (o->nslot - 1))
        if (o->e[o->slot[h] - 1].id == id)
            return &o->e[o->slot[h] - 1];
    if (!make)
        return NULL;
    if (2 * (o->ne + 1) > o->nslot) {
        size_t n = o->nslot ? 2 * o->nslot : 64;
        size_t *ns = calloc(n, sizeof *ns);
        if (!ns)
            return NULL;
        for (size_t i = 0; i < o->ne; i++) {
            size_t k = event_hash(o->e[i].id, n);
            while (ns[k])
                k = (k + 1) & (n - 1);
            ns[k] = i + 1;
        }
        free(o->slot);
        o->slot = ns;
        o->nslot = n;
        for (h = event_hash(id, n); o->slot[h]; h = (h + 1) & (n - 1))
            ;
    }
    pevent *ne = mmm__grow(o->e, &o->cape, o->ne + 1, sizeof *ne, 8);
    if (!ne)
        return NULL;
    o->e = ne;
    pevent *ev = &o->e[o->ne++];
    memset(ev, 0, sizeof *ev);
    ev->id = id;
    o->slot[h] = o->ne;
    return ev;
}

static void porder_free(porder *o)
{
    for (size_t i = 0; i < o->ns; i++)
        free(o->s[i].pend.v);
    for (size_t i = 0; i < o->ne; i++)
        free(o->e[i].at.v);
    free(o->s);
    free(o->e);
    free(o->slot);
    free(o->host.v);
}

/* A stream's last node and the events it waits for. */
static int stream_state(const pstream *st, ilist *out)
{
    if (st->last != SIZE_MAX && ilist_add(out, st->last) < 0)
        return -1;
    return ilist_cat(out, &st->pend);
}

/* A record of stream order (sync row) applied to o. */
static int order_sync(porder *o, const mmm__sync *sy)
{
    pstream *st = sy->stream[0] ? stream_of(o, sy->stream) : NULL;
    pevent *ev;
    if (sy->stream[0] && !st)
        return -1;
    switch (sy->kind) {
    case MMM__SYNC_STREAM:
        st->kind = sy->flag;
        o->legacy |= sy->flag == MMM__STREAM_NULL;
        return 0;
    case MMM__SYNC_RECORD:
        /* the event stands for what the stream has issued so far (a
           re-recorded event forgets its earlier record) */
        if (!(ev = event_of(o, sy->event, 1)))
            return -1;
        ev->at.n = 0;
        return stream_state(st, &ev->at);
    case MMM__SYNC_WAIT:
        ev = event_of(o, sy->event, 0);
        return ev ? ilist_cat(&st->pend, &ev->at) : 0;
    case MMM__SYNC_HOST:
        if (st)
            return stream_state(st, &o->host);
        if (sy->event) {
            ev = event_of(o, sy->event, 0);
            return ev ? ilist_cat(&o->host, &ev->at) : 0;
        }
        for (size_t i = 0; i < o->ns; i++)
            if (stream_state(&o->s[i], &o->host) < 0)
                return -1;
        return 0;
    }
    return 0;
}

static void edge_once(mmm__text *t, size_t *mark, const pgroup *g, const pnode *nodes,
                      size_t p, size_t v)
{
    if (p == v || p == SIZE_MAX || mark[p] == v)
        return;
    mark[p] = v;
    put_edge(t, node_id(g, &nodes[p]), node_id(g, &nodes[v]));
}

/* The predecessors stream order gives node v, issued on stream st: the
 * stream's last node, the events it waits for, what the host waited for
 * since the stream's last node, and where the trace names the legacy
 * default stream, its synchronization: a node on it follows the last node
 * of every blocking stream, a node on a blocking stream the default
 * stream's last. */
static int order_node(porder *o, mmm__text *t, size_t *mark, const pgroup *g,
                      const pnode *nodes, pstream *st, size_t v, int put)
{
    if (put) {
        /* put == 0: a node a CUDA graph ran after others, whose edges
           graph_edges_into wrote */
        edge_once(t, mark, g, nodes, st->last, v);
        for (size_t i = 0; i < st->pend.n; i++)
            edge_once(t, mark, g, nodes, st->pend.v[i], v);
        for (size_t i = st->seen; i < o->host.n; i++)
            edge_once(t, mark, g, nodes, o->host.v[i], v);
        /* each edge of that synchronization once: a blocking stream
           remembers the default stream's node it followed, and each
           blocking stream the node of its own that the default stream
           followed */
        for (size_t i = 0; o->legacy && st->kind != MMM__STREAM_NONBLOCKING && i < o->ns; i++) {
            pstream *u = &o->s[i];
            if (u == st || u->last == SIZE_MAX)
                continue;
            if (st->kind == MMM__STREAM_NULL && u->kind == MMM__STREAM_BLOCKING &&
                u->met != u->last) {
                edge_once(t, mark, g, nodes, u->last, v);
                u->met = u->last;
            } else if (st->kind == MMM__STREAM_BLOCKING && u->kind == MMM__STREAM_NULL &&
                       st->met != u->last) {
                edge_once(t, mark, g, nodes, u->last, v);
                st->met = u->last;
            }
        }
    }
    st->last = v;
    st->pend.n = 0;
    st->seen = o->host.n;
    return 0;
}

static const mmm__sync **point_syncs(const mmm__profile_point *pt, size_t *n)
{
    size_t total = 0, k = 0;
    for (size_t c = 0; c < pt->ncaps; c++)
        total += mmm__ncu_nsyncs(pt->caps[c]);
    *n = total;
    if (!total)
        return NULL;
    const mmm__sync **v = malloc(total * sizeof *v);
    if (!v)
        return NULL;
    for (size_t c = 0; c < pt->ncaps; c++)
        for (size_t j = 0; j < mmm__ncu_nsyncs(pt->caps[c]); j++)
            v[k++] = mmm__ncu_sync(pt->caps[c], j);
    return v;
}

/* The edges into node k from the nodes its CUDA graph ran it after (the
 * last node before k that ran each of its predecessors). */
static void graph_edges_into(mmm__text *t, size_t *mark, const pgroup *g, const pnode *nodes,
                             const pgraphs *gs, const uint32_t *gg, const uint64_t *gv,
                             size_t k)
{
    for (size_t e = 0; gg[k] && e < gs->n; e++) {
        const mmm__graph_link *l = gs->l[e];
        if (l->kind != MMM__GRAPH_EDGE || l->graph != gg[k] || l->b != gv[k])
            continue;
        size_t j = k;
        while (j-- > 0 && !(gg[j] == gg[k] && gv[j] == l->a))
            ;
        if (j < k)
            edge_once(t, mark, g, nodes, j, k);
    }
}

/* The edges of a point's nodes, in issue order: a node a CUDA graph ran
 * after others follows them; any other follows what stream order gives it
 * (order_node). */
static int put_edges(mmm__text *t, const mmm__profile_point *pt, const pgroup *g,
                     const pnode *nodes, size_t nn)
{
    pgraphs gs;
    porder o;
    size_t ncp = 0, nsy = 0;
    const mmm__copy **cp = point_copies(pt, &ncp);
    const mmm__sync **sy = point_syncs(pt, &nsy);
    uint32_t *gg = malloc((nn ? nn : 1) * sizeof *gg);
    uint64_t *gv = malloc((nn ? nn : 1) * sizeof *gv);
    size_t *mark = malloc((nn ? nn : 1) * sizeof *mark);
    size_t *lnode = malloc((pt->n ? pt->n : 1) * sizeof *lnode);
    size_t *cnode = malloc((ncp ? ncp : 1) * sizeof *cnode);
    unsigned char *into = calloc(nn ? nn : 1, 1);
    int rc = 0;
    memset(&o, 0, sizeof o);
    gs.l = NULL;
    if (!gg || !gv || !mark || !lnode || !cnode || !into || (ncp && !cp) || (nsy && !sy) ||
        point_graphs(pt, &gs) < 0) {
        rc = -1;
        goto out;
    }
    for (size_t i = 0; i < pt->n; i++)
        lnode[i] = SIZE_MAX;
    for (size_t j = 0; j < ncp; j++)
        cnode[j] = SIZE_MAX;
    for (size_t k = 0; k < nn; k++) {
        mark[k] = SIZE_MAX;
        pnode_graph(pt, g, &nodes[k], &gs, &gg[k], &gv[k]);
        if (nodes[k].copy) {
            for (size_t j = nodes[k].cfirst; j <= nodes[k].clast && j < ncp; j++)
                if (copy_kind(cp[j]) >= 0)
                    cnode[j] = k;
        } else {
            for (size_t i = 0; i < g[nodes[k].group].count; i++)
                lnode[g[nodes[k].group].first + i] = k;
        }
    }
    /* the nodes a CUDA graph ran after others */
    for (size_t k = 0; k < nn; k++)
        for (size_t e = 0; gg[k] && e < gs.n && !into[k]; e++) {
            const mmm__graph_link *l = gs.l[e];
            into[k] = l->kind == MMM__GRAPH_EDGE && l->graph == gg[k] && l->b == gv[k];
        }
    /* then stream order: the launches, copies and records of stream order
       as the host issued them (a copy or record with `before` = i comes
       before launch i; a record with before_copies = j before copy j) */
    size_t j = 0, s = 0;
    for (size_t i = 0; i <= pt->n && rc == 0; i++) {
        while (rc == 0 && ((j < ncp && cp[j]->before <= i) || (s < nsy && sy[s]->before <= i))) {
            if (s < nsy && sy[s]->before <= i && (j >= ncp || sy[s]->before_copies <= j)) {
                rc = order_sync(&o, sy[s++]);
                continue;
            }
            size_t v = cnode[j];
            pstream *st = stream_of(&o, cp[j]->stream);
            j++;
            if (!st)
                rc = -1;
            else if (v != SIZE_MAX) {
                if (into[v] && mark[v] == SIZE_MAX)
                    graph_edges_into(t, mark, g, nodes, &gs, gg, gv, v), mark[v] = v;
                rc = order_node(&o, t, mark, g, nodes, st, v, !into[v]);
            }
        }
        size_t v = i < pt->n ? lnode[i] : SIZE_MAX;
        if (rc == 0 && v != SIZE_MAX) {
            pstream *st = stream_of(&o, pt->l[i].stream);
            if (into[v] && mark[v] == SIZE_MAX)
                graph_edges_into(t, mark, g, nodes, &gs, gg, gv, v), mark[v] = v;
            rc = st ? order_node(&o, t, mark, g, nodes, st, v, !into[v]) : -1;
        }
    }
out:
    porder_free(&o);
    free(gs.l);
    free(cp);
    free(sy);
    free(gg);
    free(gv);
    free(mark);
    free(lnode);
    free(cnode);
    free(into);
    return rc;
}

static int group_point(const mmm__profile_point *pt, const unsigned char *cut,
                       pgroup **out, size_t *nout)
{
    pgroup *g = NULL;
    size_t n = 0, cap = 0;
    /* the distinct base names so far and how many groups each has (a
     * program has few kernels and many launches) */
    struct {
        char name[140];
        int count;
    } *bases = NULL;
    size_t nb = 0, capb = 0;
    for (size_t i = 0; i < pt->n; i++) {
        if (n && !(cut && cut[i]) && mmm__same_launch(&pt->l[g[n - 1].first], &pt->l[i])) {
            g[n - 1].count++;
            continue;
        }
        pgroup *ng = mmm__grow(g, &cap, n + 1, sizeof *g, 64);
        if (!ng) {
            free(g);
            free(bases);
            return -1;
        }
        g = ng;
        g[n].first = i;
        g[n].count = 1;
        char base[140];
        mmm__kernel_base(pt->l[i].kernel, base, sizeof base);
        size_t b = 0;
        while (b < nb && strcmp(bases[b].name, base))
            b++;
        if (b == nb) {
            void *nbs = mmm__grow(bases, &capb, nb + 1, sizeof *bases, 16);
            if (!nbs) {
                free(g);
                free(bases);
                return -1;
            }
            bases = nbs;
            snprintf(bases[nb].name, sizeof bases[nb].name, "%s", base);
            bases[nb++].count = 0;
        }
        int same = bases[b].count++;
        if (same)
            snprintf(g[n].id, sizeof g[n].id, "%s#%d", base, same + 1);
        else
            snprintf(g[n].id, sizeof g[n].id, "%s", base);
        n++;
    }
    free(bases);
    /* the attributes of each group: the wavefronts' mean */
    for (size_t k = 0; k < n; k++) {
        const mmm__profile_launch *f = &pt->l[g[k].first];
        memcpy(g[k].a, f->a, sizeof g[k].a);
        for (int a = PA_WAVEFRONTS; a <= PA_GLOBAL_WAVEFRONTS; a++) {
            if (!(f->have_a & (1u << a)) || g[k].count == 1)
                continue;
            mmm_value sum = mmm_value_int(0);
            for (size_t i = 0; i < g[k].count; i++)
                sum = mmm__pv_add(sum, pt->l[g[k].first + i].a[a]);
            g[k].a[a] = mmm__pv_div(sum, mmm_value_int((int64_t)g[k].count));
        }
    }
    *out = g;
    *nout = n;
    return 0;
}

/* ------------------------------------------------------------------ */
/* Without a skeleton                                                  */

/* The nodes of a point: its groups, with the runs of copies issued
 * between them; copies of kinds the format lacks are counted in *skipped. */
static int point_nodes(const mmm__profile_point *pt, const pgroup *g, size_t ng,
                       const mmm__copy *const *cp, size_t ncp, pnode **out, size_t *nout,
                       size_t *skipped)
{
    pnode *v = malloc((ng + ncp + 1) * sizeof *v);
    size_t n = 0, j = 0;
    int seen[MMM_COPY_NKINDS] = {0};
    static const char *const base[MMM_COPY_NKINDS] = {"", "memcpy_d2d", "memcpy_h2d",
                                                      "memcpy_d2h", "memset"};
    if (!v)
        return -1;
    for (size_t k = 0; k <= ng; k++) {
        size_t at = k < ng ? g[k].first : pt->n;
        for (; j < ncp && cp[j]->before <= at; j++) {
            int kind = copy_kind(cp[j]);
            if (kind < 0) {
                (*skipped)++;
                continue;
            }
            pnode *last = n ? &v[n - 1] : NULL;
            if (last && last->copy == kind && last->c->bytes == cp[j]->bytes &&
                !strcmp(last->c->stream, cp[j]->stream) && last->c->graph == cp[j]->graph &&
                last->c->node == cp[j]->node) {
                last->count++;
                last->clast = j;
                continue;
            }
            pnode *nd = &v[n++];
            memset(nd, 0, sizeof *nd);
            nd->copy = kind;
            nd->c = cp[j];
            nd->count = 1;
            nd->cfirst = nd->clast = j;
            if (seen[kind]++)
                snprintf(nd->id, sizeof nd->id, "%s#%d", base[kind], seen[kind]);
            else
                snprintf(nd->id, sizeof nd->id, "%s", base[kind]);
        }
        if (k < ng) {
            memset(&v[n], 0, sizeof v[n]);
            v[n++].group = k;
        }
    }
    *out = v;
    *nout = n;
    return 0;
}

/* A run of copies (node nd of every point): its bytes and calls as
 * expressions through the points, with a comment saying where it was
 * traced. */
static int put_copy(mmm_profile *prof, mmm__text *t, const mmm__profile_points *pts,
                    pnode *const *nodes, size_t nd, const mmm_value *x, mmm_value *y,
                    mmm_error *err)
{
    const char *const *names = (const char *const *)pts->pname;
    const pnode *c = &nodes[0][nd];
    mmm__profile_fit fb, fr;
    int rc;
    memset(&fb, 0, sizeof fb);
    memset(&fr, 0, sizeof fr);
    for (size_t i = 0; i < pts->n; i++)
        y[i] = mmm_value_int((int64_t)nodes[i][nd].c->bytes);
    if ((rc = mmm__fit_values(names, pts->nparams, x, y, pts->n, 1, NULL, &fb, err)) < 0)
        return rc;
    for (size_t i = 0; i < pts->n; i++)
        y[i] = mmm_value_int(nodes[i][nd].count);
    if ((rc = mmm__fit_values(names, pts->nparams, x, y, pts->n, 1, NULL, &fr, err)) < 0)
        return rc;
    mmm__text_printf(t, "  <!-- %lld call%s on stream %s, from the launch trace %s:%ld "
                        "(%.4g us the first, as traced) -->\n",
                     (long long)c->count, c->count == 1 ? "" : "s", c->c->stream,
                     pts->p[0].l && pts->p[0].n ? pts->p[0].l[0].file : pts->file,
                     c->c->line, (double)c->c->ns / 1000.0);
    mmm__text_put(t, "  <copy");
    put_attr(t, "id", c->id);
    put_attr(t, "kind", mmm_copy_kind_name((mmm_copy_kind)c->copy));
    put_attr(t, "bytes", fb.text);
    if (strcmp(fr.text, "1"))
        put_attr(t, "repeat", fr.text);
    mmm__text_put(t, "/>\n");
    if (!fb.exact || !fr.exact) {
        prof->napprox++;
        if (mmm__profile_note(prof, "copy '%s': %s = %s is approximate", c->id,
                              fb.exact ? "repeat" : "bytes", fb.exact ? fr.text : fb.text) < 0)
            return mmm_error_set(err, MMM_ENOMEM, pts->file, 0, "out of memory");
    }
    return 0;
}

static int build_plain(mmm_profile *prof, mmm__text *t, const mmm__profile_points *pts,
                       const char *name, mmm_error *err)
{
    pgroup **g = calloc(pts->n, sizeof *g);
    size_t *ng = calloc(pts->n, sizeof *ng);
    mmm_value *y = calloc(pts->n, sizeof *y);
    mmm_value *x = calloc(pts->n * (pts->nparams ? pts->nparams : 1), sizeof *x);
    const mmm__profile_launch **rep = calloc(pts->n, sizeof *rep);
    const char **inst = calloc(pts->n, sizeof *inst);
    int64_t *nl = calloc(pts->n, sizeof *nl);
    pnode **nodes = calloc(pts->n, sizeof *nodes);
    size_t *nn = calloc(pts->n, sizeof *nn), skipped = 0;
    int rc = 0;
    if (!g || !ng || !y || !x || !rep || !inst || !nl || !nodes || !nn) {
        rc = mmm_error_set(err, MMM_ENOMEM, pts->file, 0, "out of memory");
        goto out;
    }
    for (size_t i = 0; i < pts->n; i++) {
        size_t ncp = 0, nsy = 0;
        const mmm__copy **cp = point_copies(&pts->p[i], &ncp);
        const mmm__sync **sy = point_syncs(&pts->p[i], &nsy);
        unsigned char *cut = ncp || nsy ? calloc(pts->p[i].n + 1, 1) : NULL;
        int bad = (ncp && !cp) || (nsy && !sy) || ((ncp || nsy) && !cut);
        /* a copy, an event, a wait or a host wait between two launches
           ends a repeat there */
        for (size_t j = 0; !bad && j < ncp; j++)
            if (cp[j]->before <= pts->p[i].n)
                cut[cp[j]->before] = 1;
        for (size_t j = 0; !bad && j < nsy; j++)
            if (sy[j]->kind != MMM__SYNC_STREAM && sy[j]->before <= pts->p[i].n)
                cut[sy[j]->before] = 1;
        free(sy);
        bad = bad || group_point(&pts->p[i], cut, &g[i], &ng[i]) < 0 ||
              point_nodes(&pts->p[i], g[i], ng[i], cp, ncp, &nodes[i], &nn[i],
                          i == 0 ? &skipped : &(size_t){0}) < 0;
        free(cut);
        free(cp);
        if (bad) {
            rc = mmm_error_set(err, MMM_ENOMEM, pts->file, 0, "out of memory");
            goto out;
        }
        for (size_t j = 0; j < pts->nparams; j++)
            x[i * pts->nparams + j] = pts->p[i].params[j];
    }
    /* the same kernels in the same order at every point */
    for (size_t i = 1; i < pts->n; i++) {
        size_t k = 0;
        while (k < ng[0] && k < ng[i] && !strcmp(g[0][k].id, g[i][k].id) &&
               !strcmp(pts->p[0].l[g[0][k].first].stream,
                       pts->p[i].l[g[i][k].first].stream))
            k++;
        if (k < ng[0] || k < ng[i]) {
            const mmm__profile_point *a = &pts->p[0], *b = &pts->p[i];
            const mmm__profile_launch *lb = k < ng[i] ? &b->l[g[i][k].first] : NULL;
            mmm__text what;
            mmm__text_init(&what);
            if (k < ng[0] && k < ng[i])
                mmm__text_printf(&what,
                                 "its kernel %zu is '%s' on stream %s (%s:%ld), where "
                                 "the point %s has '%s' on stream %s",
                                 k + 1, g[i][k].id, lb->stream, lb->file, lb->line,
                                 a->label, g[0][k].id, a->l[g[0][k].first].stream);
            else if (k < ng[i])
                mmm__text_printf(&what,
                                 "it launches kernel %zu '%s' (%s:%ld) after the %zu "
                                 "kernels of the point %s", k + 1, g[i][k].id,
                                 lb->file, lb->line, ng[0], a->label);
            else
                mmm__text_printf(&what,
                                 "it has %zu kernels where the point %s has %zu (the "
                                 "next is '%s')", ng[i], a->label, ng[0], g[0][k].id);
            rc = mmm_error_set(err, MMM_EINPUT, pts->file, b->line,
                               "the point %s does not launch what the first "
                               "point does: %s.  Without a skeleton every point "
                               "must launch the same kernels in the same order "
                               "(consecutive identical launches counted as one); "
                               "write one (--skeleton, docs/profile.md)",
                               b->label, what.s ? what.s : "");
            mmm__text_dispose(&what);
            goto out;
        }
    }

    /* the same copies between the same kernels at every point */
    for (size_t i = 1; i < pts->n; i++) {
        size_t k = 0;
        while (k < nn[0] && k < nn[i] && nodes[0][k].copy == nodes[i][k].copy &&
               (!nodes[0][k].copy || !strcmp(nodes[0][k].c->stream, nodes[i][k].c->stream)))
            k++;
        if (k < nn[0] || k < nn[i]) {
            const pnode *a = k < nn[0] ? &nodes[0][k] : NULL, *b = k < nn[i] ? &nodes[i][k] : NULL;
            rc = mmm_error_set(err, MMM_EINPUT, pts->file, pts->p[i].line,
                               "the point %s does not copy what the first point does: "
                               "its node %s where the point %s has %s.  Without a "
                               "skeleton every point must issue the same copies and sets "
                               "between the same kernels; write one (--skeleton, "
                               "docs/profile.md)",
                               pts->p[i].label, b ? node_id(g[i], b) : "(none)",
                               pts->p[0].label, a ? node_id(g[0], a) : "nothing");
            goto out;
        }
    }
    size_t nk = ng[0];
    const char *const *names = (const char *const *)pts->pname;
    mmm__text_put(t, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!-- ");
    {
        mmm__text h;
        mmm__text_init(&h);
        mmm__text_printf(&h, "Built by mmm profile %s from %s: %zu point%s, ",
                         MMM_VERSION_STRING, pts->file, pts->n,
                         pts->n == 1 ? "" : "s");
        size_t ncap = 0;
        for (size_t i = 0; i < pts->n; i++)
            ncap += pts->p[i].ncaps;
        mmm__text_printf(&h, "%zu capture%s of Nsight Compute.\n", ncap,
                         ncap == 1 ? "" : "s");
        mmm__text_put(&h, "     Each attribute is measured as docs/profile.md defines "
                          "it; reads and writes are 4-byte words.\n");
        if (pts->n > 1)
            mmm__text_put(&h, "     Each is the simplest expression in the "
                              "parameters that gives every point's value exactly, "
                              "unless its kernel's comment says APPROXIMATE.");
        else
            mmm__text_put(&h, "     The values of one run: exact integers and "
                              "fractions, unless a kernel's comment says "
                              "APPROXIMATE.");
        mmm__text_comment(t, h.s ? h.s : "");
        mmm__text_dispose(&h);
    }
    mmm__text_put(t, " -->\n<program name=\"");
    mmm__text_put_xml(t, name);
    mmm__text_put(t, "\">\n");
    mmm__text_put(t, "  <description>Measured with Nsight Compute by mmm profile "
                     "(docs/profile.md)</description>\n");
    for (size_t j = 0; j < pts->nparams; j++) {
        mmm_value lo = pts->p[0].params[j], hi = lo;
        for (size_t i = 1; i < pts->n; i++) {
            mmm_value v = pts->p[i].params[j];
            if (v.d < lo.d)
                lo = v;
            if (v.d > hi.d)
                hi = v;
        }
        char a[64], b[64], c[64];
        mmm__pv_text(pts->p[0].params[j], a, sizeof a);
        mmm__pv_text(lo, b, sizeof b);
        mmm__pv_text(hi, c, sizeof c);
        /* the measured range in a comment: min and max would refuse the
         * values beyond it, which the expressions are there to reach */
        mmm__text_printf(t, "  <param name=\"%s\" value=\"%s\"/>", pts->pname[j], a);
        if (pts->n > 1 && strcmp(b, c))
            mmm__text_printf(t, "  <!-- measured from %s to %s -->", b, c);
        mmm__text_put(t, "\n");
    }
    /* the MMM's cost of a global word: analyze needs it for reads and writes */
    mmm__text_put(t, "  <param name=\"U\" value=\"400\"/>  <!-- the MMM's cycles per "
                     "global word (Fermi's, as in the bundled programs): a machine file "
                     "replaces it -->\n");
    uint32_t missing_optional = 0;
    for (size_t nd = 0; nd < nn[0]; nd++) {
        if (nodes[0][nd].copy) {
            if ((rc = put_copy(prof, t, pts, nodes, nd, x, y, err)) < 0)
                goto out;
            continue;
        }
        size_t k = nodes[0][nd].group;
        mmm__profile_fit f[PA_N + 1];
        memset(f, 0, sizeof f);
        /* which attributes every point has */
        uint32_t all = ~0u;
        for (size_t i = 0; i < pts->n; i++) {
            const mmm__profile_launch *l = &pts->p[i].l[g[i][k].first];
            rep[i] = l;
            inst[i] = l->kernel;
            nl[i] = (int64_t)g[i][k].count;
            all &= l->have_a;
        }
        for (int a = 0; a < PA_N; a++) {
            if (!(all & (1u << a))) {
                if (PA_REQUIRED & (1u << a)) {
                    size_t i = 0;
                    while (rep[i]->have_a & (1u << a))
                        i++;
                    rc = mmm_error_set(err, MMM_EINPUT, rep[i]->file, rep[i]->line,
                                       "launch %lld of '%s' has no %s: its "
                                       "capture lacks the metrics it is read "
                                       "from (docs/profile.md; 'mmm profile "
                                       "metrics' lists those to capture)",
                                       (long long)rep[i]->id, g[i][k].id,
                                       mmm__pa_name(a));
                    goto out;
                }
                missing_optional |= 1u << a;
                continue;
            }
            for (size_t i = 0; i < pts->n; i++)
                y[i] = g[i][k].a[a];
            if ((rc = mmm__fit_values(names, pts->nparams, x, y, pts->n,
                                      mmm__pa_integral(a), inst, &f[a], err)) < 0)
                goto out;
        }
        for (size_t i = 0; i < pts->n; i++)
            y[i] = mmm_value_int(nl[i]);
        if ((rc = mmm__fit_values(names, pts->nparams, x, y, pts->n, 1, inst, &f[PF_REPEAT],
                                  err)) < 0)
            goto out;
        mmm__kernel_comment(t, "  ", g[0][k].id, pts, rep, nl, f, NULL);
        mmm__text_put(t, "  <kernel");
        put_attr(t, "id", g[0][k].id);
        if (strcmp(f[PF_REPEAT].text, "1"))
            put_attr(t, "repeat", f[PF_REPEAT].text);
        for (int a = 0; a < PA_N; a++)
            if (f[a].have)
                put_attr(t, mmm__pa_name(a), f[a].text);
        mmm__text_put(t, "/>\n");
        for (int a = 0; a <= PF_REPEAT; a++)
            if (f[a].have && !f[a].exact) {
                char why[300];
                mmm__approx_text(&f[a], why, sizeof why);
                prof->napprox++;
                if (mmm__profile_note(prof, "kernel '%s': %s = %s is approximate (%s)",
                                      g[0][k].id,
                                      a == PF_REPEAT ? "repeat" : mmm__pa_name(a),
                                      f[a].text, why) < 0) {
                    rc = mmm_error_set(err, MMM_ENOMEM, pts->file, 0, "out of memory");
                    goto out;
                }
            }
    }
    /* edges: each kernel or copy after the previous one of its stream,
       or after those a CUDA graph ran it after */
    if (put_edges(t, &pts->p[0], g[0], nodes[0], nn[0]) < 0) {
        rc = mmm_error_set(err, MMM_ENOMEM, pts->file, 0, "out of memory");
        goto out;
    }
    if (skipped &&
        mmm__profile_note(prof, "%zu cop%s of kinds the DAG format lacks (host to host, "
                          "peer to peer) left out", skipped, skipped == 1 ? "y" : "ies") < 0) {
        rc = mmm_error_set(err, MMM_ENOMEM, pts->file, 0, "out of memory");
        goto out;
    }
    mmm__text_put(t, "</program>\n");
    prof->nkernels = nk;
    static const mmm_ncu_quantity need[PA_N] = {
        [PA_REGISTERS] = MMM_NCU_REGISTERS, [PA_SHARED_BYTES] = MMM_NCU_SHARED_STATIC,
        [PA_BARRIERS] = MMM_NCU_BARRIER_INST, [PA_WAVEFRONTS] = MMM_NCU_SHARED_WAVEFRONTS,
        [PA_GLOBAL_WAVEFRONTS] = MMM_NCU_GLOBAL_WAVEFRONTS,
        [PA_ATOMICS] = MMM_NCU_ATOMIC_INST};
    for (int a = 0; a < PA_N; a++)
        if ((missing_optional & (1u << a)) &&
            mmm__profile_note(prof, "%s not written: the captures lack %s "
                              "(docs/profile.md)", mmm__pa_name(a),
                              mmm__ncu_hint(need[a])) < 0) {
            rc = mmm_error_set(err, MMM_ENOMEM, pts->file, 0, "out of memory");
            goto out;
        }
out:
    if (g)
        for (size_t i = 0; i < pts->n; i++)
            free(g[i]);
    free(g);
    free(ng);
    free(y);
    free(x);
    free(rep);
    free(inst);
    free(nl);
    if (nodes)
        for (size_t i = 0; i < pts->n; i++)
            free(nodes[i]);
    free(nodes);
    free(nn);
    return rc;
}

/* ------------------------------------------------------------------ */
/* The build                                                           */

/* The program's name: the POINTS file's, without folder and extension. */
static void default_name(const char *path, char *buf, size_t size)
{
    const char *b = strrchr(path, '/');
    b = b ? b + 1 : path;
    snprintf(buf, size, "%s", b);
    char *dot = strrchr(buf, '.');
    if (dot && dot != buf)
        *dot = '\0';
}

int mmm_profile_build(mmm_profile **out, const char *points_path,
                      const mmm_profile_options *opt, mmm_error *err)
{
    mmm_profile_options dflt = MMM_PROFILE_OPTIONS_INIT;
    mmm__profile_points pts;
    mmm__text t;
    int rc;
    if (!out)
        return mmm_error_set(err, MMM_EINVAL, points_path, 0, "no output pointer");
    *out = NULL;
    if (!points_path)
        return mmm_error_set(err, MMM_EINVAL, NULL, 0, "no POINTS file");
    MMM__CHECK_VERSION(opt, mmm_profile_options, PROFILE_OPTIONS, err);
    if (!opt)
        opt = &dflt;
    mmm_limits lim = mmm_limits_effective(&opt->limits);
    mmm_profile *p = calloc(1, sizeof *p);
    if (!p)
        return mmm_error_set(err, MMM_ENOMEM, points_path, 0, "out of memory");
    mmm__text_init(&t);
    if ((rc = mmm__points_read(&pts, points_path, lim.max_file_bytes, err)) < 0)
        goto fail;
    p->npoints = pts.n;
    for (size_t i = 0; i < pts.n; i++) {
        const mmm__profile_point *pt = &pts.p[i];
        if (mmm__profile_note(p, "%s: %zu launch%s, %zu configuration%s%s", pt->label,
                              pt->n, pt->n == 1 ? "" : "es", pt->nconfigs,
                              pt->nconfigs == 1 ? "" : "s", "") < 0)
            goto oom;
        if (pt->nsampled &&
            mmm__profile_note(p, "%s: the costs of %zu launch%s are those of the "
                              "sampled launches of their configuration",
                              pt->label, pt->nsampled,
                              pt->nsampled == 1 ? "" : "es") < 0)
            goto oom;
        if (pt->nscattered &&
            mmm__profile_note(p, "%s: %zu sampled configuration%s (%s%s) launched in "
                              "several places of the program: one sample stands for "
                              "them all, though their data may differ (profile "
                              "every launch to tell: mmm profile run --samples all)",
                              pt->label, pt->nscattered,
                              pt->nscattered == 1 ? "" : "s", pt->scattered,
                              pt->nscattered > 1 ? ", ..." : "") < 0)
            goto oom;
        /* the copies and sets a launch trace saw */
        size_t nc = 0;
        uint64_t bytes = 0;
        for (size_t k = 0; k < pt->ncaps; k++)
            for (size_t j = 0; j < mmm__ncu_ncopies(pt->caps[k]); j++) {
                nc++;
                bytes += mmm__ncu_copy(pt->caps[k], j)->bytes;
            }
        if (nc && mmm__profile_note(p, "%s: %zu memcpy and memset call%s (%llu bytes in all) "
                                    "between the launches%s",
                                    pt->label, nc, nc == 1 ? "" : "s",
                                    (unsigned long long)bytes,
                                    opt->skeleton ? ": the skeleton's <copy> elements stand "
                                                    "for them (they are not matched)"
                                                  : ", written as <copy> elements") < 0)
            goto oom;
    }
    /* a parameter with one value at every point drops out of every
     * measured expression: a cost that grows with it is written as its
     * value there */
    for (size_t j = 0; pts.n > 1 && j < pts.nparams; j++) {
        size_t i = 1;
        while (i < pts.n && mmm__pv_equal(pts.p[i].params[j], pts.p[0].params[j]))
            i++;
        if (i < pts.n)
            continue;
        char v[64];
        mmm__pv_text(pts.p[0].params[j], v, sizeof v);
        if (mmm__profile_note(p, "the parameter %s is %s at every one of the %zu points: "
                              "no measured cost can depend on it (one that grows with "
                              "it is written as its value at %s = %s); to predict "
                              "other values of %s, capture two values of it or more "
                              "(three to check the form)",
                              pts.pname[j], v, pts.n, pts.pname[j], v, pts.pname[j]) < 0)
            goto oom;
    }
    if (opt->skeleton) {
        if ((rc = mmm__skeleton_fill(p, &t, opt->skeleton, &pts, opt, err)) < 0)
            goto fail;
    } else {
        char name[256];
        if (opt->name)
            snprintf(name, sizeof name, "%s", opt->name);
        else
            default_name(points_path, name, sizeof name);
        if ((rc = build_plain(p, &t, &pts, name, err)) < 0)
            goto fail;
    }
    if (t.oom)
        goto oom;
    /* what was written reads back as a program */
    {
        mmm_program *check = NULL;
        mmm_error e;
        mmm_load_options lo = MMM_LOAD_OPTIONS_INIT;
        lo.limits = opt->limits;
        lo.threads = MMM_THREADS_OFF;
        if (mmm_program_load_memory(&check, t.s, t.len, "(the DAG built)", &lo, &e) < 0) {
            rc = mmm_error_set(err, MMM_EINPUT, points_path, 0,
                               "internal error: the DAG built does not load: "
                               "%s:%ld: %s", e.file, e.line, e.message);
            goto fail;
        }
        mmm_program_free(check);
    }
    p->xml = mmm__text_take(&t);
    mmm__points_dispose(&pts);
    *out = p;
    return 0;
oom:
    rc = mmm_error_set(err, MMM_ENOMEM, points_path, 0, "out of memory");
fail:
    mmm__text_dispose(&t);
    mmm__points_dispose(&pts);
    mmm_profile_free(p);
    return rc;
}
