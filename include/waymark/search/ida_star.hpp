#pragma once
/// @file Iterative-deepening A* (Korf 1985): depth-first searches bounded by f = g + h, the
/// bound raised each iteration to the smallest f that exceeded it.

#include <algorithm>
#include <cstdint>
#include <span>
#include <vector>

#include "waymark/search/budget.hpp"
#include "waymark/search/goal.hpp"

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
  /// Most nodes one query may expand, over all its iterations (this also bounds the
  /// transposition table); beyond it the query fails with out_of_nodes. 0 = unlimited.
  std::size_t max_nodes = 0;
};

/// Optimal with an admissible heuristic; memory linear in the solution depth (plus the
/// optional transposition table). Several sources are searched as the children of a virtual
/// root, each at its initial cost.
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
  using space_type = Space;

  explicit IdaStar(const Space& space, H heuristic = {}, Obs observer = {}, IdaStarOptions options = {})
      : Core(std::move(observer)), space_(&space), heuristic_(std::move(heuristic)), options_(options),
        nodes_(options.max_nodes) {}
  explicit IdaStar(const Space&&, H = {}, Obs = {}, IdaStarOptions = {}) = delete;  // would dangle

  void begin(const Node& start, const Node& goal) {
    const Source<Node> source{start, 0};
    begin(std::span<const Source<Node>>(&source, 1), Goal<Node>::at(goal));
  }

  void begin(std::span<const Source<Node>> sources, const Goal<Node>& goal) {
    const typename Core::Timer timer(this->stats_);
    this->start_query(goal);
    sources_.clear();
    if (refuse_stale()) return;
    if (goal.kind() == Goal<Node>::Kind::node && !node_is_traversable(*space_, goal.node())) {
      this->finish_failure(endpoint_refusal(*space_, goal.node(), StatusDetail::goal_blocked));
      return;
    }
    threshold_ = infinite_cost;
    nodes_.reset();
    for (const Source<Node>& s : sources) {
      if (!node_is_traversable(*space_, s.node)) continue;
      sources_.push_back(Child{s.node, s.cost});
      threshold_ = std::min(threshold_, s.cost + this->goal_.estimate(heuristic_, s.node));
    }
    if (sources_.empty()) {
      this->finish_failure(sources_refusal(*space_, sources));
      return;
    }
    start_iteration();
  }

  /// Warm-up without a query: sizes the transposition table for the whole space (dense spaces).
  void reserve() {
    if (options_.transposition_table) table_.reserve(*space_);
  }

  Status step(const Budget& budget = {}) {
    if (!this->status_.running()) return this->status_;
    const typename Core::Timer timer(this->stats_);
    if (refuse_stale()) return this->status_;
    const BudgetMeter meter(budget, this->stats_.expanded, this->stats_.generated);
    while (this->status_.running() && !meter.exhausted(this->stats_.expanded, this->stats_.generated)) {
      if (this->cancelled_) {
        this->finish_failure(StatusDetail::cancelled);
      } else if (frames_.empty()) {
        if (next_threshold_ == infinite_cost) {
          this->finish_failure(StatusDetail::unreachable);
        } else {
          threshold_ = next_threshold_;
          start_iteration();
        }
      } else {
        advance();
      }
    }
    this->stats_.scanned = this->stats_.generated;
    return this->end_step();
  }
  Status step(std::size_t max_expansions) { return step(Budget::of_expansions(max_expansions)); }

  /// The f bound of the current iteration.
  [[nodiscard]] Cost threshold() const { return threshold_; }
  [[nodiscard]] const Space& space() const { return *space_; }

 private:
  struct Child {
    Node node;
    Cost edge_cost;
  };
  /// One level of the depth-first stack: a node and the range of its generated children.
  /// frames_[0] is the virtual root whose children are the sources.
  struct Frame {
    Node node;
    Cost g;
    std::uint32_t next_child;
    std::uint32_t end_child;
  };

  bool refuse_stale() {
    if (is_unsupported(*space_)) {
      this->finish_failure(StatusDetail::invalid_query | StatusDetail::unsupported);
      return true;
    }
    if (!is_stale(*space_) && !is_stale(heuristic_)) return false;
    this->finish_failure(StatusDetail::stale_world);
    return true;
  }

  void start_iteration() {
    ++this->stats_.iterations;
    frames_.clear();
    children_.assign(sources_.begin(), sources_.end());
    next_threshold_ = infinite_cost;
    if (options_.transposition_table) table_.reset(*space_);
    frames_.push_back(Frame{Node{}, 0, 0, static_cast<std::uint32_t>(children_.size())});
  }

  /// Takes the next child of the top frame, or pops the frame when it has none left.
  void advance() {
    Frame& top = frames_.back();
    if (top.next_child == top.end_child) {
      if (frames_.size() > 1) this->observer_.on_close(top.node);
      frames_.pop_back();
      children_.resize(frames_.empty() ? 0 : frames_.back().end_child);
      return;
    }
    const Child c = children_[top.next_child++];
    visit(c.node, top.g + c.edge_cost);
  }

  /// Handles reaching `node` with cost `g` from the top frame.
  void visit(const Node& node, Cost g) {
    const Cost h = this->goal_.estimate(heuristic_, node);
    const Cost f = g + h;
    if (f > threshold_) {
      if (f < next_threshold_) next_threshold_ = f;
      return;
    }
    const bool has_parent = frames_.size() > 1;
    if (options_.transposition_table) {
      const SlotLookup s = table_.find_or_insert(*space_, node);
      NodeRecord& r = table_[s.slot];
      if (!s.fresh && !(g < r.g)) return;
      r.g = g;
    }
    this->observer_.on_open(node, has_parent ? &frames_.back().node : nullptr, g, h, false);
    if (this->goal_.reached(node)) {
      this->observer_.on_goal(node, g);
      this->path_.clear();
      this->path_.cost = g;
      for (std::size_t i = 1; i < frames_.size(); ++i) this->path_.nodes.push_back(frames_[i].node);
      this->path_.nodes.push_back(node);
      this->finish_success();
      return;
    }
    if (!nodes_.admit()) {
      this->finish_failure(StatusDetail::out_of_nodes);
      return;
    }
    this->observer_.on_expand(node, g, h);
    ++this->stats_.expanded;
    const Node parent = has_parent ? frames_.back().node : node;
    const auto first = static_cast<std::uint32_t>(children_.size());
    space_->for_each_successor(node, [&](const Node& succ, Cost edge_cost) {
      ++this->stats_.generated;
      this->observer_.on_generate(node, succ, g, edge_cost);
      if (has_parent && succ == parent) return;
      children_.push_back(Child{succ, edge_cost});
    });
    frames_.push_back(Frame{node, g, first, static_cast<std::uint32_t>(children_.size())});
    this->note_frontier_size(frames_.size() - 1);
  }

  const Space* space_;
  H heuristic_;
  IdaStarOptions options_;
  NodeLimit nodes_;
  Table table_;
  std::vector<Child> sources_;
  std::vector<Frame> frames_;
  std::vector<Child> children_;
  Cost threshold_ = 0;
  Cost next_threshold_ = infinite_cost;
};

}  // namespace waymark::search
