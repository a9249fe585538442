#pragma once
// Counts heap allocations, for the tests that check a query allocates nothing after warm-up.
// Every block handed out counts once: malloc, calloc, realloc (unless it only frees),
// aligned_alloc, posix_memalign, memalign, valloc, pvalloc, and what is built on them
// (operator new, strdup, ...), from any thread. allocation_counter.cpp wraps glibc's malloc in
// plain builds and hooks the sanitizer allocator under ASan; only the allocation-test binary
// links it.

#include <gtest/gtest.h>

#include <cstddef>

namespace waymark::test {

/// Heap allocations so far in this process (from before main in plain builds; from static
/// initialisation of allocation_counter.cpp under ASan).
[[nodiscard]] std::size_t allocation_count();

/// Runs `run` (which returns how many queries it solved) twice to warm up, then once more,
/// expecting no allocation in that last run and at least one query solved. Returns what the
/// last run solved, for stronger checks.
template <class Run>
std::size_t expect_no_allocation_after_warm_up(Run&& run) {
  run();  // warm-up: tables, open lists, paths and results grow to their largest size
  run();
  const std::size_t before = allocation_count();
  const std::size_t solved = run();
  EXPECT_EQ(allocation_count() - before, 0u);
  EXPECT_GT(solved, 0u);
  return solved;
}

}  // namespace waymark::test
