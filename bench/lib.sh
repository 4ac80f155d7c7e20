# bench/lib.sh: what the benchmark scripts share.  Sourced after ROOT (the
# repository) and BUILD (the Release build folder) are set:
#
#   . "$ROOT/bench/lib.sh"
#   bench_need NAME TOOL...   exit 1 with NAME: 'TOOL' not found, for the
#                             first TOOL not on PATH
#   bench_build TARGET...     configure BUILD as a Release build without the
#                             tests when it is not configured, then build
#                             the TARGETs (mmm_cli: $BUILD/mmm; mmm: the
#                             static core library $BUILD/libmmm.a)
#   bench_cc SRC OUT          compile bench/SRC.c against $BUILD/libmmm.a
#                             (and what the static core needs: libxml2,
#                             jansson) into OUT; 0 when it built
# The timing and peak memory of runs are bench/measure.py's.

bench_need() {
    _name=$1
    shift
    for _tool in "$@"; do
        command -v "$_tool" >/dev/null 2>&1 || {
            echo "$_name: '$_tool' not found" >&2
            exit 1
        }
    done
}

bench_build() {
    if [ ! -f "$BUILD/CMakeCache.txt" ]; then
        cmake -S "$ROOT" -B "$BUILD" -DCMAKE_BUILD_TYPE=Release \
            -DMMM_BUILD_TESTS=OFF >/dev/null
    fi
    cmake --build "$BUILD" -j2 --target "$@" >/dev/null
}

bench_cc() {
    # shellcheck disable=SC2046  # word splitting of the flags is wanted
    cc -O2 -std=c11 -D_POSIX_C_SOURCE=200809L -I"$ROOT/include" -I"$BUILD/include" \
        "$ROOT/bench/$1.c" "$BUILD/libmmm.a" $(pkg-config --libs libxml-2.0 jansson) \
        -lm -lpthread -o "$2"
}
