#pragma once
/// @file The C API's handles: a slot number and a generation, never a pointer into the library,
/// so a released, forged or wrong-kind handle is recognised and refused (WM_ERROR_INVALID_HANDLE)
/// instead of being followed. Each slot owns one reference to its object; objects keep their
/// parents by shared_ptr, so releasing a parent's handle first is safe.

#include <cstdint>
#include <memory>
#include <utility>

#include "waymark/waymark.h"

namespace waymark::capi {

/// What a handle is a handle to; a lookup for one kind refuses a handle of another.
enum class Kind : std::uint8_t { grid = 1, planner = 2, search = 3, graph = 4, graph_planner = 5, navmesh = 6, nav_query = 7, sim = 8, queue = 9 };

/// Base of everything a handle owns.
struct Object {
  Object() = default;
  Object(const Object&) = delete;
  Object& operator=(const Object&) = delete;
  virtual ~Object() = default;
};

/// Most handles alive at once: 2^20 - 1 (WM_ERROR_LIMIT past it).
inline constexpr std::uint32_t max_handles = (std::uint32_t{1} << 20) - 1;

/// Registers `object` as a new handle of `kind` with one user reference; 0 when max_handles are
/// alive. Thread-safe.
[[nodiscard]] std::uintptr_t add_handle(Kind kind, std::shared_ptr<Object> object);
/// The object of a live handle of `kind`, or null. Lock-free; a handle released by another
/// thread during the call is the caller's race, as with any C object.
[[nodiscard]] Object* find_handle(std::uintptr_t handle, Kind kind);
/// The same, sharing ownership (for a child that keeps its parent alive).
[[nodiscard]] std::shared_ptr<Object> share_handle(std::uintptr_t handle, Kind kind);
/// One more user reference; false when the handle is not live.
bool retain_handle(std::uintptr_t handle, Kind kind);
/// One user reference fewer; at none the slot is freed (its handle never valid again) and the
/// object goes when its last owner does. False when the handle is not live.
bool release_handle(std::uintptr_t handle, Kind kind);

/// A handle's object as its type, or null.
template <class T>
[[nodiscard]] T* find_as(const void* handle, Kind kind) {
  return static_cast<T*>(find_handle(reinterpret_cast<std::uintptr_t>(handle), kind));
}
template <class T>
[[nodiscard]] std::shared_ptr<T> share_as(const void* handle, Kind kind) {
  return std::static_pointer_cast<T>(share_handle(reinterpret_cast<std::uintptr_t>(handle), kind));
}
/// WM_ERROR_LIMIT with the message naming max_handles.
int handles_exhausted();

/// Registers `object` and gives the caller its handle: WM_OK, or WM_ERROR_LIMIT (with the
/// message) when max_handles are alive.
template <class Handle>
int hand_out(Kind kind, std::shared_ptr<Object> object, Handle** out) {
  const std::uintptr_t h = add_handle(kind, std::move(object));
  if (h == 0) return handles_exhausted();
  *out = reinterpret_cast<Handle*>(h);
  return WM_OK;
}
/// The C API's *_retain (WM_OK, or WM_ERROR_INVALID_HANDLE naming `what`) and *_release.
int retain_as(const void* handle, Kind kind, const char* what);
void release_as(const void* handle, Kind kind);

}  // namespace waymark::capi
