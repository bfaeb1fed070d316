#!/usr/bin/env bash
# Scaling study of the transformer profiles against the CNNs
# (doc/validation/transformer-scaling.rst): data-parallel throughput for K = 1..64 workers with a
# parameter server (sync and async, one server) and ring all-reduce (PyTorch DDP buckets), at 10, 25 and
# 100 Gbps, MTU 9000, from the flow-level and the analytic backend of distributed-training-sim.
#
#   bash examples/transformer-scaling.sh [OUT]    # default build/studies/transformer-scaling
#   bash examples/transformer-scaling.sh doc/figures/transformer-scaling   # the shipped figure
#
# Writes OUT/<profile>-<config>-<rate>-<backend>.csv (workers, throughput), OUT/summary.csv
# (scaling efficiency at K = 8 and 64: throughput / (K x compute-only throughput); 0 where
# WORKERS lacks 8 or 64) and draws OUT/efficiency.png with gnuplot when installed. Progress (runs
# done, elapsed, time left) goes to stderr.
# Environment, the grid (words separated by spaces; a bad value names the variable and exits 1):
# PROFILES (names in traces/, default the six below), CONFIGS (ps-sync ps-async ring), RATES (Gb/s,
# default "10 25 100"), BACKENDS (flow analytic), WORKERS (default "1 2 4 8 16 32 64").
# Environment, the runs: SIM (the driver), STEPS (default 12), WARMUP (default 2), STUDIES_DIR
# (instead of build/studies).
# Run by sh (as the pages once said): continue in bash, which sweep-lib.sh needs.
[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@"
set -euo pipefail
HERE=$(cd "$(dirname "$0")/.." && pwd)
here=$HERE
# shellcheck source=examples/sweep-lib.sh
. "$HERE/examples/sweep-lib.sh"
SIM=${SIM:-$HERE/build/bin/distributed-training-sim}
OUT=$(study_out transformer-scaling "${1:-}")
STEPS=${STEPS:-12}
WARMUP=${WARMUP:-2}
PROFILES=${PROFILES:-"vit_b_16-rtx3090-b192 vit_l_16-rtx3090-b64 swin_t-rtx3090-b256 resnet50-p100-b64 vgg16-p100-b64 inception_v3-p100-b64"}
CONFIGS=${CONFIGS:-ps-sync ps-async ring}
RATES=${RATES:-10 25 100}
BACKENDS=${BACKENDS:-flow analytic}
WORKERS=${WORKERS:-1 2 4 8 16 32 64}
# shellcheck disable=SC2086 # the grids are word lists
{
  grid_check PROFILES "oneof:$(trace_names)" \
    $PROFILES
  grid_check CONFIGS "oneof:ps-sync ps-async ring" $CONFIGS
  grid_check RATES number $RATES
  grid_check BACKENDS "oneof:flow analytic" $BACKENDS
  grid_check WORKERS count $WORKERS
  grid_check STEPS count $STEPS
  [[ $WARMUP =~ ^[0-9]+$ ]] || grid_fail WARMUP "$WARMUP" "an integer >= 0"
}
[ -x "$SIM" ] || { echo "error: $SIM not built (cmake --build build)" >&2; exit 1; }
mkdir -p "$OUT"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# shellcheck disable=SC2086
progress_start $(($(words $PROFILES) * $(words $CONFIGS) * $(words $RATES) * $(words $BACKENDS))) \
    transformer-scaling

config_args() {
    case "$1" in
        ps-sync) echo "--arch=ps --mode=sync --overlap=true" ;;
        ps-async) echo "--arch=ps --mode=async --overlap=true" ;;
        ring) echo "--arch=ring --preset=ddp" ;;
    esac
}

# compute-only throughput of one worker: batch / mean(forward + backward)
compute_only() {
    python3 - "$1" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
t = sum(l["forward_us"] + l["backward_us"] for l in d["layers"]) / 1e6
print("%.6g" % (d["batch_size"] / t))
EOF
}

echo "profile,config,rate,backend,compute_only_samples_per_s,K8_samples_per_s,K8_efficiency,K64_samples_per_s,K64_efficiency" > "$OUT/summary.csv.tmp"
for p in $PROFILES; do
    file="$HERE/traces/$p.json"
    single=$(compute_only "$file")
    for config in $CONFIGS; do
        for rate in $RATES; do
            for backend in $BACKENDS; do
                csv="$OUT/$p-$config-${rate}g-$backend.csv"
                # shellcheck disable=SC2046
                "$SIM" --profile="$file" $(config_args "$config") --backend="$backend" \
                    --workers="$(tr -s " " , <<< "$WORKERS")" --nicRate="${rate}Gbps" --mtu=9000 \
                    --steps="$STEPS" --warmup="$WARMUP" --records=false --progress=false \
                    --csv="$csv" > "$csv.log" 2>&1 || { echo "failed: see $csv.log" >&2; exit 1; }
                rm -f "$csv.gp" "$csv.log"
                # the first model column (analytic: the first closed form that applies)
                awk -F, -v s="$single" -v p="$p" -v c="$config" -v r="$rate" -v b="$backend" '
                    NR > 1 && $1 == 8 { k8 = $2 } NR > 1 && $1 == 64 { k64 = $2 }
                    END { printf "%s,%s,%sGbps,%s,%s,%s,%.3f,%s,%.3f\n", p, c, r, b, s, k8,
                          k8 / (8 * s), k64, k64 / (64 * s) }' "$csv" >> "$OUT/summary.csv.tmp"
                progress_tick 1
            done
        done
    done
done
mv "$OUT/summary.csv.tmp" "$OUT/summary.csv"
if command -v gnuplot > /dev/null; then
    gnuplot -e "dir='$OUT'; profiles='$PROFILES'; configs='$CONFIGS'; rates='$RATES'" \
        "$HERE/examples/transformer-scaling.gnuplot"
fi
echo "wrote $OUT/summary.csv"
