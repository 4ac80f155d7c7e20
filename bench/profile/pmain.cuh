/*
 * pmain.cuh: main() of the profiling drivers (prof_*.cu).  Each driver
 * includes one program of bench/gpu/ with its main renamed, defines
 * PB_HEADER (the program's CSV header), PB[] (its benchmarks with the
 * smaller size of each as defaults) and pb_run(i, a, b, c), then includes
 * this file.  Arguments: benchmark names, each optionally with its sizes,
 * NAME[:A[:B[:C]]] (e.g. reduce:16777216); none: every benchmark at its
 * default (smaller) size.  It prints the program's CSV rows (time 0 when
 * built with RUNS=0) and, on stderr, the launch sequences run.
 */
#include <string.h>

int main(int argc, char **argv)
{
    cudaDeviceProp prop;
    CHECK(cudaGetDeviceProperties(&prop, 0));
    fprintf(stderr, "%s (profiling driver, RUNS=%d): %s, %d SMs\n", PROG, RUNS, prop.name,
            prop.multiProcessorCount);
    timing_init();
    printf("%s\n", PB_HEADER);
    const int nb = (int)(sizeof PB / sizeof PB[0]);
    for (int i = (argc > 1 ? 1 : 0); i < (argc > 1 ? argc : nb); i++) {
        char name[64];
        long v[3];
        int k;
        if (argc > 1) {
            const char *s = argv[i], *c = strchr(s, ':');
            size_t len = c ? (size_t)(c - s) : strlen(s);
            if (len >= sizeof name)
                len = sizeof name - 1;
            memcpy(name, s, len);
            name[len] = 0;
            for (k = 0; k < nb && strcmp(PB[k].name, name) != 0; k++)
                ;
            if (k == nb) {
                fprintf(stderr, "%s: unknown benchmark '%s'; known:", PROG, name);
                for (k = 0; k < nb; k++)
                    fprintf(stderr, " %s", PB[k].name);
                fprintf(stderr, "\n");
                return 2;
            }
            v[0] = PB[k].a, v[1] = PB[k].b, v[2] = PB[k].c;
            for (int j = 0; j < 3 && c; j++) {
                v[j] = strtol(c + 1, NULL, 0);
                c = strchr(c + 1, ':');
            }
        } else {
            k = i;
            v[0] = PB[k].a, v[1] = PB[k].b, v[2] = PB[k].c;
        }
        long before = prof_sequences;
        fprintf(stderr, "%s: %s %ld %ld %ld: start\n", PROG, PB[k].name, v[0], v[1], v[2]);
        pb_run(k, v[0], v[1], v[2]);
        CHECK(cudaDeviceSynchronize());
        fprintf(stderr, "%s: %s %ld %ld %ld: %ld launch sequences\n", PROG, PB[k].name, v[0], v[1],
                v[2], prof_sequences - before);
    }
    return 0;
}
