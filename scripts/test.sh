#!/usr/bin/env bash
# Sets up, builds and runs every test: the full suite (engine, command line, studio) on the
# offscreen platform, then the engine's tests again under AddressSanitizer + UBSan, then each
# fuzzer of tests/fuzz/ for a short smoke run (scripts/fuzz.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
# The programs and the tests; the benchmarks are no tests (scripts/build.sh builds them too).
ATTNLAB_NO_BENCHMARKS=1 scripts/build.sh
jobs=$(nproc 2>/dev/null || echo 2)

echo "== tests (Release) =="
(cd build && QT_QPA_PLATFORM=offscreen ctest --output-on-failure -j"$jobs")

echo "== engine tests under AddressSanitizer + UndefinedBehaviorSanitizer =="
# In the fuzzers' build (clang++, the engine sanitized and instrumented once for both): the
# fuzzers below reuse the engine built here.
scripts/fuzz.sh configure
ninja -C build-fuzz -j"$jobs"
(cd build-fuzz && ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
    QT_QPA_PLATFORM=offscreen ctest --output-on-failure -j"$jobs")

echo "== fuzzers: smoke run (scripts/fuzz.sh smoke) =="
scripts/fuzz.sh smoke
