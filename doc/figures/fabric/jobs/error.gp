# regenerate: gnuplot doc/figures/fabric/jobs/error.gp
# Two and four jobs on one leaf-spine (validation/fabric-congestion.rst, "Two and four jobs on
# one fabric"): per job of the several-jobs scenarios, the flow level's error against the
# packet level (the reference), ps and fcfs sharing. Data: the runner's results.csv.
# CSV columns: 1 scenario (SCENARIO/JOB), 6 backend, 7 variant, 11 rel_error.
set datafile separator ","
set terminal pngcairo size 1100,560 font ",10"
set output "doc/figures/fabric/jobs/error.png"
data(v) = sprintf("< awk -F, -v OFS=, '$1 ~ /^jobs/ && $6 == \"flow\" && $7 == \"%s\" {print $1, 100 * $11}' doc/figures/fabric/jobs/results.csv", v)
set title "Several jobs on one leaf-spine: flow level against the packet level, per job"
set style data histogram
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set ylabel "(flow - packet) / packet (%)"
set yrange [-25:100]
set ytics 10
set grid ytics
set xtics rotate by -45 left noenhanced nomirror font ",9"
set bmargin 9
set rmargin 14
set key top left
set arrow 1 from graph 0, first 0 to graph 1, first 0 nohead lw 2
set arrow 2 from graph 0, first 5 to graph 1, first 5 nohead dt 2
set arrow 3 from graph 0, first -5 to graph 1, first -5 nohead dt 2
plot data("ps") using 2:xtic(1) title "flow ps" lc rgb "#1f77b4", \
     data("fcfs") using 2 title "flow fcfs" lc rgb "#ff7f0e"
