#pragma once
/// @file The searches a C API planner keeps for its thread-safe one-shot queries (wm_plan,
/// wm_graph_plan): a call borrows one (or makes one when every kept one is busy), runs its query
/// and gives it back, so that calls from any number of threads allocate nothing once each has
/// had its search. Dense node tables, as a kept C++ handle: the C API's queries cost what a
/// handle's do (docs/c_api.md, "Overhead"). grid::GridPlanner::plan() keeps sparse ones instead,
/// whose memory follows the queries.

#include <memory>
#include <mutex>
#include <type_traits>
#include <utility>
#include <vector>

namespace waymark::capi {

template <class Search>
class SearchPool {
 public:
  /// Runs `body(search)` on a kept search, or on one `make()` makes (a Search, or a
  /// unique_ptr to one for a search that cannot move); returns what body returns.
  template <class Make, class Body>
  int with(Make&& make, Body&& body) {
    std::unique_ptr<Search> search;
    {
      const std::lock_guard lock(lock_);
      if (!idle_.empty()) {
        search = std::move(idle_.back());
        idle_.pop_back();
      }
    }
    if (!search) {
      if constexpr (std::is_same_v<decltype(make()), std::unique_ptr<Search>>) {
        search = make();
      } else {
        search = std::make_unique<Search>(make());
      }
    }
    const int rc = body(*search);
    const std::lock_guard lock(lock_);
    idle_.push_back(std::move(search));
    return rc;
  }

 private:
  std::mutex lock_;
  std::vector<std::unique_ptr<Search>> idle_;
};

}  // namespace waymark::capi
