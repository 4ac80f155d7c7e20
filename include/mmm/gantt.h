/**
 * mmm/gantt.h: Gantt charts of simulated schedules (`mmm simulate
 * --gantt`).  One lane per SM, blocks coloured by kernel with a legend (by
 * kind of task, mmm_kernel_type or the id without its number, when more
 * than 20 kernels are drawn), a
 * time axis, and the bounds drawn as vertical lines (lower bound, Graham's
 * bound, the MMM bound (N/p + L)C).  When the schedule has more rectangles
 * than max_rects (or more than 256 SMs, or its records were truncated) the
 * chart shows one bar per kernel instead: from its first block start to its
 * last block end, its height the mean number of SMs it kept busy.
 */
#ifndef MMM_GANTT_H
#define MMM_GANTT_H

#include <stddef.h>

#include "mmm/export.h"
#include "mmm/error.h"
#include "mmm/program.h"
#include "mmm/sim.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct mmm_gantt_options {
    unsigned int version; /**< MMM_GANTT_OPTIONS_VERSION (the INIT macro, mmm_gantt_options_init) */
    const char *title;   /**< NULL: "PROGRAM: POLICY, p = P" */
    double mmm_bound;    /**< drawn when >= 0 */
    size_t max_rects;    /**< 0: 5000 */
} mmm_gantt_options;

/** The defaults (a NULL options pointer means the same). */
#define MMM_GANTT_OPTIONS_VERSION 1
#define MMM_GANTT_OPTIONS_INIT {.version = MMM_GANTT_OPTIONS_VERSION, .title = NULL, .mmm_bound = -1.0, .max_rects = 0}
/** Set *opt to the defaults (MMM_GANTT_OPTIONS_INIT). */
MMM_API void mmm_gantt_options_init(mmm_gantt_options *opt);

/**
 * Draw the schedule r of prog into path: SVG when path ends in .svg
 * (written directly), PNG or PDF when it ends in .png or .pdf (through
 * PLplot's pngcairo or pdfcairo device; MMM_EINVAL when this build has no
 * PLplot, MMM_EIO when the device is not installed).  Atomic
 * (mmm__outfile).
 */
MMM_API int mmm_gantt_write(const char *path, const mmm_sim_result *r,
                            const mmm_program *prog, const mmm_gantt_options *opt,
                            mmm_error *err);

/** 1 when PNG output is available in this build. */
MMM_API int mmm_gantt_png_available(void);

/** 1 when PDF output is available in this build (PLplot's pdfcairo). */
MMM_API int mmm_gantt_pdf_available(void);

#ifdef __cplusplus
}
#endif
#endif
