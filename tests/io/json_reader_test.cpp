// The io module's JSON reader (src/io/json_reader.hpp): a line for every value and key, the
// limits (depth, value count, size) and repeated keys refused while reading, errors as
// file:line: path: reason, and documents compared with nlohmann's DOM parser on random JSON.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "io/json_reader.hpp"
#include "support/error_text.hpp"

namespace waymark::io_json_reader_test {
namespace {

using io::json::Document;
using io::json::Kind;
using io::json::Limits;
using io::json::Steps;
using io::json::Value;

std::string error(const std::string& text, const Limits& limits = {}) {
  return test::error_text<LoadError>([&] { const Document doc(text, "t.json", limits); });
}

TEST(JsonReader, EveryValueAndKeyHasItsLine) {
  const std::string text = "{\n  \"a\": [1,\n        2.5e0,\n   \"s\"],\n  \"b\":\n    {\"c\": null},\n  \"d\": true\n}";
  const Document doc(text, "t.json");
  const Value root = doc.root();
  EXPECT_EQ(root.kind(), Kind::object);
  EXPECT_EQ(root.line(), 1u);
  ASSERT_EQ(root.size(), 3u);
  const auto a = root.find("a");
  ASSERT_TRUE(a);
  EXPECT_EQ(a->line, 2u);
  std::vector<std::size_t> lines;
  for (const Value v : a->value.items()) lines.push_back(v.line());
  EXPECT_EQ(lines, (std::vector<std::size_t>{2, 3, 4}));
  const auto b = root.find("b");
  EXPECT_EQ(b->line, 5u);
  EXPECT_EQ(b->value.line(), 6u);  // its opening brace
  EXPECT_EQ(b->value.find("c")->value.kind(), Kind::null);
  EXPECT_EQ(root.find("d")->line, 7u);
  EXPECT_FALSE(root.find("e"));
  // Paths to lines: a key's line for a member, the deepest reached for a path that stops.
  EXPECT_EQ(doc.line_of({{"a", 0, false}, {{}, 2, true}}), 4u);
  EXPECT_EQ(doc.line_of({{"b", 0, false}}), 5u);
  EXPECT_EQ(doc.line_of({{"b", 0, false}, {"missing", 0, false}}), 5u);
  EXPECT_EQ(doc.line_of({}), 0u);
  // Members keep the order written.
  std::string keys;
  for (const Value::Member m : root.members()) keys += std::string(m.key);
  EXPECT_EQ(keys, "abd");
}

TEST(JsonReader, NumbersKeepTheirKindAndSpelling) {
  const Document doc("[0, -0, 7, -3, 18446744073709551615, -9223372036854775808, 2.50, 1E3, 18446744073709551616]", "t.json");
  std::vector<Value> v;
  for (const Value x : doc.root().items()) v.push_back(x);
  ASSERT_EQ(v.size(), 9u);
  EXPECT_EQ(v[1].kind(), Kind::unsigned_integer);  // -0
  EXPECT_EQ(v[3].kind(), Kind::negative_integer);
  EXPECT_EQ(v[3].magnitude(), 3u);
  EXPECT_EQ(v[3].number(), -3.0);
  EXPECT_EQ(v[4].magnitude(), 18446744073709551615u);
  EXPECT_EQ(v[5].magnitude(), 9223372036854775808u);
  EXPECT_EQ(v[6].kind(), Kind::real);
  EXPECT_EQ(v[6].describe(), "2.50");  // as written
  EXPECT_EQ(v[7].number(), 1000.0);
  EXPECT_EQ(v[8].kind(), Kind::real);  // beyond 2^64 - 1
  EXPECT_EQ(v[8].describe(), "18446744073709551616");
  EXPECT_EQ(v[3].describe(), "-3");
}

TEST(JsonReader, RefusalsNameFileLinePathAndReason) {
  EXPECT_EQ(error("{\"a\": 1,\n \"a\": 2}"), "t.json:2: a: key 'a' appears twice");
  EXPECT_EQ(error("{\"a\": [{\"b\": 1, \"b\": 2}]}"), "t.json:1: a[0].b: key 'b' appears twice");
  EXPECT_EQ(error("[[[1]]]", {.max_depth = 2}), "t.json:1: [0][0]: nested deeper than 2 arrays and objects");
  EXPECT_EQ(error("[1, 2, 3]", {.max_values = 3}), "t.json:1: [2]: more than 3 values (json::Limits::max_values)");
  EXPECT_EQ(error("[1, 2]", {.max_bytes = 5}), "t.json: larger than 5 bytes (json::Limits::max_bytes)");
  EXPECT_EQ(error("{\"x\":\n [1, NaN]}"), "t.json:2: invalid JSON: NaN is not a JSON number (JSON numbers are finite)");
  EXPECT_EQ(error("{\"x\":\n [1, -1e999]}"), "t.json:2: x[1]: must be a finite number, got -1e999 (beyond the range of a double)");
  EXPECT_EQ(error("[1,\n\n 2,]"), "t.json:3: invalid JSON: syntax error while parsing value - unexpected ']'; expected '[', '{', or a literal");
  EXPECT_EQ(error("[1] // no comments"), "t.json:1: invalid JSON: syntax error while parsing value - invalid literal; last read: '1] /'; expected end of input");
  EXPECT_EQ(error(""), "t.json:1: invalid JSON: syntax error while parsing value - unexpected end of input; expected '[', '{', or a literal");
  // What a schema refuses, in the same form.
  const Document doc("{\"list\": [\n  {\"k\": 1}]}", "t.json");
  EXPECT_EQ(test::error_text<LoadError>([&] { doc.fail({{"list", 0, false}, {{}, 0, true}, {"k", 0, false}}, "too big"); }),
            "t.json:2: list[0].k: too big");
  const Steps line_at{{"list", 0, false}};
  EXPECT_EQ(test::error_text<LoadError>([&] { doc.fail({}, "whole", &line_at); }), "t.json:1: whole");
  // Keys that are not identifiers are quoted in paths.
  EXPECT_EQ(error("{\"a b\": {\"c\": 1, \"c\": 1}}"), "t.json:1: ['a b'].c: key 'c' appears twice");
}

TEST(JsonReader, ReadTextStopsAtItsLimit) {
  std::istringstream small("[1, 2]");
  EXPECT_EQ(io::json::read_text(small, "t.json", 6), "[1, 2]");
  std::istringstream big(std::string(100, ' '));
  EXPECT_EQ(test::error_text<LoadError>([&] { (void)io::json::read_text(big, "t.json", 99, "the limit"); }),
            "t.json: larger than 99 bytes (the limit)");
}

/// A random JSON text: nested arrays and objects of scalars, spread over lines.
std::string random_json(std::mt19937& rng, int depth) {
  const int pick = std::uniform_int_distribution<int>(0, depth > 3 ? 5 : 7)(rng);
  const auto ws = [&] { return std::string(rng() % 3 == 0 ? "\n " : " "); };
  switch (pick) {
    case 0: return "null";
    case 1: return rng() % 2 ? "true" : "false";
    case 2: return std::to_string(static_cast<int>(rng() % 2001) - 1000);
    case 3: return std::to_string(std::uniform_real_distribution<double>(-1e6, 1e6)(rng));
    case 4: return std::to_string(rng());
    case 5: return "\"s" + std::to_string(rng() % 100) + "\\n\\u00e9\"";
    case 6: {
      std::string out = "[";
      const int n = static_cast<int>(rng() % 5);
      for (int i = 0; i < n; ++i) out += (i ? "," : "") + ws() + random_json(rng, depth + 1);
      return out + ws() + "]";
    }
    default: {
      std::string out = "{";
      const int n = static_cast<int>(rng() % 5);
      for (int i = 0; i < n; ++i) out += (i ? "," : "") + ws() + "\"k" + std::to_string(i) + "\":" + ws() + random_json(rng, depth + 1);
      return out + ws() + "}";
    }
  }
}

/// Whether `v` holds what nlohmann's DOM `j` holds, each value on or after the line before.
bool same(const Value& v, const nlohmann::json& j, std::size_t& last_line) {
  if (v.line() < last_line) return false;
  last_line = v.line();
  switch (v.kind()) {
    case Kind::null: return j.is_null();
    case Kind::boolean: return j.is_boolean() && j.get<bool>() == v.boolean();
    case Kind::unsigned_integer:
    case Kind::negative_integer:
    case Kind::real: return j.is_number() && j.get<double>() == v.number();
    case Kind::string: return j.is_string() && j.get<std::string>() == v.text();
    case Kind::array: {
      if (!j.is_array() || j.size() != v.size()) return false;
      std::size_t i = 0;
      for (const Value x : v.items()) {
        if (!same(x, j[i++], last_line)) return false;
      }
      return true;
    }
    case Kind::object: {
      if (!j.is_object() || j.size() != v.size()) return false;
      for (const Value::Member m : v.members()) {
        if (m.line < last_line || !j.contains(std::string(m.key))) return false;
        last_line = m.line;
        if (!same(m.value, j[std::string(m.key)], last_line)) return false;
      }
      return true;
    }
  }
  return false;
}

TEST(JsonReader, AgreesWithTheDomParserAndCountsLinesByHand) {
  std::mt19937 rng(17);
  for (int trial = 0; trial < 300; ++trial) {
    const std::string text = random_json(rng, 0);
    const Document doc(text, "t.json");
    std::size_t last_line = 1;
    EXPECT_TRUE(same(doc.root(), nlohmann::json::parse(text), last_line)) << text;
    // The lines of a flat top-level array's literals by hand: the line of their first byte.
    bool flat = doc.root().kind() == Kind::array;
    for (const Value x : doc.root().items()) flat = flat && x.kind() != Kind::array && x.kind() != Kind::object;
    if (flat) {
      std::size_t from = 0;
      for (const Value x : doc.root().items()) {
        if (x.kind() != Kind::null && x.kind() != Kind::boolean) continue;
        const std::string word = x.kind() == Kind::null ? "null" : (x.boolean() ? "true" : "false");
        const std::size_t at = text.find(word, from);
        ASSERT_NE(at, std::string::npos);
        EXPECT_EQ(x.line(), 1 + static_cast<std::size_t>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(at), '\n'))) << text;
        from = at + word.size();
      }
    }
  }
}

TEST(JsonReader, JsonTextIsCompactAndReadsBackTheSame) {
  // Path queries echo a refused value as JSON text (`got '[0.5,1]'`).
  const Document doc("{\"a\": [0.5, -3, 18446744073709551615, 1e2],\n \"b\": {\"q\\\"\\n\": null, \"t\": true},\n \"c\": \"\\u0001\"}",
                     "t.json");
  EXPECT_EQ(doc.root().json_text(), "{\"a\":[0.5,-3,18446744073709551615,1e2],\"b\":{\"q\\\"\\n\":null,\"t\":true},\"c\":\"\\u0001\"}");
  std::mt19937 rng(29);
  for (int trial = 0; trial < 100; ++trial) {
    const std::string text = random_json(rng, 0);
    const Document read(text, "t.json");
    EXPECT_EQ(nlohmann::json::parse(read.root().json_text()), nlohmann::json::parse(text)) << text;
  }
}

}  // namespace
}  // namespace waymark::io_json_reader_test
