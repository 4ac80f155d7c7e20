#!/bin/sh
# fake-ncu.sh: a stand-in for Nsight Compute's ncu in tests/test_profile.c
# (no GPU in CI).  It takes ncu's options as `mmm profile run` passes them
# and writes to --log-file a committed capture chosen by the command:
#   PROG reduce TPB K   tests/data/profile/reduce/raw-tpbTPB-kK.csv (every
#                       metric: the list of launches and the sample alike)
#   PROG pagerank       pagerank/repeat-launches.csv (launch statistics) or,
#                       with --filter-mode per-launch-config,
#                       pagerank/repeat-sample.csv
#   PROG trace          (the launches traced by fake-prog.sh) the sample of
#                       trace/sample.csv without its divGPU launch, as if
#                       ncu's filter had missed that configuration; with
#                       --kernel-name K, that capture's launch of K alone
# A capture that does not exist fails the run as ncu does when the program
# fails.  Its arguments go to ARGS_LOG when that is set.
dir=$(dirname "$0")
log= per_config=0 kname=
[ -n "$ARGS_LOG" ] && echo "$*" >> "$ARGS_LOG"
while [ $# -gt 0 ]; do
  case "$1" in
    --log-file) log=$2; shift 2 ;;
    --filter-mode) [ "$2" = per-launch-config ] && per_config=1; shift 2 ;;
    --csv) shift ;;
    --kernel-name) kname=$2; shift 2 ;;
    --page|--print-units|--clock-control|--metrics|--launch-count|--print-metric-instances) shift 2 ;;
    --print-kernel-base|--kernel-name-base|--launch-skip) shift 2 ;;
    -*) echo "==ERROR== unrecognised option '$1'"; exit 1 ;;
    *) break ;;
  esac
done
shift # the program
case "$1" in
  reduce) f=$dir/reduce/raw-tpb$2-k$3.csv ;;
  pagerank) if [ $per_config = 1 ]; then f=$dir/pagerank/repeat-sample.csv
            else f=$dir/pagerank/repeat-launches.csv; fi ;;
  trace) f=$dir/trace/sample.csv ;;
  *) f=/nonexistent ;;
esac
echo "program output"
if [ ! -f "$f" ]; then
  echo "==PROF== Connected to process 4242 (/usr/bin/true)"
  echo "==ERROR== The application returned an error code (1)."
  exit 1
fi
{
  echo "==WARNING== Note: Running with unmodified GPU clocks."
  echo "==PROF== Connected to process 4242 (/usr/bin/true)"
  if [ "$1" = trace ] && [ -n "$kname" ]; then
    grep -v '^"[0-9]' "$f"; grep "^\"[0-9]*\",[^,]*,[^,]*,[^,]*,\"$kname\"" "$f"
  elif [ "$1" = trace ]; then
    grep -v 'divGPU' "$f"
  else
    cat "$f"
  fi
  echo "==PROF== Disconnected from process 4242"
} > "$log"
