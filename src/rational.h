/* rational.h: exact rational values and their arithmetic (src/rational.c),
 * for the expression evaluator (expr_eval.c) and parser (expr_parse.c).
 * Internal.
 *
 * Values are exact rationals (int64 num/den, reduced, den > 0) until a step
 * is not exact or its exact result does not fit in 64 bits; the step then
 * falls back to double and the value says so (exact = 0).  The operations
 * return F_OK or the fault_kind that says why the step failed; they store
 * their result only on F_OK. */
#ifndef MMM_RATIONAL_H
#define MMM_RATIONAL_H

#include <stdint.h>

#include "mmm/expr.h"

#define TWO63 9223372036854775808.0 /* 2^63 */
#define TWO53 9007199254740992.0    /* 2^53 */

/* Why an evaluation step failed (0 = it did not). */
enum fault_kind {
    F_OK = 0,
    F_DIV0,
    F_LOG2,
    F_SQRT,
    F_ZEROPOW,
    F_NEGPOW,
    F_NONFINITE,
    F_BADVAR
};

static inline mmm_value v_int(int64_t n)
{
    mmm_value v;
    v.exact = 1;
    v.num = n;
    v.den = 1;
    v.d = (double)n;
    return v;
}

static inline mmm_value v_inexact(double d)
{
    mmm_value v;
    v.exact = 0;
    v.num = 0;
    v.den = 1;
    v.d = d;
    return v;
}

static inline int v_truthy(const mmm_value *v)
{
    return v->exact ? v->num != 0 : v->d != 0.0;
}

/* The value (neg ? -1 : 1) * un / ud for any un/ud (ud != 0), reduced:
 * exact when it fits in int64, else inexact. */
mmm_value mmm__v_parts(int neg, uint64_t un, uint64_t ud);
/* base^e in uint64; 0 on overflow (1 otherwise). */
int mmm__u_pow(uint64_t *out, uint64_t base, uint64_t e);
/* *r = a + b (sub: a - b), a * b, a / b, a ^ b, ceil (up) or floor of a,
 * sqrt a, log2 a, -a. */
int mmm__v_addsub(mmm_value *r, mmm_value a, mmm_value b, int sub);
int mmm__v_mul(mmm_value *r, mmm_value a, mmm_value b);
int mmm__v_div(mmm_value *r, mmm_value a, mmm_value b);
int mmm__v_pow(mmm_value *r, mmm_value a, mmm_value b);
int mmm__v_round(mmm_value *r, mmm_value a, int up);
int mmm__v_sqrt(mmm_value *r, mmm_value a);
int mmm__v_log2(mmm_value *r, mmm_value a);
int mmm__v_neg(mmm_value *r, mmm_value a);
/* -1, 0, 1: exact when both are exact; mixed or inexact operands compare
 * as doubles. */
int mmm__v_cmp(const mmm_value *a, const mmm_value *b);

#endif
