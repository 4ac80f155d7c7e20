// demo_kernels.cuh: the four kernels of graph_demo.cu and streams_demo.cu.
#pragma once
#include <cstdio>

__global__ void scale(float *x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] = 2.0f * x[i] + 1.0f; }
__global__ void add(const float *x, float *y, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) y[i] = x[i] + 3.0f; }
__global__ void square(const float *x, float *z, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) z[i] = x[i] * x[i]; }
__global__ void join(const float *y, const float *z, float *x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] = 0.5f * (y[i] - z[i]); }

#define CK(c) do { cudaError_t e_ = (c); if (e_ != cudaSuccess) { fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); return 1; } } while (0)
