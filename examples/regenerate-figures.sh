#!/usr/bin/env bash
# Re-draws every figure of the validation record (the PNGs under doc/figures) from its shipped
# CSV with its gnuplot script, without running a simulation, and reports which figures have no
# script. Each drawn figure is compared with the shipped PNG: "same" (byte for byte), or
# "differs" (another gnuplot or cairo version draws other bytes; look at both).
#
#   bash examples/regenerate-figures.sh [OUT_DIR]   # default build/studies/figures
#   bash examples/regenerate-figures.sh doc/figures # redraw the shipped PNGs in place
#
# OUT_DIR mirrors doc/figures (OUT_DIR/congestion/cross.png, ...); folders drawn by a script that
# reads its folder (dir=...) get a copy of the shipped CSVs there. Exit status 1 if gnuplot is
# missing or a script fails; figures without a script (the validation runner's, whose .csv/.gp
# stay in its output folder) are listed, not failed. Environment: STUDIES_DIR (instead of
# build/studies).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=examples/sweep-lib.sh
. "$here/examples/sweep-lib.sh"
out=$(study_out figures "${1:-}")
command -v gnuplot > /dev/null || { echo "error: gnuplot not installed (apt-get install gnuplot-nox)" >&2; exit 1; }
mkdir -p "$out"
out=$(cd "$out" && pwd)
src=$here/doc/figures
ex=$here/examples
drawn=()
failed=0

# check PNG...: compare the drawn figures (paths under doc/figures) with the shipped ones.
check() {
  local f
  for f in "$@"; do
    drawn+=("$f")
    if [ ! -s "$out/$f" ]; then
      echo "FAILED  $f (nothing drawn)"; failed=1
    elif [ "$out/$f" -ef "$src/$f" ]; then echo "drawn   $f (in place)"
    elif cmp -s "$out/$f" "$src/$f"; then echo "same    $f"
    else echo "differs $f"; fi
  done
}

# csv_png SCRIPT CSV PNG [GNUPLOT-ASSIGNMENTS]: a script that takes csv= and png=.
csv_png() {
  mkdir -p "$(dirname "$out/$3")"
  gnuplot -e "csv='$src/$2'; png='$out/$3'; ${4:-}" "$ex/$1" || { echo "FAILED  $3 ($1)"; failed=1; }
  check "$3"
}

# dir_pngs SCRIPT FOLDER "GNUPLOT-ASSIGNMENTS" PNG...: a script that reads and writes dir=.
dir_pngs() {
  local script=$1 folder=$2 assign=$3
  shift 3
  mkdir -p "$out/$folder"
  [ "$out/$folder" -ef "$src/$folder" ] || cp "$src/$folder"/*.csv "$out/$folder/"
  (cd "$here" && gnuplot -e "dir='$out/$folder'; $assign" "$ex/$script") ||
    { echo "FAILED  $folder ($script)"; failed=1; }
  check "${@/#/$folder/}"
}

# beside GP PNG CWD: a script shipped beside its CSV (written by the program that made the CSV),
# run from CWD (its paths are relative to it) with its output moved to OUT_DIR.
beside() {
  mkdir -p "$(dirname "$out/$2")"
  sed "s|^set output .*|set output '$out/$2'|" "$src/$1" | (cd "$3" && gnuplot) ||
    { echo "FAILED  $2 ($1)"; failed=1; }
  check "$2"
}

for tag in "" -linux -shared -linux-shared; do
  csv_png tcp-sharing-map.gnuplot "tcp-sharing-quick$tag.csv" "tcp-sharing-quick$tag.png"
done
dir_pngs incast-sweep-incast.gnuplot congestion "" incast-collapse.png incast-factors.png
dir_pngs incast-sweep-cross.gnuplot congestion "" cross.png
dir_pngs fabric-congestion-ecmp.gnuplot fabric "" ecmp-collisions.png
dir_pngs fabric-congestion-incast.gnuplot fabric "" incast-fabric.png
dir_pngs transformer-scaling.gnuplot transformer-scaling "profiles='vit_b_16-rtx3090-b192 \
vit_l_16-rtx3090-b64 swin_t-rtx3090-b256 resnet50-p100-b64 vgg16-p100-b64 inception_v3-p100-b64'" \
  efficiency.png
dir_pngs real-clusters.gnuplot real-clusters "" real-clusters.png
dir_pngs collective-benchmark.gnuplot collectives "" busbw.png
csv_png preset-vs-linux.gnuplot linux-matrix/preset-vs-linux.csv linux-matrix/preset-vs-linux.png
csv_png main-scenario.gnuplot tutorial/result.csv tutorial/result.png \
  "title='GoogLeNet (TITAN X Pascal, batch 16), sync PS, 4 workers, 10 Gb/s'"
beside tutorial/sweep.csv.gp tutorial/sweep.png "$src/tutorial"
for gp in "$src"/optimizer/*.gp; do
  name=$(basename "$gp" .gp)
  png=$(sed -n "s|^set output '.*/\(.*\)'|\1|p" "$gp")
  beside "optimizer/$name.gp" "optimizer/$png" "$here"
done

echo "no script (drawn by the program that ran the study; rerun it to redraw):"
(cd "$src" && find . -name '*.png' | sed 's|^\./||' | sort) | while read -r f; do
  [[ " ${drawn[*]} " == *" $f "* ]] || echo "  $f"
done
[ "$failed" = 0 ] || { echo "error: some figures were not drawn (above)" >&2; exit 1; }
echo "figures in $out"
