/* test_profile.c: `mmm profile` (docs/profile.md): the reader of Nsight
 * Compute's raw CSV on real captures of an H200 (tests/data/profile/,
 * README.md there) and on damaged ones, the fit of expressions through
 * points, the build with and without a skeleton, and `mmm profile run`
 * against a stand-in ncu (fake-ncu.sh) that replays committed captures.
 *
 * Expected values are read off the captures by hand (the numbers in the
 * comments are the CSV cells) or computed here from the formulas, never
 * taken from earlier output of the tool. */
#define _DEFAULT_SOURCE
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "mmm/mmm.h"
#include "mmm/profile.h"
#include "mmm_run.h"
#include "slurp.h"
#include "tmpdir.h"

#define DATA MMM_TEST_DATA "/profile"

/* ------------------------------------------------------------------ */
/* Helpers                                                             */

static mmm_ncu_capture *read_capture(const char *path)
{
    mmm_ncu_capture *c = NULL;
    mmm_error err;
    cr_assert_eq(mmm_ncu_read_file(&c, path, 0, &err), 0, "%s:%ld: %s", err.file,
                 err.line, err.message);
    return c;
}

/* Quantity q of launch i as an exact integer (fails the test otherwise). */
static int64_t qint(const mmm_ncu_capture *c, size_t i, mmm_ncu_quantity q)
{
    mmm_value v;
    cr_assert(mmm_ncu_value(c, i, q, &v), "launch %zu has no %s", i,
              mmm_ncu_quantity_name(q));
    cr_assert(v.exact && v.den == 1, "%s of launch %zu is %.17g, not an exact integer",
              mmm_ncu_quantity_name(q), i, v.d);
    return v.num;
}

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f, "cannot write %s", path);
    fputs(text, f);
    fclose(f);
}

/* The value of kernel id's attribute in an evaluated instance. */
static const mmm_class_val *class_of(const mmm_instance *inst, const char *id)
{
    long k = mmm_program_find_kernel(inst->program, id);
    cr_assert_geq(k, 0, "no kernel '%s'", id);
    return &inst->classes[inst->program->kernels[k].first_class];
}

/* The value of one of the time model's attributes (mmm/attr.h) of
 * kernel id's first class, first launch. */
static double attr_of(const mmm_instance *inst, const char *id, const char *name)
{
    long k = mmm_program_find_kernel(inst->program, id);
    int a = mmm_attr_find(name);
    mmm_attr_value v[64];
    mmm_error err;
    cr_assert_geq(k, 0, "no kernel '%s'", id);
    cr_assert_geq(a, 0, "no attribute '%s'", name);
    cr_assert_leq(mmm_attr_count() * inst->program->kernels[k].nclasses, 64);
    cr_assert_eq(mmm_instance_eval_attrs(inst, (size_t)k, 1, v, &err), 0, "%s",
                 err.message);
    cr_assert(v[a].given, "%s has no %s", id, name);
    return v[a].value;
}

static mmm_program *load_text(const char *xml)
{
    mmm_program *p = NULL;
    mmm_error err;
    cr_assert_eq(mmm_program_load_memory(&p, xml, strlen(xml), "built.xml", NULL, &err),
                 0, "%s:%ld: %s\n%s", err.file, err.line, err.message, xml);
    return p;
}

/* Evaluate prog with names[i] = values[i]. */
static mmm_instance *eval_at(const mmm_program *p, const char *const *names,
                             const int64_t *values, size_t n)
{
    mmm_override ov[8];
    mmm_instance *inst = NULL;
    mmm_error err;
    cr_assert_leq(n, 8);
    for (size_t i = 0; i < n; i++) {
        ov[i].slot = mmm_program_find_param(p, names[i]);
        cr_assert_geq(ov[i].slot, 0, "no parameter %s", names[i]);
        ov[i].value = mmm_value_int(values[i]);
    }
    cr_assert_eq(mmm_instance_new(&inst, p, &err), 0);
    cr_assert_eq(mmm_instance_eval(inst, ov, n, &err), 0, "%s:%ld: %s", err.file,
                 err.line, err.message);
    return inst;
}

static mmm_profile *build(const char *points, const char *skeleton)
{
    mmm_profile_options opt = MMM_PROFILE_OPTIONS_INIT;
    mmm_profile *p = NULL;
    mmm_error err;
    opt.skeleton = skeleton;
    cr_assert_eq(mmm_profile_build(&p, points, &opt, &err), 0, "%s:%ld: %s", err.file,
                 err.line, err.message);
    return p;
}

/* A build that must fail at file:line with needle in its message. */
static void build_fails(const char *points, const char *skeleton, const char *file,
                        long line, const char *needle)
{
    mmm_profile_options opt = MMM_PROFILE_OPTIONS_INIT;
    mmm_profile *p = NULL;
    mmm_error err;
    opt.skeleton = skeleton;
    mmm_error_clear(&err);
    cr_expect_lt(mmm_profile_build(&p, points, &opt, &err), 0, "built %s", points);
    cr_expect_null(p);
    if (file)
        cr_expect(strstr(err.file, file) != NULL, "error in '%s', want '%s' (%s)",
                  err.file, file, err.message);
    if (line >= 0)
        cr_expect_eq(err.line, line, "line %ld, want %ld: %s", err.line, line,
                     err.message);
    cr_expect(strstr(err.message, needle) != NULL, "'%s' lacks '%s'", err.message,
              needle);
    mmm_profile_free(p);
}

/* ------------------------------------------------------------------ */
/* The reader on real captures                                        */

/* reduce/raw-tpb64-k1.csv, ncu's default units ("Mbyte", "us", "Kbyte/block"),
 * and raw-base-tpb64-k1.csv (--print-units base): the same numbers. */
Test(profile, ncu_real_capture_both_units)
{
    const char *files[] = {DATA "/reduce/raw-tpb64-k1.csv",
                           DATA "/reduce/raw-base-tpb64-k1.csv"};
    for (int f = 0; f < 2; f++) {
        mmm_ncu_capture *c = read_capture(files[f]);
        mmm_value v;
        cr_assert_eq(mmm_ncu_count(c), 2);
        cr_expect_str_eq(mmm_ncu_kernel(c, 0),
                         "void reduce_partial<64, 1>(const float *, float *)");
        cr_expect_str_eq(mmm_ncu_kernel(c, 1), "reduce_final(const float *, int, float *)");
        cr_expect_str_eq(mmm_ncu_stream(c, 0), "1/7");
        cr_expect_eq(mmm_ncu_id(c, 0), 0);
        cr_expect_eq(mmm_ncu_line(c, 0), 3);
        cr_expect_eq(mmm_ncu_line(c, 1), 4);
        /* "16,384", "64", "16" */
        cr_expect_eq(qint(c, 0, MMM_NCU_BLOCKS), 16384);
        cr_expect_eq(qint(c, 0, MMM_NCU_THREADS), 64);
        cr_expect_eq(qint(c, 0, MMM_NCU_REGISTERS), 16);
        /* "0.256000" Kbyte/block and "256" byte/block */
        cr_expect_eq(qint(c, 0, MMM_NCU_SHARED_STATIC), 256);
        cr_expect_eq(qint(c, 0, MMM_NCU_SHARED_DYNAMIC), 0);
        /* "1867776.000000" and "1,867,776" inst */
        cr_expect_eq(qint(c, 0, MMM_NCU_WARP_INST), 1867776);
        cr_expect_eq(qint(c, 0, MMM_NCU_THREAD_INST), 56721408);
        cr_expect_eq(qint(c, 0, MMM_NCU_WARPS), 32768);
        /* 32768 warp-level loads, each taken as 128 bytes */
        cr_expect_eq(qint(c, 0, MMM_NCU_LOAD_BYTES), 32768 * 128);
        cr_expect_eq(qint(c, 0, MMM_NCU_STORE_BYTES), 16384 * 128);
        /* shared wavefronts: ld 216,479 + st 131,072 + atom 0 */
        cr_expect_eq(qint(c, 0, MMM_NCU_SHARED_WAVEFRONTS), 216479 + 131072);
        cr_expect_eq(qint(c, 0, MMM_NCU_GLOBAL_WAVEFRONTS), 32768 + 16384);
        /* "4.197888" Mbyte and "4,197,888" byte: exact either way */
        cr_expect_eq(qint(c, 0, MMM_NCU_DRAM_READ_BYTES), 4197888);
        /* "12.256000" us and "12,256" ns */
        cr_expect_eq(qint(c, 0, MMM_NCU_DURATION_NS), 12256);
        cr_expect_eq(qint(c, 0, MMM_NCU_L2_WRITE_SECTORS), 16382);
        /* what the file did not capture */
        cr_expect_eq(mmm_ncu_value(c, 0, MMM_NCU_BARRIER_INST, &v), 0);
        cr_expect_null(mmm_ncu_source(c, MMM_NCU_BARRIER_INST));
        cr_expect_null(mmm_ncu_source(c, MMM_NCU_ATOMIC_BYTES));
        cr_expect_str_eq(mmm_ncu_source(c, MMM_NCU_WARP_INST), "smsp__inst_executed.sum");
        cr_expect_str_eq(mmm_ncu_source(c, MMM_NCU_LOAD_BYTES),
                         "smsp__sass_inst_executed_op_global_ld.sum * 128");
        /* reduce_final: one block of 1024 threads, 146436 thread instructions */
        cr_expect_eq(qint(c, 1, MMM_NCU_BLOCKS), 1);
        cr_expect_eq(qint(c, 1, MMM_NCU_THREADS), 1024);
        cr_expect_eq(qint(c, 1, MMM_NCU_THREAD_INST), 146436);
        mmm_ncu_free(c);
    }
}

/* A value ncu scaled and rounded is inexact; extra columns are ignored;
 * quoted commas, the program's lines and ncu's messages around the table. */
static const char small_header[] =
    "\"ID\",\"Process ID\",\"Process Name\",\"Host Name\",\"Kernel Name\",\"Context\","
    "\"Stream\",\"Block Size\",\"Grid Size\",\"Device\",\"CC\",\"dram__bytes_read.sum\","
    "\"launch__grid_size\",\"launch__block_size\",\"other__metric\","
    "\"gpu__time_duration.sum\"\n";

Test(profile, ncu_units_and_noise)
{
    static const char text[] =
        "\xEF\xBB\xBFmy program says hello, \"quoted\"\n"
        "==WARNING== Note: Running with unmodified GPU clocks.\n"
        "==PROF== Connected to process 1 (/a.out)\n"
        "\"ID\",\"Process ID\",\"Process Name\",\"Host Name\",\"Kernel Name\",\"Context\","
        "\"Stream\",\"Block Size\",\"Grid Size\",\"Device\",\"CC\",\"dram__bytes_read.sum\","
        "\"launch__grid_size\",\"launch__block_size\",\"other__metric\","
        "\"gpu__time_duration.sum\"\r\n"
        "\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"Gbyte\",\"\",\"\",\"%\",\"ms\"\r\n"
        "\"0\",\"1\",\"a.out\",\"h\",\"void k<1, 2>(float *, int)\",\"1\",\"13\","
        "\"(32, 2, 1)\",\"(10, 10, 1)\",\"0\",\"9.0\",\"1.23\",\"\",\"\",\"n/a\",\"1.5\"\r\n"
        "==PROF== Profiling \"k\" - 1: 0%....50%....100% - 9 passes\n"
        "\"1\",\"1\",\"a.out\",\"h\",\"k2\",\"1\",\"14\",\"(1, 1, 1)\",\"(1, 1, 1)\","
        "\"0\",\"9.0\",\"0.000012345\",\"1,000,000\",\"1,024\",\"x y\",\"0.000001\"\r\n"
        "==PROF== Disconnected from process 1\n";
    mmm_ncu_capture *c = NULL;
    mmm_error err;
    mmm_value v;
    cr_assert_eq(mmm_ncu_read_memory(&c, text, sizeof text - 1, "n.csv", &err), 0,
                 "%s:%ld: %s", err.file, err.line, err.message);
    cr_assert_eq(mmm_ncu_count(c), 2);
    cr_expect_eq(mmm_ncu_line(c, 0), 6);
    cr_expect_eq(mmm_ncu_line(c, 1), 8);
    cr_expect_str_eq(mmm_ncu_stream(c, 1), "1/14");
    /* no launch__ metric in the row: the Grid Size and Block Size columns */
    cr_expect_eq(qint(c, 0, MMM_NCU_BLOCKS), 100);
    cr_expect_eq(qint(c, 0, MMM_NCU_THREADS), 64);
    cr_expect_eq(qint(c, 1, MMM_NCU_BLOCKS), 1000000);
    cr_expect_eq(qint(c, 1, MMM_NCU_THREADS), 1024);
    /* 1.23 Gbyte: rounded to 10 Mbyte by ncu, inexact */
    cr_assert(mmm_ncu_value(c, 0, MMM_NCU_DRAM_READ_BYTES, &v));
    cr_expect_eq(v.exact, 0);
    cr_expect(fabs(v.d - 1.23e9) < 1);
    /* 0.000012345 Gbyte: 12345 bytes, every digit down to the byte shown */
    cr_expect_eq(qint(c, 1, MMM_NCU_DRAM_READ_BYTES), 12345);
    /* 1.5 ms: 1,500,000 ns but shown to 0.1 ms: inexact; 0.000001 ms = 1 ns */
    cr_assert(mmm_ncu_value(c, 0, MMM_NCU_DURATION_NS, &v));
    cr_expect_eq(v.exact, 0);
    cr_expect(fabs(v.d - 1.5e6) < 1e-6);
    cr_expect_eq(qint(c, 1, MMM_NCU_DURATION_NS), 1);
    mmm_ncu_free(c);
}

static void ncu_bad(const char *text, long line, const char *needle)
{
    mmm_ncu_capture *c = NULL;
    mmm_error err;
    mmm_error_clear(&err);
    cr_expect_lt(mmm_ncu_read_memory(&c, text, strlen(text), "bad.csv", &err), 0,
                 "accepted: %s", text);
    cr_expect_null(c);
    cr_expect_str_eq(err.file, "bad.csv");
    cr_expect_eq(err.line, line, "line %ld, want %ld: %s", err.line, line,
                 err.message);
    cr_expect(strstr(err.message, needle) != NULL, "'%s' lacks '%s'", err.message,
              needle);
}

#define ROW0 "\"0\",\"1\",\"a\",\"h\",\"k\",\"1\",\"7\",\"(32, 1, 1)\",\"(4, 1, 1)\",\"0\",\"9.0\","
#define UNITS "\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"byte\",\"\",\"\",\"\",\"ns\"\n"

Test(profile, ncu_bad_inputs)
{
    char buf[4096];
    ncu_bad("", 0, "not a capture of Nsight Compute's raw page");
    ncu_bad("hello\nworld\n", 0, "not a capture of Nsight Compute's raw page");
    {
        mmm_ncu_capture *c = NULL;
        mmm_error err;
        cr_expect_lt(mmm_ncu_read_memory(&c, "\"ID\"\n\"x\0y\"\n", 10, "bad.csv", &err), 0);
        cr_expect_eq(err.line, 2);
        cr_expect(strstr(err.message, "a NUL byte") != NULL, "%s", err.message);
    }
    ncu_bad("==PROF== Connected to process 7\n"
            "==ERROR== ERR_NVGPUCTRPERM - The user does not have permission\n",
            2, "ncu reported an error: ==ERROR== ERR_NVGPUCTRPERM");
    ncu_bad("\"ID\",\"Process ID\",\"Process Name\",\"Host Name\",\"Kernel Name\","
            "\"Context\",\"Stream\",\"Block Size\",\"Grid Size\",\"Device\",\"CC\","
            "\"Section Name\",\"Metric Name\",\"Metric Unit\",\"Metric Value\"\n",
            1, "this is ncu's details page");
    ncu_bad("\"ID\",\"Process ID\",\"Context\",\"Stream\"\n", 1,
            "the header has no column \"Kernel Name\"");
    /* the header and units only */
    snprintf(buf, sizeof buf, "%s%s", small_header, UNITS);
    ncu_bad(buf, 1, "the capture has no kernel launch");
    /* a row cut short, as a capture truncated while it was written */
    snprintf(buf, sizeof buf, "%s%s%s\"1\",\"2\",\"3\"\n\"1\",\"1\",\"a\"", small_header,
             UNITS, ROW0 "\"5\",\"4\",\"32\",\"\",\"1\"\n" ROW0);
    ncu_bad(buf, 4, "14 fields where the header (line 1) has 16");
    snprintf(buf, sizeof buf, "%s%s%s\"5\",\"4\",\"3", small_header, UNITS, ROW0);
    ncu_bad(buf, 3, "unterminated quoted field");
    snprintf(buf, sizeof buf, "%s%s%s\"5\",\"4\",\"3\"x,\"\",\"1\"\n", small_header,
             UNITS, ROW0);
    ncu_bad(buf, 3, "text after the closing quote");
    snprintf(buf, sizeof buf, "%s%s%s\"5\",\"abc\",\"32\",\"\",\"1\"\n", small_header,
             UNITS, ROW0);
    ncu_bad(buf, 3, "launch__grid_size of launch 0 is 'abc', not a number");
    snprintf(buf, sizeof buf, "%s%s%s\"5\",\"1,00\",\"32\",\"\",\"1\"\n", small_header,
             UNITS, ROW0);
    ncu_bad(buf, 3, "launch__grid_size of launch 0 is '1,00'");
    snprintf(buf, sizeof buf, "%s%s%s\"5\",\"4\",\"32\",\"\",\"1\"\n"
             "==ERROR== Failed to profile \"k\" in process 1\n",
             small_header, UNITS, ROW0);
    ncu_bad(buf, 4, "==ERROR== Failed to profile");
    snprintf(buf, sizeof buf, "%s%s\"x\"%s\"5\",\"4\",\"32\",\"\",\"1\"\n", small_header,
             UNITS, ROW0 + 3);
    ncu_bad(buf, 3, "\"ID\" is 'x', not a launch number");
}

Test(profile, ncu_metric_lists)
{
    const char *full = mmm_ncu_metric_list(MMM_NCU_SET_FULL);
    const char *launch = mmm_ncu_metric_list(MMM_NCU_SET_LAUNCH);
    static const char *need[] = {
        "launch__grid_size", "launch__block_size", "launch__registers_per_thread",
        "launch__shared_mem_per_block_static", "launch__shared_mem_per_block_dynamic",
        "smsp__warps_launched.sum", "smsp__inst_executed.sum",
        "smsp__thread_inst_executed.sum", "smsp__sass_data_bytes_mem_global_op_ld.sum",
        "smsp__sass_data_bytes_mem_global_op_st.sum"};
    for (size_t i = 0; i < sizeof need / sizeof need[0]; i++)
        cr_expect(strstr(full, need[i]) != NULL, "%s not asked for", need[i]);
    cr_expect_eq(strncmp(full, launch, strlen(launch)), 0);
    cr_expect_null(strstr(launch, "smsp__"));
    cr_expect_null(strchr(full, ' '));
    /* the metrics ncu refused on the H200 (call1/metrics-dropped.txt) */
    cr_expect_null(strstr(full, "op_barrier"));
    cr_expect_null(strstr(full, "op_bar.sum"));
    cr_expect_str_eq(mmm_ncu_quantity_name(MMM_NCU_WARP_INST), "warp_instructions");
    cr_expect_null(mmm_ncu_quantity_name(MMM_NCU_NQUANTITIES));
}

/* The fixtures of tests/data/profile/fixtures/ (captured on the H200 by
 * hand, README.md there): kernel names mangled, every column of --page
 * raw, instance values with --print-metric-instances details. */
Test(profile, ncu_fixtures)
{
    /* scan: _Z11scan_blocksILi64ELi1EEvPKiPiS2_, _Z9scan_sumsPii,
     * _Z8scan_addILi64ELi1EEvPiPKi */
    mmm_profile *p = NULL;
    char dir[256], pts[512];
    mmm_tmpdir_make(dir, sizeof dir, "mmm_profile");
    snprintf(pts, sizeof pts, "%s/P.csv", dir);
    write_file(pts, "ncu\n" DATA "/fixtures/scan_mangled.csv\n");
    p = build(pts, NULL);
    mmm_program *prog = load_text(mmm_profile_xml(p));
    cr_assert_eq(prog->nkernels, 3);
    cr_expect_str_eq(prog->kernels[0].id, "scan_blocks");
    cr_expect_str_eq(prog->kernels[1].id, "scan_sums");
    cr_expect_str_eq(prog->kernels[2].id, "scan_add");
    cr_expect_eq(prog->nedges, 2);
    mmm_program_free(prog);
    mmm_profile_free(p);

    /* block_hist<64, 1>: 131,072 blocks of 64 threads (262,144 warps),
     * "BAR: 524,288" among its instructions per opcode: 2 barriers on a
     * warp's path; "1.02 (0: 1.02)" Kbyte/block of shared memory: 1020,
     * rounded by ncu */
    mmm_ncu_capture *c = read_capture(DATA "/fixtures/block_hist_instances.csv");
    cr_assert_eq(mmm_ncu_count(c), 2);
    cr_expect_eq(qint(c, 0, MMM_NCU_BARRIER_INST), 524288);
    cr_expect_eq(qint(c, 0, MMM_NCU_WARPS), 262144);
    cr_expect_str_eq(mmm_ncu_source(c, MMM_NCU_BARRIER_INST),
                     "sass__inst_executed_per_opcode[BAR]");
    mmm_value v;
    cr_assert(mmm_ncu_value(c, 0, MMM_NCU_SHARED_STATIC, &v));
    cr_expect_eq(v.exact, 0);
    cr_expect_eq(v.d, 1020);
    mmm_ncu_free(c);
    write_file(pts, "ncu\n" DATA "/fixtures/block_hist_instances.csv\n");
    p = build(pts, NULL);
    cr_expect(strstr(mmm_profile_xml(p), "barriers=\"2\"") != NULL);
    cr_expect(strstr(mmm_profile_xml(p), "APPROXIMATE shared_bytes: ncu printed its value "
                                         "rounded") != NULL);
    mmm_profile_free(p);
    /* without instances in the capture, no barriers (the fixture written
     * in ncu's default units has none) */
    c = read_capture(DATA "/fixtures/reduce_auto.csv");
    cr_expect_eq(mmm_ncu_value(c, 0, MMM_NCU_BARRIER_INST, &v), 0);
    mmm_ncu_free(c);

    /* all 467 columns of the raw page */
    c = read_capture(DATA "/fixtures/transpose_fullwidth.csv");
    cr_assert_eq(mmm_ncu_count(c), 1);
    cr_expect_eq(qint(c, 0, MMM_NCU_BLOCKS), 65536);
    cr_expect_eq(qint(c, 0, MMM_NCU_THREADS), 64);
    mmm_ncu_free(c);

    /* the same launches in ncu's default units and in base units */
    mmm_ncu_capture *a = read_capture(DATA "/fixtures/reduce_auto.csv"),
                    *b = read_capture(DATA "/fixtures/reduce_base.csv");
    cr_assert_eq(mmm_ncu_count(a), mmm_ncu_count(b));
    for (size_t i = 0; i < mmm_ncu_count(a); i++)
        for (int q = 0; q < MMM_NCU_NQUANTITIES; q++) {
            mmm_value x, y;
            int hx = mmm_ncu_value(a, i, (mmm_ncu_quantity)q, &x),
                hy = mmm_ncu_value(b, i, (mmm_ncu_quantity)q, &y);
            cr_expect_eq(hx, hy, "launch %zu: %s", i, mmm_ncu_quantity_name(q));
            if (hx && hy && y.exact && x.exact)
                cr_expect(x.num == y.num && x.den == y.den, "launch %zu: %s %.17g, %.17g",
                          i, mmm_ncu_quantity_name(q), x.d, y.d);
        }
    mmm_ncu_free(a);
    mmm_ncu_free(b);
    mmm_tmpdir_remove(dir);
}

/* --print-metric-instances details in ncu's default units: a cell with
 * instances is scaled number by number, not by its column's unit.  The
 * five launches of fixtures/reduce_matmul_instances.csv (call3's
 * validate.raw-instances.csv, IDs 0, 1, 14, 15, 78), whose static shared
 * memory is "256 (0: 256)", "4.10 (0: 4.10)", "512 (0: 512)", "4.10 (0:
 * 4.10)" and "8.19 (0: 8.19)" under "Kbyte/block", where the plain export
 * of the same report has 0.256000, 4.096000, 0.512000, 4.096000 and
 * 8.192000 Kbyte/block: 256 bytes (4*64 floats of reduce_partial<64, 1>),
 * 4,096 (reduce_final's 1,024 floats, rounded to 4,100), 512, and mm_tiled
 * <32, 1>'s two 32x32 tiles of floats, 8,192 (rounded to 8,190). */
Test(profile, ncu_instances_units)
{
    mmm_ncu_capture *c = read_capture(DATA "/fixtures/reduce_matmul_instances.csv");
    mmm_value v;
    cr_assert_eq(mmm_ncu_count(c), 5);
    cr_expect_eq(qint(c, 0, MMM_NCU_SHARED_STATIC), 256);
    cr_expect_eq(qint(c, 2, MMM_NCU_SHARED_STATIC), 512);
    static const size_t rounded[] = {1, 3, 4};
    static const double want[] = {4100, 4100, 8190};
    for (size_t i = 0; i < 3; i++) {
        cr_assert(mmm_ncu_value(c, rounded[i], MMM_NCU_SHARED_STATIC, &v));
        cr_expect_eq(v.exact, 0, "launch %zu", rounded[i]);
        cr_expect_eq(v.d, want[i], "launch %zu: %.17g", rounded[i], v.d);
    }
    /* "0 (0: 0)" under "byte/block"; the counts with instances ("16,384
     * (0: 16,384)" blocks) and the instance BAR of the opcodes: 229,376 =
     * 32,768 warps x 7 barriers of reduce_partial<64, 1> */
    cr_expect_eq(qint(c, 0, MMM_NCU_SHARED_DYNAMIC), 0);
    cr_expect_eq(qint(c, 0, MMM_NCU_BLOCKS), 16384);
    cr_expect_eq(qint(c, 4, MMM_NCU_BLOCKS), 1024);
    cr_expect_eq(qint(c, 0, MMM_NCU_REGISTERS), 16);
    cr_expect_eq(qint(c, 0, MMM_NCU_BARRIER_INST), 229376);
    /* the plain cells of the same file keep their column's unit:
     * smsp__sass_data_bytes_mem_global_op_ld.sum "0.004194" Gbyte, 4,194,304
     * bytes rounded */
    cr_assert(mmm_ncu_value(c, 0, MMM_NCU_LOAD_BYTES, &v));
    cr_expect_eq(v.exact, 0);
    cr_expect_eq(v.d, 4194000);
    mmm_ncu_free(c);

    /* made-up cells: a cell with instances and no decimal point is in the
     * base unit whatever the column's unit; with decimals, in the column's
     * unit, rounded; a plain cell always in the column's unit (exact when
     * it shows the digits down to the base unit) */
    static const char head[] =
        "\"ID\",\"Process ID\",\"Process Name\",\"Host Name\",\"Kernel Name\","
        "\"Context\",\"Stream\",\"Block Size\",\"Grid Size\",\"Device\",\"CC\","
        "\"launch__shared_mem_per_block_static\",\"launch__shared_mem_per_block_dynamic\"\n"
        "\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\","
        "\"Kbyte/block\",\"Kbyte/block\"\n";
    static const struct {
        const char *st, *dy;
        double s, d;
        int exact;
    } rows[] = {
        {"1,000 (0: 1,000)", "999 (999)", 1000, 999, 1},
        {"2.50 (0: 2.50)", "0.256000", 2500, 256, 0},
        {"256", "3", 256000, 3000, 0},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        char text[2048];
        mmm_error err;
        snprintf(text, sizeof text,
                 "%s\"0\",\"1\",\"p\",\"h\",\"k()\",\"1\",\"7\",\"(64, 1, 1)\","
                 "\"(2, 1, 1)\",\"0\",\"9.0\",\"%s\",\"%s\"\n",
                 head, rows[i].st, rows[i].dy);
        c = NULL;
        cr_assert_eq(mmm_ncu_read_memory(&c, text, strlen(text), "m.csv", &err), 0, "%s",
                     err.message);
        mmm_value a, b;
        cr_assert(mmm_ncu_value(c, 0, MMM_NCU_SHARED_STATIC, &a));
        cr_assert(mmm_ncu_value(c, 0, MMM_NCU_SHARED_DYNAMIC, &b));
        cr_expect_eq(a.d, rows[i].s, "row %zu: %.17g", i, a.d);
        cr_expect_eq(b.d, rows[i].d, "row %zu: %.17g", i, b.d);
        cr_expect_eq(a.exact, rows[i].exact, "row %zu", i);
        mmm_ncu_free(c);
    }
}

/* Kernel names into kernel ids (through the build of one capture). */
Test(profile, kernel_names)
{
    static const struct {
        const char *name, *id;
    } cases[] = {
        {"void sgemm_k<16>(const float *, float *, int)", "sgemm_k"},
        {"reduce_final(const float *, int, float *)", "reduce_final"},
        {"ampere_sgemm_128x64_nn", "ampere_sgemm_128x64_nn"},
        {"void ns::inner::k<(int)4, float>(T1 *)", "ns::inner::k"},
        {"void (anonymous namespace)::kern<int>(int *)", "(anonymousnamespace)::kern"},
        {"std::enable_if<true, void>::type f<1>(int)", "f"},
        {"_Z11scan_blocksILi64ELi1EEvPKiPiS2_", "scan_blocks"},
        {"_ZN2ns4kernIiEEvPi", "ns::kern"},
    };
    char dir[256], cap[512], pts[512];
    mmm_tmpdir_make(dir, sizeof dir, "mmm_profile");
    snprintf(cap, sizeof cap, "%s/c.csv", dir);
    snprintf(pts, sizeof pts, "%s/P.csv", dir);
    write_file(pts, "ncu\nc.csv\n");
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char text[2048];
        snprintf(text, sizeof text,
                 "\"ID\",\"Process ID\",\"Process Name\",\"Host Name\",\"Kernel Name\","
                 "\"Context\",\"Stream\",\"Block Size\",\"Grid Size\",\"Device\",\"CC\","
                 "\"smsp__inst_executed.sum\",\"smsp__thread_inst_executed.sum\","
                 "\"smsp__warps_launched.sum\",\"smsp__sass_data_bytes_mem_global_op_ld.sum\","
                 "\"smsp__sass_data_bytes_mem_global_op_st.sum\"\n"
                 "\"0\",\"1\",\"p\",\"h\",\"%s\",\"1\",\"7\",\"(32, 1, 1)\","
                 "\"(2, 1, 1)\",\"0\",\"9.0\",\"20\",\"640\",\"2\",\"256\",\"0\"\n",
                 cases[i].name);
        write_file(cap, text);
        mmm_profile *p = build(pts, NULL);
        mmm_program *prog = load_text(mmm_profile_xml(p));
        cr_expect_str_eq(prog->kernels[0].id, cases[i].id, "%s", cases[i].name);
        mmm_program_free(prog);
        mmm_profile_free(p);
    }
    mmm_tmpdir_remove(dir);
}

/* ------------------------------------------------------------------ */
/* Expressions through points                                          */

typedef int64_t (*f2)(int64_t, int64_t);
static int64_t e_poly(int64_t n, int64_t s) { return 3 * n * s + 2; }
static int64_t e_ceil(int64_t n, int64_t s) { (void)s; return (n + 255) / 256; }
static int64_t e_log(int64_t n, int64_t s) { (void)s; int64_t l = 0; while ((1 << l) < n) l++; return n * l; }
static int64_t e_quot(int64_t n, int64_t s) { return 1048576 / (n * s); }
static int64_t e_const(int64_t n, int64_t s) { (void)n; (void)s; return 7; }
static int64_t e_sq(int64_t n, int64_t s) { (void)s; return n * n / 4 + 1; }
static int64_t e_mix(int64_t n, int64_t s) { return 2 * n + 5 * s - 1; }

/* An exact rational 192/n + 2*s: a value that is not an integer. */
static mmm_value e_frac(int64_t n, int64_t s) { return mmm_value_ratio(192 + 2 * s * n, n); }

static void fit_grid(const int64_t *nv, size_t nn, const int64_t *sv, size_t ns,
                     mmm_value (*fv)(int64_t, int64_t), f2 fi,
                     mmm_profile_fit_result *res)
{
    static const char *const names[] = {"n", "s"};
    mmm_value x[512], y[256];
    size_t k = 0;
    mmm_error err;
    for (size_t i = 0; i < nn; i++)
        for (size_t j = 0; j < ns; j++, k++) {
            x[2 * k] = mmm_value_int(nv[i]);
            x[2 * k + 1] = mmm_value_int(sv[j]);
            y[k] = fv ? fv(nv[i], sv[j]) : mmm_value_int(fi(nv[i], sv[j]));
        }
    cr_assert_eq(mmm_profile_fit(names, 2, x, y, k, res, &err), 0, "%s", err.message);
}

/* The text, evaluated at (n, s) by the expression language. */
static mmm_value eval_text(const char *text, int64_t n, int64_t s)
{
    char xml[2048];
    snprintf(xml, sizeof xml,
             "<program name='t'><param name='n' value='%lld'/><param name='s' "
             "value='%lld'/><param name='v' value='%s'/></program>",
             (long long)n, (long long)s, text);
    mmm_program *p = load_text(xml);
    mmm_instance *inst = NULL;
    mmm_error err;
    cr_assert_eq(mmm_instance_new(&inst, p, &err), 0);
    cr_assert_eq(mmm_instance_eval(inst, NULL, 0, &err), 0, "%s", err.message);
    mmm_value v = inst->values[mmm_program_find_param(p, "v")];
    mmm_instance_free(inst);
    mmm_program_free(p);
    return v;
}

/* Known expressions come back exactly, and hold beyond the points. */
Test(profile, fit_exact)
{
    static const int64_t n[] = {64, 128, 256, 512, 1024}, s[] = {1, 2, 4, 8};
    static const int64_t n3[] = {100, 300, 700, 1000, 1500, 3000};
    struct {
        f2 f;
        const int64_t *n;
        size_t nn;
        const char *text;
    } cases[] = {
        {e_poly, n, 5, "3*n*s + 2"},
        {e_ceil, n3, 6, "ceil(n/256)"},
        {e_log, n, 5, "n*log2(n)"},
        {e_quot, n, 5, "1048576/(n*s)"},
        {e_const, n, 5, "7"},
        {e_sq, n, 5, "n^2/4 + 1"},
        {e_mix, n, 5, "2*n + 5*s - 1"},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        mmm_profile_fit_result r;
        fit_grid(cases[c].n, cases[c].nn, s, 4, NULL, cases[c].f, &r);
        cr_expect_eq(r.exact, 1, "%s: not exact (%s)", cases[c].text, r.text);
        cr_expect_str_eq(r.text, cases[c].text);
        cr_expect_eq(r.max_rel_error, 0);
        /* beyond the grid: n = 2048 (4000 for the ceiling), s = 16 */
        int64_t xn = cases[c].n == n3 ? 4000 : 2048, xs = cases[c].f == e_quot ? 2 : 16;
        mmm_value v = eval_text(r.text, xn, xs);
        cr_expect(v.exact && v.den == 1 && v.num == cases[c].f(xn, xs),
                  "%s at n=%lld, s=%lld: %.17g, want %lld", r.text, (long long)xn,
                  (long long)xs, v.d, (long long)cases[c].f(xn, xs));
    }
    /* a rational value */
    mmm_profile_fit_result r;
    fit_grid(n, 5, s, 4, e_frac, NULL, &r);
    cr_expect_eq(r.exact, 1);
    cr_expect_str_eq(r.text, "192/n + 2*s");
    /* one point: its value */
    static const char *const names[] = {"n"};
    mmm_value x1 = mmm_value_int(5), y1 = mmm_value_ratio(7, 3);
    mmm_error err;
    cr_assert_eq(mmm_profile_fit(names, 1, &x1, &y1, 1, &r, &err), 0);
    cr_expect_str_eq(r.text, "7/3");
    cr_expect_eq(r.exact, 1);
}

/* Noisy points: an approximation, said to be one, with its error. */
Test(profile, fit_noisy)
{
    static const char *const names[] = {"n"};
    mmm_value x[16], y[16];
    double noise[16] = {0.01, -0.02, 0.015, -0.005, 0.02, -0.01, 0.0, 0.012,
                        -0.018, 0.007, -0.003, 0.019, -0.02, 0.004, 0.011, -0.016};
    mmm_profile_fit_result r;
    mmm_error err;
    for (int i = 0; i < 16; i++) {
        double n = 100.0 * (i + 1);
        x[i] = mmm_value_int(100 * (i + 1));
        y[i] = mmm_value_double((3 * n + 50) * (1 + noise[i]));
        y[i].exact = 0;
    }
    cr_assert_eq(mmm_profile_fit(names, 1, x, y, 16, &r, &err), 0);
    cr_expect_eq(r.exact, 0, "%s", r.text);
    cr_expect_gt(r.max_rel_error, 0.005);
    cr_expect_lt(r.max_rel_error, 0.05, "%s: %g", r.text, r.max_rel_error);
    /* the same values rounded to integers: exact arithmetic, no exact
     * expression */
    for (int i = 0; i < 16; i++)
        y[i] = mmm_value_int((int64_t)llround(y[i].d));
    cr_assert_eq(mmm_profile_fit(names, 1, x, y, 16, &r, &err), 0);
    cr_expect_eq(r.exact, 0, "%s", r.text);
    cr_expect_lt(r.max_rel_error, 0.05);
    cr_expect_lt(mmm_profile_fit(names, 1, x, y, 0, &r, &err), 0);
}

/* ------------------------------------------------------------------ */
/* The build                                                           */

/* 35 points (tpb = 64 .. 1024, k = 1 .. 64) of the reduction of 2^20
 * words: reduce_partial<tpb, k> then reduce_final, each point a capture. */
Test(profile, build_reduce_parametric)
{
    mmm_profile *p = build(DATA "/reduce/POINTS-raw.csv", NULL);
    const char *xml = mmm_profile_xml(p);
    cr_expect_eq(mmm_profile_npoints(p), 35);
    cr_expect_eq(mmm_profile_nkernels(p), 2);
    /* the template instances are one kernel */
    cr_expect(strstr(xml, "<kernel id=\"reduce_partial\"") != NULL);
    cr_expect(strstr(xml, "<kernel id=\"reduce_final\"") != NULL);
    cr_expect(strstr(xml, "<edge from=\"reduce_partial\" to=\"reduce_final\"/>") != NULL);
    /* the launch configuration and the counts that follow one formula */
    cr_expect(strstr(xml, "blocks=\"1048576/(tpb*k)\" threads=\"tpb\"") != NULL, "%s", xml);
    cr_expect(strstr(xml, "reads=\"k\"") != NULL);
    cr_expect(strstr(xml, "shared_bytes=\"4*tpb\"") != NULL);
    /* those that do not (the registers the compiler chose): marked */
    cr_expect(strstr(xml, "APPROXIMATE registers") != NULL);
    cr_expect_gt(mmm_profile_napprox(p), 0);
    /* every attribute comes with the metric it was read from */
    cr_expect(strstr(xml, "work = smsp__thread_inst_executed.sum / blocks") != NULL);
    cr_expect(strstr(xml, "span = smsp__inst_executed.sum / smsp__warps_launched.sum") != NULL);

    /* evaluated at two points, the values of the captures (the CSV cells):
     * tpb=64, k=1: reduce_partial 16,384 blocks, 56,721,408 thread and
     * 1,867,776 warp instructions over 32,768 warps; reduce_final 146,436;
     * tpb=256, k=8: 512 blocks, 10,488,832 and 330,752 over 4,096 warps */
    static const char *const names[] = {"tpb", "k"};
    struct {
        int64_t v[2], blocks, threads, tinst, winst, warps, final_work;
    } at[] = {{{64, 1}, 16384, 64, 56721408, 1867776, 32768, 146436},
              {{256, 8}, 512, 256, 10488832, 330752, 4096, 90628}};
    mmm_program *prog = load_text(xml);
    for (int i = 0; i < 2; i++) {
        mmm_instance *inst = eval_at(prog, names, at[i].v, 2);
        const mmm_class_val *c = class_of(inst, "reduce_partial");
        cr_expect_eq(c->count, at[i].blocks);
        cr_expect_eq(c->threads, at[i].threads);
        cr_expect_eq(c->work, (double)at[i].tinst / (double)at[i].blocks);
        cr_expect_eq(c->span, (double)at[i].winst / (double)at[i].warps);
        cr_expect_eq(attr_of(inst, "reduce_partial", "shared_bytes"), 4 * at[i].threads);
        cr_expect_eq(class_of(inst, "reduce_final")->count, 1);
        mmm_instance_free(inst);
    }
    mmm_program_free(prog);
    mmm_profile_free(p);
}

/* The same captures in ncu's default units and in base units: the same
 * DAG. */
Test(profile, build_units_agree)
{
    mmm_profile *a = build(DATA "/reduce/POINTS-raw.csv", NULL);
    mmm_profile *b = build(DATA "/reduce/POINTS-raw-base.csv", NULL);
    const char *xa = strstr(mmm_profile_xml(a), "<kernel"),
               *xb = strstr(mmm_profile_xml(b), "<kernel");
    /* the kernel lines, not the comments (they name the files) */
    char la[4096], lb[4096];
    size_t na = strcspn(xa, "\n"), nb = strcspn(xb, "\n");
    cr_assert_lt(na, sizeof la);
    memcpy(la, xa, na);
    la[na] = '\0';
    memcpy(lb, xb, nb < sizeof lb ? nb : sizeof lb - 1);
    lb[nb < sizeof lb ? nb : sizeof lb - 1] = '\0';
    cr_expect_str_eq(la, lb);
    mmm_profile_free(a);
    mmm_profile_free(b);
}

/* 22 launches of pr_sweep (11 of each of two configurations): the whole
 * capture, and a list of launches with the first of each configuration
 * sampled (as mmm profile run captures): two kernels of 11 launches. */
Test(profile, build_launch_grouping_and_samples)
{
    char dir[256], path[512];
    mmm_tmpdir_make(dir, sizeof dir, "mmm_profile");
    snprintf(path, sizeof path, "%s/full.csv", dir);
    write_file(path, "ncu\n" DATA "/pagerank/repeat-full.csv\n");
    mmm_profile *full = build(path, NULL);
    snprintf(path, sizeof path, "%s/split.csv", dir);
    write_file(path, "ncu\n" DATA "/pagerank/repeat-sample.csv\n" DATA
                     "/pagerank/repeat-launches.csv\n");
    mmm_profile *split = build(path, NULL);
    for (int w = 0; w < 2; w++) {
        mmm_profile *p = w ? split : full;
        const char *xml = mmm_profile_xml(p);
        cr_expect_eq(mmm_profile_nkernels(p), 2, "%s", xml);
        mmm_program *prog = load_text(xml);
        mmm_instance *inst = eval_at(prog, NULL, NULL, 0);
        cr_assert_eq(prog->nkernels, 2);
        cr_expect_str_eq(prog->kernels[0].id, "pr_sweep");
        cr_expect_str_eq(prog->kernels[1].id, "pr_sweep#2");
        cr_expect_eq(inst->kernels[0].repeat, 11);
        cr_expect_eq(inst->kernels[1].repeat, 11);
        /* 32,768 and 16,384 blocks of 32 threads: 127,926,272 and
         * 121,110,528 thread instructions in the first launch of each */
        cr_expect_eq(class_of(inst, "pr_sweep")->count, 32768);
        cr_expect_eq(class_of(inst, "pr_sweep")->work, 127926272.0 / 32768);
        cr_expect_eq(class_of(inst, "pr_sweep#2")->work, 121110528.0 / 16384);
        cr_expect_eq(prog->nedges, 1);
        mmm_instance_free(inst);
        mmm_program_free(prog);
    }
    cr_expect(strstr(mmm_profile_xml(split), "sampled launch") != NULL);
    int saw = 0;
    for (size_t i = 0; i < mmm_profile_nnotes(split); i++)
        saw |= strstr(mmm_profile_note(split, i), "the costs of 22 launches") != NULL;
    cr_expect(saw);
    mmm_profile_free(full);
    mmm_profile_free(split);
    mmm_tmpdir_remove(dir);
}

Test(profile, build_errors)
{
    char dir[256], path[512], cap[512];
    mmm_tmpdir_make(dir, sizeof dir, "mmm_profile");
    snprintf(path, sizeof path, "%s/P.csv", dir);
    /* two points that launch different kernels */
    write_file(path, "ncu,n\n" DATA "/reduce/raw-tpb64-k1.csv,1\n" DATA
                     "/pagerank/repeat-full.csv,2\n");
    build_fails(path, NULL, "P.csv", 3, "the point n=2 does not launch what the first point does");
    /* a launch list without a sample of its launches' configurations */
    write_file(path, "ncu\n" DATA "/pagerank/repeat-launches.csv\n");
    build_fails(path, NULL, "repeat-launches.csv", 3, "has no costs measured");
    /* POINTS.csv itself */
    write_file(path, "file,n\nx,1\n");
    build_fails(path, NULL, "P.csv", 1, "no column 'ncu'");
    write_file(path, "ncu,2n\nx,1\n");
    build_fails(path, NULL, "P.csv", 1, "column '2n' is not a parameter name");
    write_file(path, "ncu,n\n" DATA "/reduce/raw-tpb64-k1.csv,abc\n");
    build_fails(path, NULL, "P.csv", 2, "parameter 'n': 'abc' is not a number");
    write_file(path, "ncu,n\n");
    build_fails(path, NULL, "P.csv", 0, "no rows");
    write_file(path, "ncu,n\nmissing.csv,1\n");
    build_fails(path, NULL, "missing.csv", 0, "cannot");
    /* a capture cut in the middle of a row */
    snprintf(cap, sizeof cap, "%s/cut.csv", dir);
    {
        size_t len;
        char *t = slurp(DATA "/reduce/raw-tpb64-k1.csv", &len);
        t[len - 40] = '\0';
        write_file(cap, t);
        free(t);
    }
    write_file(path, "ncu\ncut.csv\n");
    build_fails(path, NULL, "cut.csv", 4, "a truncated or damaged capture");
    mmm_tmpdir_remove(dir);
}

/* ------------------------------------------------------------------ */
/* Skeletons                                                           */

static const char reduce_skeleton[] =
    "<?xml version=\"1.0\"?>\n"
    "<!-- the reduction of 2^20 words -->\n"
    "<program name=\"reduce\">\n"
    "  <param name=\"tpb\" value=\"256\"/>\n"
    "  <param name=\"k\" value=\"4\"/>\n"
    "  <param name=\"U\" value=\"400\"/>\n"
    "  <kernel id=\"reduce_partial\" blocks=\"2^20/(tpb*k)\" threads=\"tpb\"\n"
    "          work=\"?\" span=\" ? \" reads=\"?\" writes=\"?\" registers=\"?\"\n"
    "          shared_bytes=\"?\" rounds=\"1\" chain=\"k + 6\"/>\n"
    "  <kernel id=\"reduce_final\" blocks=\"1\" threads=\"1024\" work=\"?\" span=\"?\"\n"
    "          reads=\"?\" writes=\"1/1024\"/>\n"
    "  <edge from=\"reduce_partial\" to=\"reduce_final\"/>\n"
    "</program>\n";

Test(profile, skeleton_fill)
{
    char dir[256], skel[512];
    mmm_tmpdir_make(dir, sizeof dir, "mmm_profile");
    snprintf(skel, sizeof skel, "%s/skel.xml", dir);
    write_file(skel, reduce_skeleton);
    /* plain analyze refuses it, naming mmm profile build */
    {
        mmm_program *p = NULL;
        mmm_error err;
        cr_expect_lt(mmm_program_load_file(&p, skel, NULL, &err), 0);
        cr_expect_eq(err.line, 7);
        cr_expect(strstr(err.message, "'?' is a cost left to be measured") != NULL, "%s",
                  err.message);
        cr_expect(strstr(err.message, "mmm profile build") != NULL);
    }
    mmm_profile *p = build(DATA "/reduce/POINTS-raw.csv", skel);
    const char *xml = mmm_profile_xml(p);
    /* the user's text is kept: the comment, the rounds, the chain (which
     * no counter measures), the writes given */
    cr_expect(strstr(xml, "<!-- the reduction of 2^20 words -->") != NULL);
    cr_expect(strstr(xml, "rounds=\"1\"") != NULL);
    cr_expect(strstr(xml, "chain=\"k + 6\"") != NULL);
    cr_expect(strstr(xml, "writes=\"1/1024\"") != NULL);
    cr_expect(strstr(xml, "blocks=\"2^20/(tpb*k)\"") != NULL);
    cr_expect_null(strstr(xml, "=\"?\""));
    cr_expect_null(strstr(xml, "=\" ? \""));
    cr_expect(strstr(xml, "reads=\"k\"") != NULL);
    cr_expect(strstr(xml, "shared_bytes=\"4*tpb\"") != NULL);
    /* the values at a point: 3,462 = 56,721,408 / 16,384; 57 = 1,867,776 /
     * 32,768 (tpb=64, k=1) */
    static const char *const names[] = {"tpb", "k"};
    static const int64_t v[] = {64, 1};
    mmm_program *prog = load_text(xml);
    mmm_instance *inst = eval_at(prog, names, v, 2);
    cr_expect_eq(class_of(inst, "reduce_partial")->work, 3462);
    cr_expect_eq(class_of(inst, "reduce_partial")->span, 57);
    /* reduce_final's loads: 512 warp-level, 128 bytes each, over 1024
     * threads: 16 words (its work has no formula: approximate) */
    cr_expect_eq(class_of(inst, "reduce_final")->reads, 16);
    cr_expect(strstr(xml, "APPROXIMATE work") != NULL);
    mmm_instance_free(inst);
    mmm_program_free(prog);
    mmm_profile_free(p);
    mmm_tmpdir_remove(dir);
}

Test(profile, skeleton_errors)
{
    char dir[256], skel[512], pts[512];
    mmm_tmpdir_make(dir, sizeof dir, "mmm_profile");
    snprintf(skel, sizeof skel, "%s/skel.xml", dir);
    snprintf(pts, sizeof pts, "%s/P.csv", dir);
    write_file(pts, "ncu,tpb,k\n" DATA "/reduce/raw-tpb64-k1.csv,64,1\n" DATA
                    "/reduce/raw-tpb128-k2.csv,128,2\n");
    /* the skeleton lacks the second launch */
    write_file(skel, "<program name='r'><param name='tpb' value='1'/><param name='k' value='1'/>\n"
                     "<kernel id='reduce_partial' blocks='2^20/(tpb*k)' threads='tpb'\n"
                     " work='?' span='?' reads='0' writes='0'/></program>\n");
    build_fails(pts, skel, "raw-tpb64-k1.csv", 4,
                "launch 2 of the point tpb=64, k=1 ('reduce_final') has no kernel in the skeleton");
    /* everything on one line, after the XML declaration: the comments go
     * before the elements, the declaration stays first */
    write_file(skel, "<?xml version='1.0'?><program name='r'><param name='tpb' value='1'/>"
                     "<param name='k' value='1'/><kernel id='reduce_partial' "
                     "blocks='2^20/(tpb*k)' threads='tpb' work='?' span='?' reads='0' "
                     "writes='0'/><kernel id='reduce_final' blocks='1' threads='1024' "
                     "work='?' span='?' reads='0' writes='0'/></program>");
    {
        mmm_profile *p = build(pts, skel);
        static const char head[] = "<?xml version='1.0'?>\n<!-- Filled";
        cr_expect_eq(strncmp(mmm_profile_xml(p), head, sizeof head - 1), 0,
                     "%s", mmm_profile_xml(p));
        mmm_profile_free(p);
    }
    /* one launch more than the captures */
    write_file(skel, "<program name='r'><param name='tpb' value='1'/><param name='k' value='1'/>\n"
                     "<kernel id='reduce_partial' blocks='2^20/(tpb*k)' threads='tpb'\n"
                     " work='?' span='?' reads='0' writes='0'/>\n"
                     "<kernel id='reduce_final' repeat='2' blocks='1' threads='1024'\n"
                     " work='?' span='?' reads='0' writes='0'/></program>\n");
    build_fails(pts, skel, "skel.xml", 4, "kernel 'reduce_final', launch 2 of its 2, has no launch");
    /* another order */
    write_file(skel, "<program name='r'><param name='tpb' value='1'/><param name='k' value='1'/>\n"
                     "<kernel id='reduce_final' blocks='1' threads='1024'\n"
                     " work='?' span='?' reads='0' writes='0'/>\n"
                     "<kernel id='reduce_partial' blocks='2^20/(tpb*k)' threads='tpb'\n"
                     " work='?' span='?' reads='0' writes='0'/></program>\n");
    build_fails(pts, skel, "raw-tpb64-k1.csv", 3,
                "is 'reduce_partial', where the skeleton");
    /* blocks that are not the launch's */
    write_file(skel, "<program name='r'><param name='tpb' value='1'/><param name='k' value='1'/>\n"
                     "<kernel id='reduce_partial' blocks='2^19/(tpb*k)' threads='tpb'\n"
                     " work='?' span='?' reads='0' writes='0'/>\n"
                     "<kernel id='reduce_final' blocks='1' threads='1024'\n"
                     " work='?' span='?' reads='0' writes='0'/></program>\n");
    build_fails(pts, skel, "raw-tpb64-k1.csv", 3, "has 16384 blocks of 64 threads, where the skeleton");
    /* what cannot be measured */
    write_file(skel, "<program name='r'><param name='tpb' value='1'/><param name='k' value='1'/>\n"
                     "<kernel id='reduce_partial' blocks='?' threads='tpb'\n"
                     " work='?' span='?' reads='0' writes='0'/></program>\n");
    build_fails(pts, skel, "skel.xml", 2, "blocks=\"?\" cannot be measured");
    write_file(skel, "<program name='r'><param name='tpb' value='1'/><param name='k' value='1'/>\n"
                     "<kernel id='reduce_partial' threads='tpb'>\n"
                     " <blocks count='1' work='?' span='1' reads='0' writes='0'/></kernel></program>\n");
    build_fails(pts, skel, "skel.xml", 3, "<blocks> work=\"?\"");
    write_file(skel, "<program name='r'><param name='tpb' value='?'/></program>\n");
    build_fails(pts, skel, "skel.xml", 1, "only a kernel's costs can be left to be measured");
    /* a POINTS column the skeleton does not declare */
    write_file(skel, "<program name='r'><param name='tpb' value='1'/>\n"
                     "<kernel id='reduce_partial' blocks='1' threads='1'\n"
                     " work='?' span='?' reads='0' writes='0'/></program>\n");
    build_fails(pts, skel, "P.csv", 1, "column 'k' names no parameter of the skeleton");
    /* the loader's own errors, at the skeleton's lines */
    write_file(skel, "<program name='r'><param name='tpb' value='1'/><param name='k' value='1'/>\n"
                     "<kernel id='reduce_partial' blocks='2^20/(tpb*kk)' threads='tpb'\n"
                     " work='?' span='?' reads='0' writes='0'/></program>\n");
    build_fails(pts, skel, "skel.xml", 2, "unknown parameter 'kk'");
    mmm_tmpdir_remove(dir);
}

/* A kernel whose launches differ (a halving loop): its index enters the
 * expressions.  Hand-made captures in ncu's format: at n = 2^m, the
 * kernel halve launched m - 1 times, launch i with n/2^i blocks of 32
 * threads, 10 + 3 i instructions per thread. */
Test(profile, skeleton_index)
{
    char dir[256], path[512], pts[512];
    mmm_tmpdir_make(dir, sizeof dir, "mmm_profile");
    snprintf(pts, sizeof pts, "%s/P.csv", dir);
    FILE *pf = fopen(pts, "w");
    cr_assert_not_null(pf);
    fprintf(pf, "ncu,n\n");
    for (int m = 6; m <= 9; m++) {
        int64_t n = (int64_t)1 << m;
        snprintf(path, sizeof path, "%s/n%lld.csv", dir, (long long)n);
        FILE *f = fopen(path, "w");
        cr_assert_not_null(f);
        fprintf(f, "\"ID\",\"Process ID\",\"Process Name\",\"Host Name\",\"Kernel Name\","
                   "\"Context\",\"Stream\",\"Block Size\",\"Grid Size\",\"Device\",\"CC\","
                   "\"launch__block_size\",\"launch__grid_size\","
                   "\"smsp__inst_executed.sum\",\"smsp__thread_inst_executed.sum\","
                   "\"smsp__warps_launched.sum\","
                   "\"smsp__sass_data_bytes_mem_global_op_ld.sum\","
                   "\"smsp__sass_data_bytes_mem_global_op_st.sum\"\n"
                   "\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"inst\","
                   "\"inst\",\"warp\",\"byte\",\"byte\"\n");
        for (int i = 1; i < m; i++) {
            int64_t b = n >> i, per = 10 + 3 * i;
            fprintf(f, "\"%d\",\"9\",\"t\",\"h\",\"void halve<float>(float *, int)\",\"1\","
                       "\"7\",\"(32, 1, 1)\",\"(%lld, 1, 1)\",\"0\",\"9.0\",\"32\",\"%lld\","
                       "\"%lld\",\"%lld\",\"%lld\",\"%lld\",\"%lld\"\n",
                    i - 1, (long long)b, (long long)b, (long long)(b * per),
                    (long long)(b * 32 * per), (long long)b, (long long)(b * 32 * 8),
                    (long long)(b * 32 * 4));
        }
        fclose(f);
        fprintf(pf, "n%lld.csv,%lld\n", (long long)n, (long long)n);
    }
    fclose(pf);
    snprintf(path, sizeof path, "%s/skel.xml", dir);
    write_file(path, "<program name='h'>\n  <param name='n' value='64'/>\n"
                     "  <param name='U' value='400'/>\n"
                     "  <kernel id='halve' repeat='log2(n) - 1' index='i' blocks='n/2^i'\n"
                     "          threads='32' work='?' span='?' reads='?' writes='?'/>\n"
                     "</program>\n");
    mmm_profile *p = build(pts, path);
    const char *xml = mmm_profile_xml(p);
    /* the skeleton's quotes are kept */
    cr_expect(strstr(xml, "span='3*i + 10'") != NULL, "%s", xml);
    cr_expect(strstr(xml, "work='96*i + 320'") != NULL, "%s", xml);
    cr_expect(strstr(xml, "reads='2'") != NULL);
    cr_expect(strstr(xml, "writes='1'") != NULL);
    /* evaluated at n = 2^12, beyond the points: launch 5 has 128 blocks,
     * 25 instructions a thread */
    mmm_program *prog = load_text(xml);
    static const char *const names[] = {"n"};
    static const int64_t v[] = {4096};
    mmm_instance *inst = eval_at(prog, names, v, 1);
    mmm_class_val cv;
    mmm_error err;
    cr_assert_eq(mmm_instance_eval_copy(inst, 0, 5, &cv, &err), 0);
    cr_expect_eq(cv.count, 128);
    cr_expect_eq(cv.span, 25);
    cr_expect_eq(inst->kernels[0].repeat, 11);
    mmm_instance_free(inst);
    mmm_program_free(prog);
    mmm_profile_free(p);
    mmm_tmpdir_remove(dir);
}

/* ------------------------------------------------------------------ */
/* The command                                                         */

static mmm_run_result run(const char *const *args)
{
    mmm_run_result r;
    memset(&r, 0, sizeof r);
    cr_assert(mmm_run(&r, args, NULL, &MMM_RUN_LIMITS_DEFAULT) == 0);
    cr_assert(r.exited, "mmm died of signal %d; stderr: %s", r.signal, r.err);
    return r;
}

Test(profile, cli_build_atomic)
{
    char dir[256], out[512], pts[512];
    struct stat st;
    mmm_tmpdir_make(dir, sizeof dir, "mmm_profile");
    snprintf(out, sizeof out, "%s/out.xml", dir);
    snprintf(pts, sizeof pts, "%s/P.csv", dir);
    write_file(pts, "ncu,n\n" DATA "/reduce/raw-tpb64-k1.csv,1\n" DATA
                    "/pagerank/repeat-full.csv,2\n");
    /* a failing build creates no file */
    const char *a1[] = {"profile", "build", pts, "-o", out, NULL};
    mmm_run_result r = run(a1);
    cr_expect_eq(r.status, 1);
    cr_expect(strstr(r.err, "P.csv:3: error: the point n=2 does not launch") != NULL, "%s",
              r.err);
    cr_expect_eq(stat(out, &st), -1);
    mmm_run_dispose(&r);
    /* and leaves an existing one as it was */
    write_file(out, "old");
    r = run(a1);
    cr_expect_eq(r.status, 1);
    char *t = slurp(out, NULL);
    cr_expect_str_eq(t, "old");
    free(t);
    mmm_run_dispose(&r);
    const char *a2[] = {"profile", "build", DATA "/reduce/POINTS-raw.csv", "-o", out, NULL};
    r = run(a2);
    cr_expect_eq(r.status, 0, "%s", r.err);
    cr_expect(strstr(r.err, "wrote") != NULL);
    mmm_run_dispose(&r);
    /* what it wrote analyzes */
    const char *a3[] = {"analyze", out, "-D", "tpb=128", "-D", "k=2", NULL};
    r = run(a3);
    cr_expect_eq(r.status, 0, "%s", r.err);
    cr_expect(strstr(r.out, "reduce_partial") != NULL);
    mmm_run_dispose(&r);
    /* usage */
    const char *a4[] = {"profile", "build", DATA "/reduce/POINTS-raw.csv", NULL};
    r = run(a4);
    cr_expect_eq(r.status, 2);
    mmm_run_dispose(&r);
    const char *a5[] = {"profile", "metrics", NULL};
    r = run(a5);
    cr_expect_eq(r.status, 0);
    cr_expect(strstr(r.out, "smsp__inst_executed.sum") != NULL);
    mmm_run_dispose(&r);
    mmm_tmpdir_remove(dir);
}

/* mmm profile run against the stand-in ncu: the grid, the captures kept,
 * the same DAG as profile build on them; a failing point; no ncu. */
Test(profile, cli_run)
{
    char dir[256], keep[512], out[512], args_log[512];
    struct stat st;
    mmm_tmpdir_make(dir, sizeof dir, "mmm_profile");
    snprintf(keep, sizeof keep, "%s/keep", dir);
    snprintf(out, sizeof out, "%s/out.xml", dir);
    snprintf(args_log, sizeof args_log, "%s/args.log", dir);
    setenv("ARGS_LOG", args_log, 1);
    const char *a1[] = {"profile", "run", "--ncu", DATA "/fake-ncu.sh", "--param",
                        "tpb=64,128", "--param", "k=1,2^1", "--keep", keep, "-o", out,
                        "--", "true", "reduce", "{tpb}", "{k}", NULL};
    mmm_run_result r = run(a1);
    cr_expect_eq(r.status, 0, "%s", r.err);
    mmm_run_dispose(&r);
    /* the grid: 4 points, 2 ncu runs each, with the options of
     * docs/profile.md */
    char *log = slurp(args_log, NULL);
    cr_expect(strstr(log, "--csv --page raw --print-units base --clock-control none "
                          "--metrics launch__grid_size,") != NULL, "%s", log);
    cr_expect(strstr(log, "--print-metric-instances details --filter-mode per-launch-config "
                          "--launch-count 1 --log-file") != NULL, "%s", log);
    cr_expect(strstr(log, "true reduce 128 2\n") != NULL);
    int runs = 0;
    for (const char *p = log; (p = strchr(p, '\n')); p++)
        runs++;
    cr_expect_eq(runs, 8);
    free(log);
    /* the kept folder is what profile build reads */
    char pts[600], out2[600];
    snprintf(pts, sizeof pts, "%s/POINTS.csv", keep);
    char *ptext = slurp(pts, NULL);
    cr_expect_str_eq(ptext, "ncu,tpb,k\n"
                            "point1-sample.csv,64,1\npoint1-launches.csv,64,1\n"
                            "point2-sample.csv,64,2\npoint2-launches.csv,64,2\n"
                            "point3-sample.csv,128,1\npoint3-launches.csv,128,1\n"
                            "point4-sample.csv,128,2\npoint4-launches.csv,128,2\n");
    free(ptext);
    snprintf(out2, sizeof out2, "%s/again.xml", dir);
    const char *a2[] = {"profile", "build", pts, "-o", out2, NULL};
    r = run(a2);
    cr_expect_eq(r.status, 0, "%s", r.err);
    mmm_run_dispose(&r);
    char *x1 = slurp(out, NULL), *x2 = slurp(out2, NULL);
    cr_expect_str_eq(x1, x2);
    cr_expect(strstr(x1, "blocks=\"1048576/(tpb*k)\"") != NULL, "%s", x1);
    free(x1);
    free(x2);

    /* sampled launches standing for the others (pagerank's 22 launches) */
    const char *a3[] = {"profile", "run", "--ncu", DATA "/fake-ncu.sh", "-o", out, "--",
                        "true", "pagerank", NULL};
    r = run(a3);
    cr_expect_eq(r.status, 0, "%s", r.err);
    cr_expect(strstr(r.err, "the costs of 22 launches are those of the sampled") != NULL,
              "%s", r.err);
    mmm_run_dispose(&r);
    x1 = slurp(out, NULL);
    cr_expect(strstr(x1, "repeat=\"11\"") != NULL);
    free(x1);

    /* a point whose run fails: one error, no output, nothing left behind */
    unlink(out);
    const char *a4[] = {"profile", "run", "--ncu", DATA "/fake-ncu.sh", "--param",
                        "tpb=64,96", "-o", out, "--", "true", "reduce", "{tpb}", "1", NULL};
    r = run(a4);
    cr_expect_eq(r.status, 1);
    cr_expect(strstr(r.err, "point 2/2 (tpb=96)") != NULL, "%s", r.err);
    cr_expect(strstr(r.err, "ncu exited with status 1") != NULL, "%s", r.err);
    cr_expect(strstr(r.err, "==ERROR== The application returned an error code") != NULL);
    cr_expect_eq(stat(out, &st), -1);
    mmm_run_dispose(&r);

    /* every launch with every metric: one run of ncu a point */
    unlink(args_log);
    const char *a9[] = {"profile", "run", "--ncu", DATA "/fake-ncu.sh", "--samples", "all",
                        "--param", "tpb=64,128", "--keep", keep, "-o", out, "--", "true",
                        "reduce", "{tpb}", "1", NULL};
    r = run(a9);
    cr_expect_eq(r.status, 0, "%s", r.err);
    mmm_run_dispose(&r);
    log = slurp(args_log, NULL);
    cr_expect_null(strstr(log, "--filter-mode"), "%s", log);
    cr_expect(strstr(log, "--print-metric-instances details --log-file") != NULL, "%s", log);
    runs = 0;
    for (const char *p = log; (p = strchr(p, '\n')); p++)
        runs++;
    cr_expect_eq(runs, 2);
    free(log);
    ptext = slurp(pts, NULL);
    cr_expect_str_eq(ptext, "ncu,tpb\npoint1-sample.csv,64\npoint2-sample.csv,128\n");
    free(ptext);
    /* no ncu */
    const char *a5[] = {"profile", "run", "--ncu", "/nonexistent/ncu", "--", "true", NULL};
    r = run(a5);
    cr_expect_eq(r.status, 1);
    cr_expect(strstr(r.err, "--ncu /nonexistent/ncu: not an executable file") != NULL);
    mmm_run_dispose(&r);
    if (access("/usr/local/cuda/bin/ncu", X_OK) != 0) {
        setenv("PATH", dir, 1);
        const char *a6[] = {"profile", "run", "--", "true", NULL};
        r = run(a6);
        cr_expect_eq(r.status, 1);
        cr_expect(strstr(r.err, "Nsight Compute's ncu was not found") != NULL, "%s", r.err);
        mmm_run_dispose(&r);
    }
    /* usage */
    const char *a7[] = {"profile", "run", "--param", "n", "--", "true", NULL};
    r = run(a7);
    cr_expect_eq(r.status, 2);
    mmm_run_dispose(&r);
    const char *a8[] = {"profile", "run", NULL};
    r = run(a8);
    cr_expect_eq(r.status, 2);
    mmm_run_dispose(&r);
    mmm_tmpdir_remove(dir);
}

static void collect(const char *line, void *payload)
{
    mmm_notes *n = payload;
    char **l = realloc(n->line, (n->n + 1) * sizeof *l);
    cr_assert_not_null(l);
    n->line = l;
    cr_assert_not_null(l[n->n++] = strdup(line));
    n->cap = n->n;
}

/* mmm_profile_run as a library call: the grid, the warning about a
 * parameter no argument uses through the progress function, the captures
 * kept or in a temporary folder removed when freed, what ncu said after a
 * failure as details. */
Test(profile, run_call)
{
    char dir[256], keep[512], points[600];
    char *argv[] = {(char *)"true", (char *)"reduce", (char *)"{tpb}", (char *)"1"};
    mmm_profile_run_options o;
    mmm_profile_grid *g = NULL;
    mmm_profile_captures *c = NULL;
    mmm_notes said = MMM_NOTES_INIT, details = MMM_NOTES_INIT;
    mmm_profile *p = NULL;
    mmm_error e;
    struct stat st;
    mmm_tmpdir_make(dir, sizeof dir, "mmm_profile_run");
    snprintf(keep, sizeof keep, "%s/keep", dir);
    cr_assert_eq(mmm_profile_grid_new(&g, &e), 0);
    cr_assert_eq(mmm_profile_grid_add(g, "tpb=64,2^7", &e), 0, "%s", e.message);
    cr_assert_eq(mmm_profile_grid_add(g, "unused=1", &e), 0, "%s", e.message);
    cr_expect_eq(mmm_profile_grid_add(g, "tpb=3", &e), MMM_EINVAL);
    cr_expect_str_eq(e.message, "--param tpb given twice");
    mmm_profile_run_options_init(&o);
    cr_expect_eq(o.samples, 1);
    o.ncu = DATA "/fake-ncu.sh";
    o.keep = keep;
    o.progress = collect;
    o.payload = &said;
    cr_assert_eq(mmm_profile_run(&c, g, argv, 4, &o, &details, &e), 0, "%s", e.message);
    cr_assert_geq(said.n, 1);
    cr_expect_str_eq(said.line[0], "warning: --param unused: {unused} appears in no "
                                   "argument of the command (each run gets the same "
                                   "arguments)");
    cr_expect_eq(details.n, 0);
    snprintf(points, sizeof points, "%s/POINTS.csv", keep);
    cr_expect_str_eq(mmm_profile_captures_points(c), points);
    char *text = slurp(points, NULL);
    cr_expect_str_eq(text, "ncu,tpb,unused\n"
                           "point1-sample.csv,64,1\npoint1-launches.csv,64,1\n"
                           "point2-sample.csv,128,1\npoint2-launches.csv,128,1\n");
    free(text);
    cr_assert_eq(mmm_profile_build(&p, mmm_profile_captures_points(c), NULL, &e), 0, "%s",
                 e.message);
    cr_expect_eq(mmm_profile_npoints(p), 2);
    mmm_profile_free(p);
    mmm_profile_captures_free(c);
    cr_expect_eq(stat(points, &st), 0); /* kept */

    /* a temporary folder, removed when freed; a failing point */
    char *bad[] = {(char *)"true", (char *)"reduce", (char *)"{tpb}", (char *)"7"};
    char tmp[300];
    snprintf(tmp, sizeof tmp, "%s/tmp", dir);
    mkdir(tmp, 0700);
    setenv("TMPDIR", tmp, 1);
    o.keep = NULL;
    cr_assert_eq(mmm_profile_run(&c, g, argv, 4, &o, &details, &e), 0, "%s", e.message);
    char folder[600];
    snprintf(folder, sizeof folder, "%s", mmm_profile_captures_points(c));
    *strrchr(folder, '/') = '\0';
    cr_expect_eq(strncmp(folder, tmp, strlen(tmp)), 0, "%s", folder);
    cr_expect_eq(stat(folder, &st), 0);
    mmm_profile_captures_free(c);
    cr_expect_eq(stat(folder, &st), -1);
    cr_expect_eq(mmm_profile_run(&c, g, bad, 4, &o, &details, &e), MMM_EIO);
    cr_expect_null(c);
    cr_expect(strstr(e.message, "point 1/2 (tpb=64, unused=1): the list of launches: ncu "
                                "exited with status 1") != NULL, "%s", e.message);
    cr_assert_geq(details.n, 2);
    cr_expect(strstr(details.line[0], "==ERROR==") != NULL, "%s", details.line[0]);
    cr_expect_str_eq(details.line[details.n - 1], "  (give --keep DIR to keep what ncu "
                                                  "wrote)");
    unsetenv("TMPDIR");
    mmm_notes_dispose(&said);
    mmm_notes_dispose(&details);
    mmm_profile_grid_free(g);
    mmm_tmpdir_remove(dir);
}

/* The options: mmm_profile_options_init and the macro give the defaults
 * of the header (no skeleton, no name, default limits); NULL is them. */
Test(profile, options)
{
    mmm_profile_options a, b = MMM_PROFILE_OPTIONS_INIT;
    memset(&a, 0x5a, sizeof a);
    mmm_profile_options_init(&a);
    for (int i = 0; i < 2; i++) {
        const mmm_profile_options *o = i ? &b : &a;
        cr_expect_null(o->skeleton);
        cr_expect_null(o->name);
        cr_expect_eq(o->limits.max_file_bytes, 0);
        cr_expect_eq(o->limits.max_kernels, 0);
        cr_expect_eq(o->limits.max_expr_length, 0);
    }
    mmm_profile_options_init(NULL);
    mmm_profile *p = NULL, *q = NULL;
    mmm_error err;
    cr_assert_eq(mmm_profile_build(&p, DATA "/reduce/POINTS-raw.csv", NULL, &err), 0);
    cr_assert_eq(mmm_profile_build(&q, DATA "/reduce/POINTS-raw.csv", &a, &err), 0);
    cr_expect_str_eq(mmm_profile_xml(p), mmm_profile_xml(q));
    mmm_profile_free(p);
    mmm_profile_free(q);
    /* a program name of one's own */
    a.name = "my <reduction>";
    cr_assert_eq(mmm_profile_build(&p, DATA "/reduce/POINTS-raw.csv", &a, &err), 0);
    cr_expect(strstr(mmm_profile_xml(p), "<program name=\"my &lt;reduction&gt;\">") != NULL);
    mmm_profile_free(p);
    /* NULL handles are harmless */
    mmm_profile_free(NULL);
    mmm_ncu_free(NULL);
    cr_expect_null(mmm_profile_xml(NULL));
    cr_expect_eq(mmm_profile_nnotes(NULL), 0);
    cr_expect_eq(mmm_ncu_count(NULL), 0);
}

/* The two captures of one run as mmm profile run makes them, written by
 * ncu itself (--log-file: its message lines before the table): the list of
 * the scan's 12 launches with the launch statistics, and every metric for
 * the first launch of each of its 9 configurations (fixtures/run_scan64_*).
 * scan_add<64, 1>: 17,301,504 bytes loaded by 65,536 blocks of 64 threads
 * (33/32 words a thread); scan_blocks<64, 1>: "BAR: 1,703,936" over
 * 131,072 warps (13 barriers); scan_sums: "BAR: 47,104" over 32 warps. */
Test(profile, run_style_captures)
{
    char dir[256], pts[512];
    mmm_tmpdir_make(dir, sizeof dir, "mmm_profile");
    snprintf(pts, sizeof pts, "%s/P.csv", dir);
    write_file(pts, "ncu\n" DATA "/fixtures/run_scan64_sample.csv\n" DATA
                    "/fixtures/run_scan64_launches.csv\n");
    mmm_profile *p = build(pts, NULL);
    mmm_program *prog = load_text(mmm_profile_xml(p));
    mmm_instance *inst = eval_at(prog, NULL, NULL, 0);
    cr_assert_eq(prog->nkernels, 12);
    cr_expect_str_eq(prog->kernels[2].id, "scan_add");
    cr_expect_str_eq(prog->kernels[4].id, "scan_sums#2");
    cr_expect_eq(prog->nedges, 11);
    cr_expect_eq(class_of(inst, "scan_add")->reads, 33.0 / 32);
    cr_expect_eq(attr_of(inst, "scan_blocks", "barriers"), 13);
    cr_expect_eq(attr_of(inst, "scan_sums", "barriers"), 1472);
    cr_expect_eq(class_of(inst, "scan_blocks#2")->count, 32768);
    /* the one sample of scan_sums stands for its four launches: said */
    int saw = 0;
    for (size_t i = 0; i < mmm_profile_nnotes(p); i++)
        saw |= strstr(mmm_profile_note(p, i), "1 sampled configuration (scan_sums) "
                                              "launched in several places") != NULL;
    cr_expect(saw);
    mmm_instance_free(inst);
    mmm_program_free(prog);
    mmm_profile_free(p);
    mmm_tmpdir_remove(dir);
}

/* reduce at n = 2^18, 2^19, 2^20 (fixtures/reduce_sizes_base.csv, one
 * process: split here into one capture per size, the header and units
 * rows kept): reduce_partial<256, 1> and <256, 4>, each followed by
 * reduce_final.  1,024, 2,048, 4,096 blocks of <256, 1>; 1,048,576 bytes
 * loaded by its 1,024 x 256 threads at 2^18: one word a thread. */
Test(profile, build_sizes)
{
    char dir[256], pts[512], path[512];
    mmm_tmpdir_make(dir, sizeof dir, "mmm_profile");
    size_t len;
    char *t = slurp(DATA "/fixtures/reduce_sizes_base.csv", &len);
    char *lines[32];
    size_t n = 0;
    for (char *s = t; *s && n < 32;) {
        lines[n++] = s;
        char *e = strchr(s, '\n');
        if (!e)
            break;
        *e = '\0';
        s = e + 1;
    }
    cr_assert_eq(n, 14, "%zu lines", n);
    snprintf(pts, sizeof pts, "%s/P.csv", dir);
    FILE *pf = fopen(pts, "w");
    cr_assert_not_null(pf);
    fprintf(pf, "ncu,n\n");
    for (int k = 0; k < 3; k++) {
        snprintf(path, sizeof path, "%s/n%d.csv", dir, 18 + k);
        FILE *f = fopen(path, "w");
        cr_assert_not_null(f);
        fprintf(f, "%s\n%s\n", lines[0], lines[1]);
        for (int r = 0; r < 4; r++)
            fprintf(f, "%s\n", lines[2 + 4 * k + r]);
        fclose(f);
        fprintf(pf, "n%d.csv,2^%d\n", 18 + k, 18 + k);
    }
    fclose(pf);
    free(t);
    mmm_profile *p = build(pts, NULL);
    const char *xml = mmm_profile_xml(p);
    cr_expect(strstr(xml, "<kernel id=\"reduce_partial\" blocks=\"n/256\" threads=\"256\"") != NULL,
              "%s", xml);
    cr_expect(strstr(xml, "<kernel id=\"reduce_partial#2\" blocks=\"n/1024\" threads=\"256\"") != NULL);
    /* the work of a block does not change with n: 16,902 = 17,307,648 / 1,024 */
    cr_expect(strstr(xml, "work=\"16902\"") != NULL);
    mmm_program *prog = load_text(xml);
    static const char *const names[] = {"n"};
    static const int64_t v[] = {1 << 22};
    mmm_instance *inst = eval_at(prog, names, v, 1);
    cr_expect_eq(class_of(inst, "reduce_partial")->count, 16384);
    cr_expect_eq(class_of(inst, "reduce_partial")->reads, 1);
    cr_expect_eq(class_of(inst, "reduce_partial#2")->reads, 4);
    mmm_instance_free(inst);
    mmm_program_free(prog);
    mmm_profile_free(p);
    mmm_tmpdir_remove(dir);
}

/* A skeleton's gathers and scatters (written by hand) count among the
 * reads and writes it leaves to be measured; where the hand's value is
 * more than the measured one at a point, the build writes min(hand,
 * measured expression), says so in the kernel's comment and in a note,
 * and the file analyzes (the time model refuses a part larger than its
 * whole).  reduce's 35 points: reduce_partial reads k words a thread and
 * writes 32/tpb (one store of a warp a block, taken as 32 words: the
 * captures have no data bytes). */
Test(profile, skeleton_clamps_parts)
{
    char dir[256], skel[512], out[512], machine[1024];
    mmm_tmpdir_make(dir, sizeof dir, "mmm_profile");
    snprintf(skel, sizeof skel, "%s/skel.xml", dir);
    snprintf(out, sizeof out, "%s/out.xml", dir);
    write_file(skel, "<program name='r'><param name='tpb' value='64'/>"
                     "<param name='k' value='1'/><param name='U' value='1'/>\n"
                     "<kernel id='reduce_partial' blocks='2^20/(tpb*k)' threads='tpb'\n"
                     " work='?' span='?' reads='?' writes='?' gathers='k + 1'\n"
                     " scatters='1/8'/>\n"
                     "<kernel id='reduce_final' blocks='1' threads='1024'\n"
                     " work='?' span='?' reads='?' writes='?' gathers='0'\n"
                     " scatters='1/32 + 1/4096'/>\n"
                     "<edge from='reduce_partial' to='reduce_final'/></program>\n");
    mmm_profile *p = build(DATA "/reduce/POINTS-raw.csv", skel);
    const char *xml = mmm_profile_xml(p);
    /* above the reads k at every point; above the writes 32/tpb at the 14
     * points of tpb = 512 and 1024 (the largest excess at tpb = 1024: 4x) */
    cr_expect(strstr(xml, "gathers='min(k + 1, k)'") != NULL, "%s", xml);
    cr_expect(strstr(xml, "scatters='min(1/8, 32/tpb)'") != NULL, "%s", xml);
    cr_expect(strstr(xml, "CLAMPED gathers: the skeleton's is more than the measured "
                          "reads at 35 of the 35 points (2 against 1 at tpb=64, k=1, "
                          "2x)") != NULL, "%s", xml);
    cr_expect(strstr(xml, "CLAMPED scatters: the skeleton's is more than the measured "
                          "writes at 14 of the 35 points (0.125 against 0.03125 at "
                          "tpb=1024, k=1, 4x)") != NULL, "%s", xml);
    /* reduce_final's gathers, never more, as written; its scatters a little
     * more than the 1/32 it writes (one warp's store of 1,024 threads) */
    cr_expect(strstr(xml, "gathers='0'\n scatters='min(1/32 + 1/4096, 1/32)'") != NULL, "%s",
              xml);
    cr_expect(strstr(xml, "CLAMPED scatters: the skeleton's is more than the measured "
                          "writes at 35 of the 35 points (0.0314941 against 0.03125 at "
                          "tpb=64, k=1, 0.78 % more)") != NULL, "%s", xml);
    size_t notes = 0;
    for (size_t i = 0; i < mmm_profile_nnotes(p); i++)
        if (strstr(mmm_profile_note(p, i), "written min(the skeleton's, the "))
            notes++;
    cr_expect_eq(notes, 3);
    /* the values at tpb = 1024, k = 4: gathers 4 (not 5), scatters 1/32
     * (not 1/8) */
    static const char *const names[] = {"tpb", "k"};
    static const int64_t v[] = {1024, 4};
    mmm_program *prog = load_text(xml);
    mmm_instance *inst = eval_at(prog, names, v, 2);
    cr_expect_eq(attr_of(inst, "reduce_partial", "gathers"), 4);
    cr_expect_eq(attr_of(inst, "reduce_partial", "scatters"), 1.0 / 32);
    mmm_instance_free(inst);
    mmm_program_free(prog);
    cr_assert_eq(mmm_profile_save_xml(p, out, NULL), 0);
    mmm_profile_free(p);
    /* the time model takes it (without the clamp: "kernel 'reduce_partial':
     * gathers = 2 is more than its reads = 1") */
    snprintf(machine, sizeof machine, "%s/machines/h100-fitted.xml", MMM_DAGS_DIR);
    const char *a[] = {"analyze", out, "--machine", machine, "--model", "time",
                       "-D", "tpb=1024", NULL};
    mmm_run_result r = run(a);
    cr_expect_eq(r.status, 0, "%s", r.err);
    mmm_run_dispose(&r);
    mmm_tmpdir_remove(dir);
}

/* A POINTS column with one value at every point: the build says that no
 * measured cost can depend on it (the one-size captures of bench/gpu gave
 * matrix products whose per-block work stayed that of n = 1024 at n =
 * 4096); a column that varies gets no such note. */
Test(profile, fixed_parameter_note)
{
    char dir[256], pts[512];
    mmm_tmpdir_make(dir, sizeof dir, "mmm_profile");
    snprintf(pts, sizeof pts, "%s/P.csv", dir);
    write_file(pts, "ncu,tpb,k,n\n" DATA "/reduce/raw-tpb64-k1.csv,64,1,2^20\n" DATA
                    "/reduce/raw-tpb128-k2.csv,128,2,2^20\n");
    mmm_profile *p = build(pts, NULL);
    size_t fixed = 0, other = 0;
    for (size_t i = 0; i < mmm_profile_nnotes(p); i++) {
        const char *n = mmm_profile_note(p, i);
        if (strstr(n, "the parameter n is 1048576 at every one of the 2 points: no "
                      "measured cost can depend on it"))
            fixed++;
        else if (strstr(n, "at every one of"))
            other++;
    }
    cr_expect_eq(fixed, 1);
    cr_expect_eq(other, 0);
    mmm_profile_free(p);
    mmm_tmpdir_remove(dir);
}

/* ------------------------------------------------------------------ */
/* The launch trace of libmmm_trace.so                                 */

/* A real trace (CUMODP's optimized division at s = 1024 on an H200): its
 * launches read as a capture, each with what the file's row says, counted
 * here from the text itself; its memcpy and memset calls counted in the
 * build's notes. */
Test(profile, trace_read)
{
    size_t len;
    char *text = slurp(DATA "/trace/launches.csv", &len);
    size_t kernels = 0, copies = 0;
    unsigned long long bytes = 0;
    for (char *l = strtok(text, "\n"); l; l = strtok(NULL, "\n")) {
        if (strstr(l, ",kernel,"))
            kernels++;
        if (strstr(l, ",memcpy,") || strstr(l, ",memset,")) {
            /* bytes: the 14th field */
            const char *p = l;
            for (int f = 0; f < 13; f++)
                p = strchr(p, ',') + 1;
            copies++;
            bytes += strtoull(p, NULL, 10);
        }
    }
    free(text);
    cr_assert_eq(kernels, 10);
    mmm_ncu_capture *c = read_capture(DATA "/trace/launches.csv");
    cr_assert_eq(mmm_ncu_count(c), kernels);
    /* row 4: _ZN9div_s10244zeroEPii, grid 3x1x1 of 1024x1x1, 16 registers,
     * 833 ns */
    cr_expect_str_eq(mmm_ncu_kernel(c, 0), "_ZN9div_s10244zeroEPii");
    cr_expect_eq(mmm_ncu_id(c, 0), 4);
    cr_expect_eq(mmm_ncu_line(c, 0), 6);
    cr_expect_eq(qint(c, 0, MMM_NCU_BLOCKS), 3);
    cr_expect_eq(qint(c, 0, MMM_NCU_THREADS), 1024);
    cr_expect_eq(qint(c, 0, MMM_NCU_REGISTERS), 16);
    cr_expect_eq(qint(c, 0, MMM_NCU_DURATION_NS), 833);
    /* divGPU: 28,696 bytes of static shared memory */
    cr_expect_eq(qint(c, 4, MMM_NCU_SHARED_STATIC), 28696);
    cr_expect_eq(qint(c, 4, MMM_NCU_SHARED_DYNAMIC), 0);
    cr_expect(!mmm_ncu_value(c, 0, MMM_NCU_WARP_INST, NULL));
    mmm_ncu_free(c);
    /* built with the sample taken by ncu with mangled names */
    mmm_profile *p = NULL;
    mmm_error err;
    cr_assert_eq(mmm_profile_build(&p, DATA "/trace/POINTS.csv", NULL, &err), 0, "%s:%ld: %s",
                 err.file, err.line, err.message);
    cr_expect_eq(mmm_profile_nkernels(p), kernels);
    char want[128];
    snprintf(want, sizeof want, "%zu memcpy and memset calls (%llu bytes in all)", copies,
             bytes);
    int found = 0;
    for (size_t i = 0; i < mmm_profile_nnotes(p); i++)
        found |= strstr(mmm_profile_note(p, i), want) != NULL;
    cr_expect(found, "no note '%s'", want);
    cr_expect(strstr(mmm_profile_xml(p), "<kernel id=\"div_s1024::divGPU\"") != NULL);
    mmm_profile_free(p);
}

static void trace_bad(const char *rows, long line, const char *what)
{
    char buf[2048];
    snprintf(buf, sizeof buf,
             "# mmm launch trace 1\n"
             "order,kind,name,stream,grid_x,grid_y,grid_z,block_x,block_y,block_z,"
             "registers,shared_static,shared_dynamic,bytes,copy,duration_ns,graph\n%s",
             rows);
    mmm_ncu_capture *c = NULL;
    mmm_error err;
    cr_expect_lt(mmm_ncu_read_memory(&c, buf, strlen(buf), "t.csv", &err), 0, "%s", rows);
    cr_expect_null(c);
    cr_expect_str_eq(err.file, "t.csv");
    cr_expect_eq(err.line, line, "%s: line %ld, not %ld (%s)", rows, err.line, line,
                 err.message);
    cr_expect(strstr(err.message, what) != NULL, "'%s' lacks '%s'", err.message, what);
}

#define K1 "1,kernel,_Z1kv,7,4,1,1,32,1,1,16,0,0,,,900,0\n"

Test(profile, trace_errors)
{
    trace_bad("", 2, "the trace has no kernel launch");
    trace_bad("1,memcpy,,7,,,,,,,,,,64,d2d,10,0\n", 3, "no kernel launch");
    trace_bad(K1 "2,launch,x,7,,,,,,,,,,,,1,0\n", 4, "kind is 'launch', not kernel");
    trace_bad(K1 "1,kernel,_Z1kv,7,4,1,1,32,1,1,16,0,0,,,900,0\n", 4,
              "order 1 after 1: the rows must be in issue order");
    trace_bad("1,kernel,_Z1kv,7,0,1,1,32,1,1,16,0,0,,,900,0\n", 3,
              "grid_x is '0', not a whole number of at least 1");
    trace_bad("1,kernel,_Z1kv,7,4,1,1,2048,1,1,16,0,0,,,900,0\n", 3,
              "no CUDA GPU launches it");
    trace_bad("1,kernel,,7,4,1,1,32,1,1,16,0,0,,,900,0\n", 3, "a kernel launch without a name");
    trace_bad("1,kernel,_Z1kv,,4,1,1,32,1,1,16,0,0,,,900,0\n", 3, "a kernel launch without a stream");
    trace_bad("1,kernel,_Z1kv,7,4,1,1,32,1,1,16,0,0,,,900,0\n2,memset,,,,,,,,,,,,64,,500,0\n", 4,
              "a memset without a stream");
    trace_bad(K1 "2,memcpy,,7,,,,,,,,,,64,sideways,10,0\n", 4,
              "copy is 'sideways', not h2d, d2h, d2d, h2h, p2p or other");
    trace_bad(K1 "2,memset,,7,,,,,,,,,,-1,,10,0\n", 4, "bytes is '-1'");
    trace_bad(K1 "2,kernel,_Z1kv,7,4,1,1,32\n", 4, "8 fields where the header has 17");
    trace_bad(K1 "# error: CUPTI dropped records\n", 4,
              "the tracer failed:  CUPTI dropped records (the trace is incomplete)");
    /* a header of another version */
    const char *other = "# mmm launch trace 2\norder,kind,name\n1,kernel,k\n";
    mmm_ncu_capture *c = NULL;
    mmm_error err;
    cr_expect_lt(mmm_ncu_read_memory(&c, other, strlen(other), "t.csv", &err), 0);
    cr_expect_eq(err.line, 2);
    cr_expect(strstr(err.message, "column 4 of the header is '', not 'stream'") != NULL, "%s",
              err.message);
}

/* The lines of a DAG file's kernels and edges (without the comments,
 * which name the captures' files). */
static void kernel_lines(const char *xml, char *buf, size_t size)
{
    size_t n = 0;
    buf[0] = '\0';
    for (const char *l = xml; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
        size_t len = strcspn(l, "\n");
        if ((!strncmp(l, "  <kernel ", 10) || !strncmp(l, "  <edge ", 8)) && n + len + 2 < size) {
            memcpy(buf + n, l, len);
            n += len;
            buf[n++] = '\n';
            buf[n] = '\0';
        }
    }
}

/* mmm profile run with the launch tracer (a stand-in program writes the
 * real trace; the stand-in ncu's sample misses divGPU's configuration, as
 * ncu's filter may): the sample asks for mangled names, one more run of
 * ncu measures the missed configuration's first launch, and the DAG is
 * the one built from the full sample. */
Test(profile, cli_run_traced)
{
    char dir[256], keep[512], out[512], args_log[512], pts[600];
    mmm_tmpdir_make(dir, sizeof dir, "mmm_profile_traced");
    snprintf(keep, sizeof keep, "%s/keep", dir);
    snprintf(out, sizeof out, "%s/out.xml", dir);
    snprintf(args_log, sizeof args_log, "%s/args.log", dir);
    setenv("ARGS_LOG", args_log, 1);
    setenv("MMM_TRACER", DATA "/fake-prog.sh", 1); /* any readable file */
    const char *a1[] = {"profile", "run", "--ncu", DATA "/fake-ncu.sh", "--keep", keep, "-o",
                        out, "--", DATA "/fake-prog.sh", "trace", NULL};
    mmm_run_result r = run(a1);
    cr_expect_eq(r.status, 0, "%s", r.err);
    cr_expect(strstr(r.err, "5 memcpy and memset calls") != NULL, "%s", r.err);
    mmm_run_dispose(&r);
    char *log = slurp(args_log, NULL);
    /* two runs of ncu: the sample with mangled names, then divGPU's launch */
    cr_expect(strstr(log, "--print-kernel-base mangled --kernel-name-base mangled "
                          "--filter-mode per-launch-config --launch-count 1") != NULL,
              "%s", log);
    cr_expect(strstr(log, "--kernel-name _ZN9div_s10246divGPUEPiS0_S0_S0_S0_ --launch-skip 0 "
                          "--launch-count 1") != NULL, "%s", log);
    cr_expect(strstr(log, "--metrics launch__grid_size,launch__block_size,launch__registers"
                          "_per_thread,launch__shared_mem_per_block_static,launch__shared_"
                          "mem_per_block_dynamic --log") == NULL,
              "ncu listed the launches: %s", log);
    free(log);
    snprintf(pts, sizeof pts, "%s/POINTS.csv", keep);
    char *ptext = slurp(pts, NULL);
    cr_expect_str_eq(ptext, "ncu\npoint1-sample.csv\npoint1-launches.csv\n"
                            "point1-config1.csv\n");
    free(ptext);
    /* the same kernels as the full sample gives */
    mmm_profile *p = NULL;
    mmm_error err;
    cr_assert_eq(mmm_profile_build(&p, DATA "/trace/POINTS.csv", NULL, &err), 0, "%s",
                 err.message);
    char *x = slurp(out, NULL), ka[8192], kb[8192];
    kernel_lines(x, ka, sizeof ka);
    kernel_lines(mmm_profile_xml(p), kb, sizeof kb);
    cr_expect(strstr(ka, "div_s1024::divGPU#3") != NULL, "%s", ka);
    cr_expect_str_eq(ka, kb);
    free(x);
    mmm_profile_free(p);
    /* a program that writes no trace: ncu lists the launches */
    setenv("NOTRACE", "1", 1);
    const char *a2[] = {"profile", "run", "--ncu", DATA "/fake-ncu.sh", "-o", out, "--",
                        DATA "/fake-prog.sh", "pagerank", NULL};
    r = run(a2);
    cr_expect_eq(r.status, 0, "%s", r.err);
    cr_expect(strstr(r.err, "the launch tracer wrote no trace") != NULL, "%s", r.err);
    mmm_run_dispose(&r);
    unsetenv("NOTRACE");
    /* the program fails */
    setenv("EXIT", "3", 1);
    r = run(a1);
    cr_expect_eq(r.status, 1);
    cr_expect(strstr(r.err, "the program with the launch tracer: the program exited with "
                            "status 3") != NULL, "%s", r.err);
    mmm_run_dispose(&r);
    unsetenv("EXIT");
    /* a tracer that cannot be read */
    setenv("MMM_TRACER", "/nonexistent/libmmm_trace.so", 1);
    r = run(a1);
    cr_expect_eq(r.status, 1);
    cr_expect(strstr(r.err, "the launch tracer /nonexistent/libmmm_trace.so cannot be read") !=
              NULL, "%s", r.err);
    mmm_run_dispose(&r);
    unsetenv("MMM_TRACER");
    unsetenv("ARGS_LOG");
    mmm_tmpdir_remove(dir);
}

/* The copies and sets of a launch trace become <copy> elements between
 * the kernels they were issued between, each after the previous node of
 * its stream; over points their bytes are an expression like any count;
 * points that copy differently are refused. */
Test(profile, trace_copies)
{
    size_t len;
    char *text = slurp(DATA "/trace/launches.csv", &len);
    /* the trace's own copies, in order: kind and bytes from its rows */
    char kinds[8][8];
    unsigned long long bytes[8];
    size_t nc = 0;
    char *dup = strdup(text);
    for (char *l = strtok(dup, "\n"); l; l = strtok(NULL, "\n")) {
        if (!strstr(l, ",memcpy,") && !strstr(l, ",memset,"))
            continue;
        const char *p = l;
        for (int f = 0; f < 13; f++)
            p = strchr(p, ',') + 1;
        bytes[nc] = strtoull(p, NULL, 10);
        p = strchr(p, ',') + 1;
        snprintf(kinds[nc], sizeof kinds[nc], "%.*s", (int)strcspn(p, ","), p);
        nc++;
    }
    free(dup);
    cr_assert_eq(nc, 5);
    mmm_profile *p = NULL;
    mmm_error err;
    cr_assert_eq(mmm_profile_build(&p, DATA "/trace/POINTS.csv", NULL, &err), 0, "%s",
                 err.message);
    const char *x = mmm_profile_xml(p);
    const char *at = x;
    for (size_t i = 0; i < nc; i++) {
        char want[128];
        snprintf(want, sizeof want, "kind=\"%s\" bytes=\"%llu\"/>", kinds[i], bytes[i]);
        const char *q = strstr(at, want);
        cr_expect(q != NULL, "copy %zu (%s) not after the previous one in\n%s", i, want, x);
        if (q)
            at = q;
    }
    /* the three h2d before the first kernel, the two d2h after the last */
    cr_expect(strstr(x, "<edge from=\"memcpy_h2d#3\" to=\"div_s1024::zero\"/>") != NULL, "%s", x);
    cr_expect(strstr(x, "<edge from=\"div_s1024::copyRem\" to=\"memcpy_d2h\"/>") != NULL, "%s", x);
    /* the file analyzes, with its copies in the time model */
    mmm_program *prog = NULL;
    cr_assert_eq(mmm_program_load_memory(&prog, x, strlen(x), "built.xml", NULL, &err), 0,
                 "%s:%ld: %s", err.file, err.line, err.message);
    mmm_program_free(prog);
    mmm_profile_free(p);

    /* two points: the second's copies twice as large (s = 2048), the same
     * kernels: bytes become 8*s, 16*s, ... exactly */
    char dir[256], path[512];
    mmm_tmpdir_make(dir, sizeof dir, "mmm_profile_copies");
    snprintf(path, sizeof path, "%s/a.csv", dir);
    write_file(path, text);
    char *twice = malloc(len + 64), *o = twice;
    for (char *l = text; *l;) {
        size_t n = strcspn(l, "\n");
        if ((strstr(l, ",memcpy,") || strstr(l, ",memset,")) && strstr(l, ",memcpy,") < l + n) {
            const char *p2 = l;
            for (int f = 0; f < 13; f++)
                p2 = strchr(p2, ',') + 1;
            o += sprintf(o, "%.*s%llu", (int)(p2 - l), l, 2 * strtoull(p2, NULL, 10));
            p2 += strcspn(p2, ",");
            o += sprintf(o, "%.*s\n", (int)(l + n - p2), p2);
        } else
            o += sprintf(o, "%.*s\n", (int)n, l);
        l += n + (l[n] == '\n');
    }
    *o = '\0';
    snprintf(path, sizeof path, "%s/b.csv", dir);
    write_file(path, twice);
    char *sample = slurp(DATA "/trace/sample.csv", NULL);
    snprintf(path, sizeof path, "%s/sample.csv", dir);
    write_file(path, sample);
    free(sample);
    snprintf(path, sizeof path, "%s/POINTS.csv", dir);
    write_file(path, "ncu,s\nsample.csv,1024\na.csv,1024\nsample.csv,2048\nb.csv,2048\n");
    cr_assert_eq(mmm_profile_build(&p, path, NULL, &err), 0, "%s", err.message);
    x = mmm_profile_xml(p);
    cr_expect(strstr(x, "<copy id=\"memcpy_h2d\" kind=\"h2d\" bytes=\"8*s\"/>") != NULL, "%s", x);
    cr_expect(strstr(x, "<copy id=\"memcpy_d2h\" kind=\"d2h\" bytes=\"8196*s/1024\"/>") != NULL ||
                  strstr(x, "<copy id=\"memcpy_d2h\" kind=\"d2h\" bytes=\"2049*s/256\"/>") != NULL,
              "%s", x);
    mmm_profile_free(p);
    /* the second point lacks the last copy */
    char *cut = strdup(twice);
    char *last = strstr(cut, ",memcpy,,7,,,,,,,,,,16376,d2h");
    cr_assert_not_null(last, "%s", cut);
    while (last > cut && last[-1] != '\n')
        last--;
    *last = '\0';
    snprintf(path, sizeof path, "%s/b.csv", dir);
    write_file(path, cut);
    snprintf(path, sizeof path, "%s/POINTS.csv", dir);
    cr_expect_lt(mmm_profile_build(&p, path, NULL, &err), 0);
    cr_expect(strstr(err.message, "the point s=2048 does not copy what the first point does") !=
                  NULL, "%s", err.message);
    free(cut);
    free(twice);
    free(text);
    mmm_tmpdir_remove(dir);
}

/* A skeleton with <copy> elements: the copies are kept as written and
 * not matched with the trace's; "?" on a copy is refused at its line. */
Test(profile, skeleton_with_copies)
{
    mmm_profile *p = NULL;
    mmm_error err;
    cr_assert_eq(mmm_profile_build(&p, DATA "/trace/POINTS.csv", NULL, &err), 0, "%s",
                 err.message);
    /* the built file made a skeleton: every cost "?" */
    const char *x = mmm_profile_xml(p);
    static const char *const costs[] = {"work", "span", "reads", "writes", "registers",
                                        "shared_bytes", "barriers", "wavefronts",
                                        "global_wavefronts", "atomics"};
    char *skel = malloc(strlen(x) + 1), *o = skel;
    for (const char *q = x; *q;) {
        int hit = 0;
        for (size_t c = 0; c < sizeof costs / sizeof costs[0] && !hit; c++) {
            size_t n = strlen(costs[c]);
            if (q[0] == ' ' && !strncmp(q + 1, costs[c], n) && !strncmp(q + 1 + n, "=\"", 2)) {
                o += sprintf(o, " %s=\"?\"", costs[c]);
                q = strchr(q + n + 3, '"') + 1;
                hit = 1;
            }
        }
        if (!hit)
            *o++ = *q++;
    }
    *o = '\0';
    char dir[256], sk[512], bad[512];
    mmm_tmpdir_make(dir, sizeof dir, "mmm_profile_skelcopy");
    snprintf(sk, sizeof sk, "%s/skel.xml", dir);
    write_file(sk, skel);
    mmm_profile_options opt;
    mmm_profile_options_init(&opt);
    opt.skeleton = sk;
    mmm_profile *q = NULL;
    cr_assert_eq(mmm_profile_build(&q, DATA "/trace/POINTS.csv", &opt, &err), 0, "%s:%ld: %s",
                 err.file, err.line, err.message);
    cr_expect_eq(mmm_profile_nkernels(q), 10);
    char ka[16384], kb[16384];
    kernel_lines(x, ka, sizeof ka);
    kernel_lines(mmm_profile_xml(q), kb, sizeof kb);
    cr_expect_str_eq(ka, kb);
    cr_expect(strstr(mmm_profile_xml(q), "<copy id=\"memcpy_d2h#2\" kind=\"d2h\" bytes=\"8188\"/>") !=
              NULL);
    mmm_profile_free(q);
    /* bytes="?" on a copy */
    char *b = strstr(skel, "bytes=\"8188\"");
    cr_assert_not_null(b);
    memcpy(b, "bytes=\"?\"   ", 12);
    snprintf(bad, sizeof bad, "%s/bad.xml", dir);
    write_file(bad, skel);
    opt.skeleton = bad;
    cr_expect_lt(mmm_profile_build(&q, DATA "/trace/POINTS.csv", &opt, &err), 0);
    cr_expect(strstr(err.message, "<copy> bytes=\"?\": only a kernel's costs can be left to be "
                                  "measured") != NULL, "%s", err.message);
    cr_expect_gt(err.line, 1);
    free(skel);
    mmm_profile_free(p);
    mmm_tmpdir_remove(dir);
}

/* ------------------------------------------------------------------ */
/* One expression per template instance                                */

/* Split a CSV row of quoted cells (commas inside quotes kept) in place. */
static size_t csv_cells(char *row, char **cell, size_t max)
{
    size_t n = 0;
    for (char *s = row; *s && n < max;) {
        char *e = s;
        int q = 0;
        while (*e && (q || *e != ',')) {
            if (*e == '"')
                q = !q;
            e++;
        }
        cell[n++] = s;
        if (!*e)
            break;
        *e = '\0';
        s = e + 1;
    }
    return n;
}

static size_t csv_col(char **head, size_t n, const char *name)
{
    char q[128];
    snprintf(q, sizeof q, "\"%s\"", name);
    for (size_t i = 0; i < n; i++)
        if (!strcmp(head[i], q))
            return i;
    cr_assert_fail("no column %s", name);
    return 0;
}

static int64_t f_inst16(int64_t n) { return n * n / 65536 + n / 256 + 3; }
static int64_t f_inst32(int64_t n) { int64_t l = 0; while (((int64_t)1 << l) < n) l++; return 5 * n + 11 * l; }
/* instructions per warp: exact at t = 16, measured with noise at t = 32 */
static int64_t s_inst16(int64_t n) { return n / 256 + 7; }
static int64_t s_inst32(int64_t n, int e) { return 40 + 3 * e + (n / 1024) * (n / 1024) * (100 + (e * 7) % 5 - 2) / 100; }

/* Two instances of a template, k<16> and k<32> (the parameter t), whose
 * work per block follows no one expression of n and t (three terms in n
 * at t = 16, two others at 32): the build writes one exact expression per
 * instance, joined by indicators, and it gives the closed forms at an n
 * that no point ran.  Their span (instructions per warp) is exact at
 * t = 16 and noisy at t = 32: approximate, but still one expression per
 * instance, exact where the instance's values are. */
Test(profile, fit_per_instance)
{
    char dir[256], pts[512], path[512];
    mmm_tmpdir_make(dir, sizeof dir, "mmm_profile");
    size_t len;
    char *t = slurp(DATA "/fixtures/reduce_sizes_base.csv", &len);
    char *l0 = t, *l1 = strchr(l0, '\n');
    cr_assert_not_null(l1);
    *l1++ = '\0';
    char *l2 = strchr(l1, '\n');
    cr_assert_not_null(l2);
    *l2++ = '\0';
    char *end = strchr(l2, '\n');
    if (end)
        *end = '\0';
    char head_copy[16384];
    snprintf(head_copy, sizeof head_copy, "%s", l0);
    char *head[512], *row[512];
    size_t nh = csv_cells(head_copy, head, 512), nr = csv_cells(l2, row, 512);
    cr_assert_eq(nh, nr);
    size_t c_name = csv_col(head, nh, "Kernel Name"), c_grid = csv_col(head, nh, "Grid Size"),
           c_lgrid = csv_col(head, nh, "launch__grid_size"),
           c_work = csv_col(head, nh, "smsp__thread_inst_executed.sum"),
           c_inst = csv_col(head, nh, "smsp__inst_executed.sum"),
           c_warps = csv_col(head, nh, "smsp__warps_launched.sum");
    snprintf(pts, sizeof pts, "%s/P.csv", dir);
    FILE *pf = fopen(pts, "w");
    cr_assert_not_null(pf);
    fprintf(pf, "ncu,n,t\n");
    for (int ti = 0; ti < 2; ti++)
        for (int e = 14; e <= 20; e++) {
            int64_t n = (int64_t)1 << e, blocks = n / 256, warps = blocks * 8,
                    w = ti ? f_inst32(n) : f_inst16(n),
                    sp = ti ? s_inst32(n, e) : s_inst16(n);
            snprintf(path, sizeof path, "%s/t%d_n%d.csv", dir, ti, e);
            FILE *f = fopen(path, "w");
            cr_assert_not_null(f);
            fprintf(f, "%s\n%s\n", l0, l1);
            for (size_t c = 0; c < nr; c++) {
                if (c)
                    fputc(',', f);
                if (c == c_name)
                    fprintf(f, "\"void k<%d>(float *)\"", ti ? 32 : 16);
                else if (c == c_grid)
                    fprintf(f, "\"(%lld, 1, 1)\"", (long long)blocks);
                else if (c == c_lgrid)
                    fprintf(f, "\"%lld\"", (long long)blocks);
                else if (c == c_work)
                    fprintf(f, "\"%lld\"", (long long)(blocks * w));
                else if (c == c_inst)
                    fprintf(f, "\"%lld\"", (long long)(warps * sp));
                else if (c == c_warps)
                    fprintf(f, "\"%lld\"", (long long)warps);
                else
                    fputs(row[c], f);
            }
            fputc('\n', f);
            fclose(f);
            fprintf(pf, "t%d_n%d.csv,%lld,%d\n", ti, e, (long long)n, ti ? 32 : 16);
        }
    fclose(pf);
    free(t);
    mmm_profile *p = build(pts, NULL);
    const char *xml = mmm_profile_xml(p);
    const char *w = strstr(xml, " work=\""), *sp = strstr(xml, " span=\"");
    cr_assert(w && sp, "%s", xml);
    cr_expect(strncmp(w, " work=\"(t == 16)*(", 18) == 0, "%.200s", w);
    cr_expect(strstr(xml, "APPROXIMATE work") == NULL, "%s", xml);
    cr_expect(strncmp(sp, " span=\"(t == 16)*(", 18) == 0, "%.300s", sp);
    cr_expect(strstr(xml, "APPROXIMATE span") != NULL, "%s", xml);
    mmm_program *prog = load_text(xml);
    static const char *const names[] = {"n", "t"};
    for (int ti = 0; ti < 2; ti++) {
        int64_t n = (int64_t)1 << 23;
        const int64_t v[] = {n, ti ? 32 : 16};
        mmm_instance *inst = eval_at(prog, names, v, 2);
        cr_expect_eq(class_of(inst, "k")->count, n / 256);
        cr_expect_eq(class_of(inst, "k")->work, (double)(ti ? f_inst32(n) : f_inst16(n)),
                     "t=%d: work %g", ti ? 32 : 16, class_of(inst, "k")->work);
        if (!ti)
            cr_expect_eq(class_of(inst, "k")->span, (double)s_inst16(n), "span %g",
                         class_of(inst, "k")->span);
        mmm_instance_free(inst);
    }
    mmm_program_free(prog);
    mmm_profile_free(p);
    mmm_tmpdir_remove(dir);
}

/* ------------------------------------------------------------------ */
/* CUDA graphs                                                         */

/* graph_demo.cu's graph, run by `mmm profile run` on the H200: the DAG
 * has the graph's edges (from the program's source: memset -> scale ->
 * add and square -> join), not the chain of the launch order, in each of
 * the three replays, and a replay's first node follows the last one. */
Test(profile, graph_edges)
{
    mmm_profile *p = build(DATA "/graph/POINTS.csv", NULL);
    const char *xml = mmm_profile_xml(p);
    static const char *const want[] = {
        "<edge from=\"memset\" to=\"scale\"/>",     "<edge from=\"scale\" to=\"add\"/>",
        "<edge from=\"scale\" to=\"square\"/>",     "<edge from=\"add\" to=\"join\"/>",
        "<edge from=\"square\" to=\"join\"/>",      "<edge from=\"join\" to=\"memset#2\"/>",
        "<edge from=\"scale#3\" to=\"square#3\"/>", "<edge from=\"square#3\" to=\"join#3\"/>"};
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
        cr_expect(strstr(xml, want[i]) != NULL, "no %s in\n%s", want[i], xml);
    /* launch order put square after add (and square#2 after square) */
    cr_expect(strstr(xml, "<edge from=\"add\" to=\"square\"/>") == NULL);
    cr_expect(strstr(xml, "<edge from=\"square\" to=\"square#2\"/>") == NULL);
    size_t edges = 0;
    for (const char *s = xml; (s = strstr(s, "<edge ")); s++)
        edges++;
    cr_expect_eq(edges, 17, "%zu edges: 5 a replay, 2 between replays", edges);
    /* the file analyzes: the two branches are one antichain of the DAG */
    mmm_program *prog = load_text(xml);
    static const char *const names[] = {"n"};
    static const int64_t v[] = {1 << 22};
    mmm_instance *inst = eval_at(prog, names, v, 1);
    cr_expect_eq(class_of(inst, "square")->count, (1 << 22) / 256);
    mmm_instance_free(inst);
    mmm_program_free(prog);
    mmm_profile_free(p);
}

/* The tracer's version-2 rows: graph rows after the launches only, with
 * their ids; version 1 knows no graph rows. */
Test(profile, trace_graph_rows)
{
    static const char v2[] =
        "# mmm launch trace 2\n"
        "order,kind,name,stream,grid_x,grid_y,grid_z,block_x,block_y,block_z,registers,"
        "shared_static,shared_dynamic,bytes,copy,duration_ns,graph,node,to\n";
    static const char v1[] =
        "# mmm launch trace 1\n"
        "order,kind,name,stream,grid_x,grid_y,grid_z,block_x,block_y,block_z,registers,"
        "shared_static,shared_dynamic,bytes,copy,duration_ns,graph\n";
    static const char k2[] = "1,kernel,_Z1kv,7,4,1,1,32,1,1,8,0,0,,,1000,2,9,\n";
    static const char k1[] = "1,kernel,_Z1kv,7,4,1,1,32,1,1,8,0,0,,,1000,0\n";
    struct {
        const char *head, *rows;
        long line;
        const char *needle;
    } bad[] = {
        {v2, "1,edge,,,,,,,,,,,,,,,1,5,6\n2,kernel,_Z1kv,7,4,1,1,32,1,1,8,0,0,,,1000,2,9,\n",
         4, "after the graphs' rows"},
        {v2, "1,kernel,_Z1kv,7,4,1,1,32,1,1,8,0,0,,,1000,2,9,\n2,edge,,,,,,,,,,,,,,,1,0,6\n",
         4, "node is '0'"},
        {v2, "1,kernel,_Z1kv,7,4,1,1,32,1,1,8,0,0,,,1000,2,9,\n2,exec,,,,,,,,,,,,,,,0,2,\n", 4,
         "graph is '0'"},
        {v2, "1,kernel,_Z1kv,7,4,1,1,32,1,1,8,0,0,,,1000,x,9,\n", 3, "graph is 'x'"},
        {v1, "1,kernel,_Z1kv,7,4,1,1,32,1,1,8,0,0,,,1000,0\n2,edge,,,,,,,,,,,,,,,1\n", 4,
         "not kernel, memcpy or memset"},
        {v2, k1, 3, "fields where the header has 19"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char text[1024];
        snprintf(text, sizeof text, "%s%s", bad[i].head, bad[i].rows);
        ncu_bad(text, bad[i].line, bad[i].needle);
    }
    /* both versions read; a good version-2 file with its graph rows */
    char text[1024];
    mmm_ncu_capture *c = NULL;
    mmm_error err;
    snprintf(text, sizeof text, "%s%s", v1, k1);
    cr_expect_eq(mmm_ncu_read_memory(&c, text, strlen(text), "t1", &err), 0, "%s", err.message);
    mmm_ncu_free(c);
    c = NULL;
    snprintf(text, sizeof text, "%s%s2,memset,,7,,,,,,,,,,64,,500,2,8,\n3,edge,,,,,,,,,,,,,,,1,5,6\n"
                                "4,exec,,,,,,,,,,,,,,,1,2,\n5,clone,,,,,,,,,,,,,,,0,9,6\n",
             v2, k2);
    cr_expect_eq(mmm_ncu_read_memory(&c, text, strlen(text), "t2", &err), 0, "%s", err.message);
    cr_expect_eq(mmm_ncu_count(c), 1);
    mmm_ncu_free(c);
}

/* Version 3 of the trace: stream order beyond one stream.  The kernels of
 * the graph capture (its sample), launched on three streams: 20 blocking,
 * 30 non-blocking, 7 the legacy default stream; an event recorded on 20
 * and waited for on 30; the host waiting for stream 30.  Each edge below
 * is what CUDA's stream semantics make wait, worked out by hand. */
#define V3_HEAD                                                                        \
    "# mmm launch trace 3\n"                                                           \
    "order,kind,name,stream,grid_x,grid_y,grid_z,block_x,block_y,block_z,registers,"   \
    "shared_static,shared_dynamic,bytes,copy,duration_ns,graph,node,to,event\n"
#define V3_K(o, f, s) #o ",kernel," f "," #s ",1024,1,1,256,1,1,16,0,0,,,1500,0,0,,\n"

/* xml has the edges want[0 .. n) (from, to) and no other. */
static void expect_edges(const char *xml, const char *const (*want)[2], size_t n)
{
    size_t edges = 0;
    for (size_t i = 0; i < n; i++) {
        char e[128];
        snprintf(e, sizeof e, "<edge from=\"%s\" to=\"%s\"/>", want[i][0], want[i][1]);
        cr_expect(strstr(xml, e) != NULL, "no %s in\n%s", e, xml);
    }
    for (const char *s = xml; (s = strstr(s, "<edge ")); s++)
        edges++;
    cr_expect_eq(edges, n, "%zu edges, want %zu:\n%s", edges, n, xml);
}

Test(profile, stream_order_edges)
{
    static const char trace[] =
        V3_HEAD
        "1,stream,null,7,,,,,,,,,,,,,,,,\n"
        "2,stream,blocking,20,,,,,,,,,,,,,,,,\n"
        "3,stream,nonblocking,30,,,,,,,,,,,,,,,,\n"
        V3_K(4, "_Z5scalePfi", 20)          /* scale */
        "5,record,,20,,,,,,,,,,,,,,,,1\n"   /* event 1: scale */
        V3_K(6, "_Z3addPKfPfi", 30)         /* add: nothing before it */
        "7,wait,,30,,,,,,,,,,,,,,,,1\n"
        V3_K(8, "_Z6squarePKfPfi", 30)      /* square: add (stream), scale (event) */
        V3_K(9, "_Z4joinPKfS0_Pfi", 7)      /* join: scale (blocking 20), not 30 */
        V3_K(10, "_Z5scalePfi", 20)         /* scale#2: scale, join (default stream) */
        "11,sync,,30,,,,,,,,,,,,,,,,\n"     /* the host waits for square */
        V3_K(12, "_Z3addPKfPfi", 20)        /* add#2: scale#2, square (host) */
        "13,memset,,30,,,,,,,,,,4096,,900,0,0,,\n" /* memset: square */
        "14,wait,,20,,,,,,,,,,,,,,,,9\n";   /* an event never recorded: nothing */
    char dir[256], path[512], pts[512];
    mmm_tmpdir_make(dir, sizeof dir, "mmm_profile_streams");
    snprintf(path, sizeof path, "%s/launches.csv", dir);
    write_file(path, trace);
    snprintf(pts, sizeof pts, "%s/POINTS.csv", dir);
    char points[1024];
    snprintf(points, sizeof points, "ncu,n\n%s,262144\n%s,262144\n",
             DATA "/graph/point1-sample.csv", path);
    write_file(pts, points);
    mmm_profile *p = build(pts, NULL);
    const char *xml = mmm_profile_xml(p);
    static const char *const want[][2] = {
        {"scale", "square"},   {"add", "square"},   {"scale", "join"},
        {"scale", "scale#2"},  {"join", "scale#2"}, {"scale#2", "add#2"},
        {"square", "add#2"},   {"square", "memset"}};
    expect_edges(xml, want, sizeof want / sizeof want[0]);
    mmm_program *prog = load_text(xml);
    mmm_program_free(prog);
    mmm_profile_free(p);
    mmm_tmpdir_remove(dir);
}

/* Version 3's rows of stream order, and what each must have. */
Test(profile, trace_sync_rows)
{
    static const char k[] = V3_K(1, "_Z1kv", 7);
    struct {
        const char *rows;
        long line;
        const char *needle;
    } bad[] = {
        {"2,record,,,,,,,,,,,,,,,,,,1\n", 4, "a record row without a stream"},
        {"2,wait,,7,,,,,,,,,,,,,,,,0\n", 4, "event is '0'"},
        {"2,record,,7,,,,,,,,,,,,,,,,\n", 4, "event is ''"},
        {"2,sync,,7,,,,,,,,,,,,,,,,3\n", 4, "both a stream and an event"},
        {"2,stream,fast,7,,,,,,,,,,,,,,,,\n", 4, "not blocking, nonblocking or null"},
        {"2,edge,,,,,,,,,,,,,,,1,5,6,\n3,wait,,7,,,,,,,,,,,,,,,,1\n", 5,
         "after the graphs' rows"},
        {"2,barrier,,7,,,,,,,,,,,,,,,,\n", 4, "record, wait, sync, stream"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char text[1024];
        snprintf(text, sizeof text, "%s%s%s", V3_HEAD, k, bad[i].rows);
        ncu_bad(text, bad[i].line, bad[i].needle);
    }
    /* version 2 has no such rows */
    ncu_bad("# mmm launch trace 2\n"
            "order,kind,name,stream,grid_x,grid_y,grid_z,block_x,block_y,block_z,registers,"
            "shared_static,shared_dynamic,bytes,copy,duration_ns,graph,node,to\n"
            "1,kernel,_Z1kv,7,4,1,1,32,1,1,8,0,0,,,1000,0,0,\n"
            "2,record,,7,,,,,,,,,,,,,,,1\n",
            4, "not kernel, memcpy, memset, edge, exec or clone");
    /* a good one: every kind, the host's waits with and without a stream */
    char text[1024];
    mmm_ncu_capture *c = NULL;
    mmm_error err;
    snprintf(text, sizeof text,
             "%s%s2,stream,nonblocking,9,,,,,,,,,,,,,,,,\n3,record,,7,,,,,,,,,,,,,,,,4\n"
             "4,wait,,9,,,,,,,,,,,,,,,,4\n5,sync,,,,,,,,,,,,,,,,,,4\n6,sync,,,,,,,,,,,,,,,,,,\n"
             "7,sync,,9,,,,,,,,,,,,,,,,\n",
             V3_HEAD, k);
    cr_expect_eq(mmm_ncu_read_memory(&c, text, strlen(text), "t3", &err), 0, "%s", err.message);
    cr_expect_eq(mmm_ncu_count(c), 1);
    mmm_ncu_free(c);
}

/* The real capture of bench/profile/streams_demo.cu on the H200 (launch
 * traces of version 3): the edges its source makes CUDA wait for, as its
 * comment lists them (and the default stream's cudaMemset before scale,
 * the final memcpy after everything, which the host waited for). */
Test(profile, stream_order_capture)
{
    mmm_profile *p = build(DATA "/streams/POINTS.csv", NULL);
    const char *xml = mmm_profile_xml(p);
    static const char *const want[][2] = {
        {"memset", "scale"},      {"add", "square"},         {"scale", "square"},
        {"memset", "join"},       {"scale", "join"},         {"scale", "scale#2"},
        {"join", "scale#2"},      {"scale#2", "add#2"},      {"square", "add#2"},
        {"square", "memset#2"},   {"join", "memcpy_d2h"},    {"square", "memcpy_d2h"},
        {"memset#2", "memcpy_d2h"}, {"add#2", "memcpy_d2h"}};
    expect_edges(xml, want, sizeof want / sizeof want[0]);
    /* add waits for nothing: a non-blocking stream; join not for add */
    cr_expect_null(strstr(xml, "to=\"add\"/>"));
    cr_expect_null(strstr(xml, "<edge from=\"add\" to=\"join\"/>"));
    mmm_program *prog = load_text(xml);
    mmm_program_free(prog);
    mmm_profile_free(p);
    /* the raw traces read, the graph's waits on events no row records
       included */
    mmm_ncu_capture *c = NULL;
    mmm_error err;
    cr_expect_eq(mmm_ncu_read_file(&c, DATA "/streams/graph_trace_v3.csv", 0, &err), 0, "%s",
                 err.message);
    cr_expect_eq(mmm_ncu_count(c), 12);
    mmm_ncu_free(c);
}
