#pragma once
// What every subcommand shares: exit codes, the usage error, and the guard that turns bad
// input into a message and exit code 2.

#include <filesystem>
#include <iostream>
#include <stdexcept>
#include <string>

#include "waymark/core/enum_names.hpp"
#include "waymark/core/errors.hpp"

namespace waymark::cli {

inline constexpr int exit_ok = 0;          ///< a path / all optimal
inline constexpr int exit_not_found = 1;   ///< no path / some query not optimal
inline constexpr int exit_bad_input = 2;   ///< unreadable or invalid input

/// Bad command-line input discovered after parsing (exit 2).
struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// Runs a command body, turning input errors into a message and exit code 2.
template <class F>
int guarded(F&& body) {
  try {
    return body();
  } catch (const LoadError& e) {
    std::cerr << "waymark: " << e.what() << "\n";
  } catch (const UsageError& e) {
    std::cerr << "waymark: " << e.what() << "\n";
  } catch (const BuildError& e) {  // a world or preprocessing refused its parameters
    std::cerr << "waymark: " << e.what() << "\n";
  } catch (const std::filesystem::filesystem_error& e) {
    std::cerr << "waymark: " << e.what() << "\n";
  }
  return exit_bad_input;
}

/// "a|b|c": the names of an enum, for help texts and error messages.
template <class Enum, std::size_t N>
std::string choices(const EnumNames<Enum, N>& names) {
  std::string s;
  for (const auto& [value, name] : names) {
    if (!s.empty()) s.push_back('|');
    s.append(name);
  }
  return s;
}

}  // namespace waymark::cli
