#pragma once
/// @file Wall-clock timing for stats and reports (monotonic clock).

#include <chrono>

namespace waymark {

/// Starts at construction; seconds() is the time since then.
class Stopwatch {
 public:
  Stopwatch() : t0_(Clock::now()) {}
  [[nodiscard]] double seconds() const { return std::chrono::duration<double>(Clock::now() - t0_).count(); }

 private:
  using Clock = std::chrono::steady_clock;
  Clock::time_point t0_;
};

}  // namespace waymark
