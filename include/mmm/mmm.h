/**
 * mmm.h: libmmm, the Many-core Machine Model analyzer.  Include this one
 * header; it pulls in the modules:
 *   mmm/version.h  MMM_VERSION_* and mmm_version()
 *   mmm/error.h    status codes and the error record
 *   mmm/expr.h     parametric expressions with exact rational values
 *   mmm/program.h  the program model, its builder, DAG and machine files
 *   mmm/attr.h     the block attributes beyond the MMM's (the time
 *                  model's), one table
 *   mmm/import.h   task graphs of other tools (STG, WfCommons, DAX, DOT)
 *   mmm/eval.h     binding parameters, evaluated kernels
 *   mmm/metrics.h  W, S, O, N, L, C, K and the Graham–Brent bounds
 *   mmm/tmm.h      the TMM and the balance principle
 *   mmm/timemodel.h  the time model: predicted seconds on a real GPU
 *   mmm/fit.h      measured runs (CSV) and the fit of its constants
 *   mmm/optimize.h parameter sweeps and the overhead-minimizing choice
 *   mmm/sim.h      greedy schedules of the thread blocks on p SMs
 *   mmm/scale.h    speedup over p: bounds and schedules for each p
 *   mmm/plot.h, mmm/gantt.h, mmm/render.h, mmm/report.h,
 *   mmm/sweep_plot.h, mmm/import_dot.h
 *                  drawings (PLplot, Graphviz), the HTML report and the DOT
 *                  readers: these are in the second library, libmmm-draw
 *                  (pkg-config mmm-draw, CMake mmm::draw); the rest needs
 *                  only libmmm
 *   mmm/calibrate.h  microbenchmark samples into machine constants
 *   mmm/profile.h  DAG files measured by Nsight Compute (mmm profile)
 *
 * Thread safety
 *
 * The core library (libmmm) keeps no global mutable state: no caches, no
 * mutable statics, and it never changes the umask or the locale (the
 * expression parser reads the locale's decimal point).  So:
 *
 *   - A loaded (finalized) mmm_program is never written again: any number
 *     of threads may read it at once, each making its own mmm_instance
 *     from it (mmm_instance_new, mmm_instance_eval).
 *   - An evaluated mmm_instance may be read by any number of threads at
 *     once: every function that takes a const mmm_instance * only reads
 *     it (mmm_instance_eval_copy evaluates a launch in a private copy of
 *     the values, and through it the TMM and balance models, the time
 *     model, the simulator, mmm/scale.h and the drawings).  The functions
 *     that change it (mmm_instance_eval, mmm_instance_set_p, the sweeps)
 *     need it to themselves: no other thread may use it meanwhile.
 *   - Loads (program, machine and run files, task graphs) may run in
 *     several threads at once; libxml2 keeps its error handlers per thread.
 *     With libxml2 2.9, call xmlInitParser() once from the main thread
 *     before the first concurrent load.
 *   - Results, options and mmm_error records are the caller's: share them
 *     as any plain data.
 *
 * The drawing library (libmmm-draw: mmm/plot.h, gantt.h, render.h,
 * report.h, sweep_plot.h, import_dot.h) is not thread-safe: Graphviz and
 * PLplot keep process-wide state.  Call its functions from one thread at a
 * time in the whole process.
 */
#ifndef MMM_H
#define MMM_H

#include "mmm/version.h"
#include "mmm/error.h"
#include "mmm/expr.h"
#include "mmm/attr.h"
#include "mmm/program.h"
#include "mmm/import.h"
#include "mmm/eval.h"
#include "mmm/metrics.h"
#include "mmm/tmm.h"
#include "mmm/timemodel.h"
#include "mmm/roofline.h"
#include "mmm/fit.h"
#include "mmm/optimize.h"
#include "mmm/sim.h"
#include "mmm/scale.h"
#include "mmm/plot.h"
#include "mmm/gantt.h"
#include "mmm/render.h"
#include "mmm/report.h"
#include "mmm/sweep_plot.h"
#include "mmm/import_dot.h"
#include "mmm/calibrate.h"
#include "mmm/output.h"
#include "mmm/profile.h"

#endif
