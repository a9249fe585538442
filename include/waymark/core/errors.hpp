#pragma once
/// @file Errors thrown by loaders (the only place waymark throws).

#include <cstddef>
#include <stdexcept>
#include <string>

namespace waymark {

/// A file could not be read or parsed. what() is "file:line: reason" (line 0: the whole file).
class LoadError : public std::runtime_error {
 public:
  LoadError(std::string file, std::size_t line, std::string reason);

  [[nodiscard]] const std::string& file() const { return file_; }
  [[nodiscard]] std::size_t line() const { return line_; }
  [[nodiscard]] const std::string& reason() const { return reason_; }

 private:
  std::string file_;
  std::size_t line_;
  std::string reason_;
};

}  // namespace waymark
