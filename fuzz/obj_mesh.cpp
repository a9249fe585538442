// Fuzz target: Wavefront OBJ models. Every triangle a parse returns names a vertex it holds.
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>

#include "fuzz_input.hpp"
#include "waymark/core/errors.hpp"
#include "waymark/io/obj.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace waymark;
  std::istringstream in(std::string(fuzz::text_of(data, size)));
  try {
    const TriangleMesh mesh = io::parse_obj(in, "fuzz.obj", {.max_vertices = fuzz::max_vertices, .max_triangles = fuzz::max_arcs});
    if (mesh.triangles.empty()) fuzz::finding();
    for (const auto& t : mesh.triangles) {
      for (std::uint32_t v : t) {
        if (v >= mesh.vertices.size()) fuzz::finding();
      }
    }
  } catch (const LoadError&) {
  }
  return 0;
}
