#!/usr/bin/env python3
"""Compares the trace JSON of two attention-lab-cli binaries on a fixed set of commands.

  scripts/compare_traces.py OLD_CLI NEW_CLI [--tolerance 1e-6]

For a restructuring that must keep every number: fields only the new binary writes are
allowed; every number the old binary wrote must be there and within the tolerance, and every
other value the same. Exits 1 and names the first differences otherwise.
"""
import argparse
import json
import shlex
import subprocess
import sys

COMMANDS = [
    "--pretty",
    '--sentence "狗咬了人" --mask causal --d-model 16 --heads 4',
    '--sentence "<sos> Je vais bien" --mask causal+padding --pad-to 8 --pe learned --no-embed-scale',
    '--sentence "a b c" --weights-preset identity --no-scale',
    "--model reversal --source attention",
    "--model reversal --source abc --target cba",
    '--layers 2 --sentence "The cat sat"',
    '--layers 2 --norm pre --activation gelu --source "x y z" --target "a b"',
    '--layers 3 --d-model 64 --heads 8 --source "hello there" --target "hi"',
    # the folders of every family (tests/reference/hf: random weights in the real layouts)
    '--model tests/reference/hf/gpt2_f32 --sentence "Hello there, friend"',
    '--model tests/reference/hf/gpt2_bf16 --sentence "Hello"',
    '--model tests/reference/hf/bert_mlm_f32 --sentence "Paris is the [MASK] of France."',
    '--model tests/reference/hf/bert_model_cased --sentence "A B" --segment-b "c d"',
    '--model tests/reference/hf/llama_gqa_tied_f32 --sentence "Hello world"',
    '--model tests/reference/hf/qwen2_mqa_f16 --sentence "Hello world"',
    '--model tests/reference/hf/qwen3_qknorm_f32 --sentence "Hello world"',
    '--model tests/reference/hf/gemma3_sliding_bf16 --sentence "Hello world"',
    # every attention kind and the schemes that act inside attention
    '--attention sliding-window --window 1 --global 0 --mask causal',
    '--attention bigbird --window 1 --random 1',
    '--attention strided --stride 2',
    '--attention linformer --proj-dim 4',
    '--attention performer --features 16',
    '--attention lsh --buckets 4 --chunk 2',
    '--attention flash --query-block 3 --key-block 2 --mask causal',
    '--attention linear',
    '--pe rope --rope-base 500 --sentence "a b c d e"',
    '--pe alibi --mask causal',
    '--pe relative --max-distance 2',
    '--pe xl --segment 3 --memory 2 --sentence "a b c d e f g"',
    '--layers 2 --pe rope --attention sliding-window --sentence "one two three four"',
]

# Refusals: the exit code and the English message on stderr must stay the same, word for word.
REFUSALS = [
    '--d-model 10 --heads 3',
    '--heads 0',
    '--max-tokens 0',
    '--mask-file /nonexistent/mask.txt',
    '--model tests/reference/hf/licences',
    '--model /nonexistent',
    '--model reversal --source ""',
    '--attention linformer --proj-dim 0',
    '--pe xl --segment 0',
    '--pe relative --max-distance -1',
    '--weights tests/reference/hf/cases.json',
    '--sentence ""',
    '--model tests/reference/hf/gpt2_f32 --target "x"',
]


def walk(old, new, path, out, tolerance):
    if isinstance(old, dict):
        if not isinstance(new, dict):
            out.append(f"{path}: not an object any more")
            return
        for key, value in old.items():
            if key not in new:
                out.append(f"{path}/{key}: missing")
            else:
                walk(value, new[key], f"{path}/{key}", out, tolerance)
    elif isinstance(old, list):
        if not isinstance(new, list) or len(old) != len(new):
            out.append(f"{path}: length differs")
            return
        for i, (a, b) in enumerate(zip(old, new)):
            walk(a, b, f"{path}[{i}]", out, tolerance)
    elif isinstance(old, (int, float)) and not isinstance(old, bool) and isinstance(new, (int, float)):
        if abs(old - new) > tolerance:
            out.append(f"{path}: {old} -> {new}")
    elif old != new:
        out.append(f"{path}: {old!r} -> {new!r}")


def trace(cli, args):
    run = subprocess.run([cli, "trace", *shlex.split(args)], capture_output=True)
    return run.returncode, json.loads(run.stdout) if run.returncode == 0 else None


def refusal(cli, args):
    run = subprocess.run([cli, "trace", *shlex.split(args)], capture_output=True)
    return run.returncode, run.stderr.decode("utf-8", "replace")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("old")
    parser.add_argument("new")
    parser.add_argument("--tolerance", type=float, default=1e-6)
    o = parser.parse_args()
    failed = False
    for args in COMMANDS:
        (a_rc, a), (b_rc, b) = trace(o.old, args), trace(o.new, args)
        diffs = [] if a_rc == b_rc else [f"exit {a_rc} -> {b_rc}"]
        if a is not None and b is not None:
            walk(a, b, "", diffs, o.tolerance)
        print(("same " if not diffs else "DIFF ") + args)
        for d in diffs[:5]:
            print("    " + d)
        failed = failed or bool(diffs)
    for args in REFUSALS:
        a, b = refusal(o.old, args), refusal(o.new, args)
        same = a == b
        print(("same " if same else "DIFF ") + "refused: " + args)
        if not same:
            print(f"    {a!r}\n -> {b!r}")
        failed = failed or not same
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
