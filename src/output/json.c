/* json.c: a small streaming JSON writer (RFC 8259), the one every JSON
 * output of the library goes through, and the analyze object that
 * analyze, compare and optimize share. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output/output_internal.h"
#include "base/text.h"

/* Output goes through a small buffer that each public call fills and hands
 * to fwrite once, so that after each call the FILE holds exactly what it
 * held when every character went through fputc (an error message printed
 * after a partial document still follows all of it).  mmm__json_analysis
 * fills a large buffer with many kernels at a time: its 10^6 kernel
 * objects would otherwise cost more than the analysis itself. */
typedef struct jbuf {
    FILE *f;
    char *s;
    size_t len, cap;
} jbuf;

static void jb_init(jbuf *b, FILE *f, char *s, size_t cap)
{
    b->f = f;
    b->s = s;
    b->len = 0;
    b->cap = cap;
}

static void jb_flush(jbuf *b)
{
    if (b->len)
        fwrite(b->s, 1, b->len, b->f);
    b->len = 0;
}

static void jb_put(jbuf *b, const char *s, size_t n)
{
    if (n > b->cap - b->len) {
        jb_flush(b);
        if (n > b->cap) { /* a huge string: straight through */
            fwrite(s, 1, n, b->f);
            return;
        }
    }
    memcpy(b->s + b->len, s, n);
    b->len += n;
}

static void jb_puts(jbuf *b, const char *s)
{
    jb_put(b, s, strlen(s));
}

static void jb_putc(jbuf *b, char c)
{
    if (b->len == b->cap)
        jb_flush(b);
    b->s[b->len++] = c;
}

/* The decimal digits of v, as "%lld" writes them. */
static void jb_int(jbuf *b, int64_t v)
{
    char d[24], *p = d + sizeof d;
    uint64_t u = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
    do
        *--p = (char)('0' + u % 10);
    while ((u /= 10) != 0);
    if (v < 0)
        *--p = '-';
    jb_put(b, p, (size_t)(d + sizeof d - p));
}

void mmm__json_init(mmm__json *w, FILE *f)
{
    memset(w, 0, sizeof *w);
    w->f = f;
}

static void indent(mmm__json *w, jbuf *b)
{
    static const char spaces[] = "                                "
                                 "                                "
                                 "                                "
                                 "                                ";
    size_t n = 2 * (size_t)w->depth; /* depth <= 63 */
    jb_putc(b, '\n');
    jb_put(b, spaces, n < sizeof spaces ? n : sizeof spaces - 1);
}

/* Separator and indentation before a value or a key. */
static void before_value(mmm__json *w, jbuf *b)
{
    if (w->after_key) {
        w->after_key = 0;
        return;
    }
    if (w->depth > 0) {
        if (w->flat[w->depth]) {
            if (w->need_comma[w->depth])
                jb_put(b, ", ", 2);
        } else {
            if (w->need_comma[w->depth])
                jb_putc(b, ',');
            indent(w, b);
        }
        w->need_comma[w->depth] = 1;
    }
}

/* Open a container; flat: on one line (what it holds is flat too). */
static void open_with(mmm__json *w, jbuf *b, char c, int flat)
{
    before_value(w, b);
    jb_putc(b, c);
    int outer = w->flat[w->depth];
    if (w->depth < 63)
        w->depth++;
    w->need_comma[w->depth] = 0;
    w->flat[w->depth] = (unsigned char)(flat || outer);
}

static void open_(mmm__json *w, jbuf *b, char c)
{
    open_with(w, b, c, 0);
}

static void close_(mmm__json *w, jbuf *b, char c)
{
    int had = w->need_comma[w->depth] && !w->flat[w->depth];
    if (w->depth > 0)
        w->depth--;
    if (had)
        indent(w, b);
    jb_putc(b, c);
}

static void jb_sink(void *ctx, const char *s, size_t n)
{
    jb_put(ctx, s, n);
}

/* The library's JSON escaping (base/text.h), between quotes. */
static void put_string(jbuf *b, const char *s)
{
    jb_putc(b, '"');
    mmm__escape_json(s ? s : "", jb_sink, b);
    jb_putc(b, '"');
}

static void key_(mmm__json *w, jbuf *b, const char *key)
{
    before_value(w, b);
    put_string(b, key);
    jb_put(b, ": ", 2);
    w->after_key = 1;
}

static void string_(mmm__json *w, jbuf *b, const char *s)
{
    before_value(w, b);
    put_string(b, s);
}

/* A double as a JSON number: an integer's digits when it is one (below
 * 2^53), else the shortest of %.15g / %.17g that reads back exactly;
 * non-finite values as null. */
static void jb_double(jbuf *b, double v)
{
    char buf[64];
    if (!isfinite(v)) {
        jb_put(b, "null", 4);
        return;
    }
    if (v == floor(v) && fabs(v) < 9007199254740992.0) {
        /* "%.0f": the integer's digits, and "-0" for minus zero */
        if (v == 0 && signbit(v))
            jb_put(b, "-0", 2);
        else
            jb_int(b, (int64_t)v);
        return;
    }
    snprintf(buf, sizeof buf, "%.15g", v);
    if (strtod(buf, NULL) != v)
        snprintf(buf, sizeof buf, "%.17g", v);
    jb_puts(b, buf);
}

static void double_(mmm__json *w, jbuf *b, double v)
{
    before_value(w, b);
    jb_double(b, v);
}

static void int_(mmm__json *w, jbuf *b, int64_t v)
{
    before_value(w, b);
    jb_int(b, v);
}

static void bool_(mmm__json *w, jbuf *b, int v)
{
    before_value(w, b);
    jb_puts(b, v ? "true" : "false");
}

/* The public calls: one small buffer each, written at once. */
#define SMALL 256
#define ONE_CALL(w, call)                                                     \
    do {                                                                      \
        char s_[SMALL];                                                       \
        jbuf b_;                                                              \
        jb_init(&b_, (w)->f, s_, sizeof s_);                                  \
        call;                                                                 \
        jb_flush(&b_);                                                        \
    } while (0)

void mmm__json_begin_object(mmm__json *w) { ONE_CALL(w, open_(w, &b_, '{')); }
void mmm__json_end_object(mmm__json *w) { ONE_CALL(w, close_(w, &b_, '}')); }
void mmm__json_begin_array(mmm__json *w) { ONE_CALL(w, open_(w, &b_, '[')); }
void mmm__json_begin_object_flat(mmm__json *w)
{
    ONE_CALL(w, open_with(w, &b_, '{', 1));
}
void mmm__json_end_array(mmm__json *w) { ONE_CALL(w, close_(w, &b_, ']')); }
void mmm__json_key(mmm__json *w, const char *key) { ONE_CALL(w, key_(w, &b_, key)); }
void mmm__json_string(mmm__json *w, const char *s) { ONE_CALL(w, string_(w, &b_, s)); }
void mmm__json_double(mmm__json *w, double v) { ONE_CALL(w, double_(w, &b_, v)); }
void mmm__json_int(mmm__json *w, int64_t v) { ONE_CALL(w, int_(w, &b_, v)); }
void mmm__json_bool(mmm__json *w, int v) { ONE_CALL(w, bool_(w, &b_, v)); }

void mmm__json_value(mmm__json *w, mmm_value v)
{
    if (v.exact && v.den == 1)
        mmm__json_int(w, v.num);
    else
        mmm__json_double(w, v.d);
}

void mmm__json_null(mmm__json *w)
{
    ONE_CALL(w, (before_value(w, &b_), jb_put(&b_, "null", 4)));
}

void mmm__json_finish(mmm__json *w)
{
    fputc('\n', w->f);
}

void mmm__json_num(mmm__json *w, const char *key, double v)
{
    mmm__json_key(w, key);
    mmm__json_double(w, v);
}

void mmm__json_intk(mmm__json *w, const char *key, int64_t v)
{
    mmm__json_key(w, key);
    mmm__json_int(w, v);
}

void mmm__json_str(mmm__json *w, const char *key, const char *s)
{
    mmm__json_key(w, key);
    mmm__json_string(w, s);
}

void mmm__json_boolk(mmm__json *w, const char *key, int v)
{
    mmm__json_key(w, key);
    mmm__json_bool(w, v);
}

char *mmm__fmt_num(double v, char *buf, size_t size)
{
    if (!isfinite(v))
        snprintf(buf, size, "%s", isnan(v) ? "nan" : (v > 0 ? "inf" : "-inf"));
    else if (v == floor(v) && fabs(v) < 1e15)
        snprintf(buf, size, "%.0f", v);
    else if (fabs(v) >= 1e5 && fabs(v) < 1e15) {
        /* Six significant digits would drop integer digits (1241038.5
         * as 1.24104e+06, 123456.7 as 123457, read as an integer): keep
         * every integer digit and one decimal. */
        snprintf(buf, size, "%.1f", v);
    } else
        snprintf(buf, size, "%.6g", v);
    return buf;
}

void mmm__json_metrics(mmm__json *w, const mmm_metrics *m)
{
    mmm__json_key(w, "metrics");
    mmm__json_begin_object(w);
    mmm__json_key(w, "W"); mmm__json_exact(w, m->W, m->W_i, m->exact & MMM_EXACT_W);
    mmm__json_key(w, "S"); mmm__json_exact(w, m->S, m->S_i, m->exact & MMM_EXACT_S);
    mmm__json_key(w, "O"); mmm__json_exact(w, m->O, m->O_i, m->exact & MMM_EXACT_O);
    mmm__json_intk(w, "N", m->N);
    mmm__json_intk(w, "L", m->L);
    mmm__json_key(w, "C"); mmm__json_exact(w, m->C, m->C_i, m->exact & MMM_EXACT_C);
    mmm__json_intk(w, "K", m->K);
    mmm__json_num(w, "parallelism", m->parallelism); /* = parallelism_threads */
    mmm__json_num(w, "parallelism_threads", m->parallelism);
    if (m->has_blocks) {
        mmm__json_num(w, "T1", m->T1);
        mmm__json_num(w, "T_inf", m->T_inf);
        mmm__json_num(w, "parallelism_blocks", m->parallelism_blocks);
    }
    mmm__json_key(w, "K_method");
    mmm__json_string(w, m->k_method == MMM_K_SERIES_PARALLEL ? "series-parallel"
                   : m->k_method == MMM_K_FLOW        ? "flow"
                                                       : "none");
    /* false: some integer past 2^53 is printed as a rounded double */
    mmm__json_boolk(w, "exact", !m->lost);
    mmm__json_end_object(w);
}

void mmm__json_exact(mmm__json *w, double v, int64_t vi, unsigned exact)
{
    if (exact)
        mmm__json_int(w, vi);
    else
        mmm__json_double(w, v);
}

char *mmm__fmt_measure(double v, int64_t vi, unsigned exact, char *buf, size_t size)
{
    if (exact)
        snprintf(buf, size, "%lld", (long long)vi);
    else
        mmm__fmt_num(v, buf, size);
    return buf;
}

void mmm__json_bounds(mmm__json *w, const mmm_metrics *m)
{
    mmm__json_key(w, "bounds");
    mmm__json_begin_object(w);
    if (m->has_p) {
        mmm__json_intk(w, "p", m->p);
        mmm__json_num(w, "graham_brent", m->graham_brent);
    }
    mmm__json_num(w, "corollary", m->corollary);
    /* The corollary is a bound only for p >= K (as in --format csv --totals). */
    mmm__json_intk(w, "corollary_holds_from_p", m->K);
    mmm__json_end_object(w);
}

#define BIG 32768 /* bytes of output gathered before each fwrite */

static void json_path(mmm__json *w, const mmm_program *prog,
                      const uint32_t *path, size_t len)
{
    char s[BIG];
    jbuf b;
    jb_init(&b, w->f, s, sizeof s);
    open_(w, &b, '[');
    for (size_t i = 0; i < len; i++)
        string_(w, &b, prog->kernels[path[i]].id);
    close_(w, &b, ']');
    jb_flush(&b);
}

#define LIT(b, s) jb_put(b, s, sizeof s - 1)

/* The per-kernel objects of mmm__json_analysis, one per line, written from
 * fixed fragments: 10^6 of them are most of a big analysis's output. */
static void json_kernels(mmm__json *w, const mmm_instance *inst)
{
    const mmm_program *prog = inst->program;
    char s[BIG];
    jbuf b;
    jb_init(&b, w->f, s, sizeof s);
    /* ",\n" + the items' indentation + "{\"id\": " */
    char head[2 * 64 + 16];
    int flat = w->flat[w->depth]; /* ", " between them, on one line */
    size_t nsp = flat ? 1 : 2 * (size_t)(w->depth + 1), hl = 0;
    if (nsp > 2 * 63)
        nsp = 2 * 63;
    head[hl++] = ',';
    if (!flat)
        head[hl++] = '\n';
    memset(head + hl, ' ', nsp);
    hl += nsp;
    memcpy(head + hl, "{\"id\": ", 7);
    hl += 7;
    before_value(w, &b);
    jb_putc(&b, '[');
    for (size_t i = 0; i < prog->nkernels; i++) {
        const mmm_kernel_val *k = &inst->kernels[i];
        if (i)
            jb_put(&b, head, hl);
        else
            jb_put(&b, head + 1 + flat, hl - 1 - flat);
        put_string(&b, prog->kernels[i].id);
        LIT(&b, ", \"repeat\": ");
        jb_int(&b, k->repeat);
        LIT(&b, ", \"blocks\": ");
        jb_int(&b, k->blocks);
        if (k->varies)
            LIT(&b, ", \"varies\": true, \"N\": ");
        else
            LIT(&b, ", \"varies\": false, \"N\": ");
        jb_int(&b, k->N);
        LIT(&b, ", \"L\": ");
        jb_int(&b, k->L);
        LIT(&b, ", \"K\": ");
        jb_int(&b, k->K);
        LIT(&b, ", \"W\": ");
        if (k->exact & MMM_EXACT_W)
            jb_int(&b, k->W_i);
        else
            jb_double(&b, k->W);
        LIT(&b, ", \"S\": ");
        if (k->exact & MMM_EXACT_S)
            jb_int(&b, k->S_i);
        else
            jb_double(&b, k->S);
        LIT(&b, ", \"O\": ");
        if (k->exact & MMM_EXACT_O)
            jb_int(&b, k->O_i);
        else
            jb_double(&b, k->O);
        LIT(&b, ", \"C\": ");
        if (k->exact & MMM_EXACT_C)
            jb_int(&b, k->C_i);
        else
            jb_double(&b, k->C);
        LIT(&b, ", \"line\": ");
        jb_int(&b, prog->kernels[i].line);
        if (mmm_kernel_copy(prog, i) != MMM_COPY_NONE) {
            /* a copy: its kind and bytes per call */
            LIT(&b, ", \"copy\": ");
            put_string(&b, mmm_copy_kind_name(mmm_kernel_copy(prog, i)));
            LIT(&b, ", \"bytes\": ");
            jb_int(&b, mmm_instance_copy_bytes(inst, i));
        }
        jb_putc(&b, '}');
    }
    if (prog->nkernels && !flat)
        indent(w, &b); /* the closing bracket at the array's own depth */
    jb_putc(&b, ']');
    jb_flush(&b);
}

void mmm__json_analysis(mmm__json *w, const mmm_instance *inst,
                       const mmm_metrics *m)
{
    const mmm_program *prog = inst->program;
    size_t i;

    mmm__json_str(w, "program", prog->name);
    mmm__json_str(w, "file", prog->file);
    mmm__json_key(w, "params");
    mmm__json_begin_object(w);
    for (i = 0; i < prog->nparams; i++) {
        /* a machine constant under a program parameter's name: the
         * program's is the one its name stands for */
        if (mmm_program_find_param(prog, prog->params[i].name) != (int)i)
            continue;
        mmm__json_key(w, prog->params[i].name);
        mmm__json_value(w, inst->values[i]);
    }
    mmm__json_end_object(w);
    mmm__json_metrics(w, m);
    mmm__json_bounds(w, m);
    mmm__json_key(w, "critical_path");
    mmm__json_begin_object(w);
    mmm__json_key(w, "span"); json_path(w, prog, m->span_path, m->span_path_len);
    mmm__json_key(w, "L"); json_path(w, prog, m->l_path, m->l_path_len);
    mmm__json_end_object(w);
    mmm__json_key(w, "kernels");
    json_kernels(w, inst);
}
