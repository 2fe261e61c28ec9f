"""Bare PyTorch state dicts, as people save them from their own code (issue 12, section 1):
safetensors of a module's state_dict() with PyTorch's own names and no metadata, and the
module's output, for scripts/gen_hf_reference.py.

Writes tests/reference/hf/bare/:
    cases.json              the case names
    <case>.safetensors      save_file(module.state_dict()) (F32, no __metadata__)
    <case>.json             {"case", "notes", "kind", "options", "inputs", "runs"}

Cases (batch_first=True, dropout 0, eval; weights drawn as
scripts/gen_transformer_reference.py's random_state does):
  encoder_layer_post_relu   nn.TransformerEncoderLayer(d 16, 4 heads, d_ff 32, relu,
                            norm_first False, eps 1e-5); input src (6 x 16)
  encoder_pre_gelu_2        nn.TransformerEncoder of 2 layers (d 16, 2 heads, d_ff 48, gelu,
                            norm_first True, eps 1e-5) with a final LayerNorm (norm.*);
                            input src (7 x 16)
  decoder_layer_post_gelu   nn.TransformerDecoderLayer(d 16, 4 heads, d_ff 64, gelu,
                            norm_first False, eps 1e-6); inputs tgt (5 x 16), memory (6 x 16)

"options" holds what the file cannot say (heads, norm, activation, eps) and what its
shapes say (d_model, d_ff, layers, final_norm).  "runs" lists the module's forward output
on the inputs: the encoder cases once without a mask; the decoder layer once with the
causal tgt_mask (given as 0/1, 1 = masked) and once without.
"""

import math

import torch
import torch.nn as nn

from gen_reference import dumps
from gen_transformer_reference import random_state
from hf_models import jfloats
from safetensors_io import load_file, load_metadata, save_file

BARE = [
    dict(case="encoder_layer_post_relu", kind="encoder_layer", d=16, h=4, d_ff=32,
         norm="post", act="relu", eps=1e-5, layers=1, n=6, seed=1221),
    dict(case="encoder_pre_gelu_2", kind="encoder", d=16, h=2, d_ff=48, norm="pre",
         act="gelu", eps=1e-5, layers=2, n=7, seed=1222),
    dict(case="decoder_layer_post_gelu", kind="decoder_layer", d=16, h=4, d_ff=64,
         norm="post", act="gelu", eps=1e-6, layers=1, n=6, m=5, seed=1223),
]


def build(c):
    kw = dict(dim_feedforward=c["d_ff"], dropout=0.0, activation=c["act"],
              layer_norm_eps=c["eps"], batch_first=True, norm_first=c["norm"] == "pre")
    if c["kind"] == "encoder_layer":
        mod = nn.TransformerEncoderLayer(c["d"], c["h"], **kw)
    elif c["kind"] == "encoder":
        layer = nn.TransformerEncoderLayer(c["d"], c["h"], **kw)
        mod = nn.TransformerEncoder(layer, c["layers"],
                                    norm=nn.LayerNorm(c["d"], eps=c["eps"]),
                                    enable_nested_tensor=False)
    else:
        mod = nn.TransformerDecoderLayer(c["d"], c["h"], **kw)
    return mod.eval()


def bare_case(c, out_dir):
    g = torch.Generator().manual_seed(c["seed"])
    mod = build(c)
    state = random_state(mod, g)
    path = out_dir / f"{c['case']}.safetensors"
    save_file(state, path)  # as people save them: no metadata
    loaded = load_file(path)
    assert load_metadata(path) == {} and set(loaded) == set(mod.state_dict())
    mod.load_state_dict(loaded, strict=True)

    src = torch.randn(c["n"], c["d"], generator=g)
    inputs = {"src": None, "tgt": None, "memory": None}
    runs = []
    if c["kind"] == "decoder_layer":
        tgt = torch.randn(c["m"], c["d"], generator=g)
        inputs.update(tgt=jfloats(tgt), memory=jfloats(src))
        causal = torch.triu(torch.ones(c["m"], c["m"], dtype=torch.bool), diagonal=1)
        for mask in (causal, None):
            y = mod(tgt[None], src[None], tgt_mask=mask)[0].detach()
            runs.append({"tgt_mask": None if mask is None else mask.to(torch.int64).tolist(),
                         "output": y})
    else:
        inputs["src"] = jfloats(src)
        runs.append({"src_mask": None, "output": mod(src[None])[0].detach()})
    for r in runs:
        assert torch.isfinite(r["output"]).all() and not math.isnan(float(r["output"].sum()))
    options = {"d_model": c["d"], "heads": c["h"], "d_ff": c["d_ff"], "norm": c["norm"],
               "activation": c["act"], "eps": c["eps"], "layers": c["layers"],
               "final_norm": c["kind"] == "encoder"}
    names = {"encoder_layer": "TransformerEncoderLayer", "encoder": "TransformerEncoder",
             "decoder_layer": "TransformerDecoderLayer"}
    notes = ("torch %s nn.%s, batch_first=True, dropout=0, eval; <case>.safetensors is "
             "save_file(module.state_dict()) with no metadata; outputs from the module's "
             "forward()" % (torch.__version__, names[c["kind"]]))
    lines = ["{",
             '"case":' + dumps(c["case"]) + ",",
             '"notes":' + dumps(notes) + ",",
             '"kind":' + dumps(c["kind"]) + ",",
             '"options":' + dumps(options) + ",",
             '"inputs":' + dumps(inputs) + ",",
             '"runs":[']
    for i, r in enumerate(runs):
        obj = {k: (jfloats(v) if k == "output" else v) for k, v in r.items()}
        lines.append(dumps(obj) + ("," if i + 1 < len(runs) else ""))
    lines += ["]", "}"]
    (out_dir / f"{c['case']}.json").write_text("\n".join(lines) + "\n", encoding="utf-8")


def write_bare(out_dir):
    out_dir.mkdir(parents=True, exist_ok=True)
    torch.set_grad_enabled(True)  # parameters require grad: PyTorch's reference path
    for c in BARE:
        bare_case(c, out_dir)
    (out_dir / "cases.json").write_text(dumps([c["case"] for c in BARE]) + "\n",
                                        encoding="utf-8")
