#pragma once
// What every resource of the viewer's API shares: HTTP statuses, the refusal it throws, the
// guard that turns refusals into error responses, the request's fields, and the readers of
// bundled names and maps. Internal to src/web.
//
// Requests are read by the io module's one JSON reader (io/json_reader.hpp: a line per value,
// nesting limited, a key given twice refused); a bad value is refused with the document's
// fail(), 400 `request:LINE: path: reason`. nlohmann-json only writes the replies.

#include <nlohmann/json.hpp>

#include <cstddef>
#include <filesystem>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "io/json_reader.hpp"
#include "waymark/core/errors.hpp"
#include "waymark/core/geometry.hpp"
#include "waymark/core/status.hpp"
#include "waymark/grid/grid_map.hpp"
#include "waymark/io/movingai.hpp"
#include "waymark/search/budget.hpp"
#include "web/api.hpp"
#include "web/http_status.hpp"

namespace waymark::navmesh {
class NavMesh;
}

namespace waymark::web {

using nlohmann::json;

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
  } catch (const LoadError& e) {  // the request's JSON or a value in it; a map in it
    return error(http_bad_request, e.what());
  } catch (const std::bad_alloc&) {  // every request is bounded by the limits: the server is short of memory now
    return error(http_unavailable, "the server ran out of memory answering this request; try again (Retry-After)");
  } catch (const std::exception& e) {
    return error(http_bad_request, e.what());
  }
}

// ---- fields of a request -----------------------------------------------------------------

/// How deep a request's arrays and objects may nest (the deepest the API reads is 3: a seed of
/// a list of seeds in the request).
inline constexpr std::size_t max_request_depth = 16;

/// A value of a request and where it is: every refusal of it names its line and path.
class Field {
 public:
  Field(const io::json::Document& doc, io::json::Value value, io::json::Steps at)
      : doc_(&doc), value_(value), at_(std::move(at)) {}

  [[nodiscard]] io::json::Value value() const { return value_; }
  [[nodiscard]] io::json::Kind kind() const { return value_.kind(); }
  [[nodiscard]] bool is_null() const { return kind() == io::json::Kind::null; }
  /// Elements of an array, members of an object; 0 otherwise.
  [[nodiscard]] std::size_t size() const { return value_.size(); }

  /// Refuses the request for this value: LoadError `request:LINE: path: reason` (400).
  [[noreturn]] void fail(const std::string& reason) const { doc_->fail(at_, reason); }
  /// Refuses the request for its member `key` (given, or the path names where it would be).
  [[noreturn]] void fail_at(const char* key, const std::string& reason) const;

  /// The member `key` of an object, when given (null included).
  [[nodiscard]] std::optional<Field> find(const char* key) const;
  /// The member `key`, or 400 "missing field".
  [[nodiscard]] Field field(const char* key) const;
  /// A string member, `fallback` when absent or null.
  [[nodiscard]] std::string text(const char* key, const std::string& fallback) const;
  /// A number member, `fallback` when absent or null.
  [[nodiscard]] double number(const char* key, double fallback) const;
  /// This value as an integer in [lo, hi] (a JSON number without a fraction).
  [[nodiscard]] int whole(int lo, int hi) const;
  /// The member `key` as [x, y], two numbers.
  [[nodiscard]] Vec2 plane_point(const char* key) const;
  /// Calls f(Field) for each element of an array, in order.
  template <class F>
  void for_each_item(F&& f) const {
    std::size_t i = 0;
    for (const io::json::Value v : value_.items()) f(item(v, i++));
  }

 private:
  [[nodiscard]] Field item(io::json::Value v, std::size_t index) const;
  [[nodiscard]] io::json::Steps member_steps(const char* key) const;
  const io::json::Document* doc_;
  io::json::Value value_;
  io::json::Steps at_;
};

/// The body of a POST, read: a JSON object, or a refusal (413 over the body limit; 400 for
/// text that is not JSON, a key given twice, nesting deeper than max_request_depth or a body
/// that is not an object). Neither copied nor moved: its fields point into it.
class RequestBody {
 public:
  RequestBody(std::string_view body, const ApiLimits& limits);
  RequestBody(const RequestBody&) = delete;
  RequestBody& operator=(const RequestBody&) = delete;

  /// The request object.
  [[nodiscard]] Field root() const { return {doc_, doc_.root(), {}}; }

 private:
  io::json::Document doc_;
};

// ---- answers -----------------------------------------------------------------------------

/// A query's outcome into its answer: "status", and "reason" when it failed.
void put_status(json& answer, Status st);
/// A whole query's wall-time budget of `seconds`, from 0 (NaN too) to 10^6 s (11.6 days: far
/// within the clock's range, so a search::Deadline from it cannot overflow). One request's
/// searches and builds share one search::Deadline of max_query_seconds: a route's algorithms,
/// each timed and replayed; a visibility build and its query; a navmesh path in both modes.
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
grid::GridMap request_map(const Field& spec, const std::vector<std::string>& names, const std::filesystem::path& data_dir,
                          const ApiLimits& limits, bool terrain);
/// The request's member `key` as a point on `mesh`: [x, y, z], or [x, z] in plan (then the
/// height is found: the polygon under or over it nearest the middle of the level's height,
/// within half a unit in plan; the point returned lies on it). 400 off the mesh.
Vec3 level_point(const Field& request, const char* key, const navmesh::NavMesh& mesh);

}  // namespace waymark::web
