// The roads resource: the bundled road graph (GET /api/graph) and one road query by several
// algorithms (POST /api/route).
#include <algorithm>
#include <array>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "waymark/core/text.hpp"
#include "waymark/graph/graph_planner.hpp"
#include "waymark/io/graph_loaders.hpp"
#include "web/request.hpp"

namespace waymark::web {

/// The bundled road graph the viewer draws: Oldenburg (DATA/roads/OL.cnode.txt and
/// OL.cedge.txt, with coordinates), and one planner for every algorithm, its preprocessing
/// (landmarks, hierarchy) built once.
struct Api::Roads {
  static constexpr const char* name = Api::default_graph;
  static constexpr std::array algorithms{graph::Algorithm::dijkstra, graph::Algorithm::bidijkstra, graph::Algorithm::astar,
                                         graph::Algorithm::alt, graph::Algorithm::ch};
  io::LoadedGraph loaded;
  std::unique_ptr<graph::GraphPlanner> planner;
  std::string picture;  ///< GET /api/graph's answer, made once
};

const Api::Roads& Api::roads() const {
  std::call_once(roads_once_, [&] {
    auto roads = std::make_shared<Roads>();
    roads->loaded = io::load_node_edge_lists((data_dir_ / "roads" / "OL.cnode.txt").string(),
                                             (data_dir_ / "roads" / "OL.cedge.txt").string());
    const graph::Graph& g = roads->loaded.graph;
    roads->planner = std::make_unique<graph::GraphPlanner>(
        g, graph::GraphPlannerOptions{.algorithm = graph::Algorithm::dijkstra,
                                      .prepare = {graph::Algorithm::alt, graph::Algorithm::ch}});
    json vertices = json::array();
    for (std::size_t i = 0; i < g.node_count(); ++i) {
      const Vec3 p = g.position(g.node_at(i));
      vertices.push_back({p.x, p.y});
    }
    json edges = json::array();
    for (std::size_t i = 0; i < g.node_count(); ++i) {
      const VertexId v = g.node_at(i);
      for (const VertexId w : g.targets(v))
        if (v.value < w.value) edges.push_back({v.value, w.value});  // undirected: each edge once
    }
    roads->picture = text_of(json{{"name", Roads::name}, {"vertices", vertices}, {"edges", edges}});
    roads_ = std::move(roads);
  });
  return *roads_;
}

Response Api::graph(std::string_view name) const {
  return guarded([&] {
    if (name != Roads::name) throw ApiError(http_not_found, "no bundled graph \"" + std::string(name) + "\" (oldenburg)");
    return Response{http_ok, roads().picture};
  });
}

namespace {

/// Keeps the vertices a search settled (its expand events), in order, up to a limit.
class SettledVertices final : public search::EventSink<VertexId> {
 public:
  explicit SettledVertices(std::size_t limit) : limit_(limit) {}
  void on_event(const search::Event<VertexId>& e) override {
    if (e.kind != search::EventKind::expand) return;
    if (settled.size() == limit_) {
      truncated = true;
      return;
    }
    settled.push_back(e.node.value);
  }
  std::vector<std::uint32_t> settled;
  bool truncated = false;

 private:
  std::size_t limit_;
};

}  // namespace

Response Api::route(std::string_view body) const {
  return guarded([&] {
    const search::Deadline time(time_budget(limits_.max_query_seconds));
    const RequestBody read(body, limits_);
    const Field request = read.root();
    const std::string name = request.text("graph", Roads::name);
    if (name != Roads::name) throw ApiError(http_not_found, "no bundled graph \"" + name + "\" (oldenburg)");
    const Roads& r = roads();
    const int last = static_cast<int>(r.loaded.graph.node_count()) - 1;
    const VertexId from{static_cast<std::uint32_t>(request.field("from").whole(0, last))};
    const VertexId to{static_cast<std::uint32_t>(request.field("to").whole(0, last))};
    std::vector<std::size_t> chosen;
    if (const auto given = request.find("algorithms"); given && !given->is_null()) {
      if (given->kind() != io::json::Kind::array || given->size() == 0) given->fail("must be a non-empty array of names");
      if (given->size() > limits_.max_route_algorithms)
        given->fail("lists " + number_text(given->size()) + " algorithms; at most " +
                    number_text(limits_.max_route_algorithms) + " here (the server's max_route_algorithms)");
      given->for_each_item([&](const Field& a) {
        const auto alg = a.kind() == io::json::Kind::string ? graph::parse_algorithm(a.value().text()) : std::nullopt;
        const auto at = alg ? std::find(Roads::algorithms.begin(), Roads::algorithms.end(), *alg) : Roads::algorithms.end();
        if (at == Roads::algorithms.end()) a.fail("is not one of dijkstra, bidijkstra, astar, alt and ch");
        const auto index = static_cast<std::size_t>(at - Roads::algorithms.begin());
        if (std::find(chosen.begin(), chosen.end(), index) == chosen.end()) chosen.push_back(index);  // each once, first-seen order
      });
    } else {
      for (std::size_t i = 0; i < Roads::algorithms.size(); ++i) chosen.push_back(i);
    }
    json results = json::array();
    for (const std::size_t i : chosen) {
      const graph::GraphPlanner& planner = *r.planner;
      const graph::Algorithm algorithm = Roads::algorithms[i];
      // Timed without events, then once more recording the settled vertices.
      search::SearchHandle<VertexId> timed = planner.make_search(algorithm, {});
      const Status st = search::run_within(timed, from, to, time.left());
      SettledVertices settled(limits_.max_events);
      search::QueryOptions<VertexId> traced;
      traced.events = &settled;
      search::SearchHandle<VertexId> replay = planner.make_search(algorithm, traced);
      // The replay shares the request's time: one cut short lists fewer settled vertices.
      const Status replayed = search::run_within(replay, from, to, time.left());
      json path = json::array();
      for (const VertexId v : timed.path().nodes) path.push_back(v.value);
      json result = {{"algorithm", graph::to_string(Roads::algorithms[i])},
                     {"cost", st.succeeded() ? json(timed.path().cost) : json(nullptr)},
                     {"path", path},
                     {"settled", settled.settled},
                     {"settled_truncated", settled.truncated || replayed.state != st.state},
                     {"expanded", timed.stats().expanded},
                     {"time_us", timed.stats().time_s * microseconds_per_second}};
      put_status(result, st);
      results.push_back(std::move(result));
    }
    return Response{http_ok, text_of(json{{"graph", Roads::name}, {"from", from.value}, {"to", to.value}, {"results", results}})};
  });
}

}  // namespace waymark::web
