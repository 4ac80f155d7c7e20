/* program_internal.h: the private side of mmm_program (arena, hash tables,
 * deduplicated expressions, the cached series-parallel plan) and the
 * internal antichain entry points shared by program.c, eval.c, metrics.c
 * and antichain.c.  Not installed; tests may include it. */
#ifndef MMM_PROGRAM_INTERNAL_H
#define MMM_PROGRAM_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "mmm/error.h"
#include "mmm/expr.h"
#include "mmm/metrics.h"
#include "mmm/program.h"

/* ------------------------------------------------------------------ */
/* Arena: bump allocation of strings, freed all at once.              */

typedef struct mmm_arena_chunk mmm_arena_chunk;
typedef struct mmm_arena {
    mmm_arena_chunk *head;
} mmm_arena;

/* ------------------------------------------------------------------ */
/* Open-addressing table from a string (kernel id, parameter name) to the
 * index of its kernel or parameter, whose record holds the string.  A slot
 * is 8 bytes (the 10^6 ids of a big program take 16 MB): the hash, so
 * that most probes do not touch the string, and the index + 1 (0: an
 * empty slot).  No deletion. */

typedef struct mmm_idslot {
    uint32_t hash;
    uint32_t idx1;
} mmm_idslot;
typedef struct mmm_idtab {
    mmm_idslot *slots;
    size_t cap; /* power of two, or 0 */
    size_t count;
} mmm_idtab;

/* ------------------------------------------------------------------ */
/* A distinct compiled expression.  Identical texts compiled in the same
 * naming context share one entry, so that "4" serves a million kernels.
 * key_ctx is -1 when the text cannot see a kernel index, else the index
 * slot it was compiled against. */

typedef struct mmm_expr_entry {
    const char *text;
    uint64_t hash;
    mmm_expr *expr;
    int32_t key_ctx;
    uint8_t uses_index; /* reads a kernel index slot */
    uint8_t shareable;  /* found through the dedupe table */
} mmm_expr_entry;

#define MMM_NO_EXPR UINT32_MAX

/* Expression ids of one kernel / one class (MMM_NO_EXPR when absent), so
 * that the evaluator can memoize the value of each distinct expression. */
enum { MMM_KX_REPEAT, MMM_KX_THREADS, MMM_KX_N };
enum {
    MMM_CX_COUNT,
    MMM_CX_WORK,
    MMM_CX_SPAN,
    MMM_CX_READS,
    MMM_CX_WRITES,
    MMM_CX_THREADS,
    MMM_CX_SHARED,
    MMM_CX_SHARED_BYTES, /* time model: bytes per block */
    MMM_CX_REGISTERS,    /* time model: registers per thread */
    MMM_CX_BARRIERS,     /* time model: barriers on a thread's path */
    MMM_CX_ROUNDS,       /* time model: dependent global round trips */
    MMM_CX_WAVEFRONTS,   /* time model: shared-memory wavefronts per warp */
    MMM_CX_READ_STRIDE,  /* time model: words between threads' reads */
    MMM_CX_WRITE_STRIDE, /* time model: words between threads' writes */
    MMM_CX_ATOMICS,      /* time model: atomics per block on one word */
    MMM_CX_GLOBAL_WAVEFRONTS, /* time model: L1 wavefronts of global
                                 accesses per warp */
    MMM_CX_GATHERS,      /* time model: reads per thread at random addresses */
    MMM_CX_GATHER_BYTES, /* time model: bytes of the region they fall in */
    MMM_CX_SCATTERS,     /* time model: writes per thread at random addresses */
    MMM_CX_N
};

/* ------------------------------------------------------------------ */
/* The series-parallel plan of a DAG: a replayable sequence of
 * reductions.  Edge values start at 0; a series op (x != UINT32_MAX)
 * sets val[a] = max(val[a], w[x], val[b]); a parallel op (x ==
 * UINT32_MAX) sets val[a] += val[b].  The largest antichain is
 * val[final_edge] (0 for an empty graph). */

typedef struct mmm_sp_op {
    uint32_t a, b, x;
} mmm_sp_op;

typedef struct mmm_sp_plan {
    int is_sp;          /* 1: the plan computes K; 0: not series-parallel */
    size_t nops;
    mmm_sp_op *ops;
    size_t nvals;       /* edge ids used by the ops */
    uint32_t final_edge;
} mmm_sp_plan;

/* ------------------------------------------------------------------ */

struct mmm_program_priv {
    mmm_limits limits; /* effective */
    mmm_arena arena;

    /* Growing arrays behind the public const pointers. */
    mmm_param *params;
    size_t params_cap;
    mmm_constraint *constraints;
    size_t constraints_cap;
    mmm_kernel *kernels;
    size_t kernels_cap;
    mmm_block_class *classes;
    size_t classes_cap;
    mmm_edge *edges;
    size_t edges_cap;

    /* Parallel arrays. */
    mmm_value *machine_value;  /* by param: value when from_machine */
    uint8_t *declared_by_prog; /* by param: the program declared it */
    uint32_t (*kernel_eid)[MMM_KX_N];
    uint32_t (*class_eid)[MMM_CX_N];
    uint8_t *kernel_minimal; /* by kernel: its class came from blocks= */

    mmm_idtab param_tab;
    mmm_idtab kernel_tab;
    /* Kernel ids "<prefix><number>" with the prefix of the first such id
     * and the number written without leading zeros (at most 9 digits),
     * by number: kernel index + 1 (0: none).  A lookup of such an id is
     * one read of this array, no hash and no string compare.  Numbers too
     * large for the array when added go to kernel_tab (counted in
     * num_in_tab: while it is 0, an id of this form absent from the array
     * is absent). */
    const char *num_prefix; /* NULL until the first numbered id */
    size_t num_prefix_len;
    uint32_t *num_kernel;
    size_t num_cap, num_in_tab;
    /* Kernels 0 .. num_ident-1 have the ids <prefix><their index> (a
     * generated file's k0, k1, ...): such an id below num_ident is its
     * kernel's index, found without reading num_kernel (with edges in
     * random order, that read is a cache miss per edge end). */
    size_t num_ident;
    size_t nindexed;          /* kernels with an index */
    int last_kernel_minimal;  /* the last kernel has its blocks= class */

    /* Distinct expressions (owned), and the dedupe table over them. */
    mmm_expr_entry *exprs;
    size_t nexprs, exprs_cap;
    uint32_t *expr_slots;
    size_t expr_slots_cap;

    /* The kernels (index + 1, 0: none) that the last edge came from and
     * went to: files list edges grouped by source or by target. */
    uint32_t last_from, last_to;

    /* Edges whose ids were unknown when added: resolved by finalize. */
    struct mmm_pending_edge *pending;
    size_t npending, pending_cap;

    /* The last expression error named an unknown parameter, which no
     * hint explained: its name, and the length of the message before
     * the hint (the loader looks for the name later in the file). */
    char unknown_name[65];
    size_t unknown_cut;

    /* Filled by finalize. */
    uint32_t *succ_start, *succ, *pred_start, *pred, *topo;
    int index_topological; /* every edge goes from a lower kernel index to a
                              higher one (the file's order is a topological
                              order) */
    mmm_sp_plan sp;
};

/* ------------------------------------------------------------------ */
/* Shared by program.c (the builder), program_ids.c (arena, id tables)
 * and program_graph.c (edges, finalize). */

/* program_ids.c: the arena. */
const char *mmm__arena_strdup(mmm_arena *a, const char *s);
void mmm__arena_free(mmm_arena *a);

/* program_ids.c: the id tables.  The string of entry idx of a table: the
 * kernel's id, the parameter's name. */
typedef const char *(*mmm__key_fn)(const struct mmm_program_priv *pv,
                                   uint32_t idx);
uint64_t mmm__hash_mem(const char *s, size_t len);
/* key is the len bytes at s (key is NUL-terminated, s need not be). */
int mmm__key_equal(const char *key, const char *s, size_t len);
const char *mmm__param_name(const struct mmm_program_priv *pv, uint32_t idx);
long mmm__idtab_find(const struct mmm_program_priv *pv, const mmm_idtab *t,
                     mmm__key_fn key, const char *s, size_t len);
int mmm__idtab_insert(mmm_idtab *t, const char *key, uint32_t idx);
int mmm__id_number(const char *s, size_t len, size_t *plen, uint32_t *num);
int mmm__num_prefix_is(const struct mmm_program_priv *pv, const char *s,
                       size_t plen);
long mmm__kernel_find(const struct mmm_program_priv *pv, const char *s,
                      size_t len);
long mmm__kernel_find_numbered(const struct mmm_program_priv *pv,
                               const char *id);
int mmm__kernel_id_insert(struct mmm_program_priv *pv, size_t idx);

/* program.c: growing arrays (grow_big: with mmm__big_realloc), the
 * builder's state check and the public views of the arrays. */
int mmm__program_grow(void *arr, size_t *cap, size_t count, size_t elem);
int mmm__program_grow_big(void *arr, size_t *cap, size_t count,
                          size_t elem);
int mmm__program_check_open(const mmm_program *p, mmm_error *err);
void mmm__program_sync_views(mmm_program *p);

/* Expression id -> entry (for the evaluator). */
static inline const mmm_expr_entry *
mmm__expr_entry(const mmm_program *p, uint32_t id)
{
    return &p->priv->exprs[id];
}

/* ------------------------------------------------------------------ */
/* Large arrays (bigalloc.c): from 1 MiB on, a mapping of their own with
 * transparent huge pages, grown by mremap without copying (first-touch
 * page faults and copies are a large part of the cost of a 10^6-kernel
 * program).  old_bytes: the contents to keep when the block moves.  A
 * block from these must be freed with mmm__big_free. */
void *mmm__big_malloc(size_t bytes);
void *mmm__big_calloc(size_t n, size_t size);
void *mmm__big_realloc(void *p, size_t old_bytes, size_t bytes);
void mmm__big_free(void *p);

/* ------------------------------------------------------------------ */
/* Antichains: the series-parallel plan (sp_plan.c), the minimum flow and
 * the edge-list entry (antichain.c).                                   */

/* Build the series-parallel plan of the DAG given in CSR form (n nodes,
 * succ lists without duplicates).  plan->is_sp tells whether it reduced.
 * Returns 0 or MMM_ENOMEM. */
int mmm__sp_plan_build(mmm_sp_plan *plan, size_t n, const uint32_t *succ_start,
                       const uint32_t *succ, mmm_error *err);
void mmm__sp_plan_dispose(mmm_sp_plan *plan);

/* Replay a series-parallel plan with node weights (whose sum must fit in
 * int64).  Returns 0 or MMM_ENOMEM. */
int mmm__sp_plan_eval(int64_t *out, const mmm_sp_plan *plan,
                      const int64_t *weight, mmm_error *err);

/* Largest weighted antichain by minimum flow with lower bounds (Dilworth),
 * on a DAG in CSR form (duplicates allowed).  The weights must be >= 0 and
 * their sum must fit in int64.  Any node numbering: a topological order
 * is found when the index order is not one.  Returns 0, MMM_ENOMEM or
 * MMM_ELIMIT (more than 2^30 nodes). */
int mmm__antichain_flow(int64_t *out, size_t n, const int64_t *weight,
                        const uint32_t *succ_start, const uint32_t *succ,
                        mmm_error *err);
/* The same with the predecessor lists of that CSR given (pred_start, pred:
 * for each node its predecessors in increasing order, one per edge), as
 * mmm_program_finalize builds them; the flow then does not build its own. */
int mmm__antichain_flow_preds(int64_t *out, size_t n, const int64_t *weight,
                              const uint32_t *succ_start, const uint32_t *succ,
                              const uint32_t *pred_start, const uint32_t *pred,
                              mmm_error *err);
/* The same with the method of the augmenting-path searches fixed, for the
 * tests: MMM__FLOW_ADAPTIVE (what the two above use: chosen as it goes),
 * MMM__FLOW_BFS (breadth-first searches alone), MMM__FLOW_LABELLED (the
 * labelled search first, always), MMM__FLOW_ALTERNATE (the two in turns
 * of three searches), MMM__FLOW_NARROW (labelled first, each global
 * labelling over one longest edge back instead of four: it leaves out more
 * often).  K is the same whatever the method. */
enum {
    MMM__FLOW_ADAPTIVE,
    MMM__FLOW_BFS,
    MMM__FLOW_LABELLED,
    MMM__FLOW_ALTERNATE,
    MMM__FLOW_NARROW,
    /* or-ed with one of the above: the flow flags of each kernel's
     * successor edges kept for its first successor only (the others read
     * the flows, as for the successors past the 32nd) */
    MMM__FLOW_ONE_FLAG = 8,
    /* or-ed too: failed hand-on searches mark nothing STUCK (the flow
     * does the same augmentations, its hand-on searches reach more) */
    MMM__FLOW_NO_STUCK = 16,
    /* or-ed too: a hand-on search stops after 8 nodes instead of 4096 */
    MMM__FLOW_SHORT_HAND = 32
};
int mmm__antichain_flow_mode(int64_t *out, size_t n, const int64_t *weight,
                             const uint32_t *succ_start, const uint32_t *succ,
                             const uint32_t *pred_start, const uint32_t *pred,
                             int mode, mmm_error *err);
/* The same, and what the flow did (for the tests and the benchmarks):
 * the searches of each kind that sent flow (a labelled one may send along
 * several paths), the global labellings, the most network nodes one of
 * them labelled, the kernels one may label (4 times the longest edge, 1
 * time for MMM__FLOW_NARROW, plus one, when the index order is
 * topological; 0: all), and the searches' work (nodes reached, arcs
 * looked at: a count free of the machine's load). */
typedef struct mmm__flow_stats {
    uint64_t bfs_paths, labelled_paths;
    uint64_t labellings, labelled_most, label_kernels;
    uint64_t work; /* nodes the searches reached, arcs they looked at */
    uint64_t empty_paths;  /* augmentations of the labelled search that
                            * sent nothing (none while it follows only
                            * residual arcs) */
    int check_labels;      /* in: check every global labelling (slow) */
    uint64_t label_errors; /* labelled nodes whose label is not 1 + the
                            * least label of their arcs' heads (0: a
                            * free end), or whose kernel has not joined */
    uint64_t hand_on_reached; /* nodes the hand-on searches reached */
    int check_stuck;       /* in: after each failed hand-on search that
                            * marks STUCK, check every STUCK node (slow) */
    uint64_t stuck_checks; /* those checks */
    uint64_t stuck_errors; /* STUCK nodes with successors left to join,
                            * residual arcs from a STUCK node to one that
                            * is not (counted over all checks) */
} mmm__flow_stats;
int mmm__antichain_flow_stats(int64_t *out, size_t n, const int64_t *weight,
                              const uint32_t *succ_start,
                              const uint32_t *succ,
                              const uint32_t *pred_start,
                              const uint32_t *pred, int mode,
                              mmm__flow_stats *stats, mmm_error *err);

/**
 * Largest weighted antichain of a DAG given by its edges (u -> v) and node
 * weights.  Exposed for tests and for the flow fallback's reuse.  Uses the
 * series-parallel composition when possible (*method_out, may be NULL,
 * says which); overflow of the weight sum is MMM_EOVERFLOW.
 */
int mmm__max_antichain(int64_t *out, mmm_k_method *method_out, size_t n,
                       const int64_t *weight, size_t nedges,
                       const uint32_t *from, const uint32_t *to,
                       mmm_error *err);


/* program_expr.c: where an expression is compiled (the kernel index it may
 * read, the parameters it sees), and the compiler every builder call uses:
 * each text is compiled once per scope; *id receives the expression id;
 * errors get the file and line. */
typedef struct mmm__expr_scope {
    const char *index;     /* visible index name, or NULL */
    int index_slot;
    size_t limit;          /* visible parameters: slots < limit */
    const char *hidden_index;
} mmm__expr_scope;
int mmm__prog_is_identifier(const char *s);
mmm__expr_scope mmm__prog_params_scope(const mmm_program *p);
int mmm__prog_compile(mmm_program *p, uint32_t *id, const char *text,
                      const mmm__expr_scope *scope, long line, mmm_error *err);
/* An optional text: MMM_NO_EXPR when absent. */
int mmm__prog_compile_opt(mmm_program *p, uint32_t *id, const char *text,
                          const mmm__expr_scope *scope, long line,
                          mmm_error *err);
const mmm_expr *mmm__prog_expr_of(const mmm_program *p, uint32_t id);

#endif
