#pragma once
// Counts calls of global operator new (replaced in allocation_counter.cpp), for the tests
// that check a query allocates nothing after warm-up. Only the allocation-test binary links
// the replacement.

#include <cstddef>

namespace waymark::test {

/// Calls of global operator new so far in this process.
[[nodiscard]] std::size_t allocation_count();

}  // namespace waymark::test
