// The regions resource: Dirichlet regions of a grid map from clicked seeds (POST /api/regions).
#include <array>
#include <chrono>
#include <string>
#include <vector>

#include "waymark/core/text.hpp"
#include "waymark/regions/labeling.hpp"
#include "web/request.hpp"

namespace waymark::web {

using grid::CellCoord;

Response Api::regions(std::string_view body) const {
  return guarded([&] {
    const RequestBody read(body, limits_);
    const Field request = read.root();
    const Field seeds_field = request.field("seeds");  // checked before the map is read
    if (seeds_field.kind() != io::json::Kind::array || seeds_field.size() == 0 || seeds_field.size() > limits_.max_region_seeds)
      seeds_field.fail("must be 1 to " + number_text(limits_.max_region_seeds) + " cells [x, y]");
    const grid::GridMap map = request_map(request.field("map"), map_names_, data_dir_, limits_, false);
    std::vector<CellCoord> seeds;
    seeds_field.for_each_item([&](const Field& seed) {
      if (seed.kind() != io::json::Kind::array || seed.size() != 2) seed.fail("must be [x, y]");
      std::array<int, 2> xy{};
      std::size_t i = 0;
      seed.for_each_item([&](const Field& c) {
        xy[i] = c.whole(0, (i == 0 ? map.width() : map.height()) - 1);
        ++i;
      });
      seeds.push_back({xy[0], xy[1]});
    });
    if (const auto problem = regions::find_seed_problem(map, seeds))
      seeds_field.fail("seed " + number_text(problem->index + 1) + ": " + problem->reason);
    regions::GridRegionParams params;
    const std::string metric = request.text("metric", "geodesic");
    if (metric != "geodesic" && metric != "euclidean") request.fail_at("metric", "is geodesic or euclidean");
    params.metric = metric == "geodesic" ? regions::Metric::geodesic : regions::Metric::euclidean;
    const std::string diagonal = request.text("diagonal", "no-corner-cutting");
    const auto rule = grid::parse_diagonal_rule(diagonal);
    if (!rule) request.fail_at("diagonal", "unknown diagonal rule \"" + diagonal + "\"");
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
