#!/bin/sh
# Measure the five shipped transformer CPU profiles (traces/README.md, "Transformer
# profiles") and derive their GPU-class variants from traces/gpu_throughputs.json.
#
# Batch and sequence sizes are small so that each profile takes minutes, not hours, on a
# 2-core CPU: ViT-L/16 does about 180 GFLOP per image and training step.
#
# Environment overrides: PYTHON (default /usr/bin/python3), OUT (default: this script's
# directory), THREADS (default 2), WARMUP (default 1), MODELS (subset of the five).
set -eu

HERE=$(cd "$(dirname "$0")" && pwd)
PYTHON=${PYTHON:-/usr/bin/python3}
OUT=${OUT:-$HERE}
THREADS=${THREADS:-2}
WARMUP=${WARMUP:-1}
MODELS=${MODELS:-"swin_t vit_b_16 bert_base gpt2_small vit_l_16"}

# model -> "batch steps [extra options]"
settings() {
    case "$1" in
        swin_t) echo "4 8" ;;
        vit_b_16) echo "2 4" ;;
        vit_l_16) echo "1 3" ;;
        bert_base) echo "2 4 --seq-len 128" ;;
        gpt2_small) echo "2 4 --seq-len 128" ;;
        *) echo "unknown model $1" >&2; exit 1 ;;
    esac
}

echo "load average before profiling: $(cut -d' ' -f1-3 /proc/loadavg)"
start=$(date +%s)
for m in $MODELS; do
    # shellcheck disable=SC2046
    set -- $(settings "$m")
    batch=$1; steps=$2; shift 2
    t0=$(date +%s)
    "$PYTHON" "$HERE/profile_model.py" measure --model "$m" --batch-size "$batch" \
        --steps "$steps" --warmup "$WARMUP" --threads "$THREADS" "$@" \
        --output "$OUT/$m-cpu-b$batch.json"
    echo "$m: $(( $(date +%s) - t0 )) s"
done
"$PYTHON" "$HERE/profile_model.py" scale-table --table "$HERE/gpu_throughputs.json" \
    --dir "$OUT" --models $MODELS || echo "no GPU variant for: $MODELS"
echo "profile_transformers.sh: done in $(( $(date +%s) - start )) s"
