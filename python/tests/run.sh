#!/bin/sh
# ctest `python`: python/tests with pytest, against this build's libmmm and
# mmm.  Usage: run.sh BUILD_DIR [PYTHON3] [SANITIZE] [SCRIPT]: with SCRIPT,
# runs it instead (ctest python_example).  Exit 77 (skipped) when no
# python3 with pytest is found.
build=$1; py=$2; san=$3; script=$4
src=$(cd "$(dirname "$0")/../.." && pwd)
found=
for p in "$py" /usr/bin/python3 python3; do
    [ -n "$p" ] || continue
    if "$p" -c 'import pytest' 2>/dev/null; then found=$p; break; fi
done
if [ -z "$found" ]; then
    echo "SKIPPED: no python3 with pytest (Debian: apt-get install python3-pytest)"
    exit 77
fi
if [ -f "$build/libmmm.so" ]; then lib=$build/libmmm.so; else lib=$build/python/libmmm.so; fi
case "$san" in
*address*)
    # A sanitized libmmm in an unsanitized python3: its runtime first.
    asan=$(${CC:-cc} -print-file-name=libasan.so)
    ubsan=$(${CC:-cc} -print-file-name=libubsan.so)
    LD_PRELOAD="$asan $ubsan"; export LD_PRELOAD
    ASAN_OPTIONS=detect_leaks=0; export ASAN_OPTIONS ;;
*undefined*)
    LD_PRELOAD=$(${CC:-cc} -print-file-name=libubsan.so); export LD_PRELOAD ;;
esac
MMM_LIBRARY=$(cd "$(dirname "$lib")" && pwd)/$(basename "$lib")
MMM_BIN=$(cd "$build" && pwd)/mmm
PYTHONPATH=$src/python PYTHONDONTWRITEBYTECODE=1
export MMM_LIBRARY MMM_BIN PYTHONPATH PYTHONDONTWRITEBYTECODE
if [ -n "$script" ]; then
    exec "$found" "$script"
fi
exec "$found" -m pytest -q -p no:cacheprovider "$src/python/tests"
