/* analysis/block_level.h: the block DAG's T1 (the sum of S(B) + O(B) over
 * every block) and T_inf (its heaviest launch path, a launch weighing its
 * costliest block).  Internal to the library (src/analysis/metrics.c). */
#ifndef MMM_ANALYSIS_BLOCK_LEVEL_H
#define MMM_ANALYSIS_BLOCK_LEVEL_H

#include "mmm/eval.h"

/* T1 and T_inf of an evaluated instance (its class values, or each
 * kernel's first launch evaluated again when the instance keeps none, and
 * every launch of a kernel whose launches differ).  0, MMM_ENOMEM, or an
 * evaluation's error. */
int mmm__block_level(const mmm_instance *inst, double *T1, double *Tinf, mmm_error *err);

#endif
