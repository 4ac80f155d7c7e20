/* capture_graph.cu: capture a few dependent kernels, a memset and two
 * memcpys into a CUDA graph and write it with cudaGraphDebugDotPrint in its
 * verbose form.  The result (cuda_graph.dot beside this file) is test data
 * for mmm's CUDA graph DOT reader.
 *
 *   nvcc -arch=sm_90 -o capture_graph capture_graph.cu
 *   ./capture_graph cuda_graph.dot
 *
 * The graph: memset(d_a) -> fill -> {scale, square} -> combine -> memcpy D2H,
 * with an H2D memcpy of d_b before scale (a fork/join through events):
 * fill writes d_a, scale reads it into d_b, square into d_c, combine adds
 * d_b and d_c into d_a. */
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #x, \
            cudaGetErrorString(e_)); exit(1); } } while (0)

__global__ void fill(float *a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) a[i] += (float)i;
}

__global__ void scale(const float *a, float *b, int n)
{
    extern __shared__ float tile[];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    tile[threadIdx.x] = i < n ? a[i] : 0.0f;
    __syncthreads();
    if (i < n) b[i] = 2.0f * tile[threadIdx.x] + b[i];
}

__global__ void square(const float *a, float *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] * a[i];
}

__global__ void combine(float *a, const float *b, const float *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) a[i] = b[i] + c[i];
}

int main(int argc, char **argv)
{
    const int n = 1024;
    const char *path = argc > 1 ? argv[1] : "cuda_graph.dot";
    float *d_a, *d_b, *d_c, *h_b, *h_out;
    cudaStream_t s0, s1;
    cudaEvent_t fork, join;
    cudaGraph_t graph;
    cudaGraphExec_t exec;

    CK(cudaMalloc(&d_a, n * sizeof(float)));
    CK(cudaMalloc(&d_b, n * sizeof(float)));
    CK(cudaMalloc(&d_c, n * sizeof(float)));
    CK(cudaMallocHost(&h_b, n * sizeof(float)));
    CK(cudaMallocHost(&h_out, n * sizeof(float)));
    for (int i = 0; i < n; i++) h_b[i] = 1.0f;
    CK(cudaStreamCreateWithFlags(&s0, cudaStreamNonBlocking));
    CK(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking));
    CK(cudaEventCreateWithFlags(&fork, cudaEventDisableTiming));
    CK(cudaEventCreateWithFlags(&join, cudaEventDisableTiming));

    CK(cudaStreamBeginCapture(s0, cudaStreamCaptureModeGlobal));
    CK(cudaMemsetAsync(d_a, 0, n * sizeof(float), s0));
    fill<<<n / 256, 256, 0, s0>>>(d_a, n);
    CK(cudaEventRecord(fork, s0));
    CK(cudaStreamWaitEvent(s1, fork, 0));
    square<<<n / 128, 128, 0, s1>>>(d_a, d_c, n);
    CK(cudaEventRecord(join, s1));
    CK(cudaMemcpyAsync(d_b, h_b, n * sizeof(float), cudaMemcpyHostToDevice, s0));
    scale<<<n / 512, 512, 512 * sizeof(float), s0>>>(d_a, d_b, n);
    CK(cudaStreamWaitEvent(s0, join, 0));
    combine<<<n / 256, 256, 0, s0>>>(d_a, d_b, d_c, n);
    CK(cudaMemcpyAsync(h_out, d_a, n * sizeof(float), cudaMemcpyDeviceToHost, s0));
    CK(cudaStreamEndCapture(s0, &graph));

    CK(cudaGraphDebugDotPrint(graph, path, cudaGraphDebugDotFlagsVerbose));
    CK(cudaGraphInstantiate(&exec, graph, 0));
    CK(cudaGraphLaunch(exec, s0));
    CK(cudaStreamSynchronize(s0));
    /* a[i] = (2i + 1) + i*i, exact in float for i < 1024 */
    for (int i = 0; i < n; i++)
        if (h_out[i] != 2.0f * i + 1.0f + (float)i * i) {
            fprintf(stderr, "wrong result at %d: %g\n", i, h_out[i]);
            return 1;
        }
    printf("wrote %s; graph ran and its result is right\n", path);
    CK(cudaGraphExecDestroy(exec));
    CK(cudaGraphDestroy(graph));
    return 0;
}
