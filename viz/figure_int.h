/* figure_int.h: the figures of viz/ drawn into memory (SVG documents) for
 * the report, which embeds them in its page.  Private to viz/. */
#ifndef MMM_VIZ_FIGURE_INT_H
#define MMM_VIZ_FIGURE_INT_H

#include <stddef.h>

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

#endif
