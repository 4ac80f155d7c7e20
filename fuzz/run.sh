#!/usr/bin/env bash
# fuzz/run.sh [SECONDS] [HARNESS...]: build the libFuzzer harnesses with
# clang + ASan + UBSan into build-fuzz/ and run each for SECONDS (default 60)
# on a corpus seeded from dags/ and tests/data/ (expressions: the attribute
# values found in dags/ and tests/data/).
#
#   FUZZ_CPU=1 fuzz/run.sh 1200 fuzz_load   SECONDS are CPU seconds of the
#                                           fuzzer (a campaign on a shared
#                                           machine); default: wall seconds
#   FUZZ_ARGS="-use_value_profile=1" ...    more libFuzzer options
#
# Crashes, leaks, timeouts and out-of-memory inputs are written to
# fuzz/artifacts/; keep each one as a regression file under tests/data/fuzz/.
# The full libFuzzer log of each harness is build-fuzz/logs/HARNESS.log; the
# script prints its final stats, the CPU time used, and exits 1 when any
# harness found something (every harness still runs), so CI fails on a crash.
set -uo pipefail
cd "$(dirname "$0")/.."
secs=${1:-60}; shift || true
harnesses=("$@"); [ ${#harnesses[@]} -gt 0 ] || harnesses=(fuzz_expr fuzz_load fuzz_analyze fuzz_import fuzz_runs fuzz_ncu fuzz_measured)

set -e
CC=clang cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo -DMMM_FUZZ=ON \
  -DMMM_BUILD_TESTS=OFF -DMMM_SANITIZE=address,undefined >/dev/null
cmake --build build-fuzz -j"$(nproc)" --target "${harnesses[@]}" >/dev/null
set +e

mkdir -p fuzz/artifacts build-fuzz/logs

seed_expr() {  # every attribute value of the bundled and test programs
  grep -rhoE '(value|min|max|test|repeat|blocks|count|threads|work|span|reads|writes|shared)="[^"]*"' \
      dags tests/data --include='*.xml' 2>/dev/null \
    | sed -E 's/^[a-z]+="(.*)"$/\1/' | sort -u | while IFS= read -r line; do
      printf '%s' "$line" > "$1/seed-$(printf '%s' "$line" | md5sum | cut -c1-16)"
    done
}

# cpu_of PID: user + system seconds of a live process (from /proc).
cpu_of() {
  awk -v hz="$(getconf CLK_TCK)" '{ sub(/^.*\) /, ""); print int(($12 + $13) / hz) }' \
    "/proc/$1/stat" 2>/dev/null || echo 0
}

status=0
for h in "${harnesses[@]}"; do
  corpus=fuzz/corpus-$h
  mkdir -p "$corpus"
  if [ "$h" = fuzz_expr ]; then
    seed_expr "$corpus"; dict=fuzz/expr.dict
  elif [ "$h" = fuzz_import ]; then
    # the task graphs of tests/data/import/, each behind a format byte 0
    # (told by the content)
    find tests/data/import -type f -size -64k ! -name README ! -name '*.cu' \
        ! -name '*.md' | while IFS= read -r f; do
      { printf '\0'; cat "$f"; } > "$corpus/seed-$(basename "$f")"
    done
    dict=fuzz/import.dict
  elif [ "$h" = fuzz_runs ]; then
    # the runs files of tests/data/runs/, behind a launch-mode byte
    for f in tests/data/runs/*.csv; do
      { printf '\0'; cat "$f"; } > "$corpus/seed-$(basename "$f")"
    done
    dict=fuzz/csv.dict
  elif [ "$h" = fuzz_measured ]; then
    # the measured speedups of tests/data/scale/ and the runs files
    cp tests/data/scale/*.csv tests/data/runs/*.csv "$corpus"/
    dict=fuzz/csv.dict
  elif [ "$h" = fuzz_ncu ]; then
    # the captures of tests/data/profile/ (Nsight Compute's raw CSV)
    find tests/data/profile -name '*.csv' -size -64k ! -name 'POINTS*' \
        -exec cp {} "$corpus"/ \; 2>/dev/null
    dict=fuzz/ncu.dict
  else
    find dags tests/data -name '*.xml' -size -64k -exec cp {} "$corpus"/ \; 2>/dev/null
    dict=fuzz/xml.dict
  fi
  # crash regressions of this harness seed it too
  [ -d "tests/data/fuzz/$h" ] && find "tests/data/fuzz/$h" -type f ! -name '.*' -exec cp {} "$corpus"/ \;
  before=$(ls fuzz/artifacts | wc -l)
  log=build-fuzz/logs/$h.log
  wall=$secs; [ -n "${FUZZ_CPU:-}" ] && wall=$((secs * 50))
  echo "== $h: ${secs}s ${FUZZ_CPU:+CPU }, corpus $(ls "$corpus" | wc -l) files, log $log"
  start=$(date +%s)
  ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
    "build-fuzz/fuzz/$h" -max_total_time="$wall" -rss_limit_mb=2048 -timeout=10 \
      -dict="$dict" -artifact_prefix=fuzz/artifacts/ -print_final_stats=1 \
      ${FUZZ_ARGS:-} "$corpus" >"$log" 2>&1 &
  pid=$!
  cpu=0
  while kill -0 "$pid" 2>/dev/null; do
    cpu=$(cpu_of "$pid")
    # In CPU mode, stop the fuzzer (SIGINT: it prints its final stats) once
    # it has used its CPU budget.
    if [ -n "${FUZZ_CPU:-}" ] && [ "$cpu" -ge "$secs" ]; then
      kill -INT "$pid"; break
    fi
    sleep 2
  done
  wait "$pid"; rc=$?
  end=$(date +%s)
  grep -aE "^(#[0-9]+.*(DONE|INITED)|stat::|==.*ERROR|SUMMARY|.*artifact|.*run interrupted)" "$log" | tail -14
  echo "   exit $rc, ${cpu}s CPU, $((end - start))s wall, corpus now $(ls "$corpus" | wc -l) files"
  after=$(ls fuzz/artifacts | wc -l)
  # 0: time is up; 72: interrupted by us (CPU mode).  Anything else, or a
  # new artifact, is a finding.
  if { [ "$rc" -ne 0 ] && [ "$rc" -ne 72 ]; } || [ "$after" -gt "$before" ]; then
    echo "   FINDING in $h (exit $rc): see $log and fuzz/artifacts/"
    status=1
  fi
done
exit $status
