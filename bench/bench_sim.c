/*
 * bench_sim.c: time mmm_simulate in process, apart from loading
 * the file.
 *
 *   bench_sim FILE P [REPS]
 *
 * Loads and evaluates FILE with p = P, then simulates it under every
 * built-in policy REPS times (default 3) and prints one line per policy:
 *   POLICY MAKESPAN EVENTS BATCHES WAVE_JUMPS LAUNCH_JUMPS CPU WALL
 * (seconds of CPU time and of wall time, each the least of the REPS runs;
 * on a shared machine the CPU time is the fair one), after a line
 * "load CPU WALL".
 * Built by bench/bench_simulate.sh against the library of a Release build.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "mmm/mmm.h"
#include "mmm/sim.h"

static double now_s(clockid_t clock)
{
    struct timespec ts;
    clock_gettime(clock, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

#define CPU CLOCK_PROCESS_CPUTIME_ID
#define WALL CLOCK_MONOTONIC

int main(int argc, char **argv)
{
    mmm_load_options lo = MMM_LOAD_OPTIONS_INIT;
    mmm_program *prog = NULL;
    mmm_instance *inst = NULL;
    mmm_error err;
    double c0, w0;
    long long p;
    int reps = argc > 3 ? atoi(argv[3]) : 3, rep;
    size_t k;

    if (argc < 3 || (p = atoll(argv[2])) <= 0 || reps <= 0) {
        fprintf(stderr, "usage: bench_sim FILE P [REPS]\n");
        return 2;
    }
    c0 = now_s(CPU);
    w0 = now_s(WALL);
    if (mmm_program_load_file(&prog, argv[1], &lo, &err) < 0
        || mmm_instance_new(&inst, prog, &err) < 0
        || mmm_instance_eval(inst, NULL, 0, &err) < 0) {
        char buf[2048];
        fprintf(stderr, "%s\n", mmm_error_format(&err, buf, sizeof buf));
        return 1;
    }
    mmm_instance_set_p(inst, (int64_t)p);
    printf("load %.6f %.6f\n", now_s(CPU) - c0, now_s(WALL) - w0);
    for (k = 0; k < mmm_sim_policy_count(); k++) {
        mmm_sim_options opt = MMM_SIM_OPTIONS_INIT;
        mmm_sim_result r;
        double best = 1e300, best_wall = 1e300;
        opt.policy = mmm_sim_policy_at(k);
        opt.seed = 1;
        for (rep = 0; rep < reps; rep++) {
            double c = now_s(CPU), w = now_s(WALL);
            if (mmm_simulate(&r, inst, &opt, &err) < 0) {
                fprintf(stderr, "%s: %s\n", opt.policy->name, err.message);
                return 1;
            }
            c = now_s(CPU) - c;
            w = now_s(WALL) - w;
            if (c < best)
                best = c;
            if (w < best_wall)
                best_wall = w;
            if (rep + 1 < reps)
                mmm_sim_result_dispose(&r);
        }
        printf("%s %.17g %llu %llu %llu %llu %.6f %.6f\n", opt.policy->name,
               r.makespan, (unsigned long long)r.events,
               (unsigned long long)r.batches, (unsigned long long)r.wave_jumps,
               (unsigned long long)r.launch_jumps, best, best_wall);
        mmm_sim_result_dispose(&r);
    }
    mmm_instance_free(inst);
    mmm_program_free(prog);
    return 0;
}
