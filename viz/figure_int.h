/* figure_int.h: the figures of viz/ drawn into memory (SVG documents) for
 * the report, which embeds them in its page.  Private to viz/. */
#ifndef MMM_VIZ_FIGURE_INT_H
#define MMM_VIZ_FIGURE_INT_H

#include <math.h>
#include <stddef.h>
#include <stdio.h>

#include "mmm/gantt.h"
#include "mmm/plot.h"
#include "mmm/scale.h"
#include "mmm/sweep_plot.h"

/* Each returns 0 and *out (malloc'ed, NUL-terminated, *len bytes), or an
 * error with *out NULL: what mmm_plot_write, mmm_gantt_write,
 * mmm_speedup_plot_write and mmm_sweep_plot_write would write into a file named *.svg. */
int mmm__plot_svg(const mmm_plot *plot, char **out, size_t *len, mmm_error *err);
int mmm__gantt_svg(char **out, size_t *len, const mmm_sim_result *r,
                   const mmm_program *prog, const mmm_gantt_options *opt,
                   mmm_error *err);
int mmm__speedup_plot_svg(const mmm_speedup *s, const char *program_name, char **svg,
                          size_t *len, mmm_error *err);
int mmm__sweep_plot_svg(mmm_sweep_plot *sp, const mmm_sweep_result *res,
                        mmm_instance *inst, const mmm_sweep_spec *spec, char **out,
                        size_t *len, mmm_error *err);

/* A number in a figure's text: an integer in full, a non-integer from
 * 1000 on with one decimal (no integer digit lost), else six digits. */
static inline char *mmm__fig_num(double v, char *buf, size_t size)
{
    if (v == floor(v) && fabs(v) < 1e15)
        snprintf(buf, size, "%.0f", v);
    else if (fabs(v) >= 1000 && fabs(v) < 1e15)
        snprintf(buf, size, "%.1f", v);
    else
        snprintf(buf, size, "%.6g", v);
    return buf;
}

#endif
