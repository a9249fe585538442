#pragma once
/// @file Sharing independent jobs between threads (pattern-database tables, puzzle instances).

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <thread>
#include <vector>

namespace waymark {

/// Runs `worker(next)` on up to `threads` threads, the calling thread being one of them, and
/// waits for all. `next()` hands out 0..count-1, each index once and in increasing order, then
/// returns `count`; a worker does its per-thread setup, then loops until that. Workers must
/// not throw: catch inside and report after the call.
template <class Worker>
void share_indices(std::size_t count, std::size_t threads, Worker&& worker) {
  std::atomic<std::size_t> taken{0};
  const auto next = [&taken, count] { return std::min(taken++, count); };
  std::vector<std::thread> pool;
  for (std::size_t t = 1; t < std::min(threads, count); ++t) pool.emplace_back([&] { worker(next); });
  worker(next);
  for (std::thread& t : pool) t.join();
}

}  // namespace waymark
