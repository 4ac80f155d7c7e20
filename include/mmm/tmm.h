/**
 * mmm/tmm.h: the two other models users compare the MMM against, computed
 * on an evaluated program (docs/tmm.md has the formulas and the papers).
 *
 * Threaded Many-core Memory model (TMM; Ma, Agrawal, Chamberlain).  Machine
 * parameters, read from the instance like any parameter (machine file, -D):
 *   L  latency of a global memory access, in the time unit of the program's
 *      local operations        P  cores          C  words per transaction
 *   Z  fast memory words per core group (the SM's shared memory: the same Z
 *      as the MMM's)           Q  cores per group   X  threads per core limit
 * For one launch of a kernel:
 *   T1 = W,  T∞ = max S(B),  M = Σ_blocks ceil(threads·(r+w)/C) (coalesced)
 *   or threads·(r+w) (irregular),  T = min(X, Z/(Q·s), threads/P) where s is
 *   the thread-weighted mean of the shared words per thread (the limit is
 *   dropped when s = 0), and its time max(T1/P, T∞, M·L/(T·P)).
 * A kernel is a chain of launches: its T_P is the sum over its launches.
 * The program's T_P is the longest path of the kernel DAG weighted by the
 * kernels' T_P; T_P "global" is Eq. (2) on the program totals,
 * max(ΣT1/P, T∞, Σ M·L/(T·P)), and the speedup is Eq. (3), T1 / T_P global.
 *
 * Balance principle (Czechowski, Battaglino, McClanahan, Chandramowlishwaran,
 * Vuduc).  Machine parameters: P (cores), C0 (operations per second per
 * core), beta (bytes per second), alpha (latency, seconds), C (words per
 * transaction), word_bytes; optionally Ztotal (fast memory of the whole
 * chip, words), the doubling times dbl_flops (of P·C0), dbl_beta, dbl_C,
 * dbl_Ztotal, dbl_P and the halving time half_alpha (years), years (the
 * projection horizon, default 10) and year0 (the calendar year of t = 0).
 * For a kernel or the program, with W work, D span and Q = M transactions of
 * C·word_bytes bytes:
 *   T_comp = (D + W/P)/C0      T_mem = alpha·D + Q·C·word_bytes/beta
 * and Eq. (3), equivalent to T_mem <= T_comp:
 *   balance·(1 + (alpha·beta/L)/(Q/D)) <= intensity·(1 + P/(W/D))
 * with balance = P·C0/beta and intensity = W/(Q·L), both per word here.
 */
#ifndef MMM_TMM_H
#define MMM_TMM_H

#include <stddef.h>
#include <stdint.h>

#include "mmm/export.h"
#include "mmm/error.h"
#include "mmm/eval.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------ */
/* TMM                                                                */

/** The TMM machine parameters. */
typedef struct mmm_tmm_machine {
    double L; /**< latency of a global access (time units of one local op) */
    double P; /**< cores */
    double C; /**< words per memory transaction */
    double Z; /**< fast memory words per core group */
    double Q; /**< cores per core group */
    double X; /**< hardware limit of threads per core */
} mmm_tmm_machine;

/** The three terms of Eq. (2). */
typedef enum mmm_tmm_term {
    MMM_TMM_WORK = 0,   /**< T1/P */
    MMM_TMM_SPAN = 1,   /**< T∞ */
    MMM_TMM_LATENCY = 2 /**< M·L/(T·P) */
} mmm_tmm_term;

/** Which of the three limits sets T. */
typedef enum mmm_tmm_limit {
    MMM_TMM_LIMIT_NONE = 0,    /**< no threads: T = 0 */
    MMM_TMM_LIMIT_X = 1,       /**< the hardware limit X */
    MMM_TMM_LIMIT_MEMORY = 2,  /**< fast memory, Z/(Q·s) */
    MMM_TMM_LIMIT_THREADS = 3  /**< the threads the kernel launches, /P */
} mmm_tmm_limit;

/** TMM costs of a kernel (all its launches) or of the program. */
typedef struct mmm_tmm_cost {
    double T1;           /**< work */
    double Tinf;         /**< span (program: longest kernel path) */
    double M;            /**< global memory transactions */
    double T;            /**< threads per core.  Several launches: the
                              M-weighted harmonic mean M / Σ(M_i/T_i), so
                              that latency_term = M·L/(T·P); when M = 0,
                              the smallest T of a launch */
    double work_term;    /**< T1/P */
    double span_term;    /**< Tinf */
    double latency_term; /**< Σ over launches M_i·L/(T_i·P) */
    double TP;           /**< kernel: Σ over launches of the launch's
                              max; program: longest kernel path of those */
    double TP_global;    /**< Eq. (2) on the totals: max of the terms */
    double pram;         /**< PRAM time max(T1/P, Tinf) */
    double Tstar;        /**< M·L/T1: threads per core from which the
                              latency is hidden (0 when T1 = 0 or M = 0) */
    double speedup;      /**< Eq. (3): T1 / TP_global (0 when TP_global = 0) */
    double words;        /**< global words read and written, Σ threads·(r+w) */
    double threads;      /**< threads of the largest launch */
    mmm_tmm_term dominant; /**< largest term of TP_global (ties: work, then
                                span, then latency) */
    mmm_tmm_limit limit; /**< what sets T (of the launch with the largest
                              latency term; program: of that kernel) */
} mmm_tmm_cost;

typedef struct mmm_tmm {
    mmm_tmm_machine machine;
    mmm_tmm_cost program;
    size_t nkernels;
    mmm_tmm_cost *kernels;   /**< by kernel index */
    size_t path_len;
    uint32_t *path;          /**< a kernel path of maximum Σ TP (sources to
                                  sinks; a repeated kernel appears once) */
} mmm_tmm;

/** Read and check L, P, C, Z, Q, X from the instance's parameters.  A
 *  missing or out-of-range one is MMM_EINPUT naming it. */
MMM_API int mmm_tmm_machine_get(mmm_tmm_machine *out, const mmm_instance *inst,
                                mmm_error *err);

/**
 * Compute the TMM costs of an evaluated instance.  Fails with MMM_EINPUT
 * (machine parameter missing, a class that moves data without a thread
 * count), MMM_ENOMEM, or an error of mmm_instance_eval_copy.  Costs O(kernels
 * + classes + edges), plus O(repeat·classes) for a kernel whose launches
 * differ.  out is zeroed first; mmm_tmm_dispose releases it.
 */
MMM_API int mmm_tmm_compute(mmm_tmm *out, const mmm_instance *inst, mmm_error *err);
MMM_API void mmm_tmm_dispose(mmm_tmm *t);

/** "work", "span", "latency". */
MMM_API const char *mmm_tmm_term_name(mmm_tmm_term t);
/** "none", "X", "memory", "threads". */
MMM_API const char *mmm_tmm_limit_name(mmm_tmm_limit l);

/* ------------------------------------------------------------------ */
/* Balance principle                                                  */

/** Machine values and the paper's machine-level figures. */
typedef struct mmm_balance_machine {
    double P, C0, beta, alpha, C, word_bytes;
    double peak;            /**< P·C0, operations per second */
    double balance;         /**< P·C0·word_bytes/beta: operations per word */
    double balance_bytes;   /**< P·C0/beta: per byte (the paper's Table 1) */
    double transaction_bytes; /**< L of the paper: C·word_bytes */
    double littles;         /**< alpha·beta/L: transactions in flight */
    int has_Z;              /**< Ztotal is declared */
    double Ztotal;          /**< fast memory of the chip, words */
    double matmul;          /**< Eq. (5) right side: sqrt(Ztotal/P) */
    double sort;            /**< Eq. (6) right side: log2(Ztotal/P) */
    int matmul_ok;          /**< Eq. (5), paper's reading: balance_bytes <=
                                 matmul */
    int has_growth;         /**< all doubling times are declared */
    double years;           /**< projection horizon */
    int has_year0;
    double year0;
    /* Projection to t = years (x0·2^(t/T), alpha halves every half_alpha): */
    double at_peak, at_beta, at_alpha, at_transaction_bytes, at_Ztotal, at_P;
    double at_balance_bytes, at_matmul;
    /* Years until Eq. (5) turns false (negative: it already has; infinite:
     * never).  Paper's reading: ops/byte against sqrt(Z/P), Z in words. */
    double crossover;
    double crossover_irony; /**< with Irony-Toledo-Tiskin's sqrt(2) kept */
    double crossover_words; /**< both sides per word (ops/word) */
} mmm_balance_machine;

/** Balance of a kernel or of the program. */
typedef struct mmm_balance_cost {
    double W;          /**< work (operations) */
    double D;          /**< span */
    double Q;          /**< transactions (the TMM's M) */
    double words;      /**< words transferred, Q·C */
    double intensity;  /**< W/(Q·C), operations per word (inf when Q = 0) */
    double little;     /**< 1 + (alpha·beta/L)/(Q/D) */
    double amdahl;     /**< 1 + P/(W/D) */
    double lhs;        /**< balance·little */
    double rhs;        /**< intensity·amdahl */
    double T_comp;     /**< (D + W/P)/C0, seconds */
    double T_mem;      /**< alpha·D + Q·L/beta, seconds */
    double ratio;      /**< T_mem / T_comp */
    int memory_bound;  /**< T_mem > T_comp (Eq. 3 false) */
} mmm_balance_cost;

typedef struct mmm_balance {
    mmm_balance_machine machine;
    mmm_balance_cost program;
    size_t nkernels;
    mmm_balance_cost *kernels; /**< by kernel index */
} mmm_balance;

/** Read P, C0, beta, alpha, C, word_bytes (required) and the optional
 *  Ztotal and growth parameters; compute the machine-level figures. */
MMM_API int mmm_balance_machine_get(mmm_balance_machine *out,
                                    const mmm_instance *inst, mmm_error *err);

/** The balance of every kernel and of the program.  out is zeroed first;
 *  mmm_balance_dispose releases it. */
MMM_API int mmm_balance_compute(mmm_balance *out, const mmm_instance *inst,
                                mmm_error *err);
MMM_API void mmm_balance_dispose(mmm_balance *b);

#ifdef __cplusplus
}
#endif
#endif
