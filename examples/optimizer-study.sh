#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# The optimizer against exhaustive packet-level runs (doc/validation/optimizer.rst): three
# models, two fabrics, one small space (N = 4 machines, P <= 2, overlap on, ring buckets 0 and
# 25 MB, sync and async PS), MTU 9000 and 3 packet steps to keep the packet level affordable.
#
#   bash examples/optimizer-study.sh [OUT] [JOBS]   (default build/studies/optimizer, 2 at a time)
#   bash examples/optimizer-study.sh doc/figures/optimizer   # the shipped results
#
# Progress (runs done, elapsed, time left) goes to stderr. Environment, the grid (words separated
# by spaces; a bad value names the variable and exits 1): MODELS (profiles in traces/, default
# "googlenet-titanx-pascal-b16 swin_t-rtx3090-b256 resnet50-p100-b64"), FABRICS (star leafspine);
# BIN (the optimizer, default build/bin/distributed-training-optimize), STUDIES_DIR (instead of
# build/studies).
# Run by sh (as the pages once said): continue in bash, which sweep-lib.sh needs.
[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@"
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=examples/sweep-lib.sh
. "$here/examples/sweep-lib.sh"
OUT=$(study_out optimizer "${1:-}")
JOBS=${2:-2}
BIN=${BIN:-$here/build/bin/distributed-training-optimize}
MODELS=${MODELS:-googlenet-titanx-pascal-b16 swin_t-rtx3090-b256 resnet50-p100-b64}
FABRICS=${FABRICS:-star leafspine}
# shellcheck disable=SC2086 # the grids are word lists
{
  grid_check MODELS "oneof:$(trace_names)" \
    $MODELS
  grid_check FABRICS "oneof:star leafspine" $FABRICS
  grid_check JOBS count "$JOBS"
}
[ -x "$BIN" ] || { echo "error: $BIN not built (cmake --build build)" >&2; exit 1; }
mkdir -p "$OUT"
# The runs name their profile and output files relative to the top folder (as the shipped
# *.csv.gp do), so that the results do not depend on where the checkout is.
OUT=$(realpath "$OUT")
[[ $OUT != "$here"/* ]] || OUT=${OUT#"$here"/}
cd "$here"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
SPACE="--machines=4 --maxServers=2 --overlaps=on --buckets=0,25MB --mtu=9000 --packetSteps=3 \
--packetFinalists=3 --exhaustive=true --progress=false"
STAR="--nicRate=10Gbps"
LEAFSPINE="--nicRate=10Gbps --topology=leafspine --leaves=2 --spines=1 --hostsPerLeaf=2 \
--uplinkRate=5Gbps"
run() { # name profile fabric-options
  # shellcheck disable=SC2086 # options, word-split on purpose
  "$BIN" --profile="traces/$2.json" $SPACE $3 --json="$OUT/$1.json" --spaceCsv="$OUT/$1.csv" \
    > "$OUT/$1.txt" 2>&1 || echo "$1 failed: see $OUT/$1.txt"
}
# shellcheck disable=SC2086
progress_start $(($(words $MODELS) * $(words $FABRICS))) optimizer-study
i=0
for model in $MODELS; do
  for fabric in $FABRICS; do
    if [ "$fabric" = star ]; then opts=$STAR; else opts=$LEAFSPINE; fi
    { run "$model-$fabric" "$model" "$opts"; progress_tick 1; } &
    i=$((i + 1))
    if [ $((i % JOBS)) -eq 0 ]; then wait; fi
  done
done
wait
jsons=()
for fabric in $FABRICS; do
  # shellcheck disable=SC2086
  for model in $(printf '%s\n' $MODELS | sort); do jsons+=("$OUT/$model-$fabric.json"); done
done
python3 examples/optimizer-study.py "${jsons[@]}" > "$OUT/study-summary.csv"
echo "wrote $OUT/study-summary.csv"
