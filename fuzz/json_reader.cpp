// Fuzz target: the io module's JSON reader (src/io/json_reader.hpp), which polygon and scene
// files are read through. Input: any text, read with small limits. A document it accepts must
// be the one nlohmann's DOM parser reads from the same text (same values, same order), within
// the limits, with every value's line inside the text and never before the line of the value
// read before it; a refusal must name the source and a line inside the text, and be either
// one the DOM parser also makes or one of the reader's own (depth, repeated key, value count).
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "fuzz_input.hpp"
#include "io/json_reader.hpp"
#include "waymark/core/errors.hpp"

namespace {

using waymark::io::json::Kind;
using waymark::io::json::Value;
using Json = nlohmann::json;

constexpr std::size_t fuzz_max_depth = 8;
constexpr std::size_t fuzz_max_values = 4096;

struct Walk {
  std::size_t lines;
  std::size_t last_line = 1;
  std::size_t values = 0;
  std::size_t deepest = 0;

  void line(std::size_t l) {
    if (l < 1 || l > lines || l < last_line) waymark::fuzz::finding();
    last_line = l;
  }

  /// Whether `v` holds what `j` holds.
  bool same(const Value& v, const Json& j, std::size_t depth) {
    ++values;
    deepest = std::max(deepest, depth);
    line(v.line());
    switch (v.kind()) {
      case Kind::null: return j.is_null();
      case Kind::boolean: return j.is_boolean() && j.get<bool>() == v.boolean();
      case Kind::unsigned_integer:  // also -0, which the DOM keeps as a signed 0
        if (j.is_number_unsigned()) return j.get<std::uint64_t>() == v.magnitude();
        return j.is_number_integer() && j.get<std::int64_t>() == 0 && v.magnitude() == 0;
      case Kind::negative_integer:
        return j.is_number_integer() && !j.is_number_unsigned() && j.get<std::int64_t>() < 0 &&
               static_cast<std::uint64_t>(-(j.get<std::int64_t>() + 1)) + 1 == v.magnitude();
      case Kind::real: return j.is_number_float() && j.get<double>() == v.number();
      case Kind::string: return j.is_string() && j.get_ref<const std::string&>() == v.text();
      case Kind::array: {
        if (!j.is_array() || j.size() != v.size()) return false;
        std::size_t i = 0;
        for (const Value item : v.items()) {
          if (!same(item, j[i++], depth + 1)) return false;
        }
        return i == v.size();
      }
      case Kind::object: {
        if (!j.is_object() || j.size() != v.size()) return false;
        std::size_t n = 0;
        for (const Value::Member m : v.members()) {
          line(m.line);
          const auto it = j.find(std::string(m.key));
          if (it == j.end() || !same(m.value, *it, depth + 1)) return false;
          ++n;
        }
        return n == v.size();
      }
    }
    return false;
  }
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace waymark;
  const std::string_view text = fuzz::text_of(data, size);
  const std::size_t lines = static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n')) + 1;
  io::json::Limits limits;
  limits.max_depth = fuzz_max_depth;
  limits.max_values = fuzz_max_values;
  // The DOM parser's verdict (it keeps the last of repeated keys and has no depth limit).
  Json dom;
  bool dom_ok = true;
  try {
    dom = Json::parse(text.begin(), text.end(), nullptr, /*allow_exceptions=*/true, /*ignore_comments=*/false);
  } catch (const Json::exception&) {
    dom_ok = false;
  }
  try {
    const io::json::Document doc(text, "fuzz.json", limits);
    if (!dom_ok) fuzz::finding();  // accepted what is not JSON
    Walk walk{lines};
    if (!walk.same(doc.root(), dom, 1)) fuzz::finding();
    if (walk.values > fuzz_max_values || walk.deepest > fuzz_max_depth + 1) fuzz::finding();
  } catch (const LoadError& e) {
    if (e.file() != "fuzz.json" || e.reason().empty() || e.line() > lines) fuzz::finding();
    const std::string& r = e.reason();
    const bool own = r.find("appears twice") != std::string::npos || r.find("nested deeper") != std::string::npos ||
                     r.find("values (json::Limits::max_values)") != std::string::npos;
    if (dom_ok && !own) fuzz::finding();  // refused JSON for no reason of its own
  }
  return 0;
}
