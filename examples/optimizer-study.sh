#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The optimizer against exhaustive packet-level runs (doc/validation/optimizer.rst): three
# models, two fabrics, one small space (N = 4 machines, P <= 2, overlap on, ring buckets 0 and
# 25 MB, sync and async PS), MTU 9000 and 3 packet steps to keep the packet level affordable.
#
#   sh examples/optimizer-study.sh [OUT] [JOBS]     (default doc/figures/optimizer, 2 at a time)
set -eu
OUT=${1:-doc/figures/optimizer}
JOBS=${2:-2}
BIN=./build/bin/distributed-training-optimize
mkdir -p "$OUT"
SPACE="--machines=4 --maxServers=2 --overlaps=on --buckets=0,25MB --mtu=9000 --packetSteps=3 \
--packetFinalists=3 --exhaustive=true --progress=false"
STAR="--nicRate=10Gbps"
LEAFSPINE="--nicRate=10Gbps --topology=leafspine --leaves=2 --spines=1 --hostsPerLeaf=2 \
--uplinkRate=5Gbps"
run() { # name profile fabric-options
    $BIN --profile="traces/$2.json" $SPACE $3 --json="$OUT/$1.json" --spaceCsv="$OUT/$1.csv" \
        >"$OUT/$1.txt" 2>&1 || echo "$1 failed: see $OUT/$1.txt"
}
i=0
for model in googlenet-titanx-pascal-b16 swin_t-rtx3090-b256 resnet50-p100-b64; do
    for fabric in star leafspine; do
        if [ "$fabric" = star ]; then opts=$STAR; else opts=$LEAFSPINE; fi
        run "$model-$fabric" "$model" "$opts" &
        i=$((i + 1))
        if [ $((i % JOBS)) -eq 0 ]; then wait; fi
    done
done
wait
python3 examples/optimizer-study.py "$OUT"/*-star.json "$OUT"/*-leafspine.json \
    >"$OUT/study-summary.csv"
echo "wrote $OUT/study-summary.csv"
