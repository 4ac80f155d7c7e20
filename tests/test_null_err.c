/* test_null_err.c: every public function that takes `mmm_error *err`,
 * called with err == NULL on an input it refuses, returns its error code
 * without touching the NULL pointer (the ASan build of the suite turns a
 * write through it into a crash).
 *
 * One Test per function, named after it: tests/null_err_check.sh (ctest
 * `null_err_list`) lists the functions of the public headers that take an
 * mmm_error * and fails when one has no Test here, so a new function
 * cannot go untested.  The failing inputs are real refusals where the API
 * has one at hand (a syntax error, a cycle, a missing machine parameter, a
 * folder that does not exist), else a missing required argument. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "mmm/mmm.h"
#include "mmm/calibrate.h"
#include "mmm/fit.h"
#include "mmm/import.h"
#include "mmm/import_dot.h"
#include "mmm/output.h"
#include "mmm/profile.h"
#include "mmm/scale.h"
#include "mmm/sweep_plot.h"
#include "mmm/timemodel.h"

#define DIAMOND MMM_DAGS_DIR "/diamond.xml"
#define NO_DIR "/nonexistent-mmm-dir/out"

/* Refused: a negative mmm error code. */
#define REFUSED(call)                                                         \
    do {                                                                      \
        int rc_ = (call);                                                     \
        cr_assert_lt(rc_, 0, "%s returned %d", #call, rc_);                   \
    } while (0)

static mmm_program *diamond(void)
{
    mmm_program *p = NULL;
    mmm_error e;
    cr_assert_eq(mmm_program_load_file(&p, DIAMOND, NULL, &e), 0, "%s", e.message);
    return p;
}

static mmm_instance *evaluated(mmm_program *p)
{
    mmm_instance *inst = NULL;
    mmm_error e;
    cr_assert_eq(mmm_instance_new(&inst, p, &e), 0);
    cr_assert_eq(mmm_instance_eval(inst, NULL, 0, &e), 0, "%s", e.message);
    return inst;
}

/* An open program with one kernel "a", for the builder calls. */
static mmm_program *open_program(void)
{
    mmm_program *p = NULL;
    mmm_kernel_spec k = {0};
    k.id = "a";
    k.blocks = k.work = k.span = k.reads = k.writes = "1";
    cr_assert_eq(mmm_program_new(&p, "t.xml", NULL, NULL), 0);
    cr_assert_eq(mmm_program_add_kernel(p, &k, NULL, NULL), 0);
    return p;
}

/* ---- error.h ---- */

Test(null_err, mmm_error_set)
{
    cr_assert_eq(mmm_error_set(NULL, MMM_EINVAL, "f", 1, "x %d", 1), MMM_EINVAL);
}

static int vset(int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int r = mmm_error_vset(NULL, code, NULL, 0, fmt, ap);
    va_end(ap);
    return r;
}

Test(null_err, mmm_error_vset)
{
    cr_assert_eq(vset(MMM_EPARSE, "y %s", "z"), MMM_EPARSE);
}

Test(null_err, mmm_error_clear)
{
    mmm_error_clear(NULL);
}

Test(null_err, mmm_error_format)
{
    char buf[32] = "x";
    mmm_error_format(NULL, buf, sizeof buf);
    mmm_error_format(NULL, NULL, 0);
}

/* ---- expr.h ---- */

Test(null_err, mmm_expr_parse)
{
    mmm_expr *e = NULL;
    REFUSED(mmm_expr_parse(&e, "1 +", NULL, NULL, NULL, NULL));
    cr_assert_null(e);
}

Test(null_err, mmm_expr_eval)
{
    mmm_expr *e = NULL;
    mmm_value v;
    cr_assert_eq(mmm_expr_parse(&e, "1 / (2 - 2)", NULL, NULL, NULL, NULL), 0);
    REFUSED(mmm_expr_eval(e, NULL, 0, &v, NULL));
    mmm_expr_free(e);
}

Test(null_err, mmm_value_to_count)
{
    int64_t n;
    REFUSED(mmm_value_to_count(&n, mmm_value_int(-1), "n", NULL));
    REFUSED(mmm_value_to_count(&n, mmm_value_ratio(1, 2), "n", NULL));
}

/* ---- program.h: loading and building ---- */

Test(null_err, mmm_program_load_file)
{
    mmm_program *p = NULL;
    REFUSED(mmm_program_load_file(&p, NO_DIR ".xml", NULL, NULL));
}

static const char broken_xml[] = "<program name=\"x\"><kernel id=\"a\"</program>";
static const char cyclic_xml[] =
    "<program name=\"x\">"
    "<kernel id=\"a\" blocks=\"1\" work=\"1\" span=\"1\" reads=\"1\" writes=\"1\"/>"
    "<kernel id=\"b\" blocks=\"1\" work=\"1\" span=\"1\" reads=\"1\" writes=\"1\"/>"
    "<edge from=\"a\" to=\"b\"/><edge from=\"b\" to=\"a\"/></program>";

Test(null_err, mmm_program_load_memory)
{
    mmm_program *p = NULL;
    REFUSED(mmm_program_load_memory(&p, broken_xml, sizeof broken_xml - 1, "b.xml", NULL, NULL));
    REFUSED(mmm_program_load_memory(&p, cyclic_xml, sizeof cyclic_xml - 1, "c.xml", NULL, NULL));
}

Test(null_err, mmm_program_read_file)
{
    mmm_program *p = NULL;
    REFUSED(mmm_program_read_file(&p, NO_DIR ".stg", NULL, NULL, NULL));
}

Test(null_err, mmm_program_open)
{
    mmm_opened o;
    mmm_open_options opt = MMM_OPEN_OPTIONS_INIT;
    const char *defs[] = {"nope=1"};
    REFUSED(mmm_program_open(&o, NO_DIR ".xml", NULL, NULL));
    cr_expect_null(o.program);
    mmm_opened_dispose(&o);
    opt.machine = NO_DIR ".xml";
    REFUSED(mmm_program_open(&o, DIAMOND, &opt, NULL));
    mmm_opened_dispose(&o);
    opt.machine = NULL;
    opt.defs = defs;
    opt.ndefs = 1;
    REFUSED(mmm_program_open(&o, DIAMOND, &opt, NULL));
    cr_expect_null(o.instance);
    mmm_opened_dispose(&o);
    REFUSED(mmm_program_open(NULL, DIAMOND, NULL, NULL));
}

Test(null_err, mmm_program_read_memory)
{
    static const char stg[] = "3\n0 0 0\n1 5 1 0\n";
    mmm_program *p = NULL;
    REFUSED(mmm_program_read_memory(&p, stg, sizeof stg - 1, "t.stg", NULL, NULL, NULL));
    REFUSED(mmm_program_read_memory(&p, broken_xml, sizeof broken_xml - 1, "b.xml", NULL, NULL, NULL));
}

Test(null_err, mmm_program_new)
{
    REFUSED(mmm_program_new(NULL, "t.xml", NULL, NULL));
}

Test(null_err, mmm_program_add_kernel)
{
    mmm_program *p = open_program();
    mmm_kernel_spec k = {0};
    k.id = "a"; /* a second kernel "a" */
    k.blocks = k.work = k.span = k.reads = k.writes = "1";
    REFUSED(mmm_program_add_kernel(p, &k, NULL, NULL));
    k.id = "b";
    k.blocks = "1 +"; /* syntax error */
    REFUSED(mmm_program_add_kernel(p, &k, NULL, NULL));
    mmm_program_free(p);
}

Test(null_err, mmm_program_set_kernel_type)
{
    mmm_program *p = open_program();
    REFUSED(mmm_program_set_kernel_type(p, 7, "t", NULL)); /* no kernel 7 */
    cr_assert_eq(mmm_program_set_kernel_type(p, 0, "t", NULL), 0);
    cr_assert_str_eq(mmm_kernel_type(p, 0), "t");
    mmm_program_free(p);
}

Test(null_err, mmm_program_add_copy)
{
    mmm_program *p = open_program();
    mmm_copy_spec c = {"a", 2, MMM_COPY_D2D, "4", NULL, NULL, NULL}; /* a second "a" */
    REFUSED(mmm_program_add_copy(p, &c, NULL, NULL));
    c.id = "b";
    c.bytes = NULL; /* bytes missing */
    REFUSED(mmm_program_add_copy(p, &c, NULL, NULL));
    c.bytes = "4";
    c.kind = MMM_COPY_NONE; /* not a copy's kind */
    REFUSED(mmm_program_add_copy(p, &c, NULL, NULL));
    REFUSED(mmm_program_add_copy(p, NULL, NULL, NULL));
    mmm_program_free(p);
}

Test(null_err, mmm_program_add_kernel_accesses)
{
    mmm_program *p = open_program();
    mmm_kernel_spec k = {0};
    mmm_access_spec a = {0};
    a.line = 3;
    a.words = "1 +"; /* syntax error */
    k.id = "b";
    k.blocks = k.work = k.span = "1";
    REFUSED(mmm_program_add_kernel_accesses(p, &k, &a, 1, NULL, NULL));
    REFUSED(mmm_program_add_kernel_accesses(p, &k, NULL, 1, NULL, NULL));
    a.words = "1";
    k.reads = k.writes = "1"; /* beside accesses */
    REFUSED(mmm_program_add_kernel_accesses(p, &k, &a, 1, NULL, NULL));
    mmm_program_free(p);
}

Test(null_err, mmm_program_add_class_accesses)
{
    mmm_program *p = NULL;
    mmm_kernel_spec k = {0};
    mmm_class_spec c = {0};
    mmm_access_spec a = {0};
    cr_assert_eq(mmm_program_new(&p, "t.xml", NULL, NULL), 0);
    k.id = "m";
    k.threads = "32";
    cr_assert_eq(mmm_program_add_kernel(p, &k, NULL, NULL), 0);
    c.count = c.work = c.span = "1";
    a.words = "1";
    a.array = "nowhere"; /* no such array */
    REFUSED(mmm_program_add_class_accesses(p, 0, &c, &a, 1, NULL));
    REFUSED(mmm_program_add_class_accesses(p, 0, &c, NULL, 1, NULL));
    a.array = NULL;
    REFUSED(mmm_program_add_class_accesses(p, 7, &c, &a, 1, NULL));
    mmm_program_free(p);
}

Test(null_err, mmm_program_add_array)
{
    mmm_program *p = open_program();
    REFUSED(mmm_program_add_array(p, "D", "4 *", 2, NULL)); /* syntax */
    REFUSED(mmm_program_add_array(p, "2D", "4", 2, NULL));  /* a name */
    REFUSED(mmm_program_add_array(p, NULL, "4", 2, NULL));
    cr_assert_eq(mmm_program_add_array(p, "D", "4", 2, NULL), 0);
    REFUSED(mmm_program_add_array(p, "D", "8", 3, NULL));   /* twice */
    mmm_program_free(p);
}

Test(null_err, mmm_program_add_class)
{
    mmm_program *p = open_program();
    mmm_class_spec c = {0}; /* count, work, span... missing */
    REFUSED(mmm_program_add_class(p, 0, &c, NULL));
    REFUSED(mmm_program_add_class(p, 7, &c, NULL));
    mmm_program_free(p);
}

Test(null_err, mmm_program_add_edge)
{
    mmm_program *p = open_program();
    REFUSED(mmm_program_add_edge(p, "a", "a", 3, NULL)); /* a cycle */
    REFUSED(mmm_program_add_edge(p, "a", NULL, 3, NULL));
    mmm_program_free(p);
}

Test(null_err, mmm_program_add_param)
{
    mmm_program *p = open_program();
    REFUSED(mmm_program_add_param(p, "n", "2 *", NULL, NULL, 2, NULL));
    mmm_program_free(p);
}

Test(null_err, mmm_program_add_constraint)
{
    mmm_program *p = open_program();
    REFUSED(mmm_program_add_constraint(p, "n <", 2, NULL));
    mmm_program_free(p);
}

Test(null_err, mmm_program_add_machine_param)
{
    mmm_program *p = open_program();
    REFUSED(mmm_program_add_machine_param(p, NULL, mmm_value_int(1), NULL));
    mmm_program_free(p);
}

/* A finalized program is closed to the builder calls. */
Test(null_err, mmm_program_set_name)
{
    mmm_program *p = diamond();
    REFUSED(mmm_program_set_name(p, "x", 1, NULL));
    mmm_program_free(p);
}

Test(null_err, mmm_program_set_description)
{
    mmm_program *p = diamond();
    REFUSED(mmm_program_set_description(p, "d", NULL));
    mmm_program_free(p);
}

Test(null_err, mmm_program_set_cost_unit)
{
    mmm_program *p = open_program();
    REFUSED(mmm_program_set_cost_unit(NULL, "us", NULL));
    cr_expect_eq(mmm_program_set_cost_unit(p, "us", NULL), 0);
    cr_expect_str_eq(mmm_program_cost_unit(p), "us");
    cr_expect_eq(mmm_program_set_cost_unit(p, NULL, NULL), 0);
    cr_expect_null(mmm_program_cost_unit(p));
    mmm_program_free(p);
}

Test(null_err, mmm_program_finalize)
{
    mmm_program *p = open_program();
    mmm_kernel_spec k = {0};
    k.id = "b";
    k.blocks = k.work = k.span = k.reads = k.writes = "1";
    cr_assert_eq(mmm_program_add_kernel(p, &k, NULL, NULL), 0);
    cr_assert_eq(mmm_program_add_edge(p, "a", "b", 1, NULL), 0);
    cr_assert_eq(mmm_program_add_edge(p, "b", "a", 2, NULL), 0);
    REFUSED(mmm_program_finalize(p, NULL));
    mmm_program_free(p);
}

Test(null_err, mmm_program_write_xml)
{
    REFUSED(mmm_program_write_xml(stdout, NULL, NULL, NULL));
}

Test(null_err, mmm_program_save_xml)
{
    mmm_program *p = diamond();
    mmm_instance *inst = evaluated(p);
    REFUSED(mmm_program_save_xml(NO_DIR ".xml", inst, NULL, NULL));
    mmm_instance_free(inst);
    mmm_program_free(p);
}

Test(null_err, mmm_machine_load_file)
{
    mmm_machine *m = NULL;
    REFUSED(mmm_machine_load_file(&m, NO_DIR ".xml", NULL, NULL));
    REFUSED(mmm_machine_load_file(&m, DIAMOND, NULL, NULL)); /* not a machine */
}

/* ---- eval.h, metrics.h ---- */

Test(null_err, mmm_instance_new)
{
    mmm_instance *inst = NULL;
    REFUSED(mmm_instance_new(&inst, NULL, NULL));
}

Test(null_err, mmm_instance_new_flags)
{
    mmm_program *p = diamond();
    mmm_instance *inst = NULL;
    REFUSED(mmm_instance_new_flags(&inst, p, 0x80u, NULL)); /* unknown flag */
    cr_assert_null(inst);
    mmm_program_free(p);
}

Test(null_err, mmm_instance_eval)
{
    mmm_program *p = diamond();
    mmm_instance *inst = NULL;
    cr_assert_eq(mmm_instance_new(&inst, p, NULL), 0);
    mmm_override ov = {mmm_program_find_param(p, "p"), mmm_value_int(0)};
    cr_assert_geq(ov.slot, 0);
    REFUSED(mmm_instance_eval(inst, &ov, 1, NULL)); /* p >= 1 */
    mmm_instance_free(inst);
    mmm_program_free(p);
}

Test(null_err, mmm_overrides_parse)
{
    mmm_program *p = diamond();
    mmm_override ov[2];
    size_t nov = 9;
    const char *nope[] = {"nope=1"}, *named[] = {"U=p"}, *bare[] = {"U"};
    REFUSED(mmm_overrides_parse(p, nope, 1, 0, MMM_DEFINE_STRICT, ov, &nov, NULL, NULL));
    REFUSED(mmm_overrides_parse(p, named, 1, 0, MMM_DEFINE_STRICT, ov, &nov, NULL, NULL));
    REFUSED(mmm_overrides_parse(p, bare, 1, 0, MMM_DEFINE_STRICT, ov, &nov, NULL, NULL));
    REFUSED(mmm_overrides_parse(NULL, nope, 1, 0, MMM_DEFINE_STRICT, ov, &nov, NULL, NULL));
    cr_expect_eq(mmm_overrides_parse(p, nope, 1, 0, MMM_DEFINE_NOTE, ov, &nov, NULL, NULL), 0);
    cr_expect_eq(nov, 0);
    mmm_program_free(p);
}

Test(null_err, mmm_instance_eval_p)
{
    mmm_program *p = diamond();
    mmm_instance *inst = NULL;
    cr_assert_eq(mmm_instance_new(&inst, p, NULL), 0);
    mmm_override ov = {mmm_program_find_param(p, "p"), mmm_value_int(0)};
    REFUSED(mmm_instance_eval_p(inst, &ov, 1, 4, NULL)); /* p >= 1 */
    REFUSED(mmm_instance_eval_p(NULL, NULL, 0, 4, NULL));
    mmm_instance_free(inst);
    mmm_program_free(p);
}

Test(null_err, mmm_overrides_declared)
{
    mmm_program *p = diamond();
    const mmm_program *progs[] = {p, p, p};
    const char *defs[] = {"U=3", "nope=1"};
    mmm_error e;
    cr_expect_eq(mmm_overrides_declared(progs, 2, defs, 1, NULL), 0);
    REFUSED(mmm_overrides_declared(progs, 2, defs, 2, NULL));
    for (size_t n = 1; n <= 3; n++) {
        cr_expect_eq(mmm_overrides_declared(progs, n, defs, 2, &e), MMM_EINVAL);
        cr_expect(strstr(e.message, "-D nope: ") && strstr(e.message, "parameter 'nope'"),
                  "%s", e.message);
    }
    mmm_program_free(p);
}

Test(null_err, mmm_instance_eval_copy)
{
    mmm_program *p = diamond();
    mmm_instance *inst = evaluated(p);
    mmm_class_val cv;
    REFUSED(mmm_instance_eval_copy(inst, 0, 2, &cv, NULL)); /* one launch */
    REFUSED(mmm_instance_eval_copy(inst, 99, 1, &cv, NULL));
    mmm_instance_free(inst);
    mmm_program_free(p);
}

Test(null_err, mmm_instance_eval_attrs)
{
    mmm_program *p = diamond();
    mmm_instance *inst = evaluated(p);
    mmm_attr_value av[MMM_ATTR_N];
    REFUSED(mmm_instance_eval_attrs(inst, 0, 2, av, NULL)); /* one launch */
    REFUSED(mmm_instance_eval_attrs(inst, 99, 1, av, NULL));
    REFUSED(mmm_instance_eval_attrs(inst, 0, 1, NULL, NULL));
    mmm_instance_free(inst);
    mmm_program_free(p);
}

Test(null_err, mmm_instance_eval_accesses)
{
    mmm_program *p = diamond();
    mmm_instance *inst = evaluated(p);
    mmm_mem_access_val av[4];
    REFUSED(mmm_instance_eval_accesses(inst, 0, 2, av, NULL)); /* one launch */
    REFUSED(mmm_instance_eval_accesses(inst, 99, 1, av, NULL));
    REFUSED(mmm_instance_eval_accesses(inst, 0, 1, NULL, NULL));
    mmm_instance_free(inst);
    mmm_program_free(p);
}

Test(null_err, mmm_metrics_compute)
{
    mmm_metrics m;
    REFUSED(mmm_metrics_compute(&m, NULL, 0, NULL));
}

/* ---- tmm.h, timemodel.h, fit.h: a program without machine parameters ---- */

Test(null_err, mmm_tmm_machine_get)
{
    mmm_program *p = diamond();
    mmm_instance *inst = evaluated(p);
    mmm_tmm_machine mc;
    REFUSED(mmm_tmm_machine_get(&mc, inst, NULL)); /* no L */
    mmm_instance_free(inst);
    mmm_program_free(p);
}

Test(null_err, mmm_tmm_compute)
{
    mmm_program *p = diamond();
    mmm_instance *inst = evaluated(p);
    mmm_tmm t;
    REFUSED(mmm_tmm_compute(&t, inst, NULL));
    mmm_instance_free(inst);
    mmm_program_free(p);
}

Test(null_err, mmm_balance_machine_get)
{
    mmm_program *p = diamond();
    mmm_instance *inst = evaluated(p);
    mmm_balance_machine bm;
    REFUSED(mmm_balance_machine_get(&bm, inst, NULL));
    mmm_instance_free(inst);
    mmm_program_free(p);
}

Test(null_err, mmm_balance_compute)
{
    mmm_program *p = diamond();
    mmm_instance *inst = evaluated(p);
    mmm_balance b;
    REFUSED(mmm_balance_compute(&b, inst, NULL));
    mmm_instance_free(inst);
    mmm_program_free(p);
}

Test(null_err, mmm_time_machine_get)
{
    mmm_program *p = diamond();
    mmm_instance *inst = evaluated(p);
    mmm_time_machine tm;
    REFUSED(mmm_time_machine_get(&tm, inst, 1, NULL));
    mmm_instance_free(inst);
    mmm_program_free(p);
}

Test(null_err, mmm_time_compute)
{
    mmm_program *p = diamond();
    mmm_instance *inst = evaluated(p);
    mmm_time t;
    REFUSED(mmm_time_compute(&t, inst, NULL, NULL));
    mmm_instance_free(inst);
    mmm_program_free(p);
}

Test(null_err, mmm_time_limits_get)
{
    mmm_time_machine tm;
    REFUSED(mmm_time_limits_get(&tm, NULL, MMM_TIME_LIMITS_GIVEN, NULL, NULL));
}

Test(null_err, mmm_time_check_launches)
{
    REFUSED(mmm_time_check_launches(NULL, NULL, NULL, NULL));
}

Test(null_err, mmm_time_predict)
{
    mmm_program *p = diamond();
    mmm_instance *inst = evaluated(p);
    mmm_time_machine tm; /* no constants, no machine */
    double s;
    memset(&tm, 0, sizeof tm);
    REFUSED(mmm_time_predict(&tm, inst, 0, &s, NULL));
    mmm_instance_free(inst);
    mmm_program_free(p);
}

Test(null_err, mmm_time_fit)
{
    mmm_time_machine tm;
    mmm_fit_result res;
    memset(&tm, 0, sizeof tm);
    REFUSED(mmm_time_fit(&tm, NULL, 0, NULL, &res, NULL)); /* no samples */
}

Test(null_err, mmm_time_machine_write)
{
    mmm_time_machine tm;
    memset(&tm, 0, sizeof tm);
    REFUSED(mmm_time_machine_write(NO_DIR ".xml", "m", NULL, &tm, NULL, NULL));
}

Test(null_err, mmm_runs_read_file)
{
    mmm_runs *r = NULL;
    REFUSED(mmm_runs_read_file(&r, NO_DIR ".csv", 0, NULL));
}

Test(null_err, mmm_runs_read_memory)
{
    static const char csv[] = "no,such,columns\n1,2,3\n";
    mmm_runs *r = NULL;
    REFUSED(mmm_runs_read_memory(&r, csv, sizeof csv - 1, "r.csv", 0, NULL));
}

Test(null_err, mmm_runs_overrides)
{
    mmm_override ov[4];
    size_t nov = 4;
    REFUSED(mmm_runs_overrides(NULL, 0, NULL, ov, &nov, NULL));
}

Test(null_err, mmm_fit_samples_make)
{
    static const char csv[] = "program,n,time_ms\nother,1,2\n";
    mmm_program *p = diamond();
    mmm_runs *r = NULL;
    mmm_fit_samples s;
    cr_assert_eq(mmm_runs_read_memory(&r, csv, sizeof csv - 1, "r.csv", 0, NULL), 0);
    REFUSED(mmm_fit_samples_make(&s, &r, 1, &p, 1, NULL, 0, NULL, NULL)); /* no 'other' */
    mmm_fit_samples_dispose(&s);
    REFUSED(mmm_fit_samples_make(&s, &r, 1, NULL, 0, NULL, 0, NULL, NULL));
    mmm_fit_samples_dispose(&s);
    REFUSED(mmm_fit_samples_make(NULL, &r, 1, &p, 1, NULL, 0, NULL, NULL));
    mmm_runs_free(r);
    mmm_program_free(p);
}

/* ---- sim.h, scale.h ---- */

Test(null_err, mmm_simulate)
{
    mmm_program *p = diamond();
    mmm_instance *inst = evaluated(p);
    mmm_sim_options o = MMM_SIM_OPTIONS_INIT;
    mmm_sim_result r;
    o.max_launches = 1; /* the diamond has 4 */
    REFUSED(mmm_simulate(&r, inst, &o, NULL));
    REFUSED(mmm_simulate(&r, NULL, NULL, NULL));
    mmm_instance_free(inst);
    mmm_program_free(p);
}

Test(null_err, mmm_simulate_policies)
{
    mmm_program *p = diamond();
    mmm_instance *inst = evaluated(p);
    mmm_sim_options o = MMM_SIM_OPTIONS_INIT;
    mmm_sim_runs r;
    o.max_launches = 1; /* the diamond has 4 */
    REFUSED(mmm_simulate_policies(&r, inst, &o, 1, -1.0, NULL, NULL));
    cr_expect_eq(r.n, 0);
    mmm_sim_runs_dispose(&r);
    REFUSED(mmm_simulate_policies(&r, NULL, NULL, 0, -1.0, NULL, NULL));
    REFUSED(mmm_simulate_policies(NULL, inst, NULL, 0, -1.0, NULL, NULL));
    mmm_instance_free(inst);
    mmm_program_free(p);
}

Test(null_err, mmm_sim_check)
{
    mmm_sim_result r;
    memset(&r, 0, sizeof r);
    r.makespan = -1; /* a makespan below zero breaks every bound */
    REFUSED(mmm_sim_check(&r, 1.0, NULL));
}

Test(null_err, mmm_sim_trace_write)
{
    mmm_program *p = diamond();
    mmm_instance *inst = evaluated(p);
    mmm_sim_options o = MMM_SIM_OPTIONS_INIT;
    mmm_sim_result r;
    o.p = 2;
    cr_assert_eq(mmm_simulate(&r, inst, &o, NULL), 0);
    REFUSED(mmm_sim_trace_write(NO_DIR ".json", &r, p, 0, NULL));
    mmm_sim_result_dispose(&r);
    mmm_instance_free(inst);
    mmm_program_free(p);
}

Test(null_err, mmm_speedup_parse_p)
{
    int64_t *v = NULL;
    size_t n = 0;
    REFUSED(mmm_speedup_parse_p(&v, &n, "1,x,3", NULL));
    REFUSED(mmm_speedup_parse_p(&v, &n, "0", NULL));
}

Test(null_err, mmm_speedup_measured_read_memory)
{
    mmm_speedup_measured *m = NULL;
    REFUSED(mmm_speedup_measured_read_memory(&m, "p,seconds\n2,1\n", 14, "m.csv", NULL));
    cr_assert_null(m);
    REFUSED(mmm_speedup_measured_read_memory(NULL, "", 0, "m.csv", NULL));
}

Test(null_err, mmm_speedup_measured_read_file)
{
    mmm_speedup_measured *m = NULL;
    REFUSED(mmm_speedup_measured_read_file(&m, NO_DIR ".csv", NULL));
    cr_assert_null(m);
}

Test(null_err, mmm_speedup_default_p)
{
    size_t n = 0;
    REFUSED(mmm_speedup_default_p(NULL, &n, 2, 10, 0, NULL)); /* only OOM else */
}

Test(null_err, mmm_speedup_compute)
{
    mmm_program *p = diamond();
    mmm_instance *inst = evaluated(p);
    mmm_speedup s;
    static const int64_t bad_p[] = {4, -1};
    mmm_speedup_options o = MMM_SPEEDUP_OPTIONS_INIT;
    o.p = bad_p;
    o.np = 2;
    REFUSED(mmm_speedup_compute(&s, inst, NULL, 0, &o, NULL));
    mmm_instance_free(inst);
    mmm_program_free(p);
}

/* ---- optimize.h ---- */

static void sweep_of(mmm_sweep_spec *spec, const mmm_program *p)
{
    mmm_sweep_spec z = MMM_SWEEP_SPEC_INIT;
    *spec = z;
    spec->naxes = 1;
    spec->axes[0].slot = mmm_program_find_param(p, "p");
    spec->axes[0].has_from = spec->axes[0].has_to = 1;
    spec->axes[0].from = mmm_value_int(0); /* p >= 1: refused */
    spec->axes[0].to = mmm_value_int(4);
}

Test(null_err, mmm_sweep_resolve)
{
    mmm_program *p = diamond();
    mmm_instance *inst = evaluated(p);
    mmm_sweep_spec spec = MMM_SWEEP_SPEC_INIT;
    mmm_sweep_result res;
    uint64_t n;
    spec.naxes = 3; /* at most two axes */
    REFUSED(mmm_sweep_resolve(&res, &n, inst, &spec, NULL));
    mmm_instance_free(inst);
    mmm_program_free(p);
}

Test(null_err, mmm_sweep_eval)
{
    mmm_program *p = diamond();
    mmm_instance *inst = evaluated(p);
    mmm_sweep_spec spec;
    mmm_metrics m;
    mmm_value zero = mmm_value_int(0);
    sweep_of(&spec, p);
    REFUSED(mmm_sweep_eval(&m, inst, &spec, &zero, 0, NULL));
    mmm_instance_free(inst);
    mmm_program_free(p);
}

Test(null_err, mmm_sweep_run)
{
    mmm_program *p = diamond();
    mmm_instance *inst = evaluated(p);
    mmm_sweep_spec spec = MMM_SWEEP_SPEC_INIT;
    mmm_sweep_result res;
    spec.naxes = 0;
    REFUSED(mmm_sweep_run(&res, inst, &spec, NULL, NULL, NULL));
    mmm_instance_free(inst);
    mmm_program_free(p);
}

Test(null_err, mmm_sweep_spec_parse)
{
    mmm_program *p = diamond();
    mmm_sweep_spec spec = MMM_SWEEP_SPEC_INIT;
    mmm_sweep_axis_text nope = {.name = "nope"}, bad = {.name = "p", .values = "1,2^"};
    REFUSED(mmm_sweep_spec_parse(&spec, p, &nope, 1, NULL, NULL, NULL));
    REFUSED(mmm_sweep_spec_parse(&spec, p, &bad, 1, NULL, NULL, NULL));
    cr_expect_null(spec.axes[0].values);
    REFUSED(mmm_sweep_spec_parse(&spec, NULL, &nope, 1, NULL, NULL, NULL));
    mmm_sweep_spec_dispose(&spec);
    mmm_program_free(p);
}

/* ---- output.h ---- */

Test(null_err, mmm_writer_new)
{
    mmm_writer *w = NULL;
    REFUSED(mmm_writer_new(&w, NULL, MMM_FORMAT_TEXT, NULL)); /* no FILE */
    REFUSED(mmm_writer_new(&w, stdout, (mmm_format)7, NULL));
}

Test(null_err, mmm_writer_new_memory)
{
    REFUSED(mmm_writer_new_memory(NULL, MMM_FORMAT_JSON, NULL));
}

Test(null_err, mmm_writer_flush)
{
    REFUSED(mmm_writer_flush(NULL, NULL));
}

/* A memory writer in format f. */
static mmm_writer *writer(mmm_format f)
{
    mmm_writer *w = NULL;
    cr_assert_eq(mmm_writer_new_memory(&w, f, NULL), 0);
    return w;
}

Test(null_err, mmm_models_compute)
{
    mmm_program *p = diamond();
    mmm_instance *inst = evaluated(p);
    mmm_models m;
    /* the diamond has no machine parameters */
    REFUSED(mmm_models_compute(&m, inst, MMM_MODEL_TMM, MMM_LAUNCH_PARAM, NULL));
    REFUSED(mmm_models_compute(&m, inst, MMM_MODEL_TIME, MMM_LAUNCH_GRAPH, NULL));
    mmm_instance_free(inst);
    mmm_program_free(p);
}

Test(null_err, mmm_models_time)
{
    mmm_program *p = diamond();
    mmm_instance *inst = evaluated(p);
    mmm_time t;
    memset(&t, 0, sizeof t);
    REFUSED(mmm_models_time(&t, inst, MMM_LAUNCH_STREAM, NULL));
    mmm_instance_free(inst);
    mmm_program_free(p);
}

Test(null_err, mmm_write_analysis)
{
    mmm_writer *w = writer(MMM_FORMAT_TEXT);
    REFUSED(mmm_write_analysis(w, NULL, NULL, NULL, 0, 0, NULL));
    REFUSED(mmm_write_analysis(NULL, NULL, NULL, NULL, 0, 0, NULL));
    mmm_writer_free(w);
}

Test(null_err, mmm_analyze_files)
{
    mmm_writer *w = writer(MMM_FORMAT_TEXT);
    mmm_analyze_options opt;
    memset(&opt, 0, sizeof opt); /* no version: refused */
    REFUSED(mmm_analyze_files(w, NULL, 0, &opt, NULL, NULL));
    REFUSED(mmm_analyze_files(NULL, NULL, 0, NULL, NULL, NULL));
    mmm_writer_free(w);
}

Test(null_err, mmm_convert_files)
{
    const char *in[] = {DIAMOND, DIAMOND};
    REFUSED(mmm_convert_files(in, 2, "-", NULL, NULL, NULL)); /* several to stdout */
    REFUSED(mmm_convert_files(in, 2, NO_DIR, NULL, NULL, NULL)); /* no such folder's parent */
}

Test(null_err, mmm_write_comparison)
{
    mmm_writer *w = writer(MMM_FORMAT_JSON);
    mmm_comparison_side a = {0};
    REFUSED(mmm_write_comparison(w, &a, &a, 0, NULL));
    mmm_writer_free(w);
}

Test(null_err, mmm_write_simulation_begin)
{
    mmm_writer *w = writer(MMM_FORMAT_CSV);
    REFUSED(mmm_write_simulation_begin(w, NULL, NULL, 0, NULL));
    mmm_writer_free(w);
}

Test(null_err, mmm_write_simulation)
{
    mmm_writer *w = writer(MMM_FORMAT_TEXT);
    mmm_sim_result r;
    memset(&r, 0, sizeof r);
    REFUSED(mmm_write_simulation(w, &r, 1, 0, 0, 0, NULL)); /* not begun */
    mmm_writer_free(w);
}

Test(null_err, mmm_write_simulation_end)
{
    mmm_writer *w = writer(MMM_FORMAT_JSON);
    REFUSED(mmm_write_simulation_end(w, NULL)); /* not begun */
    mmm_writer_free(w);
}

Test(null_err, mmm_write_speedup)
{
    mmm_writer *w = writer(MMM_FORMAT_TEXT);
    mmm_program *p = diamond();
    mmm_speedup s;
    memset(&s, 0, sizeof s); /* no policy */
    REFUSED(mmm_write_speedup(w, p, NULL, &s, 0, NULL));
    mmm_program_free(p);
    mmm_writer_free(w);
}

Test(null_err, mmm_write_speedup_measured)
{
    mmm_writer *w = writer(MMM_FORMAT_JSON);
    mmm_program *p = diamond();
    mmm_speedup s;
    memset(&s, 0, sizeof s); /* no policy */
    REFUSED(mmm_write_speedup_measured(w, p, NULL, &s, 0, NULL, NULL));
    mmm_program_free(p);
    mmm_writer_free(w);
}

Test(null_err, mmm_write_sweep_begin)
{
    mmm_writer *w = writer(MMM_FORMAT_CSV);
    mmm_program *p = diamond();
    mmm_sweep_result plan;
    mmm_sweep_spec spec = MMM_SWEEP_SPEC_INIT;
    memset(&plan, 0, sizeof plan); /* no axes */
    REFUSED(mmm_write_sweep_begin(w, p, &plan, &spec, 0, 0, NULL));
    mmm_program_free(p);
    mmm_writer_free(w);
}

Test(null_err, mmm_write_sweep_point)
{
    mmm_sweep_point pt;
    memset(&pt, 0, sizeof pt);
    REFUSED(mmm_write_sweep_point(&pt, NULL, NULL)); /* no writer */
}

Test(null_err, mmm_write_sweep_end)
{
    mmm_writer *w = writer(MMM_FORMAT_TEXT);
    mmm_sweep_result res;
    memset(&res, 0, sizeof res);
    REFUSED(mmm_write_sweep_end(w, &res, NULL, NULL, NULL, NULL)); /* not begun */
    mmm_writer_free(w);
}

Test(null_err, mmm_write_sweep)
{
    mmm_program *p = diamond();
    mmm_instance *inst = NULL;
    mmm_writer *w = writer(MMM_FORMAT_TEXT);
    mmm_sweep_spec spec = MMM_SWEEP_SPEC_INIT;
    mmm_sweep_result res;
    mmm_value none = mmm_value_int(0); /* p >= 1: no feasible point */
    cr_assert_eq(mmm_instance_new(&inst, p, NULL), 0);
    spec.naxes = 1;
    spec.axes[0].slot = mmm_program_find_param(p, "p");
    spec.axes[0].values = &none;
    spec.axes[0].nvalues = 1;
    REFUSED(mmm_write_sweep(w, &res, inst, &spec, 0, NULL, NULL, NULL));
    REFUSED(mmm_write_sweep(NULL, &res, inst, &spec, 0, NULL, NULL, NULL));
    mmm_writer_free(w);
    mmm_instance_free(inst);
    mmm_program_free(p);
}

Test(null_err, mmm_write_fit)
{
    mmm_writer *w = writer(MMM_FORMAT_CSV); /* fit has no CSV */
    mmm_fit_report r;
    memset(&r, 0, sizeof r);
    REFUSED(mmm_write_fit(w, &r, NULL));
    mmm_writer_free(w);
}

Test(null_err, mmm_write_calibration)
{
    mmm_writer *w = writer(MMM_FORMAT_CSV); /* calibrate has no CSV */
    mmm_calib c;
    memset(&c, 0, sizeof c);
    REFUSED(mmm_write_calibration(w, &c, NULL));
    mmm_writer_free(w);
}

/* ---- import.h, import_dot.h ---- */

static mmm_taskgraph *graph(void)
{
    mmm_taskgraph *g = NULL;
    cr_assert_eq(mmm_taskgraph_new(&g, "t.stg", "t", NULL, NULL, NULL), 0);
    cr_assert_eq(mmm_taskgraph_add_task(g, "a", 1, 0, 1, NULL), 0);
    return g;
}

Test(null_err, mmm_taskgraph_new)
{
    REFUSED(mmm_taskgraph_new(NULL, "t.stg", "t", NULL, NULL, NULL));
}

Test(null_err, mmm_taskgraph_task_type)
{
    mmm_taskgraph *g = NULL;
    cr_assert_eq(mmm_taskgraph_new(&g, "t.stg", "t", NULL, NULL, NULL), 0);
    REFUSED(mmm_taskgraph_task_type(g, "t", NULL)); /* no task yet */
    mmm_taskgraph_free(g);
}

Test(null_err, mmm_taskgraph_add_task)
{
    mmm_taskgraph *g = graph();
    REFUSED(mmm_taskgraph_add_task(g, "a", 1, 0, 2, NULL)); /* twice */
    mmm_taskgraph_free(g);
}

Test(null_err, mmm_taskgraph_add_edge)
{
    mmm_taskgraph *g = graph();
    REFUSED(mmm_taskgraph_add_edge(g, "a", "nowhere", 3, NULL));
    mmm_taskgraph_free(g);
}

Test(null_err, mmm_taskgraph_cost)
{
    mmm_taskgraph *g = graph();
    int64_t c;
    REFUSED(mmm_taskgraph_cost(g, "a", NAN, 0, 3, &c, NULL));
    mmm_taskgraph_free(g);
}

Test(null_err, mmm_taskgraph_finish)
{
    mmm_taskgraph *g = graph();
    mmm_program *p = NULL;
    cr_assert_eq(mmm_taskgraph_add_task(g, "b", 1, 0, 2, NULL), 0);
    cr_assert_eq(mmm_taskgraph_add_edge(g, "a", "b", 3, NULL), 0);
    cr_assert_eq(mmm_taskgraph_add_edge(g, "b", "a", 4, NULL), 0);
    REFUSED(mmm_taskgraph_finish(g, &p, NULL)); /* a cycle */
}

#ifdef MMM_HAVE_DOT /* the DOT readers are built where cgraph is */
Test(null_err, mmm_dot_read)
{
    static const char dot[] = "digraph { a -> ";
    mmm_program *p = NULL;
    REFUSED(mmm_dot_read(&p, dot, sizeof dot - 1, "t.dot", NULL, NULL, NULL));
}

Test(null_err, mmm_cuda_dot_read)
{
    static const char dot[] = "digraph { a -> ";
    mmm_program *p = NULL;
    REFUSED(mmm_cuda_dot_read(&p, dot, sizeof dot - 1, "t.dot", NULL, NULL, NULL));
}
#endif

/* ---- calibrate.h ---- */

Test(null_err, mmm_calib_analyze)
{
    mmm_calib c;
    mmm_calib_raw raw;
    memset(&raw, 0, sizeof raw); /* no samples at all */
    REFUSED(mmm_calib_analyze(&c, &raw, NULL));
}

Test(null_err, mmm_calib_machine_xml)
{
    char *x = NULL;
    size_t n = 0;
    REFUSED(mmm_calib_machine_xml(&x, &n, NULL, NULL));
}

Test(null_err, mmm_calib_write_machine)
{
    mmm_calib c;
    memset(&c, 0, sizeof c);
    REFUSED(mmm_calib_write_machine(NO_DIR ".xml", &c, NULL));
}

Test(null_err, mmm_calib_constants_from_machine)
{
    mmm_calib_constants k;
    mmm_machine *m = NULL;
    cr_assert_eq(mmm_machine_load_file(&m, MMM_DAGS_DIR "/machines/gtx480.xml", NULL, NULL), 0);
    REFUSED(mmm_calib_constants_from_machine(&k, m, NULL)); /* not calibrated */
    mmm_machine_free(m);
}

/* ---- drawing: render.h, report.h, gantt.h, plot.h, sweep_plot.h, scale.h ---- */

Test(null_err, mmm_render_memory)
{
    char *out = NULL;
    size_t len = 0;
    REFUSED(mmm_render_memory(&out, &len, NULL, NULL, NULL, NULL));
}

Test(null_err, mmm_render_file)
{
    mmm_program *p = diamond();
    mmm_instance *inst = evaluated(p);
    mmm_metrics m;
    cr_assert_eq(mmm_metrics_compute(&m, inst, 0, NULL), 0);
    REFUSED(mmm_render_file(NO_DIR ".svg", inst, &m, NULL, NULL));
    mmm_metrics_dispose(&m);
    mmm_instance_free(inst);
    mmm_program_free(p);
}

Test(null_err, mmm_report_html)
{
    char *out = NULL;
    size_t len = 0;
    REFUSED(mmm_report_html(&out, &len, NULL, NULL, NULL, NULL));
}

Test(null_err, mmm_report_write)
{
    mmm_program *p = diamond();
    mmm_instance *inst = evaluated(p);
    mmm_metrics m;
    cr_assert_eq(mmm_metrics_compute(&m, inst, 0, NULL), 0);
    REFUSED(mmm_report_write(NO_DIR ".html", inst, &m, NULL, NULL));
    mmm_metrics_dispose(&m);
    mmm_instance_free(inst);
    mmm_program_free(p);
}

Test(null_err, mmm_gantt_write)
{
    mmm_program *p = diamond();
    mmm_instance *inst = evaluated(p);
    mmm_sim_options o = MMM_SIM_OPTIONS_INIT;
    mmm_sim_result r;
    o.p = 2;
    o.record = 1;
    cr_assert_eq(mmm_simulate(&r, inst, &o, NULL), 0);
    REFUSED(mmm_gantt_write(NO_DIR ".svg", &r, p, NULL, NULL));
    REFUSED(mmm_gantt_write("g.svgz", &r, p, NULL, NULL)); /* no such format */
    mmm_sim_result_dispose(&r);
    mmm_instance_free(inst);
    mmm_program_free(p);
}

Test(null_err, mmm_plot_write)
{
    mmm_plot plot;
    memset(&plot, 0, sizeof plot);
    REFUSED(mmm_plot_write(&plot, "p.svgz", NULL));
}

Test(null_err, mmm_sweep_plot_new)
{
    mmm_sweep_plot *sp = NULL;
    REFUSED(mmm_sweep_plot_new(&sp, NULL, NULL, 0, NULL));
}

Test(null_err, mmm_sweep_plot_write)
{
    REFUSED(mmm_sweep_plot_write(NULL, NULL, NULL, NULL, NO_DIR ".svg", NULL));
}

Test(null_err, mmm_speedup_plot_write)
{
    mmm_speedup s;
    memset(&s, 0, sizeof s);
    REFUSED(mmm_speedup_plot_write(&s, "x", "p.svgz", NULL));
}

Test(null_err, mmm_speedup_plot_write_measured)
{
    mmm_speedup s;
    memset(&s, 0, sizeof s);
    REFUSED(mmm_speedup_plot_write_measured(&s, NULL, "x", "p.svgz", NULL));
}

Test(null_err, mmm_ncu_read_file)
{
    mmm_ncu_capture *c = NULL;
    REFUSED(mmm_ncu_read_file(&c, NO_DIR ".csv", 0, NULL));
    REFUSED(mmm_ncu_read_file(&c, DIAMOND, 0, NULL)); /* not a capture */
    cr_expect_null(c);
}

Test(null_err, mmm_ncu_read_memory)
{
    mmm_ncu_capture *c = NULL;
    REFUSED(mmm_ncu_read_memory(&c, "\"ID\",\"Kernel Name\"\n", 19, "x.csv", NULL));
    REFUSED(mmm_ncu_read_memory(NULL, "", 0, "x.csv", NULL));
    cr_expect_null(c);
}

Test(null_err, mmm_profile_fit)
{
    mmm_profile_fit_result r;
    mmm_value y = mmm_value_int(1);
    REFUSED(mmm_profile_fit(NULL, 0, NULL, &y, 0, &r, NULL)); /* no points */
}

Test(null_err, mmm_profile_build)
{
    mmm_profile *p = NULL;
    REFUSED(mmm_profile_build(&p, NO_DIR ".csv", NULL, NULL));
    cr_expect_null(p);
}

Test(null_err, mmm_profile_grid_new)
{
    REFUSED(mmm_profile_grid_new(NULL, NULL));
}

Test(null_err, mmm_profile_grid_add)
{
    mmm_profile_grid *g = NULL;
    cr_assert_eq(mmm_profile_grid_new(&g, NULL), 0);
    REFUSED(mmm_profile_grid_add(g, "n", NULL));         /* not NAME=LIST */
    REFUSED(mmm_profile_grid_add(g, "n=1,x", NULL));     /* not a number */
    cr_expect_eq(mmm_profile_grid_add(g, "m=1", NULL), 0);
    REFUSED(mmm_profile_grid_add(g, "m=2", NULL));       /* twice */
    REFUSED(mmm_profile_grid_add(NULL, "k=1", NULL));
    mmm_profile_grid_free(g);
}

Test(null_err, mmm_profile_run)
{
    mmm_profile_captures *c = NULL;
    mmm_profile_run_options o = MMM_PROFILE_RUN_OPTIONS_INIT;
    char *argv[] = {(char *)"true", NULL};
    o.ncu = NO_DIR "/ncu";
    REFUSED(mmm_profile_run(&c, NULL, argv, 1, &o, NULL, NULL));
    cr_expect_null(c);
    REFUSED(mmm_profile_run(&c, NULL, argv, 0, NULL, NULL, NULL));
    REFUSED(mmm_profile_run(NULL, NULL, argv, 1, NULL, NULL, NULL));
}

Test(null_err, mmm_profile_save_xml)
{
    REFUSED(mmm_profile_save_xml(NULL, NO_DIR ".xml", NULL));
}

/* ---- roofline.h ---- */
Test(null_err, mmm_roofline_compute)
{
    mmm_roofline r;
    REFUSED(mmm_roofline_compute(&r, NULL, NULL, NULL));
}

Test(null_err, mmm_write_roofline)
{
    mmm_writer *w = writer(MMM_FORMAT_TEXT);
    REFUSED(mmm_write_roofline(w, NULL, NULL, NULL, NULL));
    mmm_writer_free(w);
}

Test(null_err, mmm_roofline_plot_write)
{
    mmm_roofline r;
    memset(&r, 0, sizeof r); /* no kernel */
    REFUSED(mmm_roofline_plot_write(&r, NULL, NULL, "p.svg", NULL));
}

Test(null_err, mmm_fit_plot_write)
{
    REFUSED(mmm_fit_plot_write(NULL, NULL, NULL));
    REFUSED(mmm_fit_plot_write(NULL, "p.svg", NULL));
}

Test(null_err, mmm_roofline_plot_svg)
{
    REFUSED(mmm_roofline_plot_svg(NULL, NULL, NULL, NULL, NULL, NULL));
}
