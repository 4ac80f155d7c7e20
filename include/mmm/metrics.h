/**
 * mmm/metrics.h: the Many-core Machine Model measures of an evaluated
 * program and the Graham–Brent bounds.
 *
 *   W = Σ W(K)  S = max over kernel paths of Σ S(K)   O = Σ O(K)
 *   N = blocks  L = longest block path (in blocks)   C = max (S(B) + O(B))
 *   K = largest antichain of the thread-block DAG
 *   Graham–Brent: T_p <= (N/p + L)·C;  corollary: T <= (N/K + L)·C
 *
 * K is computed on the kernel DAG weighted by blocks: by series-parallel
 * composition when the DAG is series-parallel, else as a minimum flow with
 * lower bounds (Dilworth).
 */
#ifndef MMM_METRICS_H
#define MMM_METRICS_H

#include <stddef.h>
#include <stdint.h>

#include "mmm/export.h"
#include "mmm/error.h"
#include "mmm/eval.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum mmm_k_method {
    MMM_K_NONE = 0,            /**< not computed (MMM_METRICS_NO_K) */
    MMM_K_SERIES_PARALLEL = 1, /**< by series-parallel composition */
    MMM_K_FLOW = 2             /**< by minimum flow */
} mmm_k_method;

enum {
    MMM_METRICS_NO_PATHS = 1u << 0, /**< skip the critical paths (and T1,
                                         T_inf: the block DAG's) */
    MMM_METRICS_NO_K = 1u << 1      /**< skip K (and the corollary) */
};

typedef struct mmm_metrics {
    double W, S, O, C;
    int64_t N, L, K;
    double parallelism;     /**< W / S (0 when S = 0): of the threads */
    int has_p;
    int64_t p;
    double graham_brent;    /**< (N/p + L)·C when has_p */
    double corollary;       /**< (N/K + L)·C; 0 when K = 0 */
    mmm_k_method k_method;
    /* Critical kernel paths (kernel indices, source to sink); a repeated
     * kernel appears once and stands for its whole chain. */
    size_t span_path_len;
    uint32_t *span_path;    /**< a path of maximum Σ S(K) */
    size_t l_path_len;
    uint32_t *l_path;       /**< a path of maximum Σ L(K) */
    /** W, S, O, C as exact integers, each valid when its MMM_EXACT_* bit
     *  (mmm/eval.h) is set in exact: integer costs stay exact up to
     *  2^63 - 1, where the doubles above round past 2^53. */
    int64_t W_i, S_i, O_i, C_i;
    unsigned exact;
    /** Some integer (a measure, a parameter value) is known only as a
     *  double past 2^53: its printed digits may be rounded. */
    int lost;
    /** The parallelism of the thread blocks (not with
     *  MMM_METRICS_NO_PATHS: has_blocks says): T1, the sum of S(B) + O(B)
     *  over every block (the time on one SM); T_inf, the heaviest path of
     *  launches, each weighing its costliest block (the time on infinitely
     *  many SMs); parallelism_blocks = T1 / T_inf (0 when T_inf = 0), the
     *  largest speedup of any schedule of the blocks.  `parallelism` above
     *  is that of the threads, W/S. */
    int has_blocks;
    double T1, T_inf, parallelism_blocks;
} mmm_metrics;

/** Compute everything for an evaluated instance.  flags: MMM_METRICS_*.
 *  Fails only on MMM_ENOMEM or MMM_EOVERFLOW. */
MMM_API int mmm_metrics_compute(mmm_metrics *out, const mmm_instance *inst,
                                unsigned flags, mmm_error *err);
/** Free the paths; the struct may be reused.  A zeroed struct is fine. */
MMM_API void mmm_metrics_dispose(mmm_metrics *m);

#ifdef __cplusplus
}
#endif
#endif
