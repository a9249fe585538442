#pragma once
/// @file SearchSource: a world that hands out search handles and tells when it changed — what a
/// request queue needs of any world. Every planner is one: grid::GridPlanner,
/// graph::GraphPlanner, puzzle::PuzzleSolver, navmesh::NavPlanner, navmesh::TiledNavPlanner,
/// visibility::VisibilityPlanner.

#include <cstddef>
#include <cstdint>

#include "waymark/search/handle.hpp"

namespace waymark::search {

/// Anything that makes SearchHandle<Node>s over one world and reports the world's version.
///
/// A handle made by a source fails with stale_world while stale() (the world was edited and
/// the source's shared data not yet brought up to date by its owner); once the owner syncs, a
/// search begun at an older world_version() answers from the new world only if begun again.
/// make_search() and the queries are const: many threads may share one source, each with its
/// own handles.
template <class Node>
class SearchSource {
 public:
  SearchSource() = default;
  SearchSource(const SearchSource&) = delete;
  SearchSource& operator=(const SearchSource&) = delete;
  virtual ~SearchSource() = default;

  /// A new search over the world with these options. Allocates (the handle and its scratch).
  [[nodiscard]] virtual SearchHandle<Node> make_search(const QueryOptions<Node>& options) const = 0;
  /// The world's version: it changes with every edit.
  [[nodiscard]] virtual std::uint64_t world_version() const = 0;
  /// Whether the world was edited since the source's shared data was last synced.
  [[nodiscard]] virtual bool stale() const = 0;
  /// Nodes in the world (cells, vertices), which a dense node table holds one record each of.
  [[nodiscard]] virtual std::size_t node_count() const = 0;
  /// Whether a search made with these options keeps node scratch only for the nodes it reaches
  /// (a sparse table, held within options.max_table_bytes). The default, false: its scratch
  /// grows with the world, whatever the options (a request queue refuses such searches on
  /// large worlds unless told otherwise: RequestQueueOptions::dense_fallback).
  [[nodiscard]] virtual bool has_sparse_table(const QueryOptions<Node>& options) const {
    static_cast<void>(options);
    return false;
  }
};

}  // namespace waymark::search
