#!/usr/bin/env bash
# Sweep of the TCP sharing study (issue 7, part 1): runs examples/tcp-sharing-study.cc over a
# grid of S/BDP, N, TCP variants and link rates, in parallel processes over every core, into one
# CSV; then draws the map (lambda vs S/BDP, one line per variant and N) with gnuplot if present.
#
#   bash examples/tcp-sharing-sweep.sh quick [OUT_DIR]   # default grid, ~3-4 min on 2 cores
#   bash examples/tcp-sharing-sweep.sh stagger [OUT_DIR] # staggered starts, ~1 min on 2 cores
#   bash examples/tcp-sharing-sweep.sh full  [OUT_DIR]   # ~70 GB payload, est. 20-40 min
#
# OUT_DIR defaults to build/studies/tcp-sharing (git-ignored; STUDIES_DIR moves build/studies);
# the shipped map is regenerated with OUT_DIR doc/figures. Progress (runs done, elapsed, time
# left, estimated from the bytes still to carry) goes to stderr.
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
# Environment, the grid (words separated by spaces; unset: the mode's grid above; a bad value
# names the variable and exits 1): RATES (link rates in Gb/s, e.g. "1 10 25"), TCPS (ns-3 TCP
# variants, e.g. "TcpCubic TcpDctcp"), FLOWS (N, e.g. "2 4"), SIZES (S/BDP, e.g. "0.1 10"),
# STAGGERS (start spacing in units of S / C, e.g. "0 0.5"), MAX_BYTES (skip runs whose (N + 1) x S
# exceeds it; default 400000000, full 0: no limit).
# Environment, the runs: BIN (program, default build/bin/tcp-sharing-study), JOBS (default
# nproc), ARGS (more options for every run, e.g. "--hostModel=linux --sharedQueue=true") and TAG
# (appended to the output names: tcp-sharing-MODE-TAG.csv/.png).
set -euo pipefail
mode=${1:-quick}
here=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=examples/sweep-lib.sh
. "$here/examples/sweep-lib.sh"
out=$(study_out tcp-sharing "${2:-}")
bin=${BIN:-$here/build/bin/tcp-sharing-study}
jobs=${JOBS:-$(nproc)}
rates="1 10 25"
counts="2 4 8 16"
case "$mode" in
  quick) sizes="0.1 1 10 100 1000"; staggers="0"; limit=400000000 ;;
  stagger) sizes="0.1 1 10 100"; staggers="0.5"; limit=400000000; rates="10"; counts="2 4 8" ;;
  full) sizes="0.1 0.3 1 3 10 30 100 300 1000"; staggers="0 0.5"; limit=0 ;;
  *) echo "usage: $0 quick|stagger|full [OUT_DIR]" >&2; exit 1 ;;
esac
rates=${RATES:-$rates}
tcps=${TCPS:-TcpNewReno TcpCubic TcpDctcp TcpBbr}
counts=${FLOWS:-$counts}
sizes=${SIZES:-$sizes}
staggers=${STAGGERS:-$staggers}
limit=${MAX_BYTES:-$limit}
# shellcheck disable=SC2086 # the grids are word lists
{
  grid_check RATES number $rates
  grid_check TCPS "oneof:TcpNewReno TcpCubic TcpDctcp TcpBbr TcpVegas TcpVeno TcpWestwood \
TcpHighSpeed TcpHybla TcpHtcp TcpScalable TcpBic TcpYeah TcpIllinois TcpLedbat TcpLp \
TcpLinuxReno" $tcps
  grid_check FLOWS count $counts
  grid_check SIZES number $sizes
  grid_check STAGGERS fraction $staggers
}
[[ $limit =~ ^[0-9]+$ ]] || grid_fail MAX_BYTES "$limit" "a byte count >= 0 (0: no limit)"
[ -x "$bin" ] || { echo "error: $bin not built (cmake --build build)" >&2; exit 1; }
mkdir -p "$out"
extra=${ARGS:-}
name=tcp-sharing-$mode${TAG:+-$TAG}
csv=$out/$name.csv
rm -f "$csv"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# One line per run: its cost (bytes to carry, plus about 0.05 s of set-up at ~30 MB/s) and its
# arguments. BDP = goodput x 4 x delay; goodput = rate x 1448 / 1502.
n=0
for rate in $rates; do
  for tcp in $tcps; do
    for flows in $counts; do
      for s in $sizes; do
        for st in $staggers; do
          bytes=$(awk -v r="$rate" -v s="$s" 'BEGIN { printf "%.0f", s * r * 1e9 / 8 * 1448 / 1502 * 40e-6 }')
          total=$(( (flows + 1) * bytes ))
          if [ "$limit" -gt 0 ] && [ "$total" -gt "$limit" ]; then continue; fi
          stagger=$(awk -v b="$bytes" -v r="$rate" -v f="$st" 'BEGIN { printf "%.9fs", f * b / (r * 1e9 / 8 * 1448 / 1502) }')
          n=$((n + 1))
          echo "$((total + 1500000)) --rate=${rate}Gbps --tcp=$tcp --flows=$flows --sizeBdp=$s --stagger=$stagger $extra --csv=$tmp/run$n.csv"
        done
      done
    done
  done
done > "$tmp/args"
[ "$n" -gt 0 ] || { echo "error: no run left in the grid (MAX_BYTES $limit)" >&2; exit 1; }
echo "$n runs on $jobs processes -> $csv"
start=$(date +%s)
PROGRESS_WEIGHTED=1 PROGRESS_NAME=$name progress_xargs "$tmp/args" "$bin" > "$tmp/log" ||
  { echo "error: a run failed (its message is above)" >&2; exit 1; }
echo "done in $(( $(date +%s) - start )) s"
# The rows in grid order.
head -1 "$tmp/run1.csv" > "$csv"
for i in $(seq 1 "$n"); do tail -n +2 "$tmp/run$i.csv" >> "$csv"; done
if command -v gnuplot > /dev/null && [ "$mode" != stagger ]; then
  gnuplot -e "csv='$csv'; png='$out/$name.png'; rates='$rates'; tcps='$tcps'; ns='$counts'" \
    "$here/examples/tcp-sharing-map.gnuplot"
  echo "figure: $out/$name.png"
fi
