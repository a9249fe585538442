// The regions resource: Dirichlet regions of a grid map from clicked seeds (POST /api/regions).
#include <chrono>
#include <string>
#include <vector>

#include "waymark/regions/labeling.hpp"
#include "web/request.hpp"

namespace waymark::web {

using grid::CellCoord;

Response Api::regions(std::string_view body) const {
  return guarded([&] {
    const json request = request_object(body, limits_);
    const grid::GridMap map = request_map(field(request, "map"), map_names_, data_dir_, limits_, false);
    const json& seeds_json = field(request, "seeds");
    if (!seeds_json.is_array() || seeds_json.empty() || seeds_json.size() > limits_.max_region_seeds)
      throw ApiError(http_bad_request,
                     "\"seeds\" must be 1 to " + std::to_string(limits_.max_region_seeds) + " cells [x, y]");
    std::vector<CellCoord> seeds;
    for (std::size_t i = 0; i < seeds_json.size(); ++i) {
      const json& c = seeds_json[i];
      const std::string what = "\"seeds\"[" + std::to_string(i) + "]";
      if (!c.is_array() || c.size() != 2) throw ApiError(http_bad_request, what + " must be [x, y]");
      seeds.push_back({whole_number(c[0], 0, map.width() - 1, what + "[0]"), whole_number(c[1], 0, map.height() - 1, what + "[1]")});
    }
    if (const auto problem = regions::find_seed_problem(map, seeds))
      throw ApiError(http_bad_request, "seed " + std::to_string(problem->index + 1) + ": " + problem->reason);
    regions::GridRegionParams params;
    const std::string metric = text_field(request, "metric", "geodesic");
    if (metric != "geodesic" && metric != "euclidean") throw ApiError(http_bad_request, "\"metric\" is geodesic or euclidean");
    params.metric = metric == "geodesic" ? regions::Metric::geodesic : regions::Metric::euclidean;
    const std::string diagonal = text_field(request, "diagonal", "no-corner-cutting");
    const auto rule = grid::parse_diagonal_rule(diagonal);
    if (!rule) throw ApiError(http_bad_request, "unknown diagonal rule \"" + diagonal + "\"");
    params.diagonal = *rule;
    const auto started = std::chrono::steady_clock::now();
    const regions::Regions r = regions::label_grid(map, seeds, params);
    const double us = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - started).count();
    json labels = json::array();
    for (const regions::RegionId id : r.labels()) labels.push_back(id == regions::no_region ? -1 : static_cast<std::int64_t>(id));
    return Response{http_ok, text_of(json{{"regions", r.region_count()},
                                          {"width", map.width()},
                                          {"height", map.height()},
                                          {"labels", labels},
                                          {"sizes", r.sizes()},
                                          {"time_us", us}})};
  });
}

}  // namespace waymark::web
