/* test_options.c: the options contracts of the public API.
 *   - each *_options_init() gives the documented defaults (written out here
 *     field by field from the header comments, not copied from the macro),
 *     and the *_INIT macro gives the same;
 *   - a NULL options pointer means the defaults: the results with NULL equal
 *     those with an explicitly initialized struct;
 *   - mmm_version() agrees with the generated header. */
#include <criterion/criterion.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "mmm/mmm.h"

#define DIAMOND MMM_DAGS_DIR "/diamond.xml"

Test(options, version)
{
    char buf[64];
    snprintf(buf, sizeof buf, "%d.%d.%d", MMM_VERSION_MAJOR, MMM_VERSION_MINOR,
             MMM_VERSION_PATCH);
    cr_expect_str_eq(mmm_version(), MMM_VERSION_STRING);
    cr_expect_str_eq(mmm_version(), buf);
    cr_expect_eq(mmm_version_number(), MMM_VERSION_MAJOR * 10000 +
                                           MMM_VERSION_MINOR * 100 +
                                           MMM_VERSION_PATCH);
}

Test(options, init_functions_give_the_defaults)
{
    mmm_load_options lo, lm = MMM_LOAD_OPTIONS_INIT;
    mmm_sim_options so, sm = MMM_SIM_OPTIONS_INIT;
    mmm_render_options ro, rm = MMM_RENDER_OPTIONS_INIT;
    mmm_report_options po, pm = MMM_REPORT_OPTIONS_INIT;
    mmm_gantt_options go, gm = MMM_GANTT_OPTIONS_INIT;
    memset(&lo, 0x5a, sizeof lo);
    memset(&so, 0x5a, sizeof so);
    memset(&ro, 0x5a, sizeof ro);
    memset(&po, 0x5a, sizeof po);
    memset(&go, 0x5a, sizeof go);
    mmm_load_options_init(&lo);
    mmm_sim_options_init(&so);
    mmm_render_options_init(&ro);
    mmm_report_options_init(&po);
    mmm_gantt_options_init(&go);
    for (int i = 0; i < 2; i++) {
        const mmm_load_options *l = i ? &lm : &lo;
        const mmm_sim_options *s = i ? &sm : &so;
        const mmm_render_options *r = i ? &rm : &ro;
        const mmm_report_options *p = i ? &pm : &po;
        const mmm_gantt_options *g = i ? &gm : &go;
        /* Limits: zero is "the default" in every field. */
        cr_expect_eq(l->limits.max_file_bytes, 0);
        cr_expect_eq(l->limits.max_kernels, 0);
        cr_expect_eq(l->limits.max_edges, 0);
        cr_expect_eq(l->limits.max_params, 0);
        cr_expect_eq(l->limits.max_expr_length, 0);
        cr_expect_eq(l->limits.max_depth, 0);
        cr_expect_eq(l->limits.max_index_repeat, 0);
        cr_expect_null(l->machine);
        cr_expect_eq(l->skip_schema, 0);
        cr_expect_eq(l->threads, MMM_THREADS_AUTO);
        cr_expect_eq(s->p, 0);
        cr_expect_null(s->policy);
        cr_expect_eq(s->seed, 0);
        cr_expect_eq(s->record, 0);
        cr_expect_eq(s->max_records, 0);
        cr_expect_eq(s->max_launches, 0);
        cr_expect_eq(r->format, MMM_RENDER_SVG);
        cr_expect_eq(r->level, MMM_LEVEL_KERNEL);
        cr_expect_eq(r->color, MMM_COLOR_AUTO);
        cr_expect_eq(r->max_nodes, 0);
        cr_expect_eq(r->dpi, 0.0);
        cr_expect_eq(r->condense, MMM_CONDENSE_AUTO);
        cr_expect_eq(r->view, MMM_VIEW_ALL);
        cr_expect_eq(r->rankdir, MMM_RANKDIR_TB);
        cr_expect_eq(r->max_side_px, 0.0);
        cr_expect_eq(r->max_aspect, 0.0);
        cr_expect_null(r->notes);
        cr_expect_eq(p->color, MMM_COLOR_AUTO);
        cr_expect_eq(p->max_nodes, 0);
        cr_expect_eq(p->max_rows, 0);
        cr_expect_null(p->overrides);
        cr_expect_eq(p->noverrides, 0);
        cr_expect_null(p->sweep);
        cr_expect_eq(p->nsweep, 0);
        cr_expect_eq(p->no_sweep, 0);
        cr_expect_eq(p->no_simulation, 0);
        cr_expect_null(p->source);
        cr_expect_null(g->title);
        cr_expect_eq(g->mmm_bound, -1.0);
        cr_expect_eq(g->max_rects, 0);
    }
    /* NULL is harmless. */
    mmm_import_options_init(NULL);
    mmm_speedup_options_init(NULL);
    mmm_load_options_init(NULL);
    mmm_sim_options_init(NULL);
    mmm_render_options_init(NULL);
    mmm_report_options_init(NULL);
    mmm_gantt_options_init(NULL);
}

static void load(mmm_program **prog, mmm_instance **inst, mmm_metrics *m)
{
    mmm_error err;
    cr_assert_eq(mmm_program_load_file(prog, DIAMOND, NULL, &err), 0, "%s",
                 err.message);
    cr_assert_eq(mmm_instance_new(inst, *prog, &err), 0, "%s", err.message);
    cr_assert_eq(mmm_instance_eval(*inst, NULL, 0, &err), 0, "%s", err.message);
    memset(m, 0, sizeof *m);
    cr_assert_eq(mmm_metrics_compute(m, *inst, 0, &err), 0, "%s", err.message);
}

/* NULL options = the defaults, for every function that takes options. */
Test(options, null_options_mean_the_defaults)
{
    mmm_program *prog, *prog2;
    mmm_instance *inst;
    mmm_metrics m;
    mmm_load_options lo;
    mmm_sim_options so;
    mmm_render_options ro;
    mmm_sim_result a, b;
    char *x = NULL, *y = NULL;
    size_t nx = 0, ny = 0;
    load(&prog, &inst, &m);
    /* Load: the same program (diamond: 4 kernels, 4 edges). */
    mmm_load_options_init(&lo);
    cr_assert_eq(mmm_program_load_file(&prog2, DIAMOND, &lo, NULL), 0);
    cr_expect_eq(prog2->nkernels, prog->nkernels);
    cr_expect_eq(prog->nkernels, 4);
    mmm_program_free(prog2);
    /* Simulate: the same schedule (fifo on the instance's p). */
    mmm_sim_options_init(&so);
    memset(&a, 0, sizeof a);
    memset(&b, 0, sizeof b);
    cr_assert_eq(mmm_simulate(&a, inst, NULL, NULL), 0);
    cr_assert_eq(mmm_simulate(&b, inst, &so, NULL), 0);
    cr_expect_eq(a.makespan, b.makespan);
    cr_expect_eq(a.blocks, 11); /* N of diamond.xml, by hand */
    cr_expect_eq(b.blocks, 11);
    cr_expect_eq(a.policy, b.policy);
    mmm_sim_result_dispose(&a);
    mmm_sim_result_dispose(&b);
    /* Render (DOT: no layout, deterministic bytes). */
    mmm_render_options_init(&ro);
    ro.format = MMM_RENDER_DOT;
    cr_assert_eq(mmm_render_memory(&x, &nx, inst, &m, &ro, NULL), 0);
    cr_assert_eq(mmm_render_memory(&y, &ny, inst, &m, NULL, NULL), 0);
    cr_expect_not_null(strstr(y, "<svg"), "NULL options render SVG");
    free(x);
    free(y);
    mmm_render_options_init(&ro);
    x = y = NULL;
    cr_assert_eq(mmm_render_memory(&x, &nx, inst, &m, &ro, NULL), 0);
    cr_assert_eq(mmm_render_memory(&y, &ny, inst, &m, NULL, NULL), 0);
    cr_expect_eq(nx, ny);
    cr_expect(nx == ny && memcmp(x, y, nx) == 0, "same SVG with NULL options");
    free(x);
    free(y);
    mmm_metrics_dispose(&m);
    mmm_instance_free(inst);
    mmm_program_free(prog);
}

/* The options of the task-graph reader and of the speedup sweep: the
 * defaults written out from the headers' comments, by the function and by
 * the macro; NULL options give the same results as the defaults. */
Test(options, import_and_speedup_defaults)
{
    mmm_import_options io, im = MMM_IMPORT_OPTIONS_INIT;
    mmm_speedup_options so, sm = MMM_SPEEDUP_OPTIONS_INIT;
    memset(&io, 0x5a, sizeof io);
    memset(&so, 0x5a, sizeof so);
    mmm_import_options_init(&io);
    mmm_speedup_options_init(&so);
    for (int i = 0; i < 2; i++) {
        const mmm_import_options *o = i ? &im : &io;
        const mmm_speedup_options *s = i ? &sm : &so;
        cr_expect_eq(o->load.limits.max_file_bytes, 0);
        cr_expect_eq(o->load.limits.max_kernels, 0);
        cr_expect_null(o->load.machine);
        cr_expect_eq(o->load.skip_schema, 0);
        cr_expect_eq(o->load.threads, MMM_THREADS_AUTO);
        cr_expect_eq(o->format, MMM_INPUT_UNKNOWN);
        cr_expect_eq(o->time_unit, MMM_TIME_US);
        cr_expect_eq(o->negative_to_zero, 0);
        cr_expect_null(o->cost_attr);
        cr_expect_null(o->costs_file);
        cr_expect_null(o->dot_reader);
        cr_expect_null(o->cuda_dot_reader);
        cr_expect_null(s->p);
        cr_expect_eq(s->np, 0);
        cr_expect_null(s->policies);
        cr_expect_eq(s->npolicies, 0);
        cr_expect_eq(s->seed, 1);
        cr_expect_eq(s->max_launches, 0);
    }
}

Test(options, import_and_speedup_null_means_the_defaults)
{
    mmm_program *prog, *a, *b;
    mmm_instance *inst;
    mmm_metrics m;
    mmm_import_options io;
    mmm_speedup_options so;
    mmm_speedup x, y;
    mmm_error err;
    load(&prog, &inst, &m);
    /* Read: diamond.xml either way (4 kernels, told as mmm's XML). */
    mmm_import_options_init(&io);
    cr_assert_eq(mmm_program_read_file(&a, DIAMOND, NULL, NULL, &err), 0, "%s",
                 err.message);
    cr_assert_eq(mmm_program_read_file(&b, DIAMOND, &io, NULL, &err), 0, "%s",
                 err.message);
    cr_expect_eq(a->nkernels, 4);
    cr_expect_eq(b->nkernels, 4);
    mmm_program_free(a);
    mmm_program_free(b);
    /* Speedup: the same rows, fifo only, on the default list of p. */
    mmm_speedup_options_init(&so);
    cr_assert_eq(mmm_speedup_compute(&x, inst, NULL, 0, NULL, &err), 0, "%s",
                 err.message);
    cr_assert_eq(mmm_speedup_compute(&y, inst, NULL, 0, &so, &err), 0, "%s",
                 err.message);
    cr_expect_eq(x.nrows, y.nrows);
    cr_expect_gt(x.nrows, 0);
    cr_expect_eq(x.npolicies, 1);
    cr_expect_eq(y.npolicies, 1);
    for (size_t i = 0; i < x.nrows && i < y.nrows; i++) {
        cr_expect_eq(x.rows[i].p, y.rows[i].p);
        cr_expect_eq(x.rows[i].makespan[0], y.rows[i].makespan[0]);
    }
    mmm_speedup_dispose(&x);
    mmm_speedup_dispose(&y);
    mmm_metrics_dispose(&m);
    mmm_instance_free(inst);
    mmm_program_free(prog);
}

/* The options of mmm_program_open and of mmm_profile_run: the defaults
 * written out from the headers, by the function and by the macro. */
Test(options, open_and_profile_run_defaults)
{
    mmm_open_options oo, om = MMM_OPEN_OPTIONS_INIT;
    mmm_profile_run_options ro, rm = MMM_PROFILE_RUN_OPTIONS_INIT;
    memset(&oo, 0x5a, sizeof oo);
    memset(&ro, 0x5a, sizeof ro);
    mmm_open_options_init(&oo);
    mmm_profile_run_options_init(&ro);
    for (int i = 0; i < 2; i++) {
        const mmm_open_options *o = i ? &om : &oo;
        const mmm_profile_run_options *r = i ? &rm : &ro;
        cr_expect_eq(o->io.format, MMM_INPUT_UNKNOWN);
        cr_expect_eq(o->io.time_unit, MMM_TIME_US);
        cr_expect_null(o->io.load.machine);
        cr_expect_null(o->machine);
        cr_expect_null(o->defs);
        cr_expect_eq(o->ndefs, 0);
        cr_expect_eq(o->p, 0);
        cr_expect_eq(o->unknown, MMM_DEFINE_STRICT);
        cr_expect_eq(o->instance_flags, 0);
        cr_expect_eq(o->no_eval, 0);
        cr_expect_null(r->ncu);
        cr_expect_null(r->keep);
        cr_expect_eq(r->samples, 1);
        cr_expect_null(r->progress);
        cr_expect_null(r->payload);
    }
    mmm_open_options_init(NULL);
    mmm_profile_run_options_init(NULL);
}

/* ---- Versioned structs (docs/library.md, "ABI") ----
 * Each options struct starts with `unsigned int version`: the INIT macro and
 * the *_init() function set it to the header's *_VERSION, and the library
 * refuses a version it does not know (0: a struct not set up; CURRENT + 1:
 * a header newer than the library) with MMM_EINVAL and a message naming the
 * struct, before reading anything else of it. */

/* The refusal of one bad version: MMM_EINVAL naming the struct. */
#define REFUSES(call, type)                                                   \
    do {                                                                      \
        mmm_error e_;                                                         \
        memset(&e_, 0, sizeof e_);                                            \
        cr_expect_eq((call), MMM_EINVAL, "%s", #call);                        \
        cr_expect_eq(e_.code, MMM_EINVAL);                                    \
        cr_expect(strstr(e_.message, type) != NULL, "%s: '%s'", #call,        \
                  e_.message);                                                \
    } while (0)

/* For each struct S: version 0 and S_VERSION + 1 are refused by CALL, whose
 * err argument is &e_. */
#define BOTH_REFUSED(obj, VER, call, type)                                    \
    do {                                                                      \
        (obj).version = 0;                                                    \
        REFUSES(call, type);                                                  \
        (obj).version = (VER) + 1;                                            \
        REFUSES(call, type);                                                  \
        (obj).version = (VER);                                                \
    } while (0)

Test(options, init_sets_the_version)
{
    mmm_load_options lo = MMM_LOAD_OPTIONS_INIT, lf;
    mmm_import_options io = MMM_IMPORT_OPTIONS_INIT, iof;
    mmm_sim_options so = MMM_SIM_OPTIONS_INIT, sf;
    mmm_speedup_options po = MMM_SPEEDUP_OPTIONS_INIT, pf;
    mmm_render_options ro = MMM_RENDER_OPTIONS_INIT, rf;
    mmm_report_options eo = MMM_REPORT_OPTIONS_INIT, ef;
    mmm_gantt_options go = MMM_GANTT_OPTIONS_INIT, gf;
    mmm_fit_options fo = MMM_FIT_OPTIONS_INIT, ff;
    mmm_sweep_spec wo = MMM_SWEEP_SPEC_INIT, wf;
    mmm_profile_options qo = MMM_PROFILE_OPTIONS_INIT, qf;
    memset(&lf, 0x5a, sizeof lf);
    memset(&iof, 0x5a, sizeof iof);
    memset(&sf, 0x5a, sizeof sf);
    memset(&pf, 0x5a, sizeof pf);
    memset(&rf, 0x5a, sizeof rf);
    memset(&ef, 0x5a, sizeof ef);
    memset(&gf, 0x5a, sizeof gf);
    memset(&ff, 0x5a, sizeof ff);
    memset(&wf, 0x5a, sizeof wf);
    memset(&qf, 0x5a, sizeof qf);
    mmm_load_options_init(&lf);
    mmm_import_options_init(&iof);
    mmm_sim_options_init(&sf);
    mmm_speedup_options_init(&pf);
    mmm_render_options_init(&rf);
    mmm_report_options_init(&ef);
    mmm_gantt_options_init(&gf);
    mmm_fit_options_init(&ff);
    mmm_sweep_spec_init(&wf);
    mmm_profile_options_init(&qf);
    mmm_fit_options_init(NULL);
    mmm_sweep_spec_init(NULL);
    /* the first member, 1 for every struct of this release */
    cr_expect_eq(offsetof(mmm_load_options, version), 0);
    cr_expect_eq(offsetof(mmm_sweep_spec, version), 0);
    cr_expect_eq(MMM_LOAD_OPTIONS_VERSION, 1);
    cr_expect_eq(lo.version, MMM_LOAD_OPTIONS_VERSION);
    cr_expect_eq(lf.version, MMM_LOAD_OPTIONS_VERSION);
    cr_expect_eq(io.version, MMM_IMPORT_OPTIONS_VERSION);
    cr_expect_eq(iof.version, MMM_IMPORT_OPTIONS_VERSION);
    cr_expect_eq(io.load.version, MMM_LOAD_OPTIONS_VERSION);
    cr_expect_eq(iof.load.version, MMM_LOAD_OPTIONS_VERSION);
    cr_expect_eq(so.version, MMM_SIM_OPTIONS_VERSION);
    cr_expect_eq(sf.version, MMM_SIM_OPTIONS_VERSION);
    cr_expect_eq(po.version, MMM_SPEEDUP_OPTIONS_VERSION);
    cr_expect_eq(pf.version, MMM_SPEEDUP_OPTIONS_VERSION);
    cr_expect_eq(ro.version, MMM_RENDER_OPTIONS_VERSION);
    cr_expect_eq(rf.version, MMM_RENDER_OPTIONS_VERSION);
    cr_expect_eq(eo.version, MMM_REPORT_OPTIONS_VERSION);
    cr_expect_eq(ef.version, MMM_REPORT_OPTIONS_VERSION);
    cr_expect_eq(go.version, MMM_GANTT_OPTIONS_VERSION);
    cr_expect_eq(gf.version, MMM_GANTT_OPTIONS_VERSION);
    cr_expect_eq(fo.version, MMM_FIT_OPTIONS_VERSION);
    cr_expect_eq(ff.version, MMM_FIT_OPTIONS_VERSION);
    cr_expect_eq(wo.version, MMM_SWEEP_SPEC_VERSION);
    cr_expect_eq(wf.version, MMM_SWEEP_SPEC_VERSION);
    cr_expect_eq(qo.version, MMM_PROFILE_OPTIONS_VERSION);
    cr_expect_eq(qf.version, MMM_PROFILE_OPTIONS_VERSION);
    /* the rest as the macro: defaults checked field by field above */
    cr_expect_eq(ff.max_iter, 0);
    for (int i = 0; i < MMM_TIME_NCONST; i++)
        cr_expect_eq(ff.fit[i], 0);
    cr_expect_eq(wf.naxes, 0);
    cr_expect_eq(wf.max_points, 0);
    cr_expect_eq(wf.has_p, 0);
    cr_expect_null(wf.fixed);
    cr_expect_null(qf.skeleton);
    cr_expect_null(qf.name);
}

Test(options, unknown_version_is_refused)
{
    mmm_error err;
    mmm_program *prog = NULL;
    mmm_instance *inst = NULL;
    mmm_metrics m;
    mmm_load_options lo = MMM_LOAD_OPTIONS_INIT;
    mmm_import_options io = MMM_IMPORT_OPTIONS_INIT;
    mmm_sim_options so = MMM_SIM_OPTIONS_INIT;
    mmm_speedup_options po = MMM_SPEEDUP_OPTIONS_INIT;
    mmm_fit_options fo = MMM_FIT_OPTIONS_INIT;
    mmm_sweep_spec spec = MMM_SWEEP_SPEC_INIT;
    mmm_profile_options qo = MMM_PROFILE_OPTIONS_INIT;
    mmm_sim_result sr;
    mmm_speedup sp;
    mmm_sweep_result swr;
    mmm_time_machine tm;
    mmm_fit_result fr;
    mmm_profile *prof = NULL;
    mmm_program *p2 = NULL;
    mmm_value v = mmm_value_int(2);

    cr_assert_eq(mmm_program_load_file(&prog, DIAMOND, &lo, &err), 0, "%s",
                 err.message);
    cr_assert_eq(mmm_instance_new(&inst, prog, &err), 0, "%s", err.message);
    cr_assert_eq(mmm_instance_eval(inst, NULL, 0, &err), 0, "%s", err.message);
    cr_assert_eq(mmm_metrics_compute(&m, inst, 0, &err), 0, "%s", err.message);
    memset(&tm, 0, sizeof tm); /* refused before it is read */

    BOTH_REFUSED(lo, MMM_LOAD_OPTIONS_VERSION,
                 mmm_program_load_file(&p2, DIAMOND, &lo, &e_), "mmm_load_options");
    BOTH_REFUSED(lo, MMM_LOAD_OPTIONS_VERSION,
                 mmm_program_load_memory(&p2, "<x/>", 4, "m", &lo, &e_),
                 "mmm_load_options");
    BOTH_REFUSED(io, MMM_IMPORT_OPTIONS_VERSION,
                 mmm_program_read_file(&p2, DIAMOND, &io, NULL, &e_),
                 "mmm_import_options");
    BOTH_REFUSED(io, MMM_IMPORT_OPTIONS_VERSION,
                 mmm_program_read_memory(&p2, "<x/>", 4, "m", &io, NULL, &e_),
                 "mmm_import_options");
    /* the load options inside the import options: checked by the import */
    BOTH_REFUSED(io.load, MMM_LOAD_OPTIONS_VERSION,
                 mmm_program_read_file(&p2, DIAMOND, &io, NULL, &e_),
                 "mmm_load_options");
    cr_expect_null(p2);
    BOTH_REFUSED(so, MMM_SIM_OPTIONS_VERSION, mmm_simulate(&sr, inst, &so, &e_),
                 "mmm_sim_options");
    BOTH_REFUSED(po, MMM_SPEEDUP_OPTIONS_VERSION,
                 mmm_speedup_compute(&sp, inst, NULL, 0, &po, &e_),
                 "mmm_speedup_options");
    BOTH_REFUSED(fo, MMM_FIT_OPTIONS_VERSION,
                 mmm_time_fit(&tm, NULL, 0, &fo, &fr, &e_), "mmm_fit_options");
    spec.naxes = 1;
    spec.axes[0].slot = mmm_program_find_param(prog, "p");
    spec.axes[0].values = &v;
    spec.axes[0].nvalues = 1;
    BOTH_REFUSED(spec, MMM_SWEEP_SPEC_VERSION,
                 mmm_sweep_run(&swr, inst, &spec, NULL, NULL, &e_), "mmm_sweep_spec");
    BOTH_REFUSED(spec, MMM_SWEEP_SPEC_VERSION,
                 mmm_sweep_resolve(&swr, NULL, inst, &spec, &e_), "mmm_sweep_spec");
    BOTH_REFUSED(qo, MMM_PROFILE_OPTIONS_VERSION,
                 mmm_profile_build(&prof, "none.csv", &qo, &e_),
                 "mmm_profile_options");
    cr_expect_null(prof);

    /* the right version still works: unchanged behaviour */
    cr_expect_eq(mmm_simulate(&sr, inst, &so, &err), 0, "%s", err.message);
    mmm_sim_result_dispose(&sr);
    cr_expect_eq(mmm_program_read_file(&p2, DIAMOND, &io, NULL, &err), 0, "%s",
                 err.message);
    mmm_program_free(p2);

    {
        mmm_render_options ro = MMM_RENDER_OPTIONS_INIT;
        mmm_report_options eo = MMM_REPORT_OPTIONS_INIT;
        mmm_gantt_options go = MMM_GANTT_OPTIONS_INIT;
        char *out = NULL;
        size_t len = 0;
        mmm_sim_result r0;
        cr_assert_eq(mmm_simulate(&r0, inst, NULL, &err), 0, "%s", err.message);
        BOTH_REFUSED(ro, MMM_RENDER_OPTIONS_VERSION,
                     mmm_render_memory(&out, &len, inst, &m, &ro, &e_),
                     "mmm_render_options");
        BOTH_REFUSED(eo, MMM_REPORT_OPTIONS_VERSION,
                     mmm_report_html(&out, &len, inst, &m, &eo, &e_),
                     "mmm_report_options");
        BOTH_REFUSED(go, MMM_GANTT_OPTIONS_VERSION,
                     mmm_gantt_write("never-written.svg", &r0, prog, &go, &e_),
                     "mmm_gantt_options");
        cr_expect_null(out);
        mmm_sim_result_dispose(&r0);
    }
    mmm_metrics_dispose(&m);
    mmm_instance_free(inst);
    mmm_program_free(prog);
}

/* The two versioned structs of the command's calls: the INIT macro and the
 * init function set the version; mmm_program_open and mmm_profile_run
 * refuse one they do not know, and so do mmm_sweep_spec_parse (the spec)
 * and mmm_simulate_policies (the simulator's options). */
Test(options, open_and_profile_run_versions)
{
    mmm_open_options oo = MMM_OPEN_OPTIONS_INIT, of;
    mmm_profile_run_options ro = MMM_PROFILE_RUN_OPTIONS_INIT, rf;
    mmm_sweep_spec spec = MMM_SWEEP_SPEC_INIT;
    mmm_sim_options so = MMM_SIM_OPTIONS_INIT;
    mmm_sweep_axis_text ax = {.name = "p", .values = "1,2"};
    mmm_profile_captures *c = NULL;
    char *argv[] = {(char *)"true", NULL};
    mmm_opened o;
    mmm_sim_runs runs;
    mmm_error err;
    memset(&of, 0x5a, sizeof of);
    memset(&rf, 0x5a, sizeof rf);
    mmm_open_options_init(&of);
    mmm_profile_run_options_init(&rf);
    cr_expect_eq(offsetof(mmm_open_options, version), 0);
    cr_expect_eq(offsetof(mmm_profile_run_options, version), 0);
    cr_expect_eq(oo.version, MMM_OPEN_OPTIONS_VERSION);
    cr_expect_eq(of.version, MMM_OPEN_OPTIONS_VERSION);
    cr_expect_eq(oo.io.version, MMM_IMPORT_OPTIONS_VERSION);
    cr_expect_eq(ro.version, MMM_PROFILE_RUN_OPTIONS_VERSION);
    cr_expect_eq(rf.version, MMM_PROFILE_RUN_OPTIONS_VERSION);
    BOTH_REFUSED(oo, MMM_OPEN_OPTIONS_VERSION, mmm_program_open(&o, DIAMOND, &oo, &e_),
                 "mmm_open_options");
    BOTH_REFUSED(oo.io, MMM_IMPORT_OPTIONS_VERSION,
                 mmm_program_open(&o, DIAMOND, &oo, &e_), "mmm_import_options");
    BOTH_REFUSED(ro, MMM_PROFILE_RUN_OPTIONS_VERSION,
                 mmm_profile_run(&c, NULL, argv, 1, &ro, NULL, &e_),
                 "mmm_profile_run_options");
    cr_expect_null(c);
    cr_assert_eq(mmm_program_open(&o, DIAMOND, &oo, &err), 0, "%s", err.message);
    BOTH_REFUSED(spec, MMM_SWEEP_SPEC_VERSION,
                 mmm_sweep_spec_parse(&spec, o.program, &ax, 1, NULL, NULL, &e_),
                 "mmm_sweep_spec");
    BOTH_REFUSED(so, MMM_SIM_OPTIONS_VERSION,
                 mmm_simulate_policies(&runs, o.instance, &so, 1, -1.0, NULL, &e_),
                 "mmm_sim_options");
    mmm_sim_runs_dispose(&runs);
    cr_expect_eq(mmm_sweep_spec_parse(&spec, o.program, &ax, 1, NULL, NULL, &err), 0,
                 "%s", err.message);
    mmm_sweep_spec_dispose(&spec);
    mmm_opened_dispose(&o);
}
