#!/usr/bin/env bash
# The write pattern at a shared sender NIC (issue 29): N flows leave one sender host through one
# shaped port, written by one event loop (--writePattern=event-loop) or by a thread per
# connection (thread-per-connection), on the Linux kernel's TCP undilated (--stack=linux) and on
# ns-3 with the Linux-host preset (--stack=ns3 --hostModel=linux, where both patterns are the
# same by construction: the ns-3 rows show it). Every run is tcp-sharing-study with
# --sharedQueue=true; its summary row (lambda: 0 FCFS .. 1 PS) and its per-flow times (Jain's
# index of the flows' rates S / FCT, completion spread (max - min) / mean FCT) go into one CSV,
# and a table of the sharing regime per point (mean over the repeats) is printed.
#
#   sudo bash examples/write-pattern-study.sh [OUT_DIR]          # the grid: ~10 min, idle machine
#   RATES=200 FLOWS=2 SIZES=300000 REPEATS=1 sudo bash examples/write-pattern-study.sh /tmp/wp
#
# The linux runs are real time and shape at up to 1 Gb/s undilated: run them on an idle machine
# (a build next to it takes the CPU the shapers and the senders need), one run at a time (this
# script never runs two at once). OUT_DIR defaults to build/studies/write-pattern (STUDIES_DIR
# moves build/studies); it receives write-pattern.csv, write-pattern-table.txt and runs/.
# Environment (words separated by spaces): RATES (Mb/s, default "200 500 1000"), FLOWS (N,
# default "2 4 8"), SIZES (bytes per flow, default "30000 300000 3000000 10000000"), REPEATS
# (default 3; repeat r runs with --seed=r), PATTERNS (default "event-loop thread-per-connection"),
# STACKS (default "linux ns3"), BIN (default build/bin/tcp-sharing-study), ARGS (more options for
# every run).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=examples/sweep-lib.sh
. "$here/examples/sweep-lib.sh"
out=$(study_out write-pattern "${1:-}")
bin=${BIN:-$here/build/bin/tcp-sharing-study}
rates=${RATES:-200 500 1000}
counts=${FLOWS:-2 4 8}
sizes=${SIZES:-30000 300000 3000000 10000000}
repeats=${REPEATS:-3}
patterns=${PATTERNS:-event-loop thread-per-connection}
stacks=${STACKS:-linux ns3}
# shellcheck disable=SC2086 # the grids are word lists
{
  grid_check RATES number $rates
  grid_check FLOWS count $counts
  grid_check SIZES number $sizes
  grid_check REPEATS count $repeats
  grid_check PATTERNS "oneof:event-loop thread-per-connection" $patterns
  grid_check STACKS "oneof:linux ns3" $stacks
}
[ -x "$bin" ] || { echo "error: $bin not built (cmake --build build)" >&2; exit 1; }
mkdir -p "$out/runs"
csv=$out/write-pattern.csv
echo "stack,pattern,rate_mbps,flows,size_bytes,repeat,lambda,residual,jain,spread,complete" \
  > "$csv"
start=$(date +%s)
n=0
for stack in $stacks; do
  preset=""
  [ "$stack" = ns3 ] && preset="--hostModel=linux"
  for rate in $rates; do
    for flows in $counts; do
      for size in $sizes; do
        for pattern in $patterns; do
          for r in $(seq 1 "$repeats"); do
            n=$((n + 1))
            tag=$stack-$pattern-$rate-$flows-$size-$r
            rm -f "$out/runs/$tag.csv"
            # shellcheck disable=SC2086 # ARGS and the preset are option lists
            "$bin" --stack="$stack" $preset --sharedQueue=true --rate="${rate}Mbps" \
              --flows="$flows" --size="$size" --writePattern="$pattern" --seed="$r" \
              ${ARGS:-} --csv="$out/runs/$tag.csv" --flowTimes="$out/runs/$tag-flows.csv" \
              > "$out/runs/$tag.log" 2>&1 ||
              { cat "$out/runs/$tag.log" >&2; echo "error: run $tag failed" >&2; exit 1; }
            python3 - "$out/runs/$tag.csv" "$out/runs/$tag-flows.csv" \
              "$stack,$pattern,$rate,$flows,$size,$r" >> "$csv" <<'PY'
import csv, sys
row = next(csv.DictReader(open(sys.argv[1])))
flows = list(csv.DictReader(open(sys.argv[2])))
fct = [float(f["end_s"]) - float(f["start_s"]) for f in flows if f["end_s"]]
rates = [float(f["bytes"]) / t for f, t in zip(flows, fct) if t > 0]
jain = sum(rates) ** 2 / (len(rates) * sum(x * x for x in rates)) if rates else float("nan")
spread = (max(fct) - min(fct)) / (sum(fct) / len(fct)) if fct else float("nan")
print(f"{sys.argv[3]},{row['lambda']},{row['residual']},{jain:.4f},{spread:.4f},"
      f"{row['complete']}")
PY
            echo "[$n] $tag: $(tail -1 "$csv" | cut -d, -f7-) ($(( $(date +%s) - start )) s)" >&2
          done
        done
      done
    done
  done
done
# The table: per point, the mean over the repeats of lambda, Jain's index and the spread.
python3 - "$csv" > "$out/write-pattern-table.txt" <<'PY'
import csv, statistics, sys
cells = {}
for r in csv.DictReader(open(sys.argv[1])):
    key = (r["stack"], int(r["rate_mbps"]), int(r["flows"]), int(r["size_bytes"]), r["pattern"])
    cells.setdefault(key, []).append(r)
def mean(rows, field):
    vals = [float(r[field]) for r in rows if r[field] not in ("", "nan")]
    return statistics.mean(vals) if vals else float("nan")
print(f"{'stack':6} {'Mb/s':>5} {'N':>2} {'bytes':>9} {'pattern':22} {'lambda':>7} {'jain':>6} "
      f"{'spread':>7} runs")
for key in sorted(cells):
    rows = cells[key]
    print(f"{key[0]:6} {key[1]:5d} {key[2]:2d} {key[3]:9d} {key[4]:22} "
          f"{mean(rows, 'lambda'):7.3f} {mean(rows, 'jain'):6.3f} {mean(rows, 'spread'):7.3f} "
          f"{len(rows)}")
PY
cat "$out/write-pattern-table.txt"
echo "$n runs in $(( $(date +%s) - start )) s -> $csv, $out/write-pattern-table.txt"
