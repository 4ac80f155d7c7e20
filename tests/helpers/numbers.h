/* helpers/numbers.h: small arithmetic the tests' independent calculations
 * share. */
#ifndef MMM_TEST_NUMBERS_H
#define MMM_TEST_NUMBERS_H

#include <math.h>
#include <stdint.h>

/* |a - b| within tol of the larger magnitude (or both zero). */
static inline int close_rel(double a, double b, double tol)
{
    double scale = fmax(fabs(a), fabs(b));
    return fabs(a - b) <= tol * scale || scale == 0.0;
}

/* ceil(a / b) for a >= 0, b > 0. */
static inline int64_t cdiv(int64_t a, int64_t b)
{
    return (a + b - 1) / b;
}

/* floor(log2(x)) for x >= 1 (0 for x <= 1). */
static inline int64_t ilog2(int64_t x)
{
    int64_t k = 0;
    while (x > 1) {
        x >>= 1;
        k++;
    }
    return k;
}

#endif
