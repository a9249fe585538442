#pragma once
/// @file Bookkeeping every steppable search shares: status, path, stats, goal, observer,
/// cancel, per-step timing, and results that outlive the next query.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>

#include "waymark/core/path.hpp"
#include "waymark/core/stats.hpp"
#include "waymark/core/status.hpp"
#include "waymark/core/stopwatch.hpp"
#include "waymark/search/budget.hpp"
#include "waymark/search/goal.hpp"

namespace waymark::search {

/// Unbounded expansion budget for step(n).
inline constexpr std::size_t unlimited_expansions = std::numeric_limits<std::size_t>::max();

/// What a finished query produced, kept apart from the search so the next begin() cannot
/// overwrite it (see copy_result()).
template <class Node>
struct SearchResult {
  Status status{};
  Path<Node> path;
  SearchStats stats;
};

/// Base of the steppable searches (best-first, BFS, DFS, IDA*, bidirectional). Derived
/// classes implement begin(sources, goal) and step(budget) and report through the protected
/// helpers.
template <class Node, class Obs>
class SearchCore {
 public:
  /// Asks the search to stop; the next step() returns Failure with the cancelled flag.
  void cancel() { cancelled_ = true; }

  [[nodiscard]] Status status() const { return status_; }
  /// The path after Success (or a partial path after a failure flagged partial_result); else
  /// empty. Valid until the next begin().
  [[nodiscard]] const Path<Node>& path() const { return path_; }
  [[nodiscard]] const SearchStats& stats() const { return stats_; }
  [[nodiscard]] const Goal<Node>& goal() const { return goal_; }
  [[nodiscard]] Obs& observer() { return observer_; }
  [[nodiscard]] const Obs& observer() const { return observer_; }

  /// Sizes the path for `nodes` nodes, so that no query's path up to that length allocates.
  void reserve_path(std::size_t nodes) { path_.nodes.reserve(nodes); }

  /// Copies status, path and stats into `out`, reusing its capacity: no allocation once `out`
  /// has held a path as long.
  void copy_result(SearchResult<Node>& out) const {
    out.status = status_;
    out.path.nodes.assign(path_.nodes.begin(), path_.nodes.end());
    out.path.cost = path_.cost;
    out.stats = stats_;
  }

 protected:
  explicit SearchCore(Obs observer) : observer_(std::move(observer)) {}

  /// Adds the wall time of one begin()/step() call to stats().time_s.
  class Timer {
   public:
    explicit Timer(SearchStats& stats) : stats_(stats) {}
    Timer(const Timer&) = delete;
    Timer& operator=(const Timer&) = delete;
    ~Timer() { stats_.time_s += watch_.seconds(); }

   private:
    SearchStats& stats_;
    Stopwatch watch_;
  };

  /// Clears the previous query's results and reports on_begin.
  void start_query(const Goal<Node>& goal) {
    path_.clear();
    stats_ = SearchStats{};
    cancelled_ = false;
    goal_ = goal;
    status_ = Status{SearchState::running, StatusDetail::none};
    observer_.on_begin(goal_);
  }

  void finish(Status s) {
    status_ = s;
    observer_.on_end(s);
  }
  void finish_success() { finish(Status::success()); }
  void finish_failure(StatusDetail why = StatusDetail::none) { finish(Status::failure(why)); }

  /// Ends a step(): reports the end of a time slice when the search goes on.
  Status end_step() {
    if (status_.running()) observer_.on_slice_end();
    return status_;
  }

  void note_frontier_size(std::size_t n) {
    stats_.max_open_size = std::max<std::uint64_t>(stats_.max_open_size, n);
  }

  /// Fills path_ by walking `parent_of` from `last` back to a node whose parent is `none`.
  template <class Slot, class NodeOf, class ParentOf>
  void build_path(Slot last, Slot none, Cost cost, NodeOf node_of, ParentOf parent_of) {
    path_.clear();
    path_.cost = cost;
    for (Slot s = last; s != none; s = parent_of(s)) path_.nodes.push_back(node_of(s));
    std::reverse(path_.nodes.begin(), path_.nodes.end());
  }

  Obs observer_;
  Path<Node> path_;
  SearchStats stats_;
  Status status_{};
  Goal<Node> goal_;
  bool cancelled_ = false;
};

/// Counts the nodes a query reaches against a limit (0 = none): out of nodes past it.
class NodeLimit {
 public:
  explicit NodeLimit(std::size_t max_nodes = 0)
      : limit_(max_nodes == 0 ? std::numeric_limits<std::uint64_t>::max() : max_nodes) {}
  void reset() { reached_ = 0; }
  /// Counts one more node; false when that is one too many.
  [[nodiscard]] bool admit() { return ++reached_ <= limit_; }

 private:
  std::uint64_t limit_;
  std::uint64_t reached_ = 0;
};

/// One-shot query on any steppable search: begin, then step until finished.
template <class Search, class Node>
Status solve(Search& search, const Node& start, const Node& goal) {
  search.begin(start, goal);
  return search.step();
}

}  // namespace waymark::search
