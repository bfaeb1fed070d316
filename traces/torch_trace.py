"""PyTorch-profiler traces -> per-layer training profiles (traces/README.md, "Importing a
PyTorch profiler trace").

`import-trace` reads the Chrome-trace JSON that torch.profiler writes
(`prof.export_chrome_trace(...)` or `tensorboard_trace_handler`), recorded with
`record_shapes=True, with_stack=True` (which records the `nn.Module: <Class>_<n>` spans), and
the model (only to read its parameter sizes and module names: random initialisation, nothing
is downloaded). Per training step (a `ProfilerStep#N` span; without one the whole trace is one
step):

* forward ops (`cpu_op` events that carry a `Sequence number` and are not inside
  `autograd::engine::evaluate_function`) belong to the layer whose module span started last
  before them: the layer's own ops plus the parameter-free ops that follow it, the attribution
  of the hook profiler (`measure`);
* backward ops (`autograd::engine::evaluate_function: <Node>`) belong to the layer of the
  forward op with the same sequence number (autograd gives a backward node the sequence
  number of the forward op that created it); those without one (AccumulateGrad) go to the
  layer of the backward op before them;
* an op's time is the summed duration of the GPU kernels it launched (kernel events linked by
  `External id` / `correlation`) or, in a trace without kernels (a CPU run), its own duration;
  only top-level ops count, so nested ops are not counted twice;
* update: the optimizer's span (`Optimizer.step#...`) is split over the layers in proportion
  to their parameter bytes (a model: the trace does not say which op updates which tensor).

`record-trace` records such a trace here. With a Kineto build of torch (every CUDA build) it
writes the profiler's own export. Debian's torch 1.13 is built without Kineto: its legacy
profiler exports events without sequence numbers or module spans, so `record-trace` then
writes the same Chrome-trace schema itself from the legacy profiler's events (which do record
sequence numbers and input shapes), with the module spans recorded as `nn.Module: <Class>_<n>`
record_function ranges by forward pre/post hooks, the names Kineto's Python tracer uses.
"""

import collections
import json
import os
import sys

BACKWARD_PREFIX = "autograd::engine::evaluate_function: "
MODULE_PREFIX = "nn.Module: "


class TraceError(Exception):
    pass


# --------------------------------------------------------------------------------------
# Module naming shared by the recorder and the importer
# --------------------------------------------------------------------------------------

def module_call_order(model, run_forward):
    """Module names in the order of their first forward call."""
    order = []
    seen = set()
    handles = []
    for name, mod in model.named_modules():
        def pre(mod, inp, _n=name):
            if _n not in seen:
                seen.add(_n)
                order.append(_n)
        handles.append(mod.register_forward_pre_hook(pre))
    try:
        run_forward()
    finally:
        for h in handles:
            h.remove()
    return order


def trace_names(model, order):
    """{module name: "nn.Module: <Class>_<n>"}, n counting modules of a class in call order
    (the numbering of Kineto's Python tracer)."""
    count = collections.Counter()
    out = {}
    for name in order:
        cls = type(model.get_submodule(name) if name else model).__name__
        out[name] = "%s%s_%d" % (MODULE_PREFIX, cls, count[cls])
        count[cls] += 1
    return out


# --------------------------------------------------------------------------------------
# record-trace
# --------------------------------------------------------------------------------------

def legacy_to_chrome(events, step_spans):
    """Chrome-trace JSON in Kineto's schema from legacy FunctionEvents."""
    out = []
    ext = 0
    for e in events:
        ext += 1
        name = e.name
        cat = "cpu_op"
        args = {"External id": ext}
        if name.startswith(MODULE_PREFIX):
            cat = "python_function"
            args = {}
        elif name.startswith("ProfilerStep#") or name.startswith("Optimizer."):
            cat = "user_annotation"
        else:
            if e.sequence_nr is not None and e.sequence_nr >= 0:
                args["Sequence number"] = e.sequence_nr
                args["Fwd thread id"] = e.fwd_thread if e.fwd_thread is not None else 0
            if e.input_shapes:
                args["Input Dims"] = e.input_shapes
        out.append({"ph": "X", "cat": cat, "name": name, "pid": os.getpid(),
                    "tid": e.thread, "ts": round(e.time_range.start, 3),
                    "dur": round(e.time_range.end - e.time_range.start, 3), "args": args})
    for i, (a, b) in enumerate(step_spans):
        out.append({"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#%d" % i,
                    "pid": os.getpid(), "tid": out[0]["tid"] if out else 0,
                    "ts": round(a, 3), "dur": round(b - a, 3), "args": {}})
    out.sort(key=lambda e: (e["ts"], -e["dur"]))
    return {"schemaVersion": 1, "traceEvents": out,
            "distributedTrainingNote": "written by traces/profile_model.py record-trace from "
                                       "torch's legacy profiler (this torch has no Kineto); "
                                       "Kineto's Chrome-trace schema"}


class Recorder:
    """Records training steps as a Chrome trace (Kineto's schema) with the legacy profiler.

    Usage: `rec = Recorder(model, x, torch)`, then `with rec.step(): <one training step>`
    for every recorded step, then `rec.write(path)`. Module spans are record_function ranges
    opened and closed by forward pre/post hooks, named as Kineto's Python tracer names them.
    `measure --trace-output` uses it around its own hooked steps, so that the hook profile and
    the trace describe the very same steps."""

    def __init__(self, model, x, torch):
        from torch.autograd import profiler as legacy

        self.torch = torch
        order = module_call_order(model, lambda: model(x))
        names = trace_names(model, order)
        self.ranges = []
        self.handles = []
        for name in order:
            mod = model.get_submodule(name) if name else model

            def pre(mod, inp, _n=names[name]):
                r = torch.autograd.profiler.record_function(_n)
                r.__enter__()
                self.ranges.append(r)

            def post(mod, inp, out):
                self.ranges.pop().__exit__(None, None, None)

            self.handles.append(mod.register_forward_pre_hook(pre))
            self.handles.append(mod.register_forward_hook(post))
        self.prof = legacy.profile(record_shapes=True, with_stack=False)
        self.prof.__enter__()

    def step(self):
        return self.torch.autograd.profiler.record_function("ProfilerStepSpan")

    def write(self, output):
        self.prof.__exit__(None, None, None)
        for h in self.handles:
            h.remove()
        fe = self.prof.function_events
        events = [e for e in fe if e.name != "ProfilerStepSpan"]
        spans = [(e.time_range.start, e.time_range.end) for e in fe if e.name == "ProfilerStepSpan"]
        doc = legacy_to_chrome(events, spans)
        tmp = output + ".tmp"
        with open(tmp, "w", encoding="utf-8") as f:
            json.dump(doc, f, separators=(",", ":"))
            f.write("\n")
        os.replace(tmp, output)


def record(model, x, compute_loss, optimizer, steps, warmup, output, torch):
    """Profile `steps` training steps after `warmup`; write the Chrome trace to `output`."""
    from torch.autograd import profiler as legacy

    def step():
        optimizer.zero_grad(set_to_none=True)
        loss = compute_loss(model(x))
        loss.backward()
        optimizer.step()

    for _ in range(warmup):
        step()
    if legacy.kineto_available():
        from torch.profiler import profile, ProfilerActivity, schedule
        acts = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA]
                                         if torch.cuda.is_available() else [])
        with profile(activities=acts, record_shapes=True, with_stack=True,
                     schedule=schedule(wait=0, warmup=0, active=steps),
                     on_trace_ready=lambda p: p.export_chrome_trace(output)) as prof:
            for _ in range(steps):
                step()
                prof.step()
        return "kineto"
    rec = Recorder(model, x, torch)
    for _ in range(steps):
        with rec.step():
            step()
    rec.write(output)
    return "legacy"


# --------------------------------------------------------------------------------------
# import-trace
# --------------------------------------------------------------------------------------

def load_events(path):
    try:
        with open(path, "r", encoding="utf-8") as f:
            doc = json.load(f)
    except (OSError, ValueError) as e:
        raise TraceError("%s: %s (expected a torch.profiler Chrome-trace JSON)" % (path, e))
    events = doc.get("traceEvents") if isinstance(doc, dict) else doc
    if not isinstance(events, list):
        raise TraceError("%s: no traceEvents array (expected a torch.profiler Chrome trace)"
                         % path)
    return [e for e in events if isinstance(e, dict) and e.get("ph") == "X"
            and isinstance(e.get("ts"), (int, float)) and isinstance(e.get("dur"), (int, float))]


def top_level(ops):
    """Ops not nested in another op of the list (same thread), sorted by start."""
    out = []
    ends = {}
    for e in sorted(ops, key=lambda e: (e["ts"], -e["dur"])):
        tid = e.get("tid")
        if e["ts"] + e["dur"] <= ends.get(tid, -1) + 1e-9:
            continue
        out.append(e)
        ends[tid] = max(ends.get(tid, -1), e["ts"] + e["dur"])
    return out


def nest(ops, tops):
    """{id(top): [ops nested in it]} by one sweep per thread over start-sorted ops."""
    out = collections.defaultdict(list)
    by_tid = collections.defaultdict(list)
    for t in tops:
        by_tid[t.get("tid")].append(t)
    pos = collections.Counter()
    for e in sorted(ops, key=lambda e: (e["ts"], -e["dur"])):
        tid = e.get("tid")
        lst = by_tid[tid]
        while pos[tid] + 1 < len(lst) and lst[pos[tid] + 1]["ts"] <= e["ts"]:
            pos[tid] += 1
        if lst and lst[pos[tid]] is not e and lst[pos[tid]]["ts"] <= e["ts"] <= \
                lst[pos[tid]]["ts"] + lst[pos[tid]]["dur"]:
            out[id(lst[pos[tid]])].append(e)
    return out


def kernel_times(events):
    """{External id: summed kernel duration} for GPU kernels (empty in a CPU trace)."""
    corr_to_ext = {}
    for e in events:
        if e.get("cat") in ("cuda_runtime", "cuda_driver"):
            a = e.get("args", {})
            if "correlation" in a and "External id" in a:
                corr_to_ext[a["correlation"]] = a["External id"]
    out = collections.Counter()
    for e in events:
        if e.get("cat") in ("kernel", "gpu_memcpy", "gpu_memset"):
            a = e.get("args", {})
            ext = a.get("External id", corr_to_ext.get(a.get("correlation")))
            if ext is not None:
                out[ext] += e["dur"]
    return out


def op_time(op, nested, kernels):
    """Kernel time of an op and the ops nested in it, or its own duration on a CPU trace."""
    if not kernels:
        return op["dur"]
    ids = [op.get("args", {}).get("External id")] + [n.get("args", {}).get("External id")
                                                     for n in nested]
    return sum(kernels.get(i, 0.0) for i in ids if i is not None)


def split_steps(events):
    steps = sorted((e for e in events if str(e.get("name", "")).startswith("ProfilerStep#")),
                   key=lambda e: e["ts"])
    if not steps:
        return [(min(e["ts"] for e in events), max(e["ts"] + e["dur"] for e in events))]
    return [(s["ts"], s["ts"] + s["dur"]) for s in steps]


def attribute_step(events, span, layer_of_span, n, kernels):
    """Per-layer forward, backward and update times (us) of one step."""
    a, b = span
    inside = [e for e in events if a <= e["ts"] and e["ts"] + e["dur"] <= b + 1e-6]
    starts = sorted((e["ts"], layer_of_span[e["name"]]) for e in inside
                    if e.get("cat") == "python_function" and e["name"] in layer_of_span)
    if not starts:
        raise TraceError("step at %.0f us: no nn.Module span of a layer (expected a trace "
                         "recorded with with_stack=True of this model)" % a)
    ops = [e for e in inside if e.get("cat") in ("cpu_op", None, "operator")
           and not str(e.get("name", "")).startswith(("ProfilerStep#", MODULE_PREFIX))]
    tops = top_level(ops)
    nested = nest(ops, tops)
    bwd_spans = [t for t in tops if t["name"].startswith(BACKWARD_PREFIX)]
    first_bwd = bwd_spans[0]["ts"] if bwd_spans else b
    opt_spans = [e for e in inside if str(e.get("name", "")).startswith("Optimizer.step")]
    fwd = [0.0] * n
    bwd = [0.0] * n
    seq_layer = {}
    k = 0
    current = starts[0][1]
    for t in tops:
        if t["ts"] >= first_bwd or any(s["ts"] <= t["ts"] <= s["ts"] + s["dur"]
                                       for s in opt_spans):
            continue
        while k < len(starts) and starts[k][0] <= t["ts"]:
            current = starts[k][1]
            k += 1
        fwd[current] += op_time(t, nested[id(t)], kernels)
        for e in [t] + nested[id(t)]:
            seq = e.get("args", {}).get("Sequence number")
            if seq is not None:
                seq_layer.setdefault(seq, current)
    last = None
    for t in bwd_spans:
        seq = t.get("args", {}).get("Sequence number")
        layer = seq_layer.get(seq, last)
        if layer is None:
            layer = starts[-1][1]
        bwd[layer] += op_time(t, nested[id(t)], kernels)
        last = layer
    update_total = sum(s["dur"] for s in top_level(opt_spans))
    return fwd, bwd, update_total


def import_trace(path, layers, names, batch_size, model_name, device, extra_prov):
    """Build a profile document from a trace; `layers` as find_layers() returns them,
    `names` {module name: trace span name}."""
    events = load_events(path)
    if not events:
        raise TraceError("%s: no complete ('X') events" % path)
    layer_of_span = {}
    for i, l in enumerate(layers):
        layer_of_span[names.get(l["module_name"], "")] = i
    layer_of_span.pop("", None)
    missing = [l["name"] for l in layers if names.get(l["module_name"]) is None]
    if missing:
        raise TraceError("modules never called in forward: %s" % ", ".join(missing[:5]))
    kernels = kernel_times(events)
    n = len(layers)
    total_bytes = sum(4 * l["numel"] for l in layers)
    samples = []
    for span in split_steps(events):
        fwd, bwd, upd = attribute_step(events, span, layer_of_span, n, kernels)
        samples.append({
            "forward_us": [round(v, 3) for v in fwd],
            "backward_us": [round(v, 3) for v in bwd],
            "update_us": [round(upd * 4 * l["numel"] / total_bytes, 3) for l in layers],
        })
    out_layers = []
    for i, l in enumerate(layers):
        entry = {"name": l["name"], "type": l["type"], "param_bytes": 4 * l["numel"]}
        for f in ("forward", "backward", "update"):
            vals = [s[f + "_us"][i] for s in samples]
            entry[f + "_us"] = round(sum(vals) / len(vals), 3)
        out_layers.append(entry)
    prov = {
        "device": device,
        "framework": "pytorch",
        "method": (
            "Imported from a torch.profiler Chrome trace by traces/profile_model.py "
            "import-trace (traces/torch_trace.py): per step, top-level forward ops are "
            "attributed to the layer whose nn.Module span started last before them, backward "
            "ops (autograd::engine::evaluate_function) to the layer of the forward op with the "
            "same sequence number; op time = summed GPU kernel time of the op (%s); update = "
            "the optimizer span split over the layers in proportion to parameter bytes"
            % ("kernels present" if kernels else "no kernels in the trace: the op's CPU "
               "duration")),
        "derived": False,
        "trace_file": os.path.basename(path),
        "trace_steps": len(samples),
        "gpu_kernel_times": bool(kernels),
    }
    prov.update(extra_prov)
    return {"format": "distributed-training-profile", "version": 1, "model": model_name,
            "batch_size": batch_size, "provenance": prov, "layers": out_layers,
            "samples": samples}
