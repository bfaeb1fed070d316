# The search space in the style of 002 Fig. 15: x = K, y = P (ring: 0), point size
# and colour the epoch time of each configuration's highest-rung estimate.
set terminal pngcairo size 900,600
set output 'doc/figures/optimizer/googlenet-titanx-pascal-b16-star.csv.png'
set datafile separator ','
set xlabel 'workers K'
set ylabel 'servers P (ring: 0)'
set cblabel 'epoch (min)'
set palette rgbformulae 33,13,10
set key outside
set offsets 0.5,0.5,0.5,0.5
plot for [fam=0:2] 'doc/figures/optimizer/googlenet-titanx-pascal-b16-star.csv' every ::1 using ($2==fam?$3+0.2*$6-0.1+0.1*fam:1/0):4:(1+$11/20):11 with points pt (fam==0?7:fam==1?5:9) ps variable palette title (fam==0?'ps-sync':fam==1?'ps-async':'ring')
