# ctest helper: the validation runner's calibration path end to end.
#   cmake -DRUNNER=validation-runner -DMATRIX=calibration.json -DOUT=dir -P this.cmake
# Passes when the runner exits 0, calibration.csv lists both values with one chosen, and the
# holdout scenario has a row of the calibrated variant under its own name.
file(REMOVE_RECURSE "${OUT}")
execute_process(COMMAND ${RUNNER} --matrix=${MATRIX} --out=${OUT} --jobs=2 RESULT_VARIABLE rc
                OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 300)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "validation-runner exited ${rc}:\n${out}${err}")
endif()
file(READ "${OUT}/calibration.csv" calibration)
if(NOT calibration MATCHES "swept,--seed,1,[0-9.e-]+,[0-9.e-]+,1,(yes)?\n"
   OR NOT calibration MATCHES "swept,--seed,2,[0-9.e-]+,[0-9.e-]+,1,(yes)?\n"
   OR NOT calibration MATCHES ",yes\n")
  message(FATAL_ERROR "calibration.csv:\n${calibration}\n${out}")
endif()
file(READ "${OUT}/results.csv" results)
if(NOT results MATCHES "\nhold,sync-overlap,holdout,[^,]+,2,flow,swept,"
   OR NOT results MATCHES "\ncal,sync-basic,calibrate,[^,]+,2,flow,swept@1,"
   OR NOT out MATCHES "calibration: swept --seed=[12] ")
  message(FATAL_ERROR "results.csv lacks the calibration rows:\n${results}\n${out}")
endif()
message(STATUS "${out}")
