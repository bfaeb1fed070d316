# Shared by the sweep scripts (examples/incast-sweep.sh, examples/fabric-congestion.sh); source it
# after setting bin (the driver), common (options of every point), tmp (a scratch folder), jobs
# (processes at a time) and out (the output folder).

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
  echo "$m: $(wc -l < "$tmp/$m.args") points on $jobs processes -> $out/$m.csv"
  start=$(date +%s)
  export -f run
  export bin common tmp
  xargs -P "$jobs" -L 1 bash -c 'run "$@"' _ < "$tmp/$m.args"
  echo "$m: done in $(($(date +%s) - start)) s"
  first=1
  while read -r label _; do
    if [ $first = 1 ]; then head -1 "$tmp/$label.csv" > "$out/$m.csv"; first=0; fi
    tail -n +2 "$tmp/$label.csv" >> "$out/$m.csv"
  done < "$tmp/$m.args"
}
