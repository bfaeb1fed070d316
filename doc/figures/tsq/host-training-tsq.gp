# regenerate: gnuplot doc/figures/tsq/host-training-tsq.gp
# TCP small queues at the 9 contended points, at the linux run's dilation
# (validation/linux-preset.rst, "TCP small queues"): the preset without TSQ, with one-segment
# skbs (tsqseg), with the two-segment floor alone (tsqfloor), stock with the floor, and the
# preset with Linux's 64 KiB skbs (linux-dil).
call "doc/figures/host-training-error.gp" "doc/figures/tsq/host-training-tsq.png" \
  "TCP small queues (at the linux run's dilation): ns-3 against Linux at the 9 contended points" \
  "linux+notsq-dil linux+tsqseg-dil linux+tsqfloor-dil stock+tsqfloor-dil linux-dil" "doc/figures/tsq" \
  "grid-1000p:4 grid-1000p:8 grid-100p:4 grid-100p:8 grid-25g:8 grid-reno:8 grid-sync-ov:4 grid-async:4 grid-async-ov:4"
