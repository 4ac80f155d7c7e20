/* points.c: POINTS.csv, the captures it names, the launches of each
 * point with their costs, and the attributes the time model reads
 * (docs/profile.md, "What each attribute is").
 *
 * POINTS.csv: a header with a column `ncu` (a capture's path, relative to
 * the POINTS file) and one column per parameter; one row per capture.
 * Rows with the same parameter values are one run of the program: its
 * launch list (the capture with the most launches) and the launches
 * sampled with every metric, which stand for the launches of their
 * configuration (the kernel, its grid, its block and its dynamic shared
 * memory) that were not measured. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mmm/attr.h"
#include "profile_internal.h"
#include "base/file.h"

#define POINTS_MAX_BYTES (64u << 20)
#define POINTS_MAX_COLS 256u

static const char *const mmm_own[PA_REGISTERS] = {"blocks", "threads", "work",
                                                  "span", "reads", "writes"};
/* The rows of the time model's attributes (mmm/attr.h): their names are
 * the table's. */
static const int pa_attr[PA_N] = {
    -1, -1, -1, -1, -1, -1, MMM_ATTR_REGISTERS, MMM_ATTR_SHARED_BYTES,
    MMM_ATTR_BARRIERS, MMM_ATTR_WAVEFRONTS, MMM_ATTR_GLOBAL_WAVEFRONTS,
    MMM_ATTR_ATOMICS};

int mmm__pa_attr(int pa)
{
    return pa >= 0 && pa < PA_N ? pa_attr[pa] : -1;
}

const char *mmm__pa_name(int pa)
{
    if (pa < 0 || pa >= PA_N)
        return "?";
    return pa_attr[pa] < 0 ? mmm_own[pa] : mmm_attr_name((mmm_attr)pa_attr[pa]);
}

int mmm__pa_integral(int pa)
{
    if (pa == PA_BLOCKS || pa == PA_THREADS)
        return 1;
    return mmm__pa_attr(pa) >= 0 &&
           mmm_attr_type_of((mmm_attr)pa_attr[pa]) == MMM_ATTR_INTEGER;
}

#define Q(x) (1u << MMM_NCU_##x)
/* The quantities a launch needs to carry costs of its own. */
#define COSTS (Q(WARP_INST) | Q(THREAD_INST) | Q(WARPS))

/* A mangled name (ncu --print-kernel-base mangled): the source names of
 * "_Z11scan_blocksILi64ELi1EEvPKiPiS2_" (scan_blocks) or of
 * "_ZN2ns4kernIiEEvPi" (ns::kern) joined by "::"; 0 when it is not one. */
static int demangled_base(const char *s, char *buf, size_t size)
{
    size_t n = 0;
    int nested;
    if (strncmp(s, "_Z", 2))
        return 0;
    s += 2;
    if ((nested = *s == 'N'))
        s++;
    do {
        if (*s == 'L') /* an internal name */
            s++;
        if (*s < '1' || *s > '9')
            break;
        size_t len = 0;
        while (*s >= '0' && *s <= '9')
            len = len * 10 + (size_t)(*s++ - '0');
        if (strlen(s) < len || len == 0)
            return 0;
        if (n && n + 2 < size) {
            buf[n++] = ':';
            buf[n++] = ':';
        }
        for (size_t i = 0; i < len && n + 1 < size; i++)
            buf[n++] = s[i];
        s += len;
    } while (nested && *s && *s != 'E' && *s != 'I');
    buf[n] = '\0';
    return n > 0;
}

void mmm__kernel_base(const char *name, char *buf, size_t size)
{
    const char *s = name, *end = name + strlen(name);
    size_t n = 0;
    int depth = 0;
    if (demangled_base(name, buf, size))
        return;
    /* the parameter list: the parenthesized group that ends the name */
    if (end > s && end[-1] == ')') {
        const char *p = end;
        while (p > s) {
            p--;
            if (*p == ')')
                depth++;
            else if (*p == '(' && --depth == 0)
                break;
        }
        if (depth == 0)
            end = p;
        depth = 0;
    }
    /* a return type: up to the last space outside <> and () */
    for (const char *p = s; p < end; p++) {
        if (*p == '<' || *p == '(')
            depth++;
        else if (*p == '>' || *p == ')')
            depth--;
        else if (*p == ' ' && depth == 0)
            s = p + 1;
    }
    /* the name without template arguments and spaces */
    depth = 0;
    for (const char *p = s; p < end && n + 1 < size; p++) {
        if (*p == '<') {
            depth++;
            continue;
        }
        if (*p == '>') {
            depth--;
            continue;
        }
        if (depth == 0 && *p != ' ' && *p != '\t')
            buf[n++] = *p;
    }
    if (n == 0 && size > 1)
        buf[n++] = 'k';
    buf[n] = '\0';
}

/* ------------------------------------------------------------------ */
/* Attributes of one launch                                            */

static int has(const mmm__profile_launch *l, uint32_t mask)
{
    return (l->have_q & mask) == mask;
}

static void set_attr(mmm__profile_launch *l, int a, mmm_value v)
{
    if (!isfinite(v.d))
        return;
    l->a[a] = v;
    l->have_a |= 1u << a;
}

static void attributes(mmm__profile_launch *l)
{
    const mmm_value *q = l->q;
    mmm_value four = mmm_value_int(4);
    l->have_a = 0;
    if (has(l, Q(BLOCKS)))
        set_attr(l, PA_BLOCKS, q[MMM_NCU_BLOCKS]);
    if (has(l, Q(THREADS)))
        set_attr(l, PA_THREADS, q[MMM_NCU_THREADS]);
    if (has(l, Q(REGISTERS)))
        set_attr(l, PA_REGISTERS, q[MMM_NCU_REGISTERS]);
    if (has(l, Q(SHARED_STATIC) | Q(SHARED_DYNAMIC)))
        set_attr(l, PA_SHARED_BYTES,
                 mmm__pv_add(q[MMM_NCU_SHARED_STATIC], q[MMM_NCU_SHARED_DYNAMIC]));
    if (!has(l, Q(BLOCKS) | Q(THREADS)))
        return;
    mmm_value B = q[MMM_NCU_BLOCKS];
    mmm_value bt = mmm__pv_mul(B, q[MMM_NCU_THREADS]);
    mmm_value words = mmm__pv_mul(four, bt);
    if (has(l, Q(THREAD_INST)))
        set_attr(l, PA_WORK, mmm__pv_div(q[MMM_NCU_THREAD_INST], B));
    if (has(l, Q(LOAD_BYTES)))
        set_attr(l, PA_READS, mmm__pv_div(q[MMM_NCU_LOAD_BYTES], words));
    if (has(l, Q(STORE_BYTES))) {
        mmm_value w = q[MMM_NCU_STORE_BYTES];
        if (has(l, Q(ATOMIC_BYTES)))
            w = mmm__pv_add(w, q[MMM_NCU_ATOMIC_BYTES]);
        set_attr(l, PA_WRITES, mmm__pv_div(w, words));
    }
    if (has(l, Q(ATOMIC_INST)))
        set_attr(l, PA_ATOMICS, mmm__pv_div(q[MMM_NCU_ATOMIC_INST], B));
    if (!has(l, Q(WARPS)))
        return;
    mmm_value W = q[MMM_NCU_WARPS];
    if (has(l, Q(WARP_INST)))
        set_attr(l, PA_SPAN, mmm__pv_div(q[MMM_NCU_WARP_INST], W));
    if (has(l, Q(BARRIER_INST)))
        set_attr(l, PA_BARRIERS, mmm__pv_div(q[MMM_NCU_BARRIER_INST], W));
    if (has(l, Q(SHARED_WAVEFRONTS)))
        set_attr(l, PA_WAVEFRONTS, mmm__pv_div(q[MMM_NCU_SHARED_WAVEFRONTS], W));
    if (has(l, Q(GLOBAL_WAVEFRONTS)))
        set_attr(l, PA_GLOBAL_WAVEFRONTS,
                 mmm__pv_div(q[MMM_NCU_GLOBAL_WAVEFRONTS], W));
}

/* ------------------------------------------------------------------ */
/* The launches of one point                                           */

/* Launches of one configuration: the kernel, blocks, threads, dynamic
 * shared memory (when both know it). */
int mmm__same_config(const mmm_ncu_capture *a, size_t i, const mmm_ncu_capture *b, size_t j)
{
    static const mmm_ncu_quantity keys[] = {MMM_NCU_BLOCKS, MMM_NCU_THREADS,
                                            MMM_NCU_SHARED_DYNAMIC};
    if (strcmp(mmm_ncu_kernel(a, i), mmm_ncu_kernel(b, j)))
        return 0;
    for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++) {
        mmm_value x, y;
        int hx = mmm_ncu_value(a, i, keys[k], &x), hy = mmm_ncu_value(b, j, keys[k], &y);
        if (hx && hy && !mmm__pv_equal(x, y))
            return 0;
    }
    return 1;
}

int mmm__has_costs(const mmm_ncu_capture *c, size_t i)
{
    for (int q = 0; q < MMM_NCU_NQUANTITIES; q++)
        if ((COSTS & (1u << q)) && !mmm_ncu_value(c, i, (mmm_ncu_quantity)q, NULL))
            return 0;
    return 1;
}

/* Configuration ids of the list's launches: launches of one
 * configuration (same_config) share the id of the first of them.  A hash
 * of the kernel's name, blocks, threads and dynamic shared memory, so
 * that 10^5 launches take no longer than their reading. */
static uint64_t config_hash(const mmm_ncu_capture *c, size_t i)
{
    static const mmm_ncu_quantity keys[] = {MMM_NCU_BLOCKS, MMM_NCU_THREADS,
                                            MMM_NCU_SHARED_DYNAMIC};
    uint64_t h = 1469598103934665603ull;
    for (const unsigned char *s = (const unsigned char *)mmm_ncu_kernel(c, i); *s; s++)
        h = (h ^ *s) * 1099511628211ull;
    for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++) {
        mmm_value v;
        double d = mmm_ncu_value(c, i, keys[k], &v) ? v.d : -1.0;
        h = (h ^ (uint64_t)(int64_t)d) * 1099511628211ull;
    }
    return h;
}

int mmm__config_ids(const mmm_ncu_capture *L, size_t n, size_t *id, mmm_error *err)
{
    size_t cap = 64;
    while (cap < 2 * n)
        cap *= 2;
    size_t *slot = malloc(cap * sizeof *slot); /* a launch index + 1, 0 empty */
    if (!slot)
        return mmm_error_set(err, MMM_ENOMEM, NULL, 0, "out of memory");
    memset(slot, 0, cap * sizeof *slot);
    for (size_t i = 0; i < n; i++) {
        size_t h = (size_t)(config_hash(L, i) & (cap - 1));
        for (;; h = (h + 1) & (cap - 1)) {
            if (!slot[h]) {
                slot[h] = i + 1;
                id[i] = i;
                break;
            }
            if (mmm__same_config(L, slot[h] - 1, L, i)) {
                id[i] = slot[h] - 1;
                break;
            }
        }
    }
    free(slot);
    return 0;
}

static int merge_point(mmm__profile_point *pt, mmm_error *err)
{
    size_t list = 0;
    for (size_t k = 1; k < pt->ncaps; k++)
        if (mmm_ncu_count(pt->caps[k]) > mmm_ncu_count(pt->caps[list]))
            list = k;
    const mmm_ncu_capture *L = pt->caps[list];
    size_t n = mmm_ncu_count(L);
    size_t *id = malloc((n ? n : 1) * sizeof *id), *last = malloc((n ? n : 1) * sizeof *last);
    unsigned char *apart = calloc(n ? n : 1, 1);
    pt->l = calloc(n ? n : 1, sizeof *pt->l);
    if (!pt->l || !id || !last || !apart) {
        free(id), free(last), free(apart);
        return mmm_error_set(err, MMM_ENOMEM, NULL, 0, "out of memory");
    }
    if (mmm__config_ids(L, n, id, err) < 0) {
        free(id), free(last), free(apart);
        return MMM_ENOMEM;
    }
    pt->n = n;
    int rc = 0;
    for (size_t i = 0; i < n; i++) {
        mmm__profile_launch *l = &pt->l[i];
        l->kernel = mmm_ncu_kernel(L, i);
        l->stream = mmm_ncu_stream(L, i);
        l->file = mmm_ncu_file(L);
        l->line = mmm_ncu_line(L, i);
        l->id = mmm_ncu_id(L, i);
        mmm__ncu_graph_node(L, i, &l->graph, &l->node);
        /* its own launch statistics */
        for (int q = 0; q < MMM_NCU_NQUANTITIES; q++)
            if (mmm_ncu_value(L, i, (mmm_ncu_quantity)q, &l->q[q]))
                l->have_q |= 1u << q;
        if (mmm__has_costs(L, i)) {
            l->cost_cap = L;
            l->cost_line = l->line;
            attributes(l);
            continue;
        }
        if (id[i] != i) {
            /* a later launch of a configuration: the first one's costs */
            const mmm__profile_launch *f = &pt->l[id[i]];
            l->cost_cap = f->cost_cap;
            l->cost_line = f->cost_line;
            l->nsamples = f->nsamples;
            l->samples_differ = f->samples_differ;
            for (int q = 0; q < MMM_NCU_NQUANTITIES; q++)
                if ((f->have_q & (1u << q)) && !(l->have_q & (1u << q))) {
                    l->q[q] = f->q[q];
                    l->have_q |= 1u << q;
                }
            pt->nsampled++;
            attributes(l);
            continue;
        }
        /* the sampled launches of its configuration, in every capture:
         * their mean, exact while they agree */
        size_t ns = 0;
        mmm_value sum[MMM_NCU_NQUANTITIES], first[MMM_NCU_NQUANTITIES];
        uint32_t in_all = 0;
        for (size_t k = 0; k < pt->ncaps; k++) {
            const mmm_ncu_capture *S = pt->caps[k];
            for (size_t j = 0; j < mmm_ncu_count(S); j++) {
                if (!mmm__has_costs(S, j) || !mmm__same_config(L, i, S, j))
                    continue;
                uint32_t here = 0;
                for (int q = 0; q < MMM_NCU_NQUANTITIES; q++) {
                    mmm_value v;
                    if (!mmm_ncu_value(S, j, (mmm_ncu_quantity)q, &v))
                        continue;
                    here |= 1u << q;
                    if (ns == 0) {
                        sum[q] = first[q] = v;
                    } else if (in_all & (1u << q)) {
                        if (!mmm__pv_equal(first[q], v))
                            l->samples_differ = 1;
                        sum[q] = mmm__pv_add(sum[q], v);
                    }
                }
                in_all = ns == 0 ? here : in_all & here;
                if (ns == 0) {
                    l->cost_cap = S;
                    l->cost_line = mmm_ncu_line(S, j);
                }
                ns++;
            }
        }
        if (ns == 0) {
            char base[128];
            mmm_value b = l->q[MMM_NCU_BLOCKS], t = l->q[MMM_NCU_THREADS];
            mmm__kernel_base(l->kernel, base, sizeof base);
            rc = mmm_error_set(err, MMM_EINPUT, l->file, l->line,
                               "launch %lld of '%s' (%.0f blocks of %.0f "
                               "threads) has no costs measured, and no "
                               "capture of this point (%s) has a sampled "
                               "launch of its configuration with the cost "
                               "metrics (smsp__inst_executed.sum, ...: 'mmm "
                               "profile metrics' lists them)",
                               (long long)l->id, base, b.d, t.d, pt->label);
            break;
        }
        for (int q = 0; q < MMM_NCU_NQUANTITIES; q++)
            if ((in_all & (1u << q)) && !(l->have_q & (1u << q))) {
                l->q[q] = mmm__pv_div(sum[q], mmm_value_int((int64_t)ns));
                l->have_q |= 1u << q;
            }
        l->nsamples = ns;
        pt->nsampled++;
        attributes(l);
    }
    /* configurations; those sampled whose launches are not in a row */
    for (size_t i = 0; rc == 0 && i < n; i++) {
        size_t f = id[i];
        if (f == i) {
            pt->nconfigs++;
            last[i] = i;
            continue;
        }
        apart[f] |= i != last[f] + 1;
        last[f] = i;
    }
    for (size_t i = 0; rc == 0 && i < n; i++)
        if (id[i] == i && apart[i] && pt->l[i].nsamples) {
            if (!pt->nscattered++)
                mmm__kernel_base(pt->l[i].kernel, pt->scattered, sizeof pt->scattered);
        }
    free(id), free(last), free(apart);
    return rc;
}

/* ------------------------------------------------------------------ */
/* POINTS.csv                                                          */

static int is_name(const char *s)
{
    if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || *s == '_'))
        return 0;
    for (s++; *s; s++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
              (*s >= '0' && *s <= '9') || *s == '_'))
            return 0;
    return 1;
}

static int no_names(const char *name, size_t len, void *payload)
{
    (void)name;
    (void)len;
    (void)payload;
    return -1;
}

/* A cell's value: a constant expression ("1024", "2^20"). */
static int cell_value(const char *file, long line, const char *col,
                      const char *text, mmm_value *out, mmm_error *err)
{
    mmm_expr *e = NULL;
    mmm_error sub;
    mmm_error_clear(&sub);
    if (!*text)
        return mmm_error_set(err, MMM_EINPUT, file, line,
                             "no value for parameter '%s'", col);
    if (mmm_expr_parse(&e, text, no_names, NULL, NULL, &sub) < 0 ||
        mmm_expr_eval(e, NULL, 0, out, &sub) < 0) {
        mmm_expr_free(e);
        return mmm_error_set(err, MMM_EINPUT, file, line,
                             "parameter '%s': '%s' is not a number (%s)", col,
                             text, sub.message);
    }
    mmm_expr_free(e);
    return 0;
}

void mmm__points_dispose(mmm__profile_points *pts)
{
    for (size_t i = 0; i < pts->n; i++) {
        mmm__profile_point *p = &pts->p[i];
        for (size_t k = 0; k < p->ncaps; k++)
            mmm_ncu_free(p->caps[k]);
        free(p->caps);
        free(p->params);
        free(p->l);
    }
    free(pts->p);
    for (size_t j = 0; j < pts->nparams; j++)
        free(pts->pname[j]);
    free(pts->pname);
    free(pts->pcol_line);
    free(pts->file);
    memset(pts, 0, sizeof *pts);
}

/* The capture's path: relative to the POINTS file's folder. */
static char *capture_path(const char *points, const char *cell)
{
    const char *slash = strrchr(points, '/');
    size_t dl = cell[0] == '/' || !slash ? 0 : (size_t)(slash - points) + 1;
    char *p = malloc(dl + strlen(cell) + 1);
    if (!p)
        return NULL;
    memcpy(p, points, dl);
    strcpy(p + dl, cell);
    return p;
}

int mmm__points_read(mmm__profile_points *pts, const char *path, uint64_t max_bytes,
                     mmm_error *err)
{
    char *text = NULL;
    size_t len;
    mmm__csv r;
    long line;
    int rc;
    long ncu_col = -1;
    size_t ncols = 0;
    long *col_param = NULL; /* per column: parameter index or -1 */
    memset(pts, 0, sizeof *pts);
    if (!(pts->file = strdup(path)))
        return mmm_error_set(err, MMM_ENOMEM, path, 0, "out of memory");
    if ((rc = mmm__read_whole_file(path, POINTS_MAX_BYTES, &text, &len, err)) < 0)
        return rc;
    if ((line = mmm__nul_line(text, len)) > 0) {
        free(text);
        return mmm_error_set(err, MMM_EINPUT, path, line, "a NUL byte: not a text file");
    }
    mmm__csv_init(&r, path, text, len);
    if ((rc = mmm__csv_next(&r, POINTS_MAX_COLS, &line, err)) <= 0) {
        if (rc == 0)
            rc = mmm_error_set(err, MMM_EINPUT, path, 0,
                               "empty file: POINTS.csv needs a header with a "
                               "column 'ncu' and one column per parameter");
        goto out;
    }
    ncols = r.ncells;
    col_param = malloc(ncols * sizeof *col_param);
    pts->pname = calloc(ncols, sizeof *pts->pname);
    if (!col_param || !pts->pname) {
        rc = mmm_error_set(err, MMM_ENOMEM, path, 0, "out of memory");
        goto out;
    }
    for (size_t c = 0; c < ncols; c++) {
        const char *h = r.cells[c];
        col_param[c] = -1;
        if (!strcmp(h, "ncu")) {
            if (ncu_col >= 0) {
                rc = mmm_error_set(err, MMM_EINPUT, path, line,
                                   "two columns 'ncu'");
                goto out;
            }
            ncu_col = (long)c;
            continue;
        }
        if (!is_name(h)) {
            rc = mmm_error_set(err, MMM_EINPUT, path, line,
                               "column '%s' is not a parameter name "
                               "([A-Za-z_][A-Za-z0-9_]*; the column of the "
                               "captures is 'ncu')",
                               h);
            goto out;
        }
        for (size_t j = 0; j < pts->nparams; j++)
            if (!strcmp(pts->pname[j], h)) {
                rc = mmm_error_set(err, MMM_EINPUT, path, line,
                                   "two columns '%s'", h);
                goto out;
            }
        if (!(pts->pname[pts->nparams] = strdup(h))) {
            rc = mmm_error_set(err, MMM_ENOMEM, path, line, "out of memory");
            goto out;
        }
        col_param[c] = (long)pts->nparams++;
    }
    if (ncu_col < 0) {
        rc = mmm_error_set(err, MMM_EINPUT, path, line,
                           "no column 'ncu' (the path of each capture, "
                           "written by ncu --csv --page raw)");
        goto out;
    }
    for (;;) {
        mmm_value *vals = NULL;
        if ((rc = mmm__csv_next(&r, POINTS_MAX_COLS, &line, err)) < 0)
            goto out;
        if (rc == 0)
            break;
        if (r.ncells != ncols) {
            rc = mmm_error_set(err, MMM_EINPUT, path, line,
                               "%zu fields where the header has %zu", r.ncells,
                               ncols);
            goto out;
        }
        if (!(vals = malloc((pts->nparams ? pts->nparams : 1) * sizeof *vals))) {
            rc = mmm_error_set(err, MMM_ENOMEM, path, line, "out of memory");
            goto out;
        }
        for (size_t c = 0; c < ncols; c++)
            if (col_param[c] >= 0 &&
                (rc = cell_value(path, line, pts->pname[col_param[c]], r.cells[c],
                                 &vals[col_param[c]], err)) < 0) {
                free(vals);
                goto out;
            }
        if (!r.cells[ncu_col][0]) {
            free(vals);
            rc = mmm_error_set(err, MMM_EINPUT, path, line,
                               "no capture in column 'ncu'");
            goto out;
        }
        /* the point: an earlier row with the same values, or a new one */
        size_t pi = 0;
        for (; pi < pts->n; pi++) {
            size_t j = 0;
            while (j < pts->nparams && mmm__pv_equal(pts->p[pi].params[j], vals[j]))
                j++;
            if (j == pts->nparams)
                break;
        }
        if (pi == pts->n) {
            mmm__profile_point *np = realloc(pts->p, (pts->n + 1) * sizeof *np);
            if (!np) {
                free(vals);
                rc = mmm_error_set(err, MMM_ENOMEM, path, line, "out of memory");
                goto out;
            }
            pts->p = np;
            memset(&pts->p[pi], 0, sizeof pts->p[pi]);
            pts->p[pi].line = line;
            pts->p[pi].params = vals;
            pts->n++;
            size_t o = 0;
            mmm__profile_point *pp = &pts->p[pi];
            for (size_t j = 0; j < pts->nparams && o < sizeof pp->label; j++) {
                char v[64];
                mmm__pv_text(vals[j], v, sizeof v);
                o += (size_t)snprintf(pp->label + o, sizeof pp->label - o,
                                      "%s%s=%s", j ? ", " : "", pts->pname[j], v);
            }
            if (!pts->nparams)
                snprintf(pp->label, sizeof pp->label, "POINTS line %ld", line);
        } else {
            free(vals);
        }
        mmm__profile_point *pp = &pts->p[pi];
        mmm_ncu_capture **nc = realloc(pp->caps, (pp->ncaps + 1) * sizeof *nc);
        char *cp = capture_path(path, r.cells[ncu_col]);
        if (!nc || !cp) {
            free(cp);
            if (nc)
                pp->caps = nc;
            rc = mmm_error_set(err, MMM_ENOMEM, path, line, "out of memory");
            goto out;
        }
        pp->caps = nc;
        rc = mmm_ncu_read_file(&pp->caps[pp->ncaps], cp, max_bytes, err);
        free(cp);
        if (rc < 0)
            goto out;
        pp->ncaps++;
    }
    if (pts->n == 0) {
        rc = mmm_error_set(err, MMM_EINPUT, path, 0,
                           "no rows: POINTS.csv names no capture");
        goto out;
    }
    for (size_t i = 0; i < pts->n; i++)
        if ((rc = merge_point(&pts->p[i], err)) < 0)
            goto out;
    for (int q = 0; q < MMM_NCU_NQUANTITIES; q++)
        for (size_t i = 0; i < pts->n && !pts->source[q]; i++)
            for (size_t k = 0; k < pts->p[i].ncaps && !pts->source[q]; k++)
                pts->source[q] = mmm_ncu_source(pts->p[i].caps[k], (mmm_ncu_quantity)q);
    rc = 0;
out:
    free(col_param);
    mmm__csv_dispose(&r);
    free(text);
    return rc;
}
