// Contraction hierarchies: the binary file format and the checks every loaded file passes.
#include <cmath>
#include <cstring>
#include <fstream>
#include <istream>
#include <limits>
#include <optional>
#include <ostream>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "waymark/core/binary_io.hpp"
#include "waymark/core/errors.hpp"
#include "waymark/core/text.hpp"
#include "waymark/graph/contraction.hpp"

namespace waymark::graph {
namespace {
constexpr std::uint32_t unranked = 0xFFFFFFFFu;  ///< an unset rank while validating
}  // namespace

// ---------------------------------------------------------------------------------------------
// Binary format: header, arrays, then a checksum (Hasher) of every byte before it.

namespace {

constexpr char ch_file_magic[8] = {'W', 'A', 'Y', 'M', 'K', 'C', 'H', '\n'};
constexpr std::uint32_t ch_file_version = 1;
constexpr std::uint32_t byte_order_mark = 0x01020304u;

struct FileHeader {
  char magic[8];
  std::uint32_t version;
  std::uint32_t byte_order;
  std::uint64_t vertices;
  std::uint64_t original_arcs;
  std::uint64_t fingerprint;
  std::uint64_t up_arcs;
  std::uint64_t down_arcs;
  std::uint64_t input_arcs;
  std::uint64_t self_loops_dropped;
  std::uint64_t parallel_dropped;
  std::uint64_t shortcuts;
  std::uint64_t witness_searches;
  std::uint32_t max_depth;
  std::uint32_t reserved;
  double time_s;
};
static_assert(std::is_trivially_copyable_v<FileHeader> && sizeof(FileHeader) == 112);
static_assert(sizeof(ChArc) == 16 && sizeof(ChShortcutHalves) == 8);

using Writer = ChecksummedWriter;
using Reader = ChecksummedReader;

}  // namespace

void ContractionHierarchy::save(std::ostream& out) const {
  FileHeader h{};
  std::memcpy(h.magic, ch_file_magic, sizeof h.magic);
  h.version = ch_file_version;
  h.byte_order = byte_order_mark;
  h.vertices = node_count();
  h.original_arcs = original_arcs_;
  h.fingerprint = fingerprint_;
  h.up_arcs = up_arcs_.size();
  h.down_arcs = down_arcs_.size();
  h.input_arcs = stats_.input_arcs;
  h.self_loops_dropped = stats_.self_loops_dropped;
  h.parallel_dropped = stats_.parallel_dropped;
  h.shortcuts = stats_.shortcuts;
  h.witness_searches = stats_.witness_searches;
  h.max_depth = stats_.max_depth;
  h.time_s = stats_.time_s;
  Writer w(out);
  w.bytes(&h, sizeof h);
  w.array(vertex_at_);
  w.array(up_offsets_);
  w.array(up_arcs_);
  w.array(up_halves_);
  w.array(down_offsets_);
  w.array(down_arcs_);
  w.array(down_halves_);
  w.finish();
}

void ContractionHierarchy::save(const std::string& path) const {
  save_file(path, [&](std::ostream& out) { save(out); });
}

ContractionHierarchy ContractionHierarchy::load(const std::string& path, const Graph& original) {
  return load_file(path, [&](std::istream& in) { return load(in, path, original); });
}

ContractionHierarchy ContractionHierarchy::load(std::istream& in, const std::string& name, const Graph& original) {
  Reader r(in, name);
  FileHeader h{};
  r.bytes(&h, sizeof h, "header");
  if (std::memcmp(h.magic, ch_file_magic, sizeof h.magic) != 0)
    r.fail("not a waymark contraction hierarchy (wrong magic)");
  if (h.version != ch_file_version)
    r.fail("unsupported version " + number_text(h.version) + " (expected " + number_text(ch_file_version) + ")");
  if (h.byte_order != byte_order_mark) r.fail("written on a machine with another byte order");
  if (h.vertices != original.node_count() || h.original_arcs != original.arc_count())
    r.fail("built for a graph with " + number_text(h.vertices) + " vertices and " +
           number_text(h.original_arcs) + " arcs, this one has " + number_text(original.node_count()) +
           " and " + number_text(original.arc_count()));
  if (h.fingerprint != arc_fingerprint(original))
    r.fail("built for another graph (the arcs' fingerprint differs)");
  constexpr std::uint64_t max_arcs = std::numeric_limits<std::uint32_t>::max();
  if (h.up_arcs > max_arcs || h.down_arcs > max_arcs) r.fail("corrupt file: impossible arc count");

  ContractionHierarchy ch;
  ch.graph_ = &original;
  ch.version_ = original.version();
  ch.original_arcs_ = h.original_arcs;
  ch.fingerprint_ = h.fingerprint;
  ch.stats_ = ChBuildStats{h.input_arcs, h.self_loops_dropped, h.parallel_dropped, h.shortcuts,
                           h.witness_searches, h.max_depth, h.time_s};
  const auto n = static_cast<std::size_t>(h.vertices);
  r.array(ch.vertex_at_, n, "vertex order");
  r.array(ch.up_offsets_, n + 1, "upward offsets");
  r.array(ch.up_arcs_, static_cast<std::size_t>(h.up_arcs), "upward arcs");
  r.array(ch.up_halves_, static_cast<std::size_t>(h.up_arcs), "upward shortcuts");
  r.array(ch.down_offsets_, n + 1, "downward offsets");
  r.array(ch.down_arcs_, static_cast<std::size_t>(h.down_arcs), "downward arcs");
  r.array(ch.down_halves_, static_cast<std::size_t>(h.down_arcs), "downward shortcuts");
  r.finish();
  ch.validate(name);
  return ch;
}

/// Checks everything a query relies on, so a corrupt file cannot make one read out of bounds
/// or unpack forever: the order is a permutation, offsets are monotone, every arc points to a
/// higher rank with a valid weight, every plain arc is the graph's cheapest arc between its
/// ends (so every answer is the cost of a real path), and every shortcut's halves sit at a lower middle vertex,
/// join the right ends and add up to its weight.
void ContractionHierarchy::validate(const std::string& name) {
  const auto fail = [&](const std::string& reason) { throw LoadError(name, 0, "corrupt file: " + reason); };
  const std::size_t n = vertex_at_.size();
  std::vector<std::uint32_t>& ranks = rank_of_;
  ranks.assign(n, unranked);
  for (std::uint32_t r = 0; r < n; ++r) {
    const std::uint32_t v = vertex_at_[r].value;
    if (v >= n || ranks[v] != unranked) fail("the vertex order is not a permutation");
    ranks[v] = r;
  }
  for (const auto* offsets : {&up_offsets_, &down_offsets_}) {
    const auto& o = *offsets;
    const std::size_t arcs = offsets == &up_offsets_ ? up_arcs_.size() : down_arcs_.size();
    if (o.front() != 0 || o.back() != arcs) fail("arc offsets do not match the arc count");
    for (std::size_t i = 1; i < o.size(); ++i)
      if (o[i] < o[i - 1]) fail("arc offsets decrease");
  }
  // For an arc at rank r with other end `head`: the shortcut tail → head via m is
  // (tail → m: downward arc at m from tail) + (m → head: upward arc at m to head).
  const auto check_half = [&](std::uint32_t index, bool upward, std::uint32_t middle, std::uint32_t end) {
    const std::uint32_t begin = upward ? up_offsets_[middle] : down_offsets_[middle];
    const std::uint32_t stop = upward ? up_offsets_[middle + 1] : down_offsets_[middle + 1];
    if (index < begin || index >= stop) fail("a shortcut half is not an arc of its middle vertex");
    const ChArc& half = upward ? up_arcs_[index] : down_arcs_[index];
    if (half.head != end) fail("a shortcut half does not join the shortcut's ends");
    return half.weight;
  };
  for (const bool upward : {true, false}) {
    const std::vector<ChArc>& arcs = upward ? up_arcs_ : down_arcs_;
    const std::vector<ChShortcutHalves>& halves = upward ? up_halves_ : down_halves_;
    const std::vector<std::uint32_t>& offsets = upward ? up_offsets_ : down_offsets_;
    for (std::uint32_t r = 0; r < n; ++r) {
      for (std::uint32_t i = offsets[r]; i < offsets[r + 1]; ++i) {
        const ChArc& a = arcs[i];
        if (a.head <= r || a.head >= n) fail("an arc does not lead to a higher rank");
        if (!(a.weight >= 0) || !std::isfinite(a.weight)) fail("an arc weight is negative or not finite");
        const std::uint32_t tail = upward ? r : a.head, head = upward ? a.head : r;
        if (a.middle == ChArc::no_middle) {
          const std::optional<ArcId> arc = graph_->find_arc(vertex_at_[tail], vertex_at_[head]);
          if (!arc || graph_->weight(*arc) != a.weight) fail("an arc is not the graph's cheapest arc between its ends");
          continue;
        }
        if (a.middle >= r) fail("a shortcut's middle vertex is not below its ends");
        const Cost w =
            check_half(halves[i].down, false, a.middle, tail) + check_half(halves[i].up, true, a.middle, head);
        if (w != a.weight) fail("a shortcut's weight is not the sum of its halves");
      }
    }
  }
  check_complete(name);
}

}  // namespace waymark::graph
