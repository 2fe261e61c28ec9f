#!/usr/bin/env python3
"""Writes a model that never ends its output: the shipped reversal model with the generator's
bias of <eos> at -10000 (so greedy decoding never picks it) and max_target_length 1024, the
longest a model may have (docs/model-format.md). Generation then always takes all 1024 steps:
the worst case of the studio's generation (issue 27) and of the command line's time estimate.

    scripts/make_never_eos_model.py [OUT]   (default: never-eos.safetensors)

Standard library only: the tensors' bytes are kept as they are, one float of generator.bias is
changed and the header's metadata rewritten.
"""

import json
import os
import struct
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SHIPPED = os.path.join(HERE, "..", "resources", "models", "reversal.safetensors")


def main():
    if len(sys.argv) > 2:
        sys.exit("usage: make_never_eos_model.py [OUT]  (one output file; the input is always the shipped model)")
    out = sys.argv[1] if len(sys.argv) > 1 else "never-eos.safetensors"
    if os.path.exists(out) and os.path.samefile(out, SHIPPED):
        sys.exit("make_never_eos_model.py: refusing to overwrite the shipped model " + SHIPPED)
    data = open(SHIPPED, "rb").read()
    (n,) = struct.unpack("<Q", data[:8])
    header = json.loads(data[8 : 8 + n])
    body = bytearray(data[8 + n :])
    meta = header.pop("__metadata__")
    eos = json.loads(meta["tgt_vocab"]).index("<eos>")
    bias = header["generator.bias"]
    assert bias["dtype"] == "F32"
    at = bias["data_offsets"][0] + 4 * eos
    body[at : at + 4] = struct.pack("<f", -10000.0)
    meta["max_target_length"] = "1024"
    meta["name"] = "Reversal that never writes <eos>"
    meta["description"] = "The shipped reversal model with <eos> made impossible: it always writes 1024 tokens."
    header["__metadata__"] = meta
    text = json.dumps(header, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    text += b" " * ((8 - (8 + len(text)) % 8) % 8)
    with open(out, "wb") as f:
        f.write(struct.pack("<Q", len(text)) + text + bytes(body))


if __name__ == "__main__":
    main()
