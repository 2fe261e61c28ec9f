"""Plain-PyTorch GPT-2 and BERT for scripts/gen_hf_reference.py, written twice:

  * step by step (gpt2_trace, bert_trace): every stage of docs/transformer-layers.md and
    docs/engine.md section 6 recorded in a Recorder, one head at a time, float32;
  * compactly, the way Hugging Face's modeling_gpt2.py / modeling_bert.py compute it
    (hf_gpt2_layer, hf_bert_layer, hf_gpt2_logits, hf_bert_logits): Conv1D as
    torch.addmm(b, x, W), heads as a batch dimension, the causal mask through
    torch.where(bias, w, finfo.min), scores divided by sqrt(d_k), the BERT mask added as
    (1 - mask) * finfo.min.

The step-by-step values are the goldens; the compact ones only check them.  Weights come
as a dict P of float32 tensors under the canonical names (no "transformer."/"bert."
prefix, LayerNorm "weight"/"bias"); cfg is the folder's config.json as a dict.
"""

import math

import numpy as np
import torch
import torch.nn.functional as F

from gen_transformer_reference import Recorder, attention_heads, record_attention, softmax_rows

TOL = 1e-5


def jfloats(a):
    """A float32 tensor (0-, 1- or 2-D) as JSON-ready nested lists: each value the shortest
    decimal that reads back to the same float32 (checked through a double as well, the way
    a JSON reader that parses doubles and casts sees it); -inf / inf / nan as strings."""
    a = a.detach().cpu().to(torch.float32).numpy() if isinstance(a, torch.Tensor) \
        else np.asarray(a, dtype=np.float32)

    def one(v):
        if not np.isfinite(v):
            return "nan" if np.isnan(v) else ("inf" if v > 0 else "-inf")
        x = float(repr(v))  # numpy's shortest round-trip repr of the float32
        assert np.float32(x) == v, v
        return x

    if a.ndim == 0:
        return one(a[()])
    if a.ndim == 1:
        return [one(v) for v in a]
    return [jfloats(row) for row in a]


class Rec(Recorder):
    """Recorder whose check report keeps, per check name, the largest difference seen."""

    def check(self, what, a, b):
        before = self.checks.get(what, 0.0)
        diff = super().check(what, a, b)
        self.checks[what] = max(before, diff)
        return diff


class NullRecorder(Rec):
    """Asserts the checks, drops the stages (the generation steps)."""

    def add(self, *args, **kwargs):
        pass


# ----------------------------------------------------------------------------------------
# Pieces
# ----------------------------------------------------------------------------------------

def gelu_new(x):
    """GPT-2's "gelu_new" (NewGELUActivation): the tanh approximation of GELU."""
    return 0.5 * x * (1.0 + torch.tanh(math.sqrt(2.0 / math.pi)
                                       * (x + 0.044715 * torch.pow(x, 3.0))))


def check_gelus(rec, x):
    """gelu_new against PyTorch's tanh GELU, F.gelu against the erf formula, on x and on
    a grid from -8 to 8."""
    grid = torch.linspace(-8.0, 8.0, 1601)
    for what, t in (("activation inputs", x), ("grid -8..8", grid)):
        rec.check("gelu_new vs F.gelu(approximate='tanh') on " + what, gelu_new(t),
                  F.gelu(t, approximate="tanh"))
        rec.check("F.gelu vs 0.5x(1+erf(x/sqrt2)) on " + what, F.gelu(t),
                  0.5 * t * (1.0 + torch.erf(t / math.sqrt(2.0))))


def layer_norm(rec, sid, x, w, b, eps, layer, block):
    """LayerNorm stage: the output, with the mean and (biased) variance of its input."""
    y = F.layer_norm(x, (x.shape[-1],), w, b, eps)
    rec.add(sid, layer, block, None, y, x.mean(dim=-1), x.var(dim=-1, unbiased=False))
    return y


def causal_mask(n):
    """M (n x n): 0 where key <= query, -inf above the diagonal."""
    upper = torch.triu(torch.ones(n, n, dtype=torch.bool), diagonal=1)
    return torch.zeros(n, n).masked_fill(upper, float("-inf"))


def attention(rec, what, Q, K, V, M, h, out_proj, layer, block, causal):
    """One multi-head attention block, stage by stage (docs/engine.md section 6): Q, K, V
    (n x d) already projected; head j takes columns j*d_k .. (j+1)*d_k - 1."""
    ph = attention_heads(Q, K, V, M, h)
    C = torch.cat([p["head_output"] for p in ph], dim=1)
    O = out_proj(C)

    # a second formulation: PyTorch's fused scaled dot-product attention on all heads
    heads = [torch.stack([p[s] for p in ph])[None] for s in ("q", "k", "v")]
    z_ref, a_ref = F._scaled_dot_product_attention(*heads, None, 0.0, True, causal)
    rec.check(what + " weights vs scaled_dot_product_attention",
              torch.stack([p["weights"] for p in ph]), a_ref[0])
    rec.check(what + " head outputs vs scaled_dot_product_attention",
              torch.stack([p["head_output"] for p in ph]), z_ref[0])

    record_attention(rec, ph, M, C, O, layer, block)
    return O


def conv1d(x, W, b):
    """Hugging Face's Conv1D: y = x W + b with W stored [in, out]."""
    return x @ W + b


def lm_probabilities(rec, logits):
    rec.add("logits", None, None, None, logits)
    probs = softmax_rows(logits)
    rec.add("probabilities", None, None, None, probs)
    return probs


# ----------------------------------------------------------------------------------------
# GPT-2 (Pre-LN decoder-only, block "decoder_self")
# ----------------------------------------------------------------------------------------

def gpt2_layer(rec, P, cfg, x, i):
    B, p = "decoder_self", f"h.{i}."
    d, h, eps = cfg["n_embd"], cfg["n_head"], cfg["layer_norm_epsilon"]
    a = layer_norm(rec, "attn_norm", x, P[p + "ln_1.weight"], P[p + "ln_1.bias"], eps, i, B)
    W, b = P[p + "attn.c_attn.weight"], P[p + "attn.c_attn.bias"]   # [d, 3d]: Q | K | V
    Q, K, V = (conv1d(a, W[:, s], b[s]) for s in (slice(0, d), slice(d, 2 * d),
                                                   slice(2 * d, 3 * d)))
    O = attention(rec, f"layer {i}", Q, K, V, causal_mask(x.shape[0]), h,
                  lambda C: conv1d(C, P[p + "attn.c_proj.weight"], P[p + "attn.c_proj.bias"]),
                  i, B, True)
    r1 = x + O
    rec.add("attn_residual", i, B, None, r1)
    n2 = layer_norm(rec, "ffn_norm", r1, P[p + "ln_2.weight"], P[p + "ln_2.bias"], eps, i, B)
    pre = conv1d(n2, P[p + "mlp.c_fc.weight"], P[p + "mlp.c_fc.bias"])
    check_gelus(rec, pre)
    hid = gelu_new(pre)                                        # (n x 4d)
    rec.add("ffn_hidden", i, B, None, hid)
    fo = conv1d(hid, P[p + "mlp.c_proj.weight"], P[p + "mlp.c_proj.bias"])
    rec.add("ffn_output", i, B, None, fo)
    out = r1 + fo
    rec.add("ffn_residual", i, B, None, out)
    rec.add("layer_output", i, B, None, out)
    rec.check(f"layer {i} output vs HF-style GPT2Block", out, hf_gpt2_layer(P, cfg, x, i))
    return out


def gpt2_trace(rec, P, cfg, ids):
    """Every stage of GPT-2 on `ids`; returns the logits (n x V)."""
    n = len(ids)
    E = P["wte.weight"][ids]
    rec.add("embedding", None, None, None, E)
    Pos = P["wpe.weight"][:n]
    rec.add("positional_encoding", None, None, None, Pos)
    x = E + Pos
    rec.add("input", None, None, None, x)
    for i in range(cfg["n_layer"]):
        x = gpt2_layer(rec, P, cfg, x, i)
    y = layer_norm(rec, "decoder_output", x, P["ln_f.weight"], P["ln_f.bias"],
                   cfg["layer_norm_epsilon"], None, None)
    logits = y @ P["wte.weight"].T                            # tied LM head: (n x V)
    lm_probabilities(rec, logits)
    rec.check("logits vs HF-style GPT2LMHeadModel", logits, hf_gpt2_logits(P, cfg, ids))
    return logits


def hf_gpt2_layer(P, cfg, x, i):
    """GPT2Block.forward as modeling_gpt2.py writes it (batch 1, no cache, eval)."""
    p, d, h = f"h.{i}.", cfg["n_embd"], cfg["n_head"]
    eps, n, dk = cfg["layer_norm_epsilon"], x.shape[0], cfg["n_embd"] // cfg["n_head"]
    hs = F.layer_norm(x, (d,), P[p + "ln_1.weight"], P[p + "ln_1.bias"], eps)
    qkv = torch.addmm(P[p + "attn.c_attn.bias"], hs, P[p + "attn.c_attn.weight"])
    q, k, v = (t.view(n, h, dk).permute(1, 0, 2) for t in qkv.split(d, dim=1))
    w = torch.matmul(q, k.transpose(-1, -2)) / torch.full([], dk ** 0.5)
    bias = torch.tril(torch.ones(n, n, dtype=torch.bool))
    w = torch.where(bias, w, torch.full([], torch.finfo(w.dtype).min))
    w = torch.softmax(w, dim=-1)
    z = torch.matmul(w, v).permute(1, 0, 2).reshape(n, d)
    a = torch.addmm(P[p + "attn.c_proj.bias"], z, P[p + "attn.c_proj.weight"])
    x = a + x
    hs = F.layer_norm(x, (d,), P[p + "ln_2.weight"], P[p + "ln_2.bias"], eps)
    hs = torch.addmm(P[p + "mlp.c_fc.bias"], hs, P[p + "mlp.c_fc.weight"])
    hs = torch.addmm(P[p + "mlp.c_proj.bias"], gelu_new(hs), P[p + "mlp.c_proj.weight"])
    return x + hs


def hf_gpt2_logits(P, cfg, ids):
    x = P["wte.weight"][ids] + P["wpe.weight"][torch.arange(len(ids))]
    for i in range(cfg["n_layer"]):
        x = hf_gpt2_layer(P, cfg, x, i)
    x = F.layer_norm(x, (cfg["n_embd"],), P["ln_f.weight"], P["ln_f.bias"],
                     cfg["layer_norm_epsilon"])
    return F.linear(x, P["wte.weight"])


def gpt2_generate(rec, P, cfg, ids, steps, eot):
    """Greedy generation without a cache: each step recomputes the whole sequence and
    takes the arg-max of the last row.  Returns (new ids, their probabilities)."""
    seq, new, probs = list(ids), [], []
    for _ in range(steps):
        logits = gpt2_trace(NullRecorder(), P, cfg, seq)[-1]
        top = torch.topk(logits, 2)
        margin = float(top.values[0] - top.values[1])
        assert margin > 1e-3, ("greedy choice too close to call", seq, margin)
        t = int(top.indices[0])
        assert t != eot, ("generation reached <|endoftext|>; pick another prompt", seq)
        p = torch.softmax(logits, dim=0)
        rec.check("generation step %d logits vs HF-style" % len(new), logits,
                  hf_gpt2_logits(P, cfg, seq)[-1])
        new.append(t)
        probs.append(p[t])
        seq.append(t)
    return new, torch.stack(probs)


# ----------------------------------------------------------------------------------------
# BERT (Post-LN encoder, block "encoder_self")
# ----------------------------------------------------------------------------------------

def bert_layer(rec, P, cfg, x, i):
    B, p = "encoder_self", f"encoder.layer.{i}."
    h, eps = cfg["num_attention_heads"], cfg["layer_norm_eps"]
    s = p + "attention.self."
    Q, K, V = (F.linear(x, P[s + t + ".weight"], P[s + t + ".bias"])
               for t in ("query", "key", "value"))
    n = x.shape[0]
    O = attention(rec, f"layer {i}", Q, K, V, torch.zeros(n, n), h,
                  lambda C: F.linear(C, P[p + "attention.output.dense.weight"],
                                     P[p + "attention.output.dense.bias"]),
                  i, B, False)
    r1 = x + O
    rec.add("attn_residual", i, B, None, r1)
    n1 = layer_norm(rec, "attn_norm", r1, P[p + "attention.output.LayerNorm.weight"],
                    P[p + "attention.output.LayerNorm.bias"], eps, i, B)
    pre = F.linear(n1, P[p + "intermediate.dense.weight"], P[p + "intermediate.dense.bias"])
    check_gelus(rec, pre)
    hid = F.gelu(pre)                                          # exact (erf) GELU
    rec.add("ffn_hidden", i, B, None, hid)
    fo = F.linear(hid, P[p + "output.dense.weight"], P[p + "output.dense.bias"])
    rec.add("ffn_output", i, B, None, fo)
    r2 = n1 + fo
    rec.add("ffn_residual", i, B, None, r2)
    out = layer_norm(rec, "ffn_norm", r2, P[p + "output.LayerNorm.weight"],
                     P[p + "output.LayerNorm.bias"], eps, i, B)
    rec.add("layer_output", i, B, None, out)
    rec.check(f"layer {i} output vs HF-style BertLayer", out, hf_bert_layer(P, cfg, x, i))
    return out


def bert_trace(rec, P, cfg, ids, segs, mlm):
    """Every stage of BERT on `ids` / `segs`; returns the logits (n x V) or None."""
    n, eps = len(ids), cfg["layer_norm_eps"]
    E = P["embeddings.word_embeddings.weight"][ids]
    rec.add("embedding", None, None, None, E)
    Pos = P["embeddings.position_embeddings.weight"][:n]
    rec.add("positional_encoding", None, None, None, Pos)
    S = P["embeddings.token_type_embeddings.weight"][segs]
    rec.add("segment_embedding", None, None, None, S)
    total = (E + S) + Pos                       # BertEmbeddings' order: word + type, + pos
    rec.add("embedding_sum", None, None, None, total)
    x = layer_norm(rec, "input", total, P["embeddings.LayerNorm.weight"],
                   P["embeddings.LayerNorm.bias"], eps, None, None)
    for i in range(cfg["num_hidden_layers"]):
        x = bert_layer(rec, P, cfg, x, i)
    rec.add("encoder_output", None, None, None, x)
    if not mlm:
        return None
    t = "cls.predictions.transform."
    g = F.gelu(F.linear(x, P[t + "dense.weight"], P[t + "dense.bias"]))
    y = layer_norm(rec, "mlm_transform", g, P[t + "LayerNorm.weight"],
                   P[t + "LayerNorm.bias"], eps, None, None)
    logits = y @ P["embeddings.word_embeddings.weight"].T + P["cls.predictions.bias"]
    lm_probabilities(rec, logits)
    rec.check("logits vs HF-style BertForMaskedLM", logits, hf_bert_logits(P, cfg, ids, segs))
    return logits


def hf_bert_layer(P, cfg, x, i):
    """BertLayer.forward as modeling_bert.py writes it (batch 1, attention mask all ones)."""
    p, d, h = f"encoder.layer.{i}.", cfg["hidden_size"], cfg["num_attention_heads"]
    n, dk, eps = x.shape[0], d // h, cfg["layer_norm_eps"]
    s = p + "attention.self."

    def heads(t):
        return F.linear(x, P[s + t + ".weight"], P[s + t + ".bias"]).view(n, h, dk) \
            .permute(1, 0, 2)

    ext = (1.0 - torch.ones(1, 1, n)) * torch.finfo(torch.float32).min
    scores = torch.matmul(heads("query"), heads("key").transpose(-1, -2)) / math.sqrt(dk)
    probs = torch.softmax(scores + ext, dim=-1)
    ctx = torch.matmul(probs, heads("value")).permute(1, 0, 2).reshape(n, d)
    ao = F.linear(ctx, P[p + "attention.output.dense.weight"],
                  P[p + "attention.output.dense.bias"])
    ao = F.layer_norm(ao + x, (d,), P[p + "attention.output.LayerNorm.weight"],
                      P[p + "attention.output.LayerNorm.bias"], eps)
    it = F.gelu(F.linear(ao, P[p + "intermediate.dense.weight"],
                         P[p + "intermediate.dense.bias"]))
    o = F.linear(it, P[p + "output.dense.weight"], P[p + "output.dense.bias"])
    return F.layer_norm(o + ao, (d,), P[p + "output.LayerNorm.weight"],
                        P[p + "output.LayerNorm.bias"], eps)


def hf_bert_logits(P, cfg, ids, segs):
    d, eps = cfg["hidden_size"], cfg["layer_norm_eps"]
    ids_t, segs_t = torch.tensor(ids), torch.tensor(segs)
    e = F.embedding(ids_t, P["embeddings.word_embeddings.weight"]) \
        + F.embedding(segs_t, P["embeddings.token_type_embeddings.weight"])
    e += F.embedding(torch.arange(len(ids)), P["embeddings.position_embeddings.weight"])
    x = F.layer_norm(e, (d,), P["embeddings.LayerNorm.weight"],
                     P["embeddings.LayerNorm.bias"], eps)
    for i in range(cfg["num_hidden_layers"]):
        x = hf_bert_layer(P, cfg, x, i)
    t = "cls.predictions.transform."
    x = F.layer_norm(F.gelu(F.linear(x, P[t + "dense.weight"], P[t + "dense.bias"])), (d,),
                     P[t + "LayerNorm.weight"], P[t + "LayerNorm.bias"], eps)
    return F.linear(x, P["embeddings.word_embeddings.weight"], P["cls.predictions.bias"])
