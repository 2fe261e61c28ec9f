#!/usr/bin/env bash
# Builds the libFuzzer harnesses of tests/fuzz/ (clang++, ASan + UBSan, the engine only) into
# build-fuzz/ and runs them (tests/fuzz/README.md).
#
#   scripts/fuzz.sh smoke [HARNESS...]         each harness 14 s on a copy of its committed
#                                              corpus (of a slow one, a fixed sample: see
#                                              smoke_inputs), as many at once as there are cores;
#                                              fails on any finding (CI runs this)
#   scripts/fuzz.sh long [LIMIT] [HARNESS...]  each harness until 10 million executions or
#                                              30 minutes, whichever comes first; LIMIT is a
#                                              number of executions (5000000) or a time (600s,
#                                              45m, 2h) that replaces one of the two. New
#                                              inputs are merged, minimized, into the corpus
#   scripts/fuzz.sh corpus [HARNESS...]        merges fresh seeds (tests/fuzz/make_seeds.py)
#                                              into the committed corpora, minimized
#   scripts/fuzz.sh configure                  only configures build-fuzz/ (scripts/test.sh
#                                              builds the engine's tests there too, sanitized)
#
# HARNESS is a name without "fuzz_" (safetensors, lesson, ...); all of them by default. Each
# run prints per harness: executions, time, executions per second and the result. A finding
# (crash, sanitizer report, escaped exception, broken invariant, timeout, absurd allocation) is
# saved in build-fuzz/findings/<harness>/ and makes the script fail.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
build="$root/build-fuzz"
corpora="$root/tests/fuzz/corpus"
jobs=$(nproc 2>/dev/null || echo 2)

mode=${1:-}
[ $# -gt 0 ] && shift
limit=""
if [ "$mode" = long ] && [ $# -gt 0 ] && [[ "$1" =~ ^[0-9]+[smh]?$ ]]; then
    limit=$1
    shift
fi
case "$mode" in
smoke | long | corpus | configure) ;;
*)
    awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0" >&2
    exit 2
    ;;
esac

scripts/setup.sh
# The engine's tests are configured too (built only when asked for: scripts/test.sh runs them).
cmake -S . -B "$build" -G Ninja -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG="-gline-tables-only -O1" \
    -DATTNLAB_FUZZ=ON -DATTNLAB_ENGINE_ONLY=ON -DATTNLAB_NATIVE=OFF -DATTNLAB_TESTS=ON -DATTNLAB_BENCH=OFF >/dev/null
[ "$mode" = configure ] && exit 0
echo "== building the fuzzers (build-fuzz/) =="
ninja -C "$build" -j"$jobs" fuzzers

harnesses=("$@")
if [ ${#harnesses[@]} -eq 0 ]; then
    for f in tests/fuzz/fuzz_*.cpp; do
        name=$(basename "$f" .cpp)
        harnesses+=("${name#fuzz_}")
    done
fi

for h in "${harnesses[@]}"; do
    if [ ! -x "$build/tests/fuzz/fuzz_$h" ]; then
        echo "fuzz: error: no harness '$h' (tests/fuzz/fuzz_$h.cpp)" >&2
        exit 2
    fi
done

# The dictionary of a harness: its own, or the one it shares.
dictionary() {
    case "$1" in
    weights) echo "$root/tests/fuzz/dict/safetensors.dict" ;;
    *) echo "$root/tests/fuzz/dict/$1.dict" ;;
    esac
}

# The longest input a harness makes: files of the sizes that matter, and corpora that stay small.
max_len() {
    case "$1" in
    lesson) echo 8192 ;;
    model) echo 6144 ;;
    safetensors | weights | model_metadata | session | subword | tokenizer_json) echo 4096 ;;
    *) echo 1024 ;;
    esac
}

# Options every run shares: an allocation above 512 MB or a process above 2 GB is a finding
# (no input of these sizes needs them), as is an input that takes longer than 15 s.
common=(-rss_limit_mb=2048 -malloc_limit_mb=512 -timeout=15 -print_final_stats=1)

# Merges the inputs of the folders after the first into the corpus folder $1, keeping only
# those that add coverage (the corpus is replaced by the minimized union).
merge() {
    local h=$1 corpus=$2
    shift 2
    local merged="$build/merged/$h"
    rm -rf "$merged"
    mkdir -p "$merged" "$corpus"
    if ! "$build/tests/fuzz/fuzz_$h" -merge=1 "${common[@]}" "$merged" "$corpus" "$@" >"$build/logs/$h.merge.log" 2>&1; then
        echo "fuzz: error: merging the corpus of $h failed (log: $build/logs/$h.merge.log)" >&2
        exit 1
    fi
    rm -rf "$corpus"
    mv "$merged" "$corpus"
}

mkdir -p "$build/logs"
if [ "$mode" = corpus ]; then
    rm -rf "$build/seeds"
    python3 tests/fuzz/make_seeds.py "$build/seeds"
    for h in "${harnesses[@]}"; do
        merge "$h" "$corpora/$h" "$build/seeds/fuzz_$h"
        echo "$h: $(find "$corpora/$h" -type f | wc -l) inputs, $(du -sh "$corpora/$h" | cut -f1)"
    done
    exit 0
fi

if [ "$mode" = smoke ]; then
    limits=(-max_total_time=14)
else
    runs=10000000
    seconds=1800
    case "$limit" in
    "") ;;
    *s) seconds=${limit%s} ;;
    *m) seconds=$((${limit%m} * 60)) ;;
    *h) seconds=$((${limit%h} * 3600)) ;;
    *) runs=$limit ;;
    esac
    limits=(-runs="$runs" -max_total_time="$seconds")
fi

# How many of a harness's committed inputs a smoke run starts from: all, except for a harness whose
# inputs are slow to replay. model_metadata builds a model for each input, once per tensor the
# reader asks for (about 80 ms an input under ASan): replaying its 1200 inputs would take 100 s of
# a 14 s run, so a smoke run starts from 200 of them (every k-th, the same ones every time).
smoke_inputs() {
    case "$1" in
    model_metadata) echo 200 ;;
    *) echo all ;;
    esac
}

# Copies the committed corpus of harness $1 into $2 (a smoke run: at most smoke_inputs of it).
copy_corpus() {
    local h=$1 work=$2 cap count step
    [ -d "$corpora/$h" ] || return 0
    cap=$( [ "$mode" = smoke ] && smoke_inputs "$h" || echo all)
    if [ "$cap" = all ]; then
        cp -r "$corpora/$h/." "$work/"
        return 0
    fi
    count=$(find "$corpora/$h" -type f | wc -l)
    step=$(((count + cap - 1) / cap))
    find "$corpora/$h" -type f | sort | awk -v k="$step" 'k <= 1 || NR % k == 1' | xargs -r cp -t "$work/"
}

# One harness: fuzz a copy of its corpus (the committed corpus changes only through a merge) and
# write its line of the table to $build/logs/<harness>.result, and its exit status to .status.
run_one() {
    local h=$1 binary="$build/tests/fuzz/fuzz_$1" work="$build/work/$1" log="$build/logs/$1.log" start status=0
    rm -rf "$work"
    mkdir -p "$work" "$build/findings/$h"
    copy_corpus "$h" "$work"
    start=$(date +%s)
    "$binary" "${common[@]}" "${limits[@]}" -max_len="$(max_len "$h")" -dict="$(dictionary "$h")" -artifact_prefix="$build/findings/$h/" \
        "$work" >"$log" 2>&1 || status=$?
    local elapsed=$(($(date +%s) - start)) executions speed result
    executions=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    speed=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
    if [ "$status" -eq 0 ]; then
        result=clean
    else
        result="FOUND (exit $status): $(ls -t "$build/findings/$h" | head -1), log $log"
    fi
    printf '%-16s %12s %7ss %8s  %s\n' "$h" "${executions:-?}" "$elapsed" "${speed:-?}" "$result" >"$build/logs/$h.result"
    echo "$status" >"$build/logs/$h.status"
}

# A smoke run fuzzes as many harnesses at once as there are cores (each fuzzer is one thread;
# the next starts as soon as one ends); a long run goes one by one, merging each into its corpus.
failed=()
printf '%-16s %12s %8s %8s  %s\n' harness executions time exec/s result
if [ "$mode" = smoke ]; then
    running=0
    for h in "${harnesses[@]}"; do
        if [ "$running" -ge "$jobs" ]; then
            wait -n || true # run_one's own status is in its .status file
            running=$((running - 1))
        fi
        run_one "$h" &
        running=$((running + 1))
    done
    wait
else
    for h in "${harnesses[@]}"; do
        run_one "$h"
        merge "$h" "$corpora/$h" "$build/work/$h"
    done
fi
for h in "${harnesses[@]}"; do
    cat "$build/logs/$h.result"
    [ "$(cat "$build/logs/$h.status")" = 0 ] || failed+=("$h")
done

if [ ${#failed[@]} -gt 0 ]; then
    echo "fuzz: findings in: ${failed[*]}" >&2
    echo "  reproduce one with: build-fuzz/tests/fuzz/fuzz_HARNESS build-fuzz/findings/HARNESS/<file>" >&2
    exit 1
fi
