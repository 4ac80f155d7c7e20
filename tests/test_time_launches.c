/*
 * test_time_launches.c: a repeat whose launches differ (a kernel that uses
 * its index, a reduction's passes) is timed and listed launch by launch
 * (mmm_time.each_launch; `mmm analyze --model time`: the first and last
 * few in text, every launch in JSON).  Each launch is checked against the
 * same launch timed alone, as a program of one kernel without an index.
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "mmm/mmm.h"
#include "mmm/timemodel.h"
#include "output/output_internal.h"

/* p = 2 SMs of 512 threads, 1 MHz, round constants. */
#define MACHINE \
    "<param name='U' value='1'/>\n" \
    "<param name='clock_hz' value='1e6'/>\n" \
    "<param name='p' value='2'/>\n" \
    "<param name='sm_threads' value='512'/>\n" \
    "<param name='sm_blocks' value='4'/>\n" \
    "<param name='sm_shared_bytes' value='65536'/>\n" \
    "<param name='sm_registers' value='65536'/>\n" \
    "<param name='launch_s' value='1e-3'/>\n" \
    "<param name='launch_graph_s' value='1e-4'/>\n" \
    "<param name='op_cycles' value='2'/>\n" \
    "<param name='issue_per_cycle' value='1'/>\n" \
    "<param name='sync_cycles' value='10'/>\n" \
    "<param name='sync_cycles_per_warp' value='5'/>\n" \
    "<param name='mem_latency_cycles' value='100'/>\n" \
    "<param name='bandwidth_bytes_per_cycle' value='100'/>\n"

/* A first kernel, then R passes: pass i has 2^(R-i) blocks of 128
 * threads reading 4 words and writing 1. */
static char *passes_xml(int R)
{
    char *s = NULL;
    cr_assert_geq(asprintf(&s,
                           "<program name='passes'>\n" MACHINE
                           "<param name='R' value='%d'/>\n"
                           "<kernel id='first' blocks='64' threads='128' work='128' span='1'"
                           " reads='1' writes='1'/>\n"
                           "<kernel id='pass' repeat='R' index='i' blocks='2^(R-i)'"
                           " threads='128' work='128*8' span='8' reads='4' writes='1'"
                           " rounds='2'/>\n"
                           "<edge from='first' to='pass'/>\n"
                           "</program>\n",
                           R),
                  0);
    return s;
}

/* The same pass as a kernel of its own, B blocks. */
static char *alone_xml(int64_t B)
{
    char *s = NULL;
    cr_assert_geq(asprintf(&s,
                           "<program name='alone'>\n" MACHINE
                           "<kernel id='pass' blocks='%lld' threads='128' work='128*8'"
                           " span='8' reads='4' writes='1' rounds='2'/>\n"
                           "</program>\n",
                           (long long)B),
                  0);
    return s;
}

static void time_of(const char *xml, mmm_program **p, mmm_instance **inst, mmm_time *t)
{
    mmm_error err;
    cr_assert_eq(mmm_program_load_memory(p, xml, strlen(xml), "t.xml", NULL, &err), 0,
                 "%s", err.message);
    cr_assert_eq(mmm_instance_new(inst, *p, &err), 0);
    cr_assert_eq(mmm_instance_eval(*inst, NULL, 0, &err), 0, "%s", err.message);
    cr_assert_eq(mmm_time_compute(t, *inst, NULL, &err), 0, "%s", err.message);
}

Test(time_launches, each_launch_is_the_launch_timed_alone)
{
    const int R = 12;
    char *xml = passes_xml(R);
    mmm_program *p;
    mmm_instance *inst;
    mmm_time t;
    double sum = 0;
    time_of(xml, &p, &inst, &t);
    const mmm_time_kernel *first = &t.kernels[0], *pass = &t.kernels[1];
    cr_assert_eq(first->nlisted, 0); /* one launch: nothing to list */
    cr_assert_eq(pass->launches, R);
    cr_assert_eq(pass->nlisted, (size_t)R);
    cr_assert_eq(t.neach, (size_t)R);
    cr_assert_eq(t.each_cut, 0);
    for (int i = 1; i <= R; i++) {
        const mmm_time_launch *l = &t.each_launch[pass->first_launch + (size_t)i - 1];
        int64_t B = (int64_t)1 << (R - i);
        char *one = alone_xml(B);
        mmm_program *q;
        mmm_instance *qi;
        mmm_time u;
        time_of(one, &q, &qi, &u);
        cr_assert_eq(l->index, i);
        cr_assert_eq(l->blocks, B);
        cr_assert_eq(l->exec_seconds, u.kernels[0].exec_seconds, "launch %d: %g, alone %g", i,
                     l->exec_seconds, u.kernels[0].exec_seconds);
        cr_assert_eq(l->waves, u.kernels[0].waves, "launch %d", i);
        cr_assert_eq(l->resident, u.kernels[0].resident);
        /* its execution's dominant term (the kernel alone may be
         * dominated by its launch, which a launch's own term leaves out) */
        if (u.kernels[0].dominant != MMM_TIME_TERM_LAUNCH)
            cr_assert_eq(l->dominant, u.kernels[0].dominant, "launch %d", i);
        /* a launch lasts at least its execution */
        cr_assert_geq(l->seconds, l->exec_seconds * (1 - 1e-15));
        sum += l->seconds;
        mmm_time_dispose(&u);
        mmm_instance_free(qi);
        mmm_program_free(q);
        free(one);
    }
    /* the launches add up to their kernel */
    cr_assert(fabs(sum - pass->seconds) <= 1e-12 * pass->seconds, "%.17g vs %.17g", sum,
              pass->seconds);
    mmm_time_dispose(&t);
    mmm_instance_free(inst);
    mmm_program_free(p);
    free(xml);
}

/* Lines of the text section of the launches of 'pass'. */
static int launch_lines(int R, char *buf, size_t size, int *first, int *last, int *dots)
{
    char *xml = passes_xml(R), *text = NULL, *line;
    size_t len = 0;
    mmm_program *p;
    mmm_instance *inst;
    mmm_time t;
    FILE *f = open_memstream(&text, &len);
    int n = 0, in = 0;
    time_of(xml, &p, &inst, &t);
    cr_assert_not_null(f);
    mmm__time_text(f, &t, inst, 0);
    fclose(f);
    snprintf(buf, size, "%s", text);
    *first = *last = -1;
    *dots = 0;
    for (line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
        long idx;
        if (strstr(line, "launches of pass, one by one")) {
            in = 1;
            continue;
        }
        if (!in || strstr(line, "launch     blocks"))
            continue;
        if (strstr(line, "... (")) {
            (*dots)++;
            continue;
        }
        if (sscanf(line, "%ld", &idx) == 1) {
            if (*first < 0)
                *first = (int)idx;
            *last = (int)idx;
            n++;
        }
    }
    free(text);
    mmm_time_dispose(&t);
    mmm_instance_free(inst);
    mmm_program_free(p);
    free(xml);
    return n;
}

Test(time_launches, text_shows_the_first_and_last_few)
{
    static char buf[1 << 16];
    int first, last, dots;
    cr_assert_eq(launch_lines(5, buf, sizeof buf, &first, &last, &dots), 5, "%s", buf);
    cr_assert(first == 1 && last == 5 && dots == 0, "%s", buf);
    cr_assert_eq(launch_lines(8, buf, sizeof buf, &first, &last, &dots), 8, "%s", buf);
    cr_assert_eq(dots, 0);
    cr_assert_eq(launch_lines(12, buf, sizeof buf, &first, &last, &dots), 6, "%s", buf);
    cr_assert(first == 1 && last == 12 && dots == 1, "%s", buf);
    cr_assert(strstr(buf, "launches of pass, one by one (12; the first and the last 3):"),
              "%s", buf);
    cr_assert(strstr(buf, "     ... (6 more; --format json lists every launch)"), "%s", buf);
}

Test(time_launches, json_lists_every_launch)
{
    char path[] = "/tmp/mmm_time_launches_XXXXXX.xml", cmd[1024], line[4096];
    char *xml = passes_xml(12);
    int fd = mkstemps(path, 4), n = 0, next = 1, st;
    FILE *f;
    cr_assert_geq(fd, 0);
    cr_assert_eq(write(fd, xml, strlen(xml)), (ssize_t)strlen(xml));
    close(fd);
    snprintf(cmd, sizeof cmd, "'%s' analyze '%s' --model time --format json", MMM_BIN, path);
    f = popen(cmd, "r");
    cr_assert_not_null(f);
    while (fgets(line, sizeof line, f)) {
        const char *at = strstr(line, "{\"kernel\": \"pass\", \"launch\": ");
        long idx, blocks;
        if (!at)
            continue;
        cr_assert_eq(sscanf(at, "{\"kernel\": \"pass\", \"launch\": %ld, \"blocks\": %ld", &idx,
                            &blocks), 2, "%s", line);
        cr_assert_eq(idx, next++);
        cr_assert_eq(blocks, 1L << (12 - idx));
        n++;
    }
    st = pclose(f);
    cr_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    cr_assert_eq(n, 12);
    unlink(path);
    free(xml);
}
