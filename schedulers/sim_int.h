/* sim_int.h: internals of the simulator shared by the files of schedulers/
 * (not installed, not for the CLI). */
#ifndef MMM_SIM_INT_H
#define MMM_SIM_INT_H

#include <stddef.h>
#include <stdint.h>

#include "mmm/sim.h"

/* ---- Schedule-independent figures, per kernel (sim_prep.c) ---- */
typedef struct mmm__sim_prep {
    double *cmax;   /* largest block cost of one launch (launch 1) */
    double *kchain;  /* Σ over its launches of the largest block cost */
    double *tail;   /* longest path of launch costs after its last launch */
    double *busy1;  /* Σ block costs of launch 1 */
    double total;   /* Σ over all blocks of S(B) + O(B) */
    double critical_path;
    int64_t blocks;
    int64_t launches; /* saturates at INT64_MAX */
    size_t max_classes; /* most classes of one kernel */
} mmm__sim_prep;

int mmm__sim_prep_init(mmm__sim_prep *s, const mmm_instance *inst, mmm_error *err);
void mmm__sim_prep_dispose(mmm__sim_prep *s);

/* ---- Free SMs: a sorted set of disjoint, coalesced intervals ---- */
typedef struct mmm__sim_smset {
    int64_t *lo, *hi; /* [lo[i], hi[i]) sorted by lo */
    size_t n, cap;
} mmm__sim_smset;

int mmm__sim_smset_init(mmm__sim_smset *s, int64_t p);
void mmm__sim_smset_dispose(mmm__sim_smset *s);
/* Give back [lo, hi); merges with its neighbours.  0 or MMM_ENOMEM. */
int mmm__sim_smset_put(mmm__sim_smset *s, int64_t lo, int64_t hi);
/* Take up to want SMs from the lowest interval: *lo_out is the first,
 * the return value the number taken (0 when empty). */
int64_t mmm__sim_smset_take(mmm__sim_smset *s, int64_t want, int64_t *lo_out);

/* ---- Splitmix64: the simulation's own random numbers ---- */
static inline uint64_t sim_rng_next(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* Uniform in [0, 1) with 53 random bits. */
static inline double sim_rng_unit(uint64_t *state)
{
    return (double)(sim_rng_next(state) >> 11) * (1.0 / 9007199254740992.0);
}

#endif
