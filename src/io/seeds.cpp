#include "waymark/io/seeds.hpp"

#include <algorithm>
#include <optional>

#include "text_lines.hpp"

#include "waymark/core/text.hpp"

namespace waymark::io {

using detail::LineReader;
using detail::parse_number;
using detail::split_fields;

namespace {

std::string_view trimmed(std::string_view s) {
  const auto blank = [](char c) { return c == ' ' || c == '\t'; };
  while (!s.empty() && blank(s.front())) s.remove_prefix(1);
  while (!s.empty() && blank(s.back())) s.remove_suffix(1);
  return s;
}

/// `X Y`, `X,Y` or `X, Y` (one comma at most, no other separators), or nullopt.
std::optional<grid::CellCoord> parse_seed(std::string_view text) {
  std::string_view x, y;
  const std::size_t comma = text.find(',');
  if (comma == std::string_view::npos) {
    const auto fields = split_fields(text);
    if (fields.size() != 2) return std::nullopt;
    x = fields[0];
    y = fields[1];
  } else {
    x = trimmed(text.substr(0, comma));
    y = trimmed(text.substr(comma + 1));
  }
  grid::CellCoord c;
  if (!parse_number(x, c.x) || !parse_number(y, c.y)) return std::nullopt;
  return c;
}

/// The error for seed `number` (from 1) of inline text: "NAME: seed N: reason".
LoadError inline_seed_error(const std::string& name, std::size_t number, const std::string& reason) {
  return LoadError(name, 0, "seed " + number_text(number) + ": " + reason);
}

std::string over_limit(const SeedListOptions& options) {
  return "more than " + number_text(options.max_seeds) + " seeds (SeedListOptions::max_seeds)";
}

}  // namespace

std::vector<grid::CellCoord> SeedList::cells() const {
  std::vector<grid::CellCoord> out;
  out.reserve(seeds.size());
  for (const SeedEntry& s : seeds) out.push_back(s.cell);
  return out;
}

LoadError SeedList::error(std::size_t index, const std::string& reason) const {
  const std::size_t line = index < seeds.size() ? seeds[index].line : 0;
  if (inline_text) return inline_seed_error(source, line, reason);
  return LoadError(source, line, reason);
}

SeedList parse_seed_file(std::istream& in, const std::string& name, const SeedListOptions& options) {
  SeedList list;
  list.source = name;
  LineReader r(in, name);
  std::string line;
  while (r.next(line)) {
    const std::string_view text = trimmed(std::string_view(line).substr(0, line.find('#')));
    if (text.empty()) continue;
    const auto cell = parse_seed(text);
    if (!cell) r.fail("expected a seed 'X Y' or 'X,Y' (integers), got " + quoted(text));
    if (list.seeds.size() >= options.max_seeds) r.fail(over_limit(options));
    list.seeds.push_back({*cell, r.number()});
  }
  if (list.seeds.empty()) r.fail_at(0, "no seeds in the file");
  return list;
}

SeedList load_seed_file(const std::string& path, const SeedListOptions& options) {
  std::ifstream in = open_input_file(path);
  return parse_seed_file(in, path, options);
}

SeedList parse_seed_text(std::string_view text, const std::string& name, const SeedListOptions& options) {
  SeedList list;
  list.source = name;
  list.inline_text = true;
  if (!text.empty() && text.back() == ';') text.remove_suffix(1);
  if (trimmed(text).empty()) throw LoadError(name, 0, "no seeds (expected X,Y;X,Y;...)");
  std::size_t number = 0;
  for (std::size_t begin = 0; begin <= text.size();) {
    const std::size_t end = std::min(text.find(';', begin), text.size());
    const std::string_view entry = text.substr(begin, end - begin);
    ++number;
    const auto fail = [&](const std::string& reason) { throw inline_seed_error(name, number, reason); };
    if (number > options.max_seeds) fail(over_limit(options));
    const auto cell = parse_seed(entry);
    if (!cell) fail("expected X,Y (integers), got " + quoted(entry));
    list.seeds.push_back({*cell, number});
    begin = end + 1;
  }
  return list;
}

}  // namespace waymark::io
