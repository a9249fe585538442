#include "waymark/grid/batch.hpp"

#include <algorithm>
#include <atomic>
#include <exception>
#include <mutex>

#include "waymark/core/assert.hpp"
#include "waymark/core/parallel.hpp"
#include "waymark/search/node_table.hpp"

namespace waymark::grid {

namespace {

/// One query on a thread's own handle, into its result (reusing the result's path capacity).
void answer(search::SearchHandle<CellId>& search, std::size_t cells, const BatchQuery& q, bool keep_path,
            BatchResult& out) {
  if (q.start.value >= cells || q.goal.value >= cells) {
    out.status = Status::failure(StatusDetail::invalid_query | StatusDetail::out_of_bounds);
    out.cost = infinite_cost;
    out.stats = {};
    out.path.clear();
    return;
  }
  out.status = search.run(q.start, q.goal);
  const Path<CellId>& path = search.path();
  out.cost = path.empty() ? infinite_cost : path.cost;
  out.stats = search.stats();
  if (keep_path) {
    out.path.assign(path.nodes.begin(), path.nodes.end());
  } else {
    out.path.clear();
  }
}

static_assert(batch_bytes_per_cell == sizeof(search::NodeRecord));

/// options.chunk within [1, queries] (so that chunk arithmetic cannot overflow).
std::size_t batch_chunk(std::size_t queries, const BatchOptions& options) {
  return std::clamp<std::size_t>(options.chunk, 1, std::max<std::size_t>(queries, 1));
}

std::size_t chunk_count(std::size_t queries, std::size_t chunk) { return queries / chunk + (queries % chunk != 0); }

}  // namespace

std::size_t batch_threads(std::size_t queries, std::size_t cells, const BatchOptions& options) {
  const std::size_t chunks = chunk_count(queries, batch_chunk(queries, options));
  const std::size_t per_thread = std::max<std::size_t>(cells, 1) * batch_bytes_per_cell;
  const std::size_t affordable = std::max<std::size_t>(options.max_scratch_bytes / per_thread, 1);
  return std::min({std::clamp<std::size_t>(options.threads, 1, max_batch_threads), std::max<std::size_t>(chunks, 1),
                   affordable});
}

void run_batch(const GridPlanner& planner, std::span<const BatchQuery> queries, std::span<BatchResult> results,
               const BatchOptions& options) {
  WAYMARK_ASSERT(results.size() == queries.size());
  const std::size_t total = std::min(queries.size(), results.size());
  const std::size_t chunk = batch_chunk(total, options);
  const std::size_t chunks = chunk_count(total, chunk);
  const std::size_t cells = planner.map().cell_count();
  const std::size_t threads = batch_threads(total, cells, options);
  // A sink would be shared by every thread's handle: batches record no events.
  search::QueryOptions<CellId> query = planner.options().query;
  query.events = nullptr;

  std::atomic<std::size_t> done{0};
  std::atomic<bool> stop{false};
  std::mutex reporting;  // one progress report at a time; a busy one is skipped, not waited for
  std::exception_ptr error;
  std::mutex error_mutex;
  share_indices(chunks, threads, [&](const auto& next) {
    try {
      search::SearchHandle<CellId> search = planner.make_search(query);
      for (std::size_t c = next(); c < chunks && !stop.load(std::memory_order_relaxed); c = next()) {
        const std::size_t end = std::min(total, (c + 1) * chunk);
        for (std::size_t i = c * chunk; i < end; ++i) answer(search, cells, queries[i], options.keep_paths, results[i]);
        done.fetch_add(end - c * chunk, std::memory_order_relaxed);
        if (options.progress && reporting.try_lock()) {
          const std::lock_guard<std::mutex> held(reporting, std::adopt_lock);
          options.progress(done.load(std::memory_order_relaxed), total);  // read under the lock: never decreasing
        }
      }
    } catch (...) {
      stop = true;
      const std::lock_guard<std::mutex> lock(error_mutex);
      if (!error) error = std::current_exception();
    }
  });
  if (error) std::rethrow_exception(error);
  if (options.progress) options.progress(total, total);
}

std::vector<BatchResult> run_batch(const GridPlanner& planner, std::span<const BatchQuery> queries,
                                   const BatchOptions& options) {
  std::vector<BatchResult> results(queries.size());
  run_batch(planner, queries, results, options);
  return results;
}

}  // namespace waymark::grid
