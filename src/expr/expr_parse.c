/* expr_parse.c: parametric expressions compiled from text (see
 * include/mmm/expr.h) into flat postfix code and a constant pool
 * (expr_code.h), with constants folded.
 *
 * The parser is a precedence climber whose recursion is bounded by the
 * nesting limit (at most MMM_EXPR_MAX_DEPTH levels), so hostile input
 * cannot exhaust the C stack.  Literals become exact rationals
 * (rational.c) when they have an int64 form, else the nearest double. */
#include <ctype.h>
#include <errno.h>
#include <locale.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "expr/expr_code.h"
#include "base/grow.h"

typedef struct parser {
    const char *text;
    size_t len, pos;
    size_t depth, max_depth;
    mmm_resolve_fn resolve;
    void *payload;
    mmm_error *err;
    mmm__expr_instr *code;
    size_t ncode, capcode;
    mmm_value *consts;
    size_t nconst, capconst;
    size_t barrier; /* constant folding never reaches below this index */
    uint8_t prefix[MMM_EXPR_MAX_DEPTH]; /* pending unary operators */
    size_t nprefix;
} parser;

enum { PREC_OR = 1, PREC_AND, PREC_CMP, PREC_SUM, PREC_PRODUCT };

/* The expression text for a message, cut to a window around pos. */
static void quote_text(const parser *p, size_t pos, char *buf, size_t size)
{
    enum { WIDTH = 60, BEFORE = 40 };
    size_t start = 0, end = p->len, i, o = 0;
    if (p->len > WIDTH) {
        start = pos > BEFORE ? pos - BEFORE : 0;
        end = start + WIDTH - 6 < p->len ? start + WIDTH - 6 : p->len;
    }
    if (start > 0 && o + 3 < size) {
        memcpy(buf + o, "...", 3);
        o += 3;
    }
    for (i = start; i < end && o + 1 < size; i++) {
        unsigned char c = (unsigned char)p->text[i];
        buf[o++] = (c >= 0x20 && c < 0x7f && c != '\'') ? (char)c
                   : isspace(c)                          ? ' '
                   : c == '\''                           ? '"'
                                                         : '?';
    }
    if (end < p->len && o + 3 < size) {
        memcpy(buf + o, "...", 3);
        o += 3;
    }
    buf[o < size ? o : size - 1] = '\0';
}

static int syntax_error(parser *p, size_t pos, const char *what)
{
    char q[80];
    quote_text(p, pos, q, sizeof q);
    return mmm_error_set(p->err, MMM_EPARSE, NULL, 0,
                         "%s at column %zu in '%s'", what, pos + 1, q);
}

static int nomem(parser *p)
{
    return mmm_error_set(p->err, MMM_ENOMEM, NULL, 0, "out of memory");
}

static char cur(const parser *p)
{
    return p->pos < p->len ? p->text[p->pos] : '\0';
}

static char peek_at(const parser *p, size_t off)
{
    return p->pos + off < p->len ? p->text[p->pos + off] : '\0';
}

static void skip_ws(parser *p)
{
    while (p->pos < p->len && isspace((unsigned char)p->text[p->pos]))
        p->pos++;
}

static int enter(parser *p)
{
    if (p->depth >= p->max_depth)
        return mmm_error_set(p->err, MMM_ELIMIT, NULL, 0,
                             "expression nested too deeply (more than %zu "
                             "levels of parentheses, unary operators or '^') "
                             "at column %zu",
                             p->max_depth, p->pos + 1);
    p->depth++;
    return 0;
}

static int emit(parser *p, uint32_t op, uint32_t arg)
{
    mmm__expr_instr *c = mmm__grow(p->code, &p->capcode, p->ncode + 1, sizeof *c, 16);
    if (!c)
        return nomem(p);
    p->code = c;
    p->code[p->ncode].op = op;
    p->code[p->ncode].arg = arg;
    p->ncode++;
    return 0;
}

static int emit_const(parser *p, mmm_value v)
{
    if (p->nconst >= UINT32_MAX)
        return mmm_error_set(p->err, MMM_ELIMIT, NULL, 0,
                             "expression has too many constants");
    mmm_value *c = mmm__grow(p->consts, &p->capconst, p->nconst + 1, sizeof *c, 8);
    if (!c)
        return nomem(p);
    p->consts = c;
    p->consts[p->nconst] = v;
    return emit(p, OP_CONST, (uint32_t)p->nconst++);
}

/* Emit an operator; when its operands are constants just emitted (and no
 * jump lands between them), compute it now instead.  A step that fails
 * (1/0) is left for evaluation, where && and || may skip it. */
static int emit_op(parser *p, uint32_t op)
{
    int ar = op_arity(op);
    size_t n = p->ncode, i;
    if (n >= p->barrier + (size_t)ar) {
        int all_const = 1;
        for (i = n - (size_t)ar; i < n; i++)
            all_const &= p->code[i].op == OP_CONST;
        if (all_const) {
            mmm__expr_instr tmp[3];
            mmm_value stack[2], res;
            mmm__expr_fault f;
            tmp[0] = p->code[n - (size_t)ar];
            if (ar == 2)
                tmp[1] = p->code[n - 1];
            tmp[ar].op = op;
            tmp[ar].arg = 0;
            if (mmm__expr_run(tmp, (size_t)ar + 1, p->consts, NULL, stack, &res, &f) ==
                F_OK) {
                /* the operands are the last constants of the pool */
                p->ncode -= (size_t)ar;
                p->nconst -= (size_t)ar;
                return emit_const(p, res);
            }
        }
    }
    return emit(p, op, 0);
}

static int parse_binary(parser *p, int min_prec);

/* Binary operator at the cursor: its precedence (0 when none), op, length. */
static int peek_binop(parser *p, uint32_t *op, size_t *len)
{
    char c, c2;
    skip_ws(p);
    c = cur(p);
    c2 = peek_at(p, 1);
    *len = 1;
    switch (c) {
    case '|':
        if (c2 != '|')
            return 0;
        *len = 2;
        *op = OP_ORJ;
        return PREC_OR;
    case '&':
        if (c2 != '&')
            return 0;
        *len = 2;
        *op = OP_ANDJ;
        return PREC_AND;
    case '<':
    case '>':
        *len = c2 == '=' ? 2 : 1;
        *op = c == '<' ? (c2 == '=' ? OP_LE : OP_LT)
                       : (c2 == '=' ? OP_GE : OP_GT);
        return PREC_CMP;
    case '=':
    case '!':
        if (c2 != '=')
            return 0;
        *len = 2;
        *op = c == '=' ? OP_EQ : OP_NE;
        return PREC_CMP;
    case '+':
        *op = OP_ADD;
        return PREC_SUM;
    case '-':
        *op = OP_SUB;
        return PREC_SUM;
    case '*':
        *op = OP_MUL;
        return PREC_PRODUCT;
    case '/':
        *op = OP_DIV;
        return PREC_PRODUCT;
    default:
        return 0;
    }
}

static int accumulate_digit(uint64_t *m, uint64_t *zeros, int digit)
{
    if (digit == 0) {
        (*zeros)++;
        return 1;
    }
    for (; *zeros > 0; (*zeros)--)
        if (__builtin_mul_overflow(*m, 10, m) || *m > INT64_MAX)
            return 0;
    if (__builtin_mul_overflow(*m, 10, m) ||
        __builtin_add_overflow(*m, (uint64_t)digit, m) || *m > INT64_MAX)
        return 0;
    return 1;
}

/* A literal that has no exact int64 rational form: the nearest double. */
static int number_double(parser *p, size_t start, size_t end, mmm_value *out)
{
    char small[64], *buf = small, *stop;
    size_t n = end - start, i;
    double d;
    if (n + 1 > sizeof small && !(buf = malloc(n + 1)))
        return nomem(p);
    memcpy(buf, p->text + start, n);
    buf[n] = '\0';
    errno = 0;
    d = strtod(buf, &stop);
    if (stop != buf + n) {
        /* a locale whose decimal point is not '.' */
        const struct lconv *lc = localeconv();
        char point = lc && lc->decimal_point ? lc->decimal_point[0] : '.';
        for (i = 0; i < n; i++)
            if (buf[i] == '.')
                buf[i] = point;
        errno = 0;
        d = strtod(buf, &stop);
    }
    if (buf != small)
        free(buf);
    if (errno == ERANGE || !isfinite(d))
        return syntax_error(p, start, "number out of range");
    *out = v_inexact(d);
    return 0;
}

static int is_digit(char c)
{
    return c >= '0' && c <= '9';
}

static int is_name_start(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static int is_name_char(char c)
{
    return is_name_start(c) || is_digit(c);
}

/* NUMBER := digits ["." digits] [("e"|"E") ["+"|"-"] digits], or "." digits
 * ...: exact when mantissa * 10^exponent is an int64 rational. */
static int parse_number(parser *p)
{
    size_t start = p->pos;
    uint64_t m = 0, zeros = 0;
    int64_t scale = 0, ex = 0;
    int fits = 1, exneg = 0;
    mmm_value v;
    while (is_digit(cur(p))) {
        fits = fits && accumulate_digit(&m, &zeros, cur(p) - '0');
        p->pos++;
    }
    if (cur(p) == '.') {
        p->pos++;
        if (!is_digit(cur(p)))
            return syntax_error(p, p->pos, "expected a digit after '.'");
        while (is_digit(cur(p))) {
            fits = fits && accumulate_digit(&m, &zeros, cur(p) - '0');
            scale--;
            p->pos++;
        }
    }
    if (cur(p) == 'e' || cur(p) == 'E') {
        p->pos++;
        if (cur(p) == '+' || cur(p) == '-') {
            exneg = cur(p) == '-';
            p->pos++;
        }
        if (!is_digit(cur(p)))
            return syntax_error(p, p->pos, "expected digits in the exponent");
        for (; is_digit(cur(p)); p->pos++)
            if (ex < 100000000) /* clamp: beyond is out of range anyway */
                ex = ex * 10 + (cur(p) - '0');
    }
    if ((cur(p) == 'x' || cur(p) == 'X') && p->pos == start + 1 &&
        p->text[start] == '0')
        return syntax_error(p, start,
                            "hexadecimal numbers are not supported (write "
                            "decimal numbers such as 12, 2.5, 1e6)");
    if (cur(p) == '.')
        return syntax_error(p, p->pos, "malformed number");
    if (is_name_char(cur(p)))
        return syntax_error(p, p->pos,
                            "expected an operator after the number (write "
                            "2*n, not 2n)");
    scale += (int64_t)zeros + (exneg ? -ex : ex);
    if (fits && m == 0) {
        v = v_int(0);
    } else if (fits && scale >= 0 && scale <= 18) {
        uint64_t t;
        if (!mmm__u_pow(&t, 10, (uint64_t)scale) ||
            __builtin_mul_overflow(m, t, &t) || t > INT64_MAX)
            fits = 0;
        else
            v = v_int((int64_t)t);
    } else if (fits && scale < 0 && scale >= -18) {
        uint64_t t = 1;
        mmm__u_pow(&t, 10, (uint64_t)-scale);
        v = mmm__v_parts(0, m, t); /* its double correctly rounded */
    } else {
        fits = 0;
    }
    if (!fits) {
        int rc = number_double(p, start, p->pos, &v);
        if (rc)
            return rc;
    }
    return emit_const(p, v);
}

typedef struct func_desc {
    const char *name;
    uint32_t op;
    int min_args, max_args; /* max_args < 0: unbounded */
} func_desc;

static const func_desc funcs[] = {
    {"ceil", OP_CEIL, 1, 1}, {"floor", OP_FLOOR, 1, 1},
    {"log2", OP_LOG2, 1, 1}, {"sqrt", OP_SQRT, 1, 1},
    {"min", OP_MIN, 2, -1},  {"max", OP_MAX, 2, -1},
};

static int arity_error(parser *p, const func_desc *fd)
{
    if (fd->max_args == fd->min_args)
        return mmm_error_set(p->err, MMM_EINPUT, NULL, 0,
                             "%s() takes %d argument%s", fd->name,
                             fd->min_args, fd->min_args == 1 ? "" : "s");
    return mmm_error_set(p->err, MMM_EINPUT, NULL, 0,
                         "%s() takes at least %d arguments", fd->name,
                         fd->min_args);
}

/* NAME "(" expr ("," expr)* ")" with the cursor on "(". */
static int parse_call(parser *p, const char *name, size_t len)
{
    const func_desc *fd = NULL;
    size_t i;
    int nargs = 0, rc;
    for (i = 0; i < sizeof funcs / sizeof funcs[0]; i++)
        if (strlen(funcs[i].name) == len && !memcmp(funcs[i].name, name, len))
            fd = &funcs[i];
    if (!fd)
        return mmm_error_set(p->err, MMM_EINPUT, NULL, 0,
                             "unknown function '%.*s'",
                             (int)(len > 64 ? 64 : len), name);
    if ((rc = enter(p)) != 0)
        return rc;
    p->pos++; /* "(" */
    skip_ws(p);
    if (cur(p) == ')')
        return arity_error(p, fd);
    for (;;) {
        if ((rc = parse_binary(p, PREC_OR)) != 0)
            return rc;
        nargs++;
        if (fd->max_args >= 0 && nargs > fd->max_args)
            return arity_error(p, fd);
        if (nargs >= 2 && (rc = emit_op(p, fd->op)) != 0)
            return rc; /* min/max: pairwise, so the stack stays small */
        skip_ws(p);
        if (cur(p) == ')')
            break;
        if (cur(p) != ',')
            return syntax_error(p, p->pos, "expected ',' or ')'");
        p->pos++;
    }
    p->pos++; /* ")" */
    p->depth--;
    if (nargs < fd->min_args)
        return arity_error(p, fd);
    return fd->min_args == 1 ? emit_op(p, fd->op) : 0;
}

static int parse_name(parser *p)
{
    const char *name = p->text + p->pos;
    size_t len = 0;
    int slot;
    while (is_name_char(peek_at(p, len)))
        len++;
    p->pos += len;
    skip_ws(p);
    if (cur(p) == '(')
        return parse_call(p, name, len);
    slot = p->resolve ? p->resolve(name, len, p->payload) : -1;
    if (slot < 0)
        return mmm_error_set(p->err, MMM_EINPUT, NULL, 0,
                             "unknown parameter '%.*s'",
                             (int)(len > 64 ? 64 : len), name);
    return emit(p, OP_VAR, (uint32_t)slot);
}

static int operand_error(parser *p)
{
    char c = cur(p), what[96];
    if (p->pos >= p->len)
        return syntax_error(p, p->pos, "expected a number, a name or '('");
    if (c >= 0x20 && c < 0x7f && !strchr("+-*/^()<>=!&|,.", c))
        snprintf(what, sizeof what, "unexpected character '%c'", c);
    else if (c < 0x20 || c >= 0x7f)
        snprintf(what, sizeof what, "unexpected byte 0x%02x",
                 (unsigned)(unsigned char)c);
    else
        snprintf(what, sizeof what,
                 "expected a number, a name or '(' instead of '%c'", c);
    return syntax_error(p, p->pos, what);
}

/* atom := NUMBER | NAME | NAME "(" args ")" | "(" expr ")" */
static int parse_atom(parser *p)
{
    char c;
    int rc;
    skip_ws(p);
    c = cur(p);
    if (is_digit(c) || (c == '.' && is_digit(peek_at(p, 1))))
        return parse_number(p);
    if (is_name_start(c))
        return parse_name(p);
    if (c != '(')
        return operand_error(p);
    if ((rc = enter(p)) != 0)
        return rc;
    p->pos++;
    if ((rc = parse_binary(p, PREC_OR)) != 0)
        return rc;
    skip_ws(p);
    if (cur(p) != ')')
        return syntax_error(p, p->pos, "expected ')'");
    p->pos++;
    p->depth--;
    return 0;
}

/* unary := ("-"|"!") unary | atom ["^" unary].  Prefix operators are kept
 * on p->prefix (bounded by the depth limit) rather than by recursion. */
static int parse_unary(parser *p)
{
    size_t base = p->nprefix;
    int rc;
    for (;;) {
        char c;
        skip_ws(p);
        c = cur(p);
        if (!(c == '-' || (c == '!' && peek_at(p, 1) != '=')))
            break;
        if ((rc = enter(p)) != 0)
            return rc;
        p->prefix[p->nprefix++] = (uint8_t)(c == '-' ? OP_NEG : OP_NOT);
        p->pos++;
    }
    if ((rc = parse_atom(p)) != 0)
        return rc;
    skip_ws(p);
    if (cur(p) == '^') {
        if ((rc = enter(p)) != 0)
            return rc;
        p->pos++;
        if ((rc = parse_unary(p)) != 0 || (rc = emit_op(p, OP_POW)) != 0)
            return rc;
        p->depth--;
    }
    while (p->nprefix > base) {
        if ((rc = emit_op(p, p->prefix[--p->nprefix])) != 0)
            return rc;
        p->depth--;
    }
    return 0;
}

/* Precedence climbing over || && comparisons + - * /. */
static int parse_binary(parser *p, int min_prec)
{
    int rc = parse_unary(p);
    while (rc == 0) {
        uint32_t op, op2;
        size_t len, len2;
        int prec = peek_binop(p, &op, &len);
        if (prec == 0 || prec < min_prec)
            return 0;
        p->pos += len;
        if (op == OP_ANDJ || op == OP_ORJ) {
            size_t j = p->ncode;
            if ((rc = emit(p, op, 0)) != 0 ||
                (rc = parse_binary(p, prec + 1)) != 0 ||
                (rc = emit(p, OP_BOOL, 0)) != 0)
                return rc;
            p->code[j].arg = (uint32_t)p->ncode;
            p->barrier = p->ncode; /* a jump lands here */
            continue;
        }
        if ((rc = parse_binary(p, prec + 1)) != 0 ||
            (rc = emit_op(p, op)) != 0)
            return rc;
        if (prec == PREC_CMP && peek_binop(p, &op2, &len2) == PREC_CMP)
            return syntax_error(p, p->pos,
                                "comparisons do not chain (use && between "
                                "them)");
    }
    return rc;
}

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* Stack need and the sorted slot list, from the finished code. */
static int finish(parser *p, mmm_expr *e)
{
    size_t i, depth = 0, n = 0;
    for (i = 0; i < p->ncode; i++) {
        uint32_t op = p->code[i].op;
        if (op == OP_CONST || op == OP_VAR) {
            if (++depth > e->stack)
                e->stack = depth;
            n += op == OP_VAR;
        } else if (op == OP_ANDJ || op == OP_ORJ || op_arity(op) == 2) {
            depth--; /* a jump's fall-through pops its operand */
        }
    }
    if (e->stack > MMM_EXPR_STACK)
        return mmm_error_set(p->err, MMM_ELIMIT, NULL, 0,
                             "expression too complex: it needs %zu "
                             "evaluation stack entries (limit %d)",
                             e->stack, MMM_EXPR_STACK);
    if (n > 0) {
        if (!(e->slots = malloc(n * sizeof *e->slots)))
            return nomem(p);
        for (i = 0; i < p->ncode; i++)
            if (p->code[i].op == OP_VAR)
                e->slots[e->nslots++] = (int)p->code[i].arg;
        qsort(e->slots, e->nslots, sizeof *e->slots, cmp_int);
        for (n = 1, i = 1; i < e->nslots; i++)
            if (e->slots[i] != e->slots[n - 1])
                e->slots[n++] = e->slots[i];
        e->nslots = n;
    }
    return 0;
}

static size_t effective_depth(const mmm_expr_limits *limits)
{
    size_t d = limits && limits->max_depth ? limits->max_depth : 256;
    return d > MMM_EXPR_MAX_DEPTH ? MMM_EXPR_MAX_DEPTH : d;
}

int mmm_expr_parse(mmm_expr **out, const char *text, mmm_resolve_fn resolve,
                   void *payload, const mmm_expr_limits *limits,
                   mmm_error *err)
{
    parser *p;
    mmm_expr *e;
    int rc;
    size_t maxlen = limits ? limits->max_length : 0;
    if (!out || !text)
        return mmm_error_set(err, MMM_EINVAL, NULL, 0,
                             "mmm_expr_parse: NULL argument");
    *out = NULL;
    if (maxlen && strnlen(text, maxlen + 1) > maxlen)
        return mmm_error_set(err, MMM_ELIMIT, NULL, 0,
                             "expression too long (more than %zu characters)",
                             maxlen);
    if (!(p = calloc(1, sizeof *p)) || !(e = calloc(1, sizeof *e))) {
        free(p);
        return mmm_error_set(err, MMM_ENOMEM, NULL, 0, "out of memory");
    }
    p->text = text;
    p->len = strlen(text);
    p->max_depth = effective_depth(limits);
    p->resolve = resolve;
    p->payload = payload;
    p->err = err;
    skip_ws(p);
    if (p->pos == p->len)
        rc = mmm_error_set(err, MMM_EPARSE, NULL, 0, "empty expression");
    else
        rc = parse_binary(p, PREC_OR);
    if (rc == 0) {
        skip_ws(p);
        if (p->pos < p->len)
            rc = p->depth == 0 && cur(p) == ')'
                     ? syntax_error(p, p->pos, "unbalanced ')'")
                     : syntax_error(p, p->pos,
                                    cur(p) == '='
                                        ? "expected an operator ('=' is not "
                                          "one: use '==')"
                                        : "expected an operator or the end "
                                          "of the expression");
    }
    if (rc == 0)
        rc = finish(p, e);
    if (rc == 0) {
        e->code = p->code;
        e->ncode = p->ncode;
        e->consts = p->consts;
        e->nconst = p->nconst;
        *out = e;
    } else {
        free(p->code);
        free(p->consts);
        mmm_expr_free(e);
    }
    free(p);
    return rc;
}
