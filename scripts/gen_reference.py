#!/usr/bin/python3
"""Reference values for Attention Lab's attention engine, computed with PyTorch.

This is an independent implementation of docs/engine.md (tokenizer, SplitMix64/FNV-1a
PRNG, token embeddings, positional encodings, seeded/identity/imported weights,
multi-head self-attention stage by stage, masks) written from the spec alone, never from
the C++ engine.  Its outputs are the golden files the C++ tests compare against.

How to run (from the repository root; needs Debian's python3-torch and python3-numpy,
which is why the interpreter is /usr/bin/python3 and not a virtualenv's python):

    /usr/bin/python3 scripts/gen_reference.py

What it writes:

    tests/reference/mha/cases.json          list of case names
    tests/reference/mha/<case>.json         config, tokens and every stage of the trace
    tests/reference/mha/<case>.safetensors  imported weights (cases that import weights)
    tests/reference/mha/<case>.mask         n x n 0/1 mask file (custom-mask cases)
    tests/reference/prng.json               hand-checkable PRNG vectors

For every case the script builds X = E*s + P in float32, then runs a real
torch.nn.MultiheadAttention(d, h, batch_first=True) with the case's weights loaded into
it (need_weights=True, average_attn_weights=False, a boolean attn_mask for causal/custom
masks, key_padding_mask for padding).  The intermediate stages (q, k, v, scores, scaled,
mask, masked_scores, head_output, concat) are computed with plain torch ops following the
spec, and checked against the module: the manual softmax weights must equal the module's
attention weights, and concat @ W_O^T + b_O must equal the module's output, to within
1e-5 (max abs diff).  The values written for the `weights` and `output` stages are the
module's own (except where the spec overrides PyTorch, see below).

Spec-over-PyTorch cases (also recorded in each case's "notes"):
  * fully masked query rows: PyTorch gives NaN; the spec says weights row = 0 and head
    output row = 0, so those rows are written as 0 and the output row is recomputed as
    0 @ W_O^T + b_O = b_O;
  * scaling off: nn.MultiheadAttention always divides q by sqrt(d_k), so the module is
    given a q projection (rows 0..d-1 of in_proj_weight and in_proj_bias) pre-multiplied
    by sqrt(d_k); the spec's unscaled scores are what gets compared.

The output is deterministic: every random draw comes from a torch.Generator with a fixed
per-case seed (and torch.manual_seed is fixed too), so re-running the script reproduces
byte-identical files.

JSON layout of <case>.json:
    {"case": ..., "notes": ..., "config": {...}, "tokens": [...],
     "stages": [{"id": "embedding", "head": null, "data": [[...], ...]}, ...]}
Floats are the exact float32 values (printed as the shortest double that equals them);
non-finite values are the strings "-inf", "inf", "nan".
"""

import codecs
import json
import math
import os
import sys
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F

sys.path.insert(0, str(Path(__file__).resolve().parent))
from safetensors_io import load_file, save_file  # noqa: E402

REPO = Path(__file__).resolve().parent.parent
OUT_DIR = REPO / "tests" / "reference" / "mha"
PRNG_FILE = REPO / "tests" / "reference" / "prng.json"

TOL = 1e-5
MASK64 = (1 << 64) - 1

# ----------------------------------------------------------------------------------------
# 1. Tokenizer
# ----------------------------------------------------------------------------------------

SPECIAL_TOKENS = ["<sos>", "<eos>", "<pad>", "<unk>", "[CLS]", "[SEP]", "[MASK]"]
ASCII_PUNCT = set("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")


def _per_byte_replace(err):
    # Each invalid byte becomes one U+FFFD (resume right after the offending byte).
    return ("\ufffd", err.start + 1)


codecs.register_error("attentionlab_per_byte", _per_byte_replace)


def is_space(cp):
    return cp in (0x20, 0x09, 0x0A, 0x0D, 0x0C, 0x0B, 0xA0, 0x3000) or 0x2000 <= cp <= 0x200B


def is_cjk(cp):
    return (0x3400 <= cp <= 0x4DBF or 0x4E00 <= cp <= 0x9FFF or 0xF900 <= cp <= 0xFAFF
            or 0x20000 <= cp <= 0x2FA1F or 0x3040 <= cp <= 0x30FF
            or 0x3001 <= cp <= 0x303F or 0xFF01 <= cp <= 0xFF60)


def is_punct(ch):
    cp = ord(ch)
    return ch in ASCII_PUNCT or 0x2010 <= cp <= 0x205E


def is_word_char(ch):
    return not (is_space(ord(ch)) or is_cjk(ord(ch)) or is_punct(ch))


def tokenize(text, max_tokens=512, pad_to=None):
    """Tokenize per docs/engine.md section 1.  `text` is str or UTF-8 bytes."""
    if isinstance(text, (bytes, bytearray)):
        text = bytes(text).decode("utf-8", errors="attentionlab_per_byte")
    if text.startswith("\ufeff"):  # a leading byte-order mark is dropped
        text = text[1:]
    tokens = []
    word = []

    def flush():
        if word:
            tokens.append("".join(word))
            word.clear()

    i, n = 0, len(text)
    while i < n:
        special = next((s for s in SPECIAL_TOKENS if text.startswith(s, i)), None)
        if special is not None:
            flush()
            tokens.append(special)
            i += len(special)
            continue
        ch = text[i]
        cp = ord(ch)
        if is_space(cp):
            flush()
        elif is_cjk(cp):
            flush()
            tokens.append(ch)
        elif is_punct(ch):
            # An ASCII apostrophe between two word characters joins the word (don't).
            if (ch == "'" and word and is_word_char(word[-1]) and i + 1 < n
                    and is_word_char(text[i + 1])):
                word.append(ch)
            else:
                flush()
                tokens.append(ch)
        else:
            word.append(ch)
        i += 1
    flush()
    if not tokens:
        raise ValueError("sentence has no tokens")
    tokens = tokens[:max_tokens]
    if pad_to is not None:
        while len(tokens) < pad_to:
            tokens.append("<pad>")
    return tokens


# ----------------------------------------------------------------------------------------
# 2. Pseudo-random numbers (bit-exact, Python ints masked to 64 bits)
# ----------------------------------------------------------------------------------------

def fnv1a64(data):
    if isinstance(data, str):
        data = data.encode("utf-8")
    h = 0xCBF29CE484222325
    for b in data:
        h = ((h ^ b) * 0x100000001B3) & MASK64
    return h


class SplitMix64:
    def __init__(self, state):
        self.state = state & MASK64

    def next(self):
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        return z ^ (z >> 31)


def mix(seed):
    return SplitMix64(seed).next()


def stream(key, seed):
    return SplitMix64(fnv1a64(key) ^ mix(seed))


def uniform(z):
    return np.float32((z >> 40) * 2.0 ** -24)  # exact


def symmetric(z, a):
    u = uniform(z)
    t = np.float32(np.float32(2.0) * u - np.float32(1.0))
    return np.float32(t * np.float32(a))


def draw(key, seed, count, a):
    s = stream(key, seed)
    return np.array([symmetric(s.next(), a) for _ in range(count)], dtype=np.float32)


# ----------------------------------------------------------------------------------------
# 3./4. Embeddings and positional encodings (numpy float32)
# ----------------------------------------------------------------------------------------

def embeddings(tokens, d, seed):
    # uniform in [-sqrt(3/d), sqrt(3/d)): variance 1/d, so E*sqrt(d) has unit variance
    return np.stack([draw(t, seed, d, math.sqrt(3.0 / d)) for t in tokens]).astype(np.float32)


def embed_scale(d, on):
    return np.float32(math.sqrt(d)) if on else np.float32(1.0)


def positional(n, d, kind, seed):
    P = np.zeros((n, d), dtype=np.float32)
    if kind == "none":
        return P
    if kind == "learned":
        for pos in range(n):
            P[pos] = draw("#pos" + str(pos), seed, d, 1.0)
        return P
    if kind != "sinusoidal":
        raise ValueError(kind)
    for pos in range(n):
        for c in range(d):
            i = c // 2
            angle = pos / math.pow(10000.0, (2.0 * i) / d)  # double
            P[pos, c] = np.float32(math.sin(angle) if c % 2 == 0 else math.cos(angle))
    return P


# ----------------------------------------------------------------------------------------
# 5. Weights
# ----------------------------------------------------------------------------------------

def seeded_weights(d, seed):
    b_in = np.float32(math.sqrt(6.0 / (d + 3 * d)))
    b_out = np.float32(1.0 / math.sqrt(d))
    W_in = draw("#in_proj_weight", seed, 3 * d * d, b_in).reshape(3 * d, d)
    W_O = draw("#out_proj.weight", seed, d * d, b_out).reshape(d, d)
    return {
        "in_proj_weight": torch.from_numpy(W_in.copy()),
        "in_proj_bias": torch.zeros(3 * d),
        "out_proj.weight": torch.from_numpy(W_O.copy()),
        "out_proj.bias": torch.zeros(d),
    }


def identity_weights(d):
    eye = torch.eye(d, dtype=torch.float32)
    return {
        "in_proj_weight": torch.cat([eye, eye, eye], dim=0),
        "in_proj_bias": torch.zeros(3 * d),
        "out_proj.weight": eye.clone(),
        "out_proj.bias": torch.zeros(d),
    }


TORCH_DTYPES = {"F32": torch.float32, "F64": torch.float64,
                "F16": torch.float16, "BF16": torch.bfloat16}


def make_imported(case, d, h, dtype, prefix, gen_seed, with_bias=True):
    """Random weights (randn * 0.3) saved to <case>.safetensors, then read back."""
    g = torch.Generator().manual_seed(gen_seed)
    gdt = torch.float64 if dtype == "F64" else torch.float32
    w = {
        "in_proj_weight": torch.randn(3 * d, d, generator=g, dtype=gdt) * 0.3,
        "in_proj_bias": torch.randn(3 * d, generator=g, dtype=gdt) * 0.3,
        "out_proj.weight": torch.randn(d, d, generator=g, dtype=gdt) * 0.3,
        "out_proj.bias": torch.randn(d, generator=g, dtype=gdt) * 0.3,
    }
    if not with_bias:
        del w["in_proj_bias"], w["out_proj.bias"]
    stored = {prefix + k: v.to(TORCH_DTYPES[dtype]) for k, v in w.items()}
    path = OUT_DIR / f"{case}.safetensors"
    save_file(stored, path, {"num_heads": str(h), "source": "scripts/gen_reference.py"})
    loaded = load_file(path)
    assert set(loaded) == set(stored)
    out = {}
    for k in ("in_proj_weight", "in_proj_bias", "out_proj.weight", "out_proj.bias"):
        t = loaded.get(prefix + k)
        if t is None:  # absent biases are 0
            t = torch.zeros(3 * d if k == "in_proj_bias" else d)
        assert t.dtype == TORCH_DTYPES[dtype]
        out[k] = t.to(torch.float32)  # F16/BF16 exact, F64 rounded to nearest
    return out, path.name


# ----------------------------------------------------------------------------------------
# 7. Masks
# ----------------------------------------------------------------------------------------

def mask_bool(tokens, kind, custom=None):
    n = len(tokens)
    m = torch.zeros(n, n, dtype=torch.bool)
    causal = torch.triu(torch.ones(n, n, dtype=torch.bool), diagonal=1)
    pad = torch.tensor([t == "<pad>" for t in tokens], dtype=torch.bool)
    if kind in ("causal", "causal+padding"):
        m |= causal
    if kind in ("padding", "causal+padding"):
        m |= pad[None, :].expand(n, n)
    if kind == "custom":
        m |= torch.tensor(custom, dtype=torch.bool)
    if kind not in ("none", "causal", "padding", "causal+padding", "custom"):
        raise ValueError(kind)
    return m


# ----------------------------------------------------------------------------------------
# 6. Attention, stage by stage, checked against nn.MultiheadAttention
# ----------------------------------------------------------------------------------------

def softmax_rows(S):
    """Row softmax (max subtracted); fully masked rows (all -inf) give 0."""
    out = torch.zeros_like(S)
    for r in range(S.shape[0]):
        row = S[r]
        m = row.max()
        if torch.isinf(m) and m < 0:
            continue
        e = torch.exp(row - m)
        out[r] = e / e.sum()
    return out


def run_module(X, W, d, h, attn_mask, kpm, scale):
    mha = torch.nn.MultiheadAttention(d, h, batch_first=True)
    mha.eval()
    W_in = W["in_proj_weight"].clone()
    b_in = W["in_proj_bias"].clone()
    if not scale:
        f = torch.tensor(math.sqrt(d // h), dtype=torch.float32)
        W_in[:d] *= f
        b_in[:d] *= f
    with torch.no_grad():
        mha.in_proj_weight.copy_(W_in)
        mha.in_proj_bias.copy_(b_in)
        mha.out_proj.weight.copy_(W["out_proj.weight"])
        mha.out_proj.bias.copy_(W["out_proj.bias"])
    x = X[None]
    # Grad stays enabled (parameters require grad), so PyTorch takes its reference
    # (non-fused) path in F.multi_head_attention_forward.
    out, attw = mha(x, x, x, need_weights=True, average_attn_weights=False,
                    attn_mask=attn_mask, key_padding_mask=kpm)
    return out[0].detach(), attw[0].detach()


def compute_case(case):
    name = case["case"]
    d, h, seed = case["d_model"], case["heads"], case.get("seed", 42)
    assert d % h == 0
    dk = d // h
    pe = case.get("pe", "sinusoidal")
    es_on = case.get("embed_scale", True)
    scale = case.get("scale", True)
    mask_kind = case.get("mask", "none")
    pad_to = case.get("pad_to")
    custom = case.get("custom_mask")
    notes = [case.get("note", "")] if case.get("note") else []

    tokens = tokenize(case["sentence"], 512, pad_to)
    n = len(tokens)

    # weights
    weights_file = None
    preset = case.get("weights_preset", "seeded")
    if case.get("imported"):
        imp = case["imported"]
        W, weights_file = make_imported(name, d, h, imp["dtype"], imp.get("prefix", ""),
                                        imp["gen_seed"], imp.get("bias", True))
        notes.append(f"weights imported from {weights_file} ({imp['dtype']}"
                     + (f", prefix '{imp['prefix']}'" if imp.get("prefix") else ", no prefix")
                     + ("" if imp.get("bias", True) else ", no bias tensors (biases are 0)")
                     + "); the reference uses the stored values converted to float32")
    elif preset == "seeded":
        W = seeded_weights(d, seed)
    elif preset == "identity":
        W = identity_weights(d)
    else:
        raise ValueError(preset)

    # X = E*s + P (numpy float32, each op rounded to float32)
    E = embeddings(tokens, d, seed)
    s = embed_scale(d, es_on)
    P = positional(n, d, pe, seed)
    Es = (E * s).astype(np.float32)
    Xn = (Es + P).astype(np.float32)
    X = torch.from_numpy(Xn.copy())

    # masks
    mb = mask_bool(tokens, mask_kind, custom)
    M = torch.zeros(n, n, dtype=torch.float32).masked_fill(mb, float("-inf"))

    # manual stages
    QKV = F.linear(X, W["in_proj_weight"], W["in_proj_bias"])
    Q, K, V = QKV[:, :d], QKV[:, d:2 * d], QKV[:, 2 * d:]
    c = torch.tensor(np.float32(1.0 / math.sqrt(dk)) if scale else np.float32(1.0))
    per_head = []
    for j in range(h):
        cols = slice(j * dk, (j + 1) * dk)
        Qj, Kj, Vj = Q[:, cols].contiguous(), K[:, cols].contiguous(), V[:, cols].contiguous()
        Sj = Qj @ Kj.T
        Spj = Sj * c
        Sppj = Spj + M
        Aj = softmax_rows(Sppj)
        Zj = Aj @ Vj
        per_head.append(dict(q=Qj, k=Kj, v=Vj, scores=Sj, scaled=Spj, masked_scores=Sppj,
                             weights=Aj, head_output=Zj))
    C = torch.cat([p["head_output"] for p in per_head], dim=1)
    O_manual = F.linear(C, W["out_proj.weight"], W["out_proj.bias"])

    # the real module
    attn_mask = None
    kpm = None
    if mask_kind in ("causal", "causal+padding"):
        attn_mask = torch.triu(torch.ones(n, n, dtype=torch.bool), diagonal=1)
    elif mask_kind == "custom":
        attn_mask = torch.tensor(custom, dtype=torch.bool)
    if mask_kind in ("padding", "causal+padding"):
        kpm = torch.tensor([[t == "<pad>" for t in tokens]], dtype=torch.bool)
    O_mod, A_mod = run_module(X, W, d, h, attn_mask, kpm, scale)

    full_rows = [r for r in range(n) if bool(mb[r].all())]
    nan_rows = sorted({int(r) for r in torch.nonzero(torch.isnan(A_mod).any(dim=2))[:, 1]})
    assert nan_rows == full_rows, (name, nan_rows, full_rows)
    if full_rows:
        A_mod = torch.nan_to_num(A_mod, nan=0.0)
        O_mod = O_mod.clone()
        for r in full_rows:
            O_mod[r] = O_manual[r]
        notes.append("query row(s) %s have every key masked: PyTorch returns NaN there; "
                     "per the spec the weights and head_output rows are written as 0 and the "
                     "output row is recomputed as 0 @ W_O^T + b_O" % full_rows)
    assert not torch.isnan(O_mod).any() and not torch.isnan(A_mod).any()
    dw = max(float((per_head[j]["weights"] - A_mod[j]).abs().max()) for j in range(h))
    do = float((O_manual - O_mod).abs().max())
    assert dw < TOL and do < TOL, (name, dw, do)
    if not scale:
        notes.append("scaling off: nn.MultiheadAttention always divides q by sqrt(d_k), so "
                     "the module was given W_Q and b_Q pre-multiplied by sqrt(d_k) = %g; "
                     "scaled = scores * 1" % math.sqrt(dk))
    notes.append("weights and output are nn.MultiheadAttention's; the other stages are "
                 "manual torch ops; max |manual - module|: weights %.3g, output %.3g" % (dw, do))

    stages = [("embedding", None, E), ("positional_encoding", None, P), ("input", None, Xn)]
    for sid in ("q", "k", "v", "scores", "scaled"):
        stages += [(sid, j, per_head[j][sid]) for j in range(h)]
    stages.append(("mask", None, M))
    stages += [("masked_scores", j, per_head[j]["masked_scores"]) for j in range(h)]
    stages += [("weights", j, A_mod[j]) for j in range(h)]
    stages += [("head_output", j, per_head[j]["head_output"]) for j in range(h)]
    stages += [("concat", None, C), ("output", None, O_mod)]

    config = {
        "sentence": case["sentence"], "d_model": d, "heads": h, "seed": seed, "pe": pe,
        "embed_scale": es_on, "scale": scale, "mask": mask_kind, "pad_to": pad_to,
        "max_tokens": 512, "weights": weights_file,
        "weights_preset": preset if weights_file is None else "seeded",
        "weights_dtype": case["imported"]["dtype"] if weights_file else None,
        "weights_prefix": case["imported"].get("prefix", "") if weights_file else None,
        "custom_mask": custom,
    }
    if weights_file:
        notes.append("config.weights_preset is irrelevant (weights is set)")
    return {"case": name, "notes": "; ".join(notes), "config": config, "tokens": tokens,
            "stages": stages}, mb


# ----------------------------------------------------------------------------------------
# Output
# ----------------------------------------------------------------------------------------

def jnum(x):
    x = float(np.float32(x))
    if math.isnan(x):
        return "nan"
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    return x


def jmatrix(a):
    a = a.detach().cpu().numpy() if isinstance(a, torch.Tensor) else np.asarray(a)
    a = a.astype(np.float32)
    return [[jnum(v) for v in row] for row in a]


def dumps(obj):
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


def write_case(result, mb):
    name = result["case"]
    lines = ["{",
             '"case":' + dumps(name) + ",",
             '"notes":' + dumps(result["notes"]) + ",",
             '"config":' + dumps(result["config"]) + ",",
             '"tokens":' + dumps(result["tokens"]) + ",",
             '"stages":[']
    st = result["stages"]
    for i, (sid, head, data) in enumerate(st):
        lines.append(dumps({"id": sid, "head": head, "data": jmatrix(data)})
                     + ("," if i + 1 < len(st) else ""))
    lines += ["]", "}"]
    (OUT_DIR / f"{name}.json").write_text("\n".join(lines) + "\n", encoding="utf-8")
    if result["config"]["mask"] == "custom":
        rows = [" ".join("1" if b else "0" for b in r) for r in mb.tolist()]
        (OUT_DIR / f"{name}.mask").write_text("\n".join(rows) + "\n", encoding="utf-8")


def random_custom_mask(n, gen_seed, full_row=None):
    g = torch.Generator().manual_seed(gen_seed)
    m = (torch.rand(n, n, generator=g) < 0.4).to(torch.int64)
    for r in range(n):
        if full_row is not None and r == full_row:
            m[r] = 1
        elif bool(m[r].all()):
            m[r, int(torch.randint(0, n, (1,), generator=g))] = 0
    return m.tolist()


def cases():
    return [
        dict(case="basic_en", sentence="The cat sat on the mat.", d_model=8, heads=2),
        dict(case="identity_en", sentence="The cat sat on the mat.", d_model=8, heads=2,
             weights_preset="identity"),
        dict(case="causal_je", sentence="<sos> Je vais bien", d_model=16, heads=4,
             mask="causal", imported=dict(dtype="F32", gen_seed=1001)),
        dict(case="padding", sentence="I love NLP", pad_to=6, d_model=8, heads=2,
             mask="padding", imported=dict(dtype="F32", gen_seed=1002)),
        dict(case="causal_padding", sentence="<sos> Je vais bien", pad_to=7, d_model=12,
             heads=3, mask="causal+padding",
             imported=dict(dtype="F32", prefix="self_attn.", gen_seed=1003)),
        dict(case="custom", sentence="Masks hide some keys.", d_model=8, heads=2,
             mask="custom", custom_mask=random_custom_mask(5, 2001),
             imported=dict(dtype="F32", gen_seed=1004)),
        dict(case="custom_full_row", sentence="Row two sees nothing!", d_model=8, heads=2,
             mask="custom", custom_mask=random_custom_mask(5, 2002, full_row=2)),
        dict(case="f16", sentence="我爱中国", d_model=16, heads=2,
             imported=dict(dtype="F16", gen_seed=1005)),
        dict(case="bf16", sentence="狗咬了人", d_model=8, heads=4, mask="causal",
             imported=dict(dtype="BF16", gen_seed=1006)),
        dict(case="f64", sentence="Hello, world! don't panic", d_model=8, heads=1,
             imported=dict(dtype="F64", gen_seed=1007)),
        dict(case="no_scale", sentence="The cat sat on the mat.", d_model=32, heads=2,
             scale=False),
        dict(case="learned_pe", sentence="Attention is all you need", d_model=8, heads=2,
             pe="learned", embed_scale=False),
        dict(case="pe_none", sentence="狗咬了人", d_model=8, heads=2, pe="none"),
        dict(case="no_bias", sentence="我爱NLP!", d_model=8, heads=2, mask="causal",
             imported=dict(dtype="F32", gen_seed=1008, bias=False)),
    ]


def write_prng():
    def u64(v):
        return {"hex": "0x%016x" % v, "dec": str(v)}

    st = stream("the", 42)
    state0 = st.state
    outs = [st.next() for _ in range(4)]
    data = {
        "notes": "Vectors from scripts/gen_reference.py's implementation of docs/engine.md "
                 "section 2. 64-bit values are strings (hex and decimal) to survive JSON "
                 "parsers that use doubles. symmetric_sqrt3 = symmetric(z, sqrt(3)) of the "
                 "same four outputs (the embedding of 'the', seed 42, with d_model = 3 uses "
                 "bound sqrt(3/3) = 1, so its components are symmetric(z, 1) instead).",
        "fnv1a64": [dict(input=s, **u64(fnv1a64(s))) for s in ("", "a", "狗")],
        "mix": [dict(seed=s, **u64(mix(s))) for s in (0, 42)],
        "stream": {
            "key": "the", "seed": 42,
            "initial_state": u64(state0),
            "outputs": [u64(z) for z in outs],
            "uniform": [float(uniform(z)) for z in outs],
            "symmetric_sqrt3": [float(symmetric(z, math.sqrt(3.0))) for z in outs],
        },
    }
    PRNG_FILE.write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n",
                         encoding="utf-8")


def self_test():
    assert fnv1a64("") == 0xCBF29CE484222325
    assert fnv1a64("a") == 0xAF63DC4C8601EC8C
    assert mix(0) == 0xE220A8397B1DCDAF
    assert tokenize("Hello, world!") == ["Hello", ",", "world", "!"]
    assert tokenize("<sos> Je vais bien") == ["<sos>", "Je", "vais", "bien"]
    assert tokenize("我爱NLP!") == ["我", "爱", "NLP", "!"]
    assert tokenize("狗咬了人。") == ["狗", "咬", "了", "人", "。"]
    assert tokenize("don't 'quoted' it's' x'") == ["don't", "'", "quoted", "'", "it's",
                                                   "'", "x", "'"]
    assert tokenize("a<pad>b[CLS]c<x>") == ["a", "<pad>", "b", "[CLS]", "c", "<", "x", ">"]
    assert tokenize(b"a\xffb c") == ["a\ufffdb", "c"]
    assert tokenize("x", pad_to=3) == ["x", "<pad>", "<pad>"]


def main():
    torch.manual_seed(0)
    torch.use_deterministic_algorithms(True)
    torch.set_num_threads(1)
    self_test()
    OUT_DIR.mkdir(parents=True, exist_ok=True)
    names = []
    for case in cases():
        result, mb = compute_case(case)
        write_case(result, mb)
        names.append(case["case"])
        print("%-16s %s" % (case["case"], " ".join(result["tokens"])))
    (OUT_DIR / "cases.json").write_text(dumps(names) + "\n", encoding="utf-8")
    write_prng()
    print("wrote %d cases to %s and %s" % (len(names), os.path.relpath(OUT_DIR, REPO),
                                             os.path.relpath(PRNG_FILE, REPO)))


if __name__ == "__main__":
    main()
