#include "errors.hpp"

#include <array>
#include <string>
#include <utility>

#include "waymark/core/text.hpp"
#include "waymark/core/version.hpp"

namespace waymark::capi {
namespace {
thread_local std::string last_error;
}  // namespace

int fail(int code, std::string_view message) {
  last_error.assign(message);
  return code;
}

int fail(int code, std::string_view first, std::string_view second) {
  last_error.assign(first);
  last_error.append(second);
  return code;
}

int invalid_handle(const char* what) { return fail(WM_ERROR_INVALID_HANDLE, what, ": null, released, or not a handle of this kind"); }
int null_argument(const char* what) { return fail(WM_ERROR_INVALID_ARGUMENT, what, " is null"); }

int wrong_version(const char* type, int got, int known) {
  std::string text(type);
  text.append(".version is ").append(number_text(got)).append(", this library knows ").append(number_text(known));
  text.append(" (start from ").append(type).append("_default())");
  return fail(WM_ERROR_INVALID_ARGUMENT, text);
}

int result_of(Status status) {
  switch (status.state) {
    case SearchState::success: return WM_OK;
    case SearchState::running: return WM_RUNNING;
    case SearchState::not_started: return WM_INVALID_QUERY;
    case SearchState::failure: break;
  }
  switch (status.reason()) {
    case FailureReason::none: return WM_OK;
    case FailureReason::stale_world: return WM_STALE_WORLD;
    case FailureReason::out_of_bounds: return WM_OUT_OF_BOUNDS;
    case FailureReason::start_blocked: return WM_START_BLOCKED;
    case FailureReason::goal_blocked: return WM_GOAL_BLOCKED;
    case FailureReason::unsupported: return WM_UNSUPPORTED;
    case FailureReason::invalid_query: return WM_INVALID_QUERY;
    case FailureReason::budget_exhausted: return WM_BUDGET_EXHAUSTED;
    case FailureReason::cancelled: return WM_CANCELLED;
    case FailureReason::unreachable: return WM_NO_PATH;
    case FailureReason::unspecified: return WM_NO_PATH;
  }
  return WM_NO_PATH;
}

}  // namespace waymark::capi

using waymark::capi::last_error;

extern "C" {

const char* wm_version(void) { return waymark::version().data(); }  // a literal: null-terminated

const char* wm_last_error(void) { return last_error.c_str(); }

void wm_clear_error(void) { last_error.clear(); }

const char* wm_result_name(int result) {
  static constexpr std::array<std::pair<int, const char*>, 19> names{{
      {WM_OK, "ok"},
      {WM_RUNNING, "running"},
      {WM_NO_PATH, "no-path"},
      {WM_OUT_OF_BOUNDS, "out-of-bounds"},
      {WM_START_BLOCKED, "start-blocked"},
      {WM_GOAL_BLOCKED, "goal-blocked"},
      {WM_UNSUPPORTED, "unsupported"},
      {WM_STALE_WORLD, "stale-world"},
      {WM_BUDGET_EXHAUSTED, "budget-exhausted"},
      {WM_CANCELLED, "cancelled"},
      {WM_INVALID_QUERY, "invalid-query"},
      {WM_BUFFER_TOO_SMALL, "buffer-too-small"},
      {WM_ERROR_INVALID_ARGUMENT, "error-invalid-argument"},
      {WM_ERROR_INVALID_HANDLE, "error-invalid-handle"},
      {WM_ERROR_LOAD, "error-load"},
      {WM_ERROR_LIMIT, "error-limit"},
      {WM_ERROR_OUT_OF_MEMORY, "error-out-of-memory"},
      {WM_ERROR_INTERNAL, "error-internal"},
      {WM_ERROR_BUILD, "error-build"},
  }};
  for (const auto& [code, name] : names) {
    if (code == result) return name;
  }
  return "unknown";
}

}  // extern "C"
