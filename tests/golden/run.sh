#!/usr/bin/env bash
# Golden outputs of the mmm command line: run every command, in every output
# format, on every program of dags/ (and the import, error and machine test
# files), and write one file per case into OUTDIR.
#
#   tests/golden/run.sh MMM_BINARY OUTDIR
#
# Each case NAME gives two files in OUTDIR:
#
#   NAME.out   its standard output, byte for byte
#   NAME.err   "$ mmm ARGS..." (the command line), its standard error, and
#              a last line "--- exit N" with its exit status
#
# Files a case writes (-o, --trace, --gantt) are kept beside them as
# NAME.<what>.  OUTDIR's path is replaced by the word OUTDIR in every file
# (in the command lines, and wherever mmm prints or writes a path it was
# given).  The commands run from the repository root, so the paths they
# print are relative (dags/x.xml).  tests/golden/check.sh runs this into a
# temporary directory and compares with tests/golden/expected/.
#
# Left out, and why:
#   - calibrate: needs a GPU (only its --help is kept).
#   - render --format svg|png|pdf, scale --plot, optimize --plot, roofline
#     -o: Graphviz's
#     and PLplot/cairo's output (layout and glyphs from the installed fonts
#     and library versions), binary for png/pdf.  They were byte-identical
#     between two runs on one machine, but would differ on a machine with
#     other fonts or another Graphviz; render --format dot keeps every
#     attribute mmm computes.
#   - report: kept for a few programs, with each <svg> block that Graphviz or
#     cairo drew replaced by one line "[svg elided ...]" (same reason); the
#     Gantt chart's SVG, which mmm writes itself, is kept, as is
#     simulate --gantt OUT.svg.
#   - nothing else had to be dropped: two runs of this script gave identical
#     outputs (no timings or addresses are printed), with 1 and 2 cases at
#     a time, and a Release build and an ASan+UBSan Debug build gave the
#     same bytes (the fits of mmm fit included).  Outputs are kept small
#     with explicit --values lists for optimize, and -D for the block-level
#     drawings and the trace of blocked_fw.
#
# The expected outputs assume a build with the drawing module and PLplot
# (as setup.sh and .ci/run make it) and Graphviz's DOT writer of the
# Debian packages they install.
#
# OUTDIR is created; an OUTDIR that is not empty must hold the outputs of
# an earlier run (it has main.help.out): its files are removed first, so
# that a case taken out of this script leaves no file behind.
set -euo pipefail
export LC_ALL=C

if [ $# -ne 2 ]; then
    echo "usage: $0 MMM_BINARY OUTDIR" >&2
    exit 2
fi
case $1 in
    /*) MMM=$1 ;;
    *) MMM=$PWD/$1 ;;
esac
[ -x "$MMM" ] || { echo "$0: $1: not an executable" >&2; exit 2; }
mkdir -p "$2"
OUT=$(cd "$2" && pwd -P)
if [ -n "$(ls -A "$OUT")" ]; then
    if [ ! -f "$OUT/main.help.out" ]; then
        echo "$0: $2 is not empty and holds no earlier golden outputs: give an empty or new directory" >&2
        exit 2
    fi
    find "$OUT" -mindepth 1 -maxdepth 1 -type f -delete
fi
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd -P)
cd "$ROOT"

# Cases run GOLDEN_JOBS at a time (default: the CPUs, at most 4); the
# outputs do not depend on it, only the wall time does.
if [ -z "${GOLDEN_JOBS:-}" ]; then
    GOLDEN_JOBS=$(nproc 2>/dev/null || echo 2)
    [ "$GOLDEN_JOBS" -le 4 ] || GOLDEN_JOBS=4
fi
running=0

# One case, as few processes as possible (there are a thousand of them):
# stdout straight into NAME.out, stderr appended to NAME.err after the
# command line.
run_case() {
    local name=$1; shift
    local f=$OUT/$name rc=0
    {
        printf '$ mmm'
        [ $# -eq 0 ] || printf ' %s' "$@"
        printf '\n'
    } >"$f.err"
    "$MMM" "$@" >"$f.out" 2>>"$f.err" </dev/null || rc=$?
    printf -- '--- exit %d\n' "$rc" >>"$f.err"
}

# case_ NAME ARGS...: one case.  Names must be unique (a repeated name is a
# mistake in this script: it stops).
declare -A SEEN=()
case_() {
    local name=$1
    if [ -n "${SEEN[$name]+x}" ]; then
        echo "$0: case '$name' twice" >&2
        exit 3
    fi
    SEEN[$name]=1
    if [ "$GOLDEN_JOBS" -le 1 ]; then
        run_case "$@"
        return 0
    fi
    run_case "$@" &
    running=$((running + 1))
    if [ "$running" -ge "$GOLDEN_JOBS" ]; then
        wait -n || true
        running=$((running - 1))
    fi
}

slug() { printf '%s' "${1//\//_}"; }

MC=dags/machines/h100-calibrated.xml
MF=dags/machines/h100-fitted.xml
MH=dags/machines/h100.xml
MT=dags/machines/tesla_c2050.xml
PROGRAMS=(dags/*.xml dags/apsp/*.xml dags/cumodp/*.xml dags/gpu/*.xml)
FORMATS=(text json csv)

# A dozen programs of every kind (small DAGs, polynomial arithmetic, APSP,
# CUMODP, GPU kernels) get the variants that would only grow the expected
# outputs if run on all of them.
SUBSET=(dags/fork_join.xml dags/not_series_parallel.xml dags/poly_div_opt.xml dags/poly_mul.xml
        dags/apsp/bellman_ford.xml dags/apsp/johnson_array.xml
        dags/cumodp/div_naive.xml dags/cumodp/div_opt.xml dags/cumodp/mul.xml
        dags/gpu/reduce.xml dags/gpu/bfs_step.xml dags/gpu/matmul.xml dags/gpu/histogram.xml)
in_subset() {
    local x
    for x in "${SUBSET[@]}"; do [ "$x" = "$1" ] && return 0; done
    return 1
}

# ---------------------------------------------------------------------------
# fit first: its two fits of all the constants to the 247 stream runs are
# the slowest cases by far (seconds each; tens of seconds under ASan).
CUMODP=(dags/cumodp/div_naive.xml dags/cumodp/div_opt.xml dags/cumodp/mul.xml)
case_ fit.stream_calibrated.text fit --data dags/cumodp/runs_stream.csv "${CUMODP[@]}" --machine "$MC" \
    -o "$OUT/fit.stream_calibrated.text.fitted.xml"
case_ fit.stream_calibrated.json fit --data dags/cumodp/runs_stream.csv "${CUMODP[@]}" --machine "$MC" \
    --format json -o "$OUT/fit.stream_calibrated.json.fitted.xml"
FIX=mem_latency_cycles,op_cycles,block_cycles,latency_exposed,sync_cycles,sync_cycles_per_warp,atomic_cycles,issue_per_cycle
for fmt in text json; do
    # The usage of docs/time.md (that made dags/machines/h100-fitted.xml).
    case_ "fit.doc_stream_graph.$fmt" fit --data dags/cumodp/runs_stream.csv --launch graph --data dags/cumodp/runs_graph.csv \
        "${CUMODP[@]}" --machine "$MH" --fix "$FIX" --format "$fmt" -o "$OUT/fit.doc_stream_graph.$fmt.fitted.xml"
    case_ "fit.graph_calibrated.$fmt" fit --launch graph --data dags/cumodp/runs_graph.csv "${CUMODP[@]}" \
        --machine "$MC" --format "$fmt"
    case_ "fit.more_sizes_predict.$fmt" fit --data dags/cumodp/runs_more_sizes.csv "${CUMODP[@]}" \
        --machine "$MF" --fit none --format "$fmt"
    case_ "fit.small.$fmt" fit --data tests/data/runs/small.csv "${CUMODP[@]}" --machine "$MC" --format "$fmt"
done
case_ fit.more_sizes_calibrated.text fit --data dags/cumodp/runs_more_sizes.csv "${CUMODP[@]}" --machine "$MC" \
    --fit launch_s,bandwidth_bytes_per_cycle,mem_latency_cycles --name golden \
    -o "$OUT/fit.more_sizes_calibrated.text.fitted.xml"
case_ fit.missing_program.text fit --data dags/cumodp/runs_stream.csv dags/cumodp/mul.xml --machine "$MC"

# ---------------------------------------------------------------------------
# The tool itself, --help of every command, wrong usage.
case_ main.help --help
case_ main.version --version
case_ main.noargs
case_ main.unknown_command frobnicate dags/diamond.xml
for c in analyze optimize compare fit simulate scale roofline render report convert calibrate profile; do
    case_ "$c.help" "$c" --help
done
case_ usage.analyze.unknown_option analyze dags/diamond.xml --frobnicate
case_ usage.analyze.bad_format analyze dags/diamond.xml --format yaml
case_ usage.analyze.no_file analyze
case_ usage.analyze.missing_file analyze dags/no_such_file.xml
case_ usage.analyze.undeclared_D analyze dags/diamond.xml -D nope=1
case_ usage.analyze.bad_model analyze dags/diamond.xml --model tmn
case_ usage.analyze.totals_text analyze dags/diamond.xml --totals
case_ usage.analyze.too_big_blocks analyze dags/poly_mul.xml -D n=10^19+1
case_ usage.optimize.no_param optimize dags/poly_div_opt.xml
case_ usage.optimize.unknown_param optimize dags/poly_div_opt.xml --param t
case_ usage.optimize.max_points optimize dags/poly_div_opt.xml --param s --max-points 10
case_ usage.compare.one_file compare dags/diamond.xml
case_ usage.simulate.bad_policy simulate dags/diamond.xml --policy fast
case_ usage.simulate.max_launches simulate dags/cumodp/div_opt.xml -p 4 --max-launches 100
case_ usage.scale.max_launches scale dags/fork_join.xml --max-launches 3
case_ usage.scale.bad_p scale dags/diamond.xml --p 0
case_ usage.render.no_output render dags/diamond.xml
case_ usage.convert.no_output convert dags/diamond.xml
case_ usage.fit.no_data fit dags/cumodp/mul.xml
case_ usage.time_no_machine analyze dags/cumodp/mul.xml --model time
case_ usage.time_h100_uncalibrated analyze dags/cumodp/mul.xml --machine "$MH" --model time

# ---------------------------------------------------------------------------
# analyze: every program in every format with every model (tmm, balance and
# time need threads per block: the small DAGs of dags/*.xml are refused,
# which is a case too); the other options on the subset.
for f in "${PROGRAMS[@]}"; do
    s=$(slug "$f")
    for fmt in "${FORMATS[@]}"; do
        case_ "analyze.mmm.$fmt.$s" analyze "$f" --format "$fmt"
        case_ "analyze.all.$fmt.$s" analyze "$f" --machine "$MC" --model all --format "$fmt"
        case_ "analyze.time.$fmt.$s" analyze "$f" --machine "$MC" --model time --format "$fmt"
    done
    case_ "analyze.totals.csv.$s" analyze "$f" --format csv --totals
    case_ "analyze.p7.text.$s" analyze "$f" -p 7
    case_ "analyze.time_graph.text.$s" analyze "$f" --machine "$MC" --model time --launch graph
    in_subset "$f" || continue
    for fmt in "${FORMATS[@]}"; do
        case_ "analyze.tmm.$fmt.$s" analyze "$f" --machine "$MC" --model tmm --format "$fmt"
        case_ "analyze.balance.$fmt.$s" analyze "$f" --machine "$MT" --model balance --format "$fmt"
    done
    case_ "analyze.p7.json.$s" analyze "$f" -p 7 --format json
    case_ "analyze.p7_totals.csv.$s" analyze "$f" -p 7 --format csv --totals
    case_ "analyze.maxrows2.text.$s" analyze "$f" --max-rows 2
    case_ "analyze.time_fitted.text.$s" analyze "$f" --machine "$MF" --model time
    case_ "analyze.time_fitted.json.$s" analyze "$f" --machine "$MF" --model time --format json
    case_ "analyze.time_graph.json.$s" analyze "$f" --machine "$MC" --model time --launch graph --format json
    case_ "analyze.every_model.json.$s" analyze "$f" --machine "$MC" --model mmm,tmm,balance,time --format json
done
# Every machine of dags/machines with the TMM and the balance principle.
for m in dags/machines/*.xml; do
    case_ "analyze.machine.text.$(slug "$m")" analyze dags/apsp/dp_squaring.xml --machine "$m" --model all
done
# Several files: a header each, one JSON object per line, a CSV file column;
# a missing file is said and skipped (exit 1).
for fmt in "${FORMATS[@]}"; do
    case_ "analyze.several.$fmt" analyze dags/*.xml dags/no_such_file.xml tests/data/import/real/stg-robot.stg \
        --max-rows 3 --format "$fmt"
done
case_ analyze.several_totals.csv analyze dags/diamond.xml dags/fork_join.xml --format csv --totals
case_ analyze.several_models.csv analyze dags/cumodp/*.xml --machine "$MC" --model tmm,time --format csv
case_ analyze.D.text.dags_poly_div_opt.xml analyze dags/poly_div_opt.xml -D n=2^20 -p 16
case_ analyze.D.json.dags_poly_div_opt.xml analyze dags/poly_div_opt.xml -D n=2^20 -p 16 --format json
case_ analyze.threads1.json.dags_cumodp_mul.xml analyze dags/cumodp/mul.xml --threads 1 --format json
case_ analyze.threads2.json.dags_cumodp_mul.xml analyze dags/cumodp/mul.xml --threads 2 --format json
for f in tests/data/good/*.xml; do
    case_ "analyze.mmm.text.$(slug "$f")" analyze "$f"
done

# ---------------------------------------------------------------------------
# optimize: the programs with a parameter declaring min and max, each
# objective, each format; explicit --values keep the sweeps (and the JSON,
# one line per point) small.
P2="1,2,8"
TPB="128,256,1024"
OPT_SPECS=(
    "dags/poly_div_naive.xml|--param l --values 1,4,16,64,256,1024,4096,6144"
    "dags/poly_div_opt.xml|--param s --values 1,2,4,16,64,256,512,1024,1755"
    "dags/poly_mul.xml|--param l --values 16,64,256 --param s --values 1,2,4,8,16"
    "dags/apsp/johnson_array.xml|--param fit"
    "dags/cumodp/div_naive.xml|--param B --values 1,2,4,8,16,32,64"
    "dags/cumodp/div_opt.xml|--param s --values 32,64,128,256,512,1024"
    "dags/cumodp/mul.xml|--param l --values 32,128,256,1024 --param s --values 1,2,4,8,32"
    "dags/gpu/batched_mm.xml|--param tpb --values $TPB --param k --values $P2"
    "dags/gpu/bfs_step.xml|--param tpb --values $TPB --param k --values $P2"
    "dags/gpu/block_hist.xml|--param tpb --values $TPB --param k --values $P2"
    "dags/gpu/cc_hook.xml|--param tpb --values $TPB --param k --values $P2"
    "dags/gpu/col_sum.xml|--param tpb --values $TPB --param k --values $P2"
    "dags/gpu/gemv.xml|--param tpb --values 32,$TPB --param k --values $P2"
    "dags/gpu/histogram.xml|--param tpb --values $TPB --param k --values $P2"
    "dags/gpu/matmul.xml|--param tile --values 8,16,32 --param r --values 1,4"
    "dags/gpu/mm2d.xml|--param tile --values 32,64 --param r --values 1,4"
    "dags/gpu/pagerank.xml|--param tpb --values 32,$TPB --param k --values $P2"
    "dags/gpu/pr_push.xml|--param tpb --values $TPB --param k --values $P2"
    "dags/gpu/reduce.xml|--param tpb --values $TPB --param k --values 1,4,64"
    "dags/gpu/regmm.xml|--param tile --values 16,32 --param r --values $P2"
    "dags/gpu/relax.xml|--param tpb --values $TPB --param k --values $P2"
    "dags/gpu/scan.xml|--param tpb --values $TPB --param k --values $P2"
    "dags/gpu/seq_reduce.xml|--param tpb --values $TPB --param k --values $P2"
    "dags/gpu/shfl_reduce.xml|--param tpb --values $TPB --param k --values $P2"
    "dags/gpu/spmv.xml|--param tpb --values $TPB --param k --values $P2"
    "dags/gpu/stencil.xml|--param tpb --values $TPB --param k --values 1,4,16"
    "dags/gpu/tiled_conv.xml|--param tpb --values $TPB --param k --values $P2"
    "dags/gpu/transpose.xml|--param tile --values 8,16,32 --param r --values 1,4"
    "dags/gpu/tri_count.xml|--param tpb --values $TPB --param k --values $P2"
    "dags/gpu/vec_spmv.xml|--param d --values 32,64 --param tpb --values $TPB"
)
for spec in "${OPT_SPECS[@]}"; do
    f=${spec%%|*}
    read -r -a sweep <<<"${spec#*|}"
    s=$(slug "$f")
    for fmt in "${FORMATS[@]}"; do
        case_ "optimize.overhead.$fmt.$s" optimize "$f" "${sweep[@]}" --format "$fmt"
        case_ "optimize.time.$fmt.$s" optimize "$f" "${sweep[@]}" --objective time --machine "$MC" --format "$fmt"
    done
    case_ "optimize.bound.text.$s" optimize "$f" "${sweep[@]}" --objective bound
    case_ "optimize.corollary.text.$s" optimize "$f" "${sweep[@]}" --objective corollary
    in_subset "$f" || continue
    for fmt in json csv; do
        case_ "optimize.bound.$fmt.$s" optimize "$f" "${sweep[@]}" --objective bound --format "$fmt"
        case_ "optimize.corollary.$fmt.$s" optimize "$f" "${sweep[@]}" --objective corollary --format "$fmt"
    done
    case_ "optimize.time_fitted.text.$s" optimize "$f" "${sweep[@]}" --objective time --machine "$MF"
    case_ "optimize.time_graph.json.$s" optimize "$f" "${sweep[@]}" --objective time --machine "$MC" --launch graph --format json
    case_ "optimize.maxrows3.text.$s" optimize "$f" "${sweep[@]}" --max-rows 3
done
# Ranges: the parameter's own min .. max, --from/--to/--step, a baseline.
case_ optimize.range.text.dags_poly_div_opt.xml optimize dags/poly_div_opt.xml --param s --max-rows 12
case_ optimize.range.csv.dags_cumodp_div_naive.xml optimize dags/cumodp/div_naive.xml --param B --format csv
case_ optimize.range.json.dags_cumodp_div_naive.xml optimize dags/cumodp/div_naive.xml --param B --format json
case_ optimize.step.text.dags_cumodp_div_opt.xml optimize dags/cumodp/div_opt.xml --param s --from 1024 --to 32 --step -32 --objective bound
case_ optimize.step.json.dags_cumodp_div_opt.xml optimize dags/cumodp/div_opt.xml --param s --from 32 --to 1024 --step 96 --format json
case_ optimize.baseline.text.dags_poly_div_opt.xml optimize dags/poly_div_opt.xml --param s --values 16,64,256,1024 --baseline 64
case_ optimize.baseline.json.dags_poly_mul.xml optimize dags/poly_mul.xml --param l --values 16,64,256 --param s --values 1,2,4 --baseline l=64,s=2 --format json
case_ optimize.infeasible.text.dags_poly_mul.xml optimize dags/poly_mul.xml --param s --values 1,3,4,4096,5000 --max-rows 0
case_ optimize.p.text.dags_gpu_reduce.xml optimize dags/gpu/reduce.xml --param p --values 1,2,4,8,16,132 --objective bound
case_ optimize.doc.text.dags_cumodp_mul.xml optimize dags/cumodp/mul.xml --machine "$MF" --objective time --param s --values 1,2,4,8,16,32 -D n=16384 -D m=16384
# The machine's launch limits, enforced for every objective; a geometric
# range; three parameters; a list of tuples.
for obj in overhead corollary time; do
    case_ "optimize.limits_$obj.text.dags_poly_div_opt.xml" optimize dags/poly_div_opt.xml --param s --machine "$MF" --objective "$obj" --max-rows 4
done
case_ optimize.limits.json.dags_poly_div_opt.xml optimize dags/poly_div_opt.xml --param s --from 330 --to 345 --machine "$MF" --format json
case_ optimize.geometric.text.dags_cumodp_div_opt.xml optimize dags/cumodp/div_opt.xml --machine "$MF" --objective time --param s --from 32 --to 1024 --step '*2'
case_ optimize.three.text.dags_cumodp_mul.xml optimize dags/cumodp/mul.xml --param l --values 128,256 --param s --values 1,2,4 --param n --values 16384,32768 --max-rows 0
case_ optimize.three.csv.dags_cumodp_mul.xml optimize dags/cumodp/mul.xml --param l --values 128,256 --param s --values 1,2,4 --param n --values 16384,32768 --format csv
for fmt in "${FORMATS[@]}"; do
    case_ "optimize.tuples.$fmt.dags_gpu_matmul.xml" optimize dags/gpu/matmul.xml --machine "$MC" --objective time --param tile,r --values 8x1,16x1,16x2,32x4,32x8 --param n --values 1024,2048 --format "$fmt"
done

# ---------------------------------------------------------------------------
# compare: pairs of programs; every mode in every format on three of them.
PAIRS=(
    "dags/poly_div_naive.xml dags/poly_div_opt.xml"
    "dags/cumodp/div_naive.xml dags/cumodp/div_opt.xml"
    "dags/gpu/reduce.xml dags/gpu/shfl_reduce.xml"
    "dags/diamond.xml dags/fork_join.xml"
    "dags/gpu/spmv.xml dags/gpu/vec_spmv.xml"
    "dags/gpu/pagerank.xml dags/gpu/pr_push.xml"
    "dags/gpu/matmul.xml dags/gpu/regmm.xml"
    "dags/apsp/floyd_warshall.xml dags/apsp/blocked_fw.xml"
)
i=0
for pair in "${PAIRS[@]}"; do
    read -r a b <<<"$pair"
    s="$(slug "$a")-vs-$(slug "$b")"
    i=$((i + 1))
    if [ "$i" -le 3 ]; then
        for fmt in "${FORMATS[@]}"; do
            case_ "compare.default.$fmt.$s" compare "$a" "$b" --format "$fmt"
            case_ "compare.corollary.$fmt.$s" compare "$a" "$b" --corollary --format "$fmt"
            case_ "compare.p32.$fmt.$s" compare "$a" "$b" -p 32 --format "$fmt"
            case_ "compare.time.$fmt.$s" compare "$a" "$b" --machine "$MC" --time --format "$fmt"
            case_ "compare.all.$fmt.$s" compare "$a" "$b" --machine "$MC" --model all --format "$fmt"
        done
        case_ "compare.time_graph.json.$s" compare "$a" "$b" --machine "$MF" --time --launch graph --format json
        case_ "compare.tmm_balance.text.$s" compare "$a" "$b" --machine "$MT" --model tmm,balance
    else
        case_ "compare.default.text.$s" compare "$a" "$b"
        case_ "compare.default.csv.$s" compare "$a" "$b" --format csv
        case_ "compare.time.json.$s" compare "$a" "$b" --machine "$MC" --time --format json
        case_ "compare.all.text.$s" compare "$a" "$b" --machine "$MC" --model all
    fi
done
case_ compare.D.text.dags_poly_div_naive.xml-vs-dags_poly_div_opt.xml compare dags/poly_div_naive.xml dags/poly_div_opt.xml -D s=128 -D n=2^18 -p 14
case_ compare.D.json.dags_poly_div_naive.xml-vs-dags_poly_div_opt.xml compare dags/poly_div_naive.xml dags/poly_div_opt.xml -D s=128 -D n=2^18 -p 14 --format json

# ---------------------------------------------------------------------------
# simulate: every program, every policy, every format; a list of p on the
# subset; a trace (Chrome trace events) of the random policy at a fixed
# seed for every program.
for f in "${PROGRAMS[@]}"; do
    s=$(slug "$f")
    for fmt in "${FORMATS[@]}"; do
        case_ "simulate.p3_all.$fmt.$s" simulate "$f" -p 3 --policy all --format "$fmt"
    done
    case_ "simulate.default.text.$s" simulate "$f"
    # blocked_fw's trace at its default size is 0.8 MB: a smaller n.
    D=()
    [ "$f" = dags/apsp/blocked_fw.xml ] && D=(-D n=256)
    case_ "simulate.trace.text.$s" simulate "$f" "${D[@]}" -p 4 --policy random --seed 7 \
        --trace "$OUT/simulate.trace.text.$s.trace.json"
    in_subset "$f" || continue
    for fmt in "${FORMATS[@]}"; do
        case_ "simulate.plist_all.$fmt.$s" simulate "$f" -p 1,16 --policy all --seed 5 --format "$fmt"
    done
    case_ "simulate.default.json.$s" simulate "$f" --format json
done
for pol in fifo lifo critical-path most-blocks fewest-blocks longest-block shortest-block random; do
    case_ "simulate.policy_$pol.json.dags_fork_join.xml" simulate dags/fork_join.xml -p 2..4 --policy "$pol" --format json
done
case_ simulate.trace_all.text.dags_fork_join.xml simulate dags/fork_join.xml -p 4 --policy all \
    --trace "$OUT/simulate.trace_all.text.dags_fork_join.xml.trace.json"
for f in dags/fork_join.xml dags/poly_mul.xml dags/cumodp/div_opt.xml dags/gpu/reduce.xml; do
    s=$(slug "$f")
    # The Gantt chart's SVG is mmm's own writer (no fonts, no Graphviz).
    case_ "simulate.gantt.text.$s" simulate "$f" -p 4 --policy all --gantt "$OUT/simulate.gantt.text.$s.gantt.svg"
done

# ---------------------------------------------------------------------------
# scale: every program, every format (the random policy at a fixed seed).
for f in "${PROGRAMS[@]}"; do
    s=$(slug "$f")
    for fmt in "${FORMATS[@]}"; do
        case_ "scale.default.$fmt.$s" scale "$f" --seed 3 --format "$fmt"
    done
    in_subset "$f" || continue
    case_ "scale.all.text.$s" scale "$f" --p 1..4,16,132 --policy all --seed 3
    case_ "scale.all.json.$s" scale "$f" --p 1..4,16,132 --policy all --seed 3 --format json
done
case_ scale.machine.text.dags_cumodp_mul.xml scale dags/cumodp/mul.xml --machine "$MC" --policy random --seed 9

# ---------------------------------------------------------------------------
# roofline: the GPU programs under the fitted H100, every format; a program
# without the time model's machine (an error); its picture is PLplot's
# (left out, as scale --plot).
for f in dags/gpu/*.xml dags/cumodp/mul.xml tests/data/roofline/stream.xml; do
    s=$(slug "$f")
    for fmt in "${FORMATS[@]}"; do
        case_ "roofline.$fmt.$s" roofline "$f" --machine dags/machines/h100-fitted.xml --format "$fmt"
    done
done
case_ usage.roofline.no_machine roofline dags/diamond.xml
case_ usage.roofline.bad_output roofline dags/gpu/scan.xml -o x.jpg

# ---------------------------------------------------------------------------
# render --format dot: every program at the kernel and the block level
# (--max-nodes 300: most programs are refused at the block level, which is
# a case too; a few are drawn again at a smaller size).
for f in "${PROGRAMS[@]}"; do
    s=$(slug "$f")
    case_ "render.kernel.dot.$s" render "$f" -o - --format dot
    case_ "render.block.dot.$s" render "$f" -o - --format dot --level block --max-nodes 300
done
case_ render.block_small.dot.dags_poly_div_opt.xml render dags/poly_div_opt.xml -D n=2^10 -D m=2^8 -D s=64 -o - --format dot --level block
case_ render.block_small.dot.dags_cumodp_div_opt.xml render dags/cumodp/div_opt.xml -D n=2^10 -D m=2^9 -o - --format dot --level block
case_ render.block_small.dot.dags_gpu_col_sum.xml render dags/gpu/col_sum.xml -D cols=2^12 -o - --format dot --level block
for color in work span cost none; do
    case_ "render.color_$color.dot.dags_fork_join.xml" render dags/fork_join.xml -o - --format dot --color "$color"
done
case_ render.file.dot.dags_diamond.xml render dags/diamond.xml -o "$OUT/render.file.dot.dags_diamond.xml.dot"
case_ render.machine.dot.dags_cumodp_mul.xml render dags/cumodp/mul.xml --machine "$MC" -o - --format dot

# ---------------------------------------------------------------------------
# report: the HTML page of a few programs (Graphviz's and cairo's drawings
# elided at the end, see the top of this file).
case_ report.default.dags_fork_join.xml report dags/fork_join.xml -o "$OUT/report.default.dags_fork_join.xml.svgraw.html"
case_ report.default.dags_poly_div_opt.xml report dags/poly_div_opt.xml -o "$OUT/report.default.dags_poly_div_opt.xml.svgraw.html"
case_ report.time.dags_cumodp_div_opt.xml report dags/cumodp/div_opt.xml --machine "$MC" -p 8 --no-sweep \
    -o "$OUT/report.time.dags_cumodp_div_opt.xml.svgraw.html"
case_ report.nosim.dags_gpu_reduce.xml report dags/gpu/reduce.xml --no-simulation --sweep k --color work \
    -o "$OUT/report.nosim.dags_gpu_reduce.xml.svgraw.html"

# ---------------------------------------------------------------------------
# convert: every file of tests/data/import (those that are not task graphs
# are refused), then analyze what it reads; and the programs of dags/
# written back evaluated.
IMPORTS=()
while IFS= read -r f; do IMPORTS+=("$f"); done < <(find tests/data/import -type f | sort)
for f in "${IMPORTS[@]}"; do
    s=$(slug "$f")
    case_ "convert.xml.$s" convert "$f" -o "$OUT/convert.xml.$s.xml"
    case $f in
        *.json | *.stg | *.dax | *.dot | *.xml)
            case_ "analyze.import.text.$s" analyze "$f"
            case_ "analyze.import.json.$s" analyze "$f" --format json
            ;;
    esac
done
case_ convert.costs.xml.tests_data_import_cuda_cuda_graph.dot convert tests/data/import/cuda/cuda_graph.dot \
    --costs tests/data/import/cuda/costs.csv -o -
case_ convert.time_unit.xml.tests_data_import_hand_graph_tasks.json convert tests/data/import/hand/graph_tasks.json \
    --time-unit ms -o -
case_ convert.cost_attr.xml.tests_data_import_hand_graph_flops.dot convert tests/data/import/hand/graph_flops.dot \
    --cost-attr flops -o -
case_ analyze.import_costs.json.tests_data_import_cuda_cuda_graph.dot analyze tests/data/import/cuda/cuda_graph.dot \
    --costs tests/data/import/cuda/costs.csv --format json
for f in "${PROGRAMS[@]}"; do
    case_ "convert.xml.$(slug "$f")" convert "$f" -o -
done

# ---------------------------------------------------------------------------
# Errors: every bad program and bad machine file; the limit cases again
# with the limit their first line names (depth has no option).
for f in tests/data/bad/*.xml; do
    case_ "error.analyze.$(slug "$f")" analyze "$f"
done
case_ error.limit.tests_data_bad_too_big.xml analyze tests/data/bad/too_big.xml --max-file-bytes 200
case_ error.limit.tests_data_bad_too_many_edges.xml analyze tests/data/bad/too_many_edges.xml --max-edges 2
case_ error.limit.tests_data_bad_too_many_kernels.xml analyze tests/data/bad/too_many_kernels.xml --max-kernels 2
case_ error.limit.tests_data_bad_too_many_params.xml analyze tests/data/bad/too_many_params.xml --max-params 2
case_ error.limit.tests_data_bad_expression_too_long.xml analyze tests/data/bad/expression_too_long.xml --max-expr-length 32
for f in tests/data/bad_machine/*.xml; do
    case_ "error.machine.$(slug "$f")" analyze dags/poly_mul.xml --machine "$f"
done
case_ error.limit.tests_data_bad_machine_too_many.xml analyze dags/poly_mul.xml --machine tests/data/bad_machine/too_many.xml --max-params 2

# Program parameters named like constants of the machine file (beta and
# alpha of the balance principle): the program's own, not the machine's.
for f in tests/data/machine/own_*.xml; do
    for fmt in text json; do
        case_ "analyze.own_names.$fmt.$(slug "$f")" analyze "$f" --machine "$MC" --model mmm,tmm,balance,time --format "$fmt"
    done
done

wait

# ---------------------------------------------------------------------------
# The reports: each <svg> block Graphviz or cairo drew becomes one line
# (mmm's own Gantt chart, font-family="Helvetica, Arial, sans-serif", stays).
for g in "$OUT"/*.svgraw.html; do
    [ -e "$g" ] || continue
    awk '
        skip { if ($0 ~ /^<\/svg>/) skip = 0; next }
        /^<svg/ && $0 !~ /font-family="Helvetica, Arial, sans-serif"/ {
            print "[svg elided: drawn by Graphviz or cairo, font-dependent]"
            if ($0 !~ /<\/svg>/) skip = 1
            next
        }
        { print }' "$g" >"${g%.svgraw.html}.html"
    rm -f "$g"
done

# OUTDIR's path, wherever it was printed or written, becomes OUTDIR.
OUT_RE=$(printf '%s' "$OUT" | sed 's/[][\.*^$|/]/\\&/g')
{ grep -rlF -- "$OUT" "$OUT" || true; } | while IFS= read -r g; do
    sed -i "s|$OUT_RE|OUTDIR|g" "$g"
done
exit 0
