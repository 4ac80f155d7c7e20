/* profile/profile_internal.h: what the files of `mmm profile` share
 * (internal; docs/profile.md describes the command).
 *
 *   records.c    CSV records (RFC 4180) of any comma-separated file: the
 *                ncu captures and POINTS.csv
 *   ncu_csv.c    Nsight Compute's raw CSV page: the only file that knows
 *                ncu's columns, metric names and units
 *   exprfit.c    the search for the simplest expression through points
 *   points.c     POINTS.csv and the launches of each point (sampled
 *                launches standing for the others of their configuration)
 *   skeleton.c   a skeleton DAG file ("?" where a cost is to be measured)
 *   build.c      launches into kernels, kernels into the DAG file's text
 *   run.c        the program under ncu at each point of a grid (the one
 *                file that starts processes; it needs nothing of this
 *                header)
 *
 * A layer above the time model: it uses the public API (include/mmm/) and
 * the helpers of src/base/ only. */
#ifndef MMM_PROFILE_INTERNAL_H
#define MMM_PROFILE_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "mmm/profile.h"
#include "base/text.h"

/* ------------------------------------------------------------------ */
/* CSV records                                                         */

typedef struct mmm__csv {
    const char *name;   /* the file, for messages */
    const char *p, *end;
    long line;          /* line of *p */
    char *buf;          /* the cells of the current record, unquoted */
    size_t buf_cap;
    const char **cells;
    size_t *offs;       /* the cells' offsets in buf */
    size_t ncells, cells_cap;
} mmm__csv;

void mmm__csv_init(mmm__csv *c, const char *name, const char *text, size_t len);
/* The line of the first NUL byte of text (a binary file), 0 when none. */
long mmm__nul_line(const char *text, size_t len);
void mmm__csv_dispose(mmm__csv *c);
/* Skip blank lines; then the next line's text (up to its line end) in
 * *line_start / *line_len and its number in *lineno.  0 at the end. */
int mmm__csv_peek_line(mmm__csv *c, const char **line_start, size_t *line_len,
                       long *lineno);
/* Skip the line mmm__csv_peek_line showed. */
void mmm__csv_skip_line(mmm__csv *c);
/* The next record: c->cells[0 .. c->ncells) (valid until the next call),
 * its first line in *lineno.  1 when read, 0 at the end, < 0 on an error
 * (an unterminated quote, a quote inside an unquoted field, more than
 * max_cells fields) with FILE:LINE in err. */
int mmm__csv_next(mmm__csv *c, size_t max_cells, long *lineno, mmm_error *err);

/* ------------------------------------------------------------------ */
/* Captures from other readers                                         */

/* A memcpy or memset of a launch trace, between two launches. */
typedef enum mmm__copy_kind {
    MMM__COPY_H2D, MMM__COPY_D2H, MMM__COPY_D2D, MMM__COPY_H2H, MMM__COPY_P2P,
    MMM__COPY_OTHER, MMM__COPY_SET
} mmm__copy_kind;

typedef struct mmm__copy {
    long line;
    size_t before;     /* the number of launches issued before it */
    mmm__copy_kind kind;
    uint64_t bytes;
    uint64_t ns;       /* its duration as traced */
    char stream[32];
    uint32_t graph;    /* the CUDA graph that ran it, 0 outside graphs */
    uint64_t node;     /* its node there */
} mmm__copy;

/* A launch trace's record of a graph's structure (trace.c): an edge of
 * graph from node a to node b; graph's executable a; node a cloned from
 * node b. */
typedef enum { MMM__GRAPH_EDGE, MMM__GRAPH_EXEC, MMM__GRAPH_CLONE } mmm__graph_kind;
typedef struct mmm__graph_link {
    mmm__graph_kind kind;
    uint32_t graph;
    uint64_t a, b;
} mmm__graph_link;

/* A launch trace's record of stream order (version 3): an event recorded
 * on a stream (cudaEventRecord), a stream waiting for one
 * (cudaStreamWaitEvent), the host waiting for a stream, an event or the
 * whole device (cudaStreamSynchronize, cudaEventSynchronize,
 * cudaDeviceSynchronize), or a stream's kind (the legacy default stream,
 * a stream that synchronizes with it, one that does not). */
typedef enum mmm__sync_kind {
    MMM__SYNC_RECORD, MMM__SYNC_WAIT, MMM__SYNC_HOST, MMM__SYNC_STREAM
} mmm__sync_kind;
typedef enum mmm__stream_kind {
    MMM__STREAM_BLOCKING, MMM__STREAM_NONBLOCKING, MMM__STREAM_NULL
} mmm__stream_kind;
typedef struct mmm__sync {
    long line;
    size_t before;        /* the launches issued before it */
    size_t before_copies; /* the copies and sets issued before it */
    mmm__sync_kind kind;
    mmm__stream_kind flag; /* MMM__SYNC_STREAM: the stream's kind */
    char stream[32];       /* "" for a host wait on an event or the device */
    uint64_t event;        /* record, wait, a host wait on an event; else 0 */
} mmm__sync;

/* A launch trace of libmmm_trace.so (trace.c): text that begins with
 * its magic line; its rows handed to a sink, each launch with the
 * quantities it has (bits of have; blocks, threads, registers, shared
 * memory and duration), each copy with the launches before it.  Every
 * error is FILE:LINE (sink->file) with what is wrong. */
typedef struct mmm__trace_sink {
    const char *file;
    void *payload;
    int (*launch)(void *payload, long line, int64_t id, const char *kernel,
                  const char *stream, uint32_t have, const mmm_value *v, uint32_t graph,
                  uint64_t node, mmm_error *err);
    int (*copy)(void *payload, const mmm__copy *cp, mmm_error *err);
    int (*link)(void *payload, const mmm__graph_link *gl, mmm_error *err);
    int (*sync)(void *payload, const mmm__sync *sy, mmm_error *err);
} mmm__trace_sink;
int mmm__trace_is(const char *text, size_t len);
int mmm__trace_parse(const char *text, size_t len, const mmm__trace_sink *sink,
                     mmm_error *err);
/* A capture's copies and sets (those of a launch trace; ncu sees none). */
size_t mmm__ncu_ncopies(const mmm_ncu_capture *c);
const mmm__copy *mmm__ncu_copy(const mmm_ncu_capture *c, size_t i);
/* The graph and node that ran launch i of c (a launch trace's; 0 and 0
 * outside graphs and in ncu's captures). */
void mmm__ncu_graph_node(const mmm_ncu_capture *c, size_t i, uint32_t *graph,
                         uint64_t *node);
/* A launch trace's records of stream order (version 3). */
size_t mmm__ncu_nsyncs(const mmm_ncu_capture *c);
const mmm__sync *mmm__ncu_sync(const mmm_ncu_capture *c, size_t i);
/* A launch trace's records of its graphs' structure. */
size_t mmm__ncu_nlinks(const mmm_ncu_capture *c);
const mmm__graph_link *mmm__ncu_link(const mmm_ncu_capture *c, size_t i);

/* Launches i of a and j of b are of one configuration: the kernel's name,
 * blocks, threads and dynamic shared memory (where both know it). */
int mmm__same_config(const mmm_ncu_capture *a, size_t i, const mmm_ncu_capture *b, size_t j);
/* Launch i of c has the cost metrics (instructions, warps). */
int mmm__has_costs(const mmm_ncu_capture *c, size_t i);
/* id[i]: the first launch of launch i's configuration, i < n (points.c). */
int mmm__config_ids(const mmm_ncu_capture *L, size_t n, size_t *id, mmm_error *err);

/* ------------------------------------------------------------------ */
/* Exact values                                                        */

/* a + b, a - b, a * b, a / b of exact values (exact when both are and the
 * result fits 64 bits; else the doubles, inexact).  Division by zero
 * gives an inexact NaN. */
mmm_value mmm__pv_add(mmm_value a, mmm_value b);
mmm_value mmm__pv_sub(mmm_value a, mmm_value b);
mmm_value mmm__pv_mul(mmm_value a, mmm_value b);
mmm_value mmm__pv_div(mmm_value a, mmm_value b);
/* 1 when a and b are the same number (exact ones exactly, else their
 * doubles). */
int mmm__pv_equal(mmm_value a, mmm_value b);
/* The value as the text of an expression: an integer, "p/q", or a double
 * with 17 significant digits. */
void mmm__pv_text(mmm_value v, char *buf, size_t size);
/* A decimal number ("1,234,567", "12.5", "3e6") as an exact rational
 * when it has one; 0, or -1 when the text is not a number. */
int mmm__pv_parse(const char *s, mmm_value *out);

/* ------------------------------------------------------------------ */
/* Launches and their attributes                                       */

/* The attributes profile measures (docs/profile.md gives each one's
 * definition), in the order they are written: the MMM's own, then those
 * of the time model's table (mmm/attr.h), named by mmm__pa_name. */
enum {
    PA_BLOCKS, PA_THREADS, PA_WORK, PA_SPAN, PA_READS, PA_WRITES,
    PA_REGISTERS, PA_SHARED_BYTES, PA_BARRIERS, PA_WAVEFRONTS,
    PA_GLOBAL_WAVEFRONTS, PA_ATOMICS, PA_N
};
/* Attributes every kernel needs (blocks, threads, work, span, reads,
 * writes): bits of PA_*. */
#define PA_REQUIRED 0x3fu
/* The name of attribute pa in DAG files; 1 when its values must be
 * integers (blocks, threads, and the counts of the attribute table). */
const char *mmm__pa_name(int pa);
int mmm__pa_integral(int pa);
/* pa's row of the attribute table, -1 for the MMM's own. */
int mmm__pa_attr(int pa);

/* One launch of a point, with its costs (its own, or those of the sampled
 * launches of its configuration). */
typedef struct mmm__profile_launch {
    const char *kernel;       /* as ncu wrote it (owned by the capture) */
    const char *stream;
    const char *file;         /* where it is listed */
    long line;
    int64_t id;
    const mmm_ncu_capture *cost_cap; /* where its costs come from */
    long cost_line;
    size_t nsamples;          /* 0: measured itself; else the sampled
                                 launches of its configuration averaged */
    int samples_differ;
    mmm_value q[MMM_NCU_NQUANTITIES];
    uint32_t have_q;
    mmm_value a[PA_N];        /* attributes */
    uint32_t have_a;
    uint32_t graph;           /* the CUDA graph and its node that ran it
                                 (a launch trace's; 0 outside graphs) */
    uint64_t node;
} mmm__profile_launch;

typedef struct mmm__profile_point {
    long line;                /* its first row in POINTS.csv */
    mmm_value *params;        /* nparams values */
    char label[256];          /* "n=1024, s=4" */
    mmm_ncu_capture **caps;
    size_t ncaps;
    mmm__profile_launch *l;
    size_t n;
    size_t nconfigs, nsampled; /* configurations; launches whose costs
                                  are those of sampled launches */
    size_t nscattered;         /* sampled configurations whose launches
                                  are not all in a row (the kernel runs in
                                  several places: its data may differ) */
    char scattered[128];       /* the first such kernel */
} mmm__profile_point;

typedef struct mmm__profile_points {
    char *file;
    size_t nparams;
    char **pname;
    long *pcol_line;
    mmm__profile_point *p;
    size_t n;
    /* sources of each quantity (the first capture that has it) */
    const char *source[MMM_NCU_NQUANTITIES];
} mmm__profile_points;

/* Read POINTS.csv and the captures it names, merge each point's
 * launches and compute their attributes. */
int mmm__points_read(mmm__profile_points *pts, const char *path, uint64_t max_bytes,
                     mmm_error *err);
void mmm__points_dispose(mmm__profile_points *pts);

/* ------------------------------------------------------------------ */
/* The build                                                           */

struct mmm_profile {
    char *xml;
    mmm_notes notes;
    size_t npoints, nkernels, napprox;
};

/* Add a note (one line) to p; -1 when out of memory. */
int mmm__profile_note(mmm_profile *p, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* How one attribute (or the repeat) of a kernel was written. */
typedef struct mmm__profile_fit {
    char text[4096];
    int have;       /* written */
    int instances;  /* one expression per template instance (instfit.c) */
    int exact;
    double max_rel;
    size_t npoints; /* the values it went through */
    int rounded;    /* some value was rounded by ncu (inexact) */
} mmm__profile_fit;
#define PF_REPEAT PA_N /* pfit[PF_REPEAT]: the repeat count */

/* 1 when two launches are the same: the same kernel on the same stream
 * with the same attributes (the L1's wavefronts, which vary with timing,
 * within 10 %). */
int mmm__same_launch(const mmm__profile_launch *a, const mmm__profile_launch *b);

/* Fit the values y[0 .. n) at x (n rows of nvars) into *f; an integral
 * attribute's approximation is rounded up (ceil), so that it stays a
 * count.  inst (NULL: none): the function each row's launch ran; where no
 * single expression is exact and the rows' functions differ, one
 * expression per instance (mmm__fit_instances). */
int mmm__fit_values(const char *const *names, size_t nvars, const mmm_value *x,
                    const mmm_value *y, size_t n, int integral, const char *const *inst,
                    mmm__profile_fit *f, mmm_error *err);

/* One expression per template instance, joined by indicators, with
 * whole_text (the fit through every point, of largest relative error
 * whole_err) where no instance applies, into out: 1 when written (*exact,
 * *max_rel: how it reproduces y), 0 when it does not apply (one instance)
 * or is no better, negative on error. */
int mmm__fit_instances(const char *const *names, size_t nvars, const mmm_value *x,
                       const mmm_value *y, size_t n, const char *const *inst,
                       const char *whole_text, double whole_err, char *out,
                       size_t outsize, int *exact, double *max_rel, mmm_error *err);

/* text evaluated at the n points, into out[i] (doubles); -1 when it does
 * not parse or evaluate. */
int mmm__fit_eval_text(const char *text, const char *const *names, size_t nvars,
                       const mmm_value *x, size_t n, double *out);

/* Evaluate text at every point: *exact 1 when every value equals y
 * exactly; *max_rel the largest relative error.  -1 when it does not
 * parse or evaluate. */
int mmm__fit_check_text(const char *text, const char *const *names, size_t nvars,
                        const mmm_value *x, const mmm_value *y, size_t n, int *exact,
                        double *max_rel);

/* The comment of a kernel, from indent: its launches at each point (rep[i]
 * a launch of point i standing for its nl[i] launches, NULL when the
 * kernel has none there), where each attribute came from, what the L2
 * and memory served, the attributes written as approximations
 * (f[0 .. PA_N] with f[PF_REPEAT]), then extra's lines (NULL: none). */
void mmm__kernel_comment(mmm__text *t, const char *indent, const char *id,
                         const mmm__profile_points *pts, const mmm__profile_launch *const *rep,
                         const int64_t *nl, const mmm__profile_fit *f, const char *extra);
/* Text of an XML comment (no "--", no "-" at its end, well-formed
 * characters only). */
void mmm__text_comment(mmm__text *t, const char *s);

/* Fill the skeleton at path in with the points' measures into out (the
 * file's text). */
int mmm__skeleton_fill(mmm_profile *p, mmm__text *out, const char *path,
                       const mmm__profile_points *pts, const mmm_profile_options *opt,
                       mmm_error *err);

/* What to capture for quantity q that a capture lacks (ncu_csv.c). */
const char *mmm__ncu_hint(mmm_ncu_quantity q);

/* What an approximation's comment and note say: "max relative error 3.2 %
 * over 12 values", and that ncu rounded its values when it did. */
void mmm__approx_text(const mmm__profile_fit *f, char *buf, size_t size);

/* The kernel's name without return type, template arguments and
 * parameters ("void ns::k<16>(float*)" -> "ns::k") into buf. */
void mmm__kernel_base(const char *name, char *buf, size_t size);

#endif
