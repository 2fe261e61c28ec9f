#!/bin/sh
# Training speed against PyTorch on this machine (issue 15 §5), in one run: Attention Lab's
# floors and 5000 steps of the standard preset (bench_train), then PyTorch from Debian training
# the shipped model the same 5000 steps of 64 strings (scripts/train_reversal.py --time-only,
# which writes nothing), and the ratio. Nothing else should run meanwhile: both use the 2 cores.
#
#   bench/train_vs_pytorch.sh [BUILD_DIR]      (default build; about 7 minutes)
set -eu
build=${1:-build}
cd "$(dirname "$0")/.."
out=$(mktemp -d)
"$build/bench/bench_train" --benchmark_filter='BM_StandardReversalTo95|BM_ClassroomAntiDiagonal|BM_Standard5000Steps' \
    --benchmark_counters_tabular=true --benchmark_out="$out/ours.json" --benchmark_out_format=json
/usr/bin/python3 scripts/train_reversal.py --time-only | tee "$out/torch.txt"
/usr/bin/python3 - "$out" <<'PY'
import json, re, sys
out = sys.argv[1]
runs = {b["name"].split("/")[0]: b for b in json.load(open(out + "/ours.json"))["benchmarks"]}
torch = float(re.search(r"trained in ([0-9.]+) s", open(out + "/torch.txt").read()).group(1))
ours = runs["BM_Standard5000Steps"]["seconds"]
to95 = runs["BM_StandardReversalTo95"]
diag = runs["BM_ClassroomAntiDiagonal"]
print("standard preset to %.1f %% held-out exact match: %.1f s (%d steps)" % (100 * to95["exact_match"], to95["seconds"], to95["steps"]))
print("classroom anti-diagonal weight %.2f: %.1f s (%d steps)" % (diag["anti_diagonal"], diag["seconds"], diag["steps"]))
print("5000 steps of 64 strings: Attention Lab %.1f s, PyTorch %.1f s: %.1fx faster" % (ours, torch, torch / ours))
print("PyTorch's 5000 steps against Attention Lab's time to 95 %%: %.1fx" % (torch / to95["seconds"]))
PY
rm -rf "$out"
