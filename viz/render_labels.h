/* render_labels.h: the HTML-like labels of the pictures (title with the
 * legend, kernel nodes) built from an evaluated program.  Graphviz-free:
 * render.c hands the strings to cgraph, report.c reuses the formatting.
 * Private to viz/. */
#ifndef MMM_VIZ_RENDER_LABELS_H
#define MMM_VIZ_RENDER_LABELS_H

#include "mmm/eval.h"
#include "mmm/metrics.h"
#include "mmm/render.h"
#include "render_group.h"
#include "render_text.h"

/* What the legend shows. */
typedef struct mmm__legend {
    mmm_render_color color;    /* resolved: never MMM_COLOR_AUTO */
    mmm_render_level level;
    const mmm__scale *scale;   /* NULL when color is none */
    int l_path_differs;       /* the L path is drawn in its own style */
    int has_paths;            /* the program has a kernel (a critical path) */
    /* Added with condensed pictures and colours by kind. */
    const mmm__kinds *kinds;  /* the kinds, for color type */
    int skipped;              /* measures before color that do not vary
                                 (the default colour fell back past them) */
    int condensed;            /* nodes are groups of kernels */
    const char *group_note;   /* what a node of a condensed picture is, or NULL */
} mmm__legend;

/* Styles of the critical paths (shared by the nodes, edges and legend). */
#define MMM_SPAN_PATH_COLOR "#2166ac"
#define MMM_L_PATH_COLOR "#1b7837"
#define MMM_PLAIN_EDGE_COLOR "#5a5a5a"
#define MMM_BORDER_COLOR "#3c3c3c"
#define MMM_FONT "Helvetica"
/* A kernel on both paths: its label inside a dashed ring of the L path's
 * colour, within the span path's border. */
#define MMM_BOTH_PATHS_OPEN                                                    \
    "<TABLE BORDER=\"2\" STYLE=\"dashed\" COLOR=\"" MMM_L_PATH_COLOR           \
    "\" CELLBORDER=\"0\" CELLSPACING=\"0\" CELLPADDING=\"3\"><TR><TD>"
#define MMM_BOTH_PATHS_CLOSE "</TD></TR></TABLE>"

/* The value of the colour measure for kernel k, or for one block class. */
double mmm__kernel_measure(const mmm_kernel_val *k, mmm_render_color c);
double mmm__class_measure(const mmm_class_val *cv, mmm_render_color c);

/* Graph title: name, parameters, totals, bounds, legend.  Appends to t. */
void mmm__label_title(mmm__text *t, const mmm_instance *inst,
                      const mmm_metrics *m, const mmm__legend *lg);

/* Label of a node of a condensed picture: its kind x count, its levels,
 * its totals.  Appends to t. */
void mmm__label_group(mmm__text *t, const mmm__cgroup *g, const char *kind);

/* Label of kernel k.  Evaluates its first and last launch when they
 * differ (mmm_instance_eval_copy).  Returns 0 or a negative status. */
int mmm__label_kernel(mmm__text *t, const mmm_instance *inst, size_t k,
                      mmm_error *err);

/* A copy's label: its id (x repeat), its kind and bytes per call
 * ("d2d copy, 4 MiB").  Appends to t. */
void mmm__label_copy(mmm__text *t, const mmm_instance *inst, size_t k);
/* "d2d copy, 4 MiB" alone (plain text, no HTML). */
void mmm__copy_what(mmm__text *t, const mmm_instance *inst, size_t k);

/* Blocks of launch `copy` of kernel k, summed over its classes; cls must
 * hold the kernel's nclasses values (filled).  Returns 0 or < 0. */
int mmm__launch_classes(mmm_class_val *cls, int64_t *blocks_out,
                        const mmm_instance *inst, size_t k, int64_t copy,
                        mmm_error *err);

/* Shortest "%.Ng" that reads back as v: exact data attributes. */
char *mmm__fmt_exact(double v, char *buf, size_t size);

#endif
