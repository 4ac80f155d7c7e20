// gathers.cu: what a word read at a random address costs, by the size of
// the region it falls in and by the L2's fetch granularity.  Each of 2^22
// threads (blocks of 256) reads G = 8 words at addresses uniform at random
// over a region of R bytes (a hash of the thread and j: no index array, so
// nothing else moves), adds them and writes one word: the kernel of
// cuda/gather.cuh, which `mmm calibrate` times too.  R = 1 MiB .. 4 GiB;
// the L2's largest fetch (cudaLimitMaxL2FetchGranularity) first as the
// runtime leaves it (set_bytes 0; the value is printed), then set to 32, 64
// and 128 bytes in turn.  The best of 7 event-timed launches after a
// warm-up (timing.cuh); ns per gather,
// and the bytes per gather the whole GPU would move in that time at the copy
// bandwidth measured first (a 16-byte-per-thread copy over 2 GiB, read +
// write).  Then the same regions written: 8 words stored per thread at
// random (k_scatter), and 8 atomicAdds (result unused).  The machine
// constants gather_hit_bytes, gather_miss_bytes, gather_l2_bytes,
// scatter_hit_bytes and scatter_miss_bytes come from these rows
// (docs/time.md, section 3).
//
//   nvcc -O3 -arch=sm_90 -o gathers bench/gpu/gathers.cu && ./gathers
#include <cstdio>
#include <cstdlib>
#define PROG "gathers"
#include "timing.cuh"
#include "copy.cuh"
#include "../../cuda/gather.cuh"

/* Scattered atomicAdds (result unused) at the same addresses as
 * k_scatter's stores (cuda/gather.cuh). */
__global__ void k_scatter_add(float *__restrict__ x, size_t mask, unsigned salt)
{
    const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
#pragma unroll
    for (int j = 0; j < 8; j++)
        atomicAdd(&x[gather_index(t, j, salt, mask)], 1.0f);
}

struct garg { float *x; float *out; size_t mask; unsigned threads; unsigned salt; int mode; };
static void run_gather(void *p)
{
    garg *g = (garg *)p;
    g->salt += 0x9e3779b9u; /* other addresses each launch: no reuse between launches */
    if (g->mode == 0)
        k_gather<<<g->threads / 256, 256>>>(g->x, g->out, g->mask, g->salt);
    else if (g->mode == 1)
        k_scatter<<<g->threads / 256, 256>>>(g->x, g->mask, g->salt);
    else
        k_scatter_add<<<g->threads / 256, 256>>>(g->x, g->mask, g->salt);
}

int main()
{
    const size_t max_words = (size_t)1 << 30; /* 4 GiB */
    const unsigned threads = 1u << 22;
    float *x, *out;
    int sms;
    timing_init();
    CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    CHECK(cudaMalloc(&x, max_words * 4));
    CHECK(cudaMalloc(&out, (size_t)threads * 4));
    CHECK(cudaMemset(x, 0, max_words * 4));
    float cms = time_copy((const float4 *)x, (float4 *)(x + max_words / 2), max_words / 8, sms);
    double bw = 4.0 * (double)max_words / cms; /* bytes per ms, read + write */
    printf("# copy: %.4f ms, %.1f GB/s (read + write)\n", cms, bw / 1e6);
    printf("set_bytes,fetch_bytes,region_bytes,ms,ns_per_gather,bytes_per_gather_at_copy_bw\n");
    /* first as the runtime leaves it (its value printed), then each set */
    for (int fetch = 0; fetch <= 128; fetch = fetch ? fetch * 2 : 32) {
        size_t got;
        if (fetch)
            CHECK(cudaDeviceSetLimit(cudaLimitMaxL2FetchGranularity, fetch));
        CHECK(cudaDeviceGetLimit(&got, cudaLimitMaxL2FetchGranularity));
        if (!fetch)
            printf("# the runtime's default fetch granularity: %zu bytes\n", got);
        for (size_t words = (size_t)1 << 18; words <= max_words; words <<= 1) {
            garg g = {x, out, words - 1, threads, 0, 0};
            float ms = time_best(run_gather, &g);
            double gathers = (double)threads * 8;
            printf("%d,%zu,%zu,%.5f,%.4f,%.1f\n", fetch, got, words * 4, ms, ms * 1e6 / gathers,
                   ms * bw / gathers);
        }
    }
    /* Scattered stores and scattered atomicAdds, the runtime's default fetch
     * granularity (set back to 64 bytes, the default printed above). */
    CHECK(cudaDeviceSetLimit(cudaLimitMaxL2FetchGranularity, 64));
    printf("kind,region_bytes,ms,ns_per_word,bytes_per_word_at_copy_bw\n");
    for (int mode = 1; mode <= 2; mode++)
        for (size_t words = (size_t)1 << 18; words <= max_words; words <<= 1) {
            garg g = {x, out, words - 1, threads, 0, mode};
            float ms = time_best(run_gather, &g);
            double n = (double)threads * 8;
            printf("%s,%zu,%.5f,%.4f,%.1f\n", mode == 1 ? "store" : "atomic_add", words * 4, ms,
                   ms * 1e6 / n, ms * bw / n);
        }
    return 0;
}
