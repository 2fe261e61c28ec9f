#!/usr/bin/env python3
"""Adds Chinese translations to resources/translations/attentionlab_zh_CN.ts from a file of lines
`English<TAB>Chinese` (the English exactly as in the source, with its %1 … %9), into one context
(default attnlab::Messages, the engine's message tables). A source already in the context gets
the new translation; the others are added at the end of the context, which is made when missing.
`ninja -C build update_translations` (lupdate) keeps them.

    scripts/add_translations.py FILE.tsv [--context attnlab::Messages] [--ts PATH]"""
import argparse
import pathlib
import re
import sys
from xml.sax.saxutils import escape

ROOT = pathlib.Path(__file__).resolve().parent.parent


def xml(text):
    return escape(text, {"'": '&apos;', '"': '&quot;'})


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('pairs')
    ap.add_argument('--context', default='attnlab::Messages')
    ap.add_argument('--ts', default=str(ROOT / 'resources/translations/attentionlab_zh_CN.ts'))
    a = ap.parse_args()
    ts = pathlib.Path(a.ts)
    text = ts.read_text(encoding='utf-8')
    pairs = []
    for number, line in enumerate(pathlib.Path(a.pairs).read_text(encoding='utf-8').splitlines(), 1):
        if not line.strip():
            continue
        if line.count('\t') != 1:
            sys.exit(f'{a.pairs}:{number}: expected English<TAB>Chinese')
        pairs.append(tuple(line.split('\t')))
    head = f'<context>\n    <name>{xml(a.context)}</name>\n'
    if head not in text:
        text = text.replace('</TS>', head + '</context>\n</TS>')
    start = text.index(head)
    end = text.index('</context>', start)
    body = text[start:end]
    added = []
    for english, chinese in pairs:
        source = f'<source>{xml(english)}</source>'
        entry = re.compile(re.escape(source) + r'\s*<translation[^>]*>.*?</translation>', re.S)
        replacement = f'{source}\n        <translation>{xml(chinese)}</translation>'
        if entry.search(body):
            body = entry.sub(lambda _: replacement, body, count=1)
        else:
            added.append(f'    <message>\n        {replacement}\n    </message>\n')
    text = text[:start] + body + ''.join(added) + text[end:]
    ts.write_text(text, encoding='utf-8')
    print(f'{ts.name}: {len(pairs) - len(added)} updated, {len(added)} added to {a.context}')


if __name__ == '__main__':
    main()
