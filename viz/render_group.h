/* render_group.h: what kind of task each kernel is, and the condensed
 * picture of a large DAG (one node per kind of kernel per level, chains
 * folded).  Graphviz-free: render.c draws the result, gantt.c colours by
 * the kinds.  Private to viz/. */
#ifndef MMM_VIZ_RENDER_GROUP_H
#define MMM_VIZ_RENDER_GROUP_H

#include <stddef.h>
#include <stdint.h>

#include "mmm/eval.h"
#include "mmm/metrics.h"
#include "render_text.h"

/* The kinds of the kernels of a program: the declared type
 * (mmm_kernel_type), else "KIND copy" for a copy, else the id without its
 * trailing number and separators ("mProject_0042" -> "mProject", "w1" ->
 * "w"; "task" when nothing is left).  Kinds are numbered by decreasing
 * count, then by name. */
typedef struct mmm__kinds {
    size_t n;
    const char **name;    /* n names (in names) */
    size_t *count;        /* kernels of each kind */
    uint32_t *of;         /* by kernel: its kind */
    int declared;         /* some kernel has a declared type */
    char *names;          /* storage */
} mmm__kinds;

int mmm__kinds_compute(mmm__kinds *k, const mmm_program *p, mmm_error *err);
void mmm__kinds_dispose(mmm__kinds *k);

/* The categorical fills of the kinds (ColorBrewer Set3, pastel: black
 * text reads on all); kinds past the palette share MMM_KIND_OTHER. */
#define MMM_KIND_COLOURS 11
extern const char *const mmm__kind_fill[MMM_KIND_COLOURS];
#define MMM_KIND_OTHER "#d9d9d9"
const char *mmm__kind_colour(uint32_t kind);

/* One node of a condensed picture: kernels of one kind on one level (or
 * on a run of levels: a folded chain), or one kernel drawn as itself. */
typedef struct mmm__cgroup {
    uint32_t kind;
    uint32_t level_lo, level_hi;
    uint32_t kernel;     /* its first kernel in topological order */
    size_t count;        /* kernels */
    int64_t launches;    /* sum of their repeats */
    double W, S, O, C;   /* sum of W, largest S, sum of O, largest C */
    unsigned char single;  /* one kernel drawn as itself */
    unsigned char on_span; /* holds a kernel of the critical path */
} mmm__cgroup;

typedef struct mmm__cedge {
    uint32_t from, to;  /* groups */
    size_t count;       /* edges of the program it stands for */
    unsigned char span; /* one of them is on the critical path */
} mmm__cedge;

typedef struct mmm__condensed {
    size_t ngroups;
    mmm__cgroup *group;   /* by level, then kind */
    size_t nedges;
    mmm__cedge *edge;
    uint32_t *group_of;   /* by kernel */
    uint32_t nlevels;
    size_t widest;        /* most kernels on one level */
} mmm__condensed;

/* Levels (longest-path depth from the sources) and the widest level of
 * p, without condensing: *nlevels, *widest. */
int mmm__levels(const mmm_program *p, uint32_t **level_out, uint32_t *nlevels,
                size_t *widest, mmm_error *err);

/* Condense: kernels of kind k on level l form one group; with critical,
 * the kernels of the critical path (m->span_path) are groups of their
 * own.  A group whose only successor group is of the same kind, has the
 * same count and has no other predecessor is folded into it (a chain). */
int mmm__condense(mmm__condensed *c, const mmm_instance *inst, const mmm_metrics *m,
                  const mmm__kinds *kinds, int critical, mmm_error *err);
void mmm__condensed_dispose(mmm__condensed *c);

/* "1,738": an integer with thousands separators. */
char *mmm__fmt_thousands(long long v, char *buf, size_t size);

#endif
