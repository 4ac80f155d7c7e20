/* version.c: the library's version, from project(VERSION ...) through the
 * generated mmm/version.h. */
#include "mmm/version.h"

const char *mmm_version(void)
{
    return MMM_VERSION_STRING;
}

int mmm_version_number(void)
{
    return MMM_VERSION_NUMBER;
}
