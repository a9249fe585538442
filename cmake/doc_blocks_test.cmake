# CTest doc_blocks (cmake -P): every ```cpp block of README.md and docs/*.md, compiled against
# the INSTALLED package and, when it is a whole program, run. So no example on a page can rot.
#
#  1. installs BUILD_DIR into WORK_DIR/prefix (as install_consumer does);
#  2. reads the pages and sorts their ```cpp blocks (the fence's info string says which):
#     - ```cpp with `int main` in it: a program. Compiled, linked and run from the repository's
#       root (so data/maps/arena.map and the other bundled files are found), it must exit 0.
#       `cpp args: A B` passes A B to it (e.g. ```cpp args: data/maps/arena.map.scen).
#     - ```cpp without main: a fragment that must compile as it stands: the page's #includes
#       up to it (its own first) and the page's file-scope blocks so far at file scope, its
#       other lines as the body of a function.
#     - ```cpp file-scope: declarations (types, templates, std::hash specialisations) that a
#       function body cannot hold. Compiled at file scope after the page's #includes and
#       file-scope blocks so far; the page's later fragments and file-scope blocks see them too
#       (programs do not: a program stands alone). It must not define main.
#     Every ```cpp block is compiled: any other info string (```cpp fragment, which once meant
#     "not compiled", among them) is refused with the page and line.
#  3. writes one CMake project with one executable per block (each source starts with
#     #line N "docs/page.md", so a compiler message names the page and its line), configures it
#     once with find_package(waymark COMPONENTS recast render) and builds it with JOBS jobs,
#     going on past a block that fails;
#  4. runs the programs and fails naming page:line of every block that did not compile or run.
# Inputs (-D): SOURCE_DIR BUILD_DIR WORK_DIR CONFIG GENERATOR CXX JOBS RENDER RECAST.
cmake_minimum_required(VERSION 3.21)

set(SCRIPT_NAME doc_blocks)
include(${CMAKE_CURRENT_LIST_DIR}/script_support.cmake)
require_inputs(SOURCE_DIR BUILD_DIR WORK_DIR CXX GENERATOR)
if(NOT CONFIG)
  set(CONFIG Release)
endif()
if(NOT JOBS)
  set(JOBS 2)
endif()
set(prefix ${WORK_DIR}/prefix)
set(project_dir ${WORK_DIR}/blocks)
set(project_build ${WORK_DIR}/blocks-build)
# The scratch prefix is made again each run; the blocks' build tree is kept, so a run after a
# change recompiles only what changed (the sources are rewritten only when they differ).
file(REMOVE_RECURSE ${prefix})
file(MAKE_DIRECTORY ${project_dir})

# 1. Install.
run("install" COMMAND ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix} --config ${CONFIG})

# 2. The blocks. Pages in a fixed order: the README, then docs/ by name.
file(GLOB pages RELATIVE ${SOURCE_DIR} ${SOURCE_DIR}/docs/*.md)
list(SORT pages)
list(PREPEND pages README.md)

set(count 0)          # blocks compiled (programs, fragments and file-scope blocks)
set(programs "")      # block numbers that are programs
set(scope_count 0)    # of them, file-scope blocks
set(targets_text "")  # the generated CMakeLists.txt's per-block part

# Writes `content` to `file` unless it holds exactly that already (keeps the build incremental).
function(write_if_changed file content)
  if(EXISTS ${file})
    file(READ ${file} old)
    if(old STREQUAL content)
      return()
    endif()
  endif()
  file(WRITE ${file} "${content}")
endfunction()

foreach(page IN LISTS pages)
  file(READ ${SOURCE_DIR}/${page} text)
  set(line_no 0)
  set(in_fence FALSE)  # inside any fenced block
  set(kind "")         # of the current block: "cpp" (program or fragment), "scope" (file-scope), or "" (not C++)
  set(page_includes "")
  set(page_scope "")   # the page's file-scope blocks so far, each after its #line
  while(NOT text STREQUAL "")
    string(FIND "${text}" "\n" nl)
    if(nl EQUAL -1)
      set(line "${text}")
      set(text "")
    else()
      string(SUBSTRING "${text}" 0 ${nl} line)
      math(EXPR nl "${nl} + 1")
      string(SUBSTRING "${text}" ${nl} -1 text)
    endif()
    math(EXPR line_no "${line_no} + 1")
    if(NOT in_fence)
      if(line MATCHES "^```")
        set(in_fence TRUE)
        set(kind "")
        if(line MATCHES "^```cpp([ \t]+args:(.*)|[ \t]+file-scope)?[ \t]*$")
          set(block_args "${CMAKE_MATCH_2}")
          string(STRIP "${block_args}" block_args)
          set(kind cpp)
          if(line MATCHES "^```cpp[ \t]+file-scope")
            set(kind scope)
          endif()
          math(EXPR first_line "${line_no} + 1")
          set(body "")
          set(own_includes "")
        elseif(line MATCHES "^```(cpp|c\\+\\+|C\\+\\+|cxx)")
          message(FATAL_ERROR "doc_blocks: ${page}:${line_no}: unknown fence '${line}' "
                  "(```cpp, ```cpp args: ARGS or ```cpp file-scope; every C++ block is compiled, docs/build.md)")
        endif()
      endif()
      continue()
    endif()
    if(NOT line MATCHES "^```[ \t]*$")
      if(NOT kind STREQUAL "")
        string(APPEND body "${line}\n")
        if(line MATCHES "^[ \t]*#[ \t]*include")
          string(APPEND own_includes "${line}\n")
        endif()
      endif()
      continue()
    endif()
    # The closing fence.
    set(in_fence FALSE)
    if(kind STREQUAL "")
      continue()
    endif()
    math(EXPR count "${count} + 1")
    set(name block_${count})
    set(where "${page}:${first_line}")
    set(location "#line ${first_line} \"${page}\"\n")
    set(has_main FALSE)
    if(body MATCHES "(^|\n)[ \t]*(int|auto)[ \t]+main[ \t]*\\(")
      set(has_main TRUE)
    endif()
    # The block without its #include lines (they go first, at file scope), lines kept.
    string(REGEX REPLACE "(^|\n)[ \t]*#[ \t]*include[^\n]*" "\\1" statements "${body}")
    if(kind STREQUAL "scope")
      if(has_main)
        message(FATAL_ERROR "doc_blocks: ${where}: a ```cpp file-scope block must not define main "
                "(a whole program is a plain ```cpp block)")
      endif()
      # Declarations: at file scope after the page's earlier ones, and kept for its later blocks.
      string(CONCAT source "// ${where} (file scope)\n${own_includes}${page_includes}${page_scope}"
             "${location}${statements}int main() {}\n")
      string(APPEND page_scope "${location}${statements}")
      math(EXPR scope_count "${scope_count} + 1")
      set(block_${count}_kind "file-scope block")
      set(extra_options "-Wno-unused")
    elseif(has_main)
      set(source "// ${where}\n${location}${body}")
      list(APPEND programs ${count})
      set(block_${count}_args "${block_args}")
      set(extra_options "")
    else()
      # A fragment: the includes and the page's file-scope blocks at file scope, everything
      # else in a function.
      string(CONCAT source "// ${where} (a fragment)\n${own_includes}${page_includes}${page_scope}"
             "[[maybe_unused]] static void doc_fragment() {\n${location}${statements}}\nint main() {}\n")
      set(block_${count}_kind "fragment")
      set(extra_options "-Wno-unused")
    endif()
    string(APPEND page_includes "${own_includes}")
    set(block_${count}_where "${where}")
    write_if_changed(${project_dir}/${name}.cpp "${source}")
    string(APPEND targets_text "waymark_doc_block(${name} \"${extra_options}\")\n")
  endwhile()
  if(in_fence)
    message(FATAL_ERROR "doc_blocks: ${page}: a fenced block is not closed")
  endif()
endforeach()

# 3. One project, one executable per block, against the installed package.
set(components "")
set(libraries "waymark::waymark")
if(RECAST)
  list(APPEND components recast)
  list(APPEND libraries waymark::recast)
endif()
if(RENDER)
  list(APPEND components render)
  list(APPEND libraries waymark::render)
endif()
list(JOIN libraries " " libraries)
if(components)
  list(JOIN components " " components)
  set(components "COMPONENTS ${components}")
endif()
write_if_changed(${project_dir}/CMakeLists.txt "cmake_minimum_required(VERSION 3.21)
project(waymark_doc_blocks LANGUAGES CXX)
find_package(waymark REQUIRED ${components})
# -O1: compiles fast and runs the examples' searches fast enough; the house's warnings.
function(waymark_doc_block name extra)
  add_executable(\${name} \${name}.cpp)
  target_link_libraries(\${name} PRIVATE ${libraries})
  target_compile_features(\${name} PRIVATE cxx_std_20)
  target_compile_options(\${name} PRIVATE -O1 -Wall -Wextra -Wpedantic -Wshadow -Wconversion -Werror \${extra})
endfunction()
${targets_text}")

run("configure the blocks against the package"
    COMMAND ${CMAKE_COMMAND} -S ${project_dir} -B ${project_build} -G ${GENERATOR} -DCMAKE_CXX_COMPILER=${CXX}
            -DCMAKE_BUILD_TYPE=${CONFIG} -DCMAKE_PREFIX_PATH=${prefix})
# Go on past a failing block, so one run names them all.
set(keep_going "")
if(GENERATOR MATCHES "Ninja")
  set(keep_going -- -k 0)
elseif(GENERATOR MATCHES "Makefiles")
  set(keep_going -- -k)
endif()
# Every block's executable is linked afresh (its object is rebuilt only when it changed), so an
# executable left by an earlier run can never stand for a block that no longer compiles, even
# when what broke it is an installed header rather than the block.
file(GLOB old_executables LIST_DIRECTORIES false ${project_build}/block_* ${project_build}/${CONFIG}/block_*)
if(old_executables)
  file(REMOVE ${old_executables})
endif()
run("build the blocks" COMMAND ${CMAKE_COMMAND} --build ${project_build} --config ${CONFIG} -j ${JOBS} ${keep_going}
    RESULT build_rc OUTPUT build_out)

# 4. Which built, and run the programs from the repository's root.
set(failures "")
set(report "")
foreach(i RANGE 1 ${count})
  if(count EQUAL 0)
    break()
  endif()
  set(exe ${project_build}/block_${i})
  if(NOT EXISTS ${exe})
    set(exe ${project_build}/${CONFIG}/block_${i})
  endif()
  set(where "${block_${i}_where}")
  if(NOT EXISTS ${exe})
    string(APPEND failures "\n  ${where}: the block does not compile (compiler messages above name the page's lines)")
    continue()
  endif()
  if(NOT i IN_LIST programs)
    string(APPEND report "\n  ${where}: ${block_${i}_kind}, compiles")
    continue()
  endif()
  separate_arguments(args UNIX_COMMAND "${block_${i}_args}")
  execute_process(COMMAND ${exe} ${args} WORKING_DIRECTORY ${SOURCE_DIR} TIMEOUT 120
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    string(APPEND failures "\n  ${where}: the program exited with '${rc}' (run from ${SOURCE_DIR} with args '${block_${i}_args}'):\n${out}${err}")
  else()
    string(REGEX REPLACE "\n$" "" out "${out}")
    string(REGEX REPLACE "\n" "\n      " out "${out}")
    string(APPEND report "\n  ${where}: program, ran (exit 0)\n      ${out}")
  endif()
endforeach()

if(NOT build_rc EQUAL 0 AND failures STREQUAL "")
  string(APPEND failures "\n  the build failed:\n${build_out}")
endif()
if(NOT failures STREQUAL "")
  if(NOT build_rc EQUAL 0)
    message("${build_out}")
  endif()
  message(FATAL_ERROR "doc_blocks: ${report}\nfailed:${failures}")
endif()
list(LENGTH programs program_count)
message(STATUS "doc_blocks: ${count} blocks compiled against the installed package, ${program_count} of them "
        "programs run, ${scope_count} file-scope:${report}")
