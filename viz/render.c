/* render.c: annotated DAG pictures through Graphviz (cgraph + gvc), in
 * process.  The only file of the drawing module that includes Graphviz
 * (src/dot/ reads DOT with cgraph).
 *
 * The graph is built with cgraph from the evaluated program, then either
 * written as DOT before layout (agwrite) or laid out with "dot" and
 * rendered into memory (gvRenderData).  Labels come from render_labels.c,
 * numbers, colours and escaping from render_text.c.
 *
 * Why it is one file of about 1,000 lines: it has one responsibility, the
 * Graphviz graph of a program, and it is the one place where Graphviz's
 * types and calls (Agraph_t, Agnode_t, agsafeset, the process-wide error
 * callback, the GVC context) are used; everything that needs no Graphviz
 * is already outside it (labels, text).  The kernel level and the block
 * level share the build context, the attribute setters, the path marks and
 * the layout budget; splitting the block level (launch clusters and block
 * grids, about 400 lines) into a file of its own would need an internal
 * header exposing all of them and cgraph's types to a second file. */
#include "mmm/render.h"

#include <graphviz/cgraph.h>
#include <graphviz/gvc.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/outfile.h"
#include "render_group.h"
#include "render_labels.h"
#include "render_text.h"
#include "base/notes.h"
#include "base/path.h"
#include "base/abi.h"

/* Edges of a block-level DOT (every pair of dependent blocks) are refused
 * above this: such a file would not be useful to anyone. */
#define MMM_RENDER_MAX_BLOCK_EDGES 1000000

/* cgraph 2.42 takes char * for strings it only reads: the one cast. */
static char *gvs(const char *s)
{
    return (char *)(uintptr_t)s;
}

/* ------------------------------------------------------------------ */
/* Graphviz messages                                                   */

/* Graphviz reports errors and warnings through one process-wide callback
 * (agseterrf), the only way to keep it from printing on stderr.  The first
 * error of the current render is kept here to build the mmm_error; like
 * Graphviz itself this is not reentrant. */
static char gv_message[512];

static int gv_sink(char *msg)
{
    size_t n;
    int is_error = strncmp(msg, "Error", 5) == 0;
    if (gv_message[0] && !(is_error && strncmp(gv_message, "Error", 5) != 0))
        return 0;
    snprintf(gv_message, sizeof gv_message, "%s", msg);
    n = strcspn(gv_message, "\n");
    gv_message[n] = '\0';
    return 0;
}

static int gv_fail(mmm_error *err, const char *what)
{
    return mmm_error_set(err, MMM_EIO, NULL, 0, "graphviz: %s%s%s", what,
                         gv_message[0] ? ": " : "", gv_message);
}

/* ------------------------------------------------------------------ */
/* Option names                                                        */

static const char *const format_names[] = {"svg", "png", "pdf", "dot"};
static const char *const level_names[] = {"kernel", "block"};
static const char *const color_names[] = {"overhead", "work", "span", "cost",
                                          "none",     "type", "auto"};
static const char *const condense_names[] = {"auto", "always", "never"};
static const char *const view_names[] = {"all", "critical"};
static const char *const rankdir_names[] = {"TB", "LR", "BT", "RL"};

static int lookup(int *out, const char *name, const char *const *names, int n)
{
    int i;
    for (i = 0; name && i < n; i++)
        if (strcasecmp(name, names[i]) == 0) {
            *out = i;
            return 0;
        }
    return MMM_EINVAL;
}

int mmm_draw_available(const char **reason)
{
    if (reason)
        *reason = NULL;
    return 1;
}

int mmm_render_format_parse(mmm_render_format *out, const char *name)
{
    int v;
    if (lookup(&v, name, format_names, 4) < 0)
        return MMM_EINVAL;
    *out = (mmm_render_format)v;
    return 0;
}

int mmm_render_format_from_path(mmm_render_format *out, const char *path)
{
    const char *ext = mmm__path_extension(path);
    if (!*ext)
        return MMM_EINVAL;
    if (strcasecmp(ext, "gv") == 0) {
        *out = MMM_RENDER_DOT;
        return 0;
    }
    return mmm_render_format_parse(out, ext);
}

int mmm_render_level_parse(mmm_render_level *out, const char *name)
{
    int v;
    if (lookup(&v, name, level_names, 2) < 0)
        return MMM_EINVAL;
    *out = (mmm_render_level)v;
    return 0;
}

int mmm_render_color_parse(mmm_render_color *out, const char *name)
{
    int v;
    if (lookup(&v, name, color_names, 7) < 0)
        return MMM_EINVAL;
    *out = (mmm_render_color)v;
    return 0;
}

int mmm_render_condense_parse(mmm_render_condense *out, const char *name)
{
    int v;
    if (lookup(&v, name, condense_names, 3) < 0)
        return MMM_EINVAL;
    *out = (mmm_render_condense)v;
    return 0;
}

int mmm_render_view_parse(mmm_render_view *out, const char *name)
{
    int v;
    if (lookup(&v, name, view_names, 2) < 0)
        return MMM_EINVAL;
    *out = (mmm_render_view)v;
    return 0;
}

int mmm_render_rankdir_parse(mmm_render_rankdir *out, const char *name)
{
    int v;
    if (lookup(&v, name, rankdir_names, 4) < 0)
        return MMM_EINVAL;
    *out = (mmm_render_rankdir)v;
    return 0;
}

const char *mmm_render_format_name(mmm_render_format f)
{
    return (unsigned)f < 4 ? format_names[f] : "?";
}

/* ------------------------------------------------------------------ */
/* Building the graph                                                  */

typedef struct render_ctx {
    const mmm_instance *inst;
    const mmm_metrics *m;
    const mmm_render_options *opt;
    int full;               /* DOT: every block edge, no drawing helpers */
    Agraph_t *g;
    mmm__text t;             /* scratch for labels and values */
    uint32_t *span_next;    /* successor on the span path, or UINT32_MAX */
    uint32_t *l_next;       /* successor on the L path, or UINT32_MAX */
    unsigned char *on_span; /* kernel on the span path */
    unsigned char *on_l;    /* kernel on the L path */
    int l_differs;
    mmm__scale scale;
    mmm_error *err;
    mmm_render_color color; /* resolved (never auto) */
    int skipped;            /* measures auto colouring passed over */
    mmm__kinds kinds;       /* kinds of the kernels */
    mmm__condensed cd;      /* the condensed DAG, when condensed */
    int condensed;
} render_ctx;

/* Append s to a plain (non-HTML) label or tooltip: Graphviz reads escape
 * sequences there (\N is the node name, \l a line break...).  A doubled
 * backslash prints as one in a label, but tooltips unescape differently,
 * so there a backslash becomes U+29F5 (reverse solidus operator). */
static void put_plain(mmm__text *t, const char *s, int tooltip)
{
    const char *b;
    while ((b = strchr(s, '\\'))) {
        mmm__text_putn(t, s, (size_t)(b - s));
        mmm__text_put(t, tooltip ? "\xe2\xa7\xb5" : "\\\\");
        s = b + 1;
    }
    mmm__text_put(t, s);
}

static void set(void *obj, const char *name, const char *value)
{
    agsafeset(obj, gvs(name), gvs(value), gvs(""));
}

static void set_int(void *obj, const char *name, long long v)
{
    char b[32];
    snprintf(b, sizeof b, "%lld", v);
    set(obj, name, b);
}

static void set_num(void *obj, const char *name, double v)
{
    char b[64];
    set(obj, name, mmm__fmt_exact(v, b, sizeof b));
}

/* Set an HTML-like label (text of the scratch buffer). */
static int set_html(render_ctx *c, void *obj, const char *name)
{
    char *h;
    if (c->t.oom)
        return mmm_error_set(c->err, MMM_ENOMEM, NULL, 0, "out of memory");
    h = agstrdup_html(c->g, c->t.s ? c->t.s : gvs(""));
    if (!h)
        return mmm_error_set(c->err, MMM_ENOMEM, NULL, 0, "out of memory");
    set(obj, name, h);
    agstrfree(c->g, h);
    c->t.len = 0;
    return 0;
}

static void mark_path(uint32_t *next, unsigned char *on, const uint32_t *path,
                      size_t len)
{
    size_t i;
    for (i = 0; i < len; i++) {
        on[path[i]] = 1;
        if (i + 1 < len)
            next[path[i]] = path[i + 1];
    }
}

static int paths_init(render_ctx *c)
{
    size_t n = c->inst->program->nkernels, i;
    const mmm_metrics *m = c->m;
    c->span_next = malloc((n ? n : 1) * sizeof *c->span_next);
    c->l_next = malloc((n ? n : 1) * sizeof *c->l_next);
    c->on_span = calloc(n ? n : 1, 1);
    c->on_l = calloc(n ? n : 1, 1);
    if (!c->span_next || !c->l_next || !c->on_span || !c->on_l)
        return mmm_error_set(c->err, MMM_ENOMEM, NULL, 0, "out of memory");
    for (i = 0; i < n; i++)
        c->span_next[i] = c->l_next[i] = UINT32_MAX;
    mark_path(c->span_next, c->on_span, m->span_path, m->span_path_len);
    mark_path(c->l_next, c->on_l, m->l_path, m->l_path_len);
    /* The L path is drawn only where it says something the span path does
     * not: when the span path is itself a longest block path (ties are
     * common), one highlighted path is the clearer picture. */
    {
        int64_t l_on_span = 0;
        for (i = 0; i < m->span_path_len; i++)
            l_on_span += c->inst->kernels[m->span_path[i]].L;
        c->l_differs = m->l_path_len > 0 && l_on_span != m->L;
    }
    return 0;
}

static void ctx_dispose(render_ctx *c)
{
    free(c->span_next);
    free(c->l_next);
    free(c->on_span);
    free(c->on_l);
    mmm__kinds_dispose(&c->kinds);
    mmm__condensed_dispose(&c->cd);
    mmm__text_dispose(&c->t);
    if (c->g)
        agclose(c->g);
}

/* Graph-wide style and the measures as graph attributes. */
static void graph_attrs(render_ctx *c)
{
    const mmm_instance *inst = c->inst;
    const mmm_program *p = inst->program;
    const mmm_metrics *m = c->m;
    Agraph_t *g = c->g;
    size_t i;
    set(g, "linelength", "0"); /* agwrite must not split long strings */
    set(g, "rankdir", rankdir_names[c->opt->rankdir]);
    set(g, "nodesep", "0.3");
    set(g, "ranksep", "0.4");
    set(g, "fontname", MMM_FONT);
    set(g, "fontsize", "12");
    set(g, "labelloc", "t");
    set(g, "labeljust", "l");
    set(g, "bgcolor", "white");
    set(g, "pad", "0.2");
    if (c->opt->format == MMM_RENDER_PNG) {
        char b[32];
        snprintf(b, sizeof b, "%g", c->opt->dpi > 0 ? c->opt->dpi : 144.0);
        set(g, "dpi", b);
    }
    /* Data for tools reading the DOT. */
    set(g, "program", p->name ? p->name : "");
    for (i = 0; i < p->nparams && i < inst->nvalues; i++) {
        char name[300], v[64];
        snprintf(name, sizeof name, "param_%s", p->params[i].name);
        set(g, name, mmm_value_format(inst->values[i], 0, v, sizeof v));
    }
    set_num(g, "W", m->W);
    set_num(g, "S", m->S);
    set_num(g, "O", m->O);
    set_int(g, "N", (long long)m->N);
    set_int(g, "L", (long long)m->L);
    set_num(g, "C", m->C);
    set_int(g, "K", (long long)m->K);
    set_num(g, "parallelism", m->parallelism);
    if (m->has_blocks)
        set_num(g, "parallelism_blocks", m->parallelism_blocks);
    if (m->has_p) {
        set_int(g, "p", (long long)m->p);
        set_num(g, "graham_brent", m->graham_brent);
    }
    set_num(g, "corollary", m->corollary);
    set(g, "level", level_names[c->opt->level]);
}

static int graph_title(render_ctx *c)
{
    mmm__legend lg;
    memset(&lg, 0, sizeof lg);
    lg.color = c->color;
    lg.level = c->opt->level;
    lg.scale = c->color == MMM_COLOR_NONE || c->color == MMM_COLOR_TYPE ? NULL : &c->scale;
    lg.l_path_differs = c->l_differs;
    lg.has_paths = c->m->span_path_len > 0;
    lg.kinds = &c->kinds;
    lg.skipped = c->skipped;
    lg.condensed = c->condensed;
    if (c->condensed)
        lg.group_note = c->opt->view == MMM_VIEW_CRITICAL
                            ? "condensed: the critical path kernel by kernel; the others one "
                              "node per kind and level (longest-path depth), " "\xc3\x97" "count"
                            : "condensed: one node per kind and level (longest-path depth), "
                              "\xc3\x97" "count; chains folded; edges labelled with how many "
                              "they stand for";
    c->t.len = 0;
    mmm__label_title(&c->t, c->inst, c->m, &lg);
    return set_html(c, c->g, "label");
}

static void fill_style(render_ctx *c, void *obj, double v, uint32_t kind)
{
    if (c->color == MMM_COLOR_NONE) {
        set(obj, "fillcolor", "white");
        return;
    }
    if (c->color == MMM_COLOR_TYPE) {
        set(obj, "fillcolor", mmm__kind_colour(kind));
        set(obj, "fontcolor", "black");
        return;
    }
    {
        int cls = mmm__scale_class(&c->scale, v);
        set(obj, "fillcolor", mmm__scale_fill[cls]);
        set(obj, "fontcolor", mmm__scale_ink[cls]);
    }
}

/* ---- kernel level ---- */

/* A copy or a set (<copy>): a parallelogram, the shape of data moved,
 * unfilled (it has no measure of the MMM). */
static void copy_style(render_ctx *c, void *n, size_t k)
{
    set(n, "shape", "parallelogram");
    set(n, "style", "filled");
    set(n, "fillcolor", "#f4f4f4");
    set(n, "fontname", MMM_FONT);
    set(n, "fontsize", "11");
    set(n, "color", c->on_span[k] ? MMM_SPAN_PATH_COLOR : MMM_BORDER_COLOR);
    set(n, "penwidth", c->on_span[k] ? "3" : "1");
    if (c->inst->kernels[k].repeat != 1)
        set(n, "peripheries", "2");
    set(n, "copy", mmm_copy_kind_name(mmm_kernel_copy(c->inst->program, k)));
    set_int(n, "bytes", (long long)mmm_instance_copy_bytes(c->inst, k));
}

static void measures_data(render_ctx *c, Agnode_t *n, size_t k);

static int copy_node(render_ctx *c, size_t k, Agnode_t *n)
{
    copy_style(c, n, k);
    measures_data(c, n, k); /* zeros: the MMM counts no block of a copy */
    c->t.len = 0;
    put_plain(&c->t, c->inst->program->kernels[k].id, 1);
    mmm__text_put(&c->t, ": ");
    mmm__copy_what(&c->t, c->inst, k);
    if (c->t.oom)
        return mmm_error_set(c->err, MMM_ENOMEM, NULL, 0, "out of memory");
    set(n, "tooltip", c->t.s);
    c->t.len = 0;
    mmm__label_copy(&c->t, c->inst, k);
    return set_html(c, n, "label");
}

static int kernel_node(render_ctx *c, size_t k, Agnode_t **out)
{
    const mmm_kernel *kern = &c->inst->program->kernels[k];
    const mmm_kernel_val *kv = &c->inst->kernels[k];
    Agnode_t *n = agnode(c->g, gvs(kern->id), 1);
    int both = c->on_span[k] && c->on_l[k] && c->l_differs;
    int rc;
    if (!n)
        return mmm_error_set(c->err, MMM_ENOMEM, NULL, 0, "out of memory");
    *out = n;
    if (mmm_kernel_copy(c->inst->program, k) != MMM_COPY_NONE)
        return copy_node(c, k, n);
    set(n, "shape", "box");
    set(n, "style", kv->repeat != 1 ? "filled" : "rounded,filled");
    /* A repeat is drawn once, as a stack of launches: a double border. */
    if (kv->repeat != 1)
        set(n, "peripheries", "2");
    set(n, "margin", "0.08,0.04");
    set(n, "fontname", MMM_FONT);
    set(n, "fontsize", "11");
    set(n, "color", MMM_BORDER_COLOR);
    set(n, "penwidth", "1");
    if (c->on_span[k]) {
        set(n, "color", MMM_SPAN_PATH_COLOR);
        set(n, "penwidth", "3");
    } else if (c->on_l[k] && c->l_differs) {
        set(n, "color", MMM_L_PATH_COLOR);
        set(n, "penwidth", "2.5");
        set(n, "style", kv->repeat != 1 ? "filled,dashed" : "rounded,filled,dashed");
    }
    fill_style(c, n, mmm__kernel_measure(kv, c->color), c->kinds.of[k]);
    measures_data(c, n, k);
    c->t.len = 0;
    put_plain(&c->t, kern->id, 1);
    mmm__text_put(&c->t, ": W=");
    {
        char a[64], b[64], d[64], e[64];
        mmm__text_printf(&c->t, "%s S=%s O=%s S(B)+O(B)=%s", mmm__fmt_exact(kv->W, a, sizeof a),
                         mmm__fmt_exact(kv->S, b, sizeof b), mmm__fmt_exact(kv->O, d, sizeof d),
                         mmm__fmt_exact(kv->C, e, sizeof e));
    }
    if (c->t.oom)
        return mmm_error_set(c->err, MMM_ENOMEM, NULL, 0, "out of memory");
    set(n, "tooltip", c->t.s);
    c->t.len = 0;
    if (both)
        mmm__text_put(&c->t, MMM_BOTH_PATHS_OPEN);
    if ((rc = mmm__label_kernel(&c->t, c->inst, k, c->err)) < 0)
        return rc;
    if (both)
        mmm__text_put(&c->t, MMM_BOTH_PATHS_CLOSE);
    return set_html(c, n, "label");
}

/* The measures of node k as data attributes. */
static void measures_data(render_ctx *c, Agnode_t *n, size_t k)
{
    const mmm_kernel_val *kv = &c->inst->kernels[k];
    set_int(n, "repeat", (long long)kv->repeat);
    set_int(n, "blocks", (long long)kv->blocks);
    set_int(n, "varies", kv->varies);
    set_int(n, "N", (long long)kv->N);
    set_int(n, "L", (long long)kv->L);
    set_int(n, "K", (long long)kv->K);
    set_num(n, "W", kv->W);
    set_num(n, "S", kv->S);
    set_num(n, "O", kv->O);
    set_num(n, "C", kv->C);
    set_int(n, "span_path", c->on_span[k]);
    set_int(n, "l_path", c->on_l[k]);
    if (mmm_kernel_type(c->inst->program, k))
        set(n, "type", mmm_kernel_type(c->inst->program, k));
}

static void edge_style(render_ctx *c, Agedge_t *e, uint32_t u, uint32_t v)
{
    int span = c->span_next[u] == v, lp = c->l_next[u] == v;
    set(e, "color", MMM_PLAIN_EDGE_COLOR);
    set(e, "penwidth", "1.2");
    set(e, "arrowsize", "0.8");
    if (span && lp && c->l_differs) {
        /* On both paths: two parallel lines, one of each colour. */
        set(e, "color", MMM_SPAN_PATH_COLOR ":" MMM_L_PATH_COLOR);
        set(e, "penwidth", "2.5");
        set(e, "weight", "4");
    } else if (span) {
        set(e, "color", MMM_SPAN_PATH_COLOR);
        set(e, "penwidth", "3");
        set(e, "weight", "4"); /* keep the critical path straight */
    } else if (lp && c->l_differs) {
        set(e, "color", MMM_L_PATH_COLOR);
        set(e, "penwidth", "2.5");
        set(e, "style", "dashed");
        set(e, "weight", "2");
    }
    set_int(e, "span_path", span);
    set_int(e, "l_path", lp);
}

/* The colour: the one asked for, or for auto the kinds when the kernels
 * have declared types, else the first of overhead, work, span and cost
 * that varies (sc: their scales); c->scale becomes the measure's. */
static void resolve_color(render_ctx *c, const mmm__scale *sc)
{
    int i;
    c->color = c->opt->color;
    if (c->color == MMM_COLOR_AUTO && c->kinds.declared) {
        c->color = MMM_COLOR_TYPE;
    } else if (c->color == MMM_COLOR_AUTO) {
        c->color = MMM_COLOR_OVERHEAD;
        for (i = 0; i < 4; i++)
            if (sc[i].any && sc[i].hi > sc[i].lo) {
                c->color = (mmm_render_color)i;
                c->skipped = i;
                break;
            }
    }
    if (c->color <= MMM_COLOR_COST)
        c->scale = sc[c->color];
}

static double group_measure(const mmm__cgroup *g, mmm_render_color color)
{
    switch (color) {
    case MMM_COLOR_WORK: return g->W;
    case MMM_COLOR_SPAN: return g->S;
    case MMM_COLOR_COST: return g->C;
    case MMM_COLOR_OVERHEAD: return g->O;
    default: return 0;
    }
}

static int group_node(render_ctx *c, size_t i, Agnode_t **out)
{
    const mmm__cgroup *g = &c->cd.group[i];
    const char *kind = c->kinds.name[g->kind];
    char name[300], a[64], b[64], d[64], e[64];
    Agnode_t *n;
    snprintf(name, sizeof name, "%.200s@%u", kind, (unsigned)g->level_lo);
    if (agnode(c->g, name, 0)) /* a kernel of that name */
        snprintf(name, sizeof name, "%.200s@%u#%zu", kind, (unsigned)g->level_lo, i);
    if (!(n = agnode(c->g, name, 1)))
        return mmm_error_set(c->err, MMM_ENOMEM, NULL, 0, "out of memory");
    *out = n;
    set(n, "shape", "box");
    set(n, "style", "rounded,filled");
    if (g->count > 1)
        set(n, "peripheries", "2"); /* a stack of kernels */
    set(n, "margin", "0.08,0.04");
    set(n, "fontname", MMM_FONT);
    set(n, "fontsize", "11");
    set(n, "color", g->on_span ? MMM_SPAN_PATH_COLOR : MMM_BORDER_COLOR);
    set(n, "penwidth", g->on_span ? "3" : "1");
    fill_style(c, n, group_measure(g, c->color), g->kind);
    set(n, "kind", "group");
    set(n, "type", kind);
    set_int(n, "count", (long long)g->count);
    set_int(n, "level_lo", (long long)g->level_lo);
    set_int(n, "level_hi", (long long)g->level_hi);
    set_int(n, "launches", (long long)g->launches);
    set_num(n, "W", g->W);
    set_num(n, "S", g->S);
    set_num(n, "O", g->O);
    set_num(n, "C", g->C);
    set_int(n, "span_path", g->on_span);
    c->t.len = 0;
    put_plain(&c->t, kind, 1);
    mmm__text_printf(&c->t, ": %zu %s, level", g->count, c->kinds.declared ? "tasks" : "kernels");
    if (g->level_hi > g->level_lo)
        mmm__text_printf(&c->t, "s %u to %u", (unsigned)g->level_lo, (unsigned)g->level_hi);
    else
        mmm__text_printf(&c->t, " %u", (unsigned)g->level_lo);
    mmm__text_printf(&c->t, ": sum W=%s, max S=%s, sum O=%s, max S(B)+O(B)=%s",
                     mmm__fmt_exact(g->W, a, sizeof a),
                     mmm__fmt_exact(g->S, b, sizeof b), mmm__fmt_exact(g->O, d, sizeof d),
                     mmm__fmt_exact(g->C, e, sizeof e));
    if (c->t.oom)
        return mmm_error_set(c->err, MMM_ENOMEM, NULL, 0, "out of memory");
    set(n, "tooltip", c->t.s);
    c->t.len = 0;
    mmm__label_group(&c->t, g, kind);
    return set_html(c, n, "label");
}

/* The condensed DAG: a node per group (a kernel of the critical view as
 * itself), an edge per pair of groups labelled with its count. */
static int build_groups(render_ctx *c)
{
    const mmm__condensed *cd = &c->cd;
    Agnode_t **nodes = calloc(cd->ngroups ? cd->ngroups : 1, sizeof *nodes);
    size_t i;
    int rc = 0;
    if (!nodes)
        return mmm_error_set(c->err, MMM_ENOMEM, NULL, 0, "out of memory");
    if (c->color <= MMM_COLOR_COST) { /* the scale of what is drawn */
        mmm__scale_init(&c->scale);
        for (i = 0; i < cd->ngroups; i++)
            mmm__scale_add(&c->scale, group_measure(&cd->group[i], c->color));
        mmm__scale_finish(&c->scale);
    }
    for (i = 0; i < cd->ngroups && rc == 0; i++)
        rc = cd->group[i].single ? kernel_node(c, cd->group[i].kernel, &nodes[i])
                                 : group_node(c, i, &nodes[i]);
    for (i = 0; i < cd->nedges && rc == 0; i++) {
        const mmm__cedge *ce = &cd->edge[i];
        Agedge_t *e = agedge(c->g, nodes[ce->from], nodes[ce->to], NULL, 1);
        if (!e) {
            rc = mmm_error_set(c->err, MMM_ENOMEM, NULL, 0, "out of memory");
            break;
        }
        set(e, "color", ce->span ? MMM_SPAN_PATH_COLOR : MMM_PLAIN_EDGE_COLOR);
        set(e, "penwidth", ce->span ? "3" : "1.2");
        set(e, "arrowsize", "0.8");
        if (ce->span)
            set(e, "weight", "4");
        set_int(e, "count", (long long)ce->count);
        set_int(e, "span_path", ce->span);
        if (ce->count > 1) {
            char b[40], n[32];
            mmm__fmt_thousands((long long)ce->count, n, sizeof n);
            snprintf(b, sizeof b, "\xc3\x97%s", n);
            set(e, "label", b);
            set(e, "fontname", MMM_FONT);
            set(e, "fontsize", "9");
            set(e, "fontcolor", "#5a5a5a");
        }
    }
    free(nodes);
    return rc;
}

/* Pictures: a level of more than WRAP_LEVEL kernels is drawn in rows
 * (invisible edges from each kernel to the one a row below), so that it
 * is not one very wide rank: of about sqrt(1.3 n) kernels, at least 8, a
 * block about twice as wide as tall (a kernel's box is about 140 x 90
 * points with the space around it). */
#define WRAP_LEVEL 16
static size_t wrap_cols(size_t n)
{
    size_t cols = 8;
    while (cols * cols < n + n * 3 / 10)
        cols++;
    return cols;
}
static int wrap_levels(render_ctx *c, Agnode_t **nodes)
{
    const mmm_program *p = c->inst->program;
    uint32_t *level, nlevels, l;
    size_t widest, i, *start, *seen;
    uint32_t *by_level;
    int rc = 0;
    if ((rc = mmm__levels(p, &level, &nlevels, &widest, c->err)) < 0)
        return rc;
    if (widest <= WRAP_LEVEL) {
        free(level);
        return 0;
    }
    start = calloc((size_t)nlevels + 1, sizeof *start);
    seen = calloc((size_t)nlevels + 1, sizeof *seen);
    by_level = malloc((p->nkernels ? p->nkernels : 1) * sizeof *by_level);
    if (!start || !seen || !by_level) {
        rc = mmm_error_set(c->err, MMM_ENOMEM, NULL, 0, "out of memory");
        goto done;
    }
    for (i = 0; i < p->nkernels; i++)
        start[level[i] + 1]++;
    for (l = 0; l < nlevels; l++)
        start[l + 1] += start[l];
    for (i = 0; i < p->nkernels; i++) { /* topological order in each level */
        uint32_t k = p->topo[i];
        by_level[start[level[k]] + seen[level[k]]++] = k;
    }
    for (l = 0; l < nlevels && rc == 0; l++) {
        size_t n = start[l + 1] - start[l], cols = wrap_cols(n);
        if (n <= WRAP_LEVEL)
            continue;
        for (i = start[l]; i + cols < start[l + 1]; i++) {
            Agedge_t *e = agedge(c->g, nodes[by_level[i]], nodes[by_level[i + cols]], NULL, 1);
            if (!e) {
                rc = mmm_error_set(c->err, MMM_ENOMEM, NULL, 0, "out of memory");
                break;
            }
            set(e, "style", "invis");
            set(e, "weight", "0");
        }
    }
done:
    free(level);
    free(start);
    free(seen);
    free(by_level);
    return rc;
}

static int build_kernels(render_ctx *c)
{
    const mmm_program *p = c->inst->program;
    Agnode_t **nodes;
    mmm__scale sc[4];
    size_t k, i;
    int rc = 0, j;

    for (j = 0; j < 4; j++)
        mmm__scale_init(&sc[j]);
    for (k = 0; k < p->nkernels; k++)
        if (mmm_kernel_copy(p, k) == MMM_COPY_NONE)
            for (j = 0; j < 4; j++)
                mmm__scale_add(&sc[j], mmm__kernel_measure(&c->inst->kernels[k],
                                                           (mmm_render_color)j));
    for (j = 0; j < 4; j++)
        mmm__scale_finish(&sc[j]);
    resolve_color(c, sc);
    if (c->condensed)
        return build_groups(c);
    nodes = calloc(p->nkernels ? p->nkernels : 1, sizeof *nodes);
    if (!nodes)
        return mmm_error_set(c->err, MMM_ENOMEM, NULL, 0, "out of memory");
    /* Topological order: the DOT reads top-down like the program. */
    for (i = 0; i < p->nkernels && rc == 0; i++)
        rc = kernel_node(c, p->topo[i], &nodes[p->topo[i]]);
    for (i = 0; i < p->nedges && rc == 0; i++) {
        uint32_t u = p->edges[i].from, v = p->edges[i].to;
        Agedge_t *e;
        if (agedge(c->g, nodes[u], nodes[v], NULL, 0))
            continue; /* a repeated <edge> is drawn once */
        e = agedge(c->g, nodes[u], nodes[v], NULL, 1);
        if (!e)
            rc = mmm_error_set(c->err, MMM_ENOMEM, NULL, 0, "out of memory");
        else
            edge_style(c, e, u, v);
    }
    if (rc == 0 && !c->full)
        rc = wrap_levels(c, nodes);
    free(nodes);
    return rc;
}

/* ---- block level ---- */

/* One launch (one copy of a kernel): its cluster and its block nodes. */
typedef struct launch {
    uint32_t kernel;
    int64_t copy;
    int64_t blocks;
    Agraph_t *cluster;
    Agnode_t **node;     /* blocks nodes, or the one placeholder when 0 */
    size_t nnodes;
} launch;

typedef struct block_plan {
    size_t nlaunches;
    launch *l;
    size_t *first;       /* first launch of each kernel */
    mmm_class_val *cls;  /* scratch, max classes of a kernel */
    size_t maxcls;
} block_plan;

static void plan_dispose(block_plan *bp)
{
    size_t i;
    for (i = 0; bp->l && i < bp->nlaunches; i++)
        free(bp->l[i].node);
    free(bp->l);
    free(bp->first);
    free(bp->cls);
}

static int limit_error(render_ctx *c, const char *what, double n, size_t max)
{
    return mmm_error_set(c->err, MMM_ELIMIT, c->inst->program->file, 0,
                         "%s level would draw %.0f %s, more than --max-nodes %zu; %s",
                         level_names[c->opt->level], n, what, max,
                         c->opt->level == MMM_LEVEL_BLOCK
                             ? "draw the kernel level or raise --max-nodes"
                             : "raise --max-nodes (the layout may then take long)");
}

/* Launches drawn for kernel k: its repeat, or one empty launch for a
 * kernel repeated 0 times (it keeps its place in the DAG). */
static int64_t nlaunch(const mmm_instance *inst, size_t k)
{
    return inst->kernels[k].repeat > 0 ? inst->kernels[k].repeat : 1;
}

static int plan_launches(render_ctx *c, block_plan *bp, size_t max_nodes)
{
    const mmm_program *p = c->inst->program;
    double launches = 0, nodes = 0;
    size_t k, j = 0;
    for (k = 0; k < p->nkernels; k++) {
        launches += (double)nlaunch(c->inst, k);
        if (p->kernels[k].nclasses > bp->maxcls)
            bp->maxcls = p->kernels[k].nclasses;
    }
    nodes = (double)c->m->N;
    if (launches > (double)max_nodes)
        return limit_error(c, "launches", launches, max_nodes);
    if (c->full && nodes > (double)max_nodes) /* pictures: drawn nodes, scan_blocks */
        return limit_error(c, "thread blocks", nodes, max_nodes);
    bp->nlaunches = (size_t)launches;
    bp->l = calloc(bp->nlaunches ? bp->nlaunches : 1, sizeof *bp->l);
    bp->first = calloc(p->nkernels ? p->nkernels : 1, sizeof *bp->first);
    bp->cls = calloc(bp->maxcls ? bp->maxcls : 1, sizeof *bp->cls);
    if (!bp->l || !bp->first || !bp->cls)
        return mmm_error_set(c->err, MMM_ENOMEM, NULL, 0, "out of memory");
    for (k = 0; k < p->nkernels; k++) {
        int64_t r, n = nlaunch(c->inst, k);
        bp->first[k] = j;
        for (r = 1; r <= n; r++, j++) {
            bp->l[j].kernel = (uint32_t)k;
            /* copy 0: a kernel repeated 0 times, drawn as an empty launch */
            bp->l[j].copy = c->inst->kernels[k].repeat > 0 ? r : 0;
        }
    }
    return 0;
}

/* Pictures draw the blocks of a class of more than this many as one box
 * with its count: they are identical (DOT lists every one). */
#define FOLD_BLOCKS_ABOVE 16
static int folded(const render_ctx *c, int64_t count)
{
    return !c->full && count > FOLD_BLOCKS_ABOVE;
}

/* Colour scale over every block, and the block count of every launch. */
static int scan_blocks(render_ctx *c, block_plan *bp, size_t max_nodes)
{
    size_t i, total = 0;
    mmm__scale sc[4];
    int rc, j;
    for (j = 0; j < 4; j++)
        mmm__scale_init(&sc[j]);
    for (i = 0; i < bp->nlaunches; i++) {
        launch *L = &bp->l[i];
        uint32_t cl, n = c->inst->program->kernels[L->kernel].nclasses;
        L->blocks = 0;
        if (L->copy == 0)
            n = 0;
        else if ((rc = mmm__launch_classes(bp->cls, &L->blocks, c->inst, L->kernel, L->copy,
                                           c->err)) < 0)
            return rc;
        for (cl = 0; cl < n; cl++)
            if (bp->cls[cl].count > 0)
                for (j = 0; j < 4; j++)
                    mmm__scale_add(&sc[j], mmm__class_measure(&bp->cls[cl],
                                                              (mmm_render_color)j));
        L->nnodes = 0;
        for (cl = 0; cl < n; cl++)
            L->nnodes += folded(c, bp->cls[cl].count) ? 1 : (size_t)bp->cls[cl].count;
        if (L->nnodes == 0)
            L->nnodes = 1;
        total += L->nnodes;
        if (total > max_nodes)
            return limit_error(c, "nodes", (double)total, max_nodes);
    }
    for (j = 0; j < 4; j++)
        mmm__scale_finish(&sc[j]);
    resolve_color(c, sc);
    return 0;
}

/* The letter of block kind cl: A..Z, then K27, K28... */
static const char *class_letter(uint32_t cl, char *buf, size_t size)
{
    if (cl < 26)
        snprintf(buf, size, "%c", 'A' + (int)cl);
    else
        snprintf(buf, size, "K%u", (unsigned)cl + 1);
    return buf;
}

static int launch_cluster(render_ctx *c, block_plan *bp, size_t i)
{
    launch *L = &bp->l[i];
    const mmm_kernel *kern = &c->inst->program->kernels[L->kernel];
    const mmm_kernel_val *kv = &c->inst->kernels[L->kernel];
    char name[64];
    int both = c->on_span[L->kernel] && c->on_l[L->kernel] && c->l_differs;
    Agraph_t *parent = c->g;
    int rc;
    /* Pictures: the launches of a chain in an undrawn cluster of their
     * own, so that they stay one column in launch order and no other
     * kernel is laid out between two of them (the chain's edges then run
     * straight down, not around it). */
    if (!c->full && nlaunch(c->inst, L->kernel) > 1) {
        snprintf(name, sizeof name, "cluster_chain_%u", (unsigned)L->kernel);
        if (!(parent = agsubg(c->g, name, 1)))
            return mmm_error_set(c->err, MMM_ENOMEM, NULL, 0, "out of memory");
        set(parent, "peripheries", "0");
        set(parent, "label", "");
        set(parent, "margin", "4");
    }
    snprintf(name, sizeof name, "cluster_%u_%lld", (unsigned)L->kernel, (long long)L->copy);
    L->cluster = agsubg(parent, name, 1);
    if (!L->cluster)
        return mmm_error_set(c->err, MMM_ENOMEM, NULL, 0, "out of memory");
    c->t.len = 0;
    mmm__text_put_gv_html(&c->t, kern->id);
    if (L->copy == 0)
        mmm__text_put(&c->t, " \xc3\x97" "0");
    else if (kv->repeat != 1)
        mmm__text_printf(&c->t, " #%lld/%lld", (long long)L->copy, (long long)kv->repeat);
    if (mmm_kernel_copy(c->inst->program, L->kernel) != MMM_COPY_NONE)
        mmm__text_put(&c->t, "  (no blocks");
    else
        mmm__text_printf(&c->t, "  (%lld block%s", (long long)L->blocks,
                         L->blocks == 1 ? "" : "s");
    /* Several kinds of blocks: how many of each (the blocks carry the
     * letter of their kind). */
    if (kern->nclasses > 1 && L->blocks > 0) {
        uint32_t cl;
        int64_t total;
        if ((rc = mmm__launch_classes(bp->cls, &total, c->inst, L->kernel, L->copy,
                                      c->err)) < 0)
            return rc;
        for (cl = 0; cl < kern->nclasses; cl++) {
            char k[16];
            mmm__text_printf(&c->t, "%s%lld %s", cl ? ", " : ": ",
                             (long long)bp->cls[cl].count, class_letter(cl, k, sizeof k));
        }
    }
    mmm__text_put(&c->t, ")");
    if (both)
        mmm__text_put(&c->t, "  <FONT COLOR=\"" MMM_L_PATH_COLOR "\">\xe2\x95\x8d\xe2\x95\x8d"
                             " also on L</FONT>");
    if ((rc = set_html(c, L->cluster, "label")) < 0)
        return rc;
    set(L->cluster, "kernel", kern->id);
    set_int(L->cluster, "launch", (long long)L->copy);
    set(L->cluster, "style", "rounded");
    if (parent != c->g)
        set(L->cluster, "peripheries", "1"); /* not the chain's 0 */
    set(L->cluster, "fontsize", "11");
    set(L->cluster, "labeljust", "l");
    set(L->cluster, "color", c->on_span[L->kernel] ? MMM_SPAN_PATH_COLOR
                             : c->on_l[L->kernel] && c->l_differs ? MMM_L_PATH_COLOR
                                                                  : "#9a9a9a");
    set(L->cluster, "penwidth", c->on_span[L->kernel] || (c->on_l[L->kernel] && c->l_differs)
                                    ? "2.5" : "1");
    return 0;
}

/* Columns of the grid the blocks of a launch are drawn in. */
static size_t grid_cols(size_t n)
{
    size_t cols = 8;
    while (cols * cols < 2 * n)
        cols++;
    return cols < n ? cols : n;
}

/* Node j of launch L: block `first` of class cl, or (count > 1) the
 * count identical blocks of the class from `first` on, drawn as one. */
static int block_node(render_ctx *c, launch *L, size_t j, const mmm_class_val *cv,
                      int64_t cl, size_t first, int64_t count)
{
    char name[96];
    Agnode_t *n;
    snprintf(name, sizeof name, "b%u_%lld_%zu", (unsigned)L->kernel, (long long)L->copy, j);
    n = agnode(L->cluster, name, 1);
    if (!n)
        return mmm_error_set(c->err, MMM_ENOMEM, NULL, 0, "out of memory");
    L->node[j] = n;
    if (!cv && mmm_kernel_copy(c->inst->program, L->kernel) != MMM_COPY_NONE) {
        /* a copy: one node, its kind and bytes */
        copy_style(c, n, L->kernel);
        set(n, "kind", "copy");
        set(n, "fontsize", "9");
        c->t.len = 0;
        mmm__copy_what(&c->t, c->inst, L->kernel);
        if (c->t.oom)
            return mmm_error_set(c->err, MMM_ENOMEM, NULL, 0, "out of memory");
        set(n, "label", c->t.s);
        return 0;
    }
    if (!cv) { /* a launch without blocks keeps its place in the DAG */
        set(n, "kind", "empty");
        set(n, "shape", "plaintext");
        set(n, "label", "no blocks");
        set(n, "fontsize", "9");
        set(n, "fontname", MMM_FONT);
        set(n, "fontcolor", "#6a6a6a");
        return 0;
    }
    set(n, "kind", "block");
    set(n, "kernel", c->inst->program->kernels[L->kernel].id);
    set_int(n, "launch", (long long)L->copy);
    set_int(n, "block", (long long)first);
    set_int(n, "block_class", (long long)cl); /* not "class": an SVG attribute */
    if (count > 1)
        set_int(n, "count", (long long)count);
    set_num(n, "W", cv->work);
    set_num(n, "S", cv->span);
    set_num(n, "O", cv->overhead);
    set_num(n, "cost", cv->cost);
    if (cv->threads > 0)
        set_int(n, "threads", (long long)cv->threads);
    set(n, "shape", "box");
    set(n, "style", "filled");
    set(n, "width", "0.32");
    set(n, "height", "0.26");
    set(n, "fixedsize", "true");
    set(n, "fontname", MMM_FONT);
    set(n, "penwidth", "0.6");
    set(n, "color", MMM_BORDER_COLOR);
    {
        /* The index, after the kind's letter when there are several
         * kinds (A0, B3); longer labels in a smaller font, so that every
         * block keeps its number inside its fixed box. */
        char k[16], lab[48], num[32];
        size_t len;
        int several = c->inst->program->kernels[L->kernel].nclasses > 1;
        if (several)
            class_letter((uint32_t)cl, k, sizeof k);
        if (count > 1) { /* identical blocks: one box, a stack, x count */
            snprintf(lab, sizeof lab, "%s%s\xc3\x97%s", several ? k : "", several ? " " : "",
                     mmm__fmt_thousands((long long)count, num, sizeof num));
            set(n, "label", lab);
            set(n, "fontsize", "8");
            set(n, "width", "0.72");
            set(n, "height", "0.3");
            set(n, "peripheries", "2");
        } else {
            snprintf(lab, sizeof lab, "%s%zu", several ? k : "", first);
            len = strlen(lab);
            set(n, "label", lab);
            set(n, "fontsize", len <= 4 ? "8" : len == 5 ? "6.5" : len == 6 ? "5.5" : "4.5");
        }
    }
    fill_style(c, n, mmm__class_measure(cv, c->color), c->kinds.of[L->kernel]);
    {
        char a[64], b[64], d[64];
        c->t.len = 0;
        put_plain(&c->t, c->inst->program->kernels[L->kernel].id, 1);
        if (count > 1)
            mmm__text_printf(&c->t, " #%lld blocks %zu to %zu (%lld identical):",
                             (long long)L->copy, first, first + (size_t)count - 1,
                             (long long)count);
        else
            mmm__text_printf(&c->t, " #%lld block %zu:", (long long)L->copy, first);
        mmm__text_printf(&c->t, " W(B)=%s S(B)=%s O(B)=%s",
                         mmm__fmt_exact(cv->work, a, sizeof a),
                         mmm__fmt_exact(cv->span, b, sizeof b),
                         mmm__fmt_exact(cv->overhead, d, sizeof d));
        if (c->t.oom)
            return mmm_error_set(c->err, MMM_ENOMEM, NULL, 0, "out of memory");
        set(n, "tooltip", c->t.s);
    }
    return 0;
}

static int invisible_edge(render_ctx *c, launch *L, size_t a, size_t b)
{
    Agedge_t *e = agedge(L->cluster, L->node[a], L->node[b], NULL, 1);
    if (!e)
        return mmm_error_set(c->err, MMM_ENOMEM, NULL, 0, "out of memory");
    set(e, "style", "invis");
    return 0;
}

/* Row of blocks [from, to) of a launch, left to right. */
static int grid_row(render_ctx *c, launch *L, size_t from, size_t to)
{
    char name[96];
    Agraph_t *row;
    size_t j;
    int rc;
    snprintf(name, sizeof name, "row_%u_%lld_%zu", (unsigned)L->kernel, (long long)L->copy,
             from);
    if (!(row = agsubg(L->cluster, name, 1)))
        return mmm_error_set(c->err, MMM_ENOMEM, NULL, 0, "out of memory");
    set(row, "rank", "same");
    for (j = from; j < to && j < L->nnodes; j++) {
        if (!agsubnode(row, L->node[j], 1))
            return mmm_error_set(c->err, MMM_ENOMEM, NULL, 0, "out of memory");
        if (j > from && (rc = invisible_edge(c, L, j - 1, j)) < 0)
            return rc;
    }
    return 0;
}

static int launch_blocks(render_ctx *c, block_plan *bp, size_t i)
{
    launch *L = &bp->l[i];
    uint32_t cl, ncls = c->inst->program->kernels[L->kernel].nclasses;
    size_t j = 0, cols, first = 0;
    int rc;
    L->node = calloc(L->nnodes, sizeof *L->node);
    if (!L->node)
        return mmm_error_set(c->err, MMM_ENOMEM, NULL, 0, "out of memory");
    if (L->blocks == 0)
        return block_node(c, L, 0, NULL, -1, 0, 1);
    if ((rc = mmm__launch_classes(bp->cls, &L->blocks, c->inst, L->kernel, L->copy,
                                  c->err)) < 0)
        return rc;
    for (cl = 0; cl < ncls; cl++) {
        int64_t b, n = bp->cls[cl].count;
        if (folded(c, n)) {
            if ((rc = block_node(c, L, j++, &bp->cls[cl], cl, first, n)) < 0)
                return rc;
        } else {
            for (b = 0; b < n; b++, j++)
                if ((rc = block_node(c, L, j, &bp->cls[cl], cl, first + (size_t)b, 1)) < 0)
                    return rc;
        }
        first += (size_t)n;
    }
    if (c->full)
        return 0;
    /* Pictures: the blocks in a grid, so that a launch of many blocks is a
     * compact rectangle and not one very wide rank.  Each row is a
     * rank=same subgraph ordered by invisible flat edges; invisible edges
     * down the columns stack the rows. */
    cols = grid_cols(L->nnodes);
    for (j = 0; j < L->nnodes; j++) {
        if (j % cols == 0 && (rc = grid_row(c, L, j, j + cols)) < 0)
            return rc;
        if (j + cols < L->nnodes && (rc = invisible_edge(c, L, j, j + cols)) < 0)
            return rc;
    }
    return 0;
}

/* Dependency between two launches: in DOT every pair of blocks; in a
 * picture one edge between the clusters (compound edge). */
static int launch_edge(render_ctx *c, const launch *a, const launch *b, uint32_t u,
                       uint32_t v)
{
    size_t i, j;
    if (c->full) {
        for (i = 0; i < a->nnodes; i++)
            for (j = 0; j < b->nnodes; j++) {
                Agedge_t *e;
                if (agedge(c->g, a->node[i], b->node[j], NULL, 0))
                    continue; /* a repeated <edge> */
                e = agedge(c->g, a->node[i], b->node[j], NULL, 1);
                if (!e)
                    return mmm_error_set(c->err, MMM_ENOMEM, NULL, 0, "out of memory");
            }
        return 0;
    }
    {
        size_t cols_a = grid_cols(a->nnodes), cols_b = grid_cols(b->nnodes);
        size_t last_row = (a->nnodes - 1) / cols_a * cols_a;
        size_t ta = last_row + (a->nnodes - last_row) / 2, hb = cols_b / 2;
        Agnode_t *t = a->node[ta < a->nnodes ? ta : a->nnodes - 1];
        Agnode_t *h = b->node[hb < b->nnodes ? hb : 0];
        Agedge_t *e;
        if (agedge(c->g, t, h, NULL, 0))
            return 0; /* a repeated <edge> */
        e = agedge(c->g, t, h, NULL, 1);
        if (!e)
            return mmm_error_set(c->err, MMM_ENOMEM, NULL, 0, "out of memory");
        set(e, "ltail", agnameof(a->cluster));
        set(e, "lhead", agnameof(b->cluster));
        set(e, "minlen", "2"); /* room for the arrow between clusters */
        edge_style(c, e, u, v);
        if (u == v && c->on_span[u]) { /* a chain is on a path when its kernel is */
            set(e, "color", MMM_SPAN_PATH_COLOR);
            set(e, "penwidth", "3");
        } else if (u == v && c->on_l[u] && c->l_differs) {
            set(e, "color", MMM_L_PATH_COLOR);
            set(e, "penwidth", "2.5");
            set(e, "style", "dashed");
        }
    }
    return 0;
}

static double launch_pairs(const block_plan *bp, size_t a, size_t b)
{
    return (double)bp->l[a].nnodes * (double)bp->l[b].nnodes;
}

static int block_edges(render_ctx *c, block_plan *bp)
{
    const mmm_program *p = c->inst->program;
    size_t i, k;
    int rc;
    if (c->full) { /* count first: refuse a DOT nobody could use */
        double edges = 0;
        for (i = 0; i + 1 < bp->nlaunches; i++)
            if (bp->l[i].kernel == bp->l[i + 1].kernel)
                edges += launch_pairs(bp, i, i + 1);
        for (i = 0; i < p->nedges; i++) {
            uint32_t u = p->edges[i].from, v = p->edges[i].to;
            edges += launch_pairs(bp, bp->first[u] + (size_t)nlaunch(c->inst, u) - 1,
                                  bp->first[v]);
        }
        if (edges > MMM_RENDER_MAX_BLOCK_EDGES)
            return mmm_error_set(c->err, MMM_ELIMIT, p->file, 0,
                                 "the thread-block DAG has %.0f edges, more than %d: "
                                 "write the kernel level instead", edges,
                                 MMM_RENDER_MAX_BLOCK_EDGES);
    }
    for (i = 0; i + 1 < bp->nlaunches; i++)
        if (bp->l[i].kernel == bp->l[i + 1].kernel &&
            (rc = launch_edge(c, &bp->l[i], &bp->l[i + 1], bp->l[i].kernel,
                              bp->l[i].kernel)) < 0)
            return rc;
    for (k = 0; k < p->nedges; k++) {
        uint32_t u = p->edges[k].from, v = p->edges[k].to;
        size_t last = bp->first[u] + (size_t)nlaunch(c->inst, u) - 1;
        if ((rc = launch_edge(c, &bp->l[last], &bp->l[bp->first[v]], u, v)) < 0)
            return rc;
    }
    return 0;
}

static int build_blocks(render_ctx *c, size_t max_nodes)
{
    block_plan bp;
    size_t i;
    int rc;
    memset(&bp, 0, sizeof bp);
    if ((rc = plan_launches(c, &bp, max_nodes)) < 0 ||
        (rc = scan_blocks(c, &bp, max_nodes)) < 0)
        goto done;
    set(c->g, "compound", "true");
    set(c->g, "newrank", "true");
    set(c->g, "ranksep", "0.25");
    for (i = 0; i < bp.nlaunches; i++)
        if ((rc = launch_cluster(c, &bp, i)) < 0 || (rc = launch_blocks(c, &bp, i)) < 0)
            goto done;
    rc = block_edges(c, &bp);
done:
    plan_dispose(&bp);
    return rc;
}

/* The size of dot's layout problem at kernel level: the kernels plus the
 * virtual nodes it threads along every edge that skips ranks, estimated
 * with longest-path ranks (dot's own ranking has no more).  Crossing
 * minimization and placement grow with it much faster than linearly. */
static double layout_size(const mmm_program *p, uint32_t *ranks, mmm_error *err, int *rc)
{
    uint32_t *rank = calloc(p->nkernels ? p->nkernels : 1, sizeof *rank);
    double size = (double)p->nkernels;
    size_t i;
    uint32_t j;
    *rc = 0;
    if (!rank) {
        *rc = mmm_error_set(err, MMM_ENOMEM, NULL, 0, "out of memory");
        return 0;
    }
    for (i = 0; i < p->nkernels; i++) {
        uint32_t u = p->topo[i];
        for (j = p->succ_start[u]; j < p->succ_start[u + 1]; j++)
            if (rank[p->succ[j]] < rank[u] + 1)
                rank[p->succ[j]] = rank[u] + 1;
    }
    *ranks = 0;
    for (i = 0; i < p->nkernels; i++)
        if (rank[i] + 1 > *ranks)
            *ranks = rank[i] + 1;
    for (i = 0; i < p->nedges; i++)
        size += (double)(rank[p->edges[i].to] - rank[p->edges[i].from] - 1);
    free(rank);
    return size;
}

/* Bound the layout effort of large pictures: refuse a kernel DAG whose
 * layout is far larger than its nodes (a dense DAG is unreadable anyway),
 * and limit dot's iterations above a few hundred nodes. */
static int layout_budget(render_ctx *c, size_t max_nodes)
{
    const mmm_program *p = c->inst->program;
    double size;
    uint32_t ranks;
    int rc;
    if (c->full || c->opt->level != MMM_LEVEL_KERNEL)
        return 0;
    size = layout_size(p, &ranks, c->err, &rc);
    if (rc < 0)
        return rc;
    if (size > 5.0 * (double)max_nodes)
        return mmm_error_set(c->err, MMM_ELIMIT, p->file, 0,
                             "the kernel DAG is too dense to draw: %zu kernels and %zu edges "
                             "across %u ranks make a layout of about %.0f nodes, more than "
                             "5 x --max-nodes %zu; write --format dot, or raise --max-nodes",
                             p->nkernels, p->nedges, (unsigned)ranks, size, max_nodes);
    if (size > 400) {
        set(c->g, "mclimit", "0.3");
        set(c->g, "nslimit", "2");
        set(c->g, "nslimit1", "2");
        set(c->g, "searchsize", "10");
    }
    return 0;
}

/* Whether to condense the kernel level, and the condensed DAG: always
 * for the critical view and --condense always; for auto in pictures
 * (not DOT, which is data) above MMM_RENDER_CONDENSE_ABOVE kernels or a
 * level wider than MMM_RENDER_CONDENSE_WIDE, when it draws fewer nodes. */
static int plan_condense(render_ctx *c)
{
    const mmm_program *p = c->inst->program;
    int critical = c->opt->view == MMM_VIEW_CRITICAL, rc;
    char a[32], b[32], d[32];
    const char *noun = c->kinds.declared ? "tasks" : "kernels";
    if (c->opt->level != MMM_LEVEL_KERNEL || p->nkernels == 0)
        return 0;
    if (!critical && c->opt->condense != MMM_CONDENSE_ALWAYS) {
        uint32_t *level, nlevels;
        size_t widest;
        if (c->opt->condense == MMM_CONDENSE_NEVER || c->full)
            return 0;
        if (p->nkernels <= MMM_RENDER_CONDENSE_ABOVE) {
            if ((rc = mmm__levels(p, &level, &nlevels, &widest, c->err)) < 0)
                return rc;
            free(level);
            if (widest <= MMM_RENDER_CONDENSE_WIDE)
                return 0;
        }
    }
    if ((rc = mmm__condense(&c->cd, c->inst, c->m, &c->kinds, critical, c->err)) < 0)
        return rc;
    if (!critical && c->opt->condense == MMM_CONDENSE_AUTO && c->cd.ngroups >= p->nkernels) {
        mmm__condensed_dispose(&c->cd);
        return 0;
    }
    c->condensed = 1;
    mmm__fmt_thousands((long long)p->nkernels, a, sizeof a);
    mmm__fmt_thousands((long long)c->cd.ngroups, b, sizeof b);
    mmm__fmt_thousands((long long)c->cd.nlevels, d, sizeof d);
    if (critical)
        rc = mmm__notes_add(c->opt->notes, "%s: note: drew the critical path (%zu %s) and "
                                           "condensed the other %zu into %zu nodes over %s "
                                           "levels (--view all draws every one)",
                            p->file, c->m->span_path_len, noun,
                            p->nkernels - c->m->span_path_len,
                            c->cd.ngroups - c->m->span_path_len, d);
    else
        rc = mmm__notes_add(c->opt->notes, "%s: note: condensed %s %s into %s nodes over %s "
                                           "levels (--condense never draws every one)",
                            p->file, a, noun, b, d);
    return rc < 0 ? mmm_error_set(c->err, MMM_ENOMEM, NULL, 0, "out of memory") : 0;
}

static int build_graph(render_ctx *c)
{
    const mmm_program *p = c->inst->program;
    size_t max_nodes = c->opt->max_nodes ? c->opt->max_nodes : MMM_RENDER_MAX_NODES_DEFAULT;
    int rc;
    if ((rc = mmm__kinds_compute(&c->kinds, p, c->err)) < 0 || (rc = plan_condense(c)) < 0)
        return rc;
    if (c->condensed && c->cd.ngroups > max_nodes)
        return limit_error(c, "condensed nodes", (double)c->cd.ngroups, max_nodes);
    if (!c->condensed && c->opt->level == MMM_LEVEL_KERNEL && p->nkernels > max_nodes)
        return limit_error(c, "kernels", (double)p->nkernels, max_nodes);
    c->g = agopen(gvs(p->name && *p->name ? p->name : "program"), Agdirected, NULL);
    if (!c->g)
        return gv_fail(c->err, "cannot create a graph");
    mmm__scale_init(&c->scale);
    if ((rc = paths_init(c)) < 0)
        return rc;
    graph_attrs(c);
    if (c->condensed)
        set(c->g, "condensed", c->opt->view == MMM_VIEW_CRITICAL ? "critical" : "1");
    if (!c->condensed && (rc = layout_budget(c, max_nodes)) < 0)
        return rc;
    rc = c->opt->level == MMM_LEVEL_BLOCK ? build_blocks(c, max_nodes) : build_kernels(c);
    if (rc < 0)
        return rc;
    return graph_title(c);
}

/* ------------------------------------------------------------------ */
/* Output                                                              */

static int write_dot(render_ctx *c, char **out, size_t *len_out)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    int bad;
    if (!f)
        return mmm_error_set(c->err, MMM_ENOMEM, NULL, 0, "out of memory");
    bad = agwrite(c->g, f) != 0;
    if (fclose(f) != 0 || bad || !buf) {
        free(buf);
        return gv_fail(c->err, "cannot write the DOT text");
    }
    *out = buf;
    *len_out = len;
    return 0;
}

/* The Graphviz context of the process, created on first use and never
 * freed.  Graphviz 2.42's pango text layout keeps a pointer to the last
 * font name it measured (a static in gvtextlayout_pango.c) that points
 * into the context's font dictionary: after gvFreeContext the next layout
 * reads freed memory.  One context for the process keeps it valid. */
static GVC_t *gv_context(void)
{
    static GVC_t *gvc;
    if (!gvc)
        gvc = gvContext();
    return gvc;
}

/* Size of the laid-out graph in points (with its pad). */
static void layout_pt(Agraph_t *g, double *w, double *h)
{
    double pad = 2 * 0.2 * 72; /* the graph's pad, 0.2 inch each side */
    *w = GD_bb(g).UR.x - GD_bb(g).LL.x + pad;
    *h = GD_bb(g).UR.y - GD_bb(g).LL.y + pad;
}

/* The last resort for the shape: white space above and below (or on
 * both sides) of a layout that ratio could not spread (one rank, one
 * column), through the graph's pad. */
static void letterbox(render_ctx *c, double *w, double *h, double aspect)
{
    char b[64];
    double px = 0.2, py = 0.2;
    if (*w > aspect * *h) {
        py += (*w / aspect - *h) / 2 / 72;
        *h = *w / aspect;
    } else if (*h > aspect * *w) {
        px += (*h / aspect - *w) / 2 / 72;
        *w = *h / aspect;
    } else {
        return;
    }
    snprintf(b, sizeof b, "%.4f,%.4f", px, py);
    set(c->g, "pad", b);
}

/* Pixels per point of the output: a PNG's dpi, CSS pixels (96 per inch)
 * for SVG, points for PDF. */
static double px_per_pt(render_ctx *c, Agraph_t *g)
{
    if (c->opt->format == MMM_RENDER_PNG)
        return (GD_drawing(g)->dpi > 0 ? GD_drawing(g)->dpi : 96.0) / 72.0;
    return c->opt->format == MMM_RENDER_SVG ? 96.0 / 72.0 : 1.0;
}

/* Keep the picture readable in shape: a layout more than max_aspect
 * times longer than wide (or the reverse) is laid out again with dot's
 * ratio, which spreads the short side out; one larger than max_side_px
 * pixels on a side is scaled down to it (a PNG by its resolution, SVG
 * and PDF by the graph's size, which the renderers apply).  Cairo
 * bitmaps are at most 32767 pixels a side, and past that Graphviz's
 * cairo plugin (2.42) would scale the picture itself and say so on
 * stderr: the bitmap limit is applied here too. */
#define BITMAP_MAX_PX 32000.0
static int fit_shape(render_ctx *c, GVC_t *gvc)
{
    double max_side = c->opt->max_side_px > 0 ? c->opt->max_side_px : MMM_RENDER_MAX_SIDE_PX;
    double aspect = c->opt->max_aspect > 0 ? c->opt->max_aspect : MMM_RENDER_MAX_ASPECT;
    double w, h, f, big;
    const char *file = c->inst->program->file;
    layout_pt(c->g, &w, &h);
    if (w > aspect * h || h > aspect * w) {
        char b[32];
        snprintf(b, sizeof b, "%g", w > h ? 1.0 / aspect : aspect);
        gvFreeLayout(gvc, c->g);
        set(c->g, "ratio", b);
        if (gvLayout(gvc, c->g, "dot") != 0)
            return gv_fail(c->err, "layout failed");
        if (mmm__notes_add(c->opt->notes, "%s: note: the layout is %.0f x %.0f points; "
                                          "spread out to %g:1 (--rankdir may suit it better)",
                           file, w, h, aspect) < 0)
            return mmm_error_set(c->err, MMM_ENOMEM, NULL, 0, "out of memory");
        layout_pt(c->g, &w, &h);
        letterbox(c, &w, &h, aspect);
    }
    f = px_per_pt(c, c->g);
    big = (w > h ? w : h) * f;
    if (c->opt->format == MMM_RENDER_PNG && max_side > BITMAP_MAX_PX)
        max_side = BITMAP_MAX_PX;
    if (big > max_side) {
        double z = max_side / big;
        if (c->opt->format == MMM_RENDER_PNG) {
            GD_drawing(c->g)->dpi = f * 72.0 * z;
        } else {
            GD_drawing(c->g)->size.x = w * z;
            GD_drawing(c->g)->size.y = h * z;
        }
        if (mmm__notes_add(c->opt->notes, "%s: note: the picture would be %.0f x %.0f pixels; "
                                          "scaled down to %.0f on its longer side",
                           file, w * f, h * f, max_side) < 0)
            return mmm_error_set(c->err, MMM_ENOMEM, NULL, 0, "out of memory");
    }
    return 0;
}

static int layout_render(render_ctx *c, char **out, size_t *len_out)
{
    static const char *const device[] = {"svg", "png:cairo", "pdf:cairo"};
    GVC_t *gvc = gv_context();
    char *data = NULL;
    unsigned int len = 0;
    int rc = 0;
    if (!gvc)
        return gv_fail(c->err, "cannot start (are its plugins installed?)");
    if (gvLayout(gvc, c->g, "dot") != 0)
        return gv_fail(c->err, "layout failed");
    if ((rc = fit_shape(c, gvc)) < 0)
        goto freelayout;
    if (gvRenderData(gvc, c->g, device[c->opt->format], &data, &len) != 0 || !data) {
        rc = gv_fail(c->err, c->opt->format == MMM_RENDER_SVG
                                 ? "cannot render svg"
                                 : "cannot render (the cairo plugin of libgvc6 is needed "
                                   "for png and pdf)");
        data = NULL;
        goto freelayout;
    }
    *out = malloc((size_t)len + 1);
    if (!*out) {
        rc = mmm_error_set(c->err, MMM_ENOMEM, NULL, 0, "out of memory");
    } else {
        memcpy(*out, data, len);
        (*out)[len] = '\0';
        *len_out = len;
    }
    gvFreeRenderData(data);
freelayout:
    gvFreeLayout(gvc, c->g);
    return rc;
}

int mmm_render_memory(char **out, size_t *len_out, const mmm_instance *inst,
                      const mmm_metrics *m, const mmm_render_options *opt,
                      mmm_error *err)
{
    mmm_render_options o = MMM_RENDER_OPTIONS_INIT;
    render_ctx c;
    agusererrf old;
    int rc;
    MMM__CHECK_VERSION(opt, mmm_render_options, RENDER_OPTIONS, err);
    if (opt)
        MMM__COPY_OPTIONS(&o, opt, mmm_render_options, 2, condense);
    opt = &o;
    if (!out || !len_out || !inst || !m || (unsigned)opt->format > MMM_RENDER_DOT ||
        (unsigned)opt->level > MMM_LEVEL_BLOCK || (unsigned)opt->color > MMM_COLOR_AUTO ||
        (unsigned)opt->condense > MMM_CONDENSE_NEVER || (unsigned)opt->view > MMM_VIEW_CRITICAL ||
        (unsigned)opt->rankdir > MMM_RANKDIR_RL || !(opt->max_side_px >= 0) ||
        !(opt->max_aspect == 0 || opt->max_aspect >= 1))
        return mmm_error_set(err, MMM_EINVAL, NULL, 0, "mmm_render_memory: bad argument");
    *out = NULL;
    *len_out = 0;
    memset(&c, 0, sizeof c);
    c.inst = inst;
    c.m = m;
    c.opt = opt;
    c.full = opt->format == MMM_RENDER_DOT;
    c.err = err;
    mmm__text_init(&c.t);
    gv_message[0] = '\0';
    old = agseterrf(gv_sink);
    rc = build_graph(&c);
    if (rc == 0)
        rc = c.full ? write_dot(&c, out, len_out) : layout_render(&c, out, len_out);
    ctx_dispose(&c);
    agseterrf(old);
    return rc;
}

int mmm_render_file(const char *path, const mmm_instance *inst,
                    const mmm_metrics *m, const mmm_render_options *opt,
                    mmm_error *err)
{
    char *data = NULL;
    size_t len = 0;
    int rc = mmm_render_memory(&data, &len, inst, m, opt, err);
    if (rc == 0)
        rc = mmm__write_file_atomic(path, data, len, err);
    free(data);
    return rc;
}
