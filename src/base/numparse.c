/* numparse.c: whole decimal integers as a command line gives them
 * (mmm_parse_int64, mmm_parse_u64 of mmm/error.h). */
#include "mmm/error.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>

int mmm_parse_int64(const char *s, int64_t *out)
{
    char *end;
    long long v;
    if (!s || !*s || isspace((unsigned char)*s) || !out)
        return -1;
    errno = 0;
    v = strtoll(s, &end, 10);
    if (errno || *end || end == s)
        return -1;
    *out = (int64_t)v;
    return 0;
}

int mmm_parse_u64(const char *s, uint64_t *out)
{
    char *end;
    unsigned long long v;
    if (!s || !*s || *s == '-' || isspace((unsigned char)*s) || !out)
        return -1;
    errno = 0;
    v = strtoull(s, &end, 10);
    if (errno || *end || end == s)
        return -1;
    *out = (uint64_t)v;
    return 0;
}
