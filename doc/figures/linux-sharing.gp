# regenerate: gnuplot doc/figures/linux-sharing.gp
# The sharing study, ns-3 TCP against Linux TCP (validation/linux-tcp.rst): sharing index lambda
# (0 = FCFS, 1 = PS) against the transfer size, one panel per TCP, one colour per N; ns-3 solid,
# Linux (dilation 40) dashed. Points whose fit fails (residual > 0.3) are left out.
# CSV columns (linux-sharing-{ns3,linux}.csv): 2 tcp, 3 flows, 4 size_bytes, 9 lambda, 10 residual.
set datafile separator ","
set terminal pngcairo size 1100,500 font ",10"
set output "doc/figures/linux-sharing.png"
set multiplot layout 1,2 title "N transfers of S bytes through one 200 Mb/s port: lambda, ns-3.37 (solid) and Linux (dashed)"
sel(t, n) = (strcol(2) eq t && $3 == n && $10 <= 0.3) ? $9 : NaN
set logscale x
set xrange [20:45000]
set xtics ("30 KB" 30, "100 KB" 100, "300 KB" 300, "1 MB" 1000, "3 MB" 3000, "10 MB" 10000, "30 MB" 30000)
set xlabel "transfer size S"
set ylabel "sharing index lambda (0 FCFS, 1 PS)"
set yrange [-0.05:1.15]
set ytics 0.1
set grid
set key right center
set arrow 1 from 20, 1 to 45000, 1 nohead lw 2 lc rgb "black"
set arrow 2 from 20, 0 to 45000, 0 nohead lw 2 lc rgb "black"
set label 1 "PS" at 25000, 1.04
set label 2 "FCFS" at 22000, 0.04
ns = "2 4 8"
do for [tcp in "TcpCubic TcpNewReno"] {
  set title (tcp eq "TcpCubic" ? "Cubic (Linux cubic)" : "NewReno (Linux reno)")
  plot for [i = 1:3] "doc/figures/linux-sharing-ns3.csv" skip 1 \
         using ($4 / 1000):(sel(tcp, word(ns, i) + 0)) with linespoints lt i pt 7 \
         title sprintf("ns-3, N = %s", word(ns, i)), \
       for [i = 1:3] "doc/figures/linux-sharing-linux.csv" skip 1 \
         using ($4 / 1000):(sel(tcp, word(ns, i) + 0)) with linespoints lt i dt 2 pt 6 \
         title sprintf("Linux, N = %s", word(ns, i))
}
unset multiplot
