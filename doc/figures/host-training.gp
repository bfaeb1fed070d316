# regenerate: gnuplot doc/figures/host-training.gp
# The Linux-host preset on the training grid (validation/linux-preset.rst, "Training grid"):
# stock ns-3 and the preset (with TSQ), undilated and at the linux run's dilation, per point.
call "doc/figures/host-training-error.gp" "doc/figures/host-training.png" \
  "Training grid, 33 points: ns-3 against Linux (the preset with TSQ: linux, linux-dil)" \
  "grid-packet stock-dil linux linux-dil" "doc/figures"
