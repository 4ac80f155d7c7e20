/**
 * mmm/timemodel.h: the time model — predicted seconds of a program on a
 * real GPU (docs/time.md has the formulas, units and names).
 *
 * Its machine constants (the hardware limits, the constants `mmm fit`
 * fits, the launch mode) are read by name from the machine the program
 * was loaded with, else from the program's own parameters
 * (mmm_program_find_machine_param, mmm_time_machine_get): their names,
 * units, defaults and bounds are one table, src/time/time_inputs.h, which
 * docs/time.md (section 1) lists.
 * Results are doubles (seconds); occupancy, waves and launches are exact
 * integers.
 */
#ifndef MMM_TIMEMODEL_H
#define MMM_TIMEMODEL_H

#include <stddef.h>
#include <stdint.h>

#include "mmm/export.h"
#include "mmm/error.h"
#include "mmm/eval.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The fitted constants, in the order mmm_time_const_name() names them. */
enum {
    MMM_TIME_LAUNCH = 0,      /**< launch_s, seconds */
    MMM_TIME_LAUNCH_GRAPH,    /**< launch_graph_s, seconds */
    MMM_TIME_OP,              /**< op_cycles, cycles */
    MMM_TIME_ISSUE,           /**< issue_per_cycle, warp-instructions/cycle */
    MMM_TIME_SYNC,            /**< sync_cycles, cycles */
    MMM_TIME_SYNC_WARP,       /**< sync_cycles_per_warp, cycles/warp */
    MMM_TIME_MEM_LATENCY,     /**< mem_latency_cycles, cycles */
    MMM_TIME_BANDWIDTH,       /**< bandwidth_bytes_per_cycle, bytes/cycle */
    MMM_TIME_START,           /**< start_s, seconds (optional, 0) */
    MMM_TIME_BLOCK,           /**< block_cycles, cycles (optional, 0) */
    MMM_TIME_EXPOSED,         /**< latency_exposed, fraction (optional, 0) */
    MMM_TIME_ATOMIC,          /**< atomic_cycles, cycles (optional, 0) */
    MMM_TIME_NCONST
};

/** The time model's machine. */
typedef struct mmm_time_machine {
    /* hardware limits */
    double clock_hz;
    int64_t p, warp_size, sm_threads, sm_blocks, block_threads;
    int64_t sm_shared_bytes, block_shared_bytes, shared_reserved_bytes,
        shared_granule_bytes;
    int64_t sm_registers, register_granule, register_partitions;
    double word_bytes;
    double shared_wavefronts_per_cycle; /**< shared-memory wavefronts one
                                             SM serves per cycle */
    int64_t sector_bytes; /**< unit of a global-memory transaction */
    double gather_hit_bytes;  /**< bandwidth bytes of a gathered word that
                                   hits the L2 (default sector_bytes) */
    double gather_miss_bytes; /**< ... that misses it (default sector_bytes) */
    double scatter_hit_bytes;  /**< the same for a word written at a random
                                    address (default sector_bytes) */
    double scatter_miss_bytes; /**< ... that misses it (default sector_bytes) */
    double gather_l2_bytes;   /**< L2 capacity gathers find (default 0) */
    /* copies and sets (<copy>): bytes per second of each kind, and the
     * fixed time of one call on the device and over the host link; 0 for
     * d2d and set: derived from bandwidth_bytes_per_cycle
     * (mmm_time_copy_seconds) */
    double copy_d2d_bytes_per_s, copy_h2d_bytes_per_s, copy_d2h_bytes_per_s,
        set_bytes_per_s, copy_s, copy_host_s;
    /* fitted constants, indexed by MMM_TIME_* */
    double c[MMM_TIME_NCONST];
    /* the L2 (docs/time.md, "The L2"): the capacity arrays kept between
     * launches find (0: none modelled) and its bandwidth per SM cycle
     * (0: bandwidth_bytes_per_cycle) */
    double l2_bytes, l2_bytes_per_cycle;
    int graph; /**< 1: CUDA graph replay; 0: stream launches */
    /* DRAM's bandwidth of reads alone per SM cycle (0:
     * bandwidth_bytes_per_cycle): reads alone stream at it, writes alone
     * at set_bytes_per_s, and mixing them costs what a copy
     * (bandwidth_bytes_per_cycle, bytes read plus written) shows beyond
     * both (docs/time.md, section 3) */
    double read_bytes_per_cycle;
    /* the fixed time of one memset and of one device-to-host copy
     * (default copy_s and copy_host_s) */
    double set_s, copy_d2h_s;
    /* the share of the shorter of a launch's atomics on one word and the
     * rest of its time that the longer does not hide (0: the larger) */
    double atomic_exposed;
} mmm_time_machine;

/** Name, unit and meaning of fitted constant i (MMM_TIME_*). */
MMM_API const char *mmm_time_const_name(int i);
MMM_API const char *mmm_time_const_unit(int i);
MMM_API const char *mmm_time_const_meaning(int i);
/** Index of a fitted constant by name, or -1. */
MMM_API int mmm_time_const_find(const char *name);
/** Set mark[i] = value for each constant i named in list, a comma list of
 *  names (mmm_time_const_find; mark holds MMM_TIME_NCONST flags): 0, or
 *  -1 at a name that is none (mark untouched) or an empty list. */
MMM_API int mmm_time_const_mark(const char *list, int *mark, int value);
/** Physical bounds of constant i (0 < lower < upper). */
MMM_API void mmm_time_const_bounds(int i, double *lo, double *hi);
/** A typical value of constant i (where a fit starts when it has none). */
MMM_API double mmm_time_const_start(int i);
/** 1 when constant i may be absent from a machine (it is 0 then). */
MMM_API int mmm_time_const_optional(int i);

/** Which limit sets the resident blocks per SM. */
typedef enum mmm_time_limit {
    MMM_TIME_LIMIT_THREADS = 0,
    MMM_TIME_LIMIT_BLOCKS,
    MMM_TIME_LIMIT_SHARED,
    MMM_TIME_LIMIT_REGISTERS
} mmm_time_limit;

/** What bounds a kernel's time. */
typedef enum mmm_time_term {
    MMM_TIME_TERM_LATENCY = 0,
    MMM_TIME_TERM_ISSUE,
    MMM_TIME_TERM_BANDWIDTH,
    MMM_TIME_TERM_SHARED,
    MMM_TIME_TERM_LAUNCH,
    MMM_TIME_TERM_BLOCKS,
    MMM_TIME_TERM_ATOMICS,
    MMM_TIME_TERM_L1,
    MMM_TIME_TERM_COPY /**< a copy's or set's bytes (a <copy>) */
} mmm_time_term;
#define MMM_TIME_NTERMS 9

/**
 * Resident blocks per SM of a block of `threads` threads using
 * `block_shared` bytes of shared memory and `thread_registers` registers
 * per thread (0: not limited by registers).  Returns A >= 0 (0: cannot
 * run) and says which limit binds (may be NULL).  Pure integer
 * arithmetic.
 */
MMM_API int64_t mmm_time_occupancy(const mmm_time_machine *m, int64_t threads,
                                   int64_t block_shared,
                                   int64_t thread_registers,
                                   mmm_time_limit *limit);

/** Which launch limit of a machine a block exceeds (mmm_time_check_launches). */
typedef enum mmm_time_excess {
    MMM_TIME_FITS = 0,           /**< none */
    MMM_TIME_OVER_BLOCK_THREADS, /**< threads per block > block_threads */
    MMM_TIME_OVER_BLOCK_SHARED,  /**< shared memory per block > block_shared_bytes */
    MMM_TIME_OVER_SM_THREADS,    /**< no block resident on an SM: its threads
                                      (whole warps) > sm_threads */
    MMM_TIME_OVER_SM_SHARED,     /**< ... its shared memory (reserved part and
                                      granule included) > sm_shared_bytes */
    MMM_TIME_OVER_SM_REGISTERS   /**< ... its registers > sm_registers */
} mmm_time_excess;
#define MMM_TIME_NEXCESS 6

/** The machine parameter a block exceeds: "block_threads",
 *  "block_shared_bytes", "sm_threads", "sm_shared_bytes", "sm_registers"
 *  ("" for MMM_TIME_FITS). */
MMM_API const char *mmm_time_excess_name(mmm_time_excess e);

/** Where mmm_time_limits_get takes a limit the machine does not give. */
enum {
    MMM_TIME_LIMITS_GIVEN = 0,  /**< nowhere: it is unlimited */
    MMM_TIME_LIMITS_CURRENT = 1 /**< the largest of current GPUs: 1024 threads
                                     and 227 KiB of shared memory per block;
                                     2048 threads, 32 blocks, 228 KiB of
                                     shared memory (1 KiB reserved per block,
                                     in units of 128 bytes) and 65536
                                     registers (in units of 256, 4
                                     partitions) per SM */
};

/**
 * The launch limits of an evaluated instance's machine (the machine file's
 * parameters of docs/time.md, section 1, else the program's own of those
 * names): warp_size, sm_threads, sm_blocks, block_threads,
 * sm_shared_bytes, block_shared_bytes, shared_reserved_bytes,
 * shared_granule_bytes, sm_registers, register_granule,
 * register_partitions and word_bytes into *out (every other field 0).  A
 * limit the machine does not give is taken from `from`
 * (MMM_TIME_LIMITS_*); block_shared_bytes defaults to sm_shared_bytes when
 * only that is given, the granules and partitions to 1, warp_size to 32,
 * word_bytes to 4.  *given (may be NULL) gets how many of block_threads,
 * block_shared_bytes, sm_threads, sm_shared_bytes and sm_registers the
 * machine gives.  MMM_EINPUT for a value out of range.  Needs no fitted
 * constant: machine files of the MMM alone (U, Z, p) give no limit.
 */
MMM_API int mmm_time_limits_get(mmm_time_machine *out, const mmm_instance *inst,
                                int from, int *given, mmm_error *err);

/**
 * Check every launch of an evaluated instance (each launch of a repeat
 * whose launches differ) against m's limits, as the time model checks
 * them: threads per block, shared memory per block (its bytes when the
 * file gives them, else shared words per thread x threads x word_bytes),
 * and one block resident
 * on an SM at all (mmm_time_occupancy > 0: threads, shared memory and
 * registers per SM).  m NULL: the instance's machine's limits, and those
 * of current GPUs where it gives none (mmm_time_limits_get,
 * MMM_TIME_LIMITS_CURRENT).  A class without threads is not checked.
 * MMM_OK, or MMM_EINFEASIBLE with *which (may be NULL) and a message
 * naming the kernel, its line and the limit ("kernel 'step': 1026 threads
 * per block, more than block_threads = 1024"); MMM_EINPUT (a limit out of
 * range), MMM_ENOMEM.
 */
MMM_API int mmm_time_check_launches(const mmm_instance *inst,
                                    const mmm_time_machine *m,
                                    mmm_time_excess *which, mmm_error *err);
/** Seconds one call of a copy of `kind` moving `bytes` bytes takes on
 *  machine m, beyond the launch gaps: copy_s (copy_host_s over the host
 *  link) + bytes / the kind's bytes per second (docs/time.md, section 3).
 *  0 for MMM_COPY_NONE. */
MMM_API double mmm_time_copy_seconds(const mmm_time_machine *m,
                                     mmm_copy_kind kind, double bytes);

/** Read the machine from an evaluated instance's parameters.  A missing
 *  required one, or a negative/zero value where that is impossible, is
 *  MMM_EINPUT naming it.  When require_constants is 0 the fitted constants
 *  may be missing (they are then 0). */
MMM_API int mmm_time_machine_get(mmm_time_machine *out, const mmm_instance *inst,
                                 int require_constants, mmm_error *err);

/** One kernel (all its launches). */
typedef struct mmm_time_kernel {
    double seconds;      /**< all its launches, launch costs included */
    double exec_seconds; /**< execution alone (no launch cost) */
    int64_t launches;    /**< its repeat */
    int64_t waves;       /**< of its largest launch */
    int64_t resident;    /**< blocks per SM (smallest over launches) */
    mmm_time_limit limit;/**< what sets resident */
    mmm_time_term dominant;
    size_t first_launch; /**< its launches in mmm_time.each_launch: from */
    size_t nlisted;      /**< ... this many (0 unless its launches differ) */
    double work;         /**< operations of all its threads, all launches
                              (the W(B) of its blocks summed) */
    double dram_bytes;   /**< bytes its bandwidth term charges to DRAM, all
                              launches: the traffic of its accesses (with
                              the L2 modelled, what misses it and the
                              write-backs); 0 for a copy or a set */
    double l2_bytes;     /**< bytes through the L2, all launches (every
                              byte of the traffic; dram_bytes when no L2
                              is modelled for the kernel) */
} mmm_time_kernel;

/** One launch of a repeat whose launches differ (a kernel that uses its
 *  index: a reduction's passes, each with its own grid). */
typedef struct mmm_time_launch {
    int64_t index;        /**< 1 .. repeat */
    int64_t blocks;       /**< its blocks */
    double seconds;       /**< from the end of the launch before it in its
                               kernel's chain (for the first, from when its
                               predecessors end) to its own end: its
                               execution and what its launch adds */
    double exec_seconds;  /**< its execution alone */
    int64_t waves;
    int64_t resident;     /**< blocks per SM */
    mmm_time_limit limit; /**< what sets resident */
    mmm_time_term dominant;
} mmm_time_launch;

/** The most launches mmm_time lists one by one; past them each_cut is set
 *  and the kernels after have none listed. */
#define MMM_TIME_MAX_LISTED 1000000

typedef struct mmm_time {
    mmm_time_machine machine;
    double seconds;          /**< the program: longest path of kernels */
    int64_t launches;        /**< all launches of the program */
    mmm_time_term dominant;  /**< the term with the most seconds on the path */
    size_t nkernels;
    mmm_time_kernel *kernels; /**< by kernel index */
    size_t path_len;
    uint32_t *path;          /**< the longest path (kernel indices) */
    size_t neach;            /**< launches listed one by one */
    mmm_time_launch *each_launch; /**< the launches of every kernel whose
                                       launches differ, kernel by kernel
                                       (mmm_time_kernel.first_launch) */
    int each_cut;            /**< more than MMM_TIME_MAX_LISTED: some left out */
} mmm_time;

/**
 * Compute the time model of an evaluated instance with machine m (NULL:
 * mmm_time_machine_get(inst, 1)).  Fails with MMM_EINPUT (a class moving
 * data or working without threads, a block too large for the machine),
 * MMM_ENOMEM.  out is zeroed first; mmm_time_dispose releases it.
 */
MMM_API int mmm_time_compute(mmm_time *out, const mmm_instance *inst,
                             const mmm_time_machine *m, mmm_error *err);
MMM_API void mmm_time_dispose(mmm_time *t);

/** "latency", "issue", "bandwidth", "shared", "launch", "blocks",
 *  "atomics", "l1", "copy". */
MMM_API const char *mmm_time_term_name(mmm_time_term t);
/** "threads", "blocks", "shared", "registers". */
MMM_API const char *mmm_time_limit_name(mmm_time_limit l);

#ifdef __cplusplus
}
#endif
#endif
