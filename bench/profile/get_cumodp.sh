#!/bin/sh
# bench/profile/get_cumodp.sh CUMODP_CLONE: put the CUMODP files that
# prof_cumodp.cu builds on into bench/profile/cumodp/ (git-ignored: they are
# GPL v3, not part of mmm), from a clone of github.com/davidtranhq/cumodp,
# at the commit dags/cumodp/README.md names.  cumodp/README.md says what
# each file is for; cumodp/shim/ (ours) is committed.
#
#   git clone https://github.com/davidtranhq/cumodp /tmp/cumodp
#   sh bench/profile/get_cumodp.sh /tmp/cumodp && sh bench/profile/build.sh
set -eu
COMMIT=586a92e2a3edf9d50b51c1d1fc8e839f4ef08ea4
CLONE=${1:?usage: get_cumodp.sh CUMODP_CLONE}
DEST=$(cd "$(dirname "$0")" && pwd)/cumodp
mkdir -p "$DEST"
git -C "$CLONE" archive "$COMMIT" src/cudaDiv.cu src/opt_plain_mul.cu \
    new_tests/Division/test_naiveDivision.cu include/inlines.h \
    include/defines.h include/types.h COPYRIGHT | tar -x -C "$DEST"
echo "get_cumodp: CUMODP @ ${COMMIT%"${COMMIT#???????}"} in $DEST"
