// Pancake sorting: searching a state space you define yourself with waymark's engines.
// Walk-through: docs/state_space.md.
//
// A stack of n pancakes of different sizes lies on a plate. A move slides the spatula under the
// k-th pancake from the top (k = 2..n) and flips the top k over. Goal: sorted, smallest on top.
// The program solves seeded random stacks with A* and IDA*, checks every answer, and exits 1
// with a message on stderr if any check fails.

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <initializer_list>
#include <random>
#include <string_view>

#include "waymark/search/best_first.hpp"
#include "waymark/search/ida_star.hpp"
#include "waymark/search/traversal.hpp"

namespace pancake {

using waymark::Cost;

inline constexpr int max_pancakes = 16;  // sizes 0..15: 4 bits each, see the hash below

// (1) The state: a node is copied, compared and hashed on every move, so keep it small.
/// cakes[i] = size of the i-th pancake from the top (0 = smallest); slots >= n stay 0.
struct Stack {
  std::array<std::uint8_t, max_pancakes> cakes{};
  friend bool operator==(const Stack&, const Stack&) = default;  // SearchSpace needs ==
};

}  // namespace pancake

// Hashing. Spaces without node_count()/index_of() are searched through a hashed node table,
// which uses std::hash<node_type>. (Or pass a functor: HashedNodeTable<Space, MyHash> as the last
// template argument of BestFirstSearch, IdaStar or TraversalSearch.) The table mixes the value
// itself, so packing the 16 four-bit sizes into one word, collision-free, is all it takes.
template <>
struct std::hash<pancake::Stack> {
  std::size_t operator()(const pancake::Stack& s) const noexcept {
    std::uint64_t packed = 0;
    for (const std::uint8_t c : s.cakes) packed = (packed << 4) | c;
    return static_cast<std::size_t>(packed);
  }
};

namespace pancake {

/// What flipping the top k pancakes costs.
enum class FlipCost : std::uint8_t {
  unit,       ///< 1 per flip: the cost is the number of flips
  half_size,  ///< k / 2: bigger flips are more work; the cheapest (k = 2) costs 1
};

// (2) The space: successors and their costs. Immutable while searched; a search keeps a pointer.
class PancakeSpace {
 public:
  using node_type = Stack;  // SearchSpace needs node_type and for_each_successor

  PancakeSpace(int n, FlipCost costs) : n_(n), costs_(costs) {}

  [[nodiscard]] int size() const { return n_; }
  [[nodiscard]] Stack sorted() const {
    Stack s;
    for (int i = 0; i < n_; ++i) s.cakes[i] = static_cast<std::uint8_t>(i);
    return s;
  }
  [[nodiscard]] static Stack flip(Stack s, int k) {
    std::reverse(s.cakes.begin(), s.cakes.begin() + k);
    return s;
  }
  [[nodiscard]] Cost flip_cost(int k) const { return costs_ == FlipCost::unit ? 1.0 : k / 2.0; }

  /// Calls f(next, cost) once per move. Costs must be finite and >= 0.
  template <class F>
  void for_each_successor(const Stack& s, F&& f) const {
    for (int k = 2; k <= n_; ++k) f(flip(s, k), flip_cost(k));
  }

 private:
  int n_;
  FlipCost costs_;
};
static_assert(waymark::search::SearchSpace<PancakeSpace>);

// (3) The heuristic, from the gap count (Helmert 2010): a gap is a pair of neighbours, the plate
// counting as the largest pancake, that are not neighbours in the goal. A flip of the top k keeps
// the pairs inside the flipped part together and changes one pair only, the one at depth k:
// (cakes[k-1], what lies below) becomes (cakes[0], what lies below). So a flip removes at most
// one gap, the goal has none, and a solution needs >= gaps flips. Moreover the deepest gap, at
// depth d, stays until some flip has k >= d. Every flip costs >= 1 and costs grow with k, so
//   h = (gaps - 1) * 1 + flip_cost(max(d, 2))   (0 at the goal)
// never exceeds the cost still to pay: admissible. It is also consistent (a flip lowers h by at
// most its cost), so A* never reopens a node. With unit costs it is the plain gap count.
class GapHeuristic {
 public:
  explicit GapHeuristic(const PancakeSpace& space) : space_(&space) {}

  Cost operator()(const Stack& s, const Stack& goal) const {
    const int n = space_->size();
    std::array<int, max_pancakes> rank{};  // rank[c] = position of pancake c in the goal
    for (int i = 0; i < n; ++i) rank[goal.cakes[i]] = i;
    int gaps = 0;
    int deepest = 0;  // depth of the deepest gap: it lies below the top `deepest` pancakes
    for (int i = 0; i < n; ++i) {
      const int below = i + 1 < n ? rank[s.cakes[i + 1]] : n;  // the plate's rank is n
      if (std::abs(rank[s.cakes[i]] - below) != 1) {
        ++gaps;
        deepest = i + 1;
      }
    }
    if (gaps == 0) return 0;
    return static_cast<Cost>(gaps - 1) + space_->flip_cost(std::max(deepest, 2));
  }

 private:
  const PancakeSpace* space_;
};

using Path = waymark::Path<Stack>;
inline constexpr std::size_t expansions_per_step = 1000;

int failures = 0;
bool fail(const char* what, int n, unsigned seed) {
  std::fprintf(stderr, "CHECK FAILED: %s (n=%d, seed %u)\n", what, n, seed);
  ++failures;
  return false;
}

/// Fisher-Yates with mt19937's raw output (fully specified), so every platform prints the same.
Stack random_stack(const PancakeSpace& space, unsigned seed) {
  std::mt19937 rng(seed);
  Stack s = space.sorted();
  for (int i = space.size() - 1; i > 0; --i) std::swap(s.cakes[i], s.cakes[rng() % (i + 1)]);
  return s;
}

/// Whether `path` goes from start to goal by legal flips and costs what their costs add up to.
bool replay(const PancakeSpace& space, const Path& path, const Stack& start, const Stack& goal) {
  if (path.empty() || !(path.nodes.front() == start) || !(path.nodes.back() == goal)) return false;
  Cost cost = 0;
  for (std::size_t i = 0; i + 1 < path.nodes.size(); ++i) {
    int k = 2;
    while (k <= space.size() && !(PancakeSpace::flip(path.nodes[i], k) == path.nodes[i + 1])) ++k;
    if (k > space.size()) return false;  // the step is not one flip
    cost += space.flip_cost(k);
  }
  return cost == path.cost;  // exact: every cost is a multiple of 1/2
}

/// Runs one query in slices of `expansions_per_step` (as a game would, one slice per frame),
/// prints a line and checks the path. Status codes, not exceptions, say how the search ended.
template <class Search>
bool run(const char* name, Search& search, const PancakeSpace& space, const Stack& start,
         unsigned seed) {
  const Stack goal = space.sorted();
  search.begin(start, goal);
  while (search.step(expansions_per_step).running()) {
  }
  const waymark::SearchStats& stats = search.stats();
  std::printf("  %-8s flips %2zu  cost %5.1f  expanded %8llu  %8.2f ms\n", name,
              search.path().steps(), search.path().cost,
              static_cast<unsigned long long>(stats.expanded), stats.time_s * 1e3);
  if (!search.status().succeeded()) return fail("search did not succeed", space.size(), seed);
  if (!replay(space, search.path(), start, goal)) {
    return fail("path is not a chain of flips", space.size(), seed);
  }
  return true;
}

// (4) + (5) A* and IDA* on the same stacks; on small stacks a plain BFS (unit costs) or
// Dijkstra (weighted) is the reference. One search object per space, reused for every query.
void solve_stacks(int n, FlipCost costs, std::initializer_list<unsigned> seeds, bool with_reference) {
  using namespace waymark::search;
  const PancakeSpace space(n, costs);
  AStar<PancakeSpace, GapHeuristic> astar(space, GapHeuristic(space));
  // No transposition table: memory stays linear in the depth; parent pruning (never flip the
  // same k twice in a row) is built in.
  IdaStar<PancakeSpace, GapHeuristic> ida(space, GapHeuristic(space), NullObserver{},
                                          IdaStarOptions{.transposition_table = false});
  BreadthFirstSearch<PancakeSpace> bfs(space);
  Dijkstra<PancakeSpace> dijkstra(space);

  for (const unsigned seed : seeds) {
    const Stack start = random_stack(space, seed);
    std::printf("n=%d %s seed %u: ", n, costs == FlipCost::unit ? "unit" : "k/2", seed);
    for (int i = 0; i < n; ++i) std::printf("%d ", start.cakes[i]);
    std::printf("\n");
    const bool astar_ok = run("A*", astar, space, start, seed);
    const bool ida_ok = run("IDA*", ida, space, start, seed);
    if (astar.stats().reopened != 0) fail("A* reopened a node: h is not consistent", n, seed);
    if (astar_ok && ida_ok && astar.path().cost != ida.path().cost) {
      fail("A* and IDA* costs differ", n, seed);
    }
    if (!with_reference || !astar_ok) continue;
    if (costs == FlipCost::unit) {
      // BFS finds the fewest flips, which with unit costs is the optimal cost.
      const bool ok = run("BFS", bfs, space, start, seed);
      if (ok && static_cast<Cost>(bfs.path().steps()) != astar.path().cost) {
        fail("A* cost differs from the BFS flip count", n, seed);
      }
    } else {
      const bool ok = run("Dijkstra", dijkstra, space, start, seed);
      if (ok && dijkstra.path().cost != astar.path().cost) fail("A* cost differs from Dijkstra's", n, seed);
    }
  }
}

/// A node limit ends a search that grows too big with a status, not an exception.
void show_node_limit() {
  using namespace waymark::search;
  using waymark::Status;
  using waymark::StatusDetail;
  const PancakeSpace space(12, FlipCost::half_size);
  AStar<PancakeSpace, GapHeuristic> astar(space, GapHeuristic(space), AStarPriority{}, NullObserver{},
                                          BestFirstOptions{.max_nodes = 50});
  const Status status = solve(astar, random_stack(space, 1), space.sorted());  // begin + step
  const std::string_view state = waymark::to_string(status.state);
  std::printf("n=12 k/2 seed 1, A* limited to 50 nodes: %.*s%s\n", static_cast<int>(state.size()),
              state.data(), status.has(StatusDetail::out_of_nodes) ? " (out-of-nodes)" : "");
  if (!status.failed() || !status.has(StatusDetail::out_of_nodes)) fail("node limit not reported", 12, 1);
}

}  // namespace pancake

int main() {
  using pancake::FlipCost;
  for (const FlipCost costs : {FlipCost::unit, FlipCost::half_size}) {
    pancake::solve_stacks(8, costs, {1, 2, 3}, /*with_reference=*/true);
    pancake::solve_stacks(10, costs, {4, 5, 6}, false);
  }
  // 12 pancakes with k/2 costs take A* seconds and IDA* tens of seconds: try it.
  pancake::solve_stacks(12, FlipCost::unit, {7, 8, 9}, false);
  pancake::show_node_limit();
  if (pancake::failures != 0) {
    std::fprintf(stderr, "%d check(s) failed\n", pancake::failures);
    return 1;
  }
  std::printf("all checks passed\n");
  return 0;
}
