/* test_output.c: what the CLI prints, checked against values computed here
 * independently: exact integers past 2^53 (W, S, O, C summed by hand in
 * 64-bit integers), the whole critical path, the corollary's condition,
 * table columns that never run together, and errors that say what to fix
 * (-D names, spaces, constants). */
#include <criterion/criterion.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "slurp.h"

typedef struct out {
    int status;
    char *out, *err;
} out;

static char dir[64];

static void setup(void)
{
    strcpy(dir, "/tmp/mmm_outXXXXXX");
    cr_assert_not_null(mkdtemp(dir));
}

static void teardown(void)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    cr_assert_eq(system(cmd), 0);
}

static const char *write_xml(const char *name, const char *xml)
{
    static char path[256];
    FILE *f;
    snprintf(path, sizeof path, "%s/%s", dir, name);
    f = fopen(path, "w");
    cr_assert_not_null(f);
    fputs(xml, f);
    fclose(f);
    return path;
}

/* Run `mmm ARGS` (a shell word list) capturing stdout and stderr. */
static out run(const char *args)
{
    char cmd[4096], po[128], pe[128];
    out o;
    int st;
    snprintf(po, sizeof po, "%s/stdout", dir);
    snprintf(pe, sizeof pe, "%s/stderr", dir);
    snprintf(cmd, sizeof cmd, "%s %s > %s 2> %s", MMM_BIN, args, po, pe);
    st = system(cmd);
    cr_assert(st != -1);
    o.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    o.out = slurp(po, NULL);
    o.err = slurp(pe, NULL);
    return o;
}

static void out_free(out *o)
{
    free(o->out);
    free(o->err);
}

/* Does the JSON at path satisfy the python expression on d? */
static int json_check(const char *expr)
{
    char cmd[4096];
    snprintf(cmd, sizeof cmd,
             "python3 -c \"import json,sys; d=json.load(open('%s/stdout')); "
             "sys.exit(0 if (%s) else 1)\"", dir, expr);
    return system(cmd) == 0;
}

TestSuite(output, .init = setup, .fini = teardown);

/* An integer past 2^53: a of work = span = 2^53 + 1 (one block), then b of
 * cost 1.  By hand: W = S = 2^53 + 2, C = 2^53 + 1, which doubles round. */
Test(output, exact_past_2_53)
{
    const int64_t big = ((int64_t)1 << 53) + 1;
    char xml[1024], args[512], want[256];
    const char *f;
    out o;
    snprintf(xml, sizeof xml,
             "<program name='big'>"
             "<kernel id='a' blocks='1' work='2^53+1' span='2^53+1' reads='0' writes='0'/>"
             "<kernel id='b' blocks='1' work='1' span='1' reads='0' writes='0'/>"
             "<edge from='a' to='b'/></program>");
    f = write_xml("big.xml", xml);
    snprintf(args, sizeof args, "analyze %s --format json", f);
    o = run(args);
    cr_assert_eq(o.status, 0, "%s", o.err);
    snprintf(want, sizeof want,
             "d['metrics']['W']==%lld and d['metrics']['S']==%lld and "
             "d['metrics']['C']==%lld and d['metrics']['exact'] is True and "
             "d['kernels'][0]['W']==%lld",
             (long long)(big + 1), (long long)(big + 1), (long long)big, (long long)big);
    cr_assert(json_check(want), "%s", o.out);
    cr_assert_eq(o.err[0], '\0', "no note when exact: %s", o.err);
    out_free(&o);
    snprintf(args, sizeof args, "analyze %s", f);
    o = run(args);
    snprintf(want, sizeof want, "W  work                      %lld\n", (long long)(big + 1));
    cr_assert(strstr(o.out, want), "%s", o.out);
    snprintf(want, sizeof want, "C  max S(B) + O(B)           %lld\n", (long long)big);
    cr_assert(strstr(o.out, want), "%s", o.out);
    out_free(&o);
}

/* Past 2^63 the sums are doubles: said once on stderr, "exact": false. */
Test(output, inexact_is_said)
{
    const char *f = write_xml("huge.xml",
        "<program name='huge'><param name='n' value='4'/>"
        "<kernel id='a' blocks='4' work='2^62' span='1' reads='0' writes='0'/>"
        "<kernel id='b' blocks='1' work='n' span='n' reads='0' writes='0'/>"
        "<edge from='a' to='b'/></program>");
    char args[512];
    out o;
    snprintf(args, sizeof args, "analyze %s --format json", f);
    o = run(args);
    cr_assert_eq(o.status, 0, "%s", o.err);
    cr_assert(json_check("d['metrics']['exact'] is False"), "%s", o.out);
    cr_assert(strstr(o.err, "note: some integers exceed"), "%s", o.err);
    out_free(&o);
    /* -D n=10^19+1: exact arithmetic overflows 64 bits into a double. */
    f = write_xml("n.xml",
        "<program name='n'><param name='n' value='4'/>"
        "<kernel id='b' blocks='1' work='n' span='n' reads='0' writes='0'/></program>");
    snprintf(args, sizeof args, "analyze %s -D n=7 --format json", f);
    o = run(args);
    cr_assert(json_check("d['metrics']['exact'] is True and d['metrics']['W']==7"), "%s", o.out);
    cr_assert_eq(o.err[0], '\0', "%s", o.err);
    out_free(&o);
    snprintf(args, sizeof args, "analyze %s -D n=10^19+1 --format json", f);
    o = run(args);
    cr_assert_eq(o.status, 0, "%s", o.err);
    cr_assert(json_check("d['metrics']['exact'] is False"), "%s", o.out);
    {
        const char *first = strstr(o.err, "note: some integers");
        cr_assert(first && !strstr(first + 1, "note: some integers"),
                  "said once: %s", o.err);
    }
    out_free(&o);
}

/* A cost-0 last kernel stays on the critical path (a cost-0 first one did). */
Test(output, whole_critical_path)
{
    const char *f = write_xml("zero.xml",
        "<program name='zero'>"
        "<kernel id='first' blocks='1' work='0' span='0' reads='0' writes='0'/>"
        "<kernel id='mid' blocks='2' work='5' span='5' reads='0' writes='0'/>"
        "<kernel id='last' blocks='1' work='0' span='0' reads='0' writes='0'/>"
        "<edge from='first' to='mid'/><edge from='mid' to='last'/></program>");
    char args[512];
    out o;
    snprintf(args, sizeof args, "analyze %s --format json", f);
    o = run(args);
    cr_assert_eq(o.status, 0, "%s", o.err);
    cr_assert(json_check("d['critical_path']['span']==['first','mid','last'] and "
                         "d['critical_path']['L']==['first','mid','last']"),
              "%s", o.out);
    out_free(&o);
}

/* The corollary is labelled with its condition p >= K (diamond: K = 8). */
Test(output, corollary_condition)
{
    char args[512];
    out o;
    snprintf(args, sizeof args, "analyze %s/diamond.xml -p 2", MMM_DAGS_DIR);
    o = run(args);
    cr_assert(strstr(o.out, "corollary     (N/K + L)C  p >= K = 8"), "%s", o.out);
    cr_assert(strstr(o.out, "(not a bound at this p < K)"), "%s", o.out);
    out_free(&o);
    snprintf(args, sizeof args, "analyze %s/diamond.xml -p 8", MMM_DAGS_DIR);
    o = run(args);
    cr_assert(!strstr(o.out, "not a bound"), "%s", o.out);
    out_free(&o);
    /* JSON says it too, beside the value. */
    snprintf(args, sizeof args, "analyze %s/diamond.xml -p 2 --format json", MMM_DAGS_DIR);
    o = run(args);
    cr_assert(json_check("d['bounds']['corollary_holds_from_p'] == 8 == d['metrics']['K']"),
              "%s", o.out);
    out_free(&o);
}

/* Wide numbers never run together: every row of the kernel table splits
 * into the 8 columns of its header. */
Test(output, table_columns_apart)
{
    char args[512];
    out o;
    char *line, *save = NULL;
    int in_table = 0, rows = 0;
    snprintf(args, sizeof args, "analyze %s/poly_div_opt.xml -D n=2^60 -D m=2^4", MMM_DAGS_DIR);
    o = run(args);
    cr_assert_eq(o.status, 0, "%s", o.err);
    for (line = strtok_r(o.out, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        int fields = 0;
        char *p = line;
        if (!strncmp(line, "kernel ", 7))
            in_table = 1;
        if (!in_table || line[0] == '(' || line[0] == '.')
            continue;
        while (*p) {
            while (*p == ' ')
                p++;
            if (*p)
                fields++;
            while (*p && *p != ' ')
                p++;
        }
        cr_assert_eq(fields, 8, "row '%s'", line);
        rows++;
    }
    cr_assert_geq(rows, 2);
    out_free(&o);
}

/* optimize's tables size their columns to their content: with U = 4·10^5
 * the overhead at s = 1 has 15 digits, wider than a fixed 12-character
 * column.  Every number of a row ends where its header's name ends (right
 * aligned), in the summary table and in the sweep table. */
static void right_aligned(const char *text, int nth, const char *col)
{
    const char *h = text, *line, *end;
    size_t at, n = 0;
    char name[32];
    int k;
    for (k = 0; k <= nth; k++) { /* the nth line naming Graham-Brent, from 0 */
        h = strstr(h, "Graham-Brent  ");
        cr_assert_not_null(h, "header %d missing in\n%s", nth, text);
        while (h > text && h[-1] != '\n')
            h--;
        if (k < nth)
            h = strchr(h, '\n');
    }
    snprintf(name, sizeof name, " %s", col);
    cr_assert_not_null(strstr(h, name));
    at = (size_t)(strstr(h, name) - h) + strlen(col); /* column of the name's last char */
    cr_assert(h[at + 1] == ' ' || h[at + 1] == '\n', "%s", h);
    for (line = strchr(h, '\n') + 1; *line && *line != '\n'; line = end + 1) {
        end = strchr(line, '\n');
        cr_assert_not_null(end);
        if (!strncmp(line, "s0/best", 7) || line[0] == '(')
            break;
        cr_assert((size_t)(end - line) > at, "%.*s", (int)(end - line), line);
        cr_assert(line[at] >= '0' && line[at] <= '9' &&
                  (line[at + 1] == ' ' || line + at + 1 == end),
                  "column %s of '%.*s' does not end under its header", col,
                  (int)(end - line), line);
        n++;
    }
    cr_assert_geq(n, 2);
}

Test(output, optimize_columns_fit_their_content)
{
    char args[512];
    out o;
    snprintf(args, sizeof args, "optimize %s/poly_div_opt.xml --param s --values 1,2,64 "
             "-D U=400000", MMM_DAGS_DIR);
    o = run(args);
    cr_assert_eq(o.status, 0, "%s", o.err);
    right_aligned(o.out, 0, "O"); /* best, baseline */
    right_aligned(o.out, 1, "O"); /* the sweep table */
    right_aligned(o.out, 1, "corollary");
    out_free(&o);
}

/* A program without parameters (a task graph) says so instead of an
 * empty "params" line, in analyze and in compare. */
Test(output, no_params_said)
{
    char args[512];
    out o;
    const char *path = write_xml("noparam.xml",
        "<program name=\"g\"><kernel id=\"a\" blocks=\"1\" work=\"1\" span=\"1\" "
        "reads=\"0\" writes=\"0\"/></program>\n");
    snprintf(args, sizeof args, "analyze %s", path);
    o = run(args);
    cr_assert_eq(o.status, 0, "%s", o.err);
    cr_assert(strstr(o.out, "\nparams   (none)\n"), "%s", o.out);
    out_free(&o);
    snprintf(args, sizeof args, "compare %s %s", path, path);
    o = run(args);
    cr_assert_eq(o.status, 0, "%s", o.err);
    cr_assert(strstr(o.out, "\nparams A   (none)\n"), "%s", o.out);
    out_free(&o);
}

/* The time model's table says what its numbers are: resident blocks per
 * SM and what limits them (not "resident (limit)" over "8 threads"); one
 * launch is "1 launch".  simulate without p names every way to give it. */
Test(output, time_table_and_simulate_p_said)
{
    char args[512];
    out o;
    const char *path = write_xml("one.xml",
        "<program name=\"g\"><param name=\"U\" value=\"1\"/>"
        "<kernel id=\"a\" blocks=\"1000\" threads=\"256\" "
        "work=\"256\" span=\"1\" reads=\"1\" writes=\"1\"/></program>\n");
    snprintf(args, sizeof args, "analyze %s --machine %s/machines/h100-fitted.xml --model time",
             path, MMM_DAGS_DIR);
    o = run(args);
    cr_assert_eq(o.status, 0, "%s", o.err);
    cr_assert(strstr(o.out, " blocks/SM limited by dominant\n"), "%s", o.out);
    cr_assert(strstr(o.out, ", 1 launch\n"), "%s", o.out);
    out_free(&o);
    snprintf(args, sizeof args, "simulate %s", path);
    o = run(args);
    cr_assert_eq(o.status, 2);
    cr_assert(strstr(o.err, "give -p P, a machine file that sets p (--machine FILE), or "
                            "declare a parameter p"), "%s", o.err);
    out_free(&o);
}

/* -D: spaces around the name, a close name suggested, constants only. */
Test(output, define_errors_say_what_to_fix)
{
    const char *f = write_xml("d.xml",
        "<program name='d'><param name='n' value='4'/><param name='B' value='2'/>"
        "<kernel id='a' blocks='n' work='1' span='1' reads='0' writes='0'/></program>");
    char args[512], want[512];
    out o;
    snprintf(args, sizeof args, "analyze %s -D ' n = 2^10 ' --format json", f);
    o = run(args);
    cr_assert_eq(o.status, 0, "%s", o.err);
    cr_assert(json_check("d['metrics']['N']==1024"), "%s", o.out);
    out_free(&o);
    snprintf(args, sizeof args, "analyze %s -D N=3", f);
    o = run(args);
    cr_assert_eq(o.status, 1);
    cr_assert(strstr(o.err, "no parameter 'N'; did you mean 'n'?"), "%s", o.err);
    out_free(&o);
    snprintf(args, sizeof args, "analyze %s -D zzz=3", f);
    o = run(args);
    cr_assert(strstr(o.err, "it declares 'n', 'B'"), "%s", o.err);
    out_free(&o);
    snprintf(args, sizeof args, "analyze %s -D n=B^3", f);
    o = run(args);
    cr_assert_eq(o.status, 1);
    snprintf(want, sizeof want, "%s: error: -D n=B^3: -D values must be constants: "
             "'B' is a parameter of the file", f);
    cr_assert(strstr(o.err, want), "%s", o.err);
    out_free(&o);
    /* p is no parameter of this file: -p gives it */
    snprintf(args, sizeof args, "analyze %s -D p=4", f);
    o = run(args);
    cr_assert_eq(o.status, 1);
    cr_assert(strstr(o.err, "no parameter 'p'; the number of SMs p is given with -p P"),
              "%s", o.err);
    out_free(&o);
}

/* `mmm ARGS` fails with status and stderr one line starting with want. */
static void expect_error(const char *args, int status, const char *want)
{
    out o = run(args);
    cr_assert_eq(o.status, status, "%s: %s", args, o.err);
    cr_assert(!strncmp(o.err, want, strlen(want)), "%s\nwanted %s", o.err, want);
    cr_assert_eq(strchr(o.err, '\n'), o.err + strlen(o.err) - 1, "one line: %s", o.err);
    out_free(&o);
}

/* Mistakes in the file: FILE:LINE: error: what to write instead. */
Test(output, file_errors_say_what_to_fix)
{
    const char *f = write_xml("lt.xml",
        "<program name='d'><param name='n' value='4'/>\n"
        "<constraint test='n < 8'/>\n"
        "<kernel id='a' blocks='n' work='1' span='1' reads='0' writes='0'/></program>");
    char args[512], want[512];
    snprintf(args, sizeof args, "analyze %s", f);
    snprintf(want, sizeof want, "%s:2: error: a '<' inside an attribute: write &lt; for "
             "'<' (and &amp; for '&'), e.g. test=\"n &lt; 2^20\" (libxml2: unescaped '<' "
             "not allowed in attributes values)", f);
    expect_error(args, 1, want);
    f = write_xml("typo.xml",
        "<program name='d'><param name='n' value='4'/>\n"
        "<kernel id='a' blocks='n' work='1' spna='1' reads='0' writes='0'/></program>");
    snprintf(args, sizeof args, "analyze %s", f);
    snprintf(want, sizeof want, "%s:2: error: element 'kernel', attribute 'spna': the "
             "attribute 'spna' is not allowed; did you mean 'span'? (allowed: id, ", f);
    expect_error(args, 1, want);
}

/* optimize --param p on a file that leaves p to -p: what to run instead,
 * and the commands it names work. */
Test(output, optimize_param_p_advice)
{
    const char *f = write_xml("nop.xml",
        "<program name='d'><param name='U' value='2'/>"
        "<kernel id='a' blocks='4' work='1' span='1' reads='1' writes='0'/>"
        "<kernel id='b' blocks='1' work='1' span='1' reads='1' writes='0'/>"
        "<edge from='a' to='b'/></program>");
    char args[512], want[512], cmd[512];
    const char *q;
    out o;
    snprintf(args, sizeof args, "optimize %s --param p --from 1 --to 8 -p 2", f);
    snprintf(want, sizeof want, "%s: error: --param p: the file declares no parameter 'p': "
             "p, the number of SMs, comes from -p or the machine file", f);
    expect_error(args, 1, want);
    o = run(args);
    for (int i = 0; i < 2; i++) {
        q = strstr(o.err, i ? "'mmm simulate " : "'mmm scale ");
        cr_assert_not_null(q, "%s", o.err);
        snprintf(cmd, sizeof cmd, "%.*s", (int)(strchr(q + 1, '\'') - q - 5), q + 5);
        out r = run(cmd);
        cr_assert_eq(r.status, 0, "mmm %s: %s", cmd, r.err);
        out_free(&r);
    }
    out_free(&o);
    /* with a machine file that sets p, p is swept */
    f = write_xml("m.xml", "<machine name='m'><param name='p' value='3'/></machine>");
    snprintf(args, sizeof args, "optimize %s/nop.xml --param p --from 1 --to 2 --machine %s "
             "--format json", dir, f);
    o = run(args);
    cr_assert_eq(o.status, 0, "%s", o.err);
    out_free(&o);
}

/* optimize --param U --from 0: O is 0 at the best value, so O(s0)/O(s) is
 * undefined: "undefined" in the text, null in JSON.  fork_join.xml: O =
 * 48U (its comment: O = 480 at U = 10); C = 10 at U = 0 and 12 at U = 2
 * (the w3 block 10 + 2, the join 2 + 10), N, L, K and p fixed, so both
 * bounds' ratio is 12/10. */
Test(output, optimize_ratio_undefined_at_zero)
{
    char args[512];
    out o;
    snprintf(args, sizeof args, "optimize %s/fork_join.xml --param U --from 0 --to 3 "
             "--baseline 2 --format json", MMM_DAGS_DIR);
    o = run(args);
    cr_assert_eq(o.status, 0, "%s", o.err);
    cr_assert(json_check("d['best']['params']['U']==0 and d['baseline']['params']['U']==2 "
                         "and d['ratios']['O'] is None and d['ratios']['W']==1 "
                         "and d['ratios']['S']==1 "
                         "and abs(d['ratios']['corollary']-1.2)<1e-12 "
                         "and abs(d['ratios']['graham_brent']-1.2)<1e-12 "
                         "and any('undefined' in n for n in d['notes'])"),
              "%s", o.out);
    out_free(&o);
    snprintf(args, sizeof args, "optimize %s/fork_join.xml --param U --from 0 --to 3",
             MMM_DAGS_DIR);
    o = run(args);
    cr_assert_eq(o.status, 0, "%s", o.err);
    cr_assert(!strstr(o.out, "nan"), "%s", o.out);
    const char *row = strstr(o.out, "\ns0/best");
    cr_assert_not_null(row, "%s", o.out);
    char line[256];
    snprintf(line, sizeof line, "%.*s", (int)strcspn(row + 1, "\n"), row + 1);
    double w, sr, gb, co;
    char ocell[32];
    cr_assert_eq(sscanf(line, "s0/best %lf %lf %31s %lf %lf", &w, &sr, ocell, &gb, &co), 5,
                 "%s", line);
    cr_assert_str_eq(ocell, "undefined");
    cr_assert(w == 1 && sr == 1 && gb == 1 && co == 1, "%s", line);
    cr_assert(strstr(o.out, "note       s0/best of O is undefined"), "%s", o.out);
    out_free(&o);
}

/* TMM: the program's T is a mean over launches; "set by the hardware
 * limit X" only when it is X itself (poly_mul on the GTX 480: X = 48). */
Test(output, tmm_limit_claim)
{
    char args[512];
    out o;
    const char *line;
    double T;
    snprintf(args, sizeof args, "analyze %s/poly_mul.xml --machine %s/machines/gtx480.xml "
             "--model tmm", MMM_DAGS_DIR, MMM_DAGS_DIR);
    o = run(args);
    cr_assert_eq(o.status, 0, "%s", o.err);
    line = strstr(o.out, "T     threads per core");
    cr_assert_not_null(line, "%s", o.out);
    T = strtod(line + strlen("T     threads per core"), NULL);
    if (T != 48)
        cr_assert(!strncmp(strchr(line, '(') + 1, "a mean over the launches", 24),
                  "T = %g: %.200s", T, line);
    cr_assert(T < 48, "this program's T is a mean below X: %g", T);
    out_free(&o);
}

/* compare --model tmm: both programs' TMM sections, and the ratio of their
 * T_P checked against the two objects it comes from. */
Test(output, compare_model)
{
    char args[512];
    out o;
    snprintf(args, sizeof args, "compare %s/poly_div_naive.xml %s/poly_div_opt.xml "
             "--machine %s/machines/gtx480.xml --model tmm --format json",
             MMM_DAGS_DIR, MMM_DAGS_DIR, MMM_DAGS_DIR);
    o = run(args);
    cr_assert_eq(o.status, 0, "%s", o.err);
    cr_assert(json_check("abs(d['ratios']['tmm_TP'] - d['a']['tmm']['TP_global'] / "
                         "d['b']['tmm']['TP_global']) < 1e-12 * d['ratios']['tmm_TP']"),
              "%s", o.out);
    out_free(&o);
    snprintf(args, sizeof args, "compare %s/poly_div_naive.xml %s/poly_div_opt.xml "
             "--machine %s/machines/gtx480.xml --model tmm",
             MMM_DAGS_DIR, MMM_DAGS_DIR, MMM_DAGS_DIR);
    o = run(args);
    cr_assert(strstr(o.out, "==== A: poly_div_naive ====") &&
              strstr(o.out, "==== B: poly_div_opt ====") && strstr(o.out, "R (TMM T_P"),
              "%s", o.out);
    out_free(&o);
    snprintf(args, sizeof args, "compare %s/diamond.xml %s/diamond.xml --model nope",
             MMM_DAGS_DIR, MMM_DAGS_DIR);
    o = run(args);
    cr_assert_eq(o.status, 2);
    out_free(&o);
}

/* analyze --format csv --totals: diamond.xml's totals, computed by hand in
 * its comment (W 104, S 16, O 230, N 11, L 3, C 55, K 8, T1 284, Tinf 111,
 * p = 2: (11/2 + 3)55 = 467.5, (11/8 + 3)55 = 240.625). */
Test(output, csv_totals)
{
    char args[512];
    out o;
    snprintf(args, sizeof args, "analyze %s/diamond.xml --format csv --totals", MMM_DAGS_DIR);
    o = run(args);
    cr_assert_eq(o.status, 0, "%s", o.err);
    cr_assert_str_eq(o.out, "measure,value\nW,104\nS,16\nO,230\nN,11\nL,3\nC,55\nK,8\n"
                            "parallelism,6.5\nparallelism_threads,6.5\nT1,284\nT_inf,111\n"
                            "parallelism_blocks,2.5585585585585586\n"
                            "p,2\ngraham_brent,467.5\ncorollary,240.625\n"
                            "corollary_holds_from_p,8\nexact,true\n");
    out_free(&o);
    snprintf(args, sizeof args, "analyze %s/diamond.xml --totals", MMM_DAGS_DIR);
    o = run(args);
    cr_assert_eq(o.status, 2);
    out_free(&o);
}
