/* cmd_calibrate.c: `mmm calibrate`: measure this machine's GPU with the
 * microbenchmarks of cuda/calibrate.cu (when mmm was built with CUDA),
 * print the constants and write them as a machine file. */
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

/* ---- Text ---- */

static void text_row(const char *what, const mmm_calib_stat *s, double scale,
                     const char *unit)
{
    printf("  %-34s %12.5g %-10s (quartiles %.4g..%.4g, n=%d)\n", what,
           s->median * scale, unit, s->q1 * scale, s->q3 * scale, s->n);
}

/* One row per block size; label has one %d. */
static void text_rows(const char *label, const int *sizes, int n,
                      const mmm_calib_stat *s, double scale, const char *unit)
{
    char what[64];
    int i;
    for (i = 0; i < n; i++) {
        snprintf(what, sizeof what, label, sizes[i]);
        text_row(what, &s[i], scale, unit);
    }
}

static void print_text(const mmm_calib *c)
{
    const mmm_calib_device *d = &c->dev;
    char what[64];
    int i;
    printf("device: %s, compute capability %d.%d%s\n", d->name, d->cc_major,
           d->cc_minor, c->quick ? " (--quick)" : "");
    printf("  SMs %d, reported clock %.0f MHz, memory clock %.0f MHz x %d-bit bus "
           "(%.4g B/s nominal), L2 %lld B\n", d->sms, d->clock_hz / 1e6,
           d->mem_clock_hz / 1e6, d->bus_width_bits,
           d->mem_clock_hz * 2 * d->bus_width_bits / 8, (long long)d->l2_bytes);
    printf("  per SM: %d threads, %d blocks, %d registers, %lld B shared; per "
           "block %lld B shared (%lld opt-in); warp %d\n", d->sm_threads,
           d->sm_blocks, d->sm_registers, (long long)d->sm_shared_bytes,
           (long long)d->block_shared_bytes,
           (long long)d->block_shared_optin_bytes, d->warp_size);
    printf("measured (median):\n");
    text_row("SM clock", &c->clock_hz, 1e-6, "MHz");
    text_row("launch, default stream", &c->launch_stream_s, 1e6, "us");
    text_row("launch, own stream", &c->launch_own_stream_s, 1e6, "us");
    text_row("launch, graph replay", &c->launch_graph_s, 1e6, "us");
    text_row("block start, cycles per block per SM", &c->block_cycles, 1, "cycles");
    text_row("atomics on one word, cycles apart", &c->atomic_cycles, 1, "cycles");
    for (int kind = 0; kind < 2; kind++) /* read, then written */
        for (i = 0; i < MMM_CALIB_NGATHER; i++) {
            snprintf(what, sizeof what, "%s word, %.4g MiB",
                     kind ? "scattered" : "gathered",
                     (double)c->gather_region_bytes[i] / 1048576.0);
            text_row(what, kind ? &c->scatter_word_bytes[i] : &c->gather_word_bytes[i],
                     1, "B of bandwidth");
        }
    printf("  %-34s %12.5g MiB\n", "L2 that gathered words find",
           c->gather_l2_bytes / 1048576.0);
    text_row("issue, warp-instructions/cycle/SM", &c->issue_per_cycle, 1, "");
    text_row("dependent load beyond L2", &c->load_cycles, 1, "cycles");
    text_row("dependent load, L2 hit", &c->l2_load_cycles, 1, "cycles");
    text_row("dependent shared load", &c->shared_cycles, 1, "cycles");
    for (i = 0; i < MMM_CALIB_NOPS; i++) {
        snprintf(what, sizeof what, "op %s", mmm_calib_op_name((mmm_calib_op)i));
        text_row(what, &c->op_cycles[i], 1, "cycles");
    }
    text_rows("__syncthreads, %d threads", mmm_calib_sync_sizes,
              MMM_CALIB_NSYNC, c->sync_cycles, 1, "cycles");
    printf("  %-34s %12.5g cycles + %.4g per warp\n", "__syncthreads fit",
           c->sync_base_cycles, c->sync_per_warp_cycles);
    text_rows("bandwidth, %d threads", mmm_calib_block_sizes, MMM_CALIB_NBLOCK,
              c->bandwidth, 1e-9, "GB/s");
    printf("  %-34s %12.5g GB/s = %.4g B per cycle per SM\n", "bandwidth (best)",
           c->bandwidth_bytes_per_s * 1e-9, c->bandwidth_bytes_per_cycle_per_sm);
    text_row("cudaMemcpy device to device", &c->memcpy_bandwidth, 1e-9, "GB/s");
    text_rows("U latency-bound, %d threads", mmm_calib_block_sizes,
              MMM_CALIB_NBLOCK, c->u_latency, 1, "cycles");
    text_rows("U bandwidth-bound, %d threads", mmm_calib_block_sizes,
              MMM_CALIB_NBLOCK, c->u_bandwidth, 1, "cycles");
    printf("  %-34s %12.5g words\n", "in flight per SM to saturate",
           c->saturation_words_per_sm);
    printf("  %-34s %12.5g\n", "latency exposed (from U)", c->latency_exposed);
}

/* ---- JSON ---- */

static void json_stat(cli_json_writer *w, const char *key, const mmm_calib_stat *s,
                      double scale)
{
    cli_json_key(w, key);
    cli_json_begin_object_flat(w);
    cli_json_key(w, "n");
    cli_json_int(w, s->n);
    cli_json_key(w, "q1");
    cli_json_double(w, s->q1 * scale);
    cli_json_key(w, "q3");
    cli_json_double(w, s->q3 * scale);
    cli_json_key(w, "min");
    cli_json_double(w, s->min * scale);
    cli_json_key(w, "max");
    cli_json_double(w, s->max * scale);
    cli_json_key(w, "mad");
    cli_json_double(w, s->mad * scale);
    cli_json_key(w, "outliers");
    cli_json_int(w, s->outliers);
    cli_json_end_object(w);
}

/* "gather_bytes_by_region" and "scatter_bytes_by_region": {region bytes:
 * bytes of bandwidth per word} (spread: each figure's summary). */
static void json_gathers(cli_json_writer *w, const mmm_calib *c, int spread)
{
    static const char *const keys[2] = {"gather_bytes_by_region",
                                        "scatter_bytes_by_region"};
    for (int kind = 0; kind < 2; kind++) {
        const mmm_calib_stat *st = kind ? c->scatter_word_bytes : c->gather_word_bytes;
        cli_json_key(w, keys[kind]);
        cli_json_begin_object(w);
        for (int i = 0; i < MMM_CALIB_NGATHER; i++) {
            char k[32];
            snprintf(k, sizeof k, "%lld", (long long)c->gather_region_bytes[i]);
            if (spread) {
                json_stat(w, k, &st[i], 1);
            } else {
                cli_json_key(w, k);
                cli_json_double(w, st[i].median);
            }
        }
        cli_json_end_object(w);
    }
}

/* {"128": median, ...} (medians) or {"128": {spread}, ...}. */
static void json_by_block(cli_json_writer *w, const char *key, const int *sizes,
                          int n, const mmm_calib_stat *s, double scale,
                          int spread)
{
    char k[16];
    int i;
    cli_json_key(w, key);
    cli_json_begin_object(w);
    for (i = 0; i < n; i++) {
        snprintf(k, sizeof k, "%d", sizes[i]);
        if (spread) {
            json_stat(w, k, &s[i], scale);
        } else {
            cli_json_key(w, k);
            cli_json_double(w, s[i].median * scale);
        }
    }
    cli_json_end_object(w);
}

static void print_json(const mmm_calib *c)
{
    const mmm_calib_device *d = &c->dev;
    cli_json_writer w;
    char cc[16];
    int i;
    cli_json_init(&w, stdout);
    cli_json_begin_object(&w);
    cli_json_key(&w, "device");
    cli_json_begin_object(&w);
    cli_json_key(&w, "name");
    cli_json_string(&w, d->name);
    snprintf(cc, sizeof cc, "%d.%d", d->cc_major, d->cc_minor);
    cli_json_key(&w, "compute_capability");
    cli_json_string(&w, cc);
    cli_json_key(&w, "sms");
    cli_json_int(&w, d->sms);
    cli_json_key(&w, "clock_hz");
    cli_json_double(&w, c->clock_hz.median);
    cli_json_key(&w, "reported_clock_hz");
    cli_json_double(&w, d->clock_hz);
    cli_json_key(&w, "mem_clock_hz");
    cli_json_double(&w, d->mem_clock_hz);
    cli_json_key(&w, "bus_width_bits");
    cli_json_int(&w, d->bus_width_bits);
    cli_json_key(&w, "nominal_bandwidth_bytes_per_s");
    cli_json_double(&w, d->mem_clock_hz * 2 * d->bus_width_bits / 8);
    cli_json_key(&w, "l2_bytes");
    cli_json_int(&w, d->l2_bytes);
    cli_json_key(&w, "global_bytes");
    cli_json_int(&w, d->global_bytes);
    cli_json_key(&w, "sm_shared_bytes");
    cli_json_int(&w, d->sm_shared_bytes);
    cli_json_key(&w, "block_shared_bytes");
    cli_json_int(&w, d->block_shared_bytes);
    cli_json_key(&w, "block_shared_optin_bytes");
    cli_json_int(&w, d->block_shared_optin_bytes);
    cli_json_key(&w, "reserved_shared_bytes");
    cli_json_int(&w, d->reserved_shared_bytes);
    cli_json_key(&w, "sm_registers");
    cli_json_int(&w, d->sm_registers);
    cli_json_key(&w, "sm_threads");
    cli_json_int(&w, d->sm_threads);
    cli_json_key(&w, "sm_blocks");
    cli_json_int(&w, d->sm_blocks);
    cli_json_key(&w, "block_threads");
    cli_json_int(&w, d->block_threads);
    cli_json_key(&w, "warp_size");
    cli_json_int(&w, d->warp_size);
    cli_json_key(&w, "shared_granule_bytes");
    cli_json_int(&w, d->shared_granule_bytes);
    cli_json_key(&w, "register_granule");
    cli_json_int(&w, d->register_granule);
    cli_json_key(&w, "register_partitions");
    cli_json_int(&w, d->register_partitions);
    cli_json_key(&w, "driver_version");
    cli_json_int(&w, d->driver_version);
    cli_json_key(&w, "runtime_version");
    cli_json_int(&w, d->runtime_version);
    cli_json_end_object(&w);

    cli_json_key(&w, "quick");
    cli_json_bool(&w, c->quick);

    cli_json_key(&w, "measured");
    cli_json_begin_object(&w);
    cli_json_key(&w, "clock_hz");
    cli_json_double(&w, c->clock_hz.median);
    cli_json_key(&w, "launch_stream_us");
    cli_json_double(&w, c->launch_stream_s.median * 1e6);
    cli_json_key(&w, "launch_own_stream_us");
    cli_json_double(&w, c->launch_own_stream_s.median * 1e6);
    cli_json_key(&w, "launch_graph_us");
    cli_json_double(&w, c->launch_graph_s.median * 1e6);
    cli_json_key(&w, "block_cycles");
    cli_json_double(&w, c->block_cycles.median);
    cli_json_key(&w, "atomic_cycles");
    cli_json_double(&w, c->atomic_cycles.median);
    cli_json_key(&w, "gather_hit_bytes");
    cli_json_double(&w, c->gather_hit_bytes);
    cli_json_key(&w, "gather_miss_bytes");
    cli_json_double(&w, c->gather_miss_bytes);
    cli_json_key(&w, "gather_l2_bytes");
    cli_json_double(&w, c->gather_l2_bytes);
    cli_json_key(&w, "scatter_hit_bytes");
    cli_json_double(&w, c->scatter_hit_bytes);
    cli_json_key(&w, "scatter_miss_bytes");
    cli_json_double(&w, c->scatter_miss_bytes);
    json_gathers(&w, c, 0);
    cli_json_key(&w, "issue_per_cycle");
    cli_json_double(&w, c->issue_per_cycle.median);
    cli_json_key(&w, "load_latency_cycles");
    cli_json_double(&w, c->load_cycles.median);
    cli_json_key(&w, "l2_latency_cycles");
    cli_json_double(&w, c->l2_load_cycles.median);
    cli_json_key(&w, "shared_latency_cycles");
    cli_json_double(&w, c->shared_cycles.median);
    cli_json_key(&w, "bandwidth_bytes_per_s");
    cli_json_double(&w, c->bandwidth_bytes_per_s);
    cli_json_key(&w, "bandwidth_bytes_per_cycle_per_sm");
    cli_json_double(&w, c->bandwidth_bytes_per_cycle_per_sm);
    cli_json_key(&w, "bandwidth_block");
    cli_json_int(&w, c->bandwidth_block);
    json_by_block(&w, "bandwidth_by_block", mmm_calib_block_sizes,
                  MMM_CALIB_NBLOCK, c->bandwidth, 1, 0);
    cli_json_key(&w, "memcpy_bytes_per_s");
    cli_json_double(&w, c->memcpy_bandwidth.median);
    json_by_block(&w, "U_latency", mmm_calib_block_sizes, MMM_CALIB_NBLOCK,
                  c->u_latency, 1, 0);
    json_by_block(&w, "U_bandwidth", mmm_calib_block_sizes, MMM_CALIB_NBLOCK,
                  c->u_bandwidth, 1, 0);
    cli_json_key(&w, "U_resident_blocks");
    cli_json_begin_object(&w);
    for (i = 0; i < MMM_CALIB_NBLOCK; i++) {
        char k[16];
        snprintf(k, sizeof k, "%d", mmm_calib_block_sizes[i]);
        cli_json_key(&w, k);
        cli_json_int(&w, c->u_resident[i]);
    }
    cli_json_end_object(&w);
    json_by_block(&w, "sync_cycles", mmm_calib_sync_sizes, MMM_CALIB_NSYNC,
                  c->sync_cycles, 1, 0);
    cli_json_key(&w, "sync_base_cycles");
    cli_json_double(&w, c->sync_base_cycles);
    cli_json_key(&w, "sync_cycles_per_warp");
    cli_json_double(&w, c->sync_per_warp_cycles);
    cli_json_key(&w, "op_cycles");
    cli_json_begin_object(&w);
    for (i = 0; i < MMM_CALIB_NOPS; i++) {
        cli_json_key(&w, mmm_calib_op_name((mmm_calib_op)i));
        cli_json_double(&w, c->op_cycles[i].median);
    }
    cli_json_end_object(&w);
    cli_json_key(&w, "saturation_words_per_sm");
    cli_json_double(&w, c->saturation_words_per_sm);
    cli_json_key(&w, "latency_exposed");
    cli_json_double(&w, c->latency_exposed);
    cli_json_end_object(&w);

    /* The spread of each figure above, in the same units. */
    cli_json_key(&w, "spread");
    cli_json_begin_object(&w);
    json_stat(&w, "clock_hz", &c->clock_hz, 1);
    json_stat(&w, "launch_stream_us", &c->launch_stream_s, 1e6);
    json_stat(&w, "launch_own_stream_us", &c->launch_own_stream_s, 1e6);
    json_stat(&w, "launch_graph_us", &c->launch_graph_s, 1e6);
    json_stat(&w, "block_cycles", &c->block_cycles, 1);
    json_stat(&w, "atomic_cycles", &c->atomic_cycles, 1);
    json_gathers(&w, c, 1);
    json_stat(&w, "issue_per_cycle", &c->issue_per_cycle, 1);
    json_stat(&w, "load_latency_cycles", &c->load_cycles, 1);
    json_stat(&w, "l2_latency_cycles", &c->l2_load_cycles, 1);
    json_stat(&w, "shared_latency_cycles", &c->shared_cycles, 1);
    json_by_block(&w, "bandwidth_by_block", mmm_calib_block_sizes,
                  MMM_CALIB_NBLOCK, c->bandwidth, 1, 1);
    json_stat(&w, "memcpy_bytes_per_s", &c->memcpy_bandwidth, 1);
    json_by_block(&w, "U_latency", mmm_calib_block_sizes, MMM_CALIB_NBLOCK,
                  c->u_latency, 1, 1);
    json_by_block(&w, "U_bandwidth", mmm_calib_block_sizes, MMM_CALIB_NBLOCK,
                  c->u_bandwidth, 1, 1);
    json_by_block(&w, "sync_cycles", mmm_calib_sync_sizes, MMM_CALIB_NSYNC,
                  c->sync_cycles, 1, 1);
    cli_json_key(&w, "op_cycles");
    cli_json_begin_object(&w);
    for (i = 0; i < MMM_CALIB_NOPS; i++)
        json_stat(&w, mmm_calib_op_name((mmm_calib_op)i), &c->op_cycles[i], 1);
    cli_json_end_object(&w);
    cli_json_end_object(&w);
    cli_json_end_object(&w);
    cli_json_finish(&w);
}

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
        cli_print_error(&err);
        free(raw);
        return CLI_FAIL;
    }
    free(raw);
    return CLI_OK;
}
#endif

int cmd_calibrate(int argc, char **argv)
{
    const char *out = NULL;
    enum cli_format format = CLI_TEXT;
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
                format = CLI_TEXT;
            else if (!strcmp(v, "json"))
                format = CLI_JSON;
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
        int rc = measure(&c, device, quick);
        if (rc != CLI_OK)
            return rc;
        mmm_error_clear(&err);
        if (out && mmm_calib_write_machine(out, &c, &err) < 0) {
            cli_print_error(&err);
            return CLI_FAIL;
        }
        if (format == CLI_JSON)
            print_json(&c);
        else
            print_text(&c);
        return CLI_OK;
    }
#else
    (void)out;
    (void)format;
    (void)device;
    (void)quick;
    (void)print_text;
    (void)print_json;
    fprintf(stderr, "mmm calibrate: error: this mmm was built without CUDA (no "
                    "CUDA toolkit was found when it was built); rebuild it with "
                    "nvcc on the PATH to measure a GPU\n");
    return CLI_FAIL;
#endif
}
