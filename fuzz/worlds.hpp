#pragma once
// The small fixed worlds the preprocessing-file targets load their files for, the file an
// input stands for, and the checks every target repeats. write_seeds.cpp saves each world's
// files as the seeds, so seeds and targets agree on the worlds.

#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "fuzz_input.hpp"
#include "waymark/core/binary_io.hpp"
#include "waymark/graph/graph.hpp"
#include "waymark/grid/grid_map.hpp"
#include "waymark/io/movingai.hpp"
#include "waymark/puzzle/pattern_database.hpp"
#include "waymark/puzzle/sliding_puzzle.hpp"

namespace waymark::fuzz {

/// A 20×12 map with rooms, a corridor, single-cell pillars and a diagonal gap: every kind of
/// jump, for the JPS+ table target.
inline const grid::GridMap& table_map() {
  static const grid::GridMap map = [] {
    std::istringstream text(
        "type octile\nheight 12\nwidth 20\nmap\n"
        "....................\n"
        ".@@@@@@@....@@@@@@..\n"
        ".@.....@....@....@..\n"
        ".@..@..@....@.@..@..\n"
        ".@.....@@.@@@....@..\n"
        ".@@@.@@@..........@.\n"
        "......@...@@@@@.....\n"
        "..@....@..@...@..@..\n"
        "..@.....@.@.@.@..@..\n"
        "..@@@@...@@...@@@@..\n"
        ".........@..........\n"
        "...@.........@......\n");
    return io::parse_movingai_map(text, "table.map");
  }();
  return map;
}

/// A 24-vertex directed graph with parallel arcs, a self-loop, a one-way part and an
/// unreachable vertex, for the landmark, hierarchy and route-table targets.
inline const graph::Graph& table_graph() {
  static const graph::Graph g = [] {
    constexpr std::uint32_t n = 24;
    graph::GraphBuilder b(n);
    std::uint32_t x = 12345;  // a fixed LCG: the same graph on every machine
    const auto next = [&x](std::uint32_t bound) {
      x = x * 1103515245u + 12345u;
      return (x >> 16) % bound;
    };
    for (std::uint32_t v = 0; v + 1 < n - 1; ++v) b.add_undirected_edge(VertexId{v}, VertexId{v + 1}, static_cast<Cost>(1 + next(9)));
    for (int i = 0; i < 30; ++i) {
      const VertexId from{next(n - 1)}, to{next(n - 1)};
      b.add_edge(from, to, static_cast<Cost>(next(20)));
    }
    b.add_edge(VertexId{3}, VertexId{4}, 50);  // parallel to a cheaper arc
    b.add_edge(VertexId{5}, VertexId{5}, 2);   // self-loop; vertex 23 has no arc at all
    return b.build();
  }();
  return g;
}

/// The 8-puzzle and a two-part partition, for the pattern-database target.
inline const puzzle::SlidingPuzzle& table_puzzle() {
  static const puzzle::SlidingPuzzle p(3);
  return p;
}
inline puzzle::PdbPartition table_partition() { return {{1, 2, 3, 4}, {5, 6, 7, 8}}; }

/// The file an input stands for, as a stream for the loaders: byte 0 chooses. Odd: the rest is the payload and gets the
/// checksum save() would write (a forgery: only the loader's checks stand in the way). Even:
/// the rest as it is (damage, truncation, noise).
inline std::istringstream file_of(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return std::istringstream();
  std::string file(reinterpret_cast<const char*>(data + 1), size - 1);
  if ((data[0] & 1) != 0) {
    const ChecksumBytes sum = checksum_of(file.data(), file.size());
    file.append(reinterpret_cast<const char*>(sum.data()), sum.size());
  }
  return std::istringstream(std::move(file), std::ios::binary);
}

/// Whether two shortest distances agree (sums in different orders differ by rounding only).
inline bool same_distance(double a, double b) {
  if (a == b) return true;
  const double scale = a > b ? a : b;
  return (a > b ? a - b : b - a) <= 1e-9 * (1 + scale);
}

/// Whether `a` is shorter than `b` by more than rounding (an answer that beats the optimum).
inline bool shorter(double a, double b) { return a < b - 1e-9 * (1 + b); }

}  // namespace waymark::fuzz
