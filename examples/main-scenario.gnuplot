# The main scenario's result (bash bootstrap.sh run draws it): the throughput of every backend
# and variant as one bar each, coloured by backend, with its value, and the packet level's
# throughput (ns-3 TCP, the reference; the CSV must have a packet row) as a dashed line. Usage:
#   gnuplot -e "csv='result.csv'; png='result.png'; title='...'" examples/main-scenario.gnuplot
# CSV: the driver's --csvRow file (its header first; column 15 backend, 16 variant,
# 17 throughput in samples/s).
set datafile separator ","
set terminal pngcairo size 1000,560 font ",10"
set output png
set title title noenhanced
set style fill solid 0.8 border -1
set boxwidth 0.7
set ylabel "throughput (samples/s)"
set xtics rotate by -35 left noenhanced nomirror
set grid ytics
set key off
set yrange [0:*]
set offsets 0.5, 0.5, 0, 0
set bmargin 9
set rmargin 12
stats csv skip 1 using (strcol(15) eq "packet" ? $17 : NaN) nooutput
set arrow from graph 0, first STATS_max to graph 1, first STATS_max nohead dt 2 lc rgb "#d62728"
colour(b) = b eq "packet" ? 0xd62728 : b eq "flow" ? 0x1f77b4 : b eq "analytic" ? 0x2ca02c : 0x9467bd
plot csv skip 1 using 0:17:(colour(strcol(15))):xtic(strcol(15) . " " . strcol(16)) \
       with boxes lc rgb variable, \
     '' skip 1 using 0:17:(sprintf("%.0f", $17)) with labels offset 0,0.8 font ",9"
