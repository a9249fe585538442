#include "waymark/grid/jump_table.hpp"

#include <array>
#include <fstream>

#include "waymark/core/errors.hpp"
#include "waymark/core/hash.hpp"

namespace waymark::grid {
namespace {

constexpr std::array<char, 8> file_magic{'W', 'M', 'J', 'P', 'S', '+', '0', '2'};  // 02: Hasher fingerprint

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
        if (!grid_.open(p)) continue;
        if (!rules_.can_move(p, d)) {
          at(p, d) = 0;
          continue;
        }
        const std::uint32_t next = p + step;
        const bool next_is_jump_point =
            is_diagonal(d) ? at(next, turn(d, -1)) > 0 || at(next, turn(d, 1)) > 0
                           : rules_.has_forced_neighbour(next, d);
        const std::int16_t further = at(next, d);
        at(p, d) = static_cast<std::int16_t>(next_is_jump_point ? 1 : further > 0 ? further + 1 : further - 1);
      }
    }
  }
}

bool JumpTable::save(const std::string& path) const {
  std::ofstream out(path, std::ios::binary);
  if (!out) return false;
  const Header header{file_magic, grid_.width(), grid_.height(), fingerprint(grid_)};
  out.write(reinterpret_cast<const char*>(&header), sizeof header);
  out.write(reinterpret_cast<const char*>(distances_.data()),
            static_cast<std::streamsize>(distances_.size() * sizeof(std::int16_t)));
  return static_cast<bool>(out);
}

JumpTable JumpTable::load(const std::string& path, const GridMap& map) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw LoadError(path, 0, "cannot open file");
  Header header{};
  if (!in.read(reinterpret_cast<char*>(&header), sizeof header) || header.magic != file_magic)
    throw LoadError(path, 0, "not a waymark JPS+ table");
  if (header.width != map.width() || header.height != map.height())
    throw LoadError(path, 0, "table is for a " + std::to_string(header.width) + "x" + std::to_string(header.height) +
                                 " map, this map is " + std::to_string(map.width()) + "x" + std::to_string(map.height()));
  std::vector<std::int16_t> distances(static_cast<std::size_t>(map.width() + 2) *
                                      static_cast<std::size_t>(map.height() + 2) * direction_count);
  if (!in.read(reinterpret_cast<char*>(distances.data()),
               static_cast<std::streamsize>(distances.size() * sizeof(std::int16_t))))
    throw LoadError(path, 0, "truncated table");
  if (in.peek() != std::char_traits<char>::eof()) throw LoadError(path, 0, "unexpected data after the table");
  JumpTable table(map, std::move(distances));
  if (header.fingerprint != fingerprint(table.grid())) throw LoadError(path, 0, "table was built for a different map");
  return table;
}

}  // namespace waymark::grid
