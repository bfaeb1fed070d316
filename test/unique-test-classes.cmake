# Fails the configure step when two test files define a class or struct of the same name at the
# start of a line. Each test file keeps its classes in an anonymous namespace, so a repeated name
# is no longer an ODR violation; but it was one before (two global DeterminismTestCase classes
# with inline members: the linker kept one DoRun and the packet-level test ran the flow-level
# body), and a repeated name is the first sign that a file lost its anonymous namespace. GCC's
# -Wodr under LTO compares type layouts only, so it cannot see two bodies of the same method.
#
# Usage: include(test/unique-test-classes.cmake) then dt_check_unique_test_classes(<sources>).
function(dt_check_unique_test_classes)
  set(seen "")
  foreach(source ${ARGN})
    file(STRINGS ${CMAKE_CURRENT_SOURCE_DIR}/${source} lines REGEX "^(class|struct) [A-Za-z_]")
    foreach(line ${lines})
      string(REGEX REPLACE "^(class|struct) ([A-Za-z_][A-Za-z_0-9]*).*" "\\2" name "${line}")
      if(DEFINED dt_class_${name})
        message(FATAL_ERROR "test class '${name}' is defined in both ${dt_class_${name}} and "
                            "${source}: give it a distinct name")
      endif()
      set(dt_class_${name} ${source})
    endforeach()
  endforeach()
endfunction()
