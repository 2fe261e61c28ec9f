#!/usr/bin/python3
"""Golden values for issue 14's position schemes, from an independent NumPy/PyTorch implementation.

Written from the definitions in issue 14 (section 1) and docs/engine.md (sections 4 and 6) alone,
never from the C++ engine: rope (Su et al.), alibi (Press et al.), relative (Shaw et al.) and xl
(Transformer-XL's segment memory with the relative decomposition (a) + (b) + (c) + (d)).
Every number is computed in float64 with NumPy; the attention of each scheme is recomputed a
second way (below) and must agree to 1e-10.

How to run (from the repository root; Debian's python3-numpy and python3-torch, hence
/usr/bin/python3):

    /usr/bin/python3 scripts/make_position_goldens.py

It writes tests/reference/position_schemes/<case>.json (one file per case, format in the README
there), cases.json (the list of case names) and shift_invariance.json. Every random draw comes
from numpy.random.default_rng with a fixed per-case seed, so a re-run rewrites every file byte
for byte. Numbers are written with 9 significant digits; -inf (and "not computed") is null.
The small helpers (JSON writing, the user's mask, the masked softmax) are issue 13's
(scripts/make_attention_kind_goldens.py).

What it asserts before writing anything (a wrong golden cannot be written):
  * every row of `weights` sums to 1 where the row has an allowed key and is all 0 (with a zero
    `head_output` row) where it has none; weights are 0 on cells that are not allowed;
  * rope: the relative property, rotate(q, m)·rotate(k, n) = rotate(q, m + s)·rotate(k, n + s)
    to 1e-9 for random q, k, m, n, s (both bases, d_k 8 and 16); the pairwise rotation equals
    two complex-number rotations (numpy complex and torch.view_as_complex); the attention after
    rotation equals torch's nn.MultiheadAttention on the rotated q and k;
  * alibi: the slopes of 8 heads are 1/2, 1/4, ..., 1/256, those of 1, 2, 4, 8, 16 heads are
    2^(-8h/H), 12 heads gives 8 heads' slopes then 2^-0.5, 2^-1.5, 2^-2.5, 2^-3.5; the bias
    matrix is shift-invariant; the whole block equals torch's nn.MultiheadAttention (the real
    input projections, the bias given as a float attn_mask, which torch adds after scaling);
  * relative: every |j - i| >= K uses the edge row of the tables; the vectorised version equals
    a loop-by-loop one; with K >= n it equals a version that indexes the tables without clipping;
  * xl: the segment loop equals a whole-input computation in torch (all n rows projected at once,
    (a)+(b)+(c)+(d) over n x n with i, j absolute) under a block mask built from the memory window
    (each segment's rows, cell by cell); with M = 0 and L = n it equals plain causal attention with
    the same scores;
  * shift_invariance.json: the score of one fixed (q, k) pair placed at (p, p + 3) is the same for
    every p with rope, alibi and relative (to 1e-9), and it varies with sinusoidal absolute
    positions.
"""

import json
import math
import sys
from pathlib import Path

import numpy as np
import torch

sys.path.insert(0, str(Path(__file__).resolve().parent))
from make_attention_kind_goldens import blocked_matrix, close, dump, masked_softmax, plain  # noqa: E402

OUT = Path(__file__).resolve().parent.parent / "tests" / "reference" / "position_schemes"
PARAM_KEYS = ("rope_base", "max_distance", "segment", "memory")
SHIFT_OFFSET = 3


# ---------------------------------------------------------------- the block

def draw_block(rng, n, d):
    """x, in_proj_weight, in_proj_bias, out_proj_weight, out_proj_bias (in this order)."""
    return {"x": rng.standard_normal((n, d)),
            "in_proj_weight": rng.standard_normal((3 * d, d)) / math.sqrt(d),
            "in_proj_bias": rng.standard_normal(3 * d) * 0.1,
            "out_proj_weight": rng.standard_normal((d, d)) / math.sqrt(d),
            "out_proj_bias": rng.standard_normal(d) * 0.1}


def project(x, blk, heads):
    """Q, K, V of rows x as [heads][rows][d_k]; head h takes columns h*d_k .. (h+1)*d_k - 1."""
    d = x.shape[1]
    full = x @ blk["in_proj_weight"].T + blk["in_proj_bias"]
    split = lambda m: np.stack(np.split(m, heads, axis=1))
    return split(full[:, :d]), split(full[:, d:2 * d]), split(full[:, 2 * d:])


def sinusoid(positions, d):
    """docs/engine.md section 4 at any (also negative) position: [.., 2i] sin, [.., 2i+1] cos."""
    pos = np.asarray(positions, dtype=np.float64)[..., None]
    i = np.arange((d + 1) // 2)
    angle = pos / 10000.0 ** (2 * i / d)
    out = np.empty(pos.shape[:-1] + (d,))
    out[..., 0::2] = np.sin(angle)
    out[..., 1::2] = np.cos(angle)[..., :d // 2]
    return out


def additive(allowed):
    return np.where(allowed == 1, 0.0, np.nan)


def softmax_rows(z, allowed):
    """Row softmax of z over the allowed cells (masked_softmax), also for non-square blocks."""
    return masked_softmax(np.where(allowed == 1, z, 0.0), allowed)


def check_rows(weights, allowed, head_output):
    for h, w in enumerate(weights):
        for i in range(w.shape[0]):
            if allowed[i].any():
                assert abs(w[i].sum() - 1) < 1e-12, ("row sum", h, i)
                assert np.all(w[i][allowed[i] == 0] == 0), ("weight off pattern", h, i)
            else:
                assert np.all(w[i] == 0) and np.all(head_output[h][i] == 0), ("empty row", h, i)


def finish(st, blk):
    st["concat"] = np.concatenate(list(st["head_output"]), axis=1)
    st["output"] = st["concat"] @ blk["out_proj_weight"].T + blk["out_proj_bias"]


def torch_mha(xq, xkv, blk, heads, float_mask, identity_in=False):
    """nn.MultiheadAttention (float64) with the case's out_proj and a float attn_mask
    [heads][n][n] added after scaling; identity_in: xq, xkv are already Q and K|V."""
    d = xq.shape[-1]
    mha = torch.nn.MultiheadAttention(d, heads, batch_first=True).double()
    with torch.no_grad():
        if identity_in:
            mha.in_proj_weight.copy_(torch.cat([torch.eye(d, dtype=torch.float64)] * 3))
            mha.in_proj_bias.zero_()
        else:
            mha.in_proj_weight.copy_(torch.from_numpy(blk["in_proj_weight"]))
            mha.in_proj_bias.copy_(torch.from_numpy(blk["in_proj_bias"]))
        mha.out_proj.weight.copy_(torch.from_numpy(blk["out_proj_weight"]))
        mha.out_proj.bias.copy_(torch.from_numpy(blk["out_proj_bias"]))
    t = lambda a: torch.from_numpy(np.ascontiguousarray(a))[None]
    xk, xv = xkv if identity_in else (xkv, xkv)
    out, w = mha(t(xq), t(xk), t(xv), attn_mask=torch.from_numpy(float_mask),
                 need_weights=True, average_attn_weights=False)
    return out[0].detach().numpy(), w[0].detach().numpy()


def check_with_torch(st, allowed, torch_out, torch_w):
    live = allowed.any(axis=1)  # torch gives NaN on a row with no allowed key
    assert close(torch_out[live], st["output"][live]), "output differs from torch"
    assert close(torch_w[:, live], np.array(st["weights"])[:, live]), "weights differ from torch"


def softmax_stages(st, scores, div, bias, allowed, v):
    """scores -> scaled -> masked_scores (= scaled + bias + mask) -> weights -> head_output."""
    st["scores"], st["scaled"] = scores, [s / div for s in scores]
    st["mask"] = additive(allowed)
    total = [s + b for s, b in zip(st["scaled"], bias)]
    st["masked_scores"] = [t + st["mask"] for t in total]
    st["weights"] = [softmax_rows(t, allowed) for t in total]
    st["head_output"] = [w @ vh for w, vh in zip(st["weights"], v)]
    return total


# ---------------------------------------------------------------- rope

def rope_angles(positions, d_k, base):
    """theta_{pos,i} = pos / base^(2i/d_k), i = 0 .. d_k/2 - 1."""
    i = np.arange(d_k // 2)
    return np.asarray(positions, dtype=np.float64)[:, None] / float(base) ** (2 * i / d_k)


def rotate(x, angles):
    """(x_2i, x_2i+1) -> (x_2i cos - x_2i+1 sin, x_2i sin + x_2i+1 cos), row r by angles[r]."""
    c, s = np.cos(angles), np.sin(angles)
    out = np.empty_like(x)
    out[..., 0::2] = x[..., 0::2] * c - x[..., 1::2] * s
    out[..., 1::2] = x[..., 0::2] * s + x[..., 1::2] * c
    return out


def rotate_numpy_complex(x, angles):
    z = (x[..., 0::2] + 1j * x[..., 1::2]) * np.exp(1j * angles)
    return np.stack([z.real, z.imag], axis=-1).reshape(x.shape)


def rotate_torch_complex(x, angles):
    t = torch.from_numpy(np.ascontiguousarray(x)).reshape(*x.shape[:-1], -1, 2)
    a = torch.from_numpy(angles)
    z = torch.view_as_complex(t.contiguous()) * torch.polar(torch.ones_like(a), a)
    return torch.view_as_real(z).reshape(x.shape).numpy()


def check_rope_properties():
    assert abs(rope_angles([1], 8, 10000)[0, 1] - 0.1) < 1e-15, "rope angle by hand: 1 / 10000^(2/8)"
    assert close(sinusoid([1], 4)[0], [math.sin(1), math.cos(1), math.sin(0.01), math.cos(0.01)], 1e-15)
    rng = np.random.default_rng(1409)
    for base in (10000, 500):
        for d_k in (8, 16):
            for _ in range(200):
                q, k = rng.standard_normal(d_k), rng.standard_normal(d_k)
                m, n, s = (int(t) for t in rng.integers(0, 600, size=3))
                ang = rope_angles([m, n, m + s, n + s], d_k, base)
                near = rotate(q, ang[0]) @ rotate(k, ang[1])
                far = rotate(q, ang[2]) @ rotate(k, ang[3])
                assert abs(near - far) < 1e-9, ("rope relative property", base, d_k, m, n, s)
            ang = rope_angles(range(5), d_k, base)
            for pos in range(5):
                for i in range(d_k // 2):
                    assert abs(ang[pos, i] - pos / base ** (2 * i / d_k)) <= 1e-15 * pos, "rope angle"
            x = rng.standard_normal((3, 20, d_k))
            ang = rope_angles(range(20), d_k, base)
            assert close(rotate(x, ang), rotate_numpy_complex(x, ang), 1e-12), "rope: numpy complex"
            assert close(rotate(x, ang), rotate_torch_complex(x, ang), 1e-12), "rope: torch complex"


def rope_case(c, blk, q, k, v, allowed, div):
    ang = rope_angles(range(c["n"]), c["d_k"], c["params"]["rope_base"])
    qr, kr = rotate(q, ang), rotate(k, ang)
    st = {"rope_angles": ang, "q": q, "k": k, "v": v, "q_rotated": qr, "k_rotated": kr}
    zero = [np.zeros_like(allowed, dtype=np.float64)] * c["heads"]
    softmax_stages(st, [a @ b.T for a, b in zip(qr, kr)], div, zero, allowed, v)
    finish(st, blk)
    cat = lambda t: np.concatenate(list(t), axis=1)
    mask = np.stack([additive(allowed)] * c["heads"])
    mask[np.isnan(mask)] = -np.inf
    # identity in-projections: torch scales q by 1/sqrt(d_k) itself
    out, w = torch_mha(cat(qr), (cat(kr), cat(v)), blk, c["heads"], mask, identity_in=True)
    check_with_torch(st, allowed, out, w)
    return st


# ---------------------------------------------------------------- alibi

def alibi_slopes(heads):
    """The ALiBi paper's reference get_slopes (Press et al., attention_with_linear_biases):
    a geometric sequence from 2^(-8/H) for H a power of two; otherwise the slopes of the closest
    power of two below H, then every other slope of twice that power, as many as are missing."""
    def power_of_two(h):
        start = 2.0 ** (-2.0 ** -(math.log2(h) - 3))
        return [start * start ** i for i in range(h)]
    if math.log2(heads).is_integer():
        return power_of_two(heads)
    closest = 2 ** math.floor(math.log2(heads))
    return power_of_two(closest) + alibi_slopes(2 * closest)[0::2][:heads - closest]


def alibi_bias(n, slope):
    i, j = np.indices((n, n))
    return -slope * np.abs(i - j).astype(np.float64)


def check_alibi_properties():
    assert alibi_slopes(8) == [0.5 ** (h + 1) for h in range(8)], "alibi: 8 heads"
    for heads in (1, 2, 4, 8, 16):
        assert close(alibi_slopes(heads), [2.0 ** (-8.0 * h / heads) for h in range(1, heads + 1)], 1e-15)
    assert close(alibi_slopes(12), alibi_slopes(8) + [2 ** -0.5, 2 ** -1.5, 2 ** -2.5, 2 ** -3.5], 1e-15)
    for m in alibi_slopes(12):  # the wording, cell by cell
        loops = [[-m * (i - j) if j <= i else -m * (j - i) for j in range(7)] for i in range(7)]
        assert close(alibi_bias(7, m), loops, 0.0), "alibi bias"
    big = alibi_bias(30, 0.25)
    for s in range(1, 20):
        assert np.array_equal(big[s:s + 10, s:s + 10], big[:10, :10]), "alibi bias not shift-invariant"


def alibi_case(c, blk, q, k, v, allowed, div):
    slopes = alibi_slopes(c["heads"])
    c["slopes"] = slopes
    bias = [alibi_bias(c["n"], m) for m in slopes]
    st = {"q": q, "k": k, "v": v, "position_bias": bias}
    softmax_stages(st, [a @ b.T for a, b in zip(q, k)], div, bias, allowed, v)
    finish(st, blk)
    mask = np.stack(bias) + np.where(allowed == 1, 0.0, -np.inf)
    out, w = torch_mha(blk["x"], blk["x"], blk, c["heads"], mask)
    check_with_torch(st, allowed, out, w)
    return st


# ---------------------------------------------------------------- relative (Shaw)

def relative_index(n, big_k):
    i, j = np.indices((n, n))
    return np.clip(j - i, -big_k, big_k) + big_k  # row r of a table holds distance r - K


def relative_by_loops(q, k, v, ak, av, big_k, allowed, div, clip=True):
    """e_ij = (q_i.k_j + q_i.a^K_{clip(j-i)}) / div, z_i = sum_j a_ij (v_j + a^V_{clip(j-i)}),
    one cell at a time; clip=False indexes the tables by j - i + K directly (needs K >= n - 1)."""
    heads, n, _ = q.shape
    pos, out = np.zeros((heads, n, n)), np.zeros_like(q)
    for h in range(heads):
        for i in range(n):
            e = np.full(n, -np.inf)
            for j in range(n):
                r = (min(max(j - i, -big_k), big_k) if clip else j - i) + big_k
                assert 0 <= r <= 2 * big_k
                pos[h, i, j] = q[h, i] @ ak[r]
                if allowed[i, j]:
                    e[j] = (q[h, i] @ k[h, j] + pos[h, i, j]) / div
            if np.isfinite(e).any():
                a = np.exp(e - e.max())
                a /= a.sum()
                for j in range(n):
                    r = (min(max(j - i, -big_k), big_k) if clip else j - i) + big_k
                    out[h, i] += a[j] * (v[h, j] + av[r])
    return pos, out


def relative_case(c, blk, q, k, v, allowed, div):
    big_k, n = c["params"]["max_distance"], c["n"]
    ak, av = c["tables"]["relative_keys"], c["tables"]["relative_values"]
    idx = relative_index(n, big_k)
    far = np.abs(np.subtract.outer(np.arange(n), np.arange(n))) >= big_k
    upper = np.greater.outer(np.arange(n), np.arange(n)).T  # j > i
    assert np.all(idx[far & upper] == 2 * big_k) and np.all(idx[far & ~upper] == 0), "clipping"
    st = {"q": q, "k": k, "v": v, "relative_keys": ak, "relative_values": av,
          "position_scores": [np.einsum("id,ijd->ij", qh, ak[idx]) for qh in q]}
    softmax_stages(st, [a @ b.T + p for a, b, p in zip(q, k, st["position_scores"])], div,
                   [np.zeros((n, n))] * c["heads"], allowed, v)
    st["head_output"] = [ho + np.einsum("ij,ijd->id", w, av[idx]) for ho, w in zip(st["head_output"], st["weights"])]
    for h in range(c["heads"]):
        for i, j in zip(*np.nonzero(far)):
            edge = ak[2 * big_k] if j > i else ak[0]
            assert abs(st["position_scores"][h][i, j] - q[h, i] @ edge) < 1e-12, "edge row not used"
    pos, out = relative_by_loops(q, k, v, ak, av, big_k, allowed, div)
    assert close(pos, st["position_scores"]) and close(out, st["head_output"]), "relative: loops"
    if big_k >= n:
        pos, out = relative_by_loops(q, k, v, ak, av, big_k, allowed, div, clip=False)
        assert close(pos, st["position_scores"]) and close(out, st["head_output"]), "relative: unclipped"
    finish(st, blk)
    return st


# ---------------------------------------------------------------- xl (Transformer-XL)

def xl_terms(q, k, qpos, kpos, t, h, d):
    """(a) q_i.k_j, (b) q_i.W_R R_{i-j}, (c) u.k_j, (d) v.W_R R_{i-j} for one head."""
    rk = sinusoid(np.subtract.outer(qpos, kpos), d) @ t["xl_w_r"][h].T  # [rows][keys][d_k]
    a = q @ k.T
    b = np.einsum("id,ijd->ij", q, rk)
    cc = np.broadcast_to(k @ t["xl_u"][h], a.shape).copy()
    dd = rk @ t["xl_v"][h]
    return a, b, cc, dd


def xl_segments(c, blk, div):
    """The segment loop: segment tau = rows [s, s + L), memory = the last min(M, s) rows of x
    before s; keys [memory; segment] at their absolute positions; causal plus padding keys."""
    x, heads, n, d = blk["x"], c["heads"], c["n"], c["d_model"]
    big_l, big_m = c["params"]["segment"], c["params"]["memory"]
    pad = np.zeros(n, dtype=bool)
    pad[c["padding"]] = True
    segs = []
    for tau, s in enumerate(range(0, n, big_l)):
        e, m = min(s + big_l, n), min(big_m, s)
        qpos, kpos = np.arange(s, e), np.arange(s - m, e)
        q = project(x[s:e], blk, heads)[0]
        _, k, v = project(x[s - m:e], blk, heads)
        allowed = ((kpos[None, :] <= qpos[:, None]) & ~pad[kpos][None, :]).astype(np.int64)
        sg = {"segment": tau, "query_positions": qpos, "key_positions": kpos, "memory": x[s - m:s],
              "q": q, "k": k, "v": v}
        terms = [xl_terms(q[h], k[h], qpos, kpos, c["tables"], h, d) for h in range(heads)]
        for name, idx in (("content_scores", 0), ("position_scores", 1), ("content_bias", 2), ("position_bias", 3)):
            sg[name] = [t[idx] for t in terms]
        softmax_stages(sg, [sum(t) for t in terms], div, [np.zeros(allowed.shape)] * heads, allowed, v)
        check_rows(sg["weights"], allowed, sg["head_output"])
        sg["_allowed"] = allowed
        segs.append(sg)
    return segs


def xl_whole_torch(c, blk, allowed, div):
    """Second construction: every row projected at once, (a)+(b)+(c)+(d) over n x n with the
    sinusoid written again in torch, one block mask; returns (scores, weights, concat)."""
    heads, n, d = c["heads"], c["n"], c["d_model"]
    d_k = d // heads
    x = torch.from_numpy(blk["x"])
    qkv = x @ torch.from_numpy(blk["in_proj_weight"]).T + torch.from_numpy(blk["in_proj_bias"])
    qh, kh, vh = (qkv[:, p * d:(p + 1) * d].reshape(n, heads, d_k).transpose(0, 1) for p in range(3))
    pos = torch.arange(n, dtype=torch.float64)
    delta = pos[:, None] - pos[None, :]
    freq = torch.pow(torch.tensor(10000.0, dtype=torch.float64), -torch.arange(0, d, 2, dtype=torch.float64) / d)
    ang = delta[..., None] * freq
    r = torch.stack([torch.sin(ang), torch.cos(ang)], dim=-1).reshape(n, n, d)  # interleaved
    w_r = torch.from_numpy(c["tables"]["xl_w_r"])
    u, vv = torch.from_numpy(c["tables"]["xl_u"]), torch.from_numpy(c["tables"]["xl_v"])
    rk = torch.einsum("ijm,hdm->hijd", r, w_r)
    scores = (qh @ kh.transpose(1, 2) + torch.einsum("hid,hijd->hij", qh, rk)
              + (kh @ u[:, :, None]).transpose(1, 2) + torch.einsum("hd,hijd->hij", vv, rk))
    keep = torch.from_numpy(allowed.astype(bool))
    w = torch.softmax((scores / div).masked_fill(~keep, float("-inf")), dim=-1).nan_to_num(0.0)
    concat = (w @ vh).transpose(0, 1).reshape(n, d)
    return scores.numpy(), w.numpy(), concat.numpy()


def xl_window_by_loops(n, big_l, big_m, padding):
    """Query i (segment start s = L*floor(i/L)) sees key j iff s - min(M, s) <= j <= i, j not padding."""
    out = np.zeros((n, n), dtype=np.int64)
    for i in range(n):
        s = (i // big_l) * big_l
        for j in range(n):
            out[i, j] = int(s - min(big_m, s) <= j <= i and j not in padding)
    return out


def xl_case(c, blk, div):
    n, heads = c["n"], c["heads"]
    segs = xl_segments(c, blk, div)
    st = {"xl_w_r": c["tables"]["xl_w_r"], "xl_u": c["tables"]["xl_u"], "xl_v": c["tables"]["xl_v"],
          "segments": segs,
          "head_output": [np.concatenate([sg["head_output"][h] for sg in segs]) for h in range(heads)]}
    finish(st, blk)
    del st["head_output"]
    window = xl_window_by_loops(n, c["params"]["segment"], c["params"]["memory"], c["padding"])
    scores, w, concat = xl_whole_torch(c, blk, window, div)
    assert close(concat, st["concat"]), "xl: segment loop != whole input with the window mask"
    for sg in segs:
        qp, kp = sg["query_positions"], sg["key_positions"]
        assert np.array_equal(window[np.ix_(qp, kp)], sg["_allowed"]), "xl: window"
        assert window[qp].sum() == sg["_allowed"].sum(), "xl: a key outside [memory; segment]"
        for h in range(heads):
            assert close(scores[h][np.ix_(qp, kp)], sg["scores"][h]) and close(w[h][np.ix_(qp, kp)], sg["weights"][h])
        del sg["_allowed"]
    if c["params"]["memory"] == 0 and c["params"]["segment"] >= n:
        causal = (1 - blocked_matrix(n, c["mask"], c["padding"]))
        _, w_c, concat_c = xl_whole_torch(c, blk, causal, div)
        assert close(concat_c, st["concat"]) and close(w_c, segs[0]["weights"]), "xl: M = 0, L = n != causal"
    return st


# ---------------------------------------------------------------- one case

def make_case(name, scheme, seed, n=10, d_k=4, heads=2, mask="none", padding=(), **params):
    rng = np.random.default_rng(seed)
    p = {key: 0 for key in PARAM_KEYS}
    p.update(params)
    d = heads * d_k
    c = {"case": name, "scheme": scheme, "params": p, "n": n, "d_model": d, "d_k": d_k, "heads": heads,
         "scale": True, "mask": mask, "padding": list(padding)}
    blocked = blocked_matrix(n, mask, list(padding))
    blk = draw_block(rng, n, d)
    tables = {}
    if scheme == "relative":
        tables["relative_keys"] = rng.standard_normal((2 * p["max_distance"] + 1, d_k))
        tables["relative_values"] = rng.standard_normal((2 * p["max_distance"] + 1, d_k))
    elif scheme == "xl":
        tables["xl_w_r"] = rng.standard_normal((heads, d_k, d)) / math.sqrt(d)
        tables["xl_u"] = rng.standard_normal((heads, d_k))
        tables["xl_v"] = rng.standard_normal((heads, d_k))
    c.update({"blocked": blocked, "tables": tables}, **blk)
    div = math.sqrt(d_k)
    if scheme == "xl":
        c["stages"] = xl_case(c, blk, div)
        return c
    q, k, v = project(blk["x"], blk, heads)
    allowed = 1 - blocked
    st = {"rope": rope_case, "alibi": alibi_case, "relative": relative_case}[scheme](c, blk, q, k, v, allowed, div)
    check_rows(st["weights"], allowed, st["head_output"])
    c["stages"] = st
    return c


PAD2 = (8, 9)
CASES = [
    dict(name="rope_b10000_dk8_none", scheme="rope", seed=1401, d_k=8, rope_base=10000),
    dict(name="rope_b10000_dk16_causal", scheme="rope", seed=1402, d_k=16, rope_base=10000, mask="causal"),
    dict(name="rope_b500_dk8_causal", scheme="rope", seed=1403, d_k=8, rope_base=500, mask="causal"),
    dict(name="rope_b500_dk16_none", scheme="rope", seed=1404, d_k=16, rope_base=500),
    dict(name="rope_b10000_dk8_causal_padding", scheme="rope", seed=1405, d_k=8, rope_base=10000,
         mask="causal+padding", padding=PAD2),
    dict(name="alibi_h4_none", scheme="alibi", seed=1411, heads=4),
    dict(name="alibi_h8_causal", scheme="alibi", seed=1412, heads=8, mask="causal"),
    dict(name="alibi_h12_causal", scheme="alibi", seed=1413, heads=12, n=8, mask="causal"),
    dict(name="alibi_h4_padding", scheme="alibi", seed=1414, heads=4, mask="padding", padding=PAD2),
    dict(name="relative_k1_none", scheme="relative", seed=1421, max_distance=1),
    dict(name="relative_k2_causal", scheme="relative", seed=1422, max_distance=2, mask="causal"),
    dict(name="relative_k2_padding", scheme="relative", seed=1423, max_distance=2, mask="padding", padding=PAD2),
    dict(name="relative_k12_none", scheme="relative", seed=1424, max_distance=12),
    dict(name="relative_k10_causal", scheme="relative", seed=1425, max_distance=10, mask="causal"),
    dict(name="xl_n9_l3_m3", scheme="xl", seed=1431, n=9, segment=3, memory=3, mask="causal"),
    dict(name="xl_n9_l3_m2", scheme="xl", seed=1432, n=9, segment=3, memory=2, mask="causal"),
    dict(name="xl_n9_l3_m0", scheme="xl", seed=1433, n=9, segment=3, memory=0, mask="causal"),
    dict(name="xl_n8_l3_m3", scheme="xl", seed=1434, n=8, segment=3, memory=3, mask="causal"),
    dict(name="xl_n9_l3_m5", scheme="xl", seed=1435, n=9, segment=3, memory=5, mask="causal"),
    dict(name="xl_n9_l3_m3_padding", scheme="xl", seed=1436, n=9, segment=3, memory=3,
         mask="causal+padding", padding=(2, 8)),
    dict(name="xl_n6_l6_m0", scheme="xl", seed=1437, n=6, segment=6, memory=0, mask="causal"),
]


def case_specific_checks(c):
    name, st = c["case"], c["stages"]
    if c["scheme"] == "xl":
        segs, big_l = st["segments"], c["params"]["segment"]
        assert len(segs) == -(-c["n"] // big_l)
        assert [len(sg["memory"]) for sg in segs] == [min(c["params"]["memory"], s) for s in range(0, c["n"], big_l)]
    if name == "xl_n9_l3_m3":
        assert len(st["segments"]) == 3 and all(len(sg["memory"]) == 3 for sg in st["segments"][1:])
    if name == "xl_n9_l3_m5":  # memory reaches back past the previous segment
        assert [len(sg["memory"]) for sg in st["segments"]] == [0, 3, 5]
    if name == "xl_n8_l3_m3":
        assert len(st["segments"][-1]["q"][0]) == 2, "last segment should have 2 tokens"
    if name == "relative_k1_none":
        assert np.any(relative_index(c["n"], 1) == 0) and np.any(relative_index(c["n"], 1) == 2)


# ---------------------------------------------------------------- shift invariance

def shift_invariance():
    """One seeded block; a fixed (q, k) token pair placed at positions (p, p + 3)."""
    rng = np.random.default_rng(1490)
    heads, d_k, big_k, base = 2, 8, 4, 10000
    d = heads * d_k
    blk = draw_block(rng, 1, d)
    del blk["x"], blk["out_proj_weight"], blk["out_proj_bias"]
    tok_q, tok_k = rng.standard_normal(d), rng.standard_normal(d)
    ak = rng.standard_normal((2 * big_k + 1, d_k))
    slopes = alibi_slopes(heads)
    div = math.sqrt(d_k)
    q, k, _ = project(np.stack([tok_q, tok_k]), blk, heads)  # [heads][2][d_k]
    lengths = []
    for n in (64, 512):
        ps = np.arange(n - SHIFT_OFFSET)
        ang_q, ang_k = rope_angles(ps, d_k, base), rope_angles(ps + SHIFT_OFFSET, d_k, base)
        idx = relative_index(n, big_k)[ps, ps + SHIFT_OFFSET]
        pe_q, pe_k = sinusoid(ps, d), sinusoid(ps + SHIFT_OFFSET, d)
        qa, _, _ = project(tok_q + pe_q, blk, heads)
        _, kb, _ = project(tok_k + pe_k, blk, heads)
        along = lambda vec: np.tile(vec, (len(ps), 1))
        sc = {"rope": [np.sum(rotate(along(q[h, 0]), ang_q) * rotate(along(k[h, 1]), ang_k), axis=1) / div
                       for h in range(heads)],
              "alibi": [np.full(len(ps), q[h, 0] @ k[h, 1] / div) + alibi_bias(n, slopes[h])[ps, ps + SHIFT_OFFSET]
                        for h in range(heads)],
              "relative": [(q[h, 0] @ k[h, 1] + ak[idx] @ q[h, 0]) / div for h in range(heads)],
              "sinusoidal": [np.sum(qa[h] * kb[h], axis=1) / div for h in range(heads)]}
        lengths.append({"n": n, "positions": ps, "scores": sc})
    spread = {}
    for scheme in ("rope", "alibi", "relative", "sinusoidal"):
        allv = np.concatenate([np.concatenate(ln["scores"][scheme]) for ln in lengths]).reshape(-1)
        per_head = [np.ptp(np.concatenate([ln["scores"][scheme][h] for ln in lengths])) for h in range(heads)]
        spread[scheme] = per_head
        print(f"shift invariance, {scheme}: spread per head {', '.join(f'{s:.3g}' for s in per_head)}"
              f" (scores {allv.min():.4f} .. {allv.max():.4f})")
        if scheme != "sinusoidal":
            assert max(per_head) < 1e-9, f"{scheme} scores change with absolute position"
    assert min(spread["sinusoidal"]) > 0.5, "sinusoidal scores should vary with absolute position"
    return {"case": "shift_invariance", "offset": SHIFT_OFFSET, "heads": heads, "d_k": d_k, "d_model": d,
            "rope_base": base, "max_distance": big_k, "slopes": slopes, "token_q": tok_q, "token_k": tok_k,
            "in_proj_weight": blk["in_proj_weight"], "in_proj_bias": blk["in_proj_bias"],
            "relative_keys": ak, "lengths": lengths, "spread": spread}


# ---------------------------------------------------------------- writing

ORDER = ("case", "scheme", "params", "n", "d_model", "d_k", "heads", "scale", "mask", "padding", "blocked",
         "x", "in_proj_weight", "in_proj_bias", "out_proj_weight", "out_proj_bias", "tables", "slopes", "stages")


def main():
    check_rope_properties()
    check_alibi_properties()
    OUT.mkdir(parents=True, exist_ok=True)
    names, files = [], {}
    for spec in CASES:
        spec = dict(spec)
        c = make_case(spec.pop("name"), spec.pop("scheme"), spec.pop("seed"), **spec)
        case_specific_checks(c)
        files[c["case"] + ".json"] = {key: c[key] for key in ORDER if key in c}
        names.append(c["case"])
    files["shift_invariance.json"] = shift_invariance()
    files["cases.json"] = names
    total = 0
    for fname, obj in files.items():
        text = dump(plain(obj)) + "\n"
        json.loads(text)
        (OUT / fname).write_text(text)
        total += len(text)
    print(f"wrote {len(files)} files, {total} bytes, to {OUT}")


if __name__ == "__main__":
    main()
