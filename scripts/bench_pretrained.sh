#!/usr/bin/env bash
# Builds and runs the benchmark of pretrained models at their real sizes (issues 12 and 31):
# GPT-2 small, BERT-base, SmolLM2-135M and Qwen2.5-0.5B (BF16) with random weights, each written
# to a temporary folder when first needed (2.1 GB of disk in all, removed at the end; 5.4 GB of
# memory at the peak: the four models stay open while Qwen2.5-0.5B's opening is timed). One
# thread, Release with -march=native as scripts/build.sh configures it; about four minutes
# (GPT-2 and BERT alone, --benchmark_filter='Gpt2|Bert': two). Extra arguments go to the
# benchmark, e.g. --benchmark_filter='SmolLm2|Qwen25' --benchmark_repetitions=3.
set -euo pipefail
cd "$(dirname "$0")/.."
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
ninja -C build bench_pretrained
exec build/bench/bench_pretrained "$@"
