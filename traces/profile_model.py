#!/usr/bin/env python3
"""Per-layer training profiles for the distributed-training ns-3 module.

Writes files in the format described in traces/README.md
("distributed-training-profile", version 1).

Subcommands
-----------
measure      time one training step per layer (forward, backward, parameter-server
             update) with PyTorch on this machine (CPU by default, --device cuda on a GPU)
scale        derive a GPU-class profile from a measured one by scaling forward and
             backward times to a published training throughput
scale-table  run `scale` for every row of traces/gpu_throughputs.json
check        validate profile files against the rules of traces/README.md
annotate     add each layer's shape (output elements, multiply-adds, local/full) to profiles
compare      how two profiles of one model differ per layer (shares, gradient-ready curve)

Only the Python standard library, torch and torchvision are used (Debian's
python3-torch / python3-torchvision).  See traces/README.md, sections
"How the shipped profiles were produced" and "Profiling your own model".
"""

import argparse
import datetime
import importlib
import json
import math
import os
import platform
import re
import shlex
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import safe_io  # noqa: E402  (traces/safe_io.py, next to this file)

FORMAT_NAME = "distributed-training-profile"
FORMAT_VERSION = 1
TIME_FIELDS = ("forward", "backward", "update")
# The worker's own whole-model optimizer step and where it comes from (traces/README.md).
WORKER_UPDATE_KEYS = ("worker_update_us", "worker_update_provenance")
MAX_WORKER_UPDATE_US = 3600e6
# The optional per-layer shape (traces/README.md), in the order `annotate` writes it.
SHAPE_FIELDS = ("output_elements", "macs", "local", "halo")
UNIT_FACTORS_US = {"s": 1e6, "ms": 1e3, "us": 1.0, "ns": 1e-3}

# Built-in torchvision models.  Random initialisation only (weights=None): nothing
# is downloaded.  `published_params` is the parameter count torchvision publishes for
# the model (weights enum meta["num_params"], also listed in the torchvision model
# documentation); `measure` checks that the instantiated model has exactly that many
# trainable parameters.
BUILTIN_MODELS = {
    "alexnet": dict(input_shape=(3, 224, 224), kwargs={}, published_params=61100840),
    "vgg11": dict(input_shape=(3, 224, 224), kwargs={}, published_params=132863336),
    "vgg16": dict(input_shape=(3, 224, 224), kwargs={}, published_params=138357544),
    "resnet50": dict(input_shape=(3, 224, 224), kwargs={}, published_params=25557032),
    "resnet101": dict(input_shape=(3, 224, 224), kwargs={}, published_params=44549160),
    "resnet152": dict(input_shape=(3, 224, 224), kwargs={}, published_params=60192808),
    # Train mode with the auxiliary classifier; loss = main + 0.4 * aux as in
    # torchvision's reference training.  27,161,264 parameters include AuxLogits.
    "inception_v3": dict(
        input_shape=(3, 299, 299),
        kwargs=dict(aux_logits=True, transform_input=False, init_weights=True),
        published_params=27161264,
    ),
    # GoogLeNet without the two auxiliary classifiers (aux_logits=False): this is the
    # network torchvision publishes (6,624,904 parameters, GoogLeNet_Weights.IMAGENET1K_V1;
    # torchvision drops the aux heads, which it ships untrained) and the inference
    # network of Szegedy et al. 2015, where the aux heads are discarded after training.
    # With aux heads the model would have 13,004,888 parameters, a count nobody
    # publishes as "GoogLeNet".
    "googlenet": dict(
        input_shape=(3, 224, 224),
        kwargs=dict(aux_logits=False, transform_input=False, init_weights=True),
        published_params=6624904,
    ),
    "densenet121": dict(input_shape=(3, 224, 224), kwargs={}, published_params=7978856),
    # Vision transformers (torchvision; counts from the weights enums' meta["num_params"]).
    "vit_b_16": dict(input_shape=(3, 224, 224), kwargs={}, published_params=86567656),
    "vit_l_16": dict(input_shape=(3, 224, 224), kwargs={}, published_params=304326632),
    "swin_t": dict(input_shape=(3, 224, 224), kwargs={}, published_params=28288354),
}

# Language models written with plain torch.nn in traces/transformer_models.py (no hub):
# token inputs of --seq-len positions, their own loss. `published_params` counts a tied
# tensor once (see transformer_models.py and traces/README.md).
TOKEN_MODELS = {
    "bert_base": dict(builder="bert_base", loss="bert_loss", vocab=30522, max_len=512,
                      published_params=110106428),
    "gpt2_small": dict(builder="gpt2_small", loss="lm_loss", vocab=50257, max_len=1024,
                       published_params=124439808),
}

METHOD_TEXT = (
    "Synthetic data (one fixed random float32 batch and random labels), model.train(), "
    "CrossEntropyLoss{aux}, plain step: zero_grad(set_to_none) -> forward -> loss -> "
    "loss.backward() -> per-layer optimizer step. A layer is a module that directly owns "
    "trainable parameters, listed in the order the forward pass first executes it "
    "(recorded with forward hooks on the first warm-up step). FORWARD: a forward pre-hook "
    "time-stamps the start of every layer; the interval from one layer's start to the next "
    "layer start is that layer's forward time, so parameter-free modules (ReLU, pooling, "
    "dropout, residual add, concat, flatten) executing between two layers are attributed "
    "to the preceding layer; the time from the start of model(x) to the first layer is "
    "added to the first layer and the loss computation to the last layer executed. "
    "BACKWARD: a hook on every trainable parameter time-stamps the moment autograd "
    "delivers its gradient (the AccumulateGrad node, which runs as soon as the layer's "
    "backward node has produced it); a layer's backward time is the interval from the "
    "previous gradient event to its own last one, i.e. its backward kernel plus the "
    "backward of the parameter-free modules that follow it in forward order (again "
    "attributed to the preceding layer); loss.backward() start up to the first event "
    "(loss backward + the last layer's backward) goes to the first layer whose gradient "
    "arrives, and the tail after the last event to the last one. Both passes are thus "
    "tiled without gaps: sum(layer times) == wall time of the pass (coverage 1.0 by "
    "construction; hook overhead is measured separately in reference_unhooked_*). "
    "UPDATE: measured, not modelled: for every layer a separate "
    "torch.optim.SGD(layer_params, lr=0.01, momentum=0.9) is stepped after backward and "
    "timed on the profiling device ({dev}); this is the work of applying that layer's "
    "gradient there (a CPU parameter server's on a CPU, a data-parallel worker's on a GPU). Times in microseconds; layers[i] holds the mean over "
    "the measured steps in `samples` (warm-up steps excluded)."
)


# --------------------------------------------------------------------------------------
# JSON output helpers
# --------------------------------------------------------------------------------------

def r3(x):
    """Round a time in microseconds to nanosecond resolution."""
    return round(float(x), 3)


def mean_r3(values):
    return r3(sum(values) / len(values)) if values else 0.0


def dump_profile(doc, path):
    """Write a profile: one layer per line, one sample array per line."""
    def d(v):
        return json.dumps(v, ensure_ascii=False)

    lines = ["{"]
    for key in ("format", "version", "model", "batch_size"):
        lines.append("  %s: %s," % (d(key), d(doc[key])))
    prov = json.dumps(doc["provenance"], indent=2, ensure_ascii=False).replace("\n", "\n  ")
    lines.append('  "provenance": %s,' % prov)
    for key in WORKER_UPDATE_KEYS:
        if key in doc:
            lines.append("  %s: %s," % (d(key), d(doc[key])))
    lines.append('  "layers": [')
    for i, layer in enumerate(doc["layers"]):
        lines.append("    %s%s" % (d(layer), "," if i + 1 < len(doc["layers"]) else ""))
    has_samples = "samples" in doc
    lines.append("  ]%s" % ("," if has_samples else ""))
    if has_samples:
        lines.append('  "samples": [')
        n = len(doc["samples"])
        for k, s in enumerate(doc["samples"]):
            keys = list(s.keys())
            lines.append("    {")
            for j, key in enumerate(keys):
                lines.append("      %s: %s%s" % (d(key), d(s[key]), "," if j + 1 < len(keys) else ""))
            lines.append("    }%s" % ("," if k + 1 < n else ""))
        lines.append("  ]")
    lines.append("}")
    text = "\n".join(lines) + "\n"
    try:
        check_profile(json.loads(text))  # never write an invalid profile
    except ProfileError as e:
        raise ProfileError("%s: not written: %s" % (path, e))
    safe_io.write_output(path, text, "profile")


def import_torch(command):
    """torch and torchvision, or a one-line error saying how to get them (exit 1)."""
    try:
        import torch
        import torchvision
    except ImportError as e:
        debian = "/usr/bin/python3"
        hint = ("install Debian's python3-torch and python3-torchvision (apt-get install "
                "python3-torch python3-torchvision) and run %s traces/profile_model.py %s ..."
                % (debian, command))
        if os.path.realpath(sys.executable) != os.path.realpath(debian):
            hint += ", or install torch and torchvision for %s" % sys.executable
        raise SystemExit("profile_model.py %s: needs PyTorch, which this Python (%s) cannot "
                         "import (%s): %s" % (command, sys.executable, e, hint))
    return torch, torchvision


# --------------------------------------------------------------------------------------
# Validation (mirrors traces/README.md; the C++ loader is the authority)
# --------------------------------------------------------------------------------------

class ProfileError(Exception):
    pass


def _time_key(obj, path, field):
    keys = [k for k in obj if k.startswith(field + "_")]
    if len(keys) != 1:
        raise ProfileError("%s: need exactly one %s_<unit> key, found %s" % (path, field, keys))
    unit = keys[0][len(field) + 1:]
    if unit not in UNIT_FACTORS_US:
        raise ProfileError("%s.%s: unknown time unit '%s'" % (path, keys[0], unit))
    return keys[0], UNIT_FACTORS_US[unit]


def _check_time(v, path):
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        raise ProfileError("%s: wrong type %r" % (path, type(v).__name__))
    if not math.isfinite(v):
        raise ProfileError("%s: not finite" % path)
    if v < 0:
        raise ProfileError("%s: negative time %r" % (path, v))


def _check_count(v, path):
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        raise ProfileError("%s: wrong type %s (expected a finite number >= 0)"
                           % (path, safe_io.show(v)))
    if not math.isfinite(v) or v < 0:
        raise ProfileError("%s: value %r (expected a finite number >= 0)" % (path, v))


def check_shape(l, path):
    """The optional shape fields of layer `l` (traces/README.md): output_elements and macs
    together, local and halo only with them."""
    present = [k for k in SHAPE_FIELDS if k in l]
    if not present:
        return
    if "output_elements" not in l or "macs" not in l:
        raise ProfileError("%s.%s: shape field alone (expected output_elements and macs "
                           "together, or no shape field; `annotate` writes all four)"
                           % (path, present[0]))
    _check_count(l["output_elements"], path + ".output_elements")
    _check_count(l["macs"], path + ".macs")
    if "local" in l and not isinstance(l["local"], bool):
        raise ProfileError("%s.local: wrong type %s (expected true or false)"
                           % (path, safe_io.show(l["local"])))
    h = l.get("halo", 0)
    if isinstance(h, bool) or not isinstance(h, (int, float)) or not 0 <= h <= 1:
        raise ProfileError("%s.halo: %s (expected a fraction of the input's extent in [0, 1])"
                           % (path, safe_io.show(h)))


def check_profile(doc, mean_tolerance_us=0.01):
    """Raise ProfileError if `doc` breaks a rule of traces/README.md.

    Also checks (our own convention, not a loader rule) that layers[i] times are the
    means of the samples."""
    if not isinstance(doc, dict):
        raise ProfileError("top level is not an object")
    allowed = {"format", "version", "model", "batch_size", "provenance", "layers", "samples"}
    allowed.update(WORKER_UPDATE_KEYS)
    for k in doc:
        if k not in allowed:
            raise ProfileError("%s: unknown field" % k)
    if doc.get("format") != FORMAT_NAME:
        raise ProfileError("format: %s (expected \"%s\")"
                           % (safe_io.show(doc.get("format")), FORMAT_NAME))
    if type(doc.get("version")) is not int or doc["version"] != FORMAT_VERSION:
        raise ProfileError("version: %s (expected 1)" % safe_io.show(doc.get("version")))
    if not isinstance(doc.get("model"), str) or not doc["model"]:
        raise ProfileError("model: need a non-empty string")
    b = doc.get("batch_size")
    if isinstance(b, bool) or not isinstance(b, int) or not 1 <= b <= 10**6:
        raise ProfileError("batch_size: need an integer from 1 to 10^6")
    prov = doc.get("provenance")
    if not isinstance(prov, dict):
        raise ProfileError("provenance: need an object")
    for k in ("device", "framework", "method"):
        if not isinstance(prov.get(k), str) or not prov[k]:
            raise ProfileError("provenance.%s: need a non-empty string" % k)
    if not isinstance(prov.get("derived"), bool):
        raise ProfileError("provenance.derived: need a boolean")
    check_worker_update(doc)
    layers = doc.get("layers")
    if not isinstance(layers, list) or not layers:
        raise ProfileError("layers: need a non-empty array")
    names = set()
    total = 0
    means = []
    for i, l in enumerate(layers):
        path = "layers[%d]" % i
        if not isinstance(l, dict):
            raise ProfileError(path + ": not an object")
        for k in l:
            if k in ("name", "type", "param_bytes") or k in SHAPE_FIELDS:
                continue
            if not any(k.startswith(f + "_") for f in TIME_FIELDS):
                raise ProfileError("%s.%s: unknown field" % (path, k))
        if not isinstance(l.get("name"), str) or not l["name"]:
            raise ProfileError(path + ".name: need a non-empty string")
        if l["name"] in names:
            raise ProfileError(path + ".name: duplicate %r" % l["name"])
        names.add(l["name"])
        if "type" in l and not isinstance(l["type"], str):
            raise ProfileError(path + ".type: need a string")
        pb = l.get("param_bytes")
        if isinstance(pb, bool) or not isinstance(pb, int) or pb < 0:
            raise ProfileError(path + ".param_bytes: need an integer >= 0")
        total += pb
        check_shape(l, path)
        row = []
        for f in TIME_FIELDS:
            key, factor = _time_key(l, path, f)
            _check_time(l[key], path + "." + key)
            row.append(l[key] * factor)
        means.append(row)
    if total <= 0:
        raise ProfileError("layers: sizes sum to 0 bytes")
    if total >= 10**12:
        raise ProfileError("layers: total size >= 10^12 bytes")
    samples = doc.get("samples")
    if samples is not None:
        if not isinstance(samples, list) or not samples:
            raise ProfileError("samples: need a non-empty array")
        n = len(layers)
        sums = [[0.0] * 3 for _ in range(n)]
        for k, s in enumerate(samples):
            path = "samples[%d]" % k
            if not isinstance(s, dict):
                raise ProfileError(path + ": not an object")
            for key in s:
                if not any(key.startswith(f + "_") for f in TIME_FIELDS):
                    raise ProfileError("%s.%s: unknown field" % (path, key))
            for fi, f in enumerate(TIME_FIELDS):
                key, factor = _time_key(s, path, f)
                arr = s[key]
                if not isinstance(arr, list) or len(arr) != n:
                    raise ProfileError("%s.%s: need an array of %d values" % (path, key, n))
                for i, v in enumerate(arr):
                    _check_time(v, "%s.%s[%d]" % (path, key, i))
                    sums[i][fi] += v * factor
        for i in range(n):
            for fi, f in enumerate(TIME_FIELDS):
                m = sums[i][fi] / len(samples)
                if abs(m - means[i][fi]) > mean_tolerance_us + 1e-9 * abs(m):
                    raise ProfileError(
                        "layers[%d].%s: %.3f us is not the mean of the samples (%.3f us)"
                        % (i, f, means[i][fi], m))
    return True


def check_worker_update(doc):
    """worker_update_us (a time up to one hour) with worker_update_provenance, or neither."""
    key, prov_key = WORKER_UPDATE_KEYS
    if key not in doc:
        if prov_key in doc:
            raise ProfileError("%s: a provenance without a time (expected %s with it, or "
                               "neither)" % (prov_key, key))
        return
    _check_time(doc[key], key)
    if doc[key] > MAX_WORKER_UPDATE_US:
        raise ProfileError("%s: absurd time %r us (expected at most one hour per step)"
                           % (key, doc[key]))
    if not isinstance(doc.get(prov_key), str) or not doc[prov_key]:
        raise ProfileError("%s: need a non-empty string saying where %s comes from"
                           % (prov_key, key))


def load_profile(path):
    """A profile file, validated; safe_io.InputError or ProfileError otherwise."""
    doc = safe_io.read_json(path, "profile")
    try:
        check_profile(doc)
    except ProfileError as e:
        raise ProfileError("%s: %s" % (path, e))
    return doc


# --------------------------------------------------------------------------------------
# measure
# --------------------------------------------------------------------------------------

def cpu_model_name():
    try:
        with open("/proc/cpuinfo", "r") as f:
            for line in f:
                if line.lower().startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine() or "unknown CPU"


def blas_description(torch):
    """Which BLAS the running torch actually uses (mapped libraries) + build config."""
    libs = []
    try:
        with open("/proc/self/maps", "r") as f:
            for line in f:
                p = line.split()[-1] if line.split() else ""
                if re.search(r"(blas|lapack|mkl|dnnl|gomp|iomp)", os.path.basename(p)) and p not in libs:
                    libs.append(p)
    except OSError:
        pass
    cfg = torch.__config__.show()
    keys = ["BLAS_INFO", "LAPACK_INFO", "USE_MKLDNN", "USE_OPENMP"]
    build = {}
    for k in keys:
        m = re.search(r"\b%s=([^,\s]+)" % k, cfg)
        if m:
            build[k] = m.group(1)
    m = re.search(r"(Intel\(R\) MKL-DNN[^\n]*|oneDNN[^\n]*)", cfg)
    if m:
        build["mkldnn"] = m.group(1).strip()
    m = re.search(r"CPU capability usage: (\S+)", cfg)
    if m:
        build["cpu_capability"] = m.group(1)
    alt = None
    for cand in ("/etc/alternatives/libblas.so.3-x86_64-linux-gnu",
                 "/etc/alternatives/libblas.so.3-aarch64-linux-gnu",
                 "/etc/alternatives/libblas.so.3"):
        if os.path.lexists(cand):
            alt = os.path.realpath(cand)
            break
    return {"loaded_libraries": libs, "torch_build": build, "libblas_alternative": alt}


def parse_shape(text):
    try:
        dims = tuple(int(x) for x in re.split(r"[,x ]+", text.strip()) if x)
    except ValueError:
        raise SystemExit("--input-shape: expected e.g. 3,224,224, got %r" % text)
    if not dims or any(d <= 0 for d in dims):
        raise SystemExit("--input-shape: expected positive integers, got %r" % text)
    return dims


def build_model(args, torch, torchvision):
    """Return (model, model_name, input_shape, aux_weight, config_note, published_params)."""
    spec = args.model
    if ":" in spec:
        mod_name, fn_name = spec.split(":", 1)
        sys.path.insert(0, os.getcwd())
        try:
            module = importlib.import_module(mod_name)
        finally:
            sys.path.pop(0)
        fn = getattr(module, fn_name)
        model = fn()
        if not isinstance(model, torch.nn.Module):
            raise SystemExit("%s did not return a torch.nn.Module" % spec)
        shape = parse_shape(args.input_shape or "3,224,224")
        name = args.name or spec.replace(":", ".")
        return model, name, shape, args.aux_weight, {"custom": spec}, None
    if spec in TOKEN_MODELS:
        info = TOKEN_MODELS[spec]
        sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
        try:
            tm = importlib.import_module("transformer_models")
        finally:
            sys.path.pop(0)
        if not 1 <= args.seq_len <= info["max_len"]:
            raise SystemExit("--seq-len: %d is outside 1..%d for %s"
                             % (args.seq_len, info["max_len"], spec))
        model = getattr(tm, info["builder"])()
        config = {"builder": "traces/transformer_models.py:%s()" % info["builder"],
                  "vocab": info["vocab"], "seq_len": args.seq_len,
                  "loss": "transformer_models.%s" % info["loss"]}
        return model, args.name or spec, (args.seq_len,), 0.0, config, info["published_params"]
    if spec not in BUILTIN_MODELS:
        raise SystemExit("unknown model %r; built-in: %s, or module:function"
                         % (spec, ", ".join(list(BUILTIN_MODELS) + list(TOKEN_MODELS))))
    info = BUILTIN_MODELS[spec]
    kwargs = dict(info["kwargs"])
    kwargs["num_classes"] = args.num_classes
    model = getattr(torchvision.models, spec)(weights=None, **kwargs)
    shape = parse_shape(args.input_shape) if args.input_shape else info["input_shape"]
    aux_weight = 0.4 if spec == "inception_v3" else args.aux_weight
    config = {"torchvision_constructor": "torchvision.models.%s(weights=None%s)" % (
        spec, "".join(", %s=%r" % kv for kv in sorted(kwargs.items())))}
    published = info["published_params"] if args.num_classes == 1000 else None
    return model, args.name or spec, shape, aux_weight, config, published


def tied_parameters(model, layers):
    """Parameters reachable under several module names: {owner layer: [other users]}.

    The tensor is counted and sent once, by the layer that owns it (the first module
    holding it, in registration order)."""
    owner = {}
    for l in layers:
        for p in l["params"]:
            owner[id(p)] = l["name"]
    users = {}
    for name, mod in model.named_modules():
        for pname, p in mod.named_parameters(recurse=False):
            users.setdefault(id(p), set()).add(name)
    out = {}
    for pid, names in users.items():
        if len(names) > 1 and pid in owner:
            out[owner[pid]] = sorted(n for n in names if n != owner[pid])
    return out


def modules_that_run(model, run_forward):
    """Names of the modules whose forward() is called in one forward pass (no timing)."""
    ran = set()
    handles = [m.register_forward_pre_hook(lambda mod, inp, _n=n: ran.add(_n))
               for n, m in model.named_modules()]
    try:
        run_forward()
    finally:
        for h in handles:
            h.remove()
    return ran


def find_layers(model, ran=None):
    """Modules that directly own trainable parameters (each parameter counted once).

    A module whose forward() never runs although its parameters are used (the parent calls a
    functional op with them: nn.MultiheadAttention's out_proj, the qkv/proj Linears of
    torchvision's Swin attention) is folded into its nearest ancestor that runs: that
    ancestor's forward hook is the one that time-stamps the span using those parameters.
    `ran` is the set of module names that run (None: every module)."""
    seen = set()
    layers = []
    by_name = {}
    for name, mod in model.named_modules():
        own = []
        for p in mod.parameters(recurse=False):
            if p.requires_grad and id(p) not in seen:
                seen.add(id(p))
                own.append(p)
        if not own:
            continue
        host = name
        while ran is not None and host not in ran and host:
            host = host.rsplit(".", 1)[0] if "." in host else ""
        if ran is not None and host not in ran:
            host = name  # nothing above it runs either: keep it (reported as never run)
        if host in by_name:
            layer = by_name[host]
            layer["params"] += own
            layer["numel"] += sum(p.numel() for p in own)
            layer["folded"].append(name)
            continue
        hmod = model.get_submodule(host) if host else model
        layer = {"name": host or type(hmod).__name__, "module": hmod, "module_name": host,
                 "type": type(hmod).__name__, "params": own,
                 "numel": sum(p.numel() for p in own), "folded": [] if host == name else [name]}
        by_name[host] = layer
        layers.append(layer)
    return layers


def tile_starts(events, t_start, t_end, n):
    """Forward: interval [start_k, start_{k+1}) belongs to the layer of event k."""
    out = [0] * n
    if not events:
        return out, 0
    head = events[0][0] - t_start
    out[events[0][1]] += head
    for k, (t, i) in enumerate(events):
        t_next = events[k + 1][0] if k + 1 < len(events) else t_end
        out[i] += t_next - t
    return out, head


def tile_ends(events, t_start, t_end, n):
    """Backward: interval (end_{k-1}, end_k] belongs to the layer of event k."""
    out = [0] * n
    if not events:
        return out, 0, 0
    prev = t_start
    for t, i in events:
        out[i] += t - prev
        prev = t
    tail = t_end - prev
    out[events[-1][1]] += tail
    return out, events[0][0] - t_start, tail


class StepClock:
    """Time stamps of one training step, in integer nanoseconds once resolved.

    cpu:    time.perf_counter_ns() when the hook runs.
    sync:   torch.cuda.synchronize(), then perf_counter_ns(): every stamp waits for the GPU, so
            the kernels of one layer cannot overlap the launches of the next; each layer pays a
            round trip, which inflates small layers (kept to compare with `events`).
    events: a CUDA event recorded on the current stream when the hook runs; after the step,
            one synchronize and each event's time from the first (cudaEventElapsedTime,
            about 0.5 us resolution). This is the GPU's own timeline: a layer's time is the
            time its kernels took, or the launch time where the CPU is the slower side,
            and the hooks add no waits."""

    def __init__(self, torch, mode):
        self.torch = torch
        self.mode = mode
        self.events = []

    def stamp(self):
        if self.mode == "events":
            ev = self.torch.cuda.Event(enable_timing=True)
            ev.record()
            self.events.append(ev)
            return ev
        if self.mode == "sync":
            self.torch.cuda.synchronize()
        return time.perf_counter_ns()

    def resolver(self):
        """A function from a stamp to nanoseconds; starts the next step's stamps afresh."""
        if self.mode != "events":
            return lambda t: t
        self.torch.cuda.synchronize()
        first, self.events = self.events[0], []
        return lambda ev: int(round(first.elapsed_time(ev) * 1e6))


def configure_cuda(args, torch, use_cuda):
    """cuDNN autotuning as torchvision's reference training sets it (benchmark unless
    deterministic); TF32 is left at torch's defaults and recorded in the provenance."""
    if use_cuda:
        torch.backends.cudnn.benchmark = args.cudnn_benchmark


def cuda_settings(torch):
    """The numerics a CUDA profile was measured with (provenance)."""
    out = {"cuda": torch.version.cuda, "cudnn": torch.backends.cudnn.version(),
           "cudnn_benchmark": torch.backends.cudnn.benchmark}
    for key, get in (("matmul_allow_tf32", lambda: torch.backends.cuda.matmul.allow_tf32),
                     ("cudnn_allow_tf32", lambda: torch.backends.cudnn.allow_tf32)):
        try:
            out[key] = bool(get())
        except Exception as e:  # the flag's API moved in later torch releases
            out[key] = "unreadable (%s)" % e.__class__.__name__
    return out


def autocast_context(args, torch, dev):
    """Mixed precision as AMP trains: forward and loss under autocast; parameters, gradients
    and the optimizer stay float32, so param_bytes (4 x parameters) is what is exchanged."""
    import contextlib
    if args.autocast == "none":
        return contextlib.nullcontext
    return lambda: torch.autocast(device_type=dev.type, dtype=torch.bfloat16)


def make_batch(args, torch, model_name, shape, dev):
    """One fixed synthetic batch: (input, target, loss function)."""
    if args.model in TOKEN_MODELS:
        tm = sys.modules["transformer_models"]
        info = TOKEN_MODELS[args.model]
        x, y = tm.token_batch(info["vocab"], args.batch_size, args.seq_len, dev)
        return x, y, getattr(tm, info["loss"])
    x = torch.randn((args.batch_size,) + tuple(shape), device=dev)
    y = torch.randint(0, args.num_classes, (args.batch_size,), device=dev)
    return x, y, torch.nn.CrossEntropyLoss()


def cmd_measure(args):
    if args.steps < 1:
        raise SystemExit("--steps must be >= 1")
    if args.warmup < 1:
        raise SystemExit("--warmup must be >= 1 (the first step records the layer order)")
    safe_io.output_target(args.output)  # refused now, not after minutes of measuring
    if args.trace_output:
        safe_io.output_target(args.trace_output)
    # OpenBLAS (Debian's libopenblas0-pthread) sizes its own thread pool at load time.
    os.environ.setdefault("OPENBLAS_NUM_THREADS", str(args.threads))
    torch, torchvision = import_torch("measure")

    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    load_before = os.getloadavg()

    use_cuda = args.device == "cuda"
    if use_cuda and not torch.cuda.is_available():
        raise SystemExit("--device cuda: CUDA is not available in this torch build/machine")
    dev = torch.device("cuda" if use_cuda else "cpu")

    clock = StepClock(torch, args.cuda_timing if use_cuda else "cpu")
    stamp = clock.stamp
    configure_cuda(args, torch, use_cuda)

    model, model_name, shape, aux_weight, config, published = build_model(args, torch, torchvision)
    model.to(dev)
    model.train()
    x, y, criterion = make_batch(args, torch, model_name, shape, dev)
    with torch.no_grad():
        ran = modules_that_run(model, lambda: model(x))
    layers = find_layers(model, ran)
    folded = {l["name"]: l["folded"] for l in layers if l["folded"]}
    if not layers:
        raise SystemExit("the model has no trainable parameters")
    total_params = sum(l["numel"] for l in layers)
    model_params = sum(p.numel() for p in {id(p): p for p in model.parameters()
                                           if p.requires_grad}.values())
    assert total_params == model_params, (total_params, model_params)

    def compute_loss(out):
        if model_name in TOKEN_MODELS:
            return criterion(out, y)
        if isinstance(out, torch.Tensor):
            return criterion(out, y)
        if isinstance(out, (tuple, list)):  # e.g. InceptionOutputs(logits, aux_logits)
            tensors = [o for o in out if isinstance(o, torch.Tensor)]
            loss = criterion(tensors[0], y)
            for aux in tensors[1:]:
                loss = loss + aux_weight * criterion(aux, y)
            return loss
        if isinstance(out, dict):
            vals = [v for v in out.values() if isinstance(v, torch.Tensor)]
            return compute_loss(tuple(vals))
        raise SystemExit("cannot compute a loss from model output of type %s" % type(out))

    autocast = autocast_context(args, torch, dev)
    fwd_events = []
    bwd_events = []
    handles = []
    for idx, l in enumerate(layers):
        def pre_hook(mod, inp, _i=idx):
            fwd_events.append((stamp(), _i))
        handles.append(l["module"].register_forward_pre_hook(pre_hook))
        for p in l["params"]:
            def grad_hook(grad, _i=idx):
                bwd_events.append((stamp(), _i))
                return None
            handles.append(p.register_hook(grad_hook))

    optimizers = [torch.optim.SGD(l["params"], lr=args.lr, momentum=args.momentum)
                  for l in layers]

    def run_step(per_layer_update=True):
        del fwd_events[:]
        del bwd_events[:]
        model.zero_grad(set_to_none=True)
        t0 = stamp()
        with autocast():
            out = model(x)
            loss = compute_loss(out)
        t1 = stamp()
        loss.backward()
        t2 = stamp()
        upd = []
        if per_layer_update:
            for opt in optimizers:
                a = stamp()
                opt.step()
                upd.append((a, stamp()))
        else:
            for opt in optimizers:
                opt.step()
        t3 = stamp()
        lv = float(loss.detach().float().cpu())
        ns = clock.resolver()  # CUDA events: waits for the step's kernels, then reads them
        return dict(t0=ns(t0), t1=ns(t1), t2=ns(t2), t3=ns(t3),
                    fwd=sorted((ns(t), i) for t, i in fwd_events),
                    bwd=sorted((ns(t), i) for t, i in bwd_events),
                    upd=[ns(b) - ns(a) for a, b in upd], loss=lv)

    wall0 = time.time()
    # Warm-up; the first step fixes the layer order (first forward execution).
    order = None
    for w in range(args.warmup):
        st = run_step()
        if order is None:
            order = []
            seen = set()
            for _, i in st["fwd"]:
                if i not in seen:
                    seen.add(i)
                    order.append(i)
            never = [i for i in range(len(layers)) if i not in seen]
            if never:
                print("warning: %d parameter-owning modules never ran in forward (listed last, "
                      "zero time): %s" % (len(never), ", ".join(layers[i]["name"] for i in never[:8])),
                      file=sys.stderr)
            order += never
        print("warm-up %d/%d: %.3f s" % (w + 1, args.warmup, (st["t3"] - st["t0"]) / 1e9),
              file=sys.stderr, flush=True)
    pos = {i: k for k, i in enumerate(order)}
    n = len(layers)

    recorder = None
    if args.trace_output:
        # The same steps also recorded by the PyTorch profiler (traces/torch_trace.py), so that
        # import-trace can be compared with this profile step for step.
        sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
        import torch_trace
        recorder = torch_trace.Recorder(model, x, torch)
    samples = []
    walls = {"forward": [], "backward": [], "update": [], "step": []}
    cover = {"forward": [], "backward": []}
    heads = {"forward_head": [], "backward_head": [], "backward_tail": []}
    missing_bwd = set()
    losses = []
    for s in range(args.steps):
        if recorder:
            with recorder.step():
                st = run_step()
        else:
            st = run_step()
        fe = [(t, pos[i]) for t, i in st["fwd"]]
        be = [(t, pos[i]) for t, i in st["bwd"]]
        f_ns, fhead = tile_starts(fe, st["t0"], st["t1"], n)
        b_ns, bhead, btail = tile_ends(be, st["t1"], st["t2"], n)
        got = {i for _, i in be}
        missing_bwd |= {k for k in range(n) if k not in got}
        u_ns = [0] * n
        for i, v in enumerate(st["upd"]):
            u_ns[pos[i]] = v
        samples.append({
            "forward_us": [r3(v / 1e3) for v in f_ns],
            "backward_us": [r3(v / 1e3) for v in b_ns],
            "update_us": [r3(v / 1e3) for v in u_ns],
        })
        fw, bw = (st["t1"] - st["t0"]) / 1e3, (st["t2"] - st["t1"]) / 1e3
        walls["forward"].append(r3(fw))
        walls["backward"].append(r3(bw))
        walls["update"].append(r3((st["t3"] - st["t2"]) / 1e3))
        walls["step"].append(r3((st["t3"] - st["t0"]) / 1e3))
        cover["forward"].append(round(sum(f_ns) / 1e3 / fw, 6) if fw > 0 else None)
        cover["backward"].append(round(sum(b_ns) / 1e3 / bw, 6) if bw > 0 else None)
        heads["forward_head"].append(r3(fhead / 1e3))
        heads["backward_head"].append(r3(bhead / 1e3))
        heads["backward_tail"].append(r3(btail / 1e3))
        losses.append(st["loss"])
        print("step %d/%d: forward %.1f ms, backward %.1f ms, update %.1f ms, loss %.4f"
              % (s + 1, args.steps, fw / 1e3, bw / 1e3, walls["update"][-1] / 1e3, st["loss"]),
              file=sys.stderr, flush=True)
    if not all(math.isfinite(v) for v in losses):
        raise SystemExit("non-finite loss during profiling: %r" % losses)
    if missing_bwd:
        print("warning: no gradient event for %d layers (backward time 0): %s"
              % (len(missing_bwd), ", ".join(layers[order[k]]["name"] for k in sorted(missing_bwd)[:8])),
              file=sys.stderr)

    if recorder:
        recorder.write(args.trace_output)
    # Reference steps without any hook: measures the profiling overhead.
    for h in handles:
        h.remove()
    ref = {"forward": [], "backward": [], "update": []}
    for s in range(args.reference_steps):
        st = run_step(per_layer_update=False)
        ref["forward"].append(r3((st["t1"] - st["t0"]) / 1e3))
        ref["backward"].append(r3((st["t2"] - st["t1"]) / 1e3))
        ref["update"].append(r3((st["t3"] - st["t2"]) / 1e3))
    load_after = os.getloadavg()
    elapsed = time.time() - wall0

    # Assemble the profile.
    out_layers = []
    for k, i in enumerate(order):
        l = layers[i]
        entry = {"name": l["name"], "type": l["type"], "param_bytes": 4 * l["numel"]}
        for f in TIME_FIELDS:
            entry[f + "_us"] = mean_r3([s[f + "_us"][k] for s in samples])
        out_layers.append(entry)

    def avg(v):
        v = [a for a in v if a is not None]
        return round(sum(v) / len(v), 6) if v else None

    if use_cuda:
        device = "%s (CUDA %s)" % (torch.cuda.get_device_name(dev), torch.version.cuda)
    else:
        device = "%s (%d threads)" % (cpu_model_name(), args.threads)
    aux_txt = ""
    if aux_weight and model_name == "inception_v3":
        aux_txt = " on the main output + %.1f x CrossEntropyLoss on the auxiliary output" % aux_weight
    command = ["python3", "traces/profile_model.py", "measure", "--model", args.model,
               "--batch-size", str(args.batch_size), "--steps", str(args.steps),
               "--warmup", str(args.warmup), "--threads", str(args.threads),
               "--device", args.device]
    token = model_name in TOKEN_MODELS
    if token:
        command += ["--seq-len", str(args.seq_len)]
    if args.input_shape:
        command += ["--input-shape", args.input_shape]
    if args.num_classes != 1000:
        command += ["--num-classes", str(args.num_classes)]
    if args.name:
        command += ["--name", args.name]
    if args.reference_steps != 1:
        command += ["--reference-steps", str(args.reference_steps)]
    if args.autocast != "none":
        command += ["--autocast", args.autocast]
    if use_cuda:
        command += ["--cuda-timing", args.cuda_timing]
        if not args.cudnn_benchmark:
            command += ["--no-cudnn-benchmark"]
    command += ["--output", os.path.basename(args.output)]

    ref_fwd, ref_bwd = avg(ref["forward"]), avg(ref["backward"])
    prov = {
        "device": device,
        "framework": "pytorch",
        "framework_version": torch.__version__,
        "method": METHOD_TEXT.format(aux=aux_txt, dev=device),
        "derived": False,
        "update_us": "measured per-layer torch.optim.SGD(lr=%g, momentum=%g).step() on the "
                     "profiling device (%s), one optimizer per layer, after the gradients exist"
                     % (args.lr, args.momentum, device),
        "cpu_model": cpu_model_name(),
        "device_type": args.device,
        "threads": args.threads,
        "torch_version": torch.__version__,
        "torchvision_version": torchvision.__version__,
        "python_version": platform.python_version(),
        "blas": blas_description(torch),
        "openblas_num_threads_env": os.environ.get("OPENBLAS_NUM_THREADS"),
        "model_config": config,
        "loss": config["loss"] if token else "CrossEntropyLoss" + aux_txt,
        "data": ("synthetic: uniform random token ids (targets: the ids shifted by one), seed %d"
                 if token else "synthetic: torch.randn input, uniform random labels, seed %d")
                % args.seed,
        "input_shape": [args.batch_size] + list(shape),
        "num_classes": config["vocab"] if token else args.num_classes,
        "folded_modules": folded,
        "tied_parameters": tied_parameters(model, layers),
        "dtype": ("float32 parameters, gradients and optimizer; forward and loss under "
                  "torch.autocast(%s)" % args.autocast if args.autocast != "none" else "float32"),
        "timing": {"cpu": "time.perf_counter_ns in the hooks",
                   "sync": "torch.cuda.synchronize() then time.perf_counter_ns in the hooks",
                   "events": "CUDA events recorded in the hooks, read after each step"}[
                       clock.mode],
        "steps": args.steps,
        "warmup_steps": args.warmup,
        "reference_steps": args.reference_steps,
        "num_layers": n,
        "total_params": total_params,
        "total_param_bytes": 4 * total_params,
        "published_params": published,
        "loadavg_before": [round(v, 2) for v in load_before],
        "loadavg_after": [round(v, 2) for v in load_after],
        "date": datetime.datetime.now(datetime.timezone.utc).replace(microsecond=0).isoformat(),
        "command": " ".join(shlex.quote(c) for c in command),
        "profiling_elapsed_s": round(elapsed, 1),
        "forward_wall_us": walls["forward"],
        "backward_wall_us": walls["backward"],
        "update_wall_us": walls["update"],
        "step_wall_us": walls["step"],
        "forward_coverage": cover["forward"],
        "backward_coverage": cover["backward"],
        "forward_coverage_mean": avg(cover["forward"]),
        "backward_coverage_mean": avg(cover["backward"]),
        "forward_head_us": heads["forward_head"],
        "backward_head_us": heads["backward_head"],
        "backward_tail_us": heads["backward_tail"],
        "layers_without_backward_event": [layers[order[k]]["name"] for k in sorted(missing_bwd)],
        "reference_unhooked_forward_wall_us": ref["forward"],
        "reference_unhooked_backward_wall_us": ref["backward"],
        "reference_unhooked_update_wall_us": ref["update"],
        "hook_overhead_forward_ratio": (round(avg(walls["forward"]) / ref_fwd, 4)
                                        if ref_fwd else None),
        "hook_overhead_backward_ratio": (round(avg(walls["backward"]) / ref_bwd, 4)
                                         if ref_bwd else None),
        "loss_values": [round(v, 6) for v in losses],
    }
    if use_cuda:
        prov["cuda_settings"] = cuda_settings(torch)
    doc = {
        "format": FORMAT_NAME,
        "version": FORMAT_VERSION,
        "model": model_name,
        "batch_size": args.batch_size,
        "provenance": prov,
        "layers": out_layers,
        "samples": samples,
    }
    check_profile(doc)
    dump_profile(doc, args.output)

    fsum = sum(l["forward_us"] for l in out_layers)
    bsum = sum(l["backward_us"] for l in out_layers)
    usum = sum(l["update_us"] for l in out_layers)
    print("%s: %d layers, mean forward %.1f ms, backward %.1f ms, update %.1f ms per step "
          "(coverage forward %.4f, backward %.4f; hook overhead x%s fwd, x%s bwd); %.0f s"
          % (args.output, n, fsum / 1e3, bsum / 1e3, usum / 1e3, prov["forward_coverage_mean"],
             prov["backward_coverage_mean"], prov["hook_overhead_forward_ratio"],
             prov["hook_overhead_backward_ratio"], elapsed))
    line = "total trainable parameters: %d (%d bytes float32)" % (total_params, 4 * total_params)
    if published is not None:
        line += "; published: %d: %s" % (
            published, "match" if published == total_params else "MISMATCH")
    print(line)
    if published is not None and published != total_params:
        raise SystemExit("parameter count differs from the published count")
    return 0


# --------------------------------------------------------------------------------------
# record-trace / import-trace (traces/torch_trace.py)
# --------------------------------------------------------------------------------------

def _trace_setup(args):
    """Model, batch and loss as `measure` builds them (CPU, random initialisation)."""
    os.environ.setdefault("OPENBLAS_NUM_THREADS", str(args.threads))
    torch, torchvision = import_torch(args.cmd)

    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    model, name, shape, aux_weight, config, _ = build_model(args, torch, torchvision)
    if args.device == "cuda" and not torch.cuda.is_available():
        raise SystemExit("--device cuda: CUDA is not available in this torch build/machine")
    dev = torch.device(args.device)
    configure_cuda(args, torch, args.device == "cuda")
    model.to(dev)
    model.train()
    x, y, criterion = make_batch(args, torch, name, shape, dev)

    def compute_loss(out):
        if isinstance(out, (tuple, list)) and args.model not in TOKEN_MODELS:
            loss = criterion(out[0], y)
            for aux in out[1:]:
                loss = loss + aux_weight * criterion(aux, y)
            return loss
        return criterion(out, y)

    return torch, model, name, x, compute_loss, config


def _module_table(args):
    """The model's layers and trace span names (needs torch): the --modules file."""
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import torch_trace

    torch, model, name, x, _, config = _trace_setup(args)
    with torch.no_grad():
        ran = modules_that_run(model, lambda: model(x))
        order = torch_trace.module_call_order(model, lambda: model(x))
    layers = find_layers(model, ran)
    pos = {m: k for k, m in enumerate(order)}
    layers.sort(key=lambda l: pos.get(l["module_name"], len(pos)))
    names = torch_trace.trace_names(model, order)
    return {"model": name, "model_config": config,
            "layers": [{"name": l["name"], "module_name": l["module_name"], "type": l["type"],
                        "numel": l["numel"], "folded": l["folded"]} for l in layers],
            "trace_names": names}


def cmd_record_trace(args):
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import torch_trace

    safe_io.output_target(args.output)
    if args.modules_output:
        safe_io.output_target(args.modules_output)
    torch, model, name, x, compute_loss, _ = _trace_setup(args)
    opt = torch.optim.SGD(model.parameters(), lr=args.lr, momentum=args.momentum)
    how = torch_trace.record(model, x, compute_loss, opt, args.steps, args.warmup, args.output,
                             torch, autocast_context(args, torch, x.device))
    print("%s: %d steps of %s recorded (%s profiler)" % (args.output, args.steps, name, how))
    if args.modules_output:
        table = _module_table(args)
        safe_io.write_output(args.modules_output, json.dumps(table, indent=1) + "\n",
                             "layer table")
        print("%s: %d layers" % (args.modules_output, len(table["layers"])))
    return 0


def cmd_import_trace(args):
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import torch_trace

    if not args.modules and not args.model:
        raise SystemExit("import-trace: give --model (needs torch) or --modules FILE")
    safe_io.output_target(args.output)
    try:
        if args.modules:
            table, where = safe_io.read_json(args.modules, "layer table"), args.modules
        else:
            table, where = _module_table(args), "the layer table of --model %s" % args.model
        torch_trace.check_module_table(table, where)
        doc = torch_trace.import_trace(
            args.trace, table, where, args.batch_size, args.name or table["model"],
            args.device_name,
            {"model_config": table["model_config"],
             "total_params": sum(l["numel"] for l in table["layers"]),
             "command": " ".join(shlex.quote(c) for c in ["profile_model.py"] + sys.argv[1:])})
        check_profile(doc)
    except ProfileError as e:
        raise SystemExit("%s: the imported profile is invalid: %s" % (args.trace, e))
    except (torch_trace.TraceError, safe_io.InputError) as e:
        raise SystemExit(str(e))
    dump_profile(doc, args.output)
    print("%s: %d layers, %d steps, forward %.1f ms, backward %.1f ms per step"
          % (args.output, len(doc["layers"]), len(doc["samples"]),
             sum(l["forward_us"] for l in doc["layers"]) / 1e3,
             sum(l["backward_us"] for l in doc["layers"]) / 1e3))
    return 0


def _model_options(p, model_required=True):
    p.add_argument("--model", required=model_required,
                   help="built-in model or module:function (as for measure)")
    p.add_argument("--batch-size", type=int, default=8)
    p.add_argument("--input-shape", default=None)
    p.add_argument("--num-classes", type=int, default=1000)
    p.add_argument("--seq-len", type=int, default=128)
    p.add_argument("--aux-weight", type=float, default=0.4)
    p.add_argument("--name", default=None)
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--device", choices=("cpu", "cuda"), default="cpu")
    p.add_argument("--autocast", choices=("none", "bf16"), default="none")
    p.add_argument("--no-cudnn-benchmark", dest="cudnn_benchmark", action="store_false")


# --------------------------------------------------------------------------------------
# scale
# --------------------------------------------------------------------------------------

SCALE_FORMULA = ("t'_{l,s} = t_{l,s} * f for t in {forward, backward}, every layer l and sample s; "
                 "f = (B'/X) / mean_s(sum_l(fwd_{l,s} + bwd_{l,s})); update unchanged")


def _times_us(obj, field):
    for k, v in obj.items():
        if k.startswith(field + "_"):
            return k, UNIT_FACTORS_US[k[len(field) + 1:]]
    raise ProfileError("no %s time" % field)


def scale_profile(doc, throughput, batch_size, device, source, extra=None):
    if not (throughput > 0 and math.isfinite(throughput)):
        raise SystemExit("--throughput must be a positive number of samples/s")
    if batch_size < 1:
        raise SystemExit("--batch-size must be >= 1")
    layers = doc["layers"]
    n = len(layers)
    target_us = batch_size / throughput * 1e6

    # Bring everything to microseconds.
    lay = []
    for l in layers:
        row = {}
        for f in TIME_FIELDS:
            k, fac = _times_us(l, f)
            row[f] = l[k] * fac
        lay.append(row)
    samples = doc.get("samples")
    smp = None
    if samples:
        smp = []
        for s in samples:
            row = {}
            for f in TIME_FIELDS:
                k, fac = _times_us(s, f)
                row[f] = [v * fac for v in s[k]]
            smp.append(row)
        step = sum(sum(s["forward"]) + sum(s["backward"]) for s in smp) / len(smp)
    else:
        step = sum(r["forward"] + r["backward"] for r in lay)
    if step <= 0:
        raise SystemExit("input profile has zero forward+backward time")
    factor = target_us / step

    new_layers = []
    new_samples = None
    if smp:
        new_samples = []
        for s in smp:
            new_samples.append({
                "forward_us": [r3(v * factor) for v in s["forward"]],
                "backward_us": [r3(v * factor) for v in s["backward"]],
                "update_us": [r3(v) for v in s["update"]],
            })
    for i, l in enumerate(layers):
        e = {"name": l["name"]}
        if "type" in l:
            e["type"] = l["type"]
        e["param_bytes"] = l["param_bytes"]
        shape = {k: l[k] for k in SHAPE_FIELDS if k in l}  # the shape does not scale
        if new_samples:
            for f in TIME_FIELDS:
                e[f + "_us"] = mean_r3([s[f + "_us"][i] for s in new_samples])
        else:
            e["forward_us"] = r3(lay[i]["forward"] * factor)
            e["backward_us"] = r3(lay[i]["backward"] * factor)
            e["update_us"] = r3(lay[i]["update"])
        e.update(shape)
        new_layers.append(e)

    old = doc["provenance"]
    achieved = sum(l["forward_us"] + l["backward_us"] for l in new_layers)
    prov = {
        "device": device,
        "framework": old.get("framework", "unknown"),
        "method": (
            "DERIVED, not measured on %s. Every layer's forward and backward time (and every "
            "sample) of the profile measured on '%s' is multiplied by one factor so that the "
            "mean compute time of a step, sum over layers of forward+backward, equals "
            "batch_size/throughput = %d/%g s = %.1f us, the published training throughput "
            "of this model on %s (source below). Per-layer time shares and the step-to-step "
            "variability of the measurement are kept. update_us is left unchanged: it is the "
            "measured per-layer SGD-momentum step on the profiling CPU, i.e. the parameter "
            "server, which runs on a CPU also in a GPU cluster. Assumptions (approximations): "
            "the per-layer time shares on the GPU equal those measured on the CPU, and compute "
            "time is linear in the batch size; the published figure is a whole training step "
            "(it may include the framework's own weight update/transfer), all of which is "
            "attributed to forward+backward here."
            % (device, old.get("device", "?"), batch_size, throughput, target_us, device)),
        "derived": True,
        "scaling": {
            "factor": factor,
            "target_throughput_samples_per_s": throughput,
            "target_batch_size": batch_size,
            "target_step_compute_us": r3(target_us),
            "achieved_step_compute_us": r3(achieved),
            "source_step_compute_us": r3(step),
            "source_batch_size": doc.get("batch_size"),
            "source": source,
            "formula": SCALE_FORMULA,
            "assumptions": [
                "per-layer forward/backward time shares on the GPU equal those measured on "
                "the profiling CPU (approximation: GPUs speed up large convolutions and GEMMs "
                "more than small, memory-bound layers such as BatchNorm)",
                "compute time is linear in the batch size",
                "update_us unchanged: measured SGD-momentum step on the profiling CPU (the "
                "parameter server runs on a CPU)",
            ],
        },
        "measured_on": old,
    }
    if "framework_version" in old:
        prov["framework_version"] = old["framework_version"]
    if extra:
        prov["scaling"]["published"] = extra
    new = {
        "format": FORMAT_NAME,
        "version": FORMAT_VERSION,
        "model": doc["model"],
        "batch_size": int(batch_size),
        "provenance": prov,
        "layers": new_layers,
    }
    if new_samples:
        new["samples"] = new_samples
    check_profile(new)
    return new, factor


def cmd_scale(args):
    safe_io.output_target(args.output)
    doc = load_profile(args.input)
    new, factor = scale_profile(doc, args.throughput, args.batch_size, args.device, args.source)
    dump_profile(new, args.output)
    print("%s: factor %.6g, step compute %.1f us (= %d / %g samples/s)"
          % (args.output, factor, new["provenance"]["scaling"]["achieved_step_compute_us"],
             args.batch_size, args.throughput))
    return 0


SAFE_NAME = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.-]*\Z")


def check_throughput_row(row, where):
    """One row of gpu_throughputs.json: the fields scale-table uses, with their types. Names
    that become file names must be plain names (no folder parts)."""
    if type(row) is not dict:
        raise SystemExit("%s: not an object" % where)
    name = lambda v: type(v) is str and SAFE_NAME.match(v) is not None
    text = lambda v: type(v) is str and v != ""
    rules = [("model", name, "a model name (letters, digits, _ . -)"),
             ("gpu", text, "a non-empty string"),
             ("gpu_slug", name, "a file-name part (letters, digits, _ . -)"),
             ("batch_size", lambda v: type(v) is int and 1 <= v <= 10 ** 6,
              "an integer from 1 to 10^6"),
             ("images_per_s", lambda v: type(v) in (int, float) and 0 < v < math.inf,
              "a finite number > 0"),
             ("source", text, "a non-empty string"), ("source_url", text, "a non-empty string"),
             ("table", text, "a non-empty string")]
    for key, ok, expected in rules:
        if not ok(row.get(key)):
            raise SystemExit("%s.%s: %s (expected %s)" % (where, key, safe_io.show(row.get(key)),
                                                          expected))
    if "cpu_profile" in row and not name(row["cpu_profile"]):
        raise SystemExit("%s.cpu_profile: %s (expected a file name in --dir)"
                         % (where, safe_io.show(row["cpu_profile"])))


def cmd_scale_table(args):
    table = safe_io.read_json(args.table, "throughput table")
    if type(table) is not dict or type(table.get("entries")) is not list:
        raise SystemExit("%s: entries: missing or not an array (expected the rows of published "
                         "throughputs)" % args.table)
    for k, row in enumerate(table["entries"]):
        check_throughput_row(row, "%s: entries[%d]" % (args.table, k))
    made = []
    for row in table["entries"]:
        if args.models and row["model"] not in args.models:
            continue
        # A row may name its CPU profile (the transformers are measured at other batches).
        src = os.path.join(args.dir, row.get("cpu_profile",
                                             "%s-cpu-b%d.json" % (row["model"], args.cpu_batch)))
        if not os.path.exists(src):
            print("skip %s on %s: %s missing" % (row["model"], row["gpu"], src), file=sys.stderr)
            continue
        doc = load_profile(src)
        source = "%s; %s; %s" % (row["source"], row["source_url"], row["table"])
        new, factor = scale_profile(doc, float(row["images_per_s"]), int(row["batch_size"]),
                                    row["gpu"], source, extra=row)
        out = os.path.join(args.dir, "%s-%s-b%d.json" % (row["model"], row["gpu_slug"],
                                                         int(row["batch_size"])))
        dump_profile(new, out)
        made.append(out)
        print("%s: factor %.6g (%s %g img/s at batch %d)"
              % (out, factor, row["gpu"], row["images_per_s"], row["batch_size"]))
    if not made:
        raise SystemExit("no GPU variant written")
    return 0


def worker_update_of(doc, table):
    """(time in us, provenance) of a profile's worker optimizer step, or None (derived).

    A CPU profile's per-layer update_us was measured on the device that ran forward and
    backward: their sum is that worker's step. A GPU profile takes the whole-model foreach step
    measured on its GPU (`update_times.py`; PyTorch's default on CUDA, what DDP and Horovod
    users step), since its per-layer update_us launches one optimizer per layer. A derived
    profile has no measurement on its GPU at all."""
    prov = doc["provenance"]
    if prov["derived"]:
        return None
    if prov.get("device_type") == "cpu":
        total = sum(l[k] * UNIT_FACTORS_US[k[len("update_"):]]
                    for l in doc["layers"] for k in l if k.startswith("update_"))
        return r3(total), ("sum of the layers' update_us: per-layer SGD(momentum) steps measured "
                           "on the device that ran forward and backward (%s)" % prov["device"])
    if prov.get("device_type") != "cuda":
        raise ProfileError("provenance.device_type: %s (expected cpu or cuda)"
                           % safe_io.show(prov.get("device_type")))
    if not prov["device"].startswith(table["device"]):
        raise ProfileError("provenance.device: %s has no row in the update-time table (measured "
                           "on %s)" % (safe_io.show(prov["device"]), table["device"]))
    rows = [r for r in table["rows"] if r.get("model") == doc["model"]]
    if len(rows) != 1:
        raise ProfileError("model %s: %d rows in the update-time table (expected 1)"
                           % (safe_io.show(doc["model"]), len(rows)))
    ms = rows[0].get("foreach_ms")
    _check_time(ms, "foreach_ms of %s" % doc["model"])
    return r3(ms * 1e3), ("whole-model SGD(momentum) step with foreach=True (PyTorch's default on "
                          "CUDA, what DDP and Horovod users call) measured on %s by "
                          "traces/update_times.py (h200-update-times.json: %s)"
                          % (table["device"], table.get("torch_version", "?")))


def cmd_worker_update(args):
    table = safe_io.read_json(args.table, "update-time table")
    if not isinstance(table, dict) or not isinstance(table.get("device"), str) \
            or not isinstance(table.get("rows"), list):
        raise ProfileError("%s: need an object with device (a string) and rows (an array)"
                           % args.table)
    docs = []
    for path in args.profiles:
        doc = load_profile(path)
        try:
            found = worker_update_of(doc, table)
        except ProfileError as e:
            raise ProfileError("%s: %s" % (path, e))
        docs.append((path, doc, found))
    # Whole or nothing: every profile is checked before the first is written.
    for path, doc, found in docs:
        if found is None:
            print("%s: derived, worker_update_us not written (no measurement on its GPU)" % path)
            continue
        doc[WORKER_UPDATE_KEYS[0]], doc[WORKER_UPDATE_KEYS[1]] = found
        dump_profile(doc, path)
        print("%s: worker_update_us = %.3f" % (path, found[0]))
    return 0


def cmd_check(args):
    bad = 0
    for path in args.files:
        try:
            doc = load_profile(path)
            print("%s: ok (%s, batch %d, %d layers, %d samples, %d parameters)"
                  % (path, doc["model"], doc["batch_size"], len(doc["layers"]),
                     len(doc.get("samples", [])),
                     sum(l["param_bytes"] for l in doc["layers"]) // 4))
        except (ProfileError, safe_io.InputError) as e:
            bad += 1
            print(e, file=sys.stderr)
    return 1 if bad else 0


# --------------------------------------------------------------------------------------
# annotate
# --------------------------------------------------------------------------------------

def _first_tensor(torch, out):
    """The tensor a module passes on: itself, or the first tensor of a tuple, list or dict."""
    if isinstance(out, torch.Tensor):
        return out
    items = out.values() if isinstance(out, dict) else out if isinstance(out, (tuple, list)) else []
    for o in items:
        if isinstance(o, torch.Tensor):
            return o
    return None


def _count(x):
    """A count as the file holds it: an integer when it is one."""
    return int(x) if float(x).is_integer() else float(x)


def layer_shape(torch, layer, inp, out, batch):
    """[output_elements, macs, local, halo] per sample of one forward call of a layer.

    Conv: k_h k_w C_in/groups multiply-adds per output element, local, halo = the kernel's
    reach beyond a row stripe ((k_h - 1)/2 dilated rows) as a fraction of the input height.
    Linear (and TiedLinear): in x out per token. MultiheadAttention: the four projections
    (4 E^2 per token) plus Q K^T and A V (2 L^2 E per sequence); ShiftedWindowAttention the
    same within windows (2 w E per token, w the window's tokens). A container (a module owning
    a parameter around other layers: ViT's class token, its encoder's position embedding):
    its own parameters' elements, one add each. Anything else (BatchNorm, LayerNorm,
    Embedding): one operation per output element, local without halo."""
    nn = torch.nn
    mod = layer["module"]
    if layer.get("container"):
        own = sum(p.numel() for p in layer["params"])
        return [own, own, True, 0.0]
    t = _first_tensor(torch, out)
    elements = t.numel() / batch if t is not None else 0
    if isinstance(mod, nn.modules.conv._ConvNd):
        k = math.prod(mod.kernel_size)
        macs = k * mod.in_channels / mod.groups * elements
        x = _first_tensor(torch, inp)
        reach = (mod.kernel_size[0] - 1) / 2 * mod.dilation[0]
        halo = min(1.0, reach / x.shape[2]) if x is not None and x.dim() > 2 else 0.0
        return [elements, macs, True, round(halo, 6)]
    weight = getattr(mod, "weight", None)
    if type(mod).__name__.endswith("Linear") and weight is not None and weight.dim() == 2:
        out_f, in_f = weight.shape
        return [elements, in_f * out_f * elements / out_f, False, 0.0]
    if isinstance(mod, nn.MultiheadAttention):
        e = mod.embed_dim
        tokens = elements / e
        return [elements, tokens * (4 * e * e + 2 * tokens * e), False, 0.0]
    if type(mod).__name__ == "ShiftedWindowAttention":
        c = mod.proj.in_features
        window = math.prod(mod.window_size)
        return [elements, elements / c * (4 * c * c + 2 * window * c), False, 0.0]
    if isinstance(mod, nn.Embedding):
        return [elements, 0, True, 0.0]
    return [elements, elements, True, 0.0]


def model_shapes(args):
    """The per-sample input shape and [(layer name, {shape fields})] of the model, in the
    order measure lists its layers."""
    torch, torchvision = import_torch("annotate")
    torch.manual_seed(args.seed)
    model, model_name, shape, _, _, _ = build_model(args, torch, torchvision)
    model.train()  # inception_v3 runs its auxiliary classifier only in train mode
    x, _, _ = make_batch(args, torch, model_name, shape, torch.device("cpu"))
    with torch.no_grad():
        ran = modules_that_run(model, lambda: model(x))
    layers = find_layers(model, ran)
    names = [l["module_name"] for l in layers]
    for l in layers:
        prefix = l["module_name"] + "." if l["module_name"] else ""
        l["container"] = any(n != l["module_name"] and n.startswith(prefix) for n in names)
    order = []
    shapes = {}

    def hook(mod, inp, out, _i):
        if _i not in shapes:
            order.append(_i)
            shapes[_i] = [0, 0, True, 0.0]
        got = layer_shape(torch, layers[_i], inp, out, args.batch_size)
        # A module called twice (weight sharing) does the work twice; the shape is its last.
        shapes[_i] = [got[0], shapes[_i][1] + got[1], got[2], got[3]]

    _run_hooked(torch, model, x, [l["module"].register_forward_hook(
        lambda m, i, o, _i=k: hook(m, i, o, _i)) for k, l in enumerate(layers)])
    # measure lists layers by their first forward start (pre-hook); a forward hook fires at
    # the end, so a container would come after its children: order by the pre-hook instead.
    starts = modules_start_order(model, layers, x, torch)
    out = []
    for i in starts + [i for i in range(len(layers)) if i not in starts]:
        e, m, local, halo = shapes.get(i, [0, 0, True, 0.0])
        out.append((layers[i]["name"], dict(zip(SHAPE_FIELDS, (_count(e), _count(m), local,
                                                                 halo)))))
    return tuple(shape), out


def modules_start_order(model, layers, x, torch):
    """Layer indices in the order their forward() starts (as measure's pre-hooks see it)."""
    seen = []
    _run_hooked(torch, model, x, [l["module"].register_forward_pre_hook(
        lambda m, i, _k=k: seen.append(_k) if _k not in seen else None)
        for k, l in enumerate(layers)])
    return seen


def _run_hooked(torch, model, x, handles):
    """One forward pass without gradients, then the hooks removed."""
    try:
        with torch.no_grad():
            model(x)
    finally:
        for h in handles:
            h.remove()


def annotate_profile(doc, input_shape, shapes, path):
    """doc with each layer's shape fields replaced by `shapes`; ProfileError naming `path`
    when the profile was measured on another input shape (its provenance's input_shape) or
    its layer names are not the model's (the first that differs)."""
    measured = doc["provenance"].get("input_shape")
    if isinstance(measured, list) and tuple(measured[1:]) != input_shape:
        raise ProfileError("%s: provenance.input_shape %s is not the model's input %s per "
                           "sample (give --input-shape or --seq-len as measured): not annotated"
                           % (path, safe_io.show(measured), list(input_shape)))
    got = [l["name"] for l in doc["layers"]]
    want = [n for n, _ in shapes]
    if got != want:
        k = next((i for i, (a, b) in enumerate(zip(got, want)) if a != b), min(len(got), len(want)))
        raise ProfileError(
            "%s: layers do not match the model (%d layers against %d; first difference at "
            "layers[%d]: %s in the profile, %s in the model): not annotated"
            % (path, len(got), len(want), k, safe_io.show(got[k] if k < len(got) else None),
               safe_io.show(want[k] if k < len(want) else None)))
    for l, (_, fields) in zip(doc["layers"], shapes):
        for key in SHAPE_FIELDS:
            l.pop(key, None)
        l.update(fields)
    return doc


def cmd_annotate(args):
    """Annotate every profile, or none: all are read and matched before any is written."""
    input_shape, shapes = model_shapes(args)
    docs = [annotate_profile(load_profile(p), input_shape, shapes, p) for p in args.profiles]
    for path, doc in zip(args.profiles, docs):
        dump_profile(doc, path)
        print("%s: annotated %d layers (%.3g multiply-adds per sample)"
              % (path, len(shapes), sum(f["macs"] for _, f in shapes)))
    return 0


# --------------------------------------------------------------------------------------
# compare
# --------------------------------------------------------------------------------------

def _layer_times(doc):
    """[(name, forward us, backward us)] from a loaded profile (per-layer means)."""
    out = []
    for l in doc["layers"]:
        k_f, f_f = _times_us(l, "forward")
        k_b, f_b = _times_us(l, "backward")
        out.append((l["name"], l[k_f] * f_f, l[k_b] * f_b))
    return out


def compare_profiles(a, b):
    """How two profiles of one model differ in the shape the simulators use, not in their
    totals: per-layer shares of forward + backward time, and the gradient-ready curve (the
    fraction of backward time done when each layer's gradient exists, walking the layers in
    reverse), which decides how much communication overlaps the backward pass."""
    ta, tb = _layer_times(a), _layer_times(b)
    if [t[0] for t in ta] != [t[0] for t in tb]:
        raise ProfileError("the two profiles have different layers (expected the same model)")
    tot_a = sum(f + w for _, f, w in ta)
    tot_b = sum(f + w for _, f, w in tb)
    bwd_a = sum(w for _, _, w in ta)
    bwd_b = sum(w for _, _, w in tb)
    if min(tot_a, tot_b, bwd_a, bwd_b) <= 0:
        raise ProfileError("a profile with no compute time (expected forward and backward > 0)")
    rows = []
    ready_a = ready_b = 0.0
    ready_gap = 0.0
    for (name, fa, wa), (_, fb, wb) in zip(reversed(ta), reversed(tb)):
        ready_a += wa / bwd_a
        ready_b += wb / bwd_b
        ready_gap = max(ready_gap, abs(ready_a - ready_b))
        rows.append((name, (fa + wa) / tot_a, (fb + wb) / tot_b))
    rows.reverse()
    diffs = [abs(sa - sb) for _, sa, sb in rows]
    return {
        "layers": len(rows),
        "share_distance": 0.5 * sum(diffs),
        "largest": sorted(rows, key=lambda r: -abs(r[1] - r[2])),
        "backward_ready_gap": ready_gap,
        "backward_fraction": (bwd_a / tot_a, bwd_b / tot_b),
        "step_us": (tot_a, tot_b),
    }


def cmd_compare(args):
    if args.top < 0:
        raise SystemExit("--top: %d (expected a number of layers >= 0)" % args.top)
    a, b = load_profile(args.first), load_profile(args.second)
    try:
        c = compare_profiles(a, b)
    except ProfileError as e:
        raise SystemExit("%s vs %s: %s" % (args.first, args.second, e))
    print("%s vs %s: %d layers" % (args.first, args.second, c["layers"]))
    print("  forward+backward per step: %.1f ms vs %.1f ms" % (c["step_us"][0] / 1e3,
                                                             c["step_us"][1] / 1e3))
    print("  backward share of it: %.3f vs %.3f" % c["backward_fraction"])
    print("  share distance (half the summed |share difference| over layers): %.3f"
          % c["share_distance"])
    print("  gradient-ready gap (largest difference of the backward fraction done when a "
          "layer's gradient is ready): %.3f" % c["backward_ready_gap"])
    for name, sa, sb in c["largest"][:args.top]:
        print("  %-40s share %.4f vs %.4f (%+.4f)" % (name, sa, sb, sb - sa))
    return 0


# --------------------------------------------------------------------------------------

def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="cmd", required=True)

    m = sub.add_parser("measure", help="profile a model per layer on this machine")
    m.add_argument("--model", required=True,
                   help="built-in model (%s) or module:function returning an "
                        "nn.Module (module importable from the current directory)"
                        % ", ".join(list(BUILTIN_MODELS) + list(TOKEN_MODELS)))
    m.add_argument("--batch-size", type=int, default=8)
    m.add_argument("--steps", type=int, default=10, help="measured steps (default 10)")
    m.add_argument("--warmup", type=int, default=2, help="unrecorded warm-up steps (default 2)")
    m.add_argument("--threads", type=int, default=2, help="torch.set_num_threads (default 2)")
    m.add_argument("--device", choices=("cpu", "cuda"), default="cpu",
                   help="cuda: run on the GPU (time stamps as --cuda-timing says)")
    m.add_argument("--cuda-timing", choices=("events", "sync"), default="events",
                   help="events (default): CUDA events in the hooks, the GPU's own timeline; "
                        "sync: torch.cuda.synchronize() before every time stamp")
    m.add_argument("--no-cudnn-benchmark", dest="cudnn_benchmark", action="store_false",
                   help="cuda: leave cuDNN autotuning off (default on, as torchvision's "
                        "reference training sets it)")
    m.add_argument("--autocast", choices=("none", "bf16"), default="none",
                   help="bf16: forward and loss under torch.autocast(bfloat16), as mixed-precision "
                        "training runs them (parameters and gradients stay float32)")
    m.add_argument("--input-shape", default=None,
                   help="per-sample input shape C,H,W (default 3,224,224; inception_v3 3,299,299)")
    m.add_argument("--num-classes", type=int, default=1000)
    m.add_argument("--seq-len", type=int, default=128,
                   help="tokens per sample for bert_base / gpt2_small (default 128)")
    m.add_argument("--aux-weight", type=float, default=0.4,
                   help="weight of auxiliary outputs in the loss when the model returns a tuple")
    m.add_argument("--name", default=None, help="model name written to the profile")
    m.add_argument("--reference-steps", type=int, default=1,
                   help="extra steps without hooks, to report the profiling overhead (default 1)")
    m.add_argument("--lr", type=float, default=0.01)
    m.add_argument("--momentum", type=float, default=0.9)
    m.add_argument("--seed", type=int, default=0)
    m.add_argument("--output", required=True)
    m.add_argument("--trace-output", default=None,
                   help="also record the measured steps with the PyTorch profiler into this "
                        "Chrome trace (for comparing import-trace with the hook profile)")
    m.set_defaults(func=cmd_measure)

    s = sub.add_parser("scale", help="derive a GPU-class profile from a published throughput")
    s.add_argument("--input", required=True)
    s.add_argument("--throughput", type=float, required=True, help="published samples/s")
    s.add_argument("--batch-size", type=int, required=True, help="batch of the published figure")
    s.add_argument("--device", required=True, help='e.g. "NVIDIA Tesla P100"')
    s.add_argument("--source", required=True, help="citation of the published figure")
    s.add_argument("--output", required=True)
    s.set_defaults(func=cmd_scale)

    t = sub.add_parser("scale-table", help="scale for every row of gpu_throughputs.json")
    t.add_argument("--table", default=os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                                   "gpu_throughputs.json"))
    t.add_argument("--dir", default=os.path.dirname(os.path.abspath(__file__)),
                   help="directory holding <model>-cpu-b<batch>.json; outputs go there too")
    t.add_argument("--cpu-batch", type=int, default=8)
    t.add_argument("--models", nargs="*", default=None,
                   help="only the rows of these models (default: every row)")
    t.set_defaults(func=cmd_scale_table)

    r = sub.add_parser("record-trace", help="record a torch.profiler Chrome trace of a "
                       "model's training steps (CPU, or --device cuda)")
    _model_options(r)
    r.add_argument("--steps", type=int, default=3)
    r.add_argument("--warmup", type=int, default=2)
    r.add_argument("--lr", type=float, default=0.01)
    r.add_argument("--momentum", type=float, default=0.9)
    r.add_argument("--output", required=True)
    r.add_argument("--modules-output", default=None,
                   help="also write the model's layer table (for import-trace --modules)")
    r.set_defaults(func=cmd_record_trace)

    i = sub.add_parser("import-trace", help="per-layer profile from a torch.profiler Chrome "
                       "trace (recorded with record_shapes=True, with_stack=True)")
    _model_options(i, model_required=False)
    i.add_argument("--trace", required=True, help="Chrome-trace JSON of torch.profiler")
    i.add_argument("--device-name", required=True,
                   help='device the trace was recorded on, e.g. "NVIDIA A100-SXM4-40GB"')
    i.add_argument("--modules", default=None,
                   help="layer table written by record-trace --modules-output: import without "
                        "torch (the model options are then unused)")
    i.add_argument("--output", required=True)
    i.set_defaults(func=cmd_import_trace)

    q = sub.add_parser("compare", help="how two profiles of one model differ per layer "
                       "(shares of compute, gradient-ready curve)")
    q.add_argument("first")
    q.add_argument("second")
    q.add_argument("--top", type=int, default=5, help="layers with the largest share "
                   "differences to list (default 5)")
    q.set_defaults(func=cmd_compare)

    a = sub.add_parser("annotate", help="write each layer's shape (output_elements, macs, "
                       "local, halo) into profiles of a model, in place")
    _model_options(a)
    a.set_defaults(batch_size=2)  # shapes only: 2 samples keep BatchNorm's batch statistics
    a.add_argument("profiles", nargs="+", help="profiles of this model (same layer names)")
    a.set_defaults(func=cmd_annotate)

    w = sub.add_parser("worker-update", help="write worker_update_us (the worker's own "
                       "optimizer step) into measured profiles, in place")
    w.add_argument("--table", default=os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                                   "h200-update-times.json"),
                   help="update_times.py's output for GPU profiles (default: "
                        "traces/h200-update-times.json)")
    w.add_argument("profiles", nargs="+")
    w.set_defaults(func=cmd_worker_update)

    c = sub.add_parser("check", help="validate profile files (traces/README.md rules)")
    c.add_argument("files", nargs="+")
    c.set_defaults(func=cmd_check)

    args = p.parse_args(argv)
    try:
        return args.func(args)
    except (safe_io.InputError, safe_io.OutputError, ProfileError) as e:
        raise SystemExit(str(e))  # one line naming the file, exit 1


if __name__ == "__main__":
    sys.exit(main())
