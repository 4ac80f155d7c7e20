/**
 * mmm.h: libmmm, the Many-core Machine Model analyzer.  Include this one
 * header; it pulls in the modules:
 *   mmm/version.h  MMM_VERSION_* and mmm_version()
 *   mmm/error.h    status codes and the error record
 *   mmm/expr.h     parametric expressions with exact rational values
 *   mmm/program.h  the program model, its builder, DAG and machine files
 *   mmm/eval.h     binding parameters, evaluated kernels
 *   mmm/metrics.h  W, S, O, N, L, C, K and the Graham–Brent bounds
 *   mmm/tmm.h      the TMM and the balance principle
 *   mmm/timemodel.h  the time model: predicted seconds on a real GPU
 *   mmm/fit.h      measured runs (CSV) and the fit of its constants
 *   mmm/optimize.h parameter sweeps and the overhead-minimizing choice
 *   mmm/sim.h      greedy schedules of the thread blocks on p SMs
 *   mmm/scale.h    speedup over p: bounds and schedules for each p
 *   mmm/plot.h, mmm/gantt.h, mmm/render.h, mmm/report.h
 *                  drawings (PLplot, Graphviz) and the HTML report: these
 *                  are in the second library, libmmm-draw (pkg-config
 *                  mmm-draw, CMake mmm::draw); the rest needs only libmmm
 *   mmm/tmm.h      the TMM and balance-principle models
 *   mmm/calibrate.h  microbenchmark samples into machine constants
 */
#ifndef MMM_H
#define MMM_H

#include "mmm/version.h"
#include "mmm/error.h"
#include "mmm/expr.h"
#include "mmm/program.h"
#include "mmm/eval.h"
#include "mmm/metrics.h"
#include "mmm/tmm.h"
#include "mmm/timemodel.h"
#include "mmm/fit.h"
#include "mmm/optimize.h"
#include "mmm/sim.h"
#include "mmm/scale.h"
#include "mmm/plot.h"
#include "mmm/gantt.h"
#include "mmm/render.h"
#include "mmm/report.h"
#include "mmm/calibrate.h"

#endif
