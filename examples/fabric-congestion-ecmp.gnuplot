# ECMP collision figure (examples/fabric-congestion.sh ecmp): gnuplot -e "dir='DIR'" THIS reads
# DIR/ecmp-summary.csv (one line per seed and oversubscription) and writes DIR/ecmp-collisions.png.
if (!exists("dir")) dir = 'doc/figures/fabric'
f = dir . '/ecmp-summary.csv'
set datafile separator ','
set terminal pngcairo size 900,540 font ',10'
set output dir . '/ecmp-collisions.png'
set title "ECMP collisions: sync PS, GoogLeNet, 4 workers in rack 0, server in rack 1, 4 spines; one point per seed"
set xlabel 'most of the job''s flows on one switch-to-switch link (1 = collision-free)'
set ylabel 'throughput (samples/s)'
set grid
set key bottom left box opaque
set xrange [0.5:4.5]
set xtics 1
set yrange [0:*]
# Packet points left of the degree, flow ps right of it; a small per-seed jitter.
jit(s) = 0.05 * ((int(s) * 37) % 7 - 3) / 3.0
sel(o) = sprintf("< grep '^ecmp-%s-' %s", o, f)
colour(i) = word("#c03020 #2060b0 #208040", i)
over = "1to1 2to1 4to1"
label(o) = o eq "1to1" ? "1:1 (10 G uplinks)" : (o eq "2to1" ? "2:1 (5 G)" : "4:1 (2.5 G)")
stats "< grep '^ecmp-star-' ".f using 8 nooutput
star = STATS_max
plot star with lines dt 3 lw 2 lc rgb 'black' title 'packet, star (no uplinks)', \
     for [i = 1:3] sel(word(over, i)) using ($5 - 0.15 + jit($4)):8 with points pt 7 ps 0.8 \
       lc rgb colour(i) title 'packet, '.label(word(over, i)), \
     for [i = 1:3] sel(word(over, i)) using ($5 + 0.15):9 with points pt 6 ps 1.4 lw 2 \
       lc rgb colour(i) title 'flow ps, '.label(word(over, i))
