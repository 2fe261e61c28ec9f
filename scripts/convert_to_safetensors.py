#!/usr/bin/python3
"""Converts a Hugging Face model folder's pytorch_model.bin into model.safetensors.

Attention Lab reads safetensors only (memory-mapped, and never pickled code): a folder that has
only pytorch_model.bin is refused with a message pointing here.

    /usr/bin/python3 scripts/convert_to_safetensors.py FOLDER

Needs Debian's python3-torch and python3-numpy. Reads FOLDER/pytorch_model.bin with
torch.load(weights_only=True when this PyTorch has it), drops tensors that share storage with
another (tied weights, e.g. GPT-2's lm_head.weight = wte.weight; Attention Lab ties them
itself), and writes FOLDER/model.safetensors with scripts/safetensors_io.py. An existing
model.safetensors is never overwritten.
"""

import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from safetensors_io import save_file  # noqa: E402


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: convert_to_safetensors.py FOLDER")
    folder = sys.argv[1]
    source = os.path.join(folder, "pytorch_model.bin")
    target = os.path.join(folder, "model.safetensors")
    if not os.path.isfile(source):
        sys.exit(f"{source}: no such file")
    if os.path.exists(target):
        sys.exit(f"{target} exists already; remove it first to convert again")
    try:
        state = torch.load(source, map_location="cpu", weights_only=True)
    except TypeError:  # PyTorch before 1.13 has no weights_only
        state = torch.load(source, map_location="cpu")
    tensors, seen = {}, {}
    for name, t in state.items():
        if not isinstance(t, torch.Tensor):
            continue
        key = (t.untyped_storage().data_ptr() if hasattr(t, "untyped_storage") else t.storage().data_ptr(), t.storage_offset(), tuple(t.shape))
        if key in seen:
            print(f"skipping {name}: it is tied to {seen[key]}")
            continue
        seen[key] = name
        tensors[name] = t.detach().contiguous()
    save_file(tensors, target)
    print(f"wrote {target} ({len(tensors)} tensors)")


if __name__ == "__main__":
    main()
