# regenerate: gnuplot doc/figures/host-training-rwnd.gp
# The receive window advertised (validation/linux-async.rst): the preset without TSQ with and
# without LimitReceiveWindow, undilated and at the linux run's dilation, beside the runner's
# stock packet runs, at the 8 contended points that run at the grid's 4 steps.
call "doc/figures/host-training-error.gp" "doc/figures/host-training-rwnd.png" \
  "The receive window advertised (linux-rwnd) or not: ns-3 against Linux" \
  "grid-packet linux+notsq linux-rwnd+notsq linux+notsq-dil linux-rwnd+notsq-dil" "doc/figures" \
  "grid-1000p:4 grid-1000p:8 grid-100p:4 grid-100p:8 grid-25g:8 grid-reno:8 grid-sync-ov:4 grid-async:4"
