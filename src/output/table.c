/* table.c: text tables whose columns are as wide as their widest cell
 * (numbers of any length never run together). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output/output_internal.h"
#include "base/grow.h"

void mmm__table_init(mmm__table *t, size_t ncols)
{
    memset(t, 0, sizeof *t);
    t->ncols = ncols;
}

int mmm__table_add(mmm__table *t, const char *cell)
{
    char *copy, **nc = mmm__grow(t->cells, &t->cap, t->n + 1, sizeof *nc, 64);
    if (!nc)
        return -1;
    t->cells = nc;
    copy = strdup(cell ? cell : "");
    if (!copy)
        return -1;
    t->cells[t->n++] = copy;
    return 0;
}

/* Display width of UTF-8 text: one column per character. */
static size_t width(const char *s)
{
    size_t w = 0;
    for (; *s; s++)
        if (((unsigned char)*s & 0xC0) != 0x80)
            w++;
    return w;
}

void mmm__table_print(const mmm__table *t, FILE *f, const char *indent,
                     unsigned long left_aligned)
{
    size_t *w, i, c;
    if (t->ncols == 0 || t->n == 0)
        return;
    w = calloc(t->ncols, sizeof *w);
    if (!w)
        return;
    for (i = 0; i < t->n; i++) {
        size_t cw = width(t->cells[i]);
        if (cw > w[i % t->ncols])
            w[i % t->ncols] = cw;
    }
    for (i = 0; i < t->n; i += t->ncols) {
        fputs(indent, f);
        for (c = 0; c < t->ncols && i + c < t->n; c++) {
            const char *s = t->cells[i + c];
            size_t pad = w[c] - width(s);
            int left = c < 8 * sizeof left_aligned && (left_aligned >> c) & 1;
            int last = c + 1 == t->ncols;
            if (last && left && !*s)
                break; /* no trailing blanks for an empty last cell */
            if (c > 0)
                fputs("  ", f);
            if (!left)
                fprintf(f, "%*s", (int)pad, "");
            fputs(s, f);
            if (left && !last)
                fprintf(f, "%*s", (int)pad, "");
        }
        fputc('\n', f);
    }
    free(w);
}

void mmm__table_dispose(mmm__table *t)
{
    size_t i;
    for (i = 0; i < t->n; i++)
        free(t->cells[i]);
    free(t->cells);
    memset(t, 0, sizeof *t);
}

/* ------------------------------------------------------------------ */
/* The per-kernel tables of the models' sections (tmm_out.c, time_out.c) */

size_t mmm__id_width(const mmm_program *prog)
{
    size_t i, width = 6;
    for (i = 0; i < prog->nkernels; i++) {
        size_t n = strlen(prog->kernels[i].id);
        if (n > width)
            width = n < 32 ? n : 32;
    }
    return width;
}

void mmm__print_kernel_path(FILE *f, const mmm_instance *inst, const uint32_t *path,
                       size_t len)
{
    size_t i;
    for (i = 0; i < len; i++) {
        fprintf(f, "%s%s", i ? " -> " : "", inst->program->kernels[path[i]].id);
        if (inst->kernels[path[i]].repeat != 1)
            fprintf(f, " x%lld", (long long)inst->kernels[path[i]].repeat);
    }
    fputc('\n', f);
}

/* 1 when the table must stop at row i (and says so). */
int mmm__rows_done(FILE *f, size_t i, size_t n, int64_t max_rows)
{
    if (max_rows > 0 && (int64_t)i >= max_rows) {
        fprintf(f, "... %zu more kernels (--max-rows 0 shows all)\n", n - i);
        return 1;
    }
    return 0;
}
