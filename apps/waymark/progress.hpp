#pragma once
// A one-line progress bar on stderr, drawn only when stderr is a terminal (so pipes, files
// and tests see nothing), redrawn at most every tenth of a second, with an estimate of the
// time left once a second has passed.

#include <unistd.h>

#include <algorithm>
#include <cmath>
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

  /// Whether the bar is drawn at all (stderr is a terminal).
  [[nodiscard]] bool enabled() const { return enabled_; }

  /// Whether update() would draw now: callers can skip making a detail text that is not shown.
  [[nodiscard]] bool due() const { return enabled_ && (!drawn_ || since_draw_.seconds() >= redraw_interval_s); }

  /// `fraction` in [0, 1]; `detail` is shown after the bar, then the time left (estimated from
  /// the time since construction, as if the rest goes at the pace so far).
  void update(double fraction, const std::string& detail = {}) {
    if (!due()) return;
    since_draw_ = Stopwatch{};
    std::fprintf(stderr, "\r\033[K%s", line(label_, fraction, detail, started_.seconds()).c_str());
    std::fflush(stderr);
    drawn_ = true;
  }

  /// The bar's text: "LABEL [####......]  40% DETAIL, 12 s left", the estimate once
  /// `elapsed_s` is a second or more and the work is neither unstarted nor done.
  [[nodiscard]] static std::string line(const std::string& label, double fraction, const std::string& detail,
                                        double elapsed_s) {
    fraction = std::clamp(fraction, 0.0, 1.0);
    std::string bar(static_cast<std::size_t>(fraction * bar_width), '#');
    bar.resize(bar_width, '.');
    char percent_text[8];
    std::snprintf(percent_text, sizeof percent_text, "%3d%%", static_cast<int>(fraction * percent));
    std::string text = label + " [" + bar + "] " + percent_text + " " + detail;
    if (fraction > 0 && fraction < 1 && elapsed_s >= estimate_after_s)
      text += ", " + duration_text(elapsed_s * (1 - fraction) / fraction) + " left";
    return text;
  }

  /// "42 s", "3 min 05 s", "2 h 10 min".
  [[nodiscard]] static std::string duration_text(double seconds) {
    const auto s = static_cast<long long>(std::ceil(std::max(seconds, 0.0)));
    char text[32];
    if (s < seconds_per_minute) {
      std::snprintf(text, sizeof text, "%lld s", s);
    } else if (s < seconds_per_hour) {
      std::snprintf(text, sizeof text, "%lld min %02lld s", s / seconds_per_minute, s % seconds_per_minute);
    } else {
      std::snprintf(text, sizeof text, "%lld h %02lld min", s / seconds_per_hour, s % seconds_per_hour / seconds_per_minute);
    }
    return text;
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
  static constexpr double estimate_after_s = 1;  ///< no estimate from the first second's pace
  static constexpr long long seconds_per_minute = 60;
  static constexpr long long seconds_per_hour = 3600;
  std::string label_;
  bool enabled_;
  bool drawn_ = false;
  Stopwatch started_;
  Stopwatch since_draw_;
};

}  // namespace waymark::cli
