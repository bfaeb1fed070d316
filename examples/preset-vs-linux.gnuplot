# ns-3 against Linux on the linux training matrix: per point, (ns-3 - linux) / linux in % for
# stock ns-3 and the Linux-host preset, both at the linux run's dilation. Usage:
#   gnuplot -e "csv='doc/figures/linux-matrix/preset-vs-linux.csv'; png='out.png'" \
#     examples/preset-vs-linux.gnuplot
# CSV columns: 1 scenario, 2 K, 3 linux, 4 preset, 5 stock (samples/s), joined in
# doc/figures/linux-matrix from the runner's results.csv (linux rows) and the ns-3 CSVs:
#   awk -F, 'FNR==1{f++; next} f==1 && $6=="linux"{L[$1","$5]=$8} f==2{P[$1","$2]=$3}
#     f==3{S[$1","$2]=$3} END{print "scenario,K,linux,preset,stock"; for(k in L) if(k in P)
#     print k","L[k]","P[k]","((k in S)?S[k]:"NaN")}' results.csv host-training-linux-dil.csv \
#     host-training-stock-dil.csv | (read h; echo "$h"; sort) > preset-vs-linux.csv
set datafile separator ","
set terminal pngcairo size 1100,520 font ",10"
set output png
set title "ns-3 against Linux on the training matrix (linux at its dilation)"
set style data histogram
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set ylabel "(ns-3 - Linux) / Linux (%)"
set yrange [-25:20]
set rmargin 10
set ytics 5
set grid ytics
set xtics rotate by -40 left noenhanced nomirror
set bmargin 8
set key top left
set arrow from graph 0, first 5 to graph 1, first 5 nohead dt 2
set arrow from graph 0, first -5 to graph 1, first -5 nohead dt 2
plot csv skip 1 using (100 * ($5 / $3 - 1)):xtic(strcol(1) . " K=" . strcol(2)) \
       title "stock ns-3" lc rgb "#7f7f7f", \
     '' skip 1 using (100 * ($4 / $3 - 1)) title "Linux-host preset" lc rgb "#d62728"
