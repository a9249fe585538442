# What the CTest scripts run with cmake -P share (install_consumer_test.cmake,
# doc_blocks_test.cmake). Set SCRIPT_NAME first: it names the test in every message.

# Stops with a message naming each -D input among ARGN that was not given.
function(require_inputs)
  foreach(var ${ARGN})
    if(NOT ${var})
      message(FATAL_ERROR "${SCRIPT_NAME}: -D${var}=... missing")
    endif()
  endforeach()
endfunction()

# Runs a command in WORKING_DIRECTORY (default WORK_DIR) and echoes it. Without RESULT it
# fails the test with the command's output when it exits non-zero, and OUTPUT gets its standard
# output; with RESULT it never fails: RESULT gets the exit code and OUTPUT both streams.
function(run what)
  cmake_parse_arguments(R "" "WORKING_DIRECTORY;OUTPUT;RESULT" "COMMAND" ${ARGN})
  list(JOIN R_COMMAND " " shown)
  message(STATUS "${what}: ${shown}")
  if(NOT R_WORKING_DIRECTORY)
    set(R_WORKING_DIRECTORY ${WORK_DIR})
  endif()
  execute_process(COMMAND ${R_COMMAND} WORKING_DIRECTORY ${R_WORKING_DIRECTORY}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(R_RESULT)
    set(${R_RESULT} ${rc} PARENT_SCOPE)
    if(R_OUTPUT)
      set(${R_OUTPUT} "${out}${err}" PARENT_SCOPE)
    endif()
    return()
  endif()
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${SCRIPT_NAME}: ${what} failed (exit ${rc}):\n${shown}\n${out}${err}")
  endif()
  if(R_OUTPUT)
    set(${R_OUTPUT} "${out}" PARENT_SCOPE)
  endif()
endfunction()
