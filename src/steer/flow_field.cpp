#include "waymark/steer/flow_field.hpp"

#include <algorithm>
#include <bit>
#include <cmath>

#include "waymark/grid/grid_space.hpp"
#include "waymark/search/shortest_path_tree.hpp"
#include "waymark/steer/behaviours.hpp"

namespace waymark::steer {

namespace {

/// Candidates (move cost + neighbour distance) closer than this share of the smaller are tied:
/// equal sums reached along different paths may differ in their last bits.
constexpr double tie_tolerance = 1e-9;

}  // namespace

/// What only build() touches: the grid as a search space, the engine's Dijkstra over it and
/// the cells it settled last. Behind a pointer because the tree refers to the space.
struct FlowField::Scratch {
  /// Writes each cell's distance as Dijkstra settles it and lists the settled cells, so build()
  /// and the next build's reset visit only the reached cells, not the whole map.
  struct SettledCells : search::NullObserver {
    Cost* distances = nullptr;
    CellId* settled = nullptr;  ///< room for every cell
    std::size_t count = 0;

    void on_expand(const CellId& c, Cost g, Cost /*h*/) {
      distances[c.value] = g;
      settled[count++] = c;
    }
  };

  grid::GridSpace space;
  search::ShortestPathTree<grid::GridSpace, SettledCells> tree;
  std::vector<search::Source<CellId>> sources;
  std::vector<CellId> settled;

  Scratch(const grid::GridMap& map, grid::DiagonalRule rule)
      : space(map, rule), tree(space), settled(map.cell_count()) {
    tree.reserve();
  }
  [[nodiscard]] SettledCells& cells() { return tree.search().observer(); }
};

FlowField::FlowField(const grid::GridMap& map, FlowFieldParams params)
    : map_(&map),
      params_(params),
      scratch_(std::make_unique<Scratch>(map, params.diagonal)),
      distances_(map.cell_count(), infinite_cost),
      codes_(map.cell_count(), none_code),
      world_version_(map.version()) {
  WAYMARK_ASSERT(params.min_blend_length >= 0 && params.min_blend_length <= 1);
  static_assert([] {
    const auto sign = [](double v) { return v > 0 ? 1 : v < 0 ? -1 : 0; };
    for (std::size_t i = 0; i < grid::grid_moves.size(); ++i) {
      if (sign(unit_directions[i].x) != grid::grid_moves[i].dx || sign(unit_directions[i].y) != grid::grid_moves[i].dy) return false;
    }
    return true;
  }(), "unit_directions follows grid_moves");
}

FlowField::~FlowField() = default;
FlowField::FlowField(FlowField&&) noexcept = default;
FlowField& FlowField::operator=(FlowField&&) noexcept = default;

Status FlowField::build(grid::CellCoord goal) { return build(std::span<const grid::CellCoord>(&goal, 1)); }

Status FlowField::build(std::span<const grid::CellCoord> goals) {
  world_version_ = map_->version();
  stats_ = {};
  StatusDetail why = StatusDetail::invalid_query;
  for (const grid::CellCoord g : goals) {
    if (!map_->in_bounds(g.x, g.y)) {
      why = why | StatusDetail::out_of_bounds;
    } else if (!map_->passable(g.x, g.y)) {
      why = why | StatusDetail::goal_blocked;
    }
  }
  if (goals.empty() || why != StatusDetail::invalid_query) {
    clear();
    status_ = Status::failure(why);
    return status_;
  }
  Scratch& s = *scratch_;
  if (s.space.stale()) s.space.sync();
  s.sources.clear();
  for (const grid::CellCoord g : goals) s.sources.push_back({map_->cell(g.x, g.y), 0});
  clear();
  Scratch::SettledCells& cells = s.cells();
  cells.distances = distances_.data();
  cells.settled = s.settled.data();
  const Status computed = s.tree.compute(s.sources);
  stats_ = s.tree.stats();
  if (!computed.succeeded()) {  // not expected: the goals were checked
    clear();
    status_ = computed;
    return status_;
  }
  compute_directions();
  for (const search::Source<CellId>& g : s.sources) codes_[g.node.value] = goal_code;
  status_ = Status::success();
  return status_;
}

void FlowField::clear() {
  Scratch::SettledCells& cells = scratch_->cells();
  for (std::size_t i = 0; i < cells.count; ++i) {
    distances_[scratch_->settled[i].value] = infinite_cost;
    codes_[scratch_->settled[i].value] = none_code;
  }
  cells.count = 0;
}

void FlowField::compute_directions() {
  const grid::GridSpace& space = scratch_->space;
  const Scratch::SettledCells& cells = scratch_->cells();
  const bool uniform = !map_->has_costs();
  std::array<std::uint32_t, 8> offsets{};  // CellId difference per move (wraps for -1)
  std::array<Cost, 8> steps{};             // move cost on a map without multipliers
  for (unsigned i = 0; i < grid::grid_moves.size(); ++i) {
    const auto w = static_cast<std::uint32_t>(map_->width());
    offsets[i] = static_cast<std::uint32_t>(grid::grid_moves[i].dy) * w + static_cast<std::uint32_t>(grid::grid_moves[i].dx);
    steps[i] = map_->cell_size() * (i >= grid::first_diagonal_move ? grid::diagonal_step : grid::cardinal_step);
  }
  std::array<Cost, 8> total{};  // move cost + the neighbour's distance, per allowed move
  std::array<Cost, 8> next{};   // the neighbour's distance
  for (std::size_t k = 0; k < cells.count; ++k) {
    const CellId c = cells.settled[k];
    std::uint8_t& code = codes_[c.value];
    const unsigned mask = space.move_mask(c);
    Cost best = infinite_cost;
    for (unsigned m = mask; m != 0; m &= m - 1) {
      const auto i = static_cast<unsigned>(std::countr_zero(m));
      const CellId n{c.value + offsets[i]};
      next[i] = distances_[n.value];
      total[i] = (uniform ? steps[i] : map_->move_cost(c, n, i >= grid::first_diagonal_move)) + next[i];
      best = std::min(best, total[i]);
    }
    if (best == infinite_cost) continue;  // no open neighbour: a lone goal
    const Cost tied = best * (1 + tie_tolerance);
    for (unsigned m = mask; m != 0; m &= m - 1) {
      const auto i = static_cast<unsigned>(std::countr_zero(m));
      if (total[i] <= tied && (code == none_code || next[i] < next[code])) code = static_cast<std::uint8_t>(i);
    }
  }
}

std::optional<grid::CellCoord> FlowField::next_cell(grid::CellCoord c) const {
  if (!map_->in_bounds(c.x, c.y)) return std::nullopt;
  const std::uint8_t code = codes_[map_->cell(c.x, c.y).value];
  if (code >= goal_code) return std::nullopt;
  return grid::CellCoord{c.x + grid::grid_moves[code].dx, c.y + grid::grid_moves[code].dy};
}

Vec2 FlowField::direction_at(Vec2 world_position) const {
  const grid::GridMapParams& g = map_->params();
  // The same arithmetic as GridMap::world_to_cell, so both agree on the cell at its borders.
  const double qx = (world_position.x - g.origin.x) / g.cell_size;
  const double qy = (world_position.y - g.origin.y) / g.cell_size;
  const double fx = std::floor(qx);
  const double fy = std::floor(qy);
  const int width = map_->width();
  const int height = map_->height();
  if (!(fx >= 0 && fy >= 0 && fx < width && fy < height)) return {};  // also NaN
  const int x = static_cast<int>(fx);
  const int y = static_cast<int>(fy);
  const std::size_t at = static_cast<std::size_t>(y) * static_cast<std::size_t>(width) + static_cast<std::size_t>(x);
  const std::uint8_t own = codes_[at];
  if (own >= goal_code || !params_.interpolate) return direction_of(own);
  // The square of the four nearest centres: (x0, y0) is its lower corner's cell.
  const int x0 = qx - fx >= 0.5 ? x : x - 1;
  const int y0 = qy - fy >= 0.5 ? y : y - 1;
  if (x0 < 0 || y0 < 0 || x0 + 1 >= width || y0 + 1 >= height) return direction_of(own);
  const std::size_t a = static_cast<std::size_t>(y0) * static_cast<std::size_t>(width) + static_cast<std::size_t>(x0);
  const std::size_t w = static_cast<std::size_t>(width);
  const std::uint8_t c00 = codes_[a], c10 = codes_[a + 1], c01 = codes_[a + w], c11 = codes_[a + w + 1];
  // A blocked or unreachable cell among them: the blend could lead into it.
  if (c00 == none_code || c10 == none_code || c01 == none_code || c11 == none_code) return direction_of(own);
  const double tx = qx - 0.5 - x0;
  const double ty = qy - 0.5 - y0;
  const Vec2 blend = (direction_of(c00) * (1 - tx) + direction_of(c10) * tx) * (1 - ty) +
                     (direction_of(c01) * (1 - tx) + direction_of(c11) * tx) * ty;
  const double l = length(blend);
  return l >= params_.min_blend_length && l > 0 ? blend / l : direction_of(own);
}

Cost FlowField::distance_at(Vec2 world_position) const {
  const std::optional<grid::CellCoord> c = map_->world_to_cell(world_position);
  return c ? distances_[map_->cell(c->x, c->y).value] : infinite_cost;
}

Vec2 follow_flow(const AgentParams& p, const AgentState& s, const FlowField& field) {
  return steer_toward(p, s, field.direction_at(s.position) * p.max_speed);
}

}  // namespace waymark::steer
