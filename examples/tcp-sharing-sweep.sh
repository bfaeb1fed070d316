#!/usr/bin/env bash
# Sweep of the TCP sharing study (issue 7, part 1): runs examples/tcp-sharing-study.cc over a
# grid of S/BDP, N, TCP variants and link rates, in parallel processes over every core, into one
# CSV; then draws the map (lambda vs S/BDP, one line per variant and N) with gnuplot if present.
#
#   bash examples/tcp-sharing-sweep.sh quick [OUT_DIR]   # default grid, ~2-4 min on 2 cores
#   bash examples/tcp-sharing-sweep.sh stagger [OUT_DIR] # staggered starts, ~1 min on 2 cores
#   bash examples/tcp-sharing-sweep.sh full  [OUT_DIR]   # ~70 GB payload, est. 20-40 min
#
# Grids (flows start together, 10 us links: RTT 40 us, 1000-packet queues, MTU 1500):
#   quick: S/BDP 0.1 1 10 100 1000; N 2 4 8 16; NewReno Cubic DCTCP BBR; 1, 10, 25 Gb/s;
#          runs whose total payload (N + 1 lone baseline flow) x S exceeds MAX_BYTES (400 MB)
#          are skipped (ns-3 carries ~30 MB of payload per wall second at MTU 1500).
#   stagger: 10 Gb/s only, N 2 4 8, S/BDP 0.1 1 10 100, flow i starts at i x stagger with
#          stagger = 0.5 x S / C (each flow arrives while the previous one is half done under
#          FCFS), same byte limit.
#   full:  the same plus S/BDP 0.3 3 30 300, staggered starts (stagger = S / C / 2), and no
#          byte limit.
# Environment: BIN (program, default build/bin/tcp-sharing-study), JOBS (default nproc),
# MAX_BYTES (quick grid byte limit), ARGS (more options for every run, e.g. "--hostModel=linux
# --sharedQueue=true") and TAG (appended to the output names: tcp-sharing-MODE-TAG.csv/.png).
set -euo pipefail
mode=${1:-quick}
out=${2:-doc/figures}
here=$(cd "$(dirname "$0")/.." && pwd)
bin=${BIN:-$here/build/bin/tcp-sharing-study}
jobs=${JOBS:-$(nproc)}
maxBytes=${MAX_BYTES:-400000000}
case "$mode" in
  quick) sizes="0.1 1 10 100 1000"; staggers="0"; limit=$maxBytes ;;
  stagger) sizes="0.1 1 10 100"; staggers="0.5"; limit=$maxBytes ;;
  full) sizes="0.1 0.3 1 3 10 30 100 300 1000"; staggers="0 0.5"; limit=0 ;;
  *) echo "usage: $0 quick|stagger|full [OUT_DIR]" >&2; exit 1 ;;
esac
[ -x "$bin" ] || { echo "error: $bin not built (cmake --build build)" >&2; exit 1; }
mkdir -p "$out"
extra=${ARGS:-}
name=tcp-sharing-$mode${TAG:+-$TAG}
csv=$out/$name.csv
rm -f "$csv"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# One line per run: its arguments. BDP = goodput x 4 x delay; goodput = rate x 1448 / 1502.
n=0
rates="1 10 25"; counts="2 4 8 16"
if [ "$mode" = stagger ]; then rates="10"; counts="2 4 8"; fi
for rate in $rates; do
  for tcp in TcpNewReno TcpCubic TcpDctcp TcpBbr; do
    for flows in $counts; do
      for s in $sizes; do
        for st in $staggers; do
          bytes=$(awk -v r="$rate" -v s="$s" 'BEGIN { printf "%.0f", s * r * 1e9 / 8 * 1448 / 1502 * 40e-6 }')
          total=$(( (flows + 1) * bytes ))
          if [ "$limit" -gt 0 ] && [ "$total" -gt "$limit" ]; then continue; fi
          stagger=$(awk -v b="$bytes" -v r="$rate" -v f="$st" 'BEGIN { printf "%.9fs", f * b / (r * 1e9 / 8 * 1448 / 1502) }')
          n=$((n + 1))
          echo "--rate=${rate}Gbps --tcp=$tcp --flows=$flows --sizeBdp=$s --stagger=$stagger $extra --csv=$tmp/run$n.csv"
        done
      done
    done
  done
done > "$tmp/args"
echo "$(wc -l < "$tmp/args") runs on $jobs processes -> $csv"
start=$(date +%s)
xargs -P "$jobs" -L 1 "$bin" < "$tmp/args" > "$tmp/log"
echo "done in $(( $(date +%s) - start )) s"
first=1
for f in "$tmp"/run*.csv; do
  if [ $first = 1 ]; then head -1 "$f" > "$csv"; first=0; fi
  tail -n +2 "$f" >> "$csv"
done
if command -v gnuplot > /dev/null && [ "$mode" != stagger ]; then
  gnuplot -e "csv='$csv'; png='$out/$name.png'" "$here/examples/tcp-sharing-map.gnuplot"
  echo "figure: $out/$name.png"
fi
