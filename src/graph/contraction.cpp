#include "waymark/graph/contraction.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fstream>
#include <istream>
#include <limits>
#include <new>
#include <ostream>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>

#include "waymark/core/binary_io.hpp"
#include "waymark/core/errors.hpp"
#include "waymark/core/hash.hpp"
#include "waymark/core/stopwatch.hpp"

namespace waymark::graph {
namespace {

constexpr std::uint32_t none = 0xFFFFFFFFu;

/// An arc of the remaining graph during contraction; `record` names the shortcut it stands
/// for, or none for an original arc.
struct DynArc {
  std::uint32_t other;
  std::uint32_t record;
  Cost weight;
};

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

/// std heap functions build max-heaps; this makes the lowest priority the top.
bool comes_later(const QueueEntry& a, const QueueEntry& b) {
  if (a.priority != b.priority) return a.priority > b.priority;
  if (a.tie != b.tie) return a.tie > b.tie;
  return a.vertex > b.vertex;
}

/// Witness-search scratch of one vertex, in one cache line's worth of bytes so a relaxation
/// touches one place. Valid for the search whose generation is `stamp`.
struct WitnessNode {
  Cost dist;
  std::uint32_t stamp;
  std::uint32_t heap_pos;
  std::uint32_t hops;
  std::uint32_t target;  ///< == the target generation: an out-neighbour of the vertex tested
};

/// The arcs of every vertex in one direction, each vertex's arcs contiguous in one shared
/// array (few cache misses, and vertices with nearby ids sit nearby, which the generated and
/// most real road graphs number spatially). A vertex that outgrows its room moves to the
/// end with twice the room; when half the array is abandoned room, it is rebuilt in vertex
/// order. Spans stay valid until the next push or compact().
class ArcPool {
 public:
  void assign(const std::vector<std::uint32_t>& counts) {
    slots_.assign(counts.size(), Slot{});
    std::size_t total = 0;
    for (const std::uint32_t c : counts) total += c;
    arcs_.clear();
    arcs_.reserve(total + total / 2);
    for (std::size_t v = 0; v < counts.size(); ++v) {
      slots_[v] = Slot{static_cast<std::uint32_t>(arcs_.size()), 0, counts[v]};
      arcs_.resize(arcs_.size() + counts[v]);
    }
    abandoned_ = 0;
  }

  [[nodiscard]] std::span<DynArc> arcs(std::uint32_t v) { return {arcs_.data() + slots_[v].begin, slots_[v].size}; }
  [[nodiscard]] std::span<const DynArc> arcs(std::uint32_t v) const {
    return {arcs_.data() + slots_[v].begin, slots_[v].size};
  }

  void push(std::uint32_t v, const DynArc& a) {
    Slot& s = slots_[v];
    if (s.size == s.capacity) {
      const std::uint32_t room = std::max<std::uint32_t>(min_room, s.capacity * 2);
      if (arcs_.size() + room > std::numeric_limits<std::uint32_t>::max())
        throw BuildError("a contraction hierarchy's build holds at most 2^32 - 1 arcs per direction");
      const auto begin = static_cast<std::uint32_t>(arcs_.size());
      arcs_.resize(arcs_.size() + room);
      std::copy_n(arcs_.begin() + s.begin, s.size, arcs_.begin() + begin);
      abandoned_ += s.capacity;
      s.begin = begin;
      s.capacity = room;
    }
    arcs_[s.begin + s.size++] = a;
  }

  /// Removes the arc to `other` (order not kept).
  void remove(std::uint32_t v, std::uint32_t other) {
    Slot& s = slots_[v];
    DynArc* a = arcs_.data() + s.begin;
    for (std::uint32_t i = 0; i < s.size; ++i) {
      if (a[i].other == other) {
        a[i] = a[--s.size];
        return;
      }
    }
  }

  void release(std::uint32_t v) {
    abandoned_ += slots_[v].capacity;
    slots_[v] = Slot{};
  }

  /// Rebuilds the array in vertex order once half of it is abandoned room.
  void compact_if_sparse() {
    if (abandoned_ * 2 < arcs_.size()) return;
    std::vector<DynArc> packed;
    packed.reserve(arcs_.size() - abandoned_);
    for (Slot& s : slots_) {
      const auto begin = static_cast<std::uint32_t>(packed.size());
      packed.insert(packed.end(), arcs_.begin() + s.begin, arcs_.begin() + s.begin + s.size);
      const std::uint32_t room = s.size + s.size / 2;
      packed.resize(packed.size() + (room - s.size));
      s = Slot{begin, s.size, room};
    }
    arcs_ = std::move(packed);
    abandoned_ = 0;
  }

 private:
  struct Slot {
    std::uint32_t begin = 0;
    std::uint32_t size = 0;
    std::uint32_t capacity = 0;
  };
  static constexpr std::uint32_t min_room = 4;

  std::vector<Slot> slots_;
  std::vector<DynArc> arcs_;
  std::size_t abandoned_ = 0;
};

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
    witness_.assign(n, WitnessNode{infinite_cost, 0, none, 0, 0});
    neighbour_mark_.assign(n, 0);
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
    std::vector<WitnessNode>* nodes = nullptr;
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

  /// Starts a new witness search (or target marking): a fresh generation; on wrap-around the
  /// stamps are cleared.
  static void next_generation(std::uint32_t& generation, std::vector<WitnessNode>& nodes,
                              std::uint32_t WitnessNode::*field) {
    if (++generation == 0) {
      for (WitnessNode& w : nodes) w.*field = 0;
      generation = 1;
    }
  }

  /// Local Dijkstra from `source` over the remaining graph without `excluded`, up to `bound`,
  /// stopping after `limit` settled vertices or once `targets` marked vertices are settled.
  void witness_search(std::uint32_t source, std::uint32_t excluded, Cost bound, std::uint32_t limit,
                      std::size_t targets) {
    ++ch_.stats_.witness_searches;
    next_generation(witness_generation_, witness_, &WitnessNode::stamp);
    witness_heap_.clear();
    WitnessNode& s = witness_[source];
    s.stamp = witness_generation_;
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
      if (wx.target == target_generation_ && --targets == 0) break;
      if (++settled >= limit) break;
      if (hop_limit != 0 && wx.hops >= hop_limit) continue;
      const Cost d = wx.dist;
      const std::uint32_t hops = wx.hops + 1;
      for (const DynArc& a : out_.arcs(x)) {
        const std::uint32_t y = a.other;
        const Cost nd = d + a.weight;
        if (y == excluded || nd > bound) continue;
        WitnessNode& wy = witness_[y];
        if (wy.stamp != witness_generation_) {
          wy.stamp = witness_generation_;
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
    return witness_[w].stamp == witness_generation_ ? witness_[w].dist : infinite_cost;
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
      next_generation(target_generation_, witness_, &WitnessNode::target);
      Cost max_out = 0;
      for (const DynArc& a : outs) {
        witness_[a.other].target = target_generation_;
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
    ++neighbour_generation_;  // 32 bits: one per contraction never wraps
    neighbours_.clear();
    for (const std::vector<DynArc>* arcs : {&v_in_, &v_out_}) {
      for (const DynArc& a : *arcs) {
        if (neighbour_mark_[a.other] == neighbour_generation_) continue;
        neighbour_mark_[a.other] = neighbour_generation_;
        neighbours_.push_back(a.other);
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
  std::vector<std::uint32_t> neighbour_mark_;
  std::uint32_t neighbour_generation_ = 0;

  std::vector<WitnessNode> witness_;
  std::uint32_t witness_generation_ = 0;
  std::uint32_t target_generation_ = 0;
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

// ---------------------------------------------------------------------------------------------
// Binary format: header, arrays, then a checksum (Hasher) of every byte before it.

namespace {

constexpr char file_magic[8] = {'W', 'A', 'Y', 'M', 'K', 'C', 'H', '\n'};
constexpr std::uint32_t file_version = 1;
constexpr std::uint32_t byte_order_mark = 0x01020304u;

struct FileHeader {
  char magic[8];
  std::uint32_t version;
  std::uint32_t byte_order;
  std::uint64_t vertices;
  std::uint64_t original_arcs;
  std::uint64_t fingerprint;
  std::uint64_t up_arcs;
  std::uint64_t down_arcs;
  std::uint64_t input_arcs;
  std::uint64_t self_loops_dropped;
  std::uint64_t parallel_dropped;
  std::uint64_t shortcuts;
  std::uint64_t witness_searches;
  std::uint32_t max_depth;
  std::uint32_t reserved;
  double time_s;
};
static_assert(std::is_trivially_copyable_v<FileHeader> && sizeof(FileHeader) == 112);
static_assert(sizeof(ChArc) == 16 && sizeof(ChShortcutHalves) == 8);

using Writer = ChecksummedWriter;
using Reader = ChecksummedReader;

}  // namespace

void ContractionHierarchy::save(std::ostream& out) const {
  FileHeader h{};
  std::memcpy(h.magic, file_magic, sizeof h.magic);
  h.version = file_version;
  h.byte_order = byte_order_mark;
  h.vertices = node_count();
  h.original_arcs = original_arcs_;
  h.fingerprint = fingerprint_;
  h.up_arcs = up_arcs_.size();
  h.down_arcs = down_arcs_.size();
  h.input_arcs = stats_.input_arcs;
  h.self_loops_dropped = stats_.self_loops_dropped;
  h.parallel_dropped = stats_.parallel_dropped;
  h.shortcuts = stats_.shortcuts;
  h.witness_searches = stats_.witness_searches;
  h.max_depth = stats_.max_depth;
  h.time_s = stats_.time_s;
  Writer w(out);
  w.bytes(&h, sizeof h);
  w.array(vertex_at_);
  w.array(up_offsets_);
  w.array(up_arcs_);
  w.array(up_halves_);
  w.array(down_offsets_);
  w.array(down_arcs_);
  w.array(down_halves_);
  w.finish();
}

void ContractionHierarchy::save(const std::string& path) const {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) throw std::runtime_error(path + ": cannot open for writing");
  save(out);
  out.flush();
  if (!out) throw std::runtime_error(path + ": write failed");
}

ContractionHierarchy ContractionHierarchy::load(const std::string& path, const Graph& original) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw LoadError(path, 0, "cannot open file");
  return load(in, path, original);
}

ContractionHierarchy ContractionHierarchy::load(std::istream& in, const std::string& name, const Graph& original) {
  Reader r(in, name);
  FileHeader h{};
  r.bytes(&h, sizeof h, "header");
  if (std::memcmp(h.magic, file_magic, sizeof h.magic) != 0)
    r.fail("not a waymark contraction hierarchy (wrong magic)");
  if (h.version != file_version)
    r.fail("unsupported version " + std::to_string(h.version) + " (expected " + std::to_string(file_version) + ")");
  if (h.byte_order != byte_order_mark) r.fail("written on a machine with another byte order");
  if (h.vertices != original.node_count() || h.original_arcs != original.arc_count())
    r.fail("built for a graph with " + std::to_string(h.vertices) + " vertices and " +
           std::to_string(h.original_arcs) + " arcs, this one has " + std::to_string(original.node_count()) +
           " and " + std::to_string(original.arc_count()));
  if (h.fingerprint != arc_fingerprint(original))
    r.fail("built for another graph (the arcs' fingerprint differs)");
  constexpr std::uint64_t max_arcs = std::numeric_limits<std::uint32_t>::max();
  if (h.up_arcs > max_arcs || h.down_arcs > max_arcs) r.fail("corrupt file: impossible arc count");

  ContractionHierarchy ch;
  ch.original_arcs_ = h.original_arcs;
  ch.fingerprint_ = h.fingerprint;
  ch.stats_ = ChBuildStats{h.input_arcs, h.self_loops_dropped, h.parallel_dropped, h.shortcuts,
                           h.witness_searches, h.max_depth, h.time_s};
  const auto n = static_cast<std::size_t>(h.vertices);
  r.array(ch.vertex_at_, n, "vertex order");
  r.array(ch.up_offsets_, n + 1, "upward offsets");
  r.array(ch.up_arcs_, static_cast<std::size_t>(h.up_arcs), "upward arcs");
  r.array(ch.up_halves_, static_cast<std::size_t>(h.up_arcs), "upward shortcuts");
  r.array(ch.down_offsets_, n + 1, "downward offsets");
  r.array(ch.down_arcs_, static_cast<std::size_t>(h.down_arcs), "downward arcs");
  r.array(ch.down_halves_, static_cast<std::size_t>(h.down_arcs), "downward shortcuts");
  r.finish();
  ch.validate(name);
  return ch;
}

/// Checks everything a query relies on, so a corrupt file cannot make one read out of bounds
/// or unpack forever: the order is a permutation, offsets are monotone, every arc points to a
/// higher rank with a valid weight, and every shortcut's halves sit at a lower middle vertex,
/// join the right ends and add up to its weight.
void ContractionHierarchy::validate(const std::string& name) {
  const auto fail = [&](const std::string& reason) { throw LoadError(name, 0, "corrupt file: " + reason); };
  const std::size_t n = vertex_at_.size();
  std::vector<std::uint32_t>& ranks = rank_of_;
  ranks.assign(n, none);
  for (std::uint32_t r = 0; r < n; ++r) {
    const std::uint32_t v = vertex_at_[r].value;
    if (v >= n || ranks[v] != none) fail("the vertex order is not a permutation");
    ranks[v] = r;
  }
  for (const auto* offsets : {&up_offsets_, &down_offsets_}) {
    const auto& o = *offsets;
    const std::size_t arcs = offsets == &up_offsets_ ? up_arcs_.size() : down_arcs_.size();
    if (o.front() != 0 || o.back() != arcs) fail("arc offsets do not match the arc count");
    for (std::size_t i = 1; i < o.size(); ++i)
      if (o[i] < o[i - 1]) fail("arc offsets decrease");
  }
  // For an arc at rank r with other end `head`: the shortcut tail → head via m is
  // (tail → m: downward arc at m from tail) + (m → head: upward arc at m to head).
  const auto check_half = [&](std::uint32_t index, bool upward, std::uint32_t middle, std::uint32_t end) {
    const std::uint32_t begin = upward ? up_offsets_[middle] : down_offsets_[middle];
    const std::uint32_t stop = upward ? up_offsets_[middle + 1] : down_offsets_[middle + 1];
    if (index < begin || index >= stop) fail("a shortcut half is not an arc of its middle vertex");
    const ChArc& half = upward ? up_arcs_[index] : down_arcs_[index];
    if (half.head != end) fail("a shortcut half does not join the shortcut's ends");
    return half.weight;
  };
  for (const bool upward : {true, false}) {
    const std::vector<ChArc>& arcs = upward ? up_arcs_ : down_arcs_;
    const std::vector<ChShortcutHalves>& halves = upward ? up_halves_ : down_halves_;
    const std::vector<std::uint32_t>& offsets = upward ? up_offsets_ : down_offsets_;
    for (std::uint32_t r = 0; r < n; ++r) {
      for (std::uint32_t i = offsets[r]; i < offsets[r + 1]; ++i) {
        const ChArc& a = arcs[i];
        if (a.head <= r || a.head >= n) fail("an arc does not lead to a higher rank");
        if (!(a.weight >= 0) || !std::isfinite(a.weight)) fail("an arc weight is negative or not finite");
        if (a.middle == ChArc::no_middle) continue;
        if (a.middle >= r) fail("a shortcut's middle vertex is not below its ends");
        const std::uint32_t tail = upward ? r : a.head, head = upward ? a.head : r;
        const Cost w =
            check_half(halves[i].down, false, a.middle, tail) + check_half(halves[i].up, true, a.middle, head);
        if (w != a.weight) fail("a shortcut's weight is not the sum of its halves");
      }
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Queries

ChQuery::ChQuery(const ContractionHierarchy& ch, ChQueryOptions options)
    : ch_(&ch),
      options_(options),
      forward_positions_{this},
      backward_positions_{this},
      forward_queue_(forward_positions_),
      backward_queue_(backward_positions_) {}

void ChQuery::prepare() {
  if (size_ != ch_->node_count()) {
    size_ = ch_->node_count();
    // calloc: stamp 0 reads as unseen, and untouched zero pages cost nothing.
    records_.reset(static_cast<Record*>(std::calloc(std::max<std::size_t>(size_, 1), sizeof(Record))));
    if (!records_) throw std::bad_alloc();
    generation_ = 0;
  }
  if (++generation_ == 0) {
    for (std::size_t i = 0; i < size_; ++i) records_[i].stamp = 0;
    generation_ = 1;
  }
}

void ChQuery::reserve() {
  prepare();
  std::memset(static_cast<void*>(records_.get()), 0, size_ * sizeof(Record));
  const std::size_t expected_queue = 1024;
  forward_queue_.reserve(expected_queue);
  backward_queue_.reserve(expected_queue);
}

ChQuery::Record& ChQuery::touch(std::uint32_t r) {
  Record& rec = records_[r];
  if (rec.stamp != generation_) {
    rec.dist[forward] = rec.dist[backward] = infinite_cost;
    rec.parent[forward] = rec.parent[backward] = none;
    rec.arc[forward] = rec.arc[backward] = none;
    rec.heap_pos[forward] = rec.heap_pos[backward] = not_open;
    rec.stamp = generation_;
  }
  return rec;
}

Status ChQuery::query(VertexId source, VertexId target) {
  stats_ = ChQueryStats{};
  path_.clear();
  distance_ = infinite_cost;
  const std::size_t n = ch_->node_count();
  if (source.value >= n || target.value >= n) {
    status_ = Status{SearchState::failure, StatusDetail::none};
    return status_;
  }
  prepare();
  forward_queue_.clear();
  backward_queue_.clear();
  best_ = infinite_cost;
  meet_ = none;
  const std::uint32_t s = ch_->rank(source), t = ch_->rank(target);
  touch(s).dist[forward] = 0;
  forward_queue_.push(s, 0, 0);
  touch(t).dist[backward] = 0;
  backward_queue_.push(t, 0, 0);
  for (;;) {
    const bool f = !forward_queue_.empty() && forward_queue_.top().key() < best_;
    const bool b = !backward_queue_.empty() && backward_queue_.top().key() < best_;
    if (f && (!b || forward_queue_.top().key() <= backward_queue_.top().key())) {
      settle_one<forward>();
    } else if (b) {
      settle_one<backward>();
    } else {
      break;
    }
  }
  if (best_ == infinite_cost) {
    status_ = Status{SearchState::failure, StatusDetail::none};
    return status_;
  }
  distance_ = best_;
  if (options_.unpack_path) unpack(source, meet_);
  status_ = Status{SearchState::success, StatusDetail::none};
  return status_;
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
  ++(Dir == forward ? stats_.settled_forward : stats_.settled_backward);
  const Cost d = rx.dist[Dir];
  if (d + rx.dist[other] < best_) {
    best_ = d + rx.dist[other];
    meet_ = x;
  }
  const std::span<const ChArc> relax = Dir == forward ? ch_->upward(x) : ch_->downward(x);
  if (options_.stall_on_demand) {
    // A higher vertex that reaches x more cheaply (through an arc of the other graph) shows
    // that x's label is not a shortest distance: nothing x would relax can be on the answer.
    for (const ChArc& a : Dir == forward ? ch_->downward(x) : ch_->upward(x)) {
      const Record& ry = records_[a.head];
      if (ry.stamp == generation_ && ry.dist[Dir] + a.weight < d) {
        ++stats_.stalled;
        return;
      }
    }
  }
  const std::uint32_t base = Dir == forward ? ch_->upward_begin(x) : ch_->downward_begin(x);
  stats_.relaxed += relax.size();
  for (std::uint32_t i = 0; i < relax.size(); ++i) {
    const ChArc& a = relax[i];
    Record& ry = touch(a.head);
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
  }
}

void ChQuery::unpack(VertexId source, std::uint32_t meet) {
  path_.cost = best_;
  // Hierarchy arcs source → meet (forward tree, collected backwards), then meet → target.
  top_level_.clear();
  for (std::uint32_t x = meet; records_[x].parent[forward] != none; x = records_[x].parent[forward])
    top_level_.push_back({records_[x].arc[forward], x, true});
  std::reverse(top_level_.begin(), top_level_.end());
  std::uint32_t x = meet;
  for (; records_[x].parent[backward] != none; x = records_[x].parent[backward])
    top_level_.push_back({records_[x].arc[backward], records_[x].parent[backward], false});
  path_.nodes.push_back(source);
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
    stack_.push_back({h.up, p.head, true});        // middle → head, expanded second
    stack_.push_back({h.down, a.middle, false});  // tail → middle, expanded first
  }
}

}  // namespace waymark::graph
