#!/bin/sh
# Measure per-layer profiles on a CUDA GPU: the shipped CNNs in float32 and the transformers
# under bfloat16 autocast (mixed precision, as they are trained), at per-GPU batch sizes such
# GPUs train with. See traces/README.md, "Profiles measured on a GPU".
#
# Every time is a CUDA-event interval recorded by the hooks (profile_model.py measure
# --cuda-timing events): the GPU's own timeline, no synchronisation added. One extra run with
# --cuda-timing sync shows what waiting for the GPU at every hook does to the per-layer times.
#
# Environment overrides:
#   PYTHON   interpreter with torch + torchvision and CUDA   (default python3)
#   OUT      output directory                                 (default: this script's directory)
#   SLUG     GPU name in the file names                       (default: from nvidia-smi, e.g. h200)
#   STEPS    measured steps per model                         (default 20)
#   WARMUP   warm-up steps (cuDNN autotuning happens here)    (default 3)
#   MODELS   space-separated subset of the model names below  (default: all)
#   BUDGET   seconds; a model not started by then is skipped and listed (default 0: no limit)
#   TIMEOUT  seconds one model may take (default: no limit)
set -u

HERE=$(cd "$(dirname "$0")" && pwd)
PYTHON=${PYTHON:-python3}
OUT=${OUT:-$HERE}
STEPS=${STEPS:-20}
WARMUP=${WARMUP:-3}
BUDGET=${BUDGET:-0}
if [ -z "${SLUG:-}" ]; then
    SLUG=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -n 1 |
           sed 's/NVIDIA //; s/ .*//' | tr 'A-Z' 'a-z')
    [ -n "$SLUG" ] || { echo "profile_gpu.sh: no GPU found by nvidia-smi (set SLUG)" >&2; exit 1; }
fi

# model batch precision [extra options]: the first rows matter most when BUDGET cuts the list.
TABLE="resnet50 64 fp32
vit_b_16 192 bf16
bert_base 64 bf16 --seq-len 128
resnet50 64 fp32-sync
vgg16 64 fp32
inception_v3 64 fp32
googlenet 128 fp32
alexnet 512 fp32
resnet152 64 fp32
resnet101 64 fp32
vgg11 64 fp32
densenet121 64 fp32
swin_t 256 bf16
vit_l_16 64 bf16
gpt2_small 16 bf16 --seq-len 1024
resnet50 16 fp32
resnet50 256 fp32
resnet50 64 bf16"

start=$(date +%s)
failed=""
skipped=""
made=""
echo "$TABLE" > "$OUT/.profile_gpu_table.$$"
while read -r model batch precision extra; do
    case " ${MODELS:-$model} " in *" $model "*) ;; *) continue ;; esac
    now=$(( $(date +%s) - start ))
    if [ "$BUDGET" -gt 0 ] && [ "$now" -ge "$BUDGET" ]; then
        skipped="$skipped $model-b$batch-$precision"
        continue
    fi
    opts="--autocast none --cuda-timing events"
    tag=$SLUG
    case $precision in
        bf16) opts="--autocast bf16 --cuda-timing events"; tag=$SLUG-bf16 ;;
        fp32-sync) opts="--autocast none --cuda-timing sync"; tag=$SLUG-sync ;;
    esac
    file=$OUT/$model-$tag-b$batch.json
    echo "== $model batch $batch $precision ($now s)"
    # shellcheck disable=SC2086  # $opts and $extra are lists of options
    if ${TIMEOUT:+timeout "$TIMEOUT"} "$PYTHON" "$HERE/profile_model.py" measure --model "$model" --batch-size "$batch" \
        --steps "$STEPS" --warmup "$WARMUP" --reference-steps 3 --threads 4 --device cuda \
        $opts $extra --output "$file" </dev/null; then
        made="$made $file"
    else
        failed="$failed $model-b$batch-$precision"
    fi
done < "$OUT/.profile_gpu_table.$$"
rm -f "$OUT/.profile_gpu_table.$$"
# shellcheck disable=SC2086
[ -z "$made" ] || "$PYTHON" "$HERE/profile_model.py" check $made
echo "profile_gpu.sh: done in $(( $(date +%s) - start )) s; failed:${failed:- none}; skipped:${skipped:- none}"
[ -z "$failed" ]
