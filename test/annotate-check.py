#!/usr/bin/env python3
"""ctest: the profiles' shape fields and traces/profile_model.py annotate (traces/README.md).

1. `check` refuses bad shape fields with the file, the field and what was expected, exit 1:
   a negative count, a count of the wrong type, local not a boolean, a halo above 1, one
   count without the other; it accepts the shipped profiles, every one of them annotated.
2. (needs torch: /usr/bin/python3 or $DT_TORCH_PYTHON; skipped with 77 otherwise) `annotate`
   on traces/small_cnn.py's model (3x64x64, batch 8) writes, by hand:
   conv "0" (3 -> 32, 3x3, padding 1): 32 x 64 x 64 = 131072 outputs, 9 x 3 x 131072 =
   3538944 multiply-adds, local, halo 1 row of 64 = 0.015625;
   conv "3" (32 -> 64 after a 2x2 pool): 64 x 32 x 32 = 65536 outputs, 9 x 32 x 65536 =
   18874368 multiply-adds, halo 1/32;
   Linear "9" (16384 -> 256): 256 outputs, 4194304 multiply-adds, full;
   Linear "11" (256 -> 10): 10 outputs, 2560 multiply-adds.
   Everything else in the file is unchanged (same bytes once the shape fields are removed).
   Annotating it as alexnet is refused (layer names differ) and leaves every file given as
   it was, including a matching one given first.
"""

import json
import os
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TRACES = os.path.join(ROOT, "traces")
TOOL = os.path.join(TRACES, "profile_model.py")
SMALL = os.path.join(TRACES, "small-cnn-hook-cpu-b8.json")
SHAPE = ("output_elements", "macs", "local", "halo")


def run(python, *args):
    return subprocess.run([python, TOOL] + list(args), capture_output=True, text=True,
                          timeout=300, cwd=TRACES)


def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)


def bare(doc):
    """The profile without its shape fields."""
    for l in doc["layers"]:
        for k in SHAPE:
            l.pop(k, None)
    return doc


def check_refusals(tmp):
    base = json.load(open(SMALL))
    cases = [({"output_elements": -1}, "layers[0].output_elements: value -1"),
             ({"macs": "many"}, "layers[0].macs: wrong type \"many\""),
             ({"local": 1}, "layers[0].local: wrong type 1"),
             ({"halo": 1.5}, "layers[0].halo: 1.5"),
             ({"macs": None, "output_elements": None}, "layers[0].local: shape field alone")]
    for change, words in cases:
        doc = json.loads(json.dumps(base))
        l = doc["layers"][0]
        l.update({"output_elements": 1, "macs": 1, "local": True, "halo": 0.0})
        for k, v in change.items():
            if v is None:
                del l[k]
            else:
                l[k] = v
        path = os.path.join(tmp, "bad.json")
        json.dump(doc, open(path, "w"))
        r = run(sys.executable, "check", path)
        if r.returncode != 1 or words not in r.stderr or "bad.json" not in r.stderr:
            fail("check %s: rc %d, %r (expected %r)" % (change, r.returncode, r.stderr, words))
    shipped = sorted(os.path.join(TRACES, f) for f in os.listdir(TRACES)
                     if f.endswith(".json") and json.load(open(os.path.join(TRACES, f)))
                     .get("format") == "distributed-training-profile")
    r = run(sys.executable, "check", *shipped)
    if r.returncode != 0:
        fail("shipped profiles: " + r.stderr)
    for f in shipped:
        if not all("macs" in l for l in json.load(open(f))["layers"]):
            fail("%s is not annotated (traces/README.md, 'Layer shapes')" % f)
    print("check: %d refusals and %d shipped profiles ok" % (len(cases), len(shipped)))


def torch_python():
    for p in (os.environ.get("DT_TORCH_PYTHON"), "/usr/bin/python3", sys.executable):
        if p and os.path.exists(p) and subprocess.run(
                [p, "-c", "import torch, torchvision"], capture_output=True).returncode == 0:
            return p
    return None


def check_annotate(tmp, python):
    path = os.path.join(tmp, "small.json")
    doc = bare(json.load(open(SMALL)))
    with open(path, "w") as f:
        json.dump(doc, f)
    model = ["--model", "small_cnn:build", "--input-shape", "3,64,64", "--num-classes", "10"]
    r = run(python, "annotate", *model, path)
    if r.returncode != 0:
        fail("annotate: " + r.stderr)
    got = {l["name"]: [l[k] for k in SHAPE] for l in json.load(open(path))["layers"]}
    want = {"0": [131072, 3538944, True, 0.015625], "3": [65536, 18874368, True, 0.03125],
            "9": [256, 4194304, False, 0.0], "11": [10, 2560, False, 0.0]}
    for name, w in want.items():
        if got[name] != w:
            fail("layer %s: %r (expected %r)" % (name, got[name], w))
    if bare(json.load(open(path))) != doc:
        fail("annotate changed more than the shape fields")
    before = open(path).read()
    other = os.path.join(tmp, "other.json")
    shutil.copy(SMALL, other)
    other_before = open(other).read()
    r = run(python, "annotate", "--model", "alexnet", other, path)
    # Refused for the first mismatch found (the input shape, before the layer names).
    if r.returncode != 1 or not ("do not match the model" in r.stderr
                                 or "is not the model's input" in r.stderr):
        fail("alexnet on the small CNN: rc %d, %r" % (r.returncode, r.stderr))
    if open(path).read() != before or open(other).read() != other_before:
        fail("a refused annotate changed a file")
    print("annotate: small_cnn's conv and linear shapes as worked by hand; mismatch refused")


def main():
    with tempfile.TemporaryDirectory() as tmp:
        check_refusals(tmp)
        python = torch_python()
        if python is None:
            print("annotate: skipped (no Python with torch and torchvision)")
            return 77
        check_annotate(tmp, python)
    return 0


if __name__ == "__main__":
    sys.exit(main())
