#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>
#include <vector>

#include "waymark/search/indexed_heap.hpp"

namespace waymark::search_heap_test {
using namespace search;
namespace {

struct Positions {
  std::vector<std::uint32_t> pos;
  void set_position(std::uint32_t slot, std::uint32_t p) { pos[slot] = p; }
};

TEST(IndexedDaryHeap, TiesGoToLargerG) {
  Positions positions{std::vector<std::uint32_t>(3)};
  IndexedDaryHeap<4, Positions> heap(positions);
  heap.push(0, 10.0, 2.0);
  heap.push(1, 10.0, 7.0);
  heap.push(2, 10.0, 5.0);
  EXPECT_EQ(heap.pop().slot(), 1u);
  EXPECT_EQ(heap.pop().slot(), 2u);
  EXPECT_EQ(heap.pop().slot(), 0u);
  EXPECT_TRUE(heap.empty());
}

TEST(IndexedDaryHeap, OrdersNegativeKeysAndReturnsThemExactly) {
  Positions positions{std::vector<std::uint32_t>(4)};
  IndexedDaryHeap<4, Positions> heap(positions);
  heap.push(0, 2.5, 0);
  heap.push(1, -7.25, 0);
  heap.push(2, 0.0, 0);
  heap.push(3, -0.125, 0);
  for (const double expected : {-7.25, -0.125, 0.0, 2.5}) EXPECT_EQ(heap.pop().key(), expected);
}

// Random pushes, decrease-keys and pops against a std::multimap model.
template <unsigned Arity>
void check_against_model(std::uint32_t seed) {
  constexpr std::uint32_t slots = 300;
  Positions positions{std::vector<std::uint32_t>(slots)};
  IndexedDaryHeap<Arity, Positions> heap(positions);
  std::vector<double> key(slots, -1);  // -1: not in heap
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> value(0, 1000);
  for (int op = 0; op < 5000; ++op) {
    const auto s = static_cast<std::uint32_t>(rng() % slots);
    const int kind = static_cast<int>(rng() % 3);
    if (kind == 0 && key[s] < 0) {
      key[s] = value(rng);
      heap.push(s, key[s], 0);
    } else if (kind == 1 && key[s] >= 0) {
      key[s] = key[s] * 0.5;
      heap.decrease_key(positions.pos[s], key[s], 0);
    } else if (kind == 2 && !heap.empty()) {
      const double smallest = *std::min_element(key.begin(), key.end(), [](double a, double b) {
        return (a >= 0 ? a : 1e18) < (b >= 0 ? b : 1e18);
      });
      const auto e = heap.pop();
      ASSERT_DOUBLE_EQ(e.key(), smallest);
      ASSERT_DOUBLE_EQ(key[e.slot()], e.key());
      key[e.slot()] = -1;
    }
    const auto live = static_cast<std::size_t>(std::count_if(key.begin(), key.end(), [](double k) { return k >= 0; }));
    ASSERT_EQ(heap.size(), live);
  }
}

TEST(IndexedDaryHeap, MatchesModelBinary) { check_against_model<2>(1); }
TEST(IndexedDaryHeap, MatchesModelQuaternary) { check_against_model<4>(2); }
TEST(IndexedDaryHeap, MatchesModelOctonary) { check_against_model<8>(3); }

}  // namespace
}  // namespace waymark::search_heap_test
