/*
 * host.cuh: the host helpers that holdout3.cu, holdout4.cu, holdout5.cu and
 * holdout6.cu share: xmalloc (malloc that exits with a message) and rnd, a fixed
 * pseudo-random sequence (splitmix64) that starts from RNG_SEED, so every
 * run of a program draws the same data.  Define PROG (the program's name,
 * for messages) and RNG_SEED before including it.
 */
#ifndef MMM_BENCH_GPU_HOST_CUH
#define MMM_BENCH_GPU_HOST_CUH

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static uint64_t rng_state = RNG_SEED;
static uint32_t rnd(void)
{
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return (uint32_t)((z ^ (z >> 31)) >> 32);
}

static void *xmalloc(size_t bytes)
{
    void *p = malloc(bytes);
    if (!p) {
        fprintf(stderr, "%s: out of host memory (%zu bytes)\n", PROG, bytes);
        exit(1);
    }
    return p;
}

#endif
