# ctest helper: the validation runner's engines give byte-identical results.csv.
#   cmake -DRUNNER=validation-runner -DMATRIX=m.json -DOUT=dir -P this.cmake
# 1. --engine=local; 2. --engine=parallel with --sshloginfile holding ':' (this machine) when
# GNU parallel is installed; 3. --engine=slurm: the array script's tasks are run by hand with
# SLURM_ARRAY_TASK_ID set, first only half of them; the merge step must then fail naming the
# missing jobs, --resume must write an array of the missing ones only, and after those the merge
# step succeeds. Every results.csv must equal the local one byte for byte.
file(REMOVE_RECURSE "${OUT}")
file(MAKE_DIRECTORY "${OUT}")
function(run_runner dir)
  execute_process(COMMAND ${RUNNER} --matrix=${MATRIX} --out=${OUT}/${dir} --jobs=2 ${ARGN}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 300)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "validation-runner ${ARGN} exited ${rc}:\n${out}${err}")
  endif()
  set(last_output "${out}" PARENT_SCOPE)
endfunction()
function(same_as_local dir)
  execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${OUT}/local/results.csv
                          ${OUT}/${dir}/results.csv RESULT_VARIABLE differ)
  if(NOT differ EQUAL 0)
    file(READ ${OUT}/local/results.csv a)
    file(READ ${OUT}/${dir}/results.csv b)
    message(FATAL_ERROR "${dir}/results.csv differs from local:\n${a}\n---\n${b}")
  endif()
endfunction()
function(run_tasks dir first last)
  foreach(i RANGE ${first} ${last})
    execute_process(COMMAND ${CMAKE_COMMAND} -E env SLURM_ARRAY_TASK_ID=${i}
                            sh ${OUT}/${dir}/jobs/slurm-array.sh
                    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 120)
    if(NOT rc EQUAL 0)
      message(FATAL_ERROR "slurm task ${i} exited ${rc}:\n${out}${err}")
    endif()
  endforeach()
endfunction()

run_runner(local)

find_program(PARALLEL parallel)
if(PARALLEL)
  file(WRITE ${OUT}/sshloginfile ":\n")
  run_runner(parallel --engine=parallel --sshloginfile=${OUT}/sshloginfile)
  same_as_local(parallel)
else()
  message(STATUS "GNU parallel not installed: --engine=parallel not tested")
endif()

run_runner(slurm --engine=slurm)
file(STRINGS ${OUT}/slurm/jobs/slurm-array.sh array REGEX "^#SBATCH --array=0-19%2$")
if(NOT array OR EXISTS ${OUT}/slurm/results.csv)
  message(FATAL_ERROR "expected a 20-task array and no results yet:\n${last_output}")
endif()
run_tasks(slurm 0 9)
execute_process(COMMAND sh ${OUT}/slurm/jobs/slurm-merge.sh RESULT_VARIABLE rc
                OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 120)
if(rc EQUAL 0 OR NOT err MATCHES "error: 10 job\\(s\\) failed" OR NOT err MATCHES "\\(not run\\)")
  message(FATAL_ERROR "merge after a partial array must fail naming 10 jobs (exit ${rc}):\n"
                      "${out}${err}")
endif()
run_runner(slurm --engine=slurm --resume)
file(STRINGS ${OUT}/slurm/jobs/slurm-array.sh array REGEX "^#SBATCH --array=0-9%2$")
if(NOT array OR NOT last_output MATCHES "reusing 10 of 20 results")
  message(FATAL_ERROR "--resume after a partial array: expected 10 new tasks:\n${last_output}")
endif()
run_tasks(slurm 0 9)
execute_process(COMMAND sh ${OUT}/slurm/jobs/slurm-merge.sh RESULT_VARIABLE rc
                OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 120)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "merge step exited ${rc}:\n${out}${err}")
endif()
same_as_local(slurm)
message(STATUS "local, parallel and slurm results.csv are identical")
