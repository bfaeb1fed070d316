# regenerate: gnuplot doc/figures/linux-sharing-dilation.gp
# Why the sharing grid runs at dilation 40 (validation/linux-tcp.rst). Left: Linux's sharing index
# against the dilation D (200 Mb/s per port in the scenario, 200/D Mb/s in real time), Cubic, one
# line per size and N (linux-sharing-dilation.csv: 1 tcp, 2 n, 3 size, 4 D, 5 lambda).
# Right: ns-3 on the same network undilated (200 Mb/s) and as the D = 40 run executes it
# (5 Mb/s), stock and the preset (ns3-sharing-dilation.csv: 1 cfg, 2 n, 3 size, 4 rate, 5 lambda,
# 6 residual; fits with residual > 0.3 left out).
set datafile separator ","
set datafile missing NaN
set terminal pngcairo size 1100,500 font ",10"
set output "doc/figures/linux-sharing-dilation.png"
set multiplot layout 1,2
set grid
set ylabel "sharing index lambda (0 FCFS, 1 PS)"
set yrange [-0.15:1.15]
set ytics 0.1
set logscale x
set title "Linux (Cubic): lambda against the dilation"
set xlabel "dilation D (real-time port rate 200/D Mb/s)"
set xrange [0.8:50]
set xtics (1, 5, 10, 20, 40)
set key bottom right
set arrow 1 from 0.8, 1 to 50, 1 nohead lw 2 lc rgb "black"
set arrow 2 from 0.8, 0 to 50, 0 nohead lw 2 lc rgb "black"
sizes = "30000 100000 300000 1000000"
names = "30KB 100KB 300KB 1MB"
lsel(s, n) = ($3 == s && $2 == n) ? $5 : NaN
plot for [i = 0:7] "doc/figures/linux-sharing-dilation.csv" skip 1 \
       using 4:(lsel(word(sizes, i / 2 + 1) + 0, 4 * (i % 2 + 1))) with linespoints \
       lt (i / 2 + 1) dt 1 + i % 2 pt (i % 2 ? 6 : 7) \
       title sprintf("%s, N = %d", word(names, i / 2 + 1), 4 * (i % 2 + 1))
unset arrow 1
unset arrow 2
set title "ns-3: undilated (200 Mb/s) against the dilated network (5 Mb/s)"
set xlabel "transfer size S"
set xrange [20:1500]
set xtics ("30 KB" 30, "100 KB" 100, "300 KB" 300, "1 MB" 1000)
set arrow 1 from 20, 1 to 1500, 1 nohead lw 2 lc rgb "black"
set arrow 2 from 20, 0 to 1500, 0 nohead lw 2 lc rgb "black"
nsel(c, n, r) = (strcol(1) eq c && $2 == n && strcol(4) eq r && $6 <= 0.3) ? $5 : NaN
cfgs = "stock stock preset preset"
rates = "200Mbps 5Mbps 200Mbps 5Mbps"
plot for [i = 0:7] "doc/figures/ns3-sharing-dilation.csv" skip 1 \
       using ($3 / 1000):(nsel(word(cfgs, i / 2 + 1), 4 * (i % 2 + 1), word(rates, i / 2 + 1))) \
       with linespoints lt (i / 4 + 1) dt 1 + (i / 2) % 2 pt (i % 2 ? 6 : 7) \
       title sprintf("%s, %s, N = %d", word(cfgs, i / 2 + 1), \
                     (word(rates, i / 2 + 1) eq "5Mbps" ? "D = 40" : "D = 1"), 4 * (i % 2 + 1))
unset multiplot
