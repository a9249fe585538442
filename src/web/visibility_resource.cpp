// The visibility resource: points of visibility among a bundled polygon file's obstacles,
// and a path (POST /api/visibility).
#include <algorithm>
#include <optional>
#include <string>

#include "waymark/io/polygons.hpp"
#include "waymark/visibility/visibility_query.hpp"
#include "web/request.hpp"
#include "waymark/core/text.hpp"

namespace waymark::web {

Response Api::visibility(std::string_view body) const {
  return guarded([&] {
    const search::Deadline time(time_budget(limits_.max_query_seconds));
    const RequestBody read(body, limits_);
    const Field request = read.root();
    const std::string name = request.text("name", "rooms");
    const io::PolygonFile file =
        io::load_polygons(bundled_file(polygon_names_, name, data_dir_ / "polygons", ".json", "polygon file").string());
    visibility::VisibilityParams params;
    params.radius = request.number("radius", 0.5);
    if (!(params.radius >= 0 && params.radius <= limits_.max_agent_radius))
      request.fail_at("radius", "must be from 0 to " + number_text(limits_.max_agent_radius));
    std::optional<visibility::VisibilityGraph> graph;
    params.max_seconds = std::max(time.seconds_left(), 1e-9);  // a build is a query's work here
    try {
      graph.emplace(file.obstacles, params);
    } catch (const visibility::InputError& e) {
      throw ApiError(http_bad_request, file.error(e).what());
    }
    json obstacles = json::array();
    for (std::uint32_t i = 0; i < graph->obstacle_count(); ++i) obstacles.push_back(points_json(graph->obstacle(i)));
    json parts = json::array();
    for (std::uint32_t i = 0; i < graph->part_count(); ++i) parts.push_back(points_json(graph->part(i)));
    json edges = json::array();
    for (std::uint32_t i = 0; i < graph->point_count(); ++i)
      for (const visibility::VisibilityArc& arc : graph->arcs(i))
        if (i < arc.to) edges.push_back({i, arc.to});
    json reply = {{"name", name},
                  {"radius", params.radius},
                  {"obstacles", obstacles},
                  {"parts", parts},
                  {"points", points_json(graph->points())},
                  {"edges", edges}};
    if (const auto& b = graph->bounds()) reply["bounds"] = {{b->min.x, b->min.y}, {b->max.x, b->max.y}};
    if (request.find("from") || request.find("to")) {
      visibility::VisibilityQuery query(*graph);
      query.begin(request.plane_point("from"), request.plane_point("to"));
      query.step(time.left());
      const visibility::VisibilityPath& path = query.path();
      json result = {{"points", points_json(path.points)},
                     {"length", path.length},
                     {"expanded", query.stats().expanded},
                     {"time_us", query.stats().time_s * microseconds_per_second}};
      put_status(result, path.status);
      reply["path"] = result;
    }
    return Response{http_ok, text_of(reply)};
  });
}

}  // namespace waymark::web
