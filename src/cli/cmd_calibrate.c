/* cmd_calibrate.c: `mmm calibrate`: measure this machine's GPU with the
 * microbenchmarks of cuda/calibrate.cu (when mmm was built with CUDA),
 * print the constants (mmm_write_calibration) and write them as a machine
 * file. */
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
    "device properties; launch latency on a stream and replayed as a CUDA graph;\n"
    "the cycles an SM takes to start a block; the cycles between two atomics on\n"
    "one word; the bandwidth a word read or written at random costs inside and\n"
    "beyond the L2, and the L2 such words find; the issue rate; dependent-load\n"
    "latency beyond and inside the L2; saturated bandwidth by block size;\n"
    "shared-memory latency; the cost of one dependent int32 add, fp32 FMA, fp64\n"
    "FMA and 64-bit modular multiplication; __syncthreads by block size; the U\n"
    "of the MMM alone (latency-bound) and with the GPU full (bandwidth-bound),\n"
    "by block size.\n"
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

int cmd_calibrate(int argc, char **argv)
{
    const char *out = NULL;
    mmm_format format = MMM_FORMAT_TEXT;
    int64_t device = 0;
    int quick = 0, i;

    for (i = 1; i < argc; i++) {
        int missing = 0;
        const char *v;
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            printf("%s", calibrate_help);
            return CLI_OK;
        }
        if (!strcmp(argv[i], "--quick")) {
            quick = 1;
        } else if ((v = cli_option_value("-o", argc, argv, &i, &missing)) ||
                   (!missing &&
                    (v = cli_option_value("--output", argc, argv, &i, &missing)))) {
            out = v;
        } else if (!missing &&
                   (v = cli_option_value("--format", argc, argv, &i, &missing))) {
            if (!strcmp(v, "text"))
                format = MMM_FORMAT_TEXT;
            else if (!strcmp(v, "json"))
                format = MMM_FORMAT_JSON;
            else
                return cli_usage("calibrate", "--format must be text or json");
        } else if (!missing &&
                   (v = cli_option_value("--device", argc, argv, &i, &missing))) {
            if (cli_parse_int64(v, &device) < 0 || device > 1023)
                return cli_usage("calibrate", "--device needs a number from 0 "
                                              "to 1023, not '%s'", v);
        } else if (missing) {
            return cli_usage("calibrate", "option '%s' needs a value", argv[i]);
        } else {
            return cli_usage("calibrate", "unknown argument '%s'", argv[i]);
        }
    }

#ifdef MMM_HAVE_CUDA
    {
        mmm_calib c;
        mmm_error err;
        mmm_writer *w = NULL;
        int rc = measure(&c, device, quick);
        if (rc != CLI_OK)
            return rc;
        mmm_error_clear(&err);
        if ((out && mmm_calib_write_machine(out, &c, &err) < 0) ||
            mmm_writer_new(&w, stdout, format, &err) < 0 ||
            mmm_write_calibration(w, &c, &err) < 0)
            rc = cli_fail(&err);
        mmm_writer_free(w);
        return rc;
    }
#else
    (void)out;
    (void)format;
    (void)device;
    (void)quick;
    fprintf(stderr, "mmm calibrate: error: this mmm was built without CUDA (no "
                    "CUDA toolkit was found when it was built); rebuild it with "
                    "nvcc on the PATH to measure a GPU\n");
    return CLI_FAIL;
#endif
}
