#pragma once
// What every resource of the viewer's API shares: HTTP statuses, the refusal it throws, the
// guard that turns refusals into error responses, and the readers of request fields, bundled
// names and maps. Internal to src/web.

#include <nlohmann/json.hpp>

#include <cstddef>
#include <filesystem>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "waymark/core/errors.hpp"
#include "waymark/core/geometry.hpp"
#include "waymark/core/status.hpp"
#include "waymark/grid/grid_map.hpp"
#include "waymark/io/movingai.hpp"
#include "waymark/search/budget.hpp"
#include "web/api.hpp"

namespace waymark::web {

using nlohmann::json;

inline constexpr int http_ok = 200;
inline constexpr int http_bad_request = 400;
inline constexpr int http_not_found = 404;
inline constexpr int http_method_not_allowed = 405;
inline constexpr int http_too_large = 413;
inline constexpr int http_too_many = 429;
inline constexpr double microseconds_per_second = 1e6;

/// A request the API refuses: its HTTP status and the reason sent back.
struct ApiError : std::runtime_error {
  ApiError(int status_code, const std::string& why) : std::runtime_error(why), status(status_code) {}
  int status;
};

/// JSON text; bytes that are not UTF-8 (echoed from a request) become U+FFFD instead of throwing.
[[nodiscard]] std::string text_of(const json& j);

/// {"error": why} with `status`.
[[nodiscard]] Response error(int status, const std::string& why);

/// Runs a handler: refusals and malformed input become error responses, never exceptions.
template <class F>
Response guarded(F&& handler) {
  try {
    return handler();
  } catch (const ApiError& e) {
    return error(e.status, e.what());
  } catch (const json::exception& e) {
    return error(http_bad_request, std::string("malformed JSON: ") + e.what());
  } catch (const LoadError& e) {
    return error(http_bad_request, e.what());
  } catch (const std::bad_alloc&) {
    return error(http_too_large, "the request needs more memory than the server has");
  } catch (const std::exception& e) {
    return error(http_bad_request, e.what());
  }
}

// ---- fields of a request -----------------------------------------------------------------

/// object[key], or 400 "missing field".
const json& field(const json& object, const char* key);
/// A string field, `fallback` when absent or null.
std::string text_field(const json& object, const char* key, const std::string& fallback);
/// A number field, `fallback` when absent or null.
double number_field(const json& object, const char* key, double fallback);
/// An integer in [lo, hi], from a JSON number without a fraction.
int whole_number(const json& v, int lo, int hi, const std::string& what);
/// [x, y], two numbers.
Vec2 plane_point(const json& object, const char* key);
/// The parsed body of a POST: an object, or a refusal (413 over the body limit).
json request_object(std::string_view body, const ApiLimits& limits);

// ---- answers -----------------------------------------------------------------------------

/// A query's outcome into its answer: "status", and "reason" when it failed.
void put_status(json& answer, Status st);
/// A whole query's wall-time budget of `seconds`.
search::Budget time_budget(double seconds);
/// [[x, y], ...]
json points_json(std::span<const Vec2> points);

// ---- bundled files and maps --------------------------------------------------------------

/// Whether a request may name `name`: letters, digits, '_', '-', '.', no "..".
bool valid_name(std::string_view name);
/// The stems of DIR's files ending in `ext` that a request may name, sorted.
std::vector<std::string> bundled_names(const std::filesystem::path& dir, std::string_view ext);
/// DIR/name+ext for a bundled `name` (one of `names`): 400 for a malformed name, 404 for an
/// unknown one; `what` names the kind ("map", "level", ...) in the refusal.
std::filesystem::path bundled_file(const std::vector<std::string>& names, std::string_view name,
                                   const std::filesystem::path& dir, std::string_view ext, std::string_view what);
/// The loader's options under the API's limits; `terrain`: 'S' and 'W' at a cost.
io::MapLoadOptions load_options(const ApiLimits& limits, bool terrain);
/// The request's "map": a bundled one by name, or width, height and rows in Moving AI
/// letters ('.' 'G' free, '@' 'O' 'T' walls, 'S' swamp and 'W' water: terrain).
grid::GridMap request_map(const json& spec, const std::vector<std::string>& names, const std::filesystem::path& data_dir,
                          const ApiLimits& limits, bool terrain);

}  // namespace waymark::web
