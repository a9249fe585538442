# CTest install_consumer (cmake -P): waymark as a user gets it from `cmake --install`.
#  1. installs BUILD_DIR into WORK_DIR/prefix;
#  2. checks the installed files: headers without src/ internals, the package config, version
#     file and targets, waymark.pc, the CLI when built; no CLI11, nlohmann or cairo outside the
#     render component (in the CMake files and in the headers);
#  3. builds examples/quickstart/CMakeLists.txt against the prefix with find_package(waymark),
#     CLI11, nlohmann_json and PkgConfig made unfindable, and runs it on data/maps/arena.map;
#  4. with render: find_package(waymark REQUIRED COMPONENTS render) and a program linking
#     waymark::render (so cairo comes through the config file);
#  5. compiles quickstart.cpp with `pkg-config --cflags --libs waymark` and runs it; with
#     recast (render), compiles and runs a program with `pkg-config ... waymark-recast`
#     (`waymark-render`);
#  6. links a program reading a .map with -lwaymark_io_grid -lwaymark_grid -lwaymark_core only.
# Inputs (-D): SOURCE_DIR BUILD_DIR WORK_DIR CONFIG GENERATOR CXX PKG_CONFIG VERSION RENDER
# RECAST APPS.
cmake_minimum_required(VERSION 3.21)

set(SCRIPT_NAME install_consumer)
include(${CMAKE_CURRENT_LIST_DIR}/script_support.cmake)
require_inputs(SOURCE_DIR BUILD_DIR WORK_DIR CXX VERSION)
if(NOT CONFIG)
  set(CONFIG Release)
endif()

set(prefix ${WORK_DIR}/prefix)
set(map ${SOURCE_DIR}/data/maps/arena.map)
file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR})

function(fail)
  string(JOIN "" text ${ARGN})
  message(FATAL_ERROR "install_consumer: ${text}")
endfunction()

# 1. Install.
run("install" COMMAND ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix} --config ${CONFIG})

# 2. Installed files.
file(GLOB config_file ${prefix}/lib*/cmake/waymark/waymarkConfig.cmake)
if(NOT config_file)
  fail("no lib*/cmake/waymark/waymarkConfig.cmake under ${prefix}")
endif()
get_filename_component(cmake_dir ${config_file} DIRECTORY)
get_filename_component(libdir ${cmake_dir}/../.. ABSOLUTE)
foreach(f waymarkConfigVersion.cmake waymarkTargets.cmake)
  if(NOT EXISTS ${cmake_dir}/${f})
    fail("${cmake_dir}/${f} not installed")
  endif()
endforeach()
set(installed_libs pkgconfig/waymark.pc libwaymark_core.a libwaymark_scenario.a)
if(RECAST)
  list(APPEND installed_libs pkgconfig/waymark-recast.pc libwaymark_recast.a)
endif()
if(RENDER)
  list(APPEND installed_libs pkgconfig/waymark-render.pc libwaymark_render.a)
endif()
foreach(f IN LISTS installed_libs)
  if(NOT EXISTS ${libdir}/${f})
    fail("${libdir}/${f} not installed")
  endif()
endforeach()
if(APPS AND NOT EXISTS ${prefix}/bin/waymark)
  fail("the CLI was built but ${prefix}/bin/waymark is not installed")
endif()
set(render_targets ${cmake_dir}/waymark-render-targets.cmake)
if(RENDER AND NOT EXISTS ${render_targets})
  fail("render was built but ${render_targets} is not installed")
endif()

# A plain find_package(waymark) reads every file here but the render component's.
file(GLOB cmake_files ${cmake_dir}/*.cmake)
foreach(f IN LISTS cmake_files)
  get_filename_component(name ${f} NAME)
  if(name MATCHES "^waymark-render-")
    continue()
  endif()
  file(STRINGS ${f} hits REGEX "[Cc][Ll][Ii]11|[Nn][Ll][Oo][Hh][Mm][Aa][Nn][Nn]|[Cc][Aa][Ii][Rr][Oo]")
  if(hits)
    list(JOIN hits "\n  " hits)
    fail("${name} mentions a dependency a library-only consumer must not need:\n  ${hits}")
  endif()
endforeach()

# Headers: no src/ internals, every quoted include resolvable inside the prefix, no
# third-party headers outside include/waymark/render.
file(GLOB_RECURSE headers RELATIVE ${prefix}/include ${prefix}/include/*)
if(NOT "waymark/grid/grid_map.hpp" IN_LIST headers)
  fail("headers not installed under ${prefix}/include/waymark")
endif()
foreach(h IN LISTS headers)
  if(NOT EXISTS ${SOURCE_DIR}/include/${h})
    fail("${prefix}/include/${h}: not a public header from include/ (src/ internals stay uninstalled)")
  endif()
  get_filename_component(dir ${prefix}/include/${h} DIRECTORY)
  file(STRINGS ${prefix}/include/${h} includes REGEX "^[ \t]*#[ \t]*include")
  foreach(line IN LISTS includes)
    if(line MATCHES "\"([^\"]+)\"")
      set(inc ${CMAKE_MATCH_1})
      if(NOT EXISTS ${prefix}/include/${inc} AND NOT EXISTS ${dir}/${inc})
        fail("${h} includes \"${inc}\", which is not installed")
      endif()
    elseif(line MATCHES "<(CLI|nlohmann|cairo)" AND NOT h MATCHES "^waymark/render/")
      fail("${h}: ${line} (third-party header outside the render component)")
    endif()
  endforeach()
endforeach()

# 3. find_package(waymark) consumer: the quickstart example as it stands in the source tree.
# CLI11, nlohmann_json and PkgConfig are made unfindable: the config must not look for them.
set(consumer_build ${WORK_DIR}/quickstart-build)
set(same_toolchain -G ${GENERATOR} -DCMAKE_CXX_COMPILER=${CXX} -DCMAKE_BUILD_TYPE=${CONFIG}
    -DCMAKE_PREFIX_PATH=${prefix})
run("configure the quickstart against the package"
    COMMAND ${CMAKE_COMMAND} -S ${SOURCE_DIR}/examples/quickstart -B ${consumer_build} ${same_toolchain}
            -DCMAKE_DISABLE_FIND_PACKAGE_CLI11=ON -DCMAKE_DISABLE_FIND_PACKAGE_nlohmann_json=ON
            -DCMAKE_DISABLE_FIND_PACKAGE_PkgConfig=ON -Dwaymark_DIR=${cmake_dir})
run("build the quickstart" COMMAND ${CMAKE_COMMAND} --build ${consumer_build} --config ${CONFIG})
# Single-config generators put it in the build directory, multi-config ones in a subdirectory.
set(quickstart ${consumer_build}/quickstart)
if(NOT EXISTS ${quickstart})
  set(quickstart ${consumer_build}/${CONFIG}/quickstart)
endif()
run("run the quickstart (find_package build)" COMMAND ${quickstart} ${map} OUTPUT out)
message(STATUS "  ${out}")

# 4. The render component brings cairo along through the config file.
if(RENDER)
  set(render_src ${WORK_DIR}/render-consumer)
  file(MAKE_DIRECTORY ${render_src})
  file(WRITE ${render_src}/CMakeLists.txt [=[
cmake_minimum_required(VERSION 3.21)
project(waymark_render_consumer LANGUAGES CXX)
find_package(waymark REQUIRED COMPONENTS render)
add_executable(render_consumer main.cpp)
target_link_libraries(render_consumer PRIVATE waymark::waymark waymark::render)
]=])
  file(WRITE ${render_src}/main.cpp [=[
#include <cstdio>
#include <vector>
#include "waymark/io/movingai.hpp"
#include "waymark/render/grid_png.hpp"
int main(int argc, char** argv) {
  if (argc != 3) return 2;
  const waymark::grid::GridMap map = waymark::io::load_movingai_map(argv[1]);
  const std::vector<waymark::CellId> none;
  return waymark::render::write_grid_png(map, none, none, argv[2]) ? 0 : 1;
}
]=])
  run("configure a render consumer" COMMAND ${CMAKE_COMMAND} -S ${render_src} -B ${render_src}/build ${same_toolchain})
  run("build the render consumer" COMMAND ${CMAKE_COMMAND} --build ${render_src}/build --config ${CONFIG})
  set(render_consumer ${render_src}/build/render_consumer)
  if(NOT EXISTS ${render_consumer})
    set(render_consumer ${render_src}/build/${CONFIG}/render_consumer)
  endif()
  run("run the render consumer" COMMAND ${render_consumer} ${map} ${WORK_DIR}/arena.png)
  if(NOT EXISTS ${WORK_DIR}/arena.png)
    fail("the render consumer wrote no ${WORK_DIR}/arena.png")
  endif()
endif()

# 5. pkg-config consumer.
if(NOT PKG_CONFIG)
  fail("pkg-config not found (scripts/setup.sh installs it)")
endif()
set(ENV{PKG_CONFIG_PATH} ${libdir}/pkgconfig)
run("pkg-config version" COMMAND ${PKG_CONFIG} --modversion waymark OUTPUT pc_version)
string(STRIP "${pc_version}" pc_version)
if(NOT pc_version STREQUAL VERSION)
  fail("pkg-config --modversion waymark says '${pc_version}', the project is ${VERSION}")
endif()
run("pkg-config flags" COMMAND ${PKG_CONFIG} --cflags --libs waymark OUTPUT pc_flags)
string(STRIP "${pc_flags}" pc_flags)
separate_arguments(pc_flags UNIX_COMMAND "${pc_flags}")
run("pkg-config C++ standard" COMMAND ${PKG_CONFIG} --variable=cxx_std waymark OUTPUT pc_std)
string(STRIP "${pc_std}" pc_std)
set(pc_program ${WORK_DIR}/quickstart-pkg-config)
run("compile the quickstart with pkg-config"
    COMMAND ${CXX} -std=${pc_std} -O2 ${SOURCE_DIR}/examples/quickstart/quickstart.cpp -o ${pc_program} ${pc_flags})
run("run the quickstart (pkg-config build)" COMMAND ${pc_program} ${map} OUTPUT out)
message(STATUS "  ${out}")

# The components' .pc files: each program built with its component's flags alone.
function(pkg_config_program component source program)
  run("pkg-config version of waymark-${component}" COMMAND ${PKG_CONFIG} --modversion waymark-${component} OUTPUT v)
  string(STRIP "${v}" v)
  if(NOT v STREQUAL VERSION)
    fail("pkg-config --modversion waymark-${component} says '${v}', the project is ${VERSION}")
  endif()
  run("pkg-config flags of waymark-${component}" COMMAND ${PKG_CONFIG} --cflags --libs waymark-${component} OUTPUT flags)
  string(STRIP "${flags}" flags)
  separate_arguments(flags UNIX_COMMAND "${flags}")
  run("compile a waymark-${component} program with pkg-config"
      COMMAND ${CXX} -std=${pc_std} -O1 ${source} -o ${program} ${flags})
endfunction()
if(RECAST)
  set(recast_src ${WORK_DIR}/recast-consumer.cpp)
  file(WRITE ${recast_src} [=[
#include <cstdio>
#include "waymark/io/obj.hpp"
#include "waymark/recast/recast_build.hpp"
int main(int argc, char** argv) {
  if (argc != 2) return 2;
  const waymark::navmesh::NavMesh mesh = waymark::recast::build_nav_mesh(waymark::io::load_obj(argv[1]));
  std::printf("%zu polygons\n", mesh.poly_count());
  return mesh.poly_count() > 0 ? 0 : 1;
}
]=])
  pkg_config_program(recast ${recast_src} ${WORK_DIR}/recast-pkg-config)
  run("run the recast program (pkg-config build)"
      COMMAND ${WORK_DIR}/recast-pkg-config ${SOURCE_DIR}/data/meshes/nav_test.obj OUTPUT out)
  message(STATUS "  ${out}")
endif()
if(RENDER)
  pkg_config_program(render ${render_src}/main.cpp ${WORK_DIR}/render-pkg-config)
  run("run the render program (pkg-config build)" COMMAND ${WORK_DIR}/render-pkg-config ${map} ${WORK_DIR}/arena-pc.png)
  if(NOT EXISTS ${WORK_DIR}/arena-pc.png)
    fail("the render program built with pkg-config wrote no ${WORK_DIR}/arena-pc.png")
  endif()
endif()
# 6. io per world: a program reading only Moving AI maps links io_grid, grid and core from the
# package, and no library of another world (steer, graph, puzzle, navmesh, visibility).
foreach(lib waymark_io_grid waymark_io_path_query waymark_io_graph waymark_io_puzzle waymark_io_visibility waymark_io_steer waymark_io_navmesh
            waymark_io_core)
  if(NOT EXISTS ${libdir}/lib${lib}.a)
    fail("${libdir}/lib${lib}.a not installed")
  endif()
endforeach()
set(sanitizers "")  # a sanitizer build's libraries need its runtimes (waymark.pc names them)
foreach(flag IN LISTS pc_flags)
  if(flag MATCHES "^-fsanitize")
    list(APPEND sanitizers ${flag})
  endif()
endforeach()
set(map_only ${WORK_DIR}/movingai-only)
run("compile a .map reader with io_grid, grid and core only"
    COMMAND ${CXX} -std=${pc_std} -O2 -I${prefix}/include ${SOURCE_DIR}/tests/io/movingai_only.cpp -o ${map_only}
            -L${libdir} -lwaymark_io_grid -lwaymark_grid -lwaymark_core -pthread ${sanitizers})
run("run the .map reader" COMMAND ${map_only} ${map} OUTPUT out)
message(STATUS "  ${out}")
message(STATUS "install_consumer: all checks passed")
