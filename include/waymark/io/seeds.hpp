#pragma once
/// @file Seed lists for regions: cell coordinates, one `x y` (or `x,y`) per line of a file, or
/// `x,y;x,y;…` on a command line. Parsers throw LoadError (file, line, reason); CRLF and `#`
/// comments are accepted. Whether a seed lies on the map is the regions module's question
/// (regions::find_seed_problem); SeedList::error() words its answer at the seed's line.

#include <cstddef>
#include <istream>
#include <string>
#include <string_view>
#include <vector>

#include "waymark/core/errors.hpp"
#include "waymark/grid/grid_map.hpp"

namespace waymark::io {

/// The default most seeds a list may hold: 2^16. Counted while reading, so a list over it is
/// refused before it grows further.
inline constexpr std::size_t default_max_seeds = std::size_t{1} << 16;

struct SeedListOptions {
  /// Most seeds accepted; more is a LoadError naming this limit. [Limit: >= 1]
  std::size_t max_seeds = default_max_seeds;
};

/// One seed and where it was written.
struct SeedEntry {
  grid::CellCoord cell;
  /// Its line in a file (from 1), or its position in a command-line list (from 1).
  std::size_t line = 0;
};

/// Seeds in the order written; seed i becomes region i.
struct SeedList {
  std::string source;        ///< the file name, or the option name ("--seeds") for inline text
  bool inline_text = false;  ///< from parse_seed_text: errors say "seed N" instead of a line
  std::vector<SeedEntry> seeds;

  [[nodiscard]] std::vector<grid::CellCoord> cells() const;
  /// The error for seed `index` (0-based) with `reason`: "file:LINE: reason" for a file,
  /// "--seeds: seed N: reason" for inline text.
  [[nodiscard]] LoadError error(std::size_t index, const std::string& reason) const;
};

/// A seed file: per line `X Y`, `X,Y` or `X, Y` (integers: column, row), or nothing; `#` starts
/// a comment. At least one seed. `name` is used in error messages.
[[nodiscard]] SeedList parse_seed_file(std::istream& in, const std::string& name, const SeedListOptions& options = {});
[[nodiscard]] SeedList load_seed_file(const std::string& path, const SeedListOptions& options = {});

/// Inline seeds `X,Y;X,Y;…` (spaces around the numbers allowed, one trailing `;` allowed).
/// `name` is the option they came from, used in error messages ("--seeds: seed 2: …").
[[nodiscard]] SeedList parse_seed_text(std::string_view text, const std::string& name,
                                       const SeedListOptions& options = {});

}  // namespace waymark::io
