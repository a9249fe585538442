#pragma once
/// @file Search observers: hooks the searches call at each event.
///
/// An observer is any type with these member functions (all optional in spirit, but a custom
/// observer derives from NullObserver so the ones it does not need cost nothing). Hooks are
/// called synchronously from begin()/step(); keep them cheap.

#include <cstdint>
#include <vector>

#include "waymark/core/cost.hpp"
#include "waymark/core/status.hpp"

namespace waymark::search {

struct NullObserver {
  template <class Node>
  void on_begin(const Node& /*start*/, const Node& /*goal*/) {}
  /// `node` was taken from the open list with cost-so-far `g`.
  template <class Node>
  void on_expand(const Node& /*node*/, Cost /*g*/) {}
  /// `node` was put on the open list (`improved` = it was already there, or closed and
  /// reopened, and got a better g).
  template <class Node>
  void on_open(const Node& /*node*/, Cost /*g*/, Cost /*h*/, bool /*improved*/) {}
  /// all successors of `node` have been generated.
  template <class Node>
  void on_close(const Node& /*node*/) {}
  template <class Node>
  void on_goal(const Node& /*goal*/, Cost /*cost*/) {}
  void on_end(Status /*status*/) {}
};

/// Counts events; handy for tests and the CLI.
struct CountingObserver : NullObserver {
  std::uint64_t begins = 0, expands = 0, opens = 0, improvements = 0, closes = 0, goals = 0,
                ends = 0;
  template <class Node>
  void on_begin(const Node&, const Node&) {
    ++begins;
  }
  template <class Node>
  void on_expand(const Node&, Cost) {
    ++expands;
  }
  template <class Node>
  void on_open(const Node&, Cost, Cost, bool improved) {
    ++opens;
    improvements += improved ? 1 : 0;
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
};

/// Records the expanded nodes in order (for pictures and the viewer). Allocates as it grows.
template <class Node>
struct RecordingObserver : NullObserver {
  std::vector<Node> expanded;
  void on_begin(const Node&, const Node&) { expanded.clear(); }
  void on_expand(const Node& n, Cost) { expanded.push_back(n); }
  using NullObserver::on_close;
  using NullObserver::on_goal;
  using NullObserver::on_open;
};

}  // namespace waymark::search
