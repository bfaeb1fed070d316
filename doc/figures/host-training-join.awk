# Joins ns-3 training CSVs with the linux reference for doc/figures/host-training-error.gp.
# Usage: awk -v points="grid-100p:8 ..." -f host-training-join.awk linux-grid/results.csv F1 F2 ...
# The first file is the runner's results.csv of the linux grid (its linux rows are the reference,
# in their order); each further file is a host-training-CONFIG.csv (scenario,K,throughput,...),
# or results.csv again for the runner's own packet rows ("grid packet"). Prints one line per
# point: "scenario K", then (ns-3 - linux) / linux in % per file, NaN where a file has no run.
# points (optional) keeps only the listed scenario:K points.
BEGIN { FS = ","; OFS = ","; np = split(points, p, " "); for (i = 1; i <= np; i++) keep[p[i]] = 1 }
FNR == 1 { f++; next }
f == 1 && $6 == "linux" { ref[$1 ":" $5] = $8; order[++m] = $1 ":" $5; next }
f > 1 && FILENAME ~ /results\.csv$/ { if ($6 == "packet") val[f, $1 ":" $5] = $8; next }
f > 1 && $3 != "" { val[f, $1 ":" $2] = $3 }
END {
    for (j = 1; j <= m; j++) {
        k = order[j]
        if (np && !(k in keep)) continue
        label = k; sub(/^grid-/, "", label); sub(/:/, " K=", label)
        line = label
        for (i = 2; i <= f; i++) line = line OFS (((i, k) in val) ? 100 * (val[i, k] / ref[k] - 1) : "NaN")
        print line
    }
}
