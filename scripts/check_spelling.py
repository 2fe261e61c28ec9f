#!/usr/bin/env python3
"""Reports names spelled outside the one table that owns them (issue 30's rules), in engine/, ui/
and app/:

- the blocks' names ("encoder_self", "decoder_self", "cross") as string literals outside
  engine/core/stage_key.cpp, which spells them once for files and the command line (code names a
  block as `Block::Cross`; comments may name it);
- a branch on a pretrained family (`PretrainedFamily::Gpt2`, `…::Bert` in a comparison)
  outside engine/families/, where each family says what it is.

    scripts/check_spelling.py [ROOT]

Prints one line per finding and exits 1 when there is any, 0 otherwise."""
import pathlib
import re
import sys

BLOCK_NAME = re.compile(r'\bu?"(encoder_self|decoder_self|cross)"')
FAMILY_BRANCH = re.compile(r'(==|!=)\s*PretrainedFamily::(Gpt2|Bert)\b|PretrainedFamily::(Gpt2|Bert)\s*(==|!=)'
                           r'|case\s+PretrainedFamily::(Gpt2|Bert)\b')
OWNERS = {BLOCK_NAME: ('engine/core/stage_key.cpp',), FAMILY_BRANCH: ('engine/families/',)}
WHAT = {BLOCK_NAME: 'a block name spelled outside engine/core/stage_key.cpp',
        FAMILY_BRANCH: 'a branch on GPT-2 or BERT outside engine/families/'}


def code_of(line):
    """The line without a // comment (a // inside a string literal is kept)."""
    in_string = False
    for i, c in enumerate(line):
        if c == '"' and (i == 0 or line[i - 1] != '\\'):
            in_string = not in_string
        elif not in_string and line.startswith('//', i):
            return line[:i]
    return line


def main():
    root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else pathlib.Path(__file__).resolve().parent.parent)
    findings = []
    for folder in ('engine', 'ui', 'app'):
        for path in sorted((root / folder).rglob('*')):
            if path.suffix not in ('.h', '.cpp'):
                continue
            rel = path.relative_to(root).as_posix()
            for number, line in enumerate(path.read_text(encoding='utf-8').splitlines(), 1):
                code = code_of(line)
                for pattern, owners in OWNERS.items():
                    if pattern.search(code) and not rel.startswith(owners):
                        findings.append(f'{rel}:{number}: {WHAT[pattern]}: {line.strip()}')
    for f in findings:
        print(f)
    return 1 if findings else 0


if __name__ == '__main__':
    sys.exit(main())
