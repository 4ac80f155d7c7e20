/*
 * bench_k.c: K (the largest antichain) alone on a DAG file, by each method
 * of the minimum flow of src/analysis/antichain.c and by the earlier algorithm
 * (greedy + Dinic, tests/helpers/antichain_prev.c), in one process on the
 * same evaluated weights.  For bench/bench_k.sh.
 *
 *   bench_k FILE [METHODS]
 *
 * METHODS: letters, in the order run (default "abp"): a the flow as the
 * library runs it (adaptive), b breadth-first searches only, l the
 * labelled search first always, p the earlier algorithm.  Prints one line
 * per method: "METHOD K CPU_SECONDS"; exit status 1 when two methods give
 * different K.  It calls internal functions (mmm__antichain_flow_mode), so
 * it is compiled with src/ on the include path and linked with the static
 * library.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "antichain_prev.h"
#include "mmm/mmm.h"
#include "model/program_internal.h"
#include "analysis/antichain.h"

static double cpu_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
    if (argc < 2 || argc > 3) {
        fprintf(stderr, "usage: bench_k FILE [METHODS]\n");
        return 2;
    }
    const char *methods = argc == 3 ? argv[2] : "abp";
    mmm_program *prog = NULL;
    mmm_instance *inst = NULL;
    mmm_error err;
    mmm_load_options opt = MMM_LOAD_OPTIONS_INIT;
    char line[2048];
    int status = 1;
    int64_t *w = NULL, first = -1;
    mmm_error_clear(&err);
    if (mmm_program_load_file(&prog, argv[1], &opt, &err) < 0 ||
        mmm_instance_new(&inst, prog, &err) < 0 ||
        mmm_instance_eval(inst, NULL, 0, &err) < 0)
        goto fail;
    const mmm_program *p = inst->program;
    size_t n = p->nkernels;
    w = malloc((n ? n : 1) * sizeof *w);
    if (!w) {
        fprintf(stderr, "bench_k: out of memory\n");
        goto done;
    }
    for (size_t k = 0; k < n; k++)
        w[k] = inst->kernels[k].K;
    status = 0;
    for (const char *m = methods; *m; m++) {
        int64_t k = -1;
        double t0 = cpu_s();
        int r;
        if (*m == 'p')
            r = prev_antichain_flow(&k, n, w, p->succ_start, p->succ, &err);
        else if (*m == 'a' || *m == 'b' || *m == 'l')
            r = mmm__antichain_flow_mode(
                &k, n, w, p->succ_start, p->succ, p->pred_start, p->pred,
                *m == 'a'   ? MMM__FLOW_ADAPTIVE
                : *m == 'b' ? MMM__FLOW_BFS
                            : MMM__FLOW_LABELLED,
                &err);
        else {
            fprintf(stderr, "bench_k: unknown method '%c'\n", *m);
            status = 2;
            break;
        }
        if (r < 0)
            goto fail;
        printf("%c %lld %.3f\n", *m, (long long)k, cpu_s() - t0);
        fflush(stdout);
        if (m != methods && k != first) {
            fprintf(stderr, "bench_k: method %c gives K %lld, %c gave %lld\n",
                    *m, (long long)k, methods[0], (long long)first);
            status = 1;
        }
        first = m == methods ? k : first;
    }
    goto done;
fail:
    fprintf(stderr, "%s\n", mmm_error_format(&err, line, sizeof line));
    status = 1;
done:
    free(w);
    mmm_instance_free(inst);
    mmm_program_free(prog);
    return status;
}
