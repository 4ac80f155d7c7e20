/*
 * bench_load.c: where the time of `mmm analyze` goes on a big DAG, in
 * process: loading (parse + validate + finalize), evaluation, the measures
 * without K, and K (the antichain), with an instance made as `mmm
 * analyze` makes it (MMM_INSTANCE_NO_CLASSES).  For bench/bench_analyze.sh
 * and bench/bench_shapes.sh.
 *
 *   bench_load FILE [auto|off|on]
 *
 * The second argument sets mmm_load_options.threads (default auto: the
 * program is built in a second thread while libxml2 parses).
 *
 * Prints one line per phase as soon as it ends ("load 1.234 s (cpu
 * 1.500 s)": wall time, and the CPU time of all threads), so that a run
 * killed during a slow phase still tells the earlier ones, then
 * "rss_after_load BYTES" and "rss_peak BYTES" (peak RSS of this process).
 * Last, "pred_pass CPU_SECONDS": the least CPU time of 5 passes over the
 * predecessor lists in topological order that read a 32-byte record of each
 * predecessor (the size of the flow's record per kernel) and write the
 * kernel's own, a longest path, on records touched once before: the
 * random reads that any exact K makes at least, so its growth from one
 * file to another is the memory's own, not the algorithm's.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "mmm/mmm.h"

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Peak RSS of this process.  VmHWM of /proc/self/status is the high-water
 * mark of this program's own address space; getrusage's ru_maxrss would
 * start at the RSS of the parent that spawned it (Linux keeps the old
 * address space's mark across exec), so it is only the fallback. */
static long long peak_rss_bytes(void)
{
    FILE *f = fopen("/proc/self/status", "r");
    if (f) {
        char line[256];
        long long kib = -1;
        while (fgets(line, sizeof line, f))
            if (sscanf(line, "VmHWM: %lld kB", &kib) == 1)
                break;
        fclose(f);
        if (kib >= 0)
            return kib * 1024;
    }
    struct rusage ru;
    if (getrusage(RUSAGE_SELF, &ru) != 0)
        return -1;
    return (long long)ru.ru_maxrss * 1024; /* Linux: KiB */
}

/* CPU time of this process (all its threads): on a shared machine the
 * wall time of a phase grows with the load, its CPU time much less. */
static double cpu_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static double cpu0;

/* The pass of "pred_pass" above; -1 when out of memory. */
static double pred_pass(const mmm_program *p)
{
    typedef struct { uint64_t len, pad[3]; } rec; /* 32 bytes */
    size_t n = p->nkernels;
    rec *r = calloc(n ? n : 1, sizeof *r);
    if (!r)
        return -1;
    for (size_t x = 0; x < n; x++) /* first touch, not timed */
        r[x].pad[0] = x;
    double best = -1;
    for (int rep = 0; rep < 5; rep++) {
        double c0 = cpu_s();
        for (size_t t = 0; t < n; t++) {
            uint32_t x = p->topo[t];
            uint64_t len = 0;
            for (uint32_t i = p->pred_start[x]; i < p->pred_start[x + 1]; i++)
                if (r[p->pred[i]].len > len)
                    len = r[p->pred[i]].len;
            r[x].len = len + 1;
        }
        double c = cpu_s() - c0;
        best = best < 0 || c < best ? c : best;
    }
    uint64_t longest = 0; /* the longest path in kernels, as a check */
    for (size_t x = 0; x < n; x++)
        longest = r[x].len > longest ? r[x].len : longest;
    free(r);
    return longest > n ? -1 : best;
}

static void phase(const char *name, double t0)
{
    double c = cpu_s();
    printf("%s %.3f s (cpu %.3f s)\n", name, now_s() - t0, c - cpu0);
    cpu0 = c;
    fflush(stdout);
}

int main(int argc, char **argv)
{
    if (argc < 2 || argc > 3) {
        fprintf(stderr, "usage: bench_load FILE [auto|off|on]\n");
        return 2;
    }
    mmm_program *prog = NULL;
    mmm_instance *inst = NULL;
    mmm_metrics met = {0};
    mmm_error err;
    mmm_load_options opt = MMM_LOAD_OPTIONS_INIT;
    if (argc == 3)
        opt.threads = !strcmp(argv[2], "off") ? MMM_THREADS_OFF
                      : !strcmp(argv[2], "on") ? MMM_THREADS_ON
                                               : MMM_THREADS_AUTO;
    char line[2048];
    int status = 1;
    mmm_error_clear(&err);

    double t0 = now_s();
    cpu0 = cpu_s();
    if (mmm_program_load_file(&prog, argv[1], &opt, &err) < 0)
        goto fail;
    phase("load", t0);
    printf("rss_after_load %lld\n", peak_rss_bytes());

    t0 = now_s();
    /* as mmm analyze does with the mmm model alone: no class values kept */
    if (mmm_instance_new_flags(&inst, prog, MMM_INSTANCE_NO_CLASSES,
                               &err) < 0 ||
        mmm_instance_eval(inst, NULL, 0, &err) < 0)
        goto fail;
    phase("eval", t0);

    t0 = now_s();
    if (mmm_metrics_compute(&met, inst, MMM_METRICS_NO_K, &err) < 0)
        goto fail;
    mmm_metrics_dispose(&met);
    phase("metrics_without_K", t0);

    t0 = now_s();
    if (mmm_metrics_compute(&met, inst, 0, &err) < 0)
        goto fail;
    phase("metrics_with_K", t0);
    printf("K %lld method %d\n", (long long)met.K, (int)met.k_method);
    mmm_metrics_dispose(&met);
    printf("rss_peak %lld\n", peak_rss_bytes());
    printf("pred_pass %.6f\n", pred_pass(prog));
    status = 0;
    goto done;
fail:
    fprintf(stderr, "%s\n", mmm_error_format(&err, line, sizeof line));
done:
    mmm_instance_free(inst);
    mmm_program_free(prog);
    return status;
}
