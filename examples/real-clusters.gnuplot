# Draws DIR/real-clusters.png from DIR/points.csv of examples/real-clusters.sh:
#   gnuplot -e "dir='doc/figures/real-clusters'" examples/real-clusters.gnuplot
# One panel per published table: measured throughput per GPU (black points), the flow backend's
# prediction (blue line: steps drawn from the profile's recorded steps; dashed: every step the
# profile's mean) and the packet backend's (red points, mean steps, where run) against the number of
# GPUs (logarithmic), per GPU so that a few per cent show. The fitted point of each table is
# circled.
set datafile separator ','
set terminal pngcairo size 1600,800 font ',9'
set output dir.'/real-clusters.png'
series = 'tf-inception_v3-b64 tf-resnet50-b64 tf-resnet152-b32 tf-inception_v3-b32 tf-resnet50-b32 cscs-p2.8xlarge cscs-p2.xlarge'
set multiplot layout 2,4 title 'Published throughput of real TCP clusters (K80) against the module: images/s per GPU'
set logscale x 2
set grid
set key bottom left font ',8'
set xlabel 'GPUs'
set ylabel 'images/s per GPU'
f = dir.'/points.csv'
do for [s in series] {
    set title s noenhanced
    plot f using (strcol(1) eq s ? $3 : NaN):($8/$3) with points pt 7 ps 1.2 lc rgb 'black' title 'measured', \
         f using (strcol(1) eq s ? $3 : NaN):($9/$3) with linespoints pt 6 lw 1.5 lc rgb 'blue' title 'flow', \
         f using (strcol(1) eq s ? $3 : NaN):($14/$3) with lines dt 2 lw 1.5 lc rgb 'blue' title 'flow, mean steps', \
         f using (strcol(1) eq s && strcol(10) ne '' ? $3 : NaN):($10/$3) with points pt 9 ps 1.3 lc rgb 'red' title 'packet', \
         f using (strcol(1) eq s && strcol(13) eq 'yes' ? $3 : NaN):($8/$3) with points pt 6 ps 2.5 lc rgb 'dark-green' title 'fitted'
}
unset multiplot
