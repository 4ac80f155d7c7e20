/* calibrate_out.c: the output of `mmm calibrate` (mmm_write_calibration):
 * the device and every measured figure of cuda/calibrate.cu, in text and
 * JSON. */
#include <stdio.h>

#include "output/output_internal.h"

/* ---- Text ---- */

static void text_row(FILE *f, const char *what, const mmm_calib_stat *s, double scale,
                     const char *unit)
{
    fprintf(f, "  %-34s %12.5g %-10s (quartiles %.4g..%.4g, n=%d)\n", what,
           s->median * scale, unit, s->q1 * scale, s->q3 * scale, s->n);
}

/* One row per block size; label has one %d. */
static void text_rows(FILE *f, const char *label, const int *sizes, int n,
                      const mmm_calib_stat *s, double scale, const char *unit)
{
    char what[64];
    int i;
    for (i = 0; i < n; i++) {
        snprintf(what, sizeof what, label, sizes[i]);
        text_row(f, what, &s[i], scale, unit);
    }
}

static void print_text(FILE *f, const mmm_calib *c)
{
    const mmm_calib_device *d = &c->dev;
    char what[64];
    int i;
    fprintf(f, "device: %s, compute capability %d.%d%s\n", d->name, d->cc_major,
           d->cc_minor, c->quick ? " (--quick)" : "");
    fprintf(f, "  SMs %d, reported clock %.0f MHz, memory clock %.0f MHz x %d-bit bus "
           "(%.4g B/s nominal), L2 %lld B\n", d->sms, d->clock_hz / 1e6,
           d->mem_clock_hz / 1e6, d->bus_width_bits,
           d->mem_clock_hz * 2 * d->bus_width_bits / 8, (long long)d->l2_bytes);
    fprintf(f, "  per SM: %d threads, %d blocks, %d registers, %lld B shared; per "
           "block %lld B shared (%lld opt-in); warp %d\n", d->sm_threads,
           d->sm_blocks, d->sm_registers, (long long)d->sm_shared_bytes,
           (long long)d->block_shared_bytes,
           (long long)d->block_shared_optin_bytes, d->warp_size);
    fprintf(f, "measured (median):\n");
    text_row(f, "SM clock", &c->clock_hz, 1e-6, "MHz");
    text_row(f, "launch, default stream", &c->launch_stream_s, 1e6, "us");
    text_row(f, "launch, own stream", &c->launch_own_stream_s, 1e6, "us");
    text_row(f, "launch, graph replay", &c->launch_graph_s, 1e6, "us");
    text_row(f, "block start, cycles per block per SM", &c->block_cycles, 1, "cycles");
    text_row(f, "atomics on one word, cycles apart", &c->atomic_cycles, 1, "cycles");
    if (c->atomic_exposed > 0)
        fprintf(f, "  %-34s %12.5g (beside reads of 1, 2, 4, 8 words: %.3g %.3g %.3g %.3g)\n",
                "atomics exposed", c->atomic_exposed, c->atomic_exposed_by_launch[0],
                c->atomic_exposed_by_launch[1], c->atomic_exposed_by_launch[2],
                c->atomic_exposed_by_launch[3]);
    for (int kind = 0; kind < 2; kind++) /* read, then written */
        for (i = 0; i < MMM_CALIB_NGATHER; i++) {
            snprintf(what, sizeof what, "%s word, %.4g MiB",
                     kind ? "scattered" : "gathered",
                     (double)c->gather_region_bytes[i] / 1048576.0);
            text_row(f, what, kind ? &c->scatter_word_bytes[i] : &c->gather_word_bytes[i],
                     1, "B of bandwidth");
        }
    fprintf(f, "  %-34s %12.5g MiB\n", "L2 that gathered words find",
           c->gather_l2_bytes / 1048576.0);
    text_row(f, "issue, warp-instructions/cycle/SM", &c->issue_per_cycle, 1, "");
    text_row(f, "dependent load beyond L2", &c->load_cycles, 1, "cycles");
    text_row(f, "dependent load, L2 hit", &c->l2_load_cycles, 1, "cycles");
    text_row(f, "dependent shared load", &c->shared_cycles, 1, "cycles");
    for (i = 0; i < MMM_CALIB_NOPS; i++) {
        snprintf(what, sizeof what, "op %s", mmm_calib_op_name((mmm_calib_op)i));
        text_row(f, what, &c->op_cycles[i], 1, "cycles");
    }
    text_rows(f, "__syncthreads, %d threads", mmm_calib_sync_sizes,
              MMM_CALIB_NSYNC, c->sync_cycles, 1, "cycles");
    fprintf(f, "  %-34s %12.5g cycles + %.4g per warp\n", "__syncthreads fit",
           c->sync_base_cycles, c->sync_per_warp_cycles);
    text_rows(f, "bandwidth, %d threads", mmm_calib_block_sizes, MMM_CALIB_NBLOCK,
              c->bandwidth, 1e-9, "GB/s");
    fprintf(f, "  %-34s %12.5g GB/s = %.4g B per cycle per SM\n", "bandwidth (best)",
           c->bandwidth_bytes_per_s * 1e-9, c->bandwidth_bytes_per_cycle_per_sm);
    text_row(f, "cudaMemcpy device to device", &c->memcpy_bandwidth, 1e-9, "GB/s");
    if (c->read_bytes_per_s > 0)
        fprintf(f, "  %-34s %12.5g GB/s (the largest array's re-read)\n", "DRAM reads alone",
                c->read_bytes_per_s * 1e-9);
    text_rows(f, "U latency-bound, %d threads", mmm_calib_block_sizes,
              MMM_CALIB_NBLOCK, c->u_latency, 1, "cycles");
    text_rows(f, "U bandwidth-bound, %d threads", mmm_calib_block_sizes,
              MMM_CALIB_NBLOCK, c->u_bandwidth, 1, "cycles");
    fprintf(f, "  %-34s %12.5g words\n", "in flight per SM to saturate",
           c->saturation_words_per_sm);
    fprintf(f, "  %-34s %12.5g\n", "latency exposed (from U)", c->latency_exposed);
    for (i = 0; i < MMM_CALIB_NL2; i++) {
        snprintf(what, sizeof what, "L2 re-read, %.4g MiB",
                 (double)c->l2_array_bytes[i] / 1048576.0);
        text_row(f, what, &c->l2_read_bytes_per_s[i], 1e-9, "GB/s");
    }
    fprintf(f, "  %-34s %12.5g GB/s, %.5g MiB kept between launches\n", "L2",
            c->l2_bytes_per_s * 1e-9, c->l2_capacity_bytes / 1048576.0);
    for (i = 0; i < MMM_CALIB_NXFERKIND; i++) {
        const char *kind = mmm_copy_kind_name((mmm_copy_kind)(i + 1));
        for (int j = 0; j < MMM_CALIB_NTRANSFER; j++) {
            snprintf(what, sizeof what, "%s %s, %lld B", kind,
                     i == 3 ? "memset" : "copy", (long long)c->transfer_bytes[j]);
            text_row(f, what, &c->transfer_s[i][j], 1e6, "us");
        }
        fprintf(f, "  %-34s %12.5g GB/s + %.4g us per call\n", kind,
                c->transfer_bytes_per_s[i] * 1e-9, c->transfer_fixed_s[i] * 1e6);
    }
}

/* ---- JSON ---- */

static void json_stat(mmm__json *w, const char *key, const mmm_calib_stat *s,
                      double scale)
{
    mmm__json_key(w, key);
    mmm__json_begin_object_flat(w);
    mmm__json_intk(w, "n", s->n);
    mmm__json_num(w, "q1", s->q1 * scale);
    mmm__json_num(w, "q3", s->q3 * scale);
    mmm__json_num(w, "min", s->min * scale);
    mmm__json_num(w, "max", s->max * scale);
    mmm__json_num(w, "mad", s->mad * scale);
    mmm__json_intk(w, "outliers", s->outliers);
    mmm__json_end_object(w);
}

/* "gather_bytes_by_region" and "scatter_bytes_by_region": {region bytes:
 * bytes of bandwidth per word} (spread: each figure's summary). */
static void json_gathers(mmm__json *w, const mmm_calib *c, int spread)
{
    static const char *const keys[2] = {"gather_bytes_by_region",
                                        "scatter_bytes_by_region"};
    for (int kind = 0; kind < 2; kind++) {
        const mmm_calib_stat *st = kind ? c->scatter_word_bytes : c->gather_word_bytes;
        mmm__json_key(w, keys[kind]);
        mmm__json_begin_object(w);
        for (int i = 0; i < MMM_CALIB_NGATHER; i++) {
            char k[32];
            snprintf(k, sizeof k, "%lld", (long long)c->gather_region_bytes[i]);
            if (spread) {
                json_stat(w, k, &st[i], 1);
            } else {
                mmm__json_num(w, k, st[i].median);
            }
        }
        mmm__json_end_object(w);
    }
}

/* "transfers": {kind: {"bytes_per_s", "fixed_us", "us_by_bytes": {bytes:
 * median}}} (spread: the summaries by size). */
static void json_transfers(mmm__json *w, const mmm_calib *c, int spread)
{
    mmm__json_key(w, "transfers");
    mmm__json_begin_object(w);
    for (int k = 0; k < MMM_CALIB_NXFERKIND; k++) {
        mmm__json_key(w, mmm_copy_kind_name((mmm_copy_kind)(k + 1)));
        mmm__json_begin_object(w);
        if (!spread) {
            mmm__json_num(w, "bytes_per_s", c->transfer_bytes_per_s[k]);
            mmm__json_num(w, "fixed_us", c->transfer_fixed_s[k] * 1e6);
        }
        mmm__json_key(w, "us_by_bytes");
        mmm__json_begin_object(w);
        for (int j = 0; j < MMM_CALIB_NTRANSFER; j++) {
            char key[32];
            snprintf(key, sizeof key, "%lld", (long long)c->transfer_bytes[j]);
            if (spread)
                json_stat(w, key, &c->transfer_s[k][j], 1e6);
            else
                mmm__json_num(w, key, c->transfer_s[k][j].median * 1e6);
        }
        mmm__json_end_object(w);
        mmm__json_end_object(w);
    }
    mmm__json_end_object(w);
}

/* "l2": {"bytes_per_s", "capacity_bytes", "bytes_per_s_by_array":
 * {bytes: median}} (spread: the summaries by array). */
static void json_l2(mmm__json *w, const mmm_calib *c, int spread)
{
    mmm__json_key(w, "l2");
    mmm__json_begin_object(w);
    if (!spread) {
        mmm__json_num(w, "bytes_per_s", c->l2_bytes_per_s);
        mmm__json_num(w, "capacity_bytes", c->l2_capacity_bytes);
    }
    mmm__json_key(w, "bytes_per_s_by_array");
    mmm__json_begin_object(w);
    for (int i = 0; i < MMM_CALIB_NL2; i++) {
        char key[32];
        snprintf(key, sizeof key, "%lld", (long long)c->l2_array_bytes[i]);
        if (spread)
            json_stat(w, key, &c->l2_read_bytes_per_s[i], 1);
        else
            mmm__json_num(w, key, c->l2_read_bytes_per_s[i].median);
    }
    mmm__json_end_object(w);
    mmm__json_end_object(w);
}

/* {"128": median, ...} (medians) or {"128": {spread}, ...}. */
static void json_by_block(mmm__json *w, const char *key, const int *sizes,
                          int n, const mmm_calib_stat *s, double scale,
                          int spread)
{
    char k[16];
    int i;
    mmm__json_key(w, key);
    mmm__json_begin_object(w);
    for (i = 0; i < n; i++) {
        snprintf(k, sizeof k, "%d", sizes[i]);
        if (spread) {
            json_stat(w, k, &s[i], scale);
        } else {
            mmm__json_num(w, k, s[i].median * scale);
        }
    }
    mmm__json_end_object(w);
}

static void print_json(FILE *f, const mmm_calib *c)
{
    const mmm_calib_device *d = &c->dev;
    mmm__json w;
    char cc[16];
    int i;
    mmm__json_init(&w, f);
    mmm__json_begin_object(&w);
    mmm__json_key(&w, "device");
    mmm__json_begin_object(&w);
    mmm__json_str(&w, "name", d->name);
    snprintf(cc, sizeof cc, "%d.%d", d->cc_major, d->cc_minor);
    mmm__json_str(&w, "compute_capability", cc);
    mmm__json_intk(&w, "sms", d->sms);
    mmm__json_num(&w, "clock_hz", c->clock_hz.median);
    mmm__json_num(&w, "reported_clock_hz", d->clock_hz);
    mmm__json_num(&w, "mem_clock_hz", d->mem_clock_hz);
    mmm__json_intk(&w, "bus_width_bits", d->bus_width_bits);
    mmm__json_num(&w, "nominal_bandwidth_bytes_per_s", d->mem_clock_hz * 2 * d->bus_width_bits / 8);
    mmm__json_intk(&w, "l2_bytes", d->l2_bytes);
    mmm__json_intk(&w, "global_bytes", d->global_bytes);
    mmm__json_intk(&w, "sm_shared_bytes", d->sm_shared_bytes);
    mmm__json_intk(&w, "block_shared_bytes", d->block_shared_bytes);
    mmm__json_intk(&w, "block_shared_optin_bytes", d->block_shared_optin_bytes);
    mmm__json_intk(&w, "reserved_shared_bytes", d->reserved_shared_bytes);
    mmm__json_intk(&w, "sm_registers", d->sm_registers);
    mmm__json_intk(&w, "sm_threads", d->sm_threads);
    mmm__json_intk(&w, "sm_blocks", d->sm_blocks);
    mmm__json_intk(&w, "block_threads", d->block_threads);
    mmm__json_intk(&w, "warp_size", d->warp_size);
    mmm__json_intk(&w, "shared_granule_bytes", d->shared_granule_bytes);
    mmm__json_intk(&w, "register_granule", d->register_granule);
    mmm__json_intk(&w, "register_partitions", d->register_partitions);
    mmm__json_intk(&w, "driver_version", d->driver_version);
    mmm__json_intk(&w, "runtime_version", d->runtime_version);
    mmm__json_end_object(&w);

    mmm__json_boolk(&w, "quick", c->quick);

    mmm__json_key(&w, "measured");
    mmm__json_begin_object(&w);
    mmm__json_num(&w, "clock_hz", c->clock_hz.median);
    mmm__json_num(&w, "launch_stream_us", c->launch_stream_s.median * 1e6);
    mmm__json_num(&w, "launch_own_stream_us", c->launch_own_stream_s.median * 1e6);
    mmm__json_num(&w, "launch_graph_us", c->launch_graph_s.median * 1e6);
    mmm__json_num(&w, "block_cycles", c->block_cycles.median);
    mmm__json_num(&w, "atomic_cycles", c->atomic_cycles.median);
    mmm__json_num(&w, "atomic_exposed", c->atomic_exposed);
    mmm__json_num(&w, "gather_hit_bytes", c->gather_hit_bytes);
    mmm__json_num(&w, "gather_miss_bytes", c->gather_miss_bytes);
    mmm__json_num(&w, "gather_l2_bytes", c->gather_l2_bytes);
    mmm__json_num(&w, "scatter_hit_bytes", c->scatter_hit_bytes);
    mmm__json_num(&w, "scatter_miss_bytes", c->scatter_miss_bytes);
    json_gathers(&w, c, 0);
    mmm__json_num(&w, "issue_per_cycle", c->issue_per_cycle.median);
    mmm__json_num(&w, "load_latency_cycles", c->load_cycles.median);
    mmm__json_num(&w, "l2_latency_cycles", c->l2_load_cycles.median);
    mmm__json_num(&w, "shared_latency_cycles", c->shared_cycles.median);
    mmm__json_num(&w, "bandwidth_bytes_per_s", c->bandwidth_bytes_per_s);
    mmm__json_num(&w, "bandwidth_bytes_per_cycle_per_sm", c->bandwidth_bytes_per_cycle_per_sm);
    mmm__json_intk(&w, "bandwidth_block", c->bandwidth_block);
    json_by_block(&w, "bandwidth_by_block", mmm_calib_block_sizes,
                  MMM_CALIB_NBLOCK, c->bandwidth, 1, 0);
    mmm__json_num(&w, "memcpy_bytes_per_s", c->memcpy_bandwidth.median);
    mmm__json_num(&w, "read_bytes_per_s", c->read_bytes_per_s);
    json_by_block(&w, "U_latency", mmm_calib_block_sizes, MMM_CALIB_NBLOCK,
                  c->u_latency, 1, 0);
    json_by_block(&w, "U_bandwidth", mmm_calib_block_sizes, MMM_CALIB_NBLOCK,
                  c->u_bandwidth, 1, 0);
    mmm__json_key(&w, "U_resident_blocks");
    mmm__json_begin_object(&w);
    for (i = 0; i < MMM_CALIB_NBLOCK; i++) {
        char k[16];
        snprintf(k, sizeof k, "%d", mmm_calib_block_sizes[i]);
        mmm__json_intk(&w, k, c->u_resident[i]);
    }
    mmm__json_end_object(&w);
    json_by_block(&w, "sync_cycles", mmm_calib_sync_sizes, MMM_CALIB_NSYNC,
                  c->sync_cycles, 1, 0);
    mmm__json_num(&w, "sync_base_cycles", c->sync_base_cycles);
    mmm__json_num(&w, "sync_cycles_per_warp", c->sync_per_warp_cycles);
    mmm__json_key(&w, "op_cycles");
    mmm__json_begin_object(&w);
    for (i = 0; i < MMM_CALIB_NOPS; i++) {
        mmm__json_num(&w, mmm_calib_op_name((mmm_calib_op)i), c->op_cycles[i].median);
    }
    mmm__json_end_object(&w);
    mmm__json_num(&w, "saturation_words_per_sm", c->saturation_words_per_sm);
    mmm__json_num(&w, "latency_exposed", c->latency_exposed);
    json_transfers(&w, c, 0);
    json_l2(&w, c, 0);
    mmm__json_end_object(&w);

    /* The spread of each figure above, in the same units. */
    mmm__json_key(&w, "spread");
    mmm__json_begin_object(&w);
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
    mmm__json_key(&w, "op_cycles");
    mmm__json_begin_object(&w);
    for (i = 0; i < MMM_CALIB_NOPS; i++)
        json_stat(&w, mmm_calib_op_name((mmm_calib_op)i), &c->op_cycles[i], 1);
    mmm__json_end_object(&w);
    json_transfers(&w, c, 1);
    json_l2(&w, c, 1);
    mmm__json_end_object(&w);
    mmm__json_end_object(&w);
    mmm__json_finish(&w);
}

int mmm_write_calibration(mmm_writer *w, const mmm_calib *c, mmm_error *err)
{
    int rc = mmm__writer_check(w, MMM__FORMAT_BIT(MMM_FORMAT_TEXT) |
                                      MMM__FORMAT_BIT(MMM_FORMAT_JSON),
                               "mmm_write_calibration", err);
    if (rc < 0)
        return rc;
    if (!c)
        return mmm_error_set(err, MMM_EINVAL, NULL, 0,
                             "mmm_write_calibration: no calibration");
    if (w->format == MMM_FORMAT_JSON)
        print_json(w->f, c);
    else
        print_text(w->f, c);
    return MMM_OK;
}
