#pragma once
/// @file Counters every search fills in.

#include <cstdint>

namespace waymark {

/// What a search did. Reset by `begin()`, accumulated by every `step()`.
struct SearchStats {
  std::uint64_t expanded = 0;       ///< nodes taken from the open list and expanded
  std::uint64_t generated = 0;      ///< successors looked at (edges relaxed)
  std::uint64_t scanned = 0;        ///< cells or arcs looked at: = generated, or for jump searches the cells jumps passed over
  std::uint64_t reopened = 0;       ///< closed nodes put back on the open list with a better g
  std::uint64_t max_open_size = 0;  ///< largest open list (or DFS/IDA* stack) seen
  std::uint64_t iterations = 0;     ///< IDA*: threshold iterations; others: 0
  double time_s = 0;                ///< wall time spent inside begin()/step(), seconds
};

}  // namespace waymark
