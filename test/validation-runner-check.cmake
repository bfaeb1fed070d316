# ctest helper: run the validation runner on a small matrix and check what it wrote.
#   cmake -DRUNNER=validation-runner -DMATRIX=m.json -DOUT=dir [-DCHECK=calibration] -P this.cmake
# Default (test/data/validation-matrix-two.json): the runner exits 0 and OUT holds results.csv
# with, per scenario and K, one packet row, the three flow variants of the matrix (fcfs, ps,
# hybrid) and analytic rows with relative errors, the error tables, the figure scripts and the
# timeline of the scenario that asks for one; then --resume reuses all 20 job results.
# CHECK=jobs (test/data/validation-matrix-jobs.json): a scenario of two jobs gives one row per
# job, named <scenario>/<job>, and a throughput figure with one series per job and backend.
# CHECK=calibration (test/data/validation-matrix-calibration.json): calibration.csv lists both
# values with one chosen, and the holdout scenario has a row of the calibrated variant under its
# own name.
file(REMOVE_RECURSE "${OUT}")
execute_process(COMMAND ${RUNNER} --matrix=${MATRIX} --out=${OUT} --jobs=2 RESULT_VARIABLE rc
                OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 300)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "validation-runner exited ${rc}:\n${out}${err}")
endif()
if(CHECK STREQUAL "jobs")
  # test/data/validation-matrix-jobs.json: one scenario of two jobs (inline list); one row per
  # job and backend, the flow rows with their error against the packet row of the same job.
  file(READ "${OUT}/results.csv" results)
  foreach(job a b)
    foreach(backend "packet,TcpCubic" "flow,ps")
      if(NOT results MATCHES "\ntwo-jobs-one-spine/${job},sync-basic,holdout,[^,]+,1,${backend},[0-9.e+-]+,[0-9.e+-]+,[0-9.e+-]+,")
        message(FATAL_ERROR "results.csv lacks the ${backend} row of job ${job}:\n${results}\n${out}")
      endif()
    endforeach()
  endforeach()
  # The throughput figure: one series per job and backend, every value a number, and no step
  # of the run reported as failed.
  set(figure "${OUT}/two-jobs-one-spine-throughput")
  file(READ "${figure}.csv" csv)
  if(NOT csv MATCHES "^workers,a: packet,b: packet,a: flow ps,b: flow ps\n1(,[0-9.e+]+)(,[0-9.e+]+)(,[0-9.e+]+)(,[0-9.e+]+)\n$")
    message(FATAL_ERROR "${figure}.csv: expected one number per job and backend:\n${csv}\n${out}")
  endif()
  file(READ "${figure}.gp" gp)
  if(NOT gp MATCHES "using 1:5 with linespoints")
    message(FATAL_ERROR "${figure}.gp does not draw the four series:\n${gp}")
  endif()
  if(out MATCHES "failed" OR err MATCHES "failed")
    message(FATAL_ERROR "the runner reports a failure:\n${out}${err}")
  endif()
  find_program(GNUPLOT gnuplot)
  if(GNUPLOT)
    set(png 0)
    if(EXISTS "${figure}.png")
      file(SIZE "${figure}.png" png)
    endif()
    if(png EQUAL 0)
      message(FATAL_ERROR "${figure}.png is empty:\n${out}")
    endif()
  endif()
elseif(CHECK STREQUAL "calibration")
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
else()
  foreach(f results.csv error-table.csv error-table.rst two-layers-sync-throughput.gp
            two-layers-sync-throughput.csv two-layers-async-overlap-throughput.gp
            two-layers-async-overlap-timeline.gp two-layers-async-overlap-timeline.dat)
    if(NOT EXISTS "${OUT}/${f}")
      message(FATAL_ERROR "missing ${OUT}/${f}:\n${out}${err}")
    endif()
  endforeach()
  file(STRINGS "${OUT}/results.csv" lines)
  list(GET lines 0 header)
  if(NOT header MATCHES "^scenario,category,role,profile,workers,backend,variant,throughput_samples_per_s,step_time_mean_s,packet_throughput_samples_per_s,rel_error,job,notes$")
    message(FATAL_ERROR "results.csv header: ${header}")
  endif()
  foreach(scenario two-layers-sync two-layers-async-overlap)
    foreach(k 1 2)
      foreach(what "packet,TcpCubic" "flow,fcfs" "flow,ps" "flow,hybrid" "analytic,")
        set(pattern "^${scenario},[a-z-]+,holdout,test/data/two-layers-12mb.json,${k},${what}[^,]*,[0-9.e+]+,[0-9.e+-]+,[0-9.e+]+,[-0-9.e+]+,")
        set(count 0)
        foreach(line IN LISTS lines)
          if(line MATCHES "${pattern}")
            math(EXPR count "${count} + 1")
          endif()
        endforeach()
        if(count EQUAL 0 OR (NOT what STREQUAL "analytic," AND count GREATER 1))
          message(FATAL_ERROR "results.csv: ${count} rows '${scenario}, K=${k}, ${what}' "
                              "(expected one; analytic: at least one)")
        endif()
      endforeach()
    endforeach()
  endforeach()
  file(READ "${OUT}/error-table.rst" table)
  if(NOT table MATCHES "flow ps +[0-9.]+ \\([0-9.]+\\)" OR NOT table MATCHES "sync-basic")
    message(FATAL_ERROR "error-table.rst lacks the flow ps row:\n${table}")
  endif()
  # --resume reuses every result: no job runs again, the outputs are written again.
  file(REMOVE "${OUT}/results.csv")
  execute_process(COMMAND ${RUNNER} --matrix=${MATRIX} --out=${OUT} --jobs=2 --resume
                  RESULT_VARIABLE rc OUTPUT_VARIABLE again ERROR_VARIABLE err TIMEOUT 300)
  if(NOT rc EQUAL 0 OR NOT again MATCHES "reusing 20 of 20 results" OR again MATCHES "\\[1/"
     OR NOT EXISTS "${OUT}/results.csv")
    message(FATAL_ERROR "--resume did not reuse the 20 results (exit ${rc}):\n${again}${err}")
  endif()
  # A result is reused only with the same argument list: one more step reruns every job.
  file(READ "${MATRIX}" text)
  string(REPLACE "\"steps\": 4" "\"steps\": 5" text "${text}")
  file(WRITE "${OUT}/steps5.json" "${text}")
  execute_process(COMMAND ${RUNNER} --matrix=${OUT}/steps5.json --out=${OUT} --jobs=2 --resume
                          --root=${CMAKE_CURRENT_LIST_DIR}/..
                  RESULT_VARIABLE rc OUTPUT_VARIABLE changed ERROR_VARIABLE err TIMEOUT 300)
  if(NOT rc EQUAL 0 OR changed MATCHES "reusing" OR NOT changed MATCHES "\\[20/20\\]")
    message(FATAL_ERROR "--resume reused results of other arguments (exit ${rc}):\n${changed}${err}")
  endif()
endif()
message(STATUS "${out}")
