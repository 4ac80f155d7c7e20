/*
 * test_render.c: mmm render.  The DOT output read back with cgraph carries
 * the analysis (checked against the instance and, for the hand-checkable
 * programs, against the numbers worked out by hand in their comments); the
 * SVG is well formed and names every kernel; PNG and PDF are produced;
 * every bundled program renders; the block level has exactly N block nodes
 * and the edges of the thread-block DAG; output files are atomic.
 */
#include <criterion/criterion.h>

#include <dirent.h>
#include <graphviz/cgraph.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "mmm/mmm.h"
#include "mmm/render.h"
#include "shell.h"
#include "slurp.h"
#include "xml_files.h"

/* ------------------------------------------------------------------ */
/* Helpers                                                             */

typedef struct loaded {
    mmm_program *prog;
    mmm_instance *inst;
    mmm_metrics m;
} loaded;

static void load(loaded *l, const char *path)
{
    mmm_load_options opt = MMM_LOAD_OPTIONS_INIT;
    mmm_error err;
    memset(l, 0, sizeof *l);
    cr_assert_eq(mmm_program_load_file(&l->prog, path, &opt, &err), 0, "%s: %s", path,
                 err.message);
    cr_assert_eq(mmm_instance_new(&l->inst, l->prog, &err), 0, "%s", err.message);
    cr_assert_eq(mmm_instance_eval(l->inst, NULL, 0, &err), 0, "%s: %s", path, err.message);
    cr_assert_eq(mmm_metrics_compute(&l->m, l->inst, 0, &err), 0, "%s", err.message);
}

static void unload(loaded *l)
{
    mmm_metrics_dispose(&l->m);
    mmm_instance_free(l->inst);
    mmm_program_free(l->prog);
}

static char *render(const loaded *l, mmm_render_format f, mmm_render_level level,
                    size_t *len)
{
    mmm_render_options o = MMM_RENDER_OPTIONS_INIT;
    mmm_error err;
    char *out = NULL;
    size_t n = 0;
    o.format = f;
    o.level = level;
    cr_assert_eq(mmm_render_memory(&out, &n, l->inst, &l->m, &o, &err), 0, "%s: %s",
                 l->prog->file, err.message);
    cr_assert_not_null(out);
    cr_assert_gt(n, 0);
    if (len)
        *len = n;
    return out;
}

/* A private folder for files; removed (with its files) by rmtree. */
static void make_tmpdir(char *dir, size_t size)
{
    snprintf(dir, size, "%s/mmm-test-render-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    cr_assert_not_null(mkdtemp(dir));
}

static void rmtree(const char *dir)
{
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    cr_assert_eq(system(cmd), 0);
}

static int count_files(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    int n = 0;
    cr_assert_not_null(d);
    while ((e = readdir(d)))
        if (e->d_name[0] != '.')
            n++;
    closedir(d);
    return n;
}

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "wb");
    cr_assert_not_null(f);
    fputs(text, f);
    fclose(f);
}

/* Every program file under dags/ (machine files are not programs). */
typedef void (*dag_fn)(const char *path);

static int is_program(const char *path)
{
    size_t n;
    char *text = slurp(path, &n);
    int yes = strstr(text, "<program") != NULL;
    free(text);
    return yes;
}

typedef struct dag_visit {
    dag_fn fn;
    int n; /* programs visited */
} dag_visit;

static void visit_program(const char *path, void *arg)
{
    dag_visit *v = arg;
    if (is_program(path)) {
        v->fn(path);
        v->n++;
    }
}

/* Calls fn on every program under dir; returns how many. */
static int for_each_dag_in(const char *dir, dag_fn fn)
{
    dag_visit v = {fn, 0};
    for_each_xml_file(dir, visit_program, &v);
    return v.n;
}

static double attr_num(void *obj, const char *name)
{
    char *v = agget(obj, (char *)name);
    char *end;
    double d;
    cr_assert(v && *v, "attribute %s missing", name);
    d = strtod(v, &end);
    cr_assert(*end == '\0', "attribute %s = '%s' is not a number", name, v);
    return d;
}

/* The SVG <title> of a node: Graphviz escapes XML and '-' (&#45;). */
static void svg_title(char *out, size_t size, const char *id)
{
    size_t n = 0;
    n += (size_t)snprintf(out + n, size - n, "<title>");
    for (; *id && n + 8 < size; id++) {
        switch (*id) {
        case '-': n += (size_t)snprintf(out + n, size - n, "&#45;"); break;
        case '&': n += (size_t)snprintf(out + n, size - n, "&amp;"); break;
        case '<': n += (size_t)snprintf(out + n, size - n, "&lt;"); break;
        case '>': n += (size_t)snprintf(out + n, size - n, "&gt;"); break;
        default: out[n++] = *id; out[n] = '\0';
        }
    }
    snprintf(out + n, size - n, "</title>");
}

static int count_substr(const char *s, const char *pat)
{
    int n = 0;
    size_t len = strlen(pat);
    while ((s = strstr(s, pat))) {
        n++;
        s += len;
    }
    return n;
}

/* ------------------------------------------------------------------ */
/* Options                                                             */

Test(render, format_names_and_extensions)
{
    mmm_render_format f;
    mmm_render_level lv;
    mmm_render_color c;
    cr_assert_eq(mmm_render_format_from_path(&f, "a/b.svg"), 0);
    cr_assert_eq(f, MMM_RENDER_SVG);
    cr_assert_eq(mmm_render_format_from_path(&f, "x.PNG"), 0);
    cr_assert_eq(f, MMM_RENDER_PNG);
    cr_assert_eq(mmm_render_format_from_path(&f, "x.pdf"), 0);
    cr_assert_eq(f, MMM_RENDER_PDF);
    cr_assert_eq(mmm_render_format_from_path(&f, "x.gv"), 0);
    cr_assert_eq(f, MMM_RENDER_DOT);
    cr_assert_eq(mmm_render_format_from_path(&f, "x.dot"), 0);
    cr_assert_eq(f, MMM_RENDER_DOT);
    cr_assert_lt(mmm_render_format_from_path(&f, "x.jpg"), 0);
    cr_assert_lt(mmm_render_format_from_path(&f, "dir.svg/x"), 0);
    cr_assert_lt(mmm_render_format_from_path(&f, "noext"), 0);
    cr_assert_eq(mmm_render_level_parse(&lv, "block"), 0);
    cr_assert_eq(lv, MMM_LEVEL_BLOCK);
    cr_assert_lt(mmm_render_level_parse(&lv, "thread"), 0);
    cr_assert_eq(mmm_render_color_parse(&c, "cost"), 0);
    cr_assert_eq(c, MMM_COLOR_COST);
    cr_assert_lt(mmm_render_color_parse(&c, "blue"), 0);
    cr_assert_str_eq(mmm_render_format_name(MMM_RENDER_PDF), "pdf");
}

/* ------------------------------------------------------------------ */
/* DOT read back with cgraph                                           */

static int on_path(const uint32_t *path, size_t len, size_t k)
{
    size_t i;
    for (i = 0; i < len; i++)
        if (path[i] == k)
            return 1;
    return 0;
}

/* Distinct kernel edges (a repeated <edge> is one edge of the DAG). */
static size_t distinct_edges(const mmm_program *p)
{
    size_t i, j, n = 0;
    for (i = 0; i < p->nedges; i++) {
        for (j = 0; j < i; j++)
            if (p->edges[j].from == p->edges[i].from && p->edges[j].to == p->edges[i].to)
                break;
        n += j == i;
    }
    return n;
}

static void check_dot_against_analysis(const char *path)
{
    loaded l;
    char *dot;
    Agraph_t *g;
    size_t k;
    load(&l, path);
    if (l.prog->nkernels > MMM_RENDER_MAX_NODES_DEFAULT) {
        unload(&l);
        return;
    }
    dot = render(&l, MMM_RENDER_DOT, MMM_LEVEL_KERNEL, NULL);
    g = agmemread(dot);
    cr_assert_not_null(g, "%s: the DOT does not parse back", path);
    cr_assert(agisdirected(g));
    cr_assert_eq((size_t)agnnodes(g), l.prog->nkernels, "%s", path);
    cr_assert_eq((size_t)agnedges(g), distinct_edges(l.prog), "%s", path);
    cr_assert_eq(attr_num(g, "W"), l.m.W);
    cr_assert_eq(attr_num(g, "S"), l.m.S);
    cr_assert_eq(attr_num(g, "O"), l.m.O);
    cr_assert_eq(attr_num(g, "N"), (double)l.m.N);
    cr_assert_eq(attr_num(g, "L"), (double)l.m.L);
    cr_assert_eq(attr_num(g, "C"), l.m.C);
    cr_assert_eq(attr_num(g, "K"), (double)l.m.K);
    cr_assert_eq(attr_num(g, "corollary"), l.m.corollary);
    if (l.m.has_p)
        cr_assert_eq(attr_num(g, "graham_brent"), l.m.graham_brent);
    cr_assert_str_eq(agget(g, "program"), l.prog->name);
    for (k = 0; k < l.prog->nkernels; k++) {
        const mmm_kernel_val *kv = &l.inst->kernels[k];
        Agnode_t *n = agnode(g, (char *)l.prog->kernels[k].id, 0);
        cr_assert_not_null(n, "%s: kernel %s is not a node", path, l.prog->kernels[k].id);
        cr_assert_eq(attr_num(n, "repeat"), (double)kv->repeat);
        cr_assert_eq(attr_num(n, "blocks"), (double)kv->blocks);
        cr_assert_eq(attr_num(n, "N"), (double)kv->N);
        cr_assert_eq(attr_num(n, "W"), kv->W, "%s %s", path, l.prog->kernels[k].id);
        cr_assert_eq(attr_num(n, "S"), kv->S);
        cr_assert_eq(attr_num(n, "O"), kv->O);
        cr_assert_eq(attr_num(n, "C"), kv->C);
        cr_assert_eq(attr_num(n, "span_path"),
                     (double)on_path(l.m.span_path, l.m.span_path_len, k));
        cr_assert_eq(attr_num(n, "l_path"), (double)on_path(l.m.l_path, l.m.l_path_len, k));
    }
    for (k = 0; k < l.prog->nedges; k++) {
        Agnode_t *a = agnode(g, (char *)l.prog->kernels[l.prog->edges[k].from].id, 0);
        Agnode_t *b = agnode(g, (char *)l.prog->kernels[l.prog->edges[k].to].id, 0);
        cr_assert_not_null(agedge(g, a, b, NULL, 0), "%s: edge %zu missing", path, k);
    }
    agclose(g);
    free(dot);
    unload(&l);
}

Test(render, dot_carries_the_analysis_of_every_bundled_program)
{
    cr_assert_gt(for_each_dag_in(MMM_DAGS_DIR, check_dot_against_analysis), 5);
}

/* The numbers worked out by hand in dags/fork_join.xml. */
Test(render, dot_fork_join_by_hand)
{
    loaded l;
    char *dot;
    Agraph_t *g;
    Agnode_t *n;
    load(&l, MMM_DAGS_DIR "/fork_join.xml");
    dot = render(&l, MMM_RENDER_DOT, MMM_LEVEL_KERNEL, NULL);
    g = agmemread(dot);
    cr_assert_not_null(g);
    cr_assert_eq(agnnodes(g), 5);
    cr_assert_eq(agnedges(g), 6);
    cr_assert_eq(attr_num(g, "W"), 116);
    cr_assert_eq(attr_num(g, "S"), 26);
    cr_assert_eq(attr_num(g, "O"), 480);
    cr_assert_eq(attr_num(g, "N"), 19);
    cr_assert_eq(attr_num(g, "L"), 5);
    cr_assert_eq(attr_num(g, "C"), 52);
    cr_assert_eq(attr_num(g, "K"), 11);
    cr_assert_eq(attr_num(g, "p"), 3);
    cr_assert_float_eq(attr_num(g, "graham_brent"), 1768.0 / 3, 1e-9);
    cr_assert_float_eq(attr_num(g, "corollary"), 3848.0 / 11, 1e-9);
    n = agnode(g, "w1", 0);
    cr_assert_eq(attr_num(n, "repeat"), 3);
    cr_assert_eq(attr_num(n, "blocks"), 4); /* the largest launch */
    cr_assert_eq(attr_num(n, "N"), 9);
    cr_assert_eq(attr_num(n, "W"), 60);
    cr_assert_eq(attr_num(n, "S"), 6);
    cr_assert_eq(attr_num(n, "O"), 270);
    cr_assert_eq(attr_num(n, "C"), 33);
    cr_assert_eq(attr_num(n, "l_path"), 1);
    cr_assert_eq(attr_num(n, "span_path"), 0);
    n = agnode(g, "w3", 0);
    cr_assert_eq(attr_num(n, "repeat"), 2);
    cr_assert_eq(attr_num(n, "S"), 20);
    cr_assert_eq(attr_num(n, "span_path"), 1);
    cr_assert_eq(attr_num(n, "l_path"), 0);
    /* The critical path fork -> w3 -> join is highlighted, w2 is not. */
    cr_assert_eq(attr_num(agedge(g, agnode(g, "fork", 0), agnode(g, "w3", 0), NULL, 0),
                          "span_path"), 1);
    cr_assert_eq(attr_num(agedge(g, agnode(g, "w2", 0), agnode(g, "join", 0), NULL, 0),
                          "span_path"), 0);
    cr_assert_eq(attr_num(agedge(g, agnode(g, "w1", 0), agnode(g, "join", 0), NULL, 0),
                          "l_path"), 1);
    agclose(g);
    free(dot);
    unload(&l);
}

/* The L path is drawn in its own style only where the span path is not a
 * longest block path: fork_join (span path L = 1 + 2 + 1 = 4 < L = 5), not
 * the diamond (both kernel paths have L = 3). */
Test(render, l_path_style_only_where_it_differs)
{
    loaded l;
    char *dot;
    Agraph_t *g;
    Agedge_t *e;
    load(&l, MMM_DAGS_DIR "/fork_join.xml");
    dot = render(&l, MMM_RENDER_DOT, MMM_LEVEL_KERNEL, NULL);
    g = agmemread(dot);
    e = agedge(g, agnode(g, "w1", 0), agnode(g, "join", 0), NULL, 0);
    cr_assert_str_eq(agget(e, "style"), "dashed");
    cr_assert(strstr(dot, "longest block path (L)"));
    agclose(g);
    free(dot);
    unload(&l);
    load(&l, MMM_DAGS_DIR "/diamond.xml");
    dot = render(&l, MMM_RENDER_DOT, MMM_LEVEL_KERNEL, NULL);
    cr_assert_null(strstr(dot, "dashed"));
    cr_assert_null(strstr(dot, "longest block path (L)"));
    free(dot);
    unload(&l);
}

/* Two paths sharing kernels: a -> b (x3) -> d and a -> c -> d.  By hand:
 * span S(a) + S(c) + S(d) = 4 + 30 + 2 = 36 beats 4 + 3*1 + 2 = 9, so the
 * span path is a c d (3 launches); the longest block path is a b b b d
 * (5 launches).  a and d are on both: their labels sit in the L path's
 * dashed ring inside the span path's border; b and c are on one only.
 * d has two kinds of blocks, 3 of the first and 1 of the second. */
static const char two_paths_xml[] =
    "<program name=\"paths\"><param name=\"U\" value=\"10\"/>"
    "<param name=\"p\" value=\"2\" min=\"1\"/>"
    "<kernel id=\"a\" blocks=\"2\" work=\"8\" span=\"4\" reads=\"1\" writes=\"1\"/>"
    "<kernel id=\"b\" repeat=\"3\" blocks=\"1\" work=\"2\" span=\"1\" reads=\"1\" writes=\"1\"/>"
    "<kernel id=\"c\" blocks=\"3\" work=\"90\" span=\"30\" reads=\"1\" writes=\"0\"/>"
    "<kernel id=\"d\"><blocks count=\"3\" work=\"6\" span=\"2\" reads=\"1\" writes=\"1\"/>"
    "<blocks count=\"1\" work=\"1\" span=\"1\" reads=\"0\" writes=\"1\"/></kernel>"
    "<edge from=\"a\" to=\"b\"/><edge from=\"a\" to=\"c\"/>"
    "<edge from=\"b\" to=\"d\"/><edge from=\"c\" to=\"d\"/></program>";

static void load_memory(loaded *l, const char *xml)
{
    mmm_load_options opt = MMM_LOAD_OPTIONS_INIT;
    mmm_error err;
    memset(l, 0, sizeof *l);
    cr_assert_eq(mmm_program_load_memory(&l->prog, xml, strlen(xml), "paths.xml", &opt, &err), 0,
                 "%s", err.message);
    cr_assert_eq(mmm_instance_new(&l->inst, l->prog, &err), 0, "%s", err.message);
    cr_assert_eq(mmm_instance_eval(l->inst, NULL, 0, &err), 0, "%s", err.message);
    cr_assert_eq(mmm_metrics_compute(&l->m, l->inst, 0, &err), 0, "%s", err.message);
}

Test(render, kernels_on_both_paths_show_both)
{
    static const struct { const char *id; int span, l; } want[] = {
        {"a", 1, 1}, {"b", 0, 1}, {"c", 1, 0}, {"d", 1, 1}};
    loaded l;
    char *dot;
    Agraph_t *g;
    size_t i;
    load_memory(&l, two_paths_xml);
    cr_assert_eq(l.m.S, 36);
    cr_assert_eq(l.m.L, 5);
    dot = render(&l, MMM_RENDER_DOT, MMM_LEVEL_KERNEL, NULL);
    g = agmemread(dot);
    cr_assert_not_null(g);
    for (i = 0; i < 4; i++) {
        Agnode_t *n = agnode(g, (char *)want[i].id, 0);
        const char *label;
        cr_assert_not_null(n);
        label = agget(n, "label");
        cr_assert_eq(attr_num(n, "span_path"), want[i].span, "%s", want[i].id);
        cr_assert_eq(attr_num(n, "l_path"), want[i].l, "%s", want[i].id);
        /* The span path's border on the node, the L path's ring in it. */
        cr_assert_eq(strcmp(agget(n, "color"), "#2166ac") == 0, want[i].span, "%s",
                     want[i].id);
        cr_assert_eq(strstr(label, "STYLE=\"dashed\" COLOR=\"#1b7837\"") != NULL,
                     want[i].span && want[i].l, "%s: %s", want[i].id, label);
    }
    agclose(g);
    free(dot);
    unload(&l);
}

Test(render, block_level_shows_the_kinds_of_blocks)
{
    loaded l;
    char *dot;
    Agraph_t *g, *sub;
    Agnode_t *n;
    int seen = 0;
    load_memory(&l, two_paths_xml);
    dot = render(&l, MMM_RENDER_DOT, MMM_LEVEL_BLOCK, NULL);
    g = agmemread(dot);
    cr_assert_not_null(g);
    for (n = agfstnode(g); n; n = agnxtnode(g, n)) {
        char want[16];
        int j;
        if (strcmp(agget(n, "kernel"), "d") != 0) {
            /* One kind: the index alone. */
            snprintf(want, sizeof want, "%d", (int)attr_num(n, "block"));
            cr_assert_str_eq(agget(n, "label"), want);
            continue;
        }
        j = (int)attr_num(n, "block");
        /* Blocks 0..2 are of the first kind, block 3 of the second. */
        cr_assert_eq(attr_num(n, "block_class"), j < 3 ? 0 : 1);
        snprintf(want, sizeof want, "%c%d", j < 3 ? 'A' : 'B', j);
        cr_assert_str_eq(agget(n, "label"), want);
        seen++;
    }
    cr_assert_eq(seen, 4);
    /* The launch's cluster counts them, and says it is also on L. */
    for (sub = agfstsubg(g); sub; sub = agnxtsubg(sub))
        if (strcmp(agget(sub, "kernel"), "d") == 0) {
            cr_assert(strstr(agget(sub, "label"), "(4 blocks: 3 A, 1 B)"), "%s",
                      agget(sub, "label"));
            cr_assert(strstr(agget(sub, "label"), "also on L"));
        } else if (strcmp(agget(sub, "kernel"), "c") == 0) {
            cr_assert_null(strstr(agget(sub, "label"), "also on L"));
        }
    agclose(g);
    free(dot);
    unload(&l);
}

/* Every block keeps its index after its kind's letter, past 100 and past
 * 1000 too (in a smaller font): kernel k has 1200 blocks of kind A and one
 * of kind B, so its blocks are A0 .. A1199 and B1200. */
Test(render, block_level_labels_every_block_of_a_kind)
{
    static const char xml[] =
        "<program name=\"kinds\"><kernel id=\"k\">"
        "<blocks count=\"1200\" work=\"1\" span=\"1\" reads=\"0\" writes=\"0\"/>"
        "<blocks count=\"1\" work=\"2\" span=\"2\" reads=\"0\" writes=\"0\"/>"
        "</kernel></program>";
    loaded l;
    char *dot;
    Agraph_t *g;
    Agnode_t *n;
    int seen = 0;
    load_memory(&l, xml);
    dot = render(&l, MMM_RENDER_DOT, MMM_LEVEL_BLOCK, NULL);
    g = agmemread(dot);
    cr_assert_not_null(g);
    for (n = agfstnode(g); n; n = agnxtnode(g, n)) {
        char want[16];
        int j;
        if (strcmp(agget(n, "kind"), "block") != 0)
            continue;
        j = (int)attr_num(n, "block");
        snprintf(want, sizeof want, "%c%d", j < 1200 ? 'A' : 'B', j);
        cr_assert_str_eq(agget(n, "label"), want);
        cr_assert_str_eq(agget(n, "fontsize"), strlen(want) <= 4 ? "8" : "6.5", "%s", want);
        seen++;
    }
    cr_assert_eq(seen, 1201);
    agclose(g);
    free(dot);
    unload(&l);
}

/* ------------------------------------------------------------------ */
/* Block level                                                         */

typedef struct block_tally {
    int blocks, empty;
} block_tally;

static block_tally tally_blocks(Agraph_t *g)
{
    block_tally t = {0, 0};
    Agnode_t *n;
    for (n = agfstnode(g); n; n = agnxtnode(g, n)) {
        char *kind = agget(n, "kind");
        cr_assert_not_null(kind);
        if (strcmp(kind, "block") == 0)
            t.blocks++;
        else if (strcmp(kind, "empty") == 0)
            t.empty++;
        else
            cr_assert_fail("node %s of kind '%s'", agnameof(n), kind);
    }
    return t;
}

/* Hand counts: fork_join has 19 blocks; its thread-block DAG has
 * w1: 2*3 + 3*4 (chain), w3: 1*1 (chain), fork -> w1, w2, w3: 2 + 6 + 1,
 * w1, w2, w3 -> join: 4 + 6 + 1 edges = 39.  The diamond: 11 blocks,
 * 2*3 + 2*5 + 3*1 + 5*1 = 24 edges. */
static void check_block_dot(const char *file, int blocks, int edges)
{
    loaded l;
    char *dot;
    Agraph_t *g;
    block_tally t;
    load(&l, file);
    cr_assert_eq(l.m.N, blocks);
    dot = render(&l, MMM_RENDER_DOT, MMM_LEVEL_BLOCK, NULL);
    g = agmemread(dot);
    cr_assert_not_null(g);
    t = tally_blocks(g);
    cr_assert_eq(t.blocks, blocks, "%s: %d block nodes", file, t.blocks);
    cr_assert_eq(t.empty, 0);
    cr_assert_eq(agnedges(g), edges, "%s: %d edges", file, agnedges(g));
    agclose(g);
    free(dot);
    unload(&l);
}

Test(render, block_level_dot_is_the_thread_block_dag)
{
    check_block_dot(MMM_DAGS_DIR "/fork_join.xml", 19, 39);
    check_block_dot(MMM_DAGS_DIR "/diamond.xml", 11, 24);
}

Test(render, block_level_dot_block_attributes)
{
    loaded l;
    char *dot;
    Agraph_t *g;
    Agnode_t *n;
    int w1 = 0;
    load(&l, MMM_DAGS_DIR "/fork_join.xml");
    dot = render(&l, MMM_RENDER_DOT, MMM_LEVEL_BLOCK, NULL);
    g = agmemread(dot);
    cr_assert_not_null(g);
    /* w1 launch i has i+1 blocks with W(B) = 3i, S(B) = i, O(B) = 30. */
    for (n = agfstnode(g); n; n = agnxtnode(g, n)) {
        double i;
        if (strcmp(agget(n, "kernel"), "w1") != 0)
            continue;
        i = attr_num(n, "launch");
        cr_assert_eq(attr_num(n, "W"), 3 * i);
        cr_assert_eq(attr_num(n, "S"), i);
        cr_assert_eq(attr_num(n, "O"), 30);
        cr_assert_lt(attr_num(n, "block"), i + 1);
        w1++;
    }
    cr_assert_eq(w1, 2 + 3 + 4);
    agclose(g);
    free(dot);
    unload(&l);
}

Test(render, block_level_picture_draws_every_block)
{
    loaded l;
    char *svg;
    load(&l, MMM_DAGS_DIR "/fork_join.xml");
    svg = render(&l, MMM_RENDER_SVG, MMM_LEVEL_BLOCK, NULL);
    /* One node per block; one cluster per launch: 1 + 3 + 1 + 2 + 1, and
     * one undrawn cluster per chain (w1, w3). */
    cr_assert_eq(count_substr(svg, "class=\"node\""), 19);
    cr_assert_eq(count_substr(svg, "class=\"cluster\""), 10);
    free(svg);
    unload(&l);
}

Test(render, block_level_refuses_above_max_nodes)
{
    loaded l;
    mmm_render_options o = MMM_RENDER_OPTIONS_INIT;
    mmm_error err;
    char *out = NULL;
    size_t n = 0;
    load(&l, MMM_DAGS_DIR "/poly_mul.xml"); /* N = 10235 */
    o.level = MMM_LEVEL_BLOCK;
    o.format = MMM_RENDER_DOT; /* every block: refused */
    cr_assert_eq(mmm_render_memory(&out, &n, l.inst, &l.m, &o, &err), MMM_ELIMIT);
    cr_assert_null(out);
    cr_assert(strstr(err.message, "--max-nodes 2000"), "%s", err.message);
    cr_assert(strstr(err.message, "10235"), "%s", err.message);
    /* The picture draws the identical blocks of a launch as one box with
     * their count: mul's 5120, add's 2560 ... 20 (folded above 16), then
     * the 10 and 5 blocks of the last two launches one by one: 24 nodes. */
    o.format = MMM_RENDER_SVG;
    cr_assert_eq(mmm_render_memory(&out, &n, l.inst, &l.m, &o, &err), 0, "%s", err.message);
    cr_assert_eq(count_substr(out, "class=\"node\""), 1 + 8 + 10 + 5);
    cr_assert(strstr(out, "\xc3\x97" "5,120") && strstr(out, "\xc3\x97" "20<"), "folded counts");
    free(out);
    o.max_nodes = 20; /* 11 launches fit, 24 nodes do not */
    cr_assert_eq(mmm_render_memory(&out, &n, l.inst, &l.m, &o, &err), MMM_ELIMIT);
    cr_assert(strstr(err.message, "24 nodes"), "%s", err.message);
    o.max_nodes = 3;
    o.level = MMM_LEVEL_KERNEL; /* 2 kernels fit */
    cr_assert_eq(mmm_render_memory(&out, &n, l.inst, &l.m, &o, &err), 0);
    free(out);
    o.max_nodes = 1;
    cr_assert_eq(mmm_render_memory(&out, &n, l.inst, &l.m, &o, &err), MMM_ELIMIT);
    unload(&l);
}

/* A complete DAG on 60 kernels (1770 edges): few nodes but a layout of
 * 60 + sum over i < j of (j - i - 1) = 34280 nodes with its long edges:
 * refused as a picture (bounded layout time), fine as DOT. */
Test(render, dense_kernel_dag_is_refused_as_a_picture)
{
    enum { K = 60 };
    mmm_program *prog = NULL;
    mmm_instance *inst = NULL;
    mmm_metrics m;
    mmm_render_options o = MMM_RENDER_OPTIONS_INIT;
    mmm_error err;
    char *out = NULL;
    size_t n, i, j;
    memset(&m, 0, sizeof m);
    cr_assert_eq(mmm_program_new(&prog, "dense.xml", NULL, &err), 0);
    cr_assert_eq(mmm_program_set_name(prog, "dense", 1, &err), 0);
    for (i = 0; i < K; i++) {
        mmm_kernel_spec ks;
        char id[16];
        memset(&ks, 0, sizeof ks);
        snprintf(id, sizeof id, "k%zu", i);
        ks.id = id;
        ks.line = 2;
        ks.blocks = "1";
        ks.work = "1";
        ks.span = "1";
        ks.reads = "0";
        ks.writes = "0";
        cr_assert_eq(mmm_program_add_kernel(prog, &ks, NULL, &err), 0, "%s", err.message);
    }
    for (i = 0; i < K; i++)
        for (j = i + 1; j < K; j++) {
            char a[16], b[16];
            snprintf(a, sizeof a, "k%zu", i);
            snprintf(b, sizeof b, "k%zu", j);
            cr_assert_eq(mmm_program_add_edge(prog, a, b, 3, &err), 0);
        }
    cr_assert_eq(mmm_program_finalize(prog, &err), 0, "%s", err.message);
    cr_assert_eq(mmm_instance_new(&inst, prog, &err), 0);
    cr_assert_eq(mmm_instance_eval(inst, NULL, 0, &err), 0, "%s", err.message);
    cr_assert_eq(mmm_metrics_compute(&m, inst, 0, &err), 0);
    cr_assert_eq(mmm_render_memory(&out, &n, inst, &m, &o, &err), MMM_ELIMIT);
    cr_assert(strstr(err.message, "about 34280 nodes"), "%s", err.message);
    o.format = MMM_RENDER_DOT;
    cr_assert_eq(mmm_render_memory(&out, &n, inst, &m, &o, &err), 0);
    free(out);
    mmm_metrics_dispose(&m);
    mmm_instance_free(inst);
    mmm_program_free(prog);
}

/* ------------------------------------------------------------------ */
/* Pictures                                                            */

static void check_svg(const char *path)
{
    loaded l;
    char *svg, dir[256], file[300], title[512];
    size_t k, len;
    load(&l, path);
    if (l.prog->nkernels > MMM_RENDER_MAX_NODES_DEFAULT) {
        unload(&l);
        return;
    }
    svg = render(&l, MMM_RENDER_SVG, MMM_LEVEL_KERNEL, &len);
    cr_assert_eq(strlen(svg), len, "%s: NUL inside the SVG", path);
    cr_assert(strstr(svg, "<svg"), "%s", path);
    for (k = 0; k < l.prog->nkernels; k++) {
        svg_title(title, sizeof title, l.prog->kernels[k].id);
        cr_assert(strstr(svg, title), "%s: no %s in the SVG", path, title);
    }
    if (run("command -v xmllint >/dev/null 2>&1") == 0) {
        make_tmpdir(dir, sizeof dir);
        snprintf(file, sizeof file, "%s/dag.svg", dir);
        write_file(file, svg);
        cr_assert_eq(run("xmllint --noout --nonet '%s'", file), 0, "%s: SVG not well formed",
                     path);
        rmtree(dir);
    }
    free(svg);
    unload(&l);
}

Test(render, svg_of_every_bundled_program_is_well_formed_and_names_every_kernel)
{
    cr_assert_gt(for_each_dag_in(MMM_DAGS_DIR, check_svg), 5);
}

Test(render, png_and_pdf_are_produced)
{
    loaded l;
    char *png, *pdf;
    size_t n;
    uint32_t w, h;
    load(&l, MMM_DAGS_DIR "/poly_mul.xml");
    png = render(&l, MMM_RENDER_PNG, MMM_LEVEL_KERNEL, &n);
    cr_assert_gt(n, 1000);
    cr_assert_eq(memcmp(png, "\x89PNG\r\n\x1a\n", 8), 0);
    /* IHDR: width and height, big-endian, at bytes 16..23. */
    w = (uint32_t)(unsigned char)png[16] << 24 | (uint32_t)(unsigned char)png[17] << 16 |
        (uint32_t)(unsigned char)png[18] << 8 | (unsigned char)png[19];
    h = (uint32_t)(unsigned char)png[20] << 24 | (uint32_t)(unsigned char)png[21] << 16 |
        (uint32_t)(unsigned char)png[22] << 8 | (unsigned char)png[23];
    cr_assert(w > 400 && h > 200, "%ux%u", w, h);
    pdf = render(&l, MMM_RENDER_PDF, MMM_LEVEL_KERNEL, &n);
    cr_assert_eq(memcmp(pdf, "%PDF-", 5), 0);
    {
        /* %%EOF near the end: the document is complete */
        size_t i;
        int eof = 0;
        for (i = n > 32 ? n - 32 : 0; i + 5 <= n; i++)
            eof |= memcmp(pdf + i, "%%EOF", 5) == 0;
        cr_assert(eof);
    }
    free(png);
    free(pdf);
    unload(&l);
}

Test(render, picture_marks_repeats_and_shows_the_totals)
{
    loaded l;
    char *svg;
    load(&l, MMM_DAGS_DIR "/poly_div_opt.xml");
    svg = render(&l, MMM_RENDER_SVG, MMM_LEVEL_KERNEL, NULL);
    /* 241 launches of 8 blocks; W = 568837120, C = 4368 (the comments of
     * dags/poly_div_opt.xml); p = 14: (1928/14 + 241)·4368 = 1654224. */
    cr_assert(strstr(svg, "step \xc3\x97" "241"), "no \xc3\x97" "241");
    cr_assert(strstr(svg, "8 blocks \xc3\x97 768 threads"));
    cr_assert(strstr(svg, "W\xc2\xa0=\xc2\xa0" "568837120"));
    cr_assert(strstr(svg, "C\xc2\xa0=\xc2\xa0" "4368"));
    cr_assert(strstr(svg, "1654224"));
    cr_assert(strstr(svg, "fill:"));
    free(svg);
    unload(&l);
}

Test(render, color_none_has_no_scale)
{
    loaded l;
    mmm_render_options o = MMM_RENDER_OPTIONS_INIT;
    mmm_error err;
    char *dot = NULL;
    size_t n;
    load(&l, MMM_DAGS_DIR "/diamond.xml");
    o.format = MMM_RENDER_DOT;
    o.color = MMM_COLOR_NONE;
    cr_assert_eq(mmm_render_memory(&dot, &n, l.inst, &l.m, &o, &err), 0);
    cr_assert_null(strstr(dot, "fill:"));
    cr_assert_null(strstr(dot, "#ffffcc"));
    free(dot);
    unload(&l);
}

/* Each colour measure puts the largest kernel in the darkest class. */
Test(render, fill_follows_the_chosen_measure)
{
    static const struct {
        mmm_render_color c;
        const char *darkest; /* diamond.xml: O(b) = 90, W(c) = 50, S(c) = 7,
                                S(B)+O(B) of d = 55 */
    } cases[] = {{MMM_COLOR_OVERHEAD, "b"}, {MMM_COLOR_WORK, "c"},
                 {MMM_COLOR_SPAN, "c"}, {MMM_COLOR_COST, "d"}};
    loaded l;
    size_t i;
    load(&l, MMM_DAGS_DIR "/diamond.xml");
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        mmm_render_options o = MMM_RENDER_OPTIONS_INIT;
        mmm_error err;
        char *dot = NULL;
        size_t n;
        Agraph_t *g;
        o.format = MMM_RENDER_DOT;
        o.color = cases[i].c;
        cr_assert_eq(mmm_render_memory(&dot, &n, l.inst, &l.m, &o, &err), 0);
        g = agmemread(dot);
        cr_assert_str_eq(agget(agnode(g, (char *)cases[i].darkest, 0), "fillcolor"),
                         "#800026", "measure %zu", i);
        agclose(g);
        free(dot);
    }
    unload(&l);
}

/* Ids may hold any non-blank character: XML and DOT quoting, and
 * Graphviz's own escapes (\N would print the node name). */
Test(render, hostile_ids_are_drawn_as_written)
{
    static const char text[] =
        "<program name=\"h&lt;&quot;\\N\">\n"
        "  <param name=\"U\" value=\"1\"/>\n"
        "  <kernel id=\"a\\N&quot;&lt;&amp;&gt;'\" blocks=\"2\" work=\"1\" span=\"1\" "
        "reads=\"1\" writes=\"0\"/>\n"
        "  <kernel id=\"node\" blocks=\"1\" work=\"1\" span=\"1\" reads=\"1\" writes=\"0\"/>\n"
        "  <kernel id=\"-x--y\" blocks=\"1\" work=\"1\" span=\"1\" reads=\"1\" writes=\"0\"/>\n"
        "  <edge from=\"a\\N&quot;&lt;&amp;&gt;'\" to=\"node\"/>\n"
        "  <edge from=\"node\" to=\"-x--y\"/>\n"
        "</program>\n";
    mmm_load_options lo = MMM_LOAD_OPTIONS_INIT;
    mmm_error err;
    loaded l;
    char *svg, *dot, *bsvg, dir[256], file[300];
    Agraph_t *g;
    memset(&l, 0, sizeof l);
    cr_assert_eq(mmm_program_load_memory(&l.prog, text, strlen(text), "hostile.xml", &lo, &err),
                 0, "%s", err.message);
    cr_assert_eq(mmm_instance_new(&l.inst, l.prog, &err), 0);
    cr_assert_eq(mmm_instance_eval(l.inst, NULL, 0, &err), 0, "%s", err.message);
    cr_assert_eq(mmm_metrics_compute(&l.m, l.inst, 0, &err), 0);
    svg = render(&l, MMM_RENDER_SVG, MMM_LEVEL_KERNEL, NULL);
    bsvg = render(&l, MMM_RENDER_SVG, MMM_LEVEL_BLOCK, NULL);
    dot = render(&l, MMM_RENDER_DOT, MMM_LEVEL_KERNEL, NULL);
    cr_assert(strstr(svg, ">a\\N&quot;&lt;&amp;&gt;&#39;</text>"), "the id is not drawn as is");
    cr_assert(strstr(bsvg, ">a\\N&quot;&lt;&amp;&gt;&#39; &#160;(2 blocks)</text>"));
    cr_assert(strstr(svg, "<title>&#45;x&#45;&#45;y</title>"));
    g = agmemread(dot);
    cr_assert_not_null(g);
    cr_assert_not_null(agnode(g, "a\\N\"<&>'", 0));
    cr_assert_not_null(agnode(g, "node", 0));
    cr_assert_eq(agnedges(g), 2);
    agclose(g);
    if (run("command -v xmllint >/dev/null 2>&1") == 0) {
        make_tmpdir(dir, sizeof dir);
        snprintf(file, sizeof file, "%s/a.svg", dir);
        write_file(file, svg);
        cr_assert_eq(run("xmllint --noout --nonet '%s'", file), 0);
        write_file(file, bsvg);
        cr_assert_eq(run("xmllint --noout --nonet '%s'", file), 0);
        rmtree(dir);
    }
    free(svg);
    free(bsvg);
    free(dot);
    unload(&l);
}

/* ------------------------------------------------------------------ */
/* Atomic output and the command line                                  */

Test(render, failed_render_leaves_the_file_untouched)
{
    loaded l;
    mmm_render_options o = MMM_RENDER_OPTIONS_INIT;
    mmm_error err;
    char dir[256], file[300], *text;
    load(&l, MMM_DAGS_DIR "/poly_mul.xml");
    make_tmpdir(dir, sizeof dir);
    snprintf(file, sizeof file, "%s/out.svg", dir);
    write_file(file, "previous content\n");
    o.level = MMM_LEVEL_BLOCK; /* refused: 11 launches */
    o.max_nodes = 5;
    cr_assert_eq(mmm_render_file(file, l.inst, &l.m, &o, &err), MMM_ELIMIT);
    text = slurp(file, NULL);
    cr_assert_str_eq(text, "previous content\n");
    free(text);
    cr_assert_eq(count_files(dir), 1, "a temporary file was left behind");
    o.level = MMM_LEVEL_KERNEL;
    cr_assert_eq(mmm_render_file(file, l.inst, &l.m, &o, &err), 0, "%s", err.message);
    text = slurp(file, NULL);
    cr_assert(strstr(text, "<svg"));
    free(text);
    cr_assert_eq(count_files(dir), 1);
    rmtree(dir);
    unload(&l);
}

/* A picture taller than a cairo bitmap can be (32767 pixels) is drawn at
 * a lower resolution without Graphviz's word on stderr: its cairo plugin
 * would scale it itself and print "(null): graph is too large for
 * cairo-renderer bitmaps".  A chain of 200 one-block kernels at block
 * level and 200 dpi is about 40000 pixels tall: by default it is spread
 * to 8:1 and scaled to 8000 pixels, and mmm's notes say so. */
Test(render, tall_png_fits_a_bitmap_silently, .timeout = 120)
{
    char dir[256], path[300], *text;
    unsigned char *png;
    FILE *f;
    size_t n, i;
    unsigned long w, h;
    make_tmpdir(dir, sizeof dir);
    snprintf(path, sizeof path, "%s/chain.xml", dir);
    f = fopen(path, "w");
    cr_assert_not_null(f);
    fputs("<program name=\"chain\">\n", f);
    for (i = 0; i < 200; i++)
        fprintf(f, "<kernel id=\"k%zu\" blocks=\"1\" work=\"1\" span=\"1\" reads=\"0\" "
                   "writes=\"0\"/>\n", i);
    for (i = 0; i + 1 < 200; i++)
        fprintf(f, "<edge from=\"k%zu\" to=\"k%zu\"/>\n", i, i + 1);
    fputs("</program>\n", f);
    cr_assert_eq(fclose(f), 0);
    cr_assert_eq(run("'%s' render '%s' --level block --dpi 200 -o '%s/c.png' 2> '%s/err.txt'",
                     MMM_BIN, path, dir, dir), 0);
    snprintf(path, sizeof path, "%s/err.txt", dir);
    text = slurp(path, &n);
    cr_assert(strstr(text, "cairo") == NULL && strstr(text, "scaled down to 8000"), "stderr: %s",
              text);
    free(text);
    snprintf(path, sizeof path, "%s/c.png", dir);
    png = (unsigned char *)slurp(path, &n);
    cr_assert_geq(n, 24);
    cr_assert_eq(memcmp(png, "\x89PNG", 4), 0);
    w = (unsigned long)png[16] << 24 | (unsigned long)png[17] << 16 | (unsigned long)png[18] << 8 | png[19];
    h = (unsigned long)png[20] << 24 | (unsigned long)png[21] << 16 | (unsigned long)png[22] << 8 | png[23];
    cr_assert(h == 8000 && w > 0 && w < h && h <= 8 * w + 8, "%lu x %lu", w, h);
    free(png);
    cr_assert_eq(run("rm -rf '%s'", dir), 0);
}

Test(render, cli_formats_exit_codes_and_atomicity)
{
    char dir[256], path[300], *text;
    size_t n;
    make_tmpdir(dir, sizeof dir);
    cr_assert_eq(run("'%s' render '%s/diamond.xml' -o '%s/d.png' 2>/dev/null", MMM_BIN,
                     MMM_DAGS_DIR, dir), 0);
    snprintf(path, sizeof path, "%s/d.png", dir);
    text = slurp(path, &n);
    cr_assert_eq(memcmp(text, "\x89PNG", 4), 0);
    free(text);
    cr_assert_eq(run("'%s' render '%s/diamond.xml' -o '%s/d.out' --format pdf", MMM_BIN,
                     MMM_DAGS_DIR, dir), 0);
    snprintf(path, sizeof path, "%s/d.out", dir);
    text = slurp(path, &n);
    cr_assert_eq(memcmp(text, "%PDF-", 5), 0);
    free(text);
    cr_assert_eq(run("'%s' render '%s/diamond.xml' --format dot -o - | grep -q '^digraph'",
                     MMM_BIN, MMM_DAGS_DIR), 0);
    /* Usage errors: 2. */
    cr_assert_eq(run("'%s' render '%s/diamond.xml' -o '%s/d.jpg' 2>/dev/null", MMM_BIN,
                     MMM_DAGS_DIR, dir), 2);
    cr_assert_eq(run("'%s' render '%s/diamond.xml' 2>/dev/null", MMM_BIN, MMM_DAGS_DIR), 2);
    cr_assert_eq(run("'%s' render '%s/diamond.xml' -o x.svg --level cluster 2>/dev/null",
                     MMM_BIN, MMM_DAGS_DIR), 2);
    cr_assert_eq(run("'%s' render '%s/diamond.xml' -o x.svg --color blue 2>/dev/null",
                     MMM_BIN, MMM_DAGS_DIR), 2);
    cr_assert_eq(run("'%s' render --help >/dev/null", MMM_BIN), 0);
    /* Bad input and refusals: 1, and the existing file is left as it was. */
    snprintf(path, sizeof path, "%s/keep.svg", dir);
    write_file(path, "keep me\n");
    cr_assert_eq(run("'%s' render '%s/no_such.xml' -o '%s' 2>/dev/null", MMM_BIN, dir, path),
                 1);
    cr_assert_eq(run("'%s' render '%s/poly_mul.xml' --level block --max-nodes 5 -o '%s' "
                     "2>'%s/err.txt'",
                     MMM_BIN, MMM_DAGS_DIR, path, dir), 1);
    cr_assert_eq(run("grep -q 'max-nodes' '%s/err.txt'", dir), 0);
    cr_assert_eq(run("'%s' render '%s/diamond.xml' -D nope=3 -o '%s' 2>/dev/null", MMM_BIN,
                     MMM_DAGS_DIR, path), 1);
    text = slurp(path, NULL);
    cr_assert_str_eq(text, "keep me\n");
    free(text);
    /* -p reaches the picture: (19/5 + 5)·52 = 457.6. */
    cr_assert_eq(run("'%s' render '%s/fork_join.xml' -p 5 --format dot -o - | "
                     "grep -q 'graham_brent=\"\\?457\\.6'", MMM_BIN, MMM_DAGS_DIR), 0);
    rmtree(dir);
}

/* ------------------------------------------------------------------ */
/* Large graphs: condensed pictures, colour fallback, shape limits     */

/* A text buffer for generated programs. */
typedef struct gen {
    char *s;
    size_t len, cap;
} gen;

static void genf(gen *g, const char *fmt, ...)
{
    va_list ap;
    int n;
    va_start(ap, fmt);
    n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (g->len + (size_t)n + 1 > g->cap) {
        g->cap = (g->len + (size_t)n + 1) * 2;
        g->s = realloc(g->s, g->cap);
        cr_assert_not_null(g->s);
    }
    va_start(ap, fmt);
    vsnprintf(g->s + g->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    g->len += (size_t)n;
}

/* NL levels; on each, WA kernels a<n> and WB kernels b<n> (work n: the
 * work varies, the overhead, with no reads or writes, does not).  Every a
 * precedes every a and every b of the next level, every b every a of the
 * next level, so no group is folded: 2 NL groups, 3 (NL - 1) group edges
 * standing for WA*WA, WA*WB and WB*WA kernel edges. */
enum { NL = 30, WA = 7, WB = 3 };

static char *layered_xml(void)
{
    gen g = {NULL, 0, 0};
    int l, i, j;
    genf(&g, "<program name=\"layered\">\n");
    for (l = 0; l < NL; l++) {
        for (i = 0; i < WA; i++)
            genf(&g, "<kernel id=\"a%d\" blocks=\"1\" work=\"%d\" span=\"1\" reads=\"0\" "
                     "writes=\"0\"/>\n", l * WA + i, l * WA + i + 1);
        for (i = 0; i < WB; i++)
            genf(&g, "<kernel id=\"b%d\" blocks=\"1\" work=\"%d\" span=\"1\" reads=\"0\" "
                     "writes=\"0\"/>\n", l * WB + i, l * WB + i + 1);
    }
    for (l = 0; l + 1 < NL; l++) {
        for (i = 0; i < WA; i++) {
            for (j = 0; j < WA; j++)
                genf(&g, "<edge from=\"a%d\" to=\"a%d\"/>\n", l * WA + i, (l + 1) * WA + j);
            for (j = 0; j < WB; j++)
                genf(&g, "<edge from=\"a%d\" to=\"b%d\"/>\n", l * WA + i, (l + 1) * WB + j);
        }
        for (i = 0; i < WB; i++)
            for (j = 0; j < WA; j++)
                genf(&g, "<edge from=\"b%d\" to=\"a%d\"/>\n", l * WB + i, (l + 1) * WA + j);
    }
    genf(&g, "</program>\n");
    return g.s;
}

static char *render_opt(const loaded *l, mmm_render_options *o)
{
    mmm_error err;
    char *out = NULL;
    size_t n = 0;
    cr_assert_eq(mmm_render_memory(&out, &n, l->inst, &l->m, o, &err), 0, "%s", err.message);
    return out;
}

Test(render, condensed_layered_graph_against_its_closed_form)
{
    loaded l;
    mmm_render_options o = MMM_RENDER_OPTIONS_INIT;
    mmm_notes notes = MMM_NOTES_INIT;
    char *xml = layered_xml(), *dot, *svg, want[200];
    Agraph_t *g;
    Agnode_t *n;
    Agedge_t *e;
    int groups = 0, edges = 0, ca = 0, cb = 0;
    load_memory(&l, xml);
    cr_assert_eq(l.prog->nkernels, NL * (WA + WB));
    o.format = MMM_RENDER_DOT;
    o.condense = MMM_CONDENSE_ALWAYS;
    dot = render_opt(&l, &o);
    g = agmemread(dot);
    cr_assert_not_null(g);
    for (n = agfstnode(g); n; n = agnxtnode(g, n)) {
        const char *type = agget(n, "type");
        int lo = (int)attr_num(n, "level_lo");
        cr_assert_str_eq(agget(n, "kind"), "group");
        cr_assert_eq(lo, (int)attr_num(n, "level_hi"));
        cr_assert(lo >= 0 && lo < NL);
        if (strcmp(type, "a") == 0) {
            cr_assert_eq(attr_num(n, "count"), WA);
            /* sum of the works WA*lo + 1 .. WA*lo + WA */
            cr_assert_eq(attr_num(n, "W"), WA * (WA * lo) + WA * (WA + 1) / 2);
            ca++;
        } else {
            cr_assert_str_eq(type, "b");
            cr_assert_eq(attr_num(n, "count"), WB);
            cb++;
        }
        groups++;
        for (e = agfstout(g, n); e; e = agnxtout(g, e)) {
            const char *ta = agget(agtail(e), "type"), *tb = agget(aghead(e), "type");
            double want_count = ta[0] == 'a' ? (tb[0] == 'a' ? WA * WA : WA * WB) : WB * WA;
            cr_assert(!(ta[0] == 'b' && tb[0] == 'b'), "no b -> b edge");
            cr_assert_eq(attr_num(agtail(e), "level_lo") + 1, attr_num(aghead(e), "level_lo"));
            cr_assert_eq(attr_num(e, "count"), want_count);
            edges++;
        }
    }
    cr_assert_eq(groups, 2 * NL);
    cr_assert_eq(ca, NL);
    cr_assert_eq(cb, NL);
    cr_assert_eq(edges, 3 * (NL - 1));
    agclose(g);
    free(dot);
    /* The picture condenses by default (300 kernels) and says so. */
    o = (mmm_render_options)MMM_RENDER_OPTIONS_INIT;
    o.notes = &notes;
    svg = render_opt(&l, &o);
    cr_assert_eq(notes.n, 1);
    snprintf(want, sizeof want, "paths.xml: note: condensed %d kernels into %d nodes over %d "
             "levels (--condense never draws every one)", NL * (WA + WB), 2 * NL, NL);
    cr_assert_str_eq(notes.line[0], want);
    /* auto colour: the overhead is 0 everywhere, the work varies */
    cr_assert(strstr(svg, "total work"), "fill by work");
    cr_assert(strstr(svg, "(overhead does not vary)"), "the legend says why");
    free(svg);
    mmm_notes_dispose(&notes);
    /* --condense never draws every kernel, and says nothing of condensing */
    o.condense = MMM_CONDENSE_NEVER;
    o.notes = &notes;
    o.max_aspect = 1000; /* this test is not about the shape */
    o.max_side_px = 1e6;
    svg = render_opt(&l, &o);
    cr_assert_eq(count_substr(svg, "class=\"node\""), NL * (WA + WB));
    cr_assert_eq(notes.n, 0);
    free(svg);
    unload(&l);
    free(xml);
}

/* A source s, three chains of 50 kernels c<n> and a sink t: the chains are
 * folded into one node of 150 kernels over levels 1 to 50. */
Test(render, condensed_chains_are_folded)
{
    loaded l;
    mmm_render_options o = MMM_RENDER_OPTIONS_INIT;
    gen x = {NULL, 0, 0};
    char *dot;
    Agraph_t *g;
    Agnode_t *n;
    int i, j, nodes = 0;
    genf(&x, "<program name=\"chains\">\n");
    genf(&x, "<kernel id=\"s\" blocks=\"1\" work=\"1\" span=\"1\" reads=\"0\" writes=\"0\"/>\n");
    genf(&x, "<kernel id=\"t\" blocks=\"1\" work=\"1\" span=\"1\" reads=\"0\" writes=\"0\"/>\n");
    for (i = 0; i < 150; i++)
        genf(&x, "<kernel id=\"c%d\" blocks=\"1\" work=\"1\" span=\"1\" reads=\"0\" "
                 "writes=\"0\"/>\n", i);
    for (i = 0; i < 3; i++) {
        genf(&x, "<edge from=\"s\" to=\"c%d\"/>\n<edge from=\"c%d\" to=\"t\"/>\n", i * 50,
             i * 50 + 49);
        for (j = 0; j + 1 < 50; j++)
            genf(&x, "<edge from=\"c%d\" to=\"c%d\"/>\n", i * 50 + j, i * 50 + j + 1);
    }
    genf(&x, "</program>\n");
    load_memory(&l, x.s);
    o.format = MMM_RENDER_DOT;
    o.condense = MMM_CONDENSE_ALWAYS;
    dot = render_opt(&l, &o);
    g = agmemread(dot);
    for (n = agfstnode(g); n; n = agnxtnode(g, n), nodes++) {
        const char *type = agget(n, "type");
        if (strcmp(type, "c") == 0) {
            cr_assert_eq(attr_num(n, "count"), 150);
            cr_assert_eq(attr_num(n, "level_lo"), 1);
            cr_assert_eq(attr_num(n, "level_hi"), 50);
            cr_assert_eq(agdegree(g, n, 1, 0), 1); /* from s */
            cr_assert_eq(agdegree(g, n, 0, 1), 1); /* to t */
        } else {
            cr_assert_eq(attr_num(n, "count"), 1);
        }
    }
    cr_assert_eq(nodes, 3);
    agclose(g);
    free(dot);
    unload(&l);
    free(x.s);
}

/* --view critical: the kernels of the critical path as themselves, the
 * others condensed; every kernel is in exactly one node. */
Test(render, critical_view_draws_the_path_and_condenses_the_rest)
{
    loaded l;
    mmm_render_options o = MMM_RENDER_OPTIONS_INIT;
    char *xml = layered_xml(), *dot;
    Agraph_t *g;
    Agnode_t *n;
    size_t kernels = 0, singles = 0;
    load_memory(&l, xml);
    o.format = MMM_RENDER_DOT;
    o.view = MMM_VIEW_CRITICAL;
    dot = render_opt(&l, &o);
    g = agmemread(dot);
    cr_assert_str_eq(agget(g, "condensed"), "critical");
    for (n = agfstnode(g); n; n = agnxtnode(g, n)) {
        if (strcmp(agget(n, "kind"), "group") == 0) {
            kernels += (size_t)attr_num(n, "count");
        } else {
            long k = mmm_program_find_kernel(l.prog, agnameof(n));
            cr_assert_geq(k, 0, "%s", agnameof(n));
            cr_assert(on_path(l.m.span_path, l.m.span_path_len, (size_t)k));
            kernels++;
            singles++;
        }
    }
    cr_assert_eq(singles, l.m.span_path_len);
    cr_assert_eq(kernels, l.prog->nkernels);
    agclose(g);
    free(dot);
    unload(&l);
    free(xml);
}

/* The width and height of an SVG in points. */
static void svg_pt(const char *svg, double *w, double *h)
{
    const char *s = strstr(svg, "<svg width=\"");
    cr_assert_not_null(s);
    cr_assert_eq(sscanf(s, "<svg width=\"%lfpt\" height=\"%lfpt\"", w, h), 2);
}

/* 150 independent kernels drawn one by one would be one very wide rank:
 * they are drawn in rows (of 16), within 8000 CSS pixels (6000 points) and
 * 8:1.  Tighter limits spread the layout out (or pad it) and scale it
 * down, and notes say so. */
Test(render, shape_is_kept_within_8000_px_and_8_to_1)
{
    loaded l;
    mmm_render_options o = MMM_RENDER_OPTIONS_INIT;
    mmm_notes notes = MMM_NOTES_INIT;
    gen x = {NULL, 0, 0};
    char *svg;
    double w, h;
    int i;
    genf(&x, "<program name=\"flat\">\n");
    for (i = 0; i < 150; i++)
        genf(&x, "<kernel id=\"k%d\" blocks=\"1\" work=\"%d\" span=\"1\" reads=\"0\" "
                 "writes=\"0\"/>\n", i, i + 1);
    genf(&x, "</program>\n");
    load_memory(&l, x.s);
    o.condense = MMM_CONDENSE_NEVER;
    o.notes = &notes;
    svg = render_opt(&l, &o);
    cr_assert_eq(count_substr(svg, "class=\"node\""), 150);
    svg_pt(svg, &w, &h);
    cr_assert(w * 96 / 72 <= 8000.5 && h * 96 / 72 <= 8000.5, "%g x %g pt", w, h);
    cr_assert(w <= 8 * h + 1 && h <= 8 * w + 1, "%g x %g pt", w, h);
    cr_assert_eq(notes.n, 0, "%s", notes.n ? notes.line[0] : "");
    free(svg);
    o.max_aspect = 1.5;
    o.max_side_px = 1000;
    svg = render_opt(&l, &o);
    svg_pt(svg, &w, &h);
    cr_assert(w * 96 / 72 <= 1000.5 && h * 96 / 72 <= 1000.5, "%g x %g pt", w, h);
    cr_assert(w <= 1.5 * h + 1 && h <= 1.5 * w + 1, "%g x %g pt", w, h);
    cr_assert_eq(notes.n, 2);
    cr_assert(strstr(notes.line[0], "spread out to 1.5:1"), "%s", notes.line[0]);
    cr_assert(strstr(notes.line[1], "scaled down to 1000"), "%s", notes.line[1]);
    free(svg);
    mmm_notes_dispose(&notes);
    /* By default the 150 kernels (a level wider than 40) are condensed
     * into one node of kind k. */
    o = (mmm_render_options)MMM_RENDER_OPTIONS_INIT;
    o.notes = &notes;
    svg = render_opt(&l, &o);
    cr_assert_eq(notes.n, 1);
    cr_assert(strstr(notes.line[0], "condensed 150 kernels into 1 nodes over 1 levels"), "%s",
              notes.line[0]);
    svg_pt(svg, &w, &h);
    cr_assert(w <= 8 * h + 1 && h <= 8 * w + 1, "%g x %g pt", w, h);
    free(svg);
    mmm_notes_dispose(&notes);
    /* --rankdir is Graphviz's */
    o.format = MMM_RENDER_DOT;
    o.rankdir = MMM_RANKDIR_LR;
    svg = render_opt(&l, &o);
    cr_assert(strstr(svg, "rankdir=LR"), "rankdir");
    free(svg);
    unload(&l);
    free(x.s);
}

/* An imported task graph is coloured by task type, every type named in
 * the legend; --color overhead on it says "all 0". */
Test(render, task_graphs_are_coloured_by_type)
{
    char dir[256];
    make_tmpdir(dir, sizeof dir);
    cr_assert_eq(run("'%s' render '%s/../tests/data/import/real/pegasus-dax-montage-100.xml' "
                     "-o '%s/m.svg' 2>'%s/err.txt'", MMM_BIN, MMM_DAGS_DIR, dir, dir), 0);
    cr_assert_eq(run("grep -q '>fill:.*task type' '%s/m.svg'", dir), 0);
    /* each type in the legend with its count: "mDiffFit (62)" */
    cr_assert_eq(run("for t in mProjectPP mDiffFit mConcatFit mBgModel mBackground mImgTbl mAdd "
                     "mShrink mJPEG; do grep -q \">[^<]*$t[^<]*([0-9]*)\" '%s/m.svg' || exit 1; "
                     "done", dir), 0);
    cr_assert_eq(run("grep -q 'condensed 100 tasks into 9 nodes over 9 levels' '%s/err.txt'",
                     dir), 0);
    cr_assert_eq(run("'%s' render '%s/../tests/data/import/real/pegasus-dax-montage-100.xml' "
                     "--color overhead -o '%s/o.svg' 2>/dev/null", MMM_BIN, MMM_DAGS_DIR, dir),
                 0);
    cr_assert_eq(run("LC_ALL=C grep -q 'all..0' '%s/o.svg'", dir), 0); /* all, NBSP, 0 */
    rmtree(dir);
}

/* The Gantt chart of 310 tasks colours by task type: a legend of the 8
 * types with their counts, not 20 cycling colours. */
Test(render, gantt_of_many_tasks_is_coloured_by_type)
{
    char dir[256], path[300], *svg;
    make_tmpdir(dir, sizeof dir);
    cr_assert_eq(run("'%s' simulate '%s/../tests/data/import/real/"
                     "wfcommons-1.5-montage-2mass-015d-001.json' -p 8 --gantt '%s/g.svg' "
                     ">/dev/null 2>&1", MMM_BIN, MMM_DAGS_DIR, dir), 0);
    snprintf(path, sizeof path, "%s/g.svg", dir);
    svg = slurp(path, NULL);
    cr_assert(strstr(svg, ">task type:<"), "legend heading");
    cr_assert(strstr(svg, ">mDiffFit (") && strstr(svg, ">mProject (") &&
              strstr(svg, ">mViewer ("), "types named");
    cr_assert_null(strstr(svg, "more kernels"));
    free(svg);
    rmtree(dir);
}

/* The bounding box (min/max of the numbers) of the drawing after the
 * <title> of a cluster. */
static void cluster_box(const char *svg, const char *name, double box[4])
{
    char title[120];
    const char *s, *d, *p;
    double v[2];
    int n = 0;
    snprintf(title, sizeof title, "<title>%s</title>", name);
    s = strstr(svg, title);
    cr_assert_not_null(s, "%s", name);
    d = strstr(s, " d=\"");
    p = strstr(s, "points=\"");
    if (!d || (p && p < d))
        d = p;
    cr_assert_not_null(d);
    d = strchr(d, '"') + 1;
    while (*d && *d != '"') { /* x,y pairs (path commands skipped) */
        char *end;
        if (!strchr("-0123456789.", *d)) {
            d++;
            continue;
        }
        v[n % 2] = strtod(d, &end);
        d = end;
        if (++n % 2)
            continue;
        if (n == 2) {
            box[0] = box[2] = v[0];
            box[1] = box[3] = v[1];
        }
        box[0] = fmin(box[0], v[0]);
        box[2] = fmax(box[2], v[0]);
        box[1] = fmin(box[1], v[1]);
        box[3] = fmax(box[3], v[1]);
    }
    cr_assert_geq(n, 4, "%s: no outline", name);
}

/* fork_join at block level: w1's three launches form a column that w2
 * does not cut into (w2 was drawn between w1 #1 and w1 #2). */
Test(render, block_level_keeps_a_chain_in_launch_order)
{
    loaded l;
    char *svg;
    double a[4], b[4], w1[4], w2[4];
    int i;
    load(&l, MMM_DAGS_DIR "/fork_join.xml");
    svg = render(&l, MMM_RENDER_SVG, MMM_LEVEL_BLOCK, NULL);
    cluster_box(svg, "cluster_1_1", w1);
    for (i = 2; i <= 3; i++) {
        char name[32];
        snprintf(name, sizeof name, "cluster_1_%d", i);
        cluster_box(svg, name, a);
        w1[0] = fmin(w1[0], a[0]);
        w1[1] = fmin(w1[1], a[1]);
        w1[2] = fmax(w1[2], a[2]);
        w1[3] = fmax(w1[3], a[3]);
    }
    cluster_box(svg, "cluster_1_1", a);
    cluster_box(svg, "cluster_1_2", b);
    cr_assert_lt(a[3], b[1] + 1, "w1 #1 above w1 #2");
    cluster_box(svg, "cluster_2_1", w2);
    cr_assert(w2[2] < w1[0] || w2[0] > w1[2] || w2[3] < w1[1] || w2[1] > w1[3],
              "w2 [%g %g %g %g] cuts into w1's column [%g %g %g %g]", w2[0], w2[1], w2[2],
              w2[3], w1[0], w1[1], w1[2], w1[3]);
    free(svg);
    unload(&l);
}

/* A caller built against version 1 of the options fills only its fields:
 * the library reads none past them (whatever the bytes there) and draws
 * with the new fields' defaults. */
Test(render, version_1_options_get_the_new_defaults)
{
    loaded l;
    mmm_render_options o;
    mmm_error err;
    char *out = NULL;
    size_t n = 0;
    memset(&o, 0x5a, sizeof o);
    o.version = 1;
    o.format = MMM_RENDER_DOT;
    o.level = MMM_LEVEL_KERNEL;
    o.color = MMM_COLOR_OVERHEAD;
    o.max_nodes = 0;
    o.dpi = 0;
    load(&l, MMM_DAGS_DIR "/diamond.xml");
    cr_assert_eq(mmm_render_memory(&out, &n, l.inst, &l.m, &o, &err), 0, "%s", err.message);
    cr_assert(strstr(out, "rankdir=TB"), "the default direction");
    free(out);
    unload(&l);
}
