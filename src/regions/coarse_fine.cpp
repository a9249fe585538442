#include "waymark/regions/coarse_fine.hpp"

#include <string>
#include <vector>

#include "waymark/core/errors.hpp"
#include "waymark/core/stopwatch.hpp"
#include "waymark/core/text.hpp"
#include "waymark/grid/grid_space.hpp"
#include "waymark/grid/heuristics.hpp"
#include "waymark/search/best_first.hpp"

namespace waymark::regions {

struct CoarseFinePlanner::Impl {
  /// The grid's moves, kept inside the cells of the allowed regions: the fine search's space.
  class CorridorSpace : public grid::GridCells {
   public:
    CorridorSpace(const grid::GridSpace& space, std::span<const RegionId> labels, const std::vector<std::uint8_t>& allowed)
        : GridCells(space.map()), space_(&space), labels_(labels), allowed_(&allowed) {}

    [[nodiscard]] bool stale() const { return space_->stale(); }
    [[nodiscard]] bool is_traversable(CellId c) const { return GridCells::is_traversable(c) && inside(c); }

    template <class F>
    [[gnu::always_inline]] void for_each_successor(CellId c, F&& f) const {
      space_->for_each_successor(c, [&](CellId n, Cost w) __attribute__((always_inline)) {
        if (inside(n)) f(n, w);
      });
    }

   private:
    [[nodiscard]] bool inside(CellId c) const {
      const RegionId r = labels_[c.value];
      return r != no_region && (*allowed_)[r] != 0;
    }

    const grid::GridSpace* space_;
    std::span<const RegionId> labels_;
    const std::vector<std::uint8_t>* allowed_;
  };

  using FineSearch = search::BestFirstSearch<CorridorSpace, grid::AnyGridHeuristic>;
  using FullSearch = search::BestFirstSearch<grid::GridSpace, grid::AnyGridHeuristic>;
  using CoarseSearch = search::Dijkstra<graph::Graph>;

  Impl(const grid::GridMap& m, const Regions& r, const CoarseFineParams& p)
      : regions(&r),
        params(p),
        space(m, p.diagonal),
        allowed(r.region_count(), 0),
        corridor_space(space, r.labels(), allowed),
        coarse(r.adjacency()),
        fine(corridor_space, grid::AnyGridHeuristic(m, grid::default_heuristic(p.diagonal))),
        full(space, grid::AnyGridHeuristic(m, grid::default_heuristic(p.diagonal))) {
    fine.reserve();
    full.reserve();
    corridor.reserve(r.region_count());
    marked.reserve(r.region_count());
  }

  /// Marks the corridor's regions and `margin` rings of neighbours around them as allowed.
  void open_corridor() {
    for (const RegionId r : corridor) mark(r);
    std::size_t ring_begin = 0;
    for (unsigned ring = 0; ring < params.corridor_margin; ++ring) {
      const std::size_t ring_end = marked.size();
      for (std::size_t i = ring_begin; i < ring_end; ++i) {
        for (const VertexId n : regions->adjacency().targets(VertexId{marked[i]})) mark(n.value);
      }
      ring_begin = ring_end;
    }
    stats.corridor_regions = marked.size();
  }
  void mark(RegionId r) {
    if (allowed[r] != 0) return;
    allowed[r] = 1;
    marked.push_back(r);
  }
  void close_corridor() {
    for (const RegionId r : marked) allowed[r] = 0;
    marked.clear();
  }

  /// The corridor search; false when the coarse stage or the corridor found nothing.
  bool plan_in_corridor(CellId start, CellId goal) {
    const RegionId a = regions->label(start.value), b = regions->label(goal.value);
    if (a == no_region || b == no_region) return false;
    coarse.begin(VertexId{a}, VertexId{b});
    coarse.step();
    stats.coarse_expanded = coarse.stats().expanded;
    if (!coarse.status().succeeded()) return false;
    for (const VertexId v : coarse.path().nodes) corridor.push_back(v.value);
    open_corridor();
    fine.begin(start, goal);
    fine.step();
    stats.fine_expanded += fine.stats().expanded;
    close_corridor();
    if (!fine.status().succeeded()) return false;
    path = fine.path();  // copy-assignment reuses path's capacity: no allocation after warm-up
    return true;
  }

  Status plan(CellId start, CellId goal) {
    path.clear();
    corridor.clear();
    stats = {};
    const Stopwatch watch;
    const Status st = run(start, goal);
    stats.time_s = watch.seconds();
    return st;
  }

  Status run(CellId start, CellId goal) {
    if (space.stale() || space.map().version() != regions->world_version())
      return Status::failure(StatusDetail::stale_world);
    if (!space.is_traversable(goal))
      return Status::failure(search::endpoint_refusal(space, goal, StatusDetail::goal_blocked));
    if (!space.is_traversable(start))
      return Status::failure(search::endpoint_refusal(space, start, StatusDetail::start_blocked));
    if (plan_in_corridor(start, goal)) return Status::success();
    // Without the fallback, no path in the corridor is the answer: unreachable within it.
    if (!params.fallback) return Status::failure(StatusDetail::unreachable);
    stats.fallback = true;
    full.begin(start, goal);
    full.step();
    stats.fine_expanded += full.stats().expanded;
    if (!full.status().succeeded()) return Status::failure(full.status().detail);  // unreachable, out of nodes
    path = full.path();
    return Status::success();
  }

  const Regions* regions;
  CoarseFineParams params;
  grid::GridSpace space;
  std::vector<std::uint8_t> allowed;  ///< per region: the fine search may enter it
  std::vector<RegionId> marked;       ///< the regions allowed now, to clear them after the query
  CorridorSpace corridor_space;
  CoarseSearch coarse;
  FineSearch fine;
  FullSearch full;
  std::vector<RegionId> corridor;
  Path<CellId> path;
  CoarseFineStats stats;
};

CoarseFinePlanner::CoarseFinePlanner(const grid::GridMap& map, const Regions& regions, const CoarseFineParams& params) {
  if (regions.element_count() != map.cell_count())
    throw BuildError("the regions label " + number_text(regions.element_count()) + " elements, the map has " +
                     number_text(map.cell_count()) + " cells");
  if (params.corridor_margin > max_corridor_margin)
    throw BuildError("CoarseFineParams::corridor_margin must be at most " + number_text(max_corridor_margin));
  impl_ = std::make_unique<Impl>(map, regions, params);
}

CoarseFinePlanner::~CoarseFinePlanner() = default;

Status CoarseFinePlanner::plan(CellId start, CellId goal) { return impl_->plan(start, goal); }
const Path<CellId>& CoarseFinePlanner::path() const { return impl_->path; }
const CoarseFineStats& CoarseFinePlanner::stats() const { return impl_->stats; }
std::span<const RegionId> CoarseFinePlanner::corridor() const { return impl_->corridor; }

}  // namespace waymark::regions
