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

The trace is read in one streaming pass (traces/trace_stream.py); every event field used is
validated, and a step whose attribution cannot be right (a layer without its module span,
forward op or backward op, no optimizer span, overlapping steps or ops) is refused with a
message naming the file, the event or step and the field (traces/README.md, "Every answer right
or refused"). Time is linear in the trace: one sort of the kept events, one sweep over steps.

`record-trace` records such a trace here. With a Kineto build of torch (every CUDA build) it
writes the profiler's own export. Debian's torch 1.13 is built without Kineto: its legacy
profiler exports events without sequence numbers or module spans, so `record-trace` then
writes the same Chrome-trace schema itself from the legacy profiler's events (which do record
sequence numbers and input shapes), with the module spans recorded as `nn.Module: <Class>_<n>`
record_function ranges by forward pre/post hooks, the names Kineto's Python tracer uses.
"""

import collections
import json
import math
import os
import sys

import safe_io
import trace_stream

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
        safe_io.write_output(output, json.dumps(doc, separators=(",", ":")) + "\n", "trace")


def record(model, x, compute_loss, optimizer, steps, warmup, output, torch, autocast=None):
    """Profile `steps` training steps after `warmup`; write the Chrome trace to `output`.
    `autocast`: a context factory for the forward pass and loss (mixed precision)."""
    import contextlib
    from torch.autograd import profiler as legacy

    autocast = autocast or contextlib.nullcontext

    def step():
        optimizer.zero_grad(set_to_none=True)
        with autocast():
            loss = compute_loss(model(x))
        loss.backward()
        optimizer.step()

    for _ in range(warmup):
        step()
    if legacy.kineto_available():
        from torch.profiler import profile, ProfilerActivity, schedule
        acts = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA]
                                         if torch.cuda.is_available() else [])
        # One cycle (repeat=1): with the default repeat=0 a new cycle starts after the last
        # active step, and torch >= 2 exports that empty cycle too, over the first export.
        # One profiler warm-up step, as torch recommends; ProfilerStep#1.. are the recorded ones.
        with profile(activities=acts, record_shapes=True, with_stack=True,
                     schedule=schedule(wait=0, warmup=1, active=steps, repeat=1),
                     on_trace_ready=lambda p: safe_io.replace_with(
                         output, lambda fd, tmp: p.export_chrome_trace(tmp), "trace")) as prof:
            for _ in range(steps + 1):
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
# import-trace: the layer table
# --------------------------------------------------------------------------------------

TABLE_KEYS = ("model", "model_config", "layers", "trace_names")
TABLE_LAYER_KEYS = ("name", "module_name", "type", "numel", "folded")
# The profile format's limit on the summed parameter bytes (traces/README.md).
MAX_TOTAL_BYTES = 10 ** 12


def _table_field(where, v, kind):
    """Check one field of the layer table; `kind`: 'name', 'str', 'count', 'strings', 'object'."""
    ok = {"name": lambda: type(v) is str and v != "",
          "str": lambda: type(v) is str,
          "count": lambda: type(v) is int and 0 <= v < MAX_TOTAL_BYTES,
          "strings": lambda: type(v) is list and all(type(x) is str for x in v),
          "object": lambda: type(v) is dict}[kind]()
    if not ok:
        expected = {"name": "a non-empty string", "str": "a string",
                    "count": "an integer from 0 to 10^12", "strings": "an array of strings",
                    "object": "an object"}[kind]
        raise TraceError("%s: %s (expected %s)" % (where, safe_io.show(v), expected))


def check_module_table(table, path):
    """Validate a layer table (record-trace --modules-output, or built from the model):
    {"model", "model_config", "layers": [{"name", "module_name", "type", "numel", "folded"}],
    "trace_names": {module name: "nn.Module: <Class>_<n>"}}. Every layer needs its own span
    name, else its ops would be attributed to another layer."""
    if type(table) is not dict:
        raise TraceError("%s: %s (expected a layer table object)" % (path, safe_io.show(table)))
    for key in table:
        if key not in TABLE_KEYS:
            raise TraceError("%s: %s: unknown field (expected %s)"
                             % (path, key, ", ".join(TABLE_KEYS)))
    for key, kind in zip(TABLE_KEYS, ("name", "object", None, "object")):
        if key not in table:
            raise TraceError("%s: %s: missing" % (path, key))
        if kind:
            _table_field("%s: %s" % (path, key), table[key], kind)
    layers = table["layers"]
    if type(layers) is not list or not layers:
        raise TraceError("%s: layers: %s (expected a non-empty array)"
                         % (path, safe_io.show(layers)))
    names = table["trace_names"]
    for module, span in names.items():
        if type(span) is not str or not span.startswith(MODULE_PREFIX):
            raise TraceError("%s: trace_names.%s: %s (expected \"%s<Class>_<n>\")"
                             % (path, module, safe_io.show(span), MODULE_PREFIX))
    seen = {}
    spans = {}
    total = 0
    for i, l in enumerate(layers):
        where = "%s: layers[%d]" % (path, i)
        if type(l) is not dict:
            raise TraceError("%s: %s (expected an object)" % (where, safe_io.show(l)))
        for key in l:
            if key not in TABLE_LAYER_KEYS:
                raise TraceError("%s.%s: unknown field" % (where, key))
        for key, kind in zip(TABLE_LAYER_KEYS, ("name", "str", "str", "count", "strings")):
            if key not in l:
                raise TraceError("%s.%s: missing" % (where, key))
            _table_field("%s.%s" % (where, key), l[key], kind)
        if l["name"] in seen:
            raise TraceError("%s.name: %s is also layers[%d]" % (where, safe_io.show(l["name"]),
                                                                  seen[l["name"]]))
        seen[l["name"]] = i
        span = names.get(l["module_name"])
        if span is None:
            raise TraceError("%s.module_name: %s has no entry in trace_names (expected its "
                             "nn.Module span name; a module that never runs in forward has "
                             "none)" % (where, safe_io.show(l["module_name"])))
        if span in spans:
            raise TraceError("%s: span name %s is also that of layers[%d]"
                             % (where, safe_io.show(span), spans[span]))
        spans[span] = i
        total += 4 * l["numel"]
    if not 0 < total < MAX_TOTAL_BYTES:
        raise TraceError("%s: layers: %d parameter bytes in all (expected more than 0 and less "
                         "than 10^12)" % (path, total))
    return spans


# --------------------------------------------------------------------------------------
# import-trace: reading the events (one pass, compact records)
# --------------------------------------------------------------------------------------

# Clock rounding: Kineto writes whole microseconds (start and duration truncated separately),
# so a nested op can appear to end up to 2 us after its parent.
NEST_TOL_US = 2.0
# Largest time stamp or duration accepted (us): doubles hold every integer up to it exactly.
MAX_TIME_US = 2 ** 53
OP_CATS = ("cpu_op", None, "operator")
KERNEL_CATS = ("kernel", "gpu_memcpy", "gpu_memset")
RUNTIME_CATS = ("cuda_runtime", "cuda_driver")
STEP_PREFIX = "ProfilerStep#"
OPT_PREFIX = "Optimizer.step"
_MISSING = object()


class _Scan:
    """What the importer keeps of a trace, one tuple per relevant event, all starting with
    (ts, -end, event index, tid) so that sorting puts parents before their children."""

    def __init__(self, path, layer_of_span):
        self.path = path
        self.layer_of_span = layer_of_span
        self.steps = []  # (ts, -end, i, tid, name)
        self.mods = []  # (ts, -end, i, tid, layer)
        self.opts = []  # (ts, -end, i, tid, False, None, None)
        self.ops = []  # (ts, -end, i, tid, is_backward, sequence number, External id)
        self.corr_ext = {}  # correlation -> (External id, event index)
        self.kern_ext = collections.Counter()  # External id -> summed kernel duration
        self.kern_corr = {}  # correlation -> [summed kernel duration, first event index]
        self.kernel_events = 0
        self.first_corr = math.inf  # the smallest correlation id of a recorded launch
        self.kernels_before = 0  # kernels launched before the recording began
        self.first = math.inf
        self.last = -math.inf
        self.count = 0

    def error(self, i, e, field, got, expected):
        name = e.get("name") if type(e) is dict else None
        who = "event %d%s" % (i, " (%s)" % safe_io.show(name) if type(name) is str else "")
        got = "missing" if got is _MISSING else safe_io.show(got)
        return TraceError("%s: %s: %s: %s (expected %s)" % (self.path, who, field, got, expected))

    def time(self, i, e, key):
        v = e.get(key, _MISSING)
        if type(v) not in (int, float) or not 0 <= v <= MAX_TIME_US:
            raise self.error(i, e, key, v, "a finite number of microseconds from 0 to 2^53")
        return v

    def ident(self, i, e, args, key):
        v = args.get(key, _MISSING)
        if v is _MISSING:
            return None
        if type(v) is not int or not 0 <= v < 2 ** 63:
            raise self.error(i, e, "args." + key, v, "an integer >= 0")
        return v

    def add(self, i, e):
        """Validate event i and keep what the attribution needs."""
        if type(e) is not dict:
            raise self.error(i, e, "event", e, "an object")
        ph = e.get("ph", _MISSING)
        if type(ph) is not str:
            raise self.error(i, e, "ph", ph, "a string such as \"X\"")
        if ph != "X":
            return
        name = e.get("name", _MISSING)
        if type(name) is not str:
            raise self.error(i, e, "name", name, "a string")
        cat = e.get("cat")
        for key in ("cat", "tid", "pid"):
            v = e.get(key)
            if v is not None and type(v) is not str and (key == "cat" or type(v) is not int):
                raise self.error(i, e, key, v, "a string" if key == "cat" else
                                 "an integer or a string")
        args = e.get("args", {})
        if type(args) is not dict:
            raise self.error(i, e, "args", args, "an object")
        ts = self.time(i, e, "ts")
        dur = self.time(i, e, "dur")
        end = ts + dur
        tid = e.get("tid")
        self.count += 1
        self.first = min(self.first, ts)
        self.last = max(self.last, end)
        if cat == "gpu_user_annotation":  # GPU-side copies of the CPU annotations
            return
        if name.startswith(STEP_PREFIX):
            self.steps.append((ts, -end, i, tid, name))
        elif name.startswith(MODULE_PREFIX):
            layer = self.layer_of_span.get(name)
            if layer is not None and cat == "python_function":
                self.mods.append((ts, -end, i, tid, layer))
        elif name.startswith(OPT_PREFIX):
            self.opts.append((ts, -end, i, tid, False, None, None))
        elif cat in OP_CATS:
            self.ops.append((ts, -end, i, tid, name.startswith(BACKWARD_PREFIX),
                             self.ident(i, e, args, "Sequence number"),
                             self.ident(i, e, args, "External id")))
        elif cat in RUNTIME_CATS:
            self.add_runtime(i, e, args)
        elif cat in KERNEL_CATS:
            self.add_kernel(i, e, args, dur)

    def add_runtime(self, i, e, args):
        corr = self.ident(i, e, args, "correlation")
        ext = self.ident(i, e, args, "External id")
        if corr is not None:
            self.first_corr = min(self.first_corr, corr)
        if corr is not None and ext is not None:
            old = self.corr_ext.setdefault(corr, (ext, i))
            if old[0] != ext:
                raise self.error(i, e, "args.External id", ext, "%d, as event %d with the same "
                                 "correlation %d" % (old[0], old[1], corr))

    def add_kernel(self, i, e, args, dur):
        self.kernel_events += 1
        ext = self.ident(i, e, args, "External id")
        if ext is not None:
            self.kern_ext[ext] += dur
            return
        corr = self.ident(i, e, args, "correlation")
        if corr is None:
            raise self.error(i, e, "args.correlation", _MISSING, "the correlation id or "
                             "External id that joins the kernel to its op")
        self.kern_corr.setdefault(corr, [0.0, i])[0] += dur

    def kernels(self):
        """{External id: summed kernel time}; every kernel must join an op's External id."""
        out = collections.Counter(self.kern_ext)
        for corr, (dur, i) in self.kern_corr.items():
            hit = self.corr_ext.get(corr)
            if hit is None and corr < self.first_corr:
                # CUDA numbers launches in order: this kernel was launched before the first
                # recorded launch (the profiler's warm-up step) and ran after recording began.
                # Its op is outside every recorded step, so it belongs to none of them.
                self.kernels_before += 1
                continue
            if hit is None:
                raise TraceError("%s: event %d (a GPU kernel): correlation %d matches no "
                                 "cuda_runtime event with an External id (expected every "
                                 "kernel joined to the op that launched it)" % (self.path, i, corr))
            out[hit[0]] += dur
        seen = {}
        for op in self.ops:
            if op[6] is not None and op[6] in out:
                if op[6] in seen:
                    raise TraceError("%s: events %d and %d: the same External id %d (expected "
                                     "one op per id, else its kernels would count twice)"
                                     % (self.path, seen[op[6]], op[2], op[6]))
                seen[op[6]] = op[2]
        return out

    def step_spans(self):
        """[(ts, end, event index, tid, name)] of the ProfilerStep# spans, in time order."""
        if not self.steps:
            if not self.count:
                raise TraceError("%s: no complete ('X') events" % self.path)
            return [(self.first, self.last, None, None, "the whole trace")]
        out = []
        for ts, nend, i, tid, name in sorted(self.steps):
            if out and ts < out[-1][1] - NEST_TOL_US:
                raise TraceError("%s: event %d (%s) starts %.3f us before the end of event %d "
                                 "(%s) (expected ProfilerStep# spans one after the other)"
                                 % (self.path, i, name, out[-1][1] - ts, out[-1][2], out[-1][4]))
            out.append((ts, -nend, i, tid, name))
        return out


def _bucket(recs, steps, path):
    """Records per step (each sorted like `recs`): those that lie inside the step span. A
    record of the step's thread that starts in a step and ends after it is refused: its time
    would be lost."""
    out = [[] for _ in steps]
    recs.sort()
    k = 0
    for r in recs:
        ts, end = r[0], -r[1]
        while k + 1 < len(steps) and steps[k + 1][0] <= ts:
            k += 1
        for j in (k, k - 1):
            if j >= 0 and steps[j][0] <= ts and end <= steps[j][1] + NEST_TOL_US:
                out[j].append(r)
                break
        else:
            s = steps[k]
            if s[0] <= ts < s[1] and r[3] == s[3]:
                raise TraceError("%s: event %d starts inside %s (event %d) but ends %.3f us "
                                 "after it (expected it within its step)"
                                 % (path, r[2], s[4], s[2], end - s[1]))
    return out


def _top_level(recs, path):
    """Ops not nested in another op of the same thread: [ts, end, is_backward, sequence
    numbers, External ids (own and nested), event index, own sequence number, tid]. An op that
    starts inside another and ends more than NEST_TOL_US after it is refused."""
    tops = []
    current = {}
    for ts, nend, i, tid, bwd, seq, ext in recs:
        end = -nend
        t = current.get(tid)
        if t is not None and (ts < t[1] or ts == t[1] == end):
            if end > t[1] + NEST_TOL_US:
                raise TraceError("%s: event %d ends %.3f us after event %d that it starts in "
                                 "(expected ops of one thread to nest)"
                                 % (path, i, end - t[1], t[5]))
            if seq is not None:
                t[3].append(seq)
            if ext is not None:
                t[4].add(ext)
            continue
        t = [ts, end, bwd, [] if seq is None else [seq], set() if ext is None else {ext}, i, seq,
             tid]
        current[tid] = t
        tops.append(t)
    return tops


# --------------------------------------------------------------------------------------
# import-trace: attribution, one step at a time
# --------------------------------------------------------------------------------------

class _Step:
    """Per-layer forward, backward and update times of one step, with the checks that make a
    wrong attribution a refusal: every layer has its module span, at least one forward op and
    at least one backward op found by sequence number; the optimizer step is there; the
    times of one thread fit in the step span."""

    def __init__(self, path, where, span, layers, span_names):
        self.path = path
        self.where = where
        self.span = span
        self.layers = layers
        self.span_names = span_names
        n = len(layers)
        self.fwd, self.bwd = [0.0] * n, [0.0] * n
        self.n_fwd, self.n_bwd = [0] * n, [0] * n

    def fail(self, what, expected):
        return TraceError("%s: %s: %s (expected %s)" % (self.path, self.where, what, expected))

    def run(self, ops, mods, opts, kernels):
        if not mods:
            raise self.fail("no nn.Module span of a layer", "a trace recorded with "
                            "with_stack=True of this model")
        have = {m[4] for m in mods}
        for k, l in enumerate(self.layers):
            if k not in have:
                raise self.fail("no %s span of layer %s" % (safe_io.show(self.span_names[k]),
                                                            safe_io.show(l["name"])),
                                "every layer's nn.Module span in every step; is it the trace "
                                "of this model?")
        if not opts:
            raise self.fail("no Optimizer.step span", "optimizer.step() recorded in every "
                            "step (the update times come from it)")
        tops = _top_level(ops, self.path)
        seq_layer = self.forward(tops, mods, opts, kernels)
        self.backward(tops, mods, seq_layer, kernels)
        update = sum(t[1] - t[0] for t in _top_level(opts, self.path))
        self.check(tops, opts, update, kernels, mods)
        return update

    def forward(self, tops, mods, opts, kernels):
        """Top-level ops before the first backward op, outside optimizer spans, go to the
        layer whose module span started last before them."""
        first_bwd = next((t[0] for t in tops if t[2]), math.inf)
        seq_layer = {}
        k, o = 0, 0
        opt_end = -math.inf
        current = mods[0][4]
        for t in tops:
            if t[0] >= first_bwd:
                break
            while o < len(opts) and opts[o][0] <= t[0]:
                opt_end = max(opt_end, -opts[o][1])
                o += 1
            if t[0] <= opt_end:
                continue
            while k < len(mods) and mods[k][0] <= t[0]:
                current = mods[k][4]
                k += 1
            self.fwd[current] += _op_time(t, kernels)
            self.n_fwd[current] += 1
            # An op that creates no autograd node (dropout with p = 0, a view) records the
            # number the next node will take, so several ops can share one: the node belongs
            # to the last of them, the op that created it.
            for seq in t[3]:
                seq_layer[seq] = current
        return seq_layer

    def backward(self, tops, mods, seq_layer, kernels):
        """A backward op goes to the layer of the forward op with its sequence number, one
        without (AccumulateGrad) to the layer of the backward op before it."""
        last = None
        for t in tops:
            if not t[2]:
                continue
            layer = seq_layer.get(t[6]) if t[6] is not None else None
            if layer is not None:
                self.n_bwd[layer] += 1
            else:
                layer = last if last is not None else mods[-1][4]
            self.bwd[layer] += _op_time(t, kernels)
            last = layer

    def containers(self, mods):
        """Layers whose module span encloses another layer's span start: a module that owns
        parameters directly and also has child layers (ViT's class token and position
        embedding). The ops that use its own parameters run between its children, so the
        attribution rule gives them to the child that started last; it may own no op."""
        spans = sorted((m[0], -m[1], m[4]) for m in mods)
        out = set()
        for a, (ts, end, layer) in enumerate(spans):
            if a + 1 < len(spans) and spans[a + 1][0] < end:
                out.add(layer)
        return out

    def check(self, tops, opts, update, kernels, mods=()):
        self.empty = set()
        containers = self.containers(mods)
        for k, l in enumerate(self.layers):
            if not self.n_fwd[k] and not self.n_bwd[k] and k in containers:
                self.empty.add(k)
                continue
            if not self.n_fwd[k]:
                raise self.fail("layer %s: no forward op after its %s span"
                                % (safe_io.show(l["name"]), safe_io.show(self.span_names[k])),
                                "the layer's own ops")
            if not self.n_bwd[k]:
                raise self.fail("layer %s: no backward op with the sequence number of one of "
                                "its forward ops" % safe_io.show(l["name"]), "autograd::engine::"
                                "evaluate_function ops with args \"Sequence number\"")
        if kernels:
            return
        # CPU durations: the top-level ops of one thread do not overlap, so together they
        # take at most the step span per thread.
        length = self.span[1] - self.span[0] + NEST_TOL_US
        threads = len({t[7] for t in tops}) if tops else 0
        busy = sum(self.fwd) + sum(self.bwd)
        if busy > threads * length or update > len({o[3] for o in opts}) * length:
            raise self.fail("layer times sum to %.3f us forward+backward, %.3f us update, "
                            "more than the step's %.3f us on %d threads" % (
                                busy, update, length, threads), "times within the step")


def _op_time(top, kernels):
    """Kernel time of an op and the ops nested in it, or its own duration on a CPU trace."""
    if not kernels:
        return top[1] - top[0]
    return sum(kernels.get(i, 0.0) for i in top[4])


def _scan_trace(path, span_names):
    scan = _Scan(path, {s: k for k, s in enumerate(span_names)})
    try:
        for i, e in enumerate(trace_stream.events(path)):
            scan.add(i, e)
    except (trace_stream.StreamError, safe_io.InputError) as e:
        raise TraceError(str(e))
    return scan


def import_trace(path, table, table_path, batch_size, model_name, device, extra_prov):
    """Build a profile document from the trace at `path`; `table` is the layer table (the
    --modules file, or built from the model), `table_path` names it in messages."""
    span_of = check_module_table(table, table_path)
    layers = table["layers"]
    span_names = sorted(span_of, key=span_of.get)
    scan = _scan_trace(path, span_names)
    kernels = scan.kernels()
    steps = scan.step_spans()
    ops = _bucket(scan.ops, steps, path)
    mods = _bucket(scan.mods, steps, path)
    opts = _bucket(scan.opts, steps, path)
    total_bytes = sum(4 * l["numel"] for l in layers)
    samples = []
    empty = set()
    for k, s in enumerate(steps):
        where = ("step %d (%s, event %d)" % (k, s[4], s[2]) if s[2] is not None
                 else "the trace (no ProfilerStep# spans: one step)")
        st = _Step(path, where, s, layers, span_names)
        upd = st.run(ops[k], mods[k], opts[k], kernels)
        empty |= st.empty
        samples.append({
            "forward_us": [round(v, 3) for v in st.fwd],
            "backward_us": [round(v, 3) for v in st.bwd],
            "update_us": [round(upd * 4 * l["numel"] / total_bytes, 3) for l in layers],
        })
    doc = _profile(path, layers, samples, bool(scan.kernel_events), batch_size, model_name,
                   device, extra_prov, scan.count)
    doc["provenance"]["kernels_launched_before_recording"] = scan.kernels_before
    doc["provenance"]["layers_without_own_ops"] = [layers[k]["name"] for k in sorted(empty)]
    return doc


def _profile(path, layers, samples, gpu, batch_size, model_name, device, extra_prov, events):
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
            % ("kernels present" if gpu else "no kernels in the trace: the op's CPU "
               "duration")),
        "derived": False,
        "trace_file": os.path.basename(path),
        "trace_steps": len(samples),
        "trace_complete_events": events,
        "gpu_kernel_times": gpu,
    }
    prov.update(extra_prov)
    return {"format": "distributed-training-profile", "version": 1, "model": model_name,
            "batch_size": batch_size, "provenance": prov, "layers": out_layers,
            "samples": samples}
