#!/usr/bin/env python3
"""The shipped sharing map still reproduces (ctest distributed-training-sharing-map-subset).

Re-runs eight cells of the quick sharing map (doc/figures/tcp-sharing-quick*.csv, made by
examples/tcp-sharing-sweep.sh quick) with the built tcp-sharing-study and compares them with the
shipped rows: a change of the model that moves the map fails here, and then the map is
regenerated (doc/validation/tcp-sharing.rst says how) and the change noted in doc/changelog.rst.
The runs are deterministic (ns-3's random streams are fixed by the study's --seed, default 1), so
the tolerance only absorbs the CSV's printed precision: lambda and r within 0.005, the measured
mean completion time within 0.1 %. About 2 s of CPU in all.

Cells (one per regime and TCP variant, and the two most sensitive to the random streams):
FCFS-like one-packet transfers (NewReno, 1 Gb/s, N = 2, 0.1 BDP: lambda 0.00); PS-like long
flows (NewReno, 1 Gb/s, N = 4, 100 BDP: 0.98); window-limited "neither" (Cubic, 10 Gb/s, N = 2,
10 BDP: 0.42, r 0.57); BBR below its share (25 Gb/s, N = 4, 1 BDP: -0.20); DCTCP, whose RED
marking between 20 and 60 packets draws from ns-3's random streams (10 Gb/s, N = 4, 10 BDP and
25 Gb/s, N = 2, 10 BDP); the Linux-host preset with its seeded 20 us start jitter (Cubic, 10 Gb/s,
N = 4, 10 BDP) and a shared sender NIC (NewReno, 10 Gb/s, N = 4, 1 BDP).

  python3 test/sharing-map-subset-check.py BUILD/bin/tcp-sharing-study
"""
import csv
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
FIGURES = os.path.join(HERE, "..", "doc", "figures")

# (CSV under doc/figures, the sweep's ARGS, rate in Gb/s, TCP, N, S/BDP as the sweep gives it)
CELLS = [
    ("tcp-sharing-quick.csv", [], 1, "TcpNewReno", 2, "0.1"),
    ("tcp-sharing-quick.csv", [], 1, "TcpNewReno", 4, "100"),
    ("tcp-sharing-quick.csv", [], 10, "TcpCubic", 2, "10"),
    ("tcp-sharing-quick.csv", [], 25, "TcpBbr", 4, "1"),
    ("tcp-sharing-quick.csv", [], 10, "TcpDctcp", 4, "10"),
    ("tcp-sharing-quick.csv", [], 25, "TcpDctcp", 2, "10"),
    ("tcp-sharing-quick-linux.csv", ["--hostModel=linux"], 10, "TcpCubic", 4, "10"),
    ("tcp-sharing-quick-shared.csv", ["--sharedQueue=true"], 10, "TcpNewReno", 4, "1"),
]
TOLERANCE = {"lambda": 0.005, "residual": 0.005}
FCT_RELATIVE = 1e-3


def shipped_row(name, rate, tcp, flows, size):
    with open(os.path.join(FIGURES, name), newline="") as f:
        for row in csv.DictReader(f):
            if (float(row["rate_bps"]) == rate * 1e9 and row["tcp"] == tcp
                    and int(row["flows"]) == flows and float(row["stagger_s"]) == 0
                    and abs(float(row["size_bdp"]) / float(size) - 1) < 1e-3):
                return row
    raise SystemExit("error: %s has no row for %g Gb/s %s N = %d %s BDP"
                     % (name, rate, tcp, flows, size))


def run_cell(study, args, rate, tcp, flows, size, folder):
    out = os.path.join(folder, "cell.csv")
    if os.path.exists(out):
        os.remove(out)
    command = [study, "--rate=%gGbps" % rate, "--tcp=" + tcp, "--flows=%d" % flows,
               "--sizeBdp=" + size, "--stagger=0.000000000s"] + args + ["--csv=" + out]
    done = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if done.returncode != 0:
        raise SystemExit("error: %s failed:\n%s" % (" ".join(command), done.stdout))
    with open(out, newline="") as f:
        return next(csv.DictReader(f))


def differences(shipped, measured):
    found = []
    for column, tolerance in TOLERANCE.items():
        a, b = float(shipped[column]), float(measured[column])
        if not abs(a - b) <= tolerance:
            found.append("%s %.6f, shipped %.6f" % (column, b, a))
    a, b = float(shipped["fct_measured_s"]), float(measured["fct_measured_s"])
    if not abs(b - a) <= FCT_RELATIVE * a:
        found.append("mean FCT %.9g s, shipped %.9g s" % (b, a))
    return found


def main():
    if len(sys.argv) != 2:
        raise SystemExit("usage: sharing-map-subset-check.py TCP_SHARING_STUDY")
    failures = 0
    with tempfile.TemporaryDirectory() as folder:
        for name, args, rate, tcp, flows, size in CELLS:
            shipped = shipped_row(name, rate, tcp, flows, size)
            measured = run_cell(sys.argv[1], args, rate, tcp, flows, size, folder)
            found = differences(shipped, measured)
            label = "%s: %g Gb/s %s N = %d %s BDP" % (name, rate, tcp, flows, size)
            print("%s %s: lambda %s (shipped %s)" % ("FAIL" if found else "ok", label,
                                                     measured["lambda"], shipped["lambda"]))
            for d in found:
                print("    " + d)
            failures += bool(found)
    if failures:
        print("%d of %d cells moved: the model changed the map; regenerate it "
              "(doc/validation/tcp-sharing.rst) and note it in doc/changelog.rst" % (failures,
                                                                                    len(CELLS)))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
