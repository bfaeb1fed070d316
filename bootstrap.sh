#!/usr/bin/env bash
# One-step set-up for the distributed-training module on Debian 12 (ns-3 3.37 from Debian).
#
#   bash bootstrap.sh run    install what is missing, build (Release), run the main scenario
#   bash bootstrap.sh test   install what is missing, build (Release), run every test (ctest)
#   bash bootstrap.sh sanitize   (extra) clang-14 with ASan + UBSan and the libFuzzer targets in
#                            build-sanitize, run the fast test suites and replay the fuzz corpus
#   bash bootstrap.sh doc    install python3-sphinx if missing, build the manual (doc/) to HTML in
#                            build/doc-html with every Sphinx warning an error
#
# All are idempotent: packages already installed are not touched, the build is incremental.
# Environment: BUILD_DIR (default build, build-sanitize for sanitize), BUILD_TYPE (default
# Release), JOBS (default nproc).
set -euo pipefail

cd "$(dirname "$0")"
mode="${1:-}"
case "$mode" in
  run | test | sanitize | doc) ;;
  *)
    echo "usage: bash bootstrap.sh run|test|sanitize|doc" >&2
    exit 2
    ;;
esac

if [ "$mode" = sanitize ]; then
  BUILD_DIR="${BUILD_DIR:-build-sanitize}"
else
  BUILD_DIR="${BUILD_DIR:-build}"
fi
BUILD_TYPE="${BUILD_TYPE:-Release}"
JOBS="${JOBS:-$(nproc)}"

# Debian packages the build and the tests need (profiling needs more: see traces/README.md):
# python3 runs the trace importer's test (standard library only, no torch), parallel the
# validation runner's --engine=parallel test, iproute2, ethtool and Boost.Asio the
# linux backend, Boost.Graph the fabrics.
packages=(g++ make cmake libns3-dev nlohmann-json3-dev python3 parallel
  iproute2 ethtool libboost-dev libboost-system-dev libboost-graph-dev)
if [ "$mode" = doc ]; then
  packages=(python3-sphinx) # the manual needs nothing of the build
elif [ "$mode" = run ]; then
  packages+=(gnuplot-nox) # draws the main scenario's result
fi
if [ "$mode" = sanitize ]; then
  # clang's ASan/UBSan and libFuzzer runtimes (GCC has no libFuzzer).
  packages+=(clang-14 libclang-rt-14-dev)
fi
missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
if [ "${#missing[@]}" -gt 0 ]; then
  echo "== installing missing Debian packages: ${missing[*]}"
  if [ "$(id -u)" -eq 0 ]; then
    SUDO=()
  elif command -v sudo >/dev/null 2>&1; then
    SUDO=(sudo)
  else
    echo "error: missing packages (${missing[*]}) and not root; install them with apt-get" >&2
    exit 1
  fi
  "${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -q
  "${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
    "${missing[@]}"
fi

if [ "$mode" = doc ]; then
  echo "== building the manual (doc/) with Sphinx, warnings as errors"
  rm -rf "$BUILD_DIR/doc-html"
  sphinx-build -W --keep-going -q -b html doc "$BUILD_DIR/doc-html"
  echo "== manual: $BUILD_DIR/doc-html/index.html"
  exit 0
fi

if [ "$mode" = sanitize ]; then
  exec bash test/sanitize-check.sh "$BUILD_DIR" "$BUILD_TYPE" "$JOBS"
fi

echo "== configuring ($BUILD_TYPE) in $BUILD_DIR"
cmake -S . -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE="$BUILD_TYPE" >/dev/null
echo "== building with $JOBS jobs"
cmake --build "$BUILD_DIR" -j "$JOBS"

if [ "$mode" = run ]; then
  echo "== running the main scenario: GoogLeNet, sync parameter server, 4 workers, 10 Gb/s,"
  echo "   every backend side by side (about 2 minutes of CPU, nearly all the packet level)"
  rm -f result.csv # --csvRow appends
  "$BUILD_DIR/bin/distributed-training-sim" --profile=traces/googlenet-titanx-pascal-b16.json \
    --arch=ps --mode=sync --workers=4 --nicRate=10Gbps --steps=10 --warmup=2 --backend=all \
    --output=result.json --csvRow=result.csv
  gnuplot -e "csv='result.csv'; png='result.png'" \
    -e "title='GoogLeNet (TITAN X Pascal, batch 16), sync PS, 4 workers, 10 Gb/s'" \
    examples/main-scenario.gnuplot
  echo "== result: $(pwd)/result.json (every number), $(pwd)/result.png (throughput per backend)"
else
  echo "== running every test suite"
  cd "$BUILD_DIR"
  exec ctest --output-on-failure -j "$JOBS"
fi
