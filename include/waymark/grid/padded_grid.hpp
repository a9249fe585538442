#pragma once
/// @file A GridMap's passability copied into a byte array with a one-cell blocked border, so
/// neighbour reads need no bounds checks: the layout the jump searches walk.

#include <cstdint>
#include <vector>

#include "waymark/core/divider.hpp"
#include "waymark/grid/grid_map.hpp"

namespace waymark::grid {

/// Padded index of a cell: (y + 1) · stride + (x + 1), stride = width + 2.
class PaddedGrid {
 public:
  explicit PaddedGrid(const GridMap& map)
      : width_(map.width()), height_(map.height()), stride_(map.width() + 2),
        row_of_cell_(static_cast<std::uint32_t>(map.width())), row_of_padded_(static_cast<std::uint32_t>(stride_)),
        open_(static_cast<std::size_t>(stride_) * static_cast<std::size_t>(map.height() + 2), 0) {
    copy_cells(map, map.bounds());
  }

  [[nodiscard]] int width() const { return width_; }
  [[nodiscard]] int height() const { return height_; }
  /// Distance between vertically adjacent cells in padded indices.
  [[nodiscard]] std::int32_t stride() const { return stride_; }

  [[nodiscard]] std::uint32_t index(int x, int y) const {
    return static_cast<std::uint32_t>((y + 1) * stride_ + (x + 1));
  }
  [[nodiscard]] std::uint32_t index(CellId c) const {
    // (y + 1)·stride + x + 1 = id + 2y + stride + 1, with y = id / width
    return c.value + 2 * row_of_cell_.quotient(c.value) + static_cast<std::uint32_t>(stride_) + 1;
  }
  [[nodiscard]] CellId cell(std::uint32_t padded) const {
    // the inverse: id = padded − 2r − width − 1, with r = y + 1 = padded / stride
    const std::uint32_t r = row_of_padded_.quotient(padded);
    return CellId{padded - 2 * r - static_cast<std::uint32_t>(width_) - 1};
  }
  /// Passability by padded index; the border reads as blocked.
  [[nodiscard]] bool open(std::uint32_t padded) const { return open_[padded] != 0; }
  /// Padded cells, border included: (width + 2) · (height + 2).
  [[nodiscard]] std::uint32_t size() const { return static_cast<std::uint32_t>(open_.size()); }
  /// Copies the passability of the map's cells in `area` again (after an edit).
  void copy_cells(const GridMap& map, CellRect area) {
    for (int y = area.y0; y < area.y1; ++y) {
      for (int x = area.x0; x < area.x1; ++x) open_[index(x, y)] = map.passable(x, y) ? 1 : 0;
    }
  }
  /// Padded index offset of a move by (dx, dy).
  [[nodiscard]] std::int32_t offset(int dx, int dy) const { return dy * stride_ + dx; }

 private:
  int width_;
  int height_;
  std::int32_t stride_;
  Divider row_of_cell_;
  Divider row_of_padded_;
  std::vector<std::uint8_t> open_;
};

}  // namespace waymark::grid
