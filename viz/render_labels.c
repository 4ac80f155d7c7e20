/* render_labels.c: HTML-like labels (Graphviz's subset of HTML) for the
 * title, legend and kernel nodes of the pictures. */
#include "render_labels.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NBSP "\xc2\xa0"
#define TIMES "\xc3\x97"
#define MIDDOT "\xc2\xb7"
#define LE "\xe2\x89\xa4"
#define HEAVY_LINE "\xe2\x94\x81\xe2\x94\x81\xe2\x94\x81"
/* Rows of the title table are left-aligned text cells. */
#define NEXT_ROW "</TD></TR><TR><TD ALIGN=\"LEFT\" BALIGN=\"LEFT\">"
/* Tₚ: one text span (an HTML <SUB> splits the line into spans that SVG
 * viewers place with the layout engine's hinted widths, leaving gaps). */
#define SUB_P "\xe2\x82\x9a"
#define BLOCK "\xe2\x96\x88"
#define DASHED_LINE "\xe2\x95\x8d\xe2\x95\x8d\xe2\x95\x8d"

double mmm__kernel_measure(const mmm_kernel_val *k, mmm_render_color c)
{
    switch (c) {
    case MMM_COLOR_WORK: return k->W;
    case MMM_COLOR_SPAN: return k->S;
    case MMM_COLOR_COST: return k->C;
    case MMM_COLOR_OVERHEAD: return k->O;
    default: break;
    }
    return 0;
}

double mmm__class_measure(const mmm_class_val *cv, mmm_render_color c)
{
    switch (c) {
    case MMM_COLOR_WORK: return cv->work;
    case MMM_COLOR_SPAN: return cv->span;
    case MMM_COLOR_COST: return cv->cost;
    case MMM_COLOR_OVERHEAD: return cv->overhead;
    default: break;
    }
    return 0;
}

/* "overhead O(K)" / "O(B)"-style caption of the colour measure. */
static const char *measure_caption(mmm_render_color c,
                                   mmm_render_level level, int condensed)
{
    int b = level == MMM_LEVEL_BLOCK;
    if (condensed)
        switch (c) {
        case MMM_COLOR_WORK: return "total work " "\xce\xa3" "W(K) of the node";
        case MMM_COLOR_SPAN: return "largest span S(K) in the node";
        case MMM_COLOR_COST: return "largest S(B)+O(B) in the node";
        case MMM_COLOR_OVERHEAD: return "total overhead " "\xce\xa3" "O(K) of the node";
        default: return "";
        }
    switch (c) {
    case MMM_COLOR_WORK: return b ? "work W(B) of the block" : "work W(K) of the kernel";
    case MMM_COLOR_SPAN: return b ? "span S(B) of the block" : "span S(K) of the kernel";
    case MMM_COLOR_COST:
        return b ? "cost S(B)+O(B) of the block" : "largest S(B)+O(B) of the kernel";
    case MMM_COLOR_OVERHEAD:
        return b ? "overhead O(B) of the block" : "overhead O(K) of the kernel";
    default: break;
    }
    return "";
}

char *mmm__fmt_exact(double v, char *buf, size_t size)
{
    if (isfinite(v) && v == floor(v) && fabs(v) < 9.007199254740992e15) {
        snprintf(buf, size, "%.0f", v);
        return buf;
    }
    snprintf(buf, size, "%.15g", v);
    if (strtod(buf, NULL) != v)
        snprintf(buf, size, "%.17g", v);
    return buf;
}

int mmm__launch_classes(mmm_class_val *cls, int64_t *blocks_out,
                        const mmm_instance *inst, size_t k, int64_t copy,
                        mmm_error *err)
{
    const mmm_kernel *kern = &inst->program->kernels[k];
    int64_t blocks = 0;
    uint32_t c;
    if (inst->kernels[k].varies) {
        int rc = mmm_instance_eval_copy(inst, k, copy, cls, err);
        if (rc < 0)
            return rc;
    } else {
        memcpy(cls, inst->classes + kern->first_class,
               kern->nclasses * sizeof *cls);
    }
    for (c = 0; c < kern->nclasses; c++) {
        if (cls[c].count > INT64_MAX - blocks)
            return mmm_error_set(err, MMM_EOVERFLOW, inst->program->file,
                                 kern->line, "blocks of kernel '%s' overflow",
                                 kern->id);
        blocks += cls[c].count;
    }
    *blocks_out = blocks;
    return 0;
}

/* ------------------------------------------------------------------ */
/* Title and legend                                                    */

static void put_params(mmm__text *t, const mmm_instance *inst)
{
    const mmm_program *p = inst->program;
    size_t i, on_line = 0;
    for (i = 0; i < p->nparams && i < inst->nvalues; i++) {
        char v[64];
        if (mmm_program_find_param(p, p->params[i].name) != (int)i)
            continue; /* a machine constant under a program's name */
        if (on_line == 8) { /* keep the title narrow: 8 per line */
            mmm__text_put(t, "<BR ALIGN=\"LEFT\"/>");
            on_line = 0;
        } else if (on_line > 0) {
            mmm__text_put(t, "," NBSP NBSP " ");
        }
        mmm__text_put_gv_html(t, p->params[i].name);
        mmm_value_format(inst->values[i], 0, v, sizeof v);
        mmm__text_printf(t, NBSP "=" NBSP "%s", v);
        on_line++;
    }
    if (p->nparams == 0)
        mmm__text_put(t, "no parameters");
}

static void put_measure(mmm__text *t, const char *name, double v, int last)
{
    char b[64];
    mmm__text_printf(t, "%s" NBSP "=" NBSP "%s%s", name, mmm__fmt_full(v, b, sizeof b),
                     last ? "" : NBSP NBSP NBSP " ");
}

static void put_totals(mmm__text *t, const mmm_metrics *m)
{
    char b[64];
    put_measure(t, "W", m->W, 0);
    put_measure(t, "S", m->S, 0);
    put_measure(t, "O", m->O, 0);
    put_measure(t, "N", (double)m->N, 0);
    put_measure(t, "L", (double)m->L, 0);
    put_measure(t, "C", m->C, 0);
    put_measure(t, "K", (double)m->K, 0);
    mmm__text_printf(t, "W/S" NBSP "=" NBSP "%s" NEXT_ROW,
                     mmm__fmt_full(m->parallelism, b, sizeof b));
    if (m->has_blocks) /* the blocks' parallelism, T1/T-infinity */
        mmm__text_printf(t, "T1/T" "\xe2\x88\x9e" NBSP "=" NBSP "%s" NEXT_ROW,
                         mmm__fmt_full(m->parallelism_blocks, b, sizeof b));
    if (m->has_p)
        mmm__text_printf(t, "Graham" "\xe2\x80\x93" "Brent, p" NBSP "=" NBSP "%lld:" NBSP
                           "T" SUB_P NBSP LE NBSP "(N/p" NBSP "+" NBSP "L)" MIDDOT
                           "C" NBSP "=" NBSP "%s",
                         (long long)m->p, mmm__fmt_full(m->graham_brent, b, sizeof b));
    else
        mmm__text_put(t, "Graham" "\xe2\x80\x93" "Brent: p unknown (-p P)");
    if (m->K > 0)
        mmm__text_printf(t, NBSP NBSP NBSP NBSP " corollary," NBSP "p" NBSP "\xe2\x89\xa5"
                           NBSP "K" NBSP "=" NBSP "%lld:" NBSP "T" NBSP LE NBSP
                           "(N/K" NBSP "+" NBSP "L)" MIDDOT "C" NBSP "=" NBSP "%s",
                         (long long)m->K, mmm__fmt_full(m->corollary, b, sizeof b));
}

/* The colour scale as one line of text: full-block glyphs in the class
 * colours between the smallest and largest value.  (A nested table would
 * be stretched by Graphviz to the width of the title, spreading the
 * swatches apart; text keeps its natural width and aligns left.) */
static void put_scale(mmm__text *t, const mmm__legend *lg)
{
    const mmm__scale *sc = lg->scale;
    char lo[64], hi[64];
    int c;
    static const char *const skipped[] = {"", " (overhead does not vary)",
                                          " (overhead and work do not vary)",
                                          " (overhead, work and span do not vary)"};
    mmm__text_printf(t, "fill:" NBSP "%s%s%s" NBSP NBSP " ",
                     measure_caption(lg->color, lg->level, lg->condensed),
                     sc->log ? " (log scale)" : "",
                     lg->skipped > 0 && lg->skipped < 4 ? skipped[lg->skipped] : "");
    if (!(sc->hi > sc->lo)) {
        mmm__text_printf(t, "<FONT COLOR=\"%s\">" BLOCK BLOCK "</FONT>" NBSP "all" NBSP "%s",
                         mmm__scale_fill[mmm__scale_class(sc, sc->hi)],
                         mmm__fmt_compact(sc->hi, hi, sizeof hi));
        return;
    }
    mmm__fmt_compact(sc->log ? sc->lo_pos : sc->lo, lo, sizeof lo);
    mmm__fmt_compact(sc->hi, hi, sizeof hi);
    mmm__text_printf(t, "%s%s" NBSP, sc->log && sc->lo < sc->lo_pos ? LE : "", lo);
    for (c = 0; c < MMM_SCALE_CLASSES; c++)
        mmm__text_printf(t, "<FONT COLOR=\"%s\">" BLOCK "</FONT>", mmm__scale_fill[c]);
    mmm__text_printf(t, NBSP "%s", hi);
}

/* The kinds and their colours (the first MMM_KIND_COLOURS, then the
 * others in grey), six to a line. */
static void put_kinds(mmm__text *t, const mmm__legend *lg)
{
    const mmm__kinds *k = lg->kinds;
    size_t i, shown = k->n < MMM_KIND_COLOURS ? k->n : MMM_KIND_COLOURS, rest = 0;
    char b[32];
    mmm__text_printf(t, "fill:" NBSP "%s", k->declared ? "task type"
                                                  : "kind of kernel (its id without the number)");
    for (i = 0; i < shown; i++) {
        mmm__text_put(t, i > 0 && i % 6 == 0 ? "<BR ALIGN=\"LEFT\"/>" : NBSP NBSP NBSP " ");
        mmm__text_printf(t, "<FONT COLOR=\"%s\">" BLOCK BLOCK "</FONT>" NBSP, mmm__kind_fill[i]);
        mmm__text_put_gv_html(t, k->name[i]);
        mmm__text_printf(t, NBSP "(%s)", mmm__fmt_thousands((long long)k->count[i], b, sizeof b));
    }
    for (i = shown; i < k->n; i++)
        rest += k->count[i];
    if (rest)
        mmm__text_printf(t, "%s<FONT COLOR=\"" MMM_KIND_OTHER "\">" BLOCK BLOCK "</FONT>" NBSP
                            "%zu other kinds (%s)",
                         shown > 0 && shown % 6 == 0 ? "<BR ALIGN=\"LEFT\"/>"
                                                     : NBSP NBSP NBSP " ",
                         k->n - shown, mmm__fmt_thousands((long long)rest, b, sizeof b));
}

static void put_legend(mmm__text *t, const mmm__legend *lg)
{
    if (lg->group_note) {
        mmm__text_put(t, lg->group_note);
        mmm__text_put(t, NEXT_ROW);
    }
    if (lg->color == MMM_COLOR_TYPE && lg->kinds) {
        put_kinds(t, lg);
        mmm__text_put(t, NEXT_ROW);
    } else if (lg->scale && lg->scale->any && lg->color != MMM_COLOR_NONE) {
        put_scale(t, lg);
        mmm__text_put(t, NBSP NBSP NBSP NBSP " ");
    }
    if (lg->has_paths)
        mmm__text_put(t, "<FONT COLOR=\"" MMM_SPAN_PATH_COLOR "\">" HEAVY_LINE "</FONT>" NBSP
                        "critical path (span S)");
    if (lg->l_path_differs)
        mmm__text_put(t, NBSP NBSP NBSP NBSP " <FONT COLOR=\"" MMM_L_PATH_COLOR "\">"
                        DASHED_LINE "</FONT>" NBSP "longest block path (L)");
}

void mmm__label_title(mmm__text *t, const mmm_instance *inst,
                      const mmm_metrics *m, const mmm__legend *lg)
{
    const mmm_program *p = inst->program;
    mmm__text_put(t, "<TABLE BORDER=\"0\" CELLBORDER=\"0\" CELLSPACING=\"0\" "
                    "CELLPADDING=\"2\"><TR><TD ALIGN=\"LEFT\"><FONT POINT-SIZE=\"16\"><B>");
    mmm__text_put_gv_html(t, p->name && *p->name ? p->name : "program");
    mmm__text_put(t, "</B></FONT>");
    if (lg->level == MMM_LEVEL_BLOCK)
        mmm__text_put(t, NBSP NBSP "thread blocks");
    mmm__text_put(t, "</TD></TR><TR><TD ALIGN=\"LEFT\" BALIGN=\"LEFT\">");
    put_params(t, inst);
    mmm__text_put(t, NEXT_ROW);
    put_totals(t, m);
    mmm__text_put(t, NEXT_ROW);
    put_legend(t, lg);
    /* an empty row: room between the title and the drawing */
    mmm__text_put(t, "</TD></TR><TR><TD HEIGHT=\"6\"></TD></TR></TABLE>");
}

/* ------------------------------------------------------------------ */
/* Kernel nodes                                                        */

/* Threads per block shared by all classes, or 0. */
static int64_t common_threads(const mmm_class_val *cls, uint32_t n)
{
    uint32_t c;
    for (c = 1; c < n; c++)
        if (cls[c].threads != cls[0].threads)
            return 0;
    return n ? cls[0].threads : 0;
}

static void put_blocks_line(mmm__text *t, const mmm_instance *inst, size_t k,
                            int64_t first, int64_t last, int64_t threads)
{
    const mmm_kernel *kern = &inst->program->kernels[k];
    if (first != last)
        mmm__text_printf(t, "%lld" NBSP "to" NBSP "%lld blocks", (long long)first,
                         (long long)last);
    else
        mmm__text_printf(t, "%lld block%s", (long long)first, first == 1 ? "" : "s");
    if (threads > 0)
        mmm__text_printf(t, " " TIMES " %lld thread%s", (long long)threads,
                         threads == 1 ? "" : "s");
    if (kern->nclasses > 1)
        mmm__text_printf(t, " (%u kinds)", (unsigned)kern->nclasses);
}

static void put_cell(mmm__text *t, const char *name, double v)
{
    char b[64];
    mmm__text_printf(t, "<TD ALIGN=\"LEFT\">%s" NBSP "%s</TD>", name,
                     mmm__fmt_compact(v, b, sizeof b));
}

void mmm__copy_what(mmm__text *t, const mmm_instance *inst, size_t k)
{
    mmm_copy_kind kind = mmm_kernel_copy(inst->program, k);
    double b = (double)mmm_instance_copy_bytes(inst, k);
    static const char *const unit[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    int u = 0;
    char num[64];
    while (b >= 1024 && u < 4) {
        b /= 1024;
        u++;
    }
    mmm__text_printf(t, "%s %s, %s" NBSP "%s", mmm_copy_kind_name(kind),
                     kind == MMM_COPY_SET ? "memset" : "copy",
                     mmm__fmt_compact(b, num, sizeof num), unit[u]);
}

void mmm__label_copy(mmm__text *t, const mmm_instance *inst, size_t k)
{
    const mmm_kernel *kern = &inst->program->kernels[k];
    const mmm_kernel_val *kv = &inst->kernels[k];
    mmm__text_put(t, "<TABLE BORDER=\"0\" CELLBORDER=\"0\" CELLSPACING=\"0\" "
                    "CELLPADDING=\"1\"><TR><TD><FONT POINT-SIZE=\"14\"><B>");
    mmm__text_put_gv_html(t, kern->id);
    if (kv->repeat != 1)
        mmm__text_printf(t, " " TIMES "%lld", (long long)kv->repeat);
    mmm__text_put(t, "</B></FONT></TD></TR><TR><TD>");
    mmm__copy_what(t, inst, k);
    mmm__text_put(t, "</TD></TR></TABLE>");
}

void mmm__label_group(mmm__text *t, const mmm__cgroup *g, const char *kind)
{
    char b[32];
    mmm__text_put(t, "<TABLE BORDER=\"0\" CELLBORDER=\"0\" CELLSPACING=\"0\" "
                    "CELLPADDING=\"1\"><TR><TD COLSPAN=\"2\"><FONT POINT-SIZE=\"14\"><B>");
    mmm__text_put_gv_html(t, kind);
    if (g->count > 1)
        mmm__text_printf(t, " " TIMES "%s", mmm__fmt_thousands((long long)g->count, b, sizeof b));
    mmm__text_put(t, "</B></FONT></TD></TR><TR><TD COLSPAN=\"2\">");
    if (g->level_hi > g->level_lo)
        mmm__text_printf(t, "chains, levels %u" "\xe2\x80\x93" "%u", (unsigned)g->level_lo,
                         (unsigned)g->level_hi);
    else
        mmm__text_printf(t, "level %u", (unsigned)g->level_lo);
    if (g->launches != (int64_t)g->count)
        mmm__text_printf(t, ", %s launches", mmm__fmt_thousands((long long)g->launches, b,
                                                                sizeof b));
    mmm__text_put(t, "</TD></TR><TR>");
    put_cell(t, "\xce\xa3" "W", g->W);
    put_cell(t, NBSP NBSP "max" NBSP "S", g->S);
    mmm__text_put(t, "</TR><TR>");
    put_cell(t, "\xce\xa3" "O", g->O);
    put_cell(t, NBSP NBSP "max" NBSP "S(B)+O(B)", g->C);
    mmm__text_put(t, "</TR></TABLE>");
}

int mmm__label_kernel(mmm__text *t, const mmm_instance *inst, size_t k,
                      mmm_error *err)
{
    const mmm_kernel *kern = &inst->program->kernels[k];
    const mmm_kernel_val *kv = &inst->kernels[k];
    mmm_class_val *cls;
    int64_t first = kv->blocks, last = kv->blocks, threads;
    int rc = 0;

    cls = calloc(kern->nclasses ? kern->nclasses : 1, sizeof *cls);
    if (!cls)
        return mmm_error_set(err, MMM_ENOMEM, NULL, 0, "out of memory");
    if ((rc = mmm__launch_classes(cls, &first, inst, k, 1, err)) < 0)
        goto done;
    threads = common_threads(cls, kern->nclasses);
    if (kv->varies && kv->repeat > 1 &&
        (rc = mmm__launch_classes(cls, &last, inst, k, kv->repeat, err)) < 0)
        goto done;
    if (!kv->varies)
        last = first;

    mmm__text_put(t, "<TABLE BORDER=\"0\" CELLBORDER=\"0\" CELLSPACING=\"0\" "
                    "CELLPADDING=\"1\"><TR><TD COLSPAN=\"2\"><FONT POINT-SIZE=\"14\"><B>");
    mmm__text_put_gv_html(t, kern->id);
    if (kv->repeat != 1) /* in the same bold span as the id: see SUB_P */
        mmm__text_printf(t, " " TIMES "%lld", (long long)kv->repeat);
    mmm__text_put(t, "</B></FONT></TD></TR><TR><TD COLSPAN=\"2\">");
    put_blocks_line(t, inst, k, first, last, threads);
    mmm__text_put(t, "</TD></TR><TR>");
    put_cell(t, "W", kv->W);
    put_cell(t, NBSP NBSP "S", kv->S);
    mmm__text_put(t, "</TR><TR>");
    put_cell(t, "O", kv->O);
    put_cell(t, NBSP NBSP "S(B)+O(B)", kv->C);
    mmm__text_put(t, "</TR></TABLE>");
done:
    free(cls);
    return rc;
}
