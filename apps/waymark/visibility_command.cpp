#include "visibility_command.hpp"

#include <nlohmann/json.hpp>

#include <cmath>
#include <iostream>
#include <limits>
#include <optional>

#include "waymark/core/stopwatch.hpp"
#include "waymark/core/text.hpp"
#include "waymark/io/polygons.hpp"
#include "waymark/render/visibility_png.hpp"
#include "waymark/visibility/visibility_query.hpp"

namespace waymark::cli {

using visibility::VisibilityGraph;
using visibility::VisibilityQuery;
namespace {

Vec2 plane_point_arg(const std::string& text, const char* option) {
  const auto c = finite_numbers<2>(text, option, "x,y");
  return {c[0], c[1]};
}

/// A start or goal the agent cannot stand on is bad input (exit 2), as a blocked cell is for
/// `path`: the message names the obstacle and its line.
void check_end(const VisibilityGraph& g, const io::PolygonFile& file, Vec2 p, const std::string& text,
               const char* option) {
  const std::string r = number_text(g.params().radius);
  if (const auto inside = g.obstacle_at(p)) {
    throw UsageError(std::string(option) + " " + text + " lies inside obstacle " + number_text(*inside) + " (" +
                     file.name + ":" + number_text(file.polygon_lines[*inside]) + ") inflated by radius " + r);
  }
  if (!g.standable(p)) {
    throw UsageError(std::string(option) + " " + text + " lies outside the bounds (" + file.name + ":" +
                     number_text(file.bounds_line) + ") shrunk by radius " + r);
  }
}

}  // namespace

CLI::App* add_visibility_command(CLI::App& app, VisibilityArgs& a) {
  CLI::App* cmd = app.add_subcommand("visibility", "shortest paths among polygon obstacles (points of visibility)");
  cmd->add_option("--polygons", a.polygons, "obstacle file: JSON {\"polygons\": [[[x,y],...],...], \"points\", \"bounds\"}")
      ->required();
  cmd->add_option("--from", a.from, "start point x,y")->required();
  cmd->add_option("--to", a.to, "goal point x,y")->required();
  cmd->add_option("--radius", a.radius, "agent radius: clearance kept from every polygon, world units")->capture_default_str();
  cmd->add_option("--arc-step", a.arc_step,
                  "largest angle between the sides of an inflated corner, degrees (1-90; smaller: rounder, more points)")
      ->capture_default_str();
  cmd->add_option("--time-limit", a.time_limit_s,
                  "stop building the graph after this many seconds, exit 2 saying what it finished (0: none)")
      ->capture_default_str();
  cmd->add_option("--max-edges", a.max_edges, "refuse a graph of more edges than this, exit 2 (about 40 bytes each)")
      ->capture_default_str();
  cmd->add_flag("--no-corners", a.no_corners, "only the file's hand-placed points (paths are no longer the shortest)");
  cmd->add_flag("--json", a.json,
                "one JSON object: status, length, path [[x,y],...], points, edges, overlay_arcs, expanded, time_us, "
                "build_ms (a build stopped by --time-limit or --max-edges: status \"stopped\", reason, limit, points, "
                "points_done, edges_found, build_ms)");
  cmd->add_option("--png", a.png,
                  "write a picture of the obstacles (and their inflation by --radius), the visibility edges and the "
                  "path, with a legend, to this PNG");
  cmd->add_option("--svg", a.svg, "write the --png picture as SVG to this file");
  return cmd;
}

int run_visibility(const VisibilityArgs& a) {
  return guarded([&] {
    const Vec2 from = plane_point_arg(a.from, "--from");
    const Vec2 to = plane_point_arg(a.to, "--to");
    if (!(std::isfinite(a.radius) && a.radius >= 0 && a.radius <= visibility::max_abs_coordinate)) {
      throw UsageError("--radius must be a finite number from 0 to 1e6, got " + number_text(a.radius));
    }
    if (!(a.arc_step >= 1 && a.arc_step <= 90)) {
      throw UsageError("--arc-step must be from 1 to 90 degrees, got " + number_text(a.arc_step));
    }
    (void)time_limit(a.time_limit_s);  // checks it
    const std::size_t max_edges = checked_positive(a.max_edges, "--max-edges");
    const io::PolygonFile file = io::load_polygons(a.polygons);
    const visibility::VisibilityParams params{
        .radius = a.radius,
        .arc_step_degrees = a.arc_step,
        .corner_points = !a.no_corners,
        .max_edges = max_edges,
        .max_seconds = a.time_limit_s > 0 ? a.time_limit_s : std::numeric_limits<double>::infinity()};
    const Stopwatch build_time;
    const VisibilityGraph graph = [&] {
      try {
        return VisibilityGraph(file.obstacles, params);
      } catch (const visibility::BudgetExceeded& e) {
        // Stopped by a budget: what it finished, as JSON too, then the one-line message (exit 2).
        if (a.json) {
          std::cout << nlohmann::ordered_json{{"status", "stopped"},
                                              {"reason", e.limit_name()},
                                              {"limit", e.limit() == visibility::BudgetExceeded::Limit::time
                                                            ? nlohmann::ordered_json(params.max_seconds)
                                                            : nlohmann::ordered_json(params.max_edges)},
                                              {"points", e.point_count()},
                                              {"points_done", e.points_done()},
                                              {"edges_found", e.edges_found()},
                                              {"build_ms", build_time.seconds() * milliseconds_per_second}}
                           .dump()
                    << "\n"
                    << std::flush;  // before the message on stderr
        }
        throw file.error(e);
      } catch (const visibility::InputError& e) {
        throw file.error(e);
      }
    }();
    const double build_ms = build_time.seconds() * milliseconds_per_second;
    check_end(graph, file, from, a.from, "--from");
    check_end(graph, file, to, a.to, "--to");

    VisibilityQuery query(graph);
    const Stopwatch t;
    const Status st = query.find_path(from, to);
    const double time_us = t.seconds() * microseconds_per_second;
    const visibility::VisibilityPath& p = query.path();
    if (a.json) {
      nlohmann::ordered_json path = nlohmann::ordered_json::array();
      for (const Vec2 q : p.points) path.push_back({q.x, q.y});
      std::cout << nlohmann::ordered_json{{"status", st.succeeded() ? "success" : "failure"},
                                          {"length", st.succeeded() ? nlohmann::ordered_json(p.length) : nullptr},
                                          {"path", path},
                                          {"points", graph.point_count()},
                                          {"edges", graph.edge_count()},
                                          {"overlay_arcs", query.overlay_arc_count()},
                                          {"expanded", query.stats().expanded},
                                          {"time_us", time_us},
                                          {"build_ms", build_ms}}
                       .dump()
                << "\n";
    } else {
      if (st.succeeded()) {
        std::cout << "success: length " << p.length << ", " << p.points.size() << " points\npath:";
        for (const Vec2 q : p.points) std::cout << " " << q.x << "," << q.y;
        std::cout << "\n";
      } else {
        std::cout << "failure: " << failure_reason(st) << "\n";
      }
      std::cout << "graph: " << graph.point_count() << " points, " << graph.edge_count() << " edges, built in " << build_ms
                << " ms; query: " << query.overlay_arc_count() << " overlay arcs, " << query.stats().expanded
                << " expanded, " << time_us << " us\n";
    }
    const std::span<const Vec2> drawn = st.succeeded() ? std::span<const Vec2>(p.points) : std::span<const Vec2>();
    write_pictures(a.png, a.svg, [&](const std::string& out, render::PictureFormat format) {
      return render::write_visibility_picture(graph, drawn, out, {}, format);
    }, render::picture_shapes(graph));
    return st.succeeded() ? exit_ok : exit_not_found;
  });
}

}  // namespace waymark::cli
