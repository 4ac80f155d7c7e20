/**
 * mmm/expr.h: parametric expressions.
 *
 * Grammar (whitespace is free):
 *   expr    := or
 *   or      := and ( "||" and )*
 *   and     := cmp ( "&&" cmp )*
 *   cmp     := sum ( ("<"|"<="|">"|">="|"=="|"!=") sum )?
 *   sum     := product ( ("+"|"-") product )*
 *   product := unary ( ("*"|"/") unary )*
 *   unary   := ("-"|"!") unary | power
 *   power   := atom ( "^" unary )?          right associative: 2^3^2 = 2^9
 *   atom    := NUMBER | NAME | NAME "(" expr ("," expr)* ")" | "(" expr ")"
 *   NUMBER  := decimal digits with optional fraction and exponent (1, 2.5,
 *              1e6); no hex, no inf/nan.
 *   functions: ceil floor log2 sqrt (one argument), min max (two or more).
 * Comparisons and booleans give 1 or 0; they are meant for constraints.
 *
 * Values are exact rationals (64-bit numerator and denominator) as long as
 * every step is exact: + - * / of rationals, ^ with an integer exponent,
 * ceil, floor, min, max, comparisons, log2 of an exact power of two and sqrt
 * of a perfect square stay exact.  Anything else (or a step whose exact
 * result would overflow 64 bits) falls back to double, and the value says
 * so.  Counts (blocks, repeat, threads) use mmm_value_to_count, which demands
 * an exact integer.
 *
 * Evaluation errors (MMM_EDOMAIN): division by zero, log2 of x <= 0, sqrt of
 * x < 0, 0^negative, a non-finite result.  The error message names the
 * operation; the caller adds file and line.
 */
#ifndef MMM_EXPR_H
#define MMM_EXPR_H

#include <stddef.h>
#include <stdint.h>

#include "mmm/export.h"
#include "mmm/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/** A number: exact rational when exact != 0, else the double d. */
typedef struct mmm_value {
    int exact;    /**< 1: num/den is the value, den > 0, gcd(num,den) = 1 */
    int64_t num;  /**< numerator (when exact) */
    int64_t den;  /**< denominator (when exact) */
    double d;     /**< the value as a double, always set */
} mmm_value;

/** Exact integer value. */
MMM_API mmm_value mmm_value_int(int64_t v);
/** Value from a double; exact when the double is an integer of magnitude
 *  below 2^63, else inexact. */
MMM_API mmm_value mmm_value_double(double d);
/** Exact rational num/den (den != 0; reduced, sign on the numerator). */
MMM_API mmm_value mmm_value_ratio(int64_t num, int64_t den);
/** 1 when v is an exact integer. */
MMM_API int mmm_value_is_int(mmm_value v);

/**
 * Convert to a count: v must be an exact non-negative integer (an inexact
 * double that is integral and below 2^53 is accepted too).
 * Returns 0, MMM_EINFEASIBLE (negative or not an integer: the message says
 * which and suggests ceil()) or MMM_EOVERFLOW.  what names the quantity in
 * the message ("blocks", "repeat"...).  err gets no file/line.
 */
MMM_API int mmm_value_to_count(int64_t *out, mmm_value v, const char *what,
                               mmm_error *err);

/** Print a value: integers as integers, exact fractions as "p/q" when
 *  as_fraction, else "%.17g"-style shortest round-trip double. */
MMM_API char *mmm_value_format(mmm_value v, int as_fraction, char *buf, size_t size);

/** A compiled, immutable expression. */
typedef struct mmm_expr mmm_expr;

/**
 * Name resolution callback: return the variable slot (>= 0) for name[0..len)
 * or -1 when the name is unknown (the parse then fails naming it).
 */
typedef int (*mmm_resolve_fn)(const char *name, size_t len, void *payload);

/** Limits applied while parsing one expression. */
typedef struct mmm_expr_limits {
    size_t max_length; /**< characters; 0 = no limit */
    size_t max_depth;  /**< nesting of parentheses/unary/power; 0 = 256 */
} mmm_expr_limits;

/**
 * Compile text.  On error returns MMM_EPARSE (syntax: the message quotes the
 * position, e.g. "expected ')' at column 7 in 'ceil((n'"), MMM_EINPUT
 * (unknown parameter 'x' / unknown function 'f' / wrong number of
 * arguments), MMM_ELIMIT (too long / too deep) or MMM_ENOMEM.
 * *out is owned by the caller: mmm_expr_free.
 */
MMM_API int mmm_expr_parse(mmm_expr **out, const char *text, mmm_resolve_fn resolve,
                           void *payload, const mmm_expr_limits *limits,
                           mmm_error *err);

MMM_API void mmm_expr_free(mmm_expr *e);

/**
 * Evaluate with vars[slot] the value of each variable slot.  The expression
 * must only use slots < nvars (checked: MMM_EINVAL otherwise).
 * Returns 0 or MMM_EDOMAIN / MMM_ENOMEM with a message.  Thread-safe: the
 * expression is not modified.
 */
MMM_API int mmm_expr_eval(const mmm_expr *e, const mmm_value *vars, size_t nvars,
                          mmm_value *out, mmm_error *err);

/** 1 when the expression reads variable slot (0 otherwise). */
MMM_API int mmm_expr_uses(const mmm_expr *e, int slot);
/** Largest slot used, or -1 when the expression uses no variable. */
MMM_API int mmm_expr_max_slot(const mmm_expr *e);
/** 1 when it uses no variables (its value never changes). */
MMM_API int mmm_expr_is_constant(const mmm_expr *e);

#ifdef __cplusplus
}
#endif
#endif
