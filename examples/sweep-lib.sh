# shellcheck shell=bash
# Shared by the study scripts (examples/*.sh): where their outputs go by default, the check of a
# grid given from outside, progress with an estimate of the time left, and (for the driver's
# sweeps) one grid line per run merged into one CSV. Source it with bash after setting here (the
# repository's top folder).

# study_out NAME [OUT]: the output folder of a study, OUT if given, else
# $STUDIES_DIR/NAME (default build/studies/NAME, git-ignored). The shipped figures are regenerated
# by naming their folder under doc/figures explicitly.
study_out() {
  if [ -n "${2:-}" ]; then echo "$2"; else echo "${STUDIES_DIR:-$here/build/studies}/$1"; fi
}

# grid_fail NAME VALUE EXPECTED: the message and exit status of a bad grid value.
grid_fail() {
  echo "error: $1: bad value '$2' (expected $3)" >&2
  exit 1
}

# grid_check NAME KIND VALUES...: exit 1 naming NAME (the environment variable) unless VALUES is
# not empty and every value is of KIND: count (integer >= 1), number (> 0, e.g. 0.1, 1e3),
# fraction (>= 0), rate (ns-3 data rate, e.g. 10Gbps, 2500Mbps), queue (packets or bytes, e.g.
# 100p, 262144B) or one of a list, "oneof:a b c".
grid_check() {
  local name=$1 kind=$2 v
  shift 2
  [ $# -gt 0 ] || grid_fail "$name" "" "at least one value"
  for v in "$@"; do
    case $kind in
      count) [[ $v =~ ^[1-9][0-9]*$ ]] || grid_fail "$name" "$v" "an integer >= 1" ;;
      number)
        if ! [[ $v =~ ^([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?$ ]] ||
          ! awk -v x="$v" 'BEGIN { exit !(x > 0) }'; then
          grid_fail "$name" "$v" "a number > 0"
        fi ;;
      fraction)
        [[ $v =~ ^([0-9]+\.?[0-9]*|\.[0-9]+)$ ]] || grid_fail "$name" "$v" "a number >= 0" ;;
      rate)
        [[ $v =~ ^([1-9][0-9]*|[0-9]*\.[0-9]*[1-9][0-9]*)(bps|kbps|Kbps|Mbps|Gbps)$ ]] ||
          grid_fail "$name" "$v" "a data rate such as 10Gbps or 2500Mbps" ;;
      queue) [[ $v =~ ^[1-9][0-9]*[pB]$ ]] || grid_fail "$name" "$v" "a buffer such as 100p or 262144B" ;;
      oneof:*)
        [[ " ${kind#oneof:} " == *" $v "* ]] || grid_fail "$name" "$v" "one of ${kind#oneof:}" ;;
      *) echo "grid_check: unknown kind $kind" >&2; exit 2 ;;
    esac
  done
}

# progress_start RUNS LABEL [UNITS]: start counting RUNS runs of LABEL, which together are UNITS
# units of work (default RUNS; e.g. bytes to carry when runs differ in cost). progress_tick
# [UNITS] after each run (in any process, also xargs' children) prints "LABEL: done/RUNS runs,
# elapsed, about T left" on stderr, at most every PROGRESS_EVERY seconds (default 10) and after
# the last run; the time left is the elapsed time scaled by the units still to do.
progress_start() {
  PROGRESS_RUNS=$1 PROGRESS_LABEL=$2 PROGRESS_TOTAL=${3:-$1} PROGRESS_START=$(date +%s)
  PROGRESS_DIR=$(mktemp -d "${tmp:-${TMPDIR:-/tmp}}/progress.XXXXXX")
  : > "$PROGRESS_DIR/done"
  echo "$PROGRESS_START" > "$PROGRESS_DIR/shown"
  export PROGRESS_RUNS PROGRESS_TOTAL PROGRESS_LABEL PROGRESS_START PROGRESS_DIR
  export -f progress_tick progress_time
}

# trace_names: the profiles shipped in traces/ (names without .json), for grid_check oneof.
trace_names() {
  find "$here/traces" -maxdepth 1 -name '*.json' -printf '%f\n' | sed 's/\.json$//' | sort | tr '\n' ' '
}

# words WORD...: how many words (of an unquoted list).
words() { echo $#; }

# progress_time SECONDS: "1h02m", "4m05s" or "17s".
progress_time() {
  local s=$1
  if [ "$s" -ge 3600 ]; then printf '%dh%02dm' $((s / 3600)) $((s % 3600 / 60))
  elif [ "$s" -ge 60 ]; then printf '%dm%02ds' $((s / 60)) $((s % 60))
  else printf '%ds' "$s"; fi
}

progress_tick() {
  local now line runs elapsed left
  echo "${1:-1}" >> "$PROGRESS_DIR/done"
  now=$(date +%s)
  line=$(awk -v total="$PROGRESS_TOTAL" -v nruns="$PROGRESS_RUNS" -v start="$PROGRESS_START" \
    -v now="$now" -v every="${PROGRESS_EVERY:-10}" -v shown="$(cat "$PROGRESS_DIR/shown")" '
    { done += $1; ++runs }
    END {
      if (runs < nruns && now - shown < every) exit
      left = done > 0 ? int((now - start) * (total - done) / done + 0.5) : 0
      printf "%d %d %d\n", runs, now - start, left < 0 ? 0 : left
    }' "$PROGRESS_DIR/done")
  [ -n "$line" ] || return 0
  echo "$now" > "$PROGRESS_DIR/shown"
  read -r runs elapsed left <<< "$line"
  printf '%s: %d/%d runs, %s elapsed, about %s left\n' "$PROGRESS_LABEL" "$runs" "$PROGRESS_RUNS" \
    "$(progress_time "$elapsed")" "$(progress_time "$left")" >&2
}

# progress_xargs FILE COMMAND: run COMMAND once per line of FILE (the line's words are its
# arguments), $jobs at a time, with a progress line on stderr; with PROGRESS_WEIGHTED=1 the first
# word of every line is the run's units of work (the rest the arguments). A failed run stops the
# sweep (xargs starts no more runs) and fails it.
progress_xargs() {
  local file=$1 command=$2 units=
  export PROGRESS_WEIGHTED=${PROGRESS_WEIGHTED:-0}
  [ "$PROGRESS_WEIGHTED" = 0 ] || units=$(awk '{ s += $1 } END { print s + 0 }' "$file")
  progress_start "$(wc -l < "$file")" "${PROGRESS_NAME:-$(basename "$file")}" ${units:+"$units"}
  # shellcheck disable=SC2016,SC2154 # expanded by the child shell; jobs: set by the caller
  xargs -P "$jobs" -L 1 bash -c '
    command=$1; shift; units=1
    if [ "$PROGRESS_WEIGHTED" = 1 ]; then units=$1; shift; fi
    "$command" "$@" || exit 255
    progress_tick "$units"' _ "$command" < "$file"
}

# The driver's sweeps (examples/incast-sweep.sh, examples/fabric-congestion.sh) set bin (the
# driver), common (options of every point), tmp (a scratch folder), jobs (processes at a time)
# and out (the output folder), then call run_grid.

# Run one line: LABEL OPTIONS... -> $tmp/LABEL.csv, the driver's --csvRow rows with the label as
# first column; a failed run prints its log and fails.
run() {
  local label=$1
  shift
  # shellcheck disable=SC2086
  "$bin" $common "$@" --csvRow="$tmp/$label.raw" > "$tmp/$label.log" 2>&1 ||
    { echo "error: $label failed, see below" >&2; cat "$tmp/$label.log" >&2; return 1; }
  awk -v l="$label" 'NR == 1 { print "label," $0; next } { print l "," $0 }' \
    "$tmp/$label.raw" > "$tmp/$label.csv"
}

# run_grid MODE: run every line of "grid_MODE" (one point per line, $jobs processes at a time) and
# merge the rows into $out/MODE.csv in grid order.
run_grid() {
  local m=$1 start first label
  "grid_$m" > "$tmp/$m.args"
  # shellcheck disable=SC2154 # out, jobs: set by the caller
  echo "$m: $(wc -l < "$tmp/$m.args") points on $jobs processes -> $out/$m.csv"
  start=$(date +%s)
  export -f run
  export bin common tmp
  PROGRESS_WEIGHTED=0 PROGRESS_NAME=$m progress_xargs "$tmp/$m.args" run
  echo "$m: done in $(($(date +%s) - start)) s"
  first=1
  while read -r label _; do
    if [ $first = 1 ]; then head -1 "$tmp/$label.csv" > "$out/$m.csv"; first=0; fi
    tail -n +2 "$tmp/$label.csv" >> "$out/$m.csv"
  done < "$tmp/$m.args"
}
