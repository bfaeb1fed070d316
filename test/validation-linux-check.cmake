# ctest helper: the validation runner with the linux backend (real TCP) as the reference.
#   cmake -DRUNNER=validation-runner -DMATRIX=m.json -DOUT=dir -P validation-linux-check.cmake
# Without root or namespaces the runner refuses before any job ("cannot run here"): the test's
# SKIP_REGULAR_EXPRESSION turns that into a skip.
file(REMOVE_RECURSE "${OUT}")
execute_process(COMMAND ${RUNNER} --matrix=${MATRIX} --out=${OUT} --jobs=2 RESULT_VARIABLE rc
                OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 300)
message(STATUS "${out}${err}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "runner failed (${rc})")
endif()
file(STRINGS "${OUT}/results.csv" lines)
list(GET lines 0 header)
if(NOT header MATCHES ",linux_throughput_samples_per_s,rel_error,job,notes$")
  message(FATAL_ERROR "results.csv header: ${header}")
endif()
set(linux 0)
set(packet 0)
foreach(line IN LISTS lines)
  if(line MATCHES ",linux,cubic,")
    math(EXPR linux "${linux} + 1")
  endif()
  # a packet row with the linux throughput and a relative error filled in
  if(line MATCHES ",packet,[^,]+,[0-9.e+]+,[0-9.e+-]+,[0-9.e+]+,-?[0-9.e+-]+,")
    math(EXPR packet "${packet} + 1")
  endif()
endforeach()
if(NOT linux EQUAL 2 OR NOT packet EQUAL 2)
  message(FATAL_ERROR "expected 2 linux rows and 2 packet rows with errors, got ${linux} and "
                      "${packet}:\n${lines}")
endif()
file(READ "${OUT}/error-table.rst" table)
if(NOT table MATCHES "rate-1g" OR NOT table MATCHES "packet TcpCubic" OR NOT table MATCHES "vs linux")
  message(FATAL_ERROR "error-table.rst lacks the rate-1g column, the packet row or the title:\n${table}")
endif()
# the linux jobs ran one at a time, alone: the runner's progress lists them first
string(REGEX MATCHALL "\\[[0-9]+/[0-9]+\\] [^ ]+" done "${out}")
list(GET done 0 first)
list(GET done 1 second)
if(NOT first MATCHES "-linux" OR NOT second MATCHES "-linux")
  message(FATAL_ERROR "the linux jobs did not run first: ${done}")
endif()
