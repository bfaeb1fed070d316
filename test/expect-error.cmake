# ctest helper: run a program that must refuse its input. Passes when it exits non-zero, its
# output matches EXPECT (a regular expression), and it did not crash (no signal, no abort).
#   cmake -DPROGRAM=prog -DARGUMENTS="--opt=bad --other=1" -DEXPECT="regex" -P expect-error.cmake
separate_arguments(arguments UNIX_COMMAND "${ARGUMENTS}")
execute_process(COMMAND ${PROGRAM} ${arguments} RESULT_VARIABLE rc OUTPUT_VARIABLE out
                ERROR_VARIABLE err TIMEOUT 60)
set(all "${out}${err}")
if(rc EQUAL 0)
  message(FATAL_ERROR "accepted bad input (exit 0):\n${all}")
endif()
if(NOT rc MATCHES "^[0-9]+$" OR rc GREATER 127)
  message(FATAL_ERROR "crashed or timed out (${rc}) instead of a clean error:\n${all}")
endif()
if(NOT all MATCHES "${EXPECT}")
  message(FATAL_ERROR "message does not match '${EXPECT}':\n${all}")
endif()
message(STATUS "exit ${rc}: ${all}")
