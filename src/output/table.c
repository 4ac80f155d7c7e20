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
