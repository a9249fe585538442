#pragma once
/// @file A GridMap's passability copied into a byte array with a one-cell blocked border, so
/// neighbour reads need no bounds checks: the layout the jump searches walk.

#include <cstdint>
#include <vector>

#include "waymark/grid/grid_map.hpp"

namespace waymark {

/// Padded index of a cell: (y + 1) · stride + (x + 1), stride = width + 2.
class PaddedGrid {
 public:
  explicit PaddedGrid(const GridMap& map)
      : width_(map.width()), height_(map.height()), stride_(map.width() + 2),
        open_(static_cast<std::size_t>(stride_) * static_cast<std::size_t>(map.height() + 2), 0) {
    for (int y = 0; y < height_; ++y) {
      for (int x = 0; x < width_; ++x) open_[index(x, y)] = map.passable(x, y) ? 1 : 0;
    }
  }

  [[nodiscard]] int width() const { return width_; }
  [[nodiscard]] int height() const { return height_; }
  /// Distance between vertically adjacent cells in padded indices.
  [[nodiscard]] std::int32_t stride() const { return stride_; }

  [[nodiscard]] std::uint32_t index(int x, int y) const {
    return static_cast<std::uint32_t>((y + 1) * stride_ + (x + 1));
  }
  [[nodiscard]] std::uint32_t index(CellId c) const {
    const auto w = static_cast<std::uint32_t>(width_);
    return index(static_cast<int>(c.value % w), static_cast<int>(c.value / w));
  }
  [[nodiscard]] CellId cell(std::uint32_t padded) const {
    const auto s = static_cast<std::uint32_t>(stride_);
    return CellId{(padded / s - 1) * static_cast<std::uint32_t>(width_) + (padded % s - 1)};
  }
  /// Passability by padded index; the border reads as blocked.
  [[nodiscard]] bool open(std::uint32_t padded) const { return open_[padded] != 0; }
  /// Padded index offset of a move by (dx, dy).
  [[nodiscard]] std::int32_t offset(int dx, int dy) const { return dy * stride_ + dx; }

 private:
  int width_;
  int height_;
  std::int32_t stride_;
  std::vector<std::uint8_t> open_;
};

}  // namespace waymark
