#!/usr/bin/env bash
# setup.sh: install what mmm needs (Debian packages, when missing), build it
# into build/, and run the main job: analyze the optimized polynomial
# division.  Safe to run again.  Usage: ./setup.sh [--no-install]
set -euo pipefail
cd "$(dirname "$0")"

# Build and run-time dependencies.  Keep in step with .ci/run and README.
PACKAGES=(cmake make gcc pkg-config libxml2-dev libxml2-utils libgraphviz-dev
          graphviz libjansson-dev libcriterion-dev libplplot-dev plplot-driver-cairo python3
          python3-pytest python3-pandas python3-matplotlib zsh chromium)

if [ "${1:-}" != "--no-install" ]; then
  missing=()
  for p in "${PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing+=("$p")
  done
  if [ ${#missing[@]} -gt 0 ]; then
    echo "setup: installing ${missing[*]}"
    SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}"
  fi
fi

cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j"$(nproc)"
echo
echo "\$ build/mmm analyze dags/poly_div_opt.xml"
build/mmm analyze dags/poly_div_opt.xml
