# Figures of the incast sweep (examples/incast-sweep.sh incast): gnuplot -e "dir='DIR'" THIS
# reads DIR/incast-summary.csv and writes DIR/incast-collapse.png and DIR/incast-factors.png;
# queues (the collapse map's switch buffers, default "10p 50p 100p 1000p", the last one also
# draws the flow models) as the sweep's QUEUES.
if (!exists("dir")) dir = 'doc/figures/congestion'
if (!exists("queues")) queues = "10p 50p 100p 1000p"
deep = word(queues, words(queues))
f = dir . '/incast-summary.csv'
set datafile separator ','
set terminal pngcairo size 820,520 font ',10'
set grid
set key top left

set output dir . '/incast-collapse.png'
set title "Incast: sync PS, two 6 MB layers, 10 Gb/s, DropTail switch ports (host NICs 1000p), Cubic, MinRto 200 ms"
set xlabel 'workers K'
set ylabel 'throughput (samples/s)'
set logscale x 2
set xtics (2, 4, 8, 16)
set xrange [1.8:18]
set yrange [0:*]
grid(q) = sprintf("< grep '^grid-K[0-9]*-%s,' %s", q, f)
plot for [q in queues] grid(q) using 2:11 with linespoints lw 2 title 'packet, '.q, \
     grid(deep) using 2:12 with lines dt 2 lc rgb 'black' title 'flow ps (= Eq. 7)', \
     grid(deep) using 2:13 with lines dt 3 lc rgb 'gray40' title 'flow fcfs'

set output dir . '/incast-factors.png'
unset logscale x
set xtics auto
set autoscale x
set title "One factor at a time around K = 8, 100p, DropTail, Cubic, MinRto 200 ms"
set xlabel ''
set ylabel 'packet step time / flow ps step time'
set style data histograms
set style fill solid 0.7 border -1
set boxwidth 0.7
set xtics rotate by -30
set key off
set yrange [0:*]
plot "< grep -E '^(grid-K8-100p|disc-|tcp-|rto-)' " . f using 18:xticlabels(1) lc rgb '#4070a0', \
     '' using 0:18:(sprintf('%.2f', $18)) with labels offset 0,0.7 notitle
