#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <mutex>
#include <system_error>

#include "waymark/core/assert.hpp"
#include "waymark/core/binary_io.hpp"
#include "waymark/core/errors.hpp"
#include "waymark/core/text.hpp"
#include "waymark/core/version.hpp"

namespace waymark {

namespace {
struct InstalledHandler {
  AssertHandler handler;
  void* context;
};
// One word each, read together under the lock only when an assertion fails.
std::mutex assert_handler_mutex;
InstalledHandler assert_handler{nullptr, nullptr};
}  // namespace

AssertionFailure::AssertionFailure(const char* expr, const char* file, int line)
    : std::logic_error(std::string(file) + ":" + number_text(line) + ": assertion failed: " + expr),
      file_(file),
      line_(line) {}

AssertHandler set_assert_handler(AssertHandler handler, void* context) noexcept {
  const std::lock_guard lock(assert_handler_mutex);
  const AssertHandler previous = assert_handler.handler;
  assert_handler = {handler, context};
  return previous;
}

void assert_failed(const char* expr, const char* file, int line) {
  InstalledHandler installed{};
  {
    const std::lock_guard lock(assert_handler_mutex);
    installed = assert_handler;
  }
  if (installed.handler != nullptr) installed.handler(expr, file, line, installed.context);
  throw AssertionFailure(expr, file, line);
}

std::string_view version() noexcept { return WAYMARK_VERSION_STRING; }

namespace {
std::string format_location(const std::string& file, std::size_t line, const std::string& reason) {
  return line == 0 ? file + ": " + reason : file + ":" + number_text(line) + ": " + reason;
}
}  // namespace

LoadError::LoadError(std::string file, std::size_t line, std::string reason)
    : std::runtime_error(format_location(file, line, reason)),
      file_(std::move(file)),
      line_(line),
      reason_(std::move(reason)) {}

SaveError::SaveError(std::string file, std::string reason)
    : std::runtime_error(file + ": " + reason), file_(std::move(file)), reason_(std::move(reason)) {}

std::ifstream open_input_file(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) throw LoadError(path, 0, "is a directory, not a file");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw LoadError(path, 0, "cannot open file");
  return in;
}

}  // namespace waymark
