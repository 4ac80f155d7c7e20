/* json.c: a small streaming JSON writer (RFC 8259) and the analyze object
 * that analyze, compare and optimize share. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

void json_init(json_writer *w, FILE *f)
{
    memset(w, 0, sizeof *w);
    w->f = f;
}

static void indent(json_writer *w)
{
    int i;
    fputc('\n', w->f);
    for (i = 0; i < w->depth; i++)
        fputs("  ", w->f);
}

/* Separator and indentation before a value or a key. */
static void before_value(json_writer *w)
{
    if (w->after_key) {
        w->after_key = 0;
        return;
    }
    if (w->depth > 0) {
        if (w->need_comma[w->depth])
            fputc(',', w->f);
        indent(w);
        w->need_comma[w->depth] = 1;
    }
}

static void open_(json_writer *w, char c)
{
    before_value(w);
    fputc(c, w->f);
    if (w->depth < 63)
        w->depth++;
    w->need_comma[w->depth] = 0;
}

static void close_(json_writer *w, char c)
{
    int had = w->need_comma[w->depth];
    if (w->depth > 0)
        w->depth--;
    if (had)
        indent(w);
    fputc(c, w->f);
}

void json_begin_object(json_writer *w) { open_(w, '{'); }
void json_end_object(json_writer *w) { close_(w, '}'); }
void json_begin_array(json_writer *w) { open_(w, '['); }
void json_end_array(json_writer *w) { close_(w, ']'); }

static void put_string(FILE *f, const char *s)
{
    const unsigned char *p = (const unsigned char *)(s ? s : "");
    fputc('"', f);
    for (; *p; p++) {
        switch (*p) {
        case '"': fputs("\\\"", f); break;
        case '\\': fputs("\\\\", f); break;
        case '\n': fputs("\\n", f); break;
        case '\r': fputs("\\r", f); break;
        case '\t': fputs("\\t", f); break;
        default:
            if (*p < 0x20)
                fprintf(f, "\\u%04x", *p);
            else
                fputc(*p, f);
        }
    }
    fputc('"', f);
}

void json_key(json_writer *w, const char *key)
{
    before_value(w);
    put_string(w->f, key);
    fputs(": ", w->f);
    w->after_key = 1;
}

void json_string(json_writer *w, const char *s)
{
    before_value(w);
    put_string(w->f, s);
}

void json_double(json_writer *w, double v)
{
    char buf[64];
    before_value(w);
    if (!isfinite(v)) {
        fputs("null", w->f);
        return;
    }
    if (v == floor(v) && fabs(v) < 9007199254740992.0) {
        fprintf(w->f, "%.0f", v);
        return;
    }
    /* Shortest of %.15g / %.17g that reads back exactly. */
    snprintf(buf, sizeof buf, "%.15g", v);
    if (strtod(buf, NULL) != v)
        snprintf(buf, sizeof buf, "%.17g", v);
    fputs(buf, w->f);
}

void json_int(json_writer *w, int64_t v)
{
    before_value(w);
    fprintf(w->f, "%lld", (long long)v);
}

void json_value(json_writer *w, mmm_value v)
{
    if (v.exact && v.den == 1)
        json_int(w, v.num);
    else
        json_double(w, v.d);
}

void json_bool(json_writer *w, int v)
{
    before_value(w);
    fputs(v ? "true" : "false", w->f);
}

void json_null(json_writer *w)
{
    before_value(w);
    fputs("null", w->f);
}

void json_finish(json_writer *w)
{
    fputc('\n', w->f);
}

char *cli_fmt_num(double v, char *buf, size_t size)
{
    if (!isfinite(v))
        snprintf(buf, size, "%s", isnan(v) ? "nan" : (v > 0 ? "inf" : "-inf"));
    else if (v == floor(v) && fabs(v) < 1e15)
        snprintf(buf, size, "%.0f", v);
    else
        snprintf(buf, size, "%.6g", v);
    return buf;
}

void cli_json_metrics(json_writer *w, const mmm_metrics *m)
{
    json_key(w, "metrics");
    json_begin_object(w);
    json_key(w, "W"); json_double(w, m->W);
    json_key(w, "S"); json_double(w, m->S);
    json_key(w, "O"); json_double(w, m->O);
    json_key(w, "N"); json_int(w, m->N);
    json_key(w, "L"); json_int(w, m->L);
    json_key(w, "C"); json_double(w, m->C);
    json_key(w, "K"); json_int(w, m->K);
    json_key(w, "parallelism"); json_double(w, m->parallelism);
    json_key(w, "K_method");
    json_string(w, m->k_method == MMM_K_SERIES_PARALLEL ? "series-parallel"
                   : m->k_method == MMM_K_FLOW        ? "flow"
                                                       : "none");
    json_end_object(w);
}

void cli_json_bounds(json_writer *w, const mmm_metrics *m)
{
    json_key(w, "bounds");
    json_begin_object(w);
    if (m->has_p) {
        json_key(w, "p"); json_int(w, m->p);
        json_key(w, "graham_brent"); json_double(w, m->graham_brent);
    }
    json_key(w, "corollary"); json_double(w, m->corollary);
    json_end_object(w);
}

static void json_path(json_writer *w, const mmm_program *prog,
                      const uint32_t *path, size_t len)
{
    size_t i;
    json_begin_array(w);
    for (i = 0; i < len; i++)
        json_string(w, prog->kernels[path[i]].id);
    json_end_array(w);
}

void cli_json_analysis(json_writer *w, const mmm_instance *inst,
                       const mmm_metrics *m)
{
    const mmm_program *prog = inst->program;
    size_t i;

    json_key(w, "program"); json_string(w, prog->name);
    json_key(w, "file"); json_string(w, prog->file);
    json_key(w, "params");
    json_begin_object(w);
    for (i = 0; i < prog->nparams; i++) {
        json_key(w, prog->params[i].name);
        json_value(w, inst->values[i]);
    }
    json_end_object(w);
    cli_json_metrics(w, m);
    cli_json_bounds(w, m);
    json_key(w, "critical_path");
    json_begin_object(w);
    json_key(w, "span"); json_path(w, prog, m->span_path, m->span_path_len);
    json_key(w, "L"); json_path(w, prog, m->l_path, m->l_path_len);
    json_end_object(w);
    json_key(w, "kernels");
    json_begin_array(w);
    for (i = 0; i < prog->nkernels; i++) {
        const mmm_kernel_val *k = &inst->kernels[i];
        json_begin_object(w);
        json_key(w, "id"); json_string(w, prog->kernels[i].id);
        json_key(w, "repeat"); json_int(w, k->repeat);
        json_key(w, "blocks"); json_int(w, k->blocks);
        json_key(w, "varies"); json_bool(w, k->varies);
        json_key(w, "N"); json_int(w, k->N);
        json_key(w, "L"); json_int(w, k->L);
        json_key(w, "K"); json_int(w, k->K);
        json_key(w, "W"); json_double(w, k->W);
        json_key(w, "S"); json_double(w, k->S);
        json_key(w, "O"); json_double(w, k->O);
        json_key(w, "C"); json_double(w, k->C);
        json_key(w, "line"); json_int(w, prog->kernels[i].line);
        json_end_object(w);
    }
    json_end_array(w);
}
