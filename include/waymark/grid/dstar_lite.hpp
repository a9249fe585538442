#pragma once
/// @file DStarLite: an incremental shortest path on an editable GridMap (Koenig & Likhachev's
/// D* Lite) for an agent that moves towards a fixed goal while cells change.

#include <cstddef>
#include <cstdint>

#include "waymark/core/path.hpp"
#include "waymark/core/stats.hpp"
#include "waymark/core/status.hpp"
#include "waymark/core/stopwatch.hpp"
#include "waymark/grid/grid_space.hpp"
#include "waymark/search/budget.hpp"
#include "waymark/search/generation_array.hpp"
#include "waymark/search/indexed_heap.hpp"

namespace waymark::grid {

namespace detail {
/// DStarLite's state of one cell (outside the class: a nested class's default member
/// initialisers are not usable until the enclosing class is complete).
struct DStarLiteRecord {
  static constexpr std::uint32_t no_position = ~std::uint32_t{0};
  Cost g = infinite_cost;
  Cost rhs = infinite_cost;
  Cost key = 0;  ///< first key part the heap holds for this cell; valid while position is set
  std::uint32_t position = no_position;
  std::uint32_t stamp = 0;
};
}  // namespace detail

struct DStarLiteOptions {
  DiagonalRule diagonal = DiagonalRule::no_corner_cutting;
  /// Edits whose areas (each grown by one cell, overlaps counted again) add up to more than
  /// this fraction of the map make replan() start over instead of repairing: repairing that
  /// much costs more than a fresh search. [Limit: > 0]
  double restart_area_fraction = 0.5;
};

/// D* Lite on one map. The search runs from the goal towards the agent (the "start"), so the
/// agent may move between re-plans at no cost beyond the key modifier km; map edits are
/// repaired from the map's change log; a new goal starts over (the tree is rooted at it).
///
/// Costs are the map's (GridMap::move_cost, every DiagonalRule, terrain and zones); the
/// heuristic is octile (manhattan when 4-connected) scaled by the lowest cell_size × min
/// multiplier seen since plan(), which stays consistent as costs change; an edit that lowers
/// it below that makes replan() start over.
///
/// State per cell (g, rhs, heap key and position: 32 bytes, generation-stamped, so plan()
/// resets it in O(1)), a move mask per cell (its own GridSpace, synced by replan()) and an
/// edit mark per cell: about 37 bytes per cell, allocated by the constructor. After warm-up
/// (the heap and path at their largest), plan() and replan() allocate nothing.
///
/// The open list is the engine's indexed d-ary heap ordered by the first key part
/// min(g, rhs) + h + km; ties go to the larger h + km, i.e. the smaller second part
/// min(g, rhs) as in the paper (rounded to float: only the order of near-equal ties depends
/// on it, never the result, because the loop runs while the top's first part is <= the
/// agent's, which is the lexicographic test for every node but the agent itself; key_slack
/// widens it by the rounding of floating-point keys). Keys that
/// rise and nodes that become consistent stay in the heap and are fixed or dropped when they
/// reach the top (the paper's "k_old < k_new" case), so the heap needs no removal.
///
/// The map must outlive the object and be edited only between calls. Not thread-safe: one per
/// agent; any number may read one map.
class DStarLite {
 public:
  explicit DStarLite(const GridMap& map, const DStarLiteOptions& options = {});
  explicit DStarLite(const GridMap&&, const DStarLiteOptions& = {}) = delete;  // would dangle
  // The heap writes positions through a pointer to this object's records.
  DStarLite(const DStarLite&) = delete;
  DStarLite& operator=(const DStarLite&) = delete;

  /// Forgets everything and plans from `start` (the agent) to `goal`, on the map as it is now.
  /// Failure: invalid_query plus out_of_bounds, start_blocked or goal_blocked (nothing
  /// searched; replan() tries again once the cell is free), or unreachable; stale_world while
  /// the map is behind a map it follows (GridMap::behind(): a SizeClassMap not yet synced),
  /// as replan() then.
  Status plan(CellId start, CellId goal) { return plan(start, goal, search::Budget{}); }
  /// The same within `budget` (expansions, cells looked at — SearchStats::generated — and
  /// time, checked between expansions as a search step does): Running when the budget ran out
  /// first; replan(budget) goes on from there.
  Status plan(CellId start, CellId goal, const search::Budget& budget);
  /// The agent now stands on `start` (anywhere: usually the next cell of path()). Only
  /// recorded; the next replan() accounts for it.
  void move_start(CellId start);
  /// Repairs the search after the map's edits since the last plan()/replan() and the agent's
  /// moves, and extracts the path from the agent. Same statuses as plan(); before any plan():
  /// invalid_query.
  Status replan() { return replan(search::Budget{}); }
  /// A re-plan spread over calls: does at most `budget` of work and returns Running while the
  /// re-plan is unfinished (path() is then empty: a path is valid only once the status is
  /// finished); the next call goes on where this one stopped. Edits and agent moves made
  /// between the calls are taken in by the next one (the search's state between two
  /// expansions is a valid D* Lite state, so they are repaired as after a finished one). A
  /// finished re-plan gives the path and cost an unbudgeted replan() would: the work is the
  /// same, only cut into pieces. stats() add up over the calls of one re-plan. Each call
  /// expands at least one node; repairing the edits and a start-over's reset are done whole
  /// in the call that meets them.
  Status replan(const search::Budget& budget);

  /// Whether the map was edited since the last plan()/replan().
  [[nodiscard]] bool stale() const { return space_.stale(); }
  [[nodiscard]] Status status() const { return status_; }
  /// From the agent's cell to the goal, and its cost (the sum of the steps' costs); empty
  /// unless the status is Success.
  [[nodiscard]] const Path<CellId>& path() const { return path_; }
  [[nodiscard]] CellId start() const { return start_; }
  [[nodiscard]] CellId goal() const { return goal_; }
  /// The last plan()/replan(): expanded = nodes taken off the heap and made consistent,
  /// generated = edges looked at (rhs computations and path extraction included).
  [[nodiscard]] const SearchStats& stats() const { return stats_; }
  /// How many times replan() started over since construction (log overflow, large edits, a
  /// lowered heuristic scale).
  [[nodiscard]] std::uint64_t restarts() const { return restarts_; }
  [[nodiscard]] const GridMap& map() const { return space_.map(); }
  [[nodiscard]] const DStarLiteOptions& options() const { return options_; }
  /// Cells breaking the algorithm's invariants: an rhs that is not the least cost + g over
  /// the cell's moves on the map as synced, or an inconsistent cell (g != rhs) without a heap
  /// entry whose key is at most its key now. 0 after every plan()/replan(); for tests.
  /// @warning O(cells).
  [[nodiscard]] std::size_t invariant_violations() const;
  /// Bytes held: records, masks, marks, heap and path capacity.
  [[nodiscard]] std::size_t memory_bytes() const;

 private:
  static constexpr std::uint32_t no_position = detail::DStarLiteRecord::no_position;
  /// Relative slack of the stop test: keys up to start_key × (1 + key_slack) are expanded
  /// too. Rounding errors of sums of costs and km are ~1e-16 per operation; this is far above
  /// them and far below any difference between two path costs that matters.
  static constexpr double key_slack = 1e-9;

  using Record = detail::DStarLiteRecord;
  struct Positions {
    search::GenerationArray<Record>* records;
    void set_position(std::uint32_t slot, std::uint32_t pos) const { (*records)[slot].position = pos; }
  };
  using Heap = search::IndexedDaryHeap<4, Positions>;

  [[nodiscard]] const Record& record(std::uint32_t c) const { return records_.is_set(c) ? records_[c] : unset_; }
  Record& touch(std::uint32_t c) { return records_.touch(c).element; }
  [[nodiscard]] Cost heuristic(std::uint32_t a, std::uint32_t b) const;
  /// min over the cell's moves of cost + g(neighbour); 0 for the goal. Counts the moves.
  [[nodiscard]] Cost lowest_rhs(std::uint32_t c, std::uint64_t& looked) const;
  /// Queues an inconsistent cell (or lowers its key); consistent ones are dropped lazily.
  void update_vertex(std::uint32_t c, Record& r);
  /// Catches up with the map's edits; false when it must start over instead.
  bool repair_edits();
  /// Expands until the agent's cell is settled (true) or `budget` ran out first (false).
  bool compute(const search::Budget& budget);
  /// compute()'s loop; without `budgeted` (an unlimited budget) it checks no budget at all.
  template <bool budgeted>
  bool compute_within(const search::Budget& budget);
  Status extract_path();
  /// Checks the ends; on success of the check returns running.
  [[nodiscard]] Status check_ends() const;
  Status finish(Status s);
  /// Computes within `budget` and extracts the path unless the checked ends failed; adds the
  /// call's time. Running, with an empty path, when the budget ran out.
  Status solve(Status ends, const Stopwatch& clock, const search::Budget& budget);

  DStarLiteOptions options_;
  GridSpace space_;
  search::GenerationArray<Record> records_;
  Positions positions_;
  Heap heap_;
  search::GenerationSet refreshed_;  ///< cells whose rhs an edit repair recomputed
  Record unset_{};
  bool four_connected_;
  Cost scale_ = 1;        ///< heuristic scale in use
  Cost km_ = 0;           ///< key modifier: the heuristic distance the agent moved since plan()
  CellId start_ = CellId::invalid();
  CellId last_start_ = CellId::invalid();  ///< the agent's cell at the last repair
  CellId goal_ = CellId::invalid();
  std::uint64_t synced_version_ = 0;  ///< the map's version the records reflect
  bool planned_ = false;
  Status status_{};
  Path<CellId> path_;
  SearchStats stats_;
  std::uint64_t restarts_ = 0;
};

}  // namespace waymark::grid
