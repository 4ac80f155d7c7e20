/* options.c: the defaults of the loader's options struct, for callers that
 * cannot use the designated-initializer macro (C++, bindings). */
#include "mmm/program.h"

void mmm_load_options_init(mmm_load_options *opt)
{
    static const mmm_load_options defaults = MMM_LOAD_OPTIONS_INIT;
    if (opt)
        *opt = defaults;
}
