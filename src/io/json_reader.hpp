#pragma once
// The one JSON reader of the io module (not installed, not public): polygon files, scene files,
// path queries (waymark/io/path_query.hpp) and the web API's requests read through it. It
// reads the whole text into a compact document (24 bytes a value) in which every value knows
// its line, refusing while it reads: nesting deeper than Limits::max_depth, more values than Limits::max_values, a key
// repeated in one object, text over Limits::max_bytes, and anything that is not JSON (NaN,
// Infinity, comments, numbers beyond a double). Errors are LoadError `file:line: path: reason`,
// the path written as in JavaScript (agents[3].radius). Schemas walk the document and report
// their own refusals with fail(), in the same form.
//
// nlohmann-json's SAX parser does the lexing (its UTF-8, escape and number handling is well
// tried); an input iterator that counts lines gives each value its line as it is read.

#include <cstddef>
#include <cstdint>
#include <istream>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "waymark/core/errors.hpp"

namespace waymark::io::json {

/// What a reader accepts; every limit is checked while reading, before anything grows past it.
struct Limits {
  static constexpr std::size_t default_max_bytes = std::size_t{64} << 20;
  static constexpr std::size_t default_max_depth = 16;
  static constexpr std::size_t default_max_values = std::size_t{1} << 23;
  std::size_t max_bytes = default_max_bytes;    ///< length of the text, bytes
  std::size_t max_depth = default_max_depth;    ///< arrays and objects nested in each other
  std::size_t max_values = default_max_values;  ///< values in the document (keys not counted)
};

enum class Kind : std::uint8_t { null, boolean, unsigned_integer, negative_integer, real, string, array, object };

/// One step of a path: a key of an object or an index of an array.
struct Step {
  std::string key;
  std::size_t index = 0;
  bool is_index = false;
};
using Steps = std::vector<Step>;

/// The whole of `in` as text; LoadError (`source`: reason) when it is longer than `max_bytes`
/// (found before reading much further) or cannot be read.
[[nodiscard]] std::string read_text(std::istream& in, const std::string& source, std::size_t max_bytes,
                                    const char* limit_name = "json::Limits::max_bytes");

/// "agents[3].radius"; "" for the whole document. Keys that are not identifiers (and long ones)
/// as ['key'], shortened.
[[nodiscard]] std::string path_text(const Steps& steps);

class Document;

/// A value of a Document (a light handle: copy it freely; valid while the document lives).
class Value {
 public:
  struct Member;
  class Members;
  class Items;

  [[nodiscard]] Kind kind() const;
  /// The line the value is on (from 1): a container's opening bracket, a scalar's text.
  [[nodiscard]] std::size_t line() const;
  [[nodiscard]] bool is_number() const {
    const Kind k = kind();
    return k == Kind::unsigned_integer || k == Kind::negative_integer || k == Kind::real;
  }
  [[nodiscard]] bool is_integer() const { return kind() == Kind::unsigned_integer || kind() == Kind::negative_integer; }
  /// Numbers: the value as a double (finite: the reader refuses the others).
  [[nodiscard]] double number() const;
  /// unsigned_integer: the value; negative_integer: its magnitude.
  [[nodiscard]] std::uint64_t magnitude() const;
  [[nodiscard]] bool boolean() const;
  /// Strings: the text; reals: the number as written.
  [[nodiscard]] const std::string& text() const;
  /// A value as a message shows it: a number as written, "the string 'x'", "a list", ….
  [[nodiscard]] std::string describe() const;
  /// The value as compact JSON text (no spaces; reals as written, strings escaped as JSON).
  [[nodiscard]] std::string json_text() const;
  /// Elements of an array or members of an object; 0 otherwise.
  [[nodiscard]] std::size_t size() const;
  [[nodiscard]] Items items() const;
  [[nodiscard]] Members members() const;
  /// An object's member `key`, if present.
  [[nodiscard]] std::optional<Member> find(std::string_view key) const;

 private:
  friend class Document;
  Value(const Document* doc, std::uint32_t node) : doc_(doc), node_(node) {}
  const Document* doc_;
  std::uint32_t node_;
};

struct Value::Member {
  std::string_view key;
  std::size_t line;  ///< the key's line
  Value value;
};

/// The elements of an array, in order (forward iteration).
class Value::Items {
 public:
  class iterator {
   public:
    Value operator*() const { return {doc_, node_}; }
    iterator& operator++();
    bool operator==(const iterator& o) const { return node_ == o.node_; }

   private:
    friend class Items;
    iterator(const Document* doc, std::uint32_t node) : doc_(doc), node_(node) {}
    const Document* doc_;
    std::uint32_t node_;
  };
  [[nodiscard]] iterator begin() const { return {doc_, first_}; }
  [[nodiscard]] iterator end() const { return {doc_, end_}; }

 private:
  friend class Value;
  Items(const Document* doc, std::uint32_t first, std::uint32_t end) : doc_(doc), first_(first), end_(end) {}
  const Document* doc_;
  std::uint32_t first_;
  std::uint32_t end_;
};

/// The members of an object, in the order written.
class Value::Members {
 public:
  class iterator {
   public:
    Member operator*() const;
    iterator& operator++();
    bool operator==(const iterator& o) const { return node_ == o.node_; }

   private:
    friend class Members;
    iterator(const Document* doc, std::uint32_t node) : doc_(doc), node_(node) {}
    const Document* doc_;
    std::uint32_t node_;  ///< the key's node
  };
  [[nodiscard]] iterator begin() const { return {doc_, first_}; }
  [[nodiscard]] iterator end() const { return {doc_, end_}; }

 private:
  friend class Value;
  Members(const Document* doc, std::uint32_t first, std::uint32_t end) : doc_(doc), first_(first), end_(end) {}
  const Document* doc_;
  std::uint32_t first_;
  std::uint32_t end_;
};

/// A JSON text read in full. Values are stored in reading order (a container before its
/// contents; an object's key before its value), each knowing where its contents end.
class Document {
 public:
  /// Reads `text`; `source` names it in errors. Throws LoadError (file:line: path: reason).
  Document(std::string_view text, std::string source, const Limits& limits = {});

  [[nodiscard]] Value root() const { return {this, 0}; }
  [[nodiscard]] const std::string& source() const { return source_; }

  /// The line of the value `steps` names, or of its key when the last step is a key; where the
  /// path cannot be followed, the line of the deepest value reached; 0 for the empty path.
  [[nodiscard]] std::size_t line_of(const Steps& steps) const;
  /// Throws LoadError `source:line: path: reason` for the value `at` names (its line from
  /// line_of(`line_at` when given, else `at`)).
  [[noreturn]] void fail(const Steps& at, const std::string& reason, const Steps* line_at = nullptr) const;

  /// The storage of one value (public for the reader's builder; use Value).
  struct Node {
    Kind kind = Kind::null;
    bool flag = false;          ///< booleans: the value
    std::uint32_t line = 0;
    std::uint32_t aux = 0;      ///< strings, reals and keys: index into strings_; containers: size
    std::uint32_t end = 0;      ///< the node after this value and its contents
    union {
      double real;
      std::uint64_t magnitude;
    };
    Node() : magnitude(0) {}
  };

 private:
  friend class Value;
  friend class Value::Items::iterator;
  friend class Value::Members::iterator;
  friend class Builder;
  std::string source_;
  std::vector<Node> nodes_;
  std::vector<std::string> strings_;
};

}  // namespace waymark::io::json
