/* trace.c: the launch trace that libmmm_trace.so (cuda/trace.c) writes
 * while `mmm profile run` runs the program without Nsight Compute: every
 * kernel launch with its launch statistics, every memcpy and memset, in
 * the order the host issued them.  mmm_ncu_read_memory (ncu_csv.c) reads
 * it into a capture like ncu's list of launches through a sink, so that
 * the sampled launches of an ncu capture stand for the traced launches of
 * their configuration.
 *
 *   # mmm launch trace 3
 *   order,kind,name,stream,grid_x,grid_y,grid_z,block_x,block_y,block_z,
 *       registers,shared_static,shared_dynamic,bytes,copy,duration_ns,graph,
 *       node,to,event
 *
 * (version 1 has no node and to columns, and no graph rows; version 2 no
 * event column).  Among the launches, in issue order (version 3): "record"
 * (an event recorded on a stream), "wait" (a stream waits for an event),
 * "sync" (the host waits for a stream, an event, or the device), "stream"
 * (a stream's kind: null, blocking or nonblocking, in the name column).
 * After the launches, the graphs' structure: "edge" rows (graph, node ->
 * to), "exec" rows (graph, the executable's id in node) and "clone" rows
 * (node cloned from to); cuda/trace.c says what each id is.
 *
 * Every error is FILE:LINE with what is wrong. */
#include <stdlib.h>
#include <string.h>

#include "profile_internal.h"

#define TRACE_MAGIC "# mmm launch trace"

enum {
    C_ORDER, C_KIND, C_NAME, C_STREAM, C_GX, C_GY, C_GZ, C_BX, C_BY, C_BZ, C_REGS,
    C_SSTATIC, C_SDYN, C_BYTES, C_COPY, C_NS, C_GRAPH, NCOLS1, C_NODE = NCOLS1, C_TO,
    NCOLS2, C_EVENT = NCOLS2, NCOLS
};

/* The header, as the tracer writes it (cuda/trace.c); version 1 stops at
 * graph, version 2 at to. */
static const char header[] =
    "order,kind,name,stream,grid_x,grid_y,grid_z,block_x,block_y,block_z,registers,"
    "shared_static,shared_dynamic,bytes,copy,duration_ns,graph,node,to,event";

/* Column k's name (a static buffer per call site is enough: messages). */
static const char *colname(int k, char *buf, size_t size)
{
    const char *p = header;
    for (int i = 0; i < k && p; i++)
        p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL;
    size_t n = p ? strcspn(p, ",") : 0;
    snprintf(buf, size, "%.*s", (int)n, p ? p : "");
    return buf;
}

/* A cell as a non-negative integer below 2^62; -1 when it is not one. */
static int64_t number(const char *s)
{
    int64_t v = 0;
    if (!*s)
        return -1;
    for (; *s; s++) {
        if (*s < '0' || *s > '9' || v > (INT64_C(1) << 58))
            return -1;
        v = v * 10 + (*s - '0');
    }
    return v;
}

static int need(const char *file, long line, const char *cell, int col, int64_t min,
                int64_t *out, mmm_error *err)
{
    int64_t v = number(cell);
    char cn[32];
    if (v < min)
        return mmm_error_set(err, MMM_EINPUT, file, line,
                             "%s is '%s', not a whole number%s", colname(col, cn, sizeof cn),
                             cell, min > 0 ? " of at least 1" : "");
    *out = v;
    return 0;
}

/* The graph and node columns of a launch or copy (version 2; version 1
 * has the graph only, which is then read as 0: no structure). */
static int graph_node(const char *f, const mmm__csv *r, long line, int ncols, uint32_t *graph,
                      uint64_t *node, mmm_error *err)
{
    int64_t g = 0, n = 0;
    *graph = 0;
    *node = 0;
    if (ncols < NCOLS2)
        return 0;
    if (need(f, line, r->cells[C_GRAPH], C_GRAPH, 0, &g, err) < 0 ||
        need(f, line, r->cells[C_NODE], C_NODE, 0, &n, err) < 0)
        return MMM_EINPUT;
    if (g > UINT32_MAX)
        return mmm_error_set(err, MMM_EINPUT, f, line, "graph is %lld, above 2^32 - 1",
                             (long long)g);
    *graph = (uint32_t)g;
    *node = (uint64_t)n;
    return 0;
}

/* An edge, exec or clone row of version 2. */
static int link_row(const mmm__trace_sink *sk, const mmm__csv *r, long line,
                    mmm__graph_kind kind, mmm_error *err)
{
    const char *f = sk->file;
    int64_t g = 0, a = 0, b = 0;
    mmm__graph_link gl;
    if (need(f, line, r->cells[C_GRAPH], C_GRAPH, kind == MMM__GRAPH_CLONE ? 0 : 1, &g, err) < 0 ||
        need(f, line, r->cells[C_NODE], C_NODE, 1, &a, err) < 0 ||
        (kind != MMM__GRAPH_EXEC && need(f, line, r->cells[C_TO], C_TO, 1, &b, err) < 0))
        return MMM_EINPUT;
    if (g > UINT32_MAX)
        return mmm_error_set(err, MMM_EINPUT, f, line, "graph is %lld, above 2^32 - 1",
                             (long long)g);
    gl.kind = kind;
    gl.graph = (uint32_t)g;
    gl.a = (uint64_t)a;
    gl.b = (uint64_t)b;
    return sk->link ? sk->link(sk->payload, &gl, err) : 0;
}

static int kernel_row(const mmm__trace_sink *sk, const mmm__csv *r, long line, int64_t order,
                      int ncols, mmm_error *err)
{
    int64_t g[3] = {0}, b[3] = {0}, regs = 0, ss = 0, sd = 0, ns = 0;
    mmm_value v[MMM_NCU_NQUANTITIES];
    const char *f = sk->file;
    if (!r->cells[C_NAME][0])
        return mmm_error_set(err, MMM_EINPUT, f, line, "a kernel launch without a name");
    if (!r->cells[C_STREAM][0])
        return mmm_error_set(err, MMM_EINPUT, f, line, "a kernel launch without a stream");
    for (int k = 0; k < 3; k++)
        if (need(f, line, r->cells[C_GX + k], C_GX + k, 1, &g[k], err) < 0 ||
            need(f, line, r->cells[C_BX + k], C_BX + k, 1, &b[k], err) < 0)
            return MMM_EINPUT;
    if (need(f, line, r->cells[C_REGS], C_REGS, 0, &regs, err) < 0 ||
        need(f, line, r->cells[C_SSTATIC], C_SSTATIC, 0, &ss, err) < 0 ||
        need(f, line, r->cells[C_SDYN], C_SDYN, 0, &sd, err) < 0 ||
        need(f, line, r->cells[C_NS], C_NS, 0, &ns, err) < 0)
        return MMM_EINPUT;
    if (g[0] > (INT64_C(1) << 31) || g[1] > 65535 || g[2] > 65535 || b[0] > 1024 ||
        b[1] > 1024 || b[2] > 64 || b[0] * b[1] * b[2] > 1024)
        return mmm_error_set(err, MMM_EINPUT, f, line,
                             "a grid of %lld x %lld x %lld blocks of %lld x %lld x %lld "
                             "threads: no CUDA GPU launches it",
                             (long long)g[0], (long long)g[1], (long long)g[2],
                             (long long)b[0], (long long)b[1], (long long)b[2]);
    v[MMM_NCU_BLOCKS] = mmm_value_int(g[0] * g[1] * g[2]);
    v[MMM_NCU_THREADS] = mmm_value_int(b[0] * b[1] * b[2]);
    v[MMM_NCU_REGISTERS] = mmm_value_int(regs);
    v[MMM_NCU_SHARED_STATIC] = mmm_value_int(ss);
    v[MMM_NCU_SHARED_DYNAMIC] = mmm_value_int(sd);
    v[MMM_NCU_DURATION_NS] = mmm_value_int(ns);
    uint32_t have = 1u << MMM_NCU_BLOCKS | 1u << MMM_NCU_THREADS | 1u << MMM_NCU_REGISTERS |
                    1u << MMM_NCU_SHARED_STATIC | 1u << MMM_NCU_SHARED_DYNAMIC |
                    1u << MMM_NCU_DURATION_NS;
    uint32_t graph;
    uint64_t node;
    if (graph_node(f, r, line, ncols, &graph, &node, err) < 0)
        return MMM_EINPUT;
    char stream[48];
    snprintf(stream, sizeof stream, "%s", r->cells[C_STREAM]);
    return sk->launch(sk->payload, line, order, r->cells[C_NAME], stream, have, v, graph, node,
                      err);
}

static int copy_row(const mmm__trace_sink *sk, const mmm__csv *r, long line, int set,
                    size_t before, int ncols, mmm_error *err)
{
    static const char *const kinds[] = {"h2d", "d2h", "d2d", "h2h", "p2p", "other"};
    const char *f = sk->file;
    mmm__copy cp;
    int64_t bytes = 0, ns = 0;
    memset(&cp, 0, sizeof cp);
    cp.line = line;
    cp.before = before;
    if (!r->cells[C_STREAM][0])
        return mmm_error_set(err, MMM_EINPUT, f, line, "a %s without a stream",
                             set ? "memset" : "memcpy");
    if (need(f, line, r->cells[C_BYTES], C_BYTES, 0, &bytes, err) < 0 ||
        need(f, line, r->cells[C_NS], C_NS, 0, &ns, err) < 0)
        return MMM_EINPUT;
    cp.bytes = (uint64_t)bytes;
    cp.ns = (uint64_t)ns;
    cp.kind = MMM__COPY_SET;
    if (!set) {
        size_t k = 0;
        while (k < sizeof kinds / sizeof kinds[0] && strcmp(kinds[k], r->cells[C_COPY]))
            k++;
        if (k == sizeof kinds / sizeof kinds[0])
            return mmm_error_set(err, MMM_EINPUT, f, line,
                                 "copy is '%s', not h2d, d2h, d2d, h2h, p2p or other",
                                 r->cells[C_COPY]);
        cp.kind = (mmm__copy_kind)k;
    }
    if (graph_node(f, r, line, ncols, &cp.graph, &cp.node, err) < 0)
        return MMM_EINPUT;
    snprintf(cp.stream, sizeof cp.stream, "%s", r->cells[C_STREAM]);
    return sk->copy(sk->payload, &cp, err);
}

/* A row of version 3 on stream order: record and wait (a stream and an
 * event), sync (the host waits for a stream, an event or, with neither,
 * the device), stream (a stream's kind in the name column). */
static int sync_row(const mmm__trace_sink *sk, const mmm__csv *r, long line,
                    mmm__sync_kind kind, size_t before, size_t before_copies, mmm_error *err)
{
    static const char *const flags[] = {"blocking", "nonblocking", "null"};
    const char *f = sk->file, *st = r->cells[C_STREAM], *ev = r->cells[C_EVENT];
    const char *what = kind == MMM__SYNC_RECORD ? "record"
                       : kind == MMM__SYNC_WAIT ? "wait"
                       : kind == MMM__SYNC_HOST ? "sync"
                                                : "stream";
    mmm__sync sy;
    int64_t e = 0;
    memset(&sy, 0, sizeof sy);
    sy.line = line;
    sy.kind = kind;
    sy.before = before;
    sy.before_copies = before_copies;
    if (kind != MMM__SYNC_HOST && !st[0])
        return mmm_error_set(err, MMM_EINPUT, f, line, "a %s row without a stream", what);
    if (strlen(st) >= sizeof sy.stream)
        return mmm_error_set(err, MMM_EINPUT, f, line, "stream '%.40s' is longer than %zu "
                             "characters", st, sizeof sy.stream - 1);
    snprintf(sy.stream, sizeof sy.stream, "%s", st);
    if (kind == MMM__SYNC_STREAM) {
        size_t k = 0;
        while (k < 3 && strcmp(flags[k], r->cells[C_NAME]))
            k++;
        if (k == 3)
            return mmm_error_set(err, MMM_EINPUT, f, line,
                                 "a stream row's name is '%s', not blocking, nonblocking or "
                                 "null", r->cells[C_NAME]);
        sy.flag = (mmm__stream_kind)k;
    } else if (ev[0] || kind != MMM__SYNC_HOST) {
        if (need(f, line, ev, C_EVENT, 1, &e, err) < 0)
            return MMM_EINPUT;
        if (kind == MMM__SYNC_HOST && st[0])
            return mmm_error_set(err, MMM_EINPUT, f, line,
                                 "a sync row with both a stream and an event (the host waits "
                                 "for one of them, or for the device with neither)");
        sy.event = (uint64_t)e;
    }
    return sk->sync ? sk->sync(sk->payload, &sy, err) : 0;
}

int mmm__trace_is(const char *text, size_t len)
{
    size_t skip = len >= 3 && !memcmp(text, "\xEF\xBB\xBF", 3) ? 3 : 0;
    return len - skip >= strlen(TRACE_MAGIC) &&
           !memcmp(text + skip, TRACE_MAGIC, strlen(TRACE_MAGIC));
}

int mmm__trace_parse(const char *text, size_t len, const mmm__trace_sink *sk, mmm_error *err)
{
    const char *f = sk->file;
    size_t launches = 0, links = 0, copies = 0;
    mmm__csv r;
    long line, nul = mmm__nul_line(text, len);
    int rc = 0, got;
    int64_t last = 0;
    if (nul)
        return mmm_error_set(err, MMM_EINPUT, f, nul, "a NUL byte: not a launch trace");
    mmm__csv_init(&r, f, text, len);
    const char *ls;
    size_t ll;
    /* the magic line, then the header */
    if (!mmm__csv_peek_line(&r, &ls, &ll, &line) || ll < strlen(TRACE_MAGIC) ||
        memcmp(ls, TRACE_MAGIC, strlen(TRACE_MAGIC))) {
        mmm__csv_dispose(&r);
        return mmm_error_set(err, MMM_EINPUT, f, 1, "not a launch trace (no '%s' line)",
                             TRACE_MAGIC);
    }
    mmm__csv_skip_line(&r);
    if ((got = mmm__csv_next(&r, NCOLS + 8, &line, err)) <= 0) {
        rc = got < 0 ? got
                     : mmm_error_set(err, MMM_EINPUT, f, line, "the trace has no header");
        goto out;
    }
    /* version 1: the columns up to graph; version 2: node and to too;
       version 3: event too */
    int ncols = r.ncells >= NCOLS ? NCOLS : r.ncells >= NCOLS2 ? NCOLS2 : NCOLS1;
    for (int k = 0; k < ncols; k++) {
        char cn[32];
        colname(k, cn, sizeof cn);
        if ((size_t)k >= r.ncells || strcmp(r.cells[k], cn)) {
            rc = mmm_error_set(err, MMM_EINPUT, f, line,
                               "column %d of the header is '%s', not '%s' (a trace of "
                               "another version of libmmm_trace.so?)",
                               k + 1, (size_t)k < r.ncells ? r.cells[k] : "", cn);
            goto out;
        }
    }
    if (r.ncells != (size_t)ncols) {
        rc = mmm_error_set(err, MMM_EINPUT, f, line,
                           "the header has %zu columns, not %d, %d or %d (a trace of "
                           "another version of libmmm_trace.so?)",
                           r.ncells, NCOLS1, NCOLS2, NCOLS);
        goto out;
    }
    for (;;) {
        if (mmm__csv_peek_line(&r, &ls, &ll, &line) && ll && ls[0] == '#') {
            if (ll >= 8 && !memcmp(ls, "# error:", 8)) {
                rc = mmm_error_set(err, MMM_EINPUT, f, line,
                                   "the tracer failed: %.*s (the trace is incomplete)",
                                   (int)(ll > 200 ? 200 : ll - 8), ls + 8);
                goto out;
            }
            mmm__csv_skip_line(&r);
            continue;
        }
        if ((got = mmm__csv_next(&r, NCOLS + 8, &line, err)) < 0) {
            rc = got;
            goto out;
        }
        if (!got)
            break;
        if (r.ncells != (size_t)ncols) {
            rc = mmm_error_set(err, MMM_EINPUT, f, line, "%zu fields where the header has %d",
                               r.ncells, ncols);
            goto out;
        }
        int64_t order = 0;
        if ((rc = need(f, line, r.cells[C_ORDER], C_ORDER, 1, &order, err)) < 0)
            goto out;
        if (order <= last) {
            rc = mmm_error_set(err, MMM_EINPUT, f, line,
                               "order %lld after %lld: the rows must be in issue order",
                               (long long)order, (long long)last);
            goto out;
        }
        last = order;
        const char *kind = r.cells[C_KIND];
        int syncs = ncols == NCOLS, links_ok = ncols >= NCOLS2;
        int sk_kind = !syncs                     ? -1
                      : !strcmp(kind, "record") ? MMM__SYNC_RECORD
                      : !strcmp(kind, "wait")   ? MMM__SYNC_WAIT
                      : !strcmp(kind, "sync")   ? MMM__SYNC_HOST
                      : !strcmp(kind, "stream") ? MMM__SYNC_STREAM
                                                : -1;
        if (links && (!strcmp(kind, "kernel") || !strcmp(kind, "memcpy") ||
                      !strcmp(kind, "memset") || sk_kind >= 0)) {
            rc = mmm_error_set(err, MMM_EINPUT, f, line,
                               "a %s after the graphs' rows (they come last)", kind);
            goto out;
        }
        if (!strcmp(kind, "kernel"))
            rc = kernel_row(sk, &r, line, order, ncols, err), launches += rc == 0;
        else if (!strcmp(kind, "memcpy") || !strcmp(kind, "memset"))
            rc = copy_row(sk, &r, line, !strcmp(kind, "memset"), launches, ncols, err),
            copies += rc == 0;
        else if (sk_kind >= 0)
            rc = sync_row(sk, &r, line, (mmm__sync_kind)sk_kind, launches, copies, err);
        else if (links_ok && (!strcmp(kind, "edge") || !strcmp(kind, "exec") ||
                              !strcmp(kind, "clone")))
            rc = link_row(sk, &r, line,
                          kind[0] == 'e' ? (kind[1] == 'd' ? MMM__GRAPH_EDGE : MMM__GRAPH_EXEC)
                                         : MMM__GRAPH_CLONE,
                          err),
            links++;
        else
            rc = mmm_error_set(err, MMM_EINPUT, f, line, "kind is '%s', not kernel, memcpy%s",
                               kind,
                               syncs      ? ", memset, record, wait, sync, stream, edge, exec "
                                            "or clone"
                               : links_ok ? ", memset, edge, exec or clone"
                                          : " or memset");
        if (rc < 0)
            goto out;
    }
    if (launches == 0)
        rc = mmm_error_set(err, MMM_EINPUT, f, line,
                           "the trace has no kernel launch (did the program run on the GPU?)");
out:
    mmm__csv_dispose(&r);
    return rc < 0 ? rc : 0;
}
