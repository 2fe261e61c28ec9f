#!/usr/bin/python3
"""Tiny random-weight Llama, Qwen2, Qwen3 and Gemma 3 model folders in the Hugging Face layouts, and
the values of every stage computed by an independent float64 PyTorch implementation
(scripts/hf_decoders.py), for issue 31.

    /usr/bin/python3 scripts/gen_decoder_reference.py

(Debian's python3-torch, python3-numpy, python3-regex; nothing is downloaded). Writes, under
tests/reference/hf/ (README.md there describes the files):

    decoder_cases.json         the case names
    <case>/config.json         as transformers' save_pretrained writes it
    <case>/model.safetensors   or model-0000k-of-0000N.safetensors + model.safetensors.index.json
    <case>/vocab.json, merges.txt, tokenizer_config.json
                               a byte-level BPE (GPT-2's byte table) whose merges are learned
                               here from the inputs' texts (tokenizer_files() below: the one
                               place to change when the folders get a tokenizer.json)
    <case>.json                options, inputs, every stage of every input, greedy generation

Deterministic: a re-run reproduces every file byte for byte.
"""

import json
import sys
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parent))
from gen_hf_reference import OUT_DIR, write_golden  # noqa: E402
from gen_reference import dumps  # noqa: E402
from hf_decoders import checked_pass, generate  # noqa: E402
from hf_models import jfloats  # noqa: E402
from hf_vocab import GPT2_PATTERN, bpe, bytes_to_unicode  # noqa: E402
from safetensors_io import load_file, save_file  # noqa: E402

DTYPES = {"F32": torch.float32, "F16": torch.float16, "BF16": torch.bfloat16}
DTYPE_NAMES = {"F32": "float32", "F16": "float16", "BF16": "bfloat16"}
STEPS = 6
BOS, EOS = "<s>", "</s>"

LLAMA3_SCALING = {"factor": 8.0, "low_freq_factor": 1.0, "high_freq_factor": 4.0,
                  "original_max_position_embeddings": 256, "rope_type": "llama3"}

CASES = [
    dict(case="llama_gqa_tied_f32", model_type="llama", seed=3101, layers=2, d=24, heads=6,
         kv_heads=2, head_dim=4, ff=40, dtype="F32", tied=True, rope_theta=10000.0,
         rope_scaling=None, attention_bias=False, mlp_bias=False, shards=1, inv_freq_buffers=True,
         texts=["The cat sat on the mat.", "It is in the house"],
         note="LlamaForCausalLM: 6 query heads sharing 2 KV heads (3 each), tied embeddings, "
              "F32, old rotary_emb.inv_freq buffers"),
    dict(case="llama3_untied_bf16_sharded", model_type="llama", seed=3102, layers=2, d=32, heads=4,
         kv_heads=2, head_dim=16, ff=48, dtype="BF16", tied=False, rope_theta=10000.0,
         rope_scaling=LLAMA3_SCALING, attention_bias=True, mlp_bias=True, shards=2,
         texts=["When he was there,", "They are here at home"],
         note="LlamaForCausalLM: lm_head.weight, llama3 rope_scaling (low, medium and high "
              "frequencies), head_dim 16 given (not hidden/heads), attention and MLP biases, "
              "BF16 in two shards with model.safetensors.index.json"),
    dict(case="qwen2_mqa_f16", model_type="qwen2", seed=3103, layers=2, d=24, heads=3,
         kv_heads=1, head_dim=8, ff=40, dtype="F16", tied=True, rope_theta=1000000.0,
         rope_scaling=None, attention_bias=None, mlp_bias=None, shards=1,
         texts=["The dog ran in the house.", "She is at home"],
         note="Qwen2ForCausalLM: multi-query (3 query heads, 1 KV head), biases on q, k, v, "
              "tied embeddings, F16, use_sliding_window false"),
    dict(case="qwen3_qknorm_f32", model_type="qwen3", seed=3104, layers=2, d=24, heads=4,
         kv_heads=2, head_dim=8, ff=40, dtype="F32", tied=False, rope_theta=1000000.0,
         rope_scaling=None, attention_bias=False, mlp_bias=None, shards=1, rope_parameters=True,
         texts=["The cat was in the house.", "He sat there today"],
         note="Qwen3ForCausalLM: q_norm and k_norm, head_dim 8 with hidden 24 and 4 heads, "
              "untied lm_head, F32, RoPE in the newer rope_parameters form"),
    dict(case="gemma3_sliding_bf16", model_type="gemma3_text", seed=3105, layers=4, d=24, heads=4,
         kv_heads=2, head_dim=8, ff=40, dtype="BF16", tied=True, rope_theta=1000000.0,
         rope_scaling=None, attention_bias=False, mlp_bias=None, shards=1,
         layer_types=["sliding_attention", "sliding_attention", "sliding_attention", "full_attention"],
         sliding_window=3, rope_local_base_freq=10000.0, query_pre_attn_scalar=6,
         texts=["The cat sat on the mat.", "They are here at home"],
         note="Gemma3ForCausalLM (gemma3_text): embeddings x sqrt(24) in bfloat16, (1 + w) RMSNorms, "
              "four norms per layer, q_norm and k_norm, query_pre_attn_scalar 6 (not head_dim 8), "
              "GeGLU with the tanh GELU, three sliding layers (window 3, rope_local_base_freq) and "
              "one full layer (rope_theta), tied embeddings, BF16"),
]


# ------------------------------------------------------------------------------------------
# Tokenizer
# ------------------------------------------------------------------------------------------

def byte_words(text):
    """GPT-2's pre-tokenized words of `text`, each spelled in GPT-2's byte characters."""
    b2u = bytes_to_unicode()
    return ["".join(b2u[b] for b in w.encode("utf-8")) for w in GPT2_PATTERN.findall(text)]


def learn_merges(texts, count):
    """The `count` most frequent adjacent pairs, merged one at a time (ties: the first pair
    in order of appearance), over the GPT-2 pre-tokenized words of `texts`."""
    words = [list(w) for t in texts for w in byte_words(t)]
    merges = []
    while len(merges) < count:
        counts = {}
        for w in words:
            for a, b in zip(w, w[1:]):
                counts[(a, b)] = counts.get((a, b), 0) + 1
        if not counts:
            break
        pair = max(counts, key=lambda p: counts[p])  # dicts keep the first of equal counts
        merges.append(pair)
        words = [bpe("".join(w), {m: i for i, m in enumerate(merges)}) for w in words]
    return merges


CORPUS = ["The cat sat on the mat.", "It is in the house", "When he was there,",
          "They are here at home", "The dog ran in the house.", "She is at home",
          "The cat was in the house.", "He sat there today", "the and that this with have"]


def tokenizer_files(folder):
    """Writes the folder's tokenizer (vocab.json, merges.txt, tokenizer_config.json): 256 byte
    tokens, 30 merges, <s> and </s>. Returns (vocab, merges)."""
    merges = learn_merges(CORPUS, 30)
    vocab = {ch: i for i, ch in enumerate(bytes_to_unicode().values())}
    for a, b in merges:
        vocab[a + b] = len(vocab)
    vocab[BOS] = len(vocab)
    vocab[EOS] = len(vocab)
    (folder / "vocab.json").write_text(json.dumps(vocab, ensure_ascii=False), encoding="utf-8")
    (folder / "merges.txt").write_text("#version: 0.2\n" + "".join(f"{a} {b}\n" for a, b in merges),
                                       encoding="utf-8")
    write_json(folder / "tokenizer_config.json",
               {"bos_token": BOS, "eos_token": EOS, "model_max_length": 64,
                "tokenizer_class": "GPT2Tokenizer"})
    return vocab, merges


def encode(text, vocab, merges):
    ranks = {m: i for i, m in enumerate(merges)}
    return [vocab[t] for w in byte_words(text) for t in bpe(w, ranks)]


# ------------------------------------------------------------------------------------------
# Weights and files
# ------------------------------------------------------------------------------------------

def params(c, V):
    """(name, shape, kind) in the registration order of <Family>ForCausalLM."""
    d, hd, H, G, ff = c["d"], c["head_dim"], c["heads"], c["kv_heads"], c["ff"]
    gemma = c["model_type"] == "gemma3_text"
    qkv_bias = c["model_type"] == "qwen2" or bool(c["attention_bias"])
    o_bias = bool(c["attention_bias"])
    out = [("model.embed_tokens.weight", (V, d), "tok")]

    def lin(name, n_out, n_in, bias):
        out.append((name + ".weight", (n_out, n_in), "linear"))
        if bias:
            out.append((name + ".bias", (n_out,), "bias"))

    for i in range(c["layers"]):
        p = f"model.layers.{i}."
        lin(p + "self_attn.q_proj", H * hd, d, qkv_bias)
        lin(p + "self_attn.k_proj", G * hd, d, qkv_bias)
        lin(p + "self_attn.v_proj", G * hd, d, qkv_bias)
        lin(p + "self_attn.o_proj", d, H * hd, o_bias)
        if c["model_type"] in ("qwen3", "gemma3_text"):
            g = "gemma_w" if gemma else "gamma"
            out += [(p + "self_attn.q_norm.weight", (hd,), g),
                    (p + "self_attn.k_norm.weight", (hd,), g)]
        for t, n_out, n_in in (("gate_proj", ff, d), ("up_proj", ff, d), ("down_proj", d, ff)):
            lin(p + "mlp." + t, n_out, n_in, bool(c["mlp_bias"]))
        if gemma:  # Gemma3DecoderLayer's four norms, each stored as w of (1 + w)
            out += [(p + name + ".weight", (d,), "gemma_w") for name in
                    ("input_layernorm", "post_attention_layernorm", "pre_feedforward_layernorm",
                     "post_feedforward_layernorm")]
        else:
            out += [(p + "input_layernorm.weight", (d,), "gamma"),
                    (p + "post_attention_layernorm.weight", (d,), "gamma")]
    out.append(("model.norm.weight", (d,), "gemma_w" if gemma else "gamma"))
    if not c["tied"]:
        out.append(("lm_head.weight", (V, d), "linear"))
    return out


def draw(ps, g):
    out = {}
    for name, shape, kind in ps:
        r = torch.randn(shape, generator=g, dtype=torch.float32)
        out[name] = {"tok": 0.5 * r, "gamma": 1.0 + 0.1 * r, "bias": 0.1 * r, "gemma_w": 0.2 * r}.get(kind)
        if out[name] is None:
            out[name] = r / shape[1] ** 0.5
    return out


def write_json(path, obj):
    path.write_text(json.dumps(obj, indent=2, sort_keys=True, ensure_ascii=False) + "\n",
                    encoding="utf-8")


def config(c, V, vocab):
    arch = {"llama": "LlamaForCausalLM", "qwen2": "Qwen2ForCausalLM", "qwen3": "Qwen3ForCausalLM",
            "gemma3_text": "Gemma3ForCausalLM"}
    cfg = {"architectures": [arch[c["model_type"]]], "attention_dropout": 0.0,
           "bos_token_id": vocab[BOS], "eos_token_id": vocab[EOS], "hidden_act": "silu",
           "hidden_size": c["d"], "initializer_range": 0.02, "intermediate_size": c["ff"],
           "max_position_embeddings": 64, "model_type": c["model_type"],
           "num_attention_heads": c["heads"], "num_hidden_layers": c["layers"],
           "num_key_value_heads": c["kv_heads"], "rms_norm_eps": 1e-06,
           "rope_scaling": c["rope_scaling"], "rope_theta": c["rope_theta"],
           "tie_word_embeddings": c["tied"], "torch_dtype": DTYPE_NAMES[c["dtype"]],
           "transformers_version": "4.51.0", "use_cache": True, "vocab_size": V}
    if c["model_type"] == "llama":
        cfg.update({"attention_bias": c["attention_bias"], "head_dim": c["head_dim"],
                    "mlp_bias": c["mlp_bias"], "pretraining_tp": 1})
    if c["model_type"] in ("qwen2", "qwen3"):
        cfg.update({"max_window_layers": c["layers"], "sliding_window": None,
                    "use_sliding_window": False})
    if c["model_type"] == "qwen3":
        cfg.update({"attention_bias": False, "head_dim": c["head_dim"]})
    if c["model_type"] == "gemma3_text":  # as gemma-3-270m's config.json, smaller
        del cfg["hidden_act"]
        cfg.update({"architectures": ["Gemma3ForCausalLM"], "attention_bias": False,
                    "attn_logit_softcapping": None, "final_logit_softcapping": None,
                    "head_dim": c["head_dim"], "hidden_activation": "gelu_pytorch_tanh",
                    "layer_types": c["layer_types"], "pad_token_id": 0,
                    "query_pre_attn_scalar": c["query_pre_attn_scalar"],
                    "rope_local_base_freq": c["rope_local_base_freq"],
                    "sliding_window": c["sliding_window"], "use_bidirectional_attention": False})
    if c.get("rope_parameters"):  # transformers 5's form
        del cfg["rope_theta"], cfg["rope_scaling"]
        cfg["rope_parameters"] = {"rope_theta": c["rope_theta"], "rope_type": "default"}
    return cfg


def write_weights(c, folder, P):
    dt = DTYPES[c["dtype"]]
    stored = {k: v.to(dt) for k, v in P.items()}
    if c.get("inv_freq_buffers"):  # checkpoints of transformers < 4.31 kept RoPE's buffer
        f = 1.0 / (c["rope_theta"] ** (torch.arange(0, c["head_dim"], 2, dtype=torch.float32) / c["head_dim"]))
        for i in range(c["layers"]):
            stored[f"model.layers.{i}.self_attn.rotary_emb.inv_freq"] = f
    meta = {"format": "pt"}
    if c["shards"] == 1:
        save_file(stored, folder / "model.safetensors", meta)
        return
    names = list(P)
    cut = len(names) // 2
    weight_map, total = {}, 0
    for k, part in enumerate((names[:cut], names[cut:])):
        fname = f"model-{k + 1:05d}-of-{c['shards']:05d}.safetensors"
        save_file({n: stored[n] for n in part}, folder / fname, meta)
        for n in part:
            weight_map[n] = fname
            total += stored[n].numel() * stored[n].element_size()
    write_json(folder / "model.safetensors.index.json",
               {"metadata": {"total_size": total}, "weight_map": weight_map})


def read_back(c, folder, P):
    """The stored weights as float64, every tensor accounted for."""
    files = sorted(folder.glob("*.safetensors"))
    got = {}
    for f in files:
        got.update(load_file(f))
    out = {}
    for name, t in got.items():
        if name.endswith("rotary_emb.inv_freq"):
            continue
        assert name in P and t.dtype == DTYPES[c["dtype"]], name
        out[name] = t.to(torch.float64)
    assert set(out) == set(P)
    return out


# ------------------------------------------------------------------------------------------
# Goldens
# ------------------------------------------------------------------------------------------

def options(c, cfg):
    return {"model_type": c["model_type"], "d_model": c["d"], "heads": c["heads"],
            "kv_heads": c["kv_heads"], "head_dim": c["head_dim"], "layers": c["layers"],
            "d_ff": c["ff"], "vocab_size": cfg["vocab_size"], "eps": 1e-06,
            "rope_theta": c["rope_theta"], "rope_scaling": c["rope_scaling"],
            "tied": c["tied"], "qk_norm": c["model_type"] in ("qwen3", "gemma3_text"), "dtype": c["dtype"],
            "shards": c["shards"], "eos_token_id": cfg["eos_token_id"],
            **{k: c[k] for k in ("layer_types", "sliding_window", "rope_local_base_freq",
                                 "query_pre_attn_scalar") if k in c}}


def stage_line(s):
    obj = {"id": s["id"], "layer": s["layer"], "block": s["block"], "head": s["head"],
           "kv_head": s["kv_head"], "data": jfloats(s["data"].to(torch.float32))}
    if s["mean_square"] is not None:
        obj["mean_square"] = jfloats(s["mean_square"].to(torch.float32))
    return dumps(obj)


def compute_case(c):
    folder = OUT_DIR / c["case"]
    folder.mkdir(parents=True, exist_ok=True)
    for old in folder.glob("*"):
        old.unlink()
    vocab, merges = tokenizer_files(folder)
    V = len(vocab) + 4  # a few ids past the tokenizer's, as real configs have
    cfg = config(c, V, vocab)
    write_json(folder / "config.json", cfg)
    g = torch.Generator().manual_seed(c["seed"])
    write_weights(c, folder, draw(params(c, V), g))
    P = read_back(c, folder, dict.fromkeys(n for n, _, _ in params(c, V)))
    o = {"heads": c["heads"], "kv_heads": c["kv_heads"], "head_dim": c["head_dim"],
         "eps": 1e-06, "layers": c["layers"], "rope_theta": c["rope_theta"],
         "rope_scaling": c["rope_scaling"], "qk_norm": c["model_type"] in ("qwen3", "gemma3_text")}
    if c["model_type"] == "gemma3_text":
        # Gemma3TextScaledWordEmbedding: torch.tensor(hidden_size**0.5) cast to the weights' dtype.
        scale = torch.tensor(c["d"] ** 0.5).to(DTYPES[c["dtype"]]).to(torch.float64)
        o.update({"gemma": True, "embed_scale": float(scale),
                  **{k: c[k] for k in ("layer_types", "sliding_window", "rope_local_base_freq",
                                       "query_pre_attn_scalar")}})
    inv = {i: t for t, i in vocab.items()}
    checks, inputs = {}, []
    for k, text in enumerate(c["texts"]):
        ids = encode(text, vocab, merges)
        assert 5 <= len(ids) <= 14, (text, ids)
        assert not c.get("sliding_window") or len(ids) > c["sliding_window"] + 1, "the window must bite"
        st = checked_pass(P, o, ids, checks)
        new, probs = generate(P, o, ids, STEPS, checks)
        inputs.append({"name": f"text{k}", "text": text, "token_ids": ids,
                       "tokens": [inv[i] for i in ids],
                       "generation": {"new_ids": new, "probabilities": jfloats(probs)},
                       "stages": st.list})
    notes = "; ".join([c["note"], "every stage a float64 step-by-step torch %s computation "
                       "following modeling_%s.py, checked against a compact batched one "
                       "(rotate_half, repeat_kv); max abs diff %.3g" % (
                           torch.__version__, c["model_type"].replace("_text", ""), max(checks.values()))])
    write_golden(dict(c, kind=c["model_type"]), notes, options(c, cfg), inputs, line=stage_line)
    return inputs


def main():
    torch.use_deterministic_algorithms(True)
    torch.set_num_threads(1)
    OUT_DIR.mkdir(parents=True, exist_ok=True)
    for c in CASES:
        inputs = compute_case(c)
        print("%-28s %s n=%s stages=%d" % (c["case"], c["dtype"],
                                          ",".join(str(len(e["token_ids"])) for e in inputs),
                                          sum(len(e["stages"]) for e in inputs)))
    (OUT_DIR / "decoder_cases.json").write_text(dumps([c["case"] for c in CASES]) + "\n",
                                                encoding="utf-8")


if __name__ == "__main__":
    main()
