#!/usr/bin/env python3
"""Reports what breaks issue 9's size limits in engine/, ui/ and app/: source files over 600
lines and functions over 80 lines (found by matching braces from a definition's opening line).

    scripts/check_limits.py [--max-file N] [--max-function N] [FOLDER ...]

A maths kernel that reads top to bottom may be longer: mark it with a comment line
`// limits: maths kernel` just above its signature.

Prints one line per finding and exits 1 when there is any, 0 otherwise."""
import argparse
import pathlib
import re
import sys

DEFINITION = re.compile(r'^\S.*\)\s*(const)?\s*(override)?\s*(noexcept)?\s*$')  # a signature's last line at column 0


def functions(lines):
    """(first line, length, signature) of every function body that opens with '{' at column 0."""
    i = 0
    while i < len(lines):
        if lines[i] == '{' and i > 0:
            # the signature ends on the line before: walk back over its continuation lines
            start = i - 1
            while start > 0 and not DEFINITION.match(lines[start]) and lines[start].startswith(' '):
                start -= 1
            depth = 0
            for j in range(i, len(lines)):
                depth += lines[j].count('{') - lines[j].count('}')
                if depth == 0:
                    exempt = start > 0 and lines[start - 1].strip() == '// limits: maths kernel'
                    if not exempt:
                        yield start + 1, j - start + 1, lines[start].strip()
                    i = j
                    break
        i += 1


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--max-file', type=int, default=600)
    ap.add_argument('--max-function', type=int, default=80)
    ap.add_argument('folders', nargs='*', default=['engine', 'ui', 'app'])
    a = ap.parse_args()
    found = 0
    for folder in a.folders:
        for p in sorted(pathlib.Path(folder).rglob('*')):
            if p.suffix not in ('.cpp', '.h'):
                continue
            lines = p.read_text(encoding='utf-8').split('\n')
            if len(lines) - 1 > a.max_file:
                print(f'{p}: {len(lines) - 1} lines (limit {a.max_file})')
                found += 1
            for line, length, signature in functions(lines):
                if length > a.max_function:
                    print(f'{p}:{line}: function of {length} lines (limit {a.max_function}): {signature[:80]}')
                    found += 1
    return 1 if found else 0


if __name__ == '__main__':
    sys.exit(main())
