/* time_inputs.h: the time model's machine constants, one row each
 * (docs/time.md, section 1).  From this table come what
 * mmm_time_machine_get reads (name, how it is checked, its default and the
 * words of its error messages), the fitted constants of mmm/timemodel.h
 * (mmm_time_const_*: unit, meaning, bounds, start, optional), the names
 * `mmm calibrate` writes (src/time/calibrate.c), and the tests that
 * docs/time.md, the calibrated machine file and `mmm fit --help` agree
 * with it (tests/vocab_check.py, tests/test_calibrate.c).
 *
 * X(ID, name, kind, field, unit, what, default, min, lo, hi, start,
 *   flags, documented default):
 *   kind     TI_INT (an int64_t field of mmm_time_machine), TI_REAL (a
 *            double field), TI_FIT (a fitted constant: c[MMM_TIME_<field>]),
 *            TI_MODE (the launch mode: the int field graph)
 *   field    the field of mmm_time_machine (for TI_FIT: the MMM_TIME_*
 *            suffix of its index)
 *   unit     its unit as docs/time.md writes it
 *   what     what it is, in the error messages (a fitted constant's are
 *            "what, unit") and, for a fitted one, mmm_time_const_meaning
 *   default  its value when absent (TI_REQUIRED: it must be given; for a
 *            fitted constant, unless TI_OPTIONAL, when the constants are
 *            required); TI_SAME(ID): the value of that row
 *   min      TI_INT: the smallest value; TI_REAL: 0 for "positive", -1
 *            for "non-negative"
 *   lo, hi, start  a fitted constant's physical bounds and typical value
 *   flags    TI_OPTIONAL (a fitted constant a machine may leave out: 0),
 *            TI_CALIBRATED (`mmm calibrate` measures or reports it)
 * The rows are read in this order, so a row's default may be an earlier
 * row's value; the fitted rows come in the order of MMM_TIME_*. */
#ifndef MMM_TIME_INPUTS_H
#define MMM_TIME_INPUTS_H

#include "mmm/timemodel.h"

/* The kinds of rows. */
enum { TI_INT, TI_REAL, TI_FIT, TI_MODE };

#define TI_REQUIRED (-1.0)
#define TI_SAME(id) (-2.0 - (double)MMM__TI_##id)
#define TI_OPTIONAL 1u
#define TI_CALIBRATED 2u

/* clang-format off */
#define MMM__TIME_INPUTS(X)                                                   \
  X(CLOCK_HZ, "clock_hz", TI_REAL, clock_hz, "Hz", "SM clock, Hz",            \
    TI_REQUIRED, 0, 0, 0, 0, TI_CALIBRATED, "required")                      \
  X(P, "p", TI_INT, p, "SMs", "streaming multiprocessors",                    \
    TI_REQUIRED, 1, 0, 0, 0, TI_CALIBRATED, "required")                      \
  X(WARP_SIZE, "warp_size", TI_INT, warp_size, "threads",                     \
    "threads per warp", 32, 1, 0, 0, 0, TI_CALIBRATED, "32")                 \
  X(SM_THREADS, "sm_threads", TI_INT, sm_threads, "threads",                  \
    "most threads resident per SM", TI_REQUIRED, 1, 0, 0, 0, TI_CALIBRATED,  \
    "required")                                                               \
  X(SM_BLOCKS, "sm_blocks", TI_INT, sm_blocks, "blocks",                      \
    "most blocks resident per SM", TI_REQUIRED, 1, 0, 0, 0, TI_CALIBRATED,   \
    "required")                                                               \
  X(BLOCK_THREADS, "block_threads", TI_INT, block_threads, "threads",         \
    "most threads per block", 1024, 1, 0, 0, 0, TI_CALIBRATED, "1024")       \
  X(SM_SHARED_BYTES, "sm_shared_bytes", TI_INT, sm_shared_bytes, "bytes",     \
    "shared memory per SM, bytes", TI_REQUIRED, 0, 0, 0, 0, TI_CALIBRATED,   \
    "required")                                                               \
  X(BLOCK_SHARED_BYTES, "block_shared_bytes", TI_INT, block_shared_bytes,     \
    "bytes", "most shared memory per block, bytes",                           \
    TI_SAME(SM_SHARED_BYTES), 0, 0, 0, 0, TI_CALIBRATED,                      \
    "`sm_shared_bytes`")                                                      \
  X(SHARED_RESERVED_BYTES, "shared_reserved_bytes", TI_INT,                   \
    shared_reserved_bytes, "bytes", "shared memory reserved per block, bytes",\
    0, 0, 0, 0, 0, TI_CALIBRATED, "0")                                        \
  X(SHARED_GRANULE_BYTES, "shared_granule_bytes", TI_INT,                     \
    shared_granule_bytes, "bytes", "shared memory allocation unit, bytes",    \
    1, 1, 0, 0, 0, TI_CALIBRATED, "1")                                        \
  X(SM_REGISTERS, "sm_registers", TI_INT, sm_registers,                      \
    "32-bit registers", "registers per SM", TI_REQUIRED, 1, 0, 0, 0,          \
    TI_CALIBRATED, "required")                                                \
  X(REGISTER_GRANULE, "register_granule", TI_INT, register_granule,           \
    "32-bit registers", "register allocation unit per warp", 1, 1, 0, 0, 0,   \
    TI_CALIBRATED, "1")                                                       \
  X(REGISTER_PARTITIONS, "register_partitions", TI_INT, register_partitions, \
    "", "register-file sub-partitions per SM", 1, 1, 0, 0, 0, TI_CALIBRATED, \
    "1")                                                                      \
  X(WORD_BYTES, "word_bytes", TI_REAL, word_bytes, "bytes", "bytes per word", \
    4, 0, 0, 0, 0, TI_CALIBRATED, "4")                                        \
  X(SHARED_WAVEFRONTS_PER_CYCLE, "shared_wavefronts_per_cycle", TI_REAL,      \
    shared_wavefronts_per_cycle, "wavefronts / cycle",                        \
    "shared-memory wavefronts served per SM per cycle", 1, 0, 0, 0, 0, 0,     \
    "1")                                                                      \
  X(SECTOR_BYTES, "sector_bytes", TI_INT, sector_bytes, "bytes",              \
    "global-memory transaction unit, bytes", 32, 1, 0, 0, 0, 0, "32")         \
  X(GATHER_HIT_BYTES, "gather_hit_bytes", TI_REAL, gather_hit_bytes, "bytes", \
    "bytes of bandwidth one gathered word found in the L2 costs",             \
    TI_SAME(SECTOR_BYTES), 0, 0, 0, 0, TI_CALIBRATED, "`sector_bytes`")       \
  X(GATHER_MISS_BYTES, "gather_miss_bytes", TI_REAL, gather_miss_bytes,       \
    "bytes", "bytes of bandwidth one gathered word missing the L2 costs",     \
    TI_SAME(SECTOR_BYTES), 0, 0, 0, 0, TI_CALIBRATED, "`sector_bytes`")       \
  X(SCATTER_HIT_BYTES, "scatter_hit_bytes", TI_REAL, scatter_hit_bytes,       \
    "bytes", "bytes of bandwidth one word written at a random address found " \
    "in the L2 costs", TI_SAME(SECTOR_BYTES), 0, 0, 0, 0, TI_CALIBRATED,      \
    "`sector_bytes`")                                                         \
  X(SCATTER_MISS_BYTES, "scatter_miss_bytes", TI_REAL, scatter_miss_bytes,    \
    "bytes", "bytes of bandwidth one word written at a random address "       \
    "missing the L2 costs", TI_SAME(SECTOR_BYTES), 0, 0, 0, 0, TI_CALIBRATED, \
    "`sector_bytes`")                                                         \
  X(GATHER_L2_BYTES, "gather_l2_bytes", TI_REAL, gather_l2_bytes, "bytes",    \
    "L2 capacity that gathered words find, bytes", 0, -1, 0, 0, 0,            \
    TI_CALIBRATED, "0 (every such word misses)")                              \
  X(COPY_D2D_BYTES_PER_S, "copy_d2d_bytes_per_s", TI_REAL,                   \
    copy_d2d_bytes_per_s, "bytes/s",                                          \
    "bytes a device-to-device copy moves per second (each read and written)", \
    0, -1, 0, 0, 0, TI_CALIBRATED,                                            \
    "0: `bandwidth_bytes_per_cycle`·`clock_hz`/2")                            \
  X(COPY_H2D_BYTES_PER_S, "copy_h2d_bytes_per_s", TI_REAL,                   \
    copy_h2d_bytes_per_s, "bytes/s",                                          \
    "bytes a host-to-device copy moves per second over the host link",        \
    64e9, 0, 0, 0, 0, TI_CALIBRATED, "6.4e10 (published)")                    \
  X(COPY_D2H_BYTES_PER_S, "copy_d2h_bytes_per_s", TI_REAL,                   \
    copy_d2h_bytes_per_s, "bytes/s",                                          \
    "bytes a device-to-host copy moves per second over the host link",        \
    64e9, 0, 0, 0, 0, TI_CALIBRATED, "6.4e10 (published)")                    \
  X(SET_BYTES_PER_S, "set_bytes_per_s", TI_REAL, set_bytes_per_s, "bytes/s", \
    "bytes a memset writes per second", 0, -1, 0, 0, 0, TI_CALIBRATED,        \
    "0: `bandwidth_bytes_per_cycle`·`clock_hz`")                              \
  X(COPY_S, "copy_s", TI_REAL, copy_s, "s",                                   \
    "fixed time of one device-to-device copy (and memset without set_s) "     \
    "beyond its bytes, s",                                                    \
    1e-6, -1, 0, 0, 0, TI_CALIBRATED, "1e-6 (typical)")                       \
  X(SET_S, "set_s", TI_REAL, set_s, "s",                                      \
    "fixed time of one memset beyond its bytes, s", TI_SAME(COPY_S), -1, 0,   \
    0, 0, TI_CALIBRATED, "`copy_s`")                                          \
  X(COPY_HOST_S, "copy_host_s", TI_REAL, copy_host_s, "s",                    \
    "fixed time of one host-to-device copy (and device-to-host copy without " \
    "copy_d2h_s) beyond its bytes, s", 2e-6,                                  \
    -1, 0, 0, 0, TI_CALIBRATED, "2e-6 (typical)")                             \
  X(COPY_D2H_S, "copy_d2h_s", TI_REAL, copy_d2h_s, "s",                       \
    "fixed time of one device-to-host copy beyond its bytes, s",              \
    TI_SAME(COPY_HOST_S), -1, 0, 0, 0, TI_CALIBRATED, "`copy_host_s`")       \
  X(LAUNCH_S, "launch_s", TI_FIT, LAUNCH, "s",                                \
    "host time to issue one launch into a stream", TI_REQUIRED, 0, 1e-8,      \
    1e-3, 3e-6, TI_CALIBRATED, "fitted")                                      \
  X(LAUNCH_GRAPH_S, "launch_graph_s", TI_FIT, LAUNCH_GRAPH, "s",              \
    "GPU time between dependent launches (one replayed graph node)",          \
    TI_REQUIRED, 0, 1e-8, 1e-3, 1e-6, TI_CALIBRATED, "fitted")                \
  X(OP_CYCLES, "op_cycles", TI_FIT, OP, "cycles",                             \
    "latency of one local operation on a thread's critical path",             \
    TI_REQUIRED, 0, 1, 1e3, 4, TI_CALIBRATED, "fitted")                       \
  X(ISSUE_PER_CYCLE, "issue_per_cycle", TI_FIT, ISSUE,                        \
    "warp-instructions/cycle", "warp-instructions one SM issues per cycle",   \
    TI_REQUIRED, 0, 0.1, 8, 2, TI_CALIBRATED, "fitted")                       \
  X(SYNC_CYCLES, "sync_cycles", TI_FIT, SYNC, "cycles",                       \
    "a block-wide barrier of a one-warp block", TI_REQUIRED, 0, 1, 1e5, 100,  \
    TI_CALIBRATED, "fitted")                                                  \
  X(SYNC_CYCLES_PER_WARP, "sync_cycles_per_warp", TI_FIT, SYNC_WARP,          \
    "cycles/warp", "what a barrier costs more per warp of the block",         \
    TI_REQUIRED, 0, 0.01, 1e4, 10, TI_CALIBRATED, "fitted")                   \
  X(MEM_LATENCY_CYCLES, "mem_latency_cycles", TI_FIT, MEM_LATENCY, "cycles",  \
    "one dependent global-memory round trip", TI_REQUIRED, 0, 10, 1e5, 600,   \
    TI_CALIBRATED, "fitted")                                                  \
  X(BANDWIDTH_BYTES_PER_CYCLE, "bandwidth_bytes_per_cycle", TI_FIT,           \
    BANDWIDTH, "bytes/cycle",                                                 \
    "global-memory bandwidth of the whole GPU per SM cycle", TI_REQUIRED, 0,  \
    1, 1e5, 1500, TI_CALIBRATED, "fitted")                                    \
  X(START_S, "start_s", TI_FIT, START, "s",                                   \
    "fixed time of one run of stream launches beyond its launches (first "    \
    "launch, last kernel's end)", 0, 0, 1e-9, 1e-3, 5e-6, TI_OPTIONAL,        \
    "0 (optional)")                                                           \
  X(BLOCK_CYCLES, "block_cycles", TI_FIT, BLOCK, "cycles",                    \
    "time an SM takes to start one block (it starts its blocks one after "    \
    "another)", 0, 0, 0.1, 1e5, 100, TI_OPTIONAL | TI_CALIBRATED,             \
    "0 (optional)")                                                           \
  X(LATENCY_EXPOSED, "latency_exposed", TI_FIT, EXPOSED, "fraction",          \
    "share of the shorter of a wave's critical path and its memory "          \
    "transfer that the longer does not hide (0: overlapped, 1: added)", 0,    \
    0, 0.01, 1, 0.5, TI_OPTIONAL | TI_CALIBRATED, "0 (optional)")             \
  X(ATOMIC_CYCLES, "atomic_cycles", TI_FIT, ATOMIC, "cycles",                 \
    "time between two atomic operations on one global word (the GPU serves "  \
    "them one after another)", 0, 0, 0.01, 1e4, 4,                            \
    TI_OPTIONAL | TI_CALIBRATED, "0 (optional)")                              \
  X(ATOMIC_EXPOSED, "atomic_exposed", TI_REAL, atomic_exposed, "fraction",     \
    "share of the shorter of a launch's atomics on one word and the rest of "  \
    "its time that the longer does not hide (0: overlapped, 1: added)", 0,     \
    -1, 0, 0, 0, TI_CALIBRATED, "0")                                           \
  X(L2_BYTES, "l2_bytes", TI_REAL, l2_bytes, "bytes",                          \
    "L2 capacity that arrays kept between launches find, bytes", 0, -1, 0, 0,  \
    0, TI_CALIBRATED, "0 (no L2 modelled)")                                    \
  X(L2_BYTES_PER_CYCLE, "l2_bytes_per_cycle", TI_REAL, l2_bytes_per_cycle,    \
    "bytes/cycle", "L2 bandwidth of the whole GPU per SM cycle", 0, -1, 0, 0, \
    0, TI_CALIBRATED, "0: `bandwidth_bytes_per_cycle`")                        \
  X(READ_BYTES_PER_CYCLE, "read_bytes_per_cycle", TI_REAL,                    \
    read_bytes_per_cycle, "bytes/cycle",                                       \
    "DRAM bandwidth of reads alone, whole GPU per SM cycle (writes alone "     \
    "at set_bytes_per_s; mixed, what a copy shows)", 0, -1, 0, 0, 0,           \
    TI_CALIBRATED,                                                             \
    "0: `bandwidth_bytes_per_cycle`")                                          \
  X(GRAPH, "graph", TI_MODE, graph, "0 or 1",                                 \
    "launch mode: 0 stream, 1 graph", 0, 0, 0, 0, 0, 0, "0")
/* clang-format on */

typedef enum mmm__time_input {
#define MMM__TI_ENUM_(id, ...) MMM__TI_##id,
    MMM__TIME_INPUTS(MMM__TI_ENUM_)
#undef MMM__TI_ENUM_
    MMM__TI_N
} mmm__time_input;

/* The row's name ("clock_hz"); its unit and default as docs/time.md
 * writes them; TI_OPTIONAL | TI_CALIBRATED; whether `mmm fit` may free
 * it (a fitted constant).  NULL / 0 out of range. */
const char *mmm__time_input_name(int i);
const char *mmm__time_input_unit(int i);
const char *mmm__time_input_default_text(int i);
unsigned mmm__time_input_flags(int i);
int mmm__time_input_fitted(int i);

/* The name of row ID, for the files that write or read it by name. */
#define TI_NAME(id) mmm__time_input_name(MMM__TI_##id)

#endif
