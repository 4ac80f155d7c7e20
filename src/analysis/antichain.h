/* analysis/antichain.h: the largest antichain K, internal to the library:
 * the series-parallel plan of a kernel DAG (sp_plan.c), the minimum flow
 * and the edge-list entry (antichain.c).  docs/model.md tells how the flow
 * works and what was measured while it was tuned. */
#ifndef MMM_ANALYSIS_ANTICHAIN_H
#define MMM_ANALYSIS_ANTICHAIN_H

#include <stddef.h>
#include <stdint.h>

#include "mmm/error.h"
#include "mmm/metrics.h"

/* ------------------------------------------------------------------ */
/* The series-parallel plan of a DAG: a replayable sequence of
 * reductions.  Edge values start at 0; a series op (x != UINT32_MAX)
 * sets val[a] = max(val[a], w[x], val[b]); a parallel op (x ==
 * UINT32_MAX) sets val[a] += val[b].  The largest antichain is
 * val[final_edge] (0 for an empty graph). */

typedef struct mmm__sp_op {
    uint32_t a, b, x;
} mmm__sp_op;

typedef struct mmm__sp_plan {
    int is_sp;          /* 1: the plan computes K; 0: not series-parallel */
    size_t nops;
    mmm__sp_op *ops;
    size_t nvals;       /* edge ids used by the ops */
    uint32_t final_edge;
} mmm__sp_plan;

/* ------------------------------------------------------------------ */
/* Antichains: the series-parallel plan (sp_plan.c), the minimum flow and
 * the edge-list entry (antichain.c).                                   */

/* Build the series-parallel plan of the DAG given in CSR form (n nodes,
 * succ lists without duplicates).  plan->is_sp tells whether it reduced.
 * Returns 0 or MMM_ENOMEM. */
int mmm__sp_plan_build(mmm__sp_plan *plan, size_t n, const uint32_t *succ_start,
                       const uint32_t *succ, mmm_error *err);
void mmm__sp_plan_dispose(mmm__sp_plan *plan);

/* Replay a series-parallel plan with node weights (whose sum must fit in
 * int64).  Returns 0 or MMM_ENOMEM. */
int mmm__sp_plan_eval(int64_t *out, const mmm__sp_plan *plan,
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

#endif
