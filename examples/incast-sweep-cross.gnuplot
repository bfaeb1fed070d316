# Figure of the cross-traffic sweep (examples/incast-sweep.sh cross): gnuplot -e "dir='DIR'" THIS
# reads DIR/cross-summary.csv and writes DIR/cross.png.
if (!exists("dir")) dir = 'doc/figures/congestion'
f = dir . '/cross-summary.csv'
set datafile separator ','
set terminal pngcairo size 820,520 font ',10'
set output dir . '/cross.png'
set title "Cross traffic: sync PS, K = 4, two 6 MB layers, 10 Gb/s, 1000p, Cubic"
set ylabel 'throughput (samples/s)'
set grid ytics
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.7 border -1
set xtics rotate by -30
set key outside top center horizontal
set yrange [0:*]
plot f using 11:xticlabels(1) every ::1 title 'packet (truth)', \
     '' using 12 every ::1 title 'flow ps', \
     '' using 13 every ::1 title 'flow fcfs', \
     '' using 14 every ::1 title 'analytic Eq. (7)'
