#include "graph_command.hpp"

#include <nlohmann/json.hpp>

#include <iostream>
#include <vector>

#include "trace.hpp"
#include "waymark/core/stopwatch.hpp"
#include "waymark/core/text.hpp"
#include "waymark/graph/graph_planner.hpp"
#include "waymark/io/graph_loaders.hpp"

namespace waymark::cli {

using namespace graph;  // NOLINT: this file is the graph command
using namespace io;
namespace {

LoadedGraph load_graph(const GraphArgs& a) {
  const bool dimacs = !a.gr.empty(), lists = !a.nodes.empty() || !a.edges.empty();
  if (dimacs == lists) throw UsageError("give either --gr FILE [--co FILE] or --nodes FILE --edges FILE");
  if (dimacs) {
    if (a.undirected) throw UsageError("--undirected applies to --nodes/--edges lists (DIMACS arcs are directed)");
    return load_dimacs_graph(a.gr, a.co);
  }
  if (a.nodes.empty() || a.edges.empty()) throw UsageError("--nodes and --edges go together");
  if (!a.co.empty()) throw UsageError("--co goes with --gr");
  return load_node_edge_lists(a.nodes, a.edges, a.undirected ? EdgeDirection::undirected : EdgeDirection::directed);
}

VertexId vertex_arg(const LoadedGraph& g, std::int64_t id, const char* option) {
  const auto v = g.ids.to_vertex(id);
  if (!v) {
    const std::string range = g.ids.count() == 0 ? "none" : number_text(g.ids.first()) + ".." +
                                                                number_text(g.ids.first() + static_cast<std::int64_t>(g.ids.count()) - 1);
    throw UsageError(std::string(option) + " " + number_text(id) + ": no such vertex (ids " + range + ")");
  }
  return *v;
}

nlohmann::ordered_json distance_json(const search::SearchHandle<VertexId>& search, bool found) {
  return found ? nlohmann::ordered_json(search.path().cost) : nlohmann::ordered_json(nullptr);
}

}  // namespace

CLI::App* add_graph_command(CLI::App& app, GraphArgs& a) {
  CLI::App* cmd = app.add_subcommand(
      "graph", "shortest paths on a road graph (DIMACS .gr/.co or node/edge lists), ids as in the files");
  cmd->add_option("--gr", a.gr, "DIMACS 9th challenge .gr file (vertex ids from 1)");
  cmd->add_option("--co", a.co, "DIMACS .co coordinates for --gr (needed by astar)");
  cmd->add_option("--nodes", a.nodes, "node list: 'id x y' per line (ids from 0)");
  cmd->add_option("--edges", a.edges, "edge list: 'edge_id u v length' per line");
  cmd->add_flag("--undirected", a.undirected, "edge-list lines are two-way (default: one-way u -> v)");
  cmd->add_option("--from", a.from, "source vertex id");
  cmd->add_option("--to", a.to, "target vertex id");
  cmd->add_option("--queries", a.queries,
                  "file of 'u v' lines; prints one JSON object per query: from, to, distance (null when "
                  "unreachable), path_vertices");
  cmd->add_option("--algorithm,-a", a.algorithm, choices(algorithm_names))->capture_default_str();
  cmd->add_option("--load", a.load, "alt|ch|table: read the preprocessing from this file instead of building it");
  cmd->add_option("--save", a.save, "alt|ch|table: write the preprocessing to this file");
  cmd->add_option("--landmarks", a.landmarks, "alt: number of landmarks (default 16)");
  cmd->add_option("--max-nodes", a.max_nodes, "stop a query after this many expansions (>= 1)")->capture_default_str();
  cmd->add_option("--time-limit", a.time_limit_s, "stop a query after this many seconds (default: none)");
  cmd->add_flag("--json", a.json, "machine-readable output (single query)");
  cmd->add_option("--trace", a.trace,
                  "single query: write the search's events to this file as JSON lines (vertices as file ids; "
                  "\"direction\":\"backward\" for the backward side of bidijkstra and ch)");
  return cmd;
}

int run_graph(const GraphArgs& a) {
  return guarded([&] {
    const auto algorithm = parse_algorithm(a.algorithm);
    if (!algorithm) throw UsageError("unknown algorithm '" + a.algorithm + "' (" + choices(algorithm_names) + ")");
    const bool single = a.from.has_value() || a.to.has_value();
    if (single == !a.queries.empty()) throw UsageError("give either --from U --to V or --queries FILE");
    if (single && !(a.from && a.to)) throw UsageError("--from and --to go together");
    if (!a.trace.empty() && !single) throw UsageError("--trace goes with --from/--to (one query)");
    if (!has_preprocessing(*algorithm) && (!a.load.empty() || !a.save.empty()))
      throw UsageError("--load/--save apply to alt, ch and table");
    if (a.landmarks && *algorithm != Algorithm::alt) throw UsageError("--landmarks applies to alt");

    search::Budget limit = time_limit(a.time_limit_s);
    limit.expansions = checked_positive(a.max_nodes, "--max-nodes");
    const LoadedGraph g = load_graph(a);
    if (const auto why = graph_planner_unsupported(g.graph, *algorithm)) throw UsageError(*why);
    // Ids are checked before any preprocessing, so a typo fails fast.
    std::vector<VertexPair> pairs;
    if (single) {
      pairs.push_back({vertex_arg(g, *a.from, "--from"), vertex_arg(g, *a.to, "--to"), 0});
    } else {
      pairs = load_vertex_pairs(a.queries, g.ids);
    }
    GraphPlannerOptions options;
    options.algorithm = *algorithm;
    options.load_from = a.load;
    if (a.landmarks) {
      options.landmarks.count =
          checked_count(*a.landmarks, 1, static_cast<std::int64_t>(LandmarkParams::max_count), "--landmarks");
    }
    GraphPlanner planner(g.graph, options);
    search::SearchHandle<VertexId> search = planner.make_search();
    if (!a.save.empty()) planner.save_preprocessing(a.save);

    if (single) {
      const Status st = search::run_within(search, pairs[0].from, pairs[0].to, limit);
      nlohmann::ordered_json path = nlohmann::ordered_json::array();
      for (const VertexId v : search.path().nodes) path.push_back(g.ids.to_file(v));
      if (a.json) {
        std::cout << nlohmann::ordered_json{{"from", *a.from},
                                    {"to", *a.to},
                                    {"algorithm", a.algorithm},
                                    {"distance", distance_json(search, st.succeeded())},
                                    {"reason", st.succeeded() ? nlohmann::ordered_json(nullptr)
                                                              : nlohmann::ordered_json(failure_reason(st))},
                                    {"path_vertices", search.path().nodes.size()},
                                    {"path", path},
                                    {"expanded", search.stats().expanded},
                                    {"time_us", search.stats().time_s * microseconds_per_second},
                                    {"preprocess_s", planner.preprocess_s()},
                                    {"preprocess_bytes", planner.preprocess_bytes()}}
                         .dump()
                  << "\n";
      } else if (st.succeeded()) {
        std::cout << "distance " << search.path().cost << " over " << search.path().nodes.size() << " vertices, "
                  << search.stats().expanded << " expanded, " << search.stats().time_s * microseconds_per_second << " us\n"
                  << "path: " << path.dump() << "\n";
      } else {
        std::cout << "no path from " << *a.from << " to " << *a.to;
        if (st.reason() != FailureReason::unreachable) std::cout << ": " << failure_reason(st);
        std::cout << "\n";
      }
      if (!a.trace.empty()) {  // once more with events on, so the timed query above is not slowed
        const auto spell = [&g](VertexId v) { return number_text(g.ids.to_file(v)); };
        TraceWriter<VertexId, decltype(spell)> writer(a.trace, spell);
        search::SearchHandle<VertexId> traced = planner.make_search({.events = &writer});
        search::run_within(traced, pairs[0].from, pairs[0].to, limit);
        writer.finish();
      }
      return st.succeeded() ? exit_ok : exit_not_found;
    }

    double total_s = 0;
    std::size_t reachable = 0;
    for (const VertexPair& q : pairs) {
      const Status st = search::run_within(search, q.from, q.to, limit);
      total_s += search.stats().time_s;
      reachable += st.succeeded() ? 1 : 0;
      std::cout << nlohmann::ordered_json{{"from", g.ids.to_file(q.from)},
                                  {"to", g.ids.to_file(q.to)},
                                  {"distance", distance_json(search, st.succeeded())},
                                  {"path_vertices", search.path().nodes.size()}}
                       .dump()
                << "\n";
    }
    std::cerr << pairs.size() << " queries, " << reachable << " reachable, mean "
              << (pairs.empty() ? 0.0 : total_s * microseconds_per_second / static_cast<double>(pairs.size()))
              << " us/query (" << a.algorithm << ")";
    if (has_preprocessing(*algorithm))
      std::cerr << "; preprocessing " << planner.preprocess_s() << " s, "
                << static_cast<double>(planner.preprocess_bytes()) / bytes_per_mib << " MiB";
    std::cerr << "\n";
    return exit_ok;
  });
}

}  // namespace waymark::cli
