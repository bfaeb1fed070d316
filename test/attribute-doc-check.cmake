# ctest helper: a generated reference page in doc/ must be exactly what print-attributes prints,
# so that the documented attributes, trace sources and driver options cannot drift from the code.
#   cmake -DPROGRAM=print-attributes -DDOC=doc/reference/attributes.rst -DOUT=build/attributes.rst -P ...
#   cmake -DPROGRAM=print-attributes -DARGS=--options -DDOC=doc/reference/options.rst -DOUT=... -P ...
execute_process(COMMAND ${PROGRAM} ${ARGS} OUTPUT_FILE ${OUT} RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "print-attributes ${ARGS} failed (${rc})")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${OUT} ${DOC} RESULT_VARIABLE differ)
if(differ)
  message(FATAL_ERROR "${DOC} is out of date: an attribute, trace source or option changed. "
                      "Regenerate it with ./build/bin/print-attributes ${ARGS} > ${DOC} "
                      "(compare: diff ${OUT} ${DOC})")
endif()
