# Joins ns-3 sharing CSVs with the linux reference for doc/figures/host-sharing-error.gp.
# Usage: awk -f host-sharing-join.awk LINUX.csv F1 F2 ...  (tcp-sharing-study CSVs: 2 tcp,
# 3 flows, 4 size_bytes, 9 lambda, 10 residual). Per transfer size, prints the size in KB and,
# per file, the mean |lambda - lambda_linux| over the points where both fits hold (residual
# <= 0.3), NaN where none does.
BEGIN { FS = ","; OFS = "," }
FNR == 1 { f++; next }
{ k = $2 ":" $3 ":" $4; ok = ($10 <= 0.3) }
f == 1 { if (ok) ref[k] = $9; if (!($4 in seen)) { seen[$4] = 1; size[++m] = $4 }; next }
ok && (k in ref) { d = $9 - ref[k]; sum[f, $4] += (d < 0 ? -d : d); n[f, $4]++ }
END {
    for (j = 1; j <= m; j++) {
        line = size[j] / 1000
        for (i = 2; i <= f; i++) line = line OFS (n[i, size[j]] ? sum[i, size[j]] / n[i, size[j]] : "NaN")
        print line
    }
}
