#!/usr/bin/env bash
# Sets up, builds and runs every test: the full suite (engine, command line, studio) on the
# offscreen platform, then the engine's tests again under AddressSanitizer + UBSan, then each
# fuzzer of tests/fuzz/ for a short smoke run (scripts/fuzz.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh
jobs=$(nproc 2>/dev/null || echo 2)

echo "== tests (Release) =="
(cd build && QT_QPA_PLATFORM=offscreen ctest --output-on-failure -j"$jobs")

echo "== engine tests under AddressSanitizer + UndefinedBehaviorSanitizer =="
cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=Debug -DATTNLAB_SANITIZE=ON -DATTNLAB_ENGINE_ONLY=ON \
    -DATTNLAB_NATIVE=OFF >/dev/null
ninja -C build-asan -j"$jobs"
(cd build-asan && ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
    QT_QPA_PLATFORM=offscreen ctest --output-on-failure -j"$jobs")

echo "== fuzzers: smoke run (scripts/fuzz.sh smoke) =="
scripts/fuzz.sh smoke
