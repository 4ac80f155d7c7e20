/* attr.c: the accessors of the block attribute table (mmm/attr.h). */
#include <string.h>

#include "mmm/attr.h"

static const struct {
    const char *name, *unit, *default_text, *meaning;
    mmm_attr_type type;
    double dflt;
} rows[MMM_ATTR_N] = {
#define ROW_(id, name, type, dflt, unit, dtext, meaning) \
    {name, unit, dtext, meaning, type, dflt},
    MMM_ATTR_TABLE(ROW_)
#undef ROW_
};

static int in_range(mmm_attr a)
{
    return (int)a >= 0 && (int)a < MMM_ATTR_N;
}

size_t mmm_attr_count(void)
{
    return MMM_ATTR_N;
}

const char *mmm_attr_name(mmm_attr a)
{
    return in_range(a) ? rows[a].name : NULL;
}

int mmm_attr_find(const char *name)
{
    for (int a = 0; name && a < MMM_ATTR_N; a++)
        if (!strcmp(rows[a].name, name))
            return a;
    return -1;
}

mmm_attr_type mmm_attr_type_of(mmm_attr a)
{
    return in_range(a) ? rows[a].type : MMM_ATTR_REAL;
}

double mmm_attr_default(mmm_attr a)
{
    return in_range(a) ? rows[a].dflt : 0;
}

const char *mmm_attr_unit(mmm_attr a)
{
    return in_range(a) ? rows[a].unit : NULL;
}

const char *mmm_attr_default_text(mmm_attr a)
{
    return in_range(a) ? rows[a].default_text : NULL;
}

const char *mmm_attr_meaning(mmm_attr a)
{
    return in_range(a) ? rows[a].meaning : NULL;
}
