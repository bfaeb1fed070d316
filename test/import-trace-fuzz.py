#!/usr/bin/env python3
"""ctest: `profile_model.py import-trace` answers right or refuses (issue 26); standard library.

1. Hostile paths, each run as its own process with a time limit: the output a folder, a
   device node, a FIFO, a symbolic link to a device or to nothing, a read-only folder, a
   missing folder, a write that fails half-way (file size limit) over an existing profile;
   the trace, the layer table and `check` inputs /dev/zero, a FIFO, a folder, an empty file,
   a 5 GiB sparse file, huge numbers, NaN/Infinity literals, nesting 100000 deep, a BOM,
   invalid UTF-8. Each must end in exit 1 with one line naming the path (or exit 0 with a valid
   profile), within the time limit, leaving no temporary file and any old output intact.
2. Seeded random mutations of the shipped trace (traces/small-cnn-trace.json) and layer table
   (traces/small-cnn-modules.json): field values replaced by wrong types, negative, huge or
   non-finite numbers; fields, events and layers deleted or duplicated; times shifted; names
   swapped; bytes truncated, flipped, inserted. Every mutation must end either in exit 0 with a
   profile that `profile_model.py check` accepts or in exit 1 with a one-line message naming
   a file, never a traceback, a hang or a partial output file. Most run in this process
   (profile_model.main, a timer for hangs); every 25th also as a separate process.

    python3 test/import-trace-fuzz.py [--seed N] [--mutations N] [--tool PATH] [--table]

--tool runs both parts against another copy of profile_model.py, every run a separate process
(to compare with an older version); --table prints part 1 as a markdown table.
"""

import argparse
import contextlib
import copy
import io
import json
import os
import random
import resource
import signal
import stat
import subprocess
import sys
import tempfile
import traceback

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TRACES = os.path.join(ROOT, "traces")
TRACE = os.path.join(TRACES, "small-cnn-trace.json")
MODULES = os.path.join(TRACES, "small-cnn-modules.json")
TIMEOUT_S = 20
# Children may not grow past this (an old importer reading /dev/zero would otherwise fill
# the memory before its time limit).
MEMORY_LIMIT = 1 << 30
HOSTILE_VALUES = [None, True, False, 0, -1, -1e-9, 1e308, 2 ** 64, 10 ** 30, 0.5, "", "x",
                  "nn.Module: Conv2d_0", [], [1], {}, {"a": 1}, "ProfilerStep#9",
                  "autograd::engine::evaluate_function: X", 12345678901234567890]
TEXT_INSERTS = ["NaN", "Infinity", "-Infinity", "1e999", "9" * 5000, "true", "null", "{", "]",
                ",", "\"", "\\u0000", "\xff", "[" * 3000, "{\"a\":1,\"a\":2}"]


# --------------------------------------------------------------------------------------
# Running the importer
# --------------------------------------------------------------------------------------

def limit_child():
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))


def run_process(tool, argv, preexec=limit_child):
    """(outcome, exit status, stderr) of one run in its own process."""
    try:
        r = subprocess.run([sys.executable, tool] + argv, capture_output=True, text=True,
                           timeout=TIMEOUT_S, preexec_fn=preexec, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        return "hang", None, "no exit within %d s" % TIMEOUT_S
    if "Traceback (most recent call last)" in r.stderr or r.returncode not in (0, 1):
        return "crash", r.returncode, r.stderr.strip().splitlines()[-1:] or [""]
    return ("ok" if r.returncode == 0 else "error"), r.returncode, r.stderr.strip()


class _Hang(Exception):
    pass


def _alarm(signum, frame):
    raise _Hang()


def run_inline(module, argv):
    """The same as run_process, by calling module.main(argv) in this process."""
    err, out = io.StringIO(), io.StringIO()
    path = list(sys.path)
    old = signal.signal(signal.SIGALRM, _alarm)
    signal.setitimer(signal.ITIMER_REAL, TIMEOUT_S)
    try:
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(out):
            rc = module.main(argv)
    except SystemExit as e:
        rc = e.code if isinstance(e.code, int) else 1
        if not isinstance(e.code, int):
            err.write("%s\n" % e.code)
    except _Hang:
        return "hang", None, "no answer within %d s" % TIMEOUT_S
    except BaseException:
        return "crash", None, traceback.format_exc()
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
        sys.path[:] = path
    return ("ok" if rc == 0 else "error" if rc == 1 else "crash"), rc, err.getvalue().strip()


def import_argv(trace, modules, output):
    return ["import-trace", "--trace", trace, "--modules", modules, "--batch-size", "8",
            "--device-name", "fuzz", "--output", output]


def judge(outcome, message, output, folder, names, module, before=None):
    """Violation text, or None: exit 0 needs a valid profile at `output`; exit 1 one line
    naming one of `names`, and `output` as it was (`before`: its old bytes, None: absent).
    No other file may be left in `folder`."""
    if outcome in ("hang", "crash"):
        return "%s: %s" % (outcome, message if isinstance(message, str) else message)
    extra = sorted(set(os.listdir(folder)) - {os.path.basename(output)}) if folder else []
    if extra:
        return "left files %s" % extra
    if outcome == "ok":
        if module is not None:
            got = run_inline(module, ["check", output])
            if got[0] != "ok":
                return "exit 0 but check refuses the output: %s" % got[2]
        return None
    if "\n" in message or not message:
        return "message not one line: %r" % message[-300:]
    if not any(n in message for n in names):
        return "message names none of %s: %s" % (names, message)
    now = _read(output)
    if now != before:
        return "exit 1 but %s was %s" % (output, "written" if before is None else "changed")
    return None


def _read(path):
    try:
        with open(path, "rb") as f:
            return f.read()
    except OSError:
        return None


# --------------------------------------------------------------------------------------
# Part 1: hostile paths
# --------------------------------------------------------------------------------------

def _write(path, data):
    with open(path, "wb" if isinstance(data, bytes) else "w") as f:
        f.write(data)
    return path


def _device(tmp):
    """A character device to aim at: a private copy of /dev/null where we may create one
    (an old importer that renames over it then harms nothing), else /dev/null itself."""
    node = os.path.join(tmp, "null-device")
    try:
        os.mknod(node, stat.S_IFCHR | 0o666, os.makedev(1, 3))
        return node
    except (OSError, AttributeError):
        return "/dev/null"


def _kind(path):
    try:
        st = os.lstat(path)
    except OSError:
        return "missing"
    for test, words in ((stat.S_ISLNK, "link"), (stat.S_ISDIR, "folder"),
                        (stat.S_ISFIFO, "fifo"), (stat.S_ISCHR, "device"), (stat.S_ISREG, "file")):
        if test(st.st_mode):
            return words
    return "other"


def _unchanged(*paths):
    """A post-check: each path keeps the kind it has now, and the folder no new files."""
    before = {p: _kind(p) for p in paths}
    folder = os.path.dirname(paths[0])
    listing = set(os.listdir(folder))

    def post():
        for p, k in before.items():
            if _kind(p) != k:
                return "%s was a %s, now a %s" % (p, k, _kind(p))
        new = sorted(set(os.listdir(folder)) - listing)
        return "left files %s" % new if new else None
    return post


def _fsize_limit():
    """A child whose writes fail after 1 KiB (EFBIG), like a disk that fills up."""
    limit_child()
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (1024, 1024))


def _trace_variants(tmp, base):
    """Traces that must be refused: (case, path)."""
    text = json.dumps(base)
    first_ts = '"ts": %s' % json.dumps(base["traceEvents"][0]["ts"])
    assert first_ts in text

    def edited(name, fn):
        doc = copy.deepcopy(base)
        fn(doc["traceEvents"])
        return _write(os.path.join(tmp, name), json.dumps(doc))

    def step_events(ev, k):
        s = [e for e in ev if e["name"] == "ProfilerStep#%d" % k][0]
        return [e for e in ev if s["ts"] <= e["ts"] and e["ts"] + e["dur"] <= s["ts"] + s["dur"]]

    def drop_layer_ops(ev):
        inside = step_events(ev, 0)
        a = [e for e in inside if e["name"] == "nn.Module: Conv2d_1"][0]["ts"]
        b = [e for e in inside if e["name"] == "nn.Module: Conv2d_2"][0]["ts"]
        gone = [e for e in inside if e["cat"] == "cpu_op" and a <= e["ts"] < b]
        ev[:] = [e for e in ev if not any(e is g for g in gone)]

    def drop_span(ev):
        span = [e for e in step_events(ev, 1) if e["name"] == "nn.Module: Conv2d_2"][0]
        ev.remove(span)

    def no_sequence_numbers(ev):
        for e in ev:
            if e["name"].startswith("autograd::engine::evaluate_function"):
                e["args"].pop("Sequence number", None)

    def straddle(ev):
        s = [e for e in ev if e["name"] == "ProfilerStep#0"][0]
        op = [e for e in step_events(ev, 0) if e["cat"] == "cpu_op"][-1]
        op["dur"] = s["ts"] + s["dur"] - op["ts"] + 500

    def set_first(key, value):
        def fn(ev):
            ev[5][key] = value
        return fn

    return [
        ("/dev/zero", "/dev/zero"),
        ("a FIFO", "FIFO"),
        ("a folder", tmp),
        ("an empty file", _write(os.path.join(tmp, "empty.json"), "")),
        ("a missing file", os.path.join(tmp, "missing.json")),
        ("a 5 GiB sparse file", "SPARSE"),
        ("ts 1e999 (overflows to inf)", _write(os.path.join(tmp, "big.json"),
                                               text.replace(first_ts, '"ts": 1e999', 1))),
        ("ts of 5000 digits", _write(os.path.join(tmp, "digits.json"),
                                     text.replace(first_ts, '"ts": ' + "9" * 5000, 1))),
        ("NaN literal", _write(os.path.join(tmp, "nan.json"),
                               text.replace(first_ts, '"ts": NaN', 1))),
        ("Infinity literal", _write(os.path.join(tmp, "inf.json"),
                                    text.replace(first_ts, '"ts": Infinity', 1))),
        ("nesting 100000 deep", _write(os.path.join(tmp, "deep.json"),
                                       text.replace(first_ts, '"ts": 1, "deep": ' + "[" * 100000
                                                    + "]" * 100000, 1))),
        ("UTF-8 byte-order mark", _write(os.path.join(tmp, "bom.json"),
                                         b"\xef\xbb\xbf" + text.encode())),
        ("invalid UTF-8", _write(os.path.join(tmp, "latin1.json"),
                                 text.replace('"name": "aten::zeros"', '"name": "\xe9"', 1)
                                 .encode("latin-1"))),
        ("duplicate key", _write(os.path.join(tmp, "dupkey.json"),
                                 text.replace(first_ts, first_ts + ', "ts": 5', 1))),
        ("boolean ts", edited("bool-ts.json", set_first("ts", True))),
        ("negative dur", edited("neg-dur.json", set_first("dur", -3))),
        ("number as span name", edited("name-type.json", set_first("name", 5))),
        ("string Sequence number", edited("seq-type.json", lambda ev: ev[5]["args"].update(
            {"Sequence number": "7"}))),
        ("a layer without forward ops", edited("no-fwd.json", drop_layer_ops)),
        ("a layer's module span missing", edited("no-span.json", drop_span)),
        ("backward without sequence numbers", edited("no-seq.json", no_sequence_numbers)),
        ("an op past its step's end", edited("straddle.json", straddle)),
        ("trailing garbage", _write(os.path.join(tmp, "trailing.json"), text + " x")),
    ]


def _modules_variants(tmp, table):
    def edited(name, fn):
        t = copy.deepcopy(table)
        fn(t)
        return _write(os.path.join(tmp, name), json.dumps(t))

    text = json.dumps(table)
    return [
        ("/dev/zero", "/dev/zero"),
        ("a FIFO", "FIFO"),
        ("a folder", tmp),
        ("an empty file", _write(os.path.join(tmp, "empty-table.json"), "")),
        ("numel NaN", _write(os.path.join(tmp, "numel-nan.json"),
                             text.replace('"numel": 896', '"numel": NaN', 1))),
        ("numel as a string", edited("numel-str.json",
                                     lambda t: t["layers"][0].update({"numel": "896"}))),
        ("numel true", edited("numel-bool.json", lambda t: t["layers"][0].update({"numel": True}))),
        ("nesting 100000 deep", _write(os.path.join(tmp, "deep-table.json"),
                                       text.replace('"folded": []', '"folded": ' + "[" * 100000
                                                    + "]" * 100000, 1))),
        ("no layers", edited("no-layers.json", lambda t: t.pop("layers"))),
        ("a layer's span name missing", edited("no-name.json",
                                               lambda t: t["trace_names"].pop("3"))),
        ("two layers with one span name", edited("same-span.json", lambda t: t["trace_names"]
                                                 .update({"6": t["trace_names"]["3"]}))),
    ]


def _profile_variants(tmp):
    good = _read(os.path.join(TRACES, "small-cnn-hook-cpu-b8.json")).decode()
    first = '"forward_us": '
    return [
        ("/dev/zero", "/dev/zero"),
        ("a FIFO", "FIFO"),
        ("a folder", tmp),
        ("an empty file", _write(os.path.join(tmp, "empty-profile.json"), "")),
        ("a 5 GiB sparse file", "SPARSE"),
        ("NaN time", _write(os.path.join(tmp, "nan-profile.json"),
                            good.replace(first, first + "NaN, \"x\": ", 1))),
        ("nesting 100000 deep", _write(os.path.join(tmp, "deep-profile.json"),
                                       "[" * 100000 + "]" * 100000)),
    ]


def _special(tmp, path, tag):
    """FIFO / SPARSE placeholders: a fresh FIFO or 5 GiB sparse file per case."""
    if path == "FIFO":
        path = os.path.join(tmp, "%s.fifo" % tag)
        os.mkfifo(path)
    elif path == "SPARSE":
        path = os.path.join(tmp, "%s.sparse.json" % tag)
        with open(path, "wb") as f:
            f.truncate(5 << 30)
    return path


def hostile_cases(tmp, module):
    """[(surface, case, argv, expect, names, post, preexec)]: expect 'refuse' or 'either';
    post: None or a function called just before the run that returns the check to make after
    it (None or the problem in words)."""
    base = json.loads(_read(TRACE))
    table = json.loads(_read(MODULES))
    out = os.path.join(tmp, "out")
    os.mkdir(out)
    cases = []

    def output_case(case, target, post, expect="refuse", preexec=limit_child):
        cases.append(("import-trace --output", case, import_argv(TRACE, MODULES, target),
                      expect, [target], post, preexec))

    folder = os.path.join(out, "a-folder")
    os.mkdir(folder)
    output_case("a folder", folder, lambda: _unchanged(folder))
    dev = _device(out)
    output_case("a device node", dev, (lambda: _unchanged(dev)) if dev != "/dev/null" else None)
    fifo = os.path.join(out, "fifo")
    os.mkfifo(fifo)
    output_case("a FIFO", fifo, lambda: _unchanged(fifo))
    link = os.path.join(out, "link-to-device")
    os.symlink(dev, link)
    output_case("a symlink to a device", link, lambda: _unchanged(link))
    dangling = os.path.join(out, "dangling")
    os.symlink(os.path.join(out, "nowhere", "x.json"), dangling)
    output_case("a dangling symlink", dangling, lambda: _unchanged(dangling))
    ro = os.path.join(out, "read-only")
    os.mkdir(ro)
    os.chmod(ro, 0o555)
    output_case("in a read-only folder" + (" (root may write)" if os.geteuid() == 0 else ""),
                os.path.join(ro, "p.json"), None, "either")
    old = _write(os.path.join(out, "old.json"), _read(os.path.join(TRACES,
                                                                  "small-cnn-hook-cpu-b8.json")))
    keep = _read(old)
    output_case("a write failing after 1 KiB over an old profile", old,
                lambda: lambda: None if _read(old) == keep and not [
                    f for f in os.listdir(out) if f.startswith((".old", "old.json."))]
                else "old profile changed or temporary file left", "refuse", _fsize_limit)
    for case, path in _trace_variants(tmp, base):
        path = _special(tmp, path, "trace")
        cases.append(("import-trace --trace", case, import_argv(path, MODULES,
                                                                  os.path.join(out, "t.json")),
                      "refuse", [path], None, limit_child))
    for case, path in _modules_variants(tmp, table):
        path = _special(tmp, path, "modules")
        cases.append(("import-trace --modules", case, import_argv(TRACE, path,
                                                                  os.path.join(out, "m.json")),
                      "refuse", [path], None, limit_child))
    for case, path in _profile_variants(tmp):
        path = _special(tmp, path, "check")
        cases.append(("check", case, ["check", path], "refuse", [path], None, limit_child))
    scale_fifo = _special(tmp, "FIFO", "scale")
    cases.append(("scale --input", "a FIFO", ["scale", "--input", scale_fifo, "--throughput",
                                              "100", "--batch-size", "8", "--device", "d",
                                              "--source", "s", "--output",
                                              os.path.join(out, "s.json")],
                  "refuse", [scale_fifo], None, limit_child))
    # Row 0 (alexnet on a P100) would be written to out/escaped-b512.json, outside --dir.
    bad_table = json.loads(_read(os.path.join(TRACES, "gpu_throughputs.json")))
    bad_table["entries"][0]["gpu_slug"] = "x/../../escaped"
    bad_table_path = _write(os.path.join(tmp, "throughputs.json"), json.dumps(bad_table))
    st = os.path.join(out, "st")
    os.mkdir(st)
    _write(os.path.join(st, "alexnet-cpu-b8.json"),
           _read(os.path.join(TRACES, "alexnet-cpu-b8.json")))
    escaped = os.path.join(out, "escaped-b512.json")
    cases.append(("scale-table --table", "a gpu_slug with folder parts",
                  ["scale-table", "--table", bad_table_path, "--dir", st], "refuse",
                  [bad_table_path], lambda: lambda: "wrote %s" % escaped
                  if os.path.exists(escaped) else None, limit_child))
    if subprocess.run([sys.executable, "-c", "import torch"], capture_output=True).returncode:
        cases.append(("measure", "no torch in this Python", [
            "measure", "--model", "small_cnn:build", "--output", os.path.join(out, "x.json")],
            "refuse", ["python3-torch"], None, limit_child))
    return cases


def run_hostile(tool, module):
    """[(surface, case, outcome, detail)] and the number of violations."""
    rows = []
    bad = 0
    with tempfile.TemporaryDirectory() as tmp:
        for surface, case, argv, expect, names, post, preexec in hostile_cases(tmp, module):
            check = post() if post else None
            outcome, rc, msg = run_process(tool, argv, preexec)
            detail = msg if isinstance(msg, str) else " ".join(msg)
            problem = check() if check and outcome not in ("hang", "crash") else None
            if problem:
                outcome, detail = "wrong answer", problem
            elif outcome == "ok":
                out = argv[argv.index("--output") + 1] if "--output" in argv else None
                valid = out and run_inline(module, ["check", out])[0] == "ok"
                outcome = ("valid profile" if expect == "either" and valid else "wrong answer")
                detail = "exit 0" + ("" if valid else ", no valid profile")
            elif outcome == "error":
                one = detail and "\n" not in detail and any(n in detail for n in names)
                outcome = "clear error" if one else "unclear error"
            if outcome not in ("clear error", "valid profile"):
                bad += 1
            rows.append((surface, case, outcome, detail.splitlines()[-1] if detail else ""))
        os.chmod(os.path.join(tmp, "out", "read-only"), 0o755)
    return rows, bad


# --------------------------------------------------------------------------------------
# Part 2: seeded mutations
# --------------------------------------------------------------------------------------

def _kept(e):
    """Events the importer keeps (steps, module spans, optimizer spans, ops with ids)."""
    name = e.get("name")
    args = e.get("args")
    return isinstance(name, str) and (name.startswith(("ProfilerStep#", "nn.Module: ",
                                                       "Optimizer.step", "autograd::"))
                                      or isinstance(args, dict) and "Sequence number" in args)


def _mutate_trace(rng, doc):
    """Change the parsed trace `doc` in place; what was done, in words."""
    ev = doc.get("traceEvents")
    if not isinstance(ev, list) or not ev:
        doc["traceEvents"] = rng.choice([[], [{}], ev])
        return "traceEvents again"
    ev[:] = [e if isinstance(e, dict) else {"ph": e} for e in ev]
    kept = [e for e in ev if _kept(e)]
    e = rng.choice(kept) if kept and rng.random() < 0.6 else rng.choice(ev)
    if not isinstance(e.get("args"), dict):
        e["args"] = {}
    op = rng.choice(["value", "value", "arg", "delete field", "delete events", "duplicate",
                     "shift", "scale", "rename", "cat", "swap ts", "top"])
    if op == "value":
        key = rng.choice(sorted(e) + ["ts", "dur", "name", "ph"])
        e[key] = rng.choice(HOSTILE_VALUES)
        return "%s %s" % (op, key)
    if op == "arg":
        key = rng.choice(["Sequence number", "External id", "correlation"] + sorted(e["args"]))
        e["args"][key] = rng.choice(HOSTILE_VALUES + [rng.randrange(1000)])
        return "%s %s" % (op, key)
    if op == "delete field":
        key = rng.choice(sorted(e))
        del e[key]
        return "%s %s" % (op, key)
    if op == "delete events":
        n = rng.randint(1, 20)
        gone = {id(x) for x in rng.sample(ev, min(n, len(ev)))}
        ev[:] = [x for x in ev if id(x) not in gone]
        return "delete %d events" % n
    if op == "duplicate":
        ev.insert(rng.randrange(len(ev) + 1), copy.deepcopy(e))
        return op
    if op == "shift":
        e["ts"] = _number(e.get("ts")) + rng.choice([-1e6, -1000, -5, -1, 1, 5, 1000, 1e6])
        return op
    if op == "scale":
        e["dur"] = _number(e.get("dur")) * rng.choice([0, 0.5, 2, 1000, 1e9])
        return op
    if op == "rename":
        e["name"] = rng.choice(ev).get("name")
        return op
    if op == "cat":
        e["cat"] = rng.choice(["cpu_op", "python_function", "user_annotation", "kernel",
                               "cuda_runtime", "gpu_user_annotation", "operator", None])
        return op
    if op == "swap ts":
        other = rng.choice(ev)
        e["ts"], other["ts"] = other["ts"], e["ts"]
        return op
    choice = rng.randrange(3)
    if choice == 0:
        doc["traceEvents"] = rng.choice(HOSTILE_VALUES)
    elif choice == 1:
        doc.pop("traceEvents")
    else:
        doc["extra"] = rng.choice(HOSTILE_VALUES)
    return "top-level %d" % choice


def _number(v):
    return v if type(v) in (int, float) else 0


def _mutate_table(rng, table):
    """Change the parsed layer table in place; what was done, in words."""
    op = rng.choice(["layer value", "layer value", "delete layer field", "delete layer",
                     "duplicate layer", "swap layers", "span name", "top"])
    layers = table.get("layers")
    names = table.get("trace_names")
    if (not isinstance(layers, list) or not layers or not isinstance(names, dict) or not names
            or not all(isinstance(l, dict) and l for l in layers)):
        op = "top"
    if op == "layer value":
        l = rng.choice(layers)
        key = rng.choice(sorted(l))
        l[key] = rng.choice(HOSTILE_VALUES + [rng.randrange(10 ** 7)])
        return "%s %s" % (op, key)
    if op == "delete layer field":
        l = rng.choice(layers)
        del l[rng.choice(sorted(l))]
        return op
    if op == "delete layer":
        layers.pop(rng.randrange(len(layers)))
        return op
    if op == "duplicate layer":
        layers.insert(rng.randrange(len(layers) + 1), copy.deepcopy(rng.choice(layers)))
        return op
    if op == "swap layers":
        i, j = rng.randrange(len(layers)), rng.randrange(len(layers))
        layers[i], layers[j] = layers[j], layers[i]
        return op
    if op == "span name":
        key = rng.choice(sorted(names))
        names[key] = rng.choice(list(names.values()) + HOSTILE_VALUES)
        return op
    key = rng.choice(sorted(table) or ["layers"])
    table[key] = rng.choice(HOSTILE_VALUES)
    return "top-level %s" % key


def _mutate_text(rng, text):
    """Byte-level damage of serialised JSON."""
    op = rng.randrange(5)
    pos = rng.randrange(len(text) + 1)
    if op == 0:
        return "truncate", text[:pos]
    if op == 1:
        return "insert", text[:pos] + rng.choice(TEXT_INSERTS) + text[pos:]
    if op == 2:
        return "delete slice", text[:pos] + text[pos + rng.randint(1, 200):]
    if op == 3:
        digits = [i for i in range(pos, min(len(text), pos + 5000)) if text[i].isdigit()]
        i = digits[0] if digits else pos
        return "number", text[:i] + rng.choice(TEXT_INSERTS[:6]) + text[i + 1:]
    data = bytearray(text.encode())
    if data:
        data[min(pos, len(data) - 1)] = rng.randrange(256)
    return "flip byte", bytes(data)


def mutation(rng, trace, table):
    """(description, trace text or bytes, table text or bytes) of one random mutation of the
    JSON texts `trace` and `table`."""
    trace, table = json.loads(trace), json.loads(table)
    what = []
    for _ in range(rng.choice([1, 1, 1, 2, 3])):
        if rng.random() < 0.75:
            what.append("trace: " + _mutate_trace(rng, trace))
        else:
            what.append("table: " + _mutate_table(rng, table))
    trace_text, table_text = json.dumps(trace), json.dumps(table)
    if rng.random() < 0.2:
        if rng.random() < 0.75:
            desc, trace_text = _mutate_text(rng, trace_text)
            what.append("trace text: " + desc)
        else:
            desc, table_text = _mutate_text(rng, table_text)
            what.append("table text: " + desc)
    return "; ".join(what), trace_text, table_text


def run_mutations(module, tool, seed, count, inline=True):
    """Outcome counts and violations [(index, description, problem)]. `module` (this
    checkout's profile_model) judges the outputs; it also runs the mutations in this process
    unless `inline` is False (another --tool: every mutation a separate process)."""
    rng = random.Random(seed)
    trace, table = _read(TRACE).decode(), _read(MODULES).decode()
    counts = {"ok": 0, "error": 0, "processes": 0}
    bad = []
    with tempfile.TemporaryDirectory() as tmp:
        out_dir = os.path.join(tmp, "out")
        os.mkdir(out_dir)
        for k in range(count):
            desc, trace_text, table_text = mutation(rng, trace, table)
            tpath = _write(os.path.join(tmp, "trace.json"), trace_text)
            mpath = _write(os.path.join(tmp, "modules.json"), table_text)
            out = os.path.join(out_dir, "profile.json")
            argv = import_argv(tpath, mpath, out)
            runs = [run_inline(module, argv) if inline else None]
            if inline and k % 25 == 0:
                runs.append(None)
            for r in runs:
                if r is None:
                    counts["processes"] += 1
                    r = run_process(tool, argv)
                    runs[0] = runs[0] or r
                outcome, rc, msg = r
                problem = judge(outcome, msg, out, out_dir, ["trace.json", "modules.json"],
                                module)
                if problem:
                    bad.append((k, desc, problem))
                elif r is runs[0]:
                    counts[outcome] += 1
                if runs[1:] and r is not runs[0] and outcome != runs[0][0]:
                    bad.append((k, desc, "in-process %s, separate process %s"
                                % (runs[0][0], outcome)))
                for f in os.listdir(out_dir):
                    os.unlink(os.path.join(out_dir, f))
    return counts, bad


# --------------------------------------------------------------------------------------
# Part 3: the streaming reader against the json module
# --------------------------------------------------------------------------------------

def _parse_both(tmp, data, chunk):
    """(streamed events or error, json-module events or error) of one text."""
    import safe_io
    import trace_stream

    path = _write(os.path.join(tmp, "stream.json"), data)
    try:
        streamed = list(trace_stream.events(path, chunk=chunk))
    except trace_stream.StreamError:
        streamed = "error"
    try:
        doc = safe_io.read_json(path, "trace")
        whole = (doc.get("traceEvents") if isinstance(doc, dict) else doc)
        whole = whole if isinstance(whole, list) else "error"
    except safe_io.InputError:
        whole = "error"
    return streamed, whole


def run_stream_checks(seed, count):
    """Mutated texts read in chunks of 1 to 4096 characters by trace_stream.events must give
    what safe_io.read_json (the whole text at once) gives: the same events or a refusal.
    The shipped trace is cut to its first 60 events to keep this quick. Violations."""
    rng = random.Random(seed)
    doc = json.loads(_read(TRACE))
    doc["traceEvents"] = doc["traceEvents"][:60]
    base = json.dumps(doc)
    bad = []
    with tempfile.TemporaryDirectory() as tmp:
        for k in range(count):
            desc, text = _mutate_text(rng, base) if k % 4 else ("none", base)
            chunk = rng.choice([1, 2, 3, 7, 64, 4096])
            streamed, whole = _parse_both(tmp, text, chunk)
            if streamed != whole:
                bad.append((k, "%s, chunk %d" % (desc, chunk), "streamed %s, whole %s" % (
                    _show_short(streamed), _show_short(whole))))
    return bad


def _show_short(v):
    return v if isinstance(v, str) else "%d events" % len(v)


# --------------------------------------------------------------------------------------

def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--seed", type=int, default=26)
    p.add_argument("--mutations", type=int, default=1000)
    p.add_argument("--stream-checks", type=int, default=150)
    p.add_argument("--tool", default=os.path.join(TRACES, "profile_model.py"))
    p.add_argument("--table", action="store_true", help="print part 1 as a markdown table")
    args = p.parse_args()
    sys.path.insert(0, TRACES)
    import profile_model

    rows, bad_paths = run_hostile(args.tool, profile_model)
    if args.table:
        print("| surface | case | outcome | message or problem |\n|---|---|---|---|")
    for surface, case, outcome, detail in rows:
        if args.table:
            print("| %s | %s | %s | %s |" % (surface, case, outcome,
                                             detail.replace("|", "/")[:140]))
        else:
            print("%-24s %-48s %-13s %s" % (surface, case, outcome, detail[:110]))
    print("hostile paths: %d cases, %d not a clear error or valid profile"
          % (len(rows), bad_paths))
    inline = os.path.realpath(args.tool) == os.path.realpath(profile_model.__file__)
    counts, bad = run_mutations(profile_model, args.tool, args.seed, args.mutations, inline)
    for k, desc, problem in bad[:20]:
        print("VIOLATION mutation %d (%s): %s" % (k, desc, problem[-600:]))
    kinds = {}
    for _, _, problem in bad:
        kind = problem.split(":")[0]
        kinds[kind] = kinds.get(kind, 0) + 1
    if kinds:
        print("violations by kind: %s" % ", ".join("%s %d" % kv for kv in sorted(kinds.items())))
    print("mutations: %d (seed %d): %d valid profiles, %d refused with one line, %d also run "
          "as separate processes; %d violations"
          % (args.mutations, args.seed, counts["ok"], counts["error"], counts["processes"],
             len(bad)))
    stream_bad = run_stream_checks(args.seed, args.stream_checks) if inline else []
    for k, desc, problem in stream_bad[:20]:
        print("VIOLATION stream check %d (%s): %s" % (k, desc, problem))
    print("streaming reader: %d texts read in chunks of 1 to 4096 characters, %d differ from "
          "the json module" % (args.stream_checks if inline else 0, len(stream_bad)))
    return 1 if bad_paths or bad or stream_bad else 0


if __name__ == "__main__":
    sys.exit(main())
