#!/usr/bin/env bash
# Builds and runs the benchmark of pretrained models at their real sizes (issue 12): GPT-2 small
# and BERT-base with random weights, written to a temporary folder at start-up (about 900 MB
# of disk, removed at the end; 4 GB of memory for the n = 1024 trace, 8 GB for its JSON).
# One thread, Release with -march=native as scripts/build.sh configures it; about two minutes.
# Extra arguments go to the benchmark, e.g. --benchmark_filter=Gpt2Trace.
set -euo pipefail
cd "$(dirname "$0")/.."
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
ninja -C build bench_pretrained
exec build/bench/bench_pretrained "$@"
