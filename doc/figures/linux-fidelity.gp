# regenerate: gnuplot doc/figures/linux-fidelity.gp
# Single-flow fidelity of the linux backend (validation/linux-tcp.rst): one flow through one shaped
# port, completion time / (S / goodput) against the port rate, per MTU, for both runs
# (linux-fidelity-run1.csv at load about 4, linux-fidelity.csv at load about 6.5; the rows with a
# per-flow cap are left out). 1 = the shaper's rate exactly.
# CSV columns: 1 rate ("200Mbps", "1Gbps"), 2 mtu, 3 cap (0 = none), 7 ratio, 8 load1.
set datafile separator ","
set terminal pngcairo size 900,560 font ",10"
set output "doc/figures/linux-fidelity.png"
set title "One flow through one shaped port: Linux completion time against the port's goodput"
mbps(s) = strstrt(s, "Gbps") ? 1000 * real(s[1:strstrt(s, "G") - 1]) : real(s[1:strstrt(s, "M") - 1])
sel(m) = ($2 == m && strcol(3) eq "0") ? $7 : NaN
set logscale x
set xrange [150:4000]
set xtics ("200 Mb/s" 200, "500 Mb/s" 500, "1 Gb/s" 1000, "2 Gb/s" 2000, "3 Gb/s" 3000)
set xlabel "port rate (real time)"
set ylabel "completion time / (S / goodput)"
set yrange [0.9:1.9]
set grid
set key top left
set arrow from 150, 1 to 4000, 1 nohead lw 2 lc rgb "black"
set label "1 = the port's goodput exactly" at 160, 0.96 font ",9"
set arrow from 150, 1.05 to 4000, 1.05 nohead dt 2 lc rgb "gray40"
set label "5 %" at 3300, 1.07 font ",9" tc rgb "gray40"
plot "doc/figures/linux-fidelity-run1.csv" skip 1 using (mbps(strcol(1))):(sel(1500)) \
       with linespoints lt 1 pt 7 title "MTU 1500, run 1 (load 4)", \
     "doc/figures/linux-fidelity.csv" skip 1 using (mbps(strcol(1))):(sel(1500)) \
       with linespoints lt 1 dt 2 pt 6 title "MTU 1500, run 2 (load 6.5)", \
     "doc/figures/linux-fidelity-run1.csv" skip 1 using (mbps(strcol(1))):(sel(9000)) \
       with linespoints lt 2 pt 5 title "MTU 9000, run 1", \
     "doc/figures/linux-fidelity.csv" skip 1 using (mbps(strcol(1))):(sel(9000)) \
       with linespoints lt 2 dt 2 pt 4 title "MTU 9000, run 2"
