#!/usr/bin/env bash
# Congestion study (issue 7, part 3; doc/validation/congestion.rst): runs distributed-training-sim with
# --backend=all (packet level, every flow sharing model, every analytic form) per grid point, in
# parallel processes over every core, collects its --csvRow output into one CSV per mode, derives
# a summary (packet vs flow ps / fcfs / Eq. (7), step-time inflation, congestion counters) and
# draws the figures with gnuplot if present.
#
#   bash examples/incast-sweep.sh incast [OUT_DIR]  # collapse map + factors, ~10 min on 2 cores
#   bash examples/incast-sweep.sh cross  [OUT_DIR]  # background traffic, ~4 min on 2 cores
#   bash examples/incast-sweep.sh all    [OUT_DIR]  # both
#
# Every point: sync PS, one server, test/data/two-layers-12mb.json (two 6 MB layers, so each
# worker pushes and pulls 12 MB per step), 10 Gb/s, 10 us links, MTU 1500, --steps=4 --warmup=1,
# 1000-packet host NIC buffers (--hostQueue): --queue varies the switch ports' buffer only.
# incast: the collapse map K in {2,4,8,16} x buffer {10p,50p,100p,1000p} (DropTail, Cubic, MinRto
#         200 ms), and one factor at a time around K = 8, 100p, DropTail, Cubic, 200 ms: queue
#         disc RED with ECN / CoDel / FqCoDel, TCP NewReno / DCTCP (RED with DCTCP's marking),
#         MinRto 10 ms / 1 ms.
# cross:  K = 4, 1000p, DropTail, Cubic, cross flows to the server's switch port: none, bulk 1
#         and 4 flows (TCP), on-off UDP at 20/50/80 % of the link (2/5/8 Gb/s, one flow, 1 ms
#         mean bursts), and bulk 1 flow to worker 0.
# Outputs in OUT_DIR (default build/studies/congestion, git-ignored; the shipped figures:
# doc/figures/congestion): MODE.csv (raw rows), MODE-summary.csv, and PNGs (incast-collapse.png,
# incast-factors.png, cross.png). Progress (points done, elapsed, time left) goes to stderr.
# Environment, the grid (words separated by spaces; a bad value names the variable and exits 1):
# KS (incast: the collapse map's worker counts, default "2 4 8 16"), QUEUES (incast: its switch
# buffers, default "10p 50p 100p 1000p"; the factors stay at K = 8, 100p), CROSS_FLOWS (cross: bulk
# flow counts, default "1 4"), CROSS_RATES (cross: on-off rates in Gb/s, default "2 5 8"), STEPS
# (default 4), HOST_QUEUE (host NIC buffer, default 1000p; empty: the same as the switch's, as in
# doc/figures/congestion/incast-shared-buffers-summary.csv).
# Environment, the runs: BIN (driver, default build/bin/distributed-training-sim), JOBS (default
# nproc), STUDIES_DIR (instead of build/studies).
set -euo pipefail
mode=${1:-incast}
here=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=examples/sweep-lib.sh
. "$here/examples/sweep-lib.sh"
out=$(study_out congestion "${2:-}")
bin=${BIN:-$here/build/bin/distributed-training-sim}
jobs=${JOBS:-$(nproc)}
steps=${STEPS:-4}
hostQueue=${HOST_QUEUE-1000p}
ks=${KS:-2 4 8 16}
queues=${QUEUES:-10p 50p 100p 1000p}
crossFlows=${CROSS_FLOWS:-1 4}
crossRates=${CROSS_RATES:-2 5 8}
# shellcheck disable=SC2086 # the grids are word lists
{
  grid_check KS count $ks
  grid_check QUEUES queue $queues
  grid_check CROSS_FLOWS count $crossFlows
  grid_check CROSS_RATES number $crossRates
  grid_check STEPS count $steps
  [ -z "$hostQueue" ] || grid_check HOST_QUEUE queue $hostQueue
}
case "$mode" in
  incast | cross) modes=$mode ;;
  all) modes="incast cross" ;;
  *) echo "usage: $0 incast|cross|all [OUT_DIR]" >&2; exit 1 ;;
esac
[ -x "$bin" ] || { echo "error: $bin not built (cmake --build build)" >&2; exit 1; }
mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
common="--profile=$here/test/data/two-layers-12mb.json --arch=ps --mode=sync --servers=1 \
--nicRate=10Gbps ${hostQueue:+--hostQueue=$hostQueue} --steps=$steps --warmup=1 --backend=all \
--progress=false --records=false"

# One line per run: LABEL then the driver's options.
grid_incast() {
  for q in $queues; do
    for k in $ks; do echo "grid-K$k-$q --workers=$k --queue=$q"; done
  done
  local base="--workers=8 --queue=100p"
  echo "disc-RED-ECN $base --queueDisc=RedQueueDisc --ecn=true"
  echo "disc-CoDel $base --queueDisc=CoDelQueueDisc"
  echo "disc-FqCoDel $base --queueDisc=FqCoDelQueueDisc"
  echo "tcp-NewReno $base --tcp=TcpNewReno"
  echo "tcp-DCTCP $base --tcp=TcpDctcp"
  echo "rto-10ms $base --minRto=10ms"
  echo "rto-1ms $base --minRto=1ms"
}
grid_cross() {
  local base="--workers=4 --queue=1000p"
  echo "cross-none $base"
  local f r
  for f in $crossFlows; do echo "cross-bulk$f $base --crossTraffic=bulk --crossFlows=$f"; done
  # Labelled by the share of the 10 Gb/s link in percent (2 Gb/s: onoff20).
  for r in $crossRates; do
    echo "cross-onoff$(awk -v r="$r" 'BEGIN { printf "%g", 10 * r }') $base --crossTraffic=onoff \
--crossRate=${r}Gbps"
  done
  echo "cross-bulk1-worker $base --crossTraffic=bulk --crossFlows=1 --crossTarget=worker"
}

for m in $modes; do
  run_grid "$m"
  csv=$out/$m.csv
  # Summary: one line per point. err_X = (X - packet) / packet; inflation = packet step time /
  # flow ps step time.
  awk -F, '
    NR == 1 { next }
    { l = $1; if (!(l in seen)) { seen[l] = 1; order[++n] = l } }
    $16 == "packet" { p[l] = $18; pstep[l] = $19; row[l] = $0 }
    $16 == "flow" && $17 == "ps" { fps[l] = $18; fpsstep[l] = $19 }
    $16 == "flow" && $17 == "fcfs" { ffcfs[l] = $18 }
    $16 == "analytic" && $17 == "sync-eq7" { eq7[l] = $18 }
    END {
      print "label,workers,queue,queue_disc,tcp,min_rto_ms,ecn,cross,cross_flows,cross_rate_gbps," \
            "packet,flow_ps,flow_fcfs,eq7,err_ps,err_fcfs,err_eq7,inflation_vs_ps,drops," \
            "drops_server_ports,ecn_marks,retransmitted,rto_timeouts,fast_recoveries," \
            "cross_gbps,wall_s"
      for (i = 1; i <= n; ++i) {
        l = order[i]; split(row[l], f, ",")
        printf "%s,%s,%s,%s,%s,%g,%s,%s,%s,%g,%.1f,%.1f,%.1f,%.1f,%+.3f,%+.3f,%+.3f,%.2f,%d,%d,%d,%d,%d,%d,%.2f,%.0f\n",
          l, f[5], f[7], f[9], f[10], f[11] * 1000, f[12], f[13], f[14], f[15] / 1e9,
          p[l], fps[l], ffcfs[l], eq7[l], (fps[l] - p[l]) / p[l], (ffcfs[l] - p[l]) / p[l],
          (eq7[l] - p[l]) / p[l], pstep[l] / fpsstep[l], f[23] + f[24], f[29], f[25], f[26],
          f[27], f[28], f[30] / 1e9, f[22]
      }
    }' "$csv" > "$out/$m-summary.csv"
  column -s, -t < "$out/$m-summary.csv" | cut -c1-200
done

if command -v gnuplot > /dev/null; then
  for m in $modes; do
    gnuplot -e "dir='$out'; queues='$queues'" "$here/examples/incast-sweep-$m.gnuplot"
  done
  echo "figures in $out"
fi
