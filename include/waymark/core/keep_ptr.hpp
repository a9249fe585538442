#pragma once
/// @file KeepPtr: a std::shared_ptr that must be kept in a variable before it is dereferenced.

#include <memory>
#include <utility>

namespace waymark {

/// A std::shared_ptr (it is one, and converts to one) whose `*` and `->` do not compile on a
/// temporary. `f()->member` or `*f()` of a function that returns a shared pointer hands out a
/// reference into an object whose owner dies at the end of the statement: kept (`const T& m =
/// f()->member;`), it dangles as soon as nothing else holds the object (a use after free once
/// a tiled world changes, say). Principle 18: such an API refuses temporaries at compile time.
/// Keep the pointer first, which keeps the object alive: `const auto s = f(); s->member`.
/// `get()` stays, for the rare call that holds no reference past the statement.
template <class T>
class KeepPtr : public std::shared_ptr<T> {
 public:
  KeepPtr() = default;
  KeepPtr(std::shared_ptr<T> p) noexcept : std::shared_ptr<T>(std::move(p)) {}  // NOLINT: implicit on purpose
  /// An alias, as std::shared_ptr's: owns what `owner` owns, points at `p`.
  template <class U>
  KeepPtr(const std::shared_ptr<U>& owner, T* p) noexcept : std::shared_ptr<T>(owner, p) {}

  [[nodiscard]] T& operator*() const& noexcept { return *this->get(); }
  T& operator*() const&& = delete;  // keep the pointer first: the reference would dangle
  [[nodiscard]] T* operator->() const& noexcept { return this->get(); }
  T* operator->() const&& = delete;  // keep the pointer first: the reference would dangle
};

}  // namespace waymark
