# The sharing map: sharing index lambda (0 = FCFS, 1 = PS) vs S/BDP, one panel per link rate,
# one line per TCP variant and N. Usage (tcp-sharing-sweep.sh calls it):
#   gnuplot -e "csv='doc/figures/tcp-sharing-quick.csv'; png='out.png'" \
#     examples/tcp-sharing-map.gnuplot
# Optional: rates (Gb/s, one panel each), tcps and ns (the lines), words separated by spaces;
# default the quick grid's "1 10 25", "TcpNewReno TcpCubic TcpDctcp TcpBbr" and "2 4 8 16".
# CSV columns: 1 rate_bps, 2 tcp, 3 flows, 5 size_bdp, 6 stagger_s, 9 lambda, 10 residual.
# Points with residual > 0.5 ("neither") are drawn hollow; lambda is clipped to the y range.
set datafile separator ","
set terminal pngcairo size 1800,620 font ",10"
set output png
if (!exists("rates")) rates = "1 10 25"
if (!exists("tcps")) tcps = "TcpNewReno TcpCubic TcpDctcp TcpBbr"
if (!exists("ns")) ns = "2 4 8 16"
set multiplot layout 1,words(rates)
set logscale x
set xlabel "S / BDP"
set ylabel "sharing index lambda (0 FCFS, 1 PS)"
set yrange [-0.6:1.4]
set grid
set key bottom right font ",8" maxrows 8
nn = words(ns)
sel(r, t, n) = ($1 == r && strcol(2) eq word(tcps, t) && $3 == n && $6 == 0)
do for [k = 1:words(rates)] {
  r = word(rates, k) * 1e9
  set title sprintf("%g Gb/s, flows start together", r / 1e9)
  plot for [i = 0:words(tcps) * nn - 1] csv using (sel(r, i / nn + 1, word(ns, i % nn + 1) + 0) ? $5 : NaN):($9 > 1.4 ? 1.4 : $9) with linespoints lt (i / nn + 1) pt (2 * (i % nn) + 5) title sprintf("%s N=%s", word(tcps, i / nn + 1), word(ns, i % nn + 1))
}
unset multiplot
