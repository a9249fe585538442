// io per world: a program that reads only Moving AI maps. It is linked with waymark::io_grid
// alone (tests/CMakeLists.txt), whose link closure is checked there to hold no steering,
// graph, puzzle, navmesh or visibility library; the install_consumer test links the same
// program from the installed package with -lwaymark_io_grid -lwaymark_grid -lwaymark_core only.
#include <cstdio>

#include "waymark/io/movingai.hpp"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: movingai_only MAP\n");
    return 2;
  }
  const waymark::grid::GridMap map = waymark::io::load_movingai_map(argv[1]);
  std::printf("%dx%d\n", map.width(), map.height());
  return map.width() > 0 && map.height() > 0 ? 0 : 1;
}
