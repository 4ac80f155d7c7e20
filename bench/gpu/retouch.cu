// retouch.cu: what an atomic on a word the same thread has just read
// costs (a test and then a CAS on it, as a breadth-first search marks a
// vertex), by how many such words the GPU's resident threads have in
// flight.  Each thread runs ITERS rounds; in a round it reads W words at
// random over a region of R bytes (independent loads, issued together),
// then does an atomicCAS on each with the value it read (so each CAS waits
// for its load): W retouches per round.  The control ("other") does the
// CAS on another random word of the region instead.  Blocks of 256
// threads; the resident blocks per SM, A, are set by dynamic shared memory
// (1, 2, 4 or 8: 8 is every thread slot; with W = 8 the registers allow 6,
// and the row says so).  2^25 retouches per launch; the
// best of 7 event-timed launches after a warm-up (timing.cuh), ns per
// retouch and the bytes per retouch the GPU would move in that time at the
// copy bandwidth measured first.  The question it answers: is the word
// still in the L2 when the CAS comes, while the words in flight over the
// whole GPU (A p 256 W) fit it, and lost when they do not?  The answer
// (docs/fidelity.md, section 7, the breadth-first search level): no step;
// the pair costs a little more as the words in flight grow.
//
//   nvcc -O3 -arch=sm_90 -o retouch bench/gpu/retouch.cu && ./retouch
#include <cstdio>
#include <cstdlib>
#define PROG "retouch"
#include "timing.cuh"
#include "copy.cuh"
#include "../../cuda/gather.cuh"

#define TPB 256
#define ITERS 4
#define TOTAL (1u << 25)

template <int W, bool SAME>
__global__ void k_retouch(unsigned *x, size_t mask, unsigned salt)
{
    extern __shared__ unsigned pad[]; /* only limits the blocks per SM */
    const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    for (int it = 0; it < ITERS; it++) {
        size_t a[W];
        unsigned v[W];
#pragma unroll
        for (int j = 0; j < W; j++) {
            a[j] = gather_index(t * ITERS + it, j, salt, mask);
            v[j] = x[a[j]];
        }
#pragma unroll
        for (int j = 0; j < W; j++) {
            size_t b = SAME ? a[j] : gather_index(t * ITERS + it, j + 8, salt, mask);
            atomicCAS(&x[b], v[j], v[j] + 1u);
        }
    }
    if (blockDim.x == 0) /* never: keeps pad referenced */
        pad[0] = 0;
}

typedef void (*kfn)(unsigned *, size_t, unsigned);
struct rarg { kfn f; unsigned *x; size_t mask; unsigned blocks; size_t smem; unsigned salt; };
static void run_retouch(void *p)
{
    rarg *r = (rarg *)p;
    r->salt += 0x9e3779b9u; /* other addresses each launch */
    r->f<<<r->blocks, TPB, r->smem>>>(r->x, r->mask, r->salt);
}

static kfn pick(int w, bool same)
{
    switch (w) {
    case 1: return same ? k_retouch<1, true> : k_retouch<1, false>;
    case 2: return same ? k_retouch<2, true> : k_retouch<2, false>;
    case 4: return same ? k_retouch<4, true> : k_retouch<4, false>;
    default: return same ? k_retouch<8, true> : k_retouch<8, false>;
    }
}

int main(void)
{
    cudaDeviceProp prop;
    CHECK(cudaGetDeviceProperties(&prop, 0));
    timing_init();
    /* the copy bandwidth: 2 GiB read + written */
    size_t cn = (size_t)1 << 27;
    float4 *ci, *co;
    CHECK(cudaMalloc(&ci, cn * sizeof(float4)));
    CHECK(cudaMalloc(&co, cn * sizeof(float4)));
    CHECK(cudaMemset(ci, 0, cn * sizeof(float4)));
    float cms = time_copy(ci, co, cn, prop.multiProcessorCount);
    double bw = 2.0 * cn * sizeof(float4) / (cms * 1e-3);
    CHECK(cudaFree(ci));
    CHECK(cudaFree(co));
    printf("# %s, %d SMs, L2 %d bytes, copy bandwidth %.1f GB/s\n", prop.name,
           prop.multiProcessorCount, prop.l2CacheSize, bw / 1e9);
    printf("kind,region_bytes,W,A,ns_per_retouch,bytes_per_retouch\n");

    const size_t regions[] = {(size_t)1 << 28, (size_t)1 << 30};
    unsigned *x;
    CHECK(cudaMalloc(&x, regions[1]));
    CHECK(cudaMemset(x, 0, regions[1]));
    const int ws[] = {1, 2, 4, 8}, as[] = {1, 2, 4, 8};
    for (size_t ri = 0; ri < 2; ri++)
        for (int same = 1; same >= 0; same--)
            for (int wi = 0; wi < 4; wi++)
                for (int ai = 0; ai < 4; ai++) {
                    int w = ws[wi], want = as[ai];
                    kfn f = pick(w, same);
                    size_t smem = want == 8 ? 0 : (size_t)prop.sharedMemPerMultiprocessor / want - 2048;
                    CHECK(cudaFuncSetAttribute((const void *)f, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
                    int a = 0;
                    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&a, f, TPB, smem));
                    unsigned threads = TOTAL / (ITERS * w);
                    rarg r = {f, x, regions[ri] / 4 - 1, threads / TPB, smem, 0};
                    float ms = time_best(run_retouch, &r);
                    double s = ms * 1e-3 / TOTAL;
                    printf("%s,%zu,%d,%d,%.4f,%.2f\n", same ? "same" : "other", regions[ri], w, a,
                           s * 1e9, s * bw);
                }
    CHECK(cudaFree(x));
    return 0;
}
