/* expr_eval.c: running compiled expressions (see expr_code.h), the
 * messages of failed steps, and the queries on a compiled expression.
 *
 * Evaluation runs the postfix code on a fixed stack that lives on the C
 * stack, so mmm_expr_eval never allocates.  Integers (den == 1) take a fast
 * path without gcd or call; other steps are rational.c's. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "expr/expr_code.h"

/* Integer fast path of the evaluation loop: no gcd, no call. */
#define BOTH_INT(a, b) ((a).exact && (b).exact && ((a).den | (b).den) == 1)
#define SET_INT(v, n) ((v).num = (n), (v).d = (double)(n))
#define CMP(a, b)                                                             \
    (BOTH_INT(a, b) ? ((a).num > (b).num) - ((a).num < (b).num)               \
                    : mmm__v_cmp(&(a), &(b)))

int mmm__expr_run(const mmm__expr_instr *code, size_t n, const mmm_value *consts,
               const mmm_value *vars, mmm_value *stack, mmm_value *out,
               mmm__expr_fault *f)
{
    mmm_value *sp = stack;
    size_t pc;
    int64_t t;
    int k = F_OK;
    for (pc = 0; pc < n; pc++) {
        const mmm__expr_instr in = code[pc];
        switch ((enum mmm__expr_op)in.op) {
        case OP_CONST:
            *sp++ = consts[in.arg];
            continue;
        case OP_VAR:
            *sp = vars[in.arg];
            if (sp->exact ? sp->den <= 0 : !isfinite(sp->d)) {
                k = F_BADVAR;
                f->a = *sp;
                f->b = v_int((int64_t)in.arg);
                f->kind = k;
                f->op = in.op;
                return k;
            }
            sp++;
            continue;
        case OP_ANDJ:
            if (!v_truthy(&sp[-1])) {
                sp[-1] = v_int(0);
                pc = in.arg - 1;
            } else {
                sp--;
            }
            continue;
        case OP_ORJ:
            if (v_truthy(&sp[-1])) {
                sp[-1] = v_int(1);
                pc = in.arg - 1;
            } else {
                sp--;
            }
            continue;
        case OP_NEG:
            k = mmm__v_neg(&sp[-1], sp[-1]);
            break;
        case OP_NOT:
            sp[-1] = v_int(!v_truthy(&sp[-1]));
            continue;
        case OP_BOOL:
            sp[-1] = v_int(v_truthy(&sp[-1]));
            continue;
        case OP_CEIL:
            k = mmm__v_round(&sp[-1], sp[-1], 1);
            break;
        case OP_FLOOR:
            k = mmm__v_round(&sp[-1], sp[-1], 0);
            break;
        case OP_LOG2:
            k = mmm__v_log2(&sp[-1], sp[-1]);
            break;
        case OP_SQRT:
            k = mmm__v_sqrt(&sp[-1], sp[-1]);
            break;
        case OP_ADD:
            sp--;
            if (BOTH_INT(sp[-1], sp[0]) &&
                !__builtin_add_overflow(sp[-1].num, sp[0].num, &t)) {
                SET_INT(sp[-1], t);
                continue;
            }
            k = mmm__v_addsub(&sp[-1], sp[-1], sp[0], 0);
            break;
        case OP_SUB:
            sp--;
            if (BOTH_INT(sp[-1], sp[0]) &&
                !__builtin_sub_overflow(sp[-1].num, sp[0].num, &t)) {
                SET_INT(sp[-1], t);
                continue;
            }
            k = mmm__v_addsub(&sp[-1], sp[-1], sp[0], 1);
            break;
        case OP_MUL:
            sp--;
            if (BOTH_INT(sp[-1], sp[0]) &&
                !__builtin_mul_overflow(sp[-1].num, sp[0].num, &t)) {
                SET_INT(sp[-1], t);
                continue;
            }
            k = mmm__v_mul(&sp[-1], sp[-1], sp[0]);
            break;
        case OP_DIV:
            sp--;
            k = mmm__v_div(&sp[-1], sp[-1], sp[0]);
            break;
        case OP_POW:
            sp--;
            k = mmm__v_pow(&sp[-1], sp[-1], sp[0]);
            break;
        case OP_LT:
            sp--;
            sp[-1] = v_int(CMP(sp[-1], sp[0]) < 0);
            continue;
        case OP_LE:
            sp--;
            sp[-1] = v_int(CMP(sp[-1], sp[0]) <= 0);
            continue;
        case OP_GT:
            sp--;
            sp[-1] = v_int(CMP(sp[-1], sp[0]) > 0);
            continue;
        case OP_GE:
            sp--;
            sp[-1] = v_int(CMP(sp[-1], sp[0]) >= 0);
            continue;
        case OP_EQ:
            sp--;
            sp[-1] = v_int(CMP(sp[-1], sp[0]) == 0);
            continue;
        case OP_NE:
            sp--;
            sp[-1] = v_int(CMP(sp[-1], sp[0]) != 0);
            continue;
        case OP_MIN:
            sp--;
            if (CMP(sp[0], sp[-1]) < 0)
                sp[-1] = sp[0];
            continue;
        case OP_MAX:
            sp--;
            if (CMP(sp[0], sp[-1]) > 0)
                sp[-1] = sp[0];
            continue;
        }
        if (k != F_OK) {
            /* the operands are still in place: the result was not stored */
            f->kind = k;
            f->op = in.op;
            f->a = sp[-1];
            f->b = op_arity(in.op) == 2 ? sp[0] : sp[-1];
            return k;
        }
    }
    *out = stack[0];
    return F_OK;
}

static const char *op_symbol(uint32_t op)
{
    static const char *const names[] = {
        [OP_CONST] = "constant", [OP_VAR] = "variable", [OP_NEG] = "-",
        [OP_NOT] = "!",          [OP_CEIL] = "ceil",    [OP_FLOOR] = "floor",
        [OP_LOG2] = "log2",      [OP_SQRT] = "sqrt",    [OP_BOOL] = "bool",
        [OP_ADD] = "+",          [OP_SUB] = "-",        [OP_MUL] = "*",
        [OP_DIV] = "/",          [OP_POW] = "^",        [OP_LT] = "<",
        [OP_LE] = "<=",          [OP_GT] = ">",         [OP_GE] = ">=",
        [OP_EQ] = "==",          [OP_NE] = "!=",        [OP_MIN] = "min",
        [OP_MAX] = "max",        [OP_ANDJ] = "&&",      [OP_ORJ] = "||"};
    return op < sizeof names / sizeof names[0] ? names[op] : "?";
}

/* A value as an operand of '^' in a message: "(-1/2)", "3". */
static void format_operand(mmm_value v, char *buf, size_t size)
{
    char t[60];
    mmm_value_format(v, 1, t, sizeof t);
    if (strchr(t, '/') || strchr(t, 'e') || t[0] == '-')
        snprintf(buf, size, "(%s)", t);
    else
        snprintf(buf, size, "%s", t);
}

static int fault_message(const mmm__expr_fault *f, mmm_error *err)
{
    char a[64], b[64];
    mmm_value_format(f->a, 1, a, sizeof a);
    mmm_value_format(f->b, 1, b, sizeof b);
    if (f->kind == F_ZEROPOW || f->kind == F_NEGPOW) {
        format_operand(f->a, a, sizeof a);
        format_operand(f->b, b, sizeof b);
    }
    switch (f->kind) {
    case F_DIV0:
        return mmm_error_set(err, MMM_EDOMAIN, NULL, 0, "division by zero");
    case F_LOG2:
        return mmm_error_set(err, MMM_EDOMAIN, NULL, 0,
                             "log2 of %s (the argument must be positive)", a);
    case F_SQRT:
        return mmm_error_set(err, MMM_EDOMAIN, NULL, 0,
                             "sqrt of %s (the argument must not be negative)",
                             a);
    case F_ZEROPOW:
        return mmm_error_set(err, MMM_EDOMAIN, NULL, 0,
                             "0^%s: zero to a negative power", b);
    case F_NEGPOW:
        return mmm_error_set(err, MMM_EDOMAIN, NULL, 0,
                             "%s^%s is not a real number (negative base, "
                             "fractional exponent)",
                             a, b);
    case F_BADVAR:
        return mmm_error_set(err, MMM_EINVAL, NULL, 0,
                             "variable slot %s holds an invalid value "
                             "(denominator <= 0, infinite or nan)",
                             b);
    default:
        return mmm_error_set(err, MMM_EDOMAIN, NULL, 0,
                             "result of '%s' is not a finite number "
                             "(overflow)",
                             op_symbol(f->op));
    }
}

int mmm_expr_eval(const mmm_expr *e, const mmm_value *vars, size_t nvars,
                  mmm_value *out, mmm_error *err)
{
    mmm_value stack[MMM_EXPR_STACK];
    mmm__expr_fault f;
    if (!e || !out)
        return mmm_error_set(err, MMM_EINVAL, NULL, 0,
                             "mmm_expr_eval: NULL expression or result");
    if (e->nslots > 0 &&
        (!vars || (size_t)e->slots[e->nslots - 1] >= nvars))
        return mmm_error_set(err, MMM_EINVAL, NULL, 0,
                             "expression reads variable slot %d but only %zu "
                             "values were given",
                             e->slots[e->nslots - 1], vars ? nvars : 0);
    if (e->ncode == 1 && e->code[0].op == OP_CONST) {
        *out = e->consts[e->code[0].arg]; /* blocks="4", the commonest */
        return MMM_OK;
    }
    if (mmm__expr_run(e->code, e->ncode, e->consts, vars, stack, out, &f) != F_OK)
        return fault_message(&f, err);
    return MMM_OK;
}

int mmm_expr_uses(const mmm_expr *e, int slot)
{
    size_t lo = 0, hi;
    if (!e || slot < 0)
        return 0;
    hi = e->nslots;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (e->slots[mid] == slot)
            return 1;
        if (e->slots[mid] < slot)
            lo = mid + 1;
        else
            hi = mid;
    }
    return 0;
}

int mmm_expr_max_slot(const mmm_expr *e)
{
    return e && e->nslots > 0 ? e->slots[e->nslots - 1] : -1;
}

int mmm_expr_is_constant(const mmm_expr *e)
{
    return !e || e->nslots == 0;
}

size_t mmm__expr_code_length(const mmm_expr *e)
{
    return e ? e->ncode : 0;
}

size_t mmm__expr_stack_need(const mmm_expr *e)
{
    return e ? e->stack : 0;
}

void mmm_expr_free(mmm_expr *e)
{
    if (!e)
        return;
    free(e->code);
    free(e->consts);
    free(e->slots);
    free(e);
}
