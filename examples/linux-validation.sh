#!/usr/bin/env bash
# Validation against real TCP (issue 14): regenerates the tables of doc/validation/linux-tcp.rst,
# section "Validation against real TCP". Needs root (the linux backend builds network
# namespaces). Runs one experiment at a time (the linux runs are real time: parallel jobs would
# disturb each other) and records the load (uptime) next to every row.
#
#   bash examples/linux-validation.sh fidelity [OUT_DIR]  # single flow vs shaper, ~1 min
#   bash examples/linux-validation.sh sharing  [OUT_DIR]  # the sharing grid, ns-3 and linux, ~50 min
#   bash examples/linux-validation.sh oneworker [OUT_DIR] # one worker vs the closed form, ~1 min
#   bash examples/linux-validation.sh noise [OUT_DIR]     # run-to-run spread vs dilation, ~10 min
#   (training scenarios, the error tables: the validation runner with linux as the reference,
#    ./build/bin/validation-runner --matrix=validation/matrix-linux.json --out=OUT
#    and validation/matrix-linux-grid.json; the linux jobs run one at a time, alone)
#
# OUT_DIR defaults to build/studies/linux-validation (git-ignored); the shipped tables are
# regenerated with OUT_DIR doc/figures. Progress (runs done, elapsed, time left) goes to stderr.
# Environment, the grid (words separated by spaces; a bad value names the variable and exits 1):
# RATES (fidelity: shaped rates, default "200Mbps 500Mbps 1Gbps 2Gbps 3Gbps"), STACKS (sharing:
# "ns3 linux"), TCPS (sharing: "TcpCubic TcpNewReno"), FLOWS (sharing: "2 4 8"), SIZES (sharing:
# flow sizes in bytes, default 30 KB-30 MB), DILATION (sharing: the linux stack's time dilation,
# default 40; below about 5 the namespaces' packet processing, not TCP, orders small flows:
# doc/validation/linux-tcp.rst, "Sharing grid and dilation"), REPEAT (noise: runs per point,
# default 5).
# Environment, the runs: BUILD (default build), SHARING_ARGS (sharing: options added to every
# run of both stacks, e.g. "--sharedQueue=true"), STUDIES_DIR (instead of build/studies).
set -euo pipefail
mode=${1:-}
here=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=examples/sweep-lib.sh
. "$here/examples/sweep-lib.sh"
out=$(study_out linux-validation "${2:-}")
build=${BUILD:-$here/build}
rates=${RATES:-200Mbps 500Mbps 1Gbps 2Gbps 3Gbps}
stacks=${STACKS:-ns3 linux}
tcps=${TCPS:-TcpCubic TcpNewReno}
flows=${FLOWS:-2 4 8}
sizes=${SIZES:-30000 100000 300000 1000000 3000000 10000000 30000000}
# shellcheck disable=SC2086 # the grids are word lists
{
  grid_check RATES rate $rates
  grid_check STACKS "oneof:ns3 linux" $stacks
  grid_check TCPS "oneof:TcpCubic TcpNewReno" $tcps
  grid_check FLOWS count $flows
  grid_check SIZES count $sizes
  grid_check DILATION number "${DILATION:-40}"
  grid_check REPEAT count "${REPEAT:-5}"
}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
study=$build/bin/tcp-sharing-study
sim=$build/bin/distributed-training-sim
mkdir -p "$out"
load() { cut -d' ' -f1 /proc/loadavg; }
# Real-time runs must not queue behind other work (root): linux runs at nice -5, ns-3 at +10.
rt() { nice -n "${LINUX_NICE:--5}" "$@"; }

case "$mode" in
  fidelity)
    # One flow of 30 MB (MTU 1500) or 60 MB (MTU 9000) through one shaped port; the ratio of
    # its completion time to S / goodput (goodput = rate x (MTU - 52) / (MTU + 14)).
    csv=$out/linux-fidelity.csv
    echo "rate,mtu,cap,size_bytes,fct_s,ideal_s,ratio,load1" >"$csv"
    # shellcheck disable=SC2086
    progress_start $((2 * $(words $rates) + 3)) fidelity
    for mtu in 1500 9000; do
      for rate in $rates; do
        size=$([ "$mtu" = 1500 ] && echo 30000000 || echo 60000000)
        l=$(load)
        line=$(rt "$study" --stack=linux --flows=1 --size=$size --rate=$rate --mtu=$mtu \
          --queue=1000p --baseline=false)
        fct=$(echo "$line" | sed -E 's/.*mean FCT measured ([0-9.]+) us, fcfs ([0-9.]+) us.*/\1 \2/')
        set -- $fct
        echo "$rate,$mtu,0,$size,$(awk -v a=$1 -v b=$2 'BEGIN{printf "%.6f,%.6f,%.4f", a/1e6, b/1e6, a/b}'),$l" >>"$csv"
        progress_tick 1
      done
    done
    # Per-flow cap by SO_MAX_PACING_RATE (no fq: the kernel's internal pacing).
    for cap in 50Mbps 100Mbps 150Mbps; do
      l=$(load)
      line=$(rt "$study" --stack=linux --flows=1 --size=10000000 --rate=200Mbps --cap=$cap \
        --queue=1000p --baseline=false)
      fct=$(echo "$line" | sed -E 's/.*mean FCT measured ([0-9.]+) us, fcfs ([0-9.]+) us.*/\1 \2/')
      set -- $fct
      echo "200Mbps,1500,$cap,10000000,$(awk -v a=$1 -v b=$2 'BEGIN{printf "%.6f,%.6f,%.4f", a/1e6, b/1e6, a/b}'),$l" >>"$csv"
      progress_tick 1
    done
    cat "$csv"
    ;;
  sharing)
    # N simultaneous transfers through a 200 Mbit/s port, 256 KB drop-tail queue, MTU 1500;
    # one CSV per stack (STACKS, default "ns3 linux"), the load before each run in *.load. The
    # linux stack runs at rate / DILATION and reports undilated times.
    # shellcheck disable=SC2086
    progress_start $(($(words $stacks) * $(words $tcps) * $(words $flows) * $(words $sizes))) sharing
    for stack in $stacks; do
      csv=$out/linux-sharing-$stack.csv
      rm -f "$csv" "$csv.load"
      for tcp in $tcps; do
        for n in $flows; do
          for size in $sizes; do
            echo "$tcp,$n,$size,$(load)" >>"$csv.load"
            if [ "$stack" = linux ]; then run=rt; dil=--dilation=${DILATION:-40}; else run=nice; dil=; fi
            # shellcheck disable=SC2086 # SHARING_ARGS: extra options, word-split on purpose
            $run "$study" --stack=$stack $dil --tcp=$tcp --flows=$n --size=$size --rate=200Mbps \
              --queue=262144B ${SHARING_ARGS:-} --csv="$csv" >/dev/null
            progress_tick 1
          done
        done
      done
      echo "wrote $csv"
    done
    ;;
  oneworker)
    # One worker, overlap off, mean step times: linux against 2M / goodput + T_F + T_B + T_S with
    # the kernel's goodput rate x (MTU - 52) / (MTU + 14).
    csv=$out/linux-one-worker.csv
    echo "rate_bps,dilation,linux_step_s,closed_form_s,ratio,wall_s,load1" >"$csv"
    profile=traces/googlenet-titanx-pascal-b16.json
    progress_start 3 oneworker
    for cfg in "1000000000 1" "10000000000 10" "25000000000 25"; do
      set -- $cfg
      l=$(load)
      rt "$sim" --profile=$profile --workers=1 --nicRate=${1}bps --dilation=$2 --steps=6 --warmup=1 \
        --sampleSteps=false --backend=linux --output="$out/one-worker.json" >/dev/null
      python3 - "$out/one-worker.json" "$profile" "$1" "$2" "$l" >>"$csv" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))['results'][0]
layers = json.load(open(sys.argv[2]))['layers']
m = sum(x['param_bytes'] for x in layers)
t = sum(x['forward_us'] + x['backward_us'] + x['update_us'] for x in layers) * 1e-6
closed = 2 * m / (float(sys.argv[3]) / 8 * 1448 / 1514) + t
s = r['step_time_mean_s']
print('%s,%s,%.6f,%.6f,%.4f,%.1f,%s' % (sys.argv[3], sys.argv[4], s, closed, s / closed,
                                        r['wall_time_s'], sys.argv[5]))
PY
      progress_tick 1
    done
    cat "$csv"
    ;;
  noise)
    # Run-to-run spread of one async and one ring point at the smallest faithful dilation and
    # at a larger one: --repeat=N runs each N times and reports the median run with min/max.
    csv=$out/linux-noise.csv
    echo "scenario,workers,dilation,repeat,median,min,max,spread,load1_before,load1_after,wall_s" >"$csv"
    profile=traces/googlenet-titanx-pascal-b16.json
    progress_start 4 noise
    for cfg in "ps-async-10g 10 --mode=async" "ps-async-10g 40 --mode=async" \
               "ring-ddp-10g 20 --arch=ring --preset=ddp --overlap=true" \
               "ring-ddp-10g 80 --arch=ring --preset=ddp --overlap=true"; do
      set -- $cfg
      name=$1 d=$2
      shift 2
      l=$(load)
      rt "$sim" --profile=$profile --workers=4 --nicRate=10Gbps --mtu=1500 --queue=1000p \
        --steps=4 --warmup=1 --dilation=$d --repeat=${REPEAT:-5} --backend=linux --records=false \
        --progress=false "$@" --output="$out/noise.json" >/dev/null
      python3 - "$out/noise.json" "$name" "$d" "$l" "$(load)" >>"$csv" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))['results'][0]
i = r['inputs']
print('%s,4,%s,%d,%.2f,%.2f,%.2f,%.4f,%s,%s,%.1f' % (
    sys.argv[2], sys.argv[3], i['repeat'], r['throughput_samples_per_s'], i['throughput_min'],
    i['throughput_max'], i['throughput_spread'], sys.argv[4], sys.argv[5], r['wall_time_s']))
PY
      progress_tick 1
    done
    cat "$csv"
    ;;
  *)
    echo "usage: $0 fidelity|sharing|oneworker|noise [OUT_DIR]" >&2
    exit 1
    ;;
esac
