#!/bin/sh
# Scaling study of the transformer profiles against the CNNs
# (doc/validation/transformer-scaling.rst): data-parallel throughput for K = 1..64 workers with a
# parameter server (sync and async, one server) and ring all-reduce (PyTorch DDP buckets), at 10, 25 and
# 100 Gbps, MTU 9000, from the flow-level and the analytic backend of distributed-training-sim.
#
#   sh examples/transformer-scaling.sh [OUT]          # default doc/figures/transformer-scaling
#
# Writes OUT/<profile>-<config>-<rate>-<backend>.csv (workers, throughput), OUT/summary.csv
# (scaling efficiency at K = 8 and 64: throughput / (K x compute-only throughput)) and draws
# OUT/efficiency.png with gnuplot when installed. Environment: SIM (the driver), STEPS (default
# 12), WARMUP (default 2).
set -eu
HERE=$(cd "$(dirname "$0")/.." && pwd)
SIM=${SIM:-$HERE/build/bin/distributed-training-sim}
OUT=${1:-$HERE/doc/figures/transformer-scaling}
STEPS=${STEPS:-12}
WARMUP=${WARMUP:-2}
PROFILES=${PROFILES:-"vit_b_16-rtx3090-b192 vit_l_16-rtx3090-b64 swin_t-rtx3090-b256 resnet50-p100-b64 vgg16-p100-b64 inception_v3-p100-b64"}
mkdir -p "$OUT"

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
    for config in ps-sync ps-async ring; do
        for rate in 10 25 100; do
            for backend in flow analytic; do
                csv="$OUT/$p-$config-${rate}g-$backend.csv"
                # shellcheck disable=SC2046
                "$SIM" --profile="$file" $(config_args "$config") --backend="$backend" \
                    --workers=1,2,4,8,16,32,64 --nicRate="${rate}Gbps" --mtu=9000 \
                    --steps="$STEPS" --warmup="$WARMUP" --records=false --progress=false \
                    --csv="$csv" > "$csv.log" 2>&1 || { echo "failed: see $csv.log" >&2; exit 1; }
                rm -f "$csv.gp" "$csv.log"
                # the first model column (analytic: the first closed form that applies)
                awk -F, -v s="$single" -v p="$p" -v c="$config" -v r="$rate" -v b="$backend" '
                    NR > 1 && $1 == 8 { k8 = $2 } NR > 1 && $1 == 64 { k64 = $2 }
                    END { printf "%s,%s,%sGbps,%s,%s,%s,%.3f,%s,%.3f\n", p, c, r, b, s, k8,
                          k8 / (8 * s), k64, k64 / (64 * s) }' "$csv" >> "$OUT/summary.csv.tmp"
            done
        done
    done
done
mv "$OUT/summary.csv.tmp" "$OUT/summary.csv"
if command -v gnuplot > /dev/null; then
    gnuplot -e "dir='$OUT'; profiles='$PROFILES'" "$HERE/examples/transformer-scaling.gnuplot"
fi
echo "wrote $OUT/summary.csv"
