#include <gtest/gtest.h>

#include "waymark/search/node_table.hpp"
#include "waymark/search/search_core.hpp"
#include "waymark/search/search_core.hpp"

namespace waymark::search_node_table_test {
using namespace search;
namespace {

struct LineSpace {  // a dense space of n nodes, no edges needed for table tests
  using node_type = std::uint32_t;
  std::size_t n;
  std::size_t node_count() const { return n; }
  std::size_t index_of(node_type v) const { return v; }
  node_type node_at(std::size_t i) const { return static_cast<node_type>(i); }
  template <class F>
  void for_each_successor(node_type, F&&) const {}
};

struct IntSpace {  // implicit: nodes are arbitrary 64-bit integers
  using node_type = std::int64_t;
  template <class F>
  void for_each_successor(node_type, F&&) const {}
};

TEST(DenseNodeTable, ResetForgetsEverythingInConstantTime) {
  const LineSpace space{100};
  DenseNodeTable<LineSpace> table;
  table.reset(space);
  auto a = table.find_or_insert(space, 42);
  EXPECT_TRUE(a.fresh);
  table[a.slot].g = 5;
  auto b = table.find_or_insert(space, 42);
  EXPECT_FALSE(b.fresh);
  EXPECT_EQ(table[b.slot].g, 5);
  EXPECT_EQ(table.find(space, 41), no_slot);
  table.reset(space);
  EXPECT_EQ(table.find(space, 42), no_slot);
  auto c = table.find_or_insert(space, 42);
  EXPECT_TRUE(c.fresh);
  EXPECT_EQ(table[c.slot].g, infinite_cost);
}

TEST(HashedNodeTable, GrowsKeepsEntriesAndResets) {
  const IntSpace space;
  HashedNodeTable<IntSpace> table;
  table.reset(space);
  constexpr std::int64_t count = 10000;  // forces several rehashes
  for (std::int64_t i = 0; i < count; ++i) {
    const auto r = table.find_or_insert(space, i * 7919);
    ASSERT_TRUE(r.fresh);
    table[r.slot].g = static_cast<double>(i);
  }
  EXPECT_EQ(table.size(), static_cast<std::size_t>(count));
  for (std::int64_t i = 0; i < count; ++i) {
    const auto slot = table.find(space, i * 7919);
    ASSERT_NE(slot, no_slot);
    ASSERT_EQ(table[slot].g, static_cast<double>(i));
    ASSERT_EQ(table.node(space, slot), i * 7919);
  }
  EXPECT_EQ(table.find(space, 1), no_slot);
  table.reset(space);
  EXPECT_EQ(table.size(), 0u);
  EXPECT_EQ(table.find(space, 7919), no_slot);
  EXPECT_TRUE(table.find_or_insert(space, 7919).fresh);
}

TEST(NodeLimit, AdmitsUpToTheLimit) {
  NodeLimit unlimited;
  for (int i = 0; i < 1000; ++i) EXPECT_TRUE(unlimited.admit());
  NodeLimit three(3);
  for (int i = 0; i < 3; ++i) EXPECT_TRUE(three.admit());
  EXPECT_FALSE(three.admit());
  three.reset();
  EXPECT_TRUE(three.admit());
}

}  // namespace
}  // namespace waymark::search_node_table_test
