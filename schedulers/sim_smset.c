/* sim_smset.c: the free SMs as a sorted array of disjoint intervals.  The
 * engine takes the lowest-numbered free SMs first (as a block-by-block
 * simulator would) and gives back whole batches; neighbours coalesce, so the
 * array stays as short as the fragmentation of the machine. */
#include <stdlib.h>
#include <string.h>

#include "sim_int.h"
#include "base/grow.h"

int mmm__sim_smset_init(mmm__sim_smset *s, int64_t p)
{
    memset(s, 0, sizeof *s);
    s->cap = 16;
    s->lo = malloc(s->cap * sizeof *s->lo);
    s->hi = malloc(s->cap * sizeof *s->hi);
    if (!s->lo || !s->hi) {
        mmm__sim_smset_dispose(s);
        return MMM_ENOMEM;
    }
    if (p > 0) {
        s->lo[0] = 0;
        s->hi[0] = p;
        s->n = 1;
    }
    return MMM_OK;
}

void mmm__sim_smset_dispose(mmm__sim_smset *s)
{
    free(s->lo);
    free(s->hi);
    memset(s, 0, sizeof *s);
}

static int grow(mmm__sim_smset *s)
{
    return mmm__grow2(&s->lo, &s->hi, &s->cap, s->cap + 1, sizeof *s->lo,
                      sizeof *s->hi, 1);
}

/* First index whose interval starts after lo. */
static size_t upper(const mmm__sim_smset *s, int64_t lo)
{
    size_t a = 0, b = s->n;
    while (a < b) {
        size_t m = a + (b - a) / 2;
        if (s->lo[m] <= lo)
            a = m + 1;
        else
            b = m;
    }
    return a;
}

int mmm__sim_smset_put(mmm__sim_smset *s, int64_t lo, int64_t hi)
{
    size_t i = upper(s, lo);
    int left = i > 0 && s->hi[i - 1] == lo;
    int right = i < s->n && s->lo[i] == hi;
    if (left && right) {
        s->hi[i - 1] = s->hi[i];
        memmove(s->lo + i, s->lo + i + 1, (s->n - i - 1) * sizeof *s->lo);
        memmove(s->hi + i, s->hi + i + 1, (s->n - i - 1) * sizeof *s->hi);
        s->n--;
    } else if (left) {
        s->hi[i - 1] = hi;
    } else if (right) {
        s->lo[i] = lo;
    } else {
        if (s->n == s->cap && grow(s) < 0)
            return MMM_ENOMEM;
        memmove(s->lo + i + 1, s->lo + i, (s->n - i) * sizeof *s->lo);
        memmove(s->hi + i + 1, s->hi + i, (s->n - i) * sizeof *s->hi);
        s->lo[i] = lo;
        s->hi[i] = hi;
        s->n++;
    }
    return MMM_OK;
}

int64_t mmm__sim_smset_take(mmm__sim_smset *s, int64_t want, int64_t *lo_out)
{
    int64_t got;
    if (s->n == 0 || want <= 0)
        return 0;
    *lo_out = s->lo[0];
    got = s->hi[0] - s->lo[0];
    if (got > want) {
        s->lo[0] += want;
        return want;
    }
    memmove(s->lo, s->lo + 1, (s->n - 1) * sizeof *s->lo);
    memmove(s->hi, s->hi + 1, (s->n - 1) * sizeof *s->hi);
    s->n--;
    return got;
}
