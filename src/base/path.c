/* base/path.c: file names (see base/path.h). */
#include "base/path.h"

#include <string.h>
#include <strings.h>

const char *mmm__path_extension(const char *path)
{
    const char *dot = path ? strrchr(path, '.') : NULL;
    const char *slash = path ? strrchr(path, '/') : NULL;
    if (!dot || (slash && dot < slash))
        return "";
    return dot + 1;
}

int mmm__has_extension(const char *path, const char *ext)
{
    return strcasecmp(mmm__path_extension(path), ext) == 0;
}
