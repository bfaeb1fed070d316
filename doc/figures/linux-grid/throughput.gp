# regenerate: gnuplot doc/figures/linux-grid/throughput.gp
# The training grid against Linux (validation/linux-tcp.rst): sync PS throughput against K, one
# panel per network; Linux (black) is the reference, beside ns-3's packet level, the flow level's
# ps and fcfs sharing and the closed form 000 Eq. (7). Data: the runner's results.csv.
# CSV columns: 1 scenario, 5 workers, 6 backend, 7 variant, 8 throughput_samples_per_s.
set datafile separator ","
set datafile missing NaN
set terminal pngcairo size 1400,720 font ",10"
set output "doc/figures/linux-grid/throughput.png"
csv = "doc/figures/linux-grid/results.csv"
set multiplot layout 2,4 title "GoogLeNet, sync PS, K workers: throughput, Linux (reference) against the models"
set logscale x 2
set xrange [0.8:10]
set xtics (1, 2, 4, 8)
set xlabel "workers K"
set ylabel "samples/s"
set grid
set key off
sel(s, b, v) = (strcol(1) eq s && strcol(6) eq b && (v eq "" || strcol(7) eq v)) ? $8 : NaN
scen = "grid-1g grid-25g grid-cap grid-100p grid-1000p grid-mtu9000 grid-reno"
names = "'1 Gb/s' '25 Gb/s' '10 Gb/s cap on 25 Gb/s' '10 Gb/s, 100-packet queues' '10 Gb/s, 1000-packet queues' '10 Gb/s, MTU 9000' '10 Gb/s, Reno'"
do for [i = 1:7] {
  s = word(scen, i)
  set title word(names, i)
  plot csv skip 1 using 5:(sel(s, "linux", "")) with linespoints lw 3 lc rgb "black" pt 7 title "Linux", \
       csv skip 1 using 5:(sel(s, "packet", "")) with linespoints lw 2 lc rgb "#d62728" pt 5 title "packet (ns-3 TCP)", \
       csv skip 1 using 5:(sel(s, "flow", "ps")) with linespoints lc rgb "#1f77b4" pt 9 title "flow ps", \
       csv skip 1 using 5:(sel(s, "flow", "fcfs")) with linespoints lc rgb "#ff7f0e" dt 2 pt 11 title "flow fcfs", \
       csv skip 1 using 5:(sel(s, "analytic", "sync-eq7")) with linespoints lc rgb "#2ca02c" dt 3 pt 13 title "closed form Eq. (7)"
}
# The eighth panel holds the key only.
unset title
unset border
unset tics
unset xlabel
unset ylabel
unset grid
set key center center box
set yrange [0:1]
plot NaN with linespoints lw 3 lc rgb "black" pt 7 title "Linux (reference)", \
     NaN with linespoints lw 2 lc rgb "#d62728" pt 5 title "packet (ns-3 TCP)", \
     NaN with linespoints lc rgb "#1f77b4" pt 9 title "flow ps", \
     NaN with linespoints lc rgb "#ff7f0e" dt 2 pt 11 title "flow fcfs", \
     NaN with linespoints lc rgb "#2ca02c" dt 3 pt 13 title "closed form 000 Eq. (7)"
unset multiplot
