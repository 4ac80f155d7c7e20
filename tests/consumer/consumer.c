/* consumer.c: a program outside the tree, built against an installed
 * libmmm (tests/install_check.sh): it prints the version of the library it
 * runs with and the measures of the DAG file given, in one line:
 *   mmm VERSION W=.. S=.. O=.. N=.. L=.. C=.. K=..
 * With -DWITH_DRAW it also renders the DAG to DOT through libmmm-draw and
 * prints the number of bytes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mmm/mmm.h>

int main(int argc, char **argv)
{
    mmm_program *prog = NULL;
    mmm_instance *inst = NULL;
    mmm_metrics m;
    mmm_error err;
    if (argc != 2) {
        fprintf(stderr, "usage: consumer FILE.xml\n");
        return 2;
    }
    if (strcmp(mmm_version(), MMM_VERSION_STRING) != 0) {
        fprintf(stderr, "consumer: headers %s, library %s\n",
                MMM_VERSION_STRING, mmm_version());
        return 1;
    }
    memset(&m, 0, sizeof m);
    if (mmm_program_load_file(&prog, argv[1], NULL, &err) < 0 ||
        mmm_instance_new(&inst, prog, &err) < 0 ||
        mmm_instance_eval(inst, NULL, 0, &err) < 0 ||
        mmm_metrics_compute(&m, inst, 0, &err) < 0) {
        fprintf(stderr, "%s:%ld: error: %s\n", err.file, err.line, err.message);
        return 1;
    }
    printf("mmm %s W=%g S=%g O=%g N=%lld L=%lld C=%g K=%lld", mmm_version(),
           m.W, m.S, m.O, (long long)m.N, (long long)m.L, m.C, (long long)m.K);
#ifdef WITH_DRAW
    {
        mmm_render_options ro;
        char *dot = NULL;
        size_t len = 0;
        mmm_render_options_init(&ro);
        ro.format = MMM_RENDER_DOT;
        if (mmm_render_memory(&dot, &len, inst, &m, &ro, &err) < 0) {
            fprintf(stderr, "\nconsumer: render: %s\n", err.message);
            return 1;
        }
        printf(" dot=%s", len > 0 && strstr(dot, "digraph") ? "yes" : "no");
        free(dot);
    }
#endif
    printf("\n");
    mmm_metrics_dispose(&m);
    mmm_instance_free(inst);
    mmm_program_free(prog);
    return 0;
}
