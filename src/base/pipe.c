/* pipe.c: see pipe.h.  A fixed ring of NCHUNK chunks: the producer fills
 * one while the consumer thread works through the others, so memory stays
 * bounded (NCHUNK × CHUNK) however far the producer could run ahead.
 * Chunks change hands under one mutex, once per chunk (thousands of
 * records), so the locking costs nothing measurable. */
#include "base/pipe.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define CHUNK ((size_t)512 << 10)
#define NCHUNK 16

typedef struct chunk {
    char *data;
    size_t len, cap;
} chunk;

struct mmm__pipe {
    mmm__pipe_consume_fn fn;
    void *ctx;
    atomic_int stopped;
    int threaded;

    chunk ring[NCHUNK];   /* allocated when first used */
    size_t chunk_cap;     /* capacity of a new chunk */

    /* The producer's fields and the consumer's lie on separate cache
     * lines (so does the builder in parse.c): a line written by one thread
     * and read by the other at every record would bounce between cores. */
    _Alignas(64) chunk *cur; /* the producer's */
    size_t reserved;         /* bytes reserved at cur->len */

    /* Threaded: chunks full[head .. head + nfull) (mod NCHUNK) wait for
     * the consumer; the others are free, the producer's included. */
    _Alignas(64) pthread_t thread;
    pthread_mutex_t mu;
    pthread_cond_t to_consumer, to_producer;
    size_t head, nfull;
    size_t next_free;     /* the chunk the producer takes next */
    int closing;
};

static void consume(mmm__pipe *p, chunk *c)
{
    if (c->len && !atomic_load_explicit(&p->stopped, memory_order_relaxed) &&
        p->fn(p->ctx, c->data, c->len) != 0)
        atomic_store_explicit(&p->stopped, 1, memory_order_relaxed);
    c->len = 0;
}

static void *consumer_main(void *arg)
{
    mmm__pipe *p = arg;
    pthread_mutex_lock(&p->mu);
    for (;;) {
        while (p->nfull == 0 && !p->closing)
            pthread_cond_wait(&p->to_consumer, &p->mu);
        if (p->nfull == 0)
            break; /* closing and nothing left */
        chunk *c = &p->ring[p->head];
        pthread_mutex_unlock(&p->mu);
        consume(p, c);
        pthread_mutex_lock(&p->mu);
        p->head = (p->head + 1) % NCHUNK;
        p->nfull--;
        pthread_cond_signal(&p->to_producer);
    }
    pthread_mutex_unlock(&p->mu);
    return NULL;
}

int mmm__pipe_cpus_available(void)
{
#ifdef _SC_NPROCESSORS_ONLN
    return sysconf(_SC_NPROCESSORS_ONLN) > 1;
#else
    return 0;
#endif
}

mmm__pipe *mmm__pipe_open(int threaded, size_t size_hint,
                         mmm__pipe_consume_fn fn, void *ctx)
{
    mmm__pipe *p = aligned_alloc(64, (sizeof *p + 63) & ~(size_t)63);
    if (!p)
        return NULL;
    memset(p, 0, sizeof *p);
    p->fn = fn;
    p->ctx = ctx;
    atomic_init(&p->stopped, 0);
    p->chunk_cap = size_hint < 4096 ? 4096 : size_hint > CHUNK ? CHUNK
                                                                : size_hint;
    p->ring[0].cap = p->chunk_cap;
    if (!(p->ring[0].data = malloc(p->chunk_cap))) {
        free(p);
        return NULL;
    }
    p->cur = &p->ring[0];
    p->next_free = 1;
    if (threaded) {
        if (pthread_mutex_init(&p->mu, NULL) == 0) {
            if (pthread_cond_init(&p->to_consumer, NULL) == 0) {
                if (pthread_cond_init(&p->to_producer, NULL) == 0) {
                    if (pthread_create(&p->thread, NULL, consumer_main, p) ==
                        0) {
                        p->threaded = 1;
                        return p;
                    }
                    pthread_cond_destroy(&p->to_producer);
                }
                pthread_cond_destroy(&p->to_consumer);
            }
            pthread_mutex_destroy(&p->mu);
        }
        /* No thread: consume inline. */
    }
    return p;
}

/* Hand the current chunk over and take a free one (allocated now when it
 * never was: a small input needs only one).  -1 when out of memory. */
static int hand_over(mmm__pipe *p)
{
    if (!p->threaded) {
        consume(p, p->cur);
        return 0;
    }
    pthread_mutex_lock(&p->mu);
    p->nfull++;
    pthread_cond_signal(&p->to_consumer);
    while (p->nfull == NCHUNK) /* all full: wait for one to come back */
        pthread_cond_wait(&p->to_producer, &p->mu);
    pthread_mutex_unlock(&p->mu);
    p->cur = &p->ring[p->next_free];
    p->next_free = (p->next_free + 1) % NCHUNK;
    if (!p->cur->data) {
        if (!(p->cur->data = malloc(p->chunk_cap)))
            return -1;
        p->cur->cap = p->chunk_cap;
    }
    return 0;
}

char *mmm__pipe_reserve(mmm__pipe *p, size_t n)
{
    if (n > p->cur->cap - p->cur->len) {
        if (p->cur->len && hand_over(p) < 0)
            return NULL;
        if (n > p->cur->cap) { /* a huge record: a chunk of its own size */
            char *d = realloc(p->cur->data, n);
            if (!d)
                return NULL;
            p->cur->data = d;
            p->cur->cap = n;
        }
    }
    p->reserved = n;
    return p->cur->data + p->cur->len;
}

void mmm__pipe_commit(mmm__pipe *p, size_t n)
{
    if (n > p->reserved)
        n = p->reserved;
    p->cur->len += n;
    p->reserved = 0;
}

int mmm__pipe_stopped(const mmm__pipe *p)
{
    return atomic_load_explicit(&((mmm__pipe *)p)->stopped,
                                memory_order_relaxed);
}

int mmm__pipe_close(mmm__pipe *p)
{
    if (!p)
        return 0;
    if (p->threaded) {
        pthread_mutex_lock(&p->mu);
        if (p->cur->len)
            p->nfull++;
        p->closing = 1;
        pthread_cond_signal(&p->to_consumer);
        pthread_mutex_unlock(&p->mu);
        pthread_join(p->thread, NULL);
        pthread_cond_destroy(&p->to_producer);
        pthread_cond_destroy(&p->to_consumer);
        pthread_mutex_destroy(&p->mu);
    } else {
        consume(p, p->cur);
    }
    int stopped = mmm__pipe_stopped(p);
    for (size_t i = 0; i < NCHUNK; i++)
        free(p->ring[i].data);
    free(p);
    return stopped;
}
