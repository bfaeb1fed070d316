#!/usr/bin/env bash
# Build, test and run this module inside an ns-3 source tree, as a user who clones it into
# contrib/ would:
#
#   bash utils/check-ns3-tree.sh /path/to/ns-3.48        (any ns-3 release with ./ns3, >= 3.36)
#
# Copies the module to <tree>/contrib/distributed-training, configures ns-3 with the modules its
# tests need, builds with $JOBS jobs by calling cmake --build directly (./ns3 build of 3.37 drops
# -j), runs every distributed-training suite through ./test.py and the driver through ./ns3 run.
# Prints one verdict line with the timings; exit 0 only when everything passed.
# Environment: JOBS (default 2), PROFILE (ns-3 build profile, default release).
set -euo pipefail

tree="${1:?usage: bash utils/check-ns3-tree.sh NS3_SOURCE_TREE}"
tree="$(cd "$tree" && pwd)"
module="$(cd "$(dirname "$0")/.." && pwd)"
JOBS="${JOBS:-2}"
PROFILE="${PROFILE:-release}"
[ -x "$tree/ns3" ] || { echo "error: $tree/ns3 not found (not an ns-3 >= 3.36 source tree)" >&2; exit 1; }
version="$(cat "$tree/VERSION")"
log="$tree/check-distributed-training.log"
: >"$log"
now() { date +%s; }
step() { echo "== $*" | tee -a "$log"; }

step "ns-$version: copying $module to contrib/distributed-training"
rm -rf "$tree/contrib/distributed-training"
mkdir -p "$tree/contrib/distributed-training"
tar -C "$module" --exclude=./build --exclude=./.git --exclude='./build-*' -cf - . |
  tar -C "$tree/contrib/distributed-training" -xf -

cd "$tree"
t0=$(now)
# csma: ns-3's own test runner links ns3tcp-socket-test-suite.cc, which needs it.
step "configure: ./ns3 configure -d $PROFILE --enable-examples --enable-tests --enable-modules='distributed-training;csma'"
./ns3 clean >>"$log" 2>&1 || true
fail() {
  echo "FAIL ns-$version: $1 after $(($(now) - t0)) s; see $log" | tee -a "$log"
  exit 1
}
./ns3 configure -d "$PROFILE" --enable-examples --enable-tests \
  --enable-modules="distributed-training;csma" >>"$log" 2>&1 || fail "configure failed"
# Only what test.py and ./ns3 run need: ns-3's test runner (it links every enabled module's test
# library) and this module's programs; the other modules' examples are not built. TARGETS=all
# builds everything.
examples=$(sed -n '/^set(DT_EXAMPLES/,/^)/s/^ *\([a-z][a-z-]*\)$/\1/p' \
  contrib/distributed-training/examples/CMakeLists.txt | tr '\n' ' ')
targets="${TARGETS:-test-runner $examples}"
step "build: cmake --build cmake-cache -j $JOBS --target $targets"
# shellcheck disable=SC2086
cmake --build cmake-cache -j "$JOBS" --target $targets >>"$log" 2>&1 || fail "build failed"
t1=$(now)

suites=$(sed -n 's/.*TestSuite("\(distributed-training-[a-z-]*\)".*/\1/p' \
  contrib/distributed-training/test/*.cc | sort -u)
passed=0
failed=""
for s in $suites; do
  if ./test.py --no-build -s "$s" >>"$log" 2>&1; then
    passed=$((passed + 1))
  else
    failed="$failed $s"
  fi
done
total=$(echo "$suites" | wc -w)
t2=$(now)

example="distributed-training-sim --profile=contrib/distributed-training/traces/googlenet-titanx-pascal-b16.json --workers=4 --steps=5 --warmup=1 --backend=all"
step "example: ./ns3 run --no-build \"$example\""
if ./ns3 run --no-build "$example" >>"$log" 2>&1; then run=ok; else run=FAILED; fi
t3=$(now)

verdict=PASS
{ [ -z "$failed" ] && [ "$run" = ok ]; } || verdict=FAIL
echo "$verdict ns-$version: configure+build $((t1 - t0)) s (-j$JOBS, $PROFILE), test.py $passed/$total suites passed${failed:+ (failed:$failed)} in $((t2 - t1)) s, ./ns3 run driver $run in $((t3 - t2)) s; log $log" |
  tee -a "$log"
[ "$verdict" = PASS ]
