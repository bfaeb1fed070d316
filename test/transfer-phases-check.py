#!/usr/bin/env python3
"""ctest: examples/transfer-phases.py on flow-backend runs worked by hand.

Two sync-PS jobs (K = 1, one 10 MB layer, no compute) on a leaf-spine with one spine, worker of a
on host 0 and of b on host 1 (rack 0), servers on hosts 2 and 3 (rack 1), so both jobs' pulls
share the spine path one way and their pushes the other way (B = goodput of 10 Gb/s at MTU 1500,
as the result's inputs give it; M / B = 8.30 ms):

1. Both start at 0: every pull and push runs at B/2, so each phase takes 2M/B = 16.60 ms, a's
   pulls overlap b's for all 3 x 16.60 ms and never b's pushes.
2. b starts M/B later (anti-phase): each runs as alone, phases of M/B = 8.30 ms; a's pulls
   never overlap b's, and after b's start each of a's pulls runs during one of b's pushes
   (2 x 8.30 ms).
3. --spread on one sync-PS job, K = 2 on the star (same layer), read from a --recordsFile JSON
   Lines file: with --sharing=ps both pulls and both pushes share B to the end (spread 0), with
   --sharing=fcfs the second worker's transfer ends M/B after the first's, in a phase of 2M/B
   (spread 1/2 = (K - 1) / K).
4. --phase on one async-PS job, K = 2 on the star (same layer, 4 steps): under --sharing=ps the
   workers stay in step (phase 0 every step); under --sharing=fcfs worker 0 pulls first, so in
   units of M/B its steps run [0, 2], [2, 4], [4, 6], ... and worker 1's [0, 3], [3, 5], [5, 7]:
   phases 0, then 0.5 (alternating), mean distance from in step 0.5 over steps >= 1.
5. A missing file and a bad --overlap are refused with exit status 1 and a message naming them.

Usage: transfer-phases-check.py SIM   (SIM: the distributed-training-sim program)
"""

import json
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TOOL = os.path.join(ROOT, "examples", "transfer-phases.py")
BYTES = 10000000


def run(cmd):
    return subprocess.run(cmd, capture_output=True, text=True, timeout=300)


def check(cond, message):
    if not cond:
        sys.stderr.write("FAIL: " + message + "\n")
        sys.exit(1)


def simulate(sim, tmp, name, b_start):
    profile = os.path.join(tmp, "one-layer.json")
    with open(profile, "w") as f:
        json.dump({"format": "distributed-training-profile", "version": 1, "model": "one-layer",
                   "batch_size": 16,
                   "provenance": {"device": "none", "framework": "none",
                                  "method": "synthetic: one layer, no compute", "derived": True},
                   "layers": [{"name": "l0", "param_bytes": BYTES, "forward_us": 0,
                               "backward_us": 0, "update_us": 0}]}, f)
    jobs = [{"name": "a", "placement": "0,2"},
            {"name": "b", "placement": "1,3", "startTime": "%.9fs" % b_start}]
    out = os.path.join(tmp, name + ".json")
    r = run([sim, "--backend=flow", "--topology=leafspine", "--leaves=2", "--spines=1",
             "--hostsPerLeaf=2", "--workers=1", "--steps=3", "--warmup=1", "--profile=" + profile,
             "--jobs=" + json.dumps(jobs), "--output=" + out])
    check(r.returncode == 0, "%s: the simulator failed: %s" % (name, r.stderr))
    return out


def spreads(sim, tmp, sharing):
    """(down, up) spread of a K = 2 sync-PS job under a flow sharing rule, from its JSON Lines."""
    lines = os.path.join(tmp, sharing + ".jsonl")
    r = run([sim, "--backend=flow", "--sharing=" + sharing, "--workers=2", "--steps=3",
             "--warmup=1", "--profile=" + os.path.join(tmp, "one-layer.json"),
             "--output=" + os.path.join(tmp, sharing + ".json"), "--recordsFile=" + lines])
    check(r.returncode == 0, "%s: the simulator failed: %s" % (sharing, r.stderr))
    r = run([sys.executable, TOOL, lines, "--spread"])
    check(r.returncode == 0, "transfer-phases.py --spread failed: " + r.stderr)
    m = re.search(r"last bytes: down ([\d.]+)  up ([\d.]+)$", r.stdout, re.M)
    check(m is not None, "no spread line in: " + r.stdout)
    return float(m.group(1)), float(m.group(2))


def phase_distance(sim, tmp, sharing):
    """(phases, mean distance from in step) of worker 1 in a K = 2 async-PS job."""
    out = os.path.join(tmp, "async-" + sharing + ".json")
    r = run([sim, "--backend=flow", "--sharing=" + sharing, "--mode=async", "--workers=2",
             "--steps=4", "--warmup=1", "--profile=" + os.path.join(tmp, "one-layer.json"),
             "--output=" + out])
    check(r.returncode == 0, "async %s: the simulator failed: %s" % (sharing, r.stderr))
    r = run([sys.executable, TOOL, out, "--warmup=1", "--phase"])
    check(r.returncode == 0, "transfer-phases.py --phase failed: " + r.stderr)
    m = re.search(r"phase per step: ([\d. ]+); mean distance from in step ([\d.]+)$", r.stdout,
                  re.M)
    check(m is not None, "no phase line in: " + r.stdout)
    return [float(x) for x in m.group(1).split()], float(m.group(2))


def phases(path, *options):
    r = run([sys.executable, TOOL, path, "--warmup=0"] + list(options))
    check(r.returncode == 0, "transfer-phases.py failed: " + r.stderr)
    rows = {m.group(1): (float(m.group(2)), float(m.group(3)))
            for m in re.finditer(r"^  (\w+) .* pull +([\d.]+) ms  push +([\d.]+) ms$",
                                 r.stdout, re.M)}
    overlaps = [float(x) for x in re.findall(r"^  \S+ while \S+: ([\d.]+) ms", r.stdout, re.M)]
    return rows, overlaps


def near(value, expected, tol, what):
    check(abs(value - expected) <= tol * expected + 1e-9,
          "%s: %.3f, expected %.3f (within %g %%)" % (what, value, expected, 100 * tol))


def main():
    sim = sys.argv[1]
    with tempfile.TemporaryDirectory() as tmp:
        first = simulate(sim, tmp, "in-phase", 0.0)
        with open(first) as f:  # B as the backend derives it (TrainingNetwork's goodput rule)
            goodput = json.load(f)["results"][0]["jobs"][0]["inputs"]["B_bytes_per_s"]
        check(1.1e9 < goodput < 1.25e9, "B = %g bytes/s (expected the goodput of 10 Gb/s)" % goodput)
        m_over_b = BYTES / goodput * 1e3  # ms
        rows, ov = phases(first, "--overlap=a:down/b:down", "--overlap=a:down/b:up")
        for job in ("a", "b"):
            near(rows[job][0], 2 * m_over_b, 0.01, "in phase: %s's pull" % job)
            near(rows[job][1], 2 * m_over_b, 0.01, "in phase: %s's push" % job)
        near(ov[0], 3 * 2 * m_over_b, 0.01, "in phase: a's pulls during b's")
        check(ov[1] < 0.01, "in phase: a's pulls during b's pushes: %.3f ms" % ov[1])

        rows, ov = phases(simulate(sim, tmp, "anti-phase", m_over_b / 1e3),
                          "--overlap=a:down/b:down", "--overlap=a:down/b:up")
        for job in ("a", "b"):
            near(rows[job][0], m_over_b, 0.01, "anti-phase: %s's pull" % job)
            near(rows[job][1], m_over_b, 0.01, "anti-phase: %s's push" % job)
        check(ov[0] < 0.01, "anti-phase: a's pulls during b's: %.3f ms" % ov[0])
        near(ov[1], 2 * m_over_b, 0.01, "anti-phase: a's pulls during b's pushes")

        down, up = spreads(sim, tmp, "ps")
        check(down < 0.01 and up < 0.01, "ps sharing: spread %.3f / %.3f, expected 0" % (down, up))
        down, up = spreads(sim, tmp, "fcfs")
        near(down, 0.5, 0.01, "fcfs sharing: spread of the pulls")
        near(up, 0.5, 0.01, "fcfs sharing: spread of the pushes")

        values, distance = phase_distance(sim, tmp, "ps")
        check(values == [0.0] * 4 and distance == 0.0, "ps: phases %s, expected 0" % values)
        values, distance = phase_distance(sim, tmp, "fcfs")
        check(values == [0.0, 0.5, 0.5, 0.5] and distance == 0.5,
              "fcfs: phases %s (distance %.2f), expected 0 0.5 0.5 0.5" % (values, distance))

        # Without --warmup the file's own warm-up counts (the jobs file ran --warmup=1).
        r = run([sys.executable, TOOL, first])
        check(r.returncode == 0 and "means over steps >= 1)" in r.stdout, "file's warm-up: "
              + r.stdout + r.stderr)
        with open(first) as f:
            data = json.load(f)
        data["scenario"]["warmup"] = 2
        two = os.path.join(tmp, "warmup-2.json")
        with open(two, "w") as f:
            json.dump(data, f)
        r = run([sys.executable, TOOL, two])
        check(r.returncode == 0 and "means over steps >= 2)" in r.stdout, "warm-up 2: "
              + r.stdout + r.stderr)
        r = run([sys.executable, TOOL, "--help"])
        check(r.returncode == 0 and "--warmup" in r.stdout, "--help: " + r.stdout + r.stderr)
        r = run([sys.executable, TOOL, os.path.join(tmp, "missing.json")])
        check(r.returncode == 1 and "missing.json" in r.stderr, "missing file: " + r.stderr)
        r = run([sys.executable, TOOL, os.path.join(tmp, "in-phase.json"), "--overlap=z:down/a:up"])
        check(r.returncode == 1 and "'z:down'" in r.stderr, "bad --overlap: " + r.stderr)
    print("PASS transfer-phases.py: in phase 2M/B per phase, anti-phase M/B, overlaps as worked, "
          "spread 0 under ps and 1/2 under fcfs at K = 2, async workers in step under ps and "
          "alternating under fcfs")


if __name__ == "__main__":
    main()
