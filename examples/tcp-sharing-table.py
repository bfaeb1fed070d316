#!/usr/bin/env python3
"""Tables of the TCP sharing study (doc/validation/tcp-sharing.rst) from its sweep CSVs
(examples/tcp-sharing-sweep.sh), so that no number on the page is copied by hand.

  python3 examples/tcp-sharing-table.py regimes LABEL=CSV...  # cells by regime, an rst table
  python3 examples/tcp-sharing-table.py map CSV               # lambda (r) per grid cell
  python3 examples/tcp-sharing-table.py wfit CSV [S/BDP]      # fitted w (residual), default 100
  python3 examples/tcp-sharing-table.py write DIR             # the page's four tables, below
  python3 examples/tcp-sharing-table.py check DIR             # exit 1 unless they are current

The page includes the tables that "write" makes from the CSVs in DIR (the shipped ones:
doc/figures): tcp-sharing-regimes.rst (regimes of tcp-sharing-quick.csv, -shared, -linux and
-linux-shared), tcp-sharing-quick-table.txt and tcp-sharing-stagger-table.txt (map) and
tcp-sharing-stagger-wfit.txt (wfit at 100 BDP); ctest distributed-training-sharing-tables runs
"check doc/figures", so a CSV regenerated without its tables fails.

Regimes of one run (lambda, r: the sharing index and its residual): FCFS-like lambda < 0.5,
mixed 0.5 <= lambda < 0.8, PS-like lambda >= 0.8, each with r <= 0.3; neither: r > 0.3 or the
index undefined. Sizes are grouped 0.1, 1, 10 and 100-1000 BDP (by the nominal S/BDP of the
grid: the CSV's size_bdp is the rounded size over the BDP, e.g. 0.999992).
"""
import csv
import math
import os
import sys

TCP_ORDER = ["TcpNewReno", "TcpCubic", "TcpDctcp", "TcpBbr"]
REGIMES = ["FCFS-like", "mixed", "PS-like", "neither"]
SIZE_GROUPS = [("0.1", (0.1,)), ("1", (1,)), ("10", (10,)), ("100-1000", (100, 1000))]


def fail(message):
    sys.stderr.write("error: " + message + "\n")
    sys.exit(1)


def read_rows(path):
    """The CSV's rows as dicts; a missing file or column names the file and exits 1."""
    try:
        with open(path, newline="") as f:
            rows = list(csv.DictReader(f))
    except OSError as e:
        fail("%s: %s" % (path, e.strerror))
    need = {"rate_bps", "tcp", "flows", "size_bdp", "lambda", "residual", "defined"}
    if not rows or not need <= set(rows[0]):
        fail("%s: not a tcp-sharing-study CSV (expected the columns %s)"
             % (path, ", ".join(sorted(need))))
    return rows


def nominal_size(row):
    """The grid's S/BDP of a row (size_bdp rounded to 2 significant digits)."""
    s = float(row["size_bdp"])
    return float("%.2g" % s)


def regime(row):
    lam, r = float(row["lambda"]), float(row["residual"])
    if row["defined"] != "1" or math.isnan(lam) or not r <= 0.3:
        return "neither"
    if lam < 0.5:
        return "FCFS-like"
    return "mixed" if lam < 0.8 else "PS-like"


def regimes_table(pairs):
    """The rst table: one line per configuration and size group, the number of runs per regime."""
    lines = []
    for label, path in pairs:
        rows = read_rows(path)
        for name, sizes in SIZE_GROUPS:
            counts = dict.fromkeys(REGIMES, 0)
            for row in rows:
                if nominal_size(row) in sizes:
                    counts[regime(row)] += 1
            lines.append(["%s, %s" % (label, name)] + [str(counts[k]) for k in REGIMES])
    header = ["configuration, S/BDP"] + REGIMES
    widths = [max(len(x[i]) for x in lines + [header]) for i in range(len(header))]
    rule = " ".join("=" * w for w in widths)
    out = [rule, " ".join(h.ljust(w) for h, w in zip(header, widths)).rstrip(), rule]
    out += [" ".join(c.ljust(w) for c, w in zip(x, widths)).rstrip() for x in lines]
    out.append(rule)
    return "\n".join(out)


def cell(row):
    return "%.2f (%.2f)" % (float(row["lambda"]), float(row["residual"]))


def order_key(row):
    tcp = row["tcp"]
    rank = TCP_ORDER.index(tcp) if tcp in TCP_ORDER else len(TCP_ORDER)
    return (float(row["rate_bps"]), rank, tcp, int(row["flows"]))


def map_table(path):
    """lambda (r) per rate, TCP variant and N (lines) and S/BDP (columns); '-' where not run."""
    rows = read_rows(path)
    sizes = sorted({nominal_size(r) for r in rows})
    cells, keys = {}, []
    for row in sorted(rows, key=order_key):
        key = order_key(row)
        if key not in cells:
            cells[key] = {}
            keys.append(key)
        cells[key][nominal_size(row)] = cell(row)
    width = max(12, max(len(c) for k in keys for c in cells[k].values()))
    head = "  rate  TCP      N" + "".join(("%g BDP" % s).rjust(width + 2) for s in sizes)
    out = [head]
    for key in keys:
        rate, _, tcp, n = key
        line = "%5gG  %-7s %2d" % (rate / 1e9, tcp[3:] if tcp.startswith("Tcp") else tcp, n)
        line += "".join(cells[key].get(s, "-").rjust(width + 2) for s in sizes)
        out.append(line)
    bad = sum(1 for r in rows if r["defined"] != "1" or r.get("complete", "1") != "1")
    out.append("")
    out.append("%d runs; %d with an undefined index or an incomplete flow" % (len(rows), bad))
    return "\n".join(out)


def wfit_table(path, size):
    """The fitted IncumbentWeight (its residual) per TCP variant (lines) and N (columns)."""
    rows = [r for r in read_rows(path) if nominal_size(r) == size]
    if not rows or "w_fit" not in rows[0]:
        fail("%s: no run of %g BDP with a w_fit column" % (path, size))
    ns = sorted({int(r["flows"]) for r in rows})
    tcps = sorted({r["tcp"] for r in rows}, key=lambda t: order_key({"rate_bps": 0, "tcp": t,
                                                                     "flows": 0}))
    out = ["  TCP     " + "".join(("N = %d" % n).ljust(14) for n in ns).rstrip()]
    for tcp in tcps:
        line = "  %-7s " % (tcp[3:] if tcp.startswith("Tcp") else tcp)
        for n in ns:
            match = [r for r in rows if r["tcp"] == tcp and int(r["flows"]) == n]
            text = "-"
            if match:
                w, res = float(match[0]["w_fit"]), float(match[0]["w_fit_residual"])
                text = "%.2f (%.3f)" % (w, res) if res < 0.01 else "%.2f (%.2f)" % (w, res)
            line += text.ljust(14)
        out.append(line.rstrip())
    return "\n".join(out)


def page_tables(folder):
    """{file name: text} of the tables the page includes, from the CSVs in folder."""
    csvs = [("stock", "tcp-sharing-quick.csv"), ("shared NIC", "tcp-sharing-quick-shared.csv"),
            ("preset", "tcp-sharing-quick-linux.csv"),
            ("preset + shared NIC", "tcp-sharing-quick-linux-shared.csv")]

    def path(name):
        return os.path.join(folder, name)

    return {
        "tcp-sharing-regimes.rst": regimes_table([(l, path(n)) for l, n in csvs]),
        "tcp-sharing-quick-table.txt": map_table(path("tcp-sharing-quick.csv")),
        "tcp-sharing-stagger-table.txt": map_table(path("tcp-sharing-stagger.csv")),
        "tcp-sharing-stagger-wfit.txt": wfit_table(path("tcp-sharing-stagger.csv"), 100.0),
    }


def write_or_check(folder, check):
    stale = []
    for name, text in page_tables(folder).items():
        target = os.path.join(folder, name)
        if check:
            try:
                with open(target) as f:
                    current = f.read() == text + "\n"
            except OSError:
                current = False
            if not current:
                stale.append(target)
        else:
            with open(target, "w") as f:
                f.write(text + "\n")
            print("wrote " + target)
    if stale:
        fail("not made from the CSVs beside them (run: python3 examples/tcp-sharing-table.py "
             "write %s): %s" % (folder, ", ".join(stale)))


def main(argv):
    usage = ("usage: tcp-sharing-table.py regimes LABEL=CSV... | map CSV | "
             "wfit CSV [S/BDP] | write DIR | check DIR")
    if len(argv) < 3:
        fail(usage)
    mode, args = argv[1], argv[2:]
    if mode == "regimes":
        pairs = []
        for a in args:
            if "=" not in a:
                fail("regimes: '%s' is not LABEL=CSV" % a)
            pairs.append(tuple(a.split("=", 1)))
        print(regimes_table(pairs))
    elif mode in ("write", "check") and len(args) == 1:
        write_or_check(args[0], mode == "check")
    elif mode == "map" and len(args) == 1:
        print(map_table(args[0]))
    elif mode == "wfit" and len(args) in (1, 2):
        try:
            size = float(args[1]) if len(args) == 2 else 100.0
        except ValueError:
            fail("wfit: S/BDP '%s' is not a number" % args[1])
        print(wfit_table(args[0], size))
    else:
        fail(usage)


if __name__ == "__main__":
    main(sys.argv)
