#pragma once
/// @file Query files for batch runs (`waymark batch`): a Moving AI `.scen`, or plain lines
/// `sx sy gx gy`. Parsers throw LoadError (file, line, reason); CRLF is accepted.

#include <cstddef>
#include <cstdint>
#include <istream>
#include <string>
#include <vector>

#include "waymark/core/errors.hpp"
#include "waymark/grid/batch.hpp"
#include "waymark/grid/grid_map.hpp"

namespace waymark::io {

/// The default most queries a batch file may hold: 2^20 (24 bytes each once read, 16 as
/// grid::BatchQuery). Counted while reading, so a file over it is refused before it grows
/// further.
inline constexpr std::size_t default_max_batch_queries = std::size_t{1} << 20;

struct BatchQueryOptions {
  /// Most queries accepted; more is a LoadError naming this limit. [Limit: >= 1]
  std::size_t max_queries = default_max_batch_queries;
};

enum class BatchQueryFormat : std::uint8_t {
  plain,     ///< `sx sy gx gy` per line
  scenario,  ///< a Moving AI `.scen`
};

/// One query and the line it was written on.
struct BatchQueryEntry {
  grid::CellCoord start;
  grid::CellCoord goal;
  std::size_t line = 0;  ///< from 1
};

/// The queries of a file, in file order; every cell lies on the map they were read for.
struct BatchQueryList {
  std::string source;
  BatchQueryFormat format = BatchQueryFormat::plain;
  std::vector<BatchQueryEntry> queries;

  /// The queries as cells of `map` (the map they were read for).
  [[nodiscard]] std::vector<grid::BatchQuery> cells(const grid::GridMap& map) const;
};

/// Reads a query file for `map`. A file whose first line starts with the word `version` is a
/// Moving AI scenario (read by parse_movingai_scenario: its width and height columns must be
/// the map's; its map column is not looked at); any other is plain: per line four integers
/// `sx sy gx gy` (columns, rows, from 0) separated by spaces or tabs, `#` starts a comment,
/// blank lines are skipped. Every cell must lie inside the map (blocked cells are accepted:
/// their queries fail when run); at least one query. `name` is used in error messages.
/// @warning A scenario is read twice from the start: `in` must be able to seek back (files and
/// string streams can).
[[nodiscard]] BatchQueryList parse_batch_queries(std::istream& in, const std::string& name, const grid::GridMap& map,
                                                 const BatchQueryOptions& options = {});
[[nodiscard]] BatchQueryList load_batch_queries(const std::string& path, const grid::GridMap& map,
                                                const BatchQueryOptions& options = {});

}  // namespace waymark::io
