#!/usr/bin/python3
"""Reference values for Attention Lab's encoder/decoder layers, computed with PyTorch.

Golden files for issue 5 (docs/transformer-layers.md): full Transformer encoder layers,
decoder layers and a small nn.Transformer stack, recorded stage by stage.

How to run (from the repository root; needs Debian's python3-torch and python3-numpy,
which is why the interpreter is /usr/bin/python3 and not a virtualenv's python):

    /usr/bin/python3 scripts/gen_transformer_reference.py

What it writes:

    tests/reference/transformer/cases.json          list of case names
    tests/reference/transformer/<case>.json         options, inputs and every stage
    tests/reference/transformer/<case>.safetensors  the module's state dict (F32)

For every case the script builds the real PyTorch module (nn.TransformerEncoderLayer,
nn.TransformerEncoder, nn.TransformerDecoderLayer or nn.Transformer; batch_first=True, dropout=0, the case's
norm_first and activation, eval mode), overwrites every parameter with random values from
a per-case torch.Generator (projection weights randn/sqrt(fan_in), all biases 0.1*randn,
LayerNorm gamma 1 + 0.1*randn and beta 0.1*randn, so no norm is the identity), saves the
state dict with scripts/safetensors_io.py and reads it back, and draws the inputs src
(n x d) / tgt (m x d) as randn (unit-variance components).

The stages are then recomputed step by step with plain torch ops (F.linear,
F.layer_norm, F.relu / F.gelu, row softmax, masks) following docs/transformer-layers.md
and docs/engine.md section 6 (scaled = scores * float32(1/sqrt(d_k)); masked_scores =
scaled + M with M = -inf where masked; weights = row softmax, a row whose keys are all
masked gives 0 weights).  Every value written is this step-by-step value.  Checks, each to
a max abs diff below 1e-5 (asserted):
  * every attention block: the weights and the output against the module's own
    self_attn / multihead_attn called on the same inputs and masks (need_weights=True,
    average_attn_weights=False);
  * every layer: layer_output against the module's layer called on the same input;
  * every case: the final output against the module's forward().
The modules run with autograd enabled (parameters require grad), so PyTorch takes its
reference (non-fused, non-nested-tensor) path.

The output is deterministic: every random draw comes from a torch.Generator with a fixed
per-case seed (torch.manual_seed is fixed too, one thread, deterministic algorithms), so
re-running the script reproduces byte-identical files.

The cases with a "mask" (issue 28 section 5) take their masks from it and from the source's
tokens, as attention-lab-cli's --mask and --pad-to do: causal is src_mask, padding the
src_key_padding_mask of the <pad> tokens and, in an nn.Transformer, the same
memory_key_padding_mask; their inputs also hold "mask" and "src_tokens".

JSON layout of <case>.json (one stage per line, compact):
    {"case": ..., "notes": ..., "kind": ..., "options": {...}, "inputs": {...},
     "stages": [{"id": ..., "layer": ..., "block": ..., "head": ..., "data": [[...]]}, ...]}
LayerNorm stages (attn_norm, cross_norm, ffn_norm, and encoder_output / decoder_output
when a final norm is applied) also carry "mean" and "variance" (biased), 1-D arrays with
one value per token, of the LayerNorm's input.  Floats are the exact float32 values
(printed as the shortest double that equals them); non-finite values are the strings
"-inf", "inf", "nan".
"""

import json
import math
import os
import sys
from pathlib import Path

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

sys.path.insert(0, str(Path(__file__).resolve().parent))
from safetensors_io import load_file, save_file  # noqa: E402
from gen_reference import dumps, jnum  # noqa: E402  (the same JSON number format as the attention goldens)

REPO = Path(__file__).resolve().parent.parent
OUT_DIR = REPO / "tests" / "reference" / "transformer"

TOL = 1e-5
EPS = 1e-5


# ----------------------------------------------------------------------------------------
# Cases
# ----------------------------------------------------------------------------------------

def cases():
    return [
        dict(case="enc_post_relu", kind="encoder_layer", d=8, h=2, d_ff=16, norm="post",
             act="relu", n=5, seed=5001,
             note="encoder layer, Post-LN, ReLU, no mask"),
        dict(case="enc_pre_gelu", kind="encoder_layer", d=12, h=2, d_ff=24, norm="pre",
             act="gelu", n=6, seed=5002, src_key_padding=[0, 0, 0, 0, 1, 1],
             note="encoder layer, Pre-LN, GELU, src_key_padding: the last 2 positions "
                  "are padding (masked as keys; their own query rows are still computed)"),
        dict(case="enc_post_gelu_mask", kind="encoder_layer", d=8, h=2, d_ff=32,
             norm="post", act="gelu", n=6, seed=5003, src_mask="random",
             note="encoder layer, Post-LN, GELU, custom boolean src_mask (no row fully "
                  "masked)"),
        dict(case="dec_post_relu", kind="decoder_layer", d=8, h=2, d_ff=16, norm="post",
             act="relu", n=5, m=4, seed=5004, tgt_mask="causal",
             note="decoder layer, Post-LN, ReLU, causal tgt_mask; src is the memory, "
                  "no memory mask"),
        dict(case="dec_pre_gelu", kind="decoder_layer", d=16, h=4, d_ff=32, norm="pre",
             act="gelu", n=6, m=5, seed=5005, tgt_mask="causal",
             memory_key_padding=[0, 0, 0, 0, 0, 1],
             note="decoder layer, Pre-LN, GELU, causal tgt_mask; src is the memory, its "
                  "last position is padding (memory_key_padding)"),
        dict(case="transformer_2x2", kind="transformer", d=16, h=4, d_ff=32, norm="post",
             act="relu", n=6, m=5, seed=5006, layers=(2, 2), tgt_mask="causal",
             note="nn.Transformer, 2 encoder + 2 decoder layers, Post-LN, ReLU, final "
                  "encoder/decoder norms, causal tgt_mask"),
        dict(case="transformer_2x2_pre", kind="transformer", d=16, h=4, d_ff=32,
             norm="pre", act="gelu", n=6, m=5, seed=5007, layers=(2, 2), tgt_mask="causal",
             note="nn.Transformer, 2 encoder + 2 decoder layers, Pre-LN, GELU, final "
                  "encoder/decoder norms, causal tgt_mask"),
        # Issue 28 section 5: the masks of a whole Transformer as attention-lab-cli's --mask and
        # --pad-to make them from the source's tokens ("mask" and "src_tokens" in the inputs):
        # causal -> src_mask; padding -> src_key_padding_mask and, with a decoder,
        # memory_key_padding_mask; causal+padding -> both.
        dict(case="enc_layer_causal", kind="encoder_layer", d=8, h=2, d_ff=16, norm="post",
             act="relu", n=5, seed=5008, mask="causal",
             src_tokens=["the", "cat", "sat", "down", "."],
             note="encoder layer, Post-LN, ReLU, --mask causal: src_mask is the causal mask"),
        dict(case="encoder_2_causal_pad", kind="encoder", d=12, h=3, d_ff=24, norm="pre",
             act="gelu", n=6, seed=5009, layers=(2, 0), mask="causal+padding",
             src_tokens=["the", "cat", "sat", "down", "<pad>", "<pad>"],
             note="nn.TransformerEncoder, 2 layers, Pre-LN, GELU, final norm, --mask "
                  "causal+padding --pad-to 6: src_mask causal and src_key_padding_mask on "
                  "the 2 <pad> keys in every layer"),
        dict(case="transformer_2x2_pad", kind="transformer", d=16, h=4, d_ff=32, norm="post",
             act="relu", n=6, m=4, seed=5010, layers=(2, 2), tgt_mask="causal",
             mask="padding", src_tokens=["a", "b", "c", "d", "<pad>", "<pad>"],
             note="nn.Transformer, 2 encoder + 2 decoder layers, Post-LN, ReLU, final norms, "
                  "--mask padding --pad-to 6: src_key_padding_mask in the encoder and "
                  "memory_key_padding_mask in every cross-attention on the 2 <pad> keys; "
                  "causal tgt_mask, the target not padded"),
    ]


def run_masks(c):
    """src_mask, src_key_padding_mask and memory_key_padding_mask as --mask makes them from
    the source's tokens (none of them when the case has no "mask")."""
    mask = c.get("mask")
    if mask is None:
        return None, None, None
    n = c["n"]
    toks = c["src_tokens"]
    assert len(toks) == n
    causal = mask in ("causal", "causal+padding")
    padding = mask in ("padding", "causal+padding")
    src_mask = torch.triu(torch.ones(n, n, dtype=torch.bool), diagonal=1) if causal else None
    kpm = torch.tensor([t == "<pad>" for t in toks], dtype=torch.bool) if padding else None
    mem_kpm = kpm if (padding and c["kind"] == "transformer") else None
    return src_mask, kpm, mem_kpm


# ----------------------------------------------------------------------------------------
# Modules and weights
# ----------------------------------------------------------------------------------------

def build_module(c):
    kw = dict(dim_feedforward=c["d_ff"], dropout=0.0, activation=c["act"],
              layer_norm_eps=EPS, batch_first=True, norm_first=(c["norm"] == "pre"))
    if c["kind"] == "encoder_layer":
        mod = nn.TransformerEncoderLayer(c["d"], c["h"], **kw)
    elif c["kind"] == "encoder":
        layer = nn.TransformerEncoderLayer(c["d"], c["h"], **kw)
        mod = nn.TransformerEncoder(layer, c["layers"][0], norm=nn.LayerNorm(c["d"], eps=EPS),
                                    enable_nested_tensor=False)
    elif c["kind"] == "decoder_layer":
        mod = nn.TransformerDecoderLayer(c["d"], c["h"], **kw)
    else:
        ne, nd = c["layers"]
        mod = nn.Transformer(d_model=c["d"], nhead=c["h"], num_encoder_layers=ne,
                             num_decoder_layers=nd, **kw)
    mod.eval()
    return mod


def is_norm_param(name):
    parts = name.split(".")
    return len(parts) >= 2 and parts[-2].startswith("norm")


def random_state(mod, g):
    """Random values for every entry of the state dict, drawn in sorted-name order."""
    out = {}
    for name, t in sorted(mod.state_dict().items()):
        shape = tuple(t.shape)
        r = torch.randn(shape, generator=g, dtype=torch.float32)
        if is_norm_param(name):
            out[name] = 1.0 + 0.1 * r if name.endswith(".weight") else 0.1 * r
        elif name.endswith("bias"):
            out[name] = 0.1 * r
        else:
            assert len(shape) == 2, name
            out[name] = r * np.float32(1.0 / math.sqrt(shape[1]))
    return out


# ----------------------------------------------------------------------------------------
# Step-by-step computation
# ----------------------------------------------------------------------------------------

def softmax_rows(S):
    """Row softmax (max subtracted); fully masked rows (all -inf) give 0."""
    out = torch.zeros_like(S)
    for r in range(S.shape[0]):
        row = S[r]
        mx = row.max()
        if torch.isinf(mx) and mx < 0:
            continue
        e = torch.exp(row - mx)
        out[r] = e / e.sum()
    return out


def combined_mask(rows, cols, attn_mask, kpm):
    """Boolean rows x cols (true = masked): attn_mask OR key padding broadcast."""
    mb = torch.zeros(rows, cols, dtype=torch.bool)
    if attn_mask is not None:
        mb |= attn_mask
    if kpm is not None:
        mb |= kpm[None, :].expand(rows, cols)
    return mb


class Recorder:
    def __init__(self):
        self.stages = []
        self.checks = {}  # check name -> max abs diff

    def add(self, sid, layer, block, head, data, mean=None, var=None):
        self.stages.append(dict(id=sid, layer=layer, block=block, head=head, data=data,
                                mean=mean, variance=var))

    def check(self, what, a, b):
        assert a.shape == b.shape, (what, a.shape, b.shape)
        diff = float((a - b).abs().max()) if a.numel() else 0.0
        assert not math.isnan(diff) and diff < TOL, (what, diff)
        self.checks[what] = diff
        return diff


def attention_heads(Q, K, V, M, h):
    """Per head j (feature columns j*d_k .. (j+1)*d_k - 1 of Q, K, V): the dict of its
    stages q, k, v, scores, scaled, masked_scores, weights, head_output."""
    dk = Q.shape[1] // h
    c = torch.tensor(np.float32(1.0 / math.sqrt(dk)))
    ph = []
    for j in range(h):
        sl = slice(j * dk, (j + 1) * dk)
        Qj, Kj, Vj = Q[:, sl].contiguous(), K[:, sl].contiguous(), V[:, sl].contiguous()
        Sj = Qj @ Kj.T                      # scores: (n x m) = Q_j (n x d_k) * K_j^T
        Spj = Sj * c                        # scaled by float32(1/sqrt(d_k))
        Sppj = Spj + M                      # masked: -inf where a key is hidden
        Aj = softmax_rows(Sppj)             # row softmax, row max subtracted
        Zj = Aj @ Vj                        # head output: (n x d_k)
        ph.append(dict(q=Qj, k=Kj, v=Vj, scores=Sj, scaled=Spj, masked_scores=Sppj,
                       weights=Aj, head_output=Zj))
    return ph


def record_attention(rec, ph, M, C, O, layer, block):
    """The attention stages in the engine's order: each per-head stage for every head
    (head 0 first) before the next stage id."""
    h = len(ph)
    for sid in ("q", "k", "v", "scores", "scaled"):
        for j in range(h):
            rec.add(sid, layer, block, j, ph[j][sid])
    rec.add("mask", layer, block, None, M)
    for sid in ("masked_scores", "weights", "head_output"):
        for j in range(h):
            rec.add(sid, layer, block, j, ph[j][sid])
    rec.add("concat", layer, block, None, C)
    rec.add("output", layer, block, None, O)


def attention(rec, what, mha, xq, xkv, attn_mask, kpm, layer, block):
    """One multi-head attention block, stage by stage (docs/engine.md section 6)."""
    d = mha.embed_dim
    h = mha.num_heads
    W, b = mha.in_proj_weight.detach(), mha.in_proj_bias.detach()
    Q = F.linear(xq, W[:d], b[:d])
    K = F.linear(xkv, W[d:2 * d], b[d:2 * d])
    V = F.linear(xkv, W[2 * d:], b[2 * d:])
    rows, cols = xq.shape[0], xkv.shape[0]
    mb = combined_mask(rows, cols, attn_mask, kpm)
    M = torch.zeros(rows, cols, dtype=torch.float32).masked_fill(mb, float("-inf"))
    ph = attention_heads(Q, K, V, M, h)
    C = torch.cat([p["head_output"] for p in ph], dim=1)
    O = F.linear(C, mha.out_proj.weight.detach(), mha.out_proj.bias.detach())

    # the module's own attention on the same inputs and masks
    full_rows = [r for r in range(rows) if bool(mb[r].all())]
    out_mod, w_mod = mha(xq[None], xkv[None], xkv[None],
                         attn_mask=attn_mask,
                         key_padding_mask=None if kpm is None else kpm[None],
                         need_weights=True, average_attn_weights=False)
    out_mod, w_mod = out_mod[0].detach(), w_mod[0].detach()
    if full_rows:  # PyTorch gives NaN there; the spec gives zero weights
        keep = [r for r in range(rows) if r not in full_rows]
        out_mod, w_mod = out_mod[keep], w_mod[:, keep]
        O_c, A_c = O[keep], torch.stack([p["weights"] for p in ph])[:, keep]
    else:
        O_c, A_c = O, torch.stack([p["weights"] for p in ph])
    rec.check(what + " weights", A_c, w_mod)
    rec.check(what + " output", O_c, out_mod)

    record_attention(rec, ph, M, C, O, layer, block)
    return O, full_rows


def layer_norm(rec, sid, ln, x, layer, block):
    y = F.layer_norm(x, (x.shape[-1],), ln.weight.detach(), ln.bias.detach(), ln.eps)
    mean = x.mean(dim=-1)
    var = x.var(dim=-1, unbiased=False)
    rec.add(sid, layer, block, None, y, mean, var)
    return y


def activation(name, x):
    return F.relu(x) if name == "relu" else F.gelu(x)  # exact erf GELU


def ffn(rec, lay, act, x, layer, block):
    hid = activation(act, F.linear(x, lay.linear1.weight.detach(), lay.linear1.bias.detach()))
    rec.add("ffn_hidden", layer, block, None, hid)
    out = F.linear(hid, lay.linear2.weight.detach(), lay.linear2.bias.detach())
    rec.add("ffn_output", layer, block, None, out)
    return out


def encoder_layer(rec, lay, c, x, src_mask, kpm, li):
    B = "encoder_self"
    tag = "encoder layer %d" % li
    if c["norm"] == "post":
        sa, fr = attention(rec, tag + " self-attention", lay.self_attn, x, x, src_mask, kpm,
                           li, B)
        r1 = x + sa
        rec.add("attn_residual", li, B, None, r1)
        n1 = layer_norm(rec, "attn_norm", lay.norm1, r1, li, B)
        fo = ffn(rec, lay, c["act"], n1, li, B)
        r2 = n1 + fo
        rec.add("ffn_residual", li, B, None, r2)
        out = layer_norm(rec, "ffn_norm", lay.norm2, r2, li, B)
    else:
        n1 = layer_norm(rec, "attn_norm", lay.norm1, x, li, B)
        sa, fr = attention(rec, tag + " self-attention", lay.self_attn, n1, n1, src_mask,
                           kpm, li, B)
        r1 = x + sa
        rec.add("attn_residual", li, B, None, r1)
        n2 = layer_norm(rec, "ffn_norm", lay.norm2, r1, li, B)
        fo = ffn(rec, lay, c["act"], n2, li, B)
        out = r1 + fo
        rec.add("ffn_residual", li, B, None, out)
    rec.add("layer_output", li, B, None, out)
    mod_out = lay(x[None], src_mask=src_mask,
                  src_key_padding_mask=None if kpm is None else kpm[None])[0].detach()
    rec.check(tag + " layer_output", out, mod_out)
    return out, fr


def decoder_layer(rec, lay, c, y, mem, tgt_mask, tgt_kpm, mem_mask, mem_kpm, li):
    BS, BC = "decoder_self", "cross"
    tag = "decoder layer %d" % li
    if c["norm"] == "post":
        sa, fr1 = attention(rec, tag + " self-attention", lay.self_attn, y, y, tgt_mask,
                            tgt_kpm, li, BS)
        r1 = y + sa
        rec.add("attn_residual", li, BS, None, r1)
        n1 = layer_norm(rec, "attn_norm", lay.norm1, r1, li, BS)
        ca, fr2 = attention(rec, tag + " cross-attention", lay.multihead_attn, n1, mem,
                            mem_mask, mem_kpm, li, BC)
        r2 = n1 + ca
        rec.add("cross_residual", li, BC, None, r2)
        n2 = layer_norm(rec, "cross_norm", lay.norm2, r2, li, BC)
        fo = ffn(rec, lay, c["act"], n2, li, BS)
        r3 = n2 + fo
        rec.add("ffn_residual", li, BS, None, r3)
        out = layer_norm(rec, "ffn_norm", lay.norm3, r3, li, BS)
    else:
        n1 = layer_norm(rec, "attn_norm", lay.norm1, y, li, BS)
        sa, fr1 = attention(rec, tag + " self-attention", lay.self_attn, n1, n1, tgt_mask,
                            tgt_kpm, li, BS)
        r1 = y + sa
        rec.add("attn_residual", li, BS, None, r1)
        n2 = layer_norm(rec, "cross_norm", lay.norm2, r1, li, BC)
        ca, fr2 = attention(rec, tag + " cross-attention", lay.multihead_attn, n2, mem,
                            mem_mask, mem_kpm, li, BC)
        r2 = r1 + ca
        rec.add("cross_residual", li, BC, None, r2)
        n3 = layer_norm(rec, "ffn_norm", lay.norm3, r2, li, BS)
        fo = ffn(rec, lay, c["act"], n3, li, BS)
        out = r2 + fo
        rec.add("ffn_residual", li, BS, None, out)
    rec.add("layer_output", li, BS, None, out)
    mod_out = lay(y[None], mem[None], tgt_mask=tgt_mask, memory_mask=mem_mask,
                  tgt_key_padding_mask=None if tgt_kpm is None else tgt_kpm[None],
                  memory_key_padding_mask=None if mem_kpm is None else mem_kpm[None]
                  )[0].detach()
    rec.check(tag + " layer_output", out, mod_out)
    return out, fr1 + fr2


# ----------------------------------------------------------------------------------------
# One case
# ----------------------------------------------------------------------------------------

def random_mask(n, g):
    """Random boolean n x n mask (true = masked, ~40%), no row fully masked."""
    m = torch.rand(n, n, generator=g) < 0.4
    for r in range(n):
        if bool(m[r].all()):
            m[r, int(torch.randint(0, n, (1,), generator=g))] = False
    return m


def bool_or_none(v):
    return None if v is None else torch.tensor(v, dtype=torch.bool)


def to_list01(t):
    return None if t is None else t.to(torch.int64).tolist()


def compute_case(c):
    name, kind = c["case"], c["kind"]
    d, h = c["d"], c["h"]
    assert d % h == 0
    g = torch.Generator().manual_seed(c["seed"])

    mod = build_module(c)
    state = random_state(mod, g)
    path = OUT_DIR / f"{name}.safetensors"
    save_file(state, path, {"num_heads": str(h),
                            "source": "scripts/gen_transformer_reference.py"})
    loaded = load_file(path)
    assert set(loaded) == set(state)
    for k in state:
        assert loaded[k].dtype == torch.float32 and torch.equal(loaded[k], state[k]), k
    mod.load_state_dict(loaded, strict=True)

    n = c["n"]
    m = c.get("m")
    src = torch.randn(n, d, generator=g, dtype=torch.float32)
    tgt = torch.randn(m, d, generator=g, dtype=torch.float32) if m is not None else None

    src_mask = random_mask(n, g) if c.get("src_mask") == "random" else None
    tgt_mask = (torch.triu(torch.ones(m, m, dtype=torch.bool), diagonal=1)
                if c.get("tgt_mask") == "causal" else None)
    mem_mask = None
    src_kpm = bool_or_none(c.get("src_key_padding"))
    tgt_kpm = bool_or_none(c.get("tgt_key_padding"))
    mem_kpm = bool_or_none(c.get("memory_key_padding"))
    if "mask" in c:
        assert src_mask is None and src_kpm is None and mem_kpm is None
        src_mask, src_kpm, mem_kpm = run_masks(c)

    rec = Recorder()
    full_rows = []
    if kind == "encoder_layer":
        out, fr = encoder_layer(rec, mod, c, src, src_mask, src_kpm, 0)
        full_rows += fr
        final = out
        mod_final = mod(src[None], src_mask=src_mask,
                        src_key_padding_mask=None if src_kpm is None else src_kpm[None])
        ne, nd, final_norms = 1, 0, False
    elif kind == "encoder":
        ne, nd = c["layers"]
        final_norms = True
        x = src
        for i, lay in enumerate(mod.layers):
            x, fr = encoder_layer(rec, lay, c, x, src_mask, src_kpm, i)
            full_rows += fr
        final = layer_norm(rec, "encoder_output", mod.norm, x, None, None)
        mod_final = mod(src[None], mask=src_mask,
                        src_key_padding_mask=None if src_kpm is None else src_kpm[None])
    elif kind == "decoder_layer":
        out, fr = decoder_layer(rec, mod, c, tgt, src, tgt_mask, tgt_kpm, mem_mask, mem_kpm,
                                0)
        full_rows += fr
        final = out
        mod_final = mod(tgt[None], src[None], tgt_mask=tgt_mask, memory_mask=mem_mask,
                        tgt_key_padding_mask=None if tgt_kpm is None else tgt_kpm[None],
                        memory_key_padding_mask=None if mem_kpm is None else mem_kpm[None])
        ne, nd, final_norms = 0, 1, False
    else:
        ne, nd = c["layers"]
        final_norms = True
        x = src
        for i, lay in enumerate(mod.encoder.layers):
            x, fr = encoder_layer(rec, lay, c, x, src_mask, src_kpm, i)
            full_rows += fr
        assert mod.encoder.norm is not None and mod.decoder.norm is not None
        mem = layer_norm(rec, "encoder_output", mod.encoder.norm, x, None, None)
        mod_mem = mod.encoder(src[None], mask=src_mask,
                              src_key_padding_mask=None if src_kpm is None else src_kpm[None])
        rec.check("encoder_output", mem, mod_mem[0].detach())
        y = tgt
        for i, lay in enumerate(mod.decoder.layers):
            y, fr = decoder_layer(rec, lay, c, y, mem, tgt_mask, tgt_kpm, mem_mask, mem_kpm,
                                  i)
            full_rows += fr
        final = layer_norm(rec, "decoder_output", mod.decoder.norm, y, None, None)
        mod_final = mod(src[None], tgt[None], src_mask=src_mask, tgt_mask=tgt_mask,
                        memory_mask=mem_mask,
                        src_key_padding_mask=None if src_kpm is None else src_kpm[None],
                        tgt_key_padding_mask=None if tgt_kpm is None else tgt_kpm[None],
                        memory_key_padding_mask=None if mem_kpm is None else mem_kpm[None])
    assert not full_rows, (name, "no case is meant to have a fully masked query row")
    final_diff = rec.check("module forward", final, mod_final[0].detach())
    max_diff = max(rec.checks.values())

    for st in rec.stages:  # only -inf (in mask / masked_scores) may be non-finite
        if st["id"] not in ("mask", "masked_scores"):
            assert torch.isfinite(st["data"]).all(), (name, st["id"])

    notes = [c["note"],
             "module: torch %s nn.%s, batch_first=True, dropout=0, eval mode; weights are "
             "<case>.safetensors (the module's state dict); src/tgt are randn"
             % (torch.__version__, {"encoder_layer": "TransformerEncoderLayer",
                                    "encoder": "TransformerEncoder",
                                    "decoder_layer": "TransformerDecoderLayer",
                                    "transformer": "Transformer"}[kind]),
             "every stage is a step-by-step torch computation (docs/engine.md section 6 "
             "for attention); checked against the module: max |step-by-step - module| "
             "over every attention block (weights, output) and layer output %.3g, final "
             "output vs forward() %.3g" % (max_diff, final_diff)]
    options = {"d_model": d, "heads": h, "d_ff": c["d_ff"], "norm": c["norm"],
               "activation": c["act"], "eps": EPS, "encoder_layers": ne,
               "decoder_layers": nd, "final_norms": final_norms}
    inputs = {"src": src, "tgt": tgt,
              "src_mask": to_list01(src_mask), "tgt_mask": to_list01(tgt_mask),
              "memory_mask": to_list01(mem_mask),
              "src_key_padding": to_list01(src_kpm), "tgt_key_padding": to_list01(tgt_kpm),
              "memory_key_padding": to_list01(mem_kpm)}
    if "mask" in c:  # how the command line's --mask and --pad-to make the masks above
        inputs["mask"] = c["mask"]
        inputs["src_tokens"] = c["src_tokens"]
    result = {"case": name, "notes": "; ".join(notes), "kind": kind, "options": options,
              "inputs": inputs, "stages": rec.stages}
    return result, rec.checks, final_diff, max_diff


# ----------------------------------------------------------------------------------------
# Output
# ----------------------------------------------------------------------------------------

def jarray(a):
    if a is None:
        return None
    a = a.detach().cpu().numpy() if isinstance(a, torch.Tensor) else np.asarray(a)
    a = a.astype(np.float32)
    if a.ndim == 1:
        return [jnum(v) for v in a]
    assert a.ndim == 2
    return [[jnum(v) for v in row] for row in a]


def write_case(result):
    name = result["case"]
    inputs = {k: (jarray(v) if isinstance(v, torch.Tensor) else v)
              for k, v in result["inputs"].items()}
    lines = ["{",
             '"case":' + dumps(name) + ",",
             '"notes":' + dumps(result["notes"]) + ",",
             '"kind":' + dumps(result["kind"]) + ",",
             '"options":' + dumps(result["options"]) + ",",
             '"inputs":' + dumps(inputs) + ",",
             '"stages":[']
    st = result["stages"]
    for i, s in enumerate(st):
        obj = {"id": s["id"], "layer": s["layer"], "block": s["block"], "head": s["head"],
               "data": jarray(s["data"])}
        if s["mean"] is not None:
            obj["mean"] = jarray(s["mean"])
            obj["variance"] = jarray(s["variance"])
        lines.append(dumps(obj) + ("," if i + 1 < len(st) else ""))
    lines += ["]", "}"]
    (OUT_DIR / f"{name}.json").write_text("\n".join(lines) + "\n", encoding="utf-8")


def main():
    torch.manual_seed(0)
    torch.use_deterministic_algorithms(True)
    torch.set_num_threads(1)
    torch.set_grad_enabled(True)  # parameters require grad -> PyTorch's reference path
    OUT_DIR.mkdir(parents=True, exist_ok=True)
    names = []
    for c in cases():
        result, checks, final_diff, max_diff = compute_case(c)
        write_case(result)
        names.append(c["case"])
        shapes = "n=%d" % c["n"] + (" m=%d" % c["m"] if "m" in c else "")
        print("%-20s %-14s d=%-2d h=%d d_ff=%-2d %-9s stages=%-4d forward diff %.3g, "
              "max check diff %.3g" % (c["case"], c["kind"], c["d"], c["h"], c["d_ff"],
                                       shapes, len(result["stages"]), final_diff, max_diff))
    (OUT_DIR / "cases.json").write_text(dumps(names) + "\n", encoding="utf-8")
    print("wrote %d cases to %s" % (len(names), os.path.relpath(OUT_DIR, REPO)))


if __name__ == "__main__":
    main()
