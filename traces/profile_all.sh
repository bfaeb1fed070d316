#!/bin/sh
# Measure the nine shipped CPU profiles and derive every GPU variant listed in
# traces/gpu_throughputs.json.  See traces/README.md, "How the shipped profiles were
# produced".
#
# Run it on an otherwise idle machine: every other process on the cores (compilations,
# simulations) ends up in the measured times.  Takes about 6 minutes on a 2-core
# Xeon (2 threads); the per-model step counts below are chosen for that budget
# (fast models get more steps).
#
# Environment overrides:
#   PYTHON   interpreter with torch + torchvision   (default /usr/bin/python3)
#   OUT      output directory                       (default: this script's directory)
#   BATCH    CPU batch size                         (default 8)
#   THREADS  torch.set_num_threads                  (default 2)
#   WARMUP   warm-up steps per model                (default 2)
#   STEPS    measured steps for every model         (default: per-model list below)
#   MODELS   space-separated subset of the models   (default: all nine)
set -eu

HERE=$(cd "$(dirname "$0")" && pwd)
PYTHON=${PYTHON:-/usr/bin/python3}
OUT=${OUT:-$HERE}
BATCH=${BATCH:-8}
THREADS=${THREADS:-2}
WARMUP=${WARMUP:-2}
MODELS=${MODELS:-"alexnet googlenet densenet121 resnet50 inception_v3 resnet101 vgg11 resnet152 vgg16"}

steps_for() {
    if [ -n "${STEPS:-}" ]; then echo "$STEPS"; return; fi
    case "$1" in
        alexnet) echo 30 ;;
        googlenet) echo 20 ;;
        densenet121|resnet50) echo 15 ;;
        inception_v3) echo 12 ;;
        resnet101|vgg11) echo 10 ;;
        resnet152|vgg16) echo 8 ;;
        *) echo 10 ;;
    esac
}

load=$(cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo 0)
echo "load average before profiling: $load (should be well below 1 on an idle machine)"

start=$(date +%s)
for m in $MODELS; do
    "$PYTHON" "$HERE/profile_model.py" measure --model "$m" --batch-size "$BATCH" \
        --steps "$(steps_for "$m")" --warmup "$WARMUP" --threads "$THREADS" \
        --output "$OUT/$m-cpu-b$BATCH.json"
done
"$PYTHON" "$HERE/profile_model.py" scale-table --table "$HERE/gpu_throughputs.json" \
    --dir "$OUT" --cpu-batch "$BATCH"
for m in $MODELS; do
    "$PYTHON" "$HERE/profile_model.py" check "$OUT/$m"-*-b*.json
done
echo "profile_all.sh: done in $(( $(date +%s) - start )) s"
