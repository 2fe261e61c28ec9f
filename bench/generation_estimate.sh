#!/bin/sh
# The command line's time estimate for a generation against the time it takes (issue 27): the
# shipped reversal model made never to write <eos> (scripts/make_never_eos_model.py) generates
# N tokens, each step a pass on all the tokens so far; the note printed before starting
# ("a large run: about … s of work", core/cost.h) beside the measured time and their ratio (by
# the CPU time too, which a busy machine stretches less). Nothing else should run meanwhile.
#
#   bench/generation_estimate.sh [BUILD_DIR]   (default build; about 2 minutes on 2 cores)
set -eu
build=${1:-build}
cd "$(dirname "$0")/.."
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
scripts/make_never_eos_model.py "$out/never-eos.safetensors"
for n in 640 768 1024; do
    /usr/bin/time -f "%e %U %S" -o "$out/time.txt" "$build/app/attention-lab-cli" generate \
        --model "$out/never-eos.safetensors" --source "hello world" --max-length "$n" >/dev/null 2>"$out/err.txt"
    estimate=$(sed -n 's/.* and \([0-9]*\) s of work.*/\1/p' "$out/err.txt")
    read -r wall user sys <"$out/time.txt"
    cpu=$(echo "$user + $sys" | bc)
    echo "$n steps: estimated ${estimate:-?} s; took $wall s ($cpu s of CPU):" \
        "ratio $(echo "scale=2; $wall / ${estimate:-0}" | bc 2>/dev/null || echo ?)" \
        "($(echo "scale=2; $cpu / ${estimate:-0}" | bc 2>/dev/null || echo ?) by CPU time)"
done
