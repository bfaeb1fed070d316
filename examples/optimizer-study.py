#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Summarise distributed-training-optimize --exhaustive=true runs (doc/validation/optimizer.rst).

For each JSON file: the ladder's choice against the best of the exhaustive packet-level runs
of the same space, the wall time per rung, and how the analytic and flow rankings of every
configuration disagree with the packet level's (pairs ordered the other way, Spearman's rho,
top-1 agreement, mean absolute throughput error).

    python3 examples/optimizer-study.py doc/figures/optimizer/*.json > summary.csv
"""

import csv
import itertools
import json
import os
import sys


def ranks(values):
    """Ranks (1 = largest) of a list of numbers, ties averaged."""
    order = sorted(range(len(values)), key=lambda i: -values[i])
    r = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            r[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return r


def spearman(a, b):
    """Spearman's rank correlation of two lists."""
    ra, rb = ranks(a), ranks(b)
    n = len(a)
    ma, mb = sum(ra) / n, sum(rb) / n
    cov = sum((x - ma) * (y - mb) for x, y in zip(ra, rb))
    va = sum((x - ma) ** 2 for x in ra) ** 0.5
    vb = sum((y - mb) ** 2 for y in rb) ** 0.5
    return cov / (va * vb) if va and vb else float("nan")


def compare(rows, rung):
    """Disagreement of one rung with the packet level over the rows both evaluated."""
    pts = [(r[rung]["throughput_samples_per_s"], r["packet"]["throughput_samples_per_s"])
           for r in rows
           if r.get(rung, {}).get("done") and r.get("packet", {}).get("done")]
    if len(pts) < 2:
        return {"points": len(pts)}
    pairs = list(itertools.combinations(pts, 2))
    inverted = sum(1 for (a, x), (b, y) in pairs if (a - b) * (x - y) < 0)
    top_model = max(range(len(pts)), key=lambda i: pts[i][0])
    top_packet = max(range(len(pts)), key=lambda i: pts[i][1])
    return {
        "points": len(pts),
        "inverted_pairs_pct": 100.0 * inverted / len(pairs),
        "spearman": spearman([p[0] for p in pts], [p[1] for p in pts]),
        "top1_agrees": top_model == top_packet,
        # what following this rung's choice would lose against the packet level's best
        "top1_loss_pct": 100.0 * (1 - pts[top_model][1] / pts[top_packet][1]),
        "mean_abs_err_pct": 100.0 * sum(abs(m / p - 1) for m, p in pts) / len(pts),
    }


def summarise(name):
    with open(name) as f:
        doc = json.load(f)
    ex = doc.get("exhaustive", [])
    done = [r for r in ex if r.get("packet", {}).get("done")]
    if not done:
        sys.exit("error: %s: no exhaustive packet results (run with --exhaustive=true)" % name)
    best = max(done, key=lambda r: r["packet"]["throughput_samples_per_s"])
    pick = doc["rows"][0]
    pick_packet = next(r for r in ex if r["label"] == pick["label"])["packet"]
    out = {
        "run": os.path.splitext(os.path.basename(name))[0],
        "configurations": len(ex),
        "choice": pick["label"],
        "choice_packet": pick_packet["throughput_samples_per_s"],
        "best_packet": best["label"],
        "best_packet_throughput": best["packet"]["throughput_samples_per_s"],
        "choice_vs_best_pct": 100.0 * (pick_packet["throughput_samples_per_s"]
                                       / best["packet"]["throughput_samples_per_s"] - 1),
        "settled": doc["settled"],
        "wall_analytic_s": doc["rungs"]["analytic"]["wall_s"],
        "wall_flow_s": doc["rungs"]["flow"]["wall_s"],
        "wall_packet_s": doc["rungs"]["packet"]["wall_s"],
        "packet_runs": doc["rungs"]["packet"]["runs"],
        "wall_exhaustive_packet_s": sum(r["packet"]["wall_s"] for r in ex if "packet" in r),
    }
    for rung in ("analytic", "flow"):
        for k, v in compare(ex, rung).items():
            out[rung + "_" + k] = v
    return out


def main(files):
    if not files:
        sys.exit("usage: optimizer-study.py RUN.json... > summary.csv")
    rows = [summarise(f) for f in files]
    keys = []
    for r in rows:
        keys += [k for k in r if k not in keys]
    w = csv.DictWriter(sys.stdout, fieldnames=keys, lineterminator="\n")
    w.writeheader()
    for r in rows:
        w.writerow({k: ("%.3f" % v if isinstance(v, float) else v) for k, v in r.items()})


if __name__ == "__main__":
    main(sys.argv[1:])
