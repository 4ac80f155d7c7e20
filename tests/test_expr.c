/* test_expr.c: the expression language (include/mmm/expr.h).
 *
 * Expected values are worked out by hand or by an independent double
 * evaluator written here (the fuzz test), never taken from earlier output. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "expr/expr_internal.h"
#include "mmm/expr.h"

/* ------------------------------------------------------------------------ */
/* Helpers                                                                   */

/* Variables: n m s x y z, and "far" at slot 70. */
static int resolve(const char *name, size_t len, void *payload)
{
    static const char *const names[] = {"n", "m", "s", "x", "y", "z"};
    size_t i;
    (void)payload;
    for (i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strlen(names[i]) == len && !memcmp(names[i], name, len))
            return (int)i;
    if (len == 3 && !memcmp(name, "far", 3))
        return 70;
    return -1;
}

#define NVARS 71
static mmm_value vars[NVARS];

static void set_vars(void)
{
    size_t i;
    for (i = 0; i < NVARS; i++)
        vars[i] = mmm_value_int(0);
    vars[0] = mmm_value_int(4096); /* n */
    vars[1] = mmm_value_int(1024); /* m */
    vars[2] = mmm_value_int(16);   /* s */
    vars[3] = mmm_value_int(3);    /* x */
    vars[4] = mmm_value_int(-5);   /* y */
    vars[5] = mmm_value_ratio(1, 3);
}

static mmm_expr *compile(const char *text)
{
    mmm_expr *e = NULL;
    mmm_error err;
    int rc = mmm_expr_parse(&e, text, resolve, NULL, NULL, &err);
    cr_assert_eq(rc, 0, "parse '%s' failed (%d): %s", text, rc, err.message);
    cr_assert_not_null(e);
    return e;
}

static mmm_value ev(const char *text)
{
    mmm_expr *e = compile(text);
    mmm_error err;
    mmm_value v;
    int rc;
    set_vars();
    rc = mmm_expr_eval(e, vars, NVARS, &v, &err);
    cr_assert_eq(rc, 0, "eval '%s' failed (%d): %s", text, rc, err.message);
    mmm_expr_free(e);
    return v;
}

static void exact(const char *text, int64_t num, int64_t den)
{
    mmm_value v = ev(text);
    cr_assert(v.exact, "'%s' should be exact, got %.17g", text, v.d);
    cr_assert(v.num == num && v.den == den,
              "'%s' = %lld/%lld, expected %lld/%lld", text, (long long)v.num,
              (long long)v.den, (long long)num, (long long)den);
    cr_assert(fabs(v.d - (double)num / (double)den) <=
                  1e-15 * fabs((double)num / (double)den),
              "'%s': d = %.17g does not match %lld/%lld", text, v.d,
              (long long)num, (long long)den);
}

static void inexact(const char *text, double want)
{
    mmm_value v = ev(text);
    cr_assert(!v.exact, "'%s' should be inexact", text);
    cr_assert(fabs(v.d - want) <= 1e-12 * fabs(want),
              "'%s' = %.17g, expected %.17g", text, v.d, want);
}

static void parse_fails(const char *text, int code, const char *msg)
{
    mmm_expr *e = (mmm_expr *)1;
    mmm_error err;
    int rc = mmm_expr_parse(&e, text, resolve, NULL, NULL, &err);
    cr_assert_eq(rc, code, "parse '%.80s': rc %d, expected %d (%s)", text, rc,
                 code, err.message);
    cr_assert_eq(err.code, code);
    cr_assert_null(e, "*out is NULL after an error");
    cr_assert(strstr(err.message, msg), "parse '%.80s': message '%s' lacks '%s'",
              text, err.message, msg);
}

static void eval_fails(const char *text, int code, const char *msg)
{
    mmm_expr *e = compile(text);
    mmm_error err;
    mmm_value v;
    int rc;
    set_vars();
    rc = mmm_expr_eval(e, vars, NVARS, &v, &err);
    mmm_expr_free(e);
    cr_assert_eq(rc, code, "eval '%s': rc %d, expected %d", text, rc, code);
    cr_assert(strstr(err.message, msg), "eval '%s': message '%s' lacks '%s'",
              text, err.message, msg);
}

/* ------------------------------------------------------------------------ */
/* Grammar                                                                   */

Test(expr, precedence_and_associativity)
{
    exact("2^3^2", 512, 1);
    exact("(2^3)^2", 64, 1);
    exact("-2^2", -4, 1);
    exact("(-2)^2", 4, 1);
    exact("-3^2", -9, 1);
    exact("7-3-2", 2, 1);
    exact("8/4/2", 1, 1);
    exact("2+3*4", 14, 1);
    exact("(2+3)*4", 20, 1);
    exact("2*3^2", 18, 1);
    exact("2^3*2", 16, 1);
    exact("10-2^2", 6, 1);
    exact("2/3*3", 2, 1);
    exact("2^-1", 1, 2);
    exact("-2^-2", -1, 4);
    exact("2^-2^2", 1, 16); /* 2^(-(2^2)) */
    exact("--3", 3, 1);
    exact("2--3", 5, 1);
    exact("!0+1", 2, 1);
    exact("1 || 0 && 0", 1, 1); /* && binds tighter than || */
    exact("(1 || 0) && 0", 0, 1);
    exact("1+2 < 4", 1, 1);
    exact("3 >= 3 && 2 != 3 && !(1 == 2) && 1 <= 1 && 2 > 1", 1, 1);
    exact(" \t 1\n+\r2 ", 3, 1); /* whitespace is free */
}

Test(expr, numbers)
{
    exact("0", 0, 1);
    exact("007", 7, 1);
    exact("2.5", 5, 2);
    exact(".5", 1, 2);
    exact("1e6", 1000000, 1);
    exact("1E+6", 1000000, 1);
    exact("1e-3", 1, 1000);
    exact("12.50e-1", 5, 4);
    exact("0.000", 0, 1);
    exact("0e999999999999", 0, 1);
    exact("100000000000000000000e-10", 10000000000, 1);
    exact("9223372036854775807", INT64_MAX, 1);
    exact("0.1+0.2", 3, 10);
    inexact("1e20", 1e20);
    inexact("1e-30", 1e-30);
    inexact("9223372036854775808", 9223372036854775808.0);
    inexact("123456789012345678901234567890", 1.2345678901234568e29);
    parse_fails("1e309", MMM_EPARSE, "number out of range at column 1");
    parse_fails("1e-400", MMM_EPARSE, "number out of range");
    parse_fails("0x10", MMM_EPARSE, "hexadecimal numbers are not supported");
    parse_fails("1.2.3", MMM_EPARSE, "malformed number");
    parse_fails("5.", MMM_EPARSE, "expected a digit after '.'");
    parse_fails("1e", MMM_EPARSE, "expected digits in the exponent");
    parse_fails("2n", MMM_EPARSE, "expected an operator after the number");
    parse_fails("inf", MMM_EINPUT, "unknown parameter 'inf'");
    parse_fails("nan", MMM_EINPUT, "unknown parameter 'nan'");
}

/* ------------------------------------------------------------------------ */
/* Exactness                                                                 */

Test(expr, exact_results)
{
    exact("ceil((4096-1024+1)/4)", 769, 1);
    exact("ceil((n-m+1)/4)", 769, 1);
    exact("(n-m+1)/4", 3073, 4);
    exact("1/3+1/6", 1, 2);
    exact("1/3-1/2", -1, 6);
    exact("(2/3)*(9/4)", 3, 2);
    exact("(2/3)/(4/9)", 3, 2);
    exact("(-2/3)/(4/9)", -3, 2);
    exact("(2/3)/(-4/9)", -3, 2);
    exact("1/3*3", 1, 1);
    exact("log2(1024)", 10, 1);
    exact("log2(1)", 0, 1);
    exact("log2(1/8)", -3, 1);
    exact("log2(2^62)", 62, 1);
    exact("sqrt(49/4)", 7, 2);
    exact("sqrt(0)", 0, 1);
    exact("sqrt(9223372030926249001)", 3037000499, 1);
    exact("(2/3)^3", 8, 27);
    exact("(2/3)^-3", 27, 8);
    exact("(-2/3)^-3", -27, 8);
    exact("0^0", 1, 1);
    exact("0^5", 0, 1);
    exact("1^(-9223372036854775807-1)", 1, 1);
    exact("(-1)^9223372036854775807", -1, 1);
    exact("floor(7/2)", 3, 1);
    exact("ceil(7/2)", 4, 1);
    exact("floor(-7/2)", -4, 1);
    exact("ceil(-7/2)", -3, 1);
    exact("ceil(4)", 4, 1);
    exact("floor(-4)", -4, 1);
    exact("min(3, 1, 2)", 1, 1);
    exact("max(1/2, 1/3, -7)", 1, 2);
    exact("min(z, 1/4)", 1, 4);
    exact("0.1+0.2 == 3/10", 1, 1);
    inexact("log2(3)", 1.5849625007211562);
    inexact("sqrt(2)", 1.4142135623730951);
    inexact("sqrt(1/2)", 0.70710678118654757);
    inexact("4^(1/2)", 2.0); /* fractional exponent: pow() */
    inexact("log2(3) - log2(3) + 1", 1.0);
    /* ceil/floor of a double give an exact integer below 2^63 */
    exact("ceil(log2(3))", 2, 1);
    exact("floor(log2(3))", 1, 1);
    exact("floor(-sqrt(2))", -2, 1);
    inexact("ceil(2^70)", 1180591620717411303424.0);
    /* min/max return the chosen operand as is */
    exact("min(1, log2(3))", 1, 1);
    inexact("max(1, log2(3))", 1.5849625007211562);
}

Test(expr, overflow_falls_back_to_double)
{
    inexact("2^62*4", 18446744073709551616.0);
    inexact("2^63", 9223372036854775808.0);
    inexact("2^62+2^62", 9223372036854775808.0);
    inexact("9223372036854775807+1", 9223372036854775808.0);
    inexact("-9223372036854775807-2", -9223372036854775809.0);
    inexact("3037000500*3037000500", 9.22337203700025e18);
    inexact("2^64/2^2", 4611686018427387904.0); /* inexact stays inexact */
    inexact("1/4294967291 + 1/4294967279",
            1.0 / 4294967291.0 + 1.0 / 4294967279.0);
    inexact("(1/4294967291) * (1/4294967279)",
            1.0 / 4294967291.0 / 4294967279.0);
    inexact("(3/2)^200", pow(1.5, 200));
    inexact("(1/2)^100", pow(0.5, 100));
    inexact("2^1000", pow(2, 1000));
    /* exact again whenever the exact result fits */
    inexact("2^62 + 2^62 - 2^62", 4611686018427387904.0); /* left to right */
    exact("2^62 - 2^62 + 2^62", 4611686018427387904, 1);
    exact("9223372036854775807 - 9223372036854775806", 1, 1);
    exact("(9223372036854775807/2) * 2", INT64_MAX, 1);
    exact("(9223372036854775807/3) / (9223372036854775807/6)", 2, 1);
}

Test(expr, int64_edges)
{
    exact("-9223372036854775807-1", INT64_MIN, 1);
    exact("(-2)^63", INT64_MIN, 1);
    exact("-9223372036854775807", -INT64_MAX, 1);
    exact("-(-9223372036854775807)", INT64_MAX, 1);
    inexact("-(-9223372036854775807-1)", 9223372036854775808.0);
    inexact("(-9223372036854775807-1)/-1", 9223372036854775808.0);
    inexact("(-9223372036854775807-1)*-1", 9223372036854775808.0);
    exact("(-9223372036854775807-1)/2", INT64_MIN / 2, 1);
    exact("(-9223372036854775807-1)/(-9223372036854775807-1)", 1, 1);
    inexact("1/(-9223372036854775807-1)", -1.0 / 9223372036854775808.0);
    exact("-1/9223372036854775807", -1, INT64_MAX);
}

/* ------------------------------------------------------------------------ */
/* Comparisons and booleans                                                  */

Test(expr, comparisons_and_booleans)
{
    exact("1 < 2", 1, 1);
    exact("2 < 1", 0, 1);
    exact("1/3 < 1/2", 1, 1);
    exact("-1/3 < -1/2", 0, 1);
    exact("2/4 == 1/2", 1, 1);
    exact("2/4 != 1/2", 0, 1);
    exact("1/3 <= 1/3", 1, 1);
    exact("1/3 >= 1/3", 1, 1);
    exact("1/3 > 1/3", 0, 1);
    /* these differ by ~1e-37: equal as doubles, told apart exactly */
    exact("9223372036854775807/9223372036854775806 < "
          "9223372036854775806/9223372036854775805",
          1, 1);
    exact("9223372036854775807/9223372036854775806 == "
          "9223372036854775806/9223372036854775805",
          0, 1);
    exact("(-9223372036854775807-1)/9223372036854775807 > "
          "-9223372036854775806/9223372036854775805",
          1, 1);
    exact("4611686018427387903/9223372036854775807 > "
          "4611686018427387902/9223372036854775805",
          1, 1);
    exact("2 && 3", 1, 1);
    exact("2 && 0", 0, 1);
    exact("0 || 1/2", 1, 1);
    exact("0 || 0", 0, 1);
    exact("!5", 0, 1);
    exact("!0", 1, 1);
    exact("!!7", 1, 1);
    exact("!(log2(3) - log2(3))", 1, 1);
    exact("log2(3) > 1.58 && log2(3) < 1.59", 1, 1);
    /* && and || short-circuit, so a guard protects a division */
    exact("0 && 1/0", 0, 1);
    exact("1 || 1/0", 1, 1);
    exact("s > 0 && n/s <= 256", 1, 1);
    exact("x == 3 && (y == -5 || 1/0)", 1, 1);
    eval_fails("1 && 1/0", MMM_EDOMAIN, "division by zero");
    eval_fails("0 || 1/0", MMM_EDOMAIN, "division by zero");
    parse_fails("1 < 2 < 3", MMM_EPARSE,
                "comparisons do not chain (use && between them) at column 7");
    parse_fails("1 == 1 == 1", MMM_EPARSE, "comparisons do not chain");
}

/* ------------------------------------------------------------------------ */
/* Errors                                                                    */

Test(expr, syntax_errors)
{
    parse_fails("ceil((n", MMM_EPARSE, "expected ')' at column 8 in 'ceil((n'");
    parse_fails("1 +", MMM_EPARSE,
                "expected a number, a name or '(' at column 4 in '1 +'");
    parse_fails("(1 2)", MMM_EPARSE, "expected ')' at column 4 in '(1 2)'");
    parse_fails("min(1 2)", MMM_EPARSE, "expected ',' or ')' at column 7");
    parse_fails("1 2", MMM_EPARSE,
                "expected an operator or the end of the expression at "
                "column 3 in '1 2'");
    parse_fails("1 )", MMM_EPARSE, "unbalanced ')' at column 3");
    parse_fails(")", MMM_EPARSE, "expected a number, a name or '(' instead of ')'");
    parse_fails("1 = 2", MMM_EPARSE, "use '=='");
    parse_fails("1 & 2", MMM_EPARSE, "at column 3");
    parse_fails("3 $ 4", MMM_EPARSE, "column 3 in '3 $ 4'");
    parse_fails("$", MMM_EPARSE, "unexpected character '$' at column 1");
    parse_fails("1 + \x01", MMM_EPARSE, "unexpected byte 0x01 at column 5");
    parse_fails("+1", MMM_EPARSE, "at column 1");
    parse_fails("", MMM_EPARSE, "empty expression");
    parse_fails("   ", MMM_EPARSE, "empty expression");
    parse_fails("()", MMM_EPARSE, "at column 2");
    parse_fails("2^", MMM_EPARSE, "at column 3");
    parse_fails("min(1,)", MMM_EPARSE, "at column 7");
}

Test(expr, long_text_is_quoted_in_a_window)
{
    char text[400], want[32];
    mmm_expr *e;
    mmm_error err;
    size_t i;
    for (i = 0; i < 150; i++)
        memcpy(text + 2 * i, "1+", 2);
    memcpy(text + 300, "(1", 3); /* unclosed, error at column 303 */
    cr_assert_eq(mmm_expr_parse(&e, text, NULL, NULL, NULL, &err), MMM_EPARSE);
    snprintf(want, sizeof want, "expected ')' at column %d", 303);
    cr_assert(strstr(err.message, want), "%s", err.message);
    cr_assert(strstr(err.message, "'...1+1+"), "%s", err.message);
    cr_assert(strstr(err.message, "+(1'"), "%s", err.message);
    cr_assert_lt(strlen(err.message), 160, "%s", err.message);
}

Test(expr, name_errors)
{
    parse_fails("x + q", MMM_EINPUT, "unknown parameter 'q'");
    parse_fails("f(2)", MMM_EINPUT, "unknown function 'f'");
    parse_fails("n(2)", MMM_EINPUT, "unknown function 'n'");
    parse_fails("log2(1, 2)", MMM_EINPUT, "log2() takes 1 argument");
    parse_fails("ceil()", MMM_EINPUT, "ceil() takes 1 argument");
    parse_fails("sqrt(1,2,3)", MMM_EINPUT, "sqrt() takes 1 argument");
    parse_fails("min(1)", MMM_EINPUT, "min() takes at least 2 arguments");
    parse_fails("max()", MMM_EINPUT, "max() takes at least 2 arguments");
    /* without a resolver every name is unknown */
    {
        mmm_expr *e;
        mmm_error err;
        cr_assert_eq(mmm_expr_parse(&e, "n+1", NULL, NULL, NULL, &err),
                     MMM_EINPUT);
        cr_assert_str_eq(err.message, "unknown parameter 'n'");
    }
    /* names may contain digits and underscores; functions stay names */
    exact("ceil (7/2)", 4, 1);
}

Test(expr, domain_errors)
{
    eval_fails("1/0", MMM_EDOMAIN, "division by zero");
    eval_fails("n/(s-16)", MMM_EDOMAIN, "division by zero");
    eval_fails("1/(log2(3)-log2(3))", MMM_EDOMAIN, "division by zero");
    eval_fails("log2(0)", MMM_EDOMAIN, "log2 of 0");
    eval_fails("log2(-1/2)", MMM_EDOMAIN, "log2 of -1/2");
    eval_fails("log2(-sqrt(2))", MMM_EDOMAIN, "log2 of -1.414");
    eval_fails("sqrt(-1)", MMM_EDOMAIN, "sqrt of -1");
    eval_fails("sqrt(y)", MMM_EDOMAIN, "sqrt of -5");
    eval_fails("0^-1", MMM_EDOMAIN, "zero to a negative power");
    eval_fails("0^(-1/2)", MMM_EDOMAIN, "zero to a negative power");
    eval_fails("(-8)^(1/3)", MMM_EDOMAIN, "is not a real number");
    eval_fails("10^400", MMM_EDOMAIN, "result of '^' is not a finite number");
    eval_fails("2^1024", MMM_EDOMAIN, "'^'");
    eval_fails("1e308*10", MMM_EDOMAIN, "result of '*' is not a finite");
    eval_fails("1e308+1e308", MMM_EDOMAIN, "result of '+'");
    eval_fails("-1e308-1e308", MMM_EDOMAIN, "result of '-'");
    eval_fails("1e308/1e-10", MMM_EDOMAIN, "result of '/'");
}

/* ------------------------------------------------------------------------ */
/* Variables                                                                 */

Test(expr, variable_slots)
{
    mmm_expr *e = compile("ceil(n/(2*s)) + far - x*x");
    mmm_expr *c = compile("2^10 + 3");
    mmm_value v, few[3];
    mmm_error err;
    cr_assert(mmm_expr_uses(e, 0));
    cr_assert(!mmm_expr_uses(e, 1));
    cr_assert(mmm_expr_uses(e, 2));
    cr_assert(mmm_expr_uses(e, 3));
    cr_assert(mmm_expr_uses(e, 70));
    cr_assert(!mmm_expr_uses(e, 69));
    cr_assert(!mmm_expr_uses(e, -1));
    cr_assert_eq(mmm_expr_max_slot(e), 70);
    cr_assert(!mmm_expr_is_constant(e));
    cr_assert_eq(mmm_expr_max_slot(c), -1);
    cr_assert(mmm_expr_is_constant(c));
    cr_assert_eq(mmm__expr_code_length(c), 1, "constants are folded");

    set_vars();
    vars[70] = mmm_value_int(100);
    cr_assert_eq(mmm_expr_eval(e, vars, NVARS, &v, &err), 0, "%s", err.message);
    cr_assert(v.exact && v.num == 128 + 100 - 9 && v.den == 1);
    /* vars change, the code does not */
    vars[2] = mmm_value_int(3);
    cr_assert_eq(mmm_expr_eval(e, vars, NVARS, &v, &err), 0);
    cr_assert(v.exact && v.num == 683 + 100 - 9, "%lld", (long long)v.num);
    vars[3] = mmm_value_ratio(1, 2);
    cr_assert_eq(mmm_expr_eval(e, vars, NVARS, &v, &err), 0);
    cr_assert(v.exact && v.num == 4 * (683 + 100) - 1 && v.den == 4);
    /* a slot beyond nvars is refused */
    cr_assert_eq(mmm_expr_eval(e, vars, 70, &v, &err), MMM_EINVAL);
    cr_assert(strstr(err.message, "slot 70"), "%s", err.message);
    cr_assert_eq(mmm_expr_eval(e, NULL, 0, &v, &err), MMM_EINVAL);
    cr_assert_eq(mmm_expr_eval(c, NULL, 0, &v, &err), 0);
    cr_assert(v.exact && v.num == 1027);
    /* a malformed value is refused, not divided by */
    few[0] = mmm_value_int(1);
    few[1] = mmm_value_int(1);
    few[2] = mmm_value_int(1);
    few[2].den = 0;
    {
        mmm_expr *d = compile("n/s");
        cr_assert_eq(mmm_expr_eval(d, few, 3, &v, &err), MMM_EINVAL);
        few[2] = mmm_value_double(NAN);
        cr_assert_eq(mmm_expr_eval(d, few, 3, &v, &err), MMM_EINVAL);
        few[2] = mmm_value_double(0.5);
        cr_assert_eq(mmm_expr_eval(d, few, 3, &v, &err), 0);
        cr_assert(!v.exact && v.d == 2.0, "a double variable is inexact");
        mmm_expr_free(d);
    }
    mmm_expr_free(e);
    mmm_expr_free(c);
    mmm_expr_free(NULL);
}

static int resolve_payload(const char *name, size_t len, void *payload)
{
    int *calls = payload;
    (*calls)++;
    return len == 10 && !memcmp(name, "long_name9", len) ? 5 : -1;
}

Test(expr, resolver_gets_name_and_payload)
{
    int calls = 0;
    mmm_expr *e;
    mmm_error err;
    cr_assert_eq(mmm_expr_parse(&e, "long_name9 * (long_name9+1)",
                                resolve_payload, &calls, NULL, &err),
                 0);
    cr_assert_eq(calls, 2);
    cr_assert_eq(mmm_expr_max_slot(e), 5);
    mmm_expr_free(e);
    cr_assert_eq(mmm_expr_parse(&e, "long_name", resolve_payload, &calls,
                                NULL, &err),
                 MMM_EINPUT);
    cr_assert_str_eq(err.message, "unknown parameter 'long_name'");
}

/* ------------------------------------------------------------------------ */
/* Values                                                                    */

Test(expr, value_helpers)
{
    mmm_value v;
    char buf[64];
    v = mmm_value_ratio(6, -4);
    cr_assert(v.exact && v.num == -3 && v.den == 2 && v.d == -1.5);
    v = mmm_value_ratio(0, -7);
    cr_assert(v.exact && v.num == 0 && v.den == 1);
    v = mmm_value_ratio(INT64_MIN, -1);
    cr_assert(!v.exact && v.d == 9223372036854775808.0);
    v = mmm_value_ratio(INT64_MIN, INT64_MIN);
    cr_assert(v.exact && v.num == 1 && v.den == 1);
    v = mmm_value_ratio(INT64_MIN, 2);
    cr_assert(v.exact && v.num == INT64_MIN / 2 && v.den == 1);
    v = mmm_value_ratio(3, INT64_MIN);
    cr_assert(!v.exact);
    cr_assert(mmm_value_is_int(mmm_value_int(-4)));
    cr_assert(!mmm_value_is_int(mmm_value_ratio(1, 2)));
    v = mmm_value_double(3.0);
    cr_assert(v.exact && v.num == 3 && v.den == 1);
    cr_assert(!mmm_value_is_int(mmm_value_double(2.5)));
    cr_assert(!mmm_value_double(9223372036854775808.0).exact);
    cr_assert(mmm_value_double(-9223372036854774784.0).exact);
    cr_assert(!mmm_value_double(INFINITY).exact);

    cr_assert_str_eq(mmm_value_format(mmm_value_int(-42), 1, buf, sizeof buf),
                     "-42");
    cr_assert_str_eq(mmm_value_format(mmm_value_ratio(5, 2), 1, buf, sizeof buf),
                     "5/2");
    cr_assert_str_eq(mmm_value_format(mmm_value_ratio(5, 2), 0, buf, sizeof buf),
                     "2.5");
    cr_assert_str_eq(mmm_value_format(mmm_value_ratio(1, 3), 0, buf, sizeof buf),
                     "0.3333333333333333");
    cr_assert_str_eq(mmm_value_format(mmm_value_double(0.1), 0, buf, sizeof buf),
                     "0.1");
    cr_assert_str_eq(mmm_value_format(mmm_value_double(1.2e20), 0, buf, sizeof buf),
                     "1.2e+20");
    cr_assert_str_eq(mmm_value_format(mmm_value_int(INT64_MIN), 0, buf, sizeof buf),
                     "-9223372036854775808");
    cr_assert_eq(strtod(mmm_value_format(mmm_value_double(3.141592653589793), 0, buf,
                                         sizeof buf),
                        NULL),
                 3.141592653589793);
    cr_assert_str_eq(mmm_value_format(mmm_value_int(123456), 0, buf, 4), "123");
}

static void count_ok(mmm_value v, int64_t want)
{
    int64_t n = -1;
    mmm_error err;
    cr_assert_eq(mmm_value_to_count(&n, v, "blocks", &err), 0, "%s",
                 err.message);
    cr_assert_eq(n, want);
}

static void count_fails(mmm_value v, const char *what, int code,
                        const char *msg)
{
    int64_t n = -1;
    mmm_error err;
    cr_assert_eq(mmm_value_to_count(&n, v, what, &err), code);
    cr_assert_str_eq(err.message, msg);
    cr_assert_eq(err.line, 0);
    cr_assert_str_eq(err.file, "");
    cr_assert_eq(n, -1, "*out untouched on error");
}

Test(expr, value_to_count)
{
    count_ok(mmm_value_int(12), 12);
    count_ok(mmm_value_int(0), 0);
    count_ok(mmm_value_int(INT64_MAX), INT64_MAX);
    count_ok(mmm_value_double(3.0), 3);
    count_ok(ev("ceil(25/2)"), 13);
    count_ok(ev("2^53-1"), 9007199254740991);
    {
        mmm_value v = ev("log2(3)*0+7"); /* inexact but integral */
        cr_assert(!v.exact);
        count_ok(v, 7);
    }
    count_fails(ev("25/2"), "blocks", MMM_EINFEASIBLE,
                "blocks = 12.5 is not an integer (use ceil() or floor())");
    count_fails(ev("log2(3)"), "threads", MMM_EINFEASIBLE,
                "threads = 1.584962500721156 is not an integer (use ceil() or "
                "floor())");
    count_fails(mmm_value_int(-3), "repeat", MMM_EINFEASIBLE,
                "repeat = -3 is negative");
    count_fails(mmm_value_ratio(-5, 2), "repeat", MMM_EINFEASIBLE,
                "repeat = -2.5 is negative");
    count_fails(mmm_value_double(1.2e20), "blocks", MMM_EOVERFLOW,
                "blocks = 1.2e+20 does not fit in 64 bits");
    count_fails(ev("2^64"), "blocks", MMM_EOVERFLOW,
                "blocks = 1.8446744073709552e+19 does not fit in 64 bits");
    count_fails(mmm_value_double(INFINITY), "blocks", MMM_EOVERFLOW,
                "blocks = inf does not fit in 64 bits");
    {
        int64_t n;
        mmm_error err;
        cr_assert_eq(mmm_value_to_count(&n, ev("2^60*1.5+log2(3)*0"),
                                        "repeat", &err),
                     MMM_EOVERFLOW);
        cr_assert(strstr(err.message, "repeat = "), "%s", err.message);
        cr_assert_eq(mmm_value_to_count(&n, mmm_value_int(-1), "x", NULL),
                     MMM_EINFEASIBLE, "err may be NULL");
    }
}

/* ------------------------------------------------------------------------ */
/* Limits                                                                    */

static char *repeat_text(const char *prefix, size_t n, const char *middle,
                         const char *suffix, size_t m)
{
    size_t lp = strlen(prefix), lm = strlen(middle), ls = strlen(suffix), i;
    char *t = malloc(lp * n + lm + ls * m + 1), *o = t;
    cr_assert_not_null(t);
    for (i = 0; i < n; i++, o += lp)
        memcpy(o, prefix, lp);
    memcpy(o, middle, lm);
    o += lm;
    for (i = 0; i < m; i++, o += ls)
        memcpy(o, suffix, ls);
    *o = '\0';
    return t;
}

static int parse_with(const char *text, size_t max_length, size_t max_depth,
                      mmm_error *err, mmm_expr **out)
{
    mmm_expr_limits lim;
    mmm_expr *e = NULL;
    int rc;
    lim.max_length = max_length;
    lim.max_depth = max_depth;
    rc = mmm_expr_parse(&e, text, resolve, NULL, &lim, err);
    if (out)
        *out = e;
    else
        mmm_expr_free(e);
    return rc;
}

Test(expr, deep_nesting_is_refused_cleanly)
{
    static const size_t sizes[] = {257, 100000, 1000000};
    mmm_error err;
    size_t i;
    for (i = 0; i < 3; i++) {
        size_t n = sizes[i];
        char *t = repeat_text("(", n, "1", ")", n);
        cr_assert_eq(parse_with(t, 0, 0, &err, NULL), MMM_ELIMIT);
        cr_assert(strstr(err.message, "nested too deeply (more than 256"),
                  "%s", err.message);
        free(t);
        t = repeat_text("(", n, "", "", 0); /* unclosed */
        cr_assert_eq(parse_with(t, 0, 0, &err, NULL), MMM_ELIMIT);
        free(t);
        t = repeat_text("-", n, "1", "", 0);
        cr_assert_eq(parse_with(t, 0, 0, &err, NULL), MMM_ELIMIT);
        free(t);
        t = repeat_text("!", n, "1", "", 0);
        cr_assert_eq(parse_with(t, 0, 0, &err, NULL), MMM_ELIMIT);
        free(t);
        t = repeat_text("2^", n, "2", "", 0);
        cr_assert_eq(parse_with(t, 0, 0, &err, NULL), MMM_ELIMIT);
        free(t);
        t = repeat_text("ceil(", n, "1", ")", n);
        cr_assert_eq(parse_with(t, 0, 0, &err, NULL), MMM_ELIMIT);
        free(t);
        t = repeat_text("min(1,", n, "1", ")", n);
        cr_assert_eq(parse_with(t, 0, 0, &err, NULL), MMM_ELIMIT);
        free(t);
    }
}

Test(expr, depth_limit_is_exact)
{
    mmm_error err;
    mmm_expr *e;
    mmm_value v;
    char *t = repeat_text("(", 256, "x", ")", 256);
    char *u = repeat_text("(", 257, "x", ")", 257);
    char *w = repeat_text("(", 64, "x", ")", 64);
    char *z = repeat_text("(", 65, "x", ")", 65);
    cr_assert_eq(parse_with(t, 0, 0, &err, &e), 0, "%s", err.message);
    set_vars();
    cr_assert_eq(mmm_expr_eval(e, vars, NVARS, &v, &err), 0);
    cr_assert(v.exact && v.num == 3);
    mmm_expr_free(e);
    cr_assert_eq(parse_with(u, 0, 0, &err, NULL), MMM_ELIMIT);
    cr_assert_eq(parse_with(u, 0, 1000000, &err, NULL), MMM_ELIMIT,
                 "the depth limit is capped at 256");
    cr_assert_eq(parse_with(w, 0, 64, &err, NULL), 0, "%s", err.message);
    cr_assert_eq(parse_with(z, 0, 64, &err, NULL), MMM_ELIMIT);
    cr_assert(strstr(err.message, "more than 64 levels"), "%s", err.message);
    /* unary operators and '^' count as levels too */
    free(w);
    w = repeat_text("-", 64, "1", "", 0);
    cr_assert_eq(parse_with(w, 0, 64, &err, NULL), 0, "%s", err.message);
    free(z);
    z = repeat_text("-", 65, "1", "", 0);
    cr_assert_eq(parse_with(z, 0, 64, &err, NULL), MMM_ELIMIT);
    free(t);
    free(u);
    free(w);
    free(z);
}

Test(expr, evaluation_stack_limit)
{
    mmm_error err;
    mmm_expr *e;
    mmm_value v;
    /* every level leaves two operands pending: x, x*(...) */
    char *ok = repeat_text("x+x*(", 127, "x", ")", 127);
    char *big = repeat_text("x+x*(", 128, "x", ")", 128);
    cr_assert_eq(parse_with(ok, 0, 0, &err, &e), 0, "%s", err.message);
    cr_assert_eq(mmm__expr_stack_need(e), 255);
    set_vars();
    vars[3] = mmm_value_int(1);
    cr_assert_eq(mmm_expr_eval(e, vars, NVARS, &v, &err), 0);
    cr_assert(v.exact && v.num == 128 && v.den == 1);
    mmm_expr_free(e);
    cr_assert_eq(parse_with(big, 0, 0, &err, NULL), MMM_ELIMIT);
    cr_assert(strstr(err.message, "257 evaluation stack entries"), "%s",
              err.message);
    free(ok);
    free(big);
}

Test(expr, long_expressions)
{
    mmm_error err;
    mmm_expr *e;
    mmm_value v;
    char *t;
    cr_assert_eq(parse_with("1+2+3+4+5+6", 10, 0, &err, NULL), MMM_ELIMIT);
    cr_assert_str_eq(err.message,
                     "expression too long (more than 10 characters)");
    cr_assert_eq(parse_with("1+2+3+4+56", 10, 0, &err, NULL), 0);
    /* the length is checked before anything else */
    t = repeat_text("(", 1000000, "", "", 0);
    cr_assert_eq(parse_with(t, 4096, 0, &err, NULL), MMM_ELIMIT);
    cr_assert(strstr(err.message, "too long"), "%s", err.message);
    free(t);
    /* a million constant terms fold into one constant */
    t = repeat_text("1+", 999999, "1", "", 0);
    cr_assert_eq(parse_with(t, 0, 0, &err, &e), 0, "%s", err.message);
    cr_assert_eq(mmm__expr_code_length(e), 1);
    cr_assert_eq(mmm_expr_eval(e, NULL, 0, &v, &err), 0);
    cr_assert(v.exact && v.num == 1000000);
    mmm_expr_free(e);
    free(t);
    /* a hundred thousand variable terms: long code, stack of two */
    t = repeat_text("x+", 99999, "x", "", 0);
    cr_assert_eq(parse_with(t, 0, 0, &err, &e), 0, "%s", err.message);
    cr_assert_eq(mmm__expr_stack_need(e), 2);
    cr_assert_eq(mmm__expr_code_length(e), 199999);
    set_vars();
    cr_assert_eq(mmm_expr_eval(e, vars, NVARS, &v, &err), 0);
    cr_assert(v.exact && v.num == 300000);
    mmm_expr_free(e);
    free(t);
    /* min() of many arguments is evaluated pairwise */
    t = repeat_text("min(y", 1, "", ",x", 100000);
    {
        size_t l = strlen(t);
        t = realloc(t, l + 2);
        t[l] = ')';
        t[l + 1] = '\0';
    }
    cr_assert_eq(parse_with(t, 0, 0, &err, &e), 0, "%s", err.message);
    cr_assert_eq(mmm__expr_stack_need(e), 2);
    cr_assert_eq(mmm_expr_eval(e, vars, NVARS, &v, &err), 0);
    cr_assert(v.exact && v.num == -5);
    mmm_expr_free(e);
    free(t);
}

Test(expr, bad_arguments)
{
    mmm_expr *e;
    mmm_error err;
    mmm_value v;
    cr_assert_eq(mmm_expr_parse(NULL, "1", NULL, NULL, NULL, &err), MMM_EINVAL);
    cr_assert_eq(mmm_expr_parse(&e, NULL, NULL, NULL, NULL, &err), MMM_EINVAL);
    cr_assert_eq(mmm_expr_parse(&e, "1/", NULL, NULL, NULL, NULL), MMM_EPARSE,
                 "err may be NULL");
    cr_assert_eq(mmm_expr_eval(NULL, NULL, 0, &v, &err), MMM_EINVAL);
    cr_assert_eq(mmm_expr_uses(NULL, 0), 0);
    cr_assert_eq(mmm_expr_max_slot(NULL), -1);
}

/* ------------------------------------------------------------------------ */
/* Random expressions against an independent double evaluator               */

enum fz_kind { FZ_NUM, FZ_VAR, FZ_BIN, FZ_NEG, FZ_NOT, FZ_POW, FZ_F1, FZ_F2 };

typedef struct fz_node {
    int kind;
    char op;    /* FZ_BIN: + - * / < = & | (= is ==, & is &&, | is ||);
                   FZ_F1: c f (ceil floor); FZ_F2: m M (min max) */
    double num; /* FZ_NUM */
    int var;    /* FZ_VAR: slot 3..5 (x y z) */
    int k;      /* FZ_POW: the literal exponent */
    struct fz_node *l, *r;
} fz_node;

typedef struct fz_gen {
    uint64_t state;
    fz_node pool[512];
    size_t used;
} fz_gen;

static unsigned fz_rand(fz_gen *g, unsigned n)
{
    g->state ^= g->state << 13; /* xorshift64 */
    g->state ^= g->state >> 7;
    g->state ^= g->state << 17;
    return (unsigned)(g->state % n);
}

static fz_node *fz_tree(fz_gen *g, int depth)
{
    static const double nums[] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 0.5, 1.25, 2.5};
    static const char bins[] = "+-*/+-*/<=&|";
    fz_node *n = &g->pool[g->used++];
    unsigned c = depth <= 0 ? fz_rand(g, 2) : fz_rand(g, 16);
    memset(n, 0, sizeof *n);
    if (c == 0) {
        n->kind = FZ_NUM;
        n->num = nums[fz_rand(g, sizeof nums / sizeof nums[0])];
    } else if (c == 1) {
        n->kind = FZ_VAR;
        n->var = 3 + (int)fz_rand(g, 3);
    } else if (c < 9) {
        n->kind = FZ_BIN;
        n->op = bins[fz_rand(g, (unsigned)strlen(bins))];
    } else if (c == 9) {
        n->kind = FZ_NEG;
    } else if (c == 10) {
        n->kind = FZ_NOT;
    } else if (c < 13) {
        n->kind = FZ_POW;
        n->k = (int)fz_rand(g, 5) - 1; /* -1..3 */
    } else if (c == 13) {
        n->kind = FZ_F1;
        n->op = fz_rand(g, 2) ? 'c' : 'f';
    } else {
        n->kind = FZ_F2;
        n->op = fz_rand(g, 2) ? 'm' : 'M';
    }
    if (n->kind >= FZ_BIN)
        n->l = fz_tree(g, depth - 1);
    if (n->kind == FZ_BIN || n->kind == FZ_F2)
        n->r = fz_tree(g, depth - 1);
    return n;
}

static int fz_prec(const fz_node *n)
{
    switch (n->kind) {
    case FZ_BIN:
        return n->op == '|' ? 1 : n->op == '&' ? 2 : strchr("<=", n->op) ? 3
               : strchr("+-", n->op)                                      ? 4
                                                                          : 5;
    case FZ_NEG:
    case FZ_NOT:
        return 6;
    case FZ_POW:
        return 7;
    default:
        return 8;
    }
}

/* Print with the fewest parentheses the grammar needs, plus random extra
 * ones, so that the parser's precedence is what is being tested. */
static void fz_print(fz_gen *g, const fz_node *n, char *buf, size_t *o);

static void fz_child(fz_gen *g, const fz_node *c, int need, char *buf,
                     size_t *o)
{
    need = need || fz_rand(g, 6) == 0;
    if (need)
        buf[(*o)++] = '(';
    fz_print(g, c, buf, o);
    if (need)
        buf[(*o)++] = ')';
}

static void fz_print(fz_gen *g, const fz_node *n, char *buf, size_t *o)
{
    int p = fz_prec(n);
    const char *s;
    char tmp[16];
    switch (n->kind) {
    case FZ_NUM:
        snprintf(tmp, sizeof tmp, "%g", n->num);
        s = tmp;
        break;
    case FZ_VAR:
        s = n->var == 3 ? "x" : n->var == 4 ? "y" : "z";
        break;
    case FZ_BIN:
        fz_child(g, n->l, fz_prec(n->l) < p || (p == 3 && fz_prec(n->l) == 3),
                 buf, o);
        s = n->op == '=' ? " == " : n->op == '&' ? " && " : n->op == '|' ? "||"
            : n->op == '<'                                             ? "<"
                                                                       : NULL;
        if (!s) {
            tmp[0] = n->op;
            tmp[1] = '\0';
            s = tmp;
        }
        memcpy(buf + *o, s, strlen(s));
        *o += strlen(s);
        fz_child(g, n->r, fz_prec(n->r) <= p, buf, o);
        return;
    case FZ_NEG:
    case FZ_NOT:
        buf[(*o)++] = n->kind == FZ_NEG ? '-' : '!';
        fz_child(g, n->l, fz_prec(n->l) < 6, buf, o);
        return;
    case FZ_POW:
        fz_child(g, n->l, fz_prec(n->l) < 8, buf, o);
        snprintf(tmp, sizeof tmp, "^%d", n->k);
        s = tmp;
        break;
    default:
        s = n->op == 'c' ? "ceil(" : n->op == 'f' ? "floor(" : n->op == 'm' ? "min(" : "max(";
        memcpy(buf + *o, s, strlen(s));
        *o += strlen(s);
        fz_print(g, n->l, buf, o);
        if (n->r) {
            buf[(*o)++] = ',';
            fz_print(g, n->r, buf, o);
        }
        buf[(*o)++] = ')';
        return;
    }
    memcpy(buf + *o, s, strlen(s));
    *o += strlen(s);
}

/* The double evaluation carries a bound on its rounding error (e), so that
 * a result it cannot decide (a near-zero divisor, ceil of a value within e
 * of an integer, a comparison within e) is reported as undecidable. */
enum { FZ_OK, FZ_DOMAIN, FZ_UNSURE };
#define FZ_EPS 4.5e-16

typedef struct fz_val {
    double v, e;  /* value and error bound */
    int integer;  /* computed with integers only (so exact in the library) */
} fz_val;

static int fz_truth(fz_val a, int *t)
{
    if (fabs(a.v) <= a.e && a.e > 0)
        return FZ_UNSURE;
    *t = a.v != 0;
    return FZ_OK;
}

static int fz_eval(const fz_node *n, const double *x, fz_val *out)
{
    fz_val a, b;
    int rc, t;
    out->integer = 1;
    out->e = 0;
    switch (n->kind) {
    case FZ_NUM:
        out->v = n->num;
        out->integer = n->num == floor(n->num);
        return FZ_OK;
    case FZ_VAR:
        out->v = x[n->var];
        return FZ_OK;
    default:
        break;
    }
    if ((rc = fz_eval(n->l, x, &a)) != FZ_OK)
        return rc;
    out->integer = a.integer;
    if (n->kind == FZ_BIN && (n->op == '&' || n->op == '|')) {
        if ((rc = fz_truth(a, &t)) != FZ_OK)
            return rc;
        if (t == (n->op == '|')) { /* short circuit */
            out->v = t;
            return FZ_OK;
        }
        if ((rc = fz_eval(n->r, x, &b)) != FZ_OK || (rc = fz_truth(b, &t)))
            return rc;
        out->v = t;
        out->integer = 1;
        return FZ_OK;
    }
    if (n->r && (rc = fz_eval(n->r, x, &b)) != FZ_OK)
        return rc;
    if (n->r)
        out->integer = a.integer && b.integer;
    switch (n->kind) {
    case FZ_NEG:
        out->v = -a.v;
        out->e = a.e;
        return FZ_OK;
    case FZ_NOT:
        if ((rc = fz_truth(a, &t)) != FZ_OK)
            return rc;
        out->v = !t;
        out->e = 0;
        out->integer = 1;
        return FZ_OK;
    case FZ_POW: {
        double r;
        int k = n->k;
        if (k < 0) {
            if (a.v == 0 && a.e == 0)
                return FZ_DOMAIN;
            if (fabs(a.v) <= 2 * a.e)
                return FZ_UNSURE;
        }
        r = pow(a.v, k);
        out->v = r;
        out->integer = a.integer && k >= 0;
        if (k == 0)
            out->e = 0;
        else if (k > 0)
            out->e = (a.v != 0 ? k * fabs(r / a.v) * a.e : pow(a.e, k)) +
                     k * FZ_EPS * fabs(r) + (a.e > 0 ? a.e * a.e * 1e3 : 0);
        else
            out->e = (a.e / (fabs(a.v) - a.e)) * fabs(r) * 2 + FZ_EPS * fabs(r);
        return FZ_OK;
    }
    case FZ_F1: {
        double lo = a.v - a.e, hi = a.v + a.e;
        if (n->op == 'c' ? ceil(lo) != ceil(hi) : floor(lo) != floor(hi))
            return FZ_UNSURE;
        out->v = n->op == 'c' ? ceil(a.v) : floor(a.v);
        out->e = 0;
        return FZ_OK;
    }
    case FZ_F2:
        out->v = n->op == 'm' ? fmin(a.v, b.v) : fmax(a.v, b.v);
        out->e = fmax(a.e, b.e);
        return FZ_OK;
    default:
        break;
    }
    switch (n->op) { /* FZ_BIN */
    case '+':
    case '-':
        out->v = n->op == '+' ? a.v + b.v : a.v - b.v;
        out->e = a.e + b.e + FZ_EPS * fabs(out->v);
        return FZ_OK;
    case '*':
        out->v = a.v * b.v;
        out->e = fabs(a.v) * b.e + fabs(b.v) * a.e + a.e * b.e +
                 FZ_EPS * fabs(out->v);
        return FZ_OK;
    case '/':
        if (b.v == 0 && b.e == 0)
            return FZ_DOMAIN;
        if (fabs(b.v) <= 2 * b.e)
            return FZ_UNSURE;
        out->v = a.v / b.v;
        out->e = (a.e + fabs(out->v) * b.e) / (fabs(b.v) - b.e) +
                 FZ_EPS * fabs(out->v);
        out->integer = 0;
        return FZ_OK;
    default: /* < == */
        if (a.v != b.v && fabs(a.v - b.v) <= a.e + b.e)
            return FZ_UNSURE;
        if (a.v == b.v && a.e + b.e > 0)
            return FZ_UNSURE;
        out->v = n->op == '<' ? a.v < b.v : a.v == b.v;
        out->e = 0;
        out->integer = 1;
        return FZ_OK;
    }
}

Test(expr, random_expressions_match_double_evaluation)
{
    fz_gen g;
    int i, j, checked = 0, exact_checked = 0, domain = 0;
    g.state = 0x9e3779b97f4a7c15ULL;
    for (i = 0; i < 4000; i++) {
        char text[8192];
        size_t o = 0;
        mmm_expr *e;
        mmm_error err;
        fz_node *root;
        int rc;
        g.used = 0;
        root = fz_tree(&g, 1 + (int)fz_rand(&g, 5));
        fz_print(&g, root, text, &o);
        text[o] = '\0';
        rc = mmm_expr_parse(&e, text, resolve, NULL, NULL, &err);
        cr_assert_eq(rc, 0, "parse '%s': %s", text, err.message);
        for (j = 0; j < 4; j++) {
            double x[6] = {0, 0, 0, 0, 0, 0};
            mmm_value vv[6], v;
            fz_val want;
            int k, wrc;
            for (k = 0; k < 6; k++) {
                x[k] = (double)((int)fz_rand(&g, 11) - 5);
                vv[k] = mmm_value_int((int64_t)x[k]);
            }
            wrc = fz_eval(root, x, &want);
            if (wrc == FZ_UNSURE || (wrc == FZ_OK && !isfinite(want.v)))
                continue;
            rc = mmm_expr_eval(e, vv, 6, &v, &err);
            checked++;
            if (wrc == FZ_DOMAIN) {
                cr_assert_eq(rc, MMM_EDOMAIN,
                             "'%s' (x=%g y=%g z=%g): expected a domain error",
                             text, x[3], x[4], x[5]);
                domain++;
                continue;
            }
            cr_assert_eq(rc, 0, "'%s' (x=%g y=%g z=%g): %s", text, x[3], x[4],
                         x[5], err.message);
            cr_assert(fabs(v.d - want.v) <= 4 * want.e + 1e-14 * fabs(want.v),
                      "'%s' (x=%g y=%g z=%g) = %.17g, double evaluation "
                      "%.17g +- %g",
                      text, x[3], x[4], x[5], v.d, want.v, want.e);
            if (want.integer && fabs(want.v) < 1e15) {
                /* integers only and small: the library must be exact */
                cr_assert(v.exact && v.den == 1 && (double)v.num == want.v,
                          "'%s' (x=%g y=%g z=%g) should be the exact integer "
                          "%.17g",
                          text, x[3], x[4], x[5], want.v);
                exact_checked++;
            }
        }
        mmm_expr_free(e);
    }
    cr_log_info("%d samples checked, %d exact integers, %d domain errors",
                checked, exact_checked, domain);
    cr_assert_gt(checked, 10000, "only %d samples were decidable", checked);
    cr_assert_gt(exact_checked, 2000);
    cr_assert_gt(domain, 50);
}
