#pragma once
/// @file Batch queries: many queries on one grid, on several threads, answered as one thread
/// answers them.

#include <cstddef>
#include <functional>
#include <span>
#include <vector>

#include "waymark/core/cost.hpp"
#include "waymark/core/ids.hpp"
#include "waymark/core/stats.hpp"
#include "waymark/core/status.hpp"
#include "waymark/grid/grid_planner.hpp"

namespace waymark::grid {

/// One query of a batch.
struct BatchQuery {
  CellId start;
  CellId goal;
};

/// What one query of a batch found.
struct BatchResult {
  Status status;
  /// The path's cost after Success (or a partial path's, when the status says so);
  /// infinite_cost without a path.
  Cost cost = infinite_cost;
  SearchStats stats;
  /// The path's cells, start to goal; filled only with BatchOptions::keep_paths (empty
  /// otherwise, or when there is no path).
  std::vector<CellId> path;
};

/// The most threads a batch runs on. Each thread owns a search handle of the planner's
/// algorithm: 32 bytes per cell for the best-first searches, so 64 threads on a 1024² map
/// hold 2 GiB.
inline constexpr std::size_t max_batch_threads = 64;
/// Scratch a thread's search holds per cell of the map: one dense node record.
inline constexpr std::size_t batch_bytes_per_cell = 32;
/// The threads' scratch together, at most (BatchOptions::max_scratch_bytes): 8 GiB, so the
/// largest map a planner loads by default (2^25 cells, 1 GiB a thread) runs on 8 threads.
inline constexpr std::size_t default_batch_scratch_bytes = std::size_t{8} << 30;
/// Queries a thread takes at a time: small enough to keep every thread busy to the end (the
/// Moving AI files sort their queries by length, so equal fixed shares would not), large
/// enough that taking them costs nothing next to the searches.
inline constexpr std::size_t default_batch_chunk = 8;

/// Told how many queries are done of how many, `done` never decreasing: after a chunk, by the
/// thread that finished it, and once at the end with done == total, by the calling thread.
/// Never two calls at once (a thread that finds a report under way skips its own: the next
/// carries the later count), so it need not be thread-safe against itself, but it runs on any
/// of the batch's threads. Keep it cheap: that thread searches no query meanwhile.
using BatchProgress = std::function<void(std::size_t done, std::size_t total)>;

struct BatchOptions {
  /// Threads to run on, the calling thread being one of them; never more than there are
  /// chunks, nor than max_scratch_bytes allows. [Limit: 1 to max_batch_threads; 0 acts as 1,
  /// more as max_batch_threads]
  std::size_t threads = 1;
  /// Queries a thread takes at a time. [Limit: >= 1; 0 acts as 1, more than the queries as
  /// all of them]
  std::size_t chunk = default_batch_chunk;
  /// Most bytes of search scratch all threads hold together (batch_bytes_per_cell a cell a
  /// thread); fewer threads run when it would be exceeded, never fewer than one.
  std::size_t max_scratch_bytes = default_batch_scratch_bytes;
  /// Copy each path into its result (one allocation per query unless the results already
  /// hold paths as long: see run_batch). Off: only status, cost and stats.
  bool keep_paths = false;
  /// Progress reports, when set.
  BatchProgress progress{};
};

/// The threads a batch of `queries` queries on a map of `cells` cells runs on: options.threads
/// within its limits, never more than there are chunks nor than the scratch budget allows.
[[nodiscard]] std::size_t batch_threads(std::size_t queries, std::size_t cells, const BatchOptions& options);

/// Runs `queries` on `planner` and writes result i for query i. [Limit: results.size() ==
/// queries.size(), asserted] Each thread makes its own search handle from the planner, with the
/// planner's query options but no event sink (a sink would be shared by the threads); the
/// planner and its map are only read, so each answer (status, cost, path, counters other than
/// time) is the one a single handle gives. A query whose start or goal is not a cell of the
/// map fails (out_of_bounds) without searching.
///
/// Allocation: each thread's handle (O(cells), once per call) and its open list and path as
/// they grow; nothing per query after that, except kept paths growing past a result's
/// capacity — running a batch again into the same results allocates no path.
/// @warning The planner must not be edited or synced while the batch runs. When a thread
/// throws (an allocation that fails), the others stop after their current chunk and the
/// exception is rethrown here; the results are then incomplete.
void run_batch(const GridPlanner& planner, std::span<const BatchQuery> queries, std::span<BatchResult> results,
               const BatchOptions& options = {});

/// The same into a new vector of results, in the order of `queries`.
[[nodiscard]] std::vector<BatchResult> run_batch(const GridPlanner& planner, std::span<const BatchQuery> queries,
                                                 const BatchOptions& options = {});

}  // namespace waymark::grid
