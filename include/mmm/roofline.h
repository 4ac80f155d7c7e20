/**
 * mmm/roofline.h: the roofline of a program's kernels under the time
 * model (Williams, Waterman, Patterson, "Roofline: an insightful visual
 * performance model for multicore architectures", CACM 2009; the L2 roof
 * as in Yang, Kurth, Williams, "Hierarchical Roofline analysis for GPUs",
 * 2020).
 *
 * Every number comes from the time model's own per-kernel figures
 * (mmm_time_compute, mmm/timemodel.h) and its machine:
 *
 *   work        operations of all threads of all launches (Σ W(B))
 *   dram_bytes  the bytes its bandwidth term charges to DRAM
 *   l2_bytes    the bytes through the L2 (dram_bytes when no L2 is
 *               modelled for the kernel)
 *   intensity   work / dram_bytes (operations per byte)
 *   throughput  work / exec_seconds (operations per second: the attained
 *               rate the model predicts, launch costs left out)
 *
 * and the roofs of the machine:
 *
 *   compute     issue_per_cycle · warp_size · p · clock_hz operations/s
 *               (every SM issuing a warp-instruction of warp_size
 *               operations at its peak rate)
 *   DRAM        bandwidth_bytes_per_cycle · clock_hz bytes/s
 *   L2          l2_bytes_per_cycle · clock_hz bytes/s (when the machine
 *               gives l2_bytes_per_cycle)
 *
 * A kernel's roof is the least of the compute roof, intensity · DRAM and
 * (with an L2 roof) l2_intensity · L2; the roof that sets it is its bound.
 * The dominant term is the time model's (mmm_time_kernel.dominant): what
 * the model says limits it, which may be none of the roofs (latency,
 * launches, shared memory, atomics).
 *
 *   mmm_time t;  mmm_roofline r;
 *   mmm_models_time(&t, inst, MMM_LAUNCH_DEFAULT, &err);
 *   mmm_roofline_compute(&r, &t, inst, &err);
 *   ... r.kernels[i].intensity, r.kernels[i].throughput ...
 *   mmm_roofline_dispose(&r);  mmm_time_dispose(&t);
 */
#ifndef MMM_ROOFLINE_H
#define MMM_ROOFLINE_H

#include <stddef.h>
#include <stdint.h>

#include "mmm/export.h"
#include "mmm/error.h"
#include "mmm/eval.h"
#include "mmm/timemodel.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The roof under which a kernel sits at its intensity. */
typedef enum mmm_roofline_bound {
    MMM_ROOFLINE_COMPUTE = 0,
    MMM_ROOFLINE_DRAM = 1,
    MMM_ROOFLINE_L2 = 2
} mmm_roofline_bound;

/** One kernel with operations (copies, sets and kernels without work or
 *  time are left out: mmm_roofline.nskipped). */
typedef struct mmm_roofline_kernel {
    size_t kernel;          /**< index in the program */
    int64_t launches;       /**< its repeat */
    double work;            /**< operations, all launches */
    double dram_bytes;      /**< bytes, all launches */
    double l2_bytes;
    double exec_seconds;    /**< predicted execution, all launches */
    double intensity;       /**< work / dram_bytes; INFINITY without bytes */
    double l2_intensity;    /**< work / l2_bytes; INFINITY without bytes */
    double throughput;      /**< work / exec_seconds, operations/s */
    double roof;            /**< operations/s the roofs allow at its
                                 intensities */
    double fraction;        /**< throughput / roof */
    mmm_roofline_bound bound;
    mmm_time_term dominant; /**< the time model's dominant term */
} mmm_roofline_kernel;

typedef struct mmm_roofline {
    double peak_ops_per_s;   /**< the compute roof */
    double dram_bytes_per_s; /**< the DRAM roof's slope */
    double l2_bytes_per_s;   /**< the L2 roof's slope; 0: no L2 roof */
    double ridge;            /**< peak / DRAM bandwidth: the intensity
                                  where the DRAM roof meets the compute roof */
    double l2_ridge;         /**< the same for the L2 (0 without one) */
    size_t nkernels;
    mmm_roofline_kernel *kernels; /**< in the program's kernel order */
    size_t nskipped;         /**< kernels left out */
} mmm_roofline;

/**
 * The roofline of t, the time model computed on inst (mmm_time_compute
 * or mmm_models_time; same instance).  MMM_EINPUT (at the program's file)
 * when the machine gives no positive issue_per_cycle,
 * bandwidth_bytes_per_cycle or clock_hz; MMM_ENOMEM.  out is zeroed
 * first; mmm_roofline_dispose releases it.
 */
MMM_API int mmm_roofline_compute(mmm_roofline *out, const mmm_time *t,
                                 const mmm_instance *inst, mmm_error *err);
MMM_API void mmm_roofline_dispose(mmm_roofline *r);
/** "compute", "dram" or "l2". */
MMM_API const char *mmm_roofline_bound_name(mmm_roofline_bound b);

/**
 * Draw the roofline (the drawing module, PLplot) into path (.svg, .png or
 * .pdf, any case), atomically: log-log axes of intensity and operations
 * per second, the compute roof, the DRAM roof and the L2 roof (when the
 * machine has one), each labelled with its rate; each kernel a point at
 * its DRAM intensity and throughput, labelled with its id (the legend
 * gives its dominant term and the fraction of its roof; the first 20
 * kernels only, the subtitle says when more were left out).  title
 * (may be NULL) heads the figure.  MMM_EINVAL (a format, no kernel, a
 * build without PLplot), MMM_EIO.
 */
MMM_API int mmm_roofline_plot_write(const mmm_roofline *r, const mmm_program *prog,
                                    const char *title, const char *path,
                                    mmm_error *err);
/**
 * The same figure as an SVG document in memory (*out malloc'ed,
 * NUL-terminated, *len bytes): what `mmm report` embeds.  Same errors,
 * and MMM_ENOMEM.
 */
MMM_API int mmm_roofline_plot_svg(const mmm_roofline *r, const mmm_program *prog,
                                  const char *title, char **out, size_t *len,
                                  mmm_error *err);

#ifdef __cplusplus
}
#endif
#endif
