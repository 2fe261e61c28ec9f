#!/usr/bin/env python3
"""Writes the fuzzers' starting inputs into a folder per harness (tests/fuzz/README.md).

    tests/fuzz/make_seeds.py OUT_DIR

Seeds come from the repository's own test files (tests/reference/, lessons/) and from small
files made here: tiny model files in every shape the model format allows, their metadata, and
session files. scripts/fuzz.sh merges them into tests/fuzz/corpus/<harness>/ (libFuzzer
-merge=1 keeps only the inputs that add coverage). Standard library only.
"""

import base64
import glob
import json
import os
import random
import re
import struct
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))


def safetensors(tensors, metadata=None):
    """The bytes of a safetensors file: F32 tensors (name -> (shape, values)), keys sorted."""
    header, data = {}, b""
    if metadata:
        header["__metadata__"] = metadata
    for name in sorted(tensors):
        shape, values = tensors[name]
        blob = struct.pack("<%df" % len(values), *values)
        header[name] = {"dtype": "F32", "shape": shape, "data_offsets": [len(data), len(data) + len(blob)]}
        data += blob
    text = json.dumps(header, separators=(",", ":")).encode()
    text += b" " * ((8 - len(text) % 8) % 8)
    return struct.pack("<Q", len(text)) + text + data


def numbers(rng, n):
    return [round(rng.uniform(-0.5, 0.5), 3) for _ in range(n)]


def model_tensors(rng, d, dff, enc, dec, final_norms, vs, vt):
    """The tensors of docs/model-format.md for these sizes (vs = 0: an open vocabulary)."""
    t = {}

    def attention(p):
        t[p + "in_proj_weight"] = ([3 * d, d], numbers(rng, 3 * d * d))
        t[p + "in_proj_bias"] = ([3 * d], numbers(rng, 3 * d))
        t[p + "out_proj.weight"] = ([d, d], numbers(rng, d * d))
        t[p + "out_proj.bias"] = ([d], numbers(rng, d))

    def norm(p):
        t[p + "weight"] = ([d], [1.0] * d)
        t[p + "bias"] = ([d], [0.0] * d)

    def ffn(p):
        t[p + "linear1.weight"] = ([dff, d], numbers(rng, dff * d))
        t[p + "linear1.bias"] = ([dff], numbers(rng, dff))
        t[p + "linear2.weight"] = ([d, dff], numbers(rng, d * dff))
        t[p + "linear2.bias"] = ([d], numbers(rng, d))

    for i in range(enc):
        p = "encoder.layers.%d." % i
        attention(p + "self_attn.")
        ffn(p)
        norm(p + "norm1.")
        norm(p + "norm2.")
    for i in range(dec):
        p = "decoder.layers.%d." % i
        attention(p + "self_attn.")
        attention(p + "multihead_attn.")
        ffn(p)
        for k in (1, 2, 3):
            norm(p + "norm%d." % k)
    if final_norms:
        norm("encoder.norm.")
        if dec:
            norm("decoder.norm.")
    if vs:
        t["src_embed.weight"] = ([vs, d], numbers(rng, vs * d))
        t["tgt_embed.weight"] = ([vt, d], numbers(rng, vt * d))
        t["generator.weight"] = ([vt, d], numbers(rng, vt * d))
        t["generator.bias"] = ([vt], numbers(rng, vt))
    return t


MODELS = [
    # name, d, heads, d_ff, encoder layers, decoder layers, extra metadata
    ("post_relu", 4, 2, 4, 1, 1, {}),
    ("pre_gelu", 2, 1, 2, 1, 1, {"norm": "pre", "activation": "gelu", "layer_norm_eps": "1e-06", "tokenizer": "chars",
                                 "lowercase": "true", "positional_encoding": "none", "embed_scale": "false",
                                 "max_target_length": "5", "name": "tiny", "description": "a test"}),
    ("no_final_norms", 2, 2, 2, 1, 1, {"final_norms": "false"}),
    ("encoder_stack", 4, 4, 4, 1, 0, {}),
    ("open_vocabulary", 2, 1, 2, 1, 1, {"open_vocabulary": "true", "seed": "7"}),
]


def write(folder, name, data):
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, name), "wb") as f:
        f.write(data if isinstance(data, bytes) else data.encode())


def models(out):
    rng = random.Random(1)
    for name, d, heads, dff, enc, dec, extra in MODELS:
        md = {"format": "attention-lab-seq2seq/1", "d_model": str(d), "heads": str(heads), "d_ff": str(dff),
              "encoder_layers": str(enc), "decoder_layers": str(dec)}
        open_vocabulary = "open_vocabulary" in extra
        if not open_vocabulary:
            md["src_vocab"] = json.dumps(["<unk>", "a", "b", "我"])
            md["tgt_vocab"] = json.dumps(["<sos>", "<eos>", "<unk>", "a", "b"])
        md.update(extra)
        tensors = model_tensors(rng, d, dff, enc, dec, md.get("final_norms", "true") == "true",
                                0 if open_vocabulary else 4, 5)
        write(os.path.join(out, "fuzz_model"), name + ".safetensors", safetensors(tensors, md))
        write(os.path.join(out, "fuzz_model_metadata"), name + ".json", json.dumps(md))
    with open(os.path.join(ROOT, "resources/models/reversal.safetensors"), "rb") as f:
        blob = f.read()
    n = struct.unpack("<Q", blob[:8])[0]
    write(os.path.join(out, "fuzz_model_metadata"), "reversal.json", json.dumps(json.loads(blob[8:8 + n])["__metadata__"]))


def tensor_files(out):
    files = sorted(glob.glob(os.path.join(ROOT, "tests/reference/*/*.safetensors")))
    for harness in ("fuzz_safetensors", "fuzz_weights"):
        for path in files:
            if os.path.getsize(path) <= 6144:
                with open(path, "rb") as f:
                    write(os.path.join(out, harness), os.path.basename(path), f.read())
    for path in glob.glob(os.path.join(out, "fuzz_model", "*")):
        with open(path, "rb") as f:
            write(os.path.join(out, "fuzz_safetensors"), "model_" + os.path.basename(path), f.read())


def lessons(out):
    paths = sorted(glob.glob(os.path.join(ROOT, "lessons/*/*.md")) + glob.glob(os.path.join(ROOT, "tests/reference/lessons-*/*.md")))
    settings = set()
    sentences = set()
    for path in paths:
        with open(path, "rb") as f:
            text = f.read()
        tag = os.path.basename(os.path.dirname(path)) + "_" + os.path.basename(path)
        write(os.path.join(out, "fuzz_lesson"), tag, text)
        for line in text.decode("utf-8", "replace").splitlines():
            m = re.match(r"(settings|sentence|target)\s*[:：]\s*(.*)", line)
            if m and m.group(1) == "settings":
                settings.add(m.group(2))
            elif m:
                sentences.add(m.group(2))
    for i, s in enumerate(sorted(settings)):
        write(os.path.join(out, "fuzz_settings"), "settings_%02d" % i, s)
    for i, s in enumerate(sorted(sentences)):
        # Two bytes first: max_tokens and pad_to (fuzz_tokenizer.cpp).
        write(os.path.join(out, "fuzz_tokenizer"), "sentence_%02d" % i, bytes([32, i % 33]) + s.encode())


def subword(out):
    """fuzz_subword.cpp: a first byte for the mode, then text (the reference cases), a small
    vocab.txt, or a vocab.json of the 256 byte characters, a NUL and merges."""
    folder = os.path.join(out, "fuzz_subword")
    with open(os.path.join(ROOT, "tests/reference/tokenizers/cases.json"), encoding="utf-8") as f:
        cases = json.load(f)
    for c in cases["gpt2"]:
        text = bytes.fromhex(c["text_hex"]) if "text_hex" in c else c["text"].encode()
        write(folder, "gpt2_" + c["name"], b"\x00" + text)
    for c in cases["bert_uncased"]:
        text = bytes.fromhex(c["text_hex"]) if "text_hex" in c else c["text"].encode()
        if "text_b" in c:
            text += b"\x1f" + c["text_b"].encode()
        write(folder, "bert_" + c["name"], b"\x05" + text)
    write(folder, "vocab_txt", b"\x06[PAD]\n[UNK]\r\n[CLS]\r[SEP]\n[MASK]\nthe\nun\n##aff\n##able\n\n[\n]\n")
    printable = list(range(0x21, 0x7F)) + list(range(0xA1, 0xAD)) + list(range(0xAE, 0x100))
    alphabet, extra = [], 0
    for b in range(256):
        alphabet.append(chr(b) if b in printable else chr(0x100 + extra))
        extra += b not in printable
    vocab = {ch: i for i, ch in enumerate(alphabet + ["ab", "abc", "\u0120a", "<|endoftext|>"])}
    merges = "#version: 0.2\na b\nab c\n\u0120 a\n"
    write(folder, "bpe_files", b"\x03" + json.dumps(vocab, ensure_ascii=False).encode() + b"\x00" + merges.encode())


def masks(out):
    for path in sorted(glob.glob(os.path.join(ROOT, "tests/reference/mha/*.mask"))):
        with open(path, "rb") as f:
            write(os.path.join(out, "fuzz_mask"), os.path.basename(path), f.read())
    write(os.path.join(out, "fuzz_mask"), "commas_bom", "\ufeff# a comment\n0,1\r\n1, 0\n\n")


def configs(out):
    seen = set()
    for path in sorted(glob.glob(os.path.join(ROOT, "tests/reference/*/*.json"))):
        with open(path) as f:
            try:
                config = json.load(f).get("config")
            except (ValueError, AttributeError):
                continue
        if isinstance(config, dict):
            text = json.dumps(config)
            if text not in seen:
                seen.add(text)
                write(os.path.join(out, "fuzz_config_json"), "config_%02d" % len(seen), text)
    model = {"d_model": 16, "heads": 2, "seed": 7, "pe": "learned", "mask": "causal+padding", "pad_to": 6, "max_tokens": 8,
             "model": "seeded", "architecture": "encoder", "layers": 3, "d_ff": 0, "norm": "pre", "activation": "gelu",
             "layer_norm_eps": 1e-6, "attention": "full", "decoder_layers": 0}
    write(os.path.join(out, "fuzz_config_json"), "model", json.dumps(model))


def sessions(out):
    with open(os.path.join(ROOT, "tests/reference/mha/custom.safetensors"), "rb") as f:
        weights = base64.b64encode(f.read()).decode()
    base = {"format": "attention-lab.session", "version": 1, "sentence": "<sos> Je vais bien",
            "config": {"d_model": 16, "heads": 2, "d_k": 8, "seed": 7, "pe": "sinusoidal", "embed_scale": True, "scale": True,
                       "mask": "causal", "pad_to": None, "max_tokens": 512, "weights_preset": "seeded"},
            "weights": {"source": "seeded"}, "custom_mask": None, "step": "scaled", "head": 1}
    variants = {
        "plain": {},
        "embedded_weights": {"config": {"d_model": 8, "heads": 2, "mask": "custom"}, "sentence": "Masks hide some keys.",
                             "weights": {"source": "file", "path": "custom.safetensors", "embedded_safetensors_base64": weights},
                             "custom_mask": [[0, 0, 0, 0, 0], [1, 1, 0, 0, 0], [0, 1, 0, 0, 0], [0, 0, 1, 1, 1], [0, 1, 0, 0, 0]]},
        "model": {"config": {"d_model": 64, "heads": 4, "model": "reversal", "architecture": "encoder-decoder", "layers": 2},
                  "sentence": "hello", "step": "weights", "step_layer": 1, "step_block": "cross", "target": None,
                  "generation_step": 2},
        "teacher_forcing": {"config": {"model": "seeded", "layers": 1}, "target": "a b", "step_layer": None,
                            "step_block": "", "generation_step": -1},
        "file_model": {"config": {"model": "file"}, "model_path": "model.safetensors", "step_layer": 0,
                       "step_block": "encoder_self"},
        "lesson": {"lesson": {"path": ":/lessons/en/04-look-ahead-mask.md", "step": 2}},
    }
    for name, change in variants.items():
        s = dict(base)
        s.update(change)
        write(os.path.join(out, "fuzz_session"), name + ".attnlab.json", json.dumps(s, indent=1))


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: make_seeds.py OUT_DIR")
    out = sys.argv[1]
    models(out)
    tensor_files(out)
    lessons(out)
    masks(out)
    subword(out)
    configs(out)
    sessions(out)


if __name__ == "__main__":
    main()
