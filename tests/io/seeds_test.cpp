#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "support/error_text.hpp"
#include "waymark/io/seeds.hpp"

namespace waymark::io_seeds_test {
using namespace io;
namespace {

SeedList parse(const std::string& text, const SeedListOptions& o = {}) {
  std::istringstream in(text);
  return parse_seed_file(in, "seeds.txt", o);
}

std::string file_error(const std::string& text, const SeedListOptions& o = {}) {
  return test::error_text<LoadError>([&] { (void)parse(text, o); });
}

std::string text_error(const std::string& text, const SeedListOptions& o = {}) {
  return test::error_text<LoadError>([&] { (void)parse_seed_text(text, "--seeds", o); });
}

TEST(SeedFile, ReadsSpacesCommasCommentsAndCrlfWithLineNumbers) {
  const SeedList list = parse("# seeds\r\n3 4\r\n\r\n  10,20  # a comment\n-1 , 7\n\t5\t6\n");
  ASSERT_EQ(list.seeds.size(), 4u);
  EXPECT_EQ(list.seeds[0].cell, (grid::CellCoord{3, 4}));
  EXPECT_EQ(list.seeds[0].line, 2u);
  EXPECT_EQ(list.seeds[1].cell, (grid::CellCoord{10, 20}));
  EXPECT_EQ(list.seeds[1].line, 4u);
  EXPECT_EQ(list.seeds[2].cell, (grid::CellCoord{-1, 7}));
  EXPECT_EQ(list.seeds[3].cell, (grid::CellCoord{5, 6}));
  EXPECT_EQ(list.seeds[3].line, 6u);
  EXPECT_FALSE(list.inline_text);
  EXPECT_EQ(list.cells().size(), 4u);
  EXPECT_STREQ(list.error(1, "(10,20) is a blocked cell").what(), "seeds.txt:4: (10,20) is a blocked cell");
}

TEST(SeedFile, MalformedLinesGetTheirLineNumber) {
  struct Case {
    std::string text;
    std::string error;
  };
  for (const Case& c : std::initializer_list<Case>{
           {"1 2\nx y\n", "seeds.txt:2: expected a seed 'X Y' or 'X,Y' (integers), got 'x y'"},
           {"1 2 3\n", "seeds.txt:1: expected a seed 'X Y' or 'X,Y' (integers), got '1 2 3'"},
           {"\n\n1\n", "seeds.txt:3: expected a seed 'X Y' or 'X,Y' (integers), got '1'"},
           {"1,2,3\n", "seeds.txt:1: expected a seed 'X Y' or 'X,Y' (integers), got '1,2,3'"},
           {"1.5 2\n", "seeds.txt:1: expected a seed 'X Y' or 'X,Y' (integers), got '1.5 2'"},
           {"1,\n", "seeds.txt:1: expected a seed 'X Y' or 'X,Y' (integers), got '1,'"},
           {"99999999999 1\n", "seeds.txt:1: expected a seed 'X Y' or 'X,Y' (integers), got '99999999999 1'"},
           {"1 2\x01\n", "seeds.txt:1: expected a seed 'X Y' or 'X,Y' (integers), got '1 2\\x01'"},
           {"", "seeds.txt: no seeds in the file"},
           {"# only a comment\n\n", "seeds.txt: no seeds in the file"},
           {"1 1\n2 2\n3 3\n", "seeds.txt:3: more than 2 seeds (SeedListOptions::max_seeds)"},
       }) {
    const SeedListOptions options{.max_seeds = 2};
    EXPECT_EQ(file_error(c.text, options), c.error) << c.text;
  }
  EXPECT_EQ(test::error_text<LoadError>([] { (void)load_seed_file("/nonexistent.seeds"); }),
            "/nonexistent.seeds: cannot open file");
}

TEST(SeedText, ReadsSemicolonListsAndNamesTheSeedInErrors) {
  const SeedList list = parse_seed_text("1,2; 3 ,4;5,6;", "--seeds");
  ASSERT_EQ(list.seeds.size(), 3u);
  EXPECT_EQ(list.seeds[1].cell, (grid::CellCoord{3, 4}));
  EXPECT_EQ(list.seeds[2].line, 3u);
  EXPECT_TRUE(list.inline_text);
  EXPECT_STREQ(list.error(2, "(5,6) is outside the 4x4 map").what(), "--seeds: seed 3: (5,6) is outside the 4x4 map");
  EXPECT_EQ(text_error("1,2;;3,4"), "--seeds: seed 2: expected X,Y (integers), got ''");
  EXPECT_EQ(text_error("1,2;3"), "--seeds: seed 2: expected X,Y (integers), got '3'");
  EXPECT_EQ(text_error("a,b"), "--seeds: seed 1: expected X,Y (integers), got 'a,b'");
  EXPECT_EQ(text_error(""), "--seeds: no seeds (expected X,Y;X,Y;...)");
  EXPECT_EQ(text_error(";"), "--seeds: no seeds (expected X,Y;X,Y;...)");
  EXPECT_EQ(text_error("1,1;2,2;3,3", {.max_seeds = 2}), "--seeds: seed 3: more than 2 seeds (SeedListOptions::max_seeds)");
}

}  // namespace
}  // namespace waymark::io_seeds_test
