/**
 * mmm/sim.h: greedy list schedules of the thread blocks of a program on p
 * identical SMs (`mmm simulate`).
 *
 * The model: an SM runs one thread block at a time, for S(B) + O(B) time
 * units; a block is ready when every block of every preceding launch has
 * finished (the launches of a `repeat` chain are consecutive kernels, each
 * one a barrier).  A greedy schedule never leaves an SM idle while a block
 * is ready; a policy says which ready block goes first.  Every policy here
 * is a priority list: when a launch becomes ready each of its block classes
 * gets a priority, fixed from then on, and a free SM takes a block of the
 * ready class of highest priority (ties: earlier ready, then kernel
 * declaration order, then class order).
 *
 * Identical blocks are never expanded: the engine keeps (launch, class,
 * remaining) groups, starts min(free SMs, remaining) blocks at once, and
 * jumps over whole waves and over runs of identical launches in closed
 * form, so a chain of 1000 kernels of 10^9 blocks each simulates in
 * milliseconds.  The result is exact: the same schedule (makespan, start
 * and end of every block) as a block-by-block simulation, up to floating
 * point rounding of the time sums.
 *
 *   mmm_sim_options opt = MMM_SIM_OPTIONS_INIT;
 *   mmm_sim_result res;
 *   opt.p = 16;
 *   opt.policy = mmm_sim_policy_find("critical-path");
 *   if (mmm_simulate(&res, inst, &opt, &err) < 0) ...
 *   ... res.makespan, res.lower_bound, res.graham ...
 *   mmm_sim_result_dispose(&res);
 */
#ifndef MMM_SIM_H
#define MMM_SIM_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "mmm/export.h"
#include "mmm/error.h"
#include "mmm/eval.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------ */
/* Policies                                                           */

/** What a policy knows about a ready group: one block class of one
 *  launch, at the moment the launch becomes ready. */
typedef struct mmm_sim_group {
    uint32_t kernel;       /**< kernel index (declaration order) */
    uint32_t klass;        /**< class index in program->classes */
    int64_t copy;          /**< launch 1..repeat of the kernel */
    double ready_time;     /**< when the launch became ready */
    int64_t launch_blocks; /**< blocks of the whole launch */
    int64_t count;         /**< blocks of this class in the launch */
    double cost;           /**< S(B) + O(B) of one of its blocks */
    double tail;           /**< longest path of launch costs after this
                                launch (each launch weighs its largest
                                block cost) */
    double random;         /**< uniform in [0, 1), drawn once per class
                                from the seed */
} mmm_sim_group;

/** Priority of a group: higher goes first.  Must be a pure function, and
 *  must order the classes of one launch the same way for every launch of a
 *  repeat chain (the built-ins do): identical launches that run alone are
 *  skipped in closed form, each as the one before. */
typedef double (*mmm_sim_priority_fn)(const mmm_sim_group *g);

/** A scheduling policy.  Users may define their own. */
typedef struct mmm_sim_policy {
    const char *name;        /**< "fifo", "critical-path", ... */
    const char *summary;     /**< one line for --help */
    mmm_sim_priority_fn priority;
    int uses_seed;           /**< the schedule depends on the seed */
} mmm_sim_policy;

/* The built-in policies (one file each under schedulers/). */
extern MMM_API const mmm_sim_policy mmm_sim_policy_fifo;
extern MMM_API const mmm_sim_policy mmm_sim_policy_lifo;
extern MMM_API const mmm_sim_policy mmm_sim_policy_critical_path;
extern MMM_API const mmm_sim_policy mmm_sim_policy_most_blocks;
extern MMM_API const mmm_sim_policy mmm_sim_policy_fewest_blocks;
extern MMM_API const mmm_sim_policy mmm_sim_policy_longest_block;
extern MMM_API const mmm_sim_policy mmm_sim_policy_shortest_block;
extern MMM_API const mmm_sim_policy mmm_sim_policy_random;

/** Number of built-in policies, and the i-th (table order). */
MMM_API size_t mmm_sim_policy_count(void);
MMM_API const mmm_sim_policy *mmm_sim_policy_at(size_t i);
/** A built-in policy by name, or NULL. */
MMM_API const mmm_sim_policy *mmm_sim_policy_find(const char *name);

/* ------------------------------------------------------------------ */
/* Simulation                                                         */

typedef struct mmm_sim_options {
    unsigned int version; /**< MMM_SIM_OPTIONS_VERSION (the INIT macro, mmm_sim_options_init) */
    int64_t p;                    /**< SMs; 0: the instance's p */
    const mmm_sim_policy *policy; /**< NULL: fifo */
    uint64_t seed;                /**< for randomized policies */
    int record;                   /**< keep per-batch records (Gantt, trace)
                                       and track SM identities */
    size_t max_records;           /**< 0: 262144; beyond, records stop and
                                       records_truncated is set */
    int64_t max_launches;         /**< launches simulated one by one before
                                       giving up (MMM_ELIMIT); 0: 10^8 */
    mmm_progress_fn progress;     /**< (version 2) "simulating POLICY", the
                                       kernels done of all; NULL: none */
    void *progress_payload;
} mmm_sim_options;

/** The defaults (a NULL options pointer means the same). */
#define MMM_SIM_OPTIONS_VERSION 2
#define MMM_SIM_OPTIONS_INIT \
    {.version = MMM_SIM_OPTIONS_VERSION, .p = 0, .policy = NULL, .seed = 0, .record = 0, .max_records = 0, \
     .max_launches = 0, .progress = NULL, .progress_payload = NULL}
/** Set *opt to the defaults (MMM_SIM_OPTIONS_INIT). */
MMM_API void mmm_sim_options_init(mmm_sim_options *opt);

typedef enum mmm_sim_record_kind {
    MMM_SIM_BLOCKS = 0,  /**< sm_count SMs each ran `waves` consecutive
                              blocks of one class of one launch */
    MMM_SIM_LAUNCHES = 1 /**< `copies` identical launches of a kernel that
                              ran alone on the machine, jumped in closed
                              form (each as the launch before them) */
} mmm_sim_record_kind;

/** A rectangle of the timeline. */
typedef struct mmm_sim_record {
    double start, end;
    int64_t sm_first;     /**< SMs [sm_first, sm_first + sm_count) */
    int64_t sm_count;
    int64_t waves;        /**< blocks per SM (MMM_SIM_BLOCKS) */
    int64_t copy;         /**< launch (first one for MMM_SIM_LAUNCHES) */
    int64_t copies;       /**< launches covered (1 for MMM_SIM_BLOCKS) */
    uint32_t kernel;
    uint32_t klass;       /**< class index (MMM_SIM_BLOCKS) */
    mmm_sim_record_kind kind;
} mmm_sim_record;

/** Per kernel (all launches of a repeat chain together). */
typedef struct mmm_sim_kernel_stat {
    double first_start;   /**< first block start; 0 with no blocks */
    double last_end;      /**< last block end (or when it completed) */
    double busy;          /**< Σ block costs */
    int64_t blocks;
} mmm_sim_kernel_stat;

typedef struct mmm_sim_result {
    const mmm_sim_policy *policy;
    uint64_t seed;
    int64_t p;
    double makespan;
    double total;         /**< Σ over all blocks of S(B) + O(B) */
    double critical_path; /**< longest block path, weighted by cost */
    double lower_bound;   /**< max(total / p, critical_path) */
    double graham;        /**< total / p + (1 - 1/p) critical_path */
    double busy;          /**< SM time spent on blocks, as simulated */
    double idle;          /**< p · makespan - total */
    double utilization;   /**< total / (p · makespan); 1 when makespan = 0 */
    int64_t blocks;       /**< blocks scheduled (= N) */
    int64_t launches;     /**< launches (all copies) */
    /* Work done by the engine (for benchmarks). */
    uint64_t events;      /**< distinct event times processed */
    uint64_t batches;     /**< batches started */
    uint64_t wave_jumps;  /**< closed-form jumps over waves */
    uint64_t launch_jumps;/**< closed-form jumps over identical launches */
    size_t nkernels;
    mmm_sim_kernel_stat *kernels;   /**< by kernel index */
    size_t nrecords;
    mmm_sim_record *records;        /**< by end time; NULL unless record */
    int records_truncated;
} mmm_sim_result;

/**
 * Simulate the greedy schedule of an evaluated instance.  Fails with
 * MMM_EINVAL when p is unknown, MMM_ELIMIT when more than max_launches
 * launches would be simulated one by one, MMM_ENOMEM, or an evaluation
 * error of a launch whose expressions use the index.  *out is filled
 * (and must be disposed) only on success.
 */
MMM_API int mmm_simulate(mmm_sim_result *out, const mmm_instance *inst,
                         const mmm_sim_options *opt, mmm_error *err);
MMM_API void mmm_sim_result_dispose(mmm_sim_result *r);

/** The runs of `mmm simulate` at one p: one policy, or every policy. */
typedef struct mmm_sim_runs {
    size_t n;               /**< runs made */
    mmm_sim_result *runs;   /**< runs[0 .. n), in the order simulated */
    size_t best;            /**< the run of the smallest makespan (the
                                 first of equal ones) */
    size_t nbad;            /**< runs outside their bounds (mmm_sim_check) */
} mmm_sim_runs;

/**
 * Simulate inst under opt->policy, or, when all is 1, under every
 * built-in policy in table order (opt->policy is then not read), and
 * check each run against its bounds with mmm_sim_check and mmm_bound.
 * With opt->record only the best run keeps its records (with all, it is
 * simulated again with them once it is known and every check passed).
 * A simulation that fails stops the calls with its error; the runs made
 * before it stay in *out.  A check that fails (a bug of the simulator)
 * does not stop them: it counts in nbad and its error, formatted as
 * mmm_error_format writes it, goes to notes (may be NULL).  *out is
 * filled in any case and must be released with mmm_sim_runs_dispose.
 */
MMM_API int mmm_simulate_policies(mmm_sim_runs *out, const mmm_instance *inst,
                                  const mmm_sim_options *opt, int all,
                                  double mmm_bound, mmm_notes *notes,
                                  mmm_error *err);
MMM_API void mmm_sim_runs_dispose(mmm_sim_runs *r);

/** Relative tolerance of mmm_sim_check (floating point sums). */
#define MMM_SIM_REL_TOL 1e-9

/**
 * Check lower_bound <= makespan <= graham (<= mmm_bound when mmm_bound is
 * not negative), each with the relative tolerance MMM_SIM_REL_TOL.  A
 * violation is a bug in the simulator: MMM_EINVAL with the numbers.
 */
MMM_API int mmm_sim_check(const mmm_sim_result *r, double mmm_bound,
                          mmm_error *err);

/**
 * Write the Chrome trace-event JSON of a recorded simulation (Perfetto,
 * chrome://tracing): one complete event per SM of each record, SMs as
 * threads, 1 time unit = 1 µs.  Without records (or too many events),
 * one event per kernel.  Atomic (mmm__outfile).
 */
MMM_API int mmm_sim_trace_write(const char *path, const mmm_sim_result *r,
                                const mmm_program *prog, double mmm_bound,
                                mmm_error *err);

#ifdef __cplusplus
}
#endif
#endif
