// Counts heap allocations of the whole process (see allocation_counter.hpp). Two ways, one
// count:
//  - plain builds define malloc and its relatives here. The executable's definitions take
//    the place of glibc's everywhere (libstdc++'s operator new, strdup, ... call them), and
//    each forwards to glibc's own allocator (__libc_*), so every block still comes from and
//    goes back to the one glibc heap, whoever frees it;
//  - ASan builds must leave malloc to ASan (a second definition would bypass its checks and
//    mix its heap with glibc's), so a hook of the sanitizer allocator counts instead.
// operator new is not replaced in either: it allocates through malloc (or ASan's allocator),
// so it is counted once there.
#include "support/allocation_counter.hpp"

#include <atomic>
#include <cerrno>
#include <cstddef>
#include <cstdlib>

#if defined(__SANITIZE_ADDRESS__)
#define WAYMARK_COUNT_WITH_SANITIZER_HOOK 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define WAYMARK_COUNT_WITH_SANITIZER_HOOK 1
#endif
#endif

namespace {
// Constant-initialised: allocations made before any constructor runs are counted too.
constinit std::atomic<std::size_t> allocations{0};

inline void count_allocation() noexcept { allocations.fetch_add(1, std::memory_order_relaxed); }
}  // namespace

#ifdef WAYMARK_COUNT_WITH_SANITIZER_HOOK

#if __has_include(<sanitizer/allocator_interface.h>)
#include <sanitizer/allocator_interface.h>
#else
// GCC 12 ships no allocator_interface.h, but its libasan exports the function (as LLVM's).
extern "C" int __sanitizer_install_malloc_and_free_hooks(void (*malloc_hook)(const volatile void*, std::size_t),
                                                        void (*free_hook)(const volatile void*));
#endif

namespace {
// ASan runs the malloc hook for every block its allocator hands out: malloc, calloc, realloc
// (which always moves), aligned allocations and operator new.
void on_allocation(const volatile void*, std::size_t) { count_allocation(); }
void on_free(const volatile void*) {}  // both hooks are required

// Allocations before this initialiser runs (other static constructors) are not counted; the
// tests only compare counts taken later.
[[maybe_unused]] const bool hooks_installed = __sanitizer_install_malloc_and_free_hooks(on_allocation, on_free) != 0;
}  // namespace

#else  // glibc's allocator, wrapped

#include <malloc.h>  // memalign, pvalloc: checks the definitions below against glibc's declarations

// glibc's own entry points, exported by libc.so.6 for allocators that wrap it.
extern "C" {
void* __libc_malloc(std::size_t size) noexcept;
void* __libc_calloc(std::size_t count, std::size_t size) noexcept;
void* __libc_realloc(void* p, std::size_t size) noexcept;
void __libc_free(void* p) noexcept;
void* __libc_memalign(std::size_t alignment, std::size_t size) noexcept;
void* __libc_valloc(std::size_t size) noexcept;
void* __libc_pvalloc(std::size_t size) noexcept;

void* malloc(std::size_t size) noexcept {
  count_allocation();
  return __libc_malloc(size);
}

void* calloc(std::size_t count, std::size_t size) noexcept {
  count_allocation();
  return __libc_calloc(count, size);
}

void* realloc(void* p, std::size_t size) noexcept {
  // realloc(p, 0) only frees; any other call asks for a block (grown in place or not: the
  // caller cannot rely on either, and ASan always moves).
  if (p == nullptr || size != 0) count_allocation();
  return __libc_realloc(p, size);
}

void free(void* p) noexcept { __libc_free(p); }

void* aligned_alloc(std::size_t alignment, std::size_t size) noexcept {
  // C17 (and glibc from 2.38): an alignment that is not a power of two fails with EINVAL.
  if (alignment == 0 || (alignment & (alignment - 1)) != 0) {
    errno = EINVAL;
    return nullptr;
  }
  count_allocation();
  return __libc_memalign(alignment, size);
}

void* memalign(std::size_t alignment, std::size_t size) noexcept {
  count_allocation();
  return __libc_memalign(alignment, size);
}

int posix_memalign(void** out, std::size_t alignment, std::size_t size) noexcept {
  // POSIX: a power of two and a multiple of sizeof(void*), else EINVAL; *out is left alone on
  // failure, and errno is not the way to report.
  if (alignment == 0 || (alignment & (alignment - 1)) != 0 || alignment % sizeof(void*) != 0) return EINVAL;
  count_allocation();
  const int saved_errno = errno;
  void* p = __libc_memalign(alignment, size);
  errno = saved_errno;
  if (p == nullptr) return ENOMEM;
  *out = p;
  return 0;
}

void* valloc(std::size_t size) noexcept {
  count_allocation();
  return __libc_valloc(size);
}

void* pvalloc(std::size_t size) noexcept {
  count_allocation();
  return __libc_pvalloc(size);
}
}  // extern "C"

#endif  // WAYMARK_COUNT_WITH_SANITIZER_HOOK

std::size_t waymark::test::allocation_count() { return allocations.load(std::memory_order_relaxed); }
