/* helpers/slurp.c: see slurp.h. */
#include "slurp.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>

char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    char *buf;
    long n;
    cr_assert_not_null(f, "cannot read %s", path);
    cr_assert_eq(fseek(f, 0, SEEK_END), 0);
    n = ftell(f);
    cr_assert_geq(n, 0);
    rewind(f);
    buf = malloc((size_t)n + 1);
    cr_assert_not_null(buf);
    cr_assert_eq(fread(buf, 1, (size_t)n, f), (size_t)n, "cannot read %s", path);
    buf[n] = '\0';
    fclose(f);
    if (len)
        *len = (size_t)n;
    return buf;
}
