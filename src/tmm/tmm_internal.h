/* tmm_internal.h (internal): the single formulas of the TMM and the balance principle.
 * Not part of the installed API; shared between library files and
 * reachable from the white-box tests. */
#ifndef MMM__TMM_INTERNAL_H
#define MMM__TMM_INTERNAL_H

#include "mmm/tmm.h"

/** Per launch, exposed for tests: the transactions of `count` blocks of
 *  `threads` threads moving r + w words each. */
double mmm__tmm_transactions(double count, double threads, double rw,
                             double C, mmm_access access);
/** Threads per core for a launch of `threads` threads whose mean shared
 *  words per thread is s; *limit (may be NULL) says which limit holds. */
double mmm__tmm_threads_per_core(const mmm_tmm_machine *m, double threads,
                                 double s, mmm_tmm_limit *limit);

/** Balance of (W, D, Q) on machine m, exposed for tests. */
void mmm__balance_eval(mmm_balance_cost *out, const mmm_balance_machine *m,
                       double W, double D, double Q);

/** Years until b0·2^(gb·t) reaches i0·2^(gi·t): log2(i0/b0)/(gb − gi);
 *  ±infinity when gb == gi (never / always). */
double mmm__balance_crossover(double b0, double gb, double i0, double gi);

#endif
