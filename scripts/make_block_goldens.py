#!/usr/bin/python3
"""Golden values for issue 30's typed blocks, from an independent PyTorch implementation.

Written from the papers and from the semantics of Hugging Face's modeling_llama.py and
modeling_qwen3.py (LlamaRMSNorm, LlamaMLP, rotate_half / apply_rotary_pos_emb, repeat_kv,
eager_attention_forward, Qwen3Attention's q_norm / k_norm), never from the C++ engine:

  * rms_norm:   y = x / sqrt(mean(x^2) + eps) * weight   (Zhang & Sennrich 2019; LlamaRMSNorm)
  * layer_norm: torch.nn.functional.layer_norm, for the same input (the other NormKind)
  * gated_ffn:  down(silu(gate(x)) * up(x))              (Shazeer 2020, SwiGLU; LlamaMLP)
  * attention:  grouped-query attention (Ainslie et al. 2023) with heads = 4, kv_heads = 2,
                head_dim = 4 while d_model = 5 (not d_model / heads), q/k/v biases (Qwen2),
                per-head RMS q/k norms before RoPE (Qwen3), RoPE in Hugging Face's half-split
                layout (rotate_half), a causal mask, scaling head_dim^-0.5, o_proj without bias.

How to run (from the repository root; Debian's python3-torch and python3-numpy):

    /usr/bin/python3 scripts/make_block_goldens.py

It writes tests/reference/blocks/blocks.json. Every input comes from torch.Generator seeds, every
number is computed in float64 and written with 9 significant digits; a re-run rewrites the file
byte for byte. Before writing, it checks (a wrong golden cannot be written):
  * repeat_kv gives query head h the KV head h // (heads / kv_heads) (a loop over heads);
  * the half-split rotation equals the interleaved one (pairs (2i, 2i+1)) after permuting the
    features so that i and i + d/2 become neighbours, and keeps every pair's norm;
  * each attention row sums to 1 and is 0 above the diagonal.
"""
import json
import math
from pathlib import Path

import torch

OUT = Path(__file__).resolve().parent.parent / "tests" / "reference" / "blocks" / "blocks.json"
torch.set_default_dtype(torch.float64)


def rand(gen, *shape, scale=1.0):
    return (torch.randn(*shape, generator=gen) * scale).to(torch.float32).to(torch.float64)


def rms_norm(x, weight, eps):
    variance = x.pow(2).mean(-1, keepdim=True)
    return x * torch.rsqrt(variance + eps) * weight, variance.squeeze(-1)


def rotate_half(x):
    half = x.shape[-1] // 2
    return torch.cat((-x[..., half:], x[..., :half]), dim=-1)


def rope_cos_sin(n, dim, base):
    inv_freq = 1.0 / (base ** (torch.arange(0, dim, 2, dtype=torch.float64) / dim))
    freqs = torch.outer(torch.arange(n, dtype=torch.float64), inv_freq)  # (n, dim/2)
    emb = torch.cat((freqs, freqs), dim=-1)
    return emb.cos(), emb.sin(), freqs


def rotate_interleaved(x, freqs):
    out = x.clone()
    c, s = freqs.cos(), freqs.sin()
    out[..., 0::2] = x[..., 0::2] * c - x[..., 1::2] * s
    out[..., 1::2] = x[..., 0::2] * s + x[..., 1::2] * c
    return out


def repeat_kv(h, n_rep):
    kv, s, d = h.shape
    return h[:, None, :, :].expand(kv, n_rep, s, d).reshape(kv * n_rep, s, d)


def rows(m):
    return [[float(f"{v:.9g}") for v in r] for r in m.tolist()]


def norm_cases():
    gen = torch.Generator().manual_seed(30)
    x = rand(gen, 4, 6, scale=2.0) + 0.5
    weight = rand(gen, 6) + 1.0
    bias = rand(gen, 6)
    eps = 1e-6
    y, ms = rms_norm(x, weight, eps)
    ln = torch.nn.functional.layer_norm(x, (6,), weight, bias, eps)
    mean, var = x.mean(-1), x.var(-1, unbiased=False)
    return {"x": rows(x), "weight": weight.tolist(), "bias": bias.tolist(), "eps": eps,
            "rms_output": rows(y), "rms_mean_square": ms.tolist(),
            "layer_output": rows(ln), "layer_mean": mean.tolist(), "layer_variance": var.tolist()}


def ffn_case():
    gen = torch.Generator().manual_seed(31)
    d, ff = 4, 6
    x = rand(gen, 3, d)
    w_gate, w_up, w_down = rand(gen, ff, d, scale=0.5), rand(gen, ff, d, scale=0.5), rand(gen, d, ff, scale=0.5)
    b_up, b_down = rand(gen, ff, scale=0.1), rand(gen, d, scale=0.1)
    gate = x @ w_gate.T
    up = x @ w_up.T + b_up
    hidden = torch.nn.functional.silu(gate) * up
    out = hidden @ w_down.T + b_down
    return {"x": rows(x), "w_gate": rows(w_gate), "w_up": rows(w_up), "b_up": b_up.tolist(), "w_down": rows(w_down),
            "b_down": b_down.tolist(), "gate": rows(gate), "up": rows(up), "hidden": rows(hidden), "output": rows(out)}


def attention_case():
    gen = torch.Generator().manual_seed(32)
    n, d, heads, kv_heads, hd, base, eps = 5, 5, 4, 2, 4, 10000.0, 1e-6
    x = rand(gen, n, d)
    wq, bq = rand(gen, heads * hd, d, scale=0.5), rand(gen, heads * hd, scale=0.1)
    wk, bk = rand(gen, kv_heads * hd, d, scale=0.5), rand(gen, kv_heads * hd, scale=0.1)
    wv, bv = rand(gen, kv_heads * hd, d, scale=0.5), rand(gen, kv_heads * hd, scale=0.1)
    wo = rand(gen, d, heads * hd, scale=0.5)
    q_norm, k_norm = rand(gen, hd) + 1.0, rand(gen, hd) + 1.0
    # Qwen3Attention: project, view per head, RMS-normalise each head over head_dim, then RoPE.
    q = (x @ wq.T + bq).view(n, heads, hd)
    k = (x @ wk.T + bk).view(n, kv_heads, hd)
    v = (x @ wv.T + bv).view(n, kv_heads, hd)
    q = rms_norm(q, q_norm, eps)[0].transpose(0, 1)  # (heads, n, hd)
    k = rms_norm(k, k_norm, eps)[0].transpose(0, 1)
    v = v.transpose(0, 1)
    cos, sin, freqs = rope_cos_sin(n, hd, base)
    q = q * cos + rotate_half(q) * sin
    k = k * cos + rotate_half(k) * sin
    # The half-split rotation is the interleaved one on permuted features.
    perm = [j for i in range(hd // 2) for j in (i, i + hd // 2)]
    qn = rms_norm((x @ wq.T + bq).view(n, heads, hd), q_norm, eps)[0].transpose(0, 1)
    assert torch.allclose(rotate_interleaved(qn[..., perm], freqs)[..., torch.argsort(torch.tensor(perm))], q, atol=1e-12)
    assert torch.allclose(q.norm(dim=-1), qn.norm(dim=-1), atol=1e-12)
    rep = heads // kv_heads
    k_all, v_all = repeat_kv(k, rep), repeat_kv(v, rep)
    for h in range(heads):
        assert torch.equal(k_all[h], k[h // rep]) and torch.equal(v_all[h], v[h // rep])
    scores = q @ k_all.transpose(1, 2) * hd ** -0.5
    causal = torch.triu(torch.ones(n, n, dtype=torch.bool), 1)
    weights = torch.softmax(scores.masked_fill(causal, -math.inf), dim=-1)
    assert torch.allclose(weights.sum(-1), torch.ones(heads, n)) and torch.all(weights[:, causal] == 0)
    head_out = weights @ v_all  # (heads, n, hd)
    concat = head_out.transpose(0, 1).reshape(n, heads * hd)
    out = concat @ wo.T
    return {"n": n, "d_model": d, "heads": heads, "kv_heads": kv_heads, "head_dim": hd, "rope_base": base, "eps": eps,
            "x": rows(x), "wq": rows(wq), "bq": bq.tolist(), "wk": rows(wk), "bk": bk.tolist(), "wv": rows(wv),
            "bv": bv.tolist(), "wo": rows(wo), "q_norm": q_norm.tolist(), "k_norm": k_norm.tolist(),
            "q_rotated": [rows(h) for h in q], "k_rotated": [rows(h) for h in k],
            "weights": [rows(h) for h in weights], "head_output": [rows(h) for h in head_out],
            "concat": rows(concat), "output": rows(out)}


def main():
    golden = {"norm": norm_cases(), "gated_ffn": ffn_case(), "attention": attention_case()}
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(golden, indent=1) + "\n")
    print("wrote", OUT)


if __name__ == "__main__":
    main()
