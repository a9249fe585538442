// The API's route table: one list of method + path -> handler, and the dispatch by it.
#include "web/api.hpp"

#include <array>
#include <string>
#include <string_view>

#include "web/navmesh_level.hpp"
#include "web/request.hpp"
#include "web/session_store.hpp"

namespace waymark::web {
namespace {

/// The query parameter `key`, `fallback` when absent.
std::string_view param(const Request& request, const std::string& key, std::string_view fallback) {
  const auto it = request.params.find(key);
  return it == request.params.end() ? fallback : std::string_view(it->second);
}

struct Route {
  std::string_view method;
  std::string_view path;
  Response (*handle)(const Api& api, const Request& request);
};

/// Every resource, in the order of the page's views. docs/viewer.md describes each.
constexpr std::array routes{
    Route{"GET", "/api/maps", [](const Api& api, const Request&) { return api.maps(); }},
    Route{"GET", "/api/map",
          [](const Api& api, const Request& r) {
            if (!r.params.contains("name")) throw ApiError(http_bad_request, "/api/map needs ?name=");
            return api.map(param(r, "name", ""));
          }},
    Route{"POST", "/api/path", [](const Api& api, const Request& r) { return api.path(r.body); }},
    Route{"POST", "/api/puzzle", [](const Api& api, const Request& r) { return api.puzzle(r.body); }},
    Route{"GET", "/api/graph", [](const Api& api, const Request& r) { return api.graph(param(r, "name", Api::default_graph)); }},
    Route{"POST", "/api/route", [](const Api& api, const Request& r) { return api.route(r.body); }},
    Route{"GET", "/api/navmesh",
          [](const Api& api, const Request& r) { return api.navmesh(param(r, "name", Api::default_level)); }},
    Route{"POST", "/api/navmesh/path", [](const Api& api, const Request& r) { return api.navmesh_path(r.body); }},
    Route{"POST", "/api/navmesh/obstacle", [](const Api& api, const Request& r) { return api.navmesh_obstacle(r.body, r.client); }},
    Route{"POST", "/api/navmesh/obstacle/remove",
          [](const Api& api, const Request& r) { return api.navmesh_obstacle_remove(r.body); }},
    Route{"POST", "/api/navmesh/stop", [](const Api& api, const Request& r) { return api.navmesh_stop(r.body); }},
    Route{"POST", "/api/visibility", [](const Api& api, const Request& r) { return api.visibility(r.body); }},
    Route{"POST", "/api/regions", [](const Api& api, const Request& r) { return api.regions(r.body); }},
    Route{"POST", "/api/sim/start", [](const Api& api, const Request& r) { return api.sim_start(r.body, r.client); }},
    Route{"POST", "/api/sim/step", [](const Api& api, const Request& r) { return api.sim_step(r.body); }},
    Route{"POST", "/api/sim/add", [](const Api& api, const Request& r) { return api.sim_add(r.body); }},
    Route{"POST", "/api/sim/stop", [](const Api& api, const Request& r) { return api.sim_stop(r.body); }},
    Route{"POST", "/api/sim/edit", [](const Api& api, const Request& r) { return api.sim_edit(r.body); }},
    Route{"POST", "/api/sim/obstacle", [](const Api& api, const Request& r) { return api.sim_obstacle(r.body); }},
    Route{"POST", "/api/sim/order", [](const Api& api, const Request& r) { return api.sim_order(r.body); }},
    Route{"POST", "/api/sim/world", [](const Api& api, const Request& r) { return api.sim_world(r.body); }},
};

}  // namespace

Api::~Api() = default;

Response Api::handle(const Request& request) const {
  return guarded([&] {
    for (const Route& route : routes) {
      if (route.path != request.path) continue;
      // HEAD is answered as GET (RFC 9110 §9.3.2); the server sends the head of the reply only.
      if (route.method != request.method && !(request.method == "HEAD" && route.method == "GET"))
        throw ApiError(http_method_not_allowed,
                       request.path + " takes " + std::string(route.method) + ", not " + request.method);
      return route.handle(*this, request);
    }
    throw ApiError(http_not_found, "no API " + request.path);
  });
}

}  // namespace waymark::web
