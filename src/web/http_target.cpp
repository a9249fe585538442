#include "web/http_target.hpp"

#include <algorithm>

#include "waymark/core/text.hpp"

namespace waymark::web {
namespace {

/// The value of a hex digit, -1 for any other byte.
int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

bool is_control(char c) { return static_cast<unsigned char>(c) < 0x20 || c == '\x7f'; }

}  // namespace

std::string percent_decode(std::string_view text, bool plus_is_space) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '%' && i + 2 < text.size()) {
      const int high = hex_value(text[i + 1]);
      const int low = hex_value(text[i + 2]);
      if (high >= 0 && low >= 0) {
        out.push_back(static_cast<char>(high * 16 + low));
        i += 2;
        continue;
      }
    }
    out.push_back(plus_is_space && c == '+' ? ' ' : c);
  }
  return out;
}

TargetOrError parse_target(std::string_view raw) {
  if (raw.empty() || raw.front() != '/') return {std::nullopt, "the request target must start with \"/\""};
  const std::size_t question = raw.find('?');
  Target target;
  target.path = percent_decode(raw.substr(0, question), false);
  if (std::any_of(target.path.begin(), target.path.end(), is_control))
    return {std::nullopt, "the path holds a control character (a byte below 0x20, %00 among them)"};
  if (question == std::string_view::npos) return {std::move(target), {}};
  std::string_view query = raw.substr(question + 1);
  if (const std::size_t hash = query.find('#'); hash != std::string_view::npos) query = query.substr(0, hash);
  std::size_t count = 0;
  while (!query.empty()) {
    const std::size_t amp = query.find('&');
    const std::string_view pair = query.substr(0, amp);
    query = amp == std::string_view::npos ? std::string_view{} : query.substr(amp + 1);
    if (pair.empty()) continue;
    if (++count > max_target_params)
      return {std::nullopt, "the query string gives more than " + number_text(max_target_params) + " parameters"};
    const std::size_t equals = pair.find('=');
    std::string key = percent_decode(pair.substr(0, equals), true);
    std::string value = equals == std::string_view::npos ? std::string{} : percent_decode(pair.substr(equals + 1), true);
    target.params.emplace(std::move(key), std::move(value));
  }
  return {std::move(target), {}};
}

}  // namespace waymark::web
