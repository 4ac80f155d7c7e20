/*
 * csr.cuh: the sparse matrix-vector products of holdout3.cu (spmv, k rows
 * per thread) and holdout4.cu (vec_spmv, a warp per row) share their data
 * and their timing: an n x n matrix in CSR with exactly d nonzeros per row,
 * columns uniform at random (rnd(), host.cuh) and values -8..7, x small
 * integers, so every product and sum is exact in float; y set to NaN before
 * each configuration (an unwritten row fails), every row checked, one CSV
 * row "NAME,n,,d,tpb,k,,,ms" per configuration (tpb 64..1024, k 1..8).
 * Include it after timing.cuh and host.cuh; run(arg) launches the product
 * for arg (a struct csr_arg).
 */
#ifndef MMM_BENCH_GPU_CSR_CUH
#define MMM_BENCH_GPU_CSR_CUH

#include <math.h>

struct csr_arg {
    const int *rowptr, *col;
    const float *val, *x;
    float *y;
    int n, T, K;
};

static void bench_csr(const char *name, int n, int d, void (*run)(void *))
{
    const size_t nnz = (size_t)n * d;
    int *hrow = (int *)xmalloc((n + 1) * sizeof(int)), *hcol = (int *)xmalloc(nnz * sizeof(int));
    float *hval = (float *)xmalloc(nnz * sizeof(float)), *hx = (float *)xmalloc(n * sizeof(float)),
          *want = (float *)xmalloc(n * sizeof(float)), *got = (float *)xmalloc(n * sizeof(float));
    for (int i = 0; i <= n; i++)
        hrow[i] = i * d;
    for (size_t e = 0; e < nnz; e++) {
        uint32_t r = rnd();
        hcol[e] = (int)(r % (uint32_t)n);
        hval[e] = (float)((int)(r >> 28) - 8); /* -8 .. 7 */
    }
    for (int i = 0; i < n; i++)
        hx[i] = (float)((i * 7) % 11) - 5.0f;
    /* Small integers: every product and sum is exact in float. */
    for (int i = 0; i < n; i++) {
        double s = 0;
        for (size_t e = hrow[i]; e < (size_t)hrow[i + 1]; e++)
            s += (double)hval[e] * hx[hcol[e]];
        want[i] = (float)s;
    }
    int *drow = dev_copy(hrow, n + 1), *dcol = dev_copy(hcol, nnz);
    float *dval = dev_copy(hval, nnz), *dx = dev_copy(hx, n), *dy = dev_alloc<float>(n);
    for (int T = 64; T <= 1024; T *= 2)
        for (int K = 1; K <= 8; K *= 2) {
            struct csr_arg a = {drow, dcol, dval, dx, dy, n, T, K};
            CHECK(cudaMemset(dy, 0xff, n * sizeof(float))); /* NaN: an unwritten row fails */
            float ms = time_median(run, &a);
            to_host(got, dy, n);
            for (int i = 0; i < n; i++)
                if (!(fabsf(got[i] - want[i]) <= 1e-3f))
                    fail("%s n=%d d=%d T=%d K=%d: y[%d] = %g, want %g\n", name, n, d, T, K, i,
                         got[i], want[i]);
            put_row("%s,%d,,%d,%d,%d,,,%.5f\n", name, n, d, T, K, ms);
        }
    dev_free(drow, dcol, dval, dx, dy);
    host_free(hrow, hcol, hval, hx, want, got);
}

#endif
