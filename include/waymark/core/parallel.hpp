#pragma once
/// @file Sharing independent jobs between threads (pattern-database tables, puzzle instances).

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <thread>
#include <vector>

namespace waymark {

/// Whether this build may start threads: false when compiled with WAYMARK_SINGLE_THREADED (the
/// CMake option of that name; WebAssembly without shared memory), where every parallel build
/// runs on the calling thread and gives the same result.
inline constexpr bool threads_available =
#ifdef WAYMARK_SINGLE_THREADED
    false;
#else
    true;
#endif

/// The threads a parallel job gets when asked for `requested` (0: one per hardware thread):
/// always 1 in a single-threaded build, else at least 1 and at most `most`.
[[nodiscard]] inline std::size_t worker_threads(std::size_t requested, std::size_t most = SIZE_MAX) {
  if (!threads_available) return 1;
  const std::size_t wanted = requested != 0 ? requested : std::max(1u, std::thread::hardware_concurrency());
  return std::clamp<std::size_t>(wanted, 1, std::max<std::size_t>(most, 1));
}

/// Runs `worker(next)` on up to `threads` threads, the calling thread being one of them, and
/// waits for all. `next()` hands out 0..count-1, each index once and in increasing order, then
/// returns `count`; a worker does its per-thread setup, then loops until that. Workers must
/// not throw: catch inside and report after the call.
template <class Worker>
void share_indices(std::size_t count, std::size_t threads, Worker&& worker) {
  std::atomic<std::size_t> taken{0};
  const auto next = [&taken, count] { return std::min(taken++, count); };
  std::vector<std::thread> pool;
  for (std::size_t t = 1; t < std::min(worker_threads(threads), count); ++t) pool.emplace_back([&] { worker(next); });
  worker(next);
  for (std::thread& t : pool) t.join();
}

}  // namespace waymark
