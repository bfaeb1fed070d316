#!/usr/bin/env python3
"""A synthetic torch.profiler trace of a given size, for timing `profile_model.py import-trace`.

Seeded and standard library only. The steps are copies of the three recorded steps of
traces/small-cnn-trace.json (one picked at random per step), each stretched in time by a
random factor in [0.95, 1.05] (start offsets and durations alike, so that nesting is kept),
with fresh External ids and Sequence numbers, laid end to end. The result imports with
traces/small-cnn-modules.json like the shipped trace, one sample per step.

    python3 test/make-synthetic-trace.py --size-mb 50 --seed 1 --output /tmp/t50.json
"""

import argparse
import json
import os
import random
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHIPPED = os.path.join(ROOT, "traces", "small-cnn-trace.json")


def template_steps():
    """The shipped trace's steps: [(step event, [events inside it, relative times])]."""
    with open(SHIPPED, "r", encoding="utf-8") as f:
        events = json.load(f)["traceEvents"]
    steps = [e for e in events if e["name"].startswith("ProfilerStep#")]
    out = []
    for s in steps:
        a, b = s["ts"], s["ts"] + s["dur"]
        inner = [e for e in events if e is not s and a <= e["ts"] and e["ts"] + e["dur"] <= b]
        out.append((s, inner))
    return out


def stretched(event, origin, factor, shift, ext_base, seq_base):
    e = dict(event)
    e["ts"] = round(shift + (event["ts"] - origin) * factor, 3)
    e["dur"] = round(event["dur"] * factor, 3)
    args = dict(event.get("args", {}))
    if "External id" in args:
        args["External id"] += ext_base
    if "Sequence number" in args:
        args["Sequence number"] += seq_base
    e["args"] = args
    return e


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--size-mb", type=float, required=True)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--output", required=True)
    args = p.parse_args()
    rng = random.Random(args.seed)
    steps = template_steps()
    target = int(args.size_mb * 1e6)
    written = 0
    t = 0.0
    k = 0
    with open(args.output, "w", encoding="utf-8") as f:
        head = '{"schemaVersion": 1, "traceEvents": [\n'
        f.write(head)
        written += len(head)
        while written < target:
            step, inner = steps[rng.randrange(len(steps))]
            factor = rng.uniform(0.95, 1.05)
            origin = step["ts"]
            ext_base, seq_base = 100000 * k, 100000 * k
            out = [stretched(step, origin, factor, t, 0, 0)]
            out[0]["name"] = "ProfilerStep#%d" % k
            out += [stretched(e, origin, factor, t, ext_base, seq_base) for e in inner]
            for e in out:
                line = ("" if written == len(head) else ",\n") + json.dumps(e)
                f.write(line)
                written += len(line)
            t = out[0]["ts"] + out[0]["dur"] + 100.0
            k += 1
        f.write("\n]}\n")
    print("%s: %d steps, %.1f MB" % (args.output, k, os.path.getsize(args.output) / 1e6))
    return 0


if __name__ == "__main__":
    sys.exit(main())
