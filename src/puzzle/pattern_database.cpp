#include "waymark/puzzle/pattern_database.hpp"

#include <algorithm>
#include <exception>
#include <fstream>
#include <mutex>
#include <stdexcept>
#include <thread>

#include "waymark/core/binary_io.hpp"
#include "waymark/core/parallel.hpp"
#include "waymark/core/errors.hpp"
#include "waymark/core/text.hpp"

namespace waymark::puzzle {

namespace {

constexpr std::uint8_t unreached = 0xFF;
constexpr int bits_per_cell = 4;
constexpr std::uint64_t region_bits = 16;  // low bits of a frontier entry: the blank's region

std::size_t placement_count(int cells, std::size_t k) {
  std::size_t n = 1;
  for (std::size_t i = 0; i < k; ++i) n *= static_cast<std::size_t>(cells) - i;
  return n;
}

/// Cells reachable by the blank from `seed` through `free` cells (4-neighbour flood fill on
/// bit masks, row-major cells).
class RegionFiller {
 public:
  explicit RegionFiller(int width) : width_(width) {
    for (int c = 0; c < width * width; ++c) {
      if (c % width != 0) not_first_column_ |= 1u << c;
      if (c % width != width - 1) not_last_column_ |= 1u << c;
    }
  }
  [[nodiscard]] std::uint32_t fill(std::uint32_t seed, std::uint32_t free) const {
    std::uint32_t region = seed;
    for (;;) {
      const std::uint32_t grown =
          (region | ((region << 1) & not_first_column_) | ((region >> 1) & not_last_column_) |
           (region << width_) | (region >> width_)) &
          free;
      if (grown == region) return region;
      region = grown;
    }
  }

 private:
  int width_;
  std::uint32_t not_first_column_ = 0;
  std::uint32_t not_last_column_ = 0;
};

void check_tiles(const SlidingPuzzle& puzzle, std::span<const int> tiles,
                 std::array<bool, max_puzzle_cells>& used) {
  if (tiles.empty()) throw BuildError("empty pattern");
  if (tiles.size() > max_pattern_tiles) {
    throw BuildError("pattern of " + number_text(tiles.size()) + " tiles: at most " +
                     number_text(max_pattern_tiles) + " are supported");
  }
  for (const int t : tiles) {
    if (t < 1 || t >= puzzle.cells()) {
      throw BuildError("pattern tile " + number_text(t) + " outside 1.." + number_text(puzzle.cells() - 1));
    }
    if (used[static_cast<std::size_t>(t)]) throw BuildError("tile " + number_text(t) + " in two patterns");
    used[static_cast<std::size_t>(t)] = true;
  }
}

}  // namespace

void PatternDatabase::set_tiles(int width, std::vector<std::uint8_t> tiles) {
  width_ = width;
  tiles_ = std::move(tiles);
  const std::size_t k = tiles_.size();
  std::size_t w = 1;
  for (std::size_t i = k; i-- > 0;) {
    weight_[i] = w;
    w *= static_cast<std::size_t>(cells_count()) - i;
  }
}

PatternDatabase PatternDatabase::build(const SlidingPuzzle& puzzle, std::span<const int> tiles,
                                       const ProgressFn& progress) {
  std::array<bool, max_puzzle_cells> used{};
  check_tiles(puzzle, tiles, used);
  PatternDatabase db;
  db.set_tiles(puzzle.width(), std::vector<std::uint8_t>(tiles.begin(), tiles.end()));
  pdb_detail::with_pattern_size(tiles.size(), [&](auto k) { db.breadth_first<decltype(k)::value>(puzzle, progress); });
  return db;
}

template <std::size_t K>
void PatternDatabase::breadth_first(const SlidingPuzzle& puzzle, const ProgressFn& progress) {
  const int cells = puzzle.cells();
  const std::uint32_t all_cells = (1u << cells) - 1u;
  values_.assign(placement_count(cells, K), unreached);
  // The blank cells already reached, per placement; closed under blank moves that do not
  // move a pattern tile.
  std::vector<std::uint16_t> visited(values_.size(), 0);
  const RegionFiller filler(puzzle.width());
  const auto rank_of = [&](const std::array<std::uint8_t, K>& at) { return pdb_detail::rank<K>(at.data(), weight_.data()); };

  // Frontier entry: the K cells (4 bits each) above the 16 bits of the blank's region.
  using Entry = std::uint64_t;
  std::vector<Entry> frontier;
  std::vector<Entry> next;
  std::array<std::uint8_t, K> at{};
  const auto pack = [&](std::uint32_t region) {
    Entry e = 0;
    for (std::size_t i = K; i-- > 0;) e = (e << bits_per_cell) | at[i];
    return (e << region_bits) | region;
  };

  struct Move {
    std::size_t rank;
    std::uint8_t tile, from, to;
  };
  std::array<Move, K * blank_move_count> moves{};

  std::uint32_t occupied = 0;
  for (std::size_t i = 0; i < K; ++i) {
    at[i] = tiles_[i];  // tile t's goal is cell t
    occupied |= 1u << at[i];
  }
  const std::size_t goal = rank_of(at);
  const std::uint32_t goal_region = filler.fill(1u, all_cells & ~occupied);  // blank on cell 0
  visited[goal] = static_cast<std::uint16_t>(goal_region);
  values_[goal] = 0;
  frontier.push_back(pack(goal_region));
  std::size_t reached = 1;

  for (std::uint8_t depth = 0; !frontier.empty(); ++depth) {
    if (depth + 1 == unreached) throw BuildError("pattern database values exceed one byte");
    next.clear();
    for (const Entry e : frontier) {
      const auto region = static_cast<std::uint32_t>(e & ((1u << region_bits) - 1u));
      occupied = 0;
      for (std::size_t i = 0; i < K; ++i) {
        at[i] = static_cast<std::uint8_t>((e >> (region_bits + bits_per_cell * i)) & 0xF);
        occupied |= 1u << at[i];
      }
      // Each pattern tile next to the region can slide into the blank: one move. The
      // successors are ranked first and their table entries prefetched, so the cache misses
      // of one entry overlap instead of queueing.
      std::size_t count = 0;
      for (std::size_t i = 0; i < K; ++i) {
        const std::uint8_t from = at[i];
        for (int m = 0; m < blank_move_count; ++m) {
          const int to = puzzle.target(from, static_cast<BlankMove>(m));
          if (to < 0 || (region >> to & 1u) == 0) continue;
          at[i] = static_cast<std::uint8_t>(to);
          Move& mv = moves[count++];
          mv.rank = rank_of(at);
          mv.tile = static_cast<std::uint8_t>(i);
          mv.from = from;
          mv.to = static_cast<std::uint8_t>(to);
          __builtin_prefetch(&visited[mv.rank]);
          __builtin_prefetch(&values_[mv.rank]);
          at[i] = from;
        }
      }
      for (std::size_t j = 0; j < count; ++j) {
        const Move& mv = moves[j];
        const std::uint32_t seed = 1u << mv.from;
        if ((visited[mv.rank] & seed) != 0) continue;
        const std::uint32_t moved = filler.fill(seed, all_cells & ~(occupied ^ seed ^ (1u << mv.to)));
        visited[mv.rank] = static_cast<std::uint16_t>(visited[mv.rank] | moved);
        if (values_[mv.rank] == unreached) {
          values_[mv.rank] = static_cast<std::uint8_t>(depth + 1);
          ++reached;
        }
        at[mv.tile] = mv.to;
        next.push_back(pack(moved));
        at[mv.tile] = mv.from;
      }
    }
    frontier.swap(next);
    if (progress) progress(static_cast<double>(reached) / static_cast<double>(values_.size()));
  }
}

int PatternDatabase::lookup(const PuzzleState& s) const {
  const auto cell_of = s.cells_of_tiles(cells_count());
  std::array<std::uint8_t, max_puzzle_cells> cells{};
  for (std::size_t i = 0; i < tiles_.size(); ++i) cells[i] = cell_of[tiles_[i]];
  return value(rank(cells.data()));
}

bool PatternDatabase::zero_only_at_goal() const {
  std::array<std::uint8_t, max_puzzle_cells> home{};
  for (std::size_t i = 0; i < tiles_.size(); ++i) home[i] = tiles_[i];  // tile t's goal is cell t
  const std::size_t goal = rank(home.data());
  for (std::size_t r = 0; r < values_.size(); ++r) {
    if ((values_[r] == 0) != (r == goal)) return false;
  }
  return true;
}

int PatternDatabase::max_value() const {
  int best = 0;
  for (const std::uint8_t v : values_) {
    if (v != unreached) best = std::max<int>(best, v);
  }
  return best;
}

PdbPartition partition_663() {
  return {{1, 4, 5, 8, 9, 12}, {2, 3, 6, 7, 10, 11}, {13, 14, 15}};
}

PdbPartition partition_78() {
  return {{1, 2, 3, 4, 5, 6, 7}, {8, 9, 10, 11, 12, 13, 14, 15}};
}

void AdditivePatternDatabase::set_width(int width) {
  width_ = width;
  goal_ = SlidingPuzzle(width).goal();
  for (int c = 0; c < width * width; ++c) mirror_[static_cast<std::size_t>(c)] = static_cast<std::uint8_t>(mirror(c));
}

AdditivePatternDatabase AdditivePatternDatabase::build(const SlidingPuzzle& puzzle, const PdbPartition& partition,
                                                       const ProgressFn& progress, bool reflection) {
  std::array<bool, max_puzzle_cells> used{};
  for (const std::vector<int>& p : partition) check_tiles(puzzle, p, used);
  for (int t = 1; t < puzzle.cells(); ++t) {
    if (!used[static_cast<std::size_t>(t)]) throw BuildError("tile " + number_text(t) + " is in no pattern");
  }
  AdditivePatternDatabase db;
  db.set_width(puzzle.width());
  const auto mirrored = [&](const std::vector<std::uint8_t>& tiles) {
    std::vector<std::uint8_t> image;
    for (const std::uint8_t t : tiles) image.push_back(db.mirror_[t]);
    return image;
  };
  const auto same_set = [](const std::vector<std::uint8_t>& a, const std::vector<int>& b) {
    return a.size() == b.size() && std::is_permutation(a.begin(), a.end(), b.begin(), b.end());
  };

  // Plan first: a pattern whose mirror image is an earlier pattern reuses that table.
  std::vector<std::size_t> owner;  // table -> the pattern it is built for
  bool symmetric = true;           // the partition is its own mirror image
  for (std::size_t p = 0; p < partition.size(); ++p) {
    Part part;
    for (std::size_t q = 0; q < p && !part.mirrored; ++q) {
      if (db.parts_[q].mirrored) continue;
      std::vector<std::uint8_t> image = mirrored(db.parts_[q].tiles);
      if (same_set(image, partition[p])) part = Part{std::move(image), true, db.parts_[q].table};
    }
    if (!part.mirrored) {
      part.tiles.assign(partition[p].begin(), partition[p].end());
      part.table = owner.size();
      owner.push_back(p);
      bool self_mirror = same_set(mirrored(part.tiles), partition[p]);
      bool mirror_later = false;
      for (std::size_t q = p + 1; q < partition.size(); ++q) mirror_later |= same_set(mirrored(part.tiles), partition[q]);
      symmetric = symmetric && (self_mirror || mirror_later);
    }
    db.parts_.push_back(std::move(part));
  }
  if (reflection && !symmetric) {
    // The same sum on the mirrored board: part p looked up with its tiles' mirror images.
    for (const Part& p : db.parts_) db.reflected_.push_back(Part{mirrored(p.tiles), !p.mirrored, p.table});
  }

  // The tables are independent: build them on parallel threads (each BFS is sequential).
  // Progress is the placements reached over all tables, reported under a lock.
  std::vector<double> weight(owner.size());
  std::vector<double> fraction(owner.size(), 0.0);
  std::mutex progress_lock;
  double total = 0;
  for (std::size_t t = 0; t < owner.size(); ++t) {
    weight[t] = static_cast<double>(placement_count(puzzle.cells(), partition[owner[t]].size()));
    total += weight[t];
  }
  db.tables_.resize(owner.size());
  std::vector<std::exception_ptr> errors(owner.size());
  const auto build_table = [&](std::size_t t) {
    try {
      ProgressFn report;
      if (progress) {
        report = [&, t](double f) {
          const std::lock_guard<std::mutex> hold(progress_lock);
          fraction[t] = f;
          double done = 0;
          for (std::size_t u = 0; u < owner.size(); ++u) done += fraction[u] * weight[u];
          progress(done / total);
        };
      }
      db.tables_[t] = PatternDatabase::build(puzzle, partition[owner[t]], report);
    } catch (...) {
      errors[t] = std::current_exception();
    }
  };
  const std::size_t threads = worker_threads(0);
  // Largest tables first, so the long builds start together.
  std::vector<std::size_t> order(owner.size());
  for (std::size_t t = 0; t < order.size(); ++t) order[t] = t;
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return weight[a] > weight[b]; });
  share_indices(order.size(), threads, [&](const auto& next) {
    for (std::size_t i = next(); i < order.size(); i = next()) build_table(order[i]);
  });
  for (const std::exception_ptr& e : errors) {
    if (e) std::rethrow_exception(e);
  }
  return db;
}

bool AdditivePatternDatabase::covers(const PdbPartition& partition) const {
  if (partition.size() != parts_.size()) return false;
  return std::all_of(partition.begin(), partition.end(), [&](const std::vector<int>& pattern) {
    return std::any_of(parts_.begin(), parts_.end(), [&](const Part& p) {
      return std::is_permutation(p.tiles.begin(), p.tiles.end(), pattern.begin(), pattern.end());
    });
  });
}

int AdditivePatternDatabase::operator()(const PuzzleState& s) const {
  const auto cell_of = s.cells_of_tiles(width_ * width_);
  int direct = 0;
  for (const Part& p : parts_) direct += part_value(p, cell_of.data());
  int reflected = 0;
  for (const Part& p : reflected_) reflected += part_value(p, cell_of.data());
  return std::max(direct, reflected);
}

// ---- files -------------------------------------------------------------------------------

namespace {

constexpr std::string_view file_magic = "WMPDB\n";
constexpr std::uint32_t file_version = 1;

void put_u32(ChecksummedWriter& w, std::uint32_t v) {
  std::array<unsigned char, 4> le{};
  for (std::size_t i = 0; i < le.size(); ++i) le[i] = static_cast<unsigned char>(v >> (8 * i));
  w.bytes(le.data(), le.size());
}

std::uint32_t get_u32(ChecksummedReader& r, const char* what) {
  std::array<unsigned char, 4> le{};
  r.bytes(le.data(), le.size(), what);
  std::uint32_t v = 0;
  for (std::size_t i = 0; i < le.size(); ++i) v |= std::uint32_t{le[i]} << (8 * i);
  return v;
}

std::vector<std::uint8_t> get_tiles(ChecksummedReader& r, int cells, const char* what) {
  const std::uint32_t k = get_u32(r, what);
  if (k == 0 || k > max_pattern_tiles) r.fail(std::string("corrupt file: bad tile count in the ") + what);
  std::vector<std::uint8_t> tiles(k);
  r.bytes(tiles.data(), k, what);
  for (const std::uint8_t t : tiles) {
    if (t < 1 || t >= cells) r.fail(std::string("corrupt file: bad tile in the ") + what);
  }
  return tiles;
}

}  // namespace

void AdditivePatternDatabase::save(const std::string& path) const {
  save_file(path, [&](std::ostream& out) {
  ChecksummedWriter w(out);
  w.bytes(file_magic.data(), file_magic.size());
  put_u32(w, file_version);
  put_u32(w, static_cast<std::uint32_t>(width_));
  put_u32(w, static_cast<std::uint32_t>(tables_.size()));
  for (const PatternDatabase& t : tables_) {
    put_u32(w, static_cast<std::uint32_t>(t.tiles_.size()));
    w.array(t.tiles_);
    w.array(t.values_);
  }
  for (const std::vector<Part>* list : {&parts_, &reflected_}) {
    put_u32(w, static_cast<std::uint32_t>(list->size()));
    for (const Part& p : *list) {
      put_u32(w, static_cast<std::uint32_t>(p.tiles.size()));
      w.array(p.tiles);
      put_u32(w, p.mirrored ? 1 : 0);
      put_u32(w, static_cast<std::uint32_t>(p.table));
    }
  }
  w.finish();
  });
}

AdditivePatternDatabase AdditivePatternDatabase::load(const std::string& path) {
  return load_file(path, [&](std::istream& in) { return load(in, path); });
}

AdditivePatternDatabase AdditivePatternDatabase::load(std::istream& in, const std::string& name) {
  ChecksummedReader r(in, name);
  std::string magic(file_magic.size(), '\0');
  r.bytes(magic.data(), magic.size(), "magic number");
  if (magic != file_magic) r.fail("not a waymark pattern database file");
  if (get_u32(r, "header") != file_version) r.fail("unsupported pattern database version");
  const std::uint32_t width = get_u32(r, "header");
  if (width < min_puzzle_width || width > max_puzzle_width) r.fail("corrupt file: bad board width");
  AdditivePatternDatabase db;
  db.set_width(static_cast<int>(width));
  const int cells = db.width_ * db.width_;
  const std::uint32_t table_count = get_u32(r, "header");
  if (table_count == 0 || table_count >= static_cast<std::uint32_t>(cells)) r.fail("corrupt file: bad table count");
  for (std::uint32_t i = 0; i < table_count; ++i) {
    PatternDatabase t;
    t.set_tiles(db.width_, get_tiles(r, cells, "table header"));
    r.array(t.values_, placement_count(cells, t.tiles_.size()), "table values");
    // The solvers stop where the heuristic is 0: it must be 0 at the goal and nowhere else.
    if (!t.zero_only_at_goal()) r.fail("corrupt file: a table is 0 away from its goal placement, or not 0 at it");
    db.tables_.push_back(std::move(t));
  }
  const auto read_parts = [&](std::vector<Part>& list, bool optional) {
    const std::uint32_t count = get_u32(r, "header");
    if (optional && count == 0) return;
    if (count == 0 || count >= static_cast<std::uint32_t>(cells)) r.fail("corrupt file: bad part count");
    std::array<bool, max_puzzle_cells> used{};
    for (std::uint32_t i = 0; i < count; ++i) {
      Part p;
      p.tiles = get_tiles(r, cells, "part header");
      const std::uint32_t mirrored = get_u32(r, "part header");
      p.table = get_u32(r, "part header");
      if (mirrored > 1 || p.table >= db.tables_.size()) r.fail("corrupt file: bad part");
      p.mirrored = mirrored == 1;
      // A part looks up its table's tiles: the same ones, or their mirror images.
      const std::vector<std::uint8_t>& own = db.tables_[p.table].tiles_;
      if (own.size() != p.tiles.size()) r.fail("corrupt file: part and table differ in size");
      for (std::size_t j = 0; j < own.size(); ++j) {
        const std::uint8_t expected = p.mirrored ? db.mirror_[own[j]] : own[j];
        if (p.tiles[j] != expected || used[p.tiles[j]]) r.fail("corrupt file: parts do not match their tables");
        used[p.tiles[j]] = true;
      }
      list.push_back(std::move(p));
    }
    for (int t = 1; t < cells; ++t) {
      if (!used[static_cast<std::size_t>(t)]) r.fail("corrupt file: tile " + number_text(t) + " is in no part");
    }
  };
  read_parts(db.parts_, false);
  read_parts(db.reflected_, true);
  r.finish();
  return db;
}

}  // namespace waymark::puzzle
