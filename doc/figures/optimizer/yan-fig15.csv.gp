set terminal pngcairo size 900,700
set output 'doc/figures/optimizer/yan-fig15.png'
set datafile separator ','
set xlabel 'parameter servers'
set ylabel 'replicas'
set zlabel 'workers per replica' rotate
set cblabel 'epoch (min)'
set logscale cb
set palette rgbformulae 33,13,10
set view 60,40
splot 'doc/figures/optimizer/yan-fig15.csv' every ::1 using 1:2:3:(0.6+log10($5)):5 with points pt 7 ps variable palette notitle
