#pragma once
/// @file Errors thrown while loading, building or saving a world or its preprocessing.
///
/// The rule, everywhere: waymark throws only these three. LoadError: a file could not be read.
/// SaveError: one could not be written. BuildError: a world, solver or simulation was given
/// data outside its documented limits — constructors and builders, and the calls that add to a
/// world (ObstacleWorld::add, Simulation::add_agent). Queries — anything that searches, steps or
/// asks — never throw: they return status codes (Status, a bool, an optional), and coordinates
/// that may be outside a world have a checked form (GridMap::try_cell).

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

/// A file could not be written: every save() throws this, and only this. what() is
/// "file: reason".
class SaveError : public std::runtime_error {
 public:
  SaveError(std::string file, std::string reason);

  [[nodiscard]] const std::string& file() const { return file_; }
  [[nodiscard]] const std::string& reason() const { return reason_; }

 private:
  std::string file_;
  std::string reason_;
};

/// A world could not be built from the data given to a builder (a negative edge weight, a
/// vertex out of range). what() is the reason; loaders rethrow it as a LoadError at the line.
class BuildError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

}  // namespace waymark
