#pragma once
// A fresh directory per test under the test temp dir, removed afterwards: for tests that
// write files (loaders, saved preprocessing).

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <system_error>

namespace waymark::test {

class TempFiles {
 public:
  TempFiles() {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    std::string name = std::string("waymark_") + info->test_suite_name() + "_" + info->name() + "_" +
                       std::to_string(std::random_device{}());
    for (char& c : name) c = c == '/' ? '_' : c;
    dir_ = std::filesystem::path(::testing::TempDir()) / name;
    std::filesystem::create_directories(dir_);
  }
  TempFiles(const TempFiles&) = delete;
  TempFiles& operator=(const TempFiles&) = delete;
  ~TempFiles() {
    std::error_code ignored;
    std::filesystem::remove_all(dir_, ignored);
  }

  /// The path of `name` in the directory.
  [[nodiscard]] std::string path(const std::string& name) const { return (dir_ / name).string(); }
  /// Writes `bytes` to `name` in the directory and returns the file's path.
  std::string write(const std::string& name, const std::string& bytes) const {
    const std::string p = path(name);
    std::ofstream(p, std::ios::binary) << bytes;
    return p;
  }

 private:
  std::filesystem::path dir_;
};

}  // namespace waymark::test
