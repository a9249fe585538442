#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <system_error>

#include "waymark/core/assert.hpp"
#include "waymark/core/binary_io.hpp"
#include "waymark/core/errors.hpp"
#include "waymark/core/text.hpp"

namespace waymark {

void assert_failed(const char* expr, const char* file, int line) noexcept {
  std::fprintf(stderr, "%s:%d: assertion failed: %s\n", file, line, expr);
  std::abort();
}

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
