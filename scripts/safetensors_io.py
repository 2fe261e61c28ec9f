"""Minimal safetensors reader/writer (standard library + torch + numpy).

Used by scripts/gen_reference.py and usable wherever the `safetensors` package is not
installed.  Supports the dtypes F32, F64, F16, BF16 and, for the integer and boolean
buffers that Hugging Face checkpoints carry (embeddings.position_ids, GPT-2's attn.bias),
I64, I32, U8 and BOOL.

File format (https://github.com/huggingface/safetensors):

    8 bytes      little-endian u64 N, the header length
    N bytes      UTF-8 JSON: {"name": {"dtype": "F32", "shape": [..],
                              "data_offsets": [begin, end]}, ...,
                              "__metadata__": {"key": "value", ...}}
                 (offsets are relative to the first byte after the header)
    data         the tensors, little-endian, row-major

The writer lays the tensors out contiguously as the safetensors library does: larger
element sizes first (so every tensor starts on a multiple of its element size), then by
name; the header lists them in that order and is padded with spaces so that 8 + N is a
multiple of 8.  Output is deterministic: the same
tensors and metadata always give the same bytes.

    from safetensors_io import save_file, load_file
    save_file({"in_proj_weight": w}, "weights.safetensors", {"num_heads": "2"})
    tensors = load_file("weights.safetensors")
"""

import json
import struct

import numpy as np
import torch

# dtype name -> (torch dtype, element size, numpy dtype of the raw little-endian storage)
_DTYPES = {
    "F32": (torch.float32, 4, np.dtype("<f4")),
    "F64": (torch.float64, 8, np.dtype("<f8")),
    "F16": (torch.float16, 2, np.dtype("<f2")),
    "BF16": (torch.bfloat16, 2, np.dtype("<i2")),  # raw bits, reinterpreted by torch
    "I64": (torch.int64, 8, np.dtype("<i8")),
    "I32": (torch.int32, 4, np.dtype("<i4")),
    "U8": (torch.uint8, 1, np.dtype("u1")),
    "BOOL": (torch.bool, 1, np.dtype("?")),
}
_TORCH_TO_NAME = {v[0]: k for k, v in _DTYPES.items()}

_MAX_HEADER = 100 * 1024 * 1024


def _tensor_bytes(t):
    t = t.detach().cpu().contiguous()
    name = _TORCH_TO_NAME.get(t.dtype)
    if name is None:
        raise ValueError(f"unsupported dtype {t.dtype} "
                         f"(supported: {', '.join(_DTYPES)})")
    _, _, npd = _DTYPES[name]
    if name == "BF16":
        arr = t.view(torch.int16).numpy()
    else:
        arr = t.numpy()
    return name, arr.astype(npd, copy=False).tobytes(order="C")


def save_file(tensors, path, metadata=None):
    """Write `tensors` (dict name -> torch.Tensor) to `path` in safetensors format.

    `metadata` is an optional dict of str -> str stored under "__metadata__"."""
    header = {}
    if metadata:
        for k, v in metadata.items():
            if not isinstance(k, str) or not isinstance(v, str):
                raise ValueError("metadata keys and values must be strings")
        header["__metadata__"] = dict(sorted(metadata.items()))
    chunks = []
    offset = 0
    def order(name):  # the safetensors library's order: wider dtypes first, then the name
        t = tensors[name]
        return (-t.element_size(), name)

    for name in sorted(tensors, key=order):
        if name == "__metadata__":
            raise ValueError("'__metadata__' is not a valid tensor name")
        t = tensors[name]
        dtype, data = _tensor_bytes(t)
        header[name] = {
            "dtype": dtype,
            "shape": [int(s) for s in t.shape],
            "data_offsets": [offset, offset + len(data)],
        }
        chunks.append(data)
        offset += len(data)
    hbytes = json.dumps(header, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
    pad = (-(8 + len(hbytes))) % 8
    hbytes += b" " * pad
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(hbytes)))
        f.write(hbytes)
        for c in chunks:
            f.write(c)


def load_metadata(path):
    """Return the "__metadata__" dict of a safetensors file (empty if absent)."""
    with open(path, "rb") as f:
        raw = f.read()
    header, _ = _parse_header(raw)
    return dict(header.get("__metadata__", {}) or {})


def _parse_header(raw):
    if len(raw) < 8:
        raise ValueError("file too short for a safetensors header")
    (n,) = struct.unpack("<Q", raw[:8])
    if n < 1 or n > _MAX_HEADER or n > len(raw) - 8:
        raise ValueError(f"invalid header length {n}")
    header = json.loads(raw[8:8 + n].decode("utf-8"))
    if not isinstance(header, dict):
        raise ValueError("safetensors header is not a JSON object")
    return header, raw[8 + n:]


def load_file(path):
    """Read a safetensors file; returns dict name -> torch.Tensor in the stored dtype."""
    with open(path, "rb") as f:
        raw = f.read()
    header, data = _parse_header(raw)
    out = {}
    for name, info in header.items():
        if name == "__metadata__":
            continue
        dtype = info["dtype"]
        if dtype not in _DTYPES:
            raise ValueError(f"tensor {name!r}: unsupported dtype {dtype}")
        tdt, size, npd = _DTYPES[dtype]
        shape = [int(s) for s in info["shape"]]
        if any(s < 0 for s in shape):
            raise ValueError(f"tensor {name!r}: negative shape {shape}")
        begin, end = (int(x) for x in info["data_offsets"])
        count = 1
        for s in shape:
            count *= s
        if not (0 <= begin <= end <= len(data)) or end - begin != count * size:
            raise ValueError(f"tensor {name!r}: bad data_offsets {[begin, end]}")
        arr = np.frombuffer(data[begin:end], dtype=npd).copy().reshape(shape)
        t = torch.from_numpy(arr)
        if dtype == "BF16":
            t = t.view(torch.bfloat16)
        out[name] = t
    return out
