#pragma once
// What every subcommand shares: exit codes, the usage error, and the guard that turns bad
// input into a message and exit code 2.

#include <algorithm>
#include <array>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <iostream>
#include <new>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <system_error>

#include "waymark/core/enum_names.hpp"
#include "waymark/core/errors.hpp"
#include "waymark/core/status.hpp"
#include "waymark/core/text.hpp"
#include "waymark/grid/moves.hpp"
#include "waymark/io/path_query.hpp"
#include "waymark/render/picture.hpp"
#include "waymark/search/handle.hpp"

namespace waymark::cli {

inline constexpr double microseconds_per_second = 1e6;
inline constexpr double milliseconds_per_second = 1e3;
inline constexpr double bytes_per_mib = 1024.0 * 1024.0;

/// The --diagonal and --heuristic options' help, for every grid command.
inline const std::string diagonal_rule_help(io::diagonal_rule_choices);
inline const std::string heuristic_help =
    std::string(io::heuristic_choices) + " (default: octile when 8-connected, manhattan when 4-connected)";

inline constexpr int exit_ok = 0;          ///< a path / all optimal
inline constexpr int exit_not_found = 1;   ///< no path / some query not optimal
inline constexpr int exit_bad_input = 2;   ///< unreadable or invalid input

/// The default --max-nodes: 50 million nodes (A* on the largest Moving AI maps reaches a
/// few million; IDA* on a 512² map would otherwise run for minutes), as io::PathQuery's.
inline constexpr auto default_max_nodes = static_cast<std::int64_t>(io::PathQuery::default_max_nodes);

/// Bad command-line input discovered after parsing (exit 2).
struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// The --diagonal option's rule, or UsageError "unknown diagonal rule 'text'".
inline grid::DiagonalRule diagonal_rule_arg(const std::string& text) {
  const auto rule = grid::parse_diagonal_rule(text);
  if (!rule) throw UsageError("unknown diagonal rule '" + text + "'");
  return *rule;
}

/// Runs a command body: every exception that reaches it becomes one line "waymark: reason" on
/// stderr and exit code 2, so no input, option or failing write can terminate the process.
template <class F>
int guarded(F&& body) {
  try {
    return body();
  } catch (const std::bad_alloc&) {
    std::cerr << "waymark: out of memory (the input needs more memory than this machine gives; see the limits in "
                 "docs/robustness.md)\n";
  } catch (const std::exception& e) {  // LoadError, SaveError, UsageError, BuildError and the rest
    std::cerr << "waymark: " << e.what() << "\n";
  } catch (...) {
    std::cerr << "waymark: unknown error\n";
  }
  return exit_bad_input;
}

/// Exactly N numbers separated by commas, "a,b,…" (integers or floating point, by T); nullopt
/// for any other text.
template <class T, std::size_t N>
std::optional<std::array<T, N>> comma_numbers(std::string_view text) {
  std::array<T, N> out{};
  const char* p = text.data();
  const char* const end = p + text.size();
  for (std::size_t i = 0; i < N; ++i) {
    const char* const stop = i + 1 < N ? std::find(p, end, ',') : end;
    if (stop == end && i + 1 < N) return std::nullopt;
    const auto [ptr, ec] = std::from_chars(p, stop, out[i]);
    if (ec != std::errc{} || ptr != stop) return std::nullopt;
    p = stop + 1;
  }
  return out;
}

/// N finite numbers "a,b,…" from option `option`, or UsageError "--opt must be N finite
/// numbers `spelled`, got 'text'" (`spelled`: "x,y", "x,y,z").
template <std::size_t N>
std::array<double, N> finite_numbers(std::string_view text, std::string_view option, std::string_view spelled) {
  const auto c = comma_numbers<double, N>(text);
  if (!c || !std::all_of(c->begin(), c->end(), [](double v) { return std::isfinite(v); })) {
    throw UsageError(std::string(option) + " must be " + number_text(N) + " finite numbers " + std::string(spelled) +
                     ", got " + waymark::quoted(text));
  }
  return *c;
}

/// A whole-number option checked against [lo, hi] (options are read as signed, so "-5" is
/// refused instead of wrapping around): the value, or UsageError "--name must be an integer
/// from lo to hi, got v".
inline std::size_t checked_count(std::int64_t value, std::int64_t lo, std::int64_t hi, const std::string& name) {
  if (value < lo || value > hi)
    throw UsageError(name + " must be an integer from " + number_text(lo) + " to " + number_text(hi) + ", got " +
                     number_text(value));
  return static_cast<std::size_t>(value);
}

/// checked_count(value, 1, INT64_MAX, name): a positive count (sizes, limits, strides).
inline std::size_t checked_positive(std::int64_t value, const std::string& name) {
  return checked_count(value, 1, INT64_MAX, name);
}

/// Longest --time-limit: a week, well inside the clock's range.
inline constexpr double max_time_limit_s = 7 * 24 * 3600.0;

/// --time-limit checked to be a number of seconds from 0 (none) to a week, as a whole-query
/// budget for search::run_within (unlimited for 0).
inline search::Budget time_limit(double seconds) {
  if (!(seconds >= 0 && seconds <= max_time_limit_s)) {
    throw UsageError("--time-limit must be a number of seconds from 0 (none) to " +
                     number_text(static_cast<long>(max_time_limit_s)) + ", got " + waymark::number_text(seconds));
  }
  if (seconds == 0) return {};
  return search::Budget::of_time(
      std::chrono::duration_cast<search::Budget::Clock::duration>(std::chrono::duration<double>(seconds)));
}

/// What a failed query's status says, for messages: "no path", "out of nodes (--max-nodes)",
/// "time limit (--time-limit)".
inline std::string failure_reason(Status st) {
  if (st.has(StatusDetail::time_limit)) return "time limit (--time-limit)";
  if (st.has(StatusDetail::out_of_nodes)) return "out of nodes (--max-nodes)";
  if (st.has(StatusDetail::cancelled)) return "cancelled";
  return "no path";
}

/// Calls `write(file, format)` for --png and --svg, each when given (not empty); a failed
/// write is a UsageError naming the file. A picture of more than render::max_svg_shapes
/// `svg_shapes` is refused as an SVG, naming the limit, before anything is written.
template <class Write>
void write_pictures(const std::string& png, const std::string& svg, Write&& write, std::size_t svg_shapes = 0) {
  if (!svg.empty() && svg_shapes > render::max_svg_shapes)
    throw UsageError("--svg " + svg + ": the picture has " + number_text(svg_shapes) + " shapes, over render::max_svg_shapes = " +
                     number_text(render::max_svg_shapes) + " (an SVG is held in memory until written, about 1 KB a shape); write a --png instead");
  if (!png.empty() && !write(png, render::PictureFormat::png)) throw UsageError("cannot write picture to " + png);
  if (!svg.empty() && !write(svg, render::PictureFormat::svg)) throw UsageError("cannot write picture to " + svg);
}

}  // namespace waymark::cli
