// Writes the seed corpora of the preprocessing-file targets: each fixed world's file as saved
// (byte 0 even: the file as is) and as a payload to reseal (byte 0 odd: the file without its
// checksum), so the fuzzer starts from files the loaders accept.
//
//   write_seeds CORPUS_DIR     (CORPUS_DIR/NAME/seed-saved and seed-payload per target)
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <string>

#include "waymark/graph/contraction.hpp"
#include "waymark/graph/landmarks.hpp"
#include "waymark/graph/shortest_paths.hpp"
#include "waymark/grid/jump_table.hpp"
#include "worlds.hpp"

namespace {

void write_seeds(const std::filesystem::path& corpus, const std::string& target, const auto& save) {
  const std::filesystem::path dir = corpus / target;
  std::filesystem::create_directories(dir);
  const std::string scratch = (dir / "scratch").string();
  save(scratch);
  std::ifstream in(scratch, std::ios::binary);
  const std::string file{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  std::filesystem::remove(scratch);
  std::ofstream(dir / "seed-saved", std::ios::binary) << '\0' << file;
  std::ofstream(dir / "seed-payload", std::ios::binary) << '\1' << file.substr(0, file.size() - waymark::checksum_bytes);
  std::cout << target << ": " << file.size() << " bytes\n";
}

}  // namespace

int main(int argc, char** argv) {
  using namespace waymark;
  if (argc != 2) {
    std::cerr << "usage: write_seeds CORPUS_DIR\n";
    return 2;
  }
  const std::filesystem::path corpus = argv[1];
  write_seeds(corpus, "jump_table_file", [](const std::string& p) { grid::JumpTable(fuzz::table_map()).save(p); });
  write_seeds(corpus, "landmarks_file", [](const std::string& p) { graph::Landmarks(fuzz::table_graph(), {}).save(p); });
  write_seeds(corpus, "hierarchy_file",
              [](const std::string& p) { graph::ContractionHierarchy::build(fuzz::table_graph()).save(p); });
  write_seeds(corpus, "route_table_file", [](const std::string& p) { graph::RouteTable(fuzz::table_graph()).save(p); });
  write_seeds(corpus, "pattern_database_file", [](const std::string& p) {
    puzzle::AdditivePatternDatabase::build(fuzz::table_puzzle(), fuzz::table_partition()).save(p);
  });
  return 0;
}
