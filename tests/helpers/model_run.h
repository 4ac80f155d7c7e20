/* model_run.h: a bundled program loaded with a machine file and
 * re-evaluated with overrides given as text, and the built binary run
 * from the source folder (test_tmm, test_balance).
 *
 *   run r;
 *   run_open(&r, "apsp/dp_squaring.xml", "gtx480.xml");   // dags/, dags/machines/
 *   run_eval(&r, "n=%d P=896", n);                        // numbers only
 *   ... r.prog, r.inst ...
 *   run_close(&r);
 *   int status = run_cmd("analyze dags/x.xml --format json", out, sizeof out);
 *
 * Header-only (static functions); needs Criterion and mmm/mmm.h included
 * first, and the MMM_DAGS_DIR, MMM_SOURCE_DIR and MMM_BIN definitions of
 * tests/CMakeLists.txt. */
#ifndef MMM_TEST_MODEL_RUN_H
#define MMM_TEST_MODEL_RUN_H

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "numbers.h"

typedef struct run {
    mmm_program *prog;
    mmm_instance *inst;
    char what[1400]; /* the program and the last overrides, for messages */
} run;

static void run_open(run *r, const char *dag, const char *machine)
{
    char path[1024];
    mmm_error err;
    mmm_machine *m = NULL;
    mmm_load_options opt = MMM_LOAD_OPTIONS_INIT;
    memset(r, 0, sizeof *r);
    mmm_error_clear(&err);
    if (machine) {
        snprintf(path, sizeof path, "%s/machines/%s", MMM_DAGS_DIR, machine);
        cr_assert_eq(mmm_machine_load_file(&m, path, NULL, &err), 0, "%s: %s",
                     path, err.message);
        opt.machine = m;
    }
    snprintf(path, sizeof path, "%s/%s", MMM_DAGS_DIR, dag);
    cr_assert_eq(mmm_program_load_file(&r->prog, path, &opt, &err), 0,
                 "%s:%ld: %s", path, err.line, err.message);
    mmm_machine_free(m);
    cr_assert_eq(mmm_instance_new(&r->inst, r->prog, &err), 0, "%s", err.message);
    snprintf(r->what, sizeof r->what, "%s", dag);
}

/* defs: "n=4096 m=1e6 L=400" (values are numbers), printf-style. */
static void run_eval(run *r, const char *fmt, ...)
{
    char defs[1024], *save = NULL, *tok;
    mmm_override ov[64];
    size_t nov = 0;
    mmm_error err;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(defs, sizeof defs, fmt, ap);
    va_end(ap);
    snprintf(r->what, sizeof r->what, "%s %s", r->prog->name, defs);
    for (tok = strtok_r(defs, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
        char *eq = strchr(tok, '=');
        cr_assert_not_null(eq, "bad definition '%s'", tok);
        cr_assert_lt(nov, sizeof ov / sizeof ov[0], "too many definitions");
        *eq = '\0';
        ov[nov].slot = mmm_program_find_param(r->prog, tok);
        cr_assert_geq(ov[nov].slot, 0, "%s: no parameter %s", r->prog->name, tok);
        ov[nov].value = mmm_value_double(strtod(eq + 1, NULL));
        nov++;
    }
    mmm_error_clear(&err);
    cr_assert_eq(mmm_instance_eval(r->inst, ov, nov, &err), 0, "%s: %s",
                 r->what, err.message);
}

static void run_close(run *r)
{
    mmm_instance_free(r->inst);
    mmm_program_free(r->prog);
}

/* Run `mmm ARGS` from the source folder; its stdout and stderr go to out.
 * Returns the exit status (-1 when it did not exit). */
static int run_cmd(const char *args, char *out, size_t size)
{
    char cmd[2048];
    FILE *p;
    size_t len;
    int status;
    snprintf(cmd, sizeof cmd, "cd '%s' && '%s' %s 2>&1", MMM_SOURCE_DIR, MMM_BIN, args);
    p = popen(cmd, "r");
    cr_assert_not_null(p);
    len = fread(out, 1, size - 1, p);
    out[len] = '\0';
    status = pclose(p);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

#endif
