#include "waymark/grid/jump_table.hpp"

#include <array>
#include <fstream>

#include "waymark/core/binary_io.hpp"
#include "waymark/core/errors.hpp"
#include "waymark/core/hash.hpp"
#include "waymark/core/text.hpp"

namespace waymark::grid {
namespace {

// 02: Hasher fingerprint; 03: a trailing checksum, and entries checked against the map on load
constexpr std::array<char, 8> file_magic{'W', 'M', 'J', 'P', 'S', '+', '0', '3'};

/// A hash of the obstacle layout, so a table is never used with another map.
std::uint64_t fingerprint(const PaddedGrid& grid) {
  Hasher h;
  for (int y = 0; y < grid.height(); ++y) {
    for (int x = 0; x < grid.width(); ++x) h.add(grid.open(grid.index(x, y)) ? 1u : 0u);
  }
  return h.value();
}

/// Cardinal tables first: each diagonal entry reads the two cardinal entries of its next cell.
constexpr std::array<int, direction_count> build_order{0, 2, 4, 6, 1, 3, 5, 7};

struct Header {
  std::array<char, 8> magic;
  std::int32_t width;
  std::int32_t height;
  std::uint64_t fingerprint;
};

}  // namespace

JumpTable::JumpTable(const GridMap& map) : map_(&map), version_(map.version()), grid_(map), rules_(grid_) {
  build();
}

JumpTable::JumpTable(const GridMap& map, std::vector<std::int16_t> distances)
    : map_(&map), version_(map.version()), grid_(map), rules_(grid_), distances_(std::move(distances)) {}

JumpTable::JumpTable(JumpTable&& other) noexcept
    : map_(other.map_), version_(other.version_), grid_(std::move(other.grid_)), rules_(grid_),
      distances_(std::move(other.distances_)) {}

void JumpTable::rebuild() {
  grid_.copy_cells(*map_, map_->bounds());
  version_ = map_->version();
  build();
}

void JumpTable::build() {
  distances_.assign(static_cast<std::size_t>(grid_.stride()) * static_cast<std::size_t>(grid_.height() + 2) *
                        direction_count,
                    0);
  sweep([](std::int16_t& entry, std::int16_t value) {
    entry = value;
    return true;
  });
}

template <class Visit>
bool JumpTable::sweep(Visit&& visit) {
  const int w = grid_.width(), h = grid_.height();
  auto at = [&](std::uint32_t p, int d) -> std::int16_t& {
    return distances_[static_cast<std::size_t>(p) * direction_count + static_cast<std::size_t>(d)];
  };
  // One sweep per direction, visiting each cell after the cell one move further along it, so
  // the neighbour's value is final when it is read.
  for (const int d : build_order) {
    const int dx = direction_dx[static_cast<std::size_t>(d)], dy = direction_dy[static_cast<std::size_t>(d)];
    const auto step = static_cast<std::uint32_t>(rules_.offset(d));
    for (int i = 0; i < h; ++i) {
      const int y = dy > 0 ? h - 1 - i : i;
      for (int j = 0; j < w; ++j) {
        const int x = dx > 0 ? w - 1 - j : j;
        const std::uint32_t p = grid_.index(x, y);
        if (!grid_.open(p)) {
          if (!visit(at(p, d), std::int16_t{0})) return false;
          continue;
        }
        if (!rules_.can_move(p, d)) {
          if (!visit(at(p, d), std::int16_t{0})) return false;
          continue;
        }
        const std::uint32_t next = p + step;
        const bool next_is_jump_point =
            is_diagonal(d) ? at(next, turn(d, -1)) > 0 || at(next, turn(d, 1)) > 0
                           : rules_.has_forced_neighbour(next, d);
        const std::int16_t further = at(next, d);
        if (!visit(at(p, d), static_cast<std::int16_t>(next_is_jump_point ? 1 : further > 0 ? further + 1 : further - 1)))
          return false;
      }
    }
  }
  return true;
}

void JumpTable::save(const std::string& path) const {
  save_file(path, [&](std::ostream& out) {
    ChecksummedWriter w(out);
    const Header header{file_magic, grid_.width(), grid_.height(), fingerprint(grid_)};
    w.bytes(&header, sizeof header);
    w.array(distances_);
    w.finish();
  });
}

JumpTable JumpTable::load(const std::string& path, const GridMap& map) {
  return load_file(path, [&](std::istream& in) { return load(in, path, map); });
}

JumpTable JumpTable::load(std::istream& in, const std::string& name, const GridMap& map) {
  ChecksummedReader r(in, name);
  Header header{};
  r.bytes(&header, sizeof header, "header");
  if (header.magic != file_magic) r.fail("not a waymark JPS+ table (version 03)");
  if (header.width != map.width() || header.height != map.height())
    r.fail("table is for a " + number_text(header.width) + "x" + number_text(header.height) + " map, this map is " +
           number_text(map.width()) + "x" + number_text(map.height()));
  std::vector<std::int16_t> distances;
  r.array(distances,
          static_cast<std::size_t>(map.width() + 2) * static_cast<std::size_t>(map.height() + 2) * direction_count,
          "jump distances");
  r.finish();
  JumpTable table(map, std::move(distances));
  if (header.fingerprint != fingerprint(table.grid())) r.fail("table was built for a different map");
  // The checksum catches damage; a forged table with a valid checksum must still never send a
  // search through a wall or off the map. Every entry must equal what the build's recurrence
  // gives from its neighbour, and the border and walls hold zeros: by induction along each
  // direction, the table is then exactly the one built for this map. O(cells), like a build.
  std::size_t bad = 0;
  const std::int16_t* base = table.distances_.data();
  const bool consistent = table.sweep([&](std::int16_t& entry, std::int16_t value) {
    if (entry == value) return true;
    bad = static_cast<std::size_t>(&entry - base);
    return false;
  });
  if (!consistent) {
    const std::uint32_t padded = static_cast<std::uint32_t>(bad / direction_count);
    const CellId c = table.grid().cell(padded);
    r.fail("jump distance of cell (" + number_text(map.coord(c).x) + "," + number_text(map.coord(c).y) +
           "), direction " + number_text(bad % direction_count) + " does not match the map (a damaged or forged table)");
  }
  // The sweep visits the map's cells; the border around them is never read by a search, yet
  // a table that loads must equal the one built: zeros there too.
  const PaddedGrid& g = table.grid();
  const auto stride = static_cast<std::uint32_t>(g.stride());
  const auto rows = static_cast<std::uint32_t>(g.height() + 2);
  for (std::uint32_t p = 0; p < g.size(); ++p) {
    const std::uint32_t x = p % stride, y = p / stride;
    if (x != 0 && x != stride - 1 && y != 0 && y != rows - 1) continue;  // inside: swept above
    for (int d = 0; d < direction_count; ++d) {
      if (table.distance(p, d) != 0) r.fail("a border cell has a jump distance (a damaged or forged table)");
    }
  }
  return table;
}

}  // namespace waymark::grid
