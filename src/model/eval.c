/* eval.c: binding parameter values and evaluating every kernel.
 *
 * Parameters are evaluated in declaration order (override, else machine
 * value, else default), then ranges and constraints are checked.  A kernel
 * whose expressions do not read its index costs O(classes) whatever its
 * repeat: one launch is evaluated and multiplied (in 64 bits, checked).  A
 * kernel that reads its index is evaluated launch by launch.  The value of
 * each distinct index-free expression is memoized for one evaluation, so a
 * million kernels sharing blocks="4" evaluate "4" once. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mmm/eval.h"
#include "model/program_internal.h"

typedef struct inst_impl {
    mmm_instance pub; /* first: an mmm_instance * is an inst_impl * */
    mmm_value *memo;
    int *memo_rc;
    uint32_t *memo_gen;
    uint32_t gen;
    int *override_of;         /* by param: index in ov[], or -1 */
    mmm_class_val *scratch;   /* one launch of the widest kernel */
    int64_t *copy_bytes;      /* by kernel: a copy's bytes per call */
    int u_slot, p_slot;
} inst_impl;

static int nomem(mmm_error *err)
{
    return mmm_error_set(err, MMM_ENOMEM, NULL, 0, "out of memory");
}

int mmm_instance_new(mmm_instance **out, const mmm_program *p,
                     mmm_error *err)
{
    return mmm_instance_new_flags(out, p, 0, err);
}

int mmm_instance_new_flags(mmm_instance **out, const mmm_program *p,
                           unsigned flags, mmm_error *err)
{
    if (!out || !p)
        return mmm_error_set(err, MMM_EINVAL, NULL, 0,
                             "mmm_instance_new: missing argument");
    if (flags & ~(unsigned)MMM_INSTANCE_NO_CLASSES)
        return mmm_error_set(err, MMM_EINVAL, NULL, 0,
                             "mmm_instance_new: unknown flags 0x%x", flags);
    *out = NULL;
    if (!p->finalized)
        return mmm_error_set(err, MMM_EINVAL, p->file, 0,
                             "the program is not finalized");
    const struct mmm_program_priv *pv = p->priv;
    inst_impl *in = calloc(1, sizeof *in);
    if (!in)
        return nomem(err);
    size_t widest = 1;
    for (size_t k = 0; k < p->nkernels; k++)
        if (p->kernels[k].nclasses > widest)
            widest = p->kernels[k].nclasses;
    size_t ne = pv->nexprs ? pv->nexprs : 1;
    in->pub.program = p;
    in->pub.nvalues = p->nslots;
    in->pub.values = calloc(p->nslots ? p->nslots : 1, sizeof(mmm_value));
    in->pub.nkernels = p->nkernels;
    in->pub.kernels = mmm__big_calloc(p->nkernels ? p->nkernels : 1,
                             sizeof(mmm_kernel_val));
    int keep = !(flags & MMM_INSTANCE_NO_CLASSES);
    in->pub.classes = keep ? mmm__big_calloc(p->nclasses ? p->nclasses : 1,
                                             sizeof(mmm_class_val))
                           : NULL;
    in->pub.array_bytes = calloc(p->narrays ? p->narrays : 1, sizeof(int64_t));
    in->copy_bytes = mmm__big_calloc(p->nkernels ? p->nkernels : 1,
                                     sizeof(int64_t));
    in->memo = calloc(ne, sizeof *in->memo);
    in->memo_rc = calloc(ne, sizeof *in->memo_rc);
    in->memo_gen = calloc(ne, sizeof *in->memo_gen);
    in->override_of = malloc((p->nparams ? p->nparams : 1) * sizeof(int));
    in->scratch = calloc(widest, sizeof *in->scratch);
    if (!in->pub.values || !in->pub.kernels || (keep && !in->pub.classes) ||
        !in->pub.array_bytes || !in->copy_bytes ||
        !in->memo || !in->memo_rc || !in->memo_gen || !in->override_of ||
        !in->scratch) {
        mmm_instance_free(&in->pub);
        return nomem(err);
    }
    for (size_t i = 0; i < p->nparams; i++)
        in->override_of[i] = -1;
    for (size_t i = 0; i < p->nslots; i++)
        in->pub.values[i] = mmm_value_int(0);
    in->u_slot = mmm_program_find_param(p, "U");
    in->p_slot = mmm_program_find_param(p, "p");
    *out = &in->pub;
    return 0;
}

void mmm_instance_free(mmm_instance *inst)
{
    if (!inst)
        return;
    inst_impl *in = (inst_impl *)inst;
    free(inst->values);
    free(inst->array_bytes);
    mmm__big_free(in->copy_bytes);
    mmm__big_free(inst->kernels);
    mmm__big_free(inst->classes);
    free(in->memo);
    free(in->memo_rc);
    free(in->memo_gen);
    free(in->override_of);
    free(in->scratch);
    free(in);
}

void mmm_instance_set_p(mmm_instance *inst, int64_t p)
{
    if (inst && p > 0) {
        inst->has_p = 1;
        inst->p = p;
    }
}

/* ------------------------------------------------------------------ */
/* Values                                                              */

static int truthy(mmm_value v)
{
    return v.exact ? v.num != 0 : v.d != 0;
}

/* Sign of a - b, exactly when both are exact. */
static int compare(mmm_value a, mmm_value b)
{
    if (a.exact && b.exact) {
#if defined(__SIZEOF_INT128__)
        __extension__ typedef __int128 i128;
        i128 l = (i128)a.num * b.den, r = (i128)b.num * a.den;
        return (l > r) - (l < r);
#else
        long double l = (long double)a.num * b.den;
        long double r = (long double)b.num * a.den;
        return (l > r) - (l < r);
#endif
    }
    return (a.d > b.d) - (a.d < b.d);
}

static const char *fmt(mmm_value v, char *buf, size_t size)
{
    return mmm_value_format(v, 0, buf, size);
}

/* Value of expression id: memoized for one evaluation when it does not
 * read an index.  sub gets the message of a failure (no file/line). */
static int ev(inst_impl *in, uint32_t id, mmm_value *out, mmm_error *sub)
{
    const mmm_instance *inst = &in->pub;
    const mmm__prog_expr *en = mmm__expr_entry(inst->program, id);
    if (!en->uses_index) {
        if (in->memo_gen[id] == in->gen && in->memo_rc[id] == 0) {
            *out = in->memo[id];
            return 0;
        }
        int r = mmm_expr_eval(en->expr, inst->values, inst->nvalues,
                              &in->memo[id], sub);
        in->memo_rc[id] = r;
        in->memo_gen[id] = in->gen;
        *out = in->memo[id];
        return r;
    }
    return mmm_expr_eval(en->expr, inst->values, inst->nvalues, out, sub);
}

/* ------------------------------------------------------------------ */
/* Parameters                                                          */

static int param_error(const mmm_program *p, const mmm_param *pa, int rc,
                       const char *what, const mmm_error *sub,
                       mmm_error *err)
{
    return mmm_error_set(err, rc, p->file, pa->line, "%s of parameter '%s': %s",
                         what, pa->name, sub->message);
}

/* min/max of parameter i against its value. */
static int check_range(inst_impl *in, size_t i, mmm_error *err)
{
    const mmm_program *p = in->pub.program;
    const mmm_param *pa = &p->params[i];
    mmm_value v = in->pub.values[i], bound;
    mmm_error sub;
    char a[64], b[64];
    for (int hi = 0; hi < 2; hi++) {
        const mmm_expr *e = hi ? pa->max : pa->min;
        if (!e)
            continue;
        int r = mmm_expr_eval(e, in->pub.values, i, &bound, &sub);
        if (r < 0)
            return param_error(p, pa, r, hi ? "maximum" : "minimum", &sub,
                               err);
        int c = compare(v, bound);
        if (!(hi ? c > 0 : c < 0))
            continue;
        /* "its maximum floor(Z/7) = 6", or "its minimum 1" for a number */
        const char *text = hi ? pa->max_text : pa->min_text;
        char shown[sizeof b + 8] = "";
        fmt(bound, b, sizeof b);
        if (strcmp(text, b) != 0)
            snprintf(shown, sizeof shown, " = %s", b);
        return mmm_error_set(err, MMM_EINFEASIBLE, p->file, pa->line,
                             "parameter '%s' = %s is %s its %s %s%s",
                             pa->name, fmt(v, a, sizeof a),
                             hi ? "above" : "below",
                             hi ? "maximum" : "minimum", text, shown);
    }
    return 0;
}

static int eval_params(inst_impl *in, const mmm_override *ov, size_t nov,
                       mmm_error *err)
{
    mmm_instance *inst = &in->pub;
    const mmm_program *p = inst->program;
    const struct mmm_program_priv *pv = p->priv;
    int r = 0;
    for (size_t j = 0; j < nov; j++) {
        if (ov[j].slot < 0 || (size_t)ov[j].slot >= p->nparams) {
            r = mmm_error_set(err, MMM_EINVAL, p->file, 0,
                              "override of an unknown parameter slot %d",
                              ov[j].slot);
            goto done;
        }
        in->override_of[ov[j].slot] = (int)j; /* the last one wins */
    }
    for (size_t i = 0; i < p->nparams && r == 0; i++) {
        const mmm_param *pa = &p->params[i];
        mmm_error sub;
        if (in->override_of[i] >= 0)
            inst->values[i] = ov[in->override_of[i]].value;
        else if (pa->from_machine)
            inst->values[i] = pv->machine_value[i];
        else if ((r = mmm_expr_eval(pa->value, inst->values, i,
                                    &inst->values[i], &sub)) < 0) {
            r = param_error(p, pa, r, "value", &sub, err);
            break;
        }
        r = check_range(in, i, err);
    }
done:
    for (size_t j = 0; j < nov; j++)
        if (ov[j].slot >= 0 && (size_t)ov[j].slot < p->nparams)
            in->override_of[ov[j].slot] = -1;
    return r;
}

static int constraint_violated(const mmm_instance *inst,
                               const mmm_constraint *c, mmm_error *err)
{
    const mmm_program *p = inst->program;
    char vars[700], num[64];
    size_t len = 0;
    vars[0] = '\0';
    for (size_t i = 0; i < p->nparams; i++) {
        if (!mmm_expr_uses(c->test, (int)i))
            continue;
        int w = snprintf(vars + len, sizeof vars - len, "%s%s = %s",
                         len ? ", " : "", p->params[i].name,
                         fmt(inst->values[i], num, sizeof num));
        if (w < 0 || (size_t)w >= sizeof vars - len) {
            vars[len] = '\0';
            break;
        }
        len += (size_t)w;
    }
    if (len)
        return mmm_error_set(err, MMM_EINFEASIBLE, p->file, c->line,
                             "constraint '%s' is violated (%s)", c->text,
                             vars);
    return mmm_error_set(err, MMM_EINFEASIBLE, p->file, c->line,
                         "constraint '%s' is violated", c->text);
}

static int eval_constraints(inst_impl *in, mmm_error *err)
{
    const mmm_instance *inst = &in->pub;
    const mmm_program *p = inst->program;
    for (size_t i = 0; i < p->nconstraints; i++) {
        const mmm_constraint *c = &p->constraints[i];
        mmm_value v;
        mmm_error sub;
        int r = mmm_expr_eval(c->test, inst->values, p->nparams, &v, &sub);
        if (r < 0)
            return mmm_error_set(err, r, p->file, c->line,
                                 "constraint '%s': %s", c->text, sub.message);
        if (!truthy(v))
            return constraint_violated(inst, c, err);
    }
    return 0;
}

/* U and p, the machine parameters the measures need. */
static int eval_machine(inst_impl *in, mmm_error *err)
{
    mmm_instance *inst = &in->pub;
    const mmm_program *p = inst->program;
    inst->U = in->u_slot >= 0 ? inst->values[in->u_slot].d : 0.0;
    if (inst->U < 0) {
        /* A negative U would make O(B) negative and every bound wrong. */
        char unum[64];
        return mmm_error_set(err, MMM_EINFEASIBLE, p->file,
                             p->params[in->u_slot].line,
                             "parameter 'U' = %s must not be negative (the "
                             "cycles to move one word)",
                             fmt(inst->values[in->u_slot], unum, sizeof unum));
    }
    if (in->p_slot < 0)
        return 0;
    const mmm_param *pa = &p->params[in->p_slot];
    mmm_value v = inst->values[in->p_slot];
    int64_t np;
    char num[64];
    if (mmm_value_to_count(&np, v, "p", NULL) < 0 || np <= 0)
        return mmm_error_set(err, MMM_EINFEASIBLE, p->file, pa->line,
                             "parameter 'p' = %s must be a positive integer "
                             "(the number of SMs)",
                             fmt(v, num, sizeof num));
    inst->has_p = 1;
    inst->p = np;
    return 0;
}

/* ------------------------------------------------------------------ */
/* Kernels                                                             */

/* The names of a class's attributes in messages: the MMM's, then those
 * of mmm/attr.h. */
static const char *const class_attr[MMM_CX_ATTR0] = {
    "blocks", "work", "span", "reads", "writes", "threads", "shared"};

static const char *attr_name(int attr)
{
    return attr < MMM_CX_ATTR0 ? class_attr[attr]
                               : mmm_attr_name((mmm_attr)(attr - MMM_CX_ATTR0));
}

/* "blocks of kernel 'x'" (+ " (i = 3)" for an index-dependent launch). */
static void describe(char *buf, size_t size, const mmm_program *p,
                     size_t k, int attr, int64_t copy)
{
    const mmm_kernel *kr = &p->kernels[k];
    const char *name = attr_name(attr);
    if (attr == MMM_CX_COUNT && !p->priv->kernel_minimal[k])
        name = "count";
    if (kr->uses_index)
        snprintf(buf, size, "%s of kernel '%s' (%s = %lld)", name, kr->id,
                 kr->index, (long long)copy);
    else
        snprintf(buf, size, "%s of kernel '%s'", name, kr->id);
}

/* An expression of a class: memoized (use_memo) or evaluated directly. */
static int class_value(inst_impl *in, const mmm_value *values, size_t k,
                       const mmm_block_class *bc, uint32_t id, int attr,
                       int64_t copy, int use_memo, mmm_value *out,
                       mmm_error *err)
{
    const mmm_program *p = in->pub.program;
    mmm_error sub;
    int r;
    if (use_memo)
        r = ev(in, id, out, &sub);
    else
        r = mmm_expr_eval(mmm__expr_entry(p, id)->expr, values,
                          in->pub.nvalues, out, &sub);
    if (r < 0) {
        char what[256];
        describe(what, sizeof what, p, k, attr, copy);
        return mmm_error_set(err, r, p->file, bc->line, "%s: %s", what,
                             sub.message);
    }
    return 0;
}

static int class_count(const mmm_program *p, size_t k,
                       const mmm_block_class *bc, int attr, int64_t copy,
                       mmm_value v, int64_t *out, mmm_error *err)
{
    if (mmm_value_to_count(out, v, "", NULL) == 0)
        return 0;
    char what[256];
    mmm_error sub;
    describe(what, sizeof what, p, k, attr, copy);
    int r = mmm_value_to_count(out, v, what, &sub);
    return mmm_error_set(err, r, p->file, bc->line, "%s", sub.message);
}

/* 2^53: doubles hold every integer below it. */
#define EXACT_LIMIT 9007199254740992.0

/* An exact integer value: 1 and *out, or 0; *lost set when the value is
 * an integer-sized double whose exact value was lost (past 2^53). */
static int exact_int(mmm_value v, int64_t *out, int *lost)
{
    if (v.exact && v.den == 1) {
        *out = v.num;
        return 1;
    }
    if (!v.exact && fabs(v.d) >= EXACT_LIMIT)
        *lost = 1;
    return 0;
}

static int class_cost(const mmm_program *p, size_t k,
                      const mmm_block_class *bc, int attr, int64_t copy,
                      mmm_value v, double *out, mmm_error *err)
{
    if (v.d < 0) {
        char what[256], num[64];
        describe(what, sizeof what, p, k, attr, copy);
        return mmm_error_set(err, MMM_EINFEASIBLE, p->file, bc->line,
                             "%s = %s is negative", what,
                             fmt(v, num, sizeof num));
    }
    *out = v.d;
    return 0;
}

/* W, S, O and C are doubles: a sum or product past DBL_MAX would become inf
 * and be printed as a number; refuse it like a 64-bit count overflow. */
static int check_finite(const mmm_program *p, const mmm_kernel *kr, long line,
                        const char *what, double v, mmm_error *err)
{
    if (isfinite(v))
        return 0;
    return mmm_error_set(err, MMM_EOVERFLOW, p->file, line,
                         "%s of kernel '%s' overflows (more than 1.8e308)",
                         what, kr->id);
}

/* Exact integer values of a class's attributes, as they are evaluated. */
typedef struct class_exact {
    int64_t r, w;
    int okr, okw;
} class_exact;

static void exact_attr(int a, mmm_value v, mmm_class_val *o, class_exact *x)
{
    if (a == MMM_CX_WORK && !exact_int(v, &o->work_i, &o->lost))
        o->exact &= ~MMM_EXACT_W;
    else if (a == MMM_CX_SPAN && !exact_int(v, &o->span_i, &o->lost))
        o->exact &= ~MMM_EXACT_S;
    else if (a == MMM_CX_READS)
        x->okr = exact_int(v, &x->r, &o->lost);
    else if (a == MMM_CX_WRITES)
        x->okw = exact_int(v, &x->w, &o->lost);
}

/* O(B) = (r + w)·U and S(B) + O(B) exactly, when the parts are exact
 * integers and the results fit 64 bits. */
static void exact_class(const inst_impl *in, mmm_class_val *o, const class_exact *x)
{
    int64_t u = 0, rw;
    int oku = in->u_slot < 0 || exact_int(in->pub.values[in->u_slot], &u, &o->lost);
    if (x->okr && x->okw && oku) {
        if (!__builtin_add_overflow(x->r, x->w, &rw) &&
            !__builtin_mul_overflow(rw, u, &o->overhead_i))
            o->exact |= MMM_EXACT_O;
        else
            o->lost = 1;
    }
    if ((o->exact & (MMM_EXACT_S | MMM_EXACT_O)) == (MMM_EXACT_S | MMM_EXACT_O)) {
        if (!__builtin_add_overflow(o->span_i, o->overhead_i, &o->cost_i))
            o->exact |= MMM_EXACT_C;
        else
            o->lost = 1;
    }
}

/* The attributes of mmm/attr.h of class ci (the c-th of kernel k) into
 * out[0 .. MMM_ATTR_N), or only checked when out is NULL; use_memo and
 * values as in eval_classes. */
static int eval_attrs(inst_impl *in, const mmm_value *values, size_t k,
                      size_t ci, int64_t copy, int use_memo,
                      mmm_attr_value *out, mmm_error *err)
{
    const mmm_program *p = in->pub.program;
    const mmm_block_class *bc = &p->classes[ci];
    const uint32_t *eid = p->priv->class_eid[ci] + MMM_CX_ATTR0;
    for (int a = 0; a < MMM_ATTR_N; a++) {
        mmm_value v;
        double d = 0;
        int64_t n;
        int r;
        if (eid[a] == MMM_NO_EXPR) {
            if (out)
                out[a] = (mmm_attr_value){mmm_attr_default((mmm_attr)a), 0};
            continue;
        }
        if ((r = class_value(in, values, k, bc, eid[a], MMM_CX_ATTR0 + a,
                             copy, use_memo, &v, err)) < 0)
            return r;
        if (mmm_attr_type_of((mmm_attr)a) == MMM_ATTR_INTEGER) {
            r = class_count(p, k, bc, MMM_CX_ATTR0 + a, copy, v, &n, err);
            d = (double)n;
        } else {
            r = class_cost(p, k, bc, MMM_CX_ATTR0 + a, copy, v, &d, err);
        }
        if (r < 0)
            return r;
        if (out)
            out[a] = (mmm_attr_value){d, 1};
    }
    return 0;
}

/* The accesses of class ci (of kernel k) into out[0 .. naccesses), or
 * only checked when out is NULL; use_memo and values as in eval_classes. */
static int eval_accesses(inst_impl *in, const mmm_value *values, size_t k,
                         size_t ci, int64_t copy, int use_memo,
                         mmm_mem_access_val *out, mmm_error *err)
{
    const mmm_program *p = in->pub.program;
    const mmm_kernel *kr = &p->kernels[k];
    static const char *const names[MMM_AX_N] = {"words", "stride", "region",
                                                "taken"};
    size_t first, na = mmm_block_class_accesses(p, ci, &first);
    for (size_t i = 0; i < na; i++) {
        size_t ai = first + i;
        const mmm_mem_access *a = &p->accesses[ai];
        const uint32_t *eid = p->priv->access_eid[ai];
        double v[MMM_AX_N] = {0, 1, 0, 1};
        if (a->array >= 0)
            v[MMM_AX_REGION] = (double)in->pub.array_bytes[a->array];
        for (int x = 0; x < MMM_AX_N; x++) {
            mmm_value val;
            mmm_error sub;
            int r;
            char where[96] = "";
            if (eid[x] == MMM_NO_EXPR)
                continue;
            if (kr->uses_index)
                snprintf(where, sizeof where, " (%s = %lld)", kr->index,
                         (long long)copy);
            if (use_memo)
                r = ev(in, eid[x], &val, &sub);
            else
                r = mmm_expr_eval(mmm__expr_entry(p, eid[x])->expr, values,
                                  in->pub.nvalues, &val, &sub);
            if (r < 0)
                return mmm_error_set(err, r, p->file, a->line,
                                     "%s of an <access> of kernel '%s'%s: %s",
                                     names[x], kr->id, where, sub.message);
            if (!(val.d >= 0) || (x == MMM_AX_TAKEN && val.d > 1)) {
                char num[64];
                return mmm_error_set(err, MMM_EINFEASIBLE, p->file, a->line,
                                     "%s of an <access> of kernel '%s'%s = %s "
                                     "is %s",
                                     names[x], kr->id, where,
                                     fmt(val, num, sizeof num),
                                     x == MMM_AX_TAKEN
                                         ? "not a share from 0 to 1"
                                         : "negative");
            }
            v[x] = val.d;
        }
        if (out)
            out[i] = (mmm_mem_access_val){v[MMM_AX_WORDS], v[MMM_AX_STRIDE],
                                          v[MMM_AX_REGION], v[MMM_AX_TAKEN]};
    }
    return 0;
}

/* The arrays' bytes (counts), after the parameters. */
static int eval_arrays(inst_impl *in, mmm_error *err)
{
    const mmm_program *p = in->pub.program;
    for (size_t i = 0; i < p->narrays; i++) {
        const mmm_array *a = &p->arrays[i];
        mmm_value v;
        mmm_error sub;
        char what[128];
        int r = ev(in, p->priv->array_eid[i], &v, &sub);
        if (r < 0)
            return mmm_error_set(err, r, p->file, a->line,
                                 "bytes of array '%s': %s", a->name,
                                 sub.message);
        if (mmm_value_to_count(&in->pub.array_bytes[i], v, "", NULL) < 0) {
            snprintf(what, sizeof what, "bytes of array '%s'", a->name);
            r = mmm_value_to_count(&in->pub.array_bytes[i], v, what, &sub);
            return mmm_error_set(err, r, p->file, a->line, "%s", sub.message);
        }
    }
    return 0;
}

/* The block classes of launch `copy` of kernel k.  With use_memo the
 * instance's own values and memo are used (and the index written into its
 * values: mmm_instance_eval); without, only `values` is read and written
 * (its index slot), never the instance.  The attributes of mmm/attr.h
 * are checked, not kept (mmm_instance_eval_attrs gives them). */
static int eval_classes(inst_impl *in, mmm_value *values, size_t k,
                        int64_t copy, int use_memo, mmm_class_val *cv,
                        mmm_error *err)
{
    const mmm_program *p = in->pub.program;
    const struct mmm_program_priv *pv = p->priv;
    const mmm_kernel *kr = &p->kernels[k];
    if (kr->index_slot >= 0)
        values[kr->index_slot] = mmm_value_int(copy);
    for (uint32_t c = 0; c < kr->nclasses; c++) {
        size_t ci = kr->first_class + c;
        const mmm_block_class *bc = &p->classes[ci];
        const uint32_t *eid = pv->class_eid[ci];
        mmm_class_val *o = &cv[c];
        double *cost[MMM_CX_ATTR0] = {NULL,     &o->work,   &o->span,
                                      &o->reads, &o->writes, NULL,
                                      &o->shared};
        mmm_value v;
        class_exact x = {0, 0, 1, 1};
        int r;
        memset(o, 0, sizeof *o);
        o->exact = MMM_EXACT_W | MMM_EXACT_S; /* absent: 0, exactly */
        o->access = bc->access;
        /* the accesses first: their words make the reads and writes, and
         * a wrong one is reported at its own line */
        if ((r = eval_accesses(in, values, k, ci, copy, use_memo, NULL, err)) < 0)
            return r;
        for (int a = 0; a < MMM_CX_ATTR0; a++) {
            uint32_t id = eid[a];
            if (a == MMM_CX_THREADS && id == MMM_NO_EXPR)
                id = pv->kernel_eid[k][MMM_KX_THREADS];
            if (id == MMM_NO_EXPR)
                continue;
            if ((r = class_value(in, values, k, bc, id, a, copy, use_memo,
                                 &v, err)) < 0)
                return r;
            exact_attr(a, v, o, &x);
            if (a == MMM_CX_COUNT)
                r = class_count(p, k, bc, a, copy, v, &o->count, err);
            else if (a == MMM_CX_THREADS)
                r = class_count(p, k, bc, a, copy, v, &o->threads, err);
            else
                r = class_cost(p, k, bc, a, copy, v, cost[a], err);
            if (r < 0)
                return r;
        }
        if ((r = eval_attrs(in, values, k, ci, copy, use_memo, NULL, err)) < 0)
            return r;
        if (in->u_slot < 0 && o->reads + o->writes != 0)
            return mmm_error_set(err, MMM_EINPUT, p->file, bc->line,
                                 "kernel '%s' reads or writes global memory "
                                 "but no parameter U is declared",
                                 kr->id);
        o->overhead = (o->reads + o->writes) * in->pub.U;
        o->cost = o->span + o->overhead;
        exact_class(in, o, &x);
        if ((r = check_finite(p, kr, bc->line, "O(B) = (reads + writes)·U",
                              o->overhead, err)) < 0 ||
            (r = check_finite(p, kr, bc->line, "S(B) + O(B)", o->cost,
                              err)) < 0)
            return r;
    }
    return 0;
}

/* The measures of one launch. */
typedef struct launch {
    int64_t blocks;
    double W, S, O, C;
    int64_t Wi, Si, Oi, Ci; /* exact, where the MMM_EXACT_* bit is set */
    unsigned exact;
    int lost;
} launch;

/* Exact integer arithmetic on the measures: a bit of *exact is cleared
 * (and *lost set) when the result does not fit 64 bits. */
static void xadd(int64_t *acc, int64_t v, unsigned bit, unsigned *exact, int *lost)
{
    if ((*exact & bit) && __builtin_add_overflow(*acc, v, acc)) {
        *exact &= ~bit;
        *lost = 1;
    }
}

static void xmuladd(int64_t *acc, int64_t a, int64_t b, unsigned bit,
                    unsigned *exact, int *lost)
{
    int64_t t;
    if (!(*exact & bit))
        return;
    if (__builtin_mul_overflow(a, b, &t)) {
        *exact &= ~bit;
        *lost = 1;
        return;
    }
    xadd(acc, t, bit, exact, lost);
}

static int sum_launch(const mmm_program *p, size_t k,
                      const mmm_class_val *cv, launch *l, mmm_error *err)
{
    const mmm_kernel *kr = &p->kernels[k];
    memset(l, 0, sizeof *l);
    l->exact = MMM_EXACT_ALL;
    for (uint32_t c = 0; c < kr->nclasses; c++) {
        const mmm_class_val *o = &cv[c];
        if (o->count == 0)
            continue; /* no block: no span, no cost */
        l->lost |= o->lost;
        l->exact &= o->exact;
        xmuladd(&l->Wi, o->count, o->work_i, MMM_EXACT_W, &l->exact, &l->lost);
        xmuladd(&l->Oi, o->count, o->overhead_i, MMM_EXACT_O, &l->exact, &l->lost);
        if ((l->exact & MMM_EXACT_S) && o->span_i > l->Si)
            l->Si = o->span_i;
        if ((l->exact & MMM_EXACT_C) && o->cost_i > l->Ci)
            l->Ci = o->cost_i;
        if (__builtin_add_overflow(l->blocks, o->count, &l->blocks))
            return mmm_error_set(err, MMM_EOVERFLOW, p->file, kr->line,
                                 "blocks of kernel '%s' (the sum of its "
                                 "classes) overflow 64 bits",
                                 kr->id);
        l->W += (double)o->count * o->work;
        l->O += (double)o->count * o->overhead;
        if (o->span > l->S)
            l->S = o->span;
        if (o->cost > l->C)
            l->C = o->cost;
    }
    int r;
    if ((r = check_finite(p, kr, kr->line, "W (blocks × work)", l->W, err)) < 0 ||
        (r = check_finite(p, kr, kr->line, "O (blocks × O(B))", l->O, err)) < 0)
        return r;
    return 0;
}

/* The doubles of the exact measures are their roundings. */
static void exact_doubles(mmm_kernel_val *kv)
{
    if (kv->exact & MMM_EXACT_W)
        kv->W = (double)kv->W_i;
    if (kv->exact & MMM_EXACT_S)
        kv->S = (double)kv->S_i;
    if (kv->exact & MMM_EXACT_O)
        kv->O = (double)kv->O_i;
    if (kv->exact & MMM_EXACT_C)
        kv->C = (double)kv->C_i;
    if (kv->W >= EXACT_LIMIT && !(kv->exact & MMM_EXACT_W) && kv->W == floor(kv->W))
        kv->lost = 1;
    if (kv->O >= EXACT_LIMIT && !(kv->exact & MMM_EXACT_O) && kv->O == floor(kv->O))
        kv->lost = 1;
}

/* A kernel that does not read its index: one launch, times repeat. */
static int eval_uniform(inst_impl *in, size_t k, mmm_kernel_val *kv,
                        mmm_error *err)
{
    const mmm_program *p = in->pub.program;
    const mmm_kernel *kr = &p->kernels[k];
    mmm_class_val *cv = in->pub.classes ? &in->pub.classes[kr->first_class]
                                        : in->scratch;
    launch l;
    int r;
    if ((r = eval_classes(in, in->pub.values, k, 1, 1, cv, err)) < 0 ||
        (r = sum_launch(p, k, cv, &l, err)) < 0)
        return r;
    int64_t rep = kv->repeat;
    if (__builtin_mul_overflow(rep, l.blocks, &kv->N))
        return mmm_error_set(err, MMM_EOVERFLOW, p->file, kr->line,
                             "N of kernel '%s' (repeat × blocks) overflows "
                             "64 bits",
                             kr->id);
    kv->blocks = kv->K = l.blocks;
    kv->L = l.blocks > 0 ? rep : 0;
    kv->W = (double)rep * l.W;
    kv->S = (double)rep * l.S;
    kv->O = (double)rep * l.O;
    kv->C = l.C;
    kv->exact = l.exact;
    kv->lost = l.lost;
    xmuladd(&kv->W_i, rep, l.Wi, MMM_EXACT_W, &kv->exact, &kv->lost);
    xmuladd(&kv->S_i, rep, l.Si, MMM_EXACT_S, &kv->exact, &kv->lost);
    xmuladd(&kv->O_i, rep, l.Oi, MMM_EXACT_O, &kv->exact, &kv->lost);
    kv->C_i = l.Ci;
    exact_doubles(kv);
    if ((r = check_finite(p, kr, kr->line, "W (repeat × blocks × work)", kv->W,
                          err)) < 0 ||
        (r = check_finite(p, kr, kr->line, "S (repeat × span)", kv->S, err)) < 0 ||
        (r = check_finite(p, kr, kr->line, "O (repeat × blocks × O(B))", kv->O,
                          err)) < 0)
        return r;
    return 0;
}

/* A kernel that reads its index: launch by launch. */
static int eval_varying(inst_impl *in, size_t k, mmm_kernel_val *kv,
                        mmm_error *err)
{
    const mmm_program *p = in->pub.program;
    const mmm_kernel *kr = &p->kernels[k];
    int64_t limit = p->priv->limits.max_index_repeat;
    if (kv->repeat > limit)
        return mmm_error_set(err, MMM_ELIMIT, p->file, kr->line,
                             "kernel '%s' reads its index '%s' and repeats "
                             "%lld times, more than %lld launches evaluated "
                             "one by one (raise the limit with "
                             "--max-index-repeat)",
                             kr->id, kr->index, (long long)kv->repeat,
                             (long long)limit);
    for (int64_t j = 1; j <= kv->repeat; j++) {
        mmm_class_val *cv =
            j == 1 && in->pub.classes ? &in->pub.classes[kr->first_class]
                                      : in->scratch;
        launch l;
        int r;
        if ((r = eval_classes(in, in->pub.values, k, j, 1, cv, err)) < 0 ||
            (r = sum_launch(p, k, cv, &l, err)) < 0)
            return r;
        if (__builtin_add_overflow(kv->N, l.blocks, &kv->N))
            return mmm_error_set(err, MMM_EOVERFLOW, p->file, kr->line,
                                 "N of kernel '%s' (the blocks of its "
                                 "launches) overflows 64 bits",
                                 kr->id);
        if (l.blocks > kv->blocks)
            kv->blocks = l.blocks;
        kv->L += l.blocks > 0;
        kv->W += l.W;
        kv->S += l.S;
        kv->O += l.O;
        if (l.C > kv->C)
            kv->C = l.C;
        if (j == 1)
            kv->exact = MMM_EXACT_ALL;
        kv->exact &= l.exact;
        kv->lost |= l.lost;
        xadd(&kv->W_i, l.Wi, MMM_EXACT_W, &kv->exact, &kv->lost);
        xadd(&kv->S_i, l.Si, MMM_EXACT_S, &kv->exact, &kv->lost);
        xadd(&kv->O_i, l.Oi, MMM_EXACT_O, &kv->exact, &kv->lost);
        if ((kv->exact & MMM_EXACT_C) && l.Ci > kv->C_i)
            kv->C_i = l.Ci;
    }
    if (kv->repeat == 0)
        kv->exact = MMM_EXACT_ALL;
    exact_doubles(kv);
    kv->K = kv->blocks;
    int r;
    if ((r = check_finite(p, kr, kr->line, "W (sum over launches)", kv->W,
                          err)) < 0 ||
        (r = check_finite(p, kr, kr->line, "S (sum over launches)", kv->S,
                          err)) < 0 ||
        (r = check_finite(p, kr, kr->line, "O (sum over launches)", kv->O,
                          err)) < 0)
        return r;
    return 0;
}

/* A copy: no block, so W, S, O, N, L, K and C stay 0 (exactly); its
 * bytes per call, a count. */
static int eval_copy(inst_impl *in, size_t k, mmm_kernel_val *kv,
                     mmm_error *err)
{
    const mmm_program *p = in->pub.program;
    const mmm_kernel *kr = &p->kernels[k];
    uint32_t id = p->priv->kernel_eid[k][MMM_KX_BYTES];
    mmm_value v;
    mmm_error sub;
    char what[200];
    kv->exact = MMM_EXACT_ALL;
    int r = ev(in, id, &v, &sub);
    if (r < 0)
        return mmm_error_set(err, r, p->file, kr->line,
                             "bytes of copy '%s': %s", kr->id, sub.message);
    if (mmm_value_to_count(&in->copy_bytes[k], v, "", NULL) == 0)
        return 0;
    snprintf(what, sizeof what, "bytes of copy '%s'", kr->id);
    r = mmm_value_to_count(&in->copy_bytes[k], v, what, &sub);
    return mmm_error_set(err, r, p->file, kr->line, "%s", sub.message);
}

static int eval_kernel(inst_impl *in, size_t k, mmm_error *err)
{
    const mmm_program *p = in->pub.program;
    const mmm_kernel *kr = &p->kernels[k];
    mmm_kernel_val *kv = &in->pub.kernels[k];
    uint32_t rid = p->priv->kernel_eid[k][MMM_KX_REPEAT];
    int copy = mmm_kernel_copy(p, k) != MMM_COPY_NONE;
    memset(kv, 0, sizeof *kv);
    in->copy_bytes[k] = 0;
    kv->repeat = 1;
    kv->varies = kr->uses_index;
    if (rid != MMM_NO_EXPR) {
        mmm_value v;
        mmm_error sub;
        char what[200];
        int r = ev(in, rid, &v, &sub);
        if (r < 0)
            return mmm_error_set(err, r, p->file, kr->line,
                                 "repeat of %s '%s': %s",
                                 copy ? "copy" : "kernel", kr->id,
                                 sub.message);
        if (mmm_value_to_count(&kv->repeat, v, "", NULL) < 0) {
            snprintf(what, sizeof what, "repeat of %s '%s'",
                     copy ? "copy" : "kernel", kr->id);
            r = mmm_value_to_count(&kv->repeat, v, what, &sub);
            return mmm_error_set(err, r, p->file, kr->line, "%s",
                                 sub.message);
        }
    }
    if (copy)
        return eval_copy(in, k, kv, err);
    if (kv->repeat == 0) {
        /* No launch: nothing to evaluate, dependencies pass through. */
        if (in->pub.classes)
            memset(&in->pub.classes[kr->first_class], 0,
                   kr->nclasses * sizeof(mmm_class_val));
        return 0;
    }
    return kr->uses_index ? eval_varying(in, k, kv, err)
                          : eval_uniform(in, k, kv, err);
}

int mmm_instance_eval(mmm_instance *inst, const mmm_override *ov,
                      size_t nov, mmm_error *err)
{
    if (!inst || (nov && !ov))
        return mmm_error_set(err, MMM_EINVAL, NULL, 0,
                             "mmm_instance_eval: missing argument");
    inst_impl *in = (inst_impl *)inst;
    const mmm_program *p = inst->program;
    if (++in->gen == 0) { /* wrapped: forget every memo */
        memset(in->memo_gen, 0,
               (p->priv->nexprs ? p->priv->nexprs : 1) * sizeof(uint32_t));
        in->gen = 1;
    }
    int r;
    if ((r = eval_params(in, ov, nov, err)) < 0 ||
        (r = eval_constraints(in, err)) < 0 ||
        (r = eval_machine(in, err)) < 0 || (r = eval_arrays(in, err)) < 0)
        return r;
    for (size_t k = 0; k < p->nkernels; k++)
        if ((r = eval_kernel(in, k, err)) < 0)
            return r;
    return 0;
}

/* The arguments of mmm_instance_eval_copy and _attrs: an instance, an
 * output, a kernel of it and one of its launches (1..repeat). */
static int check_launch(const mmm_instance *inst, size_t k, int64_t copy,
                        int have_out, const char *fn, mmm_error *err)
{
    if (!inst || !have_out || k >= inst->nkernels)
        return mmm_error_set(err, MMM_EINVAL, NULL, 0, "%s: bad argument", fn);
    const mmm_kernel *kr = &inst->program->kernels[k];
    if (copy < 1 || copy > inst->kernels[k].repeat)
        return mmm_error_set(err, MMM_EINVAL, inst->program->file, kr->line,
                             "kernel '%s' has no launch %lld (it has %lld)",
                             kr->id, (long long)copy,
                             (long long)inst->kernels[k].repeat);
    return 0;
}

int mmm_instance_eval_copy(const mmm_instance *inst, size_t k, int64_t copy,
                           mmm_class_val *out, mmm_error *err)
{
    int r = check_launch(inst, k, copy, out != NULL, "mmm_instance_eval_copy", err);
    if (r < 0)
        return r;
    const mmm_program *p = inst->program;
    const mmm_kernel *kr = &p->kernels[k];
    if (!kr->uses_index && inst->classes) {
        memcpy(out, &inst->classes[kr->first_class],
               kr->nclasses * sizeof *out);
        return 0;
    }
    /* Direct evaluation, no memo, in a private copy of the values with the
     * launch's index set: the instance is only read, so threads may share
     * it. */
    mmm_value small[64], *vals = small;
    if (inst->nvalues > sizeof small / sizeof small[0] &&
        !(vals = malloc(inst->nvalues * sizeof *vals)))
        return nomem(err);
    memcpy(vals, inst->values, inst->nvalues * sizeof *vals);
    r = eval_classes((inst_impl *)(uintptr_t)inst, vals, k, copy, 0, out,
                         err);
    if (vals != small)
        free(vals);
    return r;
}

int mmm_instance_eval_attrs(const mmm_instance *inst, size_t k, int64_t copy,
                            mmm_attr_value *out, mmm_error *err)
{
    int r = check_launch(inst, k, copy, out != NULL, "mmm_instance_eval_attrs", err);
    if (r < 0)
        return r;
    const mmm_program *p = inst->program;
    const mmm_kernel *kr = &p->kernels[k];
    /* Direct evaluation, no memo; the launch's index in a private copy of
     * the values (as mmm_instance_eval_copy). */
    mmm_value small[64], *vals = inst->values;
    if (kr->index_slot >= 0) {
        vals = small;
        if (inst->nvalues > sizeof small / sizeof small[0] &&
            !(vals = malloc(inst->nvalues * sizeof *vals)))
            return nomem(err);
        memcpy(vals, inst->values, inst->nvalues * sizeof *vals);
        vals[kr->index_slot] = mmm_value_int(copy);
    }
    r = 0;
    inst_impl *in = (inst_impl *)(uintptr_t)inst;
    for (uint32_t c = 0; c < kr->nclasses && r == 0; c++)
        r = eval_attrs(in, vals, k, kr->first_class + c, copy, 0,
                       out + (size_t)c * MMM_ATTR_N, err);
    if (vals != small && vals != inst->values)
        free(vals);
    return r;
}

int mmm_instance_eval_accesses(const mmm_instance *inst, size_t k, int64_t copy,
                               mmm_mem_access_val *out, mmm_error *err)
{
    int r = check_launch(inst, k, copy, out != NULL, "mmm_instance_eval_accesses",
                         err);
    if (r < 0)
        return r;
    const mmm_program *p = inst->program;
    const mmm_kernel *kr = &p->kernels[k];
    /* Direct evaluation, no memo; the launch's index in a private copy of
     * the values (as mmm_instance_eval_copy). */
    mmm_value small[64], *vals = inst->values;
    if (kr->index_slot >= 0) {
        vals = small;
        if (inst->nvalues > sizeof small / sizeof small[0] &&
            !(vals = malloc(inst->nvalues * sizeof *vals)))
            return nomem(err);
        memcpy(vals, inst->values, inst->nvalues * sizeof *vals);
        vals[kr->index_slot] = mmm_value_int(copy);
    }
    inst_impl *in = (inst_impl *)(uintptr_t)inst;
    size_t o = 0;
    for (uint32_t c = 0; c < kr->nclasses && r == 0; c++) {
        r = eval_accesses(in, vals, k, kr->first_class + c, copy, 0, out + o,
                          err);
        o += mmm_block_class_accesses(p, kr->first_class + c, NULL);
    }
    if (vals != small && vals != inst->values)
        free(vals);
    return r;
}

int64_t mmm_instance_copy_bytes(const mmm_instance *inst, size_t k)
{
    if (!inst || k >= inst->nkernels)
        return 0;
    return ((const inst_impl *)inst)->copy_bytes[k];
}
