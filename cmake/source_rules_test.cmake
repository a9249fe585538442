# CTest script: rules of the source tree that a compiler cannot check.
#   cmake -DSOURCE_DIR=... -P cmake/source_rules_test.cmake
#
# Numbers in messages (docs/robustness.md, "Numbers in messages"): the library, the CLI and the
# server write every number shown to people with waymark::number_text (core/text.hpp), never
# with std::to_string (six fixed decimals for a double: "8.000000", "0.000000" for 1e-9) or an
# output string stream (six significant digits by default). Each use is reported as file:line.
set(SCRIPT_NAME source_rules)
include(${CMAKE_CURRENT_LIST_DIR}/script_support.cmake)
require_inputs(SOURCE_DIR)

file(GLOB_RECURSE sources RELATIVE ${SOURCE_DIR}
     ${SOURCE_DIR}/src/*.cpp ${SOURCE_DIR}/src/*.hpp ${SOURCE_DIR}/apps/*.cpp ${SOURCE_DIR}/apps/*.hpp
     ${SOURCE_DIR}/include/*.hpp ${SOURCE_DIR}/include/*.h)
set(found "")
foreach(file IN LISTS sources)
  # One list element a line: the text's own ';' and brackets (which a CMake list would treat
  # as separators or groupings) made harmless first.
  file(READ ${SOURCE_DIR}/${file} text)
  string(REPLACE ";" "," text "${text}")
  string(REPLACE "[" "(" text "${text}")
  string(REPLACE "]" ")" text "${text}")
  string(REPLACE "\\" "/" text "${text}")
  string(REPLACE "\n" ";" lines "${text}")
  set(n 0)
  foreach(line IN LISTS lines)
    math(EXPR n "${n} + 1")
    if(line MATCHES "std::to_string\\(|std::ostringstream")
      string(STRIP "${line}" shown)
      string(APPEND found "  ${file}:${n}: ${shown}\n")
    endif()
  endforeach()
endforeach()
list(LENGTH sources count)
if(found)
  message(FATAL_ERROR "source_rules: numbers in messages go through waymark::number_text "
                      "(core/text.hpp), not std::to_string or an output string stream:\n${found}")
endif()
message(STATUS "source_rules: ${count} files, no std::to_string or output string stream")
