#!/usr/bin/python3
"""Golden values for FlashAttention (issue 28, section 7), from an independent NumPy/PyTorch implementation.

Written from Algorithm 1 of Dao et al. 2022, "FlashAttention: Fast and Memory-Efficient Exact
Attention with IO-Awareness" (the online softmax of Milakov & Gimelshein 2018), never from the
C++ engine. For each key block j (outer loop, as in Algorithm 1) and each query block i (inner
loop), with S_ij = tau * Q_i K_j^T and the user's mask as -inf:

    m~ = rowmax(S_ij),  P~ = exp(S_ij - m~),  l~ = rowsum(P~)
    m_new = max(m_i, m~),  l_new = e^(m_i - m_new) l_i + e^(m~ - m_new) l~
    O_i <- diag(l_new)^-1 (diag(l_i) e^(m_i - m_new) O_i + e^(m~ - m_new) P~ V_j)
    l_i <- l_new,  m_i <- m_new

starting from m = -inf, l = 0, O = 0. A row whose cells of a tile are all hidden keeps its m, l
and O (Algorithm 1 would compute exp(-inf - (-inf)) there), and a tile whose cells are all
hidden is skipped. Every number is float64.

How to run (from the repository root; Debian's python3-numpy and python3-torch, hence
/usr/bin/python3):

    /usr/bin/python3 scripts/make_flash_goldens.py

It writes tests/reference/flash/<case>.json and cases.json (format in the README there). Every
draw comes from numpy.random.default_rng with a fixed per-case seed, so a re-run rewrites every
file byte for byte. Numbers have 9 significant digits; -inf is null.

What it asserts before writing anything:
  * the output after the last key block equals softmax attention computed whole with PyTorch
    (torch.softmax of the masked scores, times V) to 1e-10, and the output through W_O equals
    torch.nn.functional.multi_head_attention_forward's (identity input projections);
  * after each key block t, O equals softmax attention over the visible keys of blocks 0..t
    (computed whole), l equals the sum of exp(s - m) over them and m their largest score;
  * some row's maximum rises in a later key block (so the rescaling is exercised), and in the
    case whose first key block is all padding, m stays -inf (null) after that block;
  * the tiles' numbers: one per tile computed, in query-block-then-key-block order (the
    order the engine walks them; Algorithm 1 nests the loops the other way, which changes no
    m, l or O), 0 on hidden cells and on skipped tiles.
"""

import json
import math
from pathlib import Path

import numpy as np
import torch

from make_attention_kind_goldens import dump, plain  # the same JSON layout as the other kinds

OUT = Path(__file__).resolve().parent.parent / "tests" / "reference" / "flash"
INPUT_SCALE = 1.5

CASES = [
    # n = 10 is not a multiple of 4: the last query block and the last key block have 2 rows.
    dict(name="flash_b4x4", seed=2801, n=10, d_k=4, heads=2, query_block=4, key_block=4, mask="none", padding=()),
    dict(name="flash_b3x4_causal_padding", seed=2802, n=10, d_k=4, heads=2, query_block=3, key_block=4,
         mask="causal+padding", padding=(8, 9)),
    # The first key block is all padding: its tiles are skipped and m stays -inf after it.
    dict(name="flash_b4x4_padding_first", seed=2803, n=9, d_k=4, heads=2, query_block=4, key_block=4,
         mask="padding", padding=(0, 1, 2, 3)),
    dict(name="flash_b2x3_unscaled", seed=2804, n=7, d_k=2, heads=1, query_block=2, key_block=3, mask="causal",
         padding=(), scale=False),
]


def blocked_matrix(n, mask, padding):
    """The user's mask: 1 = key j hidden from query i."""
    b = np.zeros((n, n), dtype=np.int64)
    if "causal" in mask:
        b |= np.triu(np.ones((n, n), dtype=np.int64), 1)
    if "padding" in mask:
        b[:, list(padding)] = 1
    return b


def algorithm1(q, k, v, blocked, tau, br, bc):
    """Algorithm 1, one head: the final O, m, l, and m, l, O after every key block."""
    n_q, d = q.shape
    n_k = k.shape[0]
    tr, tc = math.ceil(n_q / br), math.ceil(n_k / bc)
    o = np.zeros((n_q, d))
    l = np.zeros(n_q)
    m = np.full(n_q, -np.inf)
    run_m = np.zeros((n_q, tc))
    run_l = np.zeros((n_q, tc))
    run_o = np.zeros((n_q, tc * d))
    for j in range(tc):                        # outer loop: key blocks K_j, V_j
        cols = slice(j * bc, min(n_k, (j + 1) * bc))
        for i in range(tr):                    # inner loop: query blocks Q_i, O_i, l_i, m_i
            rows = slice(i * br, min(n_q, (i + 1) * br))
            hidden = blocked[rows, cols].astype(bool)
            if not hidden.all():
                s = tau * q[rows] @ k[cols].T
                s[hidden] = -np.inf
                for r in range(s.shape[0]):
                    row = rows.start + r
                    if np.all(hidden[r]):
                        continue
                    m_t = s[r].max()
                    p_t = np.exp(s[r] - m_t)
                    l_t = p_t.sum()
                    m_new = max(m[row], m_t)
                    l_new = math.exp(m[row] - m_new) * l[row] + math.exp(m_t - m_new) * l_t
                    o[row] = (l[row] * math.exp(m[row] - m_new) * o[row] + math.exp(m_t - m_new) * (p_t @ v[cols])) / l_new
                    l[row] = l_new
                    m[row] = m_new
            run_m[rows, j] = m[rows]
            run_l[rows, j] = l[rows]
            run_o[rows, j * d:(j + 1) * d] = o[rows]
    return o, m, l, run_m, run_l, run_o


def tile_numbers(blocked, br, bc):
    n_q, n_k = blocked.shape
    t = np.zeros((n_q, n_k))
    number = 0
    for i in range(math.ceil(n_q / br)):
        for j in range(math.ceil(n_k / bc)):
            rows = slice(i * br, min(n_q, (i + 1) * br))
            cols = slice(j * bc, min(n_k, (j + 1) * bc))
            if blocked[rows, cols].all():
                continue
            number += 1
            t[rows, cols] = np.where(blocked[rows, cols] == 1, 0, number)
    return t


def close(a, b, tol=1e-10):
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    same_inf = (np.isinf(a) & np.isinf(b) & (np.sign(a) == np.sign(b)))
    diff = np.where(same_inf, 0.0, np.abs(np.where(same_inf, 0, a) - np.where(same_inf, 0, b)))
    assert diff.max() <= tol, f"largest difference {diff.max()}"


def torch_softmax_attention(q, k, v, blocked, tau):
    s = tau * torch.from_numpy(q) @ torch.from_numpy(k).T
    s = s.masked_fill(torch.from_numpy(blocked).bool(), float("-inf"))
    a = torch.softmax(s, dim=-1)
    a = torch.nan_to_num(a, nan=0.0)  # a row with no visible key: weights 0
    return a.numpy(), (a @ torch.from_numpy(v)).numpy()


def check_prefix(q, k, v, blocked, tau, bc, run_m, run_l, run_o):
    """After key block t, m, l, O are those of softmax attention over the visible keys of blocks 0..t."""
    n_q, d = q.shape
    s = tau * q @ k.T
    for t in range(run_m.shape[1]):
        end = min(k.shape[0], (t + 1) * bc)
        for i in range(n_q):
            visible = [j for j in range(end) if not blocked[i, j]]
            if not visible:
                assert run_m[i, t] == -np.inf and run_l[i, t] == 0 and not run_o[i, t * d:(t + 1) * d].any()
                continue
            mx = max(s[i, j] for j in visible)
            w = np.array([math.exp(s[i, j] - mx) for j in visible])
            close(run_m[i, t], mx)
            close(run_l[i, t], w.sum())
            close(run_o[i, t * d:(t + 1) * d], (w / w.sum()) @ v[visible])


def make_case(name, seed, n, d_k, heads, query_block, key_block, mask, padding, scale=True):
    rng = np.random.default_rng(seed)
    q = rng.normal(0, INPUT_SCALE, (heads, n, d_k))
    k = rng.normal(0, INPUT_SCALE, (heads, n, d_k))
    v = rng.normal(0, INPUT_SCALE, (heads, n, d_k))
    d = heads * d_k
    w_o = rng.normal(0, 1 / math.sqrt(d), (d, d))
    blocked = blocked_matrix(n, mask, padding)
    tau = 1 / math.sqrt(d_k) if scale else 1.0
    st = {k_: [] for k_ in ("running_max", "running_sum", "partial_output", "weights", "head_output")}
    rescaled = False
    for h in range(heads):
        o, m, l, run_m, run_l, run_o = algorithm1(q[h], k[h], v[h], blocked, tau, query_block, key_block)
        weights, reference = torch_softmax_attention(q[h], k[h], v[h], blocked, tau)
        close(o, reference)
        check_prefix(q[h], k[h], v[h], blocked, tau, key_block, run_m, run_l, run_o)
        finite = np.where(np.isinf(run_m), -1e30, run_m)
        rescaled = rescaled or bool((np.diff(finite, axis=1) > 0).any())
        st["running_max"].append(run_m)
        st["running_sum"].append(run_l)
        st["partial_output"].append(run_o)
        st["weights"].append(weights)
        st["head_output"].append(o)
    assert rescaled, f"{name}: no row's maximum rises in a later key block"
    if name == "flash_b4x4_padding_first":
        assert all(np.isinf(m[:, 0]).all() for m in st["running_max"])
    concat = np.concatenate(st["head_output"], axis=1)
    output = concat @ w_o.T
    # The same output through PyTorch's multi-head attention (identity input projections, W_O as out_proj).
    if not blocked.all(axis=1).any():
        qt, kt, vt = (torch.from_numpy(np.concatenate(list(x), axis=1))[:, None, :] for x in (q, k, v))
        eye = torch.eye(d, dtype=torch.float64)
        out, _ = torch.nn.functional.multi_head_attention_forward(
            qt * (1.0 if scale else math.sqrt(d_k)), kt, vt, d, heads, None, None, None, None, False, 0.0,
            torch.from_numpy(w_o), None, training=False, need_weights=False,
            attn_mask=torch.from_numpy(blocked).bool(), use_separate_proj_weight=True,
            q_proj_weight=eye, k_proj_weight=eye, v_proj_weight=eye)
        close(out[:, 0, :].numpy(), output)
    st["tiles"] = tile_numbers(blocked, query_block, key_block)
    st["concat"] = concat
    st["output"] = output
    order = ("tiles", "running_max", "running_sum", "partial_output", "weights", "head_output", "concat", "output")
    return {"case": name, "kind": "flash", "params": {"query_block": query_block, "key_block": key_block},
            "n": n, "d_k": d_k, "heads": heads, "scale": scale, "mask": mask, "padding": list(padding),
            "blocked": blocked, "q": q, "k": k, "v": v, "w_o": w_o, "stages": {key: st[key] for key in order}}


# ---------------------------------------------------------------- writing (the attention kinds' JSON layout)

def main():
    OUT.mkdir(parents=True, exist_ok=True)
    files = {}
    for spec in CASES:
        spec = dict(spec)
        c = make_case(spec.pop("name"), **spec)
        files[c["case"] + ".json"] = c
    files["cases.json"] = [c["case"] for c in files.values()]
    total = 0
    for fname, obj in files.items():
        text = dump(plain(obj)) + "\n"
        json.loads(text)
        (OUT / fname).write_text(text)
        total += len(text)
    print(f"wrote {len(files)} files, {total} bytes, to {OUT}")


if __name__ == "__main__":
    main()
