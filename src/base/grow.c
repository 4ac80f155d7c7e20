/* base/grow.c: the growable array (see base/grow.h). */
#include "base/grow.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mmm/error.h"

void *mmm__grow_slow(void *p, size_t *cap, size_t need, size_t es, size_t first)
{
    size_t c = *cap ? *cap : (first ? first : 1);
    while (c < need) {
        if (c > SIZE_MAX / 2)
            return NULL;
        c *= 2;
    }
    if (es && c > SIZE_MAX / es)
        return NULL;
    void *n = realloc(p, es ? c * es : 1);
    if (!n)
        return NULL;
    *cap = c;
    return n;
}

int mmm__grow2(void *pa, void *pb, size_t *cap, size_t need, size_t esa,
               size_t esb, size_t first)
{
    void *a, *b, *na, *nb;
    size_t ca = *cap, cb = *cap;
    if (need <= *cap)
        return 0;
    /* the array pointers are read and written as bytes: pa and pb point
     * to pointers of any object type */
    memcpy(&a, pa, sizeof a);
    memcpy(&b, pb, sizeof b);
    if (!(na = mmm__grow_slow(a, &ca, need, esa, first)))
        return MMM_ENOMEM;
    memcpy(pa, &na, sizeof na); /* a is gone when realloc moved it */
    if (!(nb = mmm__grow_slow(b, &cb, need, esb, first)))
        return MMM_ENOMEM; /* *pa larger than *cap says: harmless */
    memcpy(pb, &nb, sizeof nb);
    *cap = ca;
    return 0;
}
