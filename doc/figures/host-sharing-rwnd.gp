# regenerate: gnuplot doc/figures/host-sharing-rwnd.gp
# The receive window advertised, sharing grid (validation/linux-async.rst): the preset without
# TSQ with (linux-rwnd) and without LimitReceiveWindow, undilated and at dilation 40.
call "doc/figures/host-sharing-error.gp" "doc/figures/host-sharing-rwnd.png" \
  "The receive window advertised (linux-rwnd) or not, sharing grid: ns-3 against Linux" \
  "doc/figures/linux-sharing-linux.csv" "doc/figures" \
  "linux+notsq linux-rwnd+notsq linux+notsq-dil linux-rwnd+notsq-dil"
