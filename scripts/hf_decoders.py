"""The modern decoders of issue 31 (Llama, Qwen2, Qwen3, Gemma 3) written out step by step in float64
PyTorch, for scripts/gen_decoder_reference.py, and a second, compact implementation in the
shape of Hugging Face's modeling_llama.py / modeling_qwen2.py / modeling_qwen3.py (heads
batched, rotate_half, repeat_kv) that checks the first.

From the papers and the published modeling code:
  RMSNorm (Zhang & Sennrich 2019; LlamaRMSNorm)   y = x / sqrt(mean(x^2) + eps) * w
  RoPE (Su et al. 2021), half-split layout        q' = q*cos + rotate_half(q)*sin,
      rotate_half(x) = [-x2, x1] (x1, x2 the halves); cos, sin of pos*inv_freq repeated twice
  inv_freq_i = theta^(-2i/head_dim); rope_scaling "linear": / factor; "llama3": Llama 3.1's
      smooth interpolation (modeling_rope_utils._compute_llama3_parameters)
  grouped-query attention (Ainslie et al. 2023)   query head h reads KV head h // (H / H_kv)
  scores scaled by head_dim^-0.5; causal mask
  Qwen2: biases on q, k, v (not o);  Qwen3: RMSNorm over head_dim of each q and k head, before RoPE
  SwiGLU (Shazeer 2020; LlamaMLP)                 down(silu(gate(x)) * up(x))
  layer: h = x + attn(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h))
  model: embed_tokens rows; layers; norm; logits = norm(x) . lm_head^T (or embed_tokens^T, tied)
  Gemma 3 (modeling_gemma3.py, configuration_gemma3.py), where o["gemma"]:
    embeddings * torch.tensor(hidden_size**0.5) cast to the weights' dtype (Gemma3TextScaledWordEmbedding)
    RMSNorm * (1 + w) (Gemma3RMSNorm), also q_norm / k_norm
    h = x + post_attention_layernorm(attn(input_layernorm(x)))
    out = h + post_feedforward_layernorm(mlp(pre_feedforward_layernorm(h)))
    scores scaled by query_pre_attn_scalar^-0.5; mlp = down(gelu_pytorch_tanh(gate(x)) * up(x))
    layer_types "sliding_attention": key j visible to query i iff i - sliding_window < j <= i
      (masking_utils: sliding_window_overlay kv_idx > q_idx - sliding_window, and
      causal_mask_function kv_idx <= q_idx), RoPE base rope_local_base_freq without scaling;
    "full_attention": causal, rope_theta with rope_scaling
"""

import math

import torch

TOL = 1e-9  # the two float64 implementations agree to rounding


def sliding(o, i):
    """Layer i's sliding window (Gemma 3's sliding_attention layers), or None."""
    types = o.get("layer_types")
    return o["sliding_window"] if types and types[i] == "sliding_attention" else None


def inv_freq(o, i=None):
    """RoPE's inverse frequencies (head_dim / 2) with the case's scaling, in float64; a
    Gemma 3 sliding layer i's from rope_local_base_freq, unscaled."""
    hd = o["head_dim"]
    if i is not None and sliding(o, i):
        return 1.0 / (o["rope_local_base_freq"] ** (torch.arange(0, hd, 2, dtype=torch.float64) / hd))
    f = 1.0 / (o["rope_theta"] ** (torch.arange(0, hd, 2, dtype=torch.float64) / hd))
    s = o.get("rope_scaling")
    if not s:
        return f
    if s["rope_type"] == "linear":
        return f / s["factor"]
    assert s["rope_type"] == "llama3"
    factor, low, high = s["factor"], s["low_freq_factor"], s["high_freq_factor"]
    old = s["original_max_position_embeddings"]
    low_wavelen, high_wavelen = old / low, old / high
    wavelen = 2 * math.pi / f
    scaled = torch.where(wavelen > low_wavelen, f / factor, f)
    smooth = (old / wavelen - low) / (high - low)
    smoothed = (1 - smooth) * scaled / factor + smooth * scaled
    medium = (wavelen >= high_wavelen) & (wavelen <= low_wavelen)
    return torch.where(medium, smoothed, scaled)


def rms_norm(x, w, eps):
    ms = (x * x).mean(-1, keepdim=True)
    return x / torch.sqrt(ms + eps) * w, ms.squeeze(-1)


def linear(P, name, x):
    y = x @ P[name + ".weight"].T
    b = P.get(name + ".bias")
    return y if b is None else y + b


def silu(x):
    return x / (1 + torch.exp(-x))


def gelu_tanh(x):
    """gelu_pytorch_tanh: 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))."""
    return 0.5 * x * (1 + torch.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x ** 3)))


def gamma(o, w):
    """An RMSNorm's multiplier: w, or Gemma's 1 + w."""
    return 1 + w if o.get("gemma") else w


def attention_mask(o, i, n):
    """Layer i's additive mask (n x n): -inf above the diagonal and, in a sliding layer, at
    keys j <= i - sliding_window."""
    mask = torch.triu(torch.full((n, n), -math.inf, dtype=torch.float64), 1)
    w = sliding(o, i)
    if w:
        for q in range(n):
            for j in range(0, q - w + 1):
                mask[q, j] = -math.inf
    return mask


def rotate(x, angles):
    """Half-split RoPE of x (n x d_k) by angles (n x d_k/2), pair by pair."""
    half = x.shape[1] // 2
    a, b = x[:, :half], x[:, half:]
    c, s = torch.cos(angles), torch.sin(angles)
    return torch.cat([a * c - b * s, b * c + a * s], dim=1)


class Stages:
    """The stages of one pass in the engine's order, each {id, layer, block, head, kv_head,
    data (, mean_square)}."""

    def __init__(self):
        self.list = []

    def add(self, sid, data, layer=None, head=None, kv_head=None, mean_square=None):
        self.list.append(dict(id=sid, layer=layer, block="decoder_self" if layer is not None else None,
                              head=head, kv_head=kv_head, data=data, mean_square=mean_square))


def step_layer(st, P, o, x, i):
    """One decoder layer, stage by stage (issue 31's ids, docs/trace-format.md)."""
    p = f"model.layers.{i}."
    H, G, hd, eps = o["heads"], o["kv_heads"], o["head_dim"], o["eps"]
    group = H // G
    n = x.shape[0]
    gemma = o.get("gemma", False)
    n1, ms1 = rms_norm(x, gamma(o, P[p + "input_layernorm.weight"]), eps)
    st.add("attn_norm", n1, i, mean_square=ms1)
    Q, K, V = (linear(P, p + "self_attn." + t, n1) for t in ("q_proj", "k_proj", "v_proj"))
    q = [Q[:, h * hd:(h + 1) * hd] for h in range(H)]
    k = [K[:, g * hd:(g + 1) * hd] for g in range(G)]
    v = [V[:, g * hd:(g + 1) * hd] for g in range(G)]
    for sid, mats, per_kv in (("q", q, False), ("k", k, True), ("v", v, True)):
        for h, m in enumerate(mats):
            st.add(sid, m, i, h, h if per_kv else h // group)
    if o["qk_norm"]:
        q = [rms_norm(m, gamma(o, P[p + "self_attn.q_norm.weight"]), eps)[0] for m in q]
        k = [rms_norm(m, gamma(o, P[p + "self_attn.k_norm.weight"]), eps)[0] for m in k]
        for h, m in enumerate(q):
            st.add("q_norm", m, i, h, h // group)
        for g, m in enumerate(k):
            st.add("k_norm", m, i, g, g)
    angles = torch.arange(n, dtype=torch.float64)[:, None] * inv_freq(o, i)[None, :]
    q = [rotate(m, angles) for m in q]
    k = [rotate(m, angles) for m in k]
    for h, m in enumerate(q):
        st.add("q_rotated", m, i, h, h // group)
    for g, m in enumerate(k):
        st.add("k_rotated", m, i, g, g)
    mask = attention_mask(o, i, n)
    scores = [q[h] @ k[h // group].T for h in range(H)]
    scaled = [s * o.get("query_pre_attn_scalar", hd) ** -0.5 for s in scores]
    masked = [s + mask for s in scaled]
    weights = [torch.softmax(s, dim=1) for s in masked]
    outs = [weights[h] @ v[h // group] for h in range(H)]
    for sid, mats in (("scores", scores), ("scaled", scaled)):
        for h, m in enumerate(mats):
            st.add(sid, m, i, h, h // group)
    st.add("mask", mask, i)
    for sid, mats in (("masked_scores", masked), ("weights", weights), ("head_output", outs)):
        for h, m in enumerate(mats):
            st.add(sid, m, i, h, h // group)
    concat = torch.cat(outs, dim=1)
    st.add("concat", concat, i)
    out = linear(P, p + "self_attn.o_proj", concat)
    st.add("output", out, i)
    if gemma:
        out, ms = rms_norm(out, gamma(o, P[p + "post_attention_layernorm.weight"]), eps)
        st.add("attn_post_norm", out, i, mean_square=ms)
    r1 = x + out
    st.add("attn_residual", r1, i)
    n2_name = "pre_feedforward_layernorm" if gemma else "post_attention_layernorm"
    n2, ms2 = rms_norm(r1, gamma(o, P[p + n2_name + ".weight"]), eps)
    st.add("ffn_norm", n2, i, mean_square=ms2)
    gate = linear(P, p + "mlp.gate_proj", n2)
    up = linear(P, p + "mlp.up_proj", n2)
    hidden = (gelu_tanh(gate) if gemma else silu(gate)) * up
    f = linear(P, p + "mlp.down_proj", hidden)
    for sid, m in (("ffn_gate", gate), ("ffn_up", up), ("ffn_hidden", hidden), ("ffn_output", f)):
        st.add(sid, m, i)
    if gemma:
        f, ms = rms_norm(f, gamma(o, P[p + "post_feedforward_layernorm.weight"]), eps)
        st.add("ffn_post_norm", f, i, mean_square=ms)
    r2 = r1 + f
    st.add("ffn_residual", r2, i)
    st.add("layer_output", r2, i)
    return r2


def head_matrix(P):
    return P["lm_head.weight"] if "lm_head.weight" in P else P["model.embed_tokens.weight"]


def step_model(P, o, ids):
    """Every stage of one pass; returns (Stages, logits)."""
    st = Stages()
    e = P["model.embed_tokens.weight"][ids]
    st.add("embedding", e)
    x = e * o.get("embed_scale", 1.0)
    st.add("input", x)
    for i in range(o["layers"]):
        x = step_layer(st, P, o, x, i)
    out, ms = rms_norm(x, gamma(o, P["model.norm.weight"]), o["eps"])
    st.add("decoder_output", out, mean_square=ms)
    logits = out @ head_matrix(P).T
    st.add("logits", logits)
    st.add("probabilities", torch.softmax(logits, dim=1))
    return st, logits


# ------------------------------------------------------------------------------------------
# The compact implementation, shaped as Hugging Face's modeling code
# ------------------------------------------------------------------------------------------

def rotate_half(x):
    x1, x2 = x[..., : x.shape[-1] // 2], x[..., x.shape[-1] // 2:]
    return torch.cat((-x2, x1), dim=-1)


def repeat_kv(x, n_rep):
    b, kv, n, hd = x.shape
    return x[:, :, None, :, :].expand(b, kv, n_rep, n, hd).reshape(b, kv * n_rep, n, hd)


def hf_model(P, o, ids):
    """Logits and each layer's output, batched over heads (batch of one)."""
    H, G, hd, eps = o["heads"], o["kv_heads"], o["head_dim"], o["eps"]
    gemma = o.get("gemma", False)
    n = len(ids)
    pos = torch.arange(n, dtype=torch.float64)
    q_idx, kv_idx = pos[:, None], pos[None, :]

    def rope(i):
        freqs = torch.outer(pos, inv_freq(o, i))
        emb = torch.cat((freqs, freqs), dim=-1)
        return emb.cos()[None, None], emb.sin()[None, None]

    def mask(i):
        # masking_utils: causal_mask_function, and sliding_window_overlay on sliding layers.
        visible = kv_idx <= q_idx
        if sliding(o, i):
            visible = visible & (kv_idx > q_idx - sliding(o, i))
        zero = torch.zeros((n, n), dtype=torch.float64)
        return torch.where(visible, zero, torch.full_like(zero, torch.finfo(torch.float64).min))

    def norm(x, w):
        if gemma:  # Gemma3RMSNorm: output * (1.0 + weight)
            return (x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + eps)) * (1.0 + w)
        return w * (x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + eps))

    x = P["model.embed_tokens.weight"][ids][None] * o.get("embed_scale", 1.0)
    scaling = o.get("query_pre_attn_scalar", hd) ** -0.5
    outputs = []
    for i in range(o["layers"]):
        p = f"model.layers.{i}."
        cos, sin = rope(i)
        h = norm(x, P[p + "input_layernorm.weight"])
        q = linear(P, p + "self_attn.q_proj", h).view(1, n, H, hd)
        k = linear(P, p + "self_attn.k_proj", h).view(1, n, G, hd)
        v = linear(P, p + "self_attn.v_proj", h).view(1, n, G, hd).transpose(1, 2)
        if o["qk_norm"]:
            q = norm(q, P[p + "self_attn.q_norm.weight"])
            k = norm(k, P[p + "self_attn.k_norm.weight"])
        q, k = q.transpose(1, 2), k.transpose(1, 2)
        q = q * cos + rotate_half(q) * sin
        k = k * cos + rotate_half(k) * sin
        k, v = repeat_kv(k, H // G), repeat_kv(v, H // G)
        a = torch.softmax(q @ k.transpose(2, 3) * scaling + mask(i), dim=-1)
        z = (a @ v).transpose(1, 2).reshape(1, n, H * hd)
        if gemma:
            x = x + norm(linear(P, p + "self_attn.o_proj", z), P[p + "post_attention_layernorm.weight"])
            h = norm(x, P[p + "pre_feedforward_layernorm.weight"])
            gate = torch.nn.functional.gelu(linear(P, p + "mlp.gate_proj", h), approximate="tanh")
            f = linear(P, p + "mlp.down_proj", gate * linear(P, p + "mlp.up_proj", h))
            x = x + norm(f, P[p + "post_feedforward_layernorm.weight"])
        else:
            x = x + linear(P, p + "self_attn.o_proj", z)
            h = norm(x, P[p + "post_attention_layernorm.weight"])
            gate = linear(P, p + "mlp.gate_proj", h)
            x = x + linear(P, p + "mlp.down_proj", torch.nn.functional.silu(gate) * linear(P, p + "mlp.up_proj", h))
        outputs.append(x[0])
    logits = norm(x, P["model.norm.weight"])[0] @ head_matrix(P).T
    return logits, outputs


def check(what, a, b, checks):
    diff = float((a - b).abs().max())
    assert diff < TOL * max(1.0, float(b.abs().max())), (what, diff)
    checks[what] = max(checks.get(what, 0.0), diff)


def checked_pass(P, o, ids, checks):
    """The step-by-step pass, its layer outputs and logits checked against the compact one."""
    st, logits = step_model(P, o, ids)
    hf_logits, outputs = hf_model(P, o, ids)
    check("logits", logits, hf_logits, checks)
    layer_outputs = [s["data"] for s in st.list if s["id"] == "layer_output"]
    for i, (a, b) in enumerate(zip(layer_outputs, outputs)):
        check(f"layer {i} output", a, b, checks)
    return st


def generate(P, o, ids, steps, checks):
    """Greedy, each step recomputing the whole sequence (no cache); returns (new ids, the
    probability of each). Every choice wins by more than 1e-3 in logits."""
    ids = list(ids)
    new, probs = [], []
    for _ in range(steps):
        logits, _ = hf_model(P, o, ids)
        _, step_logits = step_model(P, o, ids)
        check("generation logits", step_logits, logits, checks)
        last = logits[-1]
        top = torch.topk(last, 2).values
        assert float(top[0] - top[1]) > 1e-3, "a near tie in greedy generation"
        nxt = int(torch.argmax(last))
        probs.append(float(torch.softmax(last, dim=0)[nxt]))
        new.append(nxt)
        ids.append(nxt)
    return new, probs
