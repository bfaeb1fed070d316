# Sharing grid against Linux: per transfer size, mean |lambda(ns-3) - lambda(Linux)| over the
# points where both fits hold, one line per ns-3 configuration; the 0.15 target dashed. Not run
# by itself: the scripts beside it call it, e.g. host-sharing.gp:
#   call "doc/figures/host-sharing-error.gp" OUT.png TITLE LINUX.csv DIR "CONFIG ..."
# CONFIG names DIR/host-sharing-CONFIG.csv. The join is doc/figures/host-sharing-join.awk.
configs = ARG5
files = ""
do for [c in configs] { files = files . sprintf(" %s/host-sharing-%s.csv", ARG4, c) }
data = sprintf("< awk -f doc/figures/host-sharing-join.awk %s%s", ARG3, files)
set datafile separator ","
set datafile missing NaN
set terminal pngcairo size 900,560 font ",10"
set output ARG1
set title ARG2
set logscale x
set xrange [*:*]
set offsets graph 0.05, graph 0.05, 0, 0
set xtics ("30 KB" 30, "100 KB" 100, "300 KB" 300, "1 MB" 1000, "3 MB" 3000, "10 MB" 10000, "30 MB" 30000)
set xlabel "transfer size S"
set ylabel "mean |lambda(ns-3) - lambda(Linux)|"
set yrange [0:1]
set ytics 0.1
set grid
set key top left noenhanced
set arrow 1 from graph 0, first 0.15 to graph 1, first 0.15 nohead dt 2 lw 2
set label 1 "target 0.15" at graph 0.99, first 0.17 right
colours = "#7f7f7f #1f77b4 #ff7f0e #d62728 #2ca02c #9467bd #8c564b"
plot for [i = 1:words(configs)] data using 1:(column(i + 1)) with linespoints lw 2 \
       lc rgb word(colours, i) pt (4 + i) title word(configs, i)
