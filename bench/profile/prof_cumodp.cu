// prof_cumodp.cu: CUMODP's plain division (optimized, naive) and plain
// multiplication, the kernels unchanged (bench/profile/cumodp/, from
// davidtranhq/cumodp at 586a92e, GPL v3: cumodp/README.md), driven by the
// launch sequences that dags/cumodp/div_opt.xml, div_naive.xml and mul.xml
// describe (the library's host code, src/cudaDiv.cu divPrimeField,
// new_tests/Division/test_naiveDivision.cu divCUDA, src/opt_plain_mul.cu
// mulCUDA).  The library's compile-time constants (T = s, t = 2; BLOCK, Tx)
// are fixed per namespace below: one namespace per value, each including
// the upstream source (the "constants set on the command line").
//
//   prof_cumodp plan PROGRAM N:M[,N:M...] [CFG,...]   the launches, no GPU
//   prof_cumodp once PROGRAM N:M[,N:M...] [CFG,...]   each launch sequence once
//                                                     (for ncu), then checked
//   prof_cumodp time PROGRAM [N:M,...|all] [CFG,...]  1 warm-up, median of 7
//
// PROGRAM: div_opt (CFG: s, default 32,64,...,1024), div_naive (CFG: B,
// default 1,8; 256 threads), mul (CFG: s:l, default the 9 of
// dags/cumodp/runs_stream.csv).  Output on stdout: CSV rows
// program,n,m,s,B,l,time_ms,check (time 0 in 'once' mode); the launch
// sequences on stderr.  Inputs: random coefficients mod p = 469762049
// (leading coefficients nonzero); every result is checked at a random point
// (A = BQ + R, C = AB), and against a CPU schoolbook division or product
// where that is small.  Timed region: the first launch to the last
// (cudaEvents on the launch stream), the inputs reset before each run
// outside it; the library's own timed region also holds mulCUDA's cudaMalloc
// of the result and divCUDA's copy of the quotient, which the DAGs do not
// describe: here they are outside.  In 'once' mode the last divGPU of each
// optimized division is inside an NVTX start/end range "last", so that
// `ncu --nvtx --nvtx-include last` samples it (its configuration is that of
// the other divGPU launches, but it runs fewer steps).
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cstdint>
#include <string>
#include <vector>
#include <algorithm>
#include <cuda_runtime.h>
#include <nvtx3/nvToolsExt.h>

#include "cudaDiv.h"        // shim/: sfixn and include/inlines.h
#include "opt_plain_mul.h"  // shim/

// The namespaces are written out: #include cannot stand in a macro.
namespace div_s32 { const sfixn T = 32; const sfixn s = T; const sfixn t = 2;
#include "src/cudaDiv.cu"
}
namespace div_s64 { const sfixn T = 64; const sfixn s = T; const sfixn t = 2;
#include "src/cudaDiv.cu"
}
namespace div_s128 { const sfixn T = 128; const sfixn s = T; const sfixn t = 2;
#include "src/cudaDiv.cu"
}
namespace div_s256 { const sfixn T = 256; const sfixn s = T; const sfixn t = 2;
#include "src/cudaDiv.cu"
}
namespace div_s512 { const sfixn T = 512; const sfixn s = T; const sfixn t = 2;
#include "src/cudaDiv.cu"
}
namespace div_s1024 { const sfixn T = 1024; const sfixn s = T; const sfixn t = 2;
#include "src/cudaDiv.cu"
}

namespace mul_s1_l256 { const sfixn BLOCK = 1; const sfixn Tx = 256; const sfixn T = Tx * BLOCK + BLOCK - 1;
#include "src/opt_plain_mul.cu"
}
namespace mul_s2_l256 { const sfixn BLOCK = 2; const sfixn Tx = 256; const sfixn T = Tx * BLOCK + BLOCK - 1;
#include "src/opt_plain_mul.cu"
}
namespace mul_s4_l256 { const sfixn BLOCK = 4; const sfixn Tx = 256; const sfixn T = Tx * BLOCK + BLOCK - 1;
#include "src/opt_plain_mul.cu"
}
namespace mul_s8_l256 { const sfixn BLOCK = 8; const sfixn Tx = 256; const sfixn T = Tx * BLOCK + BLOCK - 1;
#include "src/opt_plain_mul.cu"
}
namespace mul_s16_l256 { const sfixn BLOCK = 16; const sfixn Tx = 256; const sfixn T = Tx * BLOCK + BLOCK - 1;
#include "src/opt_plain_mul.cu"
}
namespace mul_s32_l256 { const sfixn BLOCK = 32; const sfixn Tx = 256; const sfixn T = Tx * BLOCK + BLOCK - 1;
#include "src/opt_plain_mul.cu"
}
namespace mul_s4_l128 { const sfixn BLOCK = 4; const sfixn Tx = 128; const sfixn T = Tx * BLOCK + BLOCK - 1;
#include "src/opt_plain_mul.cu"
}
namespace mul_s4_l512 { const sfixn BLOCK = 4; const sfixn Tx = 512; const sfixn T = Tx * BLOCK + BLOCK - 1;
#include "src/opt_plain_mul.cu"
}
namespace mul_s8_l128 { const sfixn BLOCK = 8; const sfixn Tx = 128; const sfixn T = Tx * BLOCK + BLOCK - 1;
#include "src/opt_plain_mul.cu"
}

// the naive division is one self-contained test program (with its own
// modular arithmetic and a main, renamed here)
#define main cumodp_naive_main
namespace naive {
#include "new_tests/Division/test_naiveDivision.cu"
}
#undef main

static const sfixn P = 469762049;

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_)); exit(1); } } while (0)

// ---------------------------------------------------------------- kernels
struct DivOptK {
    int s;
    void (*zero)(sfixn *, sfixn);
    void (*reduceM)(sfixn *, sfixn *);
    void (*statusUpdate)(sfixn *, sfixn *);
    void (*divGPU)(sfixn *, sfixn *, sfixn *, sfixn *, sfixn *);
    void (*copyRem)(sfixn *, sfixn *, sfixn *);
};
#define DK(NS) {NS::s, NS::zero, NS::reduceM, NS::statusUpdate, NS::divGPU, NS::copyRem}
static const DivOptK DIVK[] = {DK(div_s32), DK(div_s64), DK(div_s128), DK(div_s256), DK(div_s512), DK(div_s1024)};

struct MulK {
    int s, l;
    void (*copyA)(sfixn *, sfixn *, sfixn);
    void (*zeroC)(sfixn *, sfixn);
    void (*mul)(sfixn *, sfixn *, sfixn *, sfixn, sfixn, sfixn, sfixn, sfixn);
    void (*add)(sfixn *, sfixn *, sfixn, sfixn, sfixn, sfixn, sfixn, sfixn, sfixn);
    void (*addFinal)(sfixn *, sfixn *, sfixn, sfixn, sfixn, sfixn);
};
#define MK(NS) {NS::BLOCK, NS::Tx, NS::copyA, NS::zeroC, NS::mul, NS::add, NS::addFinal}
static const MulK MULK[] = {MK(mul_s1_l256), MK(mul_s2_l256), MK(mul_s4_l256), MK(mul_s8_l256),
                            MK(mul_s16_l256), MK(mul_s32_l256), MK(mul_s4_l128), MK(mul_s4_l512),
                            MK(mul_s8_l128)};

// ---------------------------------------------------------------- host side
static uint64_t rng_state = 0x9E3779B97F4A7C15ull;
static uint64_t rnd() {
    rng_state ^= rng_state << 13; rng_state ^= rng_state >> 7; rng_state ^= rng_state << 17;
    return rng_state;
}
static std::vector<sfixn> random_poly(int n) {
    std::vector<sfixn> a(n);
    for (int i = 0; i < n; i++) a[i] = (sfixn)(rnd() % P);
    while (a[n - 1] == 0) a[n - 1] = (sfixn)(rnd() % P);
    return a;
}
static uint64_t mulp(uint64_t a, uint64_t b) { return a * b % P; }
static uint64_t eval(const sfixn *a, long n, uint64_t x) {
    uint64_t r = 0;
    for (long i = n - 1; i >= 0; i--) r = (mulp(r, x) + (uint64_t)a[i]) % P;
    return r;
}
static uint64_t powp(uint64_t a, uint64_t e) {
    uint64_t r = 1;
    while (e) { if (e & 1) r = mulp(r, a); a = mulp(a, a); e >>= 1; }
    return r;
}
// CPU schoolbook division: Q (n-m+1), R (m-1)
static void cpu_div(const std::vector<sfixn> &A, const std::vector<sfixn> &B,
                    std::vector<sfixn> &Q, std::vector<sfixn> &R) {
    int n = A.size(), m = B.size();
    std::vector<uint64_t> a(A.begin(), A.end());
    uint64_t inv = powp(B[m - 1], P - 2);
    Q.assign(n - m + 1, 0);
    for (int i = n - 1; i >= m - 1; i--) {
        uint64_t q = mulp(a[i], inv);
        Q[i - (m - 1)] = (sfixn)q;
        if (q)
            for (int j = 0; j < m; j++)
                a[i - (m - 1) + j] = (a[i - (m - 1) + j] + P - mulp(q, B[j])) % P;
    }
    R.assign(a.begin(), a.begin() + (m - 1));
}
static int check_div(const std::vector<sfixn> &A, const std::vector<sfixn> &B,
                     const std::vector<sfixn> &Q, const std::vector<sfixn> &R, const char *what) {
    int n = A.size(), m = B.size();
    uint64_t x = rnd() % P;
    uint64_t l = eval(A.data(), n, x);
    uint64_t r = (mulp(eval(B.data(), m, x), eval(Q.data(), Q.size(), x)) + eval(R.data(), R.size(), x)) % P;
    int ok = l == r;
    if ((double)(n - m + 1) * m <= 6.0e7) {
        std::vector<sfixn> q, rr;
        cpu_div(A, B, q, rr);
        if (q != Q || rr != R) ok = 0;
    }
    if (!ok) fprintf(stderr, "CHECK FAILED: %s n=%d m=%d (at x=%llu: %llu vs %llu)\n", what, n, m,
                     (unsigned long long)x, (unsigned long long)l, (unsigned long long)r);
    return ok;
}
static int check_mul(const std::vector<sfixn> &A, const std::vector<sfixn> &B,
                     const std::vector<sfixn> &C, const char *what) {
    int n = A.size(), m = B.size();
    uint64_t x = rnd() % P;
    int ok = mulp(eval(A.data(), n, x), eval(B.data(), m, x)) == eval(C.data(), n + m - 1, x);
    if ((double)n * m <= 1 << 22) {
        std::vector<uint64_t> c(n + m - 1, 0);
        for (int i = 0; i < n; i++)
            for (int j = 0; j < m; j++) c[i + j] = (c[i + j] + mulp(A[i], B[j])) % P;
        for (int k = 0; k < n + m - 1; k++)
            if (c[k] != (uint64_t)C[k]) { ok = 0; break; }
    }
    if (!ok) fprintf(stderr, "CHECK FAILED: %s n=%d m=%d\n", what, n, m);
    return ok;
}

enum Mode { PLAN, ONCE, TIME };
static Mode mode;
static int verbose_plan = 0;
static void plan(const char *k, long grid, long block) {
    if (mode == PLAN || verbose_plan) fprintf(stderr, "  launch %s <<<%ld, %ld>>>\n", k, grid, block);
}
static int nblk(double a, double b) { return (int)ceil(a / b); }

// ---- optimized division (divPrimeField)
static long div_opt_launches(const DivOptK &K, int n, int m, sfixn *A, sfixn *B, sfixn *Q, sfixn *R,
                             sfixn *st) {
    const int T = K.s, s = K.s, t = 2;
    long L = 0;
    int nb = nblk(n - m + 1, T);
    plan("zero", nb, T); if (mode != PLAN) K.zero<<<nb, T>>>(Q, n - m + 1); L++;
    nb = nblk(m - 1.0, T);
    plan("zero", nb, T); if (mode != PLAN) K.zero<<<nb, T>>>(R, m - 1); L++;
    plan("reduceM", 1, 1); if (mode != PLAN) K.reduceM<<<1, 1>>>(B, st); L++;
    nb = nblk(m, T * t);
    for (int i = n; i >= m; i -= s) {
        bool last = i - s < m;
        plan("statusUpdate", 1, 1); if (mode != PLAN) K.statusUpdate<<<1, 1>>>(A, st); L++;
        nvtxRangeId_t id = 0;
        if (last && mode == ONCE) id = nvtxRangeStartA("last");
        if (mode == PLAN && (last || i == n)) plan(last ? "divGPU (last)" : "divGPU (first of the chain)", nb, T);
        if (mode != PLAN) K.divGPU<<<nb, T>>>(A, B, st, Q, R);
        if (last && mode == ONCE) nvtxRangeEnd(id);
        L++;
    }
    nb = nblk(m - 1, T);
    plan("copyRem", nb, T); if (mode != PLAN) K.copyRem<<<nb, T>>>(A, R, st); L++;
    return L;
}

// ---- naive division (divCUDA), 256 threads
static long div_naive_launches(int Bk, int n, int m, sfixn *A, sfixn *B, sfixn *D, sfixn *st) {
    const int THno = 256;
    int itNu = n - m + 1;
    long L = 0;
    int nb = nblk(itNu, THno * Bk);
    plan("initDiv", nb, THno); if (mode != PLAN) naive::initDiv<<<nb, THno>>>(itNu, D, Bk, st); L++;
    nb = nblk(m, THno * Bk);
    for (int i = 0; i < itNu; ++i) {
        if (mode == PLAN && i == 0) { plan("stateCompute", 1, 1); plan("divGPU", nb, THno); plan("nReduceM", 1, 1); }
        if (mode != PLAN) {
            naive::stateCompute<<<1, 1>>>(A, B, D, st);
            naive::divGPU<<<nb, THno>>>(A, B, st, Bk);
            naive::nReduceM<<<1, 1>>>(A, st);
        }
        L += 3;
    }
    return L;
}

// ---- multiplication (mulCUDA)
struct MulBufs { sfixn *A, *B, *C, *F; long csize; };
static long mul_launches(const MulK &K, int n, int m, MulBufs &b) {
    const int BLOCK = K.s, Tx = K.l;
    long L = 0;
    sfixn aRowSize = n + BLOCK - 1;
    sfixn RowNo = (sfixn)ceil((double)m / (double)BLOCK);
    sfixn RowNo2Pow = (sfixn)ceil(log2((double)RowNo));
    sfixn rowNoPerfect = (sfixn)pow(2, (double)RowNo2Pow);
    int nb = (sfixn)ceil((double)(n) / (double)(BLOCK * Tx));
    plan("copyA", nb, Tx); if (mode != PLAN) K.copyA<<<nb, Tx>>>(b.A, b.C, n); L++;
    nb = (sfixn)ceil((double)(aRowSize * rowNoPerfect) / (double)(BLOCK * Tx));
    plan("zeroC (M)", nb, Tx); if (mode != PLAN) K.zeroC<<<nb, Tx>>>(b.C, aRowSize * rowNoPerfect); L++;
    sfixn n1 = n + (BLOCK - 1);
    sfixn total_blocksX = (sfixn)ceil((double)(n1) / (double)(BLOCK * Tx));
    nb = total_blocksX * RowNo;
    n1 += (BLOCK - 1);
    plan("mul", nb, Tx); if (mode != PLAN) K.mul<<<nb, Tx>>>(b.A, b.B, b.C, n1, m, aRowSize, P, total_blocksX); L++;
    sfixn i = n + m - 1;
    nb = (sfixn)ceil((double)(i) / (double)(BLOCK * Tx));
    plan("zeroC (C)", nb, Tx); if (mode != PLAN) K.zeroC<<<nb, Tx>>>(b.F, i); L++;
    i = 0;
    sfixn j = 1, k = 2;
    sfixn w = (sfixn)ceil((double)(aRowSize) / (double)(BLOCK * Tx));
    for (sfixn l = 0; l < RowNo2Pow; ++l) {
        nb = w * ((sfixn)pow(2, (double)RowNo2Pow - l - 1));
        plan("add", nb, Tx);
        if (mode != PLAN) K.add<<<nb, Tx>>>(b.C, b.F, aRowSize, m + n - 1, w, i, j, k, P);
        L++;
        i = i + j; j = 2 * j; k = 2 * k;
    }
    plan("addFinal", w, Tx); if (mode != PLAN) K.addFinal<<<w, Tx>>>(b.C, b.F, aRowSize, m + n - 1, i, P); L++;
    return L;
}

// ---------------------------------------------------------------- runs
static cudaEvent_t e0, e1;
static const int RUNS = 7;

template <class Reset, class Launch>
static double run(Reset reset, Launch launch) {
    if (mode == PLAN) { launch(); return 0; }
    if (mode == ONCE) { reset(); launch(); CK(cudaGetLastError()); CK(cudaDeviceSynchronize()); return 0; }
    std::vector<float> t;
    for (int r = 0; r <= RUNS; r++) {
        reset();
        CK(cudaDeviceSynchronize());
        CK(cudaEventRecord(e0, 0));
        launch();
        CK(cudaEventRecord(e1, 0));
        CK(cudaEventSynchronize(e1));
        CK(cudaGetLastError());
        float ms;
        CK(cudaEventElapsedTime(&ms, e0, e1));
        if (r) t.push_back(ms);
    }
    std::sort(t.begin(), t.end());
    return t[t.size() / 2];
}

static void row(const char *prog, int n, int m, const char *s, const char *B, const char *l, double ms, int ok) {
    printf("%s,%d,%d,%s,%s,%s,%.4f,%s\n", prog, n, m, s, B, l, ms, ok ? "ok" : "FAILED");
    fflush(stdout);
}

static void do_div_opt(int n, int m, const std::vector<int> &cfg) {
    std::vector<sfixn> A = random_poly(n), B = random_poly(m);
    sfixn *dA = 0, *dB = 0, *dQ = 0, *dR = 0, *dst = 0;
    if (mode != PLAN) {
        CK(cudaMalloc(&dA, sizeof(sfixn) * n)); CK(cudaMalloc(&dB, sizeof(sfixn) * m));
        CK(cudaMalloc(&dQ, sizeof(sfixn) * (n - m + 1))); CK(cudaMalloc(&dR, sizeof(sfixn) * (m - 1)));
        CK(cudaMalloc(&dst, sizeof(sfixn) * 5));
        CK(cudaMemcpy(dB, B.data(), sizeof(sfixn) * m, cudaMemcpyHostToDevice));
    }
    for (int s : cfg) {
        const DivOptK *K = 0;
        for (auto &k : DIVK) if (k.s == s) K = &k;
        if (!K) { fprintf(stderr, "div_opt: no s = %d\n", s); exit(2); }
        long L = 0;
        fprintf(stderr, "div_opt n=%d m=%d s=%d\n", n, m, s);
        double ms = run([&] {
            sfixn state[5] = {n - 1 + s, m - 1, P, 0, -1};
            CK(cudaMemcpy(dA, A.data(), sizeof(sfixn) * n, cudaMemcpyHostToDevice));
            CK(cudaMemcpy(dst, state, sizeof(state), cudaMemcpyHostToDevice));
        }, [&] { L = div_opt_launches(*K, n, m, dA, dB, dQ, dR, dst); });
        fprintf(stderr, "  %ld launches\n", L);
        int ok = 1;
        if (mode != PLAN) {
            std::vector<sfixn> Q(n - m + 1), R(m - 1);
            CK(cudaMemcpy(Q.data(), dQ, sizeof(sfixn) * Q.size(), cudaMemcpyDeviceToHost));
            CK(cudaMemcpy(R.data(), dR, sizeof(sfixn) * R.size(), cudaMemcpyDeviceToHost));
            ok = check_div(A, B, Q, R, "div_opt");
        }
        row("div_opt", n, m, std::to_string(s).c_str(), "", "", ms, ok);
    }
    if (mode != PLAN) { cudaFree(dA); cudaFree(dB); cudaFree(dQ); cudaFree(dR); cudaFree(dst); }
}

static void do_div_naive(int n, int m, const std::vector<int> &cfg) {
    std::vector<sfixn> A = random_poly(n), B = random_poly(m);
    int itNu = n - m + 1;
    sfixn *dA = 0, *dB = 0, *dD = 0, *dst = 0;
    if (mode != PLAN) {
        CK(cudaMalloc(&dA, sizeof(sfixn) * n)); CK(cudaMalloc(&dB, sizeof(sfixn) * m));
        CK(cudaMalloc(&dD, sizeof(sfixn) * itNu)); CK(cudaMalloc(&dst, sizeof(sfixn) * 6));
        CK(cudaMemcpy(dB, B.data(), sizeof(sfixn) * m, cudaMemcpyHostToDevice));
    }
    for (int Bk : cfg) {
        long L = 0;
        fprintf(stderr, "div_naive n=%d m=%d B=%d\n", n, m, Bk);
        double ms = run([&] {
            sfixn state[6] = {-1, n - 1, m - 1, -1, 1, P};
            CK(cudaMemcpy(dA, A.data(), sizeof(sfixn) * n, cudaMemcpyHostToDevice));
            CK(cudaMemcpy(dst, state, sizeof(state), cudaMemcpyHostToDevice));
        }, [&] { L = div_naive_launches(Bk, n, m, dA, dB, dD, dst); });
        fprintf(stderr, "  %ld launches\n", L);
        int ok = 1;
        if (mode != PLAN) {
            std::vector<sfixn> Q(itNu), R(m - 1);
            CK(cudaMemcpy(Q.data(), dD, sizeof(sfixn) * itNu, cudaMemcpyDeviceToHost));
            CK(cudaMemcpy(R.data(), dA, sizeof(sfixn) * (m - 1), cudaMemcpyDeviceToHost));
            ok = check_div(A, B, Q, R, "div_naive");
        }
        row("div_naive", n, m, "", std::to_string(Bk).c_str(), "", ms, ok);
    }
    if (mode != PLAN) { cudaFree(dA); cudaFree(dB); cudaFree(dD); cudaFree(dst); }
}

static void do_mul(int n, int m, const std::vector<std::pair<int, int>> &cfg) {
    std::vector<sfixn> A = random_poly(n), B = random_poly(m);
    for (auto sl : cfg) {
        const MulK *K = 0;
        for (auto &k : MULK) if (k.s == sl.first && k.l == sl.second) K = &k;
        if (!K) { fprintf(stderr, "mul: no s:l = %d:%d\n", sl.first, sl.second); exit(2); }
        int s = K->s;
        long aRowSize = n + s - 1;
        long RowNo = (long)ceil((double)m / s);
        long rowNoPerfect = 1L << (long)ceil(log2((double)RowNo));
        MulBufs b = {0, 0, 0, 0, aRowSize * rowNoPerfect};
        if (b.csize >= (1L << 31)) {   // the library's 32-bit indexing (dags/cumodp/README.md)
            fprintf(stderr, "mul n=%d m=%d s=%d l=%d: intermediate array of %ld words past 32-bit indexing, skipped\n",
                    n, m, s, K->l, b.csize);
            continue;
        }
        if (mode != PLAN) {
            CK(cudaMalloc(&b.A, sizeof(sfixn) * (n + 2 * (s - 1))));
            CK(cudaMalloc(&b.B, sizeof(sfixn) * m));
            CK(cudaMalloc(&b.C, sizeof(sfixn) * b.csize));
            CK(cudaMalloc(&b.F, sizeof(sfixn) * (n + m - 1)));
            CK(cudaMemcpy(b.B, B.data(), sizeof(sfixn) * m, cudaMemcpyHostToDevice));
        }
        long L = 0;
        fprintf(stderr, "mul n=%d m=%d s=%d l=%d\n", n, m, s, K->l);
        double ms = run([&] {
            CK(cudaMemcpy(b.C, A.data(), sizeof(sfixn) * n, cudaMemcpyHostToDevice));
        }, [&] { L = mul_launches(*K, n, m, b); });
        fprintf(stderr, "  %ld launches\n", L);
        int ok = 1;
        if (mode != PLAN) {
            std::vector<sfixn> C(n + m - 1);
            CK(cudaMemcpy(C.data(), b.F, sizeof(sfixn) * C.size(), cudaMemcpyDeviceToHost));
            ok = check_mul(A, B, C, "mul");
            cudaFree(b.A); cudaFree(b.B); cudaFree(b.C); cudaFree(b.F);
        }
        row("mul", n, m, std::to_string(s).c_str(), "", std::to_string(K->l).c_str(), ms, ok);
    }
}

// sizes of dags/cumodp/runs_stream.csv, then those of runs_more_sizes.csv
static const int DIV_SIZES[][2] = {{4096, 2048}, {16384, 256}, {65536, 32768},
                                   {8192, 4096}, {32768, 1024}, {131072, 2048}};
static const int NAIVE_SIZES[][2] = {{4096, 2048}, {16384, 256}, {65536, 32768}};
static const int MUL_SIZES[][2] = {{1024, 256}, {1024, 1024}, {2048, 256}, {2048, 2048}, {4096, 1024},
                                   {4096, 4096}, {8192, 256}, {8192, 4096}, {16384, 256}, {16384, 1024},
                                   {65536, 256}, {16384, 16384}, {65536, 65536},
                                   {8192, 8192}, {32768, 2048}, {65536, 4096}, {131072, 1024},
                                   {32768, 32768}};

static std::vector<std::string> split(const std::string &s, char c) {
    std::vector<std::string> v;
    size_t a = 0;
    while (a <= s.size()) {
        size_t b = s.find(c, a);
        if (b == std::string::npos) b = s.size();
        if (b > a) v.push_back(s.substr(a, b - a));
        a = b + 1;
    }
    return v;
}

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: %s plan|once|time div_opt|div_naive|mul [N:M,...|all] [CFG,...]\n", argv[0]);
        return 2;
    }
    std::string md = argv[1], prog = argv[2];
    mode = md == "plan" ? PLAN : md == "once" ? ONCE : md == "time" ? TIME : (fprintf(stderr, "bad mode\n"), exit(2), PLAN);
    if (getenv("PROF_CUMODP_VERBOSE")) verbose_plan = 1;
    std::vector<std::pair<int, int>> sizes;
    std::string sz = argc > 3 ? argv[3] : "all";
    if (sz == "all") {
        if (prog == "div_opt") for (auto &p : DIV_SIZES) sizes.push_back({p[0], p[1]});
        if (prog == "div_naive") for (auto &p : NAIVE_SIZES) sizes.push_back({p[0], p[1]});
        if (prog == "mul") for (auto &p : MUL_SIZES) sizes.push_back({p[0], p[1]});
    } else {
        for (auto &x : split(sz, ',')) {
            auto v = split(x, ':');
            if (v.size() != 2) { fprintf(stderr, "size N:M, not %s\n", x.c_str()); return 2; }
            sizes.push_back({atoi(v[0].c_str()), atoi(v[1].c_str())});
        }
    }
    std::vector<std::string> cfg;
    if (argc > 4) cfg = split(argv[4], ',');
    if (mode != PLAN) { CK(cudaEventCreate(&e0)); CK(cudaEventCreate(&e1)); }
    if (mode == TIME) printf("program,n,m,s,B,l,time_ms,check\n");
    for (auto nm : sizes) {
        int n = nm.first, m = nm.second;
        if (prog == "div_opt") {
            std::vector<int> c;
            for (auto &x : cfg) c.push_back(atoi(x.c_str()));
            if (c.empty()) c = {32, 64, 128, 256, 512, 1024};
            do_div_opt(n, m, c);
        } else if (prog == "div_naive") {
            std::vector<int> c;
            for (auto &x : cfg) c.push_back(atoi(x.c_str()));
            if (c.empty()) c = {1, 8};
            do_div_naive(n, m, c);
        } else if (prog == "mul") {
            std::vector<std::pair<int, int>> c;
            for (auto &x : cfg) {
                auto v = split(x, ':');
                c.push_back({atoi(v[0].c_str()), v.size() > 1 ? atoi(v[1].c_str()) : 256});
            }
            if (c.empty())
                for (auto &k : MULK) c.push_back({k.s, k.l});
            do_mul(n, m, c);
        } else {
            fprintf(stderr, "unknown program %s\n", prog.c_str());
            return 2;
        }
    }
    return 0;
}
