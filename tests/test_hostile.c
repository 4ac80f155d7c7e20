/* test_hostile.c: hostile and accidental inputs, run through the built mmm
 * binary in a child process with resource limits (helpers/mmm_run.h).
 *
 * Every case asserts: the exit status (1 for a refusal), a single line on
 * stderr "FILE:LINE: error: MESSAGE" (or "FILE: error: MESSAGE" where no
 * line applies) with the expected fragment, nothing on stdout, a bounded
 * wall time and a bounded peak resident size.  The memory bound is also
 * enforced while the child runs (RLIMIT_AS of 1 GiB) except under
 * AddressSanitizer, where an address-space limit breaks the shadow memory:
 * there only the peak resident size is checked (see mmm_run.h).
 *
 * tests/data/hostile/ holds one small file per attack or accident (the
 * table below says what each must give); the big ones (10^5-deep nesting,
 * 10^6 parameters, a 10^6-term expression, a 10^5-kernel cycle, a 1 GiB
 * attribute) are generated into a temporary folder by the tests. */
/* wait4 (the child's own peak memory) is a BSD/GNU extension. */
#define _DEFAULT_SOURCE 1

#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <dirent.h>
#include <netinet/in.h>
#include <stdint.h>
#include <sys/socket.h>
#include <sys/stat.h>

#include "mmm/mmm.h"
#include "mmm_run.h"
#include "slurp.h"
#include "tmpdir.h"

#define HOSTILE MMM_TEST_DATA "/hostile/"

/* Peak resident size allowed to one run (ASan's shadow and quarantine
 * inflate it; a leak or an expansion bomb goes far past either). */
#define RSS_LIMIT_KB (MMM_RUN_ASAN ? 768L * 1024 : 256L * 1024)

/* ------------------------------------------------------------------ */
/* Helpers                                                             */

/* Split a space-separated argument string into argv (in buf). */
static size_t split_args(const char **argv, size_t max, char *buf)
{
    size_t n = 0;
    for (char *t = strtok(buf, " "); t && n + 1 < max; t = strtok(NULL, " "))
        argv[n++] = t;
    argv[n] = NULL;
    return n;
}

/* Run `mmm CMD PATH ARGS...` with the default limits. */
static void run_cmd(mmm_run_result *r, const char *cmd, const char *path,
                    const char *args, unsigned wall_s)
{
    const char *argv[48];
    char buf[512] = "";
    mmm_run_limits lim = MMM_RUN_LIMITS_DEFAULT;
    size_t n = 0;
    argv[n++] = cmd;
    argv[n++] = path;
    if (args)
        snprintf(buf, sizeof buf, "%s", args);
    split_args(argv + n, 40, buf);
    lim.wall_s = wall_s * 4; /* the alarm is the backstop, not the check */
    lim.cpu_s = wall_s * 4;
    cr_assert_eq(mmm_run(r, argv, NULL, &lim), 0, "cannot run %s", MMM_BIN);
}

/* The common checks of a refused input. */
static void expect_refusal(const mmm_run_result *r, const char *path,
                           long line, const char *fragment, double max_wall)
{
    char prefix[4096];
    if (line > 0)
        snprintf(prefix, sizeof prefix, "%s:%ld: error: ", path, line);
    else
        snprintf(prefix, sizeof prefix, "%s: error: ", path);
    cr_expect(r->exited, "%s: killed by signal %d", path, r->signal);
    cr_expect_eq(r->status, 1, "%s: exit %d, stderr: %s", path, r->status,
                 r->err);
    cr_expect_eq(r->out_len, 0, "%s: stdout not empty: %.200s", path, r->out);
    cr_expect_eq(mmm_run_lines(r->err), 1, "%s: stderr is not one line: %.600s",
                 path, r->err);
    cr_expect(!strncmp(r->err, prefix, strlen(prefix)),
              "%s: stderr does not start with '%s': %.600s", path, prefix,
              r->err);
    cr_expect(strstr(r->err, fragment) != NULL,
              "%s: stderr lacks '%s': %.600s", path, fragment, r->err);
    cr_expect_lt(r->wall, max_wall, "%s: took %.2f s (bound %.0f s)", path,
                 r->wall, max_wall);
    cr_expect_lt(r->maxrss_kb, RSS_LIMIT_KB, "%s: peak RSS %ld KiB", path,
                 r->maxrss_kb);
}

static void expect_success(const mmm_run_result *r, const char *path,
                           double max_wall)
{
    cr_expect(r->exited, "%s: killed by signal %d", path, r->signal);
    cr_expect_eq(r->status, 0, "%s: exit %d, stderr: %s", path, r->status,
                 r->err);
    cr_expect_eq(r->err_len, 0, "%s: stderr: %s", path, r->err);
    cr_expect_lt(r->wall, max_wall, "%s: took %.2f s", path, r->wall);
    cr_expect_lt(r->maxrss_kb, RSS_LIMIT_KB, "%s: peak RSS %ld KiB", path,
                 r->maxrss_kb);
}

static FILE *create(char *path, size_t size, const char *dir, const char *name)
{
    FILE *f;
    snprintf(path, size, "%s/%s", dir, name);
    f = fopen(path, "wb");
    cr_assert(f != NULL, "cannot create %s", path);
    return f;
}

/* A JSON metric "name": value of analyze --format json. */
static double json_number(const char *json, const char *key)
{
    char pat[64];
    const char *p;
    snprintf(pat, sizeof pat, "\"%s\": ", key);
    p = strstr(json, pat);
    cr_assert(p != NULL, "no %s in %.300s", key, json);
    return strtod(p + strlen(pat), NULL);
}


/* ------------------------------------------------------------------ */
/* The committed files                                                 */

/* Strings inline: Criterion may run each parameter in a freshly executed
 * process, where pointers into the data of this one mean nothing. */
typedef struct hostile_case {
    char file[48];        /* under tests/data/hostile/ */
    char args[48];        /* extra arguments for analyze, or "" */
    long line;            /* expected line; 0: none; -1: accepted (exit 0) */
    char fragment[160];   /* expected in the message */
} hostile_case;

#define DOCTYPE "DOCTYPE is not allowed (no entities or DTDs in DAG files)"
#define DEEP "expression nested too deeply (more than 64 levels"
#define UTF8 "input is not proper UTF-8"

static hostile_case cases[] = {
    /* entities, DTDs and external resources: refused at the DOCTYPE */
    {"billion_laughs.xml", "", 2, DOCTYPE},
    {"quadratic_blowup.xml", "", 2, DOCTYPE},
    {"external_entity_file.xml", "", 2, DOCTYPE},
    {"external_entity_network.xml", "", 2, DOCTYPE},
    {"external_dtd_network.xml", "", 2, DOCTYPE},
    {"parameter_entity.xml", "", 2, DOCTYPE},
    {"undefined_entity.xml", "", 4, "entity 'nope' not defined"},
    {"xinclude.xml", "", 3, "XInclude}include': this element is not expected"},
    {"schema_location_network.xml", "", 5, "element 'kernal': this element is not expected"},
    {"stylesheet_pi.xml", "", -1, ""},
    /* nesting */
    {"deep_parentheses.xml", "", 4, DEEP},
    {"deep_unary.xml", "", 4, DEEP},
    {"deep_power.xml", "", 4, DEEP},
    {"deep_functions.xml", "", 4, DEEP},
    {"nesting_elements.xml", "", 5, "element 'blocks': this element is not expected. expected is ( access )"},
    /* numbers */
    {"number_1e309.xml", "", 4, "number out of range at column 1 in '1e309'"},
    {"number_1e-400.xml", "", 4, "number out of range at column 1 in '1e-400'"},
    {"number_negative_zero.xml", "", -1, ""},
    {"number_nan.xml", "", 4, "unknown parameter 'NaN'"},
    {"number_inf.xml", "", 4, "unknown parameter 'inf'"},
    {"number_hex.xml", "", 4, "hexadecimal numbers are not supported"},
    {"number_fraction_count.xml", "", 4, "blocks of kernel 'a' = 1.4142135623730951 is not an integer (use ceil() or floor())"},
    {"number_negative_count.xml", "", 4, "blocks of kernel 'a' = -1 is negative"},
    {"number_negative_cost.xml", "", 4, "work of kernel 'a' = -1 is negative"},
    {"number_negative_U.xml", "", 3, "parameter 'U' = -5 must not be negative"},
    {"number_p_2_64.xml", "", 4, "parameter 'p' = 1.8446744073709552e+19 must be a positive integer"},
    /* overflow of every count and product */
    {"overflow_blocks_literal.xml", "", 4, "blocks of kernel 'a' = 1.8446744073709552e+19 does not fit in 64 bits"},
    {"overflow_repeat.xml", "", 4, "repeat of kernel 'a' = 1e+19 does not fit in 64 bits"},
    {"overflow_threads.xml", "", 4, "threads of kernel 'a' = 1.8446744073709552e+19 does not fit in 64 bits"},
    {"overflow_blocks_classes.xml", "", 4, "blocks of kernel 'a' (the sum of its classes) overflow 64 bits"},
    {"overflow_blocks_x_repeat.xml", "", 4, "N of kernel 'a' (repeat × blocks) overflows 64 bits"},
    {"overflow_N_sum.xml", "", 0, "N (the number of thread blocks of the program) overflows 64 bits"},
    {"overflow_N_launches.xml", "", 4, "N of kernel 'a' (the blocks of its launches) overflows 64 bits"},
    {"overflow_work_x_blocks.xml", "", 4, "W (blocks × work) of kernel 'a' overflows"},
    {"overflow_work_x_repeat.xml", "", 4, "W (repeat × blocks × work) of kernel 'a' overflows"},
    {"overflow_work_sum.xml", "", 0, "W (the work of the program) overflows"},
    {"overflow_span_x_repeat.xml", "", 4, "S (repeat × span) of kernel 'a' overflows"},
    {"overflow_span_path.xml", "", 0, "S (the span of the program) overflows"},
    {"overflow_overhead.xml", "", 4, "O(B) = (reads + writes)·U of kernel 'a' overflows"},
    {"overflow_overhead_x_blocks.xml", "", 4, "O (blocks × O(B)) of kernel 'a' overflows"},
    {"overflow_cost.xml", "", 4, "S(B) + O(B) of kernel 'a' overflows"},
    {"overflow_parallelism.xml", "", 0, "W/S (the parallelism) overflows"},
    {"overflow_bounds.xml", "", 0, "the corollary bound (N/K + L)·C overflows"},
    {"overflow_bounds.xml", "-p 4", 0, "the Graham-Brent bound (N/p + L)·C overflows"},
    {"overflow_expression.xml", "", 4, "work of kernel 'a': result of '^' is not a finite number (overflow)"},
    {"overflow_integer_expression.xml", "", 4, "does not fit in 64 bits"},
    {"index_repeat_2_62.xml", "", 4, "kernel 'a' reads its index 'i' and repeats 4611686018427387904 times, more than 10000000 launches"},
    {"index_repeat_5000.xml", "--max-index-repeat 1000", 4, "repeats 5000 times, more than 1000 launches evaluated one by one (raise the limit with --max-index-repeat)"},
    {"index_repeat_5000.xml", "", -1, ""},
    /* encodings and accidents */
    {"non_utf8_latin1.xml", "", 2, UTF8},
    {"non_utf8_overlong.xml", "", 2, UTF8},
    {"non_utf8_ff.xml", "", 3, UTF8},
    {"non_utf8_surrogate.xml", "", 2, "char 0xD800 out of allowed range"},
    {"nul_byte.xml", "", 2, "char 0x0 out of allowed range"},
    {"bom_crlf.xml", "", -1, ""},
    {"line_ends_cr_only.xml", "", 5, "duplicate kernel id 'a' (first at line 4)"},
    {"empty.xml", "", 1, "document is empty"},
    {"only_whitespace.xml", "", 4, "start tag expected, '<' not found"},
    {"truncated.xml", "", 4, "specification mandates value for attribute"},
    {"gzip.xml", "", 1, "start tag expected, '<' not found"},
    {"binary.xml", "", 1, "document is empty"},
    {"long_ids_cycle.xml", "", 6, "cycle: axxxxxxxxx"},
    {"duplicate_attribute.xml", "", 4, "attribute blocks redefined"},
    {"csv_injection_ids.xml", "", -1, ""},
};

ParameterizedTestParameters(hostile, files)
{
    return cr_make_param_array(hostile_case, cases,
                               sizeof cases / sizeof cases[0]);
}

ParameterizedTest(hostile_case *c, hostile, files)
{
    char path[1024];
    mmm_run_result r;
    snprintf(path, sizeof path, "%s%s", HOSTILE, c->file);
    run_cmd(&r, "analyze", path, c->args[0] ? c->args : NULL, 10);
    if (c->line < 0)
        expect_success(&r, path, 10);
    else
        expect_refusal(&r, path, c->line, c->fragment, 10);
    mmm_run_dispose(&r);
}

/* Every file of the folder is in the table, and the other way round. */
Test(hostile, table_covers_the_folder)
{
    DIR *d = opendir(HOSTILE);
    struct dirent *e;
    size_t n = sizeof cases / sizeof cases[0], seen = 0;
    cr_assert(d != NULL);
    while ((e = readdir(d))) {
        int found = 0;
        if (e->d_name[0] == '.')
            continue;
        for (size_t i = 0; i < n; i++)
            found |= !strcmp(cases[i].file, e->d_name);
        cr_expect(found, "%s has no expectation in test_hostile.c", e->d_name);
        seen++;
    }
    closedir(d);
    for (size_t i = 0; i < n; i++) {
        char path[1024];
        struct stat st;
        snprintf(path, sizeof path, "%s%.47s", HOSTILE, cases[i].file);
        cr_expect_eq(stat(path, &st), 0, "missing %s", path);
    }
    cr_expect_geq(seen, 50);
}

/* The accepted files give exactly what the model says. */
Test(hostile, accepted_files_exact)
{
    mmm_run_result r;
    /* bom_crlf: a (3 blocks, W(B) 5, S(B) 2, r+w 2) -> b (4, 7, 3, 2), U=10:
     * W = 15 + 28, S = 2 + 3, O = 3·20 + 4·20, C = max(2, 3) + 20. */
    run_cmd(&r, "analyze", HOSTILE "bom_crlf.xml", "--format json", 10);
    expect_success(&r, "bom_crlf.xml", 10);
    cr_expect_eq(json_number(r.out, "W"), 43);
    cr_expect_eq(json_number(r.out, "S"), 5);
    cr_expect_eq(json_number(r.out, "O"), 140);
    cr_expect_eq(json_number(r.out, "N"), 7);
    cr_expect_eq(json_number(r.out, "L"), 2);
    cr_expect_eq(json_number(r.out, "C"), 23);
    cr_expect_eq(json_number(r.out, "K"), 4);
    mmm_run_dispose(&r);
    /* -0 everywhere: zero, never printed "-0". */
    const char *fmts[] = {"--format json", "--format csv", "--format text"};
    for (size_t i = 0; i < 3; i++) {
        run_cmd(&r, "analyze", HOSTILE "number_negative_zero.xml", fmts[i], 10);
        expect_success(&r, "number_negative_zero.xml", 10);
        cr_expect(strstr(r.out, "-0") == NULL, "%s: -0 printed: %s", fmts[i],
                  r.out);
        mmm_run_dispose(&r);
    }
    /* 5000 launches of i blocks: N = 5000·5001/2, L = 5000, K = 5000. */
    run_cmd(&r, "analyze", HOSTILE "index_repeat_5000.xml", "--format json", 10);
    expect_success(&r, "index_repeat_5000.xml", 10);
    cr_expect_eq(json_number(r.out, "N"), 12502500);
    cr_expect_eq(json_number(r.out, "L"), 5000);
    cr_expect_eq(json_number(r.out, "K"), 5000);
    mmm_run_dispose(&r);
}

/* Decode the JSON string that starts at s (after its opening quote). */
static void json_string(char *out, size_t size, const char *s)
{
    size_t n = 0;
    for (; *s && *s != '"' && n + 1 < size; s++) {
        if (*s == '\\') {
            s++;
            if (*s == 'u') {
                out[n++] = (char)strtol((char[]){s[1], s[2], s[3], s[4], 0}, NULL, 16);
                s += 4;
                continue;
            }
            out[n++] = *s == 'n' ? '\n' : *s == 't' ? '\t' : *s == 'r' ? '\r' : *s;
        } else {
            out[n++] = *s;
        }
    }
    out[n] = '\0';
}

/* Split one CSV row (RFC 4180) into fields; returns how many. */
static size_t csv_row(char fields[][128], size_t max, const char **p)
{
    size_t n = 0, k = 0;
    const char *s = *p;
    int quoted = 0;
    for (; *s; s++) {
        if (quoted) {
            if (*s == '"' && s[1] == '"')
                fields[n][k++] = *s++;
            else if (*s == '"')
                quoted = 0;
            else
                fields[n][k++] = *s;
        } else if (*s == '"') {
            quoted = 1;
        } else if (*s == ',' || *s == '\n') {
            fields[n][k] = '\0';
            n++, k = 0;
            if (*s == '\n' || n == max) {
                s++;
                break;
            }
        } else {
            fields[n][k++] = *s;
        }
        if (k >= 127)
            k = 126;
    }
    *p = s;
    return n;
}

/* Ids full of markup, quotes and backslashes: CSV quoted RFC 4180-style,
 * JSON escaped, nothing executable in the HTML report or the SVG. */
Test(hostile, output_escaping)
{
    static const char id[] = "k<script>alert(3)</script>\"'\\&{}|";
    const char *path = HOSTILE "csv_injection_ids.xml";
    const char *models[] = {"--format csv",
                            "--format csv --model all --machine " MMM_DAGS_DIR "/machines/gtx480.xml"};
    char fields[40][128], dir[64], args[256], buf[256];
    mmm_run_result r;
    for (int m = 0; m < 2; m++) {
        const char *p;
        size_t nh, nr;
        run_cmd(&r, "analyze", path, models[m], 10);
        expect_success(&r, path, 10);
        p = r.out;
        nh = csv_row(fields, 40, &p);
        nr = csv_row(fields, 40, &p);
        cr_expect_eq(nr, nh, "%s: %zu fields for %zu columns", models[m], nr, nh);
        cr_expect_str_eq(fields[0], id, "%s", models[m]);
        mmm_run_dispose(&r);
    }
    run_cmd(&r, "analyze", path, "--format json", 10);
    expect_success(&r, path, 10);
    const char *q = strstr(r.out, "\"id\": \"");
    cr_assert(q != NULL);
    json_string(buf, sizeof buf, q + 7);
    cr_expect_str_eq(buf, id);
    mmm_run_dispose(&r);

    mmm_tmpdir_make(dir, sizeof dir, "mmm_hostile");
    snprintf(args, sizeof args, "-o %s/r.html", dir);
    run_cmd(&r, "report", path, args, 30);
    expect_success(&r, path, 30);
    mmm_run_dispose(&r);
    snprintf(args, sizeof args, "%s/r.html", dir);
    char *html = slurp(args, NULL);
    /* the page's own script, at the end, and no other */
    const char *own = strstr(html, "<script>");
    cr_expect(own && strstr(own, "</script>\n</body>\n</html>\n") &&
                  strstr(html, "<script") == own && !strstr(own + 1, "<script"),
              "a <script> in the report besides the page's own");
    cr_expect(strstr(html, "<img") == NULL, "an <img> in the report");
    free(html);
    snprintf(args, sizeof args, "-o %s/r.svg", dir);
    run_cmd(&r, "render", path, args, 10);
    expect_success(&r, path, 10);
    mmm_run_dispose(&r);
    snprintf(args, sizeof args, "%s/r.svg", dir);
    char *svg = slurp(args, NULL);
    cr_expect(strstr(svg, "<script") == NULL, "a <script> in the SVG");
    free(svg);
    mmm_tmpdir_remove(dir);
}

/* A hostile machine file is refused the same way. */
Test(hostile, machine_file)
{
    mmm_run_result r;
    run_cmd(&r, "analyze", MMM_DAGS_DIR "/diamond.xml",
            "--machine " HOSTILE "billion_laughs.xml", 10);
    expect_refusal(&r, HOSTILE "billion_laughs.xml", 2, DOCTYPE, 10);
    mmm_run_dispose(&r);
    run_cmd(&r, "analyze", MMM_DAGS_DIR "/diamond.xml",
            "--machine " HOSTILE "non_utf8_latin1.xml", 10);
    expect_refusal(&r, HOSTILE "non_utf8_latin1.xml", 2, UTF8, 10);
    mmm_run_dispose(&r);
}

/* Every command that reads a program refuses the same way and writes no
 * output file. */
Test(hostile, every_command)
{
    static const char *files[] = {"billion_laughs.xml", "non_utf8_latin1.xml",
                                  "overflow_work_x_blocks.xml",
                                  "index_repeat_2_62.xml", "long_ids_cycle.xml"};
    static const long lines[] = {2, 2, 4, 4, 6};
    static const char *frags[] = {DOCTYPE, UTF8, "W (blocks × work)",
                                  "more than 10000000 launches", "cycle: "};
    char dir[64], args[6][256];
    mmm_tmpdir_make(dir, sizeof dir, "mmm_hostile");
    snprintf(args[0], 256, "%s", "");
    snprintf(args[1], 256, "-p 2");
    snprintf(args[2], 256, "-p 2 --gantt %s/g.svg --trace %s/t.json", dir, dir);
    snprintf(args[3], 256, "-o %s/r.svg", dir);
    snprintf(args[4], 256, "-o %s/r.html", dir);
    snprintf(args[5], 256, "--param U --from 1 --to 4 --plot %s/p.svg", dir);
    static const char *cmds[] = {"analyze", "simulate", "simulate", "render",
                                 "report", "optimize"};
    for (size_t f = 0; f < sizeof files / sizeof files[0]; f++)
        for (size_t c = 0; c < sizeof cmds / sizeof cmds[0]; c++) {
            char path[1024];
            mmm_run_result r;
            snprintf(path, sizeof path, "%s%s", HOSTILE, files[f]);
            run_cmd(&r, cmds[c], path, args[c], 10);
            if (strcmp(cmds[c], "optimize") || f != 2) {
                expect_refusal(&r, path, lines[f], frags[f], 10);
            } else {
                /* a sweep whose every point fails: the table of reasons on
                 * stdout, then one error naming the first point's reason */
                cr_expect_eq(r.status, 1, "%s: exit %d", path, r.status);
                cr_expect_eq(mmm_run_lines(r.err), 1, "%s", r.err);
                cr_expect(strstr(r.err, "error: no feasible value in the sweep (U = 1: ") &&
                          strstr(r.err, frags[f]), "%s", r.err);
            }
            mmm_run_dispose(&r);
        }
    /* compare reads two programs */
    {
        mmm_run_result r;
        const char *argv[] = {"compare", MMM_DAGS_DIR "/diamond.xml",
                              HOSTILE "billion_laughs.xml", NULL};
        cr_assert_eq(mmm_run(&r, argv, NULL, &MMM_RUN_LIMITS_DEFAULT), 0);
        expect_refusal(&r, HOSTILE "billion_laughs.xml", 2, DOCTYPE, 10);
        mmm_run_dispose(&r);
    }
    /* nothing was written */
    DIR *d = opendir(dir);
    struct dirent *e;
    while ((e = readdir(d)))
        cr_expect(e->d_name[0] == '.', "%s/%s was written", dir, e->d_name);
    closedir(d);
    mmm_tmpdir_remove(dir);
}

/* ------------------------------------------------------------------ */
/* Nothing reaches the network                                         */

/* A listening socket on 127.0.0.1 that nobody should connect to. */
static int listen_local(int *port)
{
    struct sockaddr_in a;
    socklen_t len = sizeof a;
    int s = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
    cr_assert(s >= 0);
    memset(&a, 0, sizeof a);
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    cr_assert_eq(bind(s, (struct sockaddr *)&a, sizeof a), 0);
    cr_assert_eq(listen(s, 8), 0);
    cr_assert_eq(getsockname(s, (struct sockaddr *)&a, &len), 0);
    *port = ntohs(a.sin_port);
    return s;
}

Test(hostile, no_network)
{
    char dir[64], path[1024];
    int port, s = listen_local(&port);
    mmm_tmpdir_make(dir, sizeof dir, "mmm_hostile");
    struct {
        const char *name, *fmt;
        long line;
        const char *fragment;
    } files[] = {
        {"entity.xml", "<!DOCTYPE program [\n<!ENTITY x SYSTEM \"http://127.0.0.1:%d/e\">\n]>\n<program name=\"&x;\"/>\n", 1, DOCTYPE},
        {"dtd.xml", "<!DOCTYPE program SYSTEM \"http://127.0.0.1:%d/d.dtd\">\n<program name=\"x\"/>\n", 1, DOCTYPE},
        {"xsd.xml", "<program name=\"x\" xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\"\n xsi:noNamespaceSchemaLocation=\"http://127.0.0.1:%d/s.xsd\">\n<kernal/>\n</program>\n", 3, "element 'kernal'"},
        {"pi.xml", "<?xml-stylesheet type=\"text/xsl\" href=\"http://127.0.0.1:%d/s.xsl\"?>\n<program name=\"x\"/>\n", -1, NULL},
    };
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        mmm_run_result r;
        FILE *f = create(path, sizeof path, dir, files[i].name);
        fprintf(f, files[i].fmt, port);
        fclose(f);
        run_cmd(&r, "analyze", path, NULL, 10);
        if (files[i].line < 0)
            expect_success(&r, path, 10);
        else
            expect_refusal(&r, path, files[i].line, files[i].fragment, 10);
        mmm_run_dispose(&r);
    }
    cr_expect_lt(accept(s, NULL, NULL), 0, "mmm connected to the network");
    close(s);
    mmm_tmpdir_remove(dir);
}

/* ------------------------------------------------------------------ */
/* Big generated inputs                                                */

/* Elements nested 10^5 deep: on one line, and one per line. */
Test(hostile, nesting_1e5)
{
    char dir[64], path[1024];
    mmm_run_result r;
    const int n = 100000;
    mmm_tmpdir_make(dir, sizeof dir, "mmm_hostile");
    FILE *f = create(path, sizeof path, dir, "nest1.xml");
    fputs("<program name=\"x\">", f);
    for (int i = 0; i < n; i++)
        fputs("<kernel id=\"a\">", f);
    for (int i = 0; i < n; i++)
        fputs("</kernel>", f);
    fputs("</program>\n", f);
    fclose(f);
    run_cmd(&r, "analyze", path, NULL, 20);
    expect_refusal(&r, path, 1, "element 'kernel': this element is not expected", 20);
    mmm_run_dispose(&r);

    f = create(path, sizeof path, dir, "nest2.xml");
    fputs("<program name=\"x\">\n", f);
    for (int i = 0; i < n; i++)
        fputs("<x>\n", f);
    for (int i = 0; i < n; i++)
        fputs("</x>\n", f);
    fputs("</program>\n", f);
    fclose(f);
    run_cmd(&r, "analyze", path, NULL, 20);
    expect_refusal(&r, path, 2, "element 'x': this element is not expected", 20);
    mmm_run_dispose(&r);
    mmm_tmpdir_remove(dir);
}

static void write_params(const char *path, int n)
{
    FILE *f = fopen(path, "wb");
    cr_assert(f != NULL);
    fputs("<program name=\"x\">\n", f);
    for (int i = 0; i < n; i++)
        fprintf(f, "<param name=\"p%d\" value=\"%d\"/>\n", i, i);
    fputs("</program>\n", f);
    fclose(f);
}

/* 10^6 parameters: refused at the 10,001st (line 10,002); 10^5 with the
 * limit raised are accepted in bounded time. */
Test(hostile, params_1e6)
{
    char dir[64], path[1024];
    mmm_run_result r;
    mmm_tmpdir_make(dir, sizeof dir, "mmm_hostile");
    snprintf(path, sizeof path, "%s/params.xml", dir);
    write_params(path, 1000000);
    run_cmd(&r, "analyze", path, NULL, 20);
    expect_refusal(&r, path, 10002,
                   "more than 10000 parameters (raise the limit with --max-params)", 20);
    mmm_run_dispose(&r);
    write_params(path, 100000);
    run_cmd(&r, "analyze", path, "--max-params 100000 --format csv", 60);
    expect_success(&r, path, 60);
    mmm_run_dispose(&r);
    mmm_tmpdir_remove(dir);
}

static void write_expr(const char *path, const char *head, const char *term,
                       const char *sep, const char *tail, long n)
{
    FILE *f = fopen(path, "wb");
    cr_assert(f != NULL);
    fputs("<program name=\"x\">\n<param name=\"U\" value=\"1\"/>\n"
          "<kernel id=\"a\" blocks=\"1\" span=\"1\" reads=\"0\" writes=\"0\"\n work=\"", f);
    for (long i = 0; i < n; i++)
        fputs(head, f);
    for (long i = 0; i < n; i++) {
        fputs(term, f);
        if (i + 1 < n)
            fputs(sep, f);
    }
    for (long i = 0; i < n; i++)
        fputs(tail, f);
    fputs("\"/>\n</program>\n", f);
    fclose(f);
}

/* An expression of 10^6 terms: refused by the default length limit; with
 * the limit raised it is evaluated exactly (no recursion per term). */
Test(hostile, expression_1e6_terms)
{
    char dir[64], path[1024];
    mmm_run_result r;
    mmm_tmpdir_make(dir, sizeof dir, "mmm_hostile");
    snprintf(path, sizeof path, "%s/expr.xml", dir);
    write_expr(path, "", "1", "+", "", 1000000);
    run_cmd(&r, "analyze", path, NULL, 20);
    expect_refusal(&r, path, 3, "expression too long (more than 4096 characters)", 20);
    mmm_run_dispose(&r);
    run_cmd(&r, "analyze", path, "--max-expr-length 2000000 --format json", 30);
    expect_success(&r, path, 30);
    cr_expect_eq(json_number(r.out, "W"), 1000000);
    mmm_run_dispose(&r);
    mmm_tmpdir_remove(dir);
}

/* 10^5 nested parentheses, with the length limit raised: the depth limit
 * refuses them (no stack overflow). */
Test(hostile, parentheses_1e5)
{
    char dir[64], path[1024];
    mmm_run_result r;
    mmm_tmpdir_make(dir, sizeof dir, "mmm_hostile");
    snprintf(path, sizeof path, "%s/parens.xml", dir);
    write_expr(path, "(", "", "", ")", 100000);
    run_cmd(&r, "analyze", path, "--max-expr-length 1000000", 20);
    expect_refusal(&r, path, 3, DEEP, 20);
    mmm_run_dispose(&r);
    mmm_tmpdir_remove(dir);
}

/* A cycle through 10^5 kernels: found, and named in one bounded line. */
Test(hostile, cycle_1e5)
{
    char dir[64], path[1024];
    mmm_run_result r;
    const int n = 100000;
    mmm_tmpdir_make(dir, sizeof dir, "mmm_hostile");
    FILE *f = create(path, sizeof path, dir, "cycle.xml");
    fputs("<program name=\"x\">\n", f);
    for (int i = 0; i < n; i++)
        fprintf(f, "<kernel id=\"k%d\" blocks=\"1\" work=\"1\" span=\"1\" "
                   "reads=\"0\" writes=\"0\"/>\n", i);
    for (int i = 0; i < n; i++)
        fprintf(f, "<edge from=\"k%d\" to=\"k%d\"/>\n", i, (i + 1) % n);
    fputs("</program>\n", f);
    fclose(f);
    run_cmd(&r, "analyze", path, NULL, 30);
    /* the first edge of the cycle, k0 -> k1, is on line n + 2 */
    expect_refusal(&r, path, n + 2, "cycle: k0 -> k1 -> k2 -> ", 30);
    cr_expect(strstr(r.err, "(100000 kernels in all) -> k0\n") != NULL, "%s", r.err);
    cr_expect_lt(r.err_len, 1200);
    mmm_run_dispose(&r);
    mmm_tmpdir_remove(dir);
}

/* A 1 GiB file made of one huge attribute, written sparse: 20 MiB of
 * attribute text, then a hole.  With the default limit (1 GiB) the file is
 * read and libxml2's 10 MB cap on one value stops it early in bounded
 * memory; with --max-file-bytes 10^6 it is refused before a byte is read;
 * one byte over 1 GiB, the default limit refuses it. */
Test(hostile, one_gib_attribute)
{
    char dir[64], path[1024], msg[256];
    mmm_run_result r;
    char *chunk = malloc(1 << 20);
    cr_assert(chunk != NULL);
    memset(chunk, 'a', 1 << 20);
    mmm_tmpdir_make(dir, sizeof dir, "mmm_hostile");
    FILE *f = create(path, sizeof path, dir, "huge.xml");
    fputs("<program name=\"", f);
    for (int i = 0; i < 20; i++)
        fwrite(chunk, 1, 1 << 20, f);
    fclose(f);
    free(chunk);
    cr_assert_eq(truncate(path, ((off_t)1 << 30) - 1), 0);

    run_cmd(&r, "analyze", path, NULL, 30);
    expect_refusal(&r, path, 1, "attValue length too long", 30);
    mmm_run_dispose(&r);

    run_cmd(&r, "analyze", path, "--max-file-bytes 1000000", 5);
    expect_refusal(&r, path, 0, "file too big: 1073741823 bytes (limit 1000000)", 5);
    mmm_run_dispose(&r);

    cr_assert_eq(truncate(path, ((off_t)1 << 30) + 1), 0);
    run_cmd(&r, "analyze", path, NULL, 5);
    snprintf(msg, sizeof msg, "file too big: %llu bytes (limit %llu)",
             (1ull << 30) + 1, (unsigned long long)mmm_limits_effective(NULL).max_file_bytes);
    expect_refusal(&r, path, 0, msg, 5);
    mmm_run_dispose(&r);
    mmm_tmpdir_remove(dir);
}

/* Through a pipe the size is unknown before reading: the bytes are counted
 * as they come and the read stops at the limit. */
Test(hostile, pipe_over_the_limit)
{
    int fds[2];
    mmm_run_result r;
    cr_assert_eq(pipe(fds), 0);
    pid_t w = fork();
    cr_assert(w >= 0);
    if (w == 0) {
        /* the writer: 8 MiB of attribute, or until mmm closes the pipe */
        static char buf[65536];
        close(fds[0]);
        signal(SIGPIPE, SIG_IGN);
        memset(buf, 'a', sizeof buf);
        if (write(fds[1], "<program name=\"", 15) < 0)
            _exit(0);
        for (int i = 0; i < 128; i++)
            if (write(fds[1], buf, sizeof buf) < 0)
                _exit(0);
        _exit(0);
    }
    close(fds[1]);
    const char *argv[] = {"analyze", "/dev/stdin", "--max-file-bytes", "1000000", NULL};
    cr_assert_eq(mmm_run_fd(&r, argv, fds[0], &MMM_RUN_LIMITS_DEFAULT), 0);
    close(fds[0]);
    waitpid(w, NULL, 0);
    expect_refusal(&r, "/dev/stdin", 0, "file too big: over the limit of 1000000 bytes", 10);
    mmm_run_dispose(&r);
}

/* CR LF split between two reads of a pipe, and lone CRs: one line end
 * each, so the lines in messages are right. */
Test(hostile, pipe_line_ends_split)
{
    static const char *parts[] = {
        "<program name=\"t\">\r", "\n<param name=\"U\" value=\"1\"/>\r", "\n",
        "<kernel id=\"a\" blocks=\"1\" work=\"1\" span=\"1\" reads=\"1\" writes=\"1\"/>\r",
        "\r<kernel id=\"a\" blocks=\"1\" work=\"1\" span=\"1\" reads=\"1\" writes=\"1\"/>\r\n</program>\r\n"};
    int fds[2];
    mmm_run_result r;
    cr_assert_eq(pipe(fds), 0);
    pid_t w = fork();
    cr_assert(w >= 0);
    if (w == 0) {
        close(fds[0]);
        signal(SIGPIPE, SIG_IGN);
        for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++) {
            if (write(fds[1], parts[i], strlen(parts[i])) < 0)
                _exit(0);
            usleep(100000); /* one read each */
        }
        _exit(0);
    }
    close(fds[1]);
    const char *argv[] = {"analyze", "/dev/stdin", NULL};
    cr_assert_eq(mmm_run_fd(&r, argv, fds[0], &MMM_RUN_LIMITS_DEFAULT), 0);
    close(fds[0]);
    waitpid(w, NULL, 0);
    /* lines: program, param, kernel, (empty), kernel */
    expect_refusal(&r, "/dev/stdin", 5, "duplicate kernel id 'a' (first at line 3)", 10);
    mmm_run_dispose(&r);
}

/* ------------------------------------------------------------------ */
/* Resource limits: each flag refuses what the default accepts          */

typedef struct limit_case {
    char file[256];
    char flag[48];      /* with a small value */
    long line;
    char fragment[128];
} limit_case;

static limit_case limit_cases[] = {
    {MMM_DAGS_DIR "/diamond.xml", "--max-file-bytes 100", 0, "file too big: "},
    {MMM_DAGS_DIR "/diamond.xml", "--max-kernels 2", 31, "more than 2 kernels (raise the limit with --max-kernels)"},
    {MMM_DAGS_DIR "/diamond.xml", "--max-edges 2", 35, "more than 2 edges (raise the limit with --max-edges)"},
    {MMM_DAGS_DIR "/diamond.xml", "--max-params 1", 28, "more than 1 parameters (raise the limit with --max-params)"},
    {MMM_DAGS_DIR "/poly_div_opt.xml", "--max-expr-length 5", 43, "expression too long (more than 5 characters)"},
    {HOSTILE "index_repeat_5000.xml", "--max-index-repeat 4999", 4, "more than 4999 launches"},
};

ParameterizedTestParameters(hostile, limit_flags)
{
    return cr_make_param_array(limit_case, limit_cases,
                               sizeof limit_cases / sizeof limit_cases[0]);
}

ParameterizedTest(limit_case *c, hostile, limit_flags)
{
    mmm_run_result r;
    run_cmd(&r, "analyze", c->file, NULL, 10);
    expect_success(&r, c->file, 10);
    mmm_run_dispose(&r);
    run_cmd(&r, "analyze", c->file, c->flag, 10);
    expect_refusal(&r, c->file, c->line, c->fragment, 10);
    mmm_run_dispose(&r);
    /* "--flag=N" is the same */
    char eq[128];
    snprintf(eq, sizeof eq, "%s", c->flag);
    *strchr(eq, ' ') = '=';
    run_cmd(&r, "analyze", c->file, eq, 10);
    expect_refusal(&r, c->file, c->line, c->fragment, 10);
    mmm_run_dispose(&r);
}

/* --max-params also holds for machine files. */
Test(hostile, limit_machine_params)
{
    mmm_run_result r;
    run_cmd(&r, "analyze", MMM_DAGS_DIR "/diamond.xml",
            "--machine " MMM_DAGS_DIR "/machines/gtx480.xml --max-params 3", 10);
    /* the fourth <param> of the machine file */
    expect_refusal(&r, MMM_DAGS_DIR "/machines/gtx480.xml", 23,
                   "more than 3 parameters", 10);
    mmm_run_dispose(&r);
}

/* A limit flag without a positive integer is a usage error (exit 2). */
Test(hostile, limit_flag_values)
{
    static const char *bad[] = {"0", "-1", "abc", "99999999999999999999", "1e6", ""};
    static const char *flags[] = {"--max-file-bytes", "--max-kernels",
                                  "--max-edges", "--max-params",
                                  "--max-expr-length", "--max-index-repeat"};
    for (size_t f = 0; f < 6; f++)
        for (size_t b = 0; b < sizeof bad / sizeof bad[0]; b++) {
            mmm_run_result r;
            const char *argv[] = {"analyze", MMM_DAGS_DIR "/diamond.xml",
                                  flags[f], bad[b], NULL};
            cr_assert_eq(mmm_run(&r, argv, NULL, &MMM_RUN_LIMITS_DEFAULT), 0);
            cr_expect_eq(r.status, 2, "%s '%s': exit %d", flags[f], bad[b], r.status);
            cr_expect(strstr(r.err, "needs a positive integer") != NULL, "%s", r.err);
            cr_expect_eq(r.out_len, 0);
            mmm_run_dispose(&r);
        }
}

/* Format n with thousands separators: 10000000 -> "10,000,000". */
static void commas(char *buf, size_t size, unsigned long long n)
{
    char digits[32];
    size_t len = (size_t)snprintf(digits, sizeof digits, "%llu", n), o = 0;
    for (size_t i = 0; i < len && o + 2 < size; i++) {
        if (i > 0 && (len - i) % 3 == 0)
            buf[o++] = ',';
        buf[o++] = digits[i];
    }
    buf[o] = '\0';
}

/* The defaults in README, docs/format.md and --help are the code's. */
Test(hostile, limit_defaults_documented)
{
    mmm_limits d = mmm_limits_effective(NULL);
    unsigned long long v[5] = {d.max_kernels, d.max_edges, d.max_params,
                               d.max_expr_length,
                               (unsigned long long)d.max_index_repeat};
    static const char *flags[5] = {"--max-kernels N", "--max-edges N",
                                   "--max-params N", "--max-expr-length N",
                                   "--max-index-repeat N"};
    char *readme = slurp(MMM_SOURCE_DIR "/README.md", NULL);
    char row[128], num[32];
    mmm_run_result r;
    const char *argv[] = {"analyze", "--help", NULL};

    cr_expect_eq(d.max_file_bytes, 1ull << 30);
    cr_expect(strstr(readme, "| `--max-file-bytes N` | 1 GiB |") != NULL);
    for (int i = 0; i < 5; i++) {
        /* 10,000,000 or, for short numbers, 4096 */
        commas(num, sizeof num, v[i]);
        snprintf(row, sizeof row, "| `%s` | %s ", flags[i], num);
        if (!strstr(readme, row) && v[i] < 10000)
            snprintf(row, sizeof row, "| `%s` | %llu ", flags[i], v[i]);
        cr_expect(strstr(readme, row) != NULL, "README lacks '%s'", row);
    }
    free(readme);

    cr_assert_eq(mmm_run(&r, argv, NULL, &MMM_RUN_LIMITS_DEFAULT), 0);
    cr_expect(strstr(r.out, "--max-file-bytes N   refuse larger files (default 1 GiB)") ||
              strstr(r.err, "--max-file-bytes N   refuse larger files (default 1 GiB)"));
    for (int i = 0; i < 5; i++) {
        snprintf(num, sizeof num, "(default %llu", v[i]);
        cr_expect(strstr(r.out, num) || strstr(r.err, num),
                  "--help lacks '%s'", num);
    }
    mmm_run_dispose(&r);
}
