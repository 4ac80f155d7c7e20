/* report_int.h: what the parts of the HTML report share.  Private to
 * viz/report*.c: report.c calls the sections of report_sweep.c and
 * report_sim.c; all three use the helpers of report_html.c. */
#ifndef MMM_VIZ_REPORT_INT_H
#define MMM_VIZ_REPORT_INT_H

#include <stddef.h>
#include <stdint.h>

#include "mmm/eval.h"
#include "mmm/metrics.h"
#include "mmm/report.h"
#include "render_text.h"
#include "base/abi.h"

/* Append an SVG document inline: everything before "<svg" (XML
 * declaration, DOCTYPE, comments) is dropped, and its ids are prefixed
 * with prefix (unique in the page). */
void mmm__report_put_svg(mmm__text *t, const char *svg, const char *prefix);

/* Pass the error e of a step on to the caller's err (which may be NULL)
 * and return its code. */
int mmm__report_fail(mmm_error *err, const mmm_error *e);

/* Draw a figure into memory with draw(&svg, &len, arg, err) (an SVG
 * document, malloc'ed) and append it inline (ids prefixed with prefix); a
 * failure other than MMM_ENOMEM becomes a note in the page.  0 or
 * MMM_ENOMEM. */
typedef int (*mmm__report_draw_fn)(char **svg, size_t *len, const void *arg,
                                   mmm_error *err);
int mmm__report_figure(mmm__text *t, mmm__report_draw_fn draw, const void *arg,
                      const char *prefix, mmm_error *err);

/* Tell opt's progress function (when it has one) what the report does. */
void mmm__report_progress(const mmm_report_options *opt, const char *what, uint64_t done,
                          uint64_t total);
/* Set the progress function of a simulation's options from opt's. */
#define MMM__REPORT_PROGRESS_TO(so, opt)                                      \
    ((so).progress = MMM__PROGRESS(opt, 2),                                   \
     (so).progress_payload = (so).progress ? (opt)->progress_payload : NULL)

/* The page's script (report_script.c) in a <script> element, and its
 * hash as a Content-Security-Policy source ('sha256-...'). */
void mmm__report_script(mmm__text *t);
void mmm__report_script_hash(mmm__text *t);

/* Escaped text in a paragraph of class "note". */
void mmm__report_note(mmm__text *t, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* A data table (report_table.c): columns, then rows of cells, written at
 * the end with one number format per numeric column (integers as
 * integers with grouped digits, reals with a fixed number of decimals,
 * seconds in one unit named in the header) and each cell's value in
 * data-v for the page's sorting.  Allocation failures are remembered and
 * reported once, by mmm__tab_end. */
typedef enum mmm__tab_kind {
    MMM__TAB_TEXT,    /* text cells, left aligned */
    MMM__TAB_NUM,     /* numbers */
    MMM__TAB_RATIO,   /* numbers, reals to 4 significant digits */
    MMM__TAB_SECONDS, /* seconds, shown in s, ms, µs or ns */
    MMM__TAB_PERCENT  /* 0..100, one decimal and "%" */
} mmm__tab_kind;
#define MMM__TAB_MAXCOLS 12
typedef struct mmm__tab_cell {
    double v;   /* the number, or the sort key of a text (NAN: none) */
    size_t off; /* text: its offset in html, plus 1 */
    int kind;
} mmm__tab_cell;
typedef struct mmm__tab {
    const char *id; /* the table's id attribute, or NULL */
    size_t ncols, nrows, ncells, cap;
    const char *head[MMM__TAB_MAXCOLS]; /* header cells, HTML */
    mmm__tab_kind kind[MMM__TAB_MAXCOLS];
    mmm__tab_cell *cells; /* per row: the row's class, then its cells */
    mmm__text html;       /* the texts, each ending in NUL */
    int oom;
} mmm__tab;
void mmm__tab_init(mmm__tab *tb, const char *id);
void mmm__tab_col(mmm__tab *tb, const char *head, mmm__tab_kind kind);
/* Start a row (cls: the class of its <tr>, or NULL); then one cell per
 * column: */
void mmm__tab_row(mmm__tab *tb, const char *cls);
void mmm__tab_num(mmm__tab *tb, double v);
void mmm__tab_empty(mmm__tab *tb);
/* HTML made by fmt (at most 2 KiB), sorted as sort (NAN: as text). */
void mmm__tab_html(mmm__tab *tb, double sort, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
/* Text, escaped; in <code> when code. */
void mmm__tab_text(mmm__tab *tb, double sort, const char *text, int code);
/* Write the table to t and release tb: 0, MMM_ENOMEM or MMM_EINVAL (a row
 * of the wrong width). */
int mmm__tab_end(mmm__tab *tb, mmm__text *t, mmm_error *err);

/* One number outside a table: an integer in full with grouped digits
 * ("85 540 166 000"), a real with 6 significant digits ("26.0453",
 * "1 282 963"; m·10ⁿ from 10¹⁵ on and below 10⁻³). */
char *mmm__report_num(double v, char *buf, size_t size);

/* The optional sections.  Failures of a sweep or a simulation become a
 * note in the page; only running out of memory is an error. */
int mmm__report_sweeps(mmm__text *t, const mmm_instance *inst,
                       const mmm_report_options *opt, mmm_error *err);
int mmm__report_simulation(mmm__text *t, const mmm_instance *inst,
                           const mmm_metrics *m, const mmm_report_options *opt,
                           mmm_error *err);
/* The predicted time, when the machine gives the time model's constants
 * (report_time.c); else nothing. */
int mmm__report_time(mmm__text *t, const mmm_instance *inst,
                     const mmm_report_options *opt, mmm_error *err);

/* The roofline of the kernels under the same machine (report_roofline.c);
 * else nothing. */
int mmm__report_roofline(mmm__text *t, const mmm_instance *inst,
                         const mmm_report_options *opt, mmm_error *err);

/* Rows of the per-kernel tables when the options say 0 (the script folds
 * them to 50 shown). */
#define MMM__REPORT_MAX_ROWS 5000
/* The sweep over p (report_scale.c). */
int mmm__report_scaling(mmm__text *t, const mmm_instance *inst,
                        const mmm_report_options *opt, mmm_error *err);

#endif
