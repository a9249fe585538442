#pragma once
// Off-mesh link starts by polygon, each polygon's in a tree of bounding boxes (not installed):
// what lets a search relax the links leaving a polygon from one of its nodes without looking
// at every link (issue 41).
//
// Every node n of a polygon P may reach every link start s in P, at g(n) + walk(n, s): the
// links' landings are nodes too, and each landing in P relaxes all of P's links again, so N
// links between two polygons made a query relax N² of them. A relaxation that does not lower
// the landing's g is wasted: LinkRelaxer keeps, per query, the g each landing was reached at
// (w), and per box of the tree the most that any landing in it may still be lowered from
// (its links' w less their cost); a node that cannot walk into a box for less than that skips
// the box whole, and one that a node seeing the whole polygon dominates stops at once. A
// landing that its polygon's anchor (the start, or a landing there) reaches for less is left
// out: every successor of it is reached from the anchor for less. What is left are the
// relaxations that lower a landing's g and may matter, handed on in link order: the paths'
// costs are those of the search that relaxed everything (OffMeshLinks.ManyLinksMatchAReference-
// Search), and work goes as the landings lowered plus the boxes looked at (docs/navmesh.md,
// "Off-mesh links in bulk").

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "query_links.hpp"
#include "waymark/navmesh/nav_mesh.hpp"
#include "waymark/navmesh/query_filter.hpp"

namespace waymark::navmesh::detail {

/// The link starts of each polygon in a tree of boxes: a leaf holds at most leaf_links, an
/// inner node splits its links at the median of its box's longest side. Built once per query
/// object: O(L log L) time; per traversal 4 bytes and a copy in tree order (80 bytes, so that a
/// leaf reads its links in a row), and 64 per box (about L / 4 boxes).
class LinkStartTree {
 public:
  static constexpr std::uint32_t leaf_links = 8;
  static constexpr std::uint32_t none = PolyId::invalid_value;

  /// A box: the bounds of its links' starts, its links way(begin) to way(end − 1), and its
  /// children (none for a leaf).
  struct Box {
    Vec3 lo;
    Vec3 hi;
    std::uint32_t begin = 0;
    std::uint32_t end = 0;
    std::uint32_t left = none;
    std::uint32_t right = none;
  };

  explicit LinkStartTree(const NavMesh& mesh) : mesh_(&mesh) {
    const auto ways = mesh.link_traversals();
    order_.resize(ways.size());
    for (std::uint32_t t = 0; t < order_.size(); ++t) order_[t] = t;
    root_.assign(ways.empty() ? 0 : mesh.poly_count(), none);
    for (std::uint32_t p = 0; p < root_.size(); ++p) {
      const std::uint32_t first = mesh.first_link_from(PolyId{p});
      const auto count = static_cast<std::uint32_t>(mesh.links_from(PolyId{p}).size());
      if (count != 0) root_[p] = build(first, first + count, 0);
    }
    // The traversals and their links' flags and areas in tree order: a leaf reads them in a row.
    ways_.reserve(order_.size());
    links_.reserve(order_.size());
    for (const std::uint32_t t : order_) {
      ways_.push_back(ways[t]);
      const OffMeshLink& l = mesh.link(ways[t].link);
      links_.push_back({l.flags, l.area});
    }
  }

  /// A link's flags and area type (OffMeshLink's), beside its traversal.
  struct LinkKind {
    std::uint16_t flags = 0;
    std::uint8_t area = 0;
  };

  /// The root box of p's links, or none.
  [[nodiscard]] std::uint32_t root(PolyId p) const { return root_.empty() ? none : root_[p.value]; }
  [[nodiscard]] const Box& box(std::uint32_t i) const { return boxes_[i]; }
  [[nodiscard]] std::size_t box_count() const { return boxes_.size(); }
  /// Leaf by leaf: the i-th traversal's number (its index in link_traversals()), the
  /// traversal, and its link's flags and area.
  [[nodiscard]] std::uint32_t order(std::uint32_t i) const { return order_[i]; }
  [[nodiscard]] const LinkTraversal& way(std::uint32_t i) const { return ways_[i]; }
  [[nodiscard]] LinkKind kind(std::uint32_t i) const { return links_[i]; }
  [[nodiscard]] const NavMesh& mesh() const { return *mesh_; }
  /// Bytes held.
  [[nodiscard]] std::size_t memory_bytes() const {
    return order_.size() * (sizeof(std::uint32_t) + sizeof(LinkTraversal) + sizeof(LinkKind)) + boxes_.size() * sizeof(Box) +
           root_.size() * sizeof(std::uint32_t);
  }

 private:
  /// The box over order_[begin, end): a leaf, or split at the median of its longest side
  /// (depth-first: a box's children follow it). Depth at most log2(L / leaf_links) + 1.
  std::uint32_t build(std::uint32_t begin, std::uint32_t end, int depth) {
    const auto ways = mesh_->link_traversals();
    Box b;
    b.begin = begin;
    b.end = end;
    b.lo = b.hi = ways[order_[begin]].from;
    for (std::uint32_t i = begin; i < end; ++i) {
      const Vec3 s = ways[order_[i]].from;
      b.lo = {std::min(b.lo.x, s.x), std::min(b.lo.y, s.y), std::min(b.lo.z, s.z)};
      b.hi = {std::max(b.hi.x, s.x), std::max(b.hi.y, s.y), std::max(b.hi.z, s.z)};
    }
    const auto at = static_cast<std::uint32_t>(boxes_.size());
    boxes_.push_back(b);
    if (end - begin <= leaf_links) return at;
    const Vec3 size = b.hi - b.lo;
    const int axis = size.x >= size.y && size.x >= size.z ? 0 : size.y >= size.z ? 1 : 2;
    const auto key = [&](std::uint32_t t) {
      const Vec3 s = ways[t].from;
      return axis == 0 ? s.x : axis == 1 ? s.y : s.z;
    };
    const std::uint32_t mid = begin + (end - begin) / 2;
    // Ties by traversal number: the tree is the same on every machine.
    std::nth_element(order_.begin() + begin, order_.begin() + mid, order_.begin() + end,
                     [&](std::uint32_t x, std::uint32_t y) { return key(x) < key(y) || (key(x) == key(y) && x < y); });
    const std::uint32_t left = build(begin, mid, depth + 1);
    const std::uint32_t right = build(mid, end, depth + 1);
    boxes_[at].left = left;
    boxes_[at].right = right;
    return at;
  }

  const NavMesh* mesh_;
  std::vector<std::uint32_t> order_;
  std::vector<LinkTraversal> ways_;  // in order_'s order
  std::vector<LinkKind> links_;      // likewise
  std::vector<Box> boxes_;
  std::vector<std::uint32_t> root_;  // by polygon (empty without links)
};

/// One search's memory of the landings reached in the current query (see the file's comment):
/// per traversal its landing's g so far (w), its cost under the query's filter and the least
/// g a node that sees the whole polygon gave it; per box the most a landing in it may be
/// lowered from; per polygon its anchor (a node that beats landings there). Per query object:
/// 24 bytes per traversal, 16 per box and 40 per polygon on a mesh with links, sized once (no
/// allocation per query).
class LinkRelaxer {
 public:
  /// `area_costs_walk`: walking in a polygon costs its area's cost per unit under the filter
  /// (the funnel and centroid modes), else 1 (the shortest mode).
  LinkRelaxer(const LinkStartTree& tree, bool area_costs_walk)
      : tree_(&tree),
        area_costs_walk_(area_costs_walk),
        w_(tree.mesh().link_traversals().size()),
        cost_(w_.size()),
        reach_(w_.size()),
        boxes_(tree.box_count()),
        anchors_(w_.empty() ? 0 : tree.mesh().poly_count()) {
    std::size_t most = 0;  // links leaving one polygon: the most one relaxation finds
    for (std::uint32_t p = 0; p < tree.mesh().poly_count(); ++p) most = std::max(most, tree.mesh().links_from(PolyId{p}).size());
    found_.reserve(most);
  }

  /// A new query under `filter` (kept by reference: the caller's, for the query's length):
  /// every landing unreached (boxes are read afresh as they are first met).
  void reset(const QueryFilter& filter) {
    filter_ = &filter;
    if (++generation_ == 0) {  // once every 2^32 queries: no stamp of the last cycle may match
      for (BoxState& b : boxes_) b.stamp = 0;
      for (Anchor& a : anchors_) a.stamp = 0;
      generation_ = 1;
    }
  }

  /// A node at `at` in polygon p, reached at g, whose successors are all of p's (a start or
  /// a link's landing: no way back left out, no cone): the polygon's anchor when it has none
  /// yet, or when it beats the one it has.
  void anchor(PolyId p, Vec3 at, Cost g) {
    if (anchors_.empty()) return;
    Anchor& a = anchors_[p.value];
    if (a.stamp != generation_ || g + walk_factor(p) * distance(at, a.at) <= a.g) a = {at, g, generation_};
  }

  /// Where a node stands that relaxes a polygon's links: at `from`, reached at g; it walks to a
  /// link start at `factor` per unit of 3D distance at least, straight (at exactly that) to
  /// every one when `sees_all`.
  struct Walker {
    Vec3 from;
    Cost g = 0;
    Cost factor = 1;
    bool sees_all = false;
  };

  /// What leaf() found for traversal t: kind 0, nothing; else what it means to the caller, and
  /// the edge cost to pass on.
  struct Found {
    std::uint32_t t = 0;
    std::uint32_t kind = 0;
    Cost edge = 0;
  };

  /// Relaxes the links leaving p from node `at`. For each link t the filter passes in a box
  /// that at's walk does not rule out, calls leaf(t, way, cost, w), cost what taking t costs
  /// under the filter and w its landing's g so far (infinite when unreached): leaf lowers w to
  /// the g it reaches the landing at (computed as the engine will: g + edge cost) when it
  /// relaxes it for less, and returns a Found to pass on (kind 0: none). Then emit(found) for
  /// each, by traversal number.
  ///
  /// w is also lowered to what the anchor of the polygon t lands in (see anchor()) reaches its
  /// landing point for (a hair more, against rounding): a landing reached for more is beaten
  /// (every successor of it is reached from the anchor for less) and left out. And the walk
  /// stops early when `at` is dominated: a link start s reached from a node e that sees all of
  /// p at r (its landing at r + cost), with r + factor × |s − from| <= g, means e reaches
  /// `from` for no more than g and every start from there for no more than `at` does. Adds the
  /// boxes looked at, and the links looked at but not found, to `scanned`.
  template <class Leaf, class Emit>
  void relax(PolyId p, const Walker& at, Leaf&& leaf, Emit&& emit, std::uint64_t& scanned) {
    const std::uint32_t root = tree_->root(p);
    if (root == LinkStartTree::none) return;
    found_.clear();
    bool dominated = false;
    visit(root, at, leaf, scanned, dominated);
    // In traversal order, as a loop over every link gave them: the engine sees the same
    // successors in the same order, less those it would have dropped, and runs as it did.
    std::sort(found_.begin(), found_.end(), [](const Found& a, const Found& b) { return a.t < b.t; });
    for (const Found& f : found_) emit(f);
  }

 private:
  /// What a box's state was last written in (generation) and the most any landing in it may be
  /// lowered from: the greatest of its links' w less their cost (slightly raised against
  /// rounding), −infinity for links the filter stops.
  struct BoxState {
    Cost most = 0;
    std::uint32_t stamp = 0;
  };

  static constexpr Cost unreached = std::numeric_limits<Cost>::infinity();
  /// Relative margin for the bounds: they and g are computed in floating point; a box is
  /// skipped, or a node found dominated, only when no rounding could make a landing lower.
  static constexpr double margin = 1e-12;

  /// The 3D distance from p to the box (0 inside).
  static double distance_to(Vec3 p, const LinkStartTree::Box& b) {
    const double dx = std::max({b.lo.x - p.x, 0.0, p.x - b.hi.x});
    const double dy = std::max({b.lo.y - p.y, 0.0, p.y - b.hi.y});
    const double dz = std::max({b.lo.z - p.z, 0.0, p.z - b.hi.z});
    return std::sqrt(dx * dx + dy * dy + dz * dz);
  }

  /// Visits box i (see relax); returns its state's `most` after. On finding `at` dominated,
  /// sets `dominated` and returns at once, leaving the boxes it was in as they were (nothing
  /// in them was lowered: their state still bounds them).
  template <class Leaf>
  Cost visit(std::uint32_t i, const Walker& at, Leaf& leaf, std::uint64_t& scanned, bool& dominated) {
    const LinkStartTree::Box& b = tree_->box(i);
    BoxState& s = boxes_[i];
    const bool known = s.stamp == generation_;
    ++scanned;
    if (known && (at.g + at.factor * distance_to(at.from, b)) * (1 - margin) >= s.most) return s.most;  // nothing here to lower
    Cost most = -unreached;
    if (b.left == LinkStartTree::none) {
      for (std::uint32_t k = b.begin; k < b.end; ++k) {  // by tree order: the state's arrays are too
        const LinkTraversal& way = tree_->way(k);
        if (!known) {  // first met in this query
          w_[k] = reach_[k] = unreached;
          const LinkStartTree::LinkKind link = tree_->kind(k);
          const bool passes = filter_->passes(link.flags) && filter_->passes(tree_->mesh().flags(way.to_poly));
          cost_[k] = passes ? way.cost * filter_->area_cost[link.area] : -1;  // link_cost(), read in a row
        }
        if (cost_[k] < 0) continue;  // the filter stops it
        if (reach_[k] != unreached &&
            (reach_[k] - cost_[k]) + at.factor * distance(at.from, way.from) + margin * (reach_[k] + at.g) <= at.g) {
          dominated = true;
          return most;
        }
        const Anchor& a = anchors_[way.to_poly.value];
        if (a.stamp == generation_) {
          w_[k] = std::min(w_[k], (a.g + walk_factor(way.to_poly) * distance(a.at, way.to)) * (1 + margin) + margin);
        }
        const Cost before = w_[k];
        const std::uint32_t t = tree_->order(k);
        const Found f = leaf(t, way, cost_[k], w_[k]);
        if (f.kind != 0) {
          found_.push_back({t, f.kind, f.edge});
        } else {
          ++scanned;  // looked at, left out (what is found the engine counts as it is given)
        }
        if (at.sees_all && w_[k] < before) reach_[k] = w_[k];
        most = std::max(most, w_[k] == unreached ? unreached : (w_[k] - cost_[k]) + margin * (w_[k] + cost_[k]));
      }
    } else {
      // The nearer child first: what it lowers may let the other be skipped.
      const LinkStartTree::Box& l = tree_->box(b.left);
      const LinkStartTree::Box& r = tree_->box(b.right);
      const bool left_first = distance_to(at.from, l) <= distance_to(at.from, r);
      const std::uint32_t first = left_first ? b.left : b.right, second = left_first ? b.right : b.left;
      most = visit(first, at, leaf, scanned, dominated);
      if (dominated) return most;
      most = std::max(most, visit(second, at, leaf, scanned, dominated));
      if (dominated) return most;
    }
    s = {most, generation_};
    return most;
  }

  /// What walking costs per unit in p.
  [[nodiscard]] Cost walk_factor(PolyId p) const { return area_costs_walk_ ? filter_->area_cost[tree_->mesh().area(p)] : 1; }

  const LinkStartTree* tree_;
  bool area_costs_walk_;
  const QueryFilter* filter_ = nullptr;  // the query's (reset)
  std::uint32_t generation_ = 0;
  // By traversal, in tree order (LinkStartTree::way), valid once its leaf is met in the query:
  std::vector<Cost> w_;      // its landing's g
  std::vector<Cost> cost_;   // its cost under the query's filter, −1 when the filter stops it
  std::vector<Cost> reach_;  // the least g a node that sees its whole polygon gave its landing
  std::vector<BoxState> boxes_;
  /// A polygon's anchor in this query: a node whose successors are all the polygon's, where it
  /// stands and the g it was given (its own may have been lowered since: this still bounds it).
  struct Anchor {
    Vec3 at;
    Cost g = 0;
    std::uint32_t stamp = 0;
  };
  std::vector<Anchor> anchors_;  // by polygon (empty without links)
  std::vector<Found> found_;  // one relaxation's finds (reserved for the most links of a polygon)
};

}  // namespace waymark::navmesh::detail
