#pragma once
/// @file Strong index types: a CellId cannot be passed where a VertexId is expected.

#include <compare>
#include <cstdint>
#include <functional>
#include <limits>

namespace waymark {

/// A 32-bit index tagged with the kind of thing it indexes.
template <class Tag>
struct StrongId {
  using value_type = std::uint32_t;
  static constexpr value_type invalid_value = std::numeric_limits<value_type>::max();

  value_type value = invalid_value;

  constexpr StrongId() = default;
  constexpr explicit StrongId(value_type v) : value(v) {}

  [[nodiscard]] constexpr bool valid() const { return value != invalid_value; }
  [[nodiscard]] static constexpr StrongId invalid() { return StrongId{}; }
  friend constexpr auto operator<=>(StrongId, StrongId) = default;
};

using CellId = StrongId<struct CellTag>;      ///< a grid cell, row-major: y * width + x
using VertexId = StrongId<struct VertexTag>;  ///< a graph vertex
using PolyId = StrongId<struct PolyTag>;      ///< a navmesh polygon
using ArcId = StrongId<struct ArcTag>;        ///< a graph arc: its position among the graph's arcs

}  // namespace waymark

template <class Tag>
struct std::hash<waymark::StrongId<Tag>> {
  std::size_t operator()(waymark::StrongId<Tag> id) const noexcept {
    return std::hash<std::uint32_t>{}(id.value);
  }
};
