#include <cstdio>
#include <cstdlib>

#include "waymark/core/assert.hpp"
#include "waymark/core/errors.hpp"

namespace waymark {

void assert_failed(const char* expr, const char* file, int line) noexcept {
  std::fprintf(stderr, "%s:%d: assertion failed: %s\n", file, line, expr);
  std::abort();
}

namespace {
std::string format_location(const std::string& file, std::size_t line, const std::string& reason) {
  return line == 0 ? file + ": " + reason : file + ":" + std::to_string(line) + ": " + reason;
}
}  // namespace

LoadError::LoadError(std::string file, std::size_t line, std::string reason)
    : std::runtime_error(format_location(file, line, reason)),
      file_(std::move(file)),
      line_(line),
      reason_(std::move(reason)) {}

SaveError::SaveError(std::string file, std::string reason)
    : std::runtime_error(file + ": " + reason), file_(std::move(file)), reason_(std::move(reason)) {}

}  // namespace waymark
