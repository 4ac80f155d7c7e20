# gpu_grid.sh: what tests/gpu_setd_grid.sh, gpu_sete_grid.sh,
# gpu_setf_grid.sh and gpu_setg_grid.sh share.
# Source it with mmm (the CLI) and src (the source tree) set; it sets
# machine, fail and n, and defines:
#   ok DAG -D...   the configuration must evaluate with the time model
#                  (counted in n)
#   ok_tpb_k DAG -D...  ok for every tpb 64..1024 and k 1, 2, 4, 8 (the
#                  launch configurations the bench/gpu programs time)
#   bad DAG -D...  it must be refused by a range or a constraint of the file
#   bad_tpb_k DAG...  tpb 32, 96, 2048 and k 3, 16 are refused by each
machine=$src/dags/machines/h100-calibrated.xml
fail=0 n=0
ok() {
    n=$((n + 1))
    f=$1
    shift
    if ! out=$("$mmm" analyze "$src/dags/gpu/$f" --machine "$machine" --model time \
               --format json "$@" 2>&1); then
        echo "FAIL: $f $*: $out"
        fail=1
    elif ! printf '%s' "$out" | grep -q '"seconds"'; then
        echo "FAIL: $f $*: no predicted seconds"
        fail=1
    fi
}
ok_tpb_k() {
    for T in 64 128 256 512 1024; do
        for K in 1 2 4 8; do
            ok "$@" -D tpb=$T -D k=$K
        done
    done
}
bad() {
    f=$1
    shift
    if err=$("$mmm" analyze "$src/dags/gpu/$f" --machine "$machine" --model time "$@" \
             2>&1 >/dev/null); then
        echo "FAIL: $f $* was accepted"
        fail=1
    elif ! printf '%s' "$err" | grep -Eq "^$src/dags/gpu/$f:[0-9]+: error: (constraint|parameter)"; then
        echo "FAIL: $f $*: not refused by the file: $err"
        fail=1
    fi
}
bad_tpb_k() {
    for g in "$@"; do
        bad "$g" -D tpb=32
        bad "$g" -D tpb=96
        bad "$g" -D tpb=2048
        bad "$g" -D k=3
        bad "$g" -D k=16
    done
}
