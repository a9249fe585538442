#pragma once
/// @file Compile-time search observers: hooks the searches call at each event.
///
/// An observer is any type with these member functions; a custom observer derives from
/// NullObserver and hides only the hooks it needs, so the others cost nothing (they are empty
/// and inline away). Hooks are called synchronously from begin()/step(); keep them cheap. For
/// a run-time choice of observer, and events as values, see events.hpp.

#include <cstdint>
#include <vector>

#include "waymark/core/cost.hpp"
#include "waymark/core/status.hpp"
#include "waymark/search/goal.hpp"

namespace waymark::search {

struct NullObserver {
  /// A query started; its sources follow as on_open calls without a parent.
  template <class Node>
  void on_begin(const Goal<Node>& /*goal*/) {}
  /// `node` was put on the open list (or the frontier) with cost-so-far `g` and estimate `h`,
  /// reached from `parent` (null for a source). `improved`: it was already reached (open, or
  /// closed and reopened) and got a better g.
  template <class Node>
  void on_open(const Node& /*node*/, const Node* /*parent*/, Cost /*g*/, Cost /*h*/, bool /*improved*/) {}
  /// The successor `to` of `from` (reached with `g_from`) was looked at over an edge of cost
  /// `edge_cost`, whether or not it improved anything.
  template <class Node>
  void on_generate(const Node& /*from*/, const Node& /*to*/, Cost /*g_from*/, Cost /*edge_cost*/) {}
  /// `node` was taken from the open list with cost-so-far `g` and is being expanded.
  template <class Node>
  void on_expand(const Node& /*node*/, Cost /*g*/, Cost /*h*/) {}
  /// All successors of `node` have been generated.
  template <class Node>
  void on_close(const Node& /*node*/) {}
  template <class Node>
  void on_goal(const Node& /*goal*/, Cost /*cost*/) {}
  /// The query finished.
  void on_end(Status /*status*/) {}
  /// A step() ended with the search still running: its budget was used up.
  void on_slice_end() {}
};

/// Counts events; handy for tests and the CLI.
struct CountingObserver : NullObserver {
  std::uint64_t begins = 0, expands = 0, opens = 0, improvements = 0, closes = 0, goals = 0, ends = 0,
                slices = 0, generates = 0;
  template <class Node>
  void on_begin(const Goal<Node>&) {
    ++begins;
  }
  template <class Node>
  void on_expand(const Node&, Cost, Cost) {
    ++expands;
  }
  template <class Node>
  void on_open(const Node&, const Node*, Cost, Cost, bool improved) {
    ++opens;
    improvements += improved ? 1 : 0;
  }
  template <class Node>
  void on_generate(const Node&, const Node&, Cost, Cost) {
    ++generates;
  }
  template <class Node>
  void on_close(const Node&) {
    ++closes;
  }
  template <class Node>
  void on_goal(const Node&, Cost) {
    ++goals;
  }
  void on_end(Status) { ++ends; }
  void on_slice_end() { ++slices; }
};

/// Records the expanded nodes in order (for pictures and the viewer). Allocates as it grows.
template <class Node>
struct RecordingObserver : NullObserver {
  std::vector<Node> expanded;
  void on_begin(const Goal<Node>&) { expanded.clear(); }
  void on_expand(const Node& n, Cost, Cost) { expanded.push_back(n); }
  using NullObserver::on_close;
  using NullObserver::on_generate;
  using NullObserver::on_goal;
  using NullObserver::on_open;
};

}  // namespace waymark::search
