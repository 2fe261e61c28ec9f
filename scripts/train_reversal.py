#!/usr/bin/python3
"""Train Attention Lab's shipped toy model: an encoder-decoder that reverses a string.

The model follows docs/model-format.md exactly (an nn.Transformer subclass with src_embed,
tgt_embed and generator; sqrt(d_model) embedding scale; sinusoidal positions; character
tokenizer).  Trained to reverse a character sequence, its cross-attention learns a clean
anti-diagonal: output position i looks at source position n-1-i.  docs/shipped-model.md
reports what this script measured.

How to run (from the repository root; needs Debian's python3-torch and python3-numpy,
which is why the interpreter is /usr/bin/python3 and not a virtualenv's python):

    /usr/bin/python3 scripts/train_reversal.py                 # train, save, record
    /usr/bin/python3 scripts/train_reversal.py --record-only   # no training: re-record the
                                                               # JSON references from the
                                                               # existing .safetensors file
    /usr/bin/python3 scripts/train_reversal.py --check         # no training, no writing:
                                                               # verify the files agree
                                                               # (exit status 1 if not)
    /usr/bin/python3 scripts/train_reversal.py --time-only     # train, print the seconds,
                                                               # write nothing

Training takes about 5 minutes on 2 CPU cores (longer when other jobs share them).  It is
not run by CI; CI only checks the C++ engine against the recorded outputs.

What it writes:

    resources/models/reversal.safetensors          the model (F32, metadata per
                                                   docs/model-format.md)
    tests/reference/model/reversal_heldout.json    greedy outputs on the held-out set
    tests/reference/model/reversal_stages.json     selected stages of two traces

Data: random strings of 1..12 characters over ALPHABET (a-z, 0-9 and 39 Chinese
characters), drawn as letters-only, digits-only, Chinese-only or mixed strings; the
target is the reversed string.  A string is held out when crc32(UTF-8 bytes) % 16 == 0
(HELD_OUT_BUCKET); training never sees a held-out string nor a curated word (CURATED).
The held-out set is the curated words followed by HELD_OUT random held-out strings.

Training: teacher forcing (decoder input <sos> + target, labels target + <eos>),
cross-entropy ignoring <pad>, key padding masks, causal target mask, Adam with linear
warmup and cosine decay; linear layers run as 1x1 convolutions while training (see
FastLinear: the same maths, ~5x faster with Debian's reference BLAS).  Everything is seeded (torch.manual_seed, random.Random, two
threads, deterministic algorithms), so re-running on the same machine and torch build
reproduces the same bytes.

Greedy decoding (the recorded outputs) follows docs/model-format.md: one sequence, no
padding, start from [<sos>], run the whole decoder on the prefix under the causal mask,
torch.argmax of the last row of the logits, append, stop after <eos> or
max_target_length (16) tokens; eval mode, torch.no_grad().

JSON layout of reversal_heldout.json:
    {"model": "resources/models/reversal.safetensors",
     "examples": [{"source": "hello", "output": ["o", "l", "l", "e", "h"],
                   "finished": true, "correct": true}, ...],
     "accuracy": 1.0, "held_out": 314}
"output" are the generated tokens without the final <eos>; "finished" is true when <eos>
was generated; "correct" when finished and the output is the reversed source.
"accuracy" is the fraction of correct examples (curated ones included).

JSON layout of reversal_stages.json (one stage per line):
    {"model": ..., "notes": ...,
     "examples": [{"source": "attention", "source_tokens": [...],
                   "target_tokens": ["<sos>", ...greedy output without <eos>],
                   "stages": [{"id": ..., "layer": ..., "block": ..., "head": ...,
                               "data": [[...]]}, ...]}, ...]}
Stages, in computation order: input (block encoder_self: X_src = E_src*8 + PE),
encoder_output (after encoder.norm), input (block decoder_self: X_tgt), weights (block
cross, every decoder layer and head, m x n), decoder_output (after decoder.norm), logits
(m x V_t), probabilities (row softmax of the logits).  Stages without a layer / block /
head have layer null, block "" and head null.  The values are step-by-step torch values
(scripts/gen_transformer_reference.py's functions), each checked against the module to
1e-5: every attention block and layer on the same inputs in absolute terms, the whole
stack (module forward) and its logits relative to their largest magnitude.  Floats are the exact float32 values printed as the shortest double that equals
them; non-finite values are the strings "-inf", "inf", "nan".
"""

import argparse
import json
import math
import os
import random
import sys
import time
import zlib
from pathlib import Path

import torch
import torch.nn as nn
import torch.nn.functional as F

sys.path.insert(0, str(Path(__file__).resolve().parent))
from safetensors_io import load_file, load_metadata, save_file  # noqa: E402
from gen_reference import dumps  # noqa: E402  (the golden files' JSON number format)
import gen_transformer_reference as gtr  # noqa: E402  (step-by-step layers, jarray)

REPO = Path(__file__).resolve().parent.parent
MODEL_PATH = REPO / "resources" / "models" / "reversal.safetensors"
REF_DIR = REPO / "tests" / "reference" / "model"
HELDOUT_PATH = REF_DIR / "reversal_heldout.json"
STAGES_PATH = REF_DIR / "reversal_stages.json"
MODEL_REL = "resources/models/reversal.safetensors"

# ----------------------------------------------------------------------------------------
# Task, vocabularies, hyperparameters
# ----------------------------------------------------------------------------------------

LETTERS = "abcdefghijklmnopqrstuvwxyz"
DIGITS = "0123456789"
CHINESE = "我你他她它们爱是的人猫狗学生老师中国好大小天上下日月山水火木年家里有不在这世界"
ALPHABET = LETTERS + DIGITS + CHINESE
SRC_VOCAB = ["<pad>", "<unk>"] + list(ALPHABET)
TGT_VOCAB = ["<pad>", "<unk>", "<sos>", "<eos>"] + list(ALPHABET)
PAD, SOS, EOS = 0, TGT_VOCAB.index("<sos>"), TGT_VOCAB.index("<eos>")
assert len(set(SRC_VOCAB)) == len(SRC_VOCAB) and len(set(TGT_VOCAB)) == len(TGT_VOCAB)
assert not any(ch.isspace() or ch != ch.lower() for ch in ALPHABET)

MIN_LEN, MAX_LEN = 1, 12
MAX_TARGET_LENGTH = 16

D_MODEL, HEADS, LAYERS, D_FF = 64, 4, 2, 128
SEED = 20240
STEPS = 5000
BATCH = 64
PEAK_LR = 1e-3
WARMUP = 400
THREADS = 2

HELD_OUT_BUCKET = 16    # crc32(s) % 16 == 0 -> held out
HELD_OUT = 300          # random held-out strings (besides the curated words)

# Words a teacher would type (every character must be in ALPHABET; checked).
CURATED = ["hello", "attention", "transformer", "abc", "12345", "我爱你", "猫是老师",
           "hello世界", "中国", "学生爱老师", "2024年", "abc123", "我是学生", "山水"]
STAGE_EXAMPLES = ["attention", "我爱你"]

NAME = "Reversal (trained)"
DESCRIPTION = ("Reverses a string of up to %d characters (a-z, 0-9 and %d common Chinese "
               "characters); trained by scripts/train_reversal.py." % (MAX_LEN, len(CHINESE)))


class Seq2Seq(nn.Transformer):
    """docs/model-format.md's module (batch_first, dropout 0, Post-LN, ReLU)."""

    def __init__(self, src_vocab, tgt_vocab, d_model, nhead, layers, d_ff):
        super().__init__(d_model, nhead, layers, layers, d_ff, dropout=0.0, batch_first=True)
        self.src_embed = nn.Embedding(len(src_vocab), d_model)
        self.tgt_embed = nn.Embedding(len(tgt_vocab), d_model)
        self.generator = nn.Linear(d_model, len(tgt_vocab))
        # N(0, 1/d): after the sqrt(d) scale the embeddings have unit-variance components,
        # the same size as the positional encoding (N(0, 1) would drown the positions)
        nn.init.normal_(self.src_embed.weight, 0.0, d_model ** -0.5)
        nn.init.normal_(self.tgt_embed.weight, 0.0, d_model ** -0.5)


def positional_encoding(n, d):
    """docs/engine.md section 4: angle in double, sin for even columns, cos for odd."""
    rows = []
    for pos in range(n):
        row = []
        for c in range(d):
            i = c // 2
            angle = pos / math.pow(10000.0, (2.0 * i) / d)
            row.append(math.sin(angle) if c % 2 == 0 else math.cos(angle))
        rows.append(row)
    return torch.tensor(rows, dtype=torch.float64).to(torch.float32).reshape(n, d)


PE = positional_encoding(MAX_TARGET_LENGTH + MAX_LEN + 4, D_MODEL)
SCALE = torch.tensor(math.sqrt(D_MODEL), dtype=torch.float32)


def embed(table, ids):
    """E[ids] * sqrt(d) + PE for a (batch x len) or (len) id tensor."""
    e = table(ids) * SCALE
    return e + PE[:ids.shape[-1]]


def causal_mask(m):
    return torch.triu(torch.ones(m, m, dtype=torch.bool), diagonal=1)


def tokenize(s):
    """tokenizer "chars", lowercase "true": every non-white-space character is a token."""
    lowered = "".join(ch.lower() if "A" <= ch <= "Z" else ch for ch in s)
    return [ch for ch in lowered if not ch.isspace()]


def src_ids(tokens):
    return [SRC_VOCAB.index(t) if t in SRC_VOCAB else SRC_VOCAB.index("<unk>") for t in tokens]


def tgt_ids(tokens):
    return [TGT_VOCAB.index(t) if t in TGT_VOCAB else TGT_VOCAB.index("<unk>") for t in tokens]


# ----------------------------------------------------------------------------------------
# Data
# ----------------------------------------------------------------------------------------

def held_out_string(s):
    return zlib.crc32(s.encode("utf-8")) % HELD_OUT_BUCKET == 0


def random_string(rng):
    n = rng.randint(MIN_LEN, MAX_LEN)
    r = rng.random()
    if r < 0.30:
        pool = LETTERS
    elif r < 0.45:
        pool = DIGITS
    elif r < 0.70:
        pool = CHINESE
    else:
        pool = ALPHABET
    return "".join(rng.choice(pool) for _ in range(n))


def training_string(rng, excluded):
    while True:
        s = random_string(rng)
        if not held_out_string(s) and s not in excluded:
            return s


def held_out_set():
    for w in CURATED:
        assert all(ch in ALPHABET for ch in w), w
        assert len(w) <= MAX_LEN, w
    rng = random.Random(SEED + 1)
    out, seen = list(CURATED), set(CURATED)
    while len(out) < len(CURATED) + HELD_OUT:
        s = random_string(rng)
        if held_out_string(s) and s not in seen:
            seen.add(s)
            out.append(s)
    return out


def batch_tensors(strings):
    """Padded (B x n) source ids, (B x m) decoder inputs and (B x m) labels."""
    B = len(strings)
    n = max(len(s) for s in strings)
    src = torch.full((B, n), PAD, dtype=torch.long)
    tin = torch.full((B, n + 1), PAD, dtype=torch.long)
    tout = torch.full((B, n + 1), PAD, dtype=torch.long)
    for b, s in enumerate(strings):
        ids = src_ids(list(s))
        rev = tgt_ids(list(s[::-1]))
        src[b, :len(ids)] = torch.tensor(ids)
        tin[b, :len(rev) + 1] = torch.tensor([SOS] + rev)
        tout[b, :len(rev) + 1] = torch.tensor(rev + [EOS])
    return src, tin, tout


# ----------------------------------------------------------------------------------------
# Training
# ----------------------------------------------------------------------------------------

def setup_torch():
    torch.manual_seed(SEED)
    torch.set_num_threads(THREADS)
    torch.use_deterministic_algorithms(True)


class FastLinear:
    """Computes F.linear as a 1x1 convolution while training (same math, other kernel).

    Debian's torch is built against the reference (netlib) BLAS, which makes the matrix
    products of the linear layers ~20x slower than the oneDNN convolutions the build also
    has.  nn.Linear and nn.MultiheadAttention look F.linear up when they are called, so
    replacing it for the duration of training makes a step ~5x faster.  Saving,
    evaluation and recording use the stock F.linear."""

    @staticmethod
    def linear(x, w, b=None):
        shape = x.shape
        y = F.conv1d(x.reshape(-1, shape[-1]).t().unsqueeze(0), w.unsqueeze(-1), b)
        return y[0].t().reshape(*shape[:-1], w.shape[0])

    def __enter__(self):
        self.saved = F.linear
        F.linear = self.linear

    def __exit__(self, *exc):
        F.linear = self.saved


def train(steps):
    with FastLinear():
        return train_loop(steps)


def train_loop(steps):
    setup_torch()
    model = Seq2Seq(SRC_VOCAB, TGT_VOCAB, D_MODEL, HEADS, LAYERS, D_FF)
    model.train()
    opt = torch.optim.Adam(model.parameters(), lr=PEAK_LR, betas=(0.9, 0.98), eps=1e-9)

    def lr_at(step):
        if step < WARMUP:
            return PEAK_LR * (step + 1) / WARMUP
        t = (step - WARMUP) / max(1, steps - WARMUP)
        return PEAK_LR * 0.5 * (1.0 + math.cos(math.pi * t))

    rng = random.Random(SEED)
    excluded = set(CURATED)
    t0 = time.time()
    running = None
    for step in range(steps):
        strings = [training_string(rng, excluded) for _ in range(BATCH)]
        src, tin, tout = batch_tensors(strings)
        src_pad = src == PAD
        tgt_pad = tin == PAD
        out = model(embed(model.src_embed, src), embed(model.tgt_embed, tin),
                    tgt_mask=causal_mask(tin.shape[1]), src_key_padding_mask=src_pad,
                    tgt_key_padding_mask=tgt_pad, memory_key_padding_mask=src_pad)
        logits = model.generator(out)
        loss = F.cross_entropy(logits.reshape(-1, logits.shape[-1]), tout.reshape(-1),
                               ignore_index=PAD)
        for g in opt.param_groups:
            g["lr"] = lr_at(step)
        opt.zero_grad()
        loss.backward()
        opt.step()
        running = float(loss) if running is None else 0.98 * running + 0.02 * float(loss)
        if step % 500 == 0 or step + 1 == steps:
            print("step %5d  lr %.2e  loss %.4f  (%.0f s)" % (step, lr_at(step), running,
                                                               time.time() - t0), flush=True)
    seconds = time.time() - t0
    model.eval()
    return model, seconds


def metadata():
    return {
        "format": "attention-lab-seq2seq/1",
        "d_model": str(D_MODEL), "heads": str(HEADS), "d_ff": str(D_FF),
        "encoder_layers": str(LAYERS), "decoder_layers": str(LAYERS),
        "norm": "post", "activation": "relu", "layer_norm_eps": "1e-05",
        "final_norms": "true", "embed_scale": "true", "positional_encoding": "sinusoidal",
        "tokenizer": "chars", "lowercase": "true",
        "src_vocab": json.dumps(SRC_VOCAB, ensure_ascii=False, separators=(",", ":")),
        "tgt_vocab": json.dumps(TGT_VOCAB, ensure_ascii=False, separators=(",", ":")),
        "max_target_length": str(MAX_TARGET_LENGTH),
        "name": NAME, "description": DESCRIPTION,
    }


def save_model(model):
    state = {k: v.detach().to(torch.float32).contiguous() for k, v in model.state_dict().items()}
    MODEL_PATH.parent.mkdir(parents=True, exist_ok=True)
    save_file(state, MODEL_PATH, metadata())
    return state


def load_model():
    """Read the .safetensors file back into a fresh module (strict names and shapes)."""
    meta = load_metadata(MODEL_PATH)
    assert meta == metadata(), "metadata of %s differs from this script's" % MODEL_PATH
    tensors = load_file(MODEL_PATH)
    for k, v in tensors.items():
        assert v.dtype == torch.float32, k
    setup_torch()
    model = Seq2Seq(SRC_VOCAB, TGT_VOCAB, D_MODEL, HEADS, LAYERS, D_FF)
    model.load_state_dict(tensors, strict=True)
    model.eval()
    return model, tensors


# ----------------------------------------------------------------------------------------
# Inference
# ----------------------------------------------------------------------------------------

def greedy(model, source):
    """docs/model-format.md greedy generation; returns (tokens without <eos>, finished,
    smallest top-1 minus top-2 logit margin over the steps)."""
    with torch.no_grad():
        src = torch.tensor([src_ids(tokenize(source))])
        memory = model.encoder(embed(model.src_embed, src))
        ids = [SOS]
        out, finished, margin = [], False, float("inf")
        while len(out) < MAX_TARGET_LENGTH:
            tgt = torch.tensor([ids])
            y = model.decoder(embed(model.tgt_embed, tgt), memory,
                              tgt_mask=causal_mask(len(ids)))
            last = model.generator(y)[0, -1]
            nxt = int(torch.argmax(last))
            top2 = torch.topk(last, 2).values
            margin = min(margin, float(top2[0] - top2[1]))
            if nxt == EOS:
                finished = True
                break
            out.append(TGT_VOCAB[nxt])
            ids.append(nxt)
        return out, finished, margin


def cross_weights(model, source, target_tokens):
    """Cross-attention weights [layer][head] (m x n) for decoder input <sos> + target."""
    with torch.no_grad():
        src = torch.tensor([src_ids(tokenize(source))])
        tgt = torch.tensor([[SOS] + tgt_ids(target_tokens)])
        memory = model.encoder(embed(model.src_embed, src))
        x = embed(model.tgt_embed, tgt)
        mask = causal_mask(tgt.shape[1])
        weights = []
        for lay in model.decoder.layers:
            x1 = lay.norm1(x + lay.self_attn(x, x, x, attn_mask=mask, need_weights=False)[0])
            ca, w = lay.multihead_attn(x1, memory, memory, need_weights=True,
                                       average_attn_weights=False)
            weights.append(w[0])
            x2 = lay.norm2(x1 + ca)
            x = lay.norm3(x2 + lay.linear2(F.relu(lay.linear1(x2))))
        y = model.decoder.norm(x)
        ref = model.decoder(embed(model.tgt_embed, tgt), memory, tgt_mask=mask)
        assert float((y - ref).abs().max()) < 1e-5
        return weights


def alignment(model, strings):
    """Per decoder layer and head, over the rows i < n (the rows that predict a
    character; teacher forcing with the true reversed target): the mean weight on source
    position n-1-i, the fraction of rows whose largest weight is there, and the mean
    weight on positions n-2-i .. n-i (the anti-diagonal and its two neighbours)."""
    sums = [[0.0] * HEADS for _ in range(LAYERS)]
    band = [[0.0] * HEADS for _ in range(LAYERS)]
    hits = [[0] * HEADS for _ in range(LAYERS)]
    rows = 0
    for s in strings:
        n = len(s)
        W = cross_weights(model, s, list(s[::-1]))
        idx = torch.arange(n)
        for L in range(LAYERS):
            for h in range(HEADS):
                A = W[L][h][:n]                      # rows 0..n-1 predict the n characters
                sums[L][h] += float(A[idx, n - 1 - idx].sum())
                for off in (-1, 0, 1):
                    j = n - 1 - idx + off
                    ok = (j >= 0) & (j < n)
                    band[L][h] += float(A[idx[ok], j[ok]].sum())
                hits[L][h] += int((A.argmax(dim=1) == n - 1 - idx).sum())
        rows += n
    return tuple([[v / rows for v in r] for r in t] for t in (sums, hits, band))


# ----------------------------------------------------------------------------------------
# Recording
# ----------------------------------------------------------------------------------------

def evaluate(model):
    examples, correct, worst_margin = [], 0, float("inf")
    for s in held_out_set():
        out, finished, margin = greedy(model, s)
        ok = finished and out == list(s[::-1])
        correct += ok
        worst_margin = min(worst_margin, margin)
        examples.append({"source": s, "output": out, "finished": finished, "correct": ok})
    return examples, correct / len(examples), worst_margin


def heldout_json(examples, accuracy):
    lines = ["{", '"model":' + dumps(MODEL_REL) + ",", '"examples":[']
    for i, e in enumerate(examples):
        lines.append(dumps(e) + ("," if i + 1 < len(examples) else ""))
    lines += ["],", '"accuracy":' + dumps(accuracy) + ",",
              '"held_out":' + dumps(len(examples)), "}"]
    return "\n".join(lines) + "\n"


def stage_example(model, source):
    """Step-by-step trace (gen_transformer_reference's functions, checked against the
    module to 1e-5) of source with decoder input <sos> + its greedy output."""
    out, finished, _ = greedy(model, source)
    assert finished
    stok = tokenize(source)
    ttok = ["<sos>"] + out
    c = {"norm": "post", "act": "relu"}
    with torch.enable_grad():  # parameters require grad -> PyTorch's reference path
        src = torch.tensor(src_ids(stok))
        tgt = torch.tensor(tgt_ids(ttok))
        xs = embed(model.src_embed, src).detach()
        xt = embed(model.tgt_embed, tgt).detach()
        mask = causal_mask(len(ttok))
        rec = gtr.Recorder()
        x = xs
        for i, lay in enumerate(model.encoder.layers):
            x, _ = gtr.encoder_layer(rec, lay, c, x, None, None, i)
        mem = gtr.layer_norm(rec, "encoder_output", model.encoder.norm, x, None, None)
        rec.check("encoder_output", mem, model.encoder(xs[None])[0].detach())
        y = xt
        for i, lay in enumerate(model.decoder.layers):
            y, _ = gtr.decoder_layer(rec, lay, c, y, mem, mask, None, None, None, i)
        dec = gtr.layer_norm(rec, "decoder_output", model.decoder.norm, y, None, None)
        fwd = model(xs[None], xt[None], tgt_mask=mask)[0].detach()
        # the whole stack at once: relative to the values' size (|decoder_output| ~ 5)
        scale = max(1.0, float(fwd.abs().max()))
        rec.check("module forward / max |value|", dec / scale, fwd / scale)
        W, b = model.generator.weight.detach(), model.generator.bias.detach()
        logits = dec @ W.T + b
        rec.check("logits", logits, model.generator(dec).detach())
        # the logits of the module's own forward: relative to their size (|logit| ~ 20)
        scale = max(1.0, float(logits.abs().max()))
        rec.check("module logits / max |logit|", logits / scale,
                  model.generator(fwd).detach() / scale)
        probs = gtr.softmax_rows(logits)
        rec.check("probabilities", probs, torch.softmax(logits, dim=-1))
    # the greedy outputs again, from the teacher-forced trace
    assert [TGT_VOCAB[int(i)] for i in logits.argmax(dim=1)] == out + ["<eos>"]

    def pick(sid, layer, block, head):
        found = [s for s in rec.stages if s["id"] == sid and s["layer"] == layer
                 and s["block"] == block and s["head"] == head]
        assert len(found) == 1, (sid, layer, block, head)
        return found[0]["data"]

    stages = [("input", None, "encoder_self", None, xs),
              ("encoder_output", None, "", None, pick("encoder_output", None, None, None)),
              ("input", None, "decoder_self", None, xt)]
    for L in range(LAYERS):
        for h in range(HEADS):
            stages.append(("weights", L, "cross", h, pick("weights", L, "cross", h)))
    stages += [("decoder_output", None, "", None, pick("decoder_output", None, None, None)),
               ("logits", None, "", None, logits.detach()),
               ("probabilities", None, "", None, probs.detach())]
    return {"source": source, "source_tokens": stok, "target_tokens": ttok,
            "stages": stages}, max(rec.checks.values())


def stages_json(examples, max_diff):
    notes = ("selected stages of " + MODEL_REL + " on each source with decoder input "
             "<sos> + its greedy output (without <eos>); step-by-step torch %s values "
             "(scripts/gen_transformer_reference.py's functions), max |step-by-step - "
             "module| %.3g; stages without a layer, block or head have layer null, block "
             "\"\" and head null" % (torch.__version__, max_diff))
    lines = ["{", '"model":' + dumps(MODEL_REL) + ",", '"notes":' + dumps(notes) + ",",
             '"examples":[']
    for ei, ex in enumerate(examples):
        lines.append("{")
        lines.append('"source":' + dumps(ex["source"]) + ",")
        lines.append('"source_tokens":' + dumps(ex["source_tokens"]) + ",")
        lines.append('"target_tokens":' + dumps(ex["target_tokens"]) + ",")
        lines.append('"stages":[')
        st = ex["stages"]
        for i, (sid, layer, block, head, data) in enumerate(st):
            obj = {"id": sid, "layer": layer, "block": block, "head": head,
                   "data": gtr.jarray(data)}
            lines.append(dumps(obj) + ("," if i + 1 < len(st) else ""))
        lines.append("]")
        lines.append("}" + ("," if ei + 1 < len(examples) else ""))
    lines += ["]", "}"]
    return "\n".join(lines) + "\n"


def record(model, write):
    examples, accuracy, margin = evaluate(model)
    heldout = heldout_json(examples, accuracy)
    staged, diffs = [], []
    for s in STAGE_EXAMPLES:
        ex, diff = stage_example(model, s)
        staged.append(ex)
        diffs.append(diff)
    stages = stages_json(staged, max(diffs))
    if write:
        REF_DIR.mkdir(parents=True, exist_ok=True)
        HELDOUT_PATH.write_text(heldout, encoding="utf-8")
        STAGES_PATH.write_text(stages, encoding="utf-8")
    else:
        same = (HELDOUT_PATH.read_text(encoding="utf-8") == heldout,
                STAGES_PATH.read_text(encoding="utf-8") == stages)
        print("reversal_heldout.json %s, reversal_stages.json %s"
              % tuple("matches" if ok else "DIFFERS" for ok in same))
        if not all(same):
            sys.exit(1)

    print("held-out exact match: %d / %d = %.4f (curated %d / %d); smallest top-1 - top-2 "
          "logit margin %.3f" % (sum(e["correct"] for e in examples), len(examples), accuracy,
                                 sum(e["correct"] for e in examples[:len(CURATED)]),
                                 len(CURATED), margin))
    for e in examples[:len(CURATED)]:
        print("  %-12s -> %s%s" % (e["source"], "".join(e["output"]),
                                   "" if e["correct"] else "   WRONG"))
    for e in examples:
        if not e["correct"]:
            print("  wrong: %s -> %s" % (e["source"], "".join(e["output"])))
    mean, hit, band = alignment(model, [e["source"] for e in examples])
    print("cross-attention on the anti-diagonal, %d held-out examples (mean weight on "
          "source n-1-i | rows whose argmax is n-1-i | mean weight on n-1-i +- 1):"
          % len(examples))
    for L in range(LAYERS):
        print("  decoder layer %d: " % L + "  ".join(
            "head %d %.3f|%.3f|%.3f" % (h, mean[L][h], hit[L][h], band[L][h])
            for h in range(HEADS)))
    print("step-by-step vs module: max diff %.3g" % max(diffs))
    return accuracy


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    g = ap.add_mutually_exclusive_group()
    g.add_argument("--record-only", action="store_true",
                   help="skip training; re-record the JSON references from the saved model")
    g.add_argument("--check", action="store_true",
                   help="skip training; verify the saved model and the JSON references")
    g.add_argument("--time-only", action="store_true",
                   help="train and print the seconds; write nothing (bench/train_vs_pytorch.sh)")
    ap.add_argument("--steps", type=int, default=STEPS, help=argparse.SUPPRESS)
    args = ap.parse_args()

    if args.time_only:
        print("training: d_model=%d heads=%d layers=%d+%d d_ff=%d, %d steps x batch %d, "
              "%d threads" % (D_MODEL, HEADS, LAYERS, LAYERS, D_FF, args.steps, BATCH, THREADS))
        _, seconds = train(args.steps)
        print("trained in %.1f s" % seconds)
        return

    if not (args.record_only or args.check):
        print("training: d_model=%d heads=%d layers=%d+%d d_ff=%d, %d steps x batch %d, "
              "%d threads" % (D_MODEL, HEADS, LAYERS, LAYERS, D_FF, args.steps, BATCH, THREADS))
        model, seconds = train(args.steps)
        state = save_model(model)
        print("trained in %.1f s" % seconds)
        loaded, tensors = load_model()
        assert set(tensors) == set(state)
        for k in state:
            assert torch.equal(tensors[k], state[k]), k
    else:
        loaded, tensors = load_model()
    params = sum(t.numel() for t in tensors.values())
    print("%s: %d tensors, %d parameters, %d bytes" % (os.path.relpath(MODEL_PATH, REPO),
                                                       len(tensors), params,
                                                       MODEL_PATH.stat().st_size))
    record(loaded, write=not args.check)


if __name__ == "__main__":
    main()
