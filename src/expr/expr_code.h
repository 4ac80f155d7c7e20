/* expr_code.h: the compiled form of an expression, flat postfix code and a
 * constant pool: written by the parser (expr_parse.c), run by the evaluator
 * (expr_eval.c).  Internal. */
#ifndef MMM_EXPR_CODE_H
#define MMM_EXPR_CODE_H

#include <stddef.h>
#include <stdint.h>

#include "expr/expr_internal.h"
#include "expr/rational.h"

enum mmm__expr_op {
    OP_CONST, /* push consts[arg] */
    OP_VAR,   /* push vars[arg] */
    OP_NEG,
    OP_NOT,
    OP_CEIL,
    OP_FLOOR,
    OP_LOG2,
    OP_SQRT,
    OP_BOOL, /* top = (top != 0) */
    OP_ADD,
    OP_SUB,
    OP_MUL,
    OP_DIV,
    OP_POW,
    OP_LT,
    OP_LE,
    OP_GT,
    OP_GE,
    OP_EQ,
    OP_NE,
    OP_MIN, /* binary; min(a,b,c) compiles to a b MIN c MIN */
    OP_MAX,
    OP_ANDJ, /* top false: top = 0, jump to arg; else pop */
    OP_ORJ   /* top true: top = 1, jump to arg; else pop */
};

typedef struct mmm__expr_instr {
    uint32_t op;
    uint32_t arg;
} mmm__expr_instr;

struct mmm_expr {
    mmm__expr_instr *code;
    size_t ncode;
    mmm_value *consts;
    size_t nconst;
    int *slots; /* sorted, distinct variable slots read */
    size_t nslots;
    size_t stack; /* evaluation stack entries needed */
};

typedef struct mmm__expr_fault {
    int kind;
    uint32_t op;
    mmm_value a, b;
} mmm__expr_fault;

static inline int op_arity(uint32_t op)
{
    return op >= OP_ADD && op <= OP_MAX ? 2 : 1;
}

/* Run code[0..n) on stack (room for the needed entries); the result is the
 * one value left.  Jump targets are absolute indices into code.  F_OK, or
 * the fault (in *f). */
int mmm__expr_run(const mmm__expr_instr *code, size_t n, const mmm_value *consts,
                  const mmm_value *vars, mmm_value *stack, mmm_value *out,
                  mmm__expr_fault *f);

#endif
