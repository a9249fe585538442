#pragma once
/// @file Replanner: keeps one agent's grid path valid while the agent walks it, the goal moves
/// and the map is edited.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string_view>
#include <vector>

#include "waymark/core/path.hpp"
#include "waymark/core/stats.hpp"
#include "waymark/core/status.hpp"
#include "waymark/grid/dstar_lite.hpp"
#include "waymark/grid/grid_map.hpp"
#include "waymark/search/generation_array.hpp"
#include "waymark/search/handle.hpp"

namespace waymark::grid {

class GridPlanner;

/// How a re-plan is computed.
enum class ReplanStrategy : std::uint8_t {
  incremental,   ///< D* Lite (DStarLite): repairs its last search; a goal move starts it over
  from_scratch,  ///< a fresh A* from the agent (a GridPlanner the Replanner owns and syncs)
};

/// Why update() re-planned.
enum class ReplanReason : std::uint8_t {
  none,               ///< it did not
  left_path,          ///< advance_to() named a cell that is not ahead on the path
  goal_moved,         ///< the goal is further than goal_move_threshold from the path's end
  path_blocked,       ///< an edit made a step of the remaining path illegal
  path_cost_changed,  ///< an edit changed the cost of a cell on the remaining path
  map_edited,         ///< any other edit, with replan_on_any_edit
  path_ended,         ///< the agent reached the path's end, but the goal has moved on from it
  interval,           ///< replan_interval_s passed since the last re-plan
  retry,              ///< the last attempt failed and something has changed since
};

/// "none", "left-path", "goal-moved", "path-blocked", "path-cost-changed", "map-edited",
/// "path-ended", "interval", "retry".
[[nodiscard]] std::string_view to_string(ReplanReason r);
/// "incremental" or "from-scratch".
[[nodiscard]] std::string_view to_string(ReplanStrategy s);

struct ReplannerOptions {
  ReplanStrategy strategy = ReplanStrategy::incremental;
  DiagonalRule diagonal = DiagonalRule::no_corner_cutting;
  /// Re-plan at least this often, in the seconds passed to update(); 0: never on time alone.
  /// [Limit: >= 0, finite]
  double replan_interval_s = 0;
  /// Re-plan when the goal's centre is further than this from the centre of the cell the path
  /// leads to, world units; a smaller move waits until the agent reaches the path's end (or
  /// another trigger). 0: on every goal move. [Limit: >= 0]
  double goal_move_threshold = 0;
  /// true: every map edit triggers a re-plan, so the path stays a shortest one. false: only
  /// edits that block the remaining path or change a cost on it do; openings and cost changes
  /// elsewhere wait for another trigger.
  bool replan_on_any_edit = true;
  /// Incremental only: see DStarLiteOptions::restart_area_fraction. [Limit: > 0]
  double restart_area_fraction = DStarLiteOptions{}.restart_area_fraction;
};

/// What one update() did.
struct ReplanUpdate {
  Status status;     ///< Success while path() leads from the agent to the goal
  bool replanned = false;
  ReplanReason reason = ReplanReason::none;
};

/// An agent's path, re-planned when needed.
///
/// The game moves the agent and edits the map; each tick it tells the Replanner
/// (advance_to(), set_goal()) and calls update(), which re-plans when a trigger fires (see
/// ReplanReason) and otherwise only reads the map's change log: the edits since the last
/// update() are matched against the remaining path through a per-cell mark of its cells (or,
/// for an edit larger than the rest of the path, the path's cells against the edit), never by
/// re-checking the whole path each tick. After update() the remaining path is legal on the
/// map as it is: every edit that blocks it triggers a re-plan whatever the options say.
///
/// The from-scratch strategy owns a GridPlanner (A*) and syncs it before each re-plan; the
/// incremental one owns a DStarLite that reads the change log itself. Memory: the strategy's
/// (DStarLite about 37 bytes per cell, GridPlanner about 33) plus 8 bytes per cell of path
/// marks, allocated by the constructor; after warm-up update() allocates nothing.
///
/// The map must outlive the Replanner and be edited only between its calls. One per agent;
/// not thread-safe.
class Replanner {
 public:
  explicit Replanner(const GridMap& map, const ReplannerOptions& options = {});
  explicit Replanner(const GridMap&&, const ReplannerOptions& = {}) = delete;  // would dangle
  ~Replanner();
  Replanner(const Replanner&) = delete;
  Replanner& operator=(const Replanner&) = delete;

  /// Plans from `agent` to `goal` at once, forgetting any earlier plan.
  Status start(CellId agent, CellId goal);
  /// The agent now stands on `cell`: usually the next cell of path(); any other cell not
  /// ahead on the path makes the next update() re-plan (left_path).
  void advance_to(CellId cell);
  /// The goal is now `cell`; the next update() decides whether that is worth a re-plan.
  void set_goal(CellId cell);
  /// Re-plans if a trigger fired; `elapsed_s` is the time since the last update(), for the
  /// interval. Before start(): not_started.
  ReplanUpdate update(double elapsed_s = 0);

  /// The rest of the path: the agent's cell first, then the cells to walk, ending at the cell
  /// planned for (the goal, or where it was within goal_move_threshold). Empty after a failure.
  [[nodiscard]] std::span<const CellId> path() const;
  /// Cost of path() as the map was at the last re-plan.
  [[nodiscard]] Cost cost() const;
  /// The last re-plan's status (not_started before start()).
  [[nodiscard]] Status status() const { return status_; }
  [[nodiscard]] CellId agent() const { return agent_; }
  [[nodiscard]] CellId goal() const { return goal_; }
  /// The goal the path was planned for.
  [[nodiscard]] CellId planned_goal() const { return planned_goal_; }
  /// The last re-plan's counters (DStarLite or A*).
  [[nodiscard]] const SearchStats& last_stats() const { return last_stats_; }
  /// Re-plans so far, start() included.
  [[nodiscard]] std::uint64_t replans() const { return replans_; }
  [[nodiscard]] const ReplannerOptions& options() const { return options_; }
  /// The incremental strategy's search (null for from_scratch), for its statistics.
  [[nodiscard]] const DStarLite* incremental() const { return dstar_.get(); }

 private:
  enum class EditEffect : std::uint8_t { none, elsewhere, cost_on_path, blocks_path };
  struct PathMark {
    std::uint32_t index;  ///< position in path_
    std::uint32_t stamp;
  };

  Status replan();
  void adopt(const Path<CellId>& p);
  [[nodiscard]] EditEffect examine_edits() const;
  /// What one edit does to the remaining path.
  [[nodiscard]] EditEffect edit_effect(const GridChange& change) const;
  /// Whether path step i -> i+1 is legal on the map as it is now.
  [[nodiscard]] bool step_legal(std::size_t i) const;
  [[nodiscard]] bool goal_moved_far() const;

  const GridMap* map_;
  ReplannerOptions options_;
  std::unique_ptr<DStarLite> dstar_;
  std::unique_ptr<GridPlanner> planner_;
  search::SearchHandle<CellId> search_;  ///< the planner's search, for the replan-from-scratch strategies
  search::GenerationArray<PathMark> marks_;  ///< cell -> its index on path_, for this path
  std::vector<CellId> path_;
  std::vector<Cost> cumulative_;  ///< cost of path_'s first i steps
  CellRect path_box_{};           ///< bounding box of path_
  std::size_t progress_ = 0;      ///< index of the agent's cell on path_
  Cost path_cost_ = 0;
  CellId agent_ = CellId::invalid();
  CellId goal_ = CellId::invalid();
  CellId planned_goal_ = CellId::invalid();
  std::uint64_t seen_version_ = 0;  ///< the map's version update() last examined
  double since_replan_s_ = 0;
  bool started_ = false;
  bool fresh_start_ = false;  ///< start() was called: the next re-plan forgets the old search
  bool left_path_ = false;
  bool agent_moved_ = false;  ///< since the last re-plan (a failed one is retried after a move)
  Status status_{};
  SearchStats last_stats_;
  std::uint64_t replans_ = 0;
};

}  // namespace waymark::grid
