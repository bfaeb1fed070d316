# regenerate: gnuplot doc/figures/host-sharing.gp
# The Linux-host preset on the sharing grid (validation/linux-preset.rst, "Sharing grid"):
# stock ns-3, TCP small queues alone and the preset (with TSQ; linux+notsq without), undilated
# and at the linux run's dilation, against Linux at dilation 40.
call "doc/figures/host-sharing-error.gp" "doc/figures/host-sharing.png" \
  "Sharing grid (separate sending hosts): ns-3 against Linux, per transfer size" \
  "doc/figures/linux-sharing-linux.csv" "doc/figures" \
  "stock stock-dil tsq linux linux-dil linux+notsq-dil"
