/* import_stg.c: Kasahara's Standard Task Graph format.
 *
 *   N [P]                   the number of tasks, without the two dummies,
 *                           and (in the set of graphs from real programs)
 *                           the number of processors, noted
 *   id cost npred pred...   N + 2 records: the entry dummy 0, tasks 1..N,
 *                           the exit dummy N + 1 (N or N + 1 records are
 *                           accepted too: some copies of the set count the
 *                           dummies, some have one dummy only)
 *   # ...                   comments, to the end of the line
 *
 * Every record becomes a task (the dummies too, with their cost, usually
 * 0); its id is the task number; costs are unitless and kept (rounded to
 * the nearest integer when written with a fraction). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/import_internal.h"
#include "base/grow.h"

typedef struct scan {
    const char *p, *end;
    long line;
    const char *file;
} scan;

/* The next token (*tok, *n, its line *line); 0 at the end. */
static int next(scan *s, const char **tok, size_t *n, long *line)
{
    for (;;) {
        while (s->p < s->end && (*s->p == ' ' || *s->p == '\t' ||
                                 *s->p == '\r' || *s->p == '\n' ||
                                 *s->p == '\f' || *s->p == '\v')) {
            if (*s->p == '\n')
                s->line++;
            s->p++;
        }
        if (s->p < s->end && *s->p == '#') {
            while (s->p < s->end && *s->p != '\n')
                s->p++;
            continue;
        }
        break;
    }
    if (s->p >= s->end)
        return 0;
    *tok = s->p;
    *line = s->line;
    while (s->p < s->end && !(*s->p == ' ' || *s->p == '\t' || *s->p == '\r' ||
                              *s->p == '\n' || *s->p == '\f' ||
                              *s->p == '\v' || *s->p == '#'))
        s->p++;
    *n = (size_t)(s->p - *tok);
    return 1;
}

/* The line where the file ends (not the empty one after its last '\n'). */
static long last_line(const scan *s)
{
    return s->p == s->end && s->line > 1 && s->end[-1] == '\n' ? s->line - 1
                                                                 : s->line;
}

/* A token as a C string (NULL when longer than the buffer). */
static const char *text_of(const char *tok, size_t n, char *buf, size_t size)
{
    if (n >= size)
        return NULL;
    memcpy(buf, tok, n);
    buf[n] = '\0';
    return buf;
}

/* A non-negative integer token (what: for the message). */
static int integer(scan *s, const char *what, long long max, long long *out,
                   long *line_out, mmm_error *err)
{
    const char *tok, *t;
    size_t n;
    long line;
    char buf[32], *e;
    long long v;
    if (!next(s, &tok, &n, &line))
        return mmm_error_set(err, MMM_EPARSE, s->file, last_line(s),
                             "the file ends where %s was expected", what);
    if (line_out)
        *line_out = line;
    t = text_of(tok, n, buf, sizeof buf);
    errno = 0;
    v = t ? strtoll(t, &e, 10) : 0;
    if (!t || *e || errno || v < 0 || v > max || !(*t >= '0' && *t <= '9')) {
        char shown[40];
        snprintf(shown, sizeof shown, "%.*s", n > 32 ? 32 : (int)n, tok);
        return mmm_error_set(err, MMM_EPARSE, s->file, line,
                             "%s must be an integer from 0 to %lld, not '%s%s'",
                             what, max, shown, n > 32 ? "..." : "");
    }
    *out = v;
    return 0;
}

int mmm__read_stg(mmm_program **out, const char *buf, size_t len,
                  const char *name, const mmm_import_options *opt,
                  mmm_import_report *rep, mmm_error *err)
{
    scan s = {buf, buf + len, 1, name};
    mmm_taskgraph *g = NULL;
    mmm_limits lim = mmm_limits_effective(&opt->load.limits);
    long long ntasks, i, nrec, *preds = NULL, prev_id = 0, prev_np = 0;
    long *lines = NULL;
    size_t *pstart = NULL, npreds = 0, cap = 0;
    const char *tok;
    size_t n;
    long line;
    int r;

    *out = NULL;
    r = mmm_taskgraph_new(&g, name, NULL, opt, rep, err);
    if (r < 0)
        return r;
    if ((r = integer(&s, "the number of tasks", (long long)lim.max_kernels,
                     &ntasks, &line, err)) < 0)
        goto done;
    {
        /* a second number on the header's line: the processors */
        const char *save_p = s.p;
        long save_line = s.line, hl = line, pl;
        long long procs;
        if (next(&s, &tok, &n, &pl) && pl == hl) {
            s.p = save_p;
            s.line = save_line;
            if ((r = integer(&s, "the number of processors", 2147483647LL, &procs, NULL,
                             err)) < 0)
                goto done;
            mmm_taskgraph_note(g, "the header gives %lld processors (-p %lld simulates "
                                  "on them)", procs, procs);
        } else {
            s.p = save_p;
            s.line = save_line;
        }
    }
    if ((size_t)ntasks + 2 > lim.max_kernels) {
        r = mmm_error_set(err, MMM_ELIMIT, name, s.line,
                          "%lld tasks (with the two dummies) are more than "
                          "the limit of %zu kernels",
                          ntasks + 2, lim.max_kernels);
        goto done;
    }
    if (!(lines = malloc((size_t)(ntasks + 2) * sizeof *lines)) ||
        !(pstart = malloc((size_t)(ntasks + 3) * sizeof *pstart))) {
        r = mmm_error_set(err, MMM_ENOMEM, name, 0, "out of memory");
        goto done;
    }
    for (i = 0; i < ntasks + 2; i++) {
        long long id, np = 0, j;
        const char *save_p = s.p;
        long save_line = s.line;
        /* N records (the count includes the dummies, as some copies of
         * the set write it), N + 1 (one dummy) or N + 2 */
        if (i >= ntasks && !next(&s, &tok, &n, &line))
            break;
        s.p = save_p;
        s.line = save_line;
        double cost;
        char ibuf[32], cbuf[64], *e;
        const char *t;
        if ((r = integer(&s, "a task number", 2147483647LL, &id, &line,
                         err)) < 0)
            goto done;
        lines[i] = line;
        if (i > 0 && line == lines[i - 1]) {
            r = mmm_error_set(err, MMM_EPARSE, name, line,
                              "task %lld announces %lld predecessors but its "
                              "line gives more",
                              prev_id, prev_np);
            goto done;
        }
        if (!next(&s, &tok, &n, &line)) {
            r = mmm_error_set(err, MMM_EPARSE, name, last_line(&s),
                              "the file ends in task %lld: its cost, the "
                              "number of its predecessors and their numbers "
                              "are expected",
                              id);
            goto done;
        }
        t = text_of(tok, n, cbuf, sizeof cbuf);
        errno = 0;
        cost = t ? strtod(t, &e) : 0;
        if (!t || *e || e == t) {
            r = mmm_error_set(err, MMM_EPARSE, name, line,
                              "task %lld: its cost '%.*s' is not a number",
                              id, n > 32 ? 32 : (int)n, tok);
            goto done;
        }
        snprintf(ibuf, sizeof ibuf, "%lld", id);
        if ((r = mmm_taskgraph_add_task(g, ibuf, cost, MMM_COST_UNITLESS,
                                        lines[i], err)) < 0)
            goto done;
        if ((r = integer(&s, "the number of predecessors", ntasks + 2, &np,
                         NULL, err)) < 0)
            goto done;
        pstart[i] = npreds;
        for (j = 0; j < np; j++) {
            long long pr;
            long pl;
            if ((r = integer(&s, "a predecessor's number", 2147483647LL, &pr,
                             &pl, err)) < 0)
                goto done;
            if (pl != lines[i]) {
                r = mmm_error_set(err, MMM_EPARSE, name, lines[i],
                                  "task %lld announces %lld predecessors but "
                                  "its line gives %lld",
                                  id, np, j);
                goto done;
            }
            long long *np2 = mmm__grow(preds, &cap, npreds + 1, sizeof *preds, 256);
            if (!np2) {
                r = mmm_error_set(err, MMM_ENOMEM, name, 0, "out of memory");
                goto done;
            }
            preds = np2;
            preds[npreds++] = pr;
        }
        prev_id = id;
        prev_np = np;
    }
    pstart[i] = npreds;
    if (next(&s, &tok, &n, &line)) {
        r = mmm_error_set(err, MMM_EPARSE, name, line,
                          "more than the %lld tasks announced (with the two "
                          "dummies): '%.*s'",
                          ntasks + 2, n > 32 ? 32 : (int)n, tok);
        goto done;
    }
    nrec = i; /* the records read: N, N + 1 or N + 2 */
    /* Edges once every task is known: a predecessor may come later. */
    for (i = 0; i < nrec; i++) {
        const mmm_program *p = mmm_taskgraph_program(g);
        const char *to = p->kernels[i].id;
        for (size_t j = pstart[i]; j < pstart[i + 1]; j++) {
            char from[32];
            snprintf(from, sizeof from, "%lld", preds[j]);
            if ((r = mmm_taskgraph_add_edge(g, from, to, lines[i], err)) < 0)
                goto done;
        }
    }
    r = mmm_taskgraph_finish(g, out, err);
    g = NULL;
done:
    mmm_taskgraph_free(g);
    free(preds);
    free(lines);
    free(pstart);
    return r;
}
