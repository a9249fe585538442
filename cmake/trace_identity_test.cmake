# Determinism across builds: the same scene gives the same --trace byte for byte, and the same
# final state to the last bit (--json's state_hash), from two CLIs built at different
# optimisation levels and by different compilers (the release tree: GCC -O2; the ASan tree:
# clang -O1 with sanitizers). Registered in the ASan tree, with REFERENCE the
# release tree's CLI (make test builds it first). Inputs: -DREFERENCE=, -DCLI=, -DSCENES=a;b,
# -DWORK_DIR=.
set(SCRIPT_NAME trace_identity)
include(${CMAKE_CURRENT_LIST_DIR}/script_support.cmake)
require_inputs(REFERENCE CLI SCENES WORK_DIR)
if(NOT EXISTS ${REFERENCE})
  message(FATAL_ERROR "${SCRIPT_NAME}: the reference CLI ${REFERENCE} is not built (make test builds the release tree first)")
endif()
file(MAKE_DIRECTORY ${WORK_DIR})
foreach(scene ${SCENES})
  get_filename_component(stem ${scene} NAME_WE)
  # Exit 0 (all arrived) or 1 (not all): the trace is compared either way; 2 is an error.
  foreach(side reference cli)
    if(side STREQUAL reference)
      set(program ${REFERENCE})
    else()
      set(program ${CLI})
    endif()
    run("${stem} (${side})" COMMAND ${program} simulate --scene ${scene} --json --trace ${WORK_DIR}/${stem}.${side}.jsonl
        RESULT rc OUTPUT out)
    if(NOT rc EQUAL 0 AND NOT rc EQUAL 1)
      message(FATAL_ERROR "${SCRIPT_NAME}: ${program} simulate ${scene} failed (exit ${rc}):\n${out}")
    endif()
    if(NOT out MATCHES "\"state_hash\":\"([0-9a-f]+)\"")
      message(FATAL_ERROR "${SCRIPT_NAME}: no state_hash in the summary of ${program} simulate ${scene}:\n${out}")
    endif()
    set(hash_${side} ${CMAKE_MATCH_1})
  endforeach()
  if(NOT hash_reference STREQUAL hash_cli)
    message(FATAL_ERROR "${SCRIPT_NAME}: ${scene}: the final states differ between builds "
                        "(state_hash ${hash_reference} from ${REFERENCE}, ${hash_cli} from ${CLI})")
  endif()
  file(SHA256 ${WORK_DIR}/${stem}.reference.jsonl a)
  file(SHA256 ${WORK_DIR}/${stem}.cli.jsonl b)
  if(NOT a STREQUAL b)
    message(FATAL_ERROR "${SCRIPT_NAME}: ${scene}: the traces differ between ${REFERENCE} and ${CLI} "
                        "(${WORK_DIR}/${stem}.reference.jsonl, ${WORK_DIR}/${stem}.cli.jsonl)")
  endif()
  file(STRINGS ${WORK_DIR}/${stem}.cli.jsonl lines)
  list(LENGTH lines n)
  message(STATUS "${stem}: ${n} trace lines identical, final state ${hash_cli} in both")
endforeach()
