#!/usr/bin/env bash
# Congestion study on leaf-spine fabrics (issue 16; doc/validation/fabric-congestion.rst): runs
# distributed-training-sim with --backend=all (packet level and every flow sharing model; the
# analytic backend has no fabrics and is skipped) per grid point, in parallel processes over every
# core, collects the --csvRow rows into one CSV per mode, derives a summary with awk and draws the
# figures with gnuplot if present.
#
#   bash examples/fabric-congestion.sh ecmp   [OUT_DIR]  # ECMP collisions over seeds, ~15 min
#   bash examples/fabric-congestion.sh incast [OUT_DIR]  # cross-rack incast at the PS, ~15 min
#   bash examples/fabric-congestion.sh all    [OUT_DIR]  # both
#
# ecmp:   sync PS, GoogLeNet (TITAN X Pascal, batch 16), MTU 9000, 1000-packet buffers; a leaf-spine
#         of 2 leaves x 4 spines, 4 hosts of 10 Gb/s per leaf: the K = 4 workers fill rack 0, the
#         server is in rack 1, so the 4 pushes leave rack 0 over 4 uplinks chosen by the ECMP hash
#         (and the 4 pulls enter it the same way). Uplinks 10 / 5 / 2.5 Gb/s (oversubscription
#         1:1 / 2:1 / 4:1), --ecmpSeed 1..SEEDS. The CSV's ecmp_* columns count the job's flows per
#         switch-to-switch link (EcmpCollisions, the same paths in both backends).
# incast: sync PS, one server alone in rack 0, K (KS) workers in the other racks (4 per
#         rack, explicit placement), 2 spines, uplinks 20 / 10 / 5 Gb/s (1:1 / 2:1 / 4:1),
#         switch ports of 100 packets (shallow) or 1000 packets (deep), host NICs 1000 packets,
#         test/data/two-layers-12mb.json, MTU 1500, Cubic, MinRto 200 ms: the congestion
#         study's incast (doc/validation/congestion.rst) moved onto a fabric.
# Outputs in OUT_DIR (default build/studies/fabric, git-ignored; the shipped figures:
# doc/figures/fabric): MODE.csv (raw rows), MODE-summary.csv (one line per point), MODE-groups.csv
# (ecmp: per oversubscription and collision degree) and the PNGs. Progress (points done, elapsed,
# time left) goes to stderr.
# Environment, the grid (words separated by spaces; a bad value names the variable and exits 1):
# SEEDS (ecmp: seeds per oversubscription, default 128), PACKET_SEEDS (ecmp: the first seeds that
# also run at the packet level, default 12; the others run the flow backend only), ECMP_UPLINKS
# (ecmp: NAME:RATE per oversubscription, default "1to1:10Gbps 2to1:5Gbps 4to1:2500Mbps"), KS
# (incast: worker counts, multiples of 4, default "4 8"), INCAST_UPLINKS (incast: default
# "1to1:20Gbps 2to1:10Gbps 4to1:5Gbps"), QUEUES (incast: switch buffers, default "100p 1000p"),
# STEPS (default 4).
# Environment, the runs: BIN (driver, default build/bin/distributed-training-sim), JOBS (default
# nproc), STUDIES_DIR (instead of build/studies).
set -euo pipefail
mode=${1:-ecmp}
here=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=examples/sweep-lib.sh
. "$here/examples/sweep-lib.sh"
out=$(study_out fabric "${2:-}")
bin=${BIN:-$here/build/bin/distributed-training-sim}
jobs=${JOBS:-$(nproc)}
steps=${STEPS:-4}
ks=${KS:-4 8}
seeds=${SEEDS:-128}
packetSeeds=${PACKET_SEEDS:-12}
ecmpUplinks=${ECMP_UPLINKS:-1to1:10Gbps 2to1:5Gbps 4to1:2500Mbps}
incastUplinks=${INCAST_UPLINKS:-1to1:20Gbps 2to1:10Gbps 4to1:5Gbps}
queues=${QUEUES:-100p 1000p}
# shellcheck disable=SC2086 # the grids are word lists
{
  grid_check STEPS count $steps
  grid_check SEEDS count $seeds
  [[ $packetSeeds =~ ^[0-9]+$ ]] || grid_fail PACKET_SEEDS "$packetSeeds" "an integer >= 0"
  grid_check KS count $ks
  for k in $ks; do [ $((k % 4)) = 0 ] || grid_fail KS "$k" "a multiple of 4 (4 workers per rack)"; done
  grid_check QUEUES queue $queues
  for o in $ecmpUplinks $incastUplinks; do
    [[ $o =~ ^[A-Za-z0-9]+:[^:]+$ ]] || grid_fail "ECMP_UPLINKS/INCAST_UPLINKS" "$o" \
      "NAME:RATE with a name of letters and digits, e.g. 2to1:5Gbps"
    grid_check "ECMP_UPLINKS/INCAST_UPLINKS" rate "${o#*:}"
  done
}
case "$mode" in
  ecmp | incast) modes=$mode ;;
  all) modes="ecmp incast" ;;
  *) echo "usage: $0 ecmp|incast|all [OUT_DIR]" >&2; exit 1 ;;
esac
[ -x "$bin" ] || { echo "error: $bin not built (cmake --build build)" >&2; exit 1; }
mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
common="--arch=ps --mode=sync --servers=1 --nicRate=10Gbps --steps=$steps --warmup=1 \
--progress=false --records=false"
all="--backend=all"
flow="--backend=flow --sharing=hybrid" # reports its fcfs and ps parts too

# One line per run: LABEL then the driver's options.
grid_ecmp() {
  local job="--profile=$here/traces/googlenet-titanx-pascal-b16.json --mtu=9000 --queue=1000p \
--workers=4"
  local base="$job --topology=leafspine --leaves=2 --spines=4 --hostsPerLeaf=4 --placement=packed"
  # The reference: the star, i.e. every host on one switch (no uplink to collide on).
  echo "ecmp-star-s0 $all $job --topology=star"
  for o in $ecmpUplinks; do
    for s in $(seq 1 "$seeds"); do
      local backend=$all
      [ "$s" -le "$packetSeeds" ] || backend=$flow
      echo "ecmp-${o%%:*}-s$s $backend $base --uplinkRate=${o#*:} --ecmpSeed=$s"
    done
  done
}
grid_incast() {
  local base="--profile=$here/test/data/two-layers-12mb.json --mtu=1500 --hostQueue=1000p \
--topology=leafspine --spines=2 --hostsPerLeaf=4"
  for k in $ks; do
    # Server on host 0 (rack 0, alone); workers on hosts 4 .. 4 + K - 1 (racks 1 .. K/4).
    local place
    place="$(seq -s, 4 $((3 + k))),0"
    for o in $incastUplinks; do
      for q in $queues; do
        echo "incast-K$k-${o%%:*}-$q $all $base --workers=$k --leaves=$((1 + k / 4)) \
--placement=$place --uplinkRate=${o#*:} --queue=$q"
      done
    done
  done
}

# Columns by header name (the driver's --csvRow header), so that added columns break nothing.
read -r -d '' columns << 'EOF' || true
NR == 1 { for (i = 1; i <= NF; ++i) c[$i] = i; next }
{ l = $1; if (!(l in seen)) { seen[l] = 1; order[++n] = l } }
function v(name) { return $(c[name]) }
EOF

summary_ecmp() {
  # One line per seed and oversubscription: the collision counts, packet and flow throughput
  # (packet and its errors blank for the seeds run by the flow backend only).
  awk -F, "$columns"'
    { maxf[l] = v("ecmp_max_flows_per_link"); shared[l] = v("ecmp_shared_links");
      coll[l] = v("ecmp_collided_flows"); up[l] = v("uplink_bps"); seed[l] = v("ecmp_seed") }
    v("backend") == "packet" { p[l] = v("throughput");
      drops[l] = v("drops_device") + v("drops_queue_disc"); rto[l] = v("rto_timeouts") }
    v("backend") == "flow" && v("variant") == "ps" { fps[l] = v("throughput") }
    v("backend") == "flow" && v("variant") == "fcfs" { ffcfs[l] = v("throughput") }
    function err(x, y) { return y == "" ? "" : sprintf("%+.4f", (x - y) / y) }
    END {
      print "label,oversub,uplink_gbps,seed,max_flows_per_link,shared_links,collided_flows," \
            "packet,flow_ps,flow_fcfs,err_ps,err_fcfs,drops,rto"
      for (i = 1; i <= n; ++i) {
        l = order[i]; split(l, f, "-")
        printf "%s,%s,%g,%d,%d,%d,%d,%s,%.2f,%.2f,%s,%s,%s,%s\n", l, f[2], up[l] / 1e9,
          seed[l], maxf[l], shared[l], coll[l], (l in p) ? sprintf("%.2f", p[l]) : "", fps[l],
          ffcfs[l], err(fps[l], p[l]), err(ffcfs[l], p[l]), drops[l], rto[l]
      }
    }' "$1"
}

groups_ecmp() {
  # Per oversubscription and collision degree (most flows on one switch-to-switch link): how
  # often over all seeds, the flow ps throughput's mean, the packet throughput's mean, min and
  # max over the packet seeds, and both means relative to the star (every host on one switch:
  # no uplink to collide on).
  awk -F, '
    NR == 1 { next }
    $2 == "star" { pstar = $8; fstar = $9; next }
    { o = $2; m = $5; key = o "," m; if (!(key in n)) order[++nk] = key
      n[key]++; tot[o]++; f[key] += $9; ff[key] += $10 }
    $8 != "" { np[key]++; p[key] += $8
      if (!(key in pmin) || $8 < pmin[key]) pmin[key] = $8
      if (!(key in pmax) || $8 > pmax[key]) pmax[key] = $8 }
    END {
      print "oversub,max_flows_per_link,seeds,share,flow_ps_mean,flow_fcfs_mean,flow_ps_vs_star," \
            "packet_seeds,packet_mean,packet_min,packet_max,packet_vs_star"
      printf "star,0,1,1,%.2f,,1,1,%.2f,%.2f,%.2f,1\n", fstar, pstar, pstar, pstar
      for (i = 1; i <= nk; ++i) {
        split(order[i], k, ","); o = k[1]; key = order[i]
        printf "%s,%d,%d,%.3f,%.2f,%.2f,%.3f,%d,", o, k[2], n[key], n[key] / tot[o],
          f[key] / n[key], ff[key] / n[key], f[key] / n[key] / fstar, np[key]
        if (np[key]) printf "%.2f,%.2f,%.2f,%.3f\n", p[key] / np[key], pmin[key], pmax[key],
          p[key] / np[key] / pstar
        else print ",,,"
      }
    }' "$1" | { IFS= read -r h; echo "$h"; sort -t, -k1,1 -k2,2n; }
}

summary_incast() {
  awk -F, "$columns"'
    v("backend") == "packet" { p[l] = v("throughput"); pstep[l] = v("step_time_s");
      k[l] = v("workers"); q[l] = v("queue"); up[l] = v("uplink_bps");
      drops[l] = v("drops_device") + v("drops_queue_disc"); sd[l] = v("drops_server_ports");
      rto[l] = v("rto_timeouts"); fr[l] = v("fast_recoveries"); rtx[l] = v("retransmitted_segments")
      bn[l] = v("bottleneck"); bu[l] = v("bottleneck_utilisation"); byport[l] = v("drops_by_port")
      wall[l] = v("wall_s") }
    v("backend") == "flow" && v("variant") == "ps" { fps[l] = v("throughput"); fstep[l] = v("step_time_s");
      fbn[l] = v("bottleneck") }
    v("backend") == "flow" && v("variant") == "fcfs" { ffcfs[l] = v("throughput") }
    END {
      print "label,workers,oversub,uplink_gbps,queue,packet,flow_ps,flow_fcfs,err_ps,err_fcfs," \
            "inflation_vs_ps,drops,drops_server_ports,drops_fabric_ports,rto_timeouts," \
            "fast_recoveries,retransmitted,packet_bottleneck,packet_bottleneck_util," \
            "flow_ps_bottleneck,wall_s"
      for (i = 1; i <= n; ++i) {
        l = order[i]; split(l, f, "-")
        # Drops at ports between two switches (neither end a worker or server).
        fab = 0; np = split(byport[l], ports, ";")
        for (j = 1; j <= np; ++j) { split(ports[j], kv, "=")
          if (kv[1] !~ /(worker|server)[0-9]/) fab += kv[2] }
        printf "%s,%d,%s,%g,%s,%.1f,%.1f,%.1f,%+.3f,%+.3f,%.2f,%d,%d,%d,%d,%d,%d,%s,%.3f,%s,%.0f\n",
          l, k[l], f[3], up[l] / 1e9, q[l], p[l], fps[l], ffcfs[l], (fps[l] - p[l]) / p[l],
          (ffcfs[l] - p[l]) / p[l], pstep[l] / fstep[l], drops[l], sd[l], fab, rto[l], fr[l],
          rtx[l], bn[l], bu[l], fbn[l], wall[l]
      }
    }' "$1"
}

for m in $modes; do
  run_grid "$m"
  csv=$out/$m.csv
  "summary_$m" "$csv" > "$out/$m-summary.csv"
  if [ "$m" = ecmp ]; then
    groups_ecmp "$out/$m-summary.csv" > "$out/$m-groups.csv"
    column -s, -t < "$out/$m-groups.csv"
  else
    column -s, -t < "$out/$m-summary.csv" | cut -c1-220
  fi
done

if command -v gnuplot > /dev/null; then
  for m in $modes; do
    gnuplot -e "dir='$out'" "$here/examples/fabric-congestion-$m.gnuplot"
  done
  echo "figures in $out"
fi
