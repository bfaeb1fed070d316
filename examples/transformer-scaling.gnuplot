# Draws DIR/efficiency.png from the CSVs of examples/transformer-scaling.sh:
#   gnuplot -e "dir='doc/figures/transformer-scaling'; profiles='vit_b_16-rtx3090-b192 ...'" \
#       examples/transformer-scaling.gnuplot
# Rows: PS sync, PS async, ring (DDP buckets); columns: 10, 25, 100 Gbps (configs and rates,
# words as the script's CONFIGS and RATES, change them; the flow backend must be among its
# BACKENDS). Each line is a profile:
# scaling efficiency = throughput / (K x one worker's compute-only throughput) against K, from
# the flow-level backend. Transformers solid, CNNs dashed.
set datafile separator ','
set terminal pngcairo size 1500,1100 font ',9'
set output dir.'/efficiency.png'
if (!exists("configs")) configs = 'ps-sync ps-async ring'
if (!exists("rates")) rates = '10 25 100'
set multiplot layout words(configs),words(rates) title 'Scaling efficiency (flow level, MTU 9000): throughput / (K x compute-only)'
set logscale x 2
set autoscale xfix
set yrange [0:1.05]
set grid
set key bottom left font ',7'
single(p) = real(system(sprintf("awk -F, '$1==\"%s\" {print $5; exit}' %s/summary.csv", p, dir)))
cnn(p) = (strstrt(p, 'vit') + strstrt(p, 'swin')) == 0
do for [c in configs] {
    do for [r in rates] {
        set title sprintf('%s, %s Gbps', c, r) noenhanced
        set xlabel 'workers K'
        set ylabel 'efficiency'
        plot for [p in profiles] sprintf('%s/%s-%s-%sg-flow.csv', dir, p, c, r) \
            using 1:($2 / ($1 * single(p))) with linespoints dashtype cnn(p) + 1 lw 1.5 \
            title p noenhanced
    }
}
unset multiplot
