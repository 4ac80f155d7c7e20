// blocks.cu: does starting a wave's blocks add to a short launch's time?
// An SM starts its blocks one after another (block_cycles apart: `mmm
// calibrate` times empty blocks).  This streams W words per thread
// (coalesced: word j of thread t at j*T + t over T threads, summed, one
// word written per thread) with a fixed number of threads per SM and
// 64..1024 threads per block, so the same bytes move with 32 down to 2
// blocks per SM.  waves = 1: T = p * 2048 threads, every block resident at
// once; waves = 4: four times as many blocks (the SMs start new blocks
// while others run).  W = 8, 32, 128 (8.6 to 138 MB per wave); the median
// of 7 event-timed launches after a warm-up (timing.cuh).  The sums are
// checked.  docs/time.md (section 3) and docs/fidelity.md (section 7) say
// what the rows showed.
//
//   nvcc -O3 -arch=sm_90 -o blocks bench/gpu/blocks.cu && ./blocks
#include <cstdio>
#include <cstdlib>
#define PROG "blocks"
#include "timing.cuh"

template <int W>
__global__ void stream_sum(const float *__restrict__ x, float *__restrict__ out, size_t T)
{
    const size_t t = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    float s = 0.0f;
#pragma unroll 8
    for (int j = 0; j < W; j++)
        s += x[j * T + t];
    out[t] = s;
}

typedef void (*kfn)(const float *, float *, size_t);
struct barg { kfn f; const float *x; float *out; size_t T; int tpb; };
static void run_stream(void *p)
{
    barg *b = (barg *)p;
    b->f<<<(unsigned)(b->T / b->tpb), b->tpb>>>(b->x, b->out, b->T);
}

int main(void)
{
    cudaDeviceProp prop;
    CHECK(cudaGetDeviceProperties(&prop, 0));
    timing_init();
    const size_t per_wave = (size_t)prop.multiProcessorCount * prop.maxThreadsPerMultiProcessor;
    const size_t maxT = 4 * per_wave, maxW = 128;
    float *x, *out, *h = (float *)malloc(maxT * sizeof(float));
    CHECK(cudaMalloc(&x, maxT * maxW * sizeof(float)));
    CHECK(cudaMalloc(&out, maxT * sizeof(float)));
    /* x[i] = 1 for every i: each thread's sum is W, exactly */
    {
        float *hx = (float *)malloc(maxT * maxW * sizeof(float));
        for (size_t i = 0; i < maxT * maxW; i++)
            hx[i] = 1.0f;
        CHECK(cudaMemcpy(x, hx, maxT * maxW * sizeof(float), cudaMemcpyHostToDevice));
        free(hx);
    }
    printf("# %s, %d SMs, %d threads per SM\n", prop.name, prop.multiProcessorCount,
           prop.maxThreadsPerMultiProcessor);
    printf("program,waves,w,tpb,time_ms\n");
    const int ws[] = {8, 32, 128};
    const kfn fs[] = {stream_sum<8>, stream_sum<32>, stream_sum<128>};
    for (int waves = 1; waves <= 4; waves *= 4)
        for (int wi = 0; wi < 3; wi++)
            for (int tpb = 64; tpb <= 1024; tpb *= 2) {
                barg b = {fs[wi], x, out, waves * per_wave, tpb};
                float ms = time_median(run_stream, &b);
                CHECK(cudaMemcpy(h, out, b.T * sizeof(float), cudaMemcpyDeviceToHost));
                for (size_t t = 0; t < b.T; t++)
                    if (h[t] != (float)ws[wi]) {
                        fprintf(stderr, "blocks: waves=%d w=%d tpb=%d: out[%zu] = %g, want %d\n",
                                waves, ws[wi], tpb, t, h[t], ws[wi]);
                        return 1;
                    }
                printf("stream_sum,%d,%d,%d,%.5f\n", waves, ws[wi], tpb, ms);
            }
    CHECK(cudaFree(x));
    CHECK(cudaFree(out));
    free(h);
    return 0;
}
