# regenerate: gnuplot doc/figures/shared-queue/host-sharing.gp
# A shared sender NIC (validation/linux-shared-nic.rst): every flow leaves one host through one
# NIC; stock ns-3 and the preset (with TSQ and 64 KiB skbs: linux, linux-dil; without TSQ:
# linux+notsq-dil; one-segment skbs: linux+tsqseg-dil) against Linux at dilation 40.
call "doc/figures/host-sharing-error.gp" "doc/figures/shared-queue/host-sharing.png" \
  "A shared sender NIC (Cubic, 30 KB - 3 MB): ns-3 against Linux, per transfer size" \
  "doc/figures/shared-queue/linux-sharing-linux.csv" "doc/figures/shared-queue" \
  "stock stock-dil linux linux-dil linux+notsq-dil linux+tsqseg-dil"
