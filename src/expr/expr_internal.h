/* expr_internal.h: the limits that expr_parse.c and expr_eval.c share,
 * and white-box hooks into the compiled code, for tests only. */
#ifndef MMM_EXPR_INTERNAL_H
#define MMM_EXPR_INTERNAL_H

#include <stddef.h>

#include "mmm/expr.h"

/** Entries of the evaluation stack (on the C stack of mmm_expr_eval); an
 *  expression that needs more is refused at parse time with MMM_ELIMIT. */
#define MMM_EXPR_STACK 256
/** Hard cap on limits->max_depth: the parser recurses once per level. */
#define MMM_EXPR_MAX_DEPTH 256

/** Number of instructions of the compiled code (after constant folding). */
size_t mmm__expr_code_length(const mmm_expr *e);
/** Evaluation stack entries the expression needs (computed at parse). */
size_t mmm__expr_stack_need(const mmm_expr *e);

#endif
