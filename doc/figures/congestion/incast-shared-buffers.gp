# regenerate: gnuplot doc/figures/congestion/incast-shared-buffers.gp
# Shared buffers (validation/congestion.rst, "Shared buffers"): the incast sweep with the host
# NICs sized by --queue too (solid) against the study's sweep with 1000-packet host NICs
# (dashed), packet-level throughput against K per queue size; flow ps (= Eq. 7) in black.
# CSV columns (incast-*summary.csv): 1 label, 2 workers, 3 queue, 11 packet, 12 flow_ps.
set datafile separator ","
set terminal pngcairo size 1100,560 font ",10"
set output "doc/figures/congestion/incast-shared-buffers.png"
shared = "doc/figures/congestion/incast-shared-buffers-summary.csv"
switchOnly = "doc/figures/congestion/incast-summary.csv"
grid(q, f) = sprintf("< grep '^grid-K[0-9]*-%s,' %s", q, f)
set title "Incast, sync PS, 10 Gb/s, DropTail: host NICs sized like the switch ports (solid) or 1000p (dashed)"
set xlabel "workers K"
set ylabel "throughput (samples/s)"
set logscale x 2
set xtics (2, 4, 8, 16)
set xrange [1.8:18]
set yrange [0:*]
set grid
set key outside right
queues = "10p 50p 100p 1000p"
plot for [i = 1:4] grid(word(queues, i), shared) using 2:11 with linespoints lw 2 lt i pt 7 \
       title "packet, ".word(queues, i).", shared", \
     for [i = 1:4] grid(word(queues, i), switchOnly) using 2:11 with linespoints dt 2 lt i pt 6 \
       title "packet, ".word(queues, i).", host NICs 1000p", \
     grid("1000p", shared) using 2:12 with lines lw 2 lc rgb "black" title "flow ps (= Eq. 7)"
