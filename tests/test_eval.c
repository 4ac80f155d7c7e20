/* test_eval.c: parameters, ranges, constraints, counts and the per-kernel
 * aggregates (src/model/eval.c), each against a value computed by hand. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "mmm/import.h"
#include "mmm/mmm.h"

typedef struct fixture {
    mmm_program *p;
    mmm_instance *inst;
    mmm_error err;
} fixture;

static void param(mmm_program *p, const char *name, const char *value,
                  const char *lo, const char *hi, long line)
{
    mmm_error err;
    cr_assert_eq(mmm_program_add_param(p, name, value, lo, hi, line, &err), 0,
                 "%s", err.message);
}

static void kernel(mmm_program *p, const char *id, const char *repeat,
                   const char *index, const char *blocks, const char *work,
                   const char *span, const char *reads, const char *writes,
                   long line)
{
    mmm_error err;
    mmm_kernel_spec s;
    memset(&s, 0, sizeof s);
    s.id = id;
    s.line = line;
    s.repeat = repeat;
    s.index = index;
    s.blocks = blocks;
    s.work = work;
    s.span = span;
    s.reads = reads;
    s.writes = writes;
    cr_assert_eq(mmm_program_add_kernel(p, &s, NULL, &err), 0, "%s",
                 err.message);
}

static mmm_program *start(void)
{
    mmm_program *p = NULL;
    mmm_error err;
    cr_assert_eq(mmm_program_new(&p, "e.xml", NULL, &err), 0);
    return p;
}

/* Finalize and evaluate; returns the status of the evaluation. */
static int finish(fixture *f, mmm_program *p, const mmm_override *ov,
                  size_t nov)
{
    f->p = p;
    cr_assert_eq(mmm_program_finalize(p, &f->err), 0, "%s", f->err.message);
    cr_assert_eq(mmm_instance_new(&f->inst, p, &f->err), 0);
    return mmm_instance_eval(f->inst, ov, nov, &f->err);
}

static void done(fixture *f)
{
    mmm_instance_free(f->inst);
    mmm_program_free(f->p);
}

static double val(const fixture *f, const char *name)
{
    int s = mmm_program_find_param(f->p, name);
    cr_assert_geq(s, 0);
    return f->inst->values[s].d;
}

Test(eval, defaults_in_order_and_overrides)
{
    fixture f;
    mmm_program *p = start();
    param(p, "Z", "48", NULL, NULL, 1);
    param(p, "l", "Z/2", NULL, NULL, 2);
    param(p, "s", "floor(Z/7)", NULL, NULL, 3);
    cr_assert_eq(finish(&f, p, NULL, 0), 0);
    cr_assert_float_eq(val(&f, "l"), 24, 0);
    cr_assert_float_eq(val(&f, "s"), 6, 0);
    mmm_override ov = {0, mmm_value_int(100)};
    cr_assert_eq(mmm_instance_eval(f.inst, &ov, 1, &f.err), 0);
    cr_assert_float_eq(val(&f, "l"), 50, 0);
    cr_assert_float_eq(val(&f, "s"), 14, 0);
    /* the instance is reusable: back to the defaults */
    cr_assert_eq(mmm_instance_eval(f.inst, NULL, 0, &f.err), 0);
    cr_assert_float_eq(val(&f, "l"), 24, 0);
    mmm_override bad = {7, mmm_value_int(1)};
    cr_assert_eq(mmm_instance_eval(f.inst, &bad, 1, &f.err), MMM_EINVAL);
    done(&f);
}

Test(eval, machine_value_wins_over_default_override_over_both)
{
    fixture f;
    mmm_program *p = start();
    mmm_error err;
    cr_assert_eq(mmm_program_add_machine_param(p, "Z", mmm_value_int(96),
                                               &err),
                 0);
    param(p, "Z", "48", "7", NULL, 2);
    param(p, "l", "Z/2", NULL, NULL, 3);
    cr_assert_eq(finish(&f, p, NULL, 0), 0);
    cr_assert_float_eq(val(&f, "l"), 48, 0);
    mmm_override ov = {0, mmm_value_int(10)};
    cr_assert_eq(mmm_instance_eval(f.inst, &ov, 1, &f.err), 0);
    cr_assert_float_eq(val(&f, "l"), 5, 0);
    /* the program's range applies to the machine value */
    ov.value = mmm_value_int(3);
    cr_assert_eq(mmm_instance_eval(f.inst, &ov, 1, &f.err), MMM_EINFEASIBLE);
    cr_assert_eq(f.err.line, 2);
    done(&f);
}

Test(eval, ranges)
{
    fixture f;
    mmm_program *p = start();
    param(p, "Z", "48", NULL, NULL, 1);
    param(p, "s", "20", "1", "floor(Z/7)", 4);
    cr_assert_eq(finish(&f, p, NULL, 0), MMM_EINFEASIBLE);
    cr_assert_eq(f.err.line, 4);
    cr_assert_str_eq(f.err.file, "e.xml");
    cr_assert_str_eq(f.err.message,
                     "parameter 's' = 20 is above its maximum floor(Z/7) = 6");
    mmm_override ov = {1, mmm_value_int(0)};
    cr_assert_eq(mmm_instance_eval(f.inst, &ov, 1, &f.err), MMM_EINFEASIBLE);
    cr_assert_str_eq(f.err.message,
                     "parameter 's' = 0 is below its minimum 1");
    ov.value = mmm_value_int(6); /* the boundary is allowed, exactly */
    cr_assert_eq(mmm_instance_eval(f.inst, &ov, 1, &f.err), 0);
    ov.value = mmm_value_ratio(13, 2);
    cr_assert_eq(mmm_instance_eval(f.inst, &ov, 1, &f.err), MMM_EINFEASIBLE);
    done(&f);
}

Test(eval, constraint_violation_quotes_values)
{
    fixture f;
    mmm_program *p = start();
    mmm_error err;
    param(p, "Z", "48", NULL, NULL, 1);
    param(p, "n", "5", NULL, NULL, 2);
    param(p, "s", "20", NULL, NULL, 3);
    cr_assert_eq(mmm_program_add_constraint(p, "7*s <= Z", 9, &err), 0);
    cr_assert_eq(finish(&f, p, NULL, 0), MMM_EINFEASIBLE);
    cr_assert_eq(f.err.line, 9);
    cr_assert_str_eq(f.err.message,
                     "constraint '7*s <= Z' is violated (Z = 48, s = 20)");
    mmm_override ov = {2, mmm_value_int(6)};
    cr_assert_eq(mmm_instance_eval(f.inst, &ov, 1, &f.err), 0);
    done(&f);
}

/* A constraint written over several lines reaches the library with its
 * line breaks as runs of spaces (XML attribute normalization); its
 * messages quote it on one line, and a syntax error's column counts in
 * the text quoted. */
Test(eval, multi_line_constraint_is_quoted_on_one_line)
{
    static const char xml[] =
        "<program name=\"c\">\n"
        "  <param name=\"s\" value=\"4\"/>\n"
        "  <constraint test=\"  s &lt;= 2 &amp;&amp;\n"
        "                    s &gt;= 1\t\"/>\n"
        "  <kernel id=\"k\" blocks=\"1\" threads=\"s\" work=\"1\" span=\"1\""
        " reads=\"0\" writes=\"0\"/>\n"
        "</program>\n";
    static const char bad[] =
        "<program name=\"c\">\n"
        "  <param name=\"s\" value=\"4\"/>\n"
        "  <constraint test=\"s &lt;= 2 &amp;&amp;\n"
        "                    s &gt;= + * 1\"/>\n"
        "  <kernel id=\"k\" blocks=\"1\" threads=\"s\" work=\"1\" span=\"1\""
        " reads=\"0\" writes=\"0\"/>\n"
        "</program>\n";
    mmm_program *p = NULL;
    mmm_instance *inst = NULL;
    mmm_error err;
    cr_assert_eq(mmm_program_load_memory(&p, xml, sizeof xml - 1, "c.xml", NULL, &err), 0,
                 "%s", err.message);
    cr_assert_str_eq(p->constraints[0].text, "s <= 2 && s >= 1");
    cr_assert_eq(mmm_instance_new(&inst, p, &err), 0);
    cr_assert_eq(mmm_instance_eval(inst, NULL, 0, &err), MMM_EINFEASIBLE);
    cr_assert_eq(err.line, 3);
    cr_assert_str_eq(err.message, "constraint 's <= 2 && s >= 1' is violated (s = 4)");
    mmm_instance_free(inst);
    mmm_program_free(p);
    p = NULL;
    cr_assert_lt(mmm_program_load_memory(&p, bad, sizeof bad - 1, "c.xml", NULL, &err), 0);
    cr_assert_str_eq(err.message, "expected a number, a name or '(' instead of '+' at "
                                  "column 16 in 's <= 2 && s >= + * 1'", "%s", err.message);
}

Test(eval, counts_must_be_exact_non_negative_integers)
{
    fixture f;
    mmm_program *p = start();
    param(p, "m", "25", NULL, NULL, 1);
    kernel(p, "step", NULL, NULL, "m/2", "1", "1", "0", "0", 6);
    cr_assert_eq(finish(&f, p, NULL, 0), MMM_EINFEASIBLE);
    cr_assert_eq(f.err.line, 6);
    cr_assert(strstr(f.err.message, "blocks of kernel 'step'"), "%s",
              f.err.message);
    cr_assert(strstr(f.err.message, "ceil"), "%s", f.err.message);
    mmm_override ov = {0, mmm_value_int(-4)};
    cr_assert_eq(mmm_instance_eval(f.inst, &ov, 1, &f.err), MMM_EINFEASIBLE);
    cr_assert(strstr(f.err.message, "negative"), "%s", f.err.message);
    ov.value = mmm_value_int(0);
    cr_assert_eq(mmm_instance_eval(f.inst, &ov, 1, &f.err), 0);
    cr_assert_eq(f.inst->kernels[0].N, 0);
    done(&f);
}

Test(eval, domain_errors_name_kernel_and_attribute)
{
    fixture f;
    mmm_program *p = start();
    param(p, "s", "0", NULL, NULL, 1);
    kernel(p, "k", NULL, NULL, "4", "1/s", "1", "0", "0", 3);
    cr_assert_eq(finish(&f, p, NULL, 0), MMM_EDOMAIN);
    cr_assert_eq(f.err.line, 3);
    cr_assert(strstr(f.err.message, "work of kernel 'k'"), "%s",
              f.err.message);
    done(&f);
}

Test(eval, negative_costs_are_refused)
{
    fixture f;
    mmm_program *p = start();
    kernel(p, "k", NULL, NULL, "4", "1", "-1", "0", "0", 3);
    cr_assert_eq(finish(&f, p, NULL, 0), MMM_EINFEASIBLE);
    cr_assert(strstr(f.err.message, "span of kernel 'k'"), "%s",
              f.err.message);
    done(&f);
}

Test(eval, repeat_without_index_is_constant_time)
{
    fixture f;
    mmm_program *p = start();
    param(p, "U", "10", NULL, NULL, 1);
    param(p, "r", "2^40", NULL, NULL, 2);
    kernel(p, "step", "r", NULL, "3", "5", "2", "1", "1", 4);
    cr_assert_eq(finish(&f, p, NULL, 0), 0, "%s", f.err.message);
    const mmm_kernel_val *k = &f.inst->kernels[0];
    int64_t r = (int64_t)1 << 40;
    cr_assert_eq(k->repeat, r);
    cr_assert_eq(k->blocks, 3);
    cr_assert_eq(k->N, 3 * r);
    cr_assert_eq(k->L, r);
    cr_assert_eq(k->K, 3);
    cr_assert_float_eq(k->W, 15.0 * (double)r, 0);
    cr_assert_float_eq(k->S, 2.0 * (double)r, 0);
    cr_assert_float_eq(k->O, 3.0 * 20 * (double)r, 0);
    cr_assert_float_eq(k->C, 2 + 20, 0);
    cr_assert(!k->varies);
    done(&f);
}

Test(eval, n_overflow_names_the_kernel)
{
    fixture f;
    mmm_program *p = start();
    kernel(p, "step", "2^40", NULL, "2^30", "1", "1", "0", "0", 4);
    cr_assert_eq(finish(&f, p, NULL, 0), MMM_EOVERFLOW);
    cr_assert_str_eq(f.err.message,
                     "N of kernel 'step' (repeat × blocks) overflows 64 bits");
    cr_assert_eq(f.err.line, 4);
    done(&f);
}

Test(eval, index_dependent_launches)
{
    fixture f;
    mmm_program *p = start();
    param(p, "U", "1", NULL, NULL, 1);
    /* launch i has 2^i blocks of span i, work 3 and r + w = 1 */
    kernel(p, "add", "10", "i", "2^i", "3", "i", "1", "0", 2);
    cr_assert_eq(finish(&f, p, NULL, 0), 0, "%s", f.err.message);
    const mmm_kernel_val *k = &f.inst->kernels[0];
    cr_assert(k->varies);
    cr_assert_eq(k->repeat, 10);
    cr_assert_eq(k->N, (1 << 11) - 2); /* 2 + 4 + ... + 1024 */
    cr_assert_eq(k->blocks, 1024);
    cr_assert_eq(k->K, 1024);
    cr_assert_eq(k->L, 10);
    cr_assert_float_eq(k->S, 55, 0);
    cr_assert_float_eq(k->W, 3.0 * 2046, 0);
    cr_assert_float_eq(k->O, 2046, 0);
    cr_assert_float_eq(k->C, 10 + 1, 0);
    /* the first launch is in classes[], any launch through eval_copy */
    cr_assert_eq(f.inst->classes[0].count, 2);
    mmm_class_val cv;
    cr_assert_eq(mmm_instance_eval_copy(f.inst, 0, 7, &cv, &f.err), 0);
    cr_assert_eq(cv.count, 128);
    cr_assert_float_eq(cv.span, 7, 0);
    cr_assert_eq(mmm_instance_eval_copy(f.inst, 0, 11, &cv, &f.err),
                 MMM_EINVAL);
    done(&f);
}

Test(eval, launches_without_blocks_pass_through)
{
    fixture f;
    mmm_program *p = start();
    /* blocks 4, 3, 2, 1, 0, 0, 0, 0 */
    kernel(p, "k", "8", "i", "max(0, 5 - i)", "1", "i", "0", "0", 2);
    cr_assert_eq(finish(&f, p, NULL, 0), 0);
    const mmm_kernel_val *k = &f.inst->kernels[0];
    cr_assert_eq(k->N, 10);
    cr_assert_eq(k->L, 4);
    cr_assert_float_eq(k->S, 1 + 2 + 3 + 4, 0); /* empty launches: no span */
    done(&f);
}

Test(eval, index_repeat_limit)
{
    mmm_limits lim = MMM_LIMITS_INIT;
    lim.max_index_repeat = 100;
    mmm_program *p = NULL;
    fixture f;
    mmm_error err;
    cr_assert_eq(mmm_program_new(&p, "e.xml", &lim, &err), 0);
    kernel(p, "k", "101", "i", "i", "1", "1", "0", "0", 2);
    cr_assert_eq(finish(&f, p, NULL, 0), MMM_ELIMIT);
    cr_assert(strstr(f.err.message, "--max-index-repeat"), "%s",
              f.err.message);
    done(&f);
}

Test(eval, classes_of_a_kernel)
{
    fixture f;
    mmm_program *p = start();
    mmm_error err;
    param(p, "U", "5", NULL, NULL, 1);
    mmm_kernel_spec s;
    memset(&s, 0, sizeof s);
    s.id = "k";
    s.line = 2;
    s.repeat = "3";
    s.threads = "32";
    cr_assert_eq(mmm_program_add_kernel(p, &s, NULL, &err), 0);
    mmm_class_spec a = {.line = 3, .count = "2", .work = "10", .span = "4",
                        .reads = "1", .writes = "1",
                        .access = MMM_ACCESS_COALESCED};
    mmm_class_spec b = {.line = 4, .count = "3", .work = "7", .span = "6",
                        .reads = "0", .writes = "0", .threads = "64",
                        .shared = "2", .access = MMM_ACCESS_IRREGULAR};
    mmm_class_spec c = {.line = 5, .count = "0", .work = "99", .span = "99",
                        .reads = "9", .writes = "9",
                        .access = MMM_ACCESS_COALESCED};
    cr_assert_eq(mmm_program_add_class(p, 0, &a, &err), 0);
    cr_assert_eq(mmm_program_add_class(p, 0, &b, &err), 0);
    cr_assert_eq(mmm_program_add_class(p, 0, &c, &err), 0);
    cr_assert_eq(finish(&f, p, NULL, 0), 0, "%s", f.err.message);
    const mmm_kernel_val *k = &f.inst->kernels[0];
    cr_assert_eq(k->blocks, 5);
    cr_assert_eq(k->N, 15);
    cr_assert_eq(k->L, 3);
    cr_assert_float_eq(k->W, 3 * (2 * 10 + 3 * 7), 0);
    cr_assert_float_eq(k->S, 3 * 6, 0);        /* the empty class is out */
    cr_assert_float_eq(k->O, 3 * (2 * 10), 0); /* (1+1)*5 per block */
    cr_assert_float_eq(k->C, 4 + 10, 0);       /* max(4+10, 6+0) */
    const mmm_class_val *cv = &f.inst->classes[0];
    cr_assert_eq(cv[0].threads, 32);
    cr_assert_eq(cv[1].threads, 64);
    cr_assert_float_eq(cv[1].shared, 2, 0);
    cr_assert_eq(cv[1].access, MMM_ACCESS_IRREGULAR);
    cr_assert_float_eq(cv[0].overhead, 10, 0);
    cr_assert_float_eq(cv[0].cost, 14, 0);
    done(&f);
}

Test(eval, U_and_p)
{
    fixture f;
    mmm_program *p = start();
    kernel(p, "k", NULL, NULL, "1", "1", "1", "2", "0", 3);
    cr_assert_eq(finish(&f, p, NULL, 0), MMM_EINPUT);
    cr_assert(strstr(f.err.message, "no parameter U"), "%s", f.err.message);
    cr_assert_eq(f.err.line, 3);
    done(&f);

    p = start();
    kernel(p, "k", NULL, NULL, "1", "1", "1", "0", "0", 3);
    cr_assert_eq(finish(&f, p, NULL, 0), 0);
    cr_assert_float_eq(f.inst->U, 0, 0);
    cr_assert(!f.inst->has_p);
    mmm_instance_set_p(f.inst, 16);
    cr_assert_eq(mmm_instance_eval(f.inst, NULL, 0, &f.err), 0);
    cr_assert(f.inst->has_p);
    cr_assert_eq(f.inst->p, 16);
    done(&f);

    p = start();
    param(p, "p", "14", NULL, NULL, 1);
    kernel(p, "k", NULL, NULL, "1", "1", "1", "0", "0", 3);
    cr_assert_eq(finish(&f, p, NULL, 0), 0);
    cr_assert(f.inst->has_p);
    cr_assert_eq(f.inst->p, 14);
    mmm_override ov = {0, mmm_value_ratio(5, 2)};
    cr_assert_eq(mmm_instance_eval(f.inst, &ov, 1, &f.err), MMM_EINFEASIBLE);
    cr_assert(strstr(f.err.message, "positive integer"));
    done(&f);
}

Test(eval, repeat_zero_contributes_nothing)
{
    fixture f;
    mmm_program *p = start();
    param(p, "m", "4", NULL, NULL, 1);
    param(p, "s", "4", NULL, NULL, 2);
    kernel(p, "add", "log2(m/s)", "i", "m/s/2^i", "1", "1", "0", "0", 3);
    cr_assert_eq(finish(&f, p, NULL, 0), 0, "%s", f.err.message);
    const mmm_kernel_val *k = &f.inst->kernels[0];
    cr_assert_eq(k->repeat, 0);
    cr_assert_eq(k->N, 0);
    cr_assert_eq(k->L, 0);
    cr_assert_float_eq(k->W, 0, 0);
    done(&f);
}

/* An instance made with MMM_INSTANCE_NO_CLASSES keeps no class values but
 * gives every kernel the measures computed by hand below (launches that
 * read their index, several classes, repeat 0 and 2), the same as an
 * instance that keeps them; mmm_instance_eval_copy evaluates the classes
 * it does not keep, and the functions that read classes refuse it. */
Test(eval, instance_without_class_values)
{
    static const char xml[] =
        "<program name=\"t\">\n"
        "  <param name=\"U\" value=\"2\"/>\n"
        "  <param name=\"n\" value=\"3\"/>\n"
        "  <kernel id=\"a\" blocks=\"n\" work=\"10\" span=\"4\" reads=\"1\""
        " writes=\"1\"/>\n"
        "  <kernel id=\"b\" repeat=\"n\" index=\"i\">\n"
        "    <blocks count=\"i\" work=\"5*i\" span=\"i\" reads=\"0\""
        " writes=\"1\"/>\n"
        "    <blocks count=\"2\" work=\"7\" span=\"3\" reads=\"1\""
        " writes=\"0\"/>\n"
        "  </kernel>\n"
        "  <kernel id=\"c\" repeat=\"0\" blocks=\"4\" work=\"1\" span=\"1\""
        " reads=\"0\" writes=\"0\"/>\n"
        "  <kernel id=\"d\" repeat=\"2\">\n"
        "    <blocks count=\"1\" work=\"8\" span=\"2\" reads=\"2\""
        " writes=\"0\"/>\n"
        "    <blocks count=\"3\" work=\"6\" span=\"5\" reads=\"0\""
        " writes=\"0\"/>\n"
        "  </kernel>\n"
        "  <edge from=\"a\" to=\"b\"/><edge from=\"b\" to=\"c\"/>"
        "<edge from=\"c\" to=\"d\"/>\n"
        "</program>\n";
    mmm_program *p = NULL;
    mmm_instance *full = NULL, *lean = NULL;
    mmm_error err;
    cr_assert_eq(mmm_program_load_memory(&p, xml, sizeof xml - 1, "t.xml",
                                         NULL, &err), 0, "%s", err.message);
    cr_assert_eq(mmm_instance_new(&full, p, &err), 0);
    cr_assert_eq(mmm_instance_new_flags(&lean, p, MMM_INSTANCE_NO_CLASSES,
                                        &err), 0);
    cr_assert_eq(mmm_instance_eval(full, NULL, 0, &err), 0, "%s", err.message);
    cr_assert_eq(mmm_instance_eval(lean, NULL, 0, &err), 0, "%s", err.message);
    cr_assert_null(lean->classes);
    cr_assert_not_null(full->classes);
    /* by hand, U = 2: a: 3 blocks; b, launch i: i blocks (work 5i, span i,
     * O(B) 2) and 2 (work 7, span 3, O(B) 2); c: no launch; d, twice:
     * 1 block (work 8, span 2, O(B) 4) and 3 (work 6, span 5, O(B) 0) */
    static const struct {
        int64_t N, blocks, W, S, O, C;
    } want[] = {{3, 3, 30, 4, 12, 8},
                {3 + 4 + 5, 5, 5 * (1 + 4 + 9) + 3 * 14, 9, 6 + 8 + 10, 5},
                {0, 0, 0, 0, 0, 0},
                {8, 4, 52, 10, 8, 6}};
    for (size_t k = 0; k < 4; k++) {
        const mmm_kernel_val *v = &lean->kernels[k];
        cr_assert_eq(v->N, want[k].N, "kernel %zu", k);
        cr_assert_eq(v->blocks, want[k].blocks, "kernel %zu", k);
        cr_assert_eq(v->W_i, want[k].W, "kernel %zu", k);
        cr_assert_eq(v->S_i, want[k].S, "kernel %zu", k);
        cr_assert_eq(v->O_i, want[k].O, "kernel %zu", k);
        cr_assert_eq(v->C_i, want[k].C, "kernel %zu", k);
        cr_assert_eq(memcmp(v, &full->kernels[k], sizeof *v), 0,
                     "kernel %zu", k);
        for (int64_t j = 1; j <= v->repeat; j++) {
            mmm_class_val a[2], b[2];
            memset(a, 0, sizeof a);
            memset(b, 0, sizeof b);
            cr_assert_eq(mmm_instance_eval_copy(full, k, j, a, &err), 0);
            cr_assert_eq(mmm_instance_eval_copy(lean, k, j, b, &err), 0);
            cr_assert_eq(memcmp(a, b, sizeof a), 0, "kernel %zu copy %lld",
                         k, (long long)j);
        }
    }
    mmm_tmm t;
    mmm_balance bal;
    mmm_sim_result sr;
    cr_assert_eq(mmm_tmm_compute(&t, lean, &err), MMM_EINVAL);
    cr_assert(strstr(err.message, "MMM_INSTANCE_NO_CLASSES"), "%s",
              err.message);
    cr_assert_eq(mmm_balance_compute(&bal, lean, &err), MMM_EINVAL);
    cr_assert(strstr(err.message, "MMM_INSTANCE_NO_CLASSES"), "%s",
              err.message);
    mmm_instance_set_p(lean, 2);
    cr_assert_eq(mmm_simulate(&sr, lean, NULL, &err), MMM_EINVAL);
    cr_assert(strstr(err.message, "MMM_INSTANCE_NO_CLASSES"), "%s",
              err.message);
    FILE *f = tmpfile();
    cr_assert_not_null(f);
    cr_assert_eq(mmm_program_write_xml(f, lean, NULL, &err), MMM_EINVAL);
    cr_assert_eq(ftell(f), 0);
    fclose(f);
    mmm_instance_free(full);
    mmm_instance_free(lean);
    mmm_program_free(p);
}

/* The attributes of mmm/attr.h: given on the kernel (and inherited by its
 * <blocks>), on a <blocks>, absent (the table's default), by launch for a
 * kernel that reads its index; their expressions by index. */
Test(eval, block_attributes_by_index)
{
    static const char text[] =
        "<program name='a'>\n"
        "<param name='U' value='1'/>\n"
        "<kernel id='k' threads='32' registers='40' read_stride='4'>\n"
        "  <blocks count='2' work='1' span='1' reads='1' writes='0'/>\n"
        "  <blocks count='1' work='1' span='1' reads='1' writes='0'\n"
        "          registers='64' barriers='3'/>\n"
        "</kernel>\n"
        "<kernel id='i' repeat='3' index='j' blocks='1' threads='1'\n"
        "        work='1' span='1' reads='0' writes='0' atomics='2*j'/>\n"
        "</program>\n";
    mmm_program *p;
    mmm_instance *inst;
    mmm_error err;
    size_t n = mmm_attr_count();
    mmm_attr_value av[2 * MMM_ATTR_N];
    cr_assert_eq(n, (size_t)MMM_ATTR_N);
    cr_assert_eq(mmm_program_load_memory(&p, text, sizeof text - 1, "a.xml",
                                         NULL, &err),
                 0, "%s", err.message);
    cr_assert_eq(mmm_instance_new(&inst, p, &err), 0);
    cr_assert_eq(mmm_instance_eval(inst, NULL, 0, &err), 0, "%s",
                 err.message);
    cr_assert_eq(mmm_instance_eval_attrs(inst, 0, 1, av, &err), 0, "%s",
                 err.message);
    /* class 0 inherits the kernel's; class 1 has its own registers */
    cr_expect(av[MMM_ATTR_REGISTERS].given);
    cr_expect_eq(av[MMM_ATTR_REGISTERS].value, 40);
    cr_expect_eq(av[n + MMM_ATTR_REGISTERS].value, 64);
    cr_expect_eq(av[MMM_ATTR_READ_STRIDE].value, 4);
    cr_expect_eq(av[n + MMM_ATTR_READ_STRIDE].value, 4);
    cr_expect(!av[MMM_ATTR_BARRIERS].given);
    cr_expect_eq(av[MMM_ATTR_BARRIERS].value, 0);
    cr_expect_eq(av[n + MMM_ATTR_BARRIERS].value, 3);
    /* absent: the table's default (write_stride's is 1) */
    cr_expect(!av[MMM_ATTR_WRITE_STRIDE].given);
    cr_expect_eq(av[MMM_ATTR_WRITE_STRIDE].value,
                 mmm_attr_default(MMM_ATTR_WRITE_STRIDE));
    cr_expect_eq(mmm_attr_default(MMM_ATTR_WRITE_STRIDE), 1);
    /* by launch */
    for (int64_t j = 1; j <= 3; j++) {
        cr_assert_eq(mmm_instance_eval_attrs(inst, 1, j, av, &err), 0);
        cr_expect_eq(av[MMM_ATTR_ATOMICS].value, 2.0 * (double)j);
    }
    /* the expressions */
    cr_expect_not_null(mmm_block_class_attr(p, 1, MMM_ATTR_BARRIERS));
    cr_expect_null(mmm_block_class_attr(p, 0, MMM_ATTR_BARRIERS));
    cr_expect_not_null(mmm_block_class_attr(p, 0, MMM_ATTR_REGISTERS));
    cr_expect_null(mmm_block_class_attr(p, 99, MMM_ATTR_REGISTERS));
    cr_expect_null(mmm_block_class_attr(p, 0, MMM_ATTR_N));
    mmm_instance_free(inst);
    mmm_program_free(p);
}

Test(eval, attribute_table_accessors)
{
    for (int a = 0; a < MMM_ATTR_N; a++) {
        const char *name = mmm_attr_name((mmm_attr)a);
        cr_assert_not_null(name);
        cr_expect_eq(mmm_attr_find(name), a, "%s", name);
        cr_expect_not_null(mmm_attr_unit((mmm_attr)a));
        cr_expect_not_null(mmm_attr_meaning((mmm_attr)a));
        cr_expect_not_null(mmm_attr_default_text((mmm_attr)a));
    }
    cr_expect_eq(mmm_attr_type_of(MMM_ATTR_REGISTERS), MMM_ATTR_INTEGER);
    cr_expect_eq(mmm_attr_type_of(MMM_ATTR_GATHERS), MMM_ATTR_REAL);
    cr_expect_null(mmm_attr_name(MMM_ATTR_N));
    cr_expect_null(mmm_attr_name((mmm_attr)-1));
    cr_expect_eq(mmm_attr_find("work"), -1); /* the MMM's own */
    cr_expect_eq(mmm_attr_find(NULL), -1);
}

/* A program built in C gives the attributes by index. */
Test(eval, builder_takes_attributes_by_index)
{
    fixture f;
    mmm_program *p = start();
    mmm_kernel_spec s;
    const char *attr[MMM_ATTR_N] = {NULL};
    mmm_attr_value av[MMM_ATTR_N];
    attr[MMM_ATTR_SHARED_BYTES] = "1000";
    attr[MMM_ATTR_GATHERS] = "2.5";
    memset(&s, 0, sizeof s);
    s.id = "k";
    s.line = 3;
    s.blocks = s.work = s.span = "1";
    s.reads = s.writes = "0";
    s.attr = attr;
    cr_assert_eq(mmm_program_add_kernel(p, &s, NULL, &f.err), 0, "%s",
                 f.err.message);
    cr_assert_eq(finish(&f, p, NULL, 0), 0, "%s", f.err.message);
    cr_assert_eq(mmm_instance_eval_attrs(f.inst, 0, 1, av, &f.err), 0);
    cr_expect(av[MMM_ATTR_SHARED_BYTES].given);
    cr_expect_eq(av[MMM_ATTR_SHARED_BYTES].value, 1000);
    cr_expect_eq(av[MMM_ATTR_GATHERS].value, 2.5);
    cr_expect(!av[MMM_ATTR_ROUNDS].given);
    done(&f);
}

/* The evaluation checks each attribute by its type in the table. */
Test(eval, block_attributes_are_checked_by_type)
{
    fixture f;
    mmm_program *p = start();
    mmm_kernel_spec s;
    const char *attr[MMM_ATTR_N] = {NULL};
    attr[MMM_ATTR_REGISTERS] = "7/2";
    memset(&s, 0, sizeof s);
    s.id = "k";
    s.line = 4;
    s.blocks = s.work = s.span = "1";
    s.reads = s.writes = "0";
    s.attr = attr;
    cr_assert_eq(mmm_program_add_kernel(p, &s, NULL, &f.err), 0);
    cr_assert_lt(finish(&f, p, NULL, 0), 0);
    cr_expect(strstr(f.err.message, "registers of kernel 'k' = 3.5 is not an integer"),
              "%s", f.err.message);
    cr_expect_eq(f.err.line, 4);
    done(&f);
    p = start();
    attr[MMM_ATTR_REGISTERS] = NULL;
    attr[MMM_ATTR_BARRIERS] = "-1";
    cr_assert_eq(mmm_program_add_kernel(p, &s, NULL, &f.err), 0);
    cr_assert_lt(finish(&f, p, NULL, 0), 0);
    cr_expect(strstr(f.err.message, "barriers of kernel 'k' = -1 is negative"),
              "%s", f.err.message);
    done(&f);
}
