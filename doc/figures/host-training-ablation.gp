# regenerate: gnuplot doc/figures/host-training-ablation.gp
# One setting of the preset at a time on stock ns-3, at the linux run's dilation, at the 9
# contended points (validation/linux-preset.rst, "One setting at a time").
call "doc/figures/host-training-error.gp" "doc/figures/host-training-ablation.png" \
  "One setting at a time (at the linux run's dilation): ns-3 against Linux at the 9 contended points" \
  "stock-dil cc-dil delack-dil autotune-dil jitter-dil tsq-dil linux+notsq-dil linux-dil" "doc/figures" \
  "grid-1000p:4 grid-1000p:8 grid-100p:4 grid-100p:8 grid-25g:8 grid-reno:8 grid-sync-ov:4 grid-async:4 grid-async-ov:4"
