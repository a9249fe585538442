// Off-mesh links: their checks and ends (NavMesh), and every search mode taking them only
// when they are the way or cheaper. Truth from outside: lengths worked out by hand on open
// floors, and for single links the composition of link-free searches (to the link's start,
// across it, from its end) against the link-free walk.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <string>

#include "support/error_text.hpp"
#include "support/link_levels.hpp"
#include "waymark/navmesh/drop_downs.hpp"
#include "waymark/navmesh/nav_planner.hpp"
#include "waymark/navmesh/nav_query.hpp"
#include "waymark/search/request_queue.hpp"

namespace waymark::navmesh::links_test {
namespace {

constexpr NavMode all_modes[] = {NavMode::shortest, NavMode::funnel, NavMode::centroids};

/// A result type no navmesh search gives (SearchHandle::world_result of another world's type).
struct visibility_like {
  std::vector<Vec2> points;
};

NavMeshData with_links(NavMeshData d, std::vector<OffMeshLink> links) {
  d.links = std::move(links);
  return d;
}

/// What a shortest-mode path costs: its plan length, each link counted at its cost instead.
double shortest_cost(const NavMesh& nav, const NavPath& p) {
  double sum = 0;
  for (std::size_t i = 1; i < p.corners.size(); ++i) sum += distance(plan(p.corners[i - 1]), plan(p.corners[i]));
  for (const LinkUse& u : p.links) {
    sum += nav.resolved_link(u.link).cost - distance(plan(p.corners[u.corner]), plan(p.corners[u.corner + 1]));
  }
  return sum;
}

TEST(OffMeshLinks, BadLinksAreRefusedByName) {
  const auto error = [](OffMeshLink l) {
    return test::error_text<BuildError>([&] { NavMesh nav(with_links(test::two_storeys(), {test::drop_down(), l})); });
  };
  const double nan = std::nan("");
  EXPECT_EQ(error(test::drop_down()), "");
  EXPECT_EQ(error({.start = {nan, 0, 0}}), "navmesh link 1: start (nan, 0, 0) has a coordinate that is not finite");
  EXPECT_EQ(error({.end = {0, 0.5, -std::numeric_limits<double>::infinity()}}),
            "navmesh link 1: end (0, 0.5, -inf) has a coordinate that is not finite");
  EXPECT_EQ(error({.radius = 0}), "navmesh link 1: radius must be finite and > 0, got 0");
  EXPECT_EQ(error({.radius = -1e-320}), "navmesh link 1: radius must be finite and > 0, got -1e-320");
  EXPECT_EQ(error({.cost = -0.25}), "navmesh link 1: cost must be finite and >= 0, got -0.25");
  EXPECT_EQ(error({.area = max_areas}), "navmesh link 1: area type 64 is not below 64");
  // Every reason reads after "an off-mesh link's " too (how a .wmnav's loader words it).
  for (const OffMeshLink& bad : {OffMeshLink{.start = {nan, 0, 0}}, OffMeshLink{.end = {nan, 0, 0}}, OffMeshLink{.radius = 0},
                                 OffMeshLink{.cost = -1}, OffMeshLink{.area = max_areas}}) {
    const std::string why = find_link_problem(bad).value_or("");
    EXPECT_TRUE(why.starts_with("start ") || why.starts_with("end ") || why.starts_with("radius ") ||
                why.starts_with("cost ") || why.starts_with("area type "))
        << why;
  }
  NavMeshData many = test::two_storeys();
  many.links.assign(max_links + 1, test::drop_down());
  EXPECT_NE(test::error_text<BuildError>([&] { NavMesh nav(std::move(many)); }).find("more than max_links"), std::string::npos);
}

TEST(OffMeshLinks, EndsJoinTheNearestPolygonWithinTheRadius) {
  OffMeshLink far = test::drop_down();
  far.end = {9, 0, 11};  // 1 unit past the ground floor's edge: out of its 0.3 radius
  OffMeshLink high = test::drop_down();
  high.end = {9, 1.5, 6};  // 1.5 above the ground: beyond max(climb 0.5, radius 0.3)
  const NavMesh nav(with_links(test::two_storeys(), {test::drop_down(), far, high}));
  const ResolvedLink& r = nav.resolved_link(0);
  ASSERT_TRUE(r.active);
  EXPECT_EQ(nav.corners(r.start_poly).size(), 4u);
  EXPECT_EQ(r.start.y, 3);  // the upper floor, not the ground 3 below
  EXPECT_EQ(r.end.y, 0);
  EXPECT_DOUBLE_EQ(r.cost, distance(Vec3{9, 3, 3.8}, Vec3{9, 0, 4.6}));  // cost 0: its 3D length
  EXPECT_FALSE(nav.resolved_link(1).active);
  EXPECT_TRUE(nav.resolved_link(1).start_poly.valid());
  EXPECT_FALSE(nav.resolved_link(1).end_poly.valid());
  EXPECT_FALSE(nav.resolved_link(2).active);
  // An end just off the mesh joins the nearest point of its edge.
  OffMeshLink off = test::drop_down();
  off.end = {9, 0, 10.2};
  const NavMesh edge(with_links(test::two_storeys(), {off}));
  EXPECT_TRUE(edge.resolved_link(0).active);
  EXPECT_NEAR(edge.resolved_link(0).end.z, 10, 1e-12);
}

TEST(OffMeshLinks, JoinIslandsAndListTraversalsByPolygon) {
  const NavMesh apart(test::two_storeys());
  const NavMesh one_way(with_links(test::two_storeys(), {test::drop_down()}));
  const NavMesh both(with_links(test::two_storeys(), {test::drop_down(true)}));
  const PolyId upper = one_way.resolved_link(0).start_poly, ground = one_way.resolved_link(0).end_poly;
  EXPECT_NE(apart.island(upper), apart.island(ground));
  EXPECT_EQ(one_way.island(upper), one_way.island(ground));
  ASSERT_EQ(one_way.links_from(upper).size(), 1u);
  EXPECT_TRUE(one_way.links_from(ground).empty());
  EXPECT_EQ(one_way.link_traversals().size(), 1u);
  ASSERT_EQ(both.links_from(ground).size(), 1u);
  EXPECT_TRUE(both.links_from(ground)[0].reversed);
  EXPECT_EQ(both.links_from(ground)[0].to_poly, upper);
}

TEST(OffMeshLinks, DeadEndsCountLinksLeavingThem) {
  // A corridor one cell wide: its last cell has one neighbour; a link leaving it makes it a way on.
  NavMeshData d;
  test::add_floor(d, 0, 0, 4, 1, 0);
  test::add_floor(d, 0, 5, 4, 1, 0);
  const NavMesh bare(d);
  EXPECT_TRUE(bare.dead_end(PolyId{3}));
  d.links = {{.start = {3.5, 0, 0.5}, .end = {3.5, 0, 5.5}}};
  const NavMesh linked(d);
  EXPECT_FALSE(linked.dead_end(PolyId{3}));
  EXPECT_TRUE(linked.dead_end(PolyId{7}));  // where it lands: entered, it leads only back
}

TEST(OffMeshLinks, TheOnlyRouteTakesTheDropDownInEveryMode) {
  const NavMesh nav(with_links(test::two_storeys(), {test::drop_down()}));
  const Vec3 from{1, 3, 1}, to{1, 0, 2}, ls{9, 3, 3.8}, le{9, 0, 4.6};
  for (NavMode mode : all_modes) {
    SCOPED_TRACE(std::string(name_of(nav_mode_names, mode)));
    NavMeshQuery q(nav, {.mode = mode});
    ASSERT_TRUE(q.find_path(from, to).succeeded());
    const NavPath& p = q.path();
    ASSERT_EQ(p.links.size(), 1u);
    EXPECT_EQ(p.links[0].link, 0u);
    EXPECT_EQ(p.links[0].user_id, 7u);
    EXPECT_FALSE(p.links[0].reversed);
    EXPECT_EQ(p.corners[p.links[0].corner], ls);
    EXPECT_EQ(p.corners[p.links[0].corner + 1], le);
    EXPECT_EQ(p.corners.front(), from);
    EXPECT_EQ(p.corners.back(), to);
    EXPECT_NE(std::find(p.polys.begin(), p.polys.end(), nav.resolved_link(0).end_poly), p.polys.end());
    // Both floors are open rectangles: the shortest path goes straight to the link, across it,
    // straight on; no mode's path is shorter.
    const double straight = distance(from, ls) + distance(ls, le) + distance(le, to);
    if (mode == NavMode::shortest) {
      EXPECT_EQ(p.corners.size(), 4u);
      EXPECT_NEAR(p.length, straight, 1e-9);
    }
    EXPECT_GE(p.length, straight - 1e-9);
  }
  // Without the link the floors are apart.
  const NavMesh apart(test::two_storeys());
  NavMeshQuery q(apart);
  EXPECT_TRUE(q.find_path(from, to).has(StatusDetail::unreachable));
}

// The planner's handle reaches the query's whole NavPath (links, polygons, method), and a request
// queue made with NavPath keeps it per request, so no one need recover links from the points.
TEST(OffMeshLinks, HandlesAndQueuesReachTheLinksThePathTakes) {
  const NavMesh nav(with_links(test::two_storeys(), {test::drop_down()}));
  const Vec3 from{1, 3, 1}, to{1, 0, 2};
  for (NavMode mode : all_modes) {
    SCOPED_TRACE(std::string(name_of(nav_mode_names, mode)));
    const NavPlanner planner(nav, {.mode = mode});
    search::PathRequestQueue<Vec3, NavPath> queue({.max_requests = 8, .max_searches = 2, .turn = search::Budget::of_expansions(2)});
    NavMeshQuery reference(nav, {.mode = mode});
    ASSERT_TRUE(reference.find_path(from, to).succeeded());
    const NavPath& want = reference.path();
    ASSERT_EQ(want.links.size(), 1u);

    search::SearchHandle<Vec3> handle = planner.make_search();
    ASSERT_TRUE(handle.run(from, to).succeeded());
    const NavPath* got = handle.world_result<NavPath>();
    ASSERT_NE(got, nullptr);
    EXPECT_EQ(got->links, want.links);
    EXPECT_EQ(got->polys, want.polys);
    EXPECT_EQ(got->corners, handle.path().nodes);
    EXPECT_EQ(got->method, want.method);
    EXPECT_EQ(handle.world_result<visibility_like>(), nullptr);  // not this world's result

    const search::RequestId id = queue.submit(planner, from, to);
    const search::RequestId cancelled = queue.submit(planner, to, from);
    ASSERT_TRUE(queue.cancel(cancelled));  // before its search ran: no world result
    EXPECT_EQ(queue.world_result(id), nullptr);  // unfinished
    while (queue.in_flight() > 0) queue.update(search::Budget::of_expansions(4));
    ASSERT_NE(queue.world_result(id), nullptr);
    EXPECT_EQ(queue.world_result(id)->links, want.links);
    EXPECT_EQ(queue.world_result(id)->corners, queue.result(id)->path.nodes);
    EXPECT_EQ(queue.world_result(cancelled), nullptr);
    queue.release(id);
    queue.release(cancelled);
    EXPECT_EQ(queue.world_result(id), nullptr);  // released
  }
  search::SearchHandle<Vec3> empty;
  EXPECT_EQ(empty.world_result<NavPath>(), nullptr);
}

TEST(OffMeshLinks, AOneWayLinkIsNotTakenBackwards) {
  const Vec3 ground{1, 0, 2}, upper{1, 3, 1};
  const NavMesh one_way(with_links(test::two_storeys(), {test::drop_down()}));
  const NavMesh both(with_links(test::two_storeys(), {test::drop_down(true)}));
  for (NavMode mode : all_modes) {
    SCOPED_TRACE(std::string(name_of(nav_mode_names, mode)));
    NavMeshQuery q(one_way, {.mode = mode});
    EXPECT_TRUE(q.find_path(ground, upper).has(StatusDetail::unreachable));
    NavMeshQuery b(both, {.mode = mode});
    ASSERT_TRUE(b.find_path(ground, upper).succeeded());
    ASSERT_EQ(b.path().links.size(), 1u);
    EXPECT_TRUE(b.path().links[0].reversed);
    EXPECT_EQ(b.path().corners[b.path().links[0].corner], (Vec3{9, 0, 4.6}));
  }
}

TEST(OffMeshLinks, FiltersAndAreaCostsApplyToLinks) {
  OffMeshLink l = test::drop_down();
  l.flags = 0x02;
  l.area = 5;
  const NavMesh nav(with_links(test::two_storeys(), {l}));
  QueryFilter no_jumps;
  no_jumps.exclude = 0x02;
  for (NavMode mode : all_modes) {
    NavMeshQuery q(nav, {.mode = mode});
    EXPECT_TRUE(q.find_path({1, 3, 1}, {1, 0, 2}, no_jumps).has(StatusDetail::unreachable));
    EXPECT_TRUE(q.find_path({1, 3, 1}, {1, 0, 2}).succeeded());
  }
}

/// A floor 10 × 10 with a wall along x in [4, 6) from z = 0 to 8: the way round is long, and a
/// link across the wall at z = 1 (from x = 3.5 to 6.5) saves it.
NavMeshData walled() {
  NavMeshData d;
  test::add_floor(d, 0, 0, 10, 10, 0, [](int i, int j) { return (i == 4 || i == 5) && j < 8; });
  d.climb = 0.5;
  return d;
}

TEST(OffMeshLinks, ACostlyLinkIsNotTakenWhenTheWalkIsShorter) {
  const Vec3 from{2, 0, 1}, to{8, 0, 1};
  const NavMesh bare(walled());
  for (NavMode mode : all_modes) {
    SCOPED_TRACE(std::string(name_of(nav_mode_names, mode)));
    NavMeshQuery walk(bare, {.mode = mode});
    ASSERT_TRUE(walk.find_path(from, to).succeeded());
    const NavMesh cheap(with_links(walled(), {{.start = {3.5, 0, 1}, .end = {6.5, 0, 1}}}));
    NavMeshQuery a(cheap, {.mode = mode});
    ASSERT_TRUE(a.find_path(from, to).succeeded());
    EXPECT_EQ(a.path().links.size(), 1u);
    const NavMesh costly(with_links(walled(), {{.start = {3.5, 0, 1}, .end = {6.5, 0, 1}, .cost = 40}}));
    NavMeshQuery b(costly, {.mode = mode});
    ASSERT_TRUE(b.find_path(from, to).succeeded());
    EXPECT_TRUE(b.path().links.empty());
    EXPECT_EQ(b.path().corners, walk.path().corners);
    // Costed at 12 (plan walk round the wall: about 15.6), it is taken; at 16, not.
    const NavMesh close(with_links(walled(), {{.start = {3.5, 0, 1}, .end = {6.5, 0, 1}, .cost = 12}}));
    NavMeshQuery c(close, {.mode = mode});
    ASSERT_TRUE(c.find_path(from, to).succeeded());
    EXPECT_EQ(c.path().links.size(), 1u);
  }
}

TEST(OffMeshLinks, ATeleporterShortcutIsFound) {
  // A corridor 20 long: the goal 5 ahead of the start; behind the start, 4 away, a teleporter
  // (cost 0.1) lands 0.1 before the goal. Via it: 4 + 0.1 + 0.1 = 4.2 < 5. A straight-line
  // heuristic would overestimate every node on the way back to it and return the walk.
  NavMeshData d;
  test::add_floor(d, 0, 0, 20, 2, 0);
  d.links = {{.start = {1, 0, 1}, .end = {9.9, 0, 1}, .cost = 0.1, .user_id = 3}};
  const NavMesh nav(d);
  const Vec3 from{5, 0, 1}, to{10, 0, 1};
  for (NavMode mode : {NavMode::shortest, NavMode::funnel}) {
    SCOPED_TRACE(std::string(name_of(nav_mode_names, mode)));
    NavMeshQuery q(nav, {.mode = mode});
    EXPECT_TRUE(q.find_path(from, to).succeeded());
    EXPECT_EQ(q.path().links.size(), 1u);
    if (q.path().links.size() == 1) {
      EXPECT_EQ(q.path().links[0].user_id, 3u);
    }
    EXPECT_NEAR(shortest_cost(nav, q.path()), 4.2, 1e-9);
  }
}

/// For single links, the shortest mode against the composition of link-free searches: the
/// least of the walk and (to the link's start) + its cost + (from its end), each found with the
/// link-free shortest mode. Seeded pairs on the walled floor, with a link at a random place.
TEST(OffMeshLinks, ShortestModeMatchesTheCompositionOfLinkFreeSearches) {
  const NavMesh bare(walled());
  NavMeshQuery free_query(bare);
  const auto walk = [&](Vec3 a, Vec3 b) {
    return free_query.find_path(a, b).succeeded() ? shortest_cost(bare, free_query.path()) : infinite_cost;
  };
  std::mt19937_64 rng(31);
  int taken = 0, walked = 0;
  for (int trial = 0; trial < 40; ++trial) {
    const auto point = [&] {
      for (;;) {
        const auto p = bare.random_point(rng);
        if (p) return p->point;
      }
    };
    const Vec3 ls = point(), le = point();
    const double cost = std::uniform_real_distribution<double>(0, 4)(rng);
    const NavMesh nav(with_links(walled(), {{.start = ls, .end = le, .cost = cost}}));
    NavMeshQuery q(nav);
    for (int pair = 0; pair < 10; ++pair) {
      const Vec3 from = point(), to = point();
      const double expected = std::min(walk(from, to), walk(from, ls) + nav.resolved_link(0).cost + walk(le, to));
      ASSERT_TRUE(q.find_path(from, to).succeeded());
      EXPECT_NEAR(shortest_cost(nav, q.path()), expected, 1e-6) << "trial " << trial << " pair " << pair;
      (q.path().links.empty() ? walked : taken)++;
    }
  }
  EXPECT_GT(taken, 20);
  EXPECT_GT(walked, 20);
}

/// What one query costs, in successors generated and the work behind them (SearchStats::
/// scanned: successors, and the boxes and links of a polygon's link tree looked at).
struct Work {
  std::uint64_t generated = 0;
  std::uint64_t scanned = 0;
};

/// Issue 41: N links between two polygons. Every node of a polygon could reach each of its
/// links, and each link's landing is a node of the polygon it lands in: a search that relaxed
/// every link from every node did N² relaxations (in the exhaustive query below, N(2N + 1):
/// 2,001,000 for N = 1,000). Each mode's work must grow linearly with N, both for a query that
/// ends once it takes the best link and for one that goes through everything reachable (its
/// goal behind a door the filter excludes), and the path must be the best link's: on two open
/// squares, min over links of |from − start| + length + |end − to|.
TEST(OffMeshLinks, ManyLinksBetweenTwoPolygonsCostLinearWork) {
  const Vec3 from{1, 0, 1}, reached{20, 0, 9}, behind_door{30, 0, 5};
  QueryFilter no_doors;
  no_doors.exclude = 0x02;
  for (NavMode mode : all_modes) {
    SCOPED_TRACE(std::string(name_of(nav_mode_names, mode)));
    std::vector<Work> ends, exhaustive;
    for (std::size_t n : {250, 500, 1000, 2000}) {
      SCOPED_TRACE(n);
      const NavMesh nav(test::two_squares_with_links(n));
      NavMeshQuery q(nav, {.mode = mode});
      ASSERT_TRUE(q.find_path(from, reached).succeeded());
      ends.push_back({q.stats().generated, q.stats().scanned});
      double best = infinite_cost;
      for (std::uint32_t i = 0; i < nav.link_count(); ++i) {
        const ResolvedLink& l = nav.resolved_link(i);
        best = std::min(best, distance(from, l.start) + l.cost + distance(l.end, reached));
      }
      ASSERT_EQ(q.path().links.size(), 1u);
      if (mode == NavMode::shortest) {
        EXPECT_NEAR(shortest_cost(nav, q.path()), best, 1e-9);
      } else {
        EXPECT_GE(shortest_cost(nav, q.path()), best - 1e-9);
      }
      EXPECT_TRUE(q.find_path(from, behind_door, no_doors).has(StatusDetail::unreachable));
      exhaustive.push_back({q.stats().generated, q.stats().scanned});
      // Each link is relaxed a bounded number of times: its start's box looked at from a few
      // nodes. (Before: every landing relaxed all N links, N(2N + 1) in all.)
      EXPECT_LE(exhaustive.back().scanned, 8 * n + 100);
      EXPECT_LE(exhaustive.back().generated, 2 * n + 100);
    }
    const auto grows_linearly = [](std::uint64_t twice, std::uint64_t once) {
      return static_cast<double>(twice) <= 2.2 * static_cast<double>(once) + 100;
    };
    for (std::size_t i = 1; i < ends.size(); ++i) {
      EXPECT_TRUE(grows_linearly(ends[i].scanned, ends[i - 1].scanned)) << i << ": " << ends[i].scanned;
      EXPECT_TRUE(grows_linearly(exhaustive[i].scanned, exhaustive[i - 1].scanned)) << i << ": " << exhaustive[i].scanned;
      EXPECT_TRUE(grows_linearly(exhaustive[i].generated, exhaustive[i - 1].generated)) << i << ": " << exhaustive[i].generated;
    }
  }
}

/// A reference for many links at once (issue 41: the searches relax only the links that lower a
/// landing, and leave out landings beaten in their polygon): seeded levels on the walled floor,
/// two-way links with random ends (half of them leaving one cell, so that its links fill a
/// tree of several boxes) and random costs (some below their length: teleporters), against
/// Dijkstra over the same model written out in full. Shortest mode: the least cost of walks
/// (link-free shortest-mode searches) and links alternating, start to goal. Funnel mode: its
/// portal graph (nav_query.cpp), every node relaxing every link of its polygon.
TEST(OffMeshLinks, ManyLinksMatchAReferenceSearch) {
  const NavMesh bare(walled());
  NavMeshQuery free_query(bare);
  const auto walk = [&](Vec3 a, Vec3 b) {
    return free_query.find_path(a, b).succeeded() ? shortest_cost(bare, free_query.path()) : infinite_cost;
  };
  std::mt19937_64 rng(4141);
  const auto point = [&] {
    for (;;) {
      const auto p = bare.random_point(rng);
      if (p) return p->point;
    }
  };
  std::uniform_real_distribution<double> unit(0, 1);
  int taken = 0;
  for (int trial = 0; trial < 6; ++trial) {
    NavMeshData d = walled();
    for (int i = 0; i < 40; ++i) {
      const Vec3 a = i % 2 == 0 ? Vec3{1.05 + 0.9 * unit(rng), 0, 1.05 + 0.9 * unit(rng)} : point();
      const Vec3 b = point();
      d.links.push_back({.start = a, .end = b, .radius = 0.1, .bidirectional = true, .cost = distance(a, b) * 1.5 * unit(rng)});
    }
    const NavMesh nav(d);
    const auto ways = nav.link_traversals();
    ASSERT_EQ(ways.size(), 80u);
    // Walks between link ends, once per level.
    std::vector<double> between(ways.size() * ways.size());
    for (std::size_t i = 0; i < ways.size(); ++i) {
      for (std::size_t j = 0; j < ways.size(); ++j) between[i * ways.size() + j] = walk(ways[i].to, ways[j].from);
    }
    NavMeshQuery shortest(nav), funnel(nav, {.mode = NavMode::funnel});
    for (int pair = 0; pair < 8; ++pair) {
      SCOPED_TRACE(testing::Message() << "trial " << trial << " pair " << pair);
      const Vec3 from = point(), to = point();
      // Shortest mode: Dijkstra over the start and the landings.
      std::vector<double> g(ways.size(), infinite_cost);
      std::vector<bool> done(ways.size(), false);
      for (std::size_t u = 0; u < ways.size(); ++u) g[u] = walk(from, ways[u].from) + ways[u].cost;
      double best = walk(from, to);
      for (;;) {
        std::size_t next = ways.size();
        for (std::size_t u = 0; u < ways.size(); ++u) {
          if (!done[u] && g[u] < infinite_cost && (next == ways.size() || g[u] < g[next])) next = u;
        }
        if (next == ways.size() || g[next] >= best) break;
        done[next] = true;
        best = std::min(best, g[next] + walk(ways[next].to, to));
        for (std::size_t u = 0; u < ways.size(); ++u) {
          g[u] = std::min(g[u], g[next] + between[next * ways.size() + u] + ways[u].cost);
        }
      }
      ASSERT_TRUE(shortest.find_path(from, to).succeeded());
      EXPECT_NEAR(shortest_cost(nav, shortest.path()), best, 1e-6);
      taken += shortest.path().links.empty() ? 0 : 1;

      // Funnel mode: the portal graph, every link from every node of its polygon.
      ASSERT_TRUE(funnel.find_path(from, to).succeeded());
      const NavMeshData& md = nav.data();
      const auto start = nav.nearest_poly(from, {2, 4, 2});
      const auto goal = nav.nearest_poly(to, {2, 4, 2});
      ASSERT_TRUE(start && goal);
      const std::size_t corners = md.corners.size(), start_node = corners, goal_node = corners + 1;
      const std::size_t nodes = corners + 2 + ways.size();
      const auto at = [&](std::size_t n) -> std::pair<Vec3, PolyId> {
        if (n < corners) return {nav.edge(static_cast<std::uint32_t>(n)).at(0.5), md.neighbors[n]};
        if (n == start_node) return {start->point, start->poly};
        return {ways[n - corners - 2].to, ways[n - corners - 2].to_poly};
      };
      std::vector<double> cost(nodes, infinite_cost);
      std::vector<bool> closed(nodes, false);
      cost[start_node] = 0;
      double reached_goal = infinite_cost;
      for (;;) {
        std::size_t n = nodes;
        for (std::size_t i = 0; i < nodes; ++i) {
          if (!closed[i] && i != goal_node && cost[i] < infinite_cost && (n == nodes || cost[i] < cost[n])) n = i;
        }
        if (n == nodes || cost[n] >= reached_goal) break;
        closed[n] = true;
        const auto [x, p] = at(n);
        if (p == goal->poly) reached_goal = std::min(reached_goal, cost[n] + distance(x, goal->point));
        for (std::uint32_t k = md.poly_begin[p.value]; k < md.poly_begin[p.value + 1]; ++k) {
          if (!md.neighbors[k].valid() || (n < corners && k == nav.twin(static_cast<std::uint32_t>(n)))) continue;
          cost[k] = std::min(cost[k], cost[n] + distance(x, nav.edge(k).at(0.5)));
        }
        const std::uint32_t first = nav.first_link_from(p);
        const auto leaving = nav.links_from(p);
        for (std::uint32_t i = 0; i < leaving.size(); ++i) {
          double& c = cost[corners + 2 + first + i];
          c = std::min(c, cost[n] + distance(x, leaving[i].from) + leaving[i].cost);
        }
      }
      EXPECT_NEAR(funnel.portal_search().path().cost, reached_goal, 1e-6);
    }
  }
  EXPECT_GT(taken, 10);
}

/// What a shortest-mode path costs in 3D: the 3D length between its corners, each link counted
/// at its cost instead.
double surface_cost(const NavMesh& nav, const NavPath& p) {
  double sum = 0;
  for (std::size_t i = 1; i < p.corners.size(); ++i) sum += distance(p.corners[i - 1], p.corners[i]);
  for (const LinkUse& u : p.links) sum += nav.resolved_link(u.link).cost - distance(p.corners[u.corner], p.corners[u.corner + 1]);
  return sum;
}

/// Two walled floors stacked in plan (the ground at y = 0, the upper floor at y = 3), joined
/// only by two one-way links down: a lift (vertical, often costing less than its height of 3)
/// and stairs elsewhere. The shortest mode's heuristic counts the climb, so a lift cheaper than
/// it would make that bound overestimate: every path from the upper floor to the ground must
/// cost the least of the two compositions of link-free searches (to a link's top, its cost,
/// from its foot), and never more than the funnel mode's path.
TEST(OffMeshLinks, ACheapLiftBetweenStackedFloorsKeepsTheShortestModeShortest) {
  const NavMesh bare(walled());
  NavMeshQuery free_query(bare);
  const auto walk = [&](Vec3 a, Vec3 b) {  // on one floor: the ground's walk, raised as needed
    a.y = b.y = 0;
    return free_query.find_path(a, b).succeeded() ? shortest_cost(bare, free_query.path()) : infinite_cost;
  };
  NavMeshData two;
  test::add_floor(two, 0, 0, 10, 10, 0, [](int i, int j) { return (i == 4 || i == 5) && j < 8; });
  test::add_floor(two, 0, 0, 10, 10, 3, [](int i, int j) { return (i == 4 || i == 5) && j < 8; });
  two.climb = 0.5;
  std::mt19937_64 rng(2026);
  const auto point = [&](double y) {
    for (;;) {
      const auto p = bare.random_point(rng);
      if (p) return Vec3{p->point.x, y, p->point.z};
    }
  };
  int lifted = 0, stairs = 0;
  for (int trial = 0; trial < 30; ++trial) {
    const Vec3 lift = point(0), stair = point(0);
    const double lift_cost = std::uniform_real_distribution<double>(0, 3)(rng);
    const double stair_cost = std::uniform_real_distribution<double>(3, 8)(rng);
    const NavMesh nav(with_links(two, {{.start = {lift.x, 3, lift.z}, .end = lift, .cost = lift_cost},
                                       {.start = {stair.x, 3, stair.z}, .end = stair, .cost = stair_cost}}));
    ASSERT_TRUE(nav.resolved_link(0).active && nav.resolved_link(1).active);
    NavMeshQuery shortest(nav), funnel(nav, {.mode = NavMode::funnel});
    for (int pair = 0; pair < 10; ++pair) {
      const Vec3 from = point(3), to = point(0);
      const double expected = std::min(walk(from, lift) + lift_cost + walk(lift, to), walk(from, stair) + stair_cost + walk(stair, to));
      ASSERT_TRUE(shortest.find_path(from, to).succeeded()) << "trial " << trial << " pair " << pair;
      EXPECT_NEAR(surface_cost(nav, shortest.path()), expected, 1e-6) << "trial " << trial << " pair " << pair;
      ASSERT_TRUE(funnel.find_path(from, to).succeeded());
      EXPECT_LE(surface_cost(nav, shortest.path()), surface_cost(nav, funnel.path()) + 1e-6) << "trial " << trial << " pair " << pair;
      ASSERT_EQ(shortest.path().links.size(), 1u);
      (shortest.path().links[0].link == 0 ? lifted : stairs)++;
    }
  }
  EXPECT_GT(lifted, 50);
  EXPECT_GT(stairs, 20);
}

/// A ledge: an upper floor [0, 10] × [0, 10] at y = 3 and, beyond a gap of 1, a lower one
/// [11, 21] × [0, 10] at y = 0.
NavMeshData ledge() {
  NavMeshData d;
  test::add_floor(d, 0, 0, 10, 10, 3);
  test::add_floor(d, 11, 0, 10, 10, 0);
  d.climb = 0.5;
  return d;
}

TEST(DropDowns, OneLinkPerSpacingFromEachLedgeDownToTheFloorBelow) {
  const NavMesh bare(ledge());
  // Only the upper floor's edge at x = 10 has a floor below within reach 1.5: ten unit edges,
  // one link each at its middle, landing 1.5 beyond it on the lower floor.
  const auto links = generate_drop_downs(bare, {.reach = 1.5});
  ASSERT_EQ(links.size(), 10u);
  for (const OffMeshLink& l : links) {
    EXPECT_EQ(l.start.x, 10);
    EXPECT_EQ(l.start.y, 3);
    EXPECT_EQ(l.end, (Vec3{11.5, 0, l.start.z}));
    EXPECT_EQ(std::fmod(l.start.z, 1.0), 0.5);
    EXPECT_FALSE(l.bidirectional);
  }
  EXPECT_TRUE(generate_drop_downs(bare, {.reach = 0.9}).empty());                  // the gap is 1
  EXPECT_TRUE(generate_drop_downs(bare, {.reach = 1.5, .max_drop = 2.5}).empty());  // the drop is 3
  EXPECT_TRUE(generate_drop_downs(bare, {.reach = 1.5, .min_drop = 3}).empty());    // a step of at most 3
  EXPECT_EQ(generate_drop_downs(bare, {.spacing = 20, .reach = 1.5}).size(), 10u);  // one per edge at least
  EXPECT_NE(test::error_text<BuildError>([&] { (void)generate_drop_downs(bare, {.reach = 1.5, .max_links = 9}); }), "");
  EXPECT_NE(test::error_text<BuildError>([&] { (void)generate_drop_downs(bare, {.spacing = 0}); }), "");
  // A spacing far below the edges' length samples each edge max_drop_down_samples times, at
  // the middles of equal parts: a tiny spacing stays bounded.
  const auto dense = generate_drop_downs(bare, {.spacing = 1e-9, .reach = 1.5});
  ASSERT_EQ(dense.size(), 10 * max_drop_down_samples);
  for (std::size_t i = 0; i < max_drop_down_samples; ++i) {
    EXPECT_DOUBLE_EQ(std::fmod(dense[i].start.z, 1.0), (static_cast<double>(i) + 0.5) / static_cast<double>(max_drop_down_samples));
  }

  NavMeshData d = ledge();
  d.links = links;
  const NavMesh nav(std::move(d));
  for (NavMode mode : all_modes) {
    NavMeshQuery q(nav, {.mode = mode});
    ASSERT_TRUE(q.find_path({2, 3, 5}, {18, 0, 5}).succeeded());
    ASSERT_EQ(q.path().links.size(), 1u);
    EXPECT_TRUE(q.find_path({18, 0, 5}, {2, 3, 5}).has(StatusDetail::unreachable));  // no way back up
  }
}

TEST(DropDowns, TheHighestFloorBelowIsTheLanding) {
  // Beyond the ledge's edge, two floors over the same plan [11, 13] × [0, 1], at y = 0 and
  // y = 1: the link lands on the higher one.
  NavMeshData d;
  test::add_floor(d, 0, 0, 10, 1, 3);
  test::add_floor(d, 11, 0, 2, 1, 0);
  test::add_floor(d, 11, 0, 2, 1, 1);
  const NavMesh nav(d);
  const auto links = generate_drop_downs(nav, {.reach = 1.5});
  ASSERT_EQ(links.size(), 1u);
  EXPECT_EQ(links[0].end, (Vec3{11.5, 1, 0.5}));
}

}  // namespace
}  // namespace waymark::navmesh::links_test
