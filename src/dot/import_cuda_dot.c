/* import_cuda_dot.c: CUDA graphs as cudaGraphDebugDotPrint writes them
 * (with cudaGraphDebugDotFlagsVerbose), read with cgraph.
 *
 * Each node is a record whose label starts with its type:
 *   KERNEL  {ID | 1 (topoId: 5) | _Z4fillPfi\<\<\<4,256,0\>\>\>}: a kernel
 *           of grid-size blocks of block-size threads, with the dynamic
 *           shared memory per block; a grid or block written (x,y,z) counts
 *           x·y·z;
 *   MEMSET  a <copy kind="set"> of elementSize·width·height bytes;
 *   MEMCPY  a <copy> of Width·Height·Depth bytes of its Extent, of the kind
 *           its kind says (HtoD: h2d, DtoH: d2h, others: d2d);
 *   others  (EMPTY, EVENT_RECORD, WAIT_EVENT, HOST, GRAPH, MEM_ALLOC, ...)
 *           kernels of no block: they keep the dependencies only.
 * A kernel's costs come from the costs file (CSV: name,work,span,reads,
 * writes per thread; name is the kernel's name as printed, mangled, or its
 * plain name), else work = span = 1 per thread and no traffic (a
 * placeholder, said in a note).  A memset or memcpy has no block: the
 * time model costs its bytes (docs/time.md).  U = 1 is declared when some
 * kernel moves words (a machine file or -D U=... sets the real one). */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dot_common.h"
#include "mmm/import_dot.h"
#include "base/file.h"
#include "base/grow.h"
#include "base/abi.h"

typedef struct cost_row {
    char *name;
    double work, span, reads, writes;
} cost_row;

typedef struct costs {
    cost_row *rows;
    size_t n;
} costs;

static void costs_free(costs *c)
{
    for (size_t i = 0; i < c->n; i++)
        free(c->rows[i].name);
    free(c->rows);
}

static int row_cmp(const void *a, const void *b)
{
    return strcmp(((const cost_row *)a)->name, ((const cost_row *)b)->name);
}

static const cost_row *costs_find(const costs *c, const char *name)
{
    cost_row key;
    key.name = (char *)name;
    return c->n ? bsearch(&key, c->rows, c->n, sizeof key, row_cmp) : NULL;
}

static char *trim(char *s)
{
    char *e;
    while (*s == ' ' || *s == '\t')
        s++;
    e = s + strlen(s);
    while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
        *--e = '\0';
    return s;
}

/* The costs file: "name,work,span,reads,writes" lines, '#' comments, an
 * optional header line whose second field is not a number. */
static int costs_load(costs *c, const char *path, const mmm_limits *lim,
                      mmm_error *err)
{
    char *text, *line, *next;
    size_t len = 0, cap = 0;
    long ln = 0;
    int r, header_seen = 0;
    memset(c, 0, sizeof *c);
    if ((r = mmm__read_whole_file(path, lim->max_file_bytes, &text, &len,
                                  err)) < 0)
        return r;
    if (memchr(text, '\0', len)) {
        free(text);
        return mmm_error_set(err, MMM_EPARSE, path, 0,
                             "a NUL byte in a costs file");
    }
    for (line = text; line; line = next) {
        char *f[6], *p = line, *e;
        double v[4];
        int nf = 0;
        ln++;
        if ((next = strchr(line, '\n')))
            *next++ = '\0';
        if ((e = strchr(line, '#')))
            *e = '\0';
        if (!*trim(line))
            continue;
        while (nf < 6) {
            f[nf++] = p;
            if (!(p = strchr(p, ',')))
                break;
            *p++ = '\0';
        }
        for (int i = 0; i < nf; i++)
            f[i] = trim(f[i]);
        if (nf != 5) {
            r = mmm_error_set(err, MMM_EPARSE, path, ln,
                              "a costs line has 5 fields: name,work,span,"
                              "reads,writes (per thread), not %d",
                              nf);
            goto fail;
        }
        for (int i = 0; i < 4; i++) {
            errno = 0;
            v[i] = strtod(f[i + 1], &e);
            if (e == f[i + 1] || *e || v[i] < 0 || v[i] != v[i]) {
                if (!header_seen && i == 0 && e == f[1])
                    goto header; /* a header line: name,work,... */
                r = mmm_error_set(err, MMM_EPARSE, path, ln,
                                  "'%.40s': work, span, reads and writes "
                                  "are non-negative numbers",
                                  f[i + 1]);
                goto fail;
            }
        }
        if (!*f[0]) {
            r = mmm_error_set(err, MMM_EPARSE, path, ln,
                              "a costs line without a kernel name");
            goto fail;
        }
        cost_row *nr = mmm__grow(c->rows, &cap, c->n + 1, sizeof *nr, 16);
        if (!nr) {
            r = mmm_error_set(err, MMM_ENOMEM, path, ln, "out of memory");
            goto fail;
        }
        c->rows = nr;
        if (!(c->rows[c->n].name = strdup(f[0]))) {
            r = mmm_error_set(err, MMM_ENOMEM, path, ln, "out of memory");
            goto fail;
        }
        c->rows[c->n].work = v[0];
        c->rows[c->n].span = v[1];
        c->rows[c->n].reads = v[2];
        c->rows[c->n].writes = v[3];
        c->n++;
    header:
        header_seen = 1;
    }
    free(text);
    if (c->n)
        qsort(c->rows, c->n, sizeof *c->rows, row_cmp);
    for (size_t i = 1; i < c->n; i++)
        if (!strcmp(c->rows[i].name, c->rows[i - 1].name)) {
            r = mmm_error_set(err, MMM_EPARSE, path, 0,
                              "kernel '%s' has two lines of costs",
                              c->rows[i].name);
            costs_free(c);
            return r;
        }
    return 0;
fail:
    free(text);
    costs_free(c);
    return r;
}

/* ------------------------------------------------------------------ */
/* Labels                                                              */

typedef enum { N_KERNEL, N_MEMSET, N_MEMCPY, N_OTHER } node_kind;

typedef struct node_info {
    Agrec_t h;
    char *id;        /* the kernel id */
} node_info;

typedef struct cnode {
    node_kind kind;
    char type[24];       /* KERNEL, MEMCPY, ... */
    char *name;          /* the kernel's name as printed */
    char *plain;         /* its plain name (demangled base) */
    long long cuda_id;   /* the ID field */
    long long blocks, threads, shared_mem_bytes;
    long long bytes;     /* memset/memcpy */
    mmm_copy_kind copy;  /* memset/memcpy: which way the bytes go */
} cnode;

/* The label without its escapes (\< \> \{ \} \| \\). */
static char *unescape(const char *s)
{
    char *d = malloc(strlen(s) + 1), *o = d;
    if (!d)
        return NULL;
    for (; *s; s++) {
        if (*s == '\\' && s[1])
            s++;
        *o++ = *s;
    }
    *o = '\0';
    return d;
}

static const char *skip_ws(const char *p)
{
    while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
        p++;
    return p;
}

/* A non-negative integer at p; -1 when none or too large. */
static long long int_at(const char *p, const char **end)
{
    long long v = 0;
    p = skip_ws(p);
    if (*p < '0' || *p > '9')
        return -1;
    for (; *p >= '0' && *p <= '9'; p++) {
        if (v > (1LL << 53) / 10)
            return -1;
        v = 10 * v + (*p - '0');
    }
    if (end)
        *end = p;
    return v;
}

/* "4" or "(2,2,1)" or "{2,2,1}": the product; -1 when malformed. */
static long long dims(const char *p, const char **end)
{
    long long prod = 1, v;
    p = skip_ws(p);
    if (*p == '(' || *p == '{') {
        char close = *p == '(' ? ')' : '}';
        p++;
        for (;;) {
            if ((v = int_at(p, &p)) < 0)
                return -1;
            if (v && prod > (1LL << 53) / v)
                return -1;
            prod *= v;
            p = skip_ws(p);
            if (*p == ',') {
                p++;
                continue;
            }
            if (*p != close)
                return -1;
            p++;
            break;
        }
    } else if ((prod = int_at(p, &p)) < 0)
        return -1;
    if (end)
        *end = skip_ws(p);
    return prod;
}

/* The base name of a mangled C++ name: _Z4fillPfi -> fill,
 * _ZN2ns6kernelEv -> kernel; other names stay as they are. */
static char *plain_name(const char *s)
{
    const char *p = s, *last = NULL;
    size_t lastn = 0;
    if (strncmp(s, "_Z", 2))
        return strdup(s);
    p += 2;
    if (*p == 'L')
        p++;
    if (*p == 'N') {
        p++;
        while (*p && *p != 'E') {
            const char *q;
            long long n = int_at(p, &q);
            if (n <= 0 || (size_t)n > strlen(q))
                break;
            last = q;
            lastn = (size_t)n;
            p = q + n;
            while (*p == 'I' || (*p && !(*p >= '0' && *p <= '9') && *p != 'E'))
                p++; /* template arguments and the like: skip */
        }
    } else {
        const char *q;
        long long n = int_at(p, &q);
        if (n > 0 && (size_t)n <= strlen(q)) {
            last = q;
            lastn = (size_t)n;
        }
    }
    if (!last)
        return strdup(s);
    char *d = malloc(lastn + 1);
    if (d) {
        memcpy(d, last, lastn);
        d[lastn] = '\0';
    }
    return d;
}

/* The integer after "{key |" (e.g. "{Width | 4096}"); -1 when absent. */
static long long field(const char *l, const char *key)
{
    char pat[32];
    const char *p;
    snprintf(pat, sizeof pat, "{%s", key);
    for (p = l; (p = strstr(p, pat)); p++) {
        const char *q = skip_ws(p + strlen(pat));
        if (*q == '|')
            return int_at(q + 1, NULL);
    }
    return -1;
}

/* The header/value table "{{a | b | c} | {1 | 2 | 3}}": the value under
 * header `key` as an integer, -1 when absent. */
static long long table_value(const char *l, const char *key)
{
    const char *h = strstr(l, "{{"), *he, *v;
    int col = -1, i = 0;
    if (!h)
        return -1;
    h += 2;
    if (!(he = strchr(h, '}')))
        return -1;
    for (const char *p = h; p < he; i++) {
        const char *bar = memchr(p, '|', (size_t)(he - p));
        const char *e = bar ? bar : he, *s = skip_ws(p);
        while (e > s && (e[-1] == ' ' || e[-1] == '\n'))
            e--;
        if ((size_t)(e - s) == strlen(key) && !memcmp(s, key, strlen(key))) {
            col = i;
            break;
        }
        if (!bar)
            break;
        p = bar + 1;
    }
    if (col < 0)
        return -1;
    v = skip_ws(he + 1);
    if (*v != '|')
        return -1;
    v = skip_ws(v + 1);
    if (*v != '{')
        return -1;
    v++;
    for (i = 0; i < col; i++) {
        const char *bar = strchr(v, '|'), *close = strchr(v, '}');
        if (!bar || (close && close < bar))
            return -1;
        v = bar + 1;
    }
    return int_at(v, NULL);
}

static int parse_label(cnode *c, const char *label_raw)
{
    char *l = unescape(label_raw);
    const char *p;
    size_t n = 0;
    if (!l)
        return -2;
    memset(c, 0, sizeof *c);
    c->cuda_id = -1;
    p = skip_ws(l);
    if (*p == '{')
        p = skip_ws(p + 1);
    while (((p[n] >= 'A' && p[n] <= 'Z') || p[n] == '_') &&
           n < sizeof c->type - 1)
        n++;
    memcpy(c->type, p, n);
    c->type[n] = '\0';
    if (!strcmp(c->type, "KERNEL")) {
        const char *lt = strstr(l, "<<<"), *s, *q;
        c->kind = N_KERNEL;
        if (!lt)
            goto bad;
        for (s = lt; s > l && s[-1] != '|'; s--)
            ;
        s = skip_ws(s);
        for (q = lt; q > s && (q[-1] == ' ' || q[-1] == '\n'); q--)
            ;
        if (q == s || !(c->name = strndup(s, (size_t)(q - s))))
            goto bad;
        if ((c->blocks = dims(lt + 3, &q)) < 0 || *q != ',' ||
            (c->threads = dims(q + 1, &q)) < 0 || *q != ',' ||
            (c->shared_mem_bytes = int_at(q + 1, &q)) < 0 ||
            strncmp(skip_ws(q), ">>>", 3))
            goto bad;
        if ((p = strstr(l, "{ID")) && (p = strchr(p, '|')))
            c->cuda_id = int_at(p + 1, NULL);
    } else if (!strcmp(c->type, "MEMSET")) {
        long long es = table_value(l, "elementSize"),
                  w = table_value(l, "width"), h = table_value(l, "height");
        c->kind = N_MEMSET;
        c->cuda_id = table_value(l, "ID");
        if (es < 0 || w < 0 || h < 0 || (es && w && es > (1LL << 53) / w) ||
            (es * w != 0 && h > (1LL << 53) / (es * w)))
            goto bad;
        c->bytes = es * w * h;
        c->copy = MMM_COPY_SET;
    } else if (!strcmp(c->type, "MEMCPY")) {
        long long w = field(l, "Width"), h = field(l, "Height"),
                  d = field(l, "Depth");
        const char *k = strstr(l, "{kind");
        c->kind = N_MEMCPY;
        c->cuda_id = table_value(l, "ID");
        if (w < 0 || h < 0 || d < 0 || (w && h > (1LL << 53) / w) ||
            (w * h != 0 && d > (1LL << 53) / (w * h)))
            goto bad;
        c->bytes = w * h * d;
        c->copy = MMM_COPY_D2D;
        if (k && (k = strchr(k, '|'))) {
            k = skip_ws(k + 1);
            if (!strncmp(k, "HtoD", 4))
                c->copy = MMM_COPY_H2D;
            else if (!strncmp(k, "DtoH", 4))
                c->copy = MMM_COPY_D2H;
        }
    } else {
        c->kind = N_OTHER;
        if ((p = strstr(l, "ID")) && (p = strchr(p, '|')))
            c->cuda_id = int_at(p + 1, NULL);
        if (c->cuda_id < 0)
            c->cuda_id = table_value(l, "ID");
    }
    free(l);
    return 0;
bad:
    free(l);
    return -1;
}

/* ------------------------------------------------------------------ */
/* The reader                                                          */

static void fmt_num(char *buf, size_t size, double v)
{
    if (v == (double)(long long)v && v < 9007199254740992.0)
        snprintf(buf, size, "%lld", (long long)v);
    else
        snprintf(buf, size, "%.17g", v);
}

static int str_cmp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* How many of the sorted names equal s. */
static size_t count_of(char **sorted, size_t n, const char *s)
{
    char **hit = bsearch(&s, sorted, n, sizeof *sorted, str_cmp);
    size_t c = 0;
    if (!hit)
        return 0;
    while (hit > sorted && !strcmp(hit[-1], s))
        hit--;
    while (hit + c < sorted + n && !strcmp(hit[c], s))
        c++;
    return c;
}

int mmm_cuda_dot_read(mmm_program **out, const char *buf, size_t len,
                      const char *name, const mmm_import_options *opt,
                      mmm_import_report *rep, mmm_error *err)
{
    static const mmm_import_options dflt = MMM_IMPORT_OPTIONS_INIT;
    Agraph_t *g = NULL;
    Agnode_t *n;
    mmm_taskgraph *tg = NULL;
    mmm_limits lim;
    costs cs = {NULL, 0};
    cnode *nodes = NULL;
    char **bases = NULL, **sorted = NULL;
    size_t nn = 0, i, placeholders = 0;
    int r, traffic = 0;

    *out = NULL;
    MMM__CHECK_IMPORT_OPTIONS(opt, err);
    if (!opt)
        opt = &dflt;
    lim = mmm_limits_effective(&opt->load.limits);
    if (opt->costs_file &&
        (r = costs_load(&cs, opt->costs_file, &lim, err)) < 0)
        return r;
    if ((r = mmm__dot_parse(&g, buf, len, name, err)) < 0)
        goto done;
    nn = (size_t)agnnodes(g);
    if (!(nodes = calloc(nn ? nn : 1, sizeof *nodes)) ||
        !(bases = calloc(nn ? nn : 1, sizeof *bases)) ||
        !(sorted = calloc(nn ? nn : 1, sizeof *sorted))) {
        r = mmm_error_set(err, MMM_ENOMEM, name, 0, "out of memory");
        goto done;
    }
    /* Labels first: the ids depend on which names repeat. */
    i = 0;
    for (n = agfstnode(g); n; n = agnxtnode(g, n), i++) {
        const char *label = agget(n, (char *)"label");
        char idbuf[48];
        int pr = parse_label(&nodes[i], label ? label : "");
        if (pr == -2 || (pr == 0 && nodes[i].kind == N_KERNEL &&
                         !(nodes[i].plain = plain_name(nodes[i].name)))) {
            r = mmm_error_set(err, MMM_ENOMEM, name, 0, "out of memory");
            goto done;
        }
        if (pr < 0 || !nodes[i].type[0]) {
            r = mmm_error_set(err, MMM_EINPUT, name,
                              mmm__dot_line_of(buf, len, agnameof(n)),
                              "node '%s': not a node of cudaGraphDebugDotPrint "
                              "(its label has no %s)",
                              agnameof(n),
                              nodes[i].type[0]
                                  ? "launch <<<grid,block,shared>>> or size"
                                  : "node type");
            goto done;
        }
        if (nodes[i].cuda_id < 0)
            nodes[i].cuda_id = (long long)i;
        if (nodes[i].kind == N_KERNEL)
            bases[i] = strdup(nodes[i].plain);
        else {
            char low[24];
            size_t k;
            for (k = 0; nodes[i].type[k]; k++)
                low[k] = (char)(nodes[i].type[k] >= 'A' &&
                                        nodes[i].type[k] <= 'Z'
                                    ? nodes[i].type[k] - 'A' + 'a'
                                    : nodes[i].type[k]);
            low[k] = '\0';
            snprintf(idbuf, sizeof idbuf, "%s_%lld", low, nodes[i].cuda_id);
            bases[i] = strdup(idbuf);
        }
        if (!bases[i]) {
            r = mmm_error_set(err, MMM_ENOMEM, name, 0, "out of memory");
            goto done;
        }
        sorted[i] = bases[i];
    }
    qsort(sorted, nn, sizeof *sorted, str_cmp);
    if ((r = mmm_taskgraph_new(&tg, name, NULL, opt, rep, err)) < 0)
        goto done;
    i = 0;
    for (n = agfstnode(g); n; n = agnxtnode(g, n), i++) {
        cnode *c = &nodes[i];
        mmm_kernel_spec ks;
        char id[600], blocks[32], threads[32], work[40], span[40], reads[40],
            writes[40], shared[40], bytes[32];
        const cost_row *row = NULL;
        node_info *info;
        /* a kernel is named plainly unless its name repeats; the other
         * nodes are "memcpy_3", ... already */
        if (c->kind == N_KERNEL && count_of(sorted, nn, bases[i]) > 1)
            snprintf(id, sizeof id, "%.500s_%lld", bases[i], c->cuda_id);
        else
            snprintf(id, sizeof id, "%.500s", bases[i]);
        for (char *q = id; *q; q++) /* ids are printable ASCII here */
            if ((unsigned char)*q <= ' ' || (unsigned char)*q >= 0x7F)
                *q = '_';
        memset(&ks, 0, sizeof ks);
        ks.id = id;
        ks.line = 0;
        ks.reads = reads;
        ks.writes = writes;
        ks.work = work;
        ks.span = span;
        ks.blocks = blocks;
        if (c->kind == N_KERNEL) {
            row = costs_find(&cs, c->name);
            if (!row)
                row = costs_find(&cs, c->plain);
            if (!row)
                placeholders++;
            snprintf(blocks, sizeof blocks, "%lld", c->blocks);
            snprintf(threads, sizeof threads, "%lld", c->threads);
            ks.threads = threads;
            fmt_num(work, sizeof work,
                    (row ? row->work : 1.0) * (double)c->threads);
            fmt_num(span, sizeof span, row ? row->span : 1.0);
            fmt_num(reads, sizeof reads, row ? row->reads : 0.0);
            fmt_num(writes, sizeof writes, row ? row->writes : 0.0);
            if (c->shared_mem_bytes && c->threads) {
                /* words (4 bytes) per thread */
                fmt_num(shared, sizeof shared,
                        (double)c->shared_mem_bytes / 4.0 / (double)c->threads);
                ks.shared = shared;
            }
        } else if (c->kind == N_MEMSET || c->kind == N_MEMCPY) {
            /* a copy node: its bytes, no block */
            mmm_copy_spec cp = {id, 0, c->copy, bytes, NULL, NULL, NULL};
            snprintf(bytes, sizeof bytes, "%lld", c->bytes);
            if ((r = mmm_program_add_copy(mmm_taskgraph_program(tg), &cp, NULL,
                                          err)) < 0) {
                if (err && !err->line)
                    err->line = mmm__dot_line_of(buf, len, agnameof(n));
                goto done;
            }
            goto bind;
        } else {
            snprintf(blocks, sizeof blocks, "0");
            snprintf(work, sizeof work, "0");
            snprintf(span, sizeof span, "0");
            snprintf(reads, sizeof reads, "0");
            snprintf(writes, sizeof writes, "0");
        }
        if (strcmp(reads, "0") || strcmp(writes, "0"))
            traffic = 1;
        if ((r = mmm_program_add_kernel(mmm_taskgraph_program(tg), &ks, NULL,
                                        err)) < 0) {
            if (err && !err->line)
                err->line = mmm__dot_line_of(buf, len, agnameof(n));
            goto done;
        }
    bind:
        info = agbindrec(n, (char *)"mmm_cuda", sizeof *info, 0);
        if (!info || !(info->id = strdup(id))) {
            r = mmm_error_set(err, MMM_ENOMEM, name, 0, "out of memory");
            goto done;
        }
    }
    if (traffic) {
        mmm_program *p = mmm_taskgraph_program(tg);
        if (mmm_program_find_param(p, "U") < 0 &&
            (r = mmm_program_add_param(p, "U", "1", NULL, NULL, 0, err)) < 0)
            goto done;
    }
    for (n = agfstnode(g); n; n = agnxtnode(g, n)) {
        Agedge_t *e;
        const node_info *a = (node_info *)aggetrec(n, (char *)"mmm_cuda", 0);
        for (e = agfstout(g, n); e; e = agnxtout(g, e)) {
            const node_info *b =
                (node_info *)aggetrec(aghead(e), (char *)"mmm_cuda", 0);
            if ((r = mmm_taskgraph_add_edge(tg, a->id, b->id, 0, err)) < 0) {
                if (err && !err->line)
                    err->line = mmm__dot_line_of(buf, len, agnameof(n));
                goto done;
            }
        }
    }
    if (placeholders)
        mmm_taskgraph_note(
            tg,
            "%zu kernel%s without costs: work = span = 1 per thread and no "
            "memory traffic are placeholders; give the costs with --costs "
            "FILE (CSV: name,work,span,reads,writes per thread)",
            placeholders, placeholders == 1 ? "" : "s");
    if (costs_find(&cs, "memset") || costs_find(&cs, "memcpy"))
        mmm_taskgraph_warn(tg, "the rows 'memset' and 'memcpy' of the costs "
                               "file are not read: memsets and memcpys are "
                               "copies, which the time model costs by their "
                               "bytes (docs/time.md)");
    if (traffic && !opt->load.machine)
        mmm_taskgraph_warn(tg, "U = 1 is a placeholder (the memory "
                               "transactions' cost): give it with "
                               "--machine FILE or -D U=...");
    r = mmm_taskgraph_finish(tg, out, err);
    tg = NULL;
done:
    if (g)
        for (n = agfstnode(g); n; n = agnxtnode(g, n)) {
            node_info *info = (node_info *)aggetrec(n, (char *)"mmm_cuda", 0);
            if (info)
                free(info->id);
        }
    for (i = 0; i < nn && nodes; i++) {
        free(nodes[i].name);
        free(nodes[i].plain);
        if (bases)
            free(bases[i]);
    }
    free(nodes);
    free(bases);
    free(sorted);
    mmm_taskgraph_free(tg);
    if (g)
        agclose(g);
    costs_free(&cs);
    return r;
}
