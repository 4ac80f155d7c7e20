/* base/grow.h: the growable array of the library.  Internal.
 *
 *     double *x = mmm__grow(c->x, &c->cap, c->n + 1, sizeof *x, 256);
 *     if (!x)
 *         return MMM_ENOMEM;   (c->x and c->cap are untouched)
 *     c->x = x;
 *
 * Two parallel arrays that share one capacity: mmm__grow2. */
#ifndef MMM_BASE_GROW_H
#define MMM_BASE_GROW_H

#include <stddef.h>

/* The array at p (capacity *cap elements of es bytes; p may be NULL when
 * *cap is 0) with room for at least need elements: p itself when it has
 * it, else p reallocated to *cap doubled (first when *cap is 0) as often
 * as it takes, and *cap updated.  NULL when the memory is not there or the
 * size would overflow: then p is still valid and *cap unchanged.  need
 * must be at least 1 (so that success is never NULL). */
void *mmm__grow_slow(void *p, size_t *cap, size_t need, size_t es, size_t first);

static inline void *mmm__grow(void *p, size_t *cap, size_t need, size_t es,
                              size_t first)
{
    return need <= *cap ? p : mmm__grow_slow(p, cap, need, es, first);
}

/* The same for two parallel arrays *pa and *pb (pointers to the array
 * pointers, e.g. &c->x, &c->y) of one capacity *cap: both grow, or (0 or
 * MMM_ENOMEM) neither pointer nor *cap changes. */
int mmm__grow2(void *pa, void *pb, size_t *cap, size_t need, size_t esa,
               size_t esb, size_t first);

#endif
