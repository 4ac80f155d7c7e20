/*
 * bench_eval.c: time mmm_instance_eval + mmm_metrics_compute in process, for
 * one program at two values of one parameter (poly_div_opt with
 * n = 2^40 must cost no more than with n = 2^12; blocks and identical repeats
 * are never expanded, so the cost must not depend on n).
 *
 *   bench_eval FILE PARAM VALUE_A VALUE_B [ROUNDS [BATCH]]
 *
 * Prints "NS_A NS_B": nanoseconds per evaluation, the minimum over ROUNDS
 * (default 30) of the mean over a batch of BATCH (default 2000) evaluations.
 * The two values alternate round by round so that drifts hit both alike.
 * Built by bench/bench_analyze.sh against the library of a Release build.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "mmm/mmm.h"

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static int parse_i64(const char *s, long long *out)
{
    char *end;
    errno = 0;
    *out = strtoll(s, &end, 10);
    return errno == 0 && end != s && *end == '\0';
}

/* Mean ns per evaluation over batch evaluations at ov; -1 on error. */
static double time_batch(mmm_instance *inst, const mmm_override *ov,
                         long long batch, mmm_error *err)
{
    mmm_metrics met = {0};
    double t0 = now_ns();
    for (long long i = 0; i < batch; i++) {
        if (mmm_instance_eval(inst, ov, 1, err) < 0 ||
            mmm_metrics_compute(&met, inst, 0, err) < 0)
            return -1;
        mmm_metrics_dispose(&met);
    }
    return (now_ns() - t0) / (double)batch;
}

int main(int argc, char **argv)
{
    long long a, b, rounds = 30, batch = 2000;
    if (argc < 5 || argc > 7 || !parse_i64(argv[3], &a) ||
        !parse_i64(argv[4], &b) ||
        (argc > 5 && (!parse_i64(argv[5], &rounds) || rounds < 1)) ||
        (argc > 6 && (!parse_i64(argv[6], &batch) || batch < 1))) {
        fprintf(stderr, "usage: bench_eval FILE PARAM VALUE_A VALUE_B "
                        "[ROUNDS [BATCH]]\n");
        return 2;
    }
    mmm_program *prog = NULL;
    mmm_instance *inst = NULL;
    mmm_error err;
    mmm_load_options opt = MMM_LOAD_OPTIONS_INIT;
    char line[2048];
    int status = 1;
    mmm_error_clear(&err);
    if (mmm_program_load_file(&prog, argv[1], &opt, &err) < 0 ||
        mmm_instance_new(&inst, prog, &err) < 0)
        goto fail;
    int slot = mmm_program_find_param(prog, argv[2]);
    if (slot < 0) {
        mmm_error_set(&err, MMM_EINVAL, argv[1], 0, "no parameter '%s'",
                      argv[2]);
        goto fail;
    }
    mmm_override ov[2] = {{slot, mmm_value_int(a)}, {slot, mmm_value_int(b)}};
    double best[2] = {-1, -1};
    for (long long r = 0; r < rounds; r++) {
        for (int k = 0; k < 2; k++) {
            double ns = time_batch(inst, &ov[k], batch, &err);
            if (ns < 0)
                goto fail;
            if (best[k] < 0 || ns < best[k])
                best[k] = ns;
        }
    }
    printf("%.1f %.1f\n", best[0], best[1]);
    status = 0;
    goto done;
fail:
    fprintf(stderr, "%s\n", mmm_error_format(&err, line, sizeof line));
done:
    mmm_instance_free(inst);
    mmm_program_free(prog);
    return status;
}
