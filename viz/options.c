/* options.c: the defaults of the drawing module's options structs, for
 * callers that cannot use the designated-initializer macros (C++,
 * bindings). */
#include "mmm/gantt.h"
#include "mmm/render.h"
#include "mmm/report.h"

void mmm_render_options_init(mmm_render_options *opt)
{
    static const mmm_render_options defaults = MMM_RENDER_OPTIONS_INIT;
    if (opt)
        *opt = defaults;
}

void mmm_report_options_init(mmm_report_options *opt)
{
    static const mmm_report_options defaults = MMM_REPORT_OPTIONS_INIT;
    if (opt)
        *opt = defaults;
}

void mmm_gantt_options_init(mmm_gantt_options *opt)
{
    static const mmm_gantt_options defaults = MMM_GANTT_OPTIONS_INIT;
    if (opt)
        *opt = defaults;
}
