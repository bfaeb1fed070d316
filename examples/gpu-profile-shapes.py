#!/usr/bin/env python3
"""What the derived GPU profiles' scaling assumption gets wrong, in the simulator's answer.

The derived GPU profiles (traces/README.md, "GPU-class variants") keep the CPU profile's
per-layer time shares and scale their sum to a published throughput. For every profile
measured on a GPU (traces/*-h200*.json, traces/profile_gpu.sh), this script derives the same
model's profile the derived way (traces/profile_model.py scale of the CPU profile to the GPU's
own measured forward + backward time, so the totals are equal and only the shape differs) and
compares the two:

* per layer (profile_model.py compare): the share distance (half the summed |difference| of the
  layers' shares of forward + backward time) and the gradient-ready gap (the largest difference
  of the fraction of backward time done when a layer's gradient exists);
* the hook overhead of the GPU profile (the larger of its forward and backward ratios of hooked
  to unhooked time): above about 1.1 the GPU waits for the hooks' launches, and the profile's
  small layers are too long;
* in the answer: the flow backend's throughput of a ring AllReduce (PyTorch DDP defaults:
  25 MiB buckets, first 1 MiB, overlap) at K workers and each NIC rate, from the measured and
  from the derived profile, and the derived one's error.

    python3 examples/gpu-profile-shapes.py [OUT]     # default build/studies/gpu-profile-shapes
    python3 examples/gpu-profile-shapes.py doc/figures/gpu-profiles   # the shipped table
    python3 examples/gpu-profile-shapes.py check doc/figures/gpu-profiles  # ctest: reproduces it

Environment: SIM (the driver, default build/bin/distributed-training-sim), WORKERS (default 8),
RATES (Gb/s, default "10 25 100"), STEPS (default 12). Writes OUT/shapes.csv.
"""

import csv
import glob
import io
import json
import math
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "traces"))
import profile_model as pm  # noqa: E402
import safe_io  # noqa: E402


def env_list(name, default, kind):
    words = os.environ.get(name, default).split()
    try:
        vals = [kind(w) for w in words]
    except ValueError:
        vals = []
    if not vals or any(not (0 < v < math.inf) for v in vals):
        sys.exit("error: %s=%r (expected positive numbers separated by spaces)"
                 % (name, os.environ.get(name)))
    return vals


def gpu_profiles():
    """The GPU-measured profiles with a CPU profile of the same model (same layers)."""
    out = []
    for path in sorted(glob.glob(os.path.join(ROOT, "traces", "*-h200*-b*.json"))):
        doc = pm.load_profile(path)
        if doc["provenance"].get("timing") != "CUDA events recorded in the hooks, read after each step":
            continue  # the --cuda-timing sync run: a method comparison, not a profile to use
        cpu = sorted(glob.glob(os.path.join(ROOT, "traces", "%s-cpu-b*.json" % doc["model"])))
        if cpu:
            out.append((path, doc, cpu[0]))
    return out


def derived_like(doc, cpu_path, tmp):
    """The CPU profile scaled to this GPU profile's mean forward + backward step."""
    step = sum(sum(s["forward_us"]) + sum(s["backward_us"]) for s in doc["samples"])
    step /= len(doc["samples"])
    rate = doc["batch_size"] / (step / 1e6)
    new, _ = pm.scale_profile(pm.load_profile(cpu_path), rate, doc["batch_size"],
                              "derived for comparison", "the GPU profile's own step time")
    if "worker_update_us" in doc:
        # Both rings run the GPU's own optimizer step: only the layers' shape differs.
        new["worker_update_us"] = doc["worker_update_us"]
        new["worker_update_provenance"] = "the GPU profile's, for comparison"
    path = os.path.join(tmp, "derived-" + os.path.basename(cpu_path))
    pm.dump_profile(new, path)
    return path


def throughput(sim, profile, workers, rate, steps, tmp):
    out = os.path.join(tmp, "r.json")
    cmd = [sim, "--profile=" + profile, "--workers=%d" % workers, "--backend=flow",
           "--arch=ring", "--nicRate=%gGbps" % rate, "--steps=%d" % steps, "--warmup=2",
           "--records=false", "--output=" + out]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit("error: %s: %s" % (" ".join(cmd), r.stderr.strip()))
    return json.load(open(out))["results"][0]["throughput_samples_per_s"]


def check(shipped_dir, rows):
    """ctest: the shipped table is what this script computes now (throughputs within 0.1 %)."""
    with open(os.path.join(shipped_dir, "shapes.csv"), newline="") as f:
        shipped = list(csv.reader(f))[1:]
    bad = 0
    if len(shipped) != len(rows):
        print("FAIL: %d shipped rows, %d computed" % (len(shipped), len(rows)))
        return 1
    for old, new in zip(shipped, rows):
        new = [str(v) for v in new]
        same = old[:8] == new[:8] and all(
            abs(float(a) - float(b)) <= 1e-3 * abs(float(a)) + 0.05
            for a, b in zip(old[8:10], new[8:10]))
        if not same:
            bad += 1
            print("FAIL: shipped %s, computed %s" % (",".join(old), ",".join(new)))
    print("%d rows compared, %d differ" % (len(rows), bad))
    return 1 if bad else 0


def main():
    checking = len(sys.argv) > 1 and sys.argv[1] == "check"
    if checking:
        del sys.argv[1]
    out_dir = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        os.environ.get("STUDIES_DIR", os.path.join(ROOT, "build", "studies")),
        "gpu-profile-shapes")
    sim = os.environ.get("SIM", os.path.join(ROOT, "build", "bin", "distributed-training-sim"))
    workers = int(env_list("WORKERS", "8", int)[0])
    rates = env_list("RATES", "10 25 100", float)
    steps = int(env_list("STEPS", "12", int)[0])
    if not os.access(sim, os.X_OK):
        sys.exit("error: %s not built (cmake --build build)" % sim)
    if not checking:
        try:
            os.makedirs(out_dir, exist_ok=True)
        except OSError as e:
            sys.exit("error: %s: %s (expected a folder for the table)" % (out_dir, e.strerror))
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for path, doc, cpu in gpu_profiles():
            derived = derived_like(doc, cpu, tmp)
            c = pm.compare_profiles(doc, pm.load_profile(derived))
            for rate in rates:
                m = throughput(sim, path, workers, rate, steps, tmp)
                d = throughput(sim, derived, workers, rate, steps, tmp)
                prov = doc["provenance"]
                rows.append([os.path.basename(path), os.path.basename(cpu), doc["batch_size"],
                             "%.3f" % max(prov["hook_overhead_forward_ratio"],
                                          prov["hook_overhead_backward_ratio"]),
                             "%.3f" % c["share_distance"], "%.3f" % c["backward_ready_gap"],
                             workers, "%g" % rate, "%.1f" % m, "%.1f" % d,
                             "%+.1f" % (100 * (d - m) / m)])
                if not checking:
                    print(",".join(str(v) for v in rows[-1]), flush=True)
    if checking:
        return check(out_dir, rows)
    # Written whole or not at all (traces/safe_io.py: a temporary file, fsynced, renamed).
    text = io.StringIO()
    w = csv.writer(text, lineterminator="\n")
    w.writerow(["gpu_profile", "cpu_profile", "batch", "hook_overhead", "share_distance",
                "ready_gap", "workers", "gbps", "measured_samples_per_s",
                "derived_samples_per_s", "derived_error_pct"])
    w.writerows(rows)
    try:
        safe_io.write_output(os.path.join(out_dir, "shapes.csv"), text.getvalue(), "table")
    except (safe_io.OutputError, safe_io.InputError) as e:
        sys.exit("error: %s" % e)
    print("%s: %d rows" % (os.path.join(out_dir, "shapes.csv"), len(rows)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
