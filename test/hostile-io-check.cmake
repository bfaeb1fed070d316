# ctest helper: the programs on hostile paths (issue 26). Each CASE builds its fixtures (FIFOs,
# folders, links to /dev/zero, a full tmpfs) in WORK, runs the programs with a timeout and
# requires a clear refusal (exit 1..127 with the expected message) or a right answer; a hang,
# a crash or exit 0 with lost data fails.
#   cmake -DCASE=name -DSIM=sim -DSTUDY=tcp-sharing-study -DRUNNER=validation-runner
#         -DSRC=source-dir -DWORK=scratch-dir -P hostile-io-check.cmake
set(profile "${SRC}/test/data/two-layers-12mb.json")
set(quick --profile=${profile} --backend=flow --workers=2 --steps=3 --warmup=1)
file(REMOVE_RECURSE "${WORK}")
# Named .json: a --topology file must end in .json.
file(MAKE_DIRECTORY "${WORK}/folder.json")
execute_process(COMMAND mkfifo "${WORK}/fifo.json" RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "cannot make the FIFO fixture")
endif()
file(CREATE_LINK /dev/zero "${WORK}/zero.json" SYMBOLIC)

# Run a program (ARGN: it and its arguments, no spaces inside one) through expect-error.cmake:
# a clean non-zero exit within its timeout and EXPECT in the output.
function(expect_refusal expect)
  list(POP_FRONT ARGN PROGRAM)
  string(JOIN " " ARGUMENTS ${ARGN})
  set(EXPECT "${expect}")
  include(${CMAKE_CURRENT_LIST_DIR}/expect-error.cmake)
endfunction()

# Run a program that must succeed within 60 s.
function(expect_success)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err
                  TIMEOUT 120)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "failed (${rc}): ${ARGN}\n${out}${err}")
  endif()
endfunction()

if(CASE STREQUAL "inputs")
  # Every user file read: a FIFO blocks a reader, /dev/zero never ends, a folder is no file.
  foreach(bad fifo zero folder)
    set(path "${WORK}/${bad}.json")
    set(kind "a (FIFO .named pipe.|character device|directory), not a regular file")
    expect_refusal("${path}: ${kind}" ${SIM} --profile=${path} --backend=flow --workers=2)
    expect_refusal("${path}: ${kind}" ${SIM} ${quick} --topology=${path})
    expect_refusal("${path}.*(${kind}|is not a regular file)" ${SIM} --scenario=${path})
    expect_refusal("${path}.*(${kind}|is not a regular file)" ${SIM} --backend=flow
                   --topology=leafspine --jobs=${path})
    expect_refusal("${path}: ${kind}" ${RUNNER} --matrix=${path})
  endforeach()
elseif(CASE STREQUAL "outputs")
  # Every user file written: refused before the run, the special file left as it was.
  foreach(bad fifo zero folder)
    set(path "${WORK}/${bad}.json")
    set(kind "(a FIFO .named pipe.|a character device|a directory), not a regular file")
    expect_refusal("--output: cannot write '${path}': ${kind}" ${SIM} ${quick} --output=${path})
    expect_refusal("--csvRow: cannot write '${path}': ${kind}" ${SIM} ${quick} --csvRow=${path})
    expect_refusal("--recordsFile: cannot write '${path}': ${kind}" ${SIM} ${quick}
                   --recordsFile=${path})
    expect_refusal("--flowTimes: cannot write '${path}': ${kind}" ${STUDY} --flows=1
                   --size=10000 --baseline=false --flowTimes=${path})
  endforeach()
  expect_refusal("--output: cannot write '/dev/null': a character device" ${SIM} ${quick}
                 --output=/dev/null)
  if(NOT IS_DIRECTORY "${WORK}/folder.json" OR NOT IS_SYMLINK "${WORK}/zero.json")
    message(FATAL_ERROR "a special file was replaced")
  endif()
  # One file named twice (as given, through ./ and through a link): refused, nothing written.
  file(CREATE_LINK "${WORK}/r.json" "${WORK}/alias.json" SYMBOLIC)
  expect_refusal("--recordsFile: '${WORK}/./r.json' is the same file as --output" ${SIM} ${quick}
                 --output=${WORK}/r.json --recordsFile=${WORK}/./r.json)
  file(WRITE "${WORK}/r.json" "previous\n")
  expect_refusal("--recordsFile: '${WORK}/alias.json' is the same file as --output" ${SIM}
                 ${quick} --output=${WORK}/r.json --recordsFile=${WORK}/alias.json)
  file(READ "${WORK}/r.json" kept)
  if(NOT kept STREQUAL "previous\n")
    message(FATAL_ERROR "--output changed by a refused run: ${kept}")
  endif()
elseif(CASE STREQUAL "csv-quoting")
  # A model name with a comma and quotes stays one CSV field (RFC 4180).
  file(READ "${profile}" text)
  string(REPLACE "\"model\": \"two-layers-12mb\"" "\"model\": \"net,\\\"v2\\\"\"" text "${text}")
  file(WRITE "${WORK}/quoted.json" "${text}")
  expect_success(${SIM} --profile=${WORK}/quoted.json --backend=flow --workers=2 --steps=3
                 --warmup=1 --csvRow=${WORK}/rows.csv)
  file(STRINGS "${WORK}/rows.csv" rows)
  list(GET rows 1 row)
  if(NOT row MATCHES "^\"net,\"\"v2\"\"\",ps,sync,2,")
    message(FATAL_ERROR "model field not quoted: ${row}")
  endif()
elseif(CASE STREQUAL "full-disk")
  # A 64 KiB tmpfs filled to the last block, rows.csv one whole block (an appended row needs a
  # new one), flows.csv not there yet: the row and the flow times cannot be written. Before,
  # both exited 0 (the row lost, flows.csv empty); now exit 1 naming the error, rows.csv
  # unchanged, no flows.csv, no temporary file left.
  file(MAKE_DIRECTORY "${WORK}/small")
  execute_process(COMMAND mount -t tmpfs -o size=64k tmpfs "${WORK}/small" RESULT_VARIABLE rc
                  ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(STATUS "SKIP: cannot mount a small tmpfs here (${err})")
    return()
  endif()
  string(REPEAT "x" 4095 block)
  file(WRITE "${WORK}/small/rows.csv" "${block}\n")
  execute_process(COMMAND dd if=/dev/zero of=${WORK}/small/filler bs=4096 count=64
                  OUTPUT_QUIET ERROR_QUIET)
  execute_process(COMMAND ${SIM} ${quick} --csvRow=${WORK}/small/rows.csv RESULT_VARIABLE rc1
                  OUTPUT_VARIABLE out1 ERROR_VARIABLE err1 TIMEOUT 60)
  execute_process(COMMAND ${STUDY} --flows=2 --size=100000 --baseline=false
                          --flowTimes=${WORK}/small/flows.csv
                  RESULT_VARIABLE rc2 OUTPUT_VARIABLE out2 ERROR_VARIABLE err2 TIMEOUT 60)
  file(READ "${WORK}/small/rows.csv" rows)
  file(GLOB left "${WORK}/small/.*" "${WORK}/small/flows.csv")
  execute_process(COMMAND umount "${WORK}/small")
  if(NOT rc1 EQUAL 1 OR NOT err1 MATCHES "--csvRow: cannot write.*No space left on device")
    message(FATAL_ERROR "--csvRow on a full disk: exit ${rc1}\n${out1}${err1}")
  endif()
  if(NOT rc2 EQUAL 1 OR NOT err2 MATCHES "--flowTimes: cannot write.*No space left on device")
    message(FATAL_ERROR "--flowTimes on a full disk: exit ${rc2}\n${out2}${err2}")
  endif()
  if(NOT rows STREQUAL "${block}\n" OR left)
    message(FATAL_ERROR "rows.csv changed or files left: ${left}")
  endif()
elseif(CASE STREQUAL "runner-resume")
  # A finished matrix whose results are then replaced by a FIFO, a folder and a key linked to
  # /dev/zero: --resume neither hangs nor crashes nor reuses them; the FIFO's and the folder's
  # jobs are run again, the key's job is refused naming the key.
  set(out "${WORK}/runner")
  set(matrix "${SRC}/test/data/validation-matrix-two.json")
  expect_success(${RUNNER} --matrix=${matrix} --out=${out} --jobs=2)
  set(jobs "${out}/jobs")
  file(REMOVE "${jobs}/two-layers-sync-k1-packet.json" "${jobs}/two-layers-sync-k2-packet.json")
  execute_process(COMMAND mkfifo "${jobs}/two-layers-sync-k1-packet.json")
  file(MAKE_DIRECTORY "${jobs}/two-layers-sync-k2-packet.json")
  file(REMOVE "${jobs}/two-layers-sync-k1-analytic.json.key")
  file(CREATE_LINK /dev/zero "${jobs}/two-layers-sync-k1-analytic.json.key" SYMBOLIC)
  expect_refusal("two-layers-sync-k1-analytic.*key': a character device" ${RUNNER}
                 --matrix=${matrix} --out=${out} --jobs=2 --resume)
  foreach(job k1-packet k2-packet)
    if(IS_DIRECTORY "${jobs}/two-layers-sync-${job}.json")
      message(FATAL_ERROR "${job}: the folder was kept as a result")
    endif()
    file(READ "${jobs}/two-layers-sync-${job}.json" result LIMIT 200)
    if(NOT result MATCHES "\"scenario\"")
      message(FATAL_ERROR "${job}: not run again: ${result}")
    endif()
  endforeach()
else()
  message(FATAL_ERROR "unknown CASE ${CASE}")
endif()
