# ctest helper: run the validation runner on a small matrix and check what it wrote.
#   cmake -DRUNNER=validation-runner -DMATRIX=m.json -DOUT=dir [-DCHECK=calibration] -P this.cmake
# Default (test/data/validation-matrix-two.json): the runner exits 0 and OUT holds results.csv
# with, per scenario and K, one packet row, the three flow variants of the matrix (fcfs, ps,
# hybrid) and analytic rows with relative errors, the error tables, the figure scripts and the
# timeline of the scenario that asks for one; then --resume reuses all 20 job results.
# CHECK=jobs (test/data/validation-matrix-jobs.json): a scenario of two jobs gives one row per
# job, named <scenario>/<job>, a throughput figure with one series per job and backend, and a
# transfer timeline with a lane per job's worker on one clock (flow: the two jobs' identical
# transfers on the shared path run side by side, at the same times).
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
  # The timeline: a packet and a flow block, each with both jobs' downlinks and uplinks (a's
  # worker on lane 0, b's on lane 1); in the flow block b's first pull starts and ends with a's
  # (max-min splits the spine path equally between the two identical jobs).
  set(timeline "${OUT}/two-jobs-one-spine-timeline")
  file(READ "${timeline}.dat" dat)
  string(FIND "${dat}" "# flow (ps)" flowAt)
  if(flowAt LESS 0)
    message(FATAL_ERROR "${timeline}.dat has no flow block:\n${dat}\n${out}")
  endif()
  string(SUBSTRING "${dat}" 0 ${flowAt} packetBlock)
  string(SUBSTRING "${dat}" ${flowAt} -1 flowBlock)
  foreach(block packetBlock flowBlock)
    foreach(lane "-0.2 down" "0.2 up" "0.8 down" "1.2 up")
      if(NOT "${${block}}" MATCHES "\n${lane} [0-9]+ [0-9.e+-]+ [0-9.e+-]+\n")
        message(FATAL_ERROR "${timeline}.dat: ${block} lacks lane '${lane}':\n${dat}")
      endif()
    endforeach()
  endforeach()
  string(REGEX MATCH "\n-0.2 down 0 ([0-9.e+-]+ [0-9.e+-]+)\n" a "${flowBlock}")
  set(a "${CMAKE_MATCH_1}")
  string(REGEX MATCH "\n0.8 down 0 ([0-9.e+-]+ [0-9.e+-]+)\n" b "${flowBlock}")
  if(a STREQUAL "" OR NOT a STREQUAL CMAKE_MATCH_1)
    message(FATAL_ERROR "${timeline}.dat: flow: a's first pull '${a}', b's '${CMAKE_MATCH_1}'")
  endif()
  file(READ "${timeline}.gp" gp)
  if(NOT gp MATCHES "set ytics \\('a w0' 0, 'b w0' 1\\)")
    message(FATAL_ERROR "${timeline}.gp does not label the jobs' lanes:\n${gp}")
  endif()
  find_program(GNUPLOT gnuplot)
  if(GNUPLOT)
    foreach(png "${figure}.png" "${timeline}.png")
      set(size 0)
      if(EXISTS "${png}")
        file(SIZE "${png}" size)
      endif()
      if(size EQUAL 0)
        message(FATAL_ERROR "${png} is empty:\n${out}")
      endif()
    endforeach()
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
