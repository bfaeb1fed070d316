#!/usr/bin/env bash
# The module against published measurements of real TCP clusters
# (doc/validation/real-clusters.rst): every point of the tables below, predicted by the flow
# backend and, where it fits the CPU, by the packet backend, with the error against the source.
#
#   bash examples/real-clusters.sh [OUT]    # default build/studies/real-clusters
#   bash examples/real-clusters.sh doc/figures/real-clusters   # the shipped CSVs and figure
#
# Sources (numbers quoted exactly; the chapter gives the URLs):
#   tf-*    TensorFlow Benchmarks, "Details for Amazon EC2 Distributed (NVIDIA Tesla K80)",
#           "Training synthetic data" (batch 64, ResNet-152 32) and "Other Results" (batch 32):
#           p2.8xlarge hosts (8 K80 dies, 10 Gb/s), distributed_replicated, a parameter server on
#           every instance (InceptionV3 at 8 instances: 6; ResNet-152 and ResNet-50 batch 32: 4).
#   cscs-*  E. Bugliarello, "Distributed TensorFlow: a performance evaluation", CSCS/ETH summer
#           internship report, 2017, tables "Parameters achieving peak performance on p2.8xlarge
#           / p2.xlarge systems" (InceptionV3, batch 64, synthetic rows; PS counts as listed).
# Fitted points (one per table at most): the profiles are scaled to the K = 1 row of the TF table
# (traces/gpu_throughputs.json); the CSCS p2.8xlarge table fits nothing (it uses the TF
# InceptionV3 profile); the CSCS p2.xlarge table fits its NIC rate (AWS says only "High") to its
# K = 128 row by bisection on the flow backend.
#
# Three predictions per point: flow (the module's default: each step drawn from the profile's
# recorded steps, whose spread is that of the profiling CPU), flow_mean and packet (every step the
# profile's mean: no step-to-step spread, so no straggler at the sync barrier).
# Writes OUT/points.csv (a row per point: measured, predictions, errors, which point is fitted),
# OUT/summary.csv (per table: points, mean and largest |error| of the predicted points) and
# OUT/real-clusters.png (gnuplot, when installed). Progress on stderr.
# Environment: SIM (the driver), STEPS / WARMUP (flow runs, default 20 / 2), PACKET (points run at
# the packet level too, SERIES:GPUS words, default below; "none" for none), PACKET_STEPS /
# PACKET_WARMUP (default 5 / 1), INTRA_BW (PCIe between a p2.8xlarge's GPUs, default 126Gbps:
# PCIe 3.0 x16), FIT_ITERATIONS (bisection steps of the p2.xlarge rate, default 10), STUDIES_DIR.
[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@"
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=examples/sweep-lib.sh
. "$here/examples/sweep-lib.sh"
SIM=${SIM:-$here/build/bin/distributed-training-sim}
OUT=$(study_out real-clusters "${1:-}")
STEPS=${STEPS:-20}
WARMUP=${WARMUP:-2}
PACKET_STEPS=${PACKET_STEPS:-5}
PACKET_WARMUP=${PACKET_WARMUP:-1}
INTRA_BW=${INTRA_BW:-126Gbps}
FIT_ITERATIONS=${FIT_ITERATIONS:-10}
PACKET=${PACKET:-"tf-inception_v3-b64:1 tf-inception_v3-b64:8 tf-inception_v3-b64:16 \
tf-inception_v3-b64:32 tf-inception_v3-b64:64 tf-resnet152-b32:16 tf-resnet152-b32:32"}
{
  grid_check STEPS count "$STEPS"
  grid_check PACKET_STEPS count "$PACKET_STEPS"
  grid_check FIT_ITERATIONS count "$FIT_ITERATIONS"
  grid_check INTRA_BW rate "$INTRA_BW"
  [[ $WARMUP =~ ^[0-9]+$ ]] || grid_fail WARMUP "$WARMUP" "an integer >= 0"
  [[ $PACKET_WARMUP =~ ^[0-9]+$ ]] || grid_fail PACKET_WARMUP "$PACKET_WARMUP" "an integer >= 0"
  for p in $PACKET; do
    [ "$p" = none ] || [[ $p =~ ^(tf|cscs)-[a-z0-9_.-]+:[1-9][0-9]*$ ]] ||
      grid_fail PACKET "$p" "SERIES:GPUS words, e.g. tf-inception_v3-b64:16, or none"
  done
}
[ -x "$SIM" ] || { echo "error: $SIM not built (cmake --build build)" >&2; exit 1; }
mkdir -p "$OUT"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The tables: SERIES PROFILE then GPUS:MEASURED:HOSTS:GPUS_PER_HOST:SERVERS per point.
SERIES=(
  "tf-inception_v3-b64 inception_v3-k80-b64 1:29.7:1:1:1 8:229:1:8:1 16:459:2:8:2 32:902:4:8:4 64:1783:8:8:6"
  "tf-resnet50-b64 resnet50-k80-b64 1:52.4:1:1:1 8:378:1:8:1 16:751:2:8:2 32:1388:4:8:4 64:2744:8:8:8"
  "tf-resnet152-b32 resnet152-k80-b32 1:19.4:1:1:1 8:146:1:8:1 16:291:2:8:2 32:565:4:8:4 64:981:8:8:4"
  "tf-inception_v3-b32 inception_v3-k80-b32 1:29.2:1:1:1 8:219:1:8:1 16:427:2:8:2 32:820:4:8:4 64:1608:8:8:6"
  "tf-resnet50-b32 resnet50-k80-b32 1:48.4:1:1:1 8:333:1:8:1 16:667:2:8:2 32:1180:4:8:4 64:2315:8:8:4"
  "cscs-p2.8xlarge inception_v3-k80-b64 1:30.55:1:1:1 2:58.38:1:2:1 4:116.34:1:4:1 8:230.75:1:8:1 16:448.57:2:8:1 32:863.72:4:8:3 64:1731.31:8:8:8 128:3333.20:16:8:16"
  "cscs-p2.xlarge inception_v3-k80-b64 1:30.55:1:1:1 2:57.45:2:1:2 4:114.57:4:1:4 8:228.41:8:1:8 16:431.64:16:1:12 32:825.64:32:1:32 64:996.32:64:1:64 128:1077.59:128:1:128"
)
FIT_SERIES=cscs-p2.xlarge
FIT_GPUS=128

# run BACKEND SAMPLE PROFILE HOSTS GPUS_PER_HOST SERVERS NIC_MBPS: the throughput (samples/s) of
# one point; SAMPLE true draws each step from the profile's recorded steps, false uses its mean.
# TensorFlow's sync replicas with a PS shard on every instance, dataflow overlap (000 Fig.
# 4a), greedy placement by size (tf_cnn_benchmarks' GreedyLoadBalancingStrategy).
run() {
  local backend=$1 sample=$2 profile=$3 hosts=$4 gpn=$5 servers=$6 mbps=$7 steps=$STEPS \
    warmup=$WARMUP
  if [ "$backend" = packet ]; then steps=$PACKET_STEPS warmup=$PACKET_WARMUP; fi
  local row=$tmp/row.csv
  rm -f "$row"
  "$SIM" --profile="$here/traces/$profile.json" --arch=ps --mode=sync --overlap=true \
    --partition=greedy --workers="$hosts" --servers="$servers" --serverPlacement=colocated \
    --gpusPerNode="$gpn" --intraBw="$INTRA_BW" --nicRate="${mbps}Mbps" --backend="$backend" \
    --sampleSteps="$sample" --steps="$steps" --warmup="$warmup" --records=false --progress=false --csvRow="$row" \
    > "$tmp/run.log" 2>&1 || { cat "$tmp/run.log" >&2; echo "error: run failed" >&2; exit 1; }
  awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "throughput") c = i }
           NR == 2 { print $c }' "$row"
}

# fit_rate PROFILE HOSTS GPUS_PER_HOST SERVERS MEASURED: the NIC rate (Mb/s) whose flow-level
# throughput is MEASURED, by bisection on a log scale between 100 Mb/s and 10 Gb/s.
fit_rate() {
  local lo=100 hi=10000 mid got i
  for ((i = 0; i < FIT_ITERATIONS; i++)); do
    mid=$(awk -v a="$lo" -v b="$hi" 'BEGIN { printf "%.0f", sqrt(a * b) }')
    got=$(run flow true "$1" "$2" "$3" "$4" "$mid")
    if awk -v g="$got" -v m="$5" 'BEGIN { exit !(g < m) }'; then lo=$mid; else hi=$mid; fi
    progress_tick 1
  done
  awk -v a="$lo" -v b="$hi" 'BEGIN { printf "%.0f", sqrt(a * b) }'
}

wants_packet() {
  local p
  for p in $PACKET; do [ "$p" = "$1:$2" ] && return 0; done
  return 1
}

points=0
# shellcheck disable=SC2086 # the series are word lists
for s in "${SERIES[@]}"; do set -- $s; points=$((points + $# - 2)); done
progress_start $((points + FIT_ITERATIONS + $(wc -w <<< "${PACKET/none/}"))) real-clusters

csv=$OUT/points.csv.tmp
echo "series,profile,gpus,hosts,gpus_per_host,servers,nic_mbps,measured,flow,packet,flow_error_pct,packet_error_pct,fitted,flow_mean,flow_mean_error_pct" > "$csv"
for s in "${SERIES[@]}"; do
  # shellcheck disable=SC2086 # the series are word lists
  set -- $s
  name=$1 profile=$2
  shift 2
  nic=10000 fit=""
  if [ "$name" = "$FIT_SERIES" ]; then
    for p in "$@"; do
      IFS=: read -r g m h gpn sv <<< "$p"
      [ "$g" = "$FIT_GPUS" ] && nic=$(fit_rate "$profile" "$h" "$gpn" "$sv" "$m")
    done
    echo "$name: NIC rate fitted to its $FIT_GPUS-GPU row: $nic Mb/s" >&2
  fi
  for p in "$@"; do
    IFS=: read -r g m h gpn sv <<< "$p"
    flow=$(run flow true "$profile" "$h" "$gpn" "$sv" "$nic")
    flow_mean=$(run flow false "$profile" "$h" "$gpn" "$sv" "$nic")
    progress_tick 1
    packet=""
    if wants_packet "$name" "$g"; then
      packet=$(run packet false "$profile" "$h" "$gpn" "$sv" "$nic")
      progress_tick 1
    fi
    # The fitted point: the K = 1 row of a TF table (the profile), the rate point of p2.xlarge.
    fit=no
    if [[ $name == tf-* && $g == 1 ]] || [[ $name == "$FIT_SERIES" && $g == "$FIT_GPUS" ]]; then
      fit=yes
    fi
    awk -v OFS=, -v n="$name" -v pr="$profile" -v g="$g" -v h="$h" -v gpn="$gpn" -v sv="$sv" \
      -v nic="$nic" -v m="$m" -v f="$flow" -v pk="$packet" -v fit="$fit" -v fm="$flow_mean" 'BEGIN {
        pe = pk == "" ? "" : sprintf("%.2f", 100 * (pk - m) / m)
        print n, pr, g, h, gpn, sv, nic, m, f, pk, sprintf("%.2f", 100 * (f - m) / m), pe, fit,
          fm, sprintf("%.2f", 100 * (fm - m) / m) }' \
      >> "$csv"
  done
done
mv "$csv" "$OUT/points.csv"

# Per table: the predicted points' mean and largest |error| (the fitted point left out).
awk -F, -v OFS=, 'function abs(x) { return x < 0 ? -x : x }
  NR > 1 && $13 == "no" {
    if (!($1 in n)) names[++k] = $1
    n[$1]++; sf[$1] += abs($11); if (abs($11) > mf[$1]) mf[$1] = abs($11)
    sm[$1] += abs($15); if (abs($15) > mm[$1]) mm[$1] = abs($15)
    if ($12 != "") { np[$1]++; sp[$1] += abs($12); if (abs($12) > mp[$1]) mp[$1] = abs($12) } }
  END {
    print "series,predicted_points,flow_mean_abs_error_pct,flow_max_abs_error_pct," \
      "flow_mean_steps_mean_abs_error_pct,flow_mean_steps_max_abs_error_pct,packet_points," \
      "packet_mean_abs_error_pct,packet_max_abs_error_pct"
    for (i = 1; i <= k; i++) {
      s = names[i]
      print s, n[s], sprintf("%.2f", sf[s] / n[s]), sprintf("%.2f", mf[s]),
        sprintf("%.2f", sm[s] / n[s]), sprintf("%.2f", mm[s]), np[s] + 0,
        np[s] ? sprintf("%.2f", sp[s] / np[s]) : "", np[s] ? sprintf("%.2f", mp[s]) : ""
    } }' "$OUT/points.csv" > "$OUT/summary.csv"
if command -v gnuplot > /dev/null; then
  gnuplot -e "dir='$OUT'" "$here/examples/real-clusters.gnuplot"
fi
echo "wrote $OUT/points.csv and $OUT/summary.csv"
