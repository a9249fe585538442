#pragma once
/// @file The planner shape, in code: what every planner offers (search::Planner, checked by a
/// static_assert beside each one) and the base that writes its forwarding forms once
/// (search::PlannerBase). Planners: grid::GridPlanner, graph::GraphPlanner, puzzle::PuzzleSolver,
/// navmesh::NavPlanner, navmesh::TiledNavPlanner and visibility::VisibilityPlanner.

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "waymark/search/handle.hpp"
#include "waymark/search/search_core.hpp"
#include "waymark/search/search_source.hpp"

namespace waymark::search {

/// What a planner's sync() did: the same type for every planner.
struct SyncReport {
  /// The world version the planner's shared data now answers from (world_version()).
  std::uint64_t world_version = 0;
  /// How much shared data was recomputed, in the planner's own unit (grids: cells of the masks
  /// and jump structures; 0 when nothing had changed or the planner's world never changes).
  std::size_t recomputed = 0;

  friend bool operator==(const SyncReport&, const SyncReport&) = default;
};

/// What every planner offers. `Algorithm` is what can be chosen per call (grid::Algorithm,
/// graph::Algorithm, puzzle::Algorithm, navmesh::NavMode, visibility::Algorithm); the defaults
/// come from the planner's options:
/// - make_search(), make_search(query), make_search(algorithm, query): a steppable handle;
/// - plan(start, goal[, algorithm[, query]]): one query to its end;
/// - stale() and sync(): the world was edited / bring the shared data up to date;
/// - unsupported([algorithm]): why a combination cannot run (no value: it can).
template <class P>
concept Planner = std::derived_from<P, SearchSource<typename P::Node>> &&
                  requires(const P& planner, P& owner, const typename P::Node& node,
                           const typename P::Algorithm& algorithm, const QueryOptions<typename P::Node>& query) {
                    { planner.default_algorithm() } -> std::same_as<typename P::Algorithm>;
                    { planner.default_query() } -> std::same_as<QueryOptions<typename P::Node>>;
                    { planner.make_search() } -> std::same_as<SearchHandle<typename P::Node>>;
                    { planner.make_search(query) } -> std::same_as<SearchHandle<typename P::Node>>;
                    { planner.make_search(algorithm, query) } -> std::same_as<SearchHandle<typename P::Node>>;
                    { planner.plan(node, node) } -> std::same_as<SearchResult<typename P::Node>>;
                    { planner.plan(node, node, algorithm) } -> std::same_as<SearchResult<typename P::Node>>;
                    { planner.plan(node, node, algorithm, query) } -> std::same_as<SearchResult<typename P::Node>>;
                    { planner.stale() } -> std::same_as<bool>;
                    { owner.sync() } -> std::same_as<SyncReport>;
                    { planner.unsupported() } -> std::same_as<std::optional<std::string>>;
                    { planner.unsupported(algorithm) } -> std::same_as<std::optional<std::string>>;
                  };

/// The forms every planner shares, written once. `Derived` supplies make_search(algorithm,
/// query), default_algorithm() and default_query() (and, where its world can change or refuse,
/// stale(), sync(), unsupported(algorithm), world_version()); a derived class that declares
/// make_search, plan or unsupported brings these in with `using`, and declares its own forms
/// with these parameter types (nodes by const reference, the algorithm by value), so that they
/// replace the base's. The defaults here are those of
/// a world that never changes and serves every algorithm.
template <class Derived, class NodeType, class AlgorithmType>
class PlannerBase : public SearchSource<NodeType> {
 public:
  using Node = NodeType;
  using Algorithm = AlgorithmType;

  /// A new search of the default algorithm with the default query options.
  [[nodiscard]] SearchHandle<Node> make_search() const {
    return self().make_search(self().default_algorithm(), self().default_query());
  }
  /// A new search of the default algorithm with these query options (what a request queue calls).
  [[nodiscard]] SearchHandle<Node> make_search(const QueryOptions<Node>& query) const final {
    return self().make_search(self().default_algorithm(), query);
  }

  /// One query from `start` to `goal`, to its end: status, path and stats.
  [[nodiscard]] SearchResult<Node> plan(const Node& start, const Node& goal) const {
    return self().plan(start, goal, self().default_algorithm(), self().default_query());
  }
  [[nodiscard]] SearchResult<Node> plan(const Node& start, const Node& goal, Algorithm algorithm) const {
    return self().plan(start, goal, algorithm, self().default_query());
  }
  /// The default: a search made for the query (allocates); planners that keep searches to lend
  /// declare their own.
  [[nodiscard]] SearchResult<Node> plan(const Node& start, const Node& goal, Algorithm algorithm,
                                        const QueryOptions<Node>& query) const {
    return run_once(self().make_search(algorithm, query), start, goal);
  }

  /// Why the default algorithm cannot run now; no value when it can.
  [[nodiscard]] std::optional<std::string> unsupported() const { return self().unsupported(self().default_algorithm()); }
  [[nodiscard]] std::optional<std::string> unsupported(Algorithm) const { return std::nullopt; }

  [[nodiscard]] std::uint64_t world_version() const override { return 0; }
  [[nodiscard]] bool stale() const override { return false; }
  /// Nothing to bring up to date.
  SyncReport sync() { return {self().world_version(), 0}; }

 protected:
  PlannerBase() = default;
  ~PlannerBase() override = default;

 private:
  [[nodiscard]] const Derived& self() const { return static_cast<const Derived&>(*this); }
};

}  // namespace waymark::search
