/* draw_plugin.c: the entry point of mmm-draw.so (see draw_plugin.h); the
 * drawing functions themselves are viz/'s public ones. */
#include "plugin/draw_plugin.h"

#include "mmm/version.h"

const char *mmm_draw_plugin_version(void)
{
    return MMM_VERSION_STRING;
}
