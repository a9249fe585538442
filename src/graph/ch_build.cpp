// Contraction hierarchies: the contraction (ContractionHierarchy::build).
#include <algorithm>
#include <cmath>
#include <limits>
#include <span>
#include <type_traits>
#include <utility>
#include <vector>

#include "ch_arc_pool.hpp"
#include "waymark/core/errors.hpp"
#include "waymark/core/hash.hpp"
#include "waymark/core/stopwatch.hpp"
#include "waymark/graph/contraction.hpp"
#include "waymark/search/generation_array.hpp"
#include "waymark/search/indexed_heap.hpp"

namespace waymark::graph {

using ch_detail::ArcPool;
using ch_detail::DynArc;
using ch_detail::none;

// The builder's scratch types: in ch_detail rather than an anonymous namespace, because
// ChBuilder (a friend of ContractionHierarchy) has external linkage and holds them.
namespace ch_detail {

/// How to unpack a shortcut made while contracting `middle` (a vertex id until the end), and
/// how many original arcs it stands for.
struct ShortcutRecord {
  std::uint32_t middle;
  std::uint32_t original_arcs;
  ChShortcutHalves halves;
};

/// A shortcut the contraction of a vertex needs: in-arc index × out-arc index.
struct Candidate {
  std::uint32_t in_index;
  std::uint32_t out_index;
  Cost weight;
};

/// An entry of the contraction order's queue; stale when `priority` is no longer the vertex's.
struct QueueEntry {
  double priority;
  std::uint32_t tie;
  std::uint32_t vertex;
};

/// Witness-search scratch of one vertex, in half a cache line so a relaxation touches one
/// place. Valid while `stamp` is the current witness search's generation.
struct WitnessNode {
  Cost dist = infinite_cost;
  std::uint32_t heap_pos = none;
  std::uint32_t hops = 0;
  std::uint32_t stamp = 0;
};

}  // namespace ch_detail

using ch_detail::Candidate;
using ch_detail::QueueEntry;
using ch_detail::ShortcutRecord;
using ch_detail::WitnessNode;

namespace {

/// std heap functions build max-heaps; this makes the lowest priority the top.
bool comes_later(const QueueEntry& a, const QueueEntry& b) {
  if (a.priority != b.priority) return a.priority > b.priority;
  if (a.tie != b.tie) return a.tie > b.tie;
  return a.vertex > b.vertex;
}

}  // namespace

/// The contraction: a dynamic graph of the vertices not yet contracted, the priority queue,
/// the witness searches, and the hierarchy's arrays filled one vertex at a time.
class ChBuilder {
 public:
  ChBuilder(const Graph& graph, const ChParams& params) : graph_(graph), params_(params), witness_heap_(positions_) {
    positions_.nodes = &witness_;
  }

  ContractionHierarchy run() {
    const Stopwatch watch;
    check_params();
    const std::size_t n = graph_.node_count();
    load_arcs();
    witness_.assign(n);
    targets_.assign(n);
    neighbours_seen_.assign(n);
    contracted_.assign(n, false);
    contracted_neighbours_.assign(n, 0);
    depth_.assign(n, 0);
    priority_.assign(n, 0);
    ch_.rank_of_.assign(n, none);
    ch_.vertex_at_.reserve(n);
    ch_.up_offsets_.assign(1, 0);  // then one more entry per contracted vertex
    ch_.down_offsets_.assign(1, 0);
    ch_.up_offsets_.reserve(n + 1);
    ch_.down_offsets_.reserve(n + 1);

    queue_.reserve(n);
    for (std::uint32_t v = 0; v < n; ++v) {
      priority_[v] = priority_of(v, params_.priority_settle_limit, nullptr);
      queue_.push_back({priority_[v], tie_of(v), v});
    }
    std::make_heap(queue_.begin(), queue_.end(), comes_later);

    std::vector<Candidate> candidates;
    while (!queue_.empty()) {
      std::pop_heap(queue_.begin(), queue_.end(), comes_later);
      const QueueEntry e = queue_.back();
      queue_.pop_back();
      const std::uint32_t v = e.vertex;
      if (contracted_[v] || e.priority != priority_[v]) continue;  // stale
      // Lazy update: the priority may have risen since it was queued (witnesses further away
      // changed). Re-evaluate with the contraction's own searches; requeue if no longer lowest.
      candidates.clear();
      const double p = priority_of(v, params_.witness_settle_limit, &candidates);
      if (p > e.priority) {
        drop_stale_top();
        if (!queue_.empty() && comes_later(QueueEntry{p, tie_of(v), v}, queue_.front())) {
          push(v, p);
          continue;
        }
      }
      contract(v, candidates);
    }
    finish();
    ch_.stats_.time_s = watch.seconds();
    return std::move(ch_);
  }

 private:
  struct WitnessPositions {
    search::GenerationArray<WitnessNode>* nodes = nullptr;
    void set_position(std::uint32_t slot, std::uint32_t pos) { (*nodes)[slot].heap_pos = pos; }
  };

  void check_params() const {
    if (params_.witness_settle_limit < 1) throw BuildError("ChParams::witness_settle_limit must be >= 1");
    if (params_.priority_settle_limit < 1) throw BuildError("ChParams::priority_settle_limit must be >= 1");
    if (!std::isfinite(params_.edge_difference_weight) || !std::isfinite(params_.contracted_neighbours_weight) ||
        !std::isfinite(params_.depth_weight) || !std::isfinite(params_.original_arcs_weight))
      throw BuildError("ChParams priority weights must be finite");
  }

  static std::uint32_t tie_of(std::uint32_t v) { return static_cast<std::uint32_t>(mix64(v)); }

  /// The graph's arcs without self-loops, the cheapest of each parallel group.
  void load_arcs() {
    const std::size_t n = graph_.node_count();
    ch_.stats_.input_arcs = graph_.arc_count();
    ch_.original_arcs_ = graph_.arc_count();
    ch_.fingerprint_ = arc_fingerprint(graph_);
    ch_.graph_ = &graph_;
    ch_.version_ = graph_.version();
    std::vector<std::uint32_t> out_degree(n, 0), in_degree(n, 0);
    for (std::uint32_t u = 0; u < n; ++u) {
      for (const VertexId w : graph_.targets(VertexId{u})) {
        ++out_degree[u];
        ++in_degree[w.value];
      }
    }
    out_.assign(out_degree);
    in_.assign(in_degree);
    std::vector<std::pair<std::uint32_t, Cost>> arcs;
    for (std::uint32_t u = 0; u < n; ++u) {
      arcs.clear();
      const std::span<const VertexId> targets = graph_.targets(VertexId{u});
      const std::span<const Cost> weights = graph_.weights(VertexId{u});
      for (std::size_t i = 0; i < targets.size(); ++i) {
        if (targets[i].value == u) {
          ++ch_.stats_.self_loops_dropped;
        } else {
          arcs.emplace_back(targets[i].value, weights[i]);
        }
      }
      std::sort(arcs.begin(), arcs.end());
      for (std::size_t i = 0; i < arcs.size(); ++i) {
        if (i > 0 && arcs[i].first == arcs[i - 1].first) {
          ++ch_.stats_.parallel_dropped;
          continue;
        }
        out_.push(u, {arcs[i].first, none, arcs[i].second});
        in_.push(arcs[i].first, {u, none, arcs[i].second});
      }
    }
  }

  /// Local Dijkstra from `source` over the remaining graph without `excluded`, up to `bound`,
  /// stopping after `limit` settled vertices or once `targets` marked vertices are settled.
  void witness_search(std::uint32_t source, std::uint32_t excluded, Cost bound, std::uint32_t limit,
                      std::size_t targets) {
    ++ch_.stats_.witness_searches;
    witness_.reset();
    witness_heap_.clear();
    WitnessNode& s = witness_.touch(source).element;
    s.dist = 0;
    s.hops = 0;
    witness_heap_.push(source, 0, 0);
    std::uint32_t settled = 0;
    const std::uint32_t hop_limit = params_.witness_hop_limit;
    while (!witness_heap_.empty()) {
      if (witness_heap_.top().key() > bound) break;
      const std::uint32_t x = witness_heap_.pop().slot();
      WitnessNode& wx = witness_[x];
      wx.heap_pos = none;
      if (targets_.contains(x) && --targets == 0) break;
      if (++settled >= limit) break;
      if (hop_limit != 0 && wx.hops >= hop_limit) continue;
      const Cost d = wx.dist;
      const std::uint32_t hops = wx.hops + 1;
      for (const DynArc& a : out_.arcs(x)) {
        const std::uint32_t y = a.other;
        const Cost nd = d + a.weight;
        if (y == excluded || nd > bound) continue;
        const auto [wy, fresh] = witness_.touch(y);
        if (fresh) {
          wy.dist = nd;
          wy.hops = hops;
          witness_heap_.push(y, nd, nd);
        } else if (nd < wy.dist && wy.heap_pos != none) {
          wy.dist = nd;
          wy.hops = hops;
          witness_heap_.decrease_key(wy.heap_pos, nd, nd);
        }
      }
    }
  }

  [[nodiscard]] Cost witness_distance(std::uint32_t w) const {
    return witness_.is_set(w) ? witness_[w].dist : infinite_cost;
  }

  [[nodiscard]] std::uint32_t original_arcs(const DynArc& a) const {
    return a.record == none ? 1 : records_[a.record].original_arcs;
  }

  /// The shortcuts contracting v would add (into `out` unless null), and v's priority.
  double priority_of(std::uint32_t v, std::uint32_t limit, std::vector<Candidate>* out) {
    const std::span<const DynArc> ins = std::as_const(in_).arcs(v);
    const std::span<const DynArc> outs = std::as_const(out_).arcs(v);
    std::size_t shortcuts = 0;
    double original_added = 0;
    if (!ins.empty() && !outs.empty()) {
      targets_.reset();
      Cost max_out = 0;
      for (const DynArc& a : outs) {
        targets_.insert(a.other);
        max_out = std::max(max_out, a.weight);
      }
      for (std::uint32_t i = 0; i < ins.size(); ++i) {
        const std::uint32_t u = ins[i].other;
        const Cost a = ins[i].weight;
        if (outs.size() == 1 && outs[0].other == u) continue;  // only u → v → u
        witness_search(u, v, a + max_out, limit, outs.size());
        for (std::uint32_t j = 0; j < outs.size(); ++j) {
          const std::uint32_t w = outs[j].other;
          const Cost through_v = a + outs[j].weight;
          if (w == u || witness_distance(w) <= through_v) continue;
          ++shortcuts;
          original_added += original_arcs(ins[i]) + original_arcs(outs[j]);
          if (out != nullptr) out->push_back({i, j, through_v});
        }
      }
    }
    double original_removed = 0;
    for (const DynArc& a : ins) original_removed += original_arcs(a);
    for (const DynArc& a : outs) original_removed += original_arcs(a);
    const double edge_difference = static_cast<double>(shortcuts) - static_cast<double>(ins.size() + outs.size());
    return params_.edge_difference_weight * edge_difference +
           params_.original_arcs_weight * (original_added - original_removed) +
           params_.contracted_neighbours_weight * static_cast<double>(contracted_neighbours_[v]) +
           params_.depth_weight * static_cast<double>(depth_[v]);
  }

  void push(std::uint32_t v, double p) {
    priority_[v] = p;
    queue_.push_back({p, tie_of(v), v});
    std::push_heap(queue_.begin(), queue_.end(), comes_later);
  }

  void drop_stale_top() {
    while (!queue_.empty() &&
           (contracted_[queue_.front().vertex] || queue_.front().priority != priority_[queue_.front().vertex])) {
      std::pop_heap(queue_.begin(), queue_.end(), comes_later);
      queue_.pop_back();
    }
  }

  /// Adds the arc u → w, or lowers the weight of the one there.
  void add_shortcut(std::uint32_t u, std::uint32_t w, Cost weight, std::uint32_t record) {
    for (DynArc& a : out_.arcs(u)) {
      if (a.other != w) continue;
      if (weight < a.weight) {
        a.weight = weight;
        a.record = record;
        for (DynArc& b : in_.arcs(w)) {
          if (b.other == u) {
            b.weight = weight;
            b.record = record;
            break;
          }
        }
      }
      return;
    }
    out_.push(u, {w, record, weight});
    in_.push(w, {u, record, weight});
  }

  /// Appends v's remaining arcs to the hierarchy (upward: v's out-arcs, downward: its in-arcs).
  static void append_arcs(std::span<const DynArc> arcs, const std::vector<ShortcutRecord>& records,
                          std::vector<ChArc>& to, std::vector<ChShortcutHalves>& halves,
                          std::vector<std::uint32_t>& offsets) {
    if (arcs.size() > std::numeric_limits<std::uint32_t>::max() - to.size())
      throw BuildError("a contraction hierarchy holds at most 2^32 - 1 arcs per direction");
    for (const DynArc& a : arcs) {
      if (a.record == none) {
        to.push_back({a.weight, a.other, ChArc::no_middle});
        halves.push_back({});
      } else {
        to.push_back({a.weight, a.other, records[a.record].middle});
        halves.push_back(records[a.record].halves);
      }
    }
    offsets.push_back(static_cast<std::uint32_t>(to.size()));
  }

  void contract(std::uint32_t v, const std::vector<Candidate>& candidates) {
    contracted_[v] = true;
    ch_.rank_of_[v] = static_cast<std::uint32_t>(ch_.vertex_at_.size());
    ch_.vertex_at_.push_back(VertexId{v});
    const auto up_base = static_cast<std::uint32_t>(ch_.up_arcs_.size());
    const auto down_base = static_cast<std::uint32_t>(ch_.down_arcs_.size());
    // Copies: adding shortcuts may move arcs within the pools.
    v_in_.assign(in_.arcs(v).begin(), in_.arcs(v).end());
    v_out_.assign(out_.arcs(v).begin(), out_.arcs(v).end());
    in_.release(v);
    out_.release(v);
    append_arcs(v_out_, records_, ch_.up_arcs_, ch_.up_halves_, ch_.up_offsets_);
    append_arcs(v_in_, records_, ch_.down_arcs_, ch_.down_halves_, ch_.down_offsets_);

    for (const DynArc& a : v_in_) out_.remove(a.other, v);
    for (const DynArc& a : v_out_) in_.remove(a.other, v);
    for (const Candidate& c : candidates) {
      const auto record = static_cast<std::uint32_t>(records_.size());
      const DynArc& first = v_in_[c.in_index];
      const DynArc& second = v_out_[c.out_index];
      const std::uint64_t originals = std::uint64_t{original_arcs(first)} + original_arcs(second);
      records_.push_back({v, static_cast<std::uint32_t>(std::min<std::uint64_t>(originals, none)),
                          {down_base + c.in_index, up_base + c.out_index}});
      add_shortcut(first.other, second.other, c.weight, record);
    }
    out_.compact_if_sparse();
    in_.compact_if_sparse();

    // Neighbours: one more contracted neighbour, maybe deeper, and a new priority.
    neighbours_seen_.reset();
    neighbours_.clear();
    for (const std::vector<DynArc>* arcs : {&v_in_, &v_out_}) {
      for (const DynArc& a : *arcs) {
        if (neighbours_seen_.insert(a.other)) neighbours_.push_back(a.other);
      }
    }
    for (const std::uint32_t x : neighbours_) {
      ++contracted_neighbours_[x];
      const std::uint32_t depth = std::max(depth_[x], depth_[v] + 1);
      double p = 0;
      if (params_.resimulate_neighbours) {
        depth_[x] = depth;
        p = priority_of(x, params_.priority_settle_limit, nullptr);
      } else {
        // The terms that are counts change exactly; the shortcut terms are re-evaluated when
        // x reaches the top of the queue.
        p = priority_[x] + params_.contracted_neighbours_weight +
            params_.depth_weight * static_cast<double>(depth - depth_[x]);
        depth_[x] = depth;
      }
      ch_.stats_.max_depth = std::max(ch_.stats_.max_depth, depth);
      if (p != priority_[x]) push(x, p);
    }
  }

  /// Vertex ids → ranks in heads and middles; shortcut count; spare capacity released.
  void finish() {
    const auto to_ranks = [&](std::vector<ChArc>& arcs) {
      for (ChArc& a : arcs) {
        a.head = ch_.rank_of_[a.head];
        if (a.middle != ChArc::no_middle) {
          a.middle = ch_.rank_of_[a.middle];
          ++ch_.stats_.shortcuts;
        }
      }
    };
    to_ranks(ch_.up_arcs_);
    to_ranks(ch_.down_arcs_);
    ch_.up_arcs_.shrink_to_fit();
    ch_.up_halves_.shrink_to_fit();
    ch_.down_arcs_.shrink_to_fit();
    ch_.down_halves_.shrink_to_fit();
  }

  const Graph& graph_;
  ChParams params_;
  ContractionHierarchy ch_;

  ArcPool out_;  ///< remaining arcs by tail (no parallels, no loops)
  ArcPool in_;   ///< the same arcs by head
  std::vector<DynArc> v_in_, v_out_;  ///< the arcs of the vertex being contracted
  std::vector<ShortcutRecord> records_;
  std::vector<bool> contracted_;
  std::vector<std::uint32_t> contracted_neighbours_;
  std::vector<std::uint32_t> depth_;
  std::vector<double> priority_;  ///< the priority of each vertex's live queue entry
  std::vector<QueueEntry> queue_;
  std::vector<std::uint32_t> neighbours_;
  search::GenerationSet neighbours_seen_;

  search::GenerationArray<WitnessNode> witness_;
  search::GenerationSet targets_;  ///< out-neighbours of the vertex whose contraction is tested
  WitnessPositions positions_;
  search::IndexedDaryHeap<4, WitnessPositions> witness_heap_;
};

ContractionHierarchy::ContractionHierarchy() : up_offsets_(1, 0), down_offsets_(1, 0) {}

ContractionHierarchy ContractionHierarchy::build(const Graph& graph, ChParams params) {
  return ChBuilder(graph, params).run();
}

std::size_t ContractionHierarchy::memory_bytes() const {
  const auto bytes = [](const auto& v) {
    return v.capacity() * sizeof(typename std::decay_t<decltype(v)>::value_type);
  };
  return bytes(rank_of_) + bytes(vertex_at_) + bytes(up_offsets_) + bytes(up_arcs_) + bytes(up_halves_) +
         bytes(down_offsets_) + bytes(down_arcs_) + bytes(down_halves_);
}

}  // namespace waymark::graph
