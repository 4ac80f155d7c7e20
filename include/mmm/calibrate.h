/**
 * mmm/calibrate.h: machine constants measured by GPU microbenchmarks.
 *
 * A calibration has two halves.  A GPU module (cuda/calibrate.cu, built
 * only when a CUDA toolkit is found; the library never depends on CUDA)
 * runs the microbenchmarks and fills an mmm_calib_raw with raw samples:
 * device properties, and for each benchmark one number per repetition.
 * The library turns the samples into constants (mmm_calib_analyze: robust
 * medians and spreads, the barrier cost fitted against the warps of a
 * block, bandwidth in bytes per second and per SM cycle, the U of the MMM
 * in its latency- and bandwidth-bound regimes) and writes them as a
 * machine file (mmm_calib_machine_xml), which mmm_machine_load_file reads
 * back like every other machine file; mmm_calib_constants_from_machine
 * reads the calibrated constants out of a loaded machine.
 *
 * The methods are in docs/calibrate.md.
 */
#ifndef MMM_CALIBRATE_H
#define MMM_CALIBRATE_H

#include <stddef.h>
#include <stdint.h>

#include "mmm/error.h"
#include "mmm/export.h"
#include "mmm/program.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Samples kept per benchmark. */
#define MMM_CALIB_MAX_SAMPLES 64

/** Block sizes of the bandwidth and U benchmarks: 128, 256, 512, 1024. */
#define MMM_CALIB_NBLOCK 4
/** Block sizes of the barrier benchmark: 32, 64, ..., 1024. */
#define MMM_CALIB_NSYNC 6
/** Regions of the gather benchmark: one inside the L2, three between
 *  (1, 2 and 4 times the L2), one far beyond it. */
#define MMM_CALIB_NGATHER 5

/** Sizes of the copy and set benchmark (cudaMemcpyAsync,
 *  cudaMemsetAsync): a small one (the fixed cost of a call), one inside
 *  the L2 and a large one beyond it (the rate). */
#define MMM_CALIB_NTRANSFER 3
/** Its kinds, in the order of mmm_copy_kind after MMM_COPY_NONE: device
 *  to device, host to device, device to host, set. */
#define MMM_CALIB_NXFERKIND 4

/** Sizes of the L2 benchmark, in eighths of the L2 the device reports:
 *  2, 4, 6, 8, 12, 16 and 64 (a quarter of it to 8 times it). */
#define MMM_CALIB_NL2 7
/** Launches of atomics beside traffic: 16-byte words a thread reads. */
#define MMM_CALIB_NATOMSTREAM 4
MMM_API extern const int mmm_calib_atomic_stream_words[MMM_CALIB_NATOMSTREAM];
MMM_API extern const int mmm_calib_l2_eighths[MMM_CALIB_NL2];

/** The dependent operations timed (op_cycles). */
typedef enum mmm_calib_op {
    MMM_CALIB_OP_INT32_ADD = 0, /**< add.s32 */
    MMM_CALIB_OP_FP32_FMA,      /**< fma.rn.f32 */
    MMM_CALIB_OP_FP64_FMA,      /**< fma.rn.f64 */
    MMM_CALIB_OP_MULMOD64,      /**< a*b mod p through a double reciprocal,
                                     the reciprocal computed in each call */
    MMM_CALIB_OP_MULMOD64_REM,  /**< (uint64)a*b % p */
    MMM_CALIB_NOPS
} mmm_calib_op;

/** "int32_add", "fp32_fma", "fp64_fma", "mulmod64", "mulmod64_rem". */
MMM_API const char *mmm_calib_op_name(mmm_calib_op op);

/** The block sizes of the two tables above. */
MMM_API extern const int mmm_calib_block_sizes[MMM_CALIB_NBLOCK];
MMM_API extern const int mmm_calib_sync_sizes[MMM_CALIB_NSYNC];

/** One benchmark's repetitions. */
typedef struct mmm_calib_series {
    int n;                              /**< samples in v */
    double v[MMM_CALIB_MAX_SAMPLES];
} mmm_calib_series;

/** Device properties, as the CUDA runtime reports them. */
typedef struct mmm_calib_device {
    char name[256];
    int cc_major, cc_minor;           /**< compute capability */
    int sms;                          /**< multiprocessors */
    double clock_hz;                  /**< reported SM clock */
    double mem_clock_hz;              /**< reported memory clock */
    int bus_width_bits;
    int64_t l2_bytes;
    int64_t global_bytes;
    int64_t sm_shared_bytes;          /**< shared memory per SM */
    int64_t block_shared_bytes;       /**< per block without opt-in */
    int64_t block_shared_optin_bytes; /**< per block with opt-in */
    int64_t reserved_shared_bytes;    /**< reserved by the system per block */
    int sm_registers;                 /**< 32-bit registers per SM */
    int sm_threads;                   /**< resident threads per SM */
    int sm_blocks;                    /**< resident blocks per SM */
    int block_threads;                /**< threads per block at most */
    int warp_size;
    int shared_granule_bytes;         /**< allocation unit of shared memory */
    int register_granule;             /**< allocation unit of a warp's registers */
    int register_partitions;          /**< register-file sub-partitions per SM */
    int driver_version, runtime_version; /**< 1000*major + 10*minor */
} mmm_calib_device;

/** What the GPU module measures (see docs/calibrate.md for each method). */
typedef struct mmm_calib_raw {
    mmm_calib_device dev;
    int quick;                        /**< 1: the short run */
    /** SM clock: clock64() cycles over event seconds of a spin kernel. */
    mmm_calib_series clock_hz;
    /** Seconds per launch, each sample a chain of launch_chain dependent
     *  launches on the legacy default stream, on a stream of its own, and
     *  the chain captured once as a graph and replayed. */
    int launch_chain;
    mmm_calib_series launch_stream_s;
    mmm_calib_series launch_own_stream_s;
    mmm_calib_series launch_graph_s;
    /** Issue rate: event seconds of a kernel issuing
     *  issue_warp_instructions independent FMA warp-instructions over a
     *  full GPU. */
    double issue_warp_instructions;
    mmm_calib_series issue_s;
    /** Cycles per dependent load: pointer chase over chase_region_bytes
     *  (beyond the L2, flushed first), resp. over a region inside the L2
     *  after a warming pass; chase_steps loads per sample. */
    int64_t chase_region_bytes;
    int chase_steps;
    mmm_calib_series load_cycles;
    mmm_calib_series l2_load_cycles;
    /** Cycles per dependent shared-memory load. */
    mmm_calib_series shared_cycles;
    /** Cycles per dependent operation. */
    mmm_calib_series op_cycles[MMM_CALIB_NOPS];
    /** Cycles per __syncthreads, one block of mmm_calib_sync_sizes[i]. */
    mmm_calib_series sync_cycles[MMM_CALIB_NSYNC];
    /** Saturated bandwidth: seconds per copy of copy_bytes (bytes read
     *  plus bytes written), blocks of mmm_calib_block_sizes[i], a grid
     *  that fills the GPU. */
    int64_t copy_bytes;
    mmm_calib_series copy_s[MMM_CALIB_NBLOCK];
    /** The same bytes moved by cudaMemcpyAsync device to device, for
     *  comparison. */
    mmm_calib_series memcpy_s;
    /** U, latency-bound: one block alone; each sample the cycles of one
     *  round (each thread loads one word into shared memory, barrier). */
    int u_rounds;
    mmm_calib_series u_latency_cycles[MMM_CALIB_NBLOCK];
    /** U, bandwidth-bound: the same kernel over u_blocks[i] blocks, an
     *  integral number of waves of u_resident[i] blocks per SM; each sample
     *  the kernel's seconds. */
    int64_t u_blocks[MMM_CALIB_NBLOCK];
    int u_resident[MMM_CALIB_NBLOCK];
    mmm_calib_series u_bandwidth_s[MMM_CALIB_NBLOCK];
    /** Starting blocks: seconds per block of the whole GPU, each sample
     *  the difference of two launches of an empty kernel with blocks of
     *  block_threads threads, block_grid[1] and block_grid[0] blocks,
     *  over the difference of their block counts. */
    int block_threads;
    int64_t block_grid[2];
    mmm_calib_series block_s;
    /** Atomics on one word: seconds per atomic of the whole GPU, each
     *  sample the difference of two launches of atomic_grid[1] and
     *  atomic_grid[0] blocks in which one thread per block adds to the
     *  same float (atomicAdd), over the difference of their block counts. */
    int64_t atomic_grid[2];
    mmm_calib_series atomic_s;
    /** Atomics beside traffic: seconds of a launch of
     *  atomic_stream_blocks[i] blocks of 256 threads, each thread reading
     *  mmm_calib_atomic_stream_words[i] 16-byte words (coalesced, from
     *  DRAM), a barrier, then thread 0 adding to one float
     *  (atomic_stream_s), and the same launch without the atomic
     *  (plain_stream_s).  Empty series: not measured. */
    int64_t atomic_stream_blocks[MMM_CALIB_NATOMSTREAM];
    mmm_calib_series atomic_stream_s[MMM_CALIB_NATOMSTREAM];
    mmm_calib_series plain_stream_s[MMM_CALIB_NATOMSTREAM];
    /** Gathered words: seconds per word of the whole GPU, each sample a
     *  launch reading gather_words words (8 per thread) at random
     *  addresses over gather_region_bytes[i] bytes, over gather_words.
     *  The regions grow: the first inside the L2, the last far beyond. */
    int64_t gather_words;
    int64_t gather_region_bytes[MMM_CALIB_NGATHER];
    mmm_calib_series gather_s[MMM_CALIB_NGATHER];
    /** The same words written (stored at random over each region):
     *  seconds per word of the whole GPU. */
    mmm_calib_series scatter_s[MMM_CALIB_NGATHER];
    /** Copies and sets: seconds per call of kind k (mmm_copy_kind k + 1)
     *  moving transfer_bytes[j] bytes, each sample a CUDA graph of
     *  transfer_chain dependent calls replayed, over transfer_chain.  Host
     *  buffers are pinned (cudaMallocHost).  The sizes grow. */
    int transfer_chain;
    int64_t transfer_bytes[MMM_CALIB_NTRANSFER];
    mmm_calib_series transfer_s[MMM_CALIB_NXFERKIND][MMM_CALIB_NTRANSFER];
    /** The L2: seconds per pass of a launch reading an array of
     *  l2_array_bytes[i] bytes several times over (16-byte loads, every
     *  SM full), right after a launch that read it once: what the L2 kept
     *  of each pass serves the next. */
    int64_t l2_array_bytes[MMM_CALIB_NL2];
    mmm_calib_series l2_read_s[MMM_CALIB_NL2];
} mmm_calib_raw;

/** A robust summary of one series. */
typedef struct mmm_calib_stat {
    int n;            /**< samples */
    double median;    /**< median of all samples */
    double q1, q3;    /**< quartiles (linear interpolation, as R type 7) */
    double min, max;
    double mad;       /**< median absolute deviation from the median */
    int outliers;     /**< samples beyond Tukey's fences q1-1.5IQR, q3+1.5IQR */
} mmm_calib_stat;

/** Summarize n samples (n >= 1); v is not modified. */
MMM_API void mmm_calib_stat_of(mmm_calib_stat *out, const double *v, size_t n);

/** Theil-Sen line y = a + b x through n >= 2 points (b the median of the
 *  pairwise slopes over pairs with distinct x, a the median of y - b x).
 *  Returns 0, or -1 when no two x differ. */
MMM_API int mmm_calib_theil_sen(double *a, double *b, const double *x,
                        const double *y, size_t n);

/** The constants. */
typedef struct mmm_calib {
    mmm_calib_device dev;
    int quick;
    mmm_calib_stat clock_hz;          /**< measured SM clock */
    mmm_calib_stat launch_stream_s;   /**< seconds per launch */
    mmm_calib_stat launch_own_stream_s;
    mmm_calib_stat launch_graph_s;
    mmm_calib_stat issue_per_cycle;   /**< warp-instructions per SM cycle */
    mmm_calib_stat load_cycles;       /**< dependent global load beyond L2 */
    int64_t chase_region_bytes;       /**< of that pointer chase */
    int chase_steps;
    mmm_calib_stat l2_load_cycles;    /**< dependent global load, L2 hit */
    mmm_calib_stat shared_cycles;     /**< dependent shared load */
    mmm_calib_stat op_cycles[MMM_CALIB_NOPS];
    mmm_calib_stat sync_cycles[MMM_CALIB_NSYNC];
    double sync_base_cycles;          /**< barrier cost = base + per_warp*warps */
    double sync_per_warp_cycles;
    mmm_calib_stat bandwidth[MMM_CALIB_NBLOCK]; /**< bytes per second */
    double bandwidth_bytes_per_s;     /**< the largest median of bandwidth[] */
    mmm_calib_stat memcpy_bandwidth;  /**< bytes per second, cudaMemcpy */
    int bandwidth_block;              /**< the block size that gave it */
    double bandwidth_bytes_per_cycle_per_sm;
    mmm_calib_stat u_latency[MMM_CALIB_NBLOCK];   /**< cycles/word/thread */
    mmm_calib_stat u_bandwidth[MMM_CALIB_NBLOCK]; /**< cycles/word/thread */
    int u_resident[MMM_CALIB_NBLOCK]; /**< blocks per SM of the U kernel */
    /** Little's law: words that must be in flight per SM to reach the
     *  bandwidth at the measured latency: load_cycles x
     *  bandwidth_bytes_per_cycle_per_sm / 4. */
    double saturation_words_per_sm;
    /** Cycles one SM takes to start one block (empty blocks of
     *  block_threads threads; whole GPU seconds x clock x p). */
    mmm_calib_stat block_cycles;
    int block_threads;
    /** Cycles between two atomic operations on one global word (a float
     *  atomicAdd; whole GPU seconds per atomic x clock). */
    mmm_calib_stat atomic_cycles;
    /** The share of the shorter of a launch's atomics on one word (A,
     *  blocks x seconds per atomic) and the rest of its time (M, the
     *  launch without them) that the longer does not hide, by launch:
     *  (T - max(A, M)) / min(A, M) clamped to [0, 1]; atomic_exposed
     *  their median (0: not measured). */
    double atomic_exposed_by_launch[MMM_CALIB_NATOMSTREAM];
    double atomic_exposed;
    /** Bytes of copy bandwidth one gathered word costs over each region:
     *  seconds per word x bandwidth_bytes_per_s. */
    mmm_calib_stat gather_word_bytes[MMM_CALIB_NGATHER];
    int64_t gather_region_bytes[MMM_CALIB_NGATHER];
    /** The time model's gather_hit_bytes and gather_miss_bytes: the
     *  medians of the first and the last region; gather_l2_bytes: the
     *  median over the regions between of h x region, h = (miss - cost) /
     *  (miss - hit) clamped to [0, 1] (the share found in the L2 is
     *  min(1, gather_l2_bytes / region)); the last region's size when the
     *  miss costs no more than the hit. */
    double gather_hit_bytes, gather_miss_bytes, gather_l2_bytes;
    /** Bytes of copy bandwidth one word stored at a random address costs
     *  over each region; the first region's median is the time model's
     *  scatter_hit_bytes, the last one's scatter_miss_bytes. */
    mmm_calib_stat scatter_word_bytes[MMM_CALIB_NGATHER];
    double scatter_hit_bytes, scatter_miss_bytes;
    /** The time model's latency_exposed, derived from the U kernel: for
     *  each block size (u_bandwidth - max(u_latency, t)) / min(u_latency,
     *  t), t = u_resident x threads x 4 / bandwidth_bytes_per_cycle_per_sm,
     *  clamped to [0, 1]; the median over the block sizes. */
    double latency_exposed;
    /** Copies and sets, by kind (as transfer_s): seconds per call of each
     *  size; the rate, from the smallest and the largest size, (b_large -
     *  b_small) / (t_large - t_small) bytes per second; and the fixed time
     *  of a call, t_small - b_small / rate - launch_graph_s (the gap a
     *  replayed graph puts between dependent nodes), at least 0. */
    mmm_calib_stat transfer_s[MMM_CALIB_NXFERKIND][MMM_CALIB_NTRANSFER];
    int64_t transfer_bytes[MMM_CALIB_NTRANSFER];
    double transfer_bytes_per_s[MMM_CALIB_NXFERKIND];
    double transfer_fixed_s[MMM_CALIB_NXFERKIND];
    /** The L2: bytes per second of each re-read (size / seconds); its
     *  bandwidth, the smallest array's; and the capacity arrays kept
     *  between launches find, as the time model has it (a re-read of S
     *  bytes moves S - C from DRAM when S > C): the median over the sizes
     *  below twice the L2 read at less than 0.9 of the L2's bandwidth
     *  of S - t x read_bytes_per_s / 2 (a pass over C < S < 2C bytes
     *  finds 2C - S of them; bandwidth_bytes_per_s when read_bytes_per_s
     *  is 0), clamped to [S/2, S] (the size the device
     *  reports when none is). */
    mmm_calib_stat l2_read_bytes_per_s[MMM_CALIB_NL2];
    int64_t l2_array_bytes[MMM_CALIB_NL2];
    double l2_bytes_per_s, l2_capacity_bytes;
    /** DRAM's bandwidth of reads alone: the re-read of the largest array
     *  (eight times the L2, so that it comes from DRAM); 0 when that array
     *  is not at least twice the L2, or its rate is not above half the
     *  copy bandwidth (a copy reads and writes each byte). */
    double read_bytes_per_s;
} mmm_calib;

/** Raw samples to constants.  The clock used to turn seconds into cycles
 *  is the measured one.  MMM_EINPUT (naming the series) when a series is
 *  empty or holds a value that is not finite and positive, or when the
 *  device properties are not positive. */
MMM_API int mmm_calib_analyze(mmm_calib *out, const mmm_calib_raw *raw,
                      mmm_error *err);

/** The machine file of a calibration (XML, every value commented with its
 *  unit, method and spread).  *out is malloc'ed and NUL-terminated. */
MMM_API int mmm_calib_machine_xml(char **out, size_t *len, const mmm_calib *c,
                          mmm_error *err);

/** Write the machine file to path atomically (a temporary beside it,
 *  renamed into place; nothing is left behind on failure).  MMM_EIO. */
MMM_API int mmm_calib_write_machine(const char *path, const mmm_calib *c,
                            mmm_error *err);

/** The calibrated constants of a machine file, by name. */
typedef struct mmm_calib_constants {
    double p, clock_hz, sm_threads, sm_blocks, sm_shared_bytes,
        block_shared_bytes, sm_registers, warp_size, word_bytes;
    double launch_s, launch_graph_s, issue_per_cycle;
    double block_threads, shared_reserved_bytes, shared_granule_bytes,
        register_granule, register_partitions;
    double mem_latency_cycles, l2_latency_cycles, shared_latency_cycles;
    double bandwidth_bytes_per_cycle;      /**< whole GPU */
    double op_cycles;                      /**< fp32 FMA */
    double op_cycles_of[MMM_CALIB_NOPS];
    double sync_cycles, sync_cycles_per_warp;
    double U, L;
    double U_latency[MMM_CALIB_NBLOCK], U_bandwidth[MMM_CALIB_NBLOCK];
    double block_cycles; /**< 0 in files written before it was measured */
    double latency_exposed; /**< likewise */
    double atomic_cycles;   /**< likewise */
    double atomic_exposed;  /**< likewise */
    double gather_hit_bytes, gather_miss_bytes, gather_l2_bytes; /**< likewise */
    double scatter_hit_bytes, scatter_miss_bytes; /**< likewise */
    /** Copies and sets (0 in files written before they were measured):
     *  bytes per second of each kind, fixed time of a call on the device
     *  (d2d, set) and over the host link (h2d, d2h). */
    double copy_d2d_bytes_per_s, copy_h2d_bytes_per_s, copy_d2h_bytes_per_s,
        set_bytes_per_s, copy_s, copy_host_s;
    /** The fixed time of a memset and of a device-to-host copy (0 in files
     *  written before each kind had its own). */
    double set_s, copy_d2h_s;
    /** The L2 (0 in files written before it was measured: l2_bytes is
     *  then the size the device reports): capacity and bandwidth. */
    double l2_bytes, l2_bytes_per_cycle;
    /** DRAM's bandwidth of reads alone (0 in files written before it was
     *  measured). */
    double read_bytes_per_cycle;
} mmm_calib_constants;

/** Read the constants above from a loaded machine.  MMM_EINPUT naming the
 *  first missing parameter. */
MMM_API int mmm_calib_constants_from_machine(mmm_calib_constants *out,
                                     const mmm_machine *m, mmm_error *err);

#ifdef __cplusplus
}
#endif
#endif
