// Contraction hierarchies: the proof, run on every loaded file, that no shortcut is missing.
//
// Why two checks suffice. Take a shortest path of the graph and replace each arc x -> y by an
// up-down path x ~> y of the hierarchy, no longer (check 1). Wherever the result dips to a
// vertex v and climbs again (u -> v -> w, u and w ranked above v), check 2 gives an up-down
// path u ~> w no longer than u -> v -> w; its inner vertices rank above u or w, so above v:
// splice it in. A splice trades v for vertices of higher rank, so splicing ends (the multiset
// of ranks on the path decreases in the multiset order), and the path left has no dip: it
// climbs, then descends. That is an up-down path, the kind ChQuery searches, and it is no
// longer than the shortest path; validate() has already made every arc the cost of a real
// path, so ChQuery answers exactly the shortest distance. A valid hierarchy passes: it has an
// up-down path of the shortest distance between any two vertices.
//
// Each check is a search bounded by the cost it must beat: upward from u over upward arcs,
// then backward from w over downward arcs until the two meet within the bound. Upward and
// downward searches only touch a vertex's arcs to higher ranks, few even at the top.
#include <algorithm>
#include <atomic>
#include <cstdint>
#include <exception>
#include <mutex>
#include <span>
#include <string>
#include <thread>

#include "waymark/core/errors.hpp"
#include "waymark/core/parallel.hpp"
#include "waymark/core/text.hpp"
#include "waymark/graph/contraction.hpp"
#include "waymark/search/best_first.hpp"

namespace waymark::graph {
namespace {

/// Relative slack when a path found here, summed in its own order, is compared with a sum the
/// build made in another: sums of L non-negative doubles differ by at most about L·2^-53 of
/// their value, far below this for any path a hierarchy holds.
constexpr double rounding_slack = 1e-9;

/// Ranks checked as one job by one thread, and the most threads (each holds two searches'
/// scratch, 64 bytes a vertex).
constexpr std::uint32_t check_block = 1024;
constexpr unsigned max_check_threads = 8;

[[nodiscard]] Cost with_slack(Cost c) { return c + c * rounding_slack; }

/// The hierarchy's upward arcs (Upward = true) or its downward arcs reversed, as a search
/// space on ranks: either way every successor ranks higher. Arcs that would take the search
/// past its bound are left out (`Owner::room` tells how much is left at a rank).
template <bool Upward, class Owner>
struct RankSpace {
  using node_type = VertexId;  ///< a rank
  const ContractionHierarchy* ch;
  const Owner* owner;
  [[nodiscard]] std::size_t node_count() const { return ch->node_count(); }
  [[nodiscard]] std::size_t index_of(VertexId r) const { return r.value; }
  [[nodiscard]] VertexId node_at(std::size_t i) const { return VertexId{static_cast<std::uint32_t>(i)}; }
  template <class F>
  void for_each_successor(VertexId r, F&& f) const {
    const Cost room = owner->template room<Upward>(r);
    for (const ChArc& a : Upward ? ch->upward(r.value) : ch->downward(r.value))
      if (a.weight <= room) f(VertexId{a.head}, a.weight);
  }
};

/// The cheapest hierarchy arc from rank a to rank b (infinite without one). Both live in the
/// lower end's list of arcs to higher ranks, a short one.
[[nodiscard]] Cost direct_arc(const ContractionHierarchy& ch, std::uint32_t a, std::uint32_t b) {
  const bool up = a < b;
  const std::uint32_t other = up ? b : a;
  Cost best = infinite_cost;
  for (const ChArc& arc : up ? ch.upward(a) : ch.downward(b))
    if (arc.head == other) best = std::min(best, arc.weight);
  return best;
}

/// Whether the hierarchy holds an up-down path from one rank to another within a bound: a
/// direct arc, or an upward search from the tail met by a backward search from the head.
/// One object per thread.
class UpDownPaths {
 public:
  explicit UpDownPaths(const ContractionHierarchy& ch)
      : ch_(&ch), up_{&ch, this}, down_{&ch, this}, forward_(up_), backward_(down_),
        meets_forward_(search::Goal<VertexId>::matching(meeting_)) {}
  UpDownPaths(const UpDownPaths&) = delete;
  UpDownPaths& operator=(const UpDownPaths&) = delete;

  /// Whether an up-down path from -> to costs at most `bound`. The upward search from `from`
  /// runs to `stop` (>= bound) and serves every later call with the same `from` and `stop`.
  [[nodiscard]] bool within(std::uint32_t from, std::uint32_t to, Cost bound, Cost stop) {
    if (direct_arc(*ch_, from, to) <= bound) return true;
    if (from != searched_from_ || stop != stop_) {
      searched_from_ = from;
      stop_ = stop;
      run(forward_, from, search::Goal<VertexId>::none());  // everything within stop
    }
    bound_ = bound;
    run(backward_, to, meets_forward_);
    return backward_.status().succeeded();
  }

  /// What is left of the forward (Upward) or backward search's bound at rank r.
  template <bool Upward>
  [[nodiscard]] Cost room(VertexId r) const {
    return Upward ? stop_ - forward_.g_of(r) : bound_ - backward_.g_of(r);
  }

 private:
  template <class Search>
  static void run(Search& search, std::uint32_t source, const search::Goal<VertexId>& goal) {
    const search::Source<VertexId> s{VertexId{source}, 0};
    search.begin(std::span<const search::Source<VertexId>>(&s, 1), goal);
    search.step();
  }

  /// The backward search's goal: a rank where the two searches meet within the bound (both
  /// costs final there: the backward one is settled, the forward one ran to completion).
  struct Meeting {
    const UpDownPaths* p;
    bool operator()(const VertexId& x) const { return p->forward_.g_of(x) + p->backward_.g_of(x) <= p->bound_; }
  };

  const ContractionHierarchy* ch_;
  RankSpace<true, UpDownPaths> up_;
  RankSpace<false, UpDownPaths> down_;
  search::Dijkstra<RankSpace<true, UpDownPaths>> forward_;
  search::Dijkstra<RankSpace<false, UpDownPaths>> backward_;
  std::uint32_t searched_from_ = 0xFFFFFFFFu;  ///< the forward search's source; none yet
  Cost stop_ = 0;
  Cost bound_ = 0;
  const Meeting meeting_{this};
  search::Goal<VertexId> meets_forward_;
};

}  // namespace

void ContractionHierarchy::check_complete(const std::string& name) const {
  const auto n = static_cast<std::uint32_t>(node_count());
  const auto vertex = [&](std::uint32_t rank) { return number_text(vertex_at_[rank].value); };
  const auto fail = [&](const std::string& reason) { throw LoadError(name, 0, "corrupt file: " + reason); };
  std::mutex failure_mutex;
  std::exception_ptr failure;  // the first check that failed (or bad_alloc), on any thread
  std::atomic<bool> failed{false};
  const std::size_t blocks = (n + check_block - 1) / check_block;
  const std::size_t threads = worker_threads(0, max_check_threads);
  share_indices(blocks, threads, [&](const auto& next) {
    try {
      UpDownPaths paths(*this);
      for (std::size_t block = next(); block < blocks && !failed; block = next()) {
        const auto first = static_cast<std::uint32_t>(block * check_block);
        const std::uint32_t last = std::min(n, first + check_block);
        // Check 1: every arc x -> y of the graph has an up-down path x ~> y, no dearer.
        for (std::uint32_t x = first; x < last; ++x) {
          const VertexId vx = vertex_at_[x];
          const std::span<const VertexId> heads = graph_->targets(vx);
          const std::span<const Cost> weights = graph_->weights(vx);
          if (heads.empty()) continue;
          const Cost stop = with_slack(*std::max_element(weights.begin(), weights.end()));
          for (std::size_t k = 0; k < heads.size(); ++k) {
            if (heads[k] == vx) continue;  // self-loops are never on a shortest path
            const std::uint32_t y = rank_of_[heads[k].value];
            if (!paths.within(x, y, with_slack(weights[k]), stop))
              fail("the graph's arc " + vertex(x) + " -> " + vertex(y) +
                   " (vertex indices) has no path in the hierarchy that is as short");
          }
        }
        // Check 2: every dip u -> v -> w (u != w) has an up-down path u ~> w, no longer.
        for (std::uint32_t v = first; v < last; ++v) {
          const std::span<const ChArc> outs = upward(v);
          if (outs.empty()) continue;
          Cost dearest_out = 0;
          for (const ChArc& out : outs) dearest_out = std::max(dearest_out, out.weight);
          for (const ChArc& in : downward(v)) {
            const std::uint32_t u = in.head;
            const Cost stop = with_slack(in.weight + dearest_out);
            for (const ChArc& out : outs) {
              if (out.head != u && !paths.within(u, out.head, with_slack(in.weight + out.weight), stop))
                fail("a shortcut is missing: nothing replaces " + vertex(u) + " -> " + vertex(v) + " -> " +
                     vertex(out.head) + " (vertex indices)");
            }
          }
        }
      }
    } catch (...) {
      const std::lock_guard<std::mutex> lock(failure_mutex);
      if (!failed.exchange(true)) failure = std::current_exception();
    }
  });
  if (failure) std::rethrow_exception(failure);
}

}  // namespace waymark::graph
