# regenerate: gnuplot doc/figures/linux-async/throughput.gp
# Async PS over Linux TCP in steady state (validation/linux-async.rst): throughput against K,
# without and with overlap; Linux (the reference) as the median of 3 runs with min and max
# (from the runner's notes), beside stock ns-3's packet level, flow ps and hybrid and the
# analytic mva-ps. Data: the runner's results.csv (20 steps, 5 warm-up; Linux at dilation 40).
# CSV columns: 1 scenario, 5 workers, 6 backend, 7 variant, 8 throughput_samples_per_s, 13 notes.
set datafile separator ","
set datafile missing NaN
set terminal pngcairo size 1100,520 font ",10"
set output "doc/figures/linux-async/throughput.png"
csv = "doc/figures/linux-async/results.csv"
# The linux rows' notes say "min X, max Y"; awk takes them out (a note has commas of its own).
linux(s) = sprintf("< awk -F, -v OFS=, '$1 == \"%s\" && $6 == \"linux\" { match($0, /min [0-9.]+/); lo = substr($0, RSTART + 4, RLENGTH - 4); match($0, /max [0-9.]+/); hi = substr($0, RSTART + 4, RLENGTH - 4); print $5, $8, lo, hi }' %s", s, csv)
sel(s, b, v) = (strcol(1) eq s && strcol(6) eq b && strcol(7) eq v) ? $8 : NaN
set multiplot layout 1,2 title "GoogLeNet, async PS, 10 Gb/s, 20 steps: Linux (median [min, max] of 3 runs) against the models"
set logscale x 2
set xrange [1.6:10]
set xtics (2, 4, 8)
set xlabel "workers K"
set ylabel "samples/s"
set yrange [200:700]
set grid
set key top left
do for [s in "async-long async-long-ov"] {
  set title (s eq "async-long" ? "async, no overlap" : "async with overlap")
  plot linux(s) using 1:2:3:4 with yerrorlines lw 3 lc rgb "black" pt 7 title "Linux", \
       csv skip 1 using 5:(sel(s, "packet", "TcpCubic")) with linespoints lw 2 lc rgb "#d62728" pt 5 title "packet (stock ns-3)", \
       csv skip 1 using 5:(sel(s, "flow", "ps")) with linespoints lc rgb "#1f77b4" pt 9 title "flow ps", \
       csv skip 1 using 5:(sel(s, "flow", "hybrid")) with linespoints lc rgb "#9467bd" dt 2 pt 11 title "flow hybrid", \
       csv skip 1 using 5:(sel(s, "analytic", "mva-ps")) with linespoints lc rgb "#2ca02c" dt 3 pt 13 title "analytic mva-ps"
}
unset multiplot
