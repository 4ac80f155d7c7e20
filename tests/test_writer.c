/* test_writer.c: a program that links libmmm prints what the mmm command
 * prints.  Each test does with library calls what a command does (load,
 * compute, mmm/output.h's writer into memory) and compares the bytes with
 * the command's stdout for the same file and options: analyze, compare,
 * simulate (one p and a list), scale, optimize and fit, in text, JSON and
 * CSV.  The calibrate writer, which needs a GPU to run the command, is
 * checked on made-up figures: its text and JSON are whole documents. */
#define _DEFAULT_SOURCE 1
#include <criterion/criterion.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mmm/mmm.h"
#include "mmm/output.h"
#include "mmm_run.h"

#define DAG(name) MMM_DAGS_DIR "/" name
#define CALIBRATED DAG("machines/h100-calibrated.xml")

static const char *const format_names[] = {"text", "json", "csv"};

/* The command's stdout for args (NULL-terminated); it must succeed. */
static char *command(const char *const *args, size_t *len)
{
    mmm_run_result r;
    cr_assert_eq(mmm_run(&r, args, NULL, &MMM_RUN_LIMITS_DEFAULT), 0);
    cr_assert(r.exited && r.status == 0, "mmm %s ... exited %d: %s", args[0],
              r.status, r.err);
    free(r.err);
    *len = r.out_len;
    return r.out;
}

/* The writer's bytes equal the command's stdout. */
static void same(mmm_writer *w, const char *const *args)
{
    size_t n = 0, m = 0;
    const char *mine = mmm_writer_data(w, &n);
    char *theirs = command(args, &m);
    cr_assert_not_null(mine);
    if (n != m || memcmp(mine, theirs, n) != 0) {
        size_t i = 0;
        while (i < n && i < m && mine[i] == theirs[i])
            i++;
        cr_assert_fail("mmm %s %s: %zu bytes from the library, %zu from the "
                       "command, first difference at byte %zu:\n%.80s\n---\n%.80s",
                       args[0], args[1], n, m, i, mine + i, theirs + i);
    }
    free(theirs);
}

static mmm_writer *writer(mmm_format f)
{
    mmm_writer *w = NULL;
    mmm_error e;
    cr_assert_eq(mmm_writer_new_memory(&w, f, &e), 0, "%s", e.message);
    return w;
}

/* A program read as the command reads it (machine may be NULL), evaluated;
 * p > 0 as -p P for a program that declares no p. */
static mmm_instance *load(mmm_program **prog, const char *path,
                          const char *machine, int64_t p)
{
    mmm_import_options io = MMM_IMPORT_OPTIONS_INIT;
    mmm_machine *m = NULL;
    mmm_instance *inst = NULL;
    mmm_error e;
    if (machine)
        cr_assert_eq(mmm_machine_load_file(&m, machine, NULL, &e), 0, "%s", e.message);
    io.load.machine = m;
    cr_assert_eq(mmm_program_read_file(prog, path, &io, NULL, &e), 0, "%s", e.message);
    cr_assert_eq(mmm_instance_new(&inst, *prog, &e), 0, "%s", e.message);
    cr_assert_eq(mmm_instance_eval(inst, NULL, 0, &e), 0, "%s", e.message);
    if (p > 0)
        mmm_instance_set_p(inst, p);
    mmm_machine_free(m);
    return inst;
}

static void analyze(const char *path, const char *machine, unsigned models,
                    const char *model_arg, mmm_format f)
{
    mmm_program *prog = NULL;
    mmm_instance *inst = load(&prog, path, machine, 0);
    mmm_models extra;
    mmm_metrics m;
    mmm_error e;
    mmm_writer *w = writer(f);
    memset(&m, 0, sizeof m);
    cr_assert_eq(mmm_metrics_compute(&m, inst, 0, &e), 0, "%s", e.message);
    cr_assert_eq(mmm_models_compute(&extra, inst, models, MMM_LAUNCH_PARAM, &e), 0,
                 "%s", e.message);
    cr_assert_eq(mmm_write_analysis(w, inst, &m, &extra, 200, 0, &e), 0, "%s", e.message);
    if (machine) {
        const char *args[] = {"analyze", path, "--machine", machine, "--model",
                              model_arg, "--format", format_names[f], NULL};
        same(w, args);
    } else {
        const char *args[] = {"analyze", path, "--format", format_names[f], NULL};
        same(w, args);
    }
    mmm_writer_free(w);
    mmm_models_dispose(&extra);
    mmm_metrics_dispose(&m);
    mmm_instance_free(inst);
    mmm_program_free(prog);
}

Test(writer, analyze)
{
    for (int f = 0; f < 3; f++) {
        analyze(DAG("diamond.xml"), NULL, MMM_MODEL_MMM, NULL, (mmm_format)f);
        analyze(DAG("apsp/johnson_array.xml"), NULL, MMM_MODEL_MMM, NULL, (mmm_format)f);
        analyze(DAG("cumodp/mul.xml"), CALIBRATED, MMM_MODEL_ALL | MMM_MODEL_TIME,
                "all,time", (mmm_format)f);
        analyze(DAG("gpu/reduce.xml"), CALIBRATED, MMM_MODEL_TMM, "tmm", (mmm_format)f);
    }
}

/* mmm_analyze_files of one file writes what mmm_write_analysis writes
 * (the command's analyze FILE); of several, what `mmm analyze A B` prints:
 * a header per file, one JSON object per line, a CSV file column. */
Test(writer, analyze_files)
{
    static const char *const paths[] = {DAG("diamond.xml"), DAG("not_series_parallel.xml")};
    for (int f = 0; f < 3; f++)
        for (size_t n = 1; n <= 2; n++) {
            mmm_analyze_options opt = MMM_ANALYZE_OPTIONS_INIT;
            mmm_writer *w = writer((mmm_format)f);
            const char *args[] = {"analyze", paths[0], paths[1], "--format", format_names[f],
                                  NULL};
            size_t failed = 9;
            mmm_error e;
            opt.open.instance_flags = MMM_INSTANCE_NO_CLASSES;
            cr_assert_eq(mmm_analyze_files(w, paths, n, &opt, &failed, &e), 0, "%s",
                         e.message);
            cr_expect_eq(failed, 0u);
            if (n == 1)
                memmove(args + 2, args + 3, 3 * sizeof *args);
            same(w, args);
            mmm_writer_free(w);
        }
}

Test(writer, compare)
{
    for (int f = 0; f < 3; f++) {
        mmm_program *pa = NULL, *pb = NULL;
        mmm_instance *a = load(&pa, DAG("cumodp/div_naive.xml"), CALIBRATED, 0);
        mmm_instance *b = load(&pb, DAG("cumodp/div_opt.xml"), CALIBRATED, 0);
        mmm_metrics ma, mb;
        mmm_time ta, tb;
        mmm_error e;
        mmm_writer *w = writer((mmm_format)f);
        memset(&ma, 0, sizeof ma);
        memset(&mb, 0, sizeof mb);
        cr_assert_eq(mmm_metrics_compute(&ma, a, 0, &e), 0);
        cr_assert_eq(mmm_metrics_compute(&mb, b, 0, &e), 0);
        cr_assert_eq(mmm_models_time(&ta, a, MMM_LAUNCH_PARAM, &e), 0, "%s", e.message);
        cr_assert_eq(mmm_models_time(&tb, b, MMM_LAUNCH_PARAM, &e), 0, "%s", e.message);
        mmm_comparison_side sa = {a, &ma, &ta, NULL}, sb = {b, &mb, &tb, NULL};
        cr_assert_eq(mmm_write_comparison(w, &sa, &sb, 0, &e), 0, "%s", e.message);
        const char *args[] = {"compare", DAG("cumodp/div_naive.xml"),
                              DAG("cumodp/div_opt.xml"), "--machine", CALIBRATED,
                              "--time", "--format", format_names[f], NULL};
        same(w, args);
        mmm_writer_free(w);
        mmm_time_dispose(&ta);
        mmm_time_dispose(&tb);
        mmm_metrics_dispose(&ma);
        mmm_metrics_dispose(&mb);
        mmm_instance_free(a);
        mmm_instance_free(b);
        mmm_program_free(pa);
        mmm_program_free(pb);
    }
}

/* Every policy at p, as `mmm simulate -p P --policy all`. */
static void simulate_all(mmm_writer *w, mmm_instance *inst, int64_t p)
{
    mmm_sim_result runs[32];
    mmm_metrics m;
    mmm_error e;
    size_t n = mmm_sim_policy_count(), best = 0;
    cr_assert_leq(n, 32);
    mmm_instance_set_p(inst, p);
    memset(&m, 0, sizeof m);
    cr_assert_eq(mmm_metrics_compute(&m, inst, MMM_METRICS_NO_K | MMM_METRICS_NO_PATHS,
                                     &e), 0);
    for (size_t i = 0; i < n; i++) {
        mmm_sim_options o = MMM_SIM_OPTIONS_INIT;
        o.policy = mmm_sim_policy_at(i);
        o.seed = 5;
        cr_assert_eq(mmm_simulate(&runs[i], inst, &o, &e), 0, "%s", e.message);
        if (runs[i].makespan < runs[best].makespan)
            best = i;
    }
    cr_assert_eq(mmm_write_simulation(w, runs, n, 1, best, m.graham_brent, &e), 0);
    for (size_t i = 0; i < n; i++)
        mmm_sim_result_dispose(&runs[i]);
    mmm_metrics_dispose(&m);
}

Test(writer, simulate)
{
    const char *path = DAG("fork_join.xml");
    for (int f = 0; f < 3; f++)
        for (int list = 0; list < 2; list++) {
            mmm_program *prog = NULL;
            mmm_instance *inst = load(&prog, path, NULL, 0);
            mmm_error e;
            mmm_writer *w = writer((mmm_format)f);
            cr_assert_eq(mmm_write_simulation_begin(w, prog, path, list, &e), 0);
            simulate_all(w, inst, list ? 1 : 3);
            if (list)
                simulate_all(w, inst, 16);
            cr_assert_eq(mmm_write_simulation_end(w, &e), 0);
            const char *args[] = {"simulate", path, "-p", list ? "1,16" : "3", "--policy",
                                  "all", "--seed", "5", "--format", format_names[f],
                                  NULL};
            same(w, args);
            mmm_writer_free(w);
            mmm_instance_free(inst);
            mmm_program_free(prog);
        }
}

Test(writer, scale)
{
    const char *path = DAG("poly_mul.xml");
    for (int f = 0; f < 3; f++) {
        mmm_program *prog = NULL;
        mmm_instance *inst = load(&prog, path, NULL, 0);
        const mmm_sim_policy *pol[32];
        mmm_speedup_options o = MMM_SPEEDUP_OPTIONS_INIT;
        mmm_speedup s;
        int64_t *p = NULL;
        size_t np = 0, n = mmm_sim_policy_count();
        mmm_error e;
        mmm_writer *w = writer((mmm_format)f);
        for (size_t i = 0; i < n; i++)
            pol[i] = mmm_sim_policy_at(i);
        cr_assert_eq(mmm_speedup_parse_p(&p, &np, "1..4,16,132", &e), 0);
        o.p = p;
        o.np = np;
        o.policies = pol;
        o.npolicies = n;
        o.seed = 3;
        cr_assert_eq(mmm_speedup_compute(&s, inst, NULL, 0, &o, &e), 0, "%s", e.message);
        cr_assert_eq(mmm_write_speedup(w, prog, path, &s, 1, &e), 0, "%s", e.message);
        const char *args[] = {"scale", path, "--p", "1..4,16,132", "--policy", "all",
                              "--seed", "3", "--format", format_names[f], NULL};
        same(w, args);
        mmm_writer_free(w);
        mmm_speedup_dispose(&s);
        free(p);
        mmm_instance_free(inst);
        mmm_program_free(prog);
    }
}

Test(writer, optimize)
{
    const char *path = DAG("poly_mul.xml");
    for (int f = 0; f < 3; f++) {
        mmm_program *prog = NULL;
        mmm_instance *inst = NULL;
        mmm_sweep_spec spec = MMM_SWEEP_SPEC_INIT;
        mmm_sweep_result plan, res;
        mmm_value values[5], lvalues[3];
        mmm_metrics mb, m0;
        uint64_t total = 0;
        mmm_error e;
        mmm_writer *w = writer((mmm_format)f);
        cr_assert_eq(mmm_program_load_file(&prog, path, NULL, &e), 0, "%s", e.message);
        cr_assert_eq(mmm_instance_new(&inst, prog, &e), 0);
        for (int i = 0; i < 5; i++)
            values[i] = mmm_value_int((int64_t)1 << i);
        for (int i = 0; i < 3; i++)
            lvalues[i] = mmm_value_int((int64_t)16 << (2 * i));
        spec.naxes = 2;
        spec.axes[0].slot = mmm_program_find_param(prog, "l");
        spec.axes[0].values = lvalues;
        spec.axes[0].nvalues = 3;
        spec.axes[1].slot = mmm_program_find_param(prog, "s");
        spec.axes[1].values = values;
        spec.axes[1].nvalues = 5;
        spec.objective = MMM_OBJECTIVE_BOUND;
        spec.has_p = 1;
        spec.p = 8;
        memset(&mb, 0, sizeof mb);
        memset(&m0, 0, sizeof m0);
        cr_assert_eq(mmm_sweep_resolve(&plan, &total, inst, &spec, &e), 0, "%s", e.message);
        cr_assert_eq(mmm_write_sweep_begin(w, prog, &plan, &spec, total, 60, &e), 0);
        cr_assert_eq(mmm_sweep_run(&res, inst, &spec, mmm_write_sweep_point, w, &e), 0,
                     "%s", e.message);
        cr_assert(res.has_best);
        cr_assert_eq(mmm_sweep_eval(&m0, inst, &spec, res.baseline.params, 0, &e), 0);
        cr_assert_eq(mmm_sweep_eval(&mb, inst, &spec, res.best.params, 0, &e), 0);
        cr_assert_eq(mmm_write_sweep_end(w, &res, inst, &mb, &m0, &e), 0, "%s", e.message);
        const char *args[] = {"optimize", path, "--param", "l", "--values", "16,64,256",
                              "--param", "s", "--values", "1,2,4,8,16", "--objective",
                              "bound", "-p", "8", "--format", format_names[f], NULL};
        same(w, args);
        mmm_writer_free(w);
        mmm_metrics_dispose(&mb);
        mmm_metrics_dispose(&m0);
        mmm_instance_free(inst);
        mmm_program_free(prog);
    }
}

/* `mmm fit --data tests/data/runs/small.csv` over the three CUMODP
 * programs with the calibrated H100 as the base machine. */
Test(writer, fit)
{
    static const char *const paths[] = {DAG("cumodp/div_naive.xml"),
                                        DAG("cumodp/div_opt.xml"),
                                        DAG("cumodp/mul.xml")};
    for (int f = 0; f < 2; f++) {
        mmm_machine *base = NULL;
        mmm_program *prog[3];
        mmm_runs *runs = NULL;
        mmm_load_options lo = MMM_LOAD_OPTIONS_INIT;
        mmm_fit_result res;
        mmm_time_machine tm;
        mmm_error e;
        int fitted[MMM_TIME_NCONST];
        mmm_writer *w = writer((mmm_format)f);
        cr_assert_eq(mmm_machine_load_file(&base, CALIBRATED, NULL, &e), 0);
        lo.machine = base;
        for (int i = 0; i < 3; i++)
            cr_assert_eq(mmm_program_load_file(&prog[i], paths[i], &lo, &e), 0);
        cr_assert_eq(mmm_runs_read_file(&runs, MMM_TEST_DATA "/runs/small.csv", 0, &e), 0,
                     "%s", e.message);
        size_t n = runs->nrows;
        mmm_fit_run *fr = calloc(n, sizeof *fr);
        mmm_fit_sample *smp = calloc(n, sizeof *smp);
        mmm_instance **inst = calloc(n, sizeof *inst);
        mmm_override ov[64];
        cr_assert(fr && smp && inst);
        for (size_t k = 0; k < n; k++) {
            const mmm_run_row *rw = &runs->rows[k];
            size_t p = 0, nov = 0;
            while (p < 3 && strcmp(prog[p]->name, rw->program))
                p++;
            cr_assert_lt(p, 3);
            fr[k] = (mmm_fit_run){runs, k, prog[p]};
            cr_assert_eq(mmm_runs_overrides(runs, k, prog[p], ov, &nov, &e), 0);
            cr_assert_eq(mmm_instance_new(&inst[k], prog[p], &e), 0);
            cr_assert_eq(mmm_instance_eval(inst[k], ov, nov, &e), 0, "%s", e.message);
            smp[k] = (mmm_fit_sample){.inst = inst[k], .graph = rw->graph,
                                      .seconds = rw->seconds};
        }
        mmm_fit_options fo;
        mmm_fit_options_init(&fo);
        for (int q = 0; q < MMM_TIME_NCONST; q++)
            fitted[q] = fo.fit[q] = 1;
        cr_assert_eq(mmm_time_machine_get(&tm, inst[0], 0, &e), 0, "%s", e.message);
        cr_assert_eq(mmm_time_fit(&tm, smp, n, &fo, &res, &e), 0, "%s", e.message);
        mmm_fit_report r = {&tm, fitted, &res, fr, n, 3, NULL};
        cr_assert_eq(mmm_write_fit(w, &r, &e), 0, "%s", e.message);
        const char *args[] = {"fit", "--data", MMM_TEST_DATA "/runs/small.csv", paths[0],
                              paths[1], paths[2], "--machine", CALIBRATED, "--format",
                              format_names[f], NULL};
        same(w, args);
        mmm_writer_free(w);
        mmm_fit_result_dispose(&res);
        for (size_t k = 0; k < n; k++)
            mmm_instance_free(inst[k]);
        free(inst);
        free(smp);
        free(fr);
        mmm_runs_free(runs);
        for (int i = 0; i < 3; i++)
            mmm_program_free(prog[i]);
        mmm_machine_free(base);
    }
}

/* The command's stderr for args (it must succeed) equals the notes, one
 * line each. */
static void same_notes(const mmm_notes *notes, const char *const *args)
{
    mmm_run_result r;
    char *want = calloc(1, 1);
    size_t len = 0;
    for (size_t i = 0; i < notes->n; i++) {
        size_t l = strlen(notes->line[i]);
        want = realloc(want, len + l + 2);
        cr_assert_not_null(want);
        memcpy(want + len, notes->line[i], l);
        want[len + l] = '\n';
        want[len += l + 1] = '\0';
    }
    cr_assert_eq(mmm_run(&r, args, NULL, &MMM_RUN_LIMITS_DEFAULT), 0);
    cr_assert(r.exited && r.status == 0, "mmm %s exited %d: %s", args[0], r.status, r.err);
    cr_expect_str_eq(r.err, want);
    free(want);
    mmm_run_dispose(&r);
}

/* The calls that take what the command was given as texts: the program
 * opened with -D and -p (mmm_program_open), the sweep from the texts of
 * --param/--values/--from/--to/--baseline (mmm_sweep_spec_parse), driven
 * and written whole (mmm_write_sweep); the notes are the command's
 * stderr. */
Test(writer, optimize_from_texts)
{
    const char *path = DAG("poly_mul.xml"), *defs[] = {"s=2", "n=2^10"};
    mmm_sweep_axis_text axes[2] = {{.name = "l", .values = "16,64,min(256,1000)"},
                                   {.name = "s", .from = "1", .to = "2^3", .step = "1"}};
    for (int f = 0; f < 3; f++) {
        mmm_open_options oo = MMM_OPEN_OPTIONS_INIT;
        mmm_sweep_spec spec = MMM_SWEEP_SPEC_INIT;
        mmm_notes notes = MMM_NOTES_INIT;
        mmm_sweep_result res;
        mmm_opened o;
        mmm_error e;
        mmm_writer *w = writer((mmm_format)f);
        oo.defs = defs;
        oo.ndefs = 2;
        oo.p = 8;
        oo.no_eval = 1;
        cr_assert_eq(mmm_program_open(&o, path, &oo, &e), 0, "%s", e.message);
        spec.fixed = o.overrides;
        spec.nfixed = o.noverrides;
        spec.has_p = 1;
        spec.p = 8;
        spec.objective = MMM_OBJECTIVE_BOUND;
        cr_assert_eq(mmm_sweep_spec_parse(&spec, o.program, axes, 2, "s=2,l=64", &notes,
                                          &e), 0, "%s", e.message);
        cr_expect_eq(spec.axes[0].nvalues, 3);
        cr_expect(spec.has_baseline);
        cr_assert_eq(mmm_write_sweep(w, &res, o.instance, &spec, 60, NULL, NULL, &e), 0,
                     "%s", e.message);
        cr_expect(res.has_best);
        const char *args[] = {"optimize", path, "--param", "l", "--values",
                              "16,64,min(256,1000)", "--param", "s", "--from", "1",
                              "--to", "2^3", "--step", "1", "-D", "s=2", "-D", "n=2^10",
                              "-p", "8", "--objective", "bound", "--baseline", "s=2,l=64",
                              "--format", format_names[f], NULL};
        same(w, args);
        cr_assert_eq(notes.n, 1);
        same_notes(&notes, args);
        mmm_notes_dispose(&notes);
        mmm_sweep_spec_dispose(&spec);
        mmm_writer_free(w);
        mmm_opened_dispose(&o);
    }
}

/* One policy and every policy at one p (mmm_simulate_policies), as
 * `mmm simulate FILE -p 3 --policy P`. */
Test(writer, simulate_policies)
{
    const char *path = DAG("fork_join.xml");
    const char *policies[] = {"lifo", "all"};
    for (int f = 0; f < 3; f++)
        for (int k = 0; k < 2; k++) {
            mmm_open_options oo = MMM_OPEN_OPTIONS_INIT;
            mmm_sim_options so = MMM_SIM_OPTIONS_INIT;
            mmm_notes bad = MMM_NOTES_INIT;
            mmm_sim_runs r;
            mmm_metrics m;
            mmm_opened o;
            mmm_error e;
            mmm_writer *w = writer((mmm_format)f);
            int all = k == 1;
            oo.p = 3;
            cr_assert_eq(mmm_program_open(&o, path, &oo, &e), 0, "%s", e.message);
            memset(&m, 0, sizeof m);
            cr_assert_eq(mmm_metrics_compute(&m, o.instance, 0, &e), 0);
            so.policy = all ? NULL : mmm_sim_policy_find(policies[k]);
            so.seed = 5;
            so.record = 1;
            cr_assert_eq(mmm_simulate_policies(&r, o.instance, &so, all, m.graham_brent,
                                               &bad, &e), 0, "%s", e.message);
            cr_expect_eq(r.n, all ? mmm_sim_policy_count() : 1);
            cr_expect_eq(r.nbad, 0);
            cr_expect_eq(bad.n, 0);
            cr_expect_gt(r.runs[r.best].nrecords, 0); /* the best one is recorded */
            for (size_t i = 0; i < r.n; i++)
                cr_expect_leq(r.runs[r.best].makespan, r.runs[i].makespan);
            cr_assert_eq(mmm_write_simulation_begin(w, o.program, path, 0, &e), 0);
            cr_assert_eq(mmm_write_simulation(w, r.runs, r.n, all, r.best, m.graham_brent,
                                              &e), 0);
            cr_assert_eq(mmm_write_simulation_end(w, &e), 0);
            const char *args[] = {"simulate", path, "-p", "3", "--policy", policies[k],
                                  "--seed", "5", "--format", format_names[f], NULL};
            same(w, args);
            mmm_sim_runs_dispose(&r);
            mmm_metrics_dispose(&m);
            mmm_writer_free(w);
            mmm_opened_dispose(&o);
        }
}

/* The runs matched to their programs with mmm_fit_samples_make (a -D
 * name no program declares: one note per program), as `mmm fit`. */
Test(writer, fit_samples)
{
    static const char *const paths[] = {DAG("cumodp/div_naive.xml"),
                                        DAG("cumodp/div_opt.xml"),
                                        DAG("cumodp/mul.xml")};
    const char *defs[] = {"zz=1"};
    mmm_machine *base = NULL;
    mmm_program *prog[3];
    mmm_runs *runs = NULL;
    mmm_load_options lo = MMM_LOAD_OPTIONS_INIT;
    mmm_fit_samples fs;
    mmm_notes notes = MMM_NOTES_INIT;
    mmm_fit_result res;
    mmm_time_machine tm;
    mmm_fit_options fo;
    mmm_error e;
    int fitted[MMM_TIME_NCONST];
    mmm_writer *w = writer(MMM_FORMAT_TEXT);
    cr_assert_eq(mmm_machine_load_file(&base, CALIBRATED, NULL, &e), 0);
    lo.machine = base;
    for (int i = 0; i < 3; i++)
        cr_assert_eq(mmm_program_load_file(&prog[i], paths[i], &lo, &e), 0);
    cr_assert_eq(mmm_runs_read_file(&runs, MMM_TEST_DATA "/runs/small.csv", 0, &e), 0);
    cr_assert_eq(mmm_fit_samples_make(&fs, &runs, 1, prog, 3, defs, 1, &notes, &e), 0,
                 "%s", e.message);
    cr_expect_eq(fs.n, runs->nrows);
    cr_expect_eq(notes.n, 3);
    for (size_t k = 0; k < fs.n; k++) {
        cr_expect_str_eq(fs.runs[k].program->name, runs->rows[k].program);
        cr_expect_eq(fs.samples[k].seconds, runs->rows[k].seconds);
        cr_expect_eq(fs.samples[k].inst, fs.inst[k]);
    }
    mmm_fit_options_init(&fo);
    for (int q = 0; q < MMM_TIME_NCONST; q++)
        fitted[q] = fo.fit[q] = 1;
    cr_assert_eq(mmm_time_machine_get(&tm, fs.inst[0], 0, &e), 0, "%s", e.message);
    cr_assert_eq(mmm_time_fit(&tm, fs.samples, fs.n, &fo, &res, &e), 0, "%s", e.message);
    mmm_fit_report r = {&tm, fitted, &res, fs.runs, fs.n, 3, NULL};
    cr_assert_eq(mmm_write_fit(w, &r, &e), 0, "%s", e.message);
    const char *args[] = {"fit", "--data", MMM_TEST_DATA "/runs/small.csv", paths[0],
                          paths[1], paths[2], "--machine", CALIBRATED, "-D", "zz=1", NULL};
    same(w, args);
    same_notes(&notes, args);
    /* a program the runs name that is not given: the row's line */
    mmm_fit_samples_dispose(&fs);
    cr_expect_eq(mmm_fit_samples_make(&fs, &runs, 1, prog, 2, NULL, 0, NULL, &e),
                 MMM_EINPUT);
    cr_expect(strstr(e.message, "is not one of the programs given (") != NULL, "%s",
              e.message);
    cr_expect_gt(e.line, 1);
    mmm_fit_samples_dispose(&fs);
    mmm_notes_dispose(&notes);
    mmm_writer_free(w);
    mmm_fit_result_dispose(&res);
    mmm_runs_free(runs);
    for (int i = 0; i < 3; i++)
        mmm_program_free(prog[i]);
    mmm_machine_free(base);
}

/* No GPU here: made-up figures, each format a whole document. */
Test(writer, calibration)
{
    mmm_calib c;
    mmm_error e;
    size_t n;
    memset(&c, 0, sizeof c);
    strcpy(c.dev.name, "made-up \"GPU\"");
    c.dev.sms = 132;
    c.clock_hz.median = 1.98e9;
    c.clock_hz.n = 7;
    mmm_writer *t = writer(MMM_FORMAT_TEXT), *j = writer(MMM_FORMAT_JSON),
               *csv = writer(MMM_FORMAT_CSV);
    cr_assert_eq(mmm_write_calibration(t, &c, &e), 0, "%s", e.message);
    cr_assert_eq(mmm_write_calibration(j, &c, &e), 0, "%s", e.message);
    cr_assert_eq(mmm_write_calibration(csv, &c, &e), MMM_EINVAL); /* no CSV */
    static const char head[] = "device: made-up \"GPU\", compute capability 0.0\n";
    static const char jhead[] = "{\n  \"device\": {\n    \"name\": \"made-up \\\"GPU\\\"\",";
    const char *text = mmm_writer_data(t, &n);
    cr_assert(!strncmp(text, head, sizeof head - 1), "%.60s", text);
    cr_assert(strstr(text, "  SM clock ") && text[n - 1] == '\n');
    const char *json = mmm_writer_data(j, &n);
    cr_assert(!strncmp(json, jhead, sizeof jhead - 1), "%.60s", json);
    cr_assert(!strcmp(json + n - 4, "}\n}\n"), "%s", json + n - 10);
    mmm_writer_free(t);
    mmm_writer_free(j);
    mmm_writer_free(csv);
}

/* The writer to a FILE writes the same bytes as the one to memory. */
Test(writer, file_and_memory)
{
    mmm_program *prog = NULL;
    mmm_instance *inst = load(&prog, DAG("diamond.xml"), NULL, 2);
    mmm_metrics m;
    mmm_error e;
    char *buf = NULL;
    size_t len = 0, n;
    FILE *f = open_memstream(&buf, &len);
    mmm_writer *wf = NULL, *wm = writer(MMM_FORMAT_JSON);
    cr_assert_not_null(f);
    memset(&m, 0, sizeof m);
    cr_assert_eq(mmm_metrics_compute(&m, inst, 0, &e), 0);
    cr_assert_eq(mmm_writer_new(&wf, f, MMM_FORMAT_JSON, &e), 0);
    cr_assert_eq(mmm_write_analysis(wf, inst, &m, NULL, 0, 0, &e), 0);
    cr_assert_eq(mmm_write_analysis(wm, inst, &m, NULL, 0, 0, &e), 0);
    cr_assert_eq(mmm_writer_flush(wf, &e), 0);
    const char *mem = mmm_writer_data(wm, &n);
    cr_assert_null(mmm_writer_data(wf, NULL)); /* a FILE writer has no data */
    cr_assert_eq(n, len);
    cr_assert_eq(memcmp(mem, buf, n), 0);
    mmm_writer_free(wf);
    fclose(f);
    free(buf);
    mmm_writer_free(wm);
    mmm_metrics_dispose(&m);
    mmm_instance_free(inst);
    mmm_program_free(prog);
}
