# Training points of the linux grid: (ns-3 - Linux) / Linux in % per point, one bar per ns-3
# configuration, Linux (the linux backend, doc/figures/linux-grid/results.csv) as the zero line
# and +-5 % dashed. Not run by itself: the scripts beside it call it, e.g. host-training.gp:
#   call "doc/figures/host-training-error.gp" OUT.png TITLE "CONFIG ..." DIR ["scenario:K ..."]
# CONFIG names the CSV DIR/host-training-CONFIG.csv; "grid-packet" is the runner's own packet
# rows (stock ns-3, undilated). The join is doc/figures/host-training-join.awk.
png = ARG1
configs = ARG3
files = ""
do for [c in configs] {
  files = files . " " . (c eq "grid-packet" ? "doc/figures/linux-grid/results.csv" \
                                             : sprintf("%s/host-training-%s.csv", ARG4, c))
}
data = sprintf("< awk -v points='%s' -f doc/figures/host-training-join.awk doc/figures/linux-grid/results.csv%s", \
               ARG5, files)
set datafile separator ","
set datafile missing NaN
set terminal pngcairo size (ARGC >= 5 && ARG5 ne "" ? 1000 : 1500),560 font ",10"
set output png
set title ARG2
set style data histogram
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set ylabel "(ns-3 - Linux) / Linux (%)"
set yrange [-80:45]
set ytics 10
set grid ytics
set xtics rotate by -45 left noenhanced nomirror font ",9"
set bmargin 6
set key bottom right noenhanced
set arrow 1 from graph 0, first 5 to graph 1, first 5 nohead dt 2
set arrow 2 from graph 0, first -5 to graph 1, first -5 nohead dt 2
set arrow 3 from graph 0, first 0 to graph 1, first 0 nohead lw 2
colours = "#7f7f7f #1f77b4 #ff7f0e #d62728 #2ca02c #9467bd #8c564b #e377c2 #17becf"
name(c) = c eq "grid-packet" ? "grid packet (stock, undilated)" : c
plot for [i = 1:words(configs)] data using (column(i + 1)):xtic(1) \
       title name(word(configs, i)) lc rgb word(colours, i)
