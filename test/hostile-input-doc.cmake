# ctest helper and generator: the hostile-input table of the manual is the bad-input ctest list
# (DT_BAD_INPUT_CASES in CMakeLists.txt), so that the table says exactly what the tests check.
#   cmake -DCASES=build/dt-bad-input-cases.txt -DSOURCE=<source dir> -DBINARY=<build dir>
#         -DDOC=doc/reference/hostile-inputs.rst [-DWRITE=ON] -P test/hostile-input-doc.cmake
# Without WRITE it fails when DOC differs from the table; with WRITE it writes DOC.
file(STRINGS "${CASES}" cases)
set(rst "")
string(APPEND rst ".. Generated from DT_BAD_INPUT_CASES in CMakeLists.txt by "
       "test/hostile-input-doc.cmake\n.. (cmake --build build --target hostile-input-doc); "
       "a ctest entry keeps it current.\n\n")
string(APPEND rst "Hostile input\n=============\n\n")
string(APPEND rst
       "Every row is a ctest entry, ``distributed-training-bad-input-<case>``: the program is run "
       "with these\narguments and must exit non-zero, without a crash, a signal or a time-out "
       "(60 s), with a message\nmatching the pattern (a regular expression). Paths are relative "
       "to the source folder; ``build/``\nis the build folder. The Python importer's hostile "
       "inputs are checked by its own tests\n(``traces/README.md``).\n\n")
list(LENGTH cases n)
string(APPEND rst "${n} cases.\n\n")
string(APPEND rst ".. list-table::\n   :header-rows: 1\n   :widths: 18 52 30\n\n")
string(APPEND rst "   * - case\n     - program and arguments\n     - refused with (pattern)\n")
foreach(case IN LISTS cases)
  # The build folder first: it may lie inside the source folder under any name.
  string(REPLACE "${BINARY}/" "build/" case "${case}")
  string(REPLACE "${SOURCE}/" "" case "${case}")
  string(REPLACE "|" ";" parts "${case}")
  list(GET parts 0 name)
  list(GET parts 1 command)
  list(GET parts 2 expect)
  string(APPEND rst "   * - ``${name}``\n     - ``${command}``\n     - ``${expect}``\n")
endforeach()
if(WRITE)
  file(WRITE "${DOC}" "${rst}")
  message(STATUS "wrote ${DOC}")
  return()
endif()
file(READ "${DOC}" current)
if(NOT current STREQUAL rst)
  message(FATAL_ERROR "${DOC} is out of date: the bad-input cases changed. Regenerate it with "
                      "cmake --build build --target hostile-input-doc")
endif()
