# regenerate: gnuplot doc/figures/host-async-ablation.gp
# Async PS, one setting at a time (validation/linux-async.rst, "One setting at a time"): K = 4,
# no overlap, 20 steps, D = 40; per configuration the error against Linux (the linux backend's
# matrix point, 485.7 samples/s) and how long all four workers pushed at once.
# CSV columns (host-async-ablation.csv): 1 config, 5 rel_error, 9 up_4_of_4_ms.
set datafile separator ","
set terminal pngcairo size 900,560 font ",10"
set output "doc/figures/host-async-ablation.png"
set multiplot layout 1,2 title "Async PS, K = 4, 20 steps, at dilation 40: one setting at a time against Linux"
set style data histogram
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set grid ytics
set xtics rotate by -45 left noenhanced nomirror
set bmargin 7
set key off
set title "throughput error against Linux"
set ylabel "(ns-3 - Linux) / Linux (%)"
set yrange [-10:10]
set arrow 1 from graph 0, first -5 to graph 1, first -5 nohead dt 2
set arrow 2 from graph 0, first 5 to graph 1, first 5 nohead dt 2
set arrow 3 from graph 0, first 0 to graph 1, first 0 nohead lw 2
plot "doc/figures/host-async-ablation.csv" skip 1 using (100 * $5):xtic(1) lc rgb "#1f77b4"
unset arrow 1
unset arrow 2
unset arrow 3
# Linux's own figure (87 ms) is in the page's table, from a separate run with records: not in the CSV.
set title "time with all 4 workers pushing at once"
set ylabel "ms of the measured 2 s"
set yrange [0:160]
plot "doc/figures/host-async-ablation.csv" skip 1 using 9:xtic(1) lc rgb "#ff7f0e"
unset multiplot
