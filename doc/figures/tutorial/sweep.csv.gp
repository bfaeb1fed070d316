# gnuplot sweep.csv.gp  (Debian: apt-get install gnuplot-nox)
set datafile separator ','
set terminal pngcairo size 1000,650
set output 'sweep.png'
set key outside right
set grid
set xlabel 'workers K'
set ylabel 'throughput (samples/s)'
set title 'googlenet, ps sync'
plot for [i=2:2] 'sweep.csv' using 1:i with linespoints title columnhead(i)
