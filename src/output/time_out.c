/* time_out.c: the time model's section of `mmm analyze --model time` in
 * text, JSON and CSV (docs/time.md). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "output/output_internal.h"

int mmm_launch_parse(mmm_launch *out, const char *s)
{
    if (s && !strcmp(s, "stream"))
        *out = MMM_LAUNCH_STREAM;
    else if (s && !strcmp(s, "graph"))
        *out = MMM_LAUNCH_GRAPH;
    else
        return MMM_EINVAL;
    return MMM_OK;
}

int mmm_models_time(mmm_time *t, const mmm_instance *inst, mmm_launch launch,
                    mmm_error *err)
{
    mmm_time_machine m;
    int r = mmm_time_machine_get(&m, inst, 1, err);
    if (r < 0)
        return r;
    if (launch == MMM_LAUNCH_STREAM)
        m.graph = 0;
    else if (launch == MMM_LAUNCH_GRAPH)
        m.graph = 1;
    return mmm_time_compute(t, inst, &m, err);
}

char *mmm__fmt_seconds(double s, char *buf, size_t size)
{
    if (!isfinite(s))
        snprintf(buf, size, "%g s", s);
    else if (s >= 1 || s == 0)
        snprintf(buf, size, "%.4g s", s);
    else if (s >= 1e-3)
        snprintf(buf, size, "%.4g ms", s * 1e3);
    else if (s >= 1e-6)
        snprintf(buf, size, "%.4g us", s * 1e6);
    else
        snprintf(buf, size, "%.4g ns", s * 1e9);
    return buf;
}

/* The launches listed one by one in text: all up to this many, else
 * the first and the last EACH_ENDS. */
#define EACH_ALL 8
#define EACH_ENDS 3

static void launch_row(FILE *f, const mmm_time_launch *l)
{
    char a[64], b[64];
    fprintf(f, "%8lld %10lld %12s %12s %8lld %9lld %-10s %s\n", (long long)l->index,
            (long long)l->blocks, mmm__fmt_seconds(l->seconds, a, sizeof a),
            mmm__fmt_seconds(l->exec_seconds, b, sizeof b), (long long)l->waves,
            (long long)l->resident, mmm_time_limit_name(l->limit),
            mmm_time_term_name(l->dominant));
}

/* The launches of kernel k, whose launches differ, one by one. */
static void launches_text(FILE *f, const mmm_time *t, const mmm_program *prog, size_t k)
{
    const mmm_time_kernel *tk = &t->kernels[k];
    const mmm_time_launch *l = t->each_launch + tk->first_launch;
    size_t n = tk->nlisted, i;
    int ends = n > EACH_ALL;
    fprintf(f, "\nlaunches of %s, one by one (%zu%s", prog->kernels[k].id, n,
            (int64_t)n < tk->launches ? " listed" : "");
    if (ends)
        fprintf(f, "; the first and the last %d", EACH_ENDS);
    fprintf(f, "):\n");
    fprintf(f, "%8s %10s %12s %12s %8s %9s %-10s %s\n", "launch", "blocks", "seconds",
            "exec", "waves", "blocks/SM", "limited by", "dominant");
    for (i = 0; i < n; i++) {
        if (ends && i == EACH_ENDS) {
            fprintf(f, "%8s (%zu more; --format json lists every launch)\n", "...",
                    n - 2 * EACH_ENDS);
            i = n - EACH_ENDS;
        }
        launch_row(f, &l[i]);
    }
}

void mmm__time_text(FILE *f, const mmm_time *t, const mmm_instance *inst,
                   int64_t max_rows)
{
    const mmm_program *prog = inst->program;
    const mmm_time_machine *m = &t->machine;
    char a[64], b[64];
    size_t i, width = mmm__id_width(prog);

    fprintf(f, "\ntime model (predicted seconds, doubles; %s launches)\n",
            m->graph ? "graph" : "stream");
    fprintf(f, "  machine  p=%lld clock=%g Hz", (long long)m->p, m->clock_hz);
    for (int c = 0; c < MMM_TIME_NCONST; c++)
        fprintf(f, " %s=%g", mmm_time_const_name(c), m->c[c]);
    fprintf(f, "\n  time     %s  (%.6g s)  dominant %s, %lld launch%s\n",
            mmm__fmt_seconds(t->seconds, a, sizeof a), t->seconds,
            mmm_time_term_name(t->dominant), (long long)t->launches,
            t->launches == 1 ? "" : "es");
    fprintf(f, "  critical path  ");
    mmm__print_kernel_path(f, inst, t->path, t->path_len);
    fprintf(f, "\n%-*s %10s %12s %12s %8s %9s %-10s %s\n", (int)width,
            "kernel", "launches", "seconds", "exec", "waves", "blocks/SM",
            "limited by", "dominant");
    for (i = 0; i < prog->nkernels; i++) {
        size_t k = prog->topo[i];
        const mmm_time_kernel *tk = &t->kernels[k];
        if (mmm__rows_done(f, i, prog->nkernels, max_rows))
            break;
        if (mmm_kernel_copy(prog, k) != MMM_COPY_NONE) {
            /* a copy: no waves, no blocks; its kind where the limit goes */
            fprintf(f, "%-*.*s %10lld %12s %12s %8s %9s %-10s %s\n",
                    (int)width, (int)width, prog->kernels[k].id,
                    (long long)tk->launches,
                    mmm__fmt_seconds(tk->seconds, a, sizeof a),
                    mmm__fmt_seconds(tk->exec_seconds, b, sizeof b), "-", "-",
                    mmm_copy_kind_name(mmm_kernel_copy(prog, k)),
                    mmm_time_term_name(tk->dominant));
            continue;
        }
        fprintf(f, "%-*.*s %10lld %12s %12s %8lld %9lld %-10s %s\n",
                (int)width, (int)width, prog->kernels[k].id,
                (long long)tk->launches, mmm__fmt_seconds(tk->seconds, a, sizeof a),
                mmm__fmt_seconds(tk->exec_seconds, b, sizeof b),
                (long long)tk->waves, (long long)tk->resident,
                mmm_time_limit_name(tk->limit),
                mmm_time_term_name(tk->dominant));
    }
    for (i = 0; i < prog->nkernels && (max_rows <= 0 || (int64_t)i < max_rows); i++)
        if (t->kernels[prog->topo[i]].nlisted > 0)
            launches_text(f, t, prog, prog->topo[i]);
    if (t->each_cut)
        fprintf(f, "(launches listed one by one: the first %d of the kernels whose "
                "launches differ)\n", MMM_TIME_MAX_LISTED);
}

void mmm__time_json(mmm__json *w, const mmm_time *t, const mmm_instance *inst)
{
    const mmm_program *prog = inst->program;
    mmm__json_key(w, "time");
    mmm__json_begin_object(w);
    mmm__json_num(w, "seconds", t->seconds);
    mmm__json_str(w, "dominant", mmm_time_term_name(t->dominant));
    mmm__json_intk(w, "launches", t->launches);
    mmm__json_str(w, "launch", t->machine.graph ? "graph" : "stream");
    mmm__json_key(w, "machine");
    mmm__json_begin_object(w);
    for (int c = 0; c < MMM_TIME_NCONST; c++) {
        mmm__json_num(w, mmm_time_const_name(c), t->machine.c[c]);
    }
    mmm__json_end_object(w);
    mmm__json_key(w, "critical_path");
    mmm__json_begin_array(w);
    for (size_t i = 0; i < t->path_len; i++)
        mmm__json_string(w, prog->kernels[t->path[i]].id);
    mmm__json_end_array(w);
    mmm__json_key(w, "kernels");
    mmm__json_begin_array(w);
    for (size_t k = 0; k < prog->nkernels; k++) {
        const mmm_time_kernel *tk = &t->kernels[k];
        mmm__json_begin_object_flat(w);
        mmm__json_str(w, "id", prog->kernels[k].id);
        mmm__json_num(w, "seconds", tk->seconds);
        mmm__json_num(w, "exec_seconds", tk->exec_seconds);
        mmm__json_intk(w, "launches", tk->launches);
        mmm__json_intk(w, "waves", tk->waves);
        mmm__json_intk(w, "resident", tk->resident);
        if (mmm_kernel_copy(prog, k) != MMM_COPY_NONE)
            mmm__json_str(w, "copy", mmm_copy_kind_name(mmm_kernel_copy(prog, k)));
        else
            mmm__json_str(w, "limit", mmm_time_limit_name(tk->limit));
        mmm__json_str(w, "dominant", mmm_time_term_name(tk->dominant));
        mmm__json_end_object(w);
    }
    mmm__json_end_array(w);
    /* the launches of the kernels whose launches differ, one by one */
    mmm__json_key(w, "each_launch");
    mmm__json_begin_array(w);
    for (size_t k = 0; k < prog->nkernels; k++) {
        const mmm_time_kernel *tk = &t->kernels[k];
        for (size_t i = 0; i < tk->nlisted; i++) {
            const mmm_time_launch *l = &t->each_launch[tk->first_launch + i];
            mmm__json_begin_object_flat(w);
            mmm__json_str(w, "kernel", prog->kernels[k].id);
            mmm__json_intk(w, "launch", l->index);
            mmm__json_intk(w, "blocks", l->blocks);
            mmm__json_num(w, "seconds", l->seconds);
            mmm__json_num(w, "exec_seconds", l->exec_seconds);
            mmm__json_intk(w, "waves", l->waves);
            mmm__json_intk(w, "resident", l->resident);
            mmm__json_str(w, "limit", mmm_time_limit_name(l->limit));
            mmm__json_str(w, "dominant", mmm_time_term_name(l->dominant));
            mmm__json_end_object(w);
        }
    }
    mmm__json_end_array(w);
    mmm__json_boolk(w, "each_launch_cut", t->each_cut);
    mmm__json_end_object(w);
}

void mmm__time_csv(FILE *f, const mmm_time *t, size_t k)
{
    if (k == (size_t)-1) {
        fputs(",time_s,exec_s,launches,waves,resident,limit,time_dominant", f);
        return;
    }
    const mmm_time_kernel *tk = &t->kernels[k];
    fprintf(f, ",%.17g,%.17g,%lld,%lld,%lld,%s,%s", tk->seconds,
            tk->exec_seconds, (long long)tk->launches, (long long)tk->waves,
            (long long)tk->resident, mmm_time_limit_name(tk->limit),
            mmm_time_term_name(tk->dominant));
}
