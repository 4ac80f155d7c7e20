/* cmd_calibrate.c: `mmm calibrate`: measure this machine's GPU with the
 * microbenchmarks of cuda/calibrate.cu (when mmm was built with CUDA),
 * print the constants (mmm_write_calibration) and write them as a machine
 * file. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "mmm/calibrate.h"
#ifdef MMM_HAVE_CUDA
#include "calibrate_cuda.h"
#endif

static const char calibrate_help[] =
    "usage: mmm calibrate [-o MACHINE.xml] [--format text|json] [--device N] [--quick]\n"
    "\n"
    "Measure the GPU with microbenchmarks and print its machine constants: the\n"
    "device properties; launch latency (stream, CUDA graph); the cycles an SM\n"
    "takes to start a block; the cycles between two atomics on one word; what a\n"
    "word read or written at random costs inside and beyond the L2; the issue\n"
    "rate; dependent-load latency beyond and inside the L2; bandwidth by block\n"
    "size; shared-memory latency; one dependent int32 add, fp32 FMA, fp64 FMA\n"
    "and modular multiplication; __syncthreads by block size; the MMM's U alone\n"
    "and with the GPU full, by block size; cudaMemcpyAsync each way and\n"
    "cudaMemsetAsync (rate, fixed time); the L2's bandwidth and the capacity\n"
    "arrays find in it between launches.\n"
    "Each figure is the median over repetitions, with its spread.  Needs mmm\n"
    "built with CUDA (a CUDA toolkit found at build time).\n"
    "\n"
    "  -o, --output FILE    write the machine file (atomically), for --machine\n"
    "  --format FMT         text (default) or json\n"
    "  --device N           CUDA device number (default 0)\n"
    "  --quick              fewer repetitions: under 10 s instead of under a minute\n";

#ifdef MMM_HAVE_CUDA
static int measure(mmm_calib *c, int64_t device, int quick)
{
    mmm_calib_raw *raw = calloc(1, sizeof *raw);
    mmm_error err;
    char msg[512];
    if (!raw) {
        fprintf(stderr, "mmm calibrate: error: out of memory\n");
        return CLI_FAIL;
    }
    if (mmm__cuda_calibrate(raw, (int)device, quick, msg, sizeof msg) < 0) {
        fprintf(stderr, "mmm calibrate: error: %s\n", msg);
        free(raw);
        return CLI_FAIL;
    }
    mmm_error_clear(&err);
    if (mmm_calib_analyze(c, raw, &err) < 0) {
        free(raw);
        return cli_fail(&err);
    }
    free(raw);
    return CLI_OK;
}
#endif

typedef struct calib_args {
    const char *out;
    int format; /* mmm_format: text or json */
    int64_t device;
    int quick;
} calib_args;

#define K_(field) offsetof(calib_args, field)
static const cli_opt calib_opts[] = {
    {"--quick", CLI_FLAG, K_(quick), .bad = NULL},
    {"-o|--output", CLI_STR, K_(out), NULL, .fn = NULL},
    {"--format", CLI_CHOICE, K_(format), "--format must be text or json",
     .choices = "text|json"},
    {"--device", CLI_INT, K_(device), "--device needs a number from 0 to 1023, not '%s'",
     INT64_MIN, 1023, .fn = NULL},
    {NULL}};

static const cli_cmd calib_cmd = {"calibrate", calibrate_help, NULL, .opts = calib_opts,
                                  .missing = "option '%s' needs a value",
                                  .unknown = "unknown argument '%s'"};

int cmd_calibrate(int argc, char **argv)
{
    calib_args a = {NULL, MMM_FORMAT_TEXT, 0, 0};
    int rc;

    if ((rc = cli_args(&calib_cmd, &a, NULL, NULL, argc, argv)) != CLI_OK)
        return rc < 0 ? CLI_OK : rc;

#ifdef MMM_HAVE_CUDA
    {
        mmm_calib c;
        mmm_error err;
        mmm_writer *w = NULL;
        rc = measure(&c, a.device, a.quick);
        if (rc != CLI_OK)
            return rc;
        mmm_error_clear(&err);
        if ((a.out && mmm_calib_write_machine(a.out, &c, &err) < 0) ||
            mmm_writer_new(&w, stdout, (mmm_format)a.format, &err) < 0 ||
            mmm_write_calibration(w, &c, &err) < 0)
            rc = cli_fail(&err);
        mmm_writer_free(w);
        return rc;
    }
#else
    fprintf(stderr, "mmm calibrate: error: this mmm was built without CUDA (no "
                    "CUDA toolkit was found when it was built); rebuild it with "
                    "nvcc on the PATH to measure a GPU\n");
    return CLI_FAIL;
#endif
}
