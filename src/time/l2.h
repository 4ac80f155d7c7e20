/* l2.h: what the L2 holds between launches and serves within one, for
 * the time model (docs/time.md, section 3, "The L2").  Internal to
 * src/time. */
#ifndef MMM_TIME_L2_H
#define MMM_TIME_L2_H

#include <stddef.h>
#include <stdint.h>

/* An array of a launch's traffic: named (<array>: its index), or a
 * kernel's footprint (narrays + the kernel's index); its bytes, and the
 * bytes the launch reads from it and writes to it (coalesced and
 * broadcast accesses; words at random addresses touch it without being
 * counted here). */
typedef struct mmm__l2_use {
    int64_t id;
    double size, read, written;
} mmm__l2_use;

/* One array the L2 holds (part of). */
typedef struct mmm__l2_entry {
    int64_t id;
    double size, resident;
    double found;    /* of resident, what a re-read in the same order finds */
    int dirty;       /* a launch wrote it since it was last fetched */
    uint64_t stamp;  /* its last launch: the least recent goes first */
} mmm__l2_entry;

typedef struct mmm__l2 {
    double capacity; /* bytes (0: no L2 modelled) */
    mmm__l2_entry *e;
    size_t n, cap;
    uint64_t clock;
} mmm__l2;

/* What one launch's traffic costs, by where it is served. */
typedef struct mmm__l2_cost {
    double dram;      /* bytes DRAM moves (misses, write-backs) */
    double l2;        /* bytes through the L2 (every byte of the traffic) */
    double writeback; /* of dram, the dirty data of other arrays that
                         this launch pushed out */
    double dram_written; /* of dram, what DRAM writes (write-backs, writes
                            that do not stay, unnamed writes); the rest it
                            reads */
} mmm__l2_cost;

void mmm__l2_init(mmm__l2 *s, double capacity);
void mmm__l2_dispose(mmm__l2 *s);
/* A launch touching the arrays use[0 .. n) and unnamed_read +
 * unnamed_written bytes of streamed traffic in no array: its cost, and
 * the state after it.  Returns 0, or -1 out of memory. */
int mmm__l2_launch(mmm__l2 *s, const mmm__l2_use *use, size_t n,
                   double unnamed_read, double unnamed_written, mmm__l2_cost *cost);
/* 1 when the two states hold the same (a repeat's launches from then on
 * cost the same). */
int mmm__l2_same(const mmm__l2 *a, const mmm__l2 *b);
/* *dst becomes a copy of src.  Returns 0 or -1 out of memory. */
int mmm__l2_copy(mmm__l2 *dst, const mmm__l2 *src);

#endif
