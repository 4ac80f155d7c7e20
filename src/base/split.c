/* split.c: a comma list split at its top-level commas (--values of
 * optimize, --param of profile run). */
#include "base/split.h"

int mmm__split_list(const char *text, mmm__item_fn fn, void *payload)
{
    const char *p = text, *start = text;
    int depth = 0, rc;
    for (;; p++) {
        if (*p == '(')
            depth++;
        else if (*p == ')')
            depth--;
        if (*p != '\0' && !(*p == ',' && depth == 0))
            continue;
        if ((rc = fn(start, (size_t)(p - start), payload)) != 0)
            return rc;
        if (*p == '\0')
            return 0;
        start = p + 1;
    }
}
