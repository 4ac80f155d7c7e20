// gathers.cu: what a word read at a random address costs, by the size of
// the region it falls in and by the L2's fetch granularity.  Each of 2^22
// threads (blocks of 256) reads G = 8 words at addresses uniform at random
// over a region of R bytes (a hash of the thread and j: no index array, so
// nothing else moves), adds them and writes one word.  R = 1 MiB .. 4 GiB;
// the L2's largest fetch (cudaLimitMaxL2FetchGranularity) first as the
// runtime leaves it (set_bytes 0; the value is printed), then set to 32, 64
// and 128 bytes in turn.  The best of 7 event-timed launches; ns per gather,
// and the bytes per gather the whole GPU would move in that time at the copy
// bandwidth measured first (a 16-byte-per-thread copy over 2 GiB, read +
// write).  The machine constants gather_hit_bytes, gather_miss_bytes and
// gather_l2_bytes come from these rows (docs/time.md, section 3).
//
//   nvcc -O3 -arch=sm_90 -o gathers bench/gpu/gathers.cu && ./gathers
#include <cstdio>
#include <cstdlib>
#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { fprintf(stderr, "gathers: %s\n", cudaGetErrorString(e)); exit(1);} } while (0)

__device__ __forceinline__ unsigned hash(unsigned x)
{
    x ^= x >> 16;
    x *= 0x7feb352dU;
    x ^= x >> 15;
    x *= 0x846ca68bU;
    x ^= x >> 16;
    return x;
}

template <int G>
__global__ void gather(const float *__restrict__ x, float *__restrict__ out, size_t mask, unsigned salt)
{
    const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    float s = 0.0f;
#pragma unroll
    for (int j = 0; j < G; j++) {
        size_t i = ((size_t)hash(t * G + j + salt) << 8 ^ hash(t * 7919u + j)) & mask;
        s += x[i];
    }
    out[t] = s;
}

__global__ void copy16(const float4 *__restrict__ in, float4 *__restrict__ out, size_t n)
{
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
        out[i] = in[i];
}

static float best_of(void (*fn)(void *), void *arg)
{
    cudaEvent_t a, b;
    CK(cudaEventCreate(&a));
    CK(cudaEventCreate(&b));
    float best = 1e30f;
    fn(arg);
    CK(cudaDeviceSynchronize());
    for (int r = 0; r < 7; r++) {
        CK(cudaEventRecord(a));
        fn(arg);
        CK(cudaEventRecord(b));
        CK(cudaEventSynchronize(b));
        float ms;
        CK(cudaEventElapsedTime(&ms, a, b));
        if (ms < best)
            best = ms;
    }
    CK(cudaGetLastError());
    CK(cudaEventDestroy(a));
    CK(cudaEventDestroy(b));
    return best;
}

struct garg { const float *x; float *out; size_t mask; unsigned threads; unsigned salt; };
static void run_gather(void *p)
{
    garg *g = (garg *)p;
    g->salt += 0x9e3779b9u; /* other addresses each launch: no reuse between launches */
    gather<8><<<g->threads / 256, 256>>>(g->x, g->out, g->mask, g->salt);
}
struct carg { const float4 *in; float4 *out; size_t n; int sms; };
static void run_copy(void *p)
{
    carg *c = (carg *)p;
    copy16<<<c->sms * 8, 256>>>(c->in, c->out, c->n);
}

int main()
{
    const size_t max_words = (size_t)1 << 30; /* 4 GiB */
    const unsigned threads = 1u << 22;
    float *x, *out;
    int sms;
    CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    CK(cudaMalloc(&x, max_words * 4));
    CK(cudaMalloc(&out, (size_t)threads * 4));
    CK(cudaMemset(x, 0, max_words * 4));
    carg c = {(const float4 *)x, (float4 *)(x + max_words / 2), max_words / 8, sms};
    float cms = best_of(run_copy, &c);
    double bw = 4.0 * (double)max_words / cms; /* bytes per ms, read + write */
    printf("# copy: %.4f ms, %.1f GB/s (read + write)\n", cms, bw / 1e6);
    printf("set_bytes,fetch_bytes,region_bytes,ms,ns_per_gather,bytes_per_gather_at_copy_bw\n");
    /* first as the runtime leaves it (its value printed), then each set */
    for (int fetch = 0; fetch <= 128; fetch = fetch ? fetch * 2 : 32) {
        size_t got;
        if (fetch)
            CK(cudaDeviceSetLimit(cudaLimitMaxL2FetchGranularity, fetch));
        CK(cudaDeviceGetLimit(&got, cudaLimitMaxL2FetchGranularity));
        if (!fetch)
            printf("# the runtime's default fetch granularity: %zu bytes\n", got);
        for (size_t words = (size_t)1 << 18; words <= max_words; words <<= 1) {
            garg g = {x, out, words - 1, threads, 0};
            float ms = best_of(run_gather, &g);
            double gathers = (double)threads * 8;
            printf("%d,%zu,%zu,%.5f,%.4f,%.1f\n", fetch, got, words * 4, ms, ms * 1e6 / gathers,
                   ms * bw / gathers);
        }
    }
    return 0;
}
