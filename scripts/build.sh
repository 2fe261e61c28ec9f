#!/usr/bin/env bash
# Configures and builds Attention Lab (Release, Ninja) into build/ after installing what is
# missing: the programs, the tests and the benchmarks (ATTNLAB_NO_BENCHMARKS=1: not these, as
# scripts/test.sh builds). Extra arguments go to CMake, e.g. scripts/build.sh -DATTNLAB_NATIVE=OFF.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
jobs=$(nproc 2>/dev/null || echo 2)
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release "$@" >/dev/null
targets=(all)
if [ -z "${ATTNLAB_NO_BENCHMARKS:-}" ] && grep -q '^build benchmarks:' build/build.ninja; then
    targets+=(benchmarks)
fi
ninja -C build -j"$jobs" "${targets[@]}"
