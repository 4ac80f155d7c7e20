/* test_progress.c: the progress the library reports (mmm_progress_fn in
 * the options of mmm_program_open, mmm_simulate, mmm_speedup_compute,
 * mmm_report_html and mmm_analyze_files): what each says, done never past
 * total, and a last call with what NULL before it returns; an options
 * struct of version 1 (before progress) is read without it.  And the
 * command: --progress writes its lines on stderr only, after a second,
 * and stdout is the same bytes as without it. */
#define _DEFAULT_SOURCE 1
#include <criterion/criterion.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mmm/mmm.h"
#include "mmm/optimize.h"
#include "mmm/output.h"
#include "mmm/report.h"
#include "mmm/scale.h"
#include "mmm/sim.h"
#include "mmm_run.h"

#define DAG(name) MMM_DAGS_DIR "/" name

/* What the calls said: every `what` (NULL as "-"), one per line. */
typedef struct said {
    char text[65536];
    size_t len, calls, nulls, over;
    int last_null;
} said;

static void note(void *payload, const char *what, uint64_t done, uint64_t total)
{
    said *s = payload;
    s->calls++;
    s->last_null = what == NULL;
    s->nulls += what == NULL;
    s->over += total && done > total;
    s->len += (size_t)snprintf(s->text + s->len, sizeof s->text - s->len, "%s\n",
                               what ? what : "-");
    if (s->len >= sizeof s->text)
        s->len = sizeof s->text - 1;
}

static mmm_instance *open_dag(mmm_program **prog, const char *path, said *s)
{
    mmm_open_options opt = MMM_OPEN_OPTIONS_INIT;
    mmm_opened o;
    mmm_instance *inst;
    mmm_error e;
    opt.progress = note;
    opt.progress_payload = s;
    cr_assert_eq(mmm_program_open(&o, path, &opt, &e), 0, "%s", e.message);
    *prog = o.program;
    inst = o.instance;
    o.program = NULL;
    o.instance = NULL;
    mmm_opened_dispose(&o);
    return inst;
}

Test(progress, open_simulate_speedup)
{
    said s = {.len = 0};
    mmm_program *prog;
    mmm_instance *inst = open_dag(&prog, DAG("poly_div_opt.xml"), &s);
    mmm_sim_options so = MMM_SIM_OPTIONS_INIT;
    mmm_speedup_options sp = MMM_SPEEDUP_OPTIONS_INIT;
    mmm_sim_result r;
    mmm_speedup su;
    mmm_error e;
    cr_expect_str_eq(s.text, "reading " DAG("poly_div_opt.xml") "\nevaluating\n-\n");
    memset(&s, 0, sizeof s);
    so.progress = note;
    so.progress_payload = &s;
    cr_assert_eq(mmm_simulate(&r, inst, &so, &e), 0, "%s", e.message);
    cr_expect(!strncmp(s.text, "simulating fifo on ", 19), "%s", s.text);
    cr_expect(s.last_null && s.nulls == 1 && s.over == 0, "%s", s.text);
    mmm_sim_result_dispose(&r);
    memset(&s, 0, sizeof s);
    sp.progress = note;
    sp.progress_payload = &s;
    cr_assert_eq(mmm_speedup_compute(&su, inst, NULL, 0, &sp, &e), 0, "%s", e.message);
    cr_expect(strstr(s.text, "speedup over p\n") && strstr(s.text, "simulating fifo on 1 SMs"),
              "%s", s.text);
    cr_expect(s.last_null && s.over == 0, "%s", s.text);
    mmm_speedup_dispose(&su);
    /* version 1 (before progress): read without it */
    memset(&s, 0, sizeof s);
    so.version = 1;
    cr_assert_eq(mmm_simulate(&r, inst, &so, &e), 0, "%s", e.message);
    cr_expect_eq(s.calls, 0u);
    mmm_sim_result_dispose(&r);
    mmm_instance_free(inst);
    mmm_program_free(prog);
}

Test(progress, report_and_analyze_files)
{
    said s = {.len = 0}, t = {.len = 0};
    mmm_program *prog;
    mmm_instance *inst = open_dag(&prog, DAG("poly_div_opt.xml"), &s);
    mmm_report_options ro = MMM_REPORT_OPTIONS_INIT;
    mmm_analyze_options ao = MMM_ANALYZE_OPTIONS_INIT;
    const char *paths[] = {DAG("diamond.xml"), DAG("fork_join.xml")};
    mmm_writer *w;
    mmm_metrics m;
    mmm_error e;
    char *html = NULL;
    size_t len = 0;
    memset(&m, 0, sizeof m);
    cr_assert_eq(mmm_metrics_compute(&m, inst, 0, &e), 0, "%s", e.message);
    ro.progress = note;
    ro.progress_payload = &t;
    cr_assert_eq(mmm_report_html(&html, &len, inst, &m, &ro, &e), 0, "%s", e.message);
    cr_expect(strstr(t.text, "drawing the DAG\n") && strstr(t.text, "sweeping s\n") &&
              strstr(t.text, "simulating critical-path on 14 SMs\n"), "%s", t.text);
    cr_expect(t.last_null && t.over == 0, "%s", t.text);
    free(html);
    mmm_metrics_dispose(&m);

    memset(&t, 0, sizeof t);
    ao.open.progress = note;
    ao.open.progress_payload = &t;
    cr_assert_eq(mmm_writer_new_memory(&w, MMM_FORMAT_JSON, &e), 0);
    cr_assert_eq(mmm_analyze_files(w, paths, 2, &ao, NULL, &e), 0, "%s", e.message);
    cr_expect_str_eq(t.text, "reading " DAG("diamond.xml") "\nevaluating\n-\nmeasures\n-\n"
                             "reading " DAG("fork_join.xml") "\nevaluating\n-\nmeasures\n-\n");
    mmm_writer_free(w);
    mmm_instance_free(inst);
    mmm_program_free(prog);
}

/* --progress: lines on stderr once the run is past a second (4 million
 * launches that differ, simulated one by one: seconds), none on stdout;
 * without it (stderr is not a terminal here) nothing. */
Test(progress, command_line)
{
    const char *with[] = {"simulate", "long.xml", "--progress", "--max-launches", "100000000",
                          "--max-index-repeat", "10000000", NULL};
    const char *without[] = {"simulate", "long.xml", "--max-launches", "100000000",
                             "--max-index-repeat", "10000000", NULL};
    mmm_run_result a, b;
    FILE *f = fopen("long.xml", "w");
    cr_assert(f);
    fputs("<program name=\"long\">\n  <param name=\"U\" value=\"1\"/>\n"
          "  <param name=\"p\" value=\"4\"/>\n"
          "  <kernel id=\"k\" repeat=\"4000000\" index=\"i\" blocks=\"1 + i - 2*floor(i/2)\"\n"
          "          work=\"2\" span=\"1\" reads=\"1\" writes=\"0\"/>\n</program>\n", f);
    fclose(f);
    cr_assert_eq(mmm_run(&a, with, NULL, &MMM_RUN_LIMITS_DEFAULT), 0);
    cr_assert_eq(mmm_run(&b, without, NULL, &MMM_RUN_LIMITS_DEFAULT), 0);
    cr_expect(a.exited && a.status == 0, "%s", a.err);
    cr_expect(strstr(a.err, "mmm simulate: simulating fifo on 4 SMs "), "%s", a.err);
    cr_expect(strstr(a.err, " s)\n"), "%s", a.err);
    cr_expect(!strstr(a.out, "simulating"), "%s", a.out);
    cr_expect(a.out_len == b.out_len && !memcmp(a.out, b.out, a.out_len));
    cr_expect_eq(b.err_len, 0u, "%s", b.err);
    mmm_run_dispose(&a);
    mmm_run_dispose(&b);
    remove("long.xml");
}

/* mmm_write_sweep (mmm optimize): "sweeping" once a point, done up to the
 * total, then NULL; a spec of version 1 is swept without progress. */
Test(progress, sweep)
{
    mmm_program *prog;
    said s, none;
    memset(&s, 0, sizeof s);
    memset(&none, 0, sizeof none);
    mmm_instance *inst = open_dag(&prog, DAG("poly_div_opt.xml"), &none);
    mmm_sweep_spec spec = MMM_SWEEP_SPEC_INIT;
    mmm_sweep_axis_text ax = {"s", "1", "40", NULL, NULL};
    mmm_error e;
    cr_assert_eq(mmm_sweep_spec_parse(&spec, prog, &ax, 1, NULL, NULL, &e), 0, "%s", e.message);
    spec.progress = note;
    spec.progress_payload = &s;
    FILE *devnull = fopen("/dev/null", "w");
    mmm_writer *w = NULL;
    mmm_sweep_result res;
    cr_assert_eq(mmm_writer_new(&w, devnull, MMM_FORMAT_JSON, &e), 0, "%s", e.message);
    cr_assert_eq(mmm_write_sweep(w, &res, inst, &spec, 0, NULL, NULL, &e), 0, "%s", e.message);
    cr_expect_eq(s.calls, 41, "%zu calls", s.calls);
    cr_expect_eq(s.nulls, 1);
    cr_expect(s.last_null);
    cr_expect_eq(s.over, 0);
    cr_expect(strncmp(s.text, "sweeping\n", 9) == 0, "%s", s.text);
    mmm_writer_free(w);
    /* version 1: the progress fields are not read */
    memset(&s, 0, sizeof s);
    spec.version = 1;
    cr_assert_eq(mmm_writer_new(&w, devnull, MMM_FORMAT_JSON, &e), 0, "%s", e.message);
    cr_assert_eq(mmm_write_sweep(w, &res, inst, &spec, 0, NULL, NULL, &e), 0, "%s", e.message);
    cr_expect_eq(s.calls, 0);
    mmm_writer_free(w);
    fclose(devnull);
    mmm_sweep_spec_dispose(&spec);
    mmm_instance_free(inst);
    mmm_program_free(prog);
}
