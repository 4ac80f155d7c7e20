/* report_table.c: the report's data tables (report_int.h).  The cells are
 * kept until the table ends, so that each numeric column gets one format
 * chosen from all its values: integers as integers, digits grouped; reals
 * with the decimals that give the column's largest value REAL_DIGITS
 * significant digits (RATIO_DIGITS for ratios), less those that are 0 in
 * every value; m·10ⁿ for a column whose values reach 10¹⁵ (or stay
 * below 10⁻³).  Every cell of a numeric column carries its exact value in
 * data-v, which the page's script sorts by. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "numfmt.h"
#include "report_int.h"

#define REAL_DIGITS 6
#define RATIO_DIGITS 4
#define EXACT_INT 9007199254740992.0 /* 2^53 */

enum { CELL_ROW, CELL_EMPTY, CELL_NUM, CELL_HTML };

void mmm__tab_init(mmm__tab *tb, const char *id)
{
    memset(tb, 0, sizeof *tb);
    tb->id = id;
    mmm__text_init(&tb->html);
}

void mmm__tab_col(mmm__tab *tb, const char *head, mmm__tab_kind kind)
{
    if (tb->ncols < MMM__TAB_MAXCOLS) {
        tb->head[tb->ncols] = head;
        tb->kind[tb->ncols++] = kind;
    } else {
        tb->oom = 1; /* a programming error: the table is dropped */
    }
}

static mmm__tab_cell *add(mmm__tab *tb, int kind)
{
    mmm__tab_cell *c;
    if (tb->oom)
        return NULL;
    if (tb->ncells == tb->cap) {
        size_t cap = tb->cap ? 2 * tb->cap : 64;
        mmm__tab_cell *n = realloc(tb->cells, cap * sizeof *n);
        if (!n) {
            tb->oom = 1;
            return NULL;
        }
        tb->cells = n;
        tb->cap = cap;
    }
    c = &tb->cells[tb->ncells++];
    c->kind = kind;
    c->v = NAN;
    c->off = 0;
    return c;
}

void mmm__tab_row(mmm__tab *tb, const char *cls)
{
    mmm__tab_cell *c = add(tb, CELL_ROW);
    if (c && cls) {
        c->off = tb->html.len + 1;
        mmm__text_put(&tb->html, cls);
        mmm__text_putn(&tb->html, "", 1);
    }
    tb->nrows++;
}

void mmm__tab_num(mmm__tab *tb, double v)
{
    mmm__tab_cell *c = add(tb, CELL_NUM);
    if (c)
        c->v = v;
}

void mmm__tab_empty(mmm__tab *tb)
{
    add(tb, CELL_EMPTY);
}

void mmm__tab_html(mmm__tab *tb, double sort, const char *fmt, ...)
{
    mmm__tab_cell *c = add(tb, CELL_HTML);
    char buf[2048];
    va_list ap;
    if (!c)
        return;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    c->v = sort;
    c->off = tb->html.len + 1;
    mmm__text_put(&tb->html, buf);
    mmm__text_putn(&tb->html, "", 1);
}

void mmm__tab_text(mmm__tab *tb, double sort, const char *text, int code)
{
    mmm__tab_cell *c = add(tb, CELL_HTML);
    if (!c)
        return;
    c->v = sort;
    c->off = tb->html.len + 1;
    if (code)
        mmm__text_put(&tb->html, "<code>");
    mmm__text_put_xml(&tb->html, text ? text : "");
    if (code)
        mmm__text_put(&tb->html, "</code>");
    mmm__text_putn(&tb->html, "", 1);
}

char *mmm__report_num(double v, char *buf, size_t size)
{
    double a = fabs(v);
    int dec;
    if (!isfinite(v) || (v == floor(v) && a < EXACT_INT))
        return mmm__fmt_grouped(v, 0, buf, size);
    if (a >= 1e15 || a < 1e-3)
        return mmm__fmt_sci(v, 6, buf, size);
    dec = 5 - (int)floor(log10(a));
    mmm__fmt_grouped(v, dec < 0 ? 0 : dec, buf, size);
    if (dec > 0 && strchr(buf, '.')) { /* trailing zeros dropped */
        char *end = buf + strlen(buf) - 1;
        while (*end == '0')
            *end-- = '\0';
        if (*end == '.')
            *end = '\0';
    }
    return buf;
}

/* The format of a numeric column. */
typedef struct colfmt {
    int integer;   /* every value an integer below 2^53 */
    int digits;    /* significant digits of the largest value */
    int sci;       /* m·10ⁿ */
    int decimals;  /* otherwise */
    double scale;  /* seconds: the unit's size */
    const char *unit;
} colfmt;

static void choose(const mmm__tab *tb, size_t col, colfmt *f)
{
    size_t i, n = tb->ncols + 1;
    double big = 0;
    memset(f, 0, sizeof *f);
    f->integer = tb->kind[col] != MMM__TAB_RATIO;
    f->digits = tb->kind[col] == MMM__TAB_RATIO ? RATIO_DIGITS : REAL_DIGITS;
    f->scale = 1;
    for (i = col + 1; i < tb->ncells; i += n) {
        double v = tb->cells[i].v;
        if (tb->cells[i].kind != CELL_NUM || !isfinite(v))
            continue;
        if (fabs(v) > big)
            big = fabs(v);
        if (v != floor(v) || fabs(v) >= EXACT_INT)
            f->integer = 0;
    }
    if (tb->kind[col] == MMM__TAB_SECONDS) {
        /* the unit in which the largest value is at least 1 */
        f->integer = 0;
        f->scale = big >= 1 || big == 0 ? 1 : big >= 1e-3 ? 1e-3 : big >= 1e-6 ? 1e-6 : 1e-9;
        f->unit = f->scale == 1 ? "s" : f->scale == 1e-3 ? "ms"
                : f->scale == 1e-6 ? "\xc2\xb5s" : "ns";
        big /= f->scale;
    }
    if (tb->kind[col] == MMM__TAB_PERCENT) {
        f->integer = 0;
        f->decimals = 1;
        f->unit = "%";
        return;
    }
    if (f->integer)
        return;
    if (big >= 1e15 || (big > 0 && big < 1e-3)) {
        f->sci = 1;
        return;
    }
    f->decimals = big > 0 ? f->digits - 1 - (int)floor(log10(big)) : 0;
    f->decimals = f->decimals < 0 ? 0 : f->decimals > 9 ? 9 : f->decimals;
    /* no decimal that is 0 in every value: 35, 17.5, 8.75 as 35.00,
     * 17.50, 8.75 (not 35.0000) */
    {
        int need = 0;
        for (i = col + 1; i < tb->ncells && need < f->decimals; i += n) {
            char b[400], *end;
            int d;
            if (tb->cells[i].kind != CELL_NUM || !isfinite(tb->cells[i].v))
                continue;
            snprintf(b, sizeof b, "%.*f", f->decimals, tb->cells[i].v / f->scale);
            end = b + strlen(b) - 1;
            for (d = f->decimals; d > need && *end == '0'; d--)
                end--;
            need = d;
        }
        f->decimals = need;
    }
}

static void put_value(mmm__text *t, double v, const colfmt *f)
{
    char b[96];
    if (f->sci)
        mmm__text_put(t, mmm__fmt_sci(v / f->scale, f->digits, b, sizeof b));
    else
        mmm__text_put(t, mmm__fmt_grouped(v / f->scale, f->integer ? 0 : f->decimals, b,
                                          sizeof b));
    if (f->unit && strcmp(f->unit, "%") == 0)
        mmm__text_put(t, "%");
}

static void sort_attr(mmm__text *t, double v)
{
    if (v == floor(v) && fabs(v) < EXACT_INT)
        mmm__text_printf(t, " data-v=\"%.0f\"", v);
    else if (isfinite(v)) {
        /* the shortest of 15 and 17 digits that reads back as v */
        char b[40];
        snprintf(b, sizeof b, "%.15g", v);
        if (strtod(b, NULL) != v)
            snprintf(b, sizeof b, "%.17g", v);
        mmm__text_printf(t, " data-v=\"%s\"", b);
    }
    else if (!isnan(v))
        mmm__text_put(t, v < 0 ? " data-v=\"-Infinity\"" : " data-v=\"Infinity\"");
}

int mmm__tab_end(mmm__tab *tb, mmm__text *t, mmm_error *err)
{
    colfmt f[MMM__TAB_MAXCOLS];
    size_t i, c = 0, n = tb->ncols + 1;
    int rc = 0;
    if (tb->oom || tb->html.oom) {
        rc = mmm_error_set(err, MMM_ENOMEM, NULL, 0, "out of memory");
        goto out;
    }
    if (tb->ncells != tb->nrows * n) { /* a row of the wrong width */
        rc = mmm_error_set(err, MMM_EINVAL, NULL, 0, "report: a table row has %zu cells "
                           "for %zu columns", tb->nrows ? tb->ncells / tb->nrows - 1 : 0,
                           tb->ncols);
        goto out;
    }
    for (i = 0; i < tb->ncols; i++)
        choose(tb, i, &f[i]);
    mmm__text_put(t, "<table class=\"data\"");
    if (tb->id)
        mmm__text_printf(t, " id=\"%s\"", tb->id);
    mmm__text_put(t, ">\n<thead><tr>");
    for (i = 0; i < tb->ncols; i++) {
        int num = tb->kind[i] != MMM__TAB_TEXT;
        mmm__text_printf(t, "<th%s>%s", num ? " class=\"n\"" : "", tb->head[i]);
        if (tb->kind[i] == MMM__TAB_SECONDS && f[i].unit)
            mmm__text_printf(t, " (%s)", f[i].unit);
        mmm__text_put(t, "</th>");
    }
    mmm__text_put(t, "</tr></thead>\n<tbody>\n");
    for (i = 0; i < tb->ncells; i++) {
        const mmm__tab_cell *cell = &tb->cells[i];
        int num;
        if (cell->kind == CELL_ROW) {
            if (i)
                mmm__text_put(t, "</tr>\n");
            if (cell->off)
                mmm__text_printf(t, "<tr class=\"%s\">", tb->html.s + cell->off - 1);
            else
                mmm__text_put(t, "<tr>");
            c = 0;
            continue;
        }
        num = tb->kind[c] != MMM__TAB_TEXT;
        mmm__text_put(t, num ? "<td class=\"n\"" : "<td");
        if (cell->kind != CELL_EMPTY)
            sort_attr(t, cell->v);
        mmm__text_put(t, ">");
        if (cell->kind == CELL_NUM)
            put_value(t, cell->v, &f[c]);
        else if (cell->kind == CELL_HTML)
            mmm__text_put(t, tb->html.s + cell->off - 1);
        mmm__text_put(t, "</td>");
        c++;
    }
    mmm__text_put(t, tb->ncells ? "</tr>\n</tbody>\n</table>\n" : "</tbody>\n</table>\n");
out:
    free(tb->cells);
    mmm__text_dispose(&tb->html);
    memset(tb, 0, sizeof *tb);
    return rc;
}
