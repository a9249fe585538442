#pragma once
// What the CLI tests (tests/apps/cli_*_test.cpp) share: running the `waymark` binary, scratch
// input files, and reading back what it writes (JSON lines, --trace files, PNG files).
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <sys/wait.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <istream>
#include <sstream>
#include <string>
#include <vector>

namespace waymark::test {

inline const std::string cli_program = WAYMARK_CLI;
inline const std::string data = WAYMARK_DATA_DIR;

struct CliRun {
  int exit_code;
  std::string out;  ///< stdout and stderr together
};

/// `waymark ARGS` through the shell, stdout and stderr on one pipe.
inline CliRun run(const std::string& args) {
  const std::string cmd = cli_program + " " + args + " 2>&1";
  FILE* pipe = popen(cmd.c_str(), "r");
  if (pipe == nullptr) return {-1, "popen failed"};
  std::string out;
  std::array<char, 4096> buf{};
  while (std::fgets(buf.data(), static_cast<int>(buf.size()), pipe) != nullptr) out += buf.data();
  const int status = pclose(pipe);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, out};
}

/// Writes `text` to a scratch file named after `name` and returns its path.
inline std::string temp_file(const std::string& name, const std::string& text) {
  const std::string path = ::testing::TempDir() + "/waymark_cli_" + name;
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

/// A 64x64 open map whose goal (60,60) is walled in.
inline std::string sealed_map() {
  std::string rows;
  for (int y = 0; y < 64; ++y) {
    for (int x = 0; x < 64; ++x) {
      const bool ring = x >= 59 && x <= 61 && y >= 59 && y <= 61 && !(x == 60 && y == 60);
      rows += ring ? '@' : '.';
    }
    rows += '\n';
  }
  return temp_file("sealed.map", "type octile\nheight 64\nwidth 64\nmap\n" + rows);
}

/// Every line of `in`, each parsed as JSON (a line that is not JSON throws).
inline std::vector<nlohmann::json> every_line_as_json(std::istream& in) {
  std::vector<nlohmann::json> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(nlohmann::json::parse(line));
  return lines;
}

/// The lines of `text`, each parsed as JSON.
inline std::vector<nlohmann::json> every_line_as_json(const std::string& text) {
  std::istringstream in(text);
  return every_line_as_json(in);
}

/// The lines of a --trace file, parsed.
inline std::vector<nlohmann::json> read_trace(const std::string& path) {
  std::ifstream in(path);
  return every_line_as_json(in);
}

inline std::size_t count_events(const std::vector<nlohmann::json>& events, const std::string& kind) {
  return static_cast<std::size_t>(
      std::count_if(events.begin(), events.end(), [&](const nlohmann::json& e) { return e["event"] == kind; }));
}

/// Parses output of one JSON object per line (`graph --queries`, `puzzle --json`); lines that
/// are not objects are passed over.
inline std::vector<nlohmann::json> json_lines(const std::string& out) {
  std::vector<nlohmann::json> lines;
  std::istringstream in(out);
  for (std::string line; std::getline(in, line);) {
    if (!line.empty() && line.front() == '{') lines.push_back(nlohmann::json::parse(line));
  }
  return lines;
}

/// `file` is a PNG (its signature) of some substance.
inline void expect_png(const std::string& file) {
  std::ifstream in(file, std::ios::binary);
  std::array<char, 8> magic{};
  in.read(magic.data(), magic.size());
  EXPECT_EQ(std::string(magic.data() + 1, 3), "PNG") << file;
  EXPECT_GT(std::filesystem::file_size(file), 1000u) << file;
}

}  // namespace waymark::test
