#pragma once
/// @file Iterative-deepening A* (Korf 1985): depth-first searches bounded by f = g + h, the
/// bound raised each iteration to the smallest f that exceeded it.

#include <cstdint>
#include <vector>

#include "waymark/search/concepts.hpp"
#include "waymark/search/node_table.hpp"
#include "waymark/search/observer.hpp"
#include "waymark/search/search_core.hpp"

namespace waymark::search {

struct IdaStarOptions {
  /// Remember the best g of every node visited in the current iteration and prune revisits
  /// that are no cheaper (Reinefeld & Marsland's transposition table). Optimality is kept;
  /// on graphs with many transpositions (grids) it turns exponential into polynomial work.
  /// Memory: the node table grows with the nodes visited; for huge implicit spaces (puzzles)
  /// turn it off and rely on parent pruning.
  bool transposition_table = true;
  /// Hashed-table limit when the transposition table is on; 0 = unlimited.
  std::size_t max_nodes = 0;
};

/// Optimal with an admissible heuristic; memory linear in the solution depth (plus the
/// optional transposition table).
/// @warning One iteration per distinct f value below the optimum: fine for unit or few
/// distinct edge costs (puzzles, uniform grids), very slow with real-valued terrain costs,
/// where A* is the better choice. A successor equal to the node's parent (an immediate move
/// back) is never searched.
template <SearchSpace Space, class H, class Obs = NullObserver,
          class Table = default_node_table_t<Space>>
  requires Heuristic<H, typename Space::node_type>
class IdaStar : public SearchCore<typename Space::node_type, Obs> {
  using Core = SearchCore<typename Space::node_type, Obs>;

 public:
  using Node = typename Space::node_type;

  explicit IdaStar(const Space& space, H heuristic = {}, IdaStarOptions options = {},
                   Obs observer = {})
      : Core(std::move(observer)), space_(&space), heuristic_(std::move(heuristic)),
        options_(options) {
    table_.set_max_nodes(options_.max_nodes);
  }

  void begin(const Node& start, const Node& goal) {
    const typename Core::Timer timer(this->stats_);
    start_ = start;
    goal_ = goal;
    this->start_query(start, goal);
    if (!node_is_traversable(*space_, start) || !node_is_traversable(*space_, goal)) {
      this->finish_failure();
      return;
    }
    threshold_ = heuristic_(start, goal);
    start_iteration();
  }

  Status step(std::size_t max_expansions = unlimited_expansions) {
    if (!this->status_.running()) return this->status_;
    const typename Core::Timer timer(this->stats_);
    std::size_t budget = max_expansions;
    while (this->status_.running() && budget > 0) {
      if (this->cancelled_) {
        this->finish_failure(StatusDetail::cancelled);
      } else if (frames_.empty()) {
        if (next_threshold_ == infinite_cost) {
          this->finish_failure();
        } else {
          threshold_ = next_threshold_;
          start_iteration();
        }
      } else {
        advance(budget);
      }
    }
    return this->status_;
  }

  /// The f bound of the current iteration.
  [[nodiscard]] Cost threshold() const { return threshold_; }

 private:
  struct Child {
    Node node;
    Cost edge_cost;
  };
  /// One level of the depth-first stack: a node and the range of its generated children.
  struct Frame {
    Node node;
    Cost g;
    std::uint32_t next_child;
    std::uint32_t end_child;
  };

  void start_iteration() {
    ++this->stats_.iterations;
    frames_.clear();
    children_.clear();
    next_threshold_ = infinite_cost;
    if (options_.transposition_table) table_.reset(*space_);
    visit(start_, 0);
  }

  /// Takes the next child of the top frame, or pops the frame when it has none left.
  void advance(std::size_t& budget) {
    Frame& top = frames_.back();
    if (top.next_child == top.end_child) {
      this->observer_.on_close(top.node);
      frames_.pop_back();
      children_.resize(frames_.empty() ? 0 : frames_.back().end_child);
      return;
    }
    const Child c = children_[top.next_child++];
    const Cost g = top.g + c.edge_cost;
    if (visit(c.node, g)) --budget;
  }

  /// Handles reaching `node` with cost `g`. Returns true when it was expanded.
  bool visit(const Node& node, Cost g) {
    const Cost h = heuristic_(node, goal_);
    const Cost f = g + h;
    if (f > threshold_) {
      if (f < next_threshold_) next_threshold_ = f;
      return false;
    }
    if (options_.transposition_table) {
      const SlotLookup s = table_.find_or_insert(*space_, node);
      if (s.slot == no_slot) {
        this->finish_failure(StatusDetail::out_of_nodes);
        return false;
      }
      NodeRecord& r = table_[s.slot];
      if (!s.fresh && !(g < r.g)) return false;
      r.g = g;
    }
    this->observer_.on_open(node, g, h, false);
    if (node == goal_) {
      this->observer_.on_goal(node, g);
      this->path_.clear();
      this->path_.cost = g;
      for (const Frame& fr : frames_) this->path_.nodes.push_back(fr.node);
      this->path_.nodes.push_back(node);
      this->finish_success();
      return false;
    }
    this->observer_.on_expand(node, g);
    ++this->stats_.expanded;
    const bool has_parent = !frames_.empty();
    const Node parent = has_parent ? frames_.back().node : node;
    const auto first = static_cast<std::uint32_t>(children_.size());
    space_->for_each_successor(node, [&](const Node& succ, Cost edge_cost) {
      ++this->stats_.generated;
      if (has_parent && succ == parent) return;
      children_.push_back(Child{succ, edge_cost});
    });
    frames_.push_back(
        Frame{node, g, first, static_cast<std::uint32_t>(children_.size())});
    this->note_frontier_size(frames_.size());
    return true;
  }

  const Space* space_;
  H heuristic_;
  IdaStarOptions options_;
  Table table_;
  std::vector<Frame> frames_;
  std::vector<Child> children_;
  Node start_{};
  Node goal_{};
  Cost threshold_ = 0;
  Cost next_threshold_ = infinite_cost;
};

}  // namespace waymark::search
