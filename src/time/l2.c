/* l2.c: the L2 of the time model (docs/time.md, section 3, "The L2"): at
 * the granularity of arrays, least recently used first.
 *
 * A launch touching arrays of S_a bytes (its footprint F = the sum, plus
 * the streamed bytes it moves in no array) leaves f = min(1, C/F) of each
 * in the L2 of C bytes, of which a later pass in the same order finds
 * g = 1 for F <= C, else max(0, 2C/F - 1): the stream's later bytes push
 * out its earlier ones before the pass comes back to them (measured on
 * the H200 by calibrate's re-reads: 47 to 90 MiB arrays give C within
 * 45 +- 3 MB this way).  Of what it reads from array a, the first S_a
 * bytes are found in the L2 in the share a re-read of the array found
 * before it (r_a), the rest, read again within the launch, in the share
 * g; what misses comes from DRAM.  Its writes go into the L2, and the
 * array stays dirty until it leaves; the share of a written array that
 * does not stay is written back by the launch.  After the launch each
 * array it touched holds f·S_a (g·S_a found again), and the arrays it did
 * not touch give up room, least recently used first, until everything
 * fits; what a dirty array gives up is written back by this launch. */
#include <stdlib.h>
#include <string.h>

#include "time/l2.h"

void mmm__l2_init(mmm__l2 *s, double capacity)
{
    memset(s, 0, sizeof *s);
    s->capacity = capacity > 0 ? capacity : 0;
}

void mmm__l2_dispose(mmm__l2 *s)
{
    free(s->e);
    memset(s, 0, sizeof *s);
}

static mmm__l2_entry *find(mmm__l2 *s, int64_t id)
{
    for (size_t i = 0; i < s->n; i++)
        if (s->e[i].id == id)
            return &s->e[i];
    return NULL;
}

static mmm__l2_entry *add(mmm__l2 *s, int64_t id, double size)
{
    if (s->n == s->cap) {
        size_t cap = s->cap ? 2 * s->cap : 8;
        mmm__l2_entry *e = realloc(s->e, cap * sizeof *e);
        if (!e)
            return NULL;
        s->e = e;
        s->cap = cap;
    }
    mmm__l2_entry *e = &s->e[s->n++];
    memset(e, 0, sizeof *e);
    e->id = id;
    e->size = size;
    return e;
}

static int by_stamp(const void *a, const void *b)
{
    const mmm__l2_entry *x = *(mmm__l2_entry *const *)a,
                        *y = *(mmm__l2_entry *const *)b;
    return (x->stamp > y->stamp) - (x->stamp < y->stamp);
}

/* The arrays the launch did not touch give up room, least recently used
 * first, until they hold at most budget bytes; what a dirty one gives up
 * is written back (*dram). */
static int evict(mmm__l2 *s, uint64_t now, double budget, double *dram)
{
    mmm__l2_entry **old = NULL;
    size_t n = 0;
    double held = 0;
    for (size_t i = 0; i < s->n; i++)
        if (s->e[i].stamp != now)
            held += s->e[i].resident, n++;
    if (held <= budget || n == 0)
        return 0;
    if (!(old = malloc(n * sizeof *old)))
        return -1;
    n = 0;
    for (size_t i = 0; i < s->n; i++)
        if (s->e[i].stamp != now)
            old[n++] = &s->e[i];
    qsort(old, n, sizeof *old, by_stamp);
    for (size_t i = 0; i < n && held > budget; i++) {
        double cut = old[i]->resident < held - budget ? old[i]->resident
                                                      : held - budget;
        old[i]->resident -= cut;
        if (old[i]->found > old[i]->resident)
            old[i]->found = old[i]->resident;
        held -= cut;
        if (old[i]->dirty)
            *dram += cut;
        if (old[i]->resident <= 0) {
            old[i]->resident = 0;
            old[i]->dirty = 0;
        }
    }
    free(old);
    /* arrays no longer held are forgotten */
    size_t k = 0;
    for (size_t i = 0; i < s->n; i++)
        if (s->e[i].resident > 0 || s->e[i].stamp == now)
            s->e[k++] = s->e[i];
    s->n = k;
    return 0;
}

int mmm__l2_launch(mmm__l2 *s, const mmm__l2_use *use, size_t n,
                   double unnamed_read, double unnamed_written, mmm__l2_cost *cost)
{
    double unnamed = unnamed_read + unnamed_written;
    double footprint = unnamed, dram = unnamed, l2 = unnamed, wr = unnamed_written;
    for (size_t i = 0; i < n; i++) {
        footprint += use[i].size;
        l2 += use[i].read + use[i].written;
    }
    if (s->capacity <= 0) { /* no L2 modelled: everything from DRAM */
        for (size_t i = 0; i < n; i++) {
            dram += use[i].read + use[i].written;
            wr += use[i].written;
        }
        cost->dram = dram;
        cost->l2 = l2;
        cost->writeback = 0;
        cost->dram_written = wr;
        return 0;
    }
    double f = footprint > s->capacity ? s->capacity / footprint : 1;
    double g = footprint > s->capacity ? 2 * s->capacity / footprint - 1 : 1;
    if (g < 0)
        g = 0;
    uint64_t now = ++s->clock;
    for (size_t i = 0; i < n; i++) {
        const mmm__l2_use *u = &use[i];
        mmm__l2_entry *e = find(s, u->id);
        if (!e && !(e = add(s, u->id, u->size)))
            return -1;
        double r = u->size > 0 ? e->found / u->size : 0;
        if (r > 1)
            r = 1;
        double first = u->read < u->size ? u->read : u->size;
        double hit = first * r + (u->read - first) * g;
        dram += u->read - hit;
        double keep = f * u->size;
        if (e->dirty && e->resident > keep) {
            dram += e->resident - keep; /* dirty data pushed out */
            wr += e->resident - keep;
        }
        if (u->written > 0 && f < 1) {
            double out = (1 - f) * (u->written < u->size ? u->written : u->size);
            dram += out;
            wr += out;
        }
        e->size = u->size;
        e->resident = keep;
        e->found = g * u->size;
        e->dirty = e->dirty || u->written > 0;
        e->stamp = now;
    }
    double budget = s->capacity - f * footprint, wb = 0;
    if (evict(s, now, budget > 0 ? budget : 0, &wb) < 0)
        return -1;
    cost->dram = dram + wb;
    cost->l2 = l2;
    cost->writeback = wb;
    cost->dram_written = wr + wb;
    return 0;
}

/* The entries in least-recently-used order (ties by id). */
static int by_stamp_id(const void *a, const void *b)
{
    const mmm__l2_entry *x = a, *y = b;
    if (x->stamp != y->stamp)
        return (x->stamp > y->stamp) - (x->stamp < y->stamp);
    return (x->id > y->id) - (x->id < y->id);
}

int mmm__l2_same(const mmm__l2 *a, const mmm__l2 *b)
{
    if (a->n != b->n || a->capacity != b->capacity)
        return 0;
    if (a->n == 0)
        return 1;
    mmm__l2_entry *x = malloc(a->n * sizeof *x), *y = malloc(b->n * sizeof *y);
    int same = x && y;
    if (same) {
        memcpy(x, a->e, a->n * sizeof *x);
        memcpy(y, b->e, b->n * sizeof *y);
        qsort(x, a->n, sizeof *x, by_stamp_id);
        qsort(y, b->n, sizeof *y, by_stamp_id);
        for (size_t i = 0; i < a->n && same; i++)
            same = x[i].id == y[i].id && x[i].resident == y[i].resident &&
                   x[i].found == y[i].found &&
                   x[i].size == y[i].size && x[i].dirty == y[i].dirty;
    }
    free(x);
    free(y);
    return same;
}

int mmm__l2_copy(mmm__l2 *dst, const mmm__l2 *src)
{
    mmm__l2_entry *e = NULL;
    if (src->n && !(e = malloc(src->n * sizeof *e)))
        return -1;
    if (src->n)
        memcpy(e, src->e, src->n * sizeof *e);
    free(dst->e);
    *dst = *src;
    dst->e = e;
    dst->cap = src->n;
    return 0;
}
