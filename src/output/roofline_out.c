/* roofline_out.c: the output of `mmm roofline` (mmm_write_roofline): the
 * machine's roofs and each kernel's intensity, throughput and roof, in
 * text, JSON and CSV. */
#include <math.h>
#include <stdio.h>

#include "base/file.h"
#include "output/output_internal.h"

static void num_or_null(mmm__json *w, const char *key, int have, double v)
{
    mmm__json_key(w, key);
    if (have && isfinite(v))
        mmm__json_double(w, v);
    else
        mmm__json_null(w);
}

static void print_json(FILE *f, const mmm_program *prog, const char *file,
                       const mmm_roofline *r)
{
    mmm__json w;
    size_t i;
    int l2 = r->l2_bytes_per_s > 0;
    mmm__json_init(&w, f);
    mmm__json_begin_object(&w);
    mmm__json_str(&w, "program", prog->name);
    mmm__json_str(&w, "file", file);
    mmm__json_key(&w, "roofs");
    mmm__json_begin_object(&w);
    mmm__json_num(&w, "compute_ops_per_s", r->peak_ops_per_s);
    mmm__json_num(&w, "dram_bytes_per_s", r->dram_bytes_per_s);
    num_or_null(&w, "l2_bytes_per_s", l2, r->l2_bytes_per_s);
    mmm__json_num(&w, "ridge", r->ridge);
    num_or_null(&w, "l2_ridge", l2, r->l2_ridge);
    mmm__json_end_object(&w);
    mmm__json_key(&w, "kernels");
    mmm__json_begin_array(&w);
    for (i = 0; i < r->nkernels; i++) {
        const mmm_roofline_kernel *k = &r->kernels[i];
        mmm__json_begin_object_flat(&w);
        mmm__json_str(&w, "id", prog->kernels[k->kernel].id);
        mmm__json_intk(&w, "launches", k->launches);
        mmm__json_num(&w, "work", k->work);
        mmm__json_num(&w, "dram_bytes", k->dram_bytes);
        mmm__json_num(&w, "l2_bytes", k->l2_bytes);
        mmm__json_num(&w, "exec_seconds", k->exec_seconds);
        num_or_null(&w, "intensity", 1, k->intensity);
        num_or_null(&w, "l2_intensity", 1, k->l2_intensity);
        mmm__json_num(&w, "ops_per_s", k->throughput);
        mmm__json_num(&w, "roof_ops_per_s", k->roof);
        mmm__json_num(&w, "fraction_of_roof", k->fraction);
        mmm__json_str(&w, "bound", mmm_roofline_bound_name(k->bound));
        mmm__json_str(&w, "dominant", mmm_time_term_name(k->dominant));
        mmm__json_end_object(&w);
    }
    mmm__json_end_array(&w);
    mmm__json_intk(&w, "skipped", (int64_t)r->nskipped);
    mmm__json_end_object(&w);
    mmm__json_finish(&w);
}

static void print_csv(FILE *f, const mmm_program *prog, const mmm_roofline *r)
{
    size_t i;
    fprintf(f, "id,launches,work,dram_bytes,l2_bytes,exec_seconds,intensity,"
               "l2_intensity,ops_per_s,roof_ops_per_s,fraction_of_roof,bound,dominant\n");
    for (i = 0; i < r->nkernels; i++) {
        const mmm_roofline_kernel *k = &r->kernels[i];
        mmm__csv_id(f, prog->kernels[k->kernel].id);
        fprintf(f, ",%lld,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%s,%s\n",
                (long long)k->launches, k->work, k->dram_bytes, k->l2_bytes,
                k->exec_seconds, k->intensity, k->l2_intensity, k->throughput, k->roof,
                k->fraction, mmm_roofline_bound_name(k->bound),
                mmm_time_term_name(k->dominant));
    }
}

/* A rate in its unit with an SI prefix: "1.23 Tops/s". */
static char *rate(double v, const char *unit, char *buf, size_t size)
{
    static const char pre[] = " kMGTPE";
    int i = 0;
    while (fabs(v) >= 1000 && i < 6) {
        v /= 1000;
        i++;
    }
    if (i == 0)
        snprintf(buf, size, "%.4g %s", v, unit);
    else
        snprintf(buf, size, "%.4g %c%s", v, pre[i], unit);
    return buf;
}

static int print_text(FILE *f, const mmm_program *prog, const char *file,
                      const mmm_roofline *r)
{
    static const char *head[] = {"kernel", "launches", "work", "DRAM bytes",
                                 "ops/byte", "attained", "roof", "of roof",
                                 "bound", "dominant"};
    mmm__table t;
    char a[64];
    size_t i, c;
    fprintf(f, "roofline of %s (%s) under the time model\n", prog->name, file);
    fprintf(f, "  compute roof  %s\n", rate(r->peak_ops_per_s, "op/s", a, sizeof a));
    fprintf(f, "  DRAM roof     %s (ridge at %.4g op/byte)\n",
            rate(r->dram_bytes_per_s, "B/s", a, sizeof a), r->ridge);
    if (r->l2_bytes_per_s > 0)
        fprintf(f, "  L2 roof       %s (ridge at %.4g op/byte)\n",
                rate(r->l2_bytes_per_s, "B/s", a, sizeof a), r->l2_ridge);
    else
        fprintf(f, "  L2 roof       none (the machine gives no l2_bytes_per_cycle)\n");
    if (r->nkernels == 0) {
        fprintf(f, "\nno kernel with operations\n");
        return 0;
    }
    mmm__table_init(&t, sizeof head / sizeof head[0]);
    for (c = 0; c < sizeof head / sizeof head[0]; c++)
        if (mmm__table_add(&t, head[c]) < 0)
            goto oom;
    for (i = 0; i < r->nkernels; i++) {
        const mmm_roofline_kernel *k = &r->kernels[i];
        char cells[10][64];
        snprintf(cells[0], 64, "%s", prog->kernels[k->kernel].id);
        snprintf(cells[1], 64, "%lld", (long long)k->launches);
        mmm__fmt_num(k->work, cells[2], 64);
        mmm__fmt_num(k->dram_bytes, cells[3], 64);
        if (isfinite(k->intensity))
            snprintf(cells[4], 64, "%.4g", k->intensity);
        else
            snprintf(cells[4], 64, "-");
        rate(k->throughput, "op/s", cells[5], 64);
        rate(k->roof, "op/s", cells[6], 64);
        snprintf(cells[7], 64, "%.1f%%", 100 * k->fraction);
        snprintf(cells[8], 64, "%s", mmm_roofline_bound_name(k->bound));
        snprintf(cells[9], 64, "%s", mmm_time_term_name(k->dominant));
        for (c = 0; c < 10; c++)
            if (mmm__table_add(&t, cells[c]) < 0)
                goto oom;
    }
    fputc('\n', f);
    mmm__table_print(&t, f, "  ", 1ul | 1ul << 8 | 1ul << 9);
    mmm__table_dispose(&t);
    if (r->nskipped)
        fprintf(f, "  (%zu kernel%s without operations left out: copies, sets)\n",
                r->nskipped, r->nskipped == 1 ? "" : "s");
    return 0;
oom:
    mmm__table_dispose(&t);
    return -1;
}

int mmm_write_roofline(mmm_writer *w, const mmm_program *prog, const char *file,
                       const mmm_roofline *r, mmm_error *err)
{
    int rc = mmm__writer_check(w, MMM__ALL_FORMATS, "mmm_write_roofline", err);
    if (rc < 0)
        return rc;
    if (!prog || !r)
        return mmm_error_set(err, MMM_EINVAL, NULL, 0,
                             "mmm_write_roofline: no program or roofline");
    file = file ? mmm__input_name(file) : prog->file;
    if (w->format == MMM_FORMAT_JSON)
        print_json(w->f, prog, file, r);
    else if (w->format == MMM_FORMAT_CSV)
        print_csv(w->f, prog, r);
    else if (print_text(w->f, prog, file, r) < 0)
        return mmm_error_set(err, MMM_ENOMEM, NULL, 0, "out of memory");
    return MMM_OK;
}
