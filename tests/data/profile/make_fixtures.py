#!/usr/bin/env python3
"""make_fixtures.py CALL1_DIR OUT_DIR [CALL3_DIR]: the small captures of tests/data/profile/
from the Nsight Compute captures of an H200 (README.md says which).

Each fixture keeps a capture's rows as ncu wrote them (every field quoted,
thousands separators, its units row) and, of its 455 columns, the fixed
ones, the metrics mmm profile reads and a few others (which the reader
must ignore)."""
import csv
import os
import sys

src, out = sys.argv[1], sys.argv[2]
FIXED = ["ID", "Process ID", "Process Name", "Host Name", "Kernel Name", "Context",
         "Stream", "Block Size", "Grid Size", "Device", "CC"]
EXTRA = ["device__attribute_display_name", "launch__waves_per_multiprocessor",
         "launch__occupancy_per_block_size", "sm__warps_active.avg.pct_of_peak_sustained_active",
         "smsp__inst_executed.avg"]
LAUNCH = ["launch__grid_size", "launch__block_size", "launch__registers_per_thread",
          "launch__shared_mem_per_block_static", "launch__shared_mem_per_block_dynamic"]
METRICS = LAUNCH + [
    "smsp__warps_launched.sum", "smsp__inst_executed.sum", "smsp__thread_inst_executed.sum",
    "smsp__sass_inst_executed_op_global_ld.sum", "smsp__sass_inst_executed_op_global_st.sum",
    "smsp__sass_inst_executed_op_global_atom.sum", "smsp__sass_inst_executed_op_global_red.sum",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum",
    "l1tex__t_output_wavefronts_pipe_lsu_mem_global_op_ld.sum",
    "l1tex__t_output_wavefronts_pipe_lsu_mem_global_op_st.sum",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
    "lts__t_sectors_srcunit_tex_op_read.sum", "lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum",
    "lts__t_sectors_srcunit_tex_op_write.sum", "dram__bytes_read.sum", "dram__bytes_write.sum",
    "gpu__time_duration.sum"]


def read(name):
    rows = list(csv.reader(open(os.path.join(src, name), newline="")))
    return rows[0], rows[1], rows[2:]


def write(path, header, units, rows, cols):
    idx = [header.index(c) for c in cols]
    with open(os.path.join(out, path), "w", newline="") as f:
        w = csv.writer(f, quoting=csv.QUOTE_ALL, lineterminator="\n")
        w.writerow(cols)
        w.writerow([units[i] for i in idx])
        for r in rows:
            w.writerow([r[i] for i in idx])


def cols_of(header, metrics):
    return FIXED + [c for c in header if c in metrics or c in EXTRA]


os.makedirs(os.path.join(out, "reduce"), exist_ok=True)
os.makedirs(os.path.join(out, "pagerank"), exist_ok=True)

# validate reduce: one point per (tpb, k), the launches reduce_partial<tpb,
# k> and reduce_final; POINTS.csv with the columns tpb and k.
for variant in ["raw", "raw-base"]:
    h, u, rows = read("validate.%s.csv" % variant)
    points = []
    i = 0
    while i + 1 < len(rows) and "reduce_partial" in rows[i][4]:
        name = rows[i][4]
        tpb, k = name[name.index("<") + 1:name.index(">")].split(", ")
        fn = "reduce/%s-tpb%s-k%s.csv" % (variant, tpb, k)
        write(fn, h, u, rows[i:i + 2], cols_of(h, METRICS))
        points.append((fn.split("/")[1], tpb, k))
        i += 2
    with open(os.path.join(out, "reduce", "POINTS-%s.csv" % variant), "w") as f:
        f.write("ncu,tpb,k\n")
        for fn, tpb, k in points:
            f.write("%s,%s,%s\n" % (fn, tpb, k))

# pagerank repeated: 11 sweeps of pr_sweep<32, 1>, 11 of <32, 2>: the whole
# capture, and as mmm profile run splits it: every launch with the launch
# statistics only, and the first of each configuration with every metric.
h, u, rows = read("validate_pagerank_repeat.raw.csv")
write("pagerank/repeat-full.csv", h, u, rows, cols_of(h, METRICS))
write("pagerank/repeat-launches.csv", h, u, rows, cols_of(h, LAUNCH))
first = [r for j, r in enumerate(rows) if r[4] not in [q[4] for q in rows[:j]]]
write("pagerank/repeat-sample.csv", h, u, first, cols_of(h, METRICS))

# With a third argument, the directory of the third set of captures (call3,
# 57 metrics): fixtures/reduce_matmul_instances.csv, five launches of
# validate.raw-instances.csv (--print-metric-instances details, ncu's
# default units): reduce_partial<64, 1>, reduce_final, reduce_partial<128,
# 1>, reduce_final, mm_tiled<32, 1> (IDs 0, 1, 14, 15, 78), whose static
# shared memory reads "256 (0: 256)", "4.10 (0: 4.10)", "512 (0: 512)",
# "8.19 (0: 8.19)" under the unit "Kbyte/block" (256, 4,096, 512 and 8,192
# bytes: the plain page has 0.256000, 4.096000 ...).
if len(sys.argv) > 3:
    src = sys.argv[3]
    h, u, rows = read("validate.raw-instances.csv")
    keep = [r for r in rows if r[0] in ("0", "1", "14", "15", "78")]
    more = ["smsp__sass_data_bytes_mem_global_op_ld.sum",
            "smsp__sass_data_bytes_mem_global_op_st.sum",
            "l1tex__data_pipe_lsu_wavefronts_mem_shared.sum",
            "l1tex__t_output_wavefronts_pipe_lsu_mem_global.sum",
            "sass__inst_executed_per_opcode"]
    write("fixtures/reduce_matmul_instances.csv", h, u, keep, cols_of(h, METRICS + more))
