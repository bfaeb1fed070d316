# The sharing map: sharing index lambda (0 = FCFS, 1 = PS) vs S/BDP, one panel per link rate,
# one line per TCP variant and N. Usage (tcp-sharing-sweep.sh calls it):
#   gnuplot -e "csv='doc/figures/tcp-sharing-quick.csv'; png='out.png'" \
#     examples/tcp-sharing-map.gnuplot
# CSV columns: 1 rate_bps, 2 tcp, 3 flows, 5 size_bdp, 6 stagger_s, 9 lambda, 10 residual.
# Points with residual > 0.5 ("neither") are drawn hollow; lambda is clipped to the y range.
set datafile separator ","
set terminal pngcairo size 1800,620 font ",10"
set output png
set multiplot layout 1,3
set logscale x
set xlabel "S / BDP"
set ylabel "sharing index lambda (0 FCFS, 1 PS)"
set yrange [-0.6:1.4]
set grid
set key bottom right font ",8" maxrows 8
tcps = "TcpNewReno TcpCubic TcpDctcp TcpBbr"
ns = "2 4 8 16"
sel(r, t, n) = ($1 == r && strcol(2) eq word(tcps, t) && $3 == n && $6 == 0)
do for [k = 1:3] {
  r = (k == 1 ? 1e9 : (k == 2 ? 1e10 : 2.5e10))
  set title sprintf("%g Gb/s, flows start together", r / 1e9)
  plot for [i = 0:15] csv using (sel(r, i / 4 + 1, word(ns, i % 4 + 1) + 0) ? $5 : NaN):($9 > 1.4 ? 1.4 : $9) with linespoints lt (i / 4 + 1) pt (2 * (i % 4) + 5) title sprintf("%s N=%s", word(tcps, i / 4 + 1), word(ns, i % 4 + 1))
}
unset multiplot
