#pragma once
/// @file How much one step() of a search may do: expansions, scanned cells (or arcs), and wall
/// time. A game gives each frame a budget and spreads long searches over several frames.

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <limits>


namespace waymark::search {

/// Limits for one step() call; the step stops (status Running) as soon as any is reached.
/// Checked after each expansion, so a step overshoots by at most one expansion: one node's
/// successors, which for jump searches is bounded through JumpParams::max_jump_cells
/// (grid/jump_point.hpp says by how much).
/// A step always makes progress: it expands at least one node, whatever the budget. The
/// default budget is unlimited: the search runs to the end.
struct Budget {
  using Clock = std::chrono::steady_clock;
  static constexpr std::uint64_t unlimited = std::numeric_limits<std::uint64_t>::max();

  /// Nodes expanded in this step. [Limit: >= 1]
  std::uint64_t expansions = unlimited;
  /// Cells or arcs looked at in this step: successors generated, and for jump searches every
  /// cell a jump passes over (SearchStats::scanned). [Limit: >= 1]
  std::uint64_t scanned = unlimited;
  /// Wall time of this step; Clock::duration::max() for no limit. The clock is read once per
  /// expansion only when a limit is set.
  Clock::duration time = Clock::duration::max();

  [[nodiscard]] static constexpr Budget of_expansions(std::uint64_t n) { return Budget{.expansions = n}; }
  [[nodiscard]] static constexpr Budget of_scanned(std::uint64_t n) { return Budget{.scanned = n}; }
  [[nodiscard]] static constexpr Budget of_time(Clock::duration t) { return Budget{.time = t}; }
  /// Most seconds of_seconds() gives: 10^6 (11.6 days), far inside the clock's range.
  static constexpr double max_seconds = 1e6;
  /// A time budget of `seconds`, bounded to [0, max_seconds] (NaN and below 0 give 0: the step
  /// still expands one node). From seconds a person or another language gave.
  [[nodiscard]] static Budget of_seconds(double seconds) {
    const double bounded = seconds > 0 ? std::min(seconds, max_seconds) : 0.0;
    return of_time(std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(bounded)));
  }
  [[nodiscard]] constexpr bool is_unlimited() const {
    return expansions == unlimited && scanned == unlimited && time == Clock::duration::max();
  }
  /// This budget, with a limit on scanned cells of `per_expansion` per expansion when it limits
  /// expansions but not scanned cells (unchanged otherwise, and for per_expansion 0). What a
  /// request queue does to the budgets it is given: an expansion of a jump search can pass over
  /// thousands of cells, one of A* over at most 8.
  [[nodiscard]] constexpr Budget scanning_at_most(std::uint64_t per_expansion) const {
    Budget b = *this;
    if (per_expansion == 0 || expansions == unlimited || scanned != unlimited) return b;
    b.scanned = expansions > (unlimited - 1) / per_expansion ? unlimited - 1 : expansions * per_expansion;
    return b;
  }
};

/// When a piece of work made of many steps must end: started from a time budget, it gives each
/// step what is left (Budget::of_time, zero once past: the step still expands one node) and
/// says when the time is up. From an unlimited time it never passes and gives unlimited
/// budgets. A game planning a frame's paths, a server's request, a command's --time-limit.
class Deadline {
 public:
  /// Ends `budget.time` from now (never, for Clock::duration::max()); the other limits of
  /// `budget` are not kept.
  explicit Deadline(const Budget& budget = {}) : end_(end_after(budget.time)) {}

  /// What is left, as a budget of time only (unlimited when the deadline never passes).
  [[nodiscard]] Budget left() const {
    if (end_ == Budget::Clock::time_point::max()) return {};
    return Budget::of_time(std::max(end_ - Budget::Clock::now(), Budget::Clock::duration::zero()));
  }
  /// Seconds left: 0 once past, infinity when the deadline never passes.
  [[nodiscard]] double seconds_left() const {
    if (end_ == Budget::Clock::time_point::max()) return std::numeric_limits<double>::infinity();
    return std::chrono::duration<double>(left().time).count();
  }
  [[nodiscard]] bool passed() const {
    return end_ != Budget::Clock::time_point::max() && Budget::Clock::now() >= end_;
  }
  /// The end, Clock::time_point::max() for never (what TiledParams::deadline takes).
  [[nodiscard]] Budget::Clock::time_point end() const { return end_; }

 private:
  static Budget::Clock::time_point end_after(Budget::Clock::duration d) {
    const Budget::Clock::time_point now = Budget::Clock::now();
    return d >= Budget::Clock::time_point::max() - now ? Budget::Clock::time_point::max() : now + d;
  }
  Budget::Clock::time_point end_;
};

/// Tracks one step's use of a Budget against a search's running totals of expansions and of
/// scanned cells (or generated successors, for spaces that do not report scanning).
class BudgetMeter {
 public:
  BudgetMeter(const Budget& budget, std::uint64_t expanded, std::uint64_t scanned)
      : first_(expanded),
        expansion_limit_(saturating_add(expanded, budget.expansions)),
        scan_limit_(saturating_add(scanned, budget.scanned)),
        timed_(budget.time != Budget::Clock::duration::max()) {
    if (timed_) deadline_ = Budget::Clock::now() + budget.time;
  }

  /// Whether the budget limits expansions only (no scan or time limit): then a step ends
  /// exactly when the expansion total reaches expansion_stop(), one compare for hot loops.
  [[nodiscard]] bool expansions_only() const { return scan_limit_ == Budget::unlimited && !timed_; }
  [[nodiscard]] std::uint64_t expansion_stop() const { return expansion_limit_ > first_ ? expansion_limit_ : first_ + 1; }

  /// Whether the step must stop, given the totals now: never before its first expansion.
  [[nodiscard, gnu::always_inline]] bool exhausted(std::uint64_t expanded, std::uint64_t scanned) const {
    if (expanded == first_) return false;
    if (expanded >= expansion_limit_ || scanned >= scan_limit_) return true;
    return timed_ && Budget::Clock::now() >= deadline_;
  }

 private:
  static constexpr std::uint64_t saturating_add(std::uint64_t a, std::uint64_t b) {
    return b > Budget::unlimited - a ? Budget::unlimited : a + b;
  }

  std::uint64_t first_;  ///< expansions when the step began
  std::uint64_t expansion_limit_;
  std::uint64_t scan_limit_;
  bool timed_;
  Budget::Clock::time_point deadline_{};
};

}  // namespace waymark::search
