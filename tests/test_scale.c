/* test_scale.c: the sweep over p (mmm/scale.h, `mmm scale`) and
 * `mmm simulate -p LIST`, against closed forms.
 *
 * The fan program: kernel a of b identical blocks of cost c (no memory
 * accesses, so O(B) = 0 and the cost is S(B)), then kernel z of one block
 * of cost d.  By hand: T1 = b·c + d, critical path = c + d, N = b + 1,
 * L = 2, C = max(c, d), K = b.  A greedy schedule on p SMs runs a in
 * ceil(b/p) waves, then z: makespan = ceil(b/p)·c + d for every policy. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "mmm/mmm.h"
#include "mmm/scale.h"
#include "load_xml.h"

static mmm_instance *evaluate(const mmm_program *prog)
{
    mmm_instance *inst = NULL;
    mmm_error err;
    cr_assert_eq(mmm_instance_new(&inst, prog, &err), 0, "%s", err.message);
    cr_assert_eq(mmm_instance_eval(inst, NULL, 0, &err), 0, "eval: %s", err.message);
    return inst;
}

static char *fan_xml(long b, long c, long d, int with_p)
{
    static char xml[1024];
    snprintf(xml, sizeof xml,
             "<program name=\"fan\">%s"
             "<kernel id=\"a\" blocks=\"%ld\" work=\"%ld\" span=\"%ld\" reads=\"0\" writes=\"0\"/>"
             "<kernel id=\"z\" blocks=\"1\" work=\"%ld\" span=\"%ld\" reads=\"0\" writes=\"0\"/>"
             "<edge from=\"a\" to=\"z\"/></program>",
             with_p ? "<param name=\"p\" value=\"3\"/>" : "", b, c, c, d, d);
    return xml;
}

static void close_to(double got, double want, const char *what, int64_t p)
{
    cr_assert(fabs(got - want) <= 1e-9 * fmax(1, fabs(want)),
              "%s at p = %lld: %.17g, expected %.17g", what, (long long)p, got, want);
}

Test(scale, fan_rows_match_closed_forms)
{
    const long b = 10, c = 3, d = 5;
    mmm_program *prog = load_xml(fan_xml(b, c, d, 0));
    mmm_instance *inst = evaluate(prog);
    const mmm_sim_policy *pol[2] = {&mmm_sim_policy_fifo, &mmm_sim_policy_lifo};
    int64_t ps[] = {1, 2, 3, 4, 7, 9, 10, 11, 64};
    mmm_speedup_options o = MMM_SPEEDUP_OPTIONS_INIT;
    mmm_speedup s;
    mmm_error err;
    size_t i, j;
    o.p = ps;
    o.np = sizeof ps / sizeof ps[0];
    o.policies = pol;
    o.npolicies = 2;
    cr_assert_eq(mmm_speedup_compute(&s, inst, NULL, 0, &o, &err), 0, "%s", err.message);
    cr_assert_eq(s.T1, (double)(b * c + d));
    cr_assert_eq(s.critical_path, (double)(c + d));
    cr_assert_eq(s.K, b);
    cr_assert_eq(s.N, b + 1);
    cr_assert_eq(s.L, 2);
    cr_assert_eq(s.p_dependent, 0);
    cr_assert_eq(s.nrows, o.np);
    for (i = 0; i < s.nrows; i++) {
        const mmm_speedup_row *r = &s.rows[i];
        double p = (double)ps[i], T1 = (double)(b * c + d), cp = (double)(c + d);
        double lb = fmax(T1 / p, cp), gr = T1 / p + (1 - 1 / p) * cp;
        cr_assert_eq(r->p, ps[i]);
        close_to(r->lower_bound, lb, "lower bound", r->p);
        close_to(r->graham, gr, "Graham", r->p);
        close_to(r->graham_brent, ((double)(b + 1) / p + 2) * (double)(c > d ? c : d),
                 "Graham-Brent", r->p);
        cr_assert_eq(r->has_corollary, ps[i] >= b, "corollary held at p = %lld",
                     (long long)r->p);
        if (r->has_corollary)
            close_to(r->corollary, ((double)(b + 1) / (double)b + 2) * (double)(c > d ? c : d),
                     "corollary", r->p);
        for (j = 0; j < 2; j++)
            cr_assert_eq(r->makespan[j], (double)(((b + ps[i] - 1) / ps[i]) * c + d),
                         "makespan %s at p = %lld", pol[j]->name, (long long)r->p);
        close_to(r->speedup_min, T1 / gr, "speedup min", r->p);
        close_to(r->speedup_max, T1 / lb, "speedup max", r->p);
        cr_assert(r->speedup_min <= T1 / r->makespan[0] + 1e-12);
        cr_assert(T1 / r->makespan[0] <= r->speedup_max + 1e-12);
    }
    mmm_speedup_dispose(&s);
    mmm_instance_free(inst);
    mmm_program_free(prog);
}

/* A program that declares p is evaluated again for each row: its blocks
 * here are 4p, so T1 = 4p·c + d and the makespan is 4c + d for every p. */
Test(scale, p_dependent_program)
{
    static const char xml[] =
        "<program name=\"pdep\"><param name=\"p\" value=\"2\"/>"
        "<kernel id=\"a\" blocks=\"4*p\" work=\"3\" span=\"3\" reads=\"0\" writes=\"0\"/>"
        "<kernel id=\"z\" blocks=\"1\" work=\"5\" span=\"5\" reads=\"0\" writes=\"0\"/>"
        "<edge from=\"a\" to=\"z\"/></program>";
    mmm_program *prog = load_xml(xml);
    mmm_instance *inst = evaluate(prog);
    int64_t ps[] = {1, 5, 16};
    mmm_speedup_options o = MMM_SPEEDUP_OPTIONS_INIT;
    mmm_speedup s;
    mmm_error err;
    size_t i;
    o.p = ps;
    o.np = 3;
    cr_assert_eq(mmm_speedup_compute(&s, inst, NULL, 0, &o, &err), 0, "%s", err.message);
    cr_assert_eq(s.p_dependent, 1);
    cr_assert_eq(s.T1, 4.0 * 2 * 3 + 5); /* the instance's own p = 2 */
    for (i = 0; i < 3; i++) {
        cr_assert_eq(s.rows[i].T1, 4.0 * (double)ps[i] * 3 + 5);
        cr_assert_eq(s.rows[i].makespan[0], 4.0 * 3 + 5);
    }
    mmm_speedup_dispose(&s);
    mmm_instance_free(inst);
    mmm_program_free(prog);
}

Test(scale, default_list)
{
    int64_t *v = NULL;
    size_t n = 0;
    mmm_error err;
    /* Parallelism 5: powers of two up to 16 (the first >= 2 * 5), and the
     * machine's 14 in its place. */
    static const int64_t want[] = {1, 2, 4, 8, 14, 16};
    size_t i;
    cr_assert_eq(mmm_speedup_default_p(&v, &n, 5.0, 1000, 14, &err), 0);
    cr_assert_eq(n, 6);
    for (i = 0; i < n; i++)
        cr_assert_eq(v[i], want[i], "%zu: %lld", i, (long long)v[i]);
    free(v);
    /* At most N: parallelism 1000 with 3 blocks stops at 8. */
    cr_assert_eq(mmm_speedup_default_p(&v, &n, 1000.0, 3, 0, &err), 0);
    cr_assert_eq(n, 4);
    cr_assert_eq(v[3], 8);
    free(v);
}

/* The default p follow the blocks' parallelism T1/Tinf, not the threads'
 * W/S: 4 blocks of span 1 and work 1000, then one of 1 (no memory
 * traffic): W/S = 4001/2 = 2000.5 but T1/Tinf = (4 + 1)/(1 + 1) = 2.5,
 * so p = 1, 2, 4, 8 (the first power of two at or past 2 * 2.5), where
 * W/S would have run them to 4096. */
Test(scale, default_range_follows_the_blocks)
{
    static const char xml[] =
        "<program name=\"wide_threads\">"
        "<kernel id=\"a\" blocks=\"4\" work=\"1000\" span=\"1\" reads=\"0\" writes=\"0\"/>"
        "<kernel id=\"z\" blocks=\"1\" work=\"1\" span=\"1\" reads=\"0\" writes=\"0\"/>"
        "<edge from=\"a\" to=\"z\"/></program>";
    static const int64_t want[] = {1, 2, 4, 8};
    mmm_program *prog = load_xml(xml);
    mmm_instance *inst = evaluate(prog);
    mmm_speedup s;
    mmm_metrics m;
    mmm_error err;
    memset(&m, 0, sizeof m);
    cr_assert_eq(mmm_metrics_compute(&m, inst, 0, &err), 0, "%s", err.message);
    cr_expect_eq(m.parallelism, 4001.0 / 2);
    cr_expect(m.T1 == 5 && m.T_inf == 2 && m.parallelism_blocks == 2.5, "%g %g %g", m.T1,
              m.T_inf, m.parallelism_blocks);
    cr_assert_eq(mmm_speedup_compute(&s, inst, NULL, 0, NULL, &err), 0, "%s", err.message);
    cr_assert_eq(s.nrows, 4);
    for (size_t i = 0; i < 4; i++)
        cr_expect_eq(s.rows[i].p, want[i]);
    mmm_speedup_dispose(&s);
    mmm_metrics_dispose(&m);
    mmm_instance_free(inst);
    mmm_program_free(prog);
}

Test(scale, parse_list)
{
    int64_t *v = NULL;
    size_t n = 0;
    mmm_error err;
    static const int64_t want[] = {1, 3, 4, 5, 8};
    size_t i;
    cr_assert_eq(mmm_speedup_parse_p(&v, &n, "8, 3..5,1,4", &err), 0, "%s", err.message);
    cr_assert_eq(n, 5);
    for (i = 0; i < n; i++)
        cr_assert_eq(v[i], want[i]);
    free(v);
    cr_assert_eq(mmm_speedup_parse_p(&v, &n, "5..3", &err), MMM_EINVAL);
    cr_assert(strstr(err.message, "smaller end first") != NULL, "%s", err.message);
    cr_assert_eq(mmm_speedup_parse_p(&v, &n, "0", &err), MMM_EINVAL);
    cr_assert_eq(mmm_speedup_parse_p(&v, &n, "1,,2", &err), MMM_EINVAL);
    cr_assert_eq(mmm_speedup_parse_p(&v, &n, "2x", &err), MMM_EINVAL);
    cr_assert_eq(mmm_speedup_parse_p(&v, &n, "1..1000000", &err), MMM_ELIMIT);
}

/* ------------------------------------------------------------------ */
/* The command line                                                   */

static int sh(const char *cmd)
{
    int st = system(cmd);
    cr_assert(st != -1);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f);
    fputs(text, f);
    fclose(f);
}

Test(scale_cli, json_keys_and_values)
{
    char dir[] = "/tmp/mmm_scaleXXXXXX", cmd[4096], file[1100];
    cr_assert_not_null(mkdtemp(dir));
    snprintf(file, sizeof file, "%s/fan.xml", dir);
    write_file(file, fan_xml(10, 3, 5, 0));
    /* Every key of the contract; corollary null exactly where p < K = 10;
     * the makespan ceil(10/p)*3 + 5 computed by python. */
    snprintf(cmd, sizeof cmd,
             "%s scale %s --p 1..4,10,12 --format json > %s/o.json && "
             "python3 -c \"import json,sys,math; d=json.load(open('%s/o.json'));"
             "ok=all(k in d for k in ('program','T1','critical_path','parallelism','K','rows'));"
             "ok=ok and d['T1']==35 and d['critical_path']==8 and d['K']==10;"
             "ok=ok and [r['p'] for r in d['rows']]==[1,2,3,4,10,12];"
             "ok=ok and all(set(r)=={'p','lower_bound','graham','graham_brent','corollary',"
             "'makespan','speedup_min','speedup_max'} for r in d['rows']);"
             "ok=ok and all((r['corollary'] is None)==(r['p']<10) for r in d['rows']);"
             "ok=ok and all(r['makespan']==math.ceil(10/r['p'])*3+5 for r in d['rows']);"
             "ok=ok and all(abs(r['speedup_max']-35/max(35/r['p'],8))<1e-12 for r in d['rows']);"
             "sys.exit(0 if ok else 1)\"",
             MMM_BIN, file, dir, dir);
    cr_assert_eq(sh(cmd), 0, "%s", cmd);
    /* --policy all: makespan is an object keyed by every policy. */
    snprintf(cmd, sizeof cmd,
             "%s scale %s -p 2 --policy all --format json > %s/a.json && "
             "python3 -c \"import json,sys; d=json.load(open('%s/a.json'));"
             "m=d['rows'][0]['makespan']; sys.exit(0 if len(m)==%zu and "
             "all(v==20 for v in m.values()) and 'critical-path' in m else 1)\"",
             MMM_BIN, file, dir, dir, mmm_sim_policy_count());
    cr_assert_eq(sh(cmd), 0, "%s", cmd);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    cr_assert_eq(sh(cmd), 0);
}

Test(scale_cli, text_csv_plot_and_usage)
{
    char dir[] = "/tmp/mmm_scaleXXXXXX", cmd[4096], file[1100];
    cr_assert_not_null(mkdtemp(dir));
    snprintf(file, sizeof file, "%s/fan.xml", dir);
    write_file(file, fan_xml(10, 3, 5, 0));
    /* The text marks the rows without a corollary and says why. */
    snprintf(cmd, sizeof cmd,
             "%s scale %s -p 2,10 > %s/t.txt && grep -q 'p < K = 10, where the corollary "
             "does not hold' %s/t.txt && grep -Eq '^ +2 +17.5 .* - +20 ' %s/t.txt",
             MMM_BIN, file, dir, dir, dir);
    cr_assert_eq(sh(cmd), 0, "%s", cmd);
    snprintf(cmd, sizeof cmd,
             "%s scale %s -p 4 --format csv | head -1 | grep -qx "
             "'p,lower_bound,graham,graham_brent,corollary,makespan,speedup_min,speedup_max'",
             MMM_BIN, file);
    cr_assert_eq(sh(cmd), 0, "%s", cmd);
    if (mmm_plot_available()) {
        snprintf(cmd, sizeof cmd, "%s scale %s --plot %s/s.svg > /dev/null && "
                 "xmllint --noout %s/s.svg", MMM_BIN, file, dir, dir);
        cr_assert_eq(sh(cmd), 0, "%s", cmd);
    }
    /* A non-integer past 10^5 keeps every integer digit: T1 = 3·100001 + 4,
     * so the lower bound at p = 2 is 300007/2 = 150003.5 (six significant
     * digits would print 150004, read as an integer). */
    snprintf(file, sizeof file, "%s/wide.xml", dir);
    write_file(file, fan_xml(3, 100001, 4, 0));
    snprintf(cmd, sizeof cmd, "%s scale %s --p 2 | grep -Eq '^ +2 +150003\\.5 '",
             MMM_BIN, file);
    cr_assert_eq(sh(cmd), 0, "%s", cmd);
    snprintf(file, sizeof file, "%s/fan.xml", dir);
    snprintf(cmd, sizeof cmd, "%s scale %s --p 3..1 2> %s/e.txt", MMM_BIN, file, dir);
    cr_assert_eq(sh(cmd), 2);
    snprintf(cmd, sizeof cmd, "%s scale %s --plot x.gif 2> /dev/null", MMM_BIN, file);
    cr_assert_eq(sh(cmd), 2);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    cr_assert_eq(sh(cmd), 0);
}

Test(scale_cli, simulate_p_list)
{
    char dir[] = "/tmp/mmm_scaleXXXXXX", cmd[4096], file[1100];
    cr_assert_not_null(mkdtemp(dir));
    snprintf(file, sizeof file, "%s/fan.xml", dir);
    write_file(file, fan_xml(10, 3, 5, 1));
    /* One run per p, each with makespan ceil(10/p)*3 + 5. */
    snprintf(cmd, sizeof cmd,
             "%s simulate %s -p 1,2,4 --format json > %s/s.json && "
             "python3 -c \"import json,sys,math; d=json.load(open('%s/s.json'));"
             "r=d['runs']; sys.exit(0 if d['program']=='fan' and [x['p'] for x in r]==[1,2,4] "
             "and all(x['makespan']==math.ceil(10/x['p'])*3+5 for x in r) else 1)\"",
             MMM_BIN, file, dir, dir);
    cr_assert_eq(sh(cmd), 0, "%s", cmd);
    snprintf(cmd, sizeof cmd,
             "test $(%s simulate %s -p 1..3 --format csv | wc -l) = 4", MMM_BIN, file);
    cr_assert_eq(sh(cmd), 0, "%s", cmd);
    snprintf(cmd, sizeof cmd, "%s simulate %s -p 1,2 --gantt %s/g.svg 2>/dev/null",
             MMM_BIN, file, dir);
    cr_assert_eq(sh(cmd), 2);
    snprintf(cmd, sizeof cmd, "test ! -e %s/g.svg && rm -rf %s", dir, dir);
    cr_assert_eq(sh(cmd), 0);
}

/* The report shows the same sweep: the fan's row at p = 2 (makespan
 * ceil(10/2)*3 + 5 = 20) and the rows where the corollary does not hold.
 * Each column has one format: four decimals, which the row p = 3 needs
 * (35/3 = 11.6667). */
Test(scale_cli, report_section)
{
    char dir[] = "/tmp/mmm_scaleXXXXXX", cmd[4096], file[1100];
    cr_assert_not_null(mkdtemp(dir));
    snprintf(file, sizeof file, "%s/fan.xml", dir);
    write_file(file, fan_xml(10, 3, 5, 1));
    snprintf(cmd, sizeof cmd,
             "%s report %s -o %s/r.html && grep -q '<section id=\"speedup\">' %s/r.html && "
             "grep -q '<tr><td class=\"n\" data-v=\"2\">2</td><td class=\"n\" data-v=\"17.5\">"
             "17.5000</td><td class=\"n\" data-v=\"21.5\">21.5000</td><td class=\"n\" "
             "data-v=\"37.5\">37.5000</td><td class=\"n\">\xe2\x80\x94 (p &lt; K)</td>"
             "<td class=\"n\" data-v=\"20\">20</td>' %s/r.html && rm -rf %s",
             MMM_BIN, file, dir, dir, dir, dir);
    cr_assert_eq(sh(cmd), 0, "%s", cmd);
}

/* ------------------------------------------------------------------ */
/* Measured speedups (--measured)                                     */

static mmm_speedup_measured *measured(const char *text)
{
    mmm_speedup_measured *m = NULL;
    mmm_error err;
    cr_assert_eq(mmm_speedup_measured_read_memory(&m, text, strlen(text), "m.csv", &err), 0,
                 "%s", err.message);
    cr_assert_not_null(m);
    return m;
}

/* By hand: times at p = 1 of 10, 12, 11 s: T(1) = 11 (their median); at
 * p = 2, 5.5 and 6 s: speedups 2 and 11/6, median (2 + 11/6)/2 = 23/12;
 * at p = 4, 4 s: 11/4.  Rows out of order in the file come out by p, the
 * rows of one p in the file's order. */
Test(scale_measured, speedups_from_times_by_hand)
{
    static const char *const files[] = {
        "p,seconds\n2,5.5\n1,10\n4,4\n1,12\n2,6\n1,11\n",
        /* milliseconds, quoted and padded cells, CRLF, blank lines, a byte
         * order mark and other columns ignored */
        "\xef\xbb\xbfprogram, p ,time_ms\r\nx,2,5500\r\n\r\n\"y\", 1 ,\"10000\"\r\n"
        "z,4,4000\r\nz,1,12000\r\nz,2,6000\r\nz,1,11000",
    };
    static const long lines[2][6] = {{3, 5, 7, 2, 6, 4}, {4, 6, 8, 2, 7, 5}};
    for (size_t f = 0; f < 2; f++) {
        mmm_speedup_measured *m = measured(files[f]);
        const int64_t p[] = {1, 1, 1, 2, 2, 4};
        const double want[] = {11.0 / 10, 11.0 / 12, 1, 2, 11.0 / 6, 11.0 / 4};
        cr_assert(m->from_seconds);
        close_to(m->t1, 11, "T(1)", 1);
        cr_assert_eq(m->n, 6);
        for (size_t i = 0; i < 6; i++) {
            cr_assert_eq(m->points[i].p, p[i], "row %zu", i);
            close_to(m->points[i].speedup, want[i], "speedup", p[i]);
            cr_assert_eq(m->points[i].line, lines[f][i], "file %zu row %zu: line %ld", f, i,
                         m->points[i].line);
        }
        cr_assert_eq(m->nmedians, 3);
        cr_assert_eq(m->medians[0].p, 1);
        close_to(m->medians[0].speedup, 1, "median", 1);
        cr_assert_eq(m->medians[1].p, 2);
        close_to(m->medians[1].speedup, 23.0 / 12, "median", 2);
        cr_assert_eq(m->medians[2].p, 4);
        close_to(m->medians[2].speedup, 11.0 / 4, "median", 4);
        mmm_speedup_measured_free(m);
    }
}

Test(scale_measured, speedups_as_given)
{
    mmm_speedup_measured *m = measured("speedup,p\n3.5,8\n1,1\n2.5,8\n1.5,8\n");
    cr_assert_not(m->from_seconds);
    cr_assert_eq(m->t1, 0);
    cr_assert_eq(m->n, 4);
    cr_assert_eq(m->nmedians, 2);
    cr_assert_eq(m->medians[1].p, 8);
    cr_assert_eq(m->medians[1].speedup, 2.5); /* the middle of 1.5, 2.5, 3.5 */
    cr_assert_eq(m->points[1].speedup, 3.5);  /* p = 8 in the file's order */
    cr_assert_eq(m->points[3].speedup, 1.5);
    mmm_speedup_measured_free(m);
}

Test(scale_measured, bad_files_are_file_line_errors)
{
    static const struct {
        const char *text;
        size_t len; /* 0: strlen */
        long line;
        const char *says;
    } bad[] = {
        {"", 0, 1, "empty file"},
        {"\n\n", 0, 1, "empty file"},
        {"p,seconds,p\n1,2,3\n", 0, 1, "column 'p' appears twice"},
        {"p,,seconds\n1,2,3\n", 0, 1, "column 2 of the header has no name"},
        {"q,seconds\n1,2\n", 0, 1, "needs a column 'p'"},
        {"p,time\n1,2\n", 0, 1, "needs a column 'p' and one of 'speedup' or 'seconds'"},
        {"p,seconds,speedup\n1,2,3\n", 0, 1, "two measures ('seconds' and 'speedup')"},
        {"p,time_ms,time_us\n1,2,3\n", 0, 1, "two measures"},
        {"p,seconds\n", 0, 1, "no rows after the header"},
        {"\n\np,seconds\n\n", 0, 3, "no rows after the header"},
        {"p,seconds\n1,2\n2\n", 0, 3, "1 fields where the header has 2 columns"},
        {"p,seconds\n1,2\n2,3,4\n", 0, 3, "3 fields where the header has 2 columns"},
        {"p,seconds\n1,abc\n", 0, 2, "seconds 'abc' is not a positive number"},
        {"p,speedup\n1,\n", 0, 2, "speedup '' is not a positive number"},
        {"p,seconds\n1,1\n2,-1\n", 0, 3, "seconds '-1' is not a positive number"},
        {"p,seconds\n1,1\n2,0\n", 0, 3, "seconds '0' is not a positive number"},
        {"p,seconds\n1,1\n2,inf\n", 0, 3, "seconds 'inf' is not a positive number"},
        {"p,seconds\n1,1\n2,nan\n", 0, 3, "seconds 'nan' is not a positive number"},
        {"p,seconds\n1,1\n2,1e999\n", 0, 3, "not a positive number"},
        {"p,time_us\n1,1\n2,1e-310\n", 0, 3, "time_us '1e-310'"},
        {"p,seconds\n0,1\n", 0, 2, "p '0' is not an integer >= 1"},
        {"p,seconds\n-2,1\n", 0, 2, "p '-2' is not an integer >= 1"},
        {"p,seconds\n1.5,1\n", 0, 2, "p '1.5' is not an integer >= 1"},
        {"p,seconds\n,1\n", 0, 2, "p '' is not an integer >= 1"},
        {"p,seconds\n99999999999999999999,1\n", 0, 2, "is not an integer >= 1"},
        {"p,seconds\nx,1\n", 0, 2, "p 'x' is not an integer >= 1"},
        {"p,seconds\n2,1\n4,0.5\n", 0, 1, "times without a row of p = 1"},
        {"x,p,time_ms\na,2,1\n", 0, 1, "times without a row of p = 1"},
        {"p,seconds\n1,1e300\n2,1e-10\n", 0, 3, "is not a positive finite number"},
        {"p,speedup\n1,1\n\n\n2,\"1.5\n", 0, 5, "unterminated quoted field"},
        {"p,speedup\n1,1\n2,\"1.5\"x\n", 0, 3, "text after a quoted field"},
        {"p,speedup\n1,1\n2,1\"5\n", 0, 3, "a '\"' inside an unquoted field"},
        {"p,seconds\n1,1\n2,\0\n", 17, 3, "a NUL byte"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        mmm_speedup_measured *m = (void *)1;
        mmm_error err;
        size_t len = bad[i].len ? bad[i].len : strlen(bad[i].text);
        int rc = mmm_speedup_measured_read_memory(&m, bad[i].text, len, "m.csv", &err);
        cr_expect_eq(rc, MMM_EINPUT, "case %zu: rc %d (%s)", i, rc, err.message);
        cr_expect_null(m, "case %zu", i);
        cr_expect_str_eq(err.file, "m.csv", "case %zu", i);
        cr_expect_eq(err.line, bad[i].line, "case %zu: line %ld, expected %ld (%s)", i,
                     err.line, bad[i].line, err.message);
        cr_expect(strstr(err.message, bad[i].says) != NULL, "case %zu: '%s' lacks '%s'", i,
                  err.message, bad[i].says);
    }
}

/* The measured p join the default list. */
Test(scale_measured, measured_p_join_the_default_list)
{
    mmm_program *prog = load_xml(fan_xml(10, 3, 5, 0));
    mmm_instance *inst = evaluate(prog);
    mmm_speedup_measured *m = measured("p,speedup\n3,2.5\n5,3\n1,1\n");
    mmm_speedup_options o = MMM_SPEEDUP_OPTIONS_INIT;
    const int64_t want[] = {1, 2, 3, 4, 5, 8, 16};
    int64_t given[] = {2};
    mmm_speedup s;
    mmm_error err;
    o.measured = m;
    cr_assert_eq(mmm_speedup_compute(&s, inst, NULL, 0, &o, &err), 0, "%s", err.message);
    cr_assert_eq(s.nrows, sizeof want / sizeof want[0], "%zu rows", s.nrows);
    for (size_t i = 0; i < s.nrows; i++)
        cr_assert_eq(s.rows[i].p, want[i], "row %zu: p = %lld", i, (long long)s.rows[i].p);
    mmm_speedup_dispose(&s);
    /* a list given stays as given */
    o.p = given;
    o.np = 1;
    cr_assert_eq(mmm_speedup_compute(&s, inst, NULL, 0, &o, &err), 0, "%s", err.message);
    cr_assert_eq(s.nrows, 1);
    mmm_speedup_dispose(&s);
    /* version 2 options know no measured speedups */
    o.version = 2;
    o.p = NULL;
    o.np = 0;
    cr_assert_eq(mmm_speedup_compute(&s, inst, NULL, 0, &o, &err), 0, "%s", err.message);
    cr_assert_eq(s.nrows, 5); /* 1, 2, 4, 8, 16 */
    mmm_speedup_dispose(&s);
    mmm_speedup_measured_free(m);
    mmm_instance_free(inst);
    mmm_program_free(prog);
}

Test(scale_cli, measured_json_text_and_picture)
{
    char dir[] = "/tmp/mmm_scaleXXXXXX", cmd[4096], file[1100], runs[1100];
    cr_assert_not_null(mkdtemp(dir));
    snprintf(file, sizeof file, "%s/fan.xml", dir);
    write_file(file, fan_xml(10, 3, 5, 0));
    snprintf(runs, sizeof runs, "%s/runs.csv", dir);
    /* T(1) = 8 ms (the median of 7, 8 and 9); p = 3: 4 ms and 5 ms, speedups
     * 2 and 1.6, median 1.8 */
    write_file(runs, "p,time_ms\n1,9\n3,4\n1,7\n3,5\n1,8\n");
    snprintf(cmd, sizeof cmd,
             "%s scale %s --measured %s --format json > %s/o.json && "
             "python3 -c \"import json,sys; d=json.load(open('%s/o.json'));"
             "m=d['measured']; want=[(1,8/9),(1,8/7),(1,1),(3,2),(3,1.6)];"
             "ok=len(m)==5 and all(set(x)=={'p','speedup'} for x in m);"
             "ok=ok and all(x['p']==p and abs(x['speedup']-s)<1e-12 for x,(p,s) in zip(m,want));"
             "ok=ok and 3 in [r['p'] for r in d['rows']];"
             "sys.exit(0 if ok else 1)\"",
             MMM_BIN, file, runs, dir, dir);
    cr_assert_eq(sh(cmd), 0, "%s", cmd);
    snprintf(cmd, sizeof cmd,
             "%s scale %s --measured %s > %s/t.txt && grep -q 'T(1) = 0.008 s, the median' "
             "%s/t.txt && grep -Eq '^ +3 +2 +1.8 +1.6 +2$' %s/t.txt && "
             "%s scale %s --format json | grep -vq measured",
             MMM_BIN, file, runs, dir, dir, dir, MMM_BIN, file);
    cr_assert_eq(sh(cmd), 0, "%s", cmd);
    if (mmm_plot_available()) {
        snprintf(cmd, sizeof cmd,
                 "%s scale %s --measured %s --plot %s/s.svg > /dev/null && "
                 "xmllint --noout %s/s.svg",
                 MMM_BIN, file, runs, dir, dir);
        cr_assert_eq(sh(cmd), 0, "%s", cmd);
    }
    /* a bad file: FILE:LINE, exit 1, no picture */
    write_file(runs, "p,seconds\n1,1\n2,0\n");
    snprintf(cmd, sizeof cmd,
             "%s scale %s --measured %s --plot %s/b.svg > /dev/null 2> %s/e.txt; "
             "test $? = 1 && grep -q '^%s:3: error: seconds .0. is not a positive number' "
             "%s/e.txt && test ! -e %s/b.svg",
             MMM_BIN, file, runs, dir, dir, runs, dir, dir);
    cr_assert_eq(sh(cmd), 0, "%s", cmd);
    write_file(runs, "p,seconds\n2,1\n");
    snprintf(cmd, sizeof cmd,
             "%s scale %s --measured %s 2> %s/e.txt > /dev/null; test $? = 1 && "
             "grep -q '^%s:1: error: times without a row of p = 1' %s/e.txt",
             MMM_BIN, file, runs, dir, runs, dir);
    cr_assert_eq(sh(cmd), 0, "%s", cmd);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    cr_assert_eq(sh(cmd), 0);
}
