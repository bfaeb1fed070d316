#!/usr/bin/env python3
"""How long the optimizer step takes on a device, three ways, for the built-in models.

A data-parallel worker (PyTorch DDP, Horovod) applies the averaged gradient itself after the
AllReduce. `profile_model.py measure` times one SGD optimizer per layer (the `update_us` of a
profile: one launch per layer on a GPU); frameworks step one optimizer over all parameters,
as a loop over tensors (`foreach=False`), as multi-tensor kernels (`foreach=True`, torch's
default on CUDA) or as one fused kernel (`fused=True`). This prints and writes, per model, the
time of one step each way: SGD(lr=0.01, momentum=0.9) on random gradients, float32 parameters,
after 5 warm-up steps, the median of 20 (CUDA events on a GPU, perf_counter on a CPU).

    python3 traces/update_times.py --device cuda --output traces/h200-update-times.json
"""

import argparse
import json
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import profile_model as pm  # noqa: E402
import safe_io  # noqa: E402


def timed(torch, cuda, step, reps=20, warmup=5):
    """Median milliseconds of step()."""
    for _ in range(warmup):
        step()
    out = []
    for _ in range(reps):
        if cuda:
            a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            a.record()
            step()
            b.record()
            torch.cuda.synchronize()
            out.append(a.elapsed_time(b))
        else:
            t = time.perf_counter()
            step()
            out.append((time.perf_counter() - t) * 1e3)
    return round(statistics.median(out), 4)


def one_model(name, torch, torchvision, dev):
    args = argparse.Namespace(model=name, num_classes=1000, input_shape=None, aux_weight=0.4,
                              name=None, seq_len=128)
    model = pm.build_model(args, torch, torchvision)[0].to(dev)
    params = [p for p in model.parameters() if p.requires_grad]
    for p in params:
        p.grad = torch.randn_like(p)
    layers = {}
    for m in model.modules():
        own = [p for p in m.parameters(recurse=False) if p.requires_grad]
        if own:
            layers[id(m)] = own
    cuda = dev.type == "cuda"
    per_layer = [torch.optim.SGD(ps, lr=0.01, momentum=0.9, foreach=False)
                 for ps in layers.values()]
    row = {"model": name, "parameters": sum(p.numel() for p in params),
           "layers": len(per_layer),
           "per_layer_ms": timed(torch, cuda, lambda: [o.step() for o in per_layer])}
    for key, kw in (("loop_ms", dict(foreach=False)), ("foreach_ms", dict(foreach=True)),
                    ("fused_ms", dict(fused=True))):
        try:
            opt = torch.optim.SGD(params, lr=0.01, momentum=0.9, **kw)
            row[key] = timed(torch, cuda, opt.step)
        except (RuntimeError, TypeError, ValueError) as e:  # fused needs a build that has it
            row[key] = None
            row[key.replace("_ms", "_error")] = str(e).splitlines()[0][:200]
    print(json.dumps(row), flush=True)
    return row


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--device", choices=("cpu", "cuda"), default="cpu")
    p.add_argument("--models", nargs="*", default=list(pm.BUILTIN_MODELS) + list(pm.TOKEN_MODELS))
    p.add_argument("--output", required=True)
    args = p.parse_args()
    safe_io.output_target(args.output)
    torch, torchvision = pm.import_torch("update_times.py")
    dev = torch.device(args.device)
    rows = [one_model(m, torch, torchvision, dev) for m in args.models]
    device = torch.cuda.get_device_name(dev) if dev.type == "cuda" else pm.cpu_model_name()
    doc = {"device": device, "torch_version": torch.__version__,
           "method": "SGD(lr=0.01, momentum=0.9) step on random gradients, float32, median of 20 "
                     "after 5 warm-up steps; per_layer: one optimizer per parameter-owning module "
                     "(profile_model.py measure's update), loop/foreach/fused: one optimizer over "
                     "all parameters with foreach=False/True or fused=True",
           "rows": rows}
    safe_io.write_output(args.output, json.dumps(doc, indent=1) + "\n", "update times")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except (safe_io.InputError, safe_io.OutputError) as e:
        raise SystemExit(str(e))  # one line naming the path, exit 1
