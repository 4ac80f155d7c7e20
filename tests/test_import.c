/*
 * test_import.c: the task-graph readers (STG, WfCommons, DAX, DOT, CUDA
 * graph DOT).  The hand-made files of tests/data/import/hand/ are one graph
 * whose measures are worked out by hand in its README; the CUDA graph
 * captured on an H100 (tests/data/import/cuda/) is checked against its
 * capture program by hand; every refusal names what is wrong and where.
 * The real public examples are checked against an independent Python
 * computation by tests/import_check.py (ctest import_real).
 */
#define _DEFAULT_SOURCE
#include <criterion/criterion.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "mmm/import.h"
#include "mmm/mmm.h"
#ifdef MMM_HAVE_DOT
#include "mmm/import_dot.h"
#endif
#include "mmm_run.h"
#include "tmpdir.h"

#define HAND MMM_TEST_DATA "/import/hand/"
#define CUDA MMM_TEST_DATA "/import/cuda/"

typedef struct measures {
    double W, S, O, C;
    int64_t N, L, K;
} measures;

static mmm_import_options options(void)
{
    mmm_import_options io = MMM_IMPORT_OPTIONS_INIT;
#ifdef MMM_HAVE_DOT
    io.dot_reader = mmm_dot_read;
    io.cuda_dot_reader = mmm_cuda_dot_read;
#endif
    return io;
}

/* A file of the current folder holding text (name returned). */
static const char *mmm_tmp_write(const char *name, const char *text)
{
    FILE *f = fopen(name, "w");
    cr_assert_not_null(f, "cannot write %s", name);
    fputs(text, f);
    fclose(f);
    return name;
}

static measures measure(const mmm_program *p)
{
    mmm_instance *inst = NULL;
    mmm_metrics m;
    mmm_error err;
    measures r;
    memset(&m, 0, sizeof m);
    cr_assert_eq(mmm_instance_new(&inst, p, &err), 0, "%s", err.message);
    cr_assert_eq(mmm_instance_eval(inst, NULL, 0, &err), 0, "%s", err.message);
    cr_assert_eq(mmm_metrics_compute(&m, inst, 0, &err), 0, "%s", err.message);
    r.W = m.W;
    r.S = m.S;
    r.O = m.O;
    r.C = m.C;
    r.N = m.N;
    r.L = m.L;
    r.K = m.K;
    mmm_metrics_dispose(&m);
    mmm_instance_free(inst);
    return r;
}

static void expect_measures(const char *path, const mmm_import_options *io,
                            double W, double S, int64_t N, int64_t L,
                            double C, int64_t K)
{
    mmm_program *p = NULL;
    mmm_import_report rep;
    mmm_error err;
    cr_assert_eq(mmm_program_read_file(&p, path, io, &rep, &err), 0,
                 "%s: %s:%ld: %s", path, err.file, err.line, err.message);
    measures m = measure(p);
    cr_expect_eq(m.W, W, "%s: W = %.17g, by hand %.17g", path, m.W, W);
    cr_expect_eq(m.S, S, "%s: S = %.17g, by hand %.17g", path, m.S, S);
    cr_expect_eq(m.N, N, "%s: N = %lld, by hand %lld", path, (long long)m.N,
                 (long long)N);
    cr_expect_eq(m.L, L, "%s: L = %lld, by hand %lld", path, (long long)m.L,
                 (long long)L);
    cr_expect_eq(m.C, C, "%s: C = %.17g, by hand %.17g", path, m.C, C);
    cr_expect_eq(m.K, K, "%s: K = %lld, by hand %lld", path, (long long)m.K,
                 (long long)K);
    cr_expect_eq(m.O, 0, "%s: O = %g: tasks move no memory", path, m.O);
    mmm_program_free(p);
}

/* ------------------------------------------------------------------ */
/* The hand-made graph in every format (tests/data/import/hand/README)  */

Test(import, hand_stg)
{
    mmm_import_options io = options();
    mmm_program *p = NULL;
    mmm_import_report rep;
    mmm_error err;
    expect_measures(HAND "graph.stg", &io, 15, 12, 7, 5, 5, 3);
    /* 1 -> 2 is given twice: merged (8 distinct edges) */
    cr_assert_eq(mmm_program_read_file(&p, HAND "graph.stg", &io, &rep, &err), 0);
    cr_expect_eq(rep.format, MMM_INPUT_STG);
    cr_expect_eq(rep.ntasks, 7);
    cr_expect_eq(rep.nedges, 8);
    cr_expect_eq(p->nedges, 8);
    cr_expect_eq(p->kernels[1].line, 6, "task 1 is on line 6, not %ld",
                 p->kernels[1].line);
    mmm_program_free(p);
}

Test(import, hand_wfcommons_all_schemas)
{
    static const char *files[] = {HAND "graph_v15.json", HAND "graph_tasks.json",
                                  HAND "graph_jobs.json"};
    mmm_import_options io = options();
    for (size_t i = 0; i < 3; i++)
        expect_measures(files[i], &io, 15e6, 12e6, 5, 3, 5e6, 3);
    io.time_unit = MMM_TIME_S;
    for (size_t i = 0; i < 3; i++)
        expect_measures(files[i], &io, 15, 12, 5, 3, 5, 3);
}

Test(import, hand_dax_2_and_3)
{
    mmm_import_options io = options();
    mmm_program *p = NULL;
    mmm_error err;
    expect_measures(HAND "graph3.dax", &io, 15e6, 12e6, 5, 3, 5e6, 3);
    expect_measures(HAND "graph2.dax", &io, 15e6, 12e6, 5, 3, 5e6, 3);
    io.time_unit = MMM_TIME_MS;
    expect_measures(HAND "graph3.dax", &io, 15e3, 12e3, 5, 3, 5e3, 3);
    /* a job keeps its name, before its id (as WfCommons names tasks), and
     * the edges follow the ids; costs in the time unit */
    cr_assert_eq(mmm_program_read_file(&p, HAND "graph2.dax", &io, NULL, &err), 0);
    cr_expect_str_eq(p->kernels[0].id, "a_ID00000");
    cr_expect_str_eq(p->kernels[3].id, "d_ID00003");
    cr_expect_eq(p->nedges, 5);
    cr_expect_str_eq(mmm_program_cost_unit(p), "ms");
    mmm_program_free(p);
}

/* STG: a header with the processor count (noted), N + 1 records (one
 * dummy), a single dummy node; the hand graph's measures with one dummy:
 * N = 6, L = 4 (0 a b d), W = 15, S = 12, C = 5, K = 3. */
Test(import, stg_header_with_processors_and_one_dummy)
{
    mmm_import_options io = options();
    mmm_program *p = NULL;
    mmm_import_report rep;
    mmm_error err;
    const char *procs = mmm_tmp_write("procs.stg", "5 4\n0 0 0\n1 3 1 0\n2 5 1 1\n"
                                      "3 2 1 1\n4 4 3 2 3 5\n5 1 1 0\n6 0 1 4\n");
    const char *one = mmm_tmp_write("one_dummy.stg", "5\n0 0 0\n1 3 1 0\n2 5 1 1\n"
                                    "3 2 1 1\n4 4 3 2 3 5\n5 1 1 0\n");
    const char *single = mmm_tmp_write("single.stg", "0\n0 0 0\n");
    expect_measures(procs, &io, 15, 12, 7, 5, 5, 3);
    cr_assert_eq(mmm_program_read_file(&p, procs, &io, &rep, &err), 0, "%s", err.message);
    cr_expect(strstr(rep.note, "the header gives 4 processors"), "%s", rep.note);
    mmm_program_free(p);
    expect_measures(one, &io, 15, 12, 6, 4, 5, 3);
    cr_assert_eq(mmm_program_read_file(&p, single, &io, &rep, &err), 0, "%s", err.message);
    cr_expect_eq(p->nkernels, 1);
    cr_expect_eq(rep.nwarnings, 1);
    cr_expect(strstr(rep.warning, "every task costs 0"), "%s", rep.warning);
    mmm_program_free(p);
}

#ifdef MMM_HAVE_DOT
Test(import, hand_dot)
{
    mmm_import_options io = options();
    mmm_program *p = NULL;
    mmm_import_report rep;
    mmm_error err;
    expect_measures(HAND "graph.dot", &io, 15, 12, 5, 3, 5, 3);
    cr_assert_eq(mmm_program_read_file(&p, HAND "graph.dot", &io, &rep, &err), 0);
    cr_expect_eq(rep.nedges, 5, "a -> b twice is one edge: %zu", rep.nedges);
    mmm_program_free(p);
    /* quoted names with spaces become ids with '_'; 2.4 -> 2, 3.5 -> 4 */
    io.cost_attr = "flops";
    expect_measures(HAND "graph_flops.dot", &io, 15, 12, 5, 3, 5, 3);
    cr_assert_eq(mmm_program_read_file(&p, HAND "graph_flops.dot", &io, &rep,
                                       &err), 0);
    cr_expect_geq(mmm_program_find_kernel(p, "task_a"), 0);
    mmm_program_free(p);
    /* the wrong attribute: every cost 0, a warning per node and one for
     * the zeros, the summary naming the attribute every node has */
    cr_assert_eq(mmm_program_read_file(&p, HAND "graph.dot", &io, &rep, &err), 0);
    cr_expect_eq(rep.nwarnings, 6, "%zu warnings", rep.nwarnings);
    cr_expect(strstr(rep.warning, "node 'a' (line 3) has no flops attribute"), "%s",
              rep.warning);
    cr_expect_str_eq(rep.summary, "every task costs 0, so W = S = 0; 5 of 5 nodes have no "
                                  "flops attribute (cost 0); every node has a number in "
                                  "'size': give --cost-attr size if that is the cost");
    cr_expect_eq(measure(p).W, 0);
    cr_expect_str_eq(mmm_program_cost_unit(p), "the file's unit");
    mmm_program_free(p);
}

/* A DOT graph without a name is named after its file (not cgraph's %1). */
Test(import, dot_nameless_graph_takes_the_file_name)
{
    mmm_import_options io = options();
    mmm_program *p = NULL;
    mmm_error err;
    const char *path = mmm_tmp_write("anon.dot", "digraph {\n  a [size=2];\n  b [size=3];\n"
                                                 "  a -> b;\n}\n");
    cr_assert_eq(mmm_program_read_file(&p, path, &io, NULL, &err), 0, "%s", err.message);
    cr_expect_str_eq(p->name, "anon");
    mmm_program_free(p);
}

/* The graph that tests/data/import/cuda/capture_graph.cu captured on an
 * H100: memset -> fill<<<4,256>>> -> {square<<<8,128>>>, memcpy HtoD ->
 * scale<<<2,512,2048 B>>>} -> combine<<<4,256>>> -> memcpy DtoH, 4096
 * bytes each copy. */
Test(import, cuda_graph_shapes)
{
    mmm_import_options io = options();
    mmm_program *p = NULL;
    mmm_import_report rep;
    mmm_instance *inst = NULL;
    mmm_error err;
    static const struct {
        const char *id;
        int64_t blocks, threads;
        double work, reads, writes, shared;
        mmm_copy_kind copy; /* the memset and memcpys: copies of 4096 bytes */
    } want[] = {
        {"memset_0", 0, 0, 0, 0, 0, 0, MMM_COPY_SET},
        {"fill", 4, 256, 256, 0, 0, 0, MMM_COPY_NONE}, /* placeholder: 1 per thread */
        {"square", 8, 128, 128, 0, 0, 0, MMM_COPY_NONE},
        {"memcpy_3", 0, 0, 0, 0, 0, 0, MMM_COPY_H2D},
        {"scale", 2, 512, 512, 0, 0, 1, MMM_COPY_NONE}, /* 2048 B / 4 / 512 threads */
        {"combine", 4, 256, 256, 0, 0, 0, MMM_COPY_NONE},
        {"memcpy_6", 0, 0, 0, 0, 0, 0, MMM_COPY_D2H},
    };
    cr_assert_eq(mmm_program_read_file(&p, CUDA "cuda_graph.dot", &io, &rep,
                                       &err), 0, "%s", err.message);
    cr_expect_eq(rep.format, MMM_INPUT_CUDA_DOT);
    cr_expect(strstr(rep.note, "4 kernels without costs"), "note: %s", rep.note);
    cr_assert_eq(p->nkernels, 7);
    cr_assert_eq(mmm_instance_new(&inst, p, &err), 0);
    cr_assert_eq(mmm_instance_eval(inst, NULL, 0, &err), 0, "%s", err.message);
    for (size_t i = 0; i < 7; i++) {
        long k = mmm_program_find_kernel(p, want[i].id);
        cr_assert_geq(k, 0, "no kernel %s", want[i].id);
        cr_expect_eq(mmm_kernel_copy(p, (size_t)k), want[i].copy, "%s kind",
                     want[i].id);
        if (want[i].copy != MMM_COPY_NONE) {
            cr_expect_eq(p->kernels[k].nclasses, 0, "%s has no block", want[i].id);
            cr_expect_eq(mmm_instance_copy_bytes(inst, (size_t)k), 4096,
                         "%s bytes %lld", want[i].id,
                         (long long)mmm_instance_copy_bytes(inst, (size_t)k));
            cr_expect_eq(inst->kernels[k].N, 0);
            continue;
        }
        const mmm_class_val *c = &inst->classes[p->kernels[k].first_class];
        cr_expect_eq(c->count, want[i].blocks, "%s blocks %lld", want[i].id,
                     (long long)c->count);
        cr_expect_eq(c->threads, want[i].threads, "%s threads", want[i].id);
        cr_expect_eq(c->work, want[i].work, "%s work %g", want[i].id, c->work);
        cr_expect_eq(c->reads, want[i].reads, "%s reads", want[i].id);
        cr_expect_eq(c->writes, want[i].writes, "%s writes", want[i].id);
        cr_expect_eq(c->shared, want[i].shared, "%s shared %g", want[i].id,
                     c->shared);
    }
    cr_expect_eq(p->nedges, 7);
    mmm_instance_free(inst);
    mmm_program_free(p);
}

/* The copies survive mmm's XML: written (as `mmm convert` writes them)
 * and read back, each is a copy of its kind and bytes. */
Test(import, cuda_graph_copies_round_trip)
{
    mmm_import_options io = options();
    mmm_program *p = NULL, *q = NULL;
    mmm_import_report rep;
    mmm_instance *inst = NULL, *back = NULL;
    mmm_error err;
    char *text = NULL;
    size_t len = 0;
    cr_assert_eq(mmm_program_read_file(&p, CUDA "cuda_graph.dot", &io, &rep,
                                       &err), 0, "%s", err.message);
    cr_assert_eq(mmm_instance_new(&inst, p, &err), 0);
    cr_assert_eq(mmm_instance_eval(inst, NULL, 0, &err), 0, "%s", err.message);
    FILE *f = open_memstream(&text, &len);
    cr_assert_not_null(f);
    cr_assert_eq(mmm_program_write_xml(f, inst, NULL, &err), 0, "%s", err.message);
    cr_assert_eq(fclose(f), 0);
    cr_expect(strstr(text, "<copy id=\"memcpy_3\" kind=\"h2d\" bytes=\"4096\"/>"),
              "%s", text);
    cr_assert_eq(mmm_program_load_memory(&q, text, len, "back.xml", NULL, &err), 0,
                 "%s:%ld: %s", err.file, err.line, err.message);
    cr_assert_eq(q->nkernels, p->nkernels);
    cr_assert_eq(q->nedges, p->nedges);
    cr_assert_eq(mmm_instance_new(&back, q, &err), 0);
    cr_assert_eq(mmm_instance_eval(back, NULL, 0, &err), 0, "%s", err.message);
    for (size_t k = 0; k < p->nkernels; k++) {
        long j = mmm_program_find_kernel(q, p->kernels[k].id);
        cr_assert_geq(j, 0);
        cr_expect_eq(mmm_kernel_copy(q, (size_t)j), mmm_kernel_copy(p, k), "%s",
                     p->kernels[k].id);
        cr_expect_eq(mmm_instance_copy_bytes(back, (size_t)j),
                     mmm_instance_copy_bytes(inst, k));
    }
    mmm_instance_free(back);
    mmm_instance_free(inst);
    mmm_program_free(q);
    mmm_program_free(p);
    free(text);
}

/* With costs.csv (per thread: fill 2 2 0 1 by its mangled name, square
 * 3 3 1 1, scale 4 4 2 1, combine 1 1 2 1), U = 1; the memset and the two
 * memcpys are copies, which have no block:
 *   W = 4·2·256 + 8·3·128 + 2·4·512 + 4·1·256 = 2048+3072+4096+1024 = 10240
 *   S = max(memset fill square combine memcpy: 0+2+3+1+0 = 6,
 *           memset fill memcpy_3 scale combine memcpy: 0+2+0+4+1+0 = 7) = 7
 *   N = 4+8+2+4 = 18, L = 3 (fill, then square or scale, then combine)
 *   O = 4·1 + 8·2 + 2·3 + 4·3 = 38, C = max(2+1, 3+2, 4+3, 1+3) = 7
 *   K = 8 (square) + 2 (scale) = 10: square runs beside the copy and scale */
Test(import, cuda_graph_costs_file)
{
    mmm_import_options io = options();
    mmm_program *p = NULL;
    mmm_import_report rep;
    mmm_error err;
    io.costs_file = CUDA "costs.csv";
    cr_assert_eq(mmm_program_read_file(&p, CUDA "cuda_graph.dot", &io, &rep,
                                       &err), 0, "%s:%ld: %s", err.file,
                 err.line, err.message);
    cr_expect_eq(rep.note[0], '\0', "no placeholder left: %s", rep.note);
    measures m = measure(p);
    cr_expect_eq(m.W, 10240, "W %g", m.W);
    cr_expect_eq(m.S, 7, "S %g", m.S);
    cr_expect_eq(m.N, 18);
    cr_expect_eq(m.L, 3);
    cr_expect_eq(m.O, 38, "O %g", m.O);
    cr_expect_eq(m.C, 7);
    cr_expect_eq(m.K, 10);
    mmm_program_free(p);
}
#endif

/* ------------------------------------------------------------------ */
/* Detection by content                                                */

Test(import, detect_by_content_not_extension)
{
    static const struct {
        const char *text, *name;
        mmm_input_format f;
    } cases[] = {
        {"# c\n 3\n0 1 0\n", "x.json", MMM_INPUT_STG},
        {"\xEF\xBB\xBF{\"workflow\": {}}", "x.stg", MMM_INPUT_WFCOMMONS},
        {"<?xml version=\"1.0\"?>\n<!-- c -->\n<adag/>", "x.xml", MMM_INPUT_DAX},
        {"<dax:adag xmlns:dax=\"x\"/>", "x", MMM_INPUT_DAX},
        {"<program name=\"p\"/>", "x.dax", MMM_INPUT_MMM},
        {"/* c */ // d\n# e\nstrict DiGraph g { a -> b }", "x.stg", MMM_INPUT_DOT},
        {"digraph dot {\n\"n\"[shape=\"record\" label=\"{KERNEL\n| x}\"]; }",
         "x.dot", MMM_INPUT_CUDA_DOT},
        {"", "x.stg", MMM_INPUT_STG},     /* nothing to see: the extension */
        {"???", "x.gv", MMM_INPUT_DOT},
        {"???", "x", MMM_INPUT_UNKNOWN},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        cr_expect_eq(mmm_input_detect(cases[i].text, strlen(cases[i].text),
                                      cases[i].name),
                     cases[i].f, "case %zu: %s", i,
                     mmm_input_format_name(mmm_input_detect(
                         cases[i].text, strlen(cases[i].text), cases[i].name)));
}

/* ------------------------------------------------------------------ */
/* Costs: units, rounding, negative costs                              */

static double work_of(const char *text, const char *name,
                      const mmm_import_options *io)
{
    mmm_program *p = NULL;
    mmm_error err;
    cr_assert_eq(mmm_program_read_memory(&p, text, strlen(text), name, io,
                                         NULL, &err), 0, "%s", err.message);
    double w = measure(p).W;
    mmm_program_free(p);
    return w;
}

Test(import, time_units_round_to_nearest)
{
    /* 0.5 s -> 1 s (halves away from zero), 1.25 s -> 1 s, 2.75 s -> 3 s */
    static const char *j =
        "{\"workflow\": {\"jobs\": [{\"name\": \"a\", \"runtime\": 0.5},"
        " {\"name\": \"b\", \"runtime\": 1.25}, {\"name\": \"c\", \"runtime\": 2.75}]}}";
    mmm_import_options io = options();
    io.time_unit = MMM_TIME_S;
    cr_expect_eq(work_of(j, "j.json", &io), 1 + 1 + 3);
    io.time_unit = MMM_TIME_MS;
    cr_expect_eq(work_of(j, "j.json", &io), 500 + 1250 + 2750);
    io.time_unit = MMM_TIME_US;
    cr_expect_eq(work_of(j, "j.json", &io), 4.5e6);
    io.time_unit = MMM_TIME_NS;
    cr_expect_eq(work_of(j, "j.json", &io), 4.5e9);
    /* STG costs are unitless: the time unit does not scale them */
    cr_expect_eq(work_of("1\n0 0 0\n1 7 1 0\n2 0 1 1\n", "s.stg", &io), 7);
    mmm_time_unit u;
    cr_expect_eq(mmm_time_unit_parse("ms", &u), 0);
    cr_expect_eq(u, MMM_TIME_MS);
    cr_expect_eq(mmm_time_unit_parse("min", &u), -1);
}

Test(import, negative_cost_zero_clamps_with_a_warning)
{
    static const char *s = "2\n0 0 0\n1 -4 1 0\n2 3 1 1\n3 0 1 2\n";
    mmm_import_options io = options();
    mmm_import_report rep;
    mmm_program *p = NULL;
    mmm_error err;
    io.negative_to_zero = 1;
    cr_assert_eq(mmm_program_read_memory(&p, s, strlen(s), "n.stg", &io, &rep,
                                         &err), 0, "%s", err.message);
    cr_expect_eq(rep.nwarnings, 1);
    cr_expect(strstr(rep.warning, "task '1' (line 3) has a negative cost (-4)"),
              "%s", rep.warning);
    cr_expect_eq(measure(p).W, 3);
    mmm_program_free(p);
}

/* ------------------------------------------------------------------ */
/* Refusals: each names what is wrong and where                        */

typedef struct bad {
    const char *name, *text;
    long line;             /* expected err.line; -1: any */
    const char *fragment;
    const char *fragment2; /* NULL or a second one */
} bad;

static void expect_bad(const bad *b, const mmm_import_options *io)
{
    mmm_program *p = NULL;
    mmm_error err;
    int r = mmm_program_read_memory(&p, b->text, strlen(b->text), b->name, io,
                                    NULL, &err);
    cr_expect_lt(r, 0, "%s: accepted", b->name);
    if (r >= 0) {
        mmm_program_free(p);
        return;
    }
    cr_expect_null(p);
    cr_expect_str_eq(err.file, b->name);
    if (b->line >= 0)
        cr_expect_eq(err.line, b->line, "%s: line %ld, expected %ld (%s)",
                     b->name, err.line, b->line, err.message);
    cr_expect(strstr(err.message, b->fragment), "%s: '%s' lacks '%s'", b->name,
              err.message, b->fragment);
    if (b->fragment2)
        cr_expect(strstr(err.message, b->fragment2), "%s: '%s' lacks '%s'",
                  b->name, err.message, b->fragment2);
}

Test(import, bad_stg)
{
    static const bad cases[] = {
        {"neg.stg", "2\n0 0 0\n1 -4 1 0\n2 3 1 1\n3 0 1 2\n", 3,
         "task '1' has a negative cost", "--negative-cost zero"},
        {"unknown.stg", "1\n0 0 0\n1 2 1 7\n2 0 1 1\n", 3,
         "dependency '7' -> '1'", "no task '7'"},
        {"self.stg", "1\n0 0 0\n1 2 2 0 1\n2 0 1 1\n", 3,
         "task '1' depends on itself", NULL},
        {"cycle.stg", "2\n0 0 0\n1 2 2 0 2\n2 3 1 1\n3 0 1 2\n", -1,
         "cycle", "1"},
        {"few.stg", "1\n0 0 0\n1 2 2 0\n2 0 1 1\n", 3,
         "task 1 announces 2 predecessors but its line gives 1", NULL},
        {"many.stg", "1\n0 0 0\n1 2 1 0 0\n2 0 1 1\n", 3,
         "task 1 announces 1 predecessors but its line gives more", NULL},
        {"short.stg", "3\n0 0 0\n1 2 1 0\n", 3, "ends where a task number", NULL},
        {"cost.stg", "1\n0 0 0\n1 x 1 0\n2 0 1 1\n", 3, "its cost 'x' is not a number",
         NULL},
        {"extra.stg", "1\n0 0 0\n1 2 1 0\n2 0 1 1\n9 9 0\n", 5,
         "more than the 3 tasks announced", NULL},
        {"dup.stg", "1\n0 0 0\n0 2 1 0\n2 0 1 0\n", 3, "'0'", NULL},
        {"count.stg", "-3\n", 1, "the number of tasks must be an integer", NULL},
    };
    mmm_import_options io = options();
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        expect_bad(&cases[i], &io);
}

Test(import, bad_wfcommons)
{
    static const bad cases[] = {
        {"syntax.json", "{\n\"workflow\": {\n\"jobs\": [,]}}", 3, "not valid JSON", NULL},
        {"noflow.json", "{\"name\": \"x\"}", 1, "without a \"workflow\" object", NULL},
        {"notasks.json", "{\"workflow\": {\"x\": 1}}", 1, "no list of tasks", NULL},
        {"neg.json",
         "{\"workflow\": {\"jobs\": [\n{\"name\": \"a\", \"runtime\": 1},\n"
         "{\"name\": \"bad_task\", \"runtime\": -2}]}}",
         3, "task 'bad_task' has a negative cost", NULL},
        {"unknown.json",
         "{\"workflow\": {\"jobs\": [\n{\"name\": \"a\", \"runtime\": 1, \"parents\": [\"ghost\"]}]}}",
         2, "dependency 'ghost' -> 'a'", "no task 'ghost'"},
        {"self.json",
         "{\"workflow\": {\"jobs\": [\n{\"name\": \"a\", \"runtime\": 1, \"parents\": [\"a\"]}]}}",
         2, "task 'a' depends on itself", NULL},
        {"cycle.json",
         "{\"workflow\": {\"jobs\": [{\"name\": \"a\", \"runtime\": 1, \"parents\": [\"b\"]},"
         "{\"name\": \"b\", \"runtime\": 1, \"parents\": [\"a\"]}]}}",
         -1, "cycle", NULL},
        {"type.json",
         "{\"workflow\": {\"jobs\": [{\"name\": \"a\", \"runtime\": \"1\"}]}}", -1,
         "task 'a': its runtime is not a number", NULL},
        {"dupkey.json", "{\"workflow\": {}, \"workflow\": {}}", 1, "duplicate", NULL},
        {"noname.json", "{\"workflow\": {\"jobs\": [{\"runtime\": 1}]}}", -1,
         "neither an id nor a name", NULL},
        {"v15unknown.json",
         "{\"workflow\": {\"specification\": {\"tasks\": [{\"id\": \"a\", \"children\": [\"z\"]}]},"
         "\"execution\": {\"tasks\": [{\"id\": \"a\", \"runtimeInSeconds\": 1}]}}}",
         -1, "dependency 'a' -> 'z'", "no task 'z'"},
    };
    mmm_import_options io = options();
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        expect_bad(&cases[i], &io);
}

Test(import, bad_dax)
{
    static const bad cases[] = {
        {"syntax.dax", "<adag>\n<job id=\"a\" runtime=\"1\">\n</adag>", 3, "", NULL},
        {"neg.dax", "<adag>\n<job id=\"a\" runtime=\"1\"/>\n<job id=\"b\" runtime=\"-1\"/>\n</adag>",
         3, "task 'b' has a negative cost", NULL},
        {"negprofile.dax",
         "<adag>\n<job id=\"a\">\n<profile namespace=\"pegasus\" key=\"runtime\">-3</profile>\n"
         "</job>\n</adag>", 2, "task 'a' has a negative cost", NULL},
        {"unknown.dax",
         "<adag>\n<job id=\"a\" runtime=\"1\"/>\n<child ref=\"a\">\n<parent ref=\"ghost\"/>\n</child>\n</adag>",
         4, "dependency 'ghost' -> 'a'", "no task 'ghost'"},
        {"self.dax",
         "<adag>\n<job id=\"a\" runtime=\"1\"/>\n<child ref=\"a\"><parent ref=\"a\"/></child>\n</adag>",
         3, "task 'a' depends on itself", NULL},
        {"cycle.dax",
         "<adag><job id=\"a\" runtime=\"1\"/><job id=\"b\" runtime=\"1\"/>"
         "<child ref=\"a\"><parent ref=\"b\"/></child><child ref=\"b\"><parent ref=\"a\"/></child></adag>",
         -1, "cycle", NULL},
        {"nan.dax", "<adag>\n<job id=\"a\" runtime=\"fast\"/>\n</adag>", 2,
         "job 'a': its runtime 'fast' is not a number", NULL},
        {"noid.dax", "<adag>\n<job runtime=\"1\"/>\n</adag>", 2, "a job has no id", NULL},
        {"parent.dax", "<adag>\n<parent ref=\"a\"/>\n</adag>", 2,
         "must be inside a <child", NULL},
    };
    mmm_import_options io = options();
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        expect_bad(&cases[i], &io);
}

#ifdef MMM_HAVE_DOT
Test(import, bad_dot)
{
    static const bad cases[] = {
        {"syntax.dot", "digraph g {\na -> b;\na -> ;\n}", 3, "syntax error", NULL},
        {"neg.dot", "digraph g {\na [size=1];\nb [size=-2];\na -> b;\n}", 3,
         "task 'b' has a negative cost", NULL},
        {"nan.dot", "digraph g {\n\na [size=\"big\"];\n}", 3,
         "node 'a': its size 'big' is not a number", NULL},
        {"self.dot", "digraph g {\na [size=1];\na -> a;\n}", 2,
         "task 'a' depends on itself", NULL},
        {"cycle.dot", "digraph g {\na [size=1]; b [size=1];\na -> b -> a;\n}", -1,
         "cycle", NULL},
        {"undirected.dot", "graph g {\na -- b;\n}", 1, "undirected", NULL},
        {"utf8.dot", "digraph g {\n\"x\xbfy\" [size=1];\n}", 2,
         "holds a byte (0xBF) that is not a character of text", NULL},
    };
    mmm_import_options io = options();
    mmm_program *p = NULL;
    mmm_error err;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        expect_bad(&cases[i], &io);
    /* a NUL byte inside */
    cr_expect_lt(mmm_program_read_memory(&p, "digraph g { a }\0b", 18, "nul.dot",
                                         &io, NULL, &err), 0);
    cr_expect(strstr(err.message, "NUL"), "%s", err.message);
}

Test(import, bad_cuda_dot)
{
    static const bad cases[] = {
        {"nolaunch.dot",
         "digraph dot {\n\"n0\"[shape=\"record\" label=\"{KERNEL\n| {ID | 0 | k}}\"];\n}", 2,
         "node 'n0': not a node of cudaGraphDebugDotPrint", "<<<"},
        {"cycle.dot",
         "digraph dot {\n\"n0\"[shape=\"record\" label=\"{EMPTY | {ID | 0}}\"];\n"
         "\"n1\"[shape=\"record\" label=\"{EMPTY | {ID | 1}}\"];\n\"n0\" -> \"n1\";\n\"n1\" -> \"n0\";\n}",
         -1, "cycle", NULL},
    };
    mmm_import_options io = options();
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        expect_bad(&cases[i], &io);
}

Test(import, bad_costs_file)
{
    static const struct {
        const char *text;
        long line;
        const char *fragment;
    } cases[] = {
        {"name,work,span,reads,writes\nfill,1,2,3\n", 2, "has 5 fields"},
        {"fill,1,2,3,x\n", 1, "non-negative numbers"},
        {"# c\nfill,1,1,0,0\nfill,2,2,0,0\n", 0, "kernel 'fill' has two lines"},
        {"fill,-1,1,0,0\n", 1, "non-negative"},
    };
    char dir[256], path[300];
    mmm_tmpdir_make(dir, sizeof dir, "mmm_costs");
    snprintf(path, sizeof path, "%s/costs.csv", dir);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        FILE *f = fopen(path, "w");
        mmm_import_options io = options();
        mmm_program *p = NULL;
        mmm_error err;
        cr_assert_not_null(f);
        fputs(cases[i].text, f);
        fclose(f);
        io.costs_file = path;
        cr_expect_lt(mmm_program_read_file(&p, CUDA "cuda_graph.dot", &io, NULL,
                                           &err), 0, "case %zu accepted", i);
        cr_expect_str_eq(err.file, path);
        cr_expect_eq(err.line, cases[i].line, "case %zu: line %ld", i, err.line);
        cr_expect(strstr(err.message, cases[i].fragment), "case %zu: %s", i,
                  err.message);
    }
    mmm_tmpdir_remove(dir);
}
#else
Test(import, dot_refused_without_cgraph)
{
    mmm_import_options io = options();
    mmm_program *p = NULL;
    mmm_error err;
    cr_expect_lt(mmm_program_read_file(&p, HAND "graph.dot", &io, NULL, &err), 0);
    cr_expect(strstr(err.message, "without Graphviz"), "%s", err.message);
}
#endif

/* ------------------------------------------------------------------ */
/* The CLI: every command reads every format; convert                  */

static void run_ok(mmm_run_result *r, const char **argv)
{
    cr_assert_eq(mmm_run(r, argv, NULL, &MMM_RUN_LIMITS_DEFAULT), 0);
    cr_expect(r->exited && r->status == 0, "mmm %s %s: exit %d: %s", argv[0],
              argv[1], r->status, r->err);
}

Test(import, every_command_reads_every_format)
{
    static const char *files[] = {HAND "graph.stg", HAND "graph_v15.json",
                                  HAND "graph3.dax", HAND "graph.dot"};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        mmm_run_result r;
        const char *an[] = {"analyze", files[i], NULL};
        const char *sim[] = {"simulate", files[i], "-p", "2", NULL};
        const char *cmp[] = {"compare", files[i], HAND "graph2.dax", NULL};
        const char *ren[] = {"render", files[i], "-o", "-", "--format", "dot", NULL};
        const char *rep[] = {"report", files[i], "-o", "/dev/null", NULL};
        run_ok(&r, an);
        cr_expect(strstr(r.out, "W  work"), "%s", r.out);
        mmm_run_dispose(&r);
        run_ok(&r, sim);
        mmm_run_dispose(&r);
        run_ok(&r, cmp);
        mmm_run_dispose(&r);
        run_ok(&r, ren);
        mmm_run_dispose(&r);
        run_ok(&r, rep);
        mmm_run_dispose(&r);
    }
}

Test(import, convert_round_trip_and_atomic)
{
    char dir[256], out[300];
    mmm_run_result r;
    mmm_tmpdir_make(dir, sizeof dir, "mmm_convert");
    snprintf(out, sizeof out, "%s/g.xml", dir);
    const char *conv[] = {"convert", HAND "graph_v15.json", "-o", out,
                          "--time-unit", "ms", NULL};
    run_ok(&r, conv);
    mmm_run_dispose(&r);
    /* the comment says where it came from */
    FILE *f = fopen(out, "r");
    char head[1024] = "";
    cr_assert_not_null(f);
    size_t n = fread(head, 1, sizeof head - 1, f);
    head[n] = '\0';
    fclose(f);
    cr_expect(strstr(head, "Converted by mmm"), "%s", head);
    cr_expect(strstr(head, "graph_v15.json"), "%s", head);
    cr_expect(strstr(head, "wfcommons: 5 tasks, 5 distinct edges"), "%s", head);
    cr_expect(strstr(head, "integers in ms"), "%s", head);
    /* the XML (validated against the schema) has the same measures */
    mmm_import_options io = options();
    expect_measures(out, &io, 15e3, 12e3, 5, 3, 5e3, 3);
    /* a bad input leaves the output as it was, and no temporary */
    const char *badargv[] = {"convert", HAND "README", "-o", out, NULL};
    cr_assert_eq(mmm_run(&r, badargv, NULL, &MMM_RUN_LIMITS_DEFAULT), 0);
    cr_expect_eq(r.status, 1, "exit %d: %s", r.status, r.err);
    cr_expect(strstr(r.err, "error: not a format mmm reads"), "%s", r.err);
    mmm_run_dispose(&r);
    expect_measures(out, &io, 15e3, 12e3, 5, 3, 5e3, 3);
    int count = 0;
    DIR *d = opendir(dir);
    struct dirent *e;
    while ((e = readdir(d)))
        count += e->d_name[0] != '.';
    closedir(d);
    cr_expect_eq(count, 1, "only g.xml in %s", dir);
    mmm_tmpdir_remove(dir);
}

/* The text and the report name the unit of a task graph's costs, not
 * machine cycles and U. */
Test(import, cli_names_the_cost_unit)
{
    mmm_run_result r;
    const char *text[] = {"analyze", HAND "graph2.dax", "--time-unit", "ms", NULL};
    const char *report[] = {"report", HAND "graph.stg", "-o", "-", NULL};
    run_ok(&r, text);
    cr_expect(strstr(r.out, "\ncosts    in ms (a task graph"), "%s", r.out);
    mmm_run_dispose(&r);
    run_ok(&r, report);
    cr_expect(strstr(r.out, "Costs are in the file's unit, as the task graph gives them"),
              "%.300s", r.out);
    cr_expect(!strstr(r.out, "machine cycles"));
    mmm_run_dispose(&r);
}

Test(import, cli_warnings_and_notes_on_stderr)
{
    mmm_run_result r;
    const char *argv[] = {"analyze", CUDA "cuda_graph.dot", NULL};
    run_ok(&r, argv);
    cr_expect(strstr(r.err, "note: 4 kernels without costs"), "%s", r.err);
    mmm_run_dispose(&r);
    const char *neg[] = {"analyze", "--negative-cost", "bogus", HAND "graph.stg", NULL};
    cr_assert_eq(mmm_run(&r, neg, NULL, &MMM_RUN_LIMITS_DEFAULT), 0);
    cr_expect_eq(r.status, 2);
    mmm_run_dispose(&r);
}
