#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Write the error bars of distributed-training-optimize from the module's own validation runs.

Reads validation-runner result tables (results.csv with packet_throughput_samples_per_s and
rel_error = (model - packet) / packet) and writes one row per (class, backend, variant): how many
points (K > 1), the mean and the 5th/95th percentiles of the signed relative error, and the mean
absolute error. The optimizer turns a prediction x into the interval
[x / (1 + p95), x / (1 + p05)] for the packet-level throughput.

Classes: ps-sync, ps-sync-overlap, ps-async, ps-async-overlap, ring (from the runner's
categories: sync-basic, sync-overlap, async-basic, async-hetero, async-overlap,
async-hetero-overlap, decentralised; fabric categories sync-NtoM, async-NtoM and ring-NtoM count
as ps-sync, ps-async and ring).

    python3 examples/optimizer-error-table.py \
        doc/figures/validation/results.csv doc/figures/validation-shallow/results.csv \
        doc/figures/validation-async-long/results.csv doc/figures/fabric/validation/results.csv \
        > doc/figures/optimizer/error-bars.csv
"""

import csv
import math
import sys


def scenario_class(category):
    """The optimizer's class of a validation category, or None."""
    table = {
        "sync-basic": "ps-sync",
        "sync-overlap": "ps-sync-overlap",
        "async-basic": "ps-async",
        "async-hetero": "ps-async",
        "async-overlap": "ps-async-overlap",
        "async-hetero-overlap": "ps-async-overlap",
        "decentralised": "ring",
    }
    if category in table:
        return table[category]
    for prefix, cls in (("sync-", "ps-sync"), ("async-", "ps-async"), ("ring-", "ring")):
        if category.startswith(prefix) and "to" in category:
            return cls
    return None


def percentile(values, q):
    """Linear-interpolation percentile of sorted values, q in [0, 1]."""
    if len(values) == 1:
        return values[0]
    pos = q * (len(values) - 1)
    lo = math.floor(pos)
    hi = min(lo + 1, len(values) - 1)
    return values[lo] + (values[hi] - values[lo]) * (pos - lo)


def main(files):
    if not files:
        sys.exit("usage: optimizer-error-table.py RESULTS.csv... > error-bars.csv")
    errors = {}
    for name in files:
        try:
            with open(name, newline="") as f:
                rows = list(csv.DictReader(f))
        except OSError as e:
            sys.exit("error: %s: %s" % (name, e))
        if rows and "packet_throughput_samples_per_s" not in rows[0]:
            sys.exit("error: %s: expected a packet-referenced validation-runner results.csv"
                     % name)
        for r in rows:
            cls = scenario_class(r["category"])
            if cls is None or r["backend"] == "packet" or int(r["workers"]) < 2:
                continue
            if "@" in r["variant"] or r["rel_error"] == "":
                continue  # calibration sweeps and failed points
            errors.setdefault((cls, r["backend"], r["variant"]), []).append(float(r["rel_error"]))
    out = csv.writer(sys.stdout, lineterminator="\n")
    print("# error bars of distributed-training-optimize: signed relative throughput error "
          "(model - packet) / packet; K > 1; from " + " ".join(files))
    out.writerow(["class", "backend", "variant", "points", "mean", "p05", "p95", "mean_abs"])
    for (cls, backend, variant), e in sorted(errors.items()):
        e.sort()
        out.writerow([cls, backend, variant, len(e), "%.4f" % (sum(e) / len(e)),
                      "%.4f" % percentile(e, 0.05), "%.4f" % percentile(e, 0.95),
                      "%.4f" % (sum(abs(x) for x in e) / len(e))])


if __name__ == "__main__":
    main(sys.argv[1:])
