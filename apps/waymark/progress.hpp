#pragma once
// A one-line progress bar on stderr, drawn only when stderr is a terminal (so pipes, files
// and tests see nothing), redrawn at most every tenth of a second.

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <string>

#include "waymark/core/stopwatch.hpp"

namespace waymark::cli {

class ProgressBar {
 public:
  explicit ProgressBar(std::string label) : label_(std::move(label)), enabled_(isatty(STDERR_FILENO) == 1) {}
  ProgressBar(const ProgressBar&) = delete;
  ProgressBar& operator=(const ProgressBar&) = delete;
  ~ProgressBar() { clear(); }

  /// `fraction` in [0, 1]; `detail` is shown after the bar.
  void update(double fraction, const std::string& detail = {}) {
    if (!enabled_ || (drawn_ && since_draw_.seconds() < redraw_interval_s)) return;
    since_draw_ = Stopwatch{};
    const auto filled = static_cast<int>(std::clamp(fraction, 0.0, 1.0) * bar_width);
    std::string bar(static_cast<std::size_t>(filled), '#');
    bar.resize(bar_width, '.');
    std::fprintf(stderr, "\r\033[K%s [%s] %3d%% %s", label_.c_str(), bar.c_str(),
                 static_cast<int>(std::clamp(fraction, 0.0, 1.0) * percent), detail.c_str());
    std::fflush(stderr);
    drawn_ = true;
  }
  /// Erases the bar (before printing results on the same terminal).
  void clear() {
    if (!drawn_) return;
    std::fprintf(stderr, "\r\033[K");
    std::fflush(stderr);
    drawn_ = false;
  }

 private:
  static constexpr int bar_width = 30;
  static constexpr double percent = 100;
  static constexpr double redraw_interval_s = 0.1;
  std::string label_;
  bool enabled_;
  bool drawn_ = false;
  Stopwatch since_draw_;
};

}  // namespace waymark::cli
