#!/usr/bin/env python3
"""ctest: traces/profile_model.py import-trace on the shipped small trace (no torch needed).

1. The shipped torch.profiler trace of traces/small_cnn.py (traces/small-cnn-trace.json, with
   its layer table traces/small-cnn-modules.json) imports into a valid profile whose layers and
   parameter bytes are the model's, one sample per recorded step.
2. Per layer, the imported forward and backward times agree within 10 % with the hook profiler
   (`measure`) run on the same model and machine right before the trace was recorded
   (traces/small-cnn-hook-cpu-b8.json), for every layer above 1 ms.
3. Bad traces are refused with a message naming the file, exit 1.
"""

import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TRACES = os.path.join(ROOT, "traces")
TOOL = os.path.join(TRACES, "profile_model.py")


def run_import(trace, output):
    cmd = [sys.executable, TOOL, "import-trace", "--trace", trace,
           "--modules", os.path.join(TRACES, "small-cnn-modules.json"), "--batch-size", "8",
           "--device-name", "test", "--output", output]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=120)


def main():
    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "imported.json")
        r = run_import(os.path.join(TRACES, "small-cnn-trace.json"), out)
        if r.returncode != 0:
            print(r.stdout, r.stderr)
            return 1
        imported = json.load(open(out))
        table = json.load(open(os.path.join(TRACES, "small-cnn-modules.json")))
        names = [l["name"] for l in imported["layers"]]
        if names != [l["name"] for l in table["layers"]]:
            failures.append("layer names %s" % names)
        if [l["param_bytes"] for l in imported["layers"]] != [4 * l["numel"] for l in
                                                              table["layers"]]:
            failures.append("parameter bytes differ from the module table")
        if len(imported["samples"]) != 3:
            failures.append("%d samples (expected the 3 recorded steps)"
                            % len(imported["samples"]))
        hook = json.load(open(os.path.join(TRACES, "small-cnn-hook-cpu-b8.json")))
        compared = 0
        for h, i in zip(hook["layers"], imported["layers"]):
            for f in ("forward_us", "backward_us"):
                if h[f] <= 1000:
                    continue
                compared += 1
                err = abs(i[f] - h[f]) / h[f]
                print("%-4s %-11s hook %9.1f us  trace %9.1f us  %+6.1f %%"
                      % (h["name"], f, h[f], i[f], 100 * (i[f] - h[f]) / h[f]))
                if err > 0.10:
                    failures.append("%s %s: %.1f %% from the hook profiler" % (h["name"], f,
                                                                                100 * err))
        if compared < 6:
            failures.append("only %d layer times above 1 ms compared" % compared)
        # Bad input: not JSON, and a trace without module spans (recorded without with_stack).
        bad = os.path.join(tmp, "bad.json")
        with open(bad, "w") as f:
            f.write("{not json")
        r = run_import(bad, out)
        if r.returncode != 1 or "bad.json" not in r.stderr:
            failures.append("malformed trace: exit %d, %s" % (r.returncode, r.stderr))
        doc = json.load(open(os.path.join(TRACES, "small-cnn-trace.json")))
        doc["traceEvents"] = [e for e in doc["traceEvents"]
                              if e.get("cat") != "python_function"]
        with open(bad, "w") as f:
            json.dump(doc, f)
        r = run_import(bad, out)
        if r.returncode != 1 or "no nn.Module span" not in r.stderr:
            failures.append("trace without module spans: exit %d, %s"
                            % (r.returncode, r.stderr))
    for f in failures:
        print("FAIL:", f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
