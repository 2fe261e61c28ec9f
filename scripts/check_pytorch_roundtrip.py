#!/usr/bin/python3
"""Takes Attention Lab's exported weights to PyTorch and checks the numbers agree.

    build/app/attention-lab-cli trace --sentence "..." --mask causal --save-weights w.safetensors -o t.json
    /usr/bin/python3 scripts/check_pytorch_roundtrip.py w.safetensors t.json

Loads w.safetensors into torch.nn.MultiheadAttention with load_state_dict, feeds it the
trace's input X with the trace's mask, and prints the largest difference between PyTorch's
output / attention weights and the trace's `output` / `weights` stages. Exit status 1 when
they differ by more than 1e-5. Needs Debian's python3-torch.
"""
import json
import math
import sys
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parent))
from safetensors_io import load_file  # noqa: E402


def matrix(trace, stage_id, head=None):
    for s in trace["stages"]:
        if s["id"] == stage_id and s["head"] == head:
            rows = s["matrices"][0]["data"]
            return torch.tensor([[float(x) for x in r] for r in rows])
    raise SystemExit(f"stage {stage_id} (head {head}) not in the trace")


def main():
    if len(sys.argv) != 3:
        raise SystemExit(__doc__)
    weights = load_file(sys.argv[1])
    trace = json.loads(Path(sys.argv[2]).read_text())
    d, h = trace["config"]["d_model"], trace["config"]["heads"]
    if not trace["config"]["scale"]:
        raise SystemExit("nn.MultiheadAttention always divides by sqrt(d_k): trace with scaling on")

    mha = torch.nn.MultiheadAttention(d, h, batch_first=True)
    mha.load_state_dict(weights)
    x = matrix(trace, "input")[None]
    blocked = matrix(trace, "mask") == -math.inf
    # Rows whose keys are all masked are NaN in PyTorch and 0 in Attention Lab: compare the rest.
    live = ~blocked.all(dim=1)
    out, att = mha(x, x, x, attn_mask=blocked, average_attn_weights=False)
    diff_out = (out[0][live] - matrix(trace, "output")[live]).abs().max().item()
    diff_att = max((att[0, i][live] - matrix(trace, "weights", i)[live]).abs().max().item() for i in range(h))
    print(f"max |PyTorch - Attention Lab|: output {diff_out:.3g}, attention weights {diff_att:.3g}")
    sys.exit(0 if max(diff_out, diff_att) <= 1e-5 else 1)


if __name__ == "__main__":
    main()
