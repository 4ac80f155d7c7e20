#!/usr/bin/env bash
# fuzz/run.sh [SECONDS] [HARNESS...]: build the libFuzzer harnesses with
# clang + ASan + UBSan into build-fuzz/ and run each for SECONDS (default 60)
# on a corpus seeded from dags/ and tests/data/ (expressions: tests/data/expr/
# and the attribute values found in dags/).  Crashes are written to
# fuzz/artifacts/; keep each one as a regression file under
# tests/data/hostile/ or tests/data/fuzz/.
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${1:-60}; shift || true
harnesses=("$@"); [ ${#harnesses[@]} -gt 0 ] || harnesses=(fuzz_expr fuzz_load fuzz_analyze)

CC=clang cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo -DMMM_FUZZ=ON \
  -DMMM_BUILD_TESTS=OFF -DMMM_SANITIZE=address,undefined >/dev/null
cmake --build build-fuzz -j"$(nproc)" --target "${harnesses[@]}" >/dev/null

mkdir -p fuzz/artifacts
for h in "${harnesses[@]}"; do
  corpus=fuzz/corpus-$h
  mkdir -p "$corpus"
  if [ "$h" = fuzz_expr ]; then
    # Seed with every attribute value of the bundled programs.
    grep -rhoE '(value|min|max|test|repeat|blocks|count|threads|work|span|reads|writes)="[^"]*"' dags \
      | sed -E 's/^[a-z]+="(.*)"$/\1/' | sort -u | while IFS= read -r line; do
        printf '%s' "$line" > "$corpus/seed-$(printf '%s' "$line" | md5sum | cut -c1-16)"
      done
    [ -d tests/data/expr ] && cp tests/data/expr/* "$corpus"/ 2>/dev/null || true
  else
    find dags tests/data -name '*.xml' -size -64k -exec cp {} "$corpus"/ \; 2>/dev/null || true
  fi
  echo "== $h: ${secs}s, corpus $(ls "$corpus" | wc -l) files"
  ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=halt_on_error=1 \
    "build-fuzz/fuzz/$h" -max_total_time="$secs" -rss_limit_mb=2048 -timeout=10 \
      -artifact_prefix=fuzz/artifacts/ -print_final_stats=1 "$corpus" 2>&1 \
    | grep -E "^(#[0-9]+.*(DONE|pulse)|stat::|==.*ERROR|SUMMARY|artifact)" | tail -12
done
