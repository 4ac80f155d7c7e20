/*
 * calibrate.cu: the GPU half of `mmm calibrate`.  Runs the microbenchmarks
 * and fills an mmm_calib_raw with raw samples; libmmm turns them into
 * constants (src/time/calibrate.c).  The only file of mmm that uses CUDA; the
 * methods and why each measures what it claims are in docs/calibrate.md.
 *
 * Host code is C-style C++: no exceptions, no C++ library.
 */
#include <cuda_occupancy.h>
#include <cuda_runtime.h>
#include <dlfcn.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mmm/calibrate.h"
#include "calibrate_cuda.h"
#include "gather.cuh"

/* ------------------------------------------------------------------ */
/* Kernels                                                             */

/* Busy loop of `cycles` SM cycles: warms the clocks, and against event
 * time measures the clock. */
__global__ void k_spin(long long cycles, unsigned long long *out)
{
    long long t0 = clock64(), t;
    do {
        t = clock64();
    } while (t - t0 < cycles);
    if (threadIdx.x == 0 && blockIdx.x == 0)
        *out = (unsigned long long)(t - t0);
}

/* An empty kernel: launches in one stream run one after the other. */
__global__ void k_empty(void) {}

/* Issue rate: 16 independent FMA chains per thread, a full GPU.  Each FMA
 * reads one register (x = x*a + x, a from the constant bank), so register
 * bank conflicts cannot slow the issue; 64 FMAs per loop branch. */
#define ISSUE_CHAINS 16
#define ISSUE_ITERS 2048 /* long enough that every block shares its SM */
__global__ void k_issue(float a, float *sink)
{
    float x[ISSUE_CHAINS];
#pragma unroll
    for (int u = 0; u < ISSUE_CHAINS; u++)
        x[u] = threadIdx.x + u;
#pragma unroll 1
    for (int s = 0; s < ISSUE_ITERS / 4; s++) {
#pragma unroll
        for (int v = 0; v < 4; v++) {
#pragma unroll
            for (int u = 0; u < ISSUE_CHAINS; u++)
                asm volatile("fma.rn.f32 %0, %0, %1, %0;" : "+f"(x[u]) : "f"(a));
        }
    }
    float t = 0;
#pragma unroll
    for (int u = 0; u < ISSUE_CHAINS; u++)
        t += x[u];
    if (t == 1234.5f)
        *sink = t;
}

/* next[order[k]] = order[k+1]: a cycle through the slots in `order`. */
__global__ void k_link(unsigned *next, const unsigned *order, int n)
{
    int k = blockIdx.x * blockDim.x + threadIdx.x;
    if (k < n)
        next[order[k]] = order[k + 1 < n ? k + 1 : 0];
}

/* Pointer chase: `warm` loads, then `steps` timed dependent loads. */
__global__ void k_chase(const unsigned *next, unsigned start, int warm,
                        int steps, unsigned long long *cycles, unsigned *sink)
{
    unsigned i = start;
    for (int s = 0; s < warm; s++)
        i = next[i];
    long long t0 = clock64();
    for (int s = 0; s < steps; s++)
        i = next[i];
    long long t1 = clock64();
    *cycles = (unsigned long long)(t1 - t0);
    *sink = i;
}

/* Shared-memory chase: the array holds shared-window addresses, so each
 * step is one ld.shared whose address is the last value loaded. */
#define SMEM_WORDS 1024
#define SMEM_STEPS 4096
__global__ void k_smem(unsigned stride, unsigned long long *cycles,
                       unsigned *sink)
{
    __shared__ unsigned buf[SMEM_WORDS];
    unsigned base = (unsigned)__cvta_generic_to_shared(buf);
    for (unsigned i = threadIdx.x; i < SMEM_WORDS; i += blockDim.x)
        buf[i] = base + 4u * ((i + stride) % SMEM_WORDS);
    __syncthreads();
    if (threadIdx.x != 0)
        return;
    unsigned a = base;
    for (int s = 0; s < 64; s++)
        asm volatile("ld.shared.u32 %0, [%0];" : "+r"(a));
    long long t0 = clock64();
#pragma unroll 1
    for (int s = 0; s < SMEM_STEPS / 16; s++) {
#pragma unroll
        for (int u = 0; u < 16; u++)
            asm volatile("ld.shared.u32 %0, [%0];" : "+r"(a));
    }
    long long t1 = clock64();
    *cycles = (unsigned long long)(t1 - t0);
    *sink = a;
}

/* Dependent operations.  OPS_UNROLL per iteration, OPS_ITERS iterations. */
#define OPS_UNROLL 32
#define OPS_ITERS 128

/* One step of each chain, as inline PTX so that the compiler keeps one
 * instruction per operation.  int32 adds alternate with xors: ptxas merges
 * consecutive adds of a loop-invariant value (x + y + y into one x + 2y),
 * but no instruction does an add and an xor. */
struct op_iadd {
    typedef int T;
    enum { OPS = 2 };
    static __device__ __forceinline__ void step(T &x, T a, T)
    {
        asm volatile("add.s32 %0, %0, %1;" : "+r"(x) : "r"(a));
        asm volatile("xor.b32 %0, %0, %1;" : "+r"(x) : "r"(a));
    }
};
struct op_ffma {
    typedef float T;
    enum { OPS = 1 };
    static __device__ __forceinline__ void step(T &x, T a, T b)
    {
        asm volatile("fma.rn.f32 %0, %0, %1, %2;" : "+f"(x) : "f"(a), "f"(b));
    }
};
struct op_dfma {
    typedef double T;
    enum { OPS = 1 };
    static __device__ __forceinline__ void step(T &x, T a, T b)
    {
        asm volatile("fma.rn.f64 %0, %0, %1, %2;" : "+d"(x) : "d"(a), "d"(b));
    }
};

/* OPS_ITERS x OPS_UNROLL dependent operations, timed by clock64(). */
template <class Op>
__global__ void k_op(typename Op::T x, typename Op::T a, typename Op::T b,
                     unsigned long long *cycles, typename Op::T *sink)
{
    long long t0 = clock64();
#pragma unroll 1
    for (int s = 0; s < OPS_ITERS; s++) {
#pragma unroll
        for (int u = 0; u < OPS_UNROLL / Op::OPS; u++)
            Op::step(x, a, b);
    }
    long long t1 = clock64();
    *cycles = (unsigned long long)(t1 - t0);
    *sink = x;
}

/* a*b mod p for 0 <= a, b < p < 2^30 the way CUMODP's kernels multiply
 * (the quotient estimated through a double reciprocal of p, the product
 * corrected in 32-bit two's complement).  The empty asm makes p opaque so
 * the reciprocal is computed in each call, as in a kernel that reads p
 * from shared memory after each barrier. */
__device__ __forceinline__ int mulmod_dbl(int a, int b, int p)
{
    asm volatile("" : "+r"(p));
    double ninv = 1.0 / (double)p;
    int q = (int)((double)a * (double)b * ninv);
    int r = (int)((unsigned)a * (unsigned)b - (unsigned)q * (unsigned)p);
    r += (r >> 31) & p;
    r -= p;
    r += (r >> 31) & p;
    return r;
}

__device__ __forceinline__ unsigned mulmod_rem(unsigned a, unsigned b,
                                               unsigned long long p)
{
    return (unsigned)(((unsigned long long)a * b) % p);
}

#define MULMOD_UNROLL 8
#define MULMOD_ITERS 64

__global__ void k_op_mulmod(int x, int y, int p, unsigned long long *cycles,
                            int *sink)
{
    long long t0 = clock64();
#pragma unroll 1
    for (int s = 0; s < MULMOD_ITERS; s++) {
#pragma unroll
        for (int u = 0; u < MULMOD_UNROLL; u++)
            x = mulmod_dbl(x, y, p);
    }
    long long t1 = clock64();
    *cycles = (unsigned long long)(t1 - t0);
    *sink = x;
}

__global__ void k_op_mulmod_rem(unsigned x, unsigned y, unsigned long long p,
                                unsigned long long *cycles, unsigned *sink)
{
    long long t0 = clock64();
#pragma unroll 1
    for (int s = 0; s < MULMOD_ITERS; s++) {
#pragma unroll
        for (int u = 0; u < MULMOD_UNROLL; u++) {
            asm volatile("" : "+l"(p));
            x = mulmod_rem(x, y, p);
        }
    }
    long long t1 = clock64();
    *cycles = (unsigned long long)(t1 - t0);
    *sink = x;
}

/* Barriers: SYNC_ITERS x 16 __syncthreads, timed by thread 0. */
#define SYNC_ITERS 256
__global__ void k_sync(unsigned long long *cycles)
{
    __syncthreads();
    long long t0 = clock64();
#pragma unroll 1
    for (int s = 0; s < SYNC_ITERS; s++) {
#pragma unroll
        for (int u = 0; u < 16; u++)
            __syncthreads();
    }
    long long t1 = clock64();
    if (threadIdx.x == 0)
        *cycles = (unsigned long long)(t1 - t0);
}

/* Launches per timed sample of a bandwidth kernel: in one stream the
 * next launch is issued while the previous kernel runs, so only the first
 * launch's latency falls inside the events. */
#define BACK_TO_BACK 4

/* Copy with 16-byte accesses, four in flight per thread, a grid-stride
 * loop. */
__global__ void k_copy(const uint4 *__restrict__ src, uint4 *__restrict__ dst,
                       size_t n)
{
    size_t stride = (size_t)gridDim.x * blockDim.x;
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    for (; i + 3 * stride < n; i += 4 * stride) {
        uint4 a = src[i], b = src[i + stride], c = src[i + 2 * stride],
              d = src[i + 3 * stride];
        dst[i] = a;
        dst[i + stride] = b;
        dst[i + 2 * stride] = c;
        dst[i + 3 * stride] = d;
    }
    for (; i < n; i += stride)
        dst[i] = src[i];
}

/* Read n 16-byte words `passes` times, four in flight per thread, a
 * grid-stride loop; the xor of everything read goes to sink (never equal
 * to the key, so nothing is stored, but the loads cannot be dropped). */
__global__ void k_read(const uint4 *__restrict__ src, size_t n, int passes,
                       unsigned key, unsigned *sink)
{
    size_t stride = (size_t)gridDim.x * blockDim.x;
    unsigned x = 0;
    for (int p = 0; p < passes; p++) {
        size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
        for (; i + 3 * stride < n; i += 4 * stride) {
            uint4 a = src[i], b = src[i + stride], c = src[i + 2 * stride],
                  d = src[i + 3 * stride];
            x ^= a.x ^ b.y ^ c.z ^ d.w;
        }
        for (; i < n; i += stride)
            x ^= src[i].x;
        x = x * 3u + (unsigned)p; /* each pass's loads are needed */
    }
    if (x == key)
        *sink = x;
}

/* The U kernel: `rounds` rounds; in each, every thread loads one word
 * (coalesced across the block) into shared memory, the block meets at a
 * barrier and each thread reads its neighbour's word, on which the next
 * round's address depends (through `zero`, 0 at run time).  Block b's
 * word of thread t in round k is at b*T + t + k*round_stride. */
template <int T>
__global__ void __launch_bounds__(T) k_u(const unsigned *__restrict__ g,
                                         unsigned *out, int rounds,
                                         size_t round_stride, unsigned zero,
                                         unsigned long long *cycles)
{
    __shared__ unsigned sh[2][T];
    unsigned carry = 0;
    size_t base = (size_t)blockIdx.x * T + threadIdx.x;
    __syncthreads();
    long long t0 = clock64();
    for (int k = 0; k < rounds; k++) {
        unsigned v = g[base + (size_t)k * round_stride + (carry & zero)];
        sh[k & 1][threadIdx.x] = v;
        __syncthreads();
        carry = sh[k & 1][(threadIdx.x + 1) % T];
    }
    long long t1 = clock64();
    out[base] = carry;
    if (threadIdx.x == 0 && blockIdx.x == 0)
        *cycles = (unsigned long long)(t1 - t0);
}

/* ------------------------------------------------------------------ */
/* Host side                                                           */

typedef struct ctx {
    char *msg;
    size_t msglen;
    cudaStream_t st;
    cudaEvent_t e0, e1;
    unsigned long long *d_cycles; /* one word of results */
    unsigned *d_sink;
    unsigned char *d_flush;       /* written to evict the L2 */
    size_t flush_bytes;
} ctx;

/* 1 when the NVIDIA driver's library can be loaded. */
static int driver_present(void)
{
    void *h = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (h)
        dlclose(h);
    return h != NULL;
}

static int fail(ctx *c, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->msg, c->msglen, fmt, ap);
    va_end(ap);
    return -1;
}

#define CK(call)                                                              \
    do {                                                                      \
        cudaError_t e_ = (call);                                              \
        if (e_ != cudaSuccess)                                                \
            return fail(c, "%s: %s (%s:%d)", #call, cudaGetErrorString(e_),    \
                        "calibrate.cu", __LINE__);                            \
    } while (0)

/* The last launch's error, then wait for the stream. */
#define CKL()                                                                 \
    do {                                                                      \
        CK(cudaGetLastError());                                               \
        CK(cudaStreamSynchronize(c->st));                                     \
    } while (0)

static void push(mmm_calib_series *s, double v)
{
    if (s->n < MMM_CALIB_MAX_SAMPLES)
        s->v[s->n++] = v;
}

static int read_cycles(ctx *c, double *out)
{
    unsigned long long v;
    CK(cudaMemcpy(&v, c->d_cycles, sizeof v, cudaMemcpyDeviceToHost));
    *out = (double)v;
    return 0;
}

/* After a launch that writes c->d_cycles: check it, wait, and push the
 * cycles over div. */
static int take(ctx *c, mmm_calib_series *series, double div)
{
    double cy = 0;
    CKL();
    if (read_cycles(c, &cy) < 0)
        return -1;
    push(series, cy / div);
    return 0;
}

static int flush_l2(ctx *c)
{
    CK(cudaMemsetAsync(c->d_flush, 0x5a, c->flush_bytes, c->st));
    CK(cudaStreamSynchronize(c->st));
    return 0;
}

static int elapsed_s(ctx *c, double *s)
{
    float ms;
    CK(cudaEventSynchronize(c->e1));
    CK(cudaEventElapsedTime(&ms, c->e0, c->e1));
    *s = ms * 1e-3;
    return 0;
}

/* xorshift64*: the pointer chase's random order, same on every run. */
static uint64_t rng_next(uint64_t *s)
{
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return *s * 2685821657736338717ull;
}

static int get_device(ctx *c, mmm_calib_device *d, int dev)
{
    cudaDeviceProp pr;
    int v;
    CK(cudaGetDeviceProperties(&pr, dev));
    snprintf(d->name, sizeof d->name, "%s", pr.name);
    d->cc_major = pr.major;
    d->cc_minor = pr.minor;
    d->sms = pr.multiProcessorCount;
    CK(cudaDeviceGetAttribute(&v, cudaDevAttrClockRate, dev));
    d->clock_hz = v * 1e3;
    CK(cudaDeviceGetAttribute(&v, cudaDevAttrMemoryClockRate, dev));
    d->mem_clock_hz = v * 1e3;
    d->bus_width_bits = pr.memoryBusWidth;
    d->l2_bytes = pr.l2CacheSize;
    d->global_bytes = (int64_t)pr.totalGlobalMem;
    d->sm_shared_bytes = (int64_t)pr.sharedMemPerMultiprocessor;
    d->block_shared_bytes = (int64_t)pr.sharedMemPerBlock;
    d->block_shared_optin_bytes = (int64_t)pr.sharedMemPerBlockOptin;
    d->reserved_shared_bytes = (int64_t)pr.reservedSharedMemPerBlock;
    d->sm_registers = pr.regsPerMultiprocessor;
    d->sm_threads = pr.maxThreadsPerMultiProcessor;
    d->sm_blocks = pr.maxBlocksPerMultiProcessor;
    d->block_threads = pr.maxThreadsPerBlock;
    d->warp_size = pr.warpSize;
    {
        /* Allocation units and register sub-partitions, as NVIDIA's
         * occupancy calculator (cuda_occupancy.h) counts them. */
        cudaOccDeviceProp op(pr);
        int g = 0;
        if (cudaOccSMemAllocationGranularity(&g, &op) == CUDA_OCC_SUCCESS)
            d->shared_granule_bytes = g;
        if (cudaOccRegAllocationGranularity(&g, &op) == CUDA_OCC_SUCCESS)
            d->register_granule = g;
        if (cudaOccSubPartitionsPerMultiprocessor(&g, &op) == CUDA_OCC_SUCCESS)
            d->register_partitions = g;
    }
    CK(cudaDriverGetVersion(&d->driver_version));
    CK(cudaRuntimeGetVersion(&d->runtime_version));
    return 0;
}

/* Clock: spin two lengths; (c2 - c1) / (t2 - t1) removes the launch. */
static int bench_clock(ctx *c, mmm_calib_raw *r, int reps)
{
    const long long c1 = 2000000, c2 = 12000000;
    for (int k = 0; k < reps; k++) {
        double t[2] = {0, 0}, cy[2] = {0, 0};
        long long len[2] = {c1, c2};
        for (int j = 0; j < 2; j++) {
            CK(cudaEventRecord(c->e0, c->st));
            k_spin<<<1, 32, 0, c->st>>>(len[j], c->d_cycles);
            CK(cudaGetLastError());
            CK(cudaEventRecord(c->e1, c->st));
            if (elapsed_s(c, &t[j]) < 0 || read_cycles(c, &cy[j]) < 0)
                return -1;
        }
        if (t[1] > t[0])
            push(&r->clock_hz, (cy[1] - cy[0]) / (t[1] - t[0]));
    }
    return 0;
}

/* Launch latency: chains of empty launches on the legacy default stream
 * (where a plain <<<...>>> goes), then the same chain captured once as a
 * graph (on the calibration stream) and replayed. */
static int bench_launch(ctx *c, mmm_calib_raw *r, int reps, int chain)
{
    cudaGraph_t graph;
    cudaGraphExec_t exec;
    double s = 0;
    r->launch_chain = chain;
    for (int k = 0; k < 100; k++)
        k_empty<<<1, 1>>>();
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    /* Alternate the legacy stream and the calibration stream, so that both
     * see the same host. */
    for (int k = 0; k < reps; k++) {
        CK(cudaEventRecord(c->e0, 0));
        for (int j = 0; j < chain; j++)
            k_empty<<<1, 1>>>();
        CK(cudaGetLastError());
        CK(cudaEventRecord(c->e1, 0));
        if (elapsed_s(c, &s) < 0)
            return -1;
        push(&r->launch_stream_s, s / chain);
        CK(cudaEventRecord(c->e0, c->st));
        for (int j = 0; j < chain; j++)
            k_empty<<<1, 1, 0, c->st>>>();
        CK(cudaGetLastError());
        CK(cudaEventRecord(c->e1, c->st));
        if (elapsed_s(c, &s) < 0)
            return -1;
        push(&r->launch_own_stream_s, s / chain);
    }
    CK(cudaStreamBeginCapture(c->st, cudaStreamCaptureModeThreadLocal));
    for (int j = 0; j < chain; j++)
        k_empty<<<1, 1, 0, c->st>>>();
    CK(cudaStreamEndCapture(c->st, &graph));
    CK(cudaGraphInstantiate(&exec, graph, 0));
    CK(cudaGraphLaunch(exec, c->st)); /* warm-up */
    CKL();
    for (int k = 0; k < reps; k++) {
        CK(cudaEventRecord(c->e0, c->st));
        CK(cudaGraphLaunch(exec, c->st));
        CK(cudaEventRecord(c->e1, c->st));
        if (elapsed_s(c, &s) < 0)
            return -1;
        push(&r->launch_graph_s, s / chain);
    }
    CK(cudaGraphExecDestroy(exec));
    CK(cudaGraphDestroy(graph));
    return 0;
}

/* Starting blocks: an empty kernel with small blocks, twice, with many
 * more blocks the second time; the difference of the two event times over
 * the difference of the block counts is the whole GPU's time per block
 * (the launch's own fixed cost cancels).  Every SM holds sm_blocks such
 * blocks at once, so the blocks' start and retirement is all that is
 * timed. */
#define BLOCK_THREADS 64
static int bench_blocks(ctx *c, mmm_calib_raw *r, int reps, int quick)
{
    int64_t per = (int64_t)r->dev.sms * r->dev.sm_blocks;
    r->block_threads = BLOCK_THREADS;
    r->block_grid[0] = per * (quick ? 4 : 16);
    r->block_grid[1] = per * (quick ? 16 : 64);
    k_empty<<<(unsigned)r->block_grid[1], BLOCK_THREADS, 0, c->st>>>();
    CKL();
    for (int k = 0; k < reps; k++) {
        double s[2];
        for (int g = 0; g < 2; g++) {
            CK(cudaEventRecord(c->e0, c->st));
            k_empty<<<(unsigned)r->block_grid[g], BLOCK_THREADS, 0, c->st>>>();
            CK(cudaGetLastError());
            CK(cudaEventRecord(c->e1, c->st));
            if (elapsed_s(c, &s[g]) < 0)
                return -1;
        }
        if (s[1] > s[0])
            push(&r->block_s, (s[1] - s[0]) /
                                  (double)(r->block_grid[1] - r->block_grid[0]));
    }
    if (r->block_s.n == 0)
        return fail(c, "the block-start launches did not grow with their blocks");
    return 0;
}

/* Atomics on one word: one thread per block adds to the same float, in
 * two launches with many more blocks the second time; the difference of
 * their event times over the difference of their block counts is the time
 * between two atomics on one word (they are served one after another, and
 * take longer than the blocks' start, which the same difference would
 * otherwise measure: bench_blocks). */
__global__ void k_atomic(float *x)
{
    if (threadIdx.x == 0)
        atomicAdd(x, 1.0f);
}

static int bench_atomics(ctx *c, mmm_calib_raw *r, int reps, int quick)
{
    int64_t per = (int64_t)r->dev.sms * r->dev.sm_blocks;
    float *x = (float *)c->d_sink;
    r->atomic_grid[0] = per * (quick ? 4 : 16);
    r->atomic_grid[1] = per * (quick ? 16 : 64);
    k_atomic<<<(unsigned)r->atomic_grid[1], 32, 0, c->st>>>(x);
    CKL();
    for (int k = 0; k < reps; k++) {
        double s[2];
        for (int g = 0; g < 2; g++) {
            CK(cudaEventRecord(c->e0, c->st));
            k_atomic<<<(unsigned)r->atomic_grid[g], 32, 0, c->st>>>(x);
            CK(cudaGetLastError());
            CK(cudaEventRecord(c->e1, c->st));
            if (elapsed_s(c, &s[g]) < 0)
                return -1;
        }
        if (s[1] > s[0])
            push(&r->atomic_s, (s[1] - s[0]) / (double)(r->atomic_grid[1] -
                                                       r->atomic_grid[0]));
    }
    if (r->atomic_s.n == 0)
        return fail(c, "the atomic launches did not grow with their blocks");
    return 0;
}

/* Atomics beside traffic: each thread reads `words` 16-byte words of its
 * block's slice (coalesced), the block meets at a barrier, and with `atom`
 * thread 0 adds to one float (its value depends on its loads, as a
 * reduction's would); the xor of the loads goes to sink only when it
 * equals the key (never), so that the loads stay. */
__global__ void k_atomic_stream(const uint4 *__restrict__ src, int words, int atom, float *x,
                                unsigned key, unsigned *sink)
{
    size_t base = (size_t)blockIdx.x * blockDim.x * (size_t)words + threadIdx.x;
    unsigned v = 0;
    for (int j = 0; j < words; j++) {
        uint4 a = src[base + (size_t)j * blockDim.x];
        v ^= a.x ^ a.w;
    }
    if (v == key)
        *sink = v;
    __syncthreads();
    if (atom && threadIdx.x == 0)
        atomicAdd(x, (float)(v & 1u));
}

/* Launches reading about 512 MiB (from DRAM: eight times the L2 and more)
 * with and without one atomic a block, for 1, 2, 4, 8 words a thread:
 * the atomics alone take about 1.9, 0.95, 0.48 and 0.24 times the reads
 * on an H200. */
static int bench_atomic_stream(ctx *c, mmm_calib_raw *r, int reps)
{
    const int t = 256;
    size_t bytes = (size_t)512 << 20;
    uint4 *buf = NULL;
    float *x = (float *)c->d_sink;
    CK(cudaMalloc(&buf, bytes));
    CK(cudaMemsetAsync(buf, 0x33, bytes, c->st));
    for (int i = 0; i < MMM_CALIB_NATOMSTREAM; i++) {
        int w = mmm_calib_atomic_stream_words[i];
        int64_t blocks = (int64_t)(bytes / ((size_t)t * 16 * (size_t)w));
        r->atomic_stream_blocks[i] = blocks;
        for (int k = 0; k < reps; k++)
            for (int atom = 0; atom < 2; atom++) {
                double s = 0;
                CK(cudaEventRecord(c->e0, c->st));
                k_atomic_stream<<<(unsigned)blocks, t, 0, c->st>>>(buf, w, atom, x, 1u,
                                                                   c->d_sink + 1);
                CK(cudaGetLastError());
                CK(cudaEventRecord(c->e1, c->st));
                if (elapsed_s(c, &s) < 0)
                    return -1;
                push(atom ? &r->atomic_stream_s[i] : &r->plain_stream_s[i], s);
            }
    }
    CK(cudaFree(buf));
    return 0;
}

/* Gathered words: each thread reads 8 words at addresses uniform at random
 * over a region (a hash of the thread, the word and the launch: no index
 * array, so nothing else moves) and writes their sum.  Regions: a quarter
 * of the L2 (found in it), 1, 2 and 4 times the L2, and 32 times (missing
 * it), each a power of two, the largest halved until it fits in a quarter
 * of the free memory; seconds per word of the whole GPU.  Then the same
 * words stored (k_scatter).  The kernels are gather.cuh's
 * (bench/gpu/gathers.cu times the same ones). */
static size_t pow2_at_least(size_t v)
{
    size_t p = 1;
    while (p < v)
        p *= 2;
    return p;
}

static int bench_gathers(ctx *c, mmm_calib_raw *r, int reps, int quick)
{
    const unsigned threads = quick ? 1u << 20 : 1u << 22;
    size_t l2 = pow2_at_least((size_t)r->dev.l2_bytes), free_b = 0, total_b = 0;
    size_t regions[MMM_CALIB_NGATHER] = {l2 / 4, l2, 2 * l2, 4 * l2, 32 * l2};
    float *x, *out;
    unsigned salt = 0;
    if (regions[0] < (1u << 20))
        regions[0] = 1u << 20;
    CK(cudaMemGetInfo(&free_b, &total_b));
    while (regions[4] > 8 * l2 && regions[4] > free_b / 4)
        regions[4] /= 2;
    CK(cudaMalloc(&x, regions[4]));
    CK(cudaMalloc(&out, (size_t)threads * sizeof(float)));
    CK(cudaMemset(x, 0, regions[4]));
    r->gather_words = (int64_t)threads * 8;
    for (int g = 0; g < MMM_CALIB_NGATHER; g++) {
        size_t mask = regions[g] / sizeof(float) - 1;
        r->gather_region_bytes[g] = (int64_t)regions[g];
        k_gather<<<threads / 256, 256, 0, c->st>>>(x, out, mask, salt += 0x9e3779b9u);
        CKL();
        for (int kind = 0; kind < 2; kind++) { /* read, then written */
            mmm_calib_series *series = kind ? &r->scatter_s[g] : &r->gather_s[g];
            for (int k = 0; k < reps; k++) {
                double s;
                CK(cudaEventRecord(c->e0, c->st));
                if (kind)
                    k_scatter<<<threads / 256, 256, 0, c->st>>>(x, mask, salt += 0x9e3779b9u);
                else
                    k_gather<<<threads / 256, 256, 0, c->st>>>(x, out, mask, salt += 0x9e3779b9u);
                CK(cudaGetLastError());
                CK(cudaEventRecord(c->e1, c->st));
                if (elapsed_s(c, &s) < 0)
                    return -1;
                push(series, s / (double)r->gather_words);
            }
        }
    }
    CK(cudaFree(x));
    CK(cudaFree(out));
    return 0;
}

/* Issue rate: warp-instructions (the FMAs) of a full GPU over event time;
 * the library divides by the clock and the SMs. */
static int bench_issue(ctx *c, mmm_calib_raw *r, int reps, int sms)
{
    int per_sm = 0, t = 256;
    double s = 0;
    CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, k_issue, t, 0));
    if (per_sm < 1)
        return fail(c, "the issue kernel cannot run blocks of %d threads", t);
    int grid = per_sm * sms;
    r->issue_warp_instructions = (double)grid * (t / 32) * ISSUE_ITERS * ISSUE_CHAINS;
    k_issue<<<grid, t, 0, c->st>>>(0.9999f, (float *)c->d_sink);
    CKL();
    for (int k = 0; k < reps; k++) {
        CK(cudaEventRecord(c->e0, c->st));
        k_issue<<<grid, t, 0, c->st>>>(0.9999f, (float *)c->d_sink);
        CK(cudaGetLastError());
        CK(cudaEventRecord(c->e1, c->st));
        if (elapsed_s(c, &s) < 0)
            return -1;
        push(&r->issue_s, s);
    }
    return 0;
}

/* A random cycle of n slots of 32 words (128-byte lines) out of a region of
 * `lines` lines: partial Fisher-Yates over the line indices. */
static int make_chain(ctx *c, unsigned *d_next, size_t lines, int n,
                      uint64_t seed, unsigned *start)
{
    unsigned *perm = (unsigned *)malloc(lines * sizeof *perm);
    unsigned *d_order;
    uint64_t s = seed;
    if (!perm)
        return fail(c, "out of memory");
    for (size_t i = 0; i < lines; i++)
        perm[i] = (unsigned)i;
    for (int i = 0; i < n; i++) {
        size_t j = (size_t)i + (size_t)(rng_next(&s) % (lines - (size_t)i));
        unsigned t = perm[i];
        perm[i] = perm[j];
        perm[j] = t;
        perm[i] *= 32u; /* word index of the line */
    }
    *start = perm[0];
    cudaError_t e = cudaMalloc(&d_order, (size_t)n * sizeof *d_order);
    if (e == cudaSuccess)
        e = cudaMemcpyAsync(d_order, perm, (size_t)n * sizeof *d_order,
                            cudaMemcpyHostToDevice, c->st);
    if (e == cudaSuccess)
        e = cudaStreamSynchronize(c->st);
    free(perm);
    if (e != cudaSuccess)
        return fail(c, "chain: %s", cudaGetErrorString(e));
    k_link<<<(n + 255) / 256, 256, 0, c->st>>>(d_next, d_order, n);
    CKL();
    CK(cudaFree(d_order));
    return 0;
}

static int bench_chase(ctx *c, mmm_calib_raw *r, int reps, int steps,
                       size_t region)
{
    unsigned *d_next;
    unsigned h_start = 0;
    const int warm = 64;
    const size_t l2_region = 8u << 20; /* inside any L2 of 8 MB or more */
    const int l2_steps = 8192;          /* 1 MB of lines */
    r->chase_region_bytes = (int64_t)region;
    r->chase_steps = steps;
    CK(cudaMalloc(&d_next, region));
    if (make_chain(c, d_next, region / 128, steps + warm + 1, 42, &h_start) < 0)
        return -1;
    for (int k = 0; k < reps; k++) {
        if (flush_l2(c) < 0)
            return -1;
        k_chase<<<1, 1, 0, c->st>>>(d_next, h_start, warm, steps, c->d_cycles,
                                     c->d_sink);
        if (take(c, &r->load_cycles, steps) < 0)
            return -1;
    }
    /* Inside the L2: a cycle of l2_steps lines in l2_region; one warming
     * pass over the whole cycle, then one timed pass. */
    if (make_chain(c, d_next, l2_region / 128, l2_steps, 7, &h_start) < 0)
        return -1;
    for (int k = 0; k < reps; k++) {
        k_chase<<<1, 1, 0, c->st>>>(d_next, h_start, l2_steps, l2_steps,
                                     c->d_cycles, c->d_sink);
        if (take(c, &r->l2_load_cycles, l2_steps) < 0)
            return -1;
    }
    CK(cudaFree(d_next));
    return 0;
}

static int bench_core(ctx *c, mmm_calib_raw *r, int reps)
{
    const double nops = (double)OPS_ITERS * OPS_UNROLL;
    const double nmod = (double)MULMOD_ITERS * MULMOD_UNROLL;
    const int p = 469762049; /* CUMODP's prime, 7 * 2^26 + 1 */
    for (int k = 0; k < reps; k++) {
        k_smem<<<1, 256, 0, c->st>>>(97, c->d_cycles, c->d_sink);
        if (take(c, &r->shared_cycles, SMEM_STEPS) < 0)
            return -1;

        k_op<op_iadd><<<1, 1, 0, c->st>>>(k, 3, 0, c->d_cycles, (int *)c->d_sink);
        if (take(c, &r->op_cycles[MMM_CALIB_OP_INT32_ADD], nops) < 0)
            return -1;

        k_op<op_ffma><<<1, 1, 0, c->st>>>(1.0f + k, 0.999f, 0.5f, c->d_cycles,
                                           (float *)c->d_sink);
        if (take(c, &r->op_cycles[MMM_CALIB_OP_FP32_FMA], nops) < 0)
            return -1;

        k_op<op_dfma><<<1, 1, 0, c->st>>>(1.0 + k, 0.999, 0.5, c->d_cycles,
                                           (double *)c->d_sink);
        if (take(c, &r->op_cycles[MMM_CALIB_OP_FP64_FMA], nops) < 0)
            return -1;

        k_op_mulmod<<<1, 1, 0, c->st>>>(123456789 + k, 987654321 % p, p,
                                         c->d_cycles, (int *)c->d_sink);
        if (take(c, &r->op_cycles[MMM_CALIB_OP_MULMOD64], nmod) < 0)
            return -1;

        k_op_mulmod_rem<<<1, 1, 0, c->st>>>(123456789u + (unsigned)k,
                                             987654321u % (unsigned)p,
                                             (unsigned long long)p,
                                             c->d_cycles, c->d_sink);
        if (take(c, &r->op_cycles[MMM_CALIB_OP_MULMOD64_REM], nmod) < 0)
            return -1;

        for (int i = 0; i < MMM_CALIB_NSYNC; i++) {
            k_sync<<<1, mmm_calib_sync_sizes[i], 0, c->st>>>(c->d_cycles);
            if (take(c, &r->sync_cycles[i], SYNC_ITERS * 16.0) < 0)
                return -1;
        }
    }
    /* The two modular multiplications must agree with the host. */
    {
        int hx;
        unsigned long long x = 123456789ull % (unsigned)p;
        k_op_mulmod<<<1, 1, 0, c->st>>>((int)x, 987654321 % p, p, c->d_cycles,
                                         (int *)c->d_sink);
        CKL();
        CK(cudaMemcpy(&hx, c->d_sink, sizeof hx, cudaMemcpyDeviceToHost));
        for (int j = 0; j < MULMOD_ITERS * MULMOD_UNROLL; j++)
            x = x * (unsigned long long)(987654321 % p) % (unsigned)p;
        if ((unsigned long long)hx != x)
            return fail(c, "the modular multiplication kernel computed %d, "
                        "not %llu", hx, x);
    }
    return 0;
}

static int bench_copy(ctx *c, mmm_calib_raw *r, int reps, size_t bytes_each,
                      int sms)
{
    uint4 *src, *dst;
    size_t n = bytes_each / sizeof(uint4);
    double s = 0;
    unsigned h[4], want[4];
    r->copy_bytes = (int64_t)(2 * n * sizeof(uint4));
    CK(cudaMalloc(&src, n * sizeof(uint4)));
    CK(cudaMalloc(&dst, n * sizeof(uint4)));
    CK(cudaMemsetAsync(src, 0x37, n * sizeof(uint4), c->st));
    for (int i = 0; i < MMM_CALIB_NBLOCK; i++) {
        int t = mmm_calib_block_sizes[i], per_sm = 0;
        CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, k_copy, t, 0));
        if (per_sm < 1)
            return fail(c, "the copy kernel cannot run blocks of %d threads", t);
        int grid = per_sm * sms;
        k_copy<<<grid, t, 0, c->st>>>(src, dst, n);
        CKL();
        for (int k = 0; k < reps; k++) {
            CK(cudaEventRecord(c->e0, c->st));
            for (int j = 0; j < BACK_TO_BACK; j++)
                k_copy<<<grid, t, 0, c->st>>>(src, dst, n);
            CK(cudaGetLastError());
            CK(cudaEventRecord(c->e1, c->st));
            if (elapsed_s(c, &s) < 0)
                return -1;
            push(&r->copy_s[i], s / BACK_TO_BACK);
        }
    }
    /* The driver's own device-to-device copy, for comparison. */
    for (int k = 0; k < reps; k++) {
        CK(cudaEventRecord(c->e0, c->st));
        for (int j = 0; j < BACK_TO_BACK; j++)
            CK(cudaMemcpyAsync(dst, src, n * sizeof(uint4),
                               cudaMemcpyDeviceToDevice, c->st));
        CK(cudaEventRecord(c->e1, c->st));
        if (elapsed_s(c, &s) < 0)
            return -1;
        push(&r->memcpy_s, s / BACK_TO_BACK);
    }
    CK(cudaMemcpy(h, (const char *)dst + (n * sizeof(uint4) - sizeof h), sizeof h,
                  cudaMemcpyDeviceToHost));
    memset(want, 0x37, sizeof want);
    if (memcmp(h, want, sizeof h))
        return fail(c, "the copy kernel did not copy");
    CK(cudaFree(src));
    CK(cudaFree(dst));
    return 0;
}

/* Copies and sets (cudaMemcpyAsync, cudaMemsetAsync; host buffers pinned):
 * for each kind and size, a chain of `chain` dependent calls captured once
 * as a CUDA graph and replayed, so that the host's pace of issue is not
 * timed; the event time over the chain is one sample of the seconds per
 * call (the library subtracts the gap a graph puts between its nodes). */
static int bench_transfers(ctx *c, mmm_calib_raw *r, int reps, int quick)
{
    const int64_t sizes[MMM_CALIB_NTRANSFER] = {
        4096, (int64_t)16 << 20, (int64_t)(quick ? 64 : 256) << 20};
    const size_t big = (size_t)sizes[MMM_CALIB_NTRANSFER - 1];
    unsigned char *d_a = NULL, *d_b = NULL, *h = NULL;
    double s = 0;
    r->transfer_chain = quick ? 8 : 16;
    for (int j = 0; j < MMM_CALIB_NTRANSFER; j++)
        r->transfer_bytes[j] = sizes[j];
    CK(cudaMalloc(&d_a, big));
    CK(cudaMalloc(&d_b, big));
    CK(cudaMallocHost(&h, big));
    memset(h, 0x17, big);
    CK(cudaMemsetAsync(d_a, 0x29, big, c->st));
    CKL();
    for (int k = 0; k < MMM_CALIB_NXFERKIND; k++) {
        for (int j = 0; j < MMM_CALIB_NTRANSFER; j++) {
            size_t n = (size_t)sizes[j];
            cudaGraph_t graph;
            cudaGraphExec_t exec;
            CK(cudaStreamBeginCapture(c->st, cudaStreamCaptureModeThreadLocal));
            for (int q = 0; q < r->transfer_chain; q++) {
                switch (k) {
                case 0: /* device to device */
                    CK(cudaMemcpyAsync(d_b, d_a, n, cudaMemcpyDeviceToDevice,
                                       c->st));
                    break;
                case 1: /* host to device */
                    CK(cudaMemcpyAsync(d_b, h, n, cudaMemcpyHostToDevice,
                                       c->st));
                    break;
                case 2: /* device to host */
                    CK(cudaMemcpyAsync(h, d_a, n, cudaMemcpyDeviceToHost,
                                       c->st));
                    break;
                default: /* set */
                    CK(cudaMemsetAsync(d_b, 0x3c, n, c->st));
                    break;
                }
            }
            CK(cudaStreamEndCapture(c->st, &graph));
            CK(cudaGraphInstantiate(&exec, graph, 0));
            CK(cudaGraphLaunch(exec, c->st)); /* warm-up */
            CKL();
            for (int q = 0; q < reps; q++) {
                CK(cudaEventRecord(c->e0, c->st));
                CK(cudaGraphLaunch(exec, c->st));
                CK(cudaEventRecord(c->e1, c->st));
                if (elapsed_s(c, &s) < 0)
                    return -1;
                push(&r->transfer_s[k][j], s / r->transfer_chain);
            }
            CK(cudaGraphExecDestroy(exec));
            CK(cudaGraphDestroy(graph));
        }
    }
    /* The last calls moved their bytes: the host buffer holds the device's
     * (0x29, over the host's 0x17), the device buffer the set's (0x3c). */
    {
        unsigned char t[16], dev[16], set[16];
        memset(dev, 0x29, sizeof dev);
        memset(set, 0x3c, sizeof set);
        CK(cudaMemcpy(t, d_b + big - sizeof t, sizeof t,
                      cudaMemcpyDeviceToHost));
        if (memcmp(t, set, sizeof t) || memcmp(h + big - 16, dev, 16))
            return fail(c, "the copies and sets did not move their bytes");
    }
    CK(cudaFreeHost(h));
    CK(cudaFree(d_a));
    CK(cudaFree(d_b));
    return 0;
}

/* The L2: arrays of a quarter of the L2 the device reports to 8 times
 * it, each read once by a full GPU, then again `passes` times by one
 * timed launch (about 1 GiB in all, so that the launch's own cost is
 * small); a sample is the timed launch's seconds per pass (what the L2
 * kept of the previous pass serves the next).  The largest array is
 * allocated once, the others are its beginning. */
static int bench_l2(ctx *c, mmm_calib_raw *r, int reps, int sms)
{
    int per_sm = 0, t = 256;
    int64_t eighth = r->dev.l2_bytes / 8 / 4096 * 4096;
    unsigned char *buf = NULL;
    double s = 0;
    if (eighth <= 0)
        return fail(c, "the device reports no L2");
    CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, k_read, t, 0));
    if (per_sm < 1)
        return fail(c, "the read kernel cannot run blocks of %d threads", t);
    int grid = per_sm * sms;
    for (int i = 0; i < MMM_CALIB_NL2; i++)
        r->l2_array_bytes[i] = eighth * mmm_calib_l2_eighths[i];
    CK(cudaMalloc(&buf, (size_t)r->l2_array_bytes[MMM_CALIB_NL2 - 1]));
    CK(cudaMemsetAsync(buf, 0x21, (size_t)r->l2_array_bytes[MMM_CALIB_NL2 - 1],
                       c->st));
    for (int i = 0; i < MMM_CALIB_NL2; i++) {
        size_t n = (size_t)r->l2_array_bytes[i] / sizeof(uint4);
        int passes = (int)(((int64_t)1 << 30) / r->l2_array_bytes[i]);
        if (passes < 1)
            passes = 1;
        if (passes > 64)
            passes = 64;
        for (int k = 0; k < reps; k++) {
            if (flush_l2(c) < 0)
                return -1;
            k_read<<<grid, t, 0, c->st>>>((const uint4 *)buf, n, 1, 1u,
                                          c->d_sink);
            CK(cudaGetLastError());
            CK(cudaEventRecord(c->e0, c->st));
            k_read<<<grid, t, 0, c->st>>>((const uint4 *)buf, n, passes, 1u,
                                          c->d_sink);
            CK(cudaGetLastError());
            CK(cudaEventRecord(c->e1, c->st));
            if (elapsed_s(c, &s) < 0)
                return -1;
            push(&r->l2_read_s[i], s / passes);
        }
    }
    CK(cudaFree(buf));
    return 0;
}

typedef void (*u_fn)(const unsigned *, unsigned *, int, size_t, unsigned,
                     unsigned long long *);

static u_fn u_kernel(int t)
{
    switch (t) {
    case 128: return k_u<128>;
    case 256: return k_u<256>;
    case 512: return k_u<512>;
    default: return k_u<1024>;
    }
}

static int bench_u(ctx *c, mmm_calib_raw *r, int reps, int sms, int lat_rounds,
                   int bw_rounds, int waves)
{
    /* One buffer serves both regimes: the latency rounds are 1 MiB apart
     * (lat_rounds MiB), the bandwidth kernel sweeps waves x slots x T words
     * per round. */
    size_t need = (size_t)lat_rounds << 20, words;
    unsigned *g, *out;
    for (int i = 0; i < MMM_CALIB_NBLOCK; i++) {
        int t = mmm_calib_block_sizes[i], per_sm = 0;
        CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, u_kernel(t), t, 0));
        if (per_sm < 1)
            return fail(c, "the U kernel cannot run blocks of %d threads", t);
        r->u_resident[i] = per_sm;
        r->u_blocks[i] = (int64_t)waves * per_sm * sms;
        words = (size_t)r->u_blocks[i] * t * bw_rounds;
        if (words * 4 > need)
            need = words * 4;
    }
    r->u_rounds = bw_rounds;
    CK(cudaMalloc(&g, need));
    CK(cudaMemsetAsync(g, 0x11, need, c->st));
    {
        size_t outw = 0;
        for (int i = 0; i < MMM_CALIB_NBLOCK; i++) {
            size_t w = (size_t)r->u_blocks[i] * mmm_calib_block_sizes[i];
            if (w > outw)
                outw = w;
        }
        CK(cudaMalloc(&out, outw * sizeof *out));
    }
    for (int i = 0; i < MMM_CALIB_NBLOCK; i++) {
        int t = mmm_calib_block_sizes[i];
        u_fn fn = u_kernel(t);
        double s = 0;
        size_t bw_stride = (size_t)r->u_blocks[i] * t;
        /* Latency: one block; rounds 1 MiB apart, cold after the flush. */
        for (int k = 0; k < reps; k++) {
            if (flush_l2(c) < 0)
                return -1;
            fn<<<1, t, 0, c->st>>>(g, out, lat_rounds, (size_t)1 << 18, 0u,
                                   c->d_cycles);
            if (take(c, &r->u_latency_cycles[i], lat_rounds) < 0)
                return -1;
        }
        /* Bandwidth: the whole GPU, `waves` full waves; BACK_TO_BACK
         * launches per sample hide all launch latencies but the first. */
        fn<<<(unsigned)r->u_blocks[i], t, 0, c->st>>>(g, out, bw_rounds,
                                                      bw_stride, 0u, c->d_cycles);
        CKL();
        for (int k = 0; k < reps; k++) {
            if (flush_l2(c) < 0)
                return -1;
            CK(cudaEventRecord(c->e0, c->st));
            for (int j = 0; j < BACK_TO_BACK; j++)
                fn<<<(unsigned)r->u_blocks[i], t, 0, c->st>>>(
                    g, out, bw_rounds, bw_stride, 0u, c->d_cycles);
            CK(cudaGetLastError());
            CK(cudaEventRecord(c->e1, c->st));
            if (elapsed_s(c, &s) < 0)
                return -1;
            push(&r->u_bandwidth_s[i], s / BACK_TO_BACK);
        }
    }
    CK(cudaFree(g));
    CK(cudaFree(out));
    return 0;
}

extern "C" int mmm__cuda_calibrate(mmm_calib_raw *r, int device, int quick,
                                   char *msg, size_t msglen)
{
    ctx cx, *c = &cx;
    int ndev = 0, reps = quick ? 5 : 15;
    memset(r, 0, sizeof *r);
    memset(c, 0, sizeof *c);
    c->msg = msg;
    c->msglen = msglen;
    if (msglen)
        msg[0] = '\0';
    r->quick = quick;
    {
        /* Without libcuda (no driver) the static runtime says "driver
         * version is insufficient", which reads as an old driver: say what
         * it is.  An old driver that is there keeps the runtime's words. */
        cudaError_t e = cudaGetDeviceCount(&ndev);
        if ((e == cudaErrorInsufficientDriver && !driver_present()) ||
            e == cudaErrorNoDevice || (e == cudaSuccess && ndev == 0))
            return fail(c, "no NVIDIA GPU or driver found (%s)",
                        e == cudaErrorInsufficientDriver
                            ? "the NVIDIA driver, libcuda.so.1, is not installed"
                            : "the driver sees no GPU");
        if (e != cudaSuccess)
            return fail(c, "no usable CUDA device: %s", cudaGetErrorString(e));
    }
    if (device < 0 || device >= ndev)
        return fail(c, "no CUDA device %d (this machine has %d)", device, ndev);
    CK(cudaSetDevice(device));
    if (get_device(c, &r->dev, device) < 0)
        return -1;
    CK(cudaStreamCreate(&c->st));
    CK(cudaEventCreate(&c->e0));
    CK(cudaEventCreate(&c->e1));
    CK(cudaMalloc(&c->d_cycles, sizeof *c->d_cycles));
    CK(cudaMalloc(&c->d_sink, 64));
    /* Flush buffer: four times the L2, at least 64 MiB. */
    c->flush_bytes = (size_t)r->dev.l2_bytes * 4;
    if (c->flush_bytes < (64u << 20))
        c->flush_bytes = 64u << 20;
    CK(cudaMalloc(&c->d_flush, c->flush_bytes));

    /* Warm the clocks: every SM busy for about 0.2 s (0.1 s quick). */
    {
        long long cyc = (long long)(r->dev.clock_hz * (quick ? 0.1 : 0.2));
        k_spin<<<r->dev.sms * 4, 128, 0, c->st>>>(cyc, c->d_cycles);
        CKL();
    }
    if (bench_clock(c, r, reps) < 0 ||
        bench_launch(c, r, quick ? 5 : 21, quick ? 500 : 4000) < 0 ||
        bench_blocks(c, r, reps, quick) < 0 ||
        bench_atomics(c, r, reps, quick) < 0 ||
        bench_atomic_stream(c, r, reps) < 0 ||
        bench_issue(c, r, reps, r->dev.sms) < 0)
        return -1;
    {
        /* Chase region: 8 x L2 rounded up to a power of two, >= 64 MiB. */
        size_t region = 64u << 20;
        while (region < (size_t)r->dev.l2_bytes * 8)
            region *= 2;
        if (bench_chase(c, r, quick ? 3 : 7, quick ? 8192 : 32768, region) < 0)
            return -1;
    }
    if (bench_core(c, r, reps) < 0 ||
        bench_copy(c, r, reps, (size_t)256 << 20, r->dev.sms) < 0 ||
        bench_gathers(c, r, reps, quick) < 0 ||
        bench_transfers(c, r, reps, quick) < 0 ||
        bench_l2(c, r, reps, r->dev.sms) < 0 ||
        bench_u(c, r, reps, r->dev.sms, 64, 32, 16) < 0)
        return -1;
    CK(cudaFree(c->d_cycles));
    CK(cudaFree(c->d_sink));
    CK(cudaFree(c->d_flush));
    CK(cudaEventDestroy(c->e0));
    CK(cudaEventDestroy(c->e1));
    CK(cudaStreamDestroy(c->st));
    return 0;
}
