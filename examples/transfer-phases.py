#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Phase timing of parameter-server jobs from a result file's per-transfer records.

Reads a distributed-training-sim --output file (one job, or several with --jobs; records on, the
default) or a --recordsFile JSON Lines file (FILE.jsonl) and prints, per backend and job, the mean worker step (its start to its own end), pull phase (first parameter sent to
last received, per worker and step) and push phase (first gradient sent to last received) over
the steps from --warmup on (default: the file's own warm-up steps, its scenario's "warmup"; 1 for
a JSON Lines file). Used by doc/validation/fabric-congestion.rst ("Why the flow backend predicts
more interference between jobs").

  --overlap=A/B   A and B are comma-separated JOB:DIRECTION sets (DIRECTION down or up; JOB
                  may be omitted for a single-job file): how long any transfer phase of A ran
                  while one of B did, e.g. --overlap=d:down/a:up,c:up
  --spread       per direction, how far apart the workers' transfers end: the last worker's
                  last byte minus the first worker's last byte, as a fraction of the phase (first
                  byte sent to last received, all workers), mean over the steps. 0 when the
                  workers share the link equally to the end, (K - 1) / K when they are served
                  one after another. Used by doc/validation/linux-preset.rst (grid-100p at K = 8)
  --concurrency=DIRECTION
                  per number n of a job's workers with a transfer of that direction under way
                  (1 ms bins): how many ms, and each worker's mean rate in Gb/s there
  --phase        per worker w > 0 and step of w, where w's step starts within worker 0's step
                  that was under way then: (start - that step's start) / its length, 0 (or
                  near 1) when the workers run in step, 0.5 when they alternate; all steps, then
                  the mean distance from in-step, min(phase, 1 - phase), over steps >= --warmup.
                  Used by doc/validation/linux-async.rst ("Why Linux's async workers take turns")

  --help         this text

Exit status 1 with a message naming the file for a missing file, bad JSON, or a file without
transfer records.
"""

import bisect
import collections
import json
import sys


def fail(message):
    sys.stderr.write("transfer-phases.py: " + message + "\n")
    sys.exit(1)


def load_lines(path):
    """The runs of a --recordsFile JSON Lines file, as load() gives them."""
    runs = collections.OrderedDict()
    try:
        with open(path) as f:
            for n, line in enumerate(f, 1):
                r = json.loads(line)
                job = runs.setdefault(r.get("run", 0), {"name": "job", "steps": [],
                                                        "transfers": []})
                if r.get("kind") == "result":
                    job.update(r)
                elif r.get("kind") in ("step", "transfer"):
                    job[r["kind"] + "s"].append(r)
    except (OSError, ValueError) as e:
        fail("%s: %s (expected a distributed-training-sim --recordsFile file)" % (path, e))
    if not runs or any(not j["transfers"] or "backend" not in j for j in runs.values()):
        fail("%s: no complete run with per-transfer records (expected a --recordsFile file)" % path)
    return [(j["backend"] + " " + j.get("variant", ""), [j]) for j in runs.values()]


def load(path):
    if path.endswith(".jsonl"):
        return load_lines(path)
    try:
        with open(path) as f:
            data = json.load(f)
    except (OSError, ValueError) as e:
        fail("%s: %s (expected a distributed-training-sim --output file)" % (path, e))
    results = data.get("results", [data] if "backend" in data else [])
    runs = []
    for r in results:
        jobs = r.get("jobs", [dict(r, name="job")])
        if any(not j.get("transfers") for j in jobs):
            fail("%s: no per-transfer records (expected a run with --records=true)" % path)
        runs.append((r["backend"] + " " + r.get("variant", ""), jobs))
    if not runs:
        fail("%s: no results (expected a distributed-training-sim --output file)" % path)
    return runs


def file_warmup(path):
    """The warm-up steps the run of an --output file had (its scenario's), else 1."""
    if path.endswith(".jsonl"):
        return 1
    with open(path) as f:
        data = json.load(f)
    scenario = data.get("scenario", {}) if isinstance(data, dict) else {}
    return int(scenario.get("warmup", 1))


def phases(job):
    """(step, worker, direction) -> [first start, last end] of that transfer phase."""
    ph = collections.defaultdict(lambda: [float("inf"), float("-inf")])
    for t in job["transfers"]:
        p = ph[(t["step"], t["worker"], t["direction"])]
        p[0] = min(p[0], t["start_s"])
        p[1] = max(p[1], t["end_s"])
    return ph


def mean(values):
    return sum(values) / len(values) if values else float("nan")


def summary(jobs, warmup):
    for j in jobs:
        ph = phases(j)
        dur = {d: [e - s for (st, _, dd), (s, e) in ph.items() if dd == d and st >= warmup]
               for d in ("down", "up")}
        steps = [s["end_s"] - s["start_s"] for s in j["steps"] if s["step"] >= warmup]
        print("  %-8s %9.2f samples/s  worker step %7.1f ms  pull %6.1f ms  push %6.1f ms" % (
            j["name"], j["throughput_samples_per_s"], 1e3 * mean(steps),
            1e3 * mean(dur["down"]), 1e3 * mean(dur["up"])))


def spread(jobs, warmup):
    for j in jobs:
        last = collections.defaultdict(dict)  # (step, direction) -> worker -> last byte
        first = {}  # (step, direction) -> first byte
        for t in j["transfers"]:
            if t["step"] < warmup:
                continue
            key = (t["step"], t["direction"])
            last[key][t["worker"]] = max(last[key].get(t["worker"], t["end_s"]), t["end_s"])
            first[key] = min(first.get(key, t["start_s"]), t["start_s"])
        out = {}
        for (step, d), ends in last.items():
            phase = max(ends.values()) - first[(step, d)]
            if phase > 0:
                out.setdefault(d, []).append((max(ends.values()) - min(ends.values())) / phase)
        print("  %-8s spread of the workers' last bytes: %s" % (j["name"], "  ".join(
            "%s %.2f" % (d, mean(out.get(d, []))) for d in ("down", "up"))))


def union(intervals):
    out = []
    for s, e in sorted(intervals):
        if out and s <= out[-1][1]:
            out[-1][1] = max(out[-1][1], e)
        else:
            out.append([s, e])
    return out


def phase_set(jobs, spec):
    by_name = {j["name"]: j for j in jobs}
    intervals = []
    for item in spec.split(","):
        name, _, direction = item.rpartition(":")
        job = by_name.get(name) if name else (jobs[0] if len(jobs) == 1 else None)
        if job is None or direction not in ("down", "up"):
            fail("--overlap: '%s' (expected JOB:down or JOB:up, jobs %s)" % (item, sorted(by_name)))
        intervals += [v for k, v in phases(job).items() if k[2] == direction]
    return union(intervals)


def overlap(jobs, spec):
    first, _, second = spec.partition("/")
    a, b = phase_set(jobs, first), phase_set(jobs, second)
    both = sum(max(0.0, min(x[1], y[1]) - max(x[0], y[0])) for x in a for y in b)
    print("  %s while %s: %.1f ms (of %.1f ms of %s)" % (
        first, second, 1e3 * both, 1e3 * sum(e - s for s, e in a), first))


def concurrency(jobs, direction, binw=1e-3):
    for j in jobs:
        k = 1 + max(s["worker"] for s in j["steps"])
        end = max(t["end_s"] for t in j["transfers"])
        nb = int(end / binw) + 1
        rate = [[0.0] * nb for _ in range(k)]
        for t in j["transfers"]:
            s, e = t["start_s"], t["end_s"]
            if t["direction"] != direction or e <= s:
                continue
            for i in range(int(s / binw), min(int(e / binw), nb - 1) + 1):
                part = min(e, (i + 1) * binw) - max(s, i * binw)
                if part > 0:
                    rate[t["worker"]][i] += t["bytes"] * part / (e - s) / binw
        for n in range(1, k + 1):
            bins = [i for i in range(nb) if sum(rate[w][i] > 1e7 for w in range(k)) == n]
            if bins:
                gbps = [8e-9 * sum(rate[w][i] for i in bins) / len(bins) for w in range(k)]
                print("  %-8s %s: %d of %d workers for %5d ms, Gb/s per worker %s" % (
                    j["name"], direction, n, k, len(bins), " ".join("%.2f" % g for g in gbps)))


def phase(jobs, warmup):
    for j in jobs:
        own = collections.defaultdict(list)  # worker -> [(start, end, step)]
        for s in j["steps"]:
            own[s["worker"]].append((s["start_s"], s["end_s"], s["step"]))
        ref = sorted(own.get(0, []))
        starts = [r[0] for r in ref]
        for w in sorted(k for k in own if k > 0):
            values = []
            for start, _, step in sorted(own[w]):
                i = bisect.bisect_right(starts, start) - 1
                if i >= 0 and start < ref[i][1]:
                    values.append((step, (start - ref[i][0]) / (ref[i][1] - ref[i][0])))
            late = [min(v, 1 - v) for step, v in values if step >= warmup]
            print("  %-8s worker %d against worker 0, phase per step: %s; mean distance from "
                  "in step %.2f" % (j["name"], w, " ".join("%.2f" % v for _, v in values),
                                    mean(late)))


def main(argv):
    files, warmup, overlaps, directions, spreads, phases_on = [], None, [], [], False, False
    for a in argv:
        if a in ("--help", "-h"):
            print(__doc__.strip())
            sys.exit(0)
        if a.startswith("--warmup="):
            try:
                warmup = int(a.split("=", 1)[1])
            except ValueError:
                fail("--warmup: '%s' (expected an integer)" % a)
        elif a.startswith("--overlap="):
            overlaps.append(a.split("=", 1)[1])
        elif a == "--spread":
            spreads = True
        elif a == "--phase":
            phases_on = True
        elif a.startswith("--concurrency="):
            directions.append(a.split("=", 1)[1])
            if directions[-1] not in ("down", "up"):
                fail("--concurrency: '%s' (expected down or up)" % directions[-1])
        elif a.startswith("--"):
            fail("unknown option '%s' (expected --warmup, --overlap, --spread, --concurrency, "
                 "--phase, --help)" % a)
        else:
            files.append(a)
    if not files:
        fail("usage: transfer-phases.py RESULT.json... [--warmup=N] [--overlap=A/B] "
             "[--spread] [--concurrency=down|up] [--phase]")
    for path in files:
        runs = load(path)  # checks the file first
        w = warmup if warmup is not None else file_warmup(path)
        for name, jobs in runs:
            print("%s: %s (means over steps >= %d)" % (path, name, w))
            summary(jobs, w)
            for spec in overlaps:
                overlap(jobs, spec)
            if spreads:
                spread(jobs, w)
            for d in directions:
                concurrency(jobs, d)
            if phases_on:
                phase(jobs, w)


if __name__ == "__main__":
    main(sys.argv[1:])
