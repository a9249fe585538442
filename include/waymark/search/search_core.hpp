#pragma once
/// @file Bookkeeping every steppable search shares: status, path, stats, observer, cancel.

#include <algorithm>
#include <cstddef>
#include <limits>

#include "waymark/core/path.hpp"
#include "waymark/core/stats.hpp"
#include "waymark/core/status.hpp"
#include "waymark/core/stopwatch.hpp"

namespace waymark::search {

/// Unbounded expansion budget for step().
inline constexpr std::size_t unlimited_expansions = std::numeric_limits<std::size_t>::max();

/// Base of the steppable searches (best-first, BFS, DFS, IDA*). Derived classes implement
/// begin(start, goal) and step(budget) and report through the protected helpers.
template <class Node, class Obs>
class SearchCore {
 public:
  /// Asks the search to stop; the next step() returns Failure with the Cancelled flag.
  void cancel() { cancelled_ = true; }

  [[nodiscard]] Status status() const { return status_; }
  /// The path after Success (or a partial path after a PartialResult failure); else empty.
  [[nodiscard]] const Path<Node>& path() const { return path_; }
  [[nodiscard]] const SearchStats& stats() const { return stats_; }
  [[nodiscard]] Obs& observer() { return observer_; }

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
  void start_query(const Node& start, const Node& goal) {
    path_.clear();
    stats_ = SearchStats{};
    cancelled_ = false;
    status_ = Status{SearchState::running, StatusDetail::none};
    observer_.on_begin(start, goal);
  }

  void finish(Status s) {
    status_ = s;
    observer_.on_end(s);
  }
  void finish_success() { finish(Status{SearchState::success, StatusDetail::none}); }
  void finish_failure(StatusDetail why = StatusDetail::none) {
    finish(Status{SearchState::failure, why});
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
  bool cancelled_ = false;
};

/// One-shot query on any steppable search: begin, then step until finished.
template <class Search, class Node>
Status solve(Search& search, const Node& start, const Node& goal) {
  search.begin(start, goal);
  return search.step(unlimited_expansions);
}

}  // namespace waymark::search
