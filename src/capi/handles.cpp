#include "handles.hpp"

#include "errors.hpp"
#include "waymark/core/text.hpp"

#include <array>
#include <atomic>
#include <mutex>
#include <utility>
#include <vector>

namespace waymark::capi {
namespace {

// A handle's value: generation above index_bits, slot index + 1 below (never 0, so never
// NULL). 32-bit hosts (WebAssembly) keep 12 bits of generation, 64-bit ones 32.
constexpr unsigned index_bits = 20;
constexpr std::uintptr_t index_mask = (std::uintptr_t{1} << index_bits) - 1;
constexpr unsigned generation_bits = sizeof(std::uintptr_t) * 8 - index_bits > 32 ? 32 : sizeof(std::uintptr_t) * 8 - index_bits;
constexpr std::uint32_t generation_mask =
    generation_bits >= 32 ? 0xFFFFFFFFu : static_cast<std::uint32_t>((std::uint64_t{1} << generation_bits) - 1);

constexpr std::uint32_t chunk_slots = 4096;
constexpr std::uint32_t chunk_count = (max_handles + chunk_slots) / chunk_slots;

struct Slot {
  std::atomic<std::uint32_t> generation{1};  // of the live handle; bumped when it is freed
  std::atomic<Object*> object{nullptr};      // null while free
  std::atomic<Kind> kind{};
  std::uint32_t references = 0;              // user references, under the registry's lock
  std::shared_ptr<Object> owner;             // under the registry's lock
};

struct Registry {
  std::mutex lock;
  std::array<std::atomic<Slot*>, chunk_count> chunks{};
  std::uint32_t used = 0;               // slots handed out at least once
  std::vector<std::uint32_t> free_slots;

  Slot* slot(std::uint32_t index) const {
    Slot* chunk = chunks[index / chunk_slots].load(std::memory_order_acquire);
    return chunk == nullptr ? nullptr : chunk + index % chunk_slots;
  }
};

Registry& registry() {
  static Registry* r = new Registry;  // never destroyed: handles may be released during exit
  return *r;
}

struct Decoded {
  std::uint32_t index;
  std::uint32_t generation;
};

bool decode(std::uintptr_t handle, Decoded& out) {
  const std::uintptr_t index_plus_one = handle & index_mask;
  if (index_plus_one == 0 || index_plus_one > max_handles) return false;
  out.index = static_cast<std::uint32_t>(index_plus_one - 1);
  out.generation = static_cast<std::uint32_t>(handle >> index_bits) & generation_mask;
  return out.generation == static_cast<std::uint32_t>(handle >> index_bits);  // no stray high bits
}

// The live slot of `handle` when it is a handle of `kind`, or null; `index` gets its slot number.
// Lock-free (a slot never handed out, or freed, holds no object); the reference counts and the
// owner are read and written under the registry's lock by the callers that need them.
Slot* live_slot(const Registry& r, std::uintptr_t handle, Kind kind, std::uint32_t* index = nullptr) {
  Decoded d{};
  if (!decode(handle, d)) return nullptr;
  Slot* s = r.slot(d.index);
  if (s == nullptr || s->generation.load(std::memory_order_acquire) != d.generation) return nullptr;
  if (s->kind.load(std::memory_order_relaxed) != kind || s->object.load(std::memory_order_acquire) == nullptr) return nullptr;
  if (index != nullptr) *index = d.index;
  return s;
}

}  // namespace

std::uintptr_t add_handle(Kind kind, std::shared_ptr<Object> object) {
  Registry& r = registry();
  std::uint32_t index = 0;
  Slot* s = nullptr;
  {
    const std::lock_guard guard(r.lock);
    if (!r.free_slots.empty()) {
      index = r.free_slots.back();
      r.free_slots.pop_back();
    } else {
      if (r.used >= max_handles) return 0;
      index = r.used;
      if (r.chunks[index / chunk_slots].load(std::memory_order_relaxed) == nullptr) {
        r.chunks[index / chunk_slots].store(new Slot[chunk_slots], std::memory_order_release);
      }
      ++r.used;
    }
    s = r.slot(index);
    s->references = 1;
    s->kind.store(kind, std::memory_order_relaxed);
    s->owner = std::move(object);
    s->object.store(s->owner.get(), std::memory_order_release);
  }
  const std::uint32_t generation = s->generation.load(std::memory_order_relaxed);
  return (static_cast<std::uintptr_t>(generation) << index_bits) | (static_cast<std::uintptr_t>(index) + 1);
}

Object* find_handle(std::uintptr_t handle, Kind kind) {
  const Slot* s = live_slot(registry(), handle, kind);
  return s == nullptr ? nullptr : s->object.load(std::memory_order_acquire);
}

std::shared_ptr<Object> share_handle(std::uintptr_t handle, Kind kind) {
  Registry& r = registry();
  const std::lock_guard guard(r.lock);
  Slot* s = live_slot(r, handle, kind);
  return s == nullptr ? nullptr : s->owner;
}

bool retain_handle(std::uintptr_t handle, Kind kind) {
  Registry& r = registry();
  const std::lock_guard guard(r.lock);
  Slot* s = live_slot(r, handle, kind);
  if (s == nullptr || s->references == UINT32_MAX) return false;
  ++s->references;
  return true;
}

bool release_handle(std::uintptr_t handle, Kind kind) {
  Registry& r = registry();
  std::shared_ptr<Object> last;  // destroyed after the lock: its destructor may release others
  {
    const std::lock_guard guard(r.lock);
    std::uint32_t index = 0;
    Slot* s = live_slot(r, handle, kind, &index);
    if (s == nullptr) return false;
    if (--s->references != 0) return true;
    s->object.store(nullptr, std::memory_order_release);
    // Generation 0 is never handed out: a zeroed handle's high bits never match a live one.
    std::uint32_t next = (s->generation.load(std::memory_order_relaxed) + 1) & generation_mask;
    if (next == 0) next = 1;
    s->generation.store(next, std::memory_order_release);
    last = std::move(s->owner);
    r.free_slots.push_back(index);
  }
  return true;
}

int handles_exhausted() {
  return fail(WM_ERROR_LIMIT, "too many live handles (the limit is " + number_text(max_handles) + ")");
}

int retain_as(const void* handle, Kind kind, const char* what) {
  return retain_handle(reinterpret_cast<std::uintptr_t>(handle), kind) ? WM_OK : invalid_handle(what);
}

void release_as(const void* handle, Kind kind) {
  static_cast<void>(release_handle(reinterpret_cast<std::uintptr_t>(handle), kind));
}

}  // namespace waymark::capi
