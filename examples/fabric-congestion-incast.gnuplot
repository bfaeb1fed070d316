# Cross-rack incast figure (examples/fabric-congestion.sh incast): gnuplot -e "dir='DIR'" THIS reads
# DIR/incast-summary.csv and writes DIR/incast-fabric.png.
if (!exists("dir")) dir = 'doc/figures/fabric'
f = dir . '/incast-summary.csv'
set datafile separator ','
set terminal pngcairo size 1100,480 font ',10'
set output dir . '/incast-fabric.png'
set multiplot layout 1,2 title "Cross-rack incast: sync PS, server alone in rack 0, K workers in other racks (4 per rack), 2 spines, two 6 MB layers, MTU 1500, Cubic"
set grid
set xlabel 'workers K'
set ylabel 'throughput (samples/s)'
set logscale x 2
set xtics (4, 8, 16, 32)
set xrange [3.5:*]
set autoscale xfixmax
set offsets graph 0, graph 0.06, graph 0, graph 0
set yrange [0:*]
set key bottom left
colour(i) = word("#c03020 #2060b0 #208040", i)
over = "1to1 2to1 4to1"
label(o) = o eq "1to1" ? "1:1" : (o eq "2to1" ? "2:1" : "4:1")
sel(o, q) = sprintf("< grep -E '^incast-K[0-9]+-%s-%s,' %s", o, q, f)
do for [q in "100p 1000p"] {
  set title sprintf("switch ports %s (host NICs 1000p)", q)
  plot for [i = 1:3] sel(word(over, i), q) using 2:6 with linespoints lw 2 pt 7 \
         lc rgb colour(i) title 'packet, '.label(word(over, i)), \
       for [i = 1:3] sel(word(over, i), q) using 2:7 with lines dt 2 lw 1.5 \
         lc rgb colour(i) title 'flow ps, '.label(word(over, i))
}
unset multiplot
