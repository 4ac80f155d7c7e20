/* taskgraph.c: the builder of task graphs shared by the readers of foreign
 * formats (STG, WfCommons, DAX, DOT): a task is a kernel of one block whose
 * work and span are its cost, edges are checked (unknown ends, self-loops)
 * and merged when repeated, costs are scaled and rounded. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/import_internal.h"
#include "base/text.h"
#include "base/abi.h"

struct mmm_taskgraph {
    mmm_program *prog;
    const mmm_import_options *opt;
    mmm_import_report *rep;
    mmm_import_report own_rep;
    const char *file;
    uint64_t *eset;        /* open addressing; 0 = empty, else key + 1 */
    size_t ecap, ecount;
    size_t ntasks;
    size_t nonzero;        /* tasks whose cost is not 0 */
    int seconds;           /* a cost was given in seconds */
};

static const mmm_import_options default_options = MMM_IMPORT_OPTIONS_INIT;

int mmm_time_unit_parse(const char *s, mmm_time_unit *out)
{
    static const char *names[] = {"us", "s", "ms", "ns"};
    for (int i = 0; i < 4; i++)
        if (s && !strcmp(s, names[i])) {
            *out = (mmm_time_unit)i;
            return 0;
        }
    return -1;
}

char *mmm_taskgraph_id(const char *s)
{
    size_t n = strlen(s);
    char *d = malloc(n + 1);
    if (!d)
        return NULL;
    for (size_t i = 0; i <= n; i++)
        d[i] = (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r' ||
                s[i] == '\f' || s[i] == '\v')
                   ? '_'
                   : s[i];
    return d;
}

/* A task name must be text that XML can carry (mmm convert writes it). */
static int check_name(mmm_taskgraph *g, const char *id, long line,
                      mmm_error *err)
{
    const unsigned char *s = (const unsigned char *)id;
    while (*s) {
        size_t n = mmm__xml_char(s);
        if (!n)
            return mmm_error_set(err, MMM_EINPUT, g->file, line,
                                 "task name '%.60s' holds a byte (0x%02X) "
                                 "that is not a character of text (UTF-8)",
                                 id, *s);
        s += n;
    }
    return 0;
}

static int has_space(const char *s)
{
    return strpbrk(s, " \t\n\r\f\v") != NULL;
}

int mmm_taskgraph_new(mmm_taskgraph **out, const char *file,
                      const char *name, const mmm_import_options *opt,
                      mmm_import_report *rep, mmm_error *err)
{
    mmm_taskgraph *g;
    int r;
    if (!out)
        return mmm_error_set(err, MMM_EINVAL, NULL, 0,
                             "mmm_taskgraph_new: missing argument");
    *out = NULL;
    MMM__CHECK_IMPORT_OPTIONS(opt, err);
    if (!opt)
        opt = &default_options;
    if (!(g = calloc(1, sizeof *g)))
        return mmm_error_set(err, MMM_ENOMEM, file, 0, "out of memory");
    g->opt = opt;
    g->file = file;
    g->rep = rep ? rep : &g->own_rep;
    g->rep->ntasks = g->rep->nedges = g->rep->nwarnings = 0;
    g->rep->warning[0] = g->rep->note[0] = g->rep->summary[0] = '\0';
    if ((r = mmm_program_new(&g->prog, file, &opt->load.limits, err)) < 0)
        goto fail;
    if (name && *name)
        r = mmm_program_set_name(g->prog, name, 0, err);
    else {
        /* the file's base name without its extension */
        const char *b = file ? strrchr(file, '/') : NULL, *dot;
        b = b ? b + 1 : file ? file : "graph";
        dot = strrchr(b, '.');
        char *s = strndup(b, dot && dot != b ? (size_t)(dot - b) : strlen(b));
        r = s ? mmm_program_set_name(g->prog, s, 0, err)
              : mmm_error_set(err, MMM_ENOMEM, file, 0, "out of memory");
        free(s);
    }
    if (r < 0)
        goto fail;
    if (opt->load.machine) {
        const mmm_machine *m = opt->load.machine;
        for (size_t i = 0; i < m->nparams; i++)
            if ((r = mmm_program_add_machine_param(
                     g->prog, m->params[i].name, m->params[i].value, err)) < 0)
                goto fail;
    }
    *out = g;
    return 0;
fail:
    mmm_taskgraph_free(g);
    return r;
}

void mmm_taskgraph_free(mmm_taskgraph *g)
{
    if (!g)
        return;
    mmm_program_free(g->prog);
    free(g->eset);
    free(g);
}

mmm_program *mmm_taskgraph_program(mmm_taskgraph *g)
{
    return g->prog;
}

void mmm_taskgraph_warn(mmm_taskgraph *g, const char *fmt, ...)
{
    if (g->rep->nwarnings++ == 0) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(g->rep->warning, sizeof g->rep->warning, fmt, ap);
        va_end(ap);
    }
}

void mmm_taskgraph_summary(mmm_taskgraph *g, const char *fmt, ...)
{
    char *s = g->rep->summary;
    size_t n = strlen(s);
    va_list ap;
    if (n && n + 2 < sizeof g->rep->summary)
        n += (size_t)snprintf(s + n, sizeof g->rep->summary - n, "; ");
    va_start(ap, fmt);
    if (n < sizeof g->rep->summary)
        vsnprintf(s + n, sizeof g->rep->summary - n, fmt, ap);
    va_end(ap);
}

void mmm_taskgraph_note(mmm_taskgraph *g, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(g->rep->note, sizeof g->rep->note, fmt, ap);
    va_end(ap);
}

/* " (line N)" or "" */
static const char *at_line(char *buf, size_t size, long line)
{
    if (line > 0)
        snprintf(buf, size, " (line %ld)", line);
    else
        buf[0] = '\0';
    return buf;
}

int mmm_taskgraph_cost(mmm_taskgraph *g, const char *id, double cost,
                       int unit, long line, int64_t *out, mmm_error *err)
{
    static const double scale[] = {1e6, 1.0, 1e3, 1e9}; /* us s ms ns */
    double v = cost;
    char where[40];
    if (isnan(cost) || isinf(cost))
        return mmm_error_set(err, MMM_EINPUT, g->file, line,
                             "task '%s': its cost is not a finite number", id);
    if (cost < 0) {
        if (!g->opt->negative_to_zero)
            return mmm_error_set(err, MMM_EINPUT, g->file, line,
                                 "task '%s' has a negative cost (%g): fix it, "
                                 "or read negative costs as 0 (--negative-cost "
                                 "zero)",
                                 id, cost);
        mmm_taskgraph_warn(g, "task '%s'%s has a negative cost (%g): read as 0",
                           id, at_line(where, sizeof where, line), cost);
        *out = 0;
        return 0;
    }
    if (unit == MMM_COST_SECONDS) {
        unsigned u = (unsigned)g->opt->time_unit;
        g->seconds = 1;
        v = cost * scale[u < 4 ? u : 0];
    }
    v = floor(v + 0.5); /* nearest, halves away from zero */
    if (v > 9007199254740992.0) /* 2^53: larger costs are not exact */
        return mmm_error_set(err, MMM_EINPUT, g->file, line,
                             "task '%s': its cost %g is too large (more than "
                             "2^53 in the time unit)",
                             id, cost);
    *out = (int64_t)v;
    return 0;
}

int mmm_taskgraph_add_task(mmm_taskgraph *g, const char *id, double cost,
                           int unit, long line, mmm_error *err)
{
    mmm_kernel_spec ks;
    char text[32];
    char *fixed = NULL;
    int64_t c;
    int r;
    if (!id || !*id)
        return mmm_error_set(err, MMM_EINPUT, g->file, line,
                             "a task has no name");
    if ((r = check_name(g, id, line, err)) < 0 ||
        (r = mmm_taskgraph_cost(g, id, cost, unit, line, &c, err)) < 0)
        return r;
    if (has_space(id) && !(id = fixed = mmm_taskgraph_id(id)))
        return mmm_error_set(err, MMM_ENOMEM, g->file, line, "out of memory");
    snprintf(text, sizeof text, "%lld", (long long)c);
    memset(&ks, 0, sizeof ks);
    ks.id = id;
    ks.line = line;
    ks.blocks = "1";
    ks.work = ks.span = text;
    ks.reads = ks.writes = "0";
    r = mmm_program_add_kernel(g->prog, &ks, NULL, err);
    free(fixed);
    if (r == 0)
        g->ntasks++, g->nonzero += c != 0;
    return r;
}

int mmm_taskgraph_task_type(mmm_taskgraph *g, const char *type, mmm_error *err)
{
    size_t n = g->prog->nkernels;
    if (n == 0)
        return mmm_error_set(err, MMM_EINVAL, g->file, 0, "a task type before any task");
    for (const unsigned char *c = (const unsigned char *)type; c && *c;) {
        size_t k = mmm__xml_char(c);
        if (!k)
            return 0; /* not text: no type (it only names the task's kind) */
        c += k;
    }
    return mmm_program_set_kernel_type(g->prog, n - 1, type, err);
}

static uint64_t mix(uint64_t x)
{
    x ^= x >> 31;
    x *= 0x7fb5d329728ea185u;
    x ^= x >> 27;
    x *= 0x81dadef4bc2dd44du;
    x ^= x >> 33;
    return x;
}

/* 1 when the edge is new (and now recorded), 0 when seen, -1 no memory. */
static int edge_insert(mmm_taskgraph *g, uint32_t u, uint32_t v)
{
    uint64_t key = (((uint64_t)u << 32) | v) + 1;
    if (2 * (g->ecount + 1) > g->ecap) {
        size_t ncap = g->ecap ? 2 * g->ecap : 1024;
        uint64_t *n = calloc(ncap, sizeof *n);
        if (!n)
            return -1;
        for (size_t i = 0; i < g->ecap; i++)
            if (g->eset[i]) {
                size_t j = (size_t)mix(g->eset[i]) & (ncap - 1);
                while (n[j])
                    j = (j + 1) & (ncap - 1);
                n[j] = g->eset[i];
            }
        free(g->eset);
        g->eset = n;
        g->ecap = ncap;
    }
    size_t j = (size_t)mix(key) & (g->ecap - 1);
    while (g->eset[j]) {
        if (g->eset[j] == key)
            return 0;
        j = (j + 1) & (g->ecap - 1);
    }
    g->eset[j] = key;
    g->ecount++;
    return 1;
}

int mmm_taskgraph_add_edge(mmm_taskgraph *g, const char *from,
                           const char *to, long line, mmm_error *err)
{
    char *ff = NULL, *tf = NULL;
    long u, v;
    int r = 0;
    if (has_space(from) && !(from = ff = mmm_taskgraph_id(from)))
        return mmm_error_set(err, MMM_ENOMEM, g->file, line, "out of memory");
    if (has_space(to) && !(to = tf = mmm_taskgraph_id(to))) {
        free(ff);
        return mmm_error_set(err, MMM_ENOMEM, g->file, line, "out of memory");
    }
    u = mmm_program_find_kernel(g->prog, from);
    v = mmm_program_find_kernel(g->prog, to);
    if (u < 0 || v < 0)
        r = mmm_error_set(err, MMM_EINPUT, g->file, line,
                          "dependency '%s' -> '%s': there is no task '%s'",
                          from, to, u < 0 ? from : to);
    else if (u == v)
        r = mmm_error_set(err, MMM_ECYCLE, g->file, line,
                          "task '%s' depends on itself (a self-loop)", from);
    else {
        int fresh = edge_insert(g, (uint32_t)u, (uint32_t)v);
        if (fresh < 0)
            r = mmm_error_set(err, MMM_ENOMEM, g->file, line, "out of memory");
        else if (fresh)
            r = mmm_program_add_edge(g->prog, from, to, line, err);
    }
    free(ff);
    free(tf);
    return r;
}

int mmm_taskgraph_finish(mmm_taskgraph *g, mmm_program **out, mmm_error *err)
{
    static const char *const units[] = {"us", "s", "ms", "ns"};
    unsigned u = (unsigned)g->opt->time_unit;
    int r = mmm_program_finalize(g->prog, err);
    *out = NULL;
    if (r == 0 && g->ntasks && !g->nonzero) {
        /* a warning of its own, or a part of the summary after others */
        if (g->rep->nwarnings == 0)
            mmm_taskgraph_warn(g, "every task costs 0, so W = S = 0: %s",
                               g->seconds ? "are the runtimes below one unit "
                                            "(--time-unit)?"
                                          : "are the costs given elsewhere?");
        else { /* first in the summary: what comes of the others */
            char rest[sizeof g->rep->summary];
            snprintf(rest, sizeof rest, "%s", g->rep->summary);
            snprintf(g->rep->summary, sizeof g->rep->summary, "every task costs 0, so W = S = 0%s%.470s",
                     rest[0] ? "; " : "", rest);
            g->rep->nwarnings++;
        }
    }
    if (r == 0 && g->ntasks)
        r = mmm_program_set_cost_unit(g->prog, g->seconds ? units[u < 4 ? u : 0]
                                                          : "the file's unit", err);
    if (r == 0) {
        g->rep->ntasks = g->prog->nkernels;
        g->rep->nedges = g->ecount;
        *out = g->prog;
        g->prog = NULL;
    } else if (err && !err->file[0]) {
        snprintf(err->file, sizeof err->file, "%s", g->file);
    }
    mmm_taskgraph_free(g);
    return r;
}
