/* optimize_internal.h (internal): the tie tolerance of the optimizer.
 * Not part of the installed API; shared between library files and
 * reachable from the white-box tests. */
#ifndef MMM__OPTIMIZE_INTERNAL_H
#define MMM__OPTIMIZE_INTERNAL_H

/** 1 when a and b are equal up to the relative tolerance used for ties. */
int mmm__cost_equal(double a, double b);

#endif
