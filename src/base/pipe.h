/* pipe.h: a one-way stream of records from a producer to a consumer, in
 * chunks of bytes, consumed either by a second thread (so that producing
 * and consuming overlap) or inline, in the producer's thread, whenever a
 * chunk is full.  The consumer sees the same chunks in the same order
 * either way.  Not installed.
 *
 * The loader (parse.c) is the user: libxml2's parse produces one record
 * per element, the program builder consumes them.  On a big file both take
 * about the same time, so with two CPUs the load takes the longer of the
 * two instead of their sum. */
#ifndef MMM_PIPE_H
#define MMM_PIPE_H

#include <stddef.h>

typedef struct mmm__pipe mmm__pipe;

/* Consume one chunk: the records committed since the previous one, in
 * order.  Return 0 to go on, non-zero to stop: the rest is dropped (and
 * mmm__pipe_stopped turns true for the producer). */
typedef int (*mmm__pipe_consume_fn)(void *ctx, char *data, size_t len);

/* A pipe whose consumer runs in a thread of its own when threaded is
 * non-zero (and a thread can be started), else inline.  size_hint: about
 * how many bytes will pass (chunks are no larger, so a small input costs
 * little).  Returns NULL when out of memory. */
mmm__pipe *mmm__pipe_open(int threaded, size_t size_hint,
                         mmm__pipe_consume_fn fn, void *ctx);

/* Room for n bytes at the end of the current chunk, not aligned (a full
 * chunk is handed to the consumer first; a record larger than a chunk gets
 * a chunk of its own).  NULL when out of memory. */
char *mmm__pipe_reserve(mmm__pipe *p, size_t n);

/* The n bytes (n <= the reserved size) written at the reserved place are
 * a record. */
void mmm__pipe_commit(mmm__pipe *p, size_t n);

/* The consumer asked to stop: producing more is wasted.  Cheap (one
 * relaxed atomic load); safe to call from the producer at any time. */
int mmm__pipe_stopped(const mmm__pipe *p);

/* Hand the last chunk over, wait until the consumer is done with every
 * chunk, and free the pipe.  Returns non-zero when the consumer stopped. */
int mmm__pipe_close(mmm__pipe *p);

/* Whether a second thread would help: more than one CPU online. */
int mmm__pipe_cpus_available(void);

#endif
