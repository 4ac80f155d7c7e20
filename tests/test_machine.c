/* test_machine.c: the machine is a value of its own (docs/format.md,
 * "Machine files").  Of a machine file, a program's expressions see only
 * the models' machine parameters (U, Z, p, P, Q, C, L, X); every other
 * name is a constant that only the models read, and a program parameter of
 * the same name is the program's own.  A program that declares beta (the
 * balance principle's bandwidth in dags/machines/h100-calibrated.xml)
 * gets its own beta, and the time it is predicted is the one of the same
 * program with the parameter renamed; alpha likewise.  A program parameter
 * named like a model's machine parameter is a default the machine's value
 * replaces, its range applying (the one documented rule). */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mmm/mmm.h"

#define H100 MMM_DAGS_DIR "/machines/h100-calibrated.xml"

typedef struct loaded {
    mmm_machine *m;
    mmm_program *p;
    mmm_instance *inst;
    mmm_error err;
} loaded;

/* Load text with the machine file (NULL: none); evaluate with overrides
 * NAME=VALUE (NULL-terminated pairs).  Returns the status of the load or
 * of the evaluation. */
static int load(loaded *l, const char *text, const char *machine,
                const char *const *defs)
{
    mmm_load_options opt = MMM_LOAD_OPTIONS_INIT;
    mmm_override ov[4];
    size_t nov = 0;
    int r;
    memset(l, 0, sizeof *l);
    if (machine)
        cr_assert_eq(mmm_machine_load_file(&l->m, machine, NULL, &l->err), 0,
                     "%s", l->err.message);
    opt.machine = l->m;
    if ((r = mmm_program_load_memory(&l->p, text, strlen(text), "t.xml", &opt,
                                     &l->err)) < 0)
        return r;
    for (; defs && defs[0]; defs += 2) {
        ov[nov].slot = mmm_program_find_param(l->p, defs[0]);
        cr_assert_geq(ov[nov].slot, 0, "%s", defs[0]);
        ov[nov++].value = mmm_value_double(atof(defs[1]));
    }
    cr_assert_eq(mmm_instance_new(&l->inst, l->p, &l->err), 0);
    return mmm_instance_eval(l->inst, ov, nov, &l->err);
}

static void unload(loaded *l)
{
    mmm_instance_free(l->inst);
    mmm_program_free(l->p);
    mmm_machine_free(l->m);
}

static double value(const loaded *l, int slot)
{
    cr_assert_geq(slot, 0);
    return l->inst->values[slot].d;
}

/* The program's seconds by the time model. */
static double seconds(const loaded *l)
{
    mmm_time t;
    mmm_error err;
    cr_assert_eq(mmm_time_compute(&t, l->inst, NULL, &err), 0, "%s",
                 err.message);
    double s = t.seconds;
    mmm_time_dispose(&t);
    return s;
}

/* A kernel whose span is NAME and whose registers are REGS. */
static void program(char *buf, size_t size, const char *name,
                    const char *value, const char *regs)
{
    snprintf(buf, size,
             "<program name='b'>\n"
             "<param name='U' value='1'/>\n"
             "<param name='%s' value='%s'/>\n"
             "<param name='n' value='1024'/>\n"
             "<kernel id='k' blocks='n/128' threads='128' work='128*%s'\n"
             "        span='%s' reads='1' writes='1' registers='%s'/>\n"
             "</program>\n",
             name, value, name, name, regs);
}

/* The case: a program's beta = 2 analyzed with a machine whose
 * beta is 2.78e12 got the machine's, and 5903 s. */
Test(machine, a_program_beta_is_the_program_s)
{
    char a[1024], b[1024];
    loaded x, y;
    program(a, sizeof a, "beta", "2", "32");
    program(b, sizeof b, "mine", "2", "32");
    cr_assert_eq(load(&x, a, H100, NULL), 0, "%s", x.err.message);
    cr_assert_eq(load(&y, b, H100, NULL), 0, "%s", y.err.message);
    /* the program's expressions read its beta */
    cr_expect_eq(x.inst->kernels[0].S, 2);
    cr_expect_eq(value(&x, mmm_program_find_param(x.p, "beta")), 2);
    /* the machine's beta is still the machine's, for the models */
    cr_expect_gt(value(&x, mmm_program_find_machine_param(x.p, "beta")),
                 1e12);
    cr_expect_neq(mmm_program_find_param(x.p, "beta"),
                  mmm_program_find_machine_param(x.p, "beta"));
    /* and the time is the renamed program's: microseconds */
    double tx = seconds(&x), ty = seconds(&y);
    cr_expect_eq(tx, ty, "%g s with beta, %g s with mine", tx, ty);
    cr_expect_lt(tx, 1e-3, "%g s", tx);
    /* the balance principle reads the machine's beta */
    mmm_balance bal;
    cr_assert_eq(mmm_balance_compute(&bal, x.inst, &x.err), 0, "%s",
                 x.err.message);
    cr_expect_gt(bal.machine.beta, 1e12);
    mmm_balance_dispose(&bal);
    unload(&x);
    unload(&y);
}

/* alpha (the machine's latency, 3.48e-7 s) as a register count failed
 * with "registers ... is not an integer". */
Test(machine, a_program_alpha_is_the_program_s)
{
    char a[1024], b[1024];
    loaded x, y;
    program(a, sizeof a, "alpha", "4", "alpha");
    program(b, sizeof b, "mine", "4", "mine");
    cr_assert_eq(load(&x, a, H100, NULL), 0, "%s", x.err.message);
    cr_assert_eq(load(&y, b, H100, NULL), 0, "%s", y.err.message);
    cr_expect_eq(seconds(&x), seconds(&y));
    mmm_attr_value av[MMM_ATTR_N];
    cr_assert_eq(mmm_instance_eval_attrs(x.inst, 0, 1, av, &x.err), 0);
    cr_expect_eq(av[MMM_ATTR_REGISTERS].value, 4);
    unload(&x);
    unload(&y);
}

/* Every constant of the machine file that is no model's machine
 * parameter: unseen by expressions, with a message that says so. */
Test(machine, expressions_do_not_see_the_machine_s_constants)
{
    loaded x;
    static const char text[] =
        "<program name='w'>\n"
        "<kernel id='k' blocks='1' threads='32' work='32' span='1'\n"
        "        reads='0' writes='0' shared_bytes='32*word_bytes'/>\n"
        "</program>\n";
    cr_assert_lt(load(&x, text, H100, NULL), 0);
    cr_expect_eq(x.err.line, 2);
    cr_expect(strstr(x.err.message,
                     "unknown parameter 'word_bytes'; 'word_bytes' is a "
                     "constant of the machine file, which a program's "
                     "expressions do not see (of a machine, they see U, Z, "
                     "p, P, Q, C, L and X): declare it with <param> to use "
                     "it"),
              "%s", x.err.message);
    unload(&x);
}

/* The list of the models' machine parameters, and the kinds of the
 * params of a program loaded with a machine. */
Test(machine, model_parameters_and_constants)
{
    static const char *const want[] = {"U", "Z", "p", "P",
                                       "Q", "C", "L", "X"};
    size_t i;
    loaded x;
    for (i = 0; mmm_model_machine_param(i); i++)
        cr_expect_str_eq(mmm_model_machine_param(i), want[i]);
    cr_expect_eq(i, sizeof want / sizeof want[0]);
    cr_assert_eq(load(&x, "<program name='e'/>", H100, NULL), 0, "%s",
                 x.err.message);
    for (i = 0; i < x.p->nparams; i++) {
        const mmm_param *pa = &x.p->params[i];
        int model = 0;
        for (size_t j = 0; j < sizeof want / sizeof want[0]; j++)
            model |= !strcmp(pa->name, want[j]);
        cr_expect_eq(pa->from_machine,
                     model ? MMM_PARAM_MACHINE : MMM_PARAM_MACHINE_CONST,
                     "%s", pa->name);
        /* the same slot by either lookup when the program has no
         * parameter of that name */
        cr_expect_eq(mmm_program_find_param(x.p, pa->name), (int)i);
        cr_expect_eq(mmm_program_find_machine_param(x.p, pa->name), (int)i);
    }
    unload(&x);
}

/* -D (an override by mmm_program_find_param) sets a machine constant when
 * the program has no parameter of its name, and the program's parameter
 * when it has one. */
Test(machine, overrides_by_name)
{
    char a[1024];
    loaded x;
    static const char *const d1[] = {"launch_s", "1e-3", NULL};
    static const char *const d2[] = {"beta", "3", NULL};
    program(a, sizeof a, "beta", "2", "32");
    cr_assert_eq(load(&x, a, H100, d1), 0, "%s", x.err.message);
    mmm_time_machine m;
    cr_assert_eq(mmm_time_machine_get(&m, x.inst, 1, &x.err), 0);
    cr_expect_eq(m.c[MMM_TIME_LAUNCH], 1e-3);
    unload(&x);
    cr_assert_eq(load(&x, a, H100, d2), 0, "%s", x.err.message);
    cr_expect_eq(x.inst->kernels[0].S, 3);
    cr_expect_gt(value(&x, mmm_program_find_machine_param(x.p, "beta")),
                 1e12);
    unload(&x);
}

/* Without a machine file, a program describes its own machine: the
 * models read its parameters (test_time's small machine does). */
Test(machine, without_a_machine_file_the_program_s_names)
{
    loaded x;
    char a[1024];
    program(a, sizeof a, "beta", "2", "32");
    cr_assert_eq(load(&x, a, NULL, NULL), 0, "%s", x.err.message);
    cr_expect_eq(mmm_program_find_machine_param(x.p, "beta"),
                 mmm_program_find_param(x.p, "beta"));
    cr_expect_eq(mmm_program_find_machine_param(x.p, "clock_hz"), -1);
    unload(&x);
}

/* The one rule for a model's machine parameter (U, Z, p, ...) that the
 * program declares too: the program's <param> is a default, the
 * machine's value replaces it, its range applies, -D wins over both; a
 * default computed from the program's own parameters is refused. */
Test(machine, a_model_parameter_is_the_machine_s)
{
    loaded x;
    static const char uz[] =
        "<program name='u'>\n"
        "<param name='U' value='400'/>\n"
        "<param name='n' value='8'/>\n"
        "<kernel id='k' blocks='n' threads='32' work='32' span='1'\n"
        "        reads='1' writes='0'/>\n"
        "</program>\n";
    static const char *const dU[] = {"U", "7", NULL};
    cr_assert_eq(load(&x, uz, H100, NULL), 0, "%s", x.err.message);
    int u = mmm_program_find_param(x.p, "U");
    cr_expect_eq(x.p->params[u].from_machine, MMM_PARAM_MACHINE);
    cr_expect_eq(x.p->params[u].line, 2); /* the program's line */
    cr_expect(fabs(value(&x, u) - 857.859375) < 1e-9, "%g", value(&x, u));
    cr_expect_eq(u, mmm_program_find_machine_param(x.p, "U"));
    unload(&x);
    cr_assert_eq(load(&x, uz, H100, dU), 0, "%s", x.err.message);
    cr_expect_eq(x.inst->U, 7);
    unload(&x);

    /* the program's range holds the machine's value */
    static const char range[] =
        "<program name='r'>\n"
        "<param name='p' value='16' min='1' max='64'/>\n"
        "</program>\n";
    cr_assert_lt(load(&x, range, H100, NULL), 0);
    cr_expect(strstr(x.err.message,
                     "parameter 'p' = 132 is above its maximum 64"),
              "%s", x.err.message);
    cr_expect_eq(x.err.line, 2);
    unload(&x);

    /* a default that is the program's own quantity */
    static const char own[] =
        "<program name='z'>\n"
        "<param name='s' value='4'/>\n"
        "<param name='Z' value='7*s'/>\n"
        "</program>\n";
    cr_assert_lt(load(&x, own, H100, NULL), 0);
    cr_expect(strstr(x.err.message,
                     "parameter 'Z' is a parameter of the machine file, "
                     "whose value replaces this default ('7*s'), but the "
                     "default uses this program's own parameters"),
              "%s", x.err.message);
    cr_expect_eq(x.err.line, 3);
    unload(&x);
}
