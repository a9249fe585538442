// The io module's JSON reader (json_reader.hpp): nlohmann's SAX parser fed through a
// line-counting iterator, building a compact document.
#include "json_reader.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <iterator>
#include <limits>
#include <set>
#include <utility>

#include <nlohmann/json.hpp>

#include "waymark/core/text.hpp"

namespace waymark::io::json {

using Json = nlohmann::json;

namespace {

/// Longest piece of the text echoed in a message (a number as written, a key), characters.
constexpr std::size_t max_echo = 40;
/// Longest message taken over from the parser, characters.
constexpr std::size_t max_parser_message = 200;
constexpr std::size_t npos = std::string_view::npos;

bool is_identifier(std::string_view s) {
  const auto letter = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; };
  if (s.empty() || !letter(s[0])) return false;
  return std::all_of(s.begin(), s.end(), [&](char c) { return letter(c) || (c >= '0' && c <= '9'); });
}

/// A byte of a number or a bare word (true, NaN) as written.
bool token_char(char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '+' || c == '-' ||
         c == '.';
}

/// The bare token (a number as written) starting at `at`, shortened for a message.
std::string token_at(std::string_view text, std::size_t at) {
  std::size_t end = at;
  while (end < text.size() && token_char(text[end])) ++end;
  const std::string_view token = text.substr(at, end - at);
  return token.size() <= max_echo ? std::string(token) : std::string(token.substr(0, max_echo)) + "...";
}

/// The line of a byte offset (from 1).
std::size_t line_at(std::string_view text, std::size_t offset) {
  const auto end = text.begin() + static_cast<std::ptrdiff_t>(std::min(offset, text.size()));
  return 1 + static_cast<std::size_t>(std::count(text.begin(), end, '\n'));
}

/// The parser's message without its "[json.exception...] parse error at line L, column C: "
/// prefix, bytes outside printable ASCII as \xNN, cut after max_parser_message characters.
std::string parser_reason(const std::string& what) {
  std::string_view s = what;
  if (const std::size_t p = s.find("parse error"); p != npos) {
    if (const std::size_t colon = s.find(": ", p); colon != npos) s.remove_prefix(colon + 2);
  }
  static constexpr char hex[] = "0123456789abcdef";
  std::string out;
  for (const char ch : s.substr(0, max_parser_message)) {
    const auto c = static_cast<unsigned char>(ch);
    if (c >= 0x20 && c < 0x7f) {
      out += ch;
    } else {
      out += "\\x";
      out += hex[c >> 4];
      out += hex[c & 0xf];
    }
  }
  if (s.size() > max_parser_message) out += "...";
  return out;
}

std::string spell(double v) { return number_text(v); }

}  // namespace

/// Where the reader is: the line, and the line of the last byte that was not white space (the
/// parser reads one byte past a number, which may be a line break).
struct Position {
  std::size_t line = 1;
  std::size_t token_line = 1;
};

/// The text's bytes for nlohmann's iterator input, counting lines as they are taken.
class CountingIterator {
 public:
  using iterator_category = std::input_iterator_tag;
  using value_type = char;
  using difference_type = std::ptrdiff_t;
  using pointer = const char*;
  using reference = const char&;

  CountingIterator(const char* p, Position* pos) : p_(p), pos_(pos) {}
  const char& operator*() const { return *p_; }
  CountingIterator& operator++() {
    const char c = *p_;
    if (c == '\n') {
      ++pos_->line;
    } else if (c != ' ' && c != '\t' && c != '\r') {
      pos_->token_line = pos_->line;
    }
    ++p_;
    return *this;
  }
  CountingIterator operator++(int) {
    CountingIterator before = *this;
    ++*this;
    return before;
  }
  bool operator==(const CountingIterator& o) const { return p_ == o.p_; }
  bool operator!=(const CountingIterator& o) const { return p_ != o.p_; }

 private:
  const char* p_;
  Position* pos_;
};

/// Builds the document as nlohmann's SAX parser reads it, and stops at the first problem.
class Builder {
 public:
  Builder(Document& doc, const Limits& limits, const Position& pos) : doc_(doc), limits_(limits), pos_(pos) {}

  /// Why reading stopped.
  struct Problem {
    Steps steps;
    std::string reason;
    std::size_t line = 0;
    bool from_parser = false;
    int parser_id = 0;          ///< nlohmann's exception id (406: a number beyond a double)
    std::size_t position = 0;   ///< parser errors: the bytes read
    std::string parser_message;
  };
  [[nodiscard]] const std::optional<Problem>& problem() const { return problem_; }

  // nlohmann's SAX interface: false stops the parser.
  bool null() { return leaf(Kind::null); }
  bool boolean(bool v) {
    if (!leaf(Kind::boolean)) return false;
    doc_.nodes_.back().flag = v;
    return true;
  }
  bool number_integer(Json::number_integer_t v) {
    if (v >= 0) return number_unsigned(static_cast<std::uint64_t>(v));  // -0
    if (!leaf(Kind::negative_integer)) return false;
    doc_.nodes_.back().magnitude = static_cast<std::uint64_t>(-(v + 1)) + 1;
    return true;
  }
  bool number_unsigned(Json::number_unsigned_t v) {
    if (!leaf(Kind::unsigned_integer)) return false;
    doc_.nodes_.back().magnitude = v;
    return true;
  }
  bool number_float(Json::number_float_t v, const Json::string_t& written) {
    if (!leaf(Kind::real)) return false;
    doc_.nodes_.back().real = v;
    doc_.nodes_.back().aux = text(written);
    return true;
  }
  bool string(Json::string_t& v) {
    if (!leaf(Kind::string)) return false;
    doc_.nodes_.back().aux = text(std::move(v));
    return true;
  }
  bool binary(Json::binary_t& /*never in JSON text*/) { return leaf(Kind::null); }
  bool start_object(std::size_t /*size, unknown in text*/) { return open(Kind::object); }
  bool start_array(std::size_t /*size*/) { return open(Kind::array); }
  bool key(Json::string_t& k) {
    Frame& f = frames_.back();
    f.key = k;
    if (!f.keys.insert(k).second) return refuse("key " + waymark::quoted(k) + " appears twice", steps(false));
    Document::Node node;
    node.kind = Kind::string;
    node.line = line();
    node.aux = text(std::move(k));
    node.end = static_cast<std::uint32_t>(doc_.nodes_.size() + 1);
    doc_.nodes_.push_back(node);
    return true;
  }
  bool end_object() { return close(); }
  bool end_array() { return close(); }
  bool parse_error(std::size_t position, const std::string& /*last_token*/, const Json::exception& e) {
    problem_ = Problem{steps(true), {}, 0, true, e.id, position, e.what()};
    return false;
  }

 private:
  struct Frame {
    std::uint32_t node;
    std::string key;            ///< objects: the key being read
    std::set<std::string> keys;  ///< objects: the keys read
  };

  [[nodiscard]] std::uint32_t line() const {
    return static_cast<std::uint32_t>(std::min<std::size_t>(pos_.token_line, std::numeric_limits<std::uint32_t>::max()));
  }
  std::uint32_t text(std::string s) {
    doc_.strings_.push_back(std::move(s));
    return static_cast<std::uint32_t>(doc_.strings_.size() - 1);
  }
  /// Adds a value's node, counted against max_values, to the open container.
  bool add(Kind kind) {
    if (values_ == limits_.max_values)
      return refuse("more than " + number_text(limits_.max_values) + " values (json::Limits::max_values)", steps(true));
    ++values_;
    if (!frames_.empty()) ++doc_.nodes_[frames_.back().node].aux;
    Document::Node node;
    node.kind = kind;
    node.line = line();
    node.end = static_cast<std::uint32_t>(doc_.nodes_.size() + 1);
    doc_.nodes_.push_back(node);
    return true;
  }
  bool leaf(Kind kind) { return add(kind); }
  bool open(Kind kind) {
    if (frames_.size() == limits_.max_depth)
      return refuse("nested deeper than " + number_text(limits_.max_depth) + " arrays and objects", steps(true));
    if (!add(kind)) return false;
    frames_.push_back({static_cast<std::uint32_t>(doc_.nodes_.size() - 1), {}, {}});
    return true;
  }
  bool close() {
    doc_.nodes_[frames_.back().node].end = static_cast<std::uint32_t>(doc_.nodes_.size());
    frames_.pop_back();
    return true;
  }
  bool refuse(std::string reason, Steps at) {
    problem_ = Problem{std::move(at), std::move(reason), line()};
    return false;
  }

  /// The path of the value last begun (`next`: of the one about to begin).
  [[nodiscard]] Steps steps(bool next) const {
    Steps out;
    for (std::size_t i = 0; i < frames_.size(); ++i) {
      const Frame& f = frames_[i];
      const Document::Node& n = doc_.nodes_[f.node];
      if (n.kind == Kind::array) {
        const std::size_t size = n.aux;
        const bool top = i + 1 == frames_.size();
        out.push_back({{}, (next && top) ? size : size - 1, true});
      } else {
        out.push_back({f.key, 0, false});
      }
    }
    return out;
  }

  Document& doc_;
  const Limits& limits_;
  const Position& pos_;
  std::vector<Frame> frames_;
  std::size_t values_ = 0;
  std::optional<Problem> problem_;
};

namespace {

/// Where the parser stopped as a LoadError at its line: a number beyond a double named by its
/// path, NaN and Infinity by a message of their own, other syntax errors in the parser's words.
LoadError parser_error(std::string_view text, const std::string& source, const Builder::Problem& p) {
  // p.position: the bytes read (size + 1 at the end of the input).
  const std::size_t last = p.position == 0 ? 0 : std::min<std::size_t>(p.position - 1, text.size());
  const std::size_t line = line_at(text, last);
  constexpr int number_overflow = 406;  // nlohmann's out_of_range.406
  if (p.parser_id == number_overflow) {
    std::size_t begin = last;
    while (begin > 0 && token_char(text[begin - 1])) --begin;
    const std::string written = begin < text.size() && token_char(text[begin]) ? token_at(text, begin) : "a number";
    const std::string where = path_text(p.steps);
    const std::string reason = "must be a finite number, got " + written + " (beyond the range of a double)";
    return LoadError(source, line, where.empty() ? reason : where + ": " + reason);
  }
  if (last < text.size() && token_char(text[last])) {
    std::size_t begin = last;
    while (begin > 0 && token_char(text[begin - 1])) --begin;
    const std::string word = token_at(text, begin);
    std::string bare = word.substr(std::min(word.find_first_not_of("+-"), word.size()));
    for (char& c : bare) {
      if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    }
    if (bare == "nan" || bare == "inf" || bare == "infinity")
      return LoadError(source, line, "invalid JSON: " + word + " is not a JSON number (JSON numbers are finite)");
  }
  return LoadError(source, line, "invalid JSON: " + parser_reason(p.parser_message));
}

}  // namespace

std::string read_text(std::istream& in, const std::string& source, std::size_t max_bytes, const char* limit_name) {
  std::string text;
  std::array<char, std::size_t{1} << 16> buffer{};
  while (in) {
    in.read(buffer.data(), static_cast<std::streamsize>(buffer.size()));
    text.append(buffer.data(), static_cast<std::size_t>(in.gcount()));
    if (text.size() > max_bytes)
      throw LoadError(source, 0, "larger than " + number_text(max_bytes) + " bytes (" + limit_name + ")");
  }
  if (in.bad()) throw LoadError(source, 0, "read error");
  return text;
}

std::string path_text(const Steps& steps) {
  std::string out;
  for (const Step& s : steps) {
    if (s.is_index) {
      out += '[';
      out += number_text(s.index);
      out += ']';
    } else if (is_identifier(s.key) && s.key.size() <= max_echo) {
      if (!out.empty()) out += '.';
      out += s.key;
    } else {
      out += '[';
      out += waymark::quoted(s.key.size() <= max_echo ? s.key : s.key.substr(0, max_echo) + "...");
      out += ']';
    }
  }
  return out;
}

Document::Document(std::string_view text, std::string source, const Limits& limits) : source_(std::move(source)) {
  if (text.size() > limits.max_bytes)
    throw LoadError(source_, 0, "larger than " + number_text(limits.max_bytes) + " bytes (json::Limits::max_bytes)");
  if (text.size() >= std::numeric_limits<std::uint32_t>::max())
    throw LoadError(source_, 0, "larger than 4 GiB");  // node indices and lines are 32 bits
  Position pos;
  Builder builder(*this, limits, pos);
  try {
    Json::sax_parse(CountingIterator(text.data(), &pos), CountingIterator(text.data() + text.size(), &pos), &builder,
                    Json::input_format_t::json, /*strict=*/true, /*ignore_comments=*/false);
  } catch (const Json::exception& e) {  // the SAX interface reports by return value: a slip, reported not crashed
    throw LoadError(source_, 0, std::string("unexpected JSON error: ") + e.what());
  }
  if (const auto& p = builder.problem()) {
    if (p->from_parser) throw parser_error(text, source_, *p);
    const std::string where = path_text(p->steps);
    throw LoadError(source_, p->line, where.empty() ? p->reason : where + ": " + p->reason);
  }
  if (nodes_.empty()) throw LoadError(source_, 1, "invalid JSON: no value");  // the parser refuses it first
}

std::size_t Document::line_of(const Steps& steps) const {
  if (steps.empty()) return 0;
  Value at = root();
  std::size_t line = at.line();
  for (const Step& s : steps) {
    if (s.is_index) {
      if (at.kind() != Kind::array || s.index >= at.size()) return line;
      std::size_t i = 0;
      for (const Value v : at.items()) {
        if (i++ == s.index) {
          at = v;
          break;
        }
      }
      line = at.line();
    } else {
      if (at.kind() != Kind::object) return line;
      const std::optional<Value::Member> m = at.find(s.key);
      if (!m) return line;
      at = m->value;
      line = m->line;
    }
  }
  return line;
}

void Document::fail(const Steps& at, const std::string& reason, const Steps* line_at_steps) const {
  const std::string where = path_text(at);
  const std::size_t line = line_of(line_at_steps != nullptr ? *line_at_steps : at);
  throw LoadError(source_, line, where.empty() ? reason : where + ": " + reason);
}

// ---- values

Kind Value::kind() const { return doc_->nodes_[node_].kind; }
std::size_t Value::line() const { return doc_->nodes_[node_].line; }
bool Value::boolean() const { return doc_->nodes_[node_].flag; }
std::uint64_t Value::magnitude() const { return doc_->nodes_[node_].magnitude; }
const std::string& Value::text() const {
  static const std::string none;
  const Document::Node& n = doc_->nodes_[node_];
  return n.kind == Kind::string || n.kind == Kind::real ? doc_->strings_[n.aux] : none;
}
std::size_t Value::size() const {
  const Document::Node& n = doc_->nodes_[node_];
  return n.kind == Kind::array || n.kind == Kind::object ? n.aux : 0;
}

double Value::number() const {
  const Document::Node& n = doc_->nodes_[node_];
  switch (n.kind) {
    case Kind::real: return n.real;
    case Kind::unsigned_integer: return static_cast<double>(n.magnitude);
    case Kind::negative_integer: return -static_cast<double>(n.magnitude);
    default: return 0;
  }
}

std::string Value::describe() const {
  switch (kind()) {
    case Kind::string: return "the string " + waymark::quoted(text());
    case Kind::unsigned_integer: return number_text(magnitude());
    case Kind::negative_integer: return "-" + number_text(magnitude());
    case Kind::real: {
      const std::string& w = text();
      if (w.empty()) return spell(number());
      return w.size() <= max_echo ? w : w.substr(0, max_echo) + "...";
    }
    case Kind::boolean: return boolean() ? "true" : "false";
    case Kind::null: return "null";
    case Kind::array: return "a list";
    case Kind::object: return "an object";
  }
  return "a value";
}

namespace {

void append_json_string(std::string& out, std::string_view s) {
  static constexpr char hex[] = "0123456789abcdef";
  out += '"';
  for (const char ch : s) {
    switch (ch) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\b': out += "\\b"; break;
      case '\f': out += "\\f"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (static_cast<unsigned char>(ch) < 0x20) {
          out += "\\u00";
          out += hex[static_cast<unsigned char>(ch) >> 4];
          out += hex[static_cast<unsigned char>(ch) & 0xf];
        } else {
          out += ch;  // the reader took valid UTF-8 only
        }
    }
  }
  out += '"';
}

void append_json_text(std::string& out, const Value& v) {
  switch (v.kind()) {
    case Kind::string: append_json_string(out, v.text()); return;
    case Kind::real: out += v.text().empty() ? spell(v.number()) : v.text(); return;
    case Kind::array: {
      out += '[';
      bool first = true;
      for (const Value item : v.items()) {
        if (!first) out += ',';
        first = false;
        append_json_text(out, item);
      }
      out += ']';
      return;
    }
    case Kind::object: {
      out += '{';
      bool first = true;
      for (const Value::Member m : v.members()) {
        if (!first) out += ',';
        first = false;
        append_json_string(out, m.key);
        out += ':';
        append_json_text(out, m.value);
      }
      out += '}';
      return;
    }
    default: out += v.describe(); return;  // null, true, false, integers: as JSON writes them
  }
}

}  // namespace

std::string Value::json_text() const {
  std::string out;
  append_json_text(out, *this);
  return out;
}

Value::Items Value::items() const {
  const Document::Node& n = doc_->nodes_[node_];
  if (n.kind != Kind::array) return {doc_, node_, node_};
  return {doc_, node_ + 1, n.end};
}

Value::Members Value::members() const {
  const Document::Node& n = doc_->nodes_[node_];
  if (n.kind != Kind::object) return {doc_, node_, node_};
  return {doc_, node_ + 1, n.end};
}

std::optional<Value::Member> Value::find(std::string_view key) const {
  for (const Member m : members()) {
    if (m.key == key) return m;
  }
  return std::nullopt;
}

Value::Items::iterator& Value::Items::iterator::operator++() {
  node_ = doc_->nodes_[node_].end;
  return *this;
}

Value::Member Value::Members::iterator::operator*() const {
  const Document::Node& k = doc_->nodes_[node_];
  return {doc_->strings_[k.aux], k.line, Value(doc_, node_ + 1)};
}

Value::Members::iterator& Value::Members::iterator::operator++() {
  node_ = doc_->nodes_[node_ + 1].end;
  return *this;
}

}  // namespace waymark::io::json
