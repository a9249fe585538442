#pragma once
/// @file The C API's results: this thread's last error, and the guard every entry point runs
/// its body in, so that no exception (a load error, an assertion, bad_alloc) leaves the library.

#include <exception>
#include <new>
#include <string>
#include <string_view>

#include "waymark/core/assert.hpp"
#include "waymark/core/errors.hpp"
#include "waymark/core/status.hpp"
#include "waymark/waymark.h"

namespace waymark::capi {

/// Sets this thread's last error and returns `code`. Reuses the message's capacity.
int fail(int code, std::string_view message);
/// The same, the message made of two parts (no allocation once the buffer is large enough).
int fail(int code, std::string_view first, std::string_view second);

/// WM_ERROR_INVALID_HANDLE, naming the kind of handle.
int invalid_handle(const char* what);
/// WM_ERROR_INVALID_ARGUMENT: `what` is null.
int null_argument(const char* what);

/// WM_ERROR_INVALID_ARGUMENT for an options struct `type` ("wm_sim_params") whose version field
/// is `got`, not the `known` one: the message says to start from its *_default().
int wrong_version(const char* type, int got, int known);

/// The result code of a search's status: WM_OK, WM_RUNNING, or the failure's reason.
[[nodiscard]] int result_of(Status status);

/// Runs `body` (returning a result code), turning every exception into a code and a message.
template <class Body>
int guarded(Body&& body) noexcept {
  try {
    return body();
  } catch (const LoadError& e) {
    return fail(WM_ERROR_LOAD, e.what());
  } catch (const BuildError& e) {
    return fail(WM_ERROR_BUILD, e.what());
  } catch (const AssertionFailure& e) {
    return fail(WM_ERROR_INTERNAL, e.what());
  } catch (const std::bad_alloc&) {
    return fail(WM_ERROR_OUT_OF_MEMORY, "out of memory");
  } catch (const std::exception& e) {
    return fail(WM_ERROR_INTERNAL, e.what());
  } catch (...) {
    return fail(WM_ERROR_INTERNAL, "unknown exception");
  }
}

}  // namespace waymark::capi
