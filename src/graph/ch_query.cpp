// Contraction hierarchies: the steppable query.
#include "waymark/graph/ch_query.hpp"

#include <algorithm>

#include "waymark/core/stopwatch.hpp"

namespace waymark::graph {

ChQuery::ChQuery(const ContractionHierarchy& ch, ChQueryOptions options, search::EventSink<VertexId>* events)
    : ch_(&ch),
      options_(options),
      events_(events),
      forward_positions_{this},
      backward_positions_{this},
      forward_queue_(forward_positions_),
      backward_queue_(backward_positions_) {}

void ChQuery::reserve() {
  records_.assign(ch_->node_count());
  records_.touch_all();
  const std::size_t expected_queue = 1024;
  forward_queue_.reserve(expected_queue);
  backward_queue_.reserve(expected_queue);
}

void ChQuery::report(search::EventKind kind, int dir, std::uint32_t rank, Cost g, std::uint32_t parent_rank) {
  search::Event<VertexId> e;
  e.kind = kind;
  e.direction = dir == forward ? search::Direction::forward : search::Direction::backward;
  e.has_node = true;
  e.node = ch_->vertex_at(rank);
  e.g = g;
  if (parent_rank != not_open) {
    e.has_parent = true;
    e.parent = ch_->vertex_at(parent_rank);
  }
  events_->on_event(e);
}

void ChQuery::begin(VertexId source, VertexId target) {
  const search::Source<VertexId> s{source, 0};
  begin(std::span<const search::Source<VertexId>>(&s, 1), search::Goal<VertexId>::at(target));
}

template <int Dir>
void ChQuery::push_source(VertexId v, Cost cost) {
  auto& queue = [this]() -> auto& {
    if constexpr (Dir == forward) {
      return forward_queue_;
    } else {
      return backward_queue_;
    }
  }();
  const std::uint32_t r = ch_->rank(v);
  Record& rec = records_.touch(r).element;
  if (!(cost < rec.dist[Dir])) return;
  rec.dist[Dir] = cost;
  if (rec.heap_pos[Dir] == not_open) {
    queue.push(r, cost, cost);
  } else {
    queue.decrease_key(rec.heap_pos[Dir], cost, cost);
  }
  if (events_) report(search::EventKind::open, Dir, r, cost);
}

void ChQuery::begin(std::span<const search::Source<VertexId>> sources, const search::Goal<VertexId>& goal) {
  const Stopwatch watch;
  stats_ = SearchStats{};
  ch_stats_ = ChQueryStats{};
  path_.clear();
  distance_ = infinite_cost;
  cancelled_ = false;
  best_ = infinite_cost;
  meet_ = not_open;
  status_ = Status{SearchState::running, StatusDetail::none};
  if (events_) {
    search::Event<VertexId> e;
    e.kind = search::EventKind::begin;
    e.has_node = goal.kind() == search::Goal<VertexId>::Kind::node;
    e.node = goal.node();
    events_->on_event(e);
  }
  using Kind = search::Goal<VertexId>::Kind;
  if (ch_->stale()) return fail(StatusDetail::stale_world);
  if (sources.empty() || (goal.kind() != Kind::node && goal.kind() != Kind::any_of)) {
    return fail(StatusDetail::invalid_query);
  }
  const std::size_t n = ch_->node_count();
  const std::span<const VertexId> targets =
      goal.kind() == Kind::node ? std::span<const VertexId>(&goal.node(), 1) : goal.nodes();
  constexpr StatusDetail outside = StatusDetail::invalid_query | StatusDetail::out_of_bounds;
  for (const search::Source<VertexId>& s : sources) {
    if (s.node.value >= n) return fail(outside);
  }
  for (const VertexId t : targets) {
    if (t.value >= n) return fail(outside);
  }
  if (records_.size() != n) {
    records_.assign(n);
  } else {
    records_.reset();
  }
  forward_queue_.clear();
  backward_queue_.clear();
  for (const search::Source<VertexId>& s : sources) push_source<forward>(s.node, s.cost);
  for (const VertexId t : targets) push_source<backward>(t, 0);
  stats_.time_s += watch.seconds();
}

Status ChQuery::step(const search::Budget& budget) {
  if (!status_.running()) return status_;
  const Stopwatch watch;
  if (ch_->stale()) {
    fail(StatusDetail::stale_world);
  } else {
    const search::BudgetMeter meter(budget, stats_.expanded, stats_.generated);
    while (status_.running()) {
      if (meter.exhausted(stats_.expanded, stats_.generated)) {
        if (events_) {
          search::Event<VertexId> e;
          e.kind = search::EventKind::slice_end;
          events_->on_event(e);
        }
        break;
      }
      if (cancelled_) {
        fail(StatusDetail::cancelled);
        break;
      }
      const bool f = !forward_queue_.empty() && forward_queue_.top().key() < best_;
      const bool b = !backward_queue_.empty() && backward_queue_.top().key() < best_;
      if (f && (!b || forward_queue_.top().key() <= backward_queue_.top().key())) {
        settle_one<forward>();
      } else if (b) {
        settle_one<backward>();
      } else {
        finish();
      }
    }
  }
  stats_.scanned = stats_.generated;
  stats_.max_open_size = std::max<std::uint64_t>(stats_.max_open_size, forward_queue_.size() + backward_queue_.size());
  stats_.time_s += watch.seconds();
  return status_;
}

void ChQuery::fail(StatusDetail why) {
  status_ = Status::failure(why);
  if (events_) {
    search::Event<VertexId> e;
    e.kind = search::EventKind::end;
    e.status = status_;
    events_->on_event(e);
  }
}

void ChQuery::finish() {
  if (best_ == infinite_cost) return fail(StatusDetail::unreachable);
  distance_ = best_;
  if (options_.unpack_path) unpack(meet_);
  status_ = Status::success();
  if (events_) {
    report(search::EventKind::goal, forward, meet_, best_);
    search::Event<VertexId> e;
    e.kind = search::EventKind::end;
    e.status = status_;
    events_->on_event(e);
  }
}

template <int Dir>
void ChQuery::settle_one() {
  constexpr int other = 1 - Dir;
  auto& queue = [this]() -> auto& {
    if constexpr (Dir == forward) {
      return forward_queue_;
    } else {
      return backward_queue_;
    }
  }();
  const std::uint32_t x = queue.pop().slot();
  Record& rx = records_[x];
  rx.heap_pos[Dir] = not_open;
  ++(Dir == forward ? ch_stats_.settled_forward : ch_stats_.settled_backward);
  ++stats_.expanded;
  const Cost d = rx.dist[Dir];
  if (d + rx.dist[other] < best_) {
    best_ = d + rx.dist[other];
    meet_ = x;
  }
  if (events_) report(search::EventKind::expand, Dir, x, d);
  const std::span<const ChArc> relax = Dir == forward ? ch_->upward(x) : ch_->downward(x);
  if (options_.stall_on_demand) {
    // A higher vertex that reaches x more cheaply (through an arc of the other graph) shows
    // that x's label is not a shortest distance: nothing x would relax can be on the answer.
    for (const ChArc& a : Dir == forward ? ch_->downward(x) : ch_->upward(x)) {
      if (records_.is_set(a.head) && records_[a.head].dist[Dir] + a.weight < d) {
        ++ch_stats_.stalled;
        if (events_) report(search::EventKind::close, Dir, x, d);
        return;
      }
    }
  }
  const std::uint32_t base = Dir == forward ? ch_->upward_begin(x) : ch_->downward_begin(x);
  ch_stats_.relaxed += relax.size();
  stats_.generated += relax.size();
  for (std::uint32_t i = 0; i < relax.size(); ++i) {
    const ChArc& a = relax[i];
    Record& ry = records_.touch(a.head).element;
    const Cost nd = d + a.weight;
    if (!(nd < ry.dist[Dir])) continue;
    ry.dist[Dir] = nd;
    ry.parent[Dir] = x;
    ry.arc[Dir] = base + i;
    if (ry.heap_pos[Dir] == not_open) {
      queue.push(a.head, nd, nd);
    } else {
      queue.decrease_key(ry.heap_pos[Dir], nd, nd);
    }
    if (events_) report(search::EventKind::open, Dir, a.head, nd, x);
  }
  if (events_) report(search::EventKind::close, Dir, x, d);
}

void ChQuery::unpack(std::uint32_t meet) {
  path_.cost = best_;
  // Hierarchy arcs from the forward root (a source) to meet, collected backwards, then meet →
  // the backward root (a target).
  top_level_.clear();
  std::uint32_t x = meet;
  for (; records_[x].parent[forward] != not_open; x = records_[x].parent[forward])
    top_level_.push_back({records_[x].arc[forward], x, true});
  const std::uint32_t root = x;
  std::reverse(top_level_.begin(), top_level_.end());
  for (x = meet; records_[x].parent[backward] != not_open; x = records_[x].parent[backward])
    top_level_.push_back({records_[x].arc[backward], records_[x].parent[backward], false});
  path_.nodes.push_back(ch_->vertex_at(root));
  for (const Pending& p : top_level_) emit_arc(p.upward, p.index, p.head);
}

void ChQuery::emit_arc(bool upward_arc, std::uint32_t index, std::uint32_t to_rank) {
  stack_.clear();
  stack_.push_back({index, to_rank, upward_arc});
  while (!stack_.empty()) {
    const Pending p = stack_.back();
    stack_.pop_back();
    const ChArc& a = p.upward ? ch_->upward_arc(p.index) : ch_->downward_arc(p.index);
    if (a.middle == ChArc::no_middle) {
      path_.nodes.push_back(ch_->vertex_at(p.head));
      continue;
    }
    const ChShortcutHalves h = p.upward ? ch_->upward_halves(p.index) : ch_->downward_halves(p.index);
    stack_.push_back({h.up, p.head, true});       // middle → head, expanded second
    stack_.push_back({h.down, a.middle, false});  // tail → middle, expanded first
  }
}

}  // namespace waymark::graph
