# ctest helper: doc/reference/attributes.rst must be exactly what print-attributes prints, so that the
# documented attributes and trace sources cannot drift from the code.
#   cmake -DPROGRAM=print-attributes -DDOC=doc/reference/attributes.rst -DOUT=build/attributes.rst -P ...
execute_process(COMMAND ${PROGRAM} OUTPUT_FILE ${OUT} RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "print-attributes failed (${rc})")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${OUT} ${DOC} RESULT_VARIABLE differ)
if(differ)
  message(FATAL_ERROR "doc/reference/attributes.rst is out of date: an attribute or trace source changed. "
                      "Regenerate it with ./build/bin/print-attributes > doc/reference/attributes.rst "
                      "(compare: diff ${OUT} ${DOC})")
endif()
