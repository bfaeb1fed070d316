set terminal pngcairo size 1000,420
set output 'doc/figures/optimizer/yan-fig14.png'
set datafile separator ','
set multiplot layout 1,2
set style data histograms
set style histogram rowstacked
set style fill solid border -1
set ylabel 'output layer, s per epoch'
set key top left
plot 'doc/figures/optimizer/yan-fig14.csv' index 0 every ::1 using 2:xtic(1) title 'compute', '' index 0 every ::1 using 3 title 'activations', '' index 0 every ::1 using 4 title 'weights'
set style data lines
set logscale x
set xlabel 'N_{read} (samples between reads)'
plot 'doc/figures/optimizer/yan-fig14.csv' index 1 using 1:2 title 'partitioned' lw 2, '' index 1 using 1:3 title 'replicated' lw 2
unset multiplot
