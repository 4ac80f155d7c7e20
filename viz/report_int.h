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

/* Escaped text in a paragraph of class "note". */
void mmm__report_note(mmm__text *t, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* The optional sections.  Failures of a sweep or a simulation become a
 * note in the page; only running out of memory is an error. */
int mmm__report_sweeps(mmm__text *t, const mmm_instance *inst,
                       const mmm_report_options *opt, mmm_error *err);
int mmm__report_simulation(mmm__text *t, const mmm_instance *inst,
                           const mmm_metrics *m, const mmm_report_options *opt,
                           mmm_error *err);
/* The predicted time, when the machine gives the time model's constants
 * (report_time.c); else nothing. */
int mmm__report_time(mmm__text *t, const mmm_instance *inst, mmm_error *err);
/* The sweep over p (report_scale.c). */
int mmm__report_scaling(mmm__text *t, const mmm_instance *inst,
                        const mmm_report_options *opt, mmm_error *err);

#endif
