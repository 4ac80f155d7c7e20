/* profile.c: the profile object (mmm_profile: the written file, the notes,
 * the counts the caller reads) and what build.c and skeleton.c both write
 * into a DAG file: the comments that name the metrics each value came
 * from, the fitted values of an attribute and the text of an
 * approximation.  (Here, below both, so that neither file calls the
 * other back.) */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mmm/version.h"
#include "profile_internal.h"
#include "base/file.h"
#include "base/outfile.h"
#include "base/abi.h"
#include "base/notes.h"

void mmm_profile_options_init(mmm_profile_options *opt)
{
    static const mmm_profile_options defaults = MMM_PROFILE_OPTIONS_INIT;
    if (opt)
        *opt = defaults;
}

int mmm__profile_note(mmm_profile *p, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int r = mmm__notes_vadd(&p->notes, fmt, ap);
    va_end(ap);
    return r < 0 ? -1 : 0;
}

void mmm_profile_free(mmm_profile *p)
{
    if (!p)
        return;
    mmm_notes_dispose(&p->notes);
    free(p->xml);
    free(p);
}

const char *mmm_profile_xml(const mmm_profile *p)
{
    return p ? p->xml : NULL;
}

size_t mmm_profile_nnotes(const mmm_profile *p)
{
    return p ? p->notes.n : 0;
}

const char *mmm_profile_note(const mmm_profile *p, size_t i)
{
    return p && i < p->notes.n ? p->notes.line[i] : NULL;
}

size_t mmm_profile_npoints(const mmm_profile *p)
{
    return p ? p->npoints : 0;
}

size_t mmm_profile_nkernels(const mmm_profile *p)
{
    return p ? p->nkernels : 0;
}

size_t mmm_profile_napprox(const mmm_profile *p)
{
    return p ? p->napprox : 0;
}

char *mmm_profile_summary(const mmm_profile *p, char *buf, size_t size)
{
    size_t k = mmm_profile_nkernels(p), n = mmm_profile_npoints(p), a = mmm_profile_napprox(p);
    int len;
    if (!buf || !size)
        return buf;
    len = snprintf(buf, size, "%zu kernel%s from %zu point%s", k, k == 1 ? "" : "s", n,
                   n == 1 ? "" : "s");
    if (a && len >= 0 && (size_t)len < size)
        snprintf(buf + len, size - (size_t)len, ", %zu attribute%s approximate", a,
                 a == 1 ? "" : "s");
    return buf;
}

int mmm_profile_save_xml(const mmm_profile *p, const char *path, mmm_error *err)
{
    if (!p || !p->xml || !path)
        return mmm_error_set(err, MMM_EINVAL, path, 0,
                             "mmm_profile_save_xml: missing argument");
    return mmm__write_file_atomic(path, p->xml, strlen(p->xml), err);
}

/* ------------------------------------------------------------------ */
/* Text helpers                                                        */

void mmm__text_comment(mmm__text *t, const char *s)
{
    char prev = 0;
    for (const unsigned char *p = (const unsigned char *)s; *p;) {
        size_t n = mmm__xml_char(p);
        if (n == 0) {
            mmm__text_put(t, "?");
            prev = '?';
            p++;
            continue;
        }
        if (*p == '-' && prev == '-')
            mmm__text_put(t, " ");
        mmm__text_putn(t, (const char *)p, n);
        prev = (char)*p;
        p += n;
    }
    if (prev == '-')
        mmm__text_put(t, " ");
}

int mmm__fit_values(const char *const *names, size_t nvars, const mmm_value *x,
                    const mmm_value *y, size_t n, int integral, const char *const *inst,
                    mmm__profile_fit *f, mmm_error *err)
{
    mmm_profile_fit_result r;
    int rc = mmm_profile_fit(names, nvars, x, y, n, &r, err);
    if (rc < 0)
        return rc;
    f->exact = r.exact;
    f->max_rel = r.max_rel_error;
    f->instances = 0;
    snprintf(f->text, sizeof f->text, "%s", r.text);
    /* no single exact expression: one per template instance, if the
       points' functions differ */
    if (!r.exact && inst) {
        int ex;
        double mr;
        rc = mmm__fit_instances(names, nvars, x, y, n, inst, r.text, r.max_rel_error,
                                f->text, sizeof f->text - 20, &ex, &mr, err);
        if (rc < 0)
            return rc;
        if (rc > 0) {
            f->exact = ex;
            f->max_rel = mr;
            f->instances = 1;
        }
    }
    /* a count must evaluate to an integer: an approximation is rounded up */
    if (integral && !f->exact && f->text[strspn(f->text, "0123456789")] != '\0') {
        char raw[sizeof f->text];
        memcpy(raw, f->text, sizeof raw);
        snprintf(f->text, sizeof f->text, "max(0, ceil(%.*s))", (int)sizeof f->text - 16, raw);
    }
    f->have = 1;
    f->rounded = 0;
    for (size_t i = 0; i < n; i++)
        f->rounded |= !y[i].exact;
    f->npoints = n;
    return 0;
}

void mmm__approx_text(const mmm__profile_fit *f, char *buf, size_t size)
{
    if (f->rounded && f->max_rel == 0)
        snprintf(buf, size, "ncu printed its value%s rounded (a unit with a "
                 "prefix, too few digits): capture in base units (ncu's option "
                 "print-units base)",
                 f->npoints == 1 ? "" : "s");
    else
        snprintf(buf, size, "max relative error %.3g %% over %zu value%s%s",
                 100 * f->max_rel, f->npoints, f->npoints == 1 ? "" : "s",
                 f->rounded ? ", which ncu printed rounded (capture in base "
                              "units: ncu's option print-units base)" : "");
}

/* The source of quantity q, in parentheses when it is a sum (for a
 * division after it), or what is missing. */
static const char *src(const mmm__profile_points *pts, mmm_ncu_quantity q)
{
    static _Thread_local char buf[8][300];
    static _Thread_local int next;
    const char *s = pts->source[q];
    if (!s)
        return "(not captured)";
    if (!strstr(s, " + ") && !strstr(s, " - ") && !strstr(s, " * "))
        return s;
    char *b = buf[next++ % 8];
    snprintf(b, sizeof buf[0], "(%s)", s);
    return b;
}

static void put_num(mmm__text *t, mmm_value v)
{
    char b[64];
    if (v.exact || (v.d == floor(v.d) && fabs(v.d) < 1e15))
        mmm__pv_text(v, b, sizeof b);
    else
        snprintf(b, sizeof b, "%.4g", v.d);
    mmm__text_put(t, b);
}

void mmm__kernel_comment(mmm__text *t, const char *indent, const char *id,
                         const mmm__profile_points *pts, const mmm__profile_launch *const *rep,
                         const int64_t *nl, const mmm__profile_fit *f, const char *extra)
{
    mmm__text c;
    size_t shown = 0, first = pts->n;
    mmm__text_init(&c);
    for (size_t i = 0; i < pts->n; i++)
        if (rep[i] && first == pts->n)
            first = i;
    mmm__text_printf(&c, "kernel '%s'", id);
    /* its function at each point (template instances differ) */
    for (size_t i = 0; i < pts->n; i++) {
        if (!rep[i])
            continue;
        size_t j = 0;
        while (j < i && !(rep[j] && !strcmp(rep[j]->kernel, rep[i]->kernel)))
            j++;
        if (j < i)
            continue;
        if (shown == 4) {
            mmm__text_put(&c, ", ...");
            break;
        }
        mmm__text_printf(&c, "%s %s", shown ? "," : ":", rep[i]->kernel);
        if (pts->n > 1)
            mmm__text_printf(&c, " (%s)", pts->p[i].label);
        shown++;
    }
    mmm__text_printf(&c, "\n%s     ", indent);
    if (first < pts->n) {
        const mmm__profile_launch *l = rep[first];
        mmm__text_printf(&c, "%lld launch%s on stream %s, from %s:%ld",
                         (long long)nl[first], nl[first] == 1 ? "" : "es",
                         l->stream, l->file, l->line);
        if (pts->n > 1)
            mmm__text_printf(&c, " (%s)", pts->p[first].label);
        if (l->nsamples)
            mmm__text_printf(&c, ";\n%s     its costs measured on the sampled launch "
                             "%s:%ld of its configuration%s",
                             indent, mmm_ncu_file(l->cost_cap), l->cost_line,
                             l->nsamples > 1 ? " (the mean of the samples)" : "");
        if (l->samples_differ)
            mmm__text_put(&c, " - the samples differ: a data-dependent kernel");
    }
    mmm__text_printf(&c,
        "\n%s     blocks = %s; threads = %s;"
        "\n%s     work = %s / blocks; span = %s / %s;"
        "\n%s     reads = %s / (4 * blocks * threads);"
        "\n%s     writes = %s%s%s%s%s / (4 * blocks * threads)%s;"
        "\n%s     %s = %s; %s = %s + %s;"
        "\n%s     %s = %s / warps; %s = %s / warps"
        " (warps = %s);"
        "\n%s     %s = %s / warps; %s = %s / blocks",
        indent, src(pts, MMM_NCU_BLOCKS), src(pts, MMM_NCU_THREADS),
        indent, src(pts, MMM_NCU_THREAD_INST), src(pts, MMM_NCU_WARP_INST),
        src(pts, MMM_NCU_WARPS),
        indent, src(pts, MMM_NCU_LOAD_BYTES),
        indent, pts->source[MMM_NCU_ATOMIC_BYTES] ? "(" : "",
        src(pts, MMM_NCU_STORE_BYTES),
        pts->source[MMM_NCU_ATOMIC_BYTES] ? " + " : "",
        pts->source[MMM_NCU_ATOMIC_BYTES] ? src(pts, MMM_NCU_ATOMIC_BYTES) : "",
        pts->source[MMM_NCU_ATOMIC_BYTES] ? ")" : "",
        pts->source[MMM_NCU_ATOMIC_BYTES] ? "" : " (the bytes of atomics not captured)",
        indent, mmm__pa_name(PA_REGISTERS), src(pts, MMM_NCU_REGISTERS),
        mmm__pa_name(PA_SHARED_BYTES), src(pts, MMM_NCU_SHARED_STATIC),
        src(pts, MMM_NCU_SHARED_DYNAMIC),
        indent, mmm__pa_name(PA_BARRIERS), src(pts, MMM_NCU_BARRIER_INST),
        mmm__pa_name(PA_WAVEFRONTS), src(pts, MMM_NCU_SHARED_WAVEFRONTS),
        src(pts, MMM_NCU_WARPS),
        indent, mmm__pa_name(PA_GLOBAL_WAVEFRONTS), src(pts, MMM_NCU_GLOBAL_WAVEFRONTS),
        mmm__pa_name(PA_ATOMICS), src(pts, MMM_NCU_ATOMIC_INST));
    /* what the L2 and the memory served, per point (the first 8) */
    size_t listed = 0;
    for (size_t i = 0; i < pts->n; i++) {
        const mmm__profile_launch *l = rep[i];
        if (!l)
            continue;
        if (listed == 8) {
            mmm__text_printf(&c, "\n%s     (and %zu more points)", indent,
                             pts->n - i);
            break;
        }
        listed++;
        mmm__text_printf(&c, "\n%s     ", indent);
        if (pts->n > 1)
            mmm__text_printf(&c, "at %s: ", pts->p[i].label);
        uint32_t h = l->have_q;
        int any = 0;
#define HQ(x) (h & (1u << MMM_NCU_##x))
        if (HQ(L2_READ_SECTORS)) {
            mmm__text_put(&c, "the L2 served ");
            put_num(&c, l->q[MMM_NCU_L2_READ_SECTORS]);
            mmm__text_put(&c, " sectors to reads");
            if (HQ(LOAD_BYTES) && l->q[MMM_NCU_LOAD_BYTES].d > 0)
                mmm__text_printf(&c, " (%.3gx the bytes the loads asked for)",
                                 32 * l->q[MMM_NCU_L2_READ_SECTORS].d /
                                     l->q[MMM_NCU_LOAD_BYTES].d);
            if (HQ(L2_READ_HITS) && l->q[MMM_NCU_L2_READ_SECTORS].d > 0)
                mmm__text_printf(&c, ", %.3g %% of them found in it",
                                 100 * l->q[MMM_NCU_L2_READ_HITS].d /
                                     l->q[MMM_NCU_L2_READ_SECTORS].d);
            any = 1;
        }
        if (HQ(L2_WRITE_SECTORS)) {
            mmm__text_put(&c, any ? "; took " : "the L2 took ");
            put_num(&c, l->q[MMM_NCU_L2_WRITE_SECTORS]);
            mmm__text_put(&c, " sectors of writes");
            any = 1;
        }
        if (HQ(LOAD_SECTORS) && HQ(LOAD_BYTES) && l->q[MMM_NCU_LOAD_BYTES].d > 0) {
            mmm__text_printf(&c, "%sthe L1 looked up %.3gx the bytes the loads asked "
                             "for", any ? "; " : "",
                             32 * l->q[MMM_NCU_LOAD_SECTORS].d /
                                 l->q[MMM_NCU_LOAD_BYTES].d);
            any = 1;
        }
        if (HQ(DRAM_READ_BYTES) || HQ(DRAM_WRITE_BYTES)) {
            mmm__text_put(&c, any ? "; DRAM read " : "DRAM read ");
            if (HQ(DRAM_READ_BYTES))
                put_num(&c, l->q[MMM_NCU_DRAM_READ_BYTES]);
            else
                mmm__text_put(&c, "?");
            mmm__text_put(&c, " bytes, wrote ");
            if (HQ(DRAM_WRITE_BYTES))
                put_num(&c, l->q[MMM_NCU_DRAM_WRITE_BYTES]);
            else
                mmm__text_put(&c, "?");
            mmm__text_put(&c, " bytes");
            any = 1;
        }
        if (HQ(DURATION_NS)) {
            mmm__text_printf(&c, "%s%.4g us a launch (ncu's gpu__time_duration)",
                             any ? "; " : "", l->q[MMM_NCU_DURATION_NS].d / 1000);
            any = 1;
        }
        if (!any)
            mmm__text_put(&c, "no L2, memory or duration metrics captured");
#undef HQ
    }
    /* approximations */
    for (int a = 0; a <= PF_REPEAT; a++)
        if (f[a].have && !f[a].exact) {
            char why[300];
            mmm__approx_text(&f[a], why, sizeof why);
            mmm__text_printf(&c, "\n%s     APPROXIMATE %s: %s", indent,
                             a == PF_REPEAT ? "repeat" : mmm__pa_name(a), why);
        }
    /* the caller's lines */
    for (const char *e = extra; e && *e;) {
        size_t n = strcspn(e, "\n");
        mmm__text_printf(&c, "\n%s     %.*s", indent, (int)n, e);
        e += n + (e[n] == '\n');
    }
    mmm__text_printf(t, "%s<!-- ", indent);
    mmm__text_comment(t, c.s ? c.s : "");
    mmm__text_put(t, " -->\n");
    mmm__text_dispose(&c);
}
