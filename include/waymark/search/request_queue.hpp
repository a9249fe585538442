#pragma once
/// @file PathRequestQueue: many path requests on any worlds, advanced a frame's budget at a
/// time over a bounded pool of searches. See docs/request_queue.md for the scheduling, the
/// memory it holds and what it was measured at.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string_view>
#include <type_traits>
#include <vector>

#include "waymark/core/assert.hpp"
#include "waymark/core/path.hpp"
#include "waymark/core/status.hpp"
#include "waymark/search/budget.hpp"
#include "waymark/search/handle.hpp"
#include "waymark/search/node_table.hpp"
#include "waymark/search/search_source.hpp"

namespace waymark::search {

/// Names a request of one queue: a slot and the generation of its use, so an id kept after its
/// request was released names nothing (never another request).
struct RequestId {
  static constexpr std::uint32_t none = std::numeric_limits<std::uint32_t>::max();
  std::uint32_t slot = none;
  std::uint32_t generation = 0;

  [[nodiscard]] bool valid() const { return slot != none; }
  friend bool operator==(RequestId, RequestId) = default;
};

enum class RequestState : std::uint8_t {
  unknown,    ///< the id names no live request (never submitted, or released)
  queued,     ///< waiting for a search from the pool
  running,    ///< holds a search, advanced by update()
  succeeded,  ///< finished with a path
  failed,     ///< finished without one (the status says why; a partial path if asked for)
  cancelled,  ///< cancel() ended it
};

/// What the last update() spent, summed over its turns.
struct FrameUse {
  std::uint64_t expanded = 0;  ///< nodes expanded
  std::uint64_t scanned = 0;   ///< cells or arcs scanned (SearchStats::scanned)
  std::uint32_t turns = 0;     ///< turns given
};

/// Why an unfinished request got no turn in the last update().
enum class RequestWait : std::uint8_t {
  none,        ///< nothing holds it back (it had its turn, or the frame's budget ran out first)
  for_search,  ///< queued: all RequestQueueOptions::max_searches searches are held by other requests
  for_sync,    ///< its world was edited and not synced: it waits until the world's owner calls sync()
};

/// What the queue knows of one request.
struct RequestInfo {
  RequestState state = RequestState::unknown;
  Status status{};                ///< the search's status once finished (or now, while running)
  RequestWait waiting = RequestWait::none;  ///< why it got no turn in the last update()
  /// Why it cannot progress, and what would change that: set while it waits and when the queue
  /// or the search refused it (a static text, empty otherwise).
  std::string_view why{};
  int priority = 0;
  std::uint64_t submitted = 0;    ///< frame (update() count) when submitted
  std::uint64_t started = 0;      ///< frame of its first turn
  std::uint64_t finished = 0;     ///< frame it finished in
  std::uint64_t max_wait = 0;     ///< most frames in a row it went without a turn while unfinished
  std::uint32_t turns = 0;        ///< steps it was given
  std::uint32_t restarts = 0;     ///< times it began again because its world changed
};

/// How the queue's requests stand (PathRequestQueue::stats()).
struct RequestQueueStats {
  std::size_t queued = 0;              ///< waiting for their first turn
  std::size_t running = 0;             ///< holding a search
  std::size_t waiting_for_search = 0;  ///< of the queued: no search was free in the last update()
  std::size_t waiting_for_sync = 0;    ///< of the unfinished: their world is stale (its owner must sync())
  std::size_t succeeded = 0;           ///< finished with a path, not yet released
  std::size_t failed = 0;              ///< finished without one (refused ones included), not yet released
  std::size_t refused = 0;             ///< of the failed: refused before searching (invalid_query)
  std::size_t cancelled = 0;           ///< cancelled, not yet released
};

/// RequestInfo::why for each refusal and wait.
namespace request_why {
inline constexpr std::string_view stale_world =
    "its world was edited and not synced: the world's owner must call sync() (the planner's, or the world's)";
inline constexpr std::string_view no_search =
    "every search of the pool is busy: it starts when one finishes (RequestQueueOptions::max_searches)";
inline constexpr std::string_view needs_dense_table =
    "its world has more nodes than RequestQueueOptions::sparse_above_nodes and this search keeps no sparse node "
    "table: set RequestQueueOptions::dense_fallback, or use a best-first algorithm (astar, wastar, dijkstra, greedy)";
inline constexpr std::string_view unsupported =
    "the algorithm cannot search this world as it is (e.g. a jump search on a map with cost multipliers or another "
    "diagonal rule): the planner's unsupported(algorithm) says why and what to change";
inline constexpr std::string_view invalid =
    "refused before searching: a start or goal is blocked or not in the world, or the request is malformed "
    "(Status::reason() says which)";
inline constexpr std::string_view kept_changing =
    "its world changed more often than RequestQueueOptions::max_restarts while it ran: re-submit it later";
}  // namespace request_why

struct RequestQueueOptions {
  /// Default of sparse_above_nodes: maps above 512².
  static constexpr std::size_t default_sparse_above_nodes = std::size_t{1} << 18;
  /// Default of max_table_bytes: what a dense table at sparse_above_nodes holds (8 MiB), so
  /// no search of the queue holds more node records than the largest dense one it makes.
  static constexpr std::size_t default_max_table_bytes = default_sparse_above_nodes * sizeof(NodeRecord);
  /// Default of max_restarts: a request may cost up to nine searches of its length before the
  /// queue decides its world changes faster than it can be answered.
  static constexpr std::uint32_t default_max_restarts = 8;
  /// max_restarts: restart however often the world changes.
  static constexpr std::uint32_t unlimited_restarts = std::numeric_limits<std::uint32_t>::max();
  /// Default of scanned_per_expansion: what one expansion of A* on an 8-connected grid scans.
  static constexpr std::uint64_t default_scanned_per_expansion = 8;
  /// Default of reserve_open_nodes: 64 KiB of open list per search.
  static constexpr std::size_t default_reserve_open_nodes = 4096;

  /// Requests held at once (queued, running or finished and not yet released); submit()
  /// refuses more. Slots are allocated by the constructor. [Limit: >= 1]
  std::size_t max_requests = 256;
  /// Searches in the pool: at most this many requests run at once, the rest wait. Each search
  /// holds its node table (dense: 32 bytes per node of its world; sparse: at most
  /// max_table_bytes of pages) and open list: see docs/request_queue.md. [Limit: >= 1]
  std::size_t max_searches = 8;
  /// The most one request may use per turn; a frame's budget is handed out in such turns.
  /// 256 expansions or 2,048 scanned cells: A* stops at about the same point as with 256
  /// expansions alone, a jump search (which may pass over thousands of cells per expansion)
  /// after about 2,048 cells plus one expansion (grid::jump_expansion_scan_bound).
  /// [Limit: each limit >= 1]
  Budget turn{.expansions = 256, .scanned = 256 * default_scanned_per_expansion};
  /// A budget that limits expansions but not scanned cells — update()'s frame budget, or a
  /// turn — gets a limit of this many scanned cells per expansion (Budget::scanning_at_most),
  /// so that a frame counted in expansions bounds jump searches too. 0: such budgets bound
  /// expansions only (a jump search may then scan tens of thousands of cells in a frame).
  std::uint64_t scanned_per_expansion = default_scanned_per_expansion;
  /// A request gains one priority level per this many frames since its last turn (or its
  /// submission), so that none starves behind higher priorities. [Limit: >= 1]
  std::uint32_t aging_frames = 16;
  /// Worlds with more nodes than this get sparse node tables (NodeTableKind::sparse) for their
  /// searches, whatever the request asked: a dense table would cost 32 bytes per node per
  /// search. 0: always sparse (then see dense_fallback).
  std::size_t sparse_above_nodes = default_sparse_above_nodes;
  /// Nodes reserved up front in each request's result path, so that keeping results of up to
  /// that length allocates nothing even on the first frames (reserve() sizes its searches'
  /// paths for as many). 0: results grow as needed.
  std::size_t reserve_path_nodes = 0;
  /// Open-list entries reserve() sizes each search's open list for (16 bytes each).
  std::size_t reserve_open_nodes = default_reserve_open_nodes;
  /// Most bytes of node pages one sparse search may hold (QueryOptions::max_table_bytes):
  /// requests that leave theirs 0, or ask for more, get this one. A search that needs more
  /// fails with out_of_nodes (with a partial path when it asked for partial_result), so an
  /// unreachable goal on a large map costs this much, not the goal's whole component.
  /// 0: no limit (a request's own limit, if any, still applies).
  std::size_t max_table_bytes = default_max_table_bytes;
  /// Requests on worlds above sparse_above_nodes whose search has no sparse table
  /// (SearchSource::has_sparse_table: grid bfs, dfs, ida, jps, jps-plus and theta; graphs):
  /// false: submit() refuses them (failed, invalid_query), so that every search keeps within
  /// max_table_bytes or a dense table of at most sparse_above_nodes nodes; true: they run
  /// over a dense table (32 bytes per node of the world per search, outside max_table_bytes).
  bool dense_fallback = false;
  /// Times a running request may begin again because its world got a new version; at the
  /// next change it fails with stale_world instead (its world changes faster than its search
  /// ends: re-submit later, or re-plan with repair, Replanner). unlimited_restarts: no limit.
  std::uint32_t max_restarts = default_max_restarts;
};

/// A queue of path requests advanced by a frame budget.
///
/// submit() takes a request (world, start, goal, options, priority) and returns its id;
/// update(budget) spends one frame's budget on the requests in flight; info() and status()
/// report on a request, copy_result() hands out its path, cancel() ends it and release()
/// frees its slot (a finished request keeps its result until released).
///
/// Scheduling: each update() orders the unfinished requests by priority plus age (one level per
/// aging_frames frames since the request's last turn), then by how long ago their last turn
/// was, and gives them turns of at most `turn` in that order until the frame's budget is spent.
/// So requests of one priority take turns round-robin, and a low priority waits at most
/// (levels × aging_frames) frames more than the highest. A queued request needs a search from
/// the pool when its turn comes: an idle one made for the same world and options, a new one
/// while the pool has fewer than max_searches, or an idle one of another kind made again;
/// otherwise it waits. A running request keeps its search until it finishes.
///
/// Worlds that change: a request whose world is stale waits (no turn) until its owner syncs;
/// one whose world's version differs from the one its search began at begins again from its
/// start (restart, not repair: see docs/request_queue.md), so every result answers the world as
/// it is when the result is made; after max_restarts it fails with stale_world instead.
///
/// Memory: each of the max_searches searches holds either a dense table on a world of at most
/// sparse_above_nodes nodes, or a sparse one of at most max_table_bytes of pages (plus its
/// directory and open list); searches that could hold neither are refused (dense_fallback).
/// The bound, and what it measured at, are in docs/request_queue.md.
///
/// Allocation: the constructor allocates the slots; update() allocates only to make searches
/// (the pool's warm-up — reserve() does it before the first frame — or a search made again for
/// another world or options) and while result paths and search scratch grow past their
/// largest size so far. Not thread-safe: one queue
/// per thread; the worlds (sources) may be shared by queues on other threads.
///
/// `WorldResult` (default: none): the world's full result each finished request keeps beside its
/// path, as its search's handle gave it (SearchHandle::world_result<WorldResult>(): a navmesh's
/// NavPath, with its polygons and off-mesh links); world_result(id) hands it out. Copied into
/// the request's own, so no allocation once it has held as large a one.
template <class Node, class WorldResult = void>
class PathRequestQueue {
 public:
  explicit PathRequestQueue(const RequestQueueOptions& options = {}) : options_(options) {
    WAYMARK_ASSERT(options.max_requests >= 1 && options.max_searches >= 1 && options.aging_frames >= 1);
    requests_.resize(options.max_requests);
    free_.reserve(options.max_requests);
    active_.reserve(options.max_requests);
    order_.reserve(options.max_requests);
    waiting_.reserve(options.max_requests);
    pool_.reserve(options.max_searches);
    for (std::size_t i = options.max_requests; i-- > 0;) {
      free_.push_back(static_cast<std::uint32_t>(i));
      requests_[i].result.path.nodes.reserve(options.reserve_path_nodes);
    }
  }
  PathRequestQueue(const PathRequestQueue&) = delete;
  PathRequestQueue& operator=(const PathRequestQueue&) = delete;

  /// Queues a path request from `start` to `goal` on `world`, which must outlive the request.
  /// Higher priorities go first. Returns an invalid id when all max_requests slots are taken.
  /// A request whose search would need a dense table on a world above sparse_above_nodes
  /// (without dense_fallback) is refused: its id names a request already failed with
  /// invalid_query.
  RequestId submit(const SearchSource<Node>& world, const Node& start, const Node& goal,
                   const QueryOptions<Node>& options = {}, int priority = 0) {
    if (free_.empty()) return {};
    const std::uint32_t slot = free_.back();
    free_.pop_back();
    Request& r = requests_[slot];
    r.live = true;
    r.world = &world;
    r.start = start;
    r.goal = goal;
    r.options = queued_options(world, options);
    const bool large = world.node_count() > options_.sparse_above_nodes;
    r.info = RequestInfo{.state = RequestState::queued, .priority = priority, .submitted = frame_};
    r.last_turn = frame_;
    r.search = none;
    r.result.status = Status{};
    r.result.path.nodes.clear();
    r.result.path.cost = infinite_cost;
    r.result.stats = SearchStats{};
    if constexpr (keeps_world_result) r.world_result.held = false;
    if (large && !options_.dense_fallback && !world.has_sparse_table(r.options)) {
      r.result.status = Status::failure(StatusDetail::invalid_query | StatusDetail::unsupported);
      r.info.why = request_why::needs_dense_table;
      r.info.status = r.result.status;
      r.info.state = RequestState::failed;
      r.info.finished = frame_;
      return {slot, r.generation};
    }
    active_.push_back(slot);
    return {slot, r.generation};
  }

  /// The queue keeps `world` by reference: a temporary would be gone before the request runs.
  RequestId submit(const SearchSource<Node>&& world, const Node& start, const Node& goal,
                   const QueryOptions<Node>& options = {}, int priority = 0) = delete;

  /// Warms up the pool for requests on `world` with `options` before the first frame: makes
  /// up to `searches` of its searches for them now (a search's node table is allocated and
  /// touched when it is made: 8 MiB, 2–7 ms, on a 512² grid; a planner's jump structure is
  /// built on first use) and sizes each one's open list for reserve_open_nodes entries and its
  /// path for reserve_path_nodes, so that no update() makes a search for such requests. Takes
  /// free places in the pool, then idle searches made for other worlds or options (made again);
  /// searches held by running requests stay theirs. Returns how many searches of the pool are
  /// made for `world` and `options` now. Allocates; call it at load time, not in a frame.
  /// A sparse table (worlds above sparse_above_nodes) still takes its pages as a query reaches
  /// them: only its directory is allocated here.
  std::size_t reserve(const SearchSource<Node>& world, const QueryOptions<Node>& options = {},
                      std::size_t searches = std::numeric_limits<std::size_t>::max()) {
    const QueryOptions<Node> wanted = queued_options(world, options);
    const std::size_t target = std::min(searches, options_.max_searches);
    const auto matches = [&](const Pooled& p) { return p.world == &world && p.options == wanted; };
    std::size_t made = static_cast<std::size_t>(std::count_if(pool_.begin(), pool_.end(), matches));
    const auto make = [&](Pooled& p) {
      p.handle = world.make_search(wanted);
      p.world = &world;
      p.options = wanted;
      ++made;
    };
    while (made < target && pool_.size() < options_.max_searches) make(pool_.emplace_back());
    for (Pooled& p : pool_) {
      if (made >= target) break;
      if (p.request == none && !matches(p)) make(p);
    }
    const SearchCapacity capacity{.open_nodes = options_.reserve_open_nodes, .path_nodes = options_.reserve_path_nodes};
    for (Pooled& p : pool_) {
      if (matches(p) && p.request == none) p.handle.reserve(capacity);
    }
    return made;
  }
  /// The queue keeps `world` by reference: a temporary would be gone before the request runs.
  std::size_t reserve(const SearchSource<Node>&& world, const QueryOptions<Node>& options = {},
                      std::size_t searches = std::numeric_limits<std::size_t>::max()) = delete;

  /// Spends at most `frame` (expansions, scanned cells, wall time; each turn may go past by one
  /// expansion, as a step does) on the unfinished requests, in turns of at most options.turn.
  /// A frame or turn that limits expansions but not scanned cells is given a limit of
  /// options.scanned_per_expansion scanned cells per expansion. Returns the requests that
  /// finished in this frame; last_frame() tells what it spent.
  std::size_t update(const Budget& frame_budget) {
    ++frame_;
    drop_inactive();
    plan_turns();
    const Budget frame = frame_budget.scanning_at_most(options_.scanned_per_expansion);
    const bool timed = frame.time != Budget::Clock::duration::max();
    const Budget::Clock::time_point deadline = timed ? Budget::Clock::now() + frame.time : Budget::Clock::time_point{};
    std::uint64_t expansions_left = frame.expansions;
    std::uint64_t scanned_left = frame.scanned;
    std::size_t finished = 0;
    last_frame_ = FrameUse{};
    for (const Turn& next : order_) {
      const std::uint32_t slot = next.slot;
      if (expansions_left == 0 || scanned_left == 0) break;
      Budget turn = options_.turn.scanning_at_most(options_.scanned_per_expansion);
      if (timed) {
        const Budget::Clock::duration left = deadline - Budget::Clock::now();
        if (left <= Budget::Clock::duration::zero()) break;
        turn.time = std::min(turn.time, left);
      }
      turn.expansions = std::min(turn.expansions, expansions_left);
      turn.scanned = std::min(turn.scanned, scanned_left);
      Request& r = requests_[slot];
      if (r.info.waiting == RequestWait::for_sync) continue;  // plan_turns() saw its world stale: its owner syncs first
      if (r.info.state == RequestState::queued && !start_search(r)) continue;
      if (r.info.status.running() && r.world->world_version() != r.version && !restart(r)) {
        ++finished;  // gave up: max_restarts
        continue;
      }
      SearchHandle<Node>& search = pool_[r.search].handle;
      const SearchStats& stats = search.stats();
      const std::uint64_t expanded_before = stats.expanded;
      const std::uint64_t scanned_before = stats.scanned;
      if (r.info.status.running()) {
        r.info.status = search.step(turn);
        // Counters may restart within a step (a navmesh query's partial path is a second search).
        const auto grown = [](std::uint64_t after, std::uint64_t before) { return after > before ? after - before : 0; };
        const std::uint64_t spent = std::max<std::uint64_t>(grown(stats.expanded, expanded_before), 1);
        const std::uint64_t scanned = grown(stats.scanned, scanned_before);
        expansions_left -= std::min(expansions_left, spent);
        scanned_left -= std::min(scanned_left, scanned);
        last_frame_.expanded += grown(stats.expanded, expanded_before);
        last_frame_.scanned += scanned;
        ++last_frame_.turns;
      }
      r.info.max_wait = std::max(r.info.max_wait, frame_ - r.last_turn - 1);
      r.last_turn = frame_;
      ++r.info.turns;
      if (!r.info.status.finished()) continue;
      if (r.info.status.has(StatusDetail::stale_world) && !r.world->stale()) {
        // Edited and synced between its version check and its step: begin again.
        if (!restart(r)) ++finished;
        continue;
      }
      finish(r);
      ++finished;
    }
    return finished;
  }

  /// Ends a request: a queued one at once, a running one after one step that only cancels.
  /// Returns false when the id names no unfinished request.
  bool cancel(RequestId id) {
    Request* r = find(id);
    if (r == nullptr || !unfinished(*r)) return false;
    if (r->info.state == RequestState::queued) {
      r->info.status = Status::failure(StatusDetail::cancelled);
      r->result.status = r->info.status;
      r->info.state = RequestState::cancelled;
      r->info.finished = frame_;
      return true;
    }
    SearchHandle<Node>& search = pool_[r->search].handle;
    search.cancel();
    search.step();
    finish(*r);
    // A stale world ends the step before the cancel is seen: cancelled all the same.
    r->result.status = Status::failure(r->result.status.detail | StatusDetail::cancelled);
    r->info.status = r->result.status;
    r->info.state = RequestState::cancelled;
    return true;
  }

  /// Frees the request's slot (cancelling it first if unfinished); its id then names nothing.
  /// Returns false when the id names no live request.
  bool release(RequestId id) {
    Request* r = find(id);
    if (r == nullptr) return false;
    if (unfinished(*r)) cancel(id);
    std::erase(active_, id.slot);  // a slot is in active_ at most once, even when reused at once
    r->live = false;
    ++r->generation;
    free_.push_back(id.slot);
    return true;
  }

  [[nodiscard]] RequestInfo info(RequestId id) const {
    const Request* r = find(id);
    return r == nullptr ? RequestInfo{} : r->info;
  }
  [[nodiscard]] RequestState state(RequestId id) const { return info(id).state; }

  /// Copies a finished request's status, path and stats into `out` (reusing its capacity).
  /// Returns false, leaving `out` alone, while the request is unfinished or unknown.
  bool copy_result(RequestId id, SearchResult<Node>& out) const {
    const Request* r = find(id);
    if (r == nullptr || unfinished(*r)) return false;
    out.status = r->result.status;
    out.path.nodes.assign(r->result.path.nodes.begin(), r->result.path.nodes.end());
    out.path.cost = r->result.path.cost;
    out.stats = r->result.stats;
    return true;
  }
  /// The finished request's result, valid until it is released; null while unfinished.
  [[nodiscard]] const SearchResult<Node>* result(RequestId id) const {
    const Request* r = find(id);
    return r == nullptr || unfinished(*r) ? nullptr : &r->result;
  }
  /// The finished request's world result (the queue's WorldResult, as its search's handle gave
  /// it), valid until it is released; null while unfinished, and when no search gave one (a
  /// request cancelled or refused before its search ran, one that kept meeting a changed world).
  [[nodiscard]] const WorldResult* world_result(RequestId id) const
    requires(!std::is_void_v<WorldResult>)
  {
    const Request* r = find(id);
    return r == nullptr || unfinished(*r) || !r->world_result.held ? nullptr : &r->world_result.value;
  }

  /// Frames so far (update() calls).
  [[nodiscard]] std::uint64_t frame() const { return frame_; }
  /// What the last update() spent: expansions and scanned cells summed over its turns.
  [[nodiscard]] const FrameUse& last_frame() const { return last_frame_; }
  /// Whether all max_requests slots are held (queued, running, or finished and not released):
  /// submit() would refuse. O(1).
  [[nodiscard]] bool full() const { return free_.empty(); }
  /// Requests queued or running (waiting ones included: stats() tells them apart). A request the
  /// queue refused is finished (failed), so in_flight() 0 does not mean every request succeeded.
  [[nodiscard]] std::size_t in_flight() const {
    std::size_t n = 0;
    for (const std::uint32_t slot : active_) n += unfinished(requests_[slot]) ? 1 : 0;
    return n;
  }
  /// How the live requests stand: queued, running, waiting (for a search, for a sync), and
  /// finished by outcome. O(max_requests).
  [[nodiscard]] RequestQueueStats stats() const {
    RequestQueueStats s;
    for (const Request& r : requests_) {
      if (!r.live) continue;
      switch (r.info.state) {
        case RequestState::queued: ++s.queued; break;
        case RequestState::running: ++s.running; break;
        case RequestState::succeeded: ++s.succeeded; break;
        case RequestState::failed: ++s.failed; break;
        case RequestState::cancelled: ++s.cancelled; break;
        case RequestState::unknown: break;
      }
      if (!unfinished(r)) {
        if (r.info.state == RequestState::failed && r.info.turns <= 1 && r.info.status.has(StatusDetail::invalid_query)) {
          ++s.refused;
        }
        continue;
      }
      if (r.info.waiting == RequestWait::for_search) ++s.waiting_for_search;
      if (r.info.waiting == RequestWait::for_sync) ++s.waiting_for_sync;
    }
    return s;
  }
  /// Searches the pool holds (made so far, at most max_searches).
  [[nodiscard]] std::size_t searches() const { return pool_.size(); }
  /// Bytes held: the pool's search scratch, the request slots and their result paths.
  [[nodiscard]] std::size_t memory_bytes() const {
    std::size_t bytes = requests_.capacity() * sizeof(Request) + pool_.capacity() * sizeof(Pooled) +
                        (free_.capacity() + active_.capacity()) * sizeof(std::uint32_t) +
                        (order_.capacity() + waiting_.capacity()) * sizeof(Turn);
    for (const Pooled& p : pool_) bytes += p.handle.memory_bytes();
    for (const Request& r : requests_) bytes += r.result.path.nodes.capacity() * sizeof(Node);
    return bytes;
  }
  [[nodiscard]] const RequestQueueOptions& options() const { return options_; }

 private:
  static constexpr std::uint32_t none = std::numeric_limits<std::uint32_t>::max();
  static constexpr bool keeps_world_result = !std::is_void_v<WorldResult>;

  /// A request's copy of its world result (nothing for a queue without one).
  struct NoWorldResult {};
  struct HeldWorldResult {
    std::conditional_t<keeps_world_result, WorldResult, char> value{};
    bool held = false;
  };

  struct Request {
    std::uint32_t generation = 0;
    bool live = false;
    const SearchSource<Node>* world = nullptr;
    Node start{};
    Node goal{};
    QueryOptions<Node> options{};
    RequestInfo info{};
    std::uint64_t last_turn = 0;  ///< frame of its last turn, or of its submission
    std::uint64_t version = 0;    ///< the world's version its search began at
    std::uint32_t search = none;  ///< its search in the pool while running
    SearchResult<Node> result{};
    [[no_unique_address]] std::conditional_t<keeps_world_result, HeldWorldResult, NoWorldResult> world_result{};
  };
  /// A search of the pool, made for one world and options; `request` holds it (none: idle).
  struct Pooled {
    SearchHandle<Node> handle;
    const SearchSource<Node>* world = nullptr;
    QueryOptions<Node> options{};
    std::uint32_t request = none;
  };

  [[nodiscard]] static bool unfinished(const Request& r) {
    return r.info.state == RequestState::queued || r.info.state == RequestState::running;
  }

  Request* find(RequestId id) {
    if (id.slot >= requests_.size()) return nullptr;
    Request& r = requests_[id.slot];
    return r.live && r.generation == id.generation ? &r : nullptr;
  }
  const Request* find(RequestId id) const { return const_cast<PathRequestQueue*>(this)->find(id); }

  /// A request's place in this frame's order: higher priority (with age) first, then the one
  /// whose last turn is oldest, then the lower slot.
  struct Turn {
    std::int64_t priority;
    std::uint64_t last_turn;
    std::uint32_t slot;

    [[nodiscard]] bool operator<(const Turn& o) const {
      if (priority != o.priority) return priority > o.priority;
      if (last_turn != o.last_turn) return last_turn < o.last_turn;
      return slot < o.slot;
    }
  };

  /// This frame's order: every running request, and as many of the queued ones as the pool
  /// has searches to spare (the first in order), sorted. O(requests) plus a sort of at most
  /// 2 × max_searches: queued requests that cannot start this frame are not sorted.
  void plan_turns() {
    order_.clear();
    waiting_.clear();
    std::size_t busy = 0;
    for (const Pooled& p : pool_) busy += p.request != none ? 1 : 0;
    for (const std::uint32_t slot : active_) {
      Request& r = requests_[slot];
      // Why it waits is this frame's answer, whether or not its turn comes before the frame's
      // budget runs out: an unsynced world now, a busy pool below.
      if (unfinished(r)) {
        const bool stale = r.world->stale();
        r.info.waiting = stale ? RequestWait::for_sync : RequestWait::none;
        r.info.why = stale ? request_why::stale_world : std::string_view{};
      }
      const Turn t{effective_priority(r), r.last_turn, slot};
      if (r.info.state == RequestState::running) {
        order_.push_back(t);
      } else {
        waiting_.push_back(t);
      }
    }
    const std::size_t spare = options_.max_searches - busy;
    if (waiting_.size() > spare) {
      std::nth_element(waiting_.begin(), waiting_.begin() + static_cast<std::ptrdiff_t>(spare), waiting_.end());
      for (auto it = waiting_.begin() + static_cast<std::ptrdiff_t>(spare); it != waiting_.end(); ++it) {
        RequestInfo& info = requests_[it->slot].info;
        if (info.waiting != RequestWait::none) continue;  // an unsynced world says more
        info.waiting = RequestWait::for_search;
        info.why = request_why::no_search;
      }
      waiting_.resize(spare);
    }
    order_.insert(order_.end(), waiting_.begin(), waiting_.end());
    std::sort(order_.begin(), order_.end());
  }

  /// The options a request's search is made with: sparse tables on worlds above
  /// sparse_above_nodes, and their page budget.
  [[nodiscard]] QueryOptions<Node> queued_options(const SearchSource<Node>& world, const QueryOptions<Node>& options) const {
    QueryOptions<Node> o = options;
    if (world.node_count() > options_.sparse_above_nodes) o.table = NodeTableKind::sparse;
    if (o.table == NodeTableKind::sparse && options_.max_table_bytes != 0 &&
        (o.max_table_bytes == 0 || o.max_table_bytes > options_.max_table_bytes)) {
      o.max_table_bytes = options_.max_table_bytes;
    }
    return o;
  }

  [[nodiscard]] std::int64_t effective_priority(const Request& r) const {
    return static_cast<std::int64_t>(r.info.priority) +
           static_cast<std::int64_t>((frame_ - r.last_turn) / options_.aging_frames);
  }

  /// Keeps only unfinished requests in active_ (finished ones stay in their slots).
  void drop_inactive() {
    std::erase_if(active_, [&](std::uint32_t slot) { return !unfinished(requests_[slot]); });
  }

  /// Gives a queued request a search from the pool and begins it; false when none is free.
  bool start_search(Request& r) {
    std::uint32_t chosen = none;
    std::uint32_t idle = none;
    for (std::uint32_t i = 0; i < pool_.size(); ++i) {
      if (pool_[i].request != none) continue;
      if (pool_[i].world == r.world && pool_[i].options == r.options) {
        chosen = i;
        break;
      }
      if (idle == none) idle = i;
    }
    if (chosen == none) {
      if (pool_.size() < options_.max_searches) {
        chosen = static_cast<std::uint32_t>(pool_.size());
        pool_.emplace_back();
      } else if (idle != none) {
        chosen = idle;
      } else {
        return false;
      }
      Pooled& p = pool_[chosen];
      p.handle = r.world->make_search(r.options);
      p.world = r.world;
      p.options = r.options;
    }
    pool_[chosen].request = static_cast<std::uint32_t>(&r - requests_.data());
    r.search = chosen;
    r.info.state = RequestState::running;
    r.info.started = frame_;
    begin(r);
    return true;
  }

  void begin(Request& r) {
    r.version = r.world->world_version();
    r.info.status = pool_[r.search].handle.begin(r.start, r.goal);
  }

  /// Begins the request's search again on its world's new version; false (the request failed
  /// with stale_world, its search back in the pool) once it has used up max_restarts.
  bool restart(Request& r) {
    if (r.info.restarts >= options_.max_restarts) {
      Pooled& p = pool_[r.search];
      r.result.status = Status::failure(StatusDetail::stale_world);
      r.info.why = request_why::kept_changing;
      r.info.waiting = RequestWait::none;
      r.result.path.nodes.clear();
      r.result.path.cost = infinite_cost;
      r.result.stats = p.handle.stats();
      if constexpr (keeps_world_result) r.world_result.held = false;
      r.info.status = r.result.status;
      r.info.state = RequestState::failed;
      r.info.finished = frame_;
      p.request = none;  // its next begin() discards the unfinished search
      r.search = none;
      return false;
    }
    ++r.info.restarts;
    begin(r);
    return true;
  }

  /// Keeps the search's result in the request and gives the search back to the pool.
  void finish(Request& r) {
    Pooled& p = pool_[r.search];
    p.handle.copy_result(r.result);
    if constexpr (keeps_world_result) {
      const WorldResult* world = p.handle.template world_result<WorldResult>();
      r.world_result.held = world != nullptr;
      if (world != nullptr) r.world_result.value = *world;  // reuses the copy's capacity
    }
    r.info.status = r.result.status;
    r.info.state = r.result.status.succeeded()                  ? RequestState::succeeded
                   : r.result.status.has(StatusDetail::cancelled) ? RequestState::cancelled
                                                                  : RequestState::failed;
    r.info.finished = frame_;
    r.info.waiting = RequestWait::none;
    r.info.why = r.result.status.has(StatusDetail::unsupported) ? request_why::unsupported
                 : r.result.status.has(StatusDetail::invalid_query) ? request_why::invalid
                                                                    : std::string_view{};
    p.request = none;
    r.search = none;
  }

  RequestQueueOptions options_;
  std::vector<Request> requests_;      ///< max_requests slots
  std::vector<std::uint32_t> free_;    ///< free slots, the next one last
  std::vector<std::uint32_t> active_;  ///< slots of queued and running requests (and some just finished)
  std::vector<Turn> order_;            ///< this frame's turn order
  std::vector<Turn> waiting_;          ///< this frame's queued requests, then those that may start
  std::vector<Pooled> pool_;           ///< at most max_searches, reserved up front
  std::uint64_t frame_ = 0;
  FrameUse last_frame_{};
};

}  // namespace waymark::search
