#!/usr/bin/python3
"""Reference values for comparing two inputs (docs/engine.md, section 10), computed with PyTorch.

狗咬了人 (A) and 人咬了狗 (B) hold the same four tokens in another order. This script runs both
through the independent implementation of scripts/gen_reference.py (nn.MultiheadAttention plus
torch ops, written from docs/engine.md alone, never from the C++ engine), lines B's rows and
columns up with A's by token (numpy, written here from the rule, not from the C++ code), and
subtracts, for one configuration with and without positional encoding. It shows, and asserts:

  * pe=none: every stage of B, reordered into A's token order, equals A's up to float rounding
    (|A − P·B·Pᵀ| < 1e-5 everywhere): without positions, self-attention only permutes its
    output, Attention(P·X) = P·Attention(X);
  * pe=sinusoidal: the attention weights differ by far more than rounding (> 0.01).

How to run (from the repository root; Debian's python3-torch and python3-numpy):

    /usr/bin/python3 scripts/gen_compare_reference.py

It writes tests/reference/compare/dog_bites_man.json:

    {"config": {...}, "a": "狗咬了人", "b": "人咬了狗", "tokens_a": [...], "tokens_b": [...],
     "row_order": [...],          # B's index for each of A's tokens (duplicates in order)
     "cases": [{"pe": "none", "stages": [{"id", "head", "token_columns", "a", "b",
                                          "matched", "difference", "largest"}, ...]}, ...]}

The C++ test tests/engine/compare/tst_compare_reference.cpp runs the engine on both sentences,
lines them up with compare/matching.h and checks every matrix against this file.
"""

import json
import sys
from pathlib import Path

import numpy as np
import torch

sys.path.insert(0, str(Path(__file__).resolve().parent))
import gen_reference as ref  # noqa: E402

REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests" / "reference" / "compare" / "dog_bites_man.json"

A_TEXT = "狗咬了人"
B_TEXT = "人咬了狗"
CONFIG = {"d_model": 16, "heads": 2, "seed": 42, "embed_scale": True, "scale": True, "mask": "none"}
# Stages whose columns are tokens (keys) too; every stage's rows are tokens.
TOKEN_COLUMNS = {"scores", "scaled", "mask", "masked_scores", "weights"}
ZERO = 1e-5


def order_by_token(a, b):
    """For each token of a, its index in b; the k-th occurrence of a token takes b's k-th."""
    assert sorted(a) == sorted(b), "B is not a reordering of A"
    used = {}
    order = []
    for t in a:
        k = used.get(t, 0)
        order.append([i for i, u in enumerate(b) if u == t][k])
        used[t] = k + 1
    return order


def permutation_matrix(order):
    """P with P[i][order[i]] = 1, so (P·B)[i] = B[order[i]]."""
    P = np.zeros((len(order), len(order)), dtype=np.float64)
    for i, j in enumerate(order):
        P[i, j] = 1.0
    return P


def difference(a, b):
    """A − B cell by cell; equal infinities (masked in both) give 0."""
    with np.errstate(invalid="ignore"):
        d = a - b
    d[a == b] = 0.0
    return d


def run(text, pe):
    case = dict(CONFIG, case="compare", sentence=text, pe=pe)
    result, _ = ref.compute_case(case)
    stages = [(sid, head, np.asarray(m.detach().numpy() if isinstance(m, torch.Tensor) else m, dtype=np.float32))
              for sid, head, m in result["stages"]]
    return result["tokens"], stages


def compare_case(pe, order):
    tokens_a, stages_a = run(A_TEXT, pe)
    _, stages_b = run(B_TEXT, pe)
    P = permutation_matrix(order)
    out = []
    for (sid, head, a), (sid_b, head_b, b) in zip(stages_a, stages_b):
        assert (sid, head) == (sid_b, head_b)
        # Rows always, columns too for token x token stages: P·B, or P·B·Pᵀ. The product is
        # taken in float64 on finite values (a 0/1 matrix only moves them), infinities moved by index.
        finite_b = np.where(np.isfinite(b), b, 0.0).astype(np.float64)
        moved = P @ finite_b @ P.T if sid in TOKEN_COLUMNS else P @ finite_b
        rows = b[order]
        where_inf = rows[:, order] if sid in TOKEN_COLUMNS else rows
        matched = np.where(np.isfinite(where_inf), moved, where_inf).astype(np.float32)
        d = difference(a, matched)
        largest = float(np.max(np.abs(d[np.isfinite(d)]))) if np.isfinite(d).any() else 0.0
        out.append({"id": sid, "head": head, "token_columns": sid in TOKEN_COLUMNS,
                    "a": ref.jmatrix(a), "b": ref.jmatrix(b), "matched": ref.jmatrix(matched),
                    "difference": ref.jmatrix(d), "largest": largest})
    return tokens_a, out


def main():
    torch.manual_seed(0)
    torch.use_deterministic_algorithms(True)
    torch.set_num_threads(1)
    tokens_a = ref.tokenize(A_TEXT)
    tokens_b = ref.tokenize(B_TEXT)
    order = order_by_token(tokens_a, tokens_b)
    cases = []
    for pe in ("none", "sinusoidal"):
        _, stages = compare_case(pe, order)
        cases.append({"pe": pe, "stages": stages})
        worst = max(s["largest"] for s in stages)
        weights = max(s["largest"] for s in stages if s["id"] == "weights")
        print("pe=%-10s largest |A - P·B·Pᵀ| over every stage %.3g, over the weights %.3g" % (pe, worst, weights))
        if pe == "none":
            assert worst < ZERO, "without positions the difference must vanish (got %g)" % worst
        else:
            assert weights > 0.01, "with positions the weights must differ (got %g)" % weights
    doc = {"config": CONFIG, "a": A_TEXT, "b": B_TEXT, "tokens_a": tokens_a, "tokens_b": tokens_b,
           "row_order": order, "cases": cases}
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(ref.dumps(doc) + "\n", encoding="utf-8")
    print("wrote", OUT.relative_to(REPO))


if __name__ == "__main__":
    main()
