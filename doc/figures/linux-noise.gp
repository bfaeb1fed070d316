# regenerate: gnuplot doc/figures/linux-noise.gp
# Run-to-run spread against the dilation (validation/linux-tcp.rst): GoogLeNet, K = 4, 10 Gb/s,
# median throughput of N runs with the min and max as error bars, async PS and the DDP ring, at
# a load of 24-25 (the async D = 80 point: 3 runs at load 13). Horizontal line: the packet
# level's ring at this point (linux-grid/results.csv, grid-ring, K = 4).
# CSV columns (linux-noise.csv): 1 scenario, 3 dilation, 5 median, 6 min, 7 max.
set datafile separator ","
set terminal pngcairo size 900,560 font ",10"
set output "doc/figures/linux-noise.png"
stats "< awk -F, '$1 == \"grid-ring\" && $5 == 4 && $6 == \"packet\" {print $8}' doc/figures/linux-grid/results.csv" \
  using 1 nooutput
ringPacket = STATS_max
set title "Linux backend on a loaded machine: throughput against the dilation (K = 4, 10 Gb/s)"
set logscale x 2
set xrange [7:110]
set xtics (10, 20, 40, 80)
set xlabel "dilation D (port rate after dilation: 10 Gb/s / D)"
set ylabel "throughput (samples/s): median [min, max]"
set yrange [0:1000]
set grid
set key top left
set arrow from 7, ringPacket to 110, ringPacket nohead dt 2 lw 2 lc rgb "#0072b2"
set label sprintf("packet level, ring (%.1f)", ringPacket) at 8, ringPacket + 25 tc rgb "#0072b2"
sel(s) = strcol(1) eq s ? $5 : NaN
plot "doc/figures/linux-noise.csv" skip 1 using 3:(sel("ps-async-10g")):6:7 with yerrorlines \
       lt 1 pt 7 ps 1.2 title "async PS", \
     "" skip 1 using 3:(sel("ring-ddp-10g")):6:7 with yerrorlines lt 3 lc rgb "#0072b2" pt 5 \
       ps 1.2 title "ring (DDP)"
