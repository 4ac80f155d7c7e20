/* test_cli.c: the built `mmm` binary: exit codes, usage, JSON keys and
 * values, CSV, and the FILE:LINE: error: messages of `mmm analyze`.
 * Expected numbers are the hand computations written in dags/diamond.xml
 * and dags/not_series_parallel.xml, not earlier output of the tool. */
#define _DEFAULT_SOURCE
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mmm_run.h"
#include "slurp.h"

#define DIAMOND MMM_DAGS_DIR "/diamond.xml"

static mmm_run_result run(const char *const *args)
{
    mmm_run_result r;
    memset(&r, 0, sizeof r);
    cr_assert(mmm_run(&r, args, NULL, &MMM_RUN_LIMITS_DEFAULT) == 0);
    cr_assert(r.exited, "mmm died of signal %d; stderr: %s", r.signal, r.err);
    return r;
}

/* The value of "key": NUMBER found after the first occurrence of `within`
 * (a key that opens an object, e.g. "\"metrics\""); NAN when absent. */
static double json_num(const char *json, const char *within, const char *key)
{
    char pat[128];
    const char *p = within ? strstr(json, within) : json;
    if (!p)
        return NAN;
    snprintf(pat, sizeof pat, "\"%s\": ", key);
    p = strstr(p, pat);
    return p ? strtod(p + strlen(pat), NULL) : NAN;
}

Test(cli, usage_and_help_exit_codes)
{
    const char *none[] = {NULL};
    const char *help[] = {"--help", NULL};
    const char *unknown[] = {"analyse", DIAMOND, NULL};
    const char *ahelp[] = {"analyze", "--help", NULL};
    const char *nofile[] = {"analyze", NULL};
    const char *badopt[] = {"analyze", DIAMOND, "--frobnicate", NULL};
    const char *badp[] = {"analyze", DIAMOND, "-p", "0", NULL};
    const char *badfmt[] = {"analyze", DIAMOND, "--format", "xml", NULL};
    const char *two[] = {"simulate", DIAMOND, DIAMOND, NULL};
    const char *badD[] = {"analyze", DIAMOND, "-D", "U", NULL};
    mmm_run_result r;

    r = run(none);
    cr_expect_eq(r.status, 2);
    cr_expect(strstr(r.err, "usage: mmm COMMAND"));
    mmm_run_dispose(&r);
    r = run(help);
    cr_expect_eq(r.status, 0);
    cr_expect(strstr(r.out, "analyze") && strstr(r.out, "simulate") && strstr(r.out, "render"));
    mmm_run_dispose(&r);
    r = run(unknown);
    cr_expect_eq(r.status, 2);
    cr_expect(strstr(r.err, "unknown command 'analyse'"));
    mmm_run_dispose(&r);
    r = run(ahelp);
    cr_expect_eq(r.status, 0);
    cr_expect(strstr(r.out, "usage: mmm analyze FILE") && strstr(r.out, "--machine"));
    mmm_run_dispose(&r);
    {
        const char *const *cases[] = {nofile, badopt, badp, badfmt, two, badD};
        size_t i;
        for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
            r = run(cases[i]);
            cr_expect_eq(r.status, 2, "case %zu: status %d, stderr %s", i, r.status, r.err);
            cr_expect(strstr(r.err, cases[i] == two ? "Try 'mmm simulate --help'"
                                                    : "Try 'mmm analyze --help'"),
                      "case %zu: %s", i, r.err);
            cr_expect_eq(r.out_len, 0u, "case %zu printed on stdout", i);
            mmm_run_dispose(&r);
        }
    }
}

Test(cli, analyze_json_keys_and_hand_values)
{
    const char *args[] = {"analyze", DIAMOND, "--format", "json", NULL};
    static const char *keys[] = {"\"program\"", "\"params\"", "\"metrics\"", "\"bounds\"",
                                 "\"kernels\"", "\"graham_brent\"", "\"corollary\"",
                                 "\"critical_path\"", "\"repeat\"", "\"blocks\""};
    mmm_run_result r = run(args);
    size_t i;
    cr_assert_eq(r.status, 0, "%s", r.err);
    for (i = 0; i < sizeof keys / sizeof keys[0]; i++)
        cr_expect(strstr(r.out, keys[i]), "missing key %s", keys[i]);
    /* dags/diamond.xml, computed by hand in its comment. */
    cr_expect_eq(json_num(r.out, "\"metrics\"", "W"), 104);
    cr_expect_eq(json_num(r.out, "\"metrics\"", "S"), 16);
    cr_expect_eq(json_num(r.out, "\"metrics\"", "O"), 230);
    cr_expect_eq(json_num(r.out, "\"metrics\"", "N"), 11);
    cr_expect_eq(json_num(r.out, "\"metrics\"", "L"), 3);
    cr_expect_eq(json_num(r.out, "\"metrics\"", "C"), 55);
    cr_expect_eq(json_num(r.out, "\"metrics\"", "K"), 8);
    /* the blocks: T1 = 2*24 + 3*32 + 5*17 + 55, Tinf = 24 + 32 + 55 */
    cr_expect_eq(json_num(r.out, "\"metrics\"", "T1"), 284);
    cr_expect_eq(json_num(r.out, "\"metrics\"", "T_inf"), 111);
    cr_expect_eq(json_num(r.out, "\"metrics\"", "parallelism_threads"), 6.5);
    cr_expect_eq(json_num(r.out, "\"bounds\"", "graham_brent"), 467.5);
    cr_expect_eq(json_num(r.out, "\"bounds\"", "corollary"), 240.625);
    cr_expect(strstr(r.out, "\"program\": \"diamond\""));
    cr_expect(strstr(r.out, "\"span\": [\n      \"a\",\n      \"c\",\n      \"d\"\n    ]"),
              "span path a c d: %s", r.out);
    /* one kernel per line (10^6 kernels stay greppable and half the size);
     * b by hand from dags/diamond.xml: 3 blocks of W(B) 6, S(B) 2,
     * r+w = 3 at U = 10: W 18, O 3·3·10 = 90, C 2 + 30 = 32 */
    cr_expect(strstr(r.out, "\n    {\"id\": \"b\", \"repeat\": 1, \"blocks\": 3, "
                            "\"varies\": false, \"N\": 3, \"L\": 1, \"K\": 3, "
                            "\"W\": 18, \"S\": 2, \"O\": 90, \"C\": 32, "
                            "\"line\": 30},\n"),
              "kernel b on one line: %s", r.out);
    mmm_run_dispose(&r);
}

Test(cli, analyze_json_is_valid_json)
{
    const char *args[] = {"analyze", MMM_DAGS_DIR "/poly_mul.xml", "--format", "json", NULL};
    char path[] = "/tmp/mmm-cli-XXXXXX";
    char cmd[512];
    mmm_run_result r = run(args);
    int fd, rc;
    cr_assert_eq(r.status, 0, "%s", r.err);
    if (system("python3 -c 'pass' >/dev/null 2>&1") != 0)
        cr_skip_test("python3 is not installed");
    fd = mkstemp(path);
    cr_assert(fd >= 0);
    cr_assert_eq(write(fd, r.out, r.out_len), (ssize_t)r.out_len);
    close(fd);
    snprintf(cmd, sizeof cmd,
             "python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); "
             "assert set(\"WSONLCK\") <= set(d[\"metrics\"]); "
             "assert \"corollary\" in d[\"bounds\"] and \"graham_brent\" in d[\"bounds\"]; "
             "assert all(set([\"id\",\"repeat\",\"blocks\",\"W\",\"S\",\"O\"]) <= set(k) for k in d[\"kernels\"]); "
             "assert d[\"program\"] == \"poly_mul\"' %s",
             path);
    rc = system(cmd);
    unlink(path);
    cr_expect_eq(rc, 0, "python3 rejected the JSON");
    mmm_run_dispose(&r);
}

/* --threads: the same output loaded in one thread or two; a bad value is
 * a usage error. */
Test(cli, threads_option)
{
    const char *one[] = {"analyze", DIAMOND, "--format", "json", "--threads", "1", NULL};
    const char *two[] = {"analyze", DIAMOND, "--format", "json", "--threads=2", NULL};
    const char *bad[] = {"analyze", DIAMOND, "--threads", "3", NULL};
    mmm_run_result a = run(one), b = run(two), c = run(bad);
    cr_assert_eq(a.status, 0, "%s", a.err);
    cr_assert_eq(b.status, 0, "%s", b.err);
    cr_expect_str_eq(a.out, b.out);
    cr_expect_eq(c.status, 2);
    cr_expect(strstr(c.err, "--threads needs 1, 2 or auto"), "%s", c.err);
    mmm_run_dispose(&a);
    mmm_run_dispose(&b);
    mmm_run_dispose(&c);
}

Test(cli, minus_p_overrides_the_parameter)
{
    const char *args[] = {"analyze", DIAMOND, "--format", "json", "-p", "3", NULL};
    mmm_run_result r = run(args);
    cr_assert_eq(r.status, 0, "%s", r.err);
    /* (11/3 + 3)·55 */
    cr_expect(fabs(json_num(r.out, "\"bounds\"", "graham_brent") - (11.0 / 3 + 3) * 55) < 1e-9);
    cr_expect_eq(json_num(r.out, "\"bounds\"", "p"), 3);
    mmm_run_dispose(&r);
}

Test(cli, analyze_csv_one_row_per_kernel)
{
    const char *args[] = {"analyze", DIAMOND, "--format", "csv", NULL};
    mmm_run_result r = run(args);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_expect(!strncmp(r.out, "id,repeat,blocks,N,L,K,W,S,O,C\n", 31), "%s", r.out);
    cr_expect_eq(mmm_run_lines(r.out), 5u);
    cr_expect(strstr(r.out, "\nc,1,5,5,1,5,50,7,50,17\n"), "%s", r.out);
    mmm_run_dispose(&r);
}

Test(cli, analyze_text_summary)
{
    const char *args[] = {"analyze", MMM_DAGS_DIR "/not_series_parallel.xml", NULL};
    mmm_run_result r = run(args);
    cr_assert_eq(r.status, 0, "%s", r.err);
    /* K of the N graph is 10 by minimum flow (hand computation in the file). */
    cr_expect(strstr(r.out, "K  largest antichain         10  (minimum flow)"), "%s", r.out);
    cr_expect(strstr(r.out, "critical path (span S)"));
    mmm_run_dispose(&r);
}

static void expect_error(const char *xml, const char *fragment)
{
    char path[] = "/tmp/mmm-cli-XXXXXX";
    char want[256];
    int fd = mkstemp(path);
    const char *args[] = {"analyze", path, NULL};
    mmm_run_result r;
    cr_assert(fd >= 0);
    cr_assert_eq(write(fd, xml, strlen(xml)), (ssize_t)strlen(xml));
    close(fd);
    r = run(args);
    snprintf(want, sizeof want, "%s:%s", path, fragment);
    cr_expect_eq(r.status, 1, "status %d for %s", r.status, fragment);
    cr_expect(!strncmp(r.err, want, strlen(want)), "want '%s', got '%s'", want, r.err);
    cr_expect_eq(mmm_run_lines(r.err), 1u, "one line: %s", r.err);
    cr_expect_eq(r.out_len, 0u);
    mmm_run_dispose(&r);
    unlink(path);
}

Test(cli, analyze_errors_are_file_line_error)
{
    expect_error("<program name=\"x\">\n<kernel id=\"a\" blocks=\"1\" work=\"1\" span=\"1\" "
                 "reads=\"0\" writes=\"0\"/>\n<edge from=\"a\" to=\"b\"/>\n</program>\n",
                 "3: error: edge to unknown kernel 'b'");
    expect_error("<program name=\"x\">\n<kernel id=\"a\" blocks=\"2.5\" work=\"1\" span=\"1\" "
                 "reads=\"0\" writes=\"0\"/>\n</program>\n",
                 "2: error: ");
    expect_error("<program name=\"x\">\n\n<kernel id=\"a\" blocks=\"n\" work=\"1\" span=\"1\" "
                 "reads=\"0\" writes=\"0\"/>\n</program>\n",
                 "3: error: ");
    expect_error("<program name=\"x\">\n<kernel id=\"a\" blocks=\"1\" work=\"1\"", "");
}

Test(cli, missing_file_and_unknown_parameter)
{
    const char *missing[] = {"analyze", "/nonexistent/dag.xml", NULL};
    const char *undeclared[] = {"analyze", DIAMOND, "-D", "zz=3", NULL};
    mmm_run_result r = run(missing);
    cr_expect_eq(r.status, 1);
    cr_expect(strstr(r.err, "/nonexistent/dag.xml: error: cannot open"), "%s", r.err);
    mmm_run_dispose(&r);
    r = run(undeclared);
    cr_expect_eq(r.status, 1);
    cr_expect(strstr(r.err, "error: -D zz: the file declares no parameter 'zz'"), "%s", r.err);
    mmm_run_dispose(&r);
}

/* The line of r.out that starts with prefix (after a newline, or at the
 * start), copied into line; fails the test when there is none. */
static void line_of(const mmm_run_result *r, const char *prefix, char *line,
                    size_t size)
{
    const char *at = r->out;
    size_t k = strlen(prefix);
    while (at && strncmp(at, prefix, k))
        at = (at = strchr(at, '\n')) ? at + 1 : NULL;
    cr_assert(at, "no line '%s' in:\n%s", prefix, r->out);
    size_t n = strcspn(at, "\n");
    cr_assert(n < size);
    memcpy(line, at, n);
    line[n] = 0;
}

/* A params line with dags/machines/h100.xml: the program's parameters and
 * the MMM's U, Z and p, and the machine file's other constants counted
 * instead of printed (as many as the file has <param> elements, less
 * those three). */
static void expect_params_line(const char *line, const char *own)
{
    cr_expect(strstr(line, " Z=70 ") && strstr(line, " U=690 ") &&
                  strstr(line, " p=132 ") && strstr(line, own),
              "%s", line);
    cr_expect(!strstr(line, "clock_hz") && !strstr(line, "launch_s"), "%s",
              line);
    char *machine = slurp(MMM_DAGS_DIR "/machines/h100.xml", NULL);
    int nparams = 0;
    for (const char *q = machine; (q = strstr(q, "<param ")); q++)
        nparams++;
    free(machine);
    char want[96];
    snprintf(want, sizeof want, "(and %d more constants of the machine file)",
             nparams - 3);
    cr_expect(strstr(line, want), "%s (want %s)", line, want);
}

/* optimize's "at best" line, analyze's and compare's params lines (a
 * program without parameters: test_output.c). */
Test(cli, params_lines_count_the_machine_constants)
{
    char line[512];
    const char *opt[] = {"optimize", MMM_DAGS_DIR "/poly_div_opt.xml",
                         "--param", "s", "-D", "Z=70", "-D", "n=7559",
                         "-D", "m=5040", "--machine",
                         MMM_DAGS_DIR "/machines/h100.xml", NULL};
    mmm_run_result r = run(opt);
    cr_assert_eq(r.status, 0, "%s", r.err);
    line_of(&r, "at best ", line, sizeof line);
    expect_params_line(line, " s=10");
    mmm_run_dispose(&r);

    const char *an[] = {"analyze", MMM_DAGS_DIR "/poly_div_opt.xml",
                        "-D", "Z=70", "-D", "n=7559", "-D", "m=5040",
                        "-D", "s=8", "--machine",
                        MMM_DAGS_DIR "/machines/h100.xml", NULL};
    r = run(an);
    cr_assert_eq(r.status, 0, "%s", r.err);
    line_of(&r, "params ", line, sizeof line);
    expect_params_line(line, " s=8");
    mmm_run_dispose(&r);

    const char *cmp[] = {"compare", MMM_DAGS_DIR "/poly_div_opt.xml",
                         MMM_DAGS_DIR "/poly_div_opt.xml", "-D", "Z=70",
                         "-D", "n=7559", "-D", "m=5040", "-D", "s=4",
                         "--machine", MMM_DAGS_DIR "/machines/h100.xml",
                         NULL};
    r = run(cmp);
    cr_assert_eq(r.status, 0, "%s", r.err);
    line_of(&r, "params A ", line, sizeof line);
    expect_params_line(line, " s=4");
    line_of(&r, "params B ", line, sizeof line);
    expect_params_line(line, " s=4");
    mmm_run_dispose(&r);

    mmm_run_dispose(&r);
}

/* "-" is standard input for a program (errors named <stdin>) and standard
 * output for --trace and --gantt (no file named "-" is created). */
Test(cli, dash_is_stdin_and_stdout)
{
    const char *analyze[] = {"analyze", "-", NULL};
    const char *bad[] = {"analyze", "-", NULL};
    const char *trace[] = {"simulate", "-", "-p", "2", "--trace", "-", NULL};
    const char *gantt[] = {"simulate", "-", "-p", "2", "--gantt", "-", NULL};
    mmm_run_result r;
    FILE *f;

    memset(&r, 0, sizeof r);
    cr_assert(mmm_run(&r, analyze, DIAMOND, &MMM_RUN_LIMITS_DEFAULT) == 0);
    cr_expect_eq(r.status, 0, "stderr: %s", r.err);
    cr_expect(strstr(r.out, "program  diamond  (<stdin>)"), "%s", r.out);
    mmm_run_dispose(&r);

    cr_assert((f = fopen("dash_bad.xml", "w")));
    fputs("<program name=\"x\">\n<kernel\n", f);
    fclose(f);
    cr_assert(mmm_run(&r, bad, "dash_bad.xml", &MMM_RUN_LIMITS_DEFAULT) == 0);
    cr_expect_eq(r.status, 1, "stderr: %s", r.err);
    cr_expect(strstr(r.err, "<stdin>:"), "%s", r.err);
    mmm_run_dispose(&r);
    remove("dash_bad.xml");

    remove("-");
    cr_assert(mmm_run(&r, trace, DIAMOND, &MMM_RUN_LIMITS_DEFAULT) == 0);
    cr_expect_eq(r.status, 0, "stderr: %s", r.err);
    cr_expect(strstr(r.out, "\"makespan\""), "%s", r.out);
    cr_expect(access("-", F_OK) != 0, "a file named '-' was created");
    mmm_run_dispose(&r);
    cr_assert(mmm_run(&r, gantt, DIAMOND, &MMM_RUN_LIMITS_DEFAULT) == 0);
    cr_expect_eq(r.status, 0, "stderr: %s", r.err);
    cr_expect(strstr(r.out, "</svg>"), "%s", r.out);
    mmm_run_dispose(&r);
}

/* A misspelt command or option gets the closest name (exit 2). */
Test(cli, did_you_mean)
{
    const char *cmd[] = {"analyse", DIAMOND, NULL};
    const char *opt[] = {"analyze", DIAMOND, "--fromat", "json", NULL};
    const char *own[] = {"simulate", DIAMOND, "--gnatt", "g.svg", NULL};
    mmm_run_result r = run(cmd);
    cr_expect_eq(r.status, 2);
    cr_expect(strstr(r.err, "mmm: unknown command 'analyse'; did you mean 'analyze'?\n"),
              "%s", r.err);
    cr_expect(!strstr(r.err, "usage:"), "%s", r.err);
    mmm_run_dispose(&r);
    r = run(opt);
    cr_expect_eq(r.status, 2);
    cr_expect(strstr(r.err, "unknown option '--fromat'; did you mean '--format'?"), "%s", r.err);
    cr_expect(strstr(r.err, "Try 'mmm analyze --help'."), "%s", r.err);
    mmm_run_dispose(&r);
    r = run(own);
    cr_expect_eq(r.status, 2);
    cr_expect(strstr(r.err, "unknown option '--gnatt'; did you mean '--gantt'?"), "%s", r.err);
    mmm_run_dispose(&r);
}

/* p is -p in every command, and --p too: simulate --p, scale -p. */
Test(cli, p_spelt_both_ways)
{
    const char *sim[] = {"simulate", DIAMOND, "--p", "2", NULL};
    const char *simlist[] = {"simulate", DIAMOND, "--p", "1,2", NULL};
    const char *scale[] = {"scale", DIAMOND, "-p", "2", NULL};
    mmm_run_result r = run(sim);
    cr_expect_eq(r.status, 0, "%s", r.err);
    cr_expect(strstr(r.out, "p = 2 SMs"), "%s", r.out);
    mmm_run_dispose(&r);
    r = run(simlist);
    cr_expect_eq(r.status, 0, "%s", r.err);
    cr_expect(strstr(r.out, "p = 1 SMs") && strstr(r.out, "p = 2 SMs"), "%s", r.out);
    mmm_run_dispose(&r);
    r = run(scale);
    cr_expect_eq(r.status, 0, "%s", r.err);
    mmm_run_dispose(&r);
}

/* calibrate where no NVIDIA driver is installed (no /dev/nvidiactl) says
 * so, not "driver version is insufficient". */
Test(cli, calibrate_without_driver)
{
    const char *args[] = {"calibrate", "--quick", NULL};
    mmm_run_result r;
    if (access("/dev/nvidiactl", F_OK) == 0)
        cr_skip_test("an NVIDIA driver is installed here");
    r = run(args);
    cr_expect_eq(r.status, 1, "%s", r.err);
    if (!strstr(r.err, "built without CUDA"))
        cr_expect(strstr(r.err, "mmm calibrate: error: no NVIDIA GPU or driver found"), "%s",
                  r.err);
    mmm_run_dispose(&r);
}

#define FORK_JOIN MMM_DAGS_DIR "/fork_join.xml"

/* The number of lines of s. */
static size_t lines(const char *s)
{
    size_t n = 0;
    for (; *s; s++)
        n += *s == '\n';
    return n;
}

/* analyze A B ...: one result per file, a bad file skipped (exit 1).  W
 * and N are the hand computations of the two files' comments (diamond:
 * W = 104, N = 11; fork_join: W = 116, N = 19). */
Test(cli, analyze_several_files)
{
    const char *text[] = {"analyze", DIAMOND, "no-such.xml", FORK_JOIN, NULL};
    const char *json[] = {"analyze", DIAMOND, "no-such.xml", FORK_JOIN, "--format", "json",
                          NULL};
    const char *csv[] = {"analyze", DIAMOND, FORK_JOIN, "--format", "csv", NULL};
    const char *totals[] = {"analyze", DIAMOND, FORK_JOIN, "--format", "csv", "--totals",
                            NULL};
    const char *p;
    mmm_run_result r = run(text);
    cr_expect_eq(r.status, 1, "%s", r.err);
    cr_expect(strstr(r.out, "==> " DIAMOND " <==\nprogram  diamond"), "%s", r.out);
    cr_expect((p = strstr(r.out, "\n\n==> " FORK_JOIN " <==\nprogram  fork_join")), "%s",
              r.out);
    cr_expect(strstr(r.err, "no-such.xml: error: cannot open"), "%s", r.err);
    cr_expect(!strstr(r.out, "no-such"), "%s", r.out);
    mmm_run_dispose(&r);

    r = run(json);
    cr_expect_eq(r.status, 1, "%s", r.err);
    cr_expect_eq(lines(r.out), 3u, "%s", r.out);
    cr_expect(!strncmp(r.out, "{\"program\": \"diamond\"", 21), "%s", r.out);
    cr_expect_eq(json_num(r.out, "\"metrics\"", "W"), 104);
    cr_expect(strstr(r.out, "}\n{\"file\": \"no-such.xml\", \"error\": \"no-such.xml: error: "
                            "cannot open"), "%s", r.out);
    cr_expect((p = strstr(r.out, "{\"program\": \"fork_join\"")), "%s", r.out);
    cr_expect_eq(json_num(p, "\"metrics\"", "W"), 116);
    mmm_run_dispose(&r);

    r = run(csv);
    cr_expect_eq(r.status, 0, "%s", r.err);
    cr_expect(!strncmp(r.out, "file,id,repeat,blocks,N,L,K,W,S,O,C\n", 36), "%s", r.out);
    cr_expect(strstr(r.out, "\n" DIAMOND ",a,1,2,2,1,2,16,4,40,24\n"), "%s", r.out);
    cr_expect(strstr(r.out, "\n" FORK_JOIN ",join,"), "%s", r.out);
    cr_expect_eq(lines(r.out), 1u + 4 + 5, "%s", r.out); /* one header, 9 kernels */
    mmm_run_dispose(&r);

    r = run(totals);
    cr_expect_eq(r.status, 0, "%s", r.err);
    cr_expect(strstr(r.out, "file,measure,value\n" DIAMOND ",W,104\n"), "%s", r.out);
    cr_expect(strstr(r.out, "\n" DIAMOND ",N,11\n") && strstr(r.out, "\n" FORK_JOIN ",W,116\n") &&
              strstr(r.out, "\n" FORK_JOIN ",N,19\n"), "%s", r.out);
    mmm_run_dispose(&r);
}

/* convert IN... -o DIR: DIR/BASE.xml each, the same program read back
 * (W of the hand computations: diamond 104, not_series_parallel 22); a
 * second file of the same base name fails, the others are written. */
Test(cli, convert_several_files)
{
    const char *conv[] = {"convert", DIAMOND, "no-such.stg", MMM_DAGS_DIR "/not_series_parallel.xml",
                          MMM_DAGS_DIR "/../dags/diamond.xml", "-o", "conv_out", NULL};
    const char *back[] = {"analyze", "conv_out/diamond.xml", "conv_out/not_series_parallel.xml",
                          "--format", "csv", "--totals", NULL};
    const char *stdout_many[] = {"convert", DIAMOND, FORK_JOIN, "-o", "-", NULL};
    mmm_run_result r;
    remove("conv_out/diamond.xml");
    remove("conv_out/not_series_parallel.xml");
    remove("conv_out");
    r = run(conv);
    cr_expect_eq(r.status, 1, "%s", r.err);
    cr_expect(strstr(r.err, "no-such.stg: error: cannot open"), "%s", r.err);
    cr_expect(strstr(r.err, "conv_out/diamond.xml was written from another file of this run"),
              "%s", r.err);
    mmm_run_dispose(&r);
    r = run(back);
    cr_expect_eq(r.status, 0, "%s", r.err);
    cr_expect(strstr(r.out, "conv_out/diamond.xml,W,104\n") &&
              strstr(r.out, "conv_out/not_series_parallel.xml,W,22\n"), "%s", r.out);
    mmm_run_dispose(&r);
    r = run(stdout_many);
    cr_expect_eq(r.status, 2, "%s", r.err);
    cr_expect_eq(r.out_len, 0u);
    mmm_run_dispose(&r);
    remove("conv_out/diamond.xml");
    remove("conv_out/not_series_parallel.xml");
    remove("conv_out");
}

/* An unknown option gets the closest name and the command's option list;
 * every option takes --name=VALUE as well as --name VALUE, -p is --p too,
 * and -o is --output in every command that writes a file. */
Test(cli, options_listed_and_spelt_alike)
{
    const char *bad[] = {"optimize", DIAMOND, "--frm", "1", NULL};
    const char *eq[] = {"analyze", DIAMOND, "--max-rows=1", "--p=5", "--model=mmm",
                        "--format=text", NULL};
    const char *sim[] = {"simulate", DIAMOND, "--policy=random", "--seed=3", "-p=2", NULL};
    const char *fit[] = {"fit", "--data=x.csv", DIAMOND, "--output", "o.xml", NULL};
    mmm_run_result r = run(bad);
    cr_expect_eq(r.status, 2);
    cr_expect(strstr(r.err, "unknown option '--frm'; did you mean '--from'?\nits options: "
                            "--max-points --max-rows --param"), "%s", r.err);
    cr_expect(strstr(r.err, " --machine ") && strstr(r.err, " --values ") &&
              strstr(r.err, " -D -p --help\nTry 'mmm optimize --help'."), "%s", r.err);
    mmm_run_dispose(&r);
    r = run(eq);
    cr_expect_eq(r.status, 0, "%s", r.err);
    cr_expect(strstr(r.out, "p = 5 ") && strstr(r.out, "... 3 more kernels"), "%s", r.out);
    mmm_run_dispose(&r);
    r = run(sim);
    cr_expect_eq(r.status, 0, "%s", r.err);
    cr_expect(strstr(r.out, "policy   random (seed 3), p = 2 SMs"), "%s", r.out);
    mmm_run_dispose(&r);
    r = run(fit);
    cr_expect_eq(r.status, 2);
    cr_expect(strstr(r.err, "-o needs --machine BASE.xml"), "%s", r.err);
    mmm_run_dispose(&r);
}

/* Every error about a file names it (FILE:LINE: where a line applies):
 * optimize's empty range (at the line of the parameter's declaration) and
 * --max-points; a DAX cut short says so, libxml2's words after. */
Test(cli, errors_name_their_file)
{
    const char *range[] = {"optimize", MMM_DAGS_DIR "/poly_div_opt.xml", "--param", "s",
                           "--from", "10", "--to", "5", NULL};
    const char *points[] = {"optimize", MMM_DAGS_DIR "/poly_div_opt.xml", "--param", "s",
                            "--max-points", "10", NULL};
    const char *dax[] = {"analyze", "cut.dax", NULL};
    char *text;
    size_t len;
    FILE *f;
    mmm_run_result r = run(range);
    cr_expect_eq(r.status, 1);
    cr_expect(!strncmp(r.err, MMM_DAGS_DIR "/poly_div_opt.xml:43: error: the range of 's' is "
                              "empty (from 10 to 5 with step > 0)", strlen(MMM_DAGS_DIR) + 70),
              "%s", r.err);
    mmm_run_dispose(&r);
    r = run(points);
    cr_expect_eq(r.status, 1);
    cr_expect(!strcmp(r.err, MMM_DAGS_DIR "/poly_div_opt.xml: error: the sweep has more than "
                             "10 points: sweep fewer values or raise --max-points\n"), "%s",
              r.err);
    mmm_run_dispose(&r);
    cr_assert((text = slurp(MMM_TEST_DATA "/import/hand/graph2.dax", &len)));
    cr_assert((f = fopen("cut.dax", "w")));
    fwrite(text, 1, (size_t)(strstr(text, "runtime=\"") - text) + 11, f);
    fclose(f);
    free(text);
    r = run(dax);
    cr_expect_eq(r.status, 1);
    cr_expect(strstr(r.err, "cut.dax:") && strstr(r.err, ": error: the file ends inside an "
                                                  "attribute's value: is it cut short? "
                                                  "(libxml2: attValue: ' expected)\n"),
              "%s", r.err);
    mmm_run_dispose(&r);
    remove("cut.dax");
}
