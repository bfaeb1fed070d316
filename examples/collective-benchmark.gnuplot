# Draws DIR/busbw.png from DIR/busbw.csv of collective-benchmark:
#   ./build/bin/collective-benchmark --workers=8 --sizes=1KiB..256MiB --collective=all \
#       --backend=analytic,flow,packet --packetMaxBytes=1MiB --csv=DIR/busbw.csv
#   gnuplot -e "dir='doc/figures/collectives'" examples/collective-benchmark.gnuplot
# Bus bandwidth (nccl-tests' busBw: M / t x 2(K-1)/K) of one AllReduce against its size, one
# colour per collective: the flow backend as lines, the packet backend as points, the analytic
# closed forms dashed (the ring's is 000 Eq. (11), which has no per-hop latency).
set datafile separator ','
set terminal pngcairo size 1000,600 font ',10'
set output dir.'/busbw.png'
set logscale x 2
set format x '%.0b%B'
set grid
set key bottom right font ',9'
set xlabel 'AllReduce size (bytes)'
set ylabel 'bus bandwidth (GB/s)'
set title 'One AllReduce, K = 8, 10 Gb/s star (TCP goodput 1.205 GB/s)'
f = dir.'/busbw.csv'
names = 'ring halving-doubling tree hierarchical nccl'
colours = 'black blue red dark-green orange'
rows(c, b) = sprintf("< awk -F, '$3 == \"%s\" && $4 == \"%s\"' %s", c, b, f)
plot for [i=1:5] rows(word(names, i), 'flow') using 2:7 \
         with lines lw 2 lc rgb word(colours, i) title word(names, i).' (flow)', \
     for [i=1:5] rows(word(names, i), 'packet') using 2:7 \
         with points pt 7 ps 1 lc rgb word(colours, i) notitle, \
     for [i=1:5] rows(word(names, i), 'analytic') using 2:7 \
         with lines dt 2 lw 1 lc rgb word(colours, i) notitle
