#pragma once
// Counts heap allocations, for the tests that check a query allocates nothing after warm-up.
// Every block handed out counts once: malloc, calloc, realloc (unless it only frees),
// aligned_alloc, posix_memalign, memalign, valloc, pvalloc, and what is built on them
// (operator new, strdup, ...), from any thread. allocation_counter.cpp wraps glibc's malloc in
// plain builds and hooks the sanitizer allocator under ASan; only the allocation-test binary
// links it.

#include <cstddef>

namespace waymark::test {

/// Heap allocations so far in this process (from before main in plain builds; from static
/// initialisation of allocation_counter.cpp under ASan).
[[nodiscard]] std::size_t allocation_count();

}  // namespace waymark::test
