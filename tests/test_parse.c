/* test_parse.c: the loaders of DAG files and machine files (src/io/parse.c).
 *
 * Bad inputs are fixtures in tests/data/bad/ (DAG files) and
 * tests/data/bad_machine/ (machine files); each carries its expectation in
 * a comment:
 *   <!-- expect: CODE line N | message fragment [| own: fragment]
 *        [| limit: bytes=B depth=D kernels=K edges=E params=P expr=X] -->
 * "own:" is the fragment expected when the XSD is skipped (the loader's own
 * wording instead of libxml2's).  Every fixture is loaded from its file and
 * from memory, with and without the schema; all must fail with CODE at
 * line N, and libxml2 must print nothing. */
#include <criterion/criterion.h>
#include <criterion/redirect.h>
#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "mmm/program.h"
#include "slurp.h"

#define DATA MMM_TEST_DATA

/* ------------------------------------------------------------------ */
/* Helpers                                                             */

static int status_of(const char *name)
{
#define TEST_STATUS_(n, v, m)                                                 \
    if (!strcmp(name, #n))                                                    \
        return v;
    MMM_STATUS_MAP(TEST_STATUS_)
#undef TEST_STATUS_
    cr_assert_fail("unknown status name '%s'", name);
    return 1;
}

typedef struct expect {
    int code;
    long line;
    char message[256];
    char own[256];
    mmm_limits limits;
} expect;

static void trim(char *s)
{
    size_t n = strlen(s);
    while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\n'))
        s[--n] = '\0';
    size_t i = 0;
    while (s[i] == ' ' || s[i] == '\n')
        i++;
    memmove(s, s + i, strlen(s + i) + 1);
}

static void parse_limits(mmm_limits *l, char *spec)
{
    for (char *tok = strtok(spec, " "); tok; tok = strtok(NULL, " ")) {
        char key[32];
        unsigned long long v;
        cr_assert_eq(sscanf(tok, "%31[a-z]=%llu", key, &v), 2,
                     "bad limit '%s'", tok);
        if (!strcmp(key, "bytes"))
            l->max_file_bytes = v;
        else if (!strcmp(key, "depth"))
            l->max_depth = (size_t)v;
        else if (!strcmp(key, "kernels"))
            l->max_kernels = (size_t)v;
        else if (!strcmp(key, "edges"))
            l->max_edges = (size_t)v;
        else if (!strcmp(key, "params"))
            l->max_params = (size_t)v;
        else if (!strcmp(key, "expr"))
            l->max_expr_length = (size_t)v;
        else
            cr_assert_fail("unknown limit '%s'", key);
    }
}

/* Read the "<!-- expect: ... -->" comment of a fixture. */
static void read_expect(expect *x, const char *path, const char *buf)
{
    char code[32], spec[1024];
    memset(x, 0, sizeof *x);
    const char *s = strstr(buf, "<!-- expect: ");
    cr_assert_not_null(s, "%s: no expect comment", path);
    const char *e = strstr(s, " -->");
    cr_assert_not_null(e, "%s: unterminated expect comment", path);
    s += strlen("<!-- expect: ");
    cr_assert_lt((size_t)(e - s), sizeof spec);
    memcpy(spec, s, (size_t)(e - s));
    spec[e - s] = '\0';
    char *field = strtok(spec, "|");
    cr_assert_eq(sscanf(field, "%31s line %ld", code, &x->line), 2,
                 "%s: bad expect comment", path);
    x->code = status_of(code);
    char *rest[3] = {strtok(NULL, "|"), strtok(NULL, "|"), strtok(NULL, "|")};
    cr_assert_not_null(rest[0], "%s: no message fragment", path);
    snprintf(x->message, sizeof x->message, "%s", rest[0]);
    trim(x->message);
    for (int i = 1; i < 3 && rest[i]; i++) {
        trim(rest[i]);
        if (!strncmp(rest[i], "own:", 4)) {
            snprintf(x->own, sizeof x->own, "%s", rest[i] + 4);
            trim(x->own);
        } else if (!strncmp(rest[i], "limit:", 6)) {
            parse_limits(&x->limits, rest[i] + 6);
        } else {
            cr_assert_fail("%s: unknown field '%s'", path, rest[i]);
        }
    }
    if (!x->own[0])
        snprintf(x->own, sizeof x->own, "%s", x->message);
}

static void check_error(const char *what, const expect *x, int rc,
                        const mmm_error *err, const char *file,
                        const char *fragment)
{
    cr_expect_eq(rc, x->code, "%s: status %d, expected %d (%s)", what, rc,
                 x->code, err->message);
    cr_expect_eq(err->code, rc, "%s: err.code %d != status %d", what,
                 err->code, rc);
    cr_expect_eq(err->line, x->line, "%s: line %ld, expected %ld (%s)", what,
                 err->line, x->line, err->message);
    cr_expect_str_eq(err->file, file, "%s: file '%s'", what, err->file);
    cr_expect_not_null(strstr(err->message, fragment),
                       "%s: message '%s' lacks '%s'", what, err->message,
                       fragment);
    cr_expect_null(strchr(err->message, '\n'), "%s: message has a newline",
                   what);
}

/* Run fn on every .xml file of dir; returns how many. */
static int walk(const char *dir, void (*fn)(const char *path))
{
    DIR *d = opendir(dir);
    cr_assert_not_null(d, "cannot open %s", dir);
    struct dirent *e;
    int n = 0;
    while ((e = readdir(d)) != NULL) {
        size_t len = strlen(e->d_name);
        if (len < 5 || strcmp(e->d_name + len - 4, ".xml"))
            continue;
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        fn(path);
        n++;
    }
    closedir(d);
    return n;
}

/* ------------------------------------------------------------------ */
/* Bad DAG files                                                       */

static void check_bad_program(const char *path)
{
    size_t len;
    char *buf = slurp(path, &len);
    expect x;
    read_expect(&x, path, buf);
    /* skip: 0 with the XSD, 1 without; threads: the builder inline, or in
     * a second thread (the errors must not depend on it). */
    for (int mode = 0; mode < 4; mode++) {
        int skip = mode & 1, threaded = mode >> 1;
        mmm_load_options opt = MMM_LOAD_OPTIONS_INIT;
        mmm_program *prog = NULL;
        mmm_error err;
        char what[4200];
        opt.limits = x.limits;
        opt.skip_schema = skip;
        opt.threads = threaded ? MMM_THREADS_ON : MMM_THREADS_OFF;
        const char *frag = skip ? x.own : x.message;

        mmm_error_clear(&err);
        int rc = mmm_program_load_file(&prog, path, &opt, &err);
        snprintf(what, sizeof what, "%s%s%s", path, skip ? " (no XSD)" : "",
                 threaded ? " (threaded)" : "");
        check_error(what, &x, rc, &err, path, frag);
        cr_expect_null(prog, "%s: program returned on error", what);
        mmm_program_free(prog);

        mmm_error_clear(&err);
        prog = NULL;
        rc = mmm_program_load_memory(&prog, buf, len, "mem.xml", &opt, &err);
        snprintf(what, sizeof what, "%s from memory%s%s", path,
                 skip ? " (no XSD)" : "", threaded ? " (threaded)" : "");
        check_error(what, &x, rc, &err, "mem.xml", frag);
        cr_expect_null(prog);
        mmm_program_free(prog);
    }
    free(buf);
}

Test(parse, bad_programs, .init = cr_redirect_stderr)
{
    int n = walk(DATA "/bad", check_bad_program);
    cr_assert_geq(n, 40, "only %d fixtures in tests/data/bad", n);
    fflush(stderr);
    cr_assert_stderr_eq_str("", "libxml2 printed something");
}

/* ------------------------------------------------------------------ */
/* Bad machine files                                                   */

static void check_bad_machine(const char *path)
{
    size_t len;
    char *buf = slurp(path, &len);
    expect x;
    mmm_machine *m = NULL;
    mmm_error err;
    read_expect(&x, path, buf);
    mmm_error_clear(&err);
    int rc = mmm_machine_load_file(&m, path, &x.limits, &err);
    check_error(path, &x, rc, &err, path, x.message);
    cr_expect_null(m);
    mmm_machine_free(m);
    free(buf);
}

Test(parse, bad_machines, .init = cr_redirect_stderr)
{
    int n = walk(DATA "/bad_machine", check_bad_machine);
    cr_assert_geq(n, 8);
    fflush(stderr);
    cr_assert_stderr_eq_str("", "libxml2 printed something");
}

/* ------------------------------------------------------------------ */
/* The minimal form of docs/format.md                                       */

/* Values of the parameters, each from the ones before it. */
static void param_values(const mmm_program *p, mmm_value *vars)
{
    for (size_t i = 0; i < p->nparams; i++) {
        mmm_error err;
        cr_assert_eq(mmm_expr_eval(p->params[i].value, vars, i, &vars[i],
                                   &err),
                     0, "param %s: %s", p->params[i].name, err.message);
    }
}

static double eval(const mmm_expr *e, const mmm_value *vars, size_t n)
{
    mmm_value v;
    mmm_error err;
    cr_assert_not_null(e);
    cr_assert_eq(mmm_expr_eval(e, vars, n, &v, &err), 0, "%s", err.message);
    return v.d;
}

Test(parse, minimal_form)
{
    mmm_program *p = NULL;
    mmm_error err;
    mmm_value vars[16];
    int rc = mmm_program_load_file(&p, DATA "/good/minimal.xml", NULL, &err);
    cr_assert_eq(rc, 0, "%s:%ld: %s", err.file, err.line, err.message);
    cr_assert(p->finalized);
    cr_expect_str_eq(p->name, "poly_div_opt");
    cr_expect_str_eq(p->description, "free text");
    cr_expect_eq(p->line, 1);
    cr_expect_str_eq(p->file, DATA "/good/minimal.xml");

    /* Parameters, in order, with their ranges. */
    cr_assert_eq(p->nparams, 4);
    const char *names[] = {"n", "m", "Z", "s"};
    for (size_t i = 0; i < 4; i++) {
        cr_expect_str_eq(p->params[i].name, names[i]);
        cr_expect_eq(p->params[i].line, (long)i + 3);
        cr_expect_eq(p->params[i].from_machine, 0);
    }
    cr_expect_null(p->params[0].min);
    cr_expect_str_eq(p->params[3].value_text, "4");
    cr_expect_str_eq(p->params[3].min_text, "1");
    cr_expect_str_eq(p->params[3].max_text, "floor(Z/7)");
    cr_assert_lt(p->nslots, 16);
    param_values(p, vars);
    cr_expect_eq(eval(p->params[3].max, vars, 4), 1755); /* floor(12288/7) */
    cr_assert_eq(p->nconstraints, 1);
    cr_expect_str_eq(p->constraints[0].text, "7*s <= Z");
    cr_expect_eq(p->constraints[0].line, 7);
    cr_expect_eq(eval(p->constraints[0].test, vars, 4), 1);

    /* step: the minimal form with repeat and threads. */
    cr_assert_eq(p->nkernels, 3);
    const mmm_kernel *k = &p->kernels[0];
    cr_expect_str_eq(k->id, "step");
    cr_expect_eq(k->line, 8);
    cr_expect_null(k->index);
    cr_expect_eq(eval(k->repeat, vars, 4), 769); /* ceil(3073/4) */
    cr_expect_eq(eval(k->threads, vars, 4), 12);
    cr_assert_eq(k->nclasses, 1);
    const mmm_block_class *c = &p->classes[k->first_class];
    cr_expect_eq(eval(c->count, vars, 4), 128); /* ceil(1024/8) */
    cr_expect_eq(eval(c->work, vars, 4), 74);   /* 4*37/2 */
    cr_expect_eq(eval(c->span, vars, 4), 12);
    cr_expect_eq(eval(c->reads, vars, 4), 9);
    cr_expect_eq(eval(c->writes, vars, 4), 0);
    cr_expect_null(c->shared);
    cr_expect_eq(c->access, MMM_ACCESS_COALESCED);

    /* add: an index running 1..repeat. */
    k = &p->kernels[1];
    cr_expect_str_eq(k->id, "add");
    cr_expect_eq(k->line, 12);
    cr_assert_not_null(k->index);
    cr_expect_str_eq(k->index, "i");
    cr_assert_geq(k->index_slot, 4);
    cr_expect(k->uses_index);
    cr_expect_eq(eval(k->repeat, vars, 4), 8); /* log2(256) */
    vars[k->index_slot] = mmm_value_int(3);
    c = &p->classes[k->first_class];
    cr_expect_eq(eval(c->count, vars, p->nslots), 32); /* 256/2^3 */
    cr_expect_eq(eval(c->reads, vars, p->nslots), 8);

    /* mul: two kinds of block; shared and access default to the kernel's. */
    k = &p->kernels[2];
    cr_expect_str_eq(k->id, "mul");
    cr_expect_eq(k->line, 14);
    cr_expect_null(k->repeat);
    cr_expect_eq(eval(k->threads, vars, 4), 64);
    cr_assert_eq(k->nclasses, 2);
    c = &p->classes[k->first_class];
    cr_expect_eq(c->line, 15);
    cr_expect_eq(eval(c->count, vars, 4), 256);
    cr_expect_eq(eval(c->work, vars, 4), 8);
    cr_expect_null(c->threads);
    cr_expect_eq(eval(c->shared, vars, 4), 4);
    cr_expect_eq(c->access, MMM_ACCESS_IRREGULAR);
    c++;
    cr_expect_eq(c->line, 16);
    cr_expect_eq(eval(c->count, vars, 4), 1);
    cr_expect_eq(eval(c->threads, vars, 4), 1);
    cr_expect_eq(eval(c->shared, vars, 4), 8);
    cr_expect_eq(c->access, MMM_ACCESS_COALESCED);
    cr_expect_eq(p->nclasses, 4);

    /* Edges by index, and the order finalize found. */
    cr_assert_eq(p->nedges, 2);
    cr_expect_eq(p->edges[0].from, 0);
    cr_expect_eq(p->edges[0].to, 2);
    cr_expect_eq(p->edges[0].line, 19);
    cr_expect_eq(p->edges[1].from, 2);
    cr_expect_eq(p->edges[1].to, 1);
    cr_expect_eq(p->topo[0], 0);
    cr_expect_eq(p->topo[1], 2);
    cr_expect_eq(p->topo[2], 1);
    mmm_program_free(p);
}

/* A BOM, CRLF line ends, comments, a PI, CDATA and entities. */
Test(parse, bom_crlf_comments_entities)
{
    mmm_program *p = NULL;
    mmm_error err;
    mmm_value vars[4];
    int rc = mmm_program_load_file(&p, DATA "/good/bom_crlf.xml", NULL, &err);
    cr_assert_eq(rc, 0, "%s:%ld: %s", err.file, err.line, err.message);
    cr_expect_str_eq(p->name, "bom & crlf");
    cr_expect_str_eq(p->description, "x < y & z > w \xce\xbb");
    cr_assert_eq(p->nparams, 1);
    cr_expect_str_eq(p->constraints[0].text, "a >= 1 && a <= 10");
    param_values(p, vars);
    cr_expect_eq(eval(p->constraints[0].test, vars, 1), 1);
    cr_assert_eq(p->nkernels, 2);
    cr_expect_eq(p->kernels[0].line, 9);
    cr_expect_eq(p->kernels[1].line, 13);
    cr_expect_eq(p->edges[0].line, 14);
    mmm_program_free(p);
}

/* Every bundled program loads with the schema and without: the loader's
 * tables accept what the XSD accepts. */
static void check_good(const char *path)
{
    for (int skip = 0; skip <= 1; skip++) {
        mmm_load_options opt = MMM_LOAD_OPTIONS_INIT;
        mmm_program *p = NULL;
        mmm_error err;
        size_t len;
        opt.skip_schema = skip;
        char *buf = slurp(path, &len);
        if (!strstr(buf, "<program")) {
            free(buf);
            return;
        }
        int rc = mmm_program_load_file(&p, path, &opt, &err);
        cr_expect_eq(rc, 0, "%s:%ld: %s", path, err.line, err.message);
        mmm_program_free(p);
        free(buf);
    }
}

Test(parse, good_files)
{
    cr_expect_geq(walk(DATA "/good", check_good), 2);
    walk(MMM_DAGS_DIR, check_good);
}

/* The loader's tables mirror dags/mmm.xsd: libxml2's own validator
 * (xmllint) accepts the good files and rejects the structural mistakes. */
static int xmllint_valid(const char *path)
{
    char cmd[8400];
    snprintf(cmd, sizeof cmd,
             "xmllint --noout --nonet --schema '%s/mmm.xsd' '%s' "
             ">/dev/null 2>&1",
             MMM_DAGS_DIR, path);
    int st = system(cmd);
    cr_assert(WIFEXITED(st), "xmllint did not run on %s", path);
    return WEXITSTATUS(st) == 0;
}

Test(parse, schema_agrees_with_loader)
{
    static const char *const good[] = {"minimal", "bom_crlf",
                                       "all_attributes"};
    static const char *const bad[] = {
        "unknown_element", "unknown_attribute", "missing_attribute",
        "missing_program_name", "access_value", "param_name",
        "kernel_id_space", "text_in_kernel", "wrong_root",
        "namespaced_element", "child_of_param", "copy_kind",
        "copy_without_bytes", "copy_with_blocks", "access_pattern_value",
        "access_without_words"};
    char path[4096];
    if (system("xmllint --version >/dev/null 2>&1") != 0)
        cr_skip_test("xmllint is not installed");
    for (size_t i = 0; i < sizeof good / sizeof *good; i++) {
        snprintf(path, sizeof path, "%s/good/%s.xml", DATA, good[i]);
        cr_expect(xmllint_valid(path), "the XSD refuses %s", path);
    }
    snprintf(path, sizeof path, "%s/machine/gtx480.xml", DATA);
    cr_expect(xmllint_valid(path), "the XSD refuses %s", path);
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        snprintf(path, sizeof path, "%s/bad/%s.xml", DATA, bad[i]);
        cr_expect(!xmllint_valid(path), "the XSD accepts %s", path);
    }
}

/* ------------------------------------------------------------------ */
/* Special cases                                                       */

Test(parse, missing_file)
{
    mmm_program *p = NULL;
    mmm_machine *m = NULL;
    mmm_error err;
    char buf[1200];
    int rc = mmm_program_load_file(&p, "no/such/file.xml", NULL, &err);
    cr_expect_eq(rc, MMM_EIO);
    cr_expect_null(p);
    cr_expect_str_eq(mmm_error_format(&err, buf, sizeof buf),
                     "no/such/file.xml: error: cannot open: No such file "
                     "or directory");
    rc = mmm_machine_load_file(&m, "no/such/machine.xml", NULL, &err);
    cr_expect_eq(rc, MMM_EIO);
    cr_expect_null(m);
    cr_expect_str_eq(mmm_error_format(&err, buf, sizeof buf),
                     "no/such/machine.xml: error: cannot open: No such "
                     "file or directory");
    rc = mmm_program_load_file(&p, DATA, NULL, &err);
    cr_expect_eq(rc, MMM_EIO);
    cr_expect_eq(err.line, 0);
}

Test(parse, billion_laughs_is_quick)
{
    mmm_program *p = NULL;
    mmm_error err;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    int rc = mmm_program_load_file(&p, DATA "/bad/billion_laughs.xml", NULL,
                                   &err);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    cr_expect_eq(rc, MMM_EPARSE);
    double s = (double)(t1.tv_sec - t0.tv_sec) +
               (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
    cr_expect_lt(s, 0.5, "took %g s", s);
}

Test(parse, empty_and_odd_memory)
{
    mmm_program *p = NULL;
    mmm_error err;
    int rc = mmm_program_load_memory(&p, "", 0, NULL, NULL, &err);
    cr_expect_eq(rc, MMM_EPARSE);
    cr_expect_str_eq(err.file, "<memory>");
    cr_expect_not_null(strstr(err.message, "document is empty"), "%s",
                       err.message);
    rc = mmm_program_load_memory(&p, NULL, 0, "x.xml", NULL, &err);
    cr_expect_eq(rc, MMM_EPARSE);
    rc = mmm_program_load_memory(NULL, "<program name='x'/>", 19, "x.xml",
                                 NULL, &err);
    cr_expect_eq(rc, MMM_EINVAL);
    /* A NUL byte inside the buffer is malformed XML, not the end. */
    static const char nul[] = "<program name=\"x\">\n\0</program>\n";
    rc = mmm_program_load_memory(&p, nul, sizeof nul - 1, "nul.xml", NULL,
                                 &err);
    cr_expect_eq(rc, MMM_EPARSE, "%s", err.message);
    cr_expect_eq(err.line, 2);
    cr_expect_null(p);
    /* The smallest program: no kernels at all. */
    rc = mmm_program_load_memory(&p, "<program name='x'/>", 19, "x.xml",
                                 NULL, &err);
    cr_assert_eq(rc, 0, "%s", err.message);
    cr_expect_eq(p->nkernels, 0);
    mmm_program_free(p);
}

/* Lines past 65535 are exact (libxml2's tree keeps 16 bits of line). */
Test(parse, big_line_numbers)
{
    const long nlines = 70000;
    size_t cap = (size_t)nlines * 80 + 1024, n = 0;
    char *buf = malloc(cap);
    cr_assert_not_null(buf);
    n += (size_t)sprintf(buf + n, "<program name=\"big\">\n");
    for (long i = 2; i < nlines; i++)
        n += (size_t)sprintf(buf + n, "  <kernel id=\"k%ld\" blocks=\"1\" "
                                      "work=\"1\" span=\"1\" reads=\"1\" "
                                      "writes=\"1\"/>\n",
                             i);
    size_t good_end = n;
    n += (size_t)sprintf(buf + n, "  <edge from=\"k2\" to=\"k%ld\"/>\n",
                         nlines - 1);
    n += (size_t)sprintf(buf + n, "  <edge from=\"k3\" to=\"nowhere\"/>\n");
    n += (size_t)sprintf(buf + n, "  <kernel id=\"z\" blocks=\"x\" work=\"1\" "
                                  "span=\"1\" reads=\"1\" writes=\"1\"/>\n");
    n += (size_t)sprintf(buf + n, "</program>\n");

    mmm_program *p = NULL;
    mmm_error err;
    int rc = mmm_program_load_memory(&p, buf, n, "big.xml", NULL, &err);
    cr_expect_eq(rc, MMM_EINPUT);
    cr_expect_eq(err.line, nlines + 2, "line %ld: %s", err.line, err.message);
    cr_expect_not_null(strstr(err.message, "unknown parameter 'x'"));

    /* Without the bad kernel: the dangling edge, at its line. */
    n = good_end;
    n += (size_t)sprintf(buf + n, "  <edge from=\"k2\" to=\"k%ld\"/>\n",
                         nlines - 1);
    n += (size_t)sprintf(buf + n, "  <edge from=\"k3\" to=\"nowhere\"/>\n");
    n += (size_t)sprintf(buf + n, "</program>\n");
    rc = mmm_program_load_memory(&p, buf, n, "big.xml", NULL, &err);
    cr_expect_eq(rc, MMM_EINPUT);
    cr_expect_eq(err.line, nlines + 1, "line %ld: %s", err.line, err.message);

    /* Valid: the last kernel knows its line. */
    n = good_end;
    n += (size_t)sprintf(buf + n, "</program>\n");
    rc = mmm_program_load_memory(&p, buf, n, "big.xml", NULL, &err);
    cr_assert_eq(rc, 0, "%s", err.message);
    cr_expect_eq(p->kernels[p->nkernels - 1].line, nlines - 1);
    mmm_program_free(p);
    free(buf);
}

/* A program loaded with the builder in a second thread is the same as one
 * loaded inline: kernels (ids, lines, classes), edges (ends, lines),
 * parameters, name and description. */
static void expect_same_program(const char *what, const mmm_program *a,
                                const mmm_program *b)
{
    cr_assert_eq(a->nkernels, b->nkernels, "%s", what);
    cr_assert_eq(a->nedges, b->nedges, "%s", what);
    cr_assert_eq(a->nclasses, b->nclasses, "%s", what);
    cr_assert_eq(a->nparams, b->nparams, "%s", what);
    cr_expect_str_eq(a->name, b->name, "%s", what);
    cr_expect_str_eq(a->description, b->description, "%s", what);
    for (size_t i = 0; i < a->nparams; i++)
        cr_expect_str_eq(a->params[i].name, b->params[i].name, "%s", what);
    for (size_t i = 0; i < a->nkernels; i++) {
        cr_expect_str_eq(a->kernels[i].id, b->kernels[i].id, "%s", what);
        cr_expect_eq(a->kernels[i].line, b->kernels[i].line, "%s", what);
        cr_expect_eq(a->kernels[i].nclasses, b->kernels[i].nclasses, "%s",
                     what);
    }
    for (size_t i = 0; i < a->nclasses; i++)
        cr_expect_eq(a->classes[i].line, b->classes[i].line, "%s", what);
    for (size_t i = 0; i < a->nedges; i++) {
        cr_expect_eq(a->edges[i].from, b->edges[i].from, "%s", what);
        cr_expect_eq(a->edges[i].to, b->edges[i].to, "%s", what);
        cr_expect_eq(a->edges[i].line, b->edges[i].line, "%s", what);
    }
}

static void check_threads_same(const char *path)
{
    mmm_load_options off = MMM_LOAD_OPTIONS_INIT, on = MMM_LOAD_OPTIONS_INIT;
    mmm_program *a = NULL, *b = NULL;
    mmm_error err;
    off.threads = MMM_THREADS_OFF;
    on.threads = MMM_THREADS_ON;
    size_t len;
    char *buf = slurp(path, &len);
    int is_program = strstr(buf, "<program") != NULL;
    free(buf);
    if (!is_program)
        return;
    cr_assert_eq(mmm_program_load_file(&a, path, &off, &err), 0, "%s: %s",
                 path, err.message);
    cr_assert_eq(mmm_program_load_file(&b, path, &on, &err), 0, "%s: %s",
                 path, err.message);
    expect_same_program(path, a, b);
    mmm_program_free(a);
    mmm_program_free(b);
}

Test(parse, threaded_load_builds_the_same_program)
{
    cr_expect_geq(walk(DATA "/good", check_threads_same), 2);
    walk(MMM_DAGS_DIR, check_threads_same);
}

/* A file of n kernels (chained by edges), with text spliced in after
 * kernel number `at` (0: none). */
static char *chain_file(long n, long at, const char *splice, size_t *len)
{
    size_t cap = (size_t)n * 160 + 4096, k = 0;
    char *buf = malloc(cap);
    cr_assert_not_null(buf);
    k += (size_t)sprintf(buf + k, "<program name=\"chain\">\n"
                                  "  <description>a chain</description>\n");
    for (long i = 1; i <= n; i++) {
        k += (size_t)sprintf(buf + k,
                             "  <kernel id=\"k%ld\" blocks=\"%ld\" "
                             "work=\"1\" span=\"1\" reads=\"1\" "
                             "writes=\"1\"/>\n",
                             i, 1 + i % 7);
        if (i > 1)
            k += (size_t)sprintf(buf + k,
                                 "  <edge from=\"k%ld\" to=\"k%ld\"/>\n",
                                 i - 1, i);
        if (i == at)
            k += (size_t)sprintf(buf + k, "%s", splice);
    }
    k += (size_t)sprintf(buf + k, "</program>\n");
    *len = k;
    return buf;
}

/* Errors from either side of a threaded load (the parse, the builder)
 * come out as they do inline: the first in the file wins, with its line,
 * wherever it lies among thousands of chunks' worth of records. */
Test(parse, threaded_load_reports_the_first_error)
{
    const long n = 30000; /* 2 lines per kernel: about 4 MB */
#define DUP_K5 "  <kernel id=\"k5\" blocks=\"1\" work=\"1\" span=\"1\" " \
               "reads=\"1\" writes=\"1\"/>\n"
#define BOGUS "  <kernel id=\"z\" bogus=\"1\"/>\n"
    struct {
        long at;          /* kernel after which the text goes */
        const char *text; /* its error is on the first line */
        int code;
        const char *msg;
    } cases[] = {
        {10, "  <edge from=\"k1\" to=\"nowhere\"/>\n", MMM_EINPUT,
         "nowhere"},
        {29000, DUP_K5, MMM_EINPUT, "duplicate kernel id 'k5'"},
        {15000, "  <kernel id=\"bad\" blocks=\"x\" work=\"1\" span=\"1\" "
                "reads=\"1\" writes=\"1\"/>\n",
         MMM_EINPUT, "unknown parameter 'x'"},
        {20000, BOGUS, MMM_EINPUT, "bogus"},
        {25000, "  <edge from=\"k1\" to=\"k2\"\n", MMM_EPARSE, ""},
        /* Two errors: a builder error before a parse error wins, and a
         * parse error before a builder error wins. */
        {100, DUP_K5 BOGUS, MMM_EINPUT, "duplicate"},
        {100, BOGUS DUP_K5, MMM_EINPUT, "bogus"},
    };
#undef DUP_K5
#undef BOGUS
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        size_t len;
        char *buf = chain_file(n, cases[c].at, cases[c].text, &len);
        long line = 2 + 2 * cases[c].at; /* after kernel `at` and its edge */
        for (int t = 0; t < 2; t++) {
            mmm_load_options opt = MMM_LOAD_OPTIONS_INIT;
            mmm_program *p = NULL;
            mmm_error err;
            opt.threads = t ? MMM_THREADS_ON : MMM_THREADS_OFF;
            int rc = mmm_program_load_memory(&p, buf, len, "c.xml", &opt,
                                             &err);
            cr_expect_eq(rc, cases[c].code, "case %zu threads %d: %d %s", c,
                         t, rc, err.message);
            cr_expect_null(p);
            if (cases[c].code == MMM_EINPUT)
                cr_expect_eq(err.line, line, "case %zu threads %d: line %ld "
                             "(%s)", c, t, err.line, err.message);
            cr_expect_not_null(strstr(err.message, cases[c].msg),
                               "case %zu threads %d: %s", c, t, err.message);
        }
        free(buf);
    }
    size_t len;
    char *buf;
    /* And a valid one: the same program either way. */
    buf = chain_file(n, 0, "", &len);
    mmm_program *a = NULL, *b = NULL;
    mmm_load_options off = MMM_LOAD_OPTIONS_INIT, on = MMM_LOAD_OPTIONS_INIT;
    mmm_error err;
    off.threads = MMM_THREADS_OFF;
    on.threads = MMM_THREADS_ON;
    cr_assert_eq(mmm_program_load_memory(&a, buf, len, "c.xml", &off, &err),
                 0, "%s", err.message);
    cr_assert_eq(mmm_program_load_memory(&b, buf, len, "c.xml", &on, &err), 0,
                 "%s", err.message);
    cr_expect_eq(a->nkernels, (size_t)n);
    cr_expect_eq(a->nedges, (size_t)n - 1);
    cr_expect_str_eq(b->description, "a chain");
    expect_same_program("chain", a, b);
    mmm_program_free(a);
    mmm_program_free(b);
    free(buf);
}

/* The size limit also holds for what cannot be stat'ed (a pipe). */
Test(parse, size_limit_while_reading)
{
    char path[] = "/tmp/mmm_test_parse_XXXXXX";
    int fd = mkstemp(path);
    cr_assert_geq(fd, 0);
    close(fd);
    unlink(path);
    cr_assert_eq(mkfifo(path, 0600), 0);
    pid_t pid = fork();
    cr_assert_geq(pid, 0);
    if (pid == 0) {
        FILE *f = fopen(path, "w");
        if (f) {
            fputs("<program name=\"x\">\n", f);
            for (int i = 0; i < 1000; i++)
                fputs("  <!-- a long comment to make the file big -->\n", f);
            fputs("</program>\n", f);
            fclose(f);
        }
        _exit(0);
    }
    mmm_load_options opt = MMM_LOAD_OPTIONS_INIT;
    mmm_program *p = NULL;
    mmm_error err;
    opt.limits.max_file_bytes = 1000;
    int rc = mmm_program_load_file(&p, path, &opt, &err);
    cr_expect_eq(rc, MMM_ELIMIT, "%s", err.message);
    cr_expect_not_null(strstr(err.message, "file too big"), "%s",
                       err.message);
    cr_expect_null(p);
    int st;
    kill(pid, SIGKILL);
    waitpid(pid, &st, 0);
    unlink(path);
}

Test(parse, schema_text)
{
    size_t len;
    char *xsd = slurp(MMM_DAGS_DIR "/mmm.xsd", &len);
    cr_expect_str_eq(mmm_schema_text(), xsd);
    free(xsd);
}

/* ------------------------------------------------------------------ */
/* Machine files                                                       */

Test(parse, machine_file)
{
    mmm_machine *m = NULL;
    mmm_error err;
    int rc = mmm_machine_load_file(&m, DATA "/machine/gtx480.xml", NULL,
                                   &err);
    cr_assert_eq(rc, 0, "%s:%ld: %s", err.file, err.line, err.message);
    cr_expect_str_eq(m->name, "GTX 480");
    cr_expect_str_eq(m->file, DATA "/machine/gtx480.xml");
    cr_assert_eq(m->nparams, 5);
    const char *names[] = {"U", "Z", "p", "half", "third"};
    const int64_t num[] = {400, 12288, 15, 6144, 1};
    const int64_t den[] = {1, 1, 1, 1, 3};
    for (size_t i = 0; i < 5; i++) {
        cr_expect_str_eq(m->params[i].name, names[i]);
        cr_expect_eq(m->params[i].line, (long)i + 5);
        cr_expect(m->params[i].value.exact, "%s inexact", names[i]);
        cr_expect_eq(m->params[i].value.num, num[i], "%s", names[i]);
        cr_expect_eq(m->params[i].value.den, den[i], "%s", names[i]);
    }
    mmm_machine_free(m);
    mmm_machine_free(NULL);
}

/* Machine parameters come first; a program redeclaring one keeps it. */
Test(parse, program_with_machine)
{
    mmm_machine *m = NULL;
    mmm_program *p = NULL;
    mmm_error err;
    mmm_load_options opt = MMM_LOAD_OPTIONS_INIT;
    int rc = mmm_machine_load_file(&m, DATA "/machine/gtx480.xml", NULL,
                                   &err);
    cr_assert_eq(rc, 0, "%s", err.message);
    opt.machine = m;
    rc = mmm_program_load_file(&p, DATA "/good/minimal.xml", &opt, &err);
    cr_assert_eq(rc, 0, "%s:%ld: %s", err.file, err.line, err.message);
    /* U, Z, p, half, third from the machine, then n, m, s. */
    cr_expect_eq(p->nparams, 8);
    for (size_t i = 0; i < 5; i++)
        cr_expect_str_eq(p->params[i].name, m->params[i].name);
    cr_expect(p->params[0].from_machine);
    int z = mmm_program_find_param(p, "Z");
    cr_assert_geq(z, 0);
    cr_expect(p->params[z].from_machine);
    cr_expect_geq(mmm_program_find_param(p, "s"), 5);
    mmm_program_free(p);
    mmm_machine_free(m);
}
