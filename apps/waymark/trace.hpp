#pragma once
// --trace FILE: a search's events as JSON lines, written as they happen (a search of any
// length streams to the file; nothing is kept in memory).

#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "cli_support.hpp"
#include "waymark/search/events.hpp"

namespace waymark::cli {

/// Writes one JSON object per event:
///   {"event":"open","node":[3,1],"parent":[2,1],"g":1,"h":33.1,"improved":false}
/// Nodes are spelled by `spell` (grid cells as [x,y], graph vertices as the file's id);
/// "direction":"backward" marks the second side of a bidirectional search. Numbers use 17
/// significant digits, so costs read back exactly.
template <class Node, class Spell>
class TraceWriter final : public search::EventSink<Node> {
 public:
  TraceWriter(const std::string& path, Spell spell) : out_(path), spell_(spell), path_(path) {
    if (!out_) throw UsageError("cannot write trace to " + path);
  }

  void on_event(const search::Event<Node>& e) override {
    line_ = "{\"event\":\"";
    line_ += to_string(e.kind);
    line_ += '"';
    if (e.direction == search::Direction::backward) line_ += ",\"direction\":\"backward\"";
    if (e.has_node) {
      line_ += e.kind == search::EventKind::begin ? ",\"goal\":" : ",\"node\":";
      line_ += spell_(e.node);
    }
    if (e.has_parent) {
      line_ += ",\"parent\":";
      line_ += spell_(e.parent);
    }
    switch (e.kind) {
      case search::EventKind::open:
        number("g", e.g);
        number("h", e.h);
        line_ += e.improved ? ",\"improved\":true" : ",\"improved\":false";
        break;
      case search::EventKind::expand:
        number("g", e.g);
        number("h", e.h);
        break;
      case search::EventKind::goal: number("g", e.g); break;
      case search::EventKind::end:
        line_ += ",\"status\":\"";
        line_ += to_string(e.status);
        line_ += '"';
        break;
      default: break;
    }
    line_ += "}\n";
    out_ << line_;
    ++events_;
  }

  /// Flushes; throws UsageError when the file could not be written.
  void finish() {
    out_.flush();
    if (!out_) throw UsageError("writing trace to " + path_ + " failed");
  }
  [[nodiscard]] std::size_t events() const { return events_; }

 private:
  void number(const char* key, double v) {
    char buf[40];
    std::snprintf(buf, sizeof buf, ",\"%s\":%.17g", key, v);
    line_ += buf;
  }

  std::ofstream out_;
  Spell spell_;
  std::string path_;
  std::string line_;
  std::size_t events_ = 0;
};

/// Sends every event to each of several sinks.
template <class Node>
class FanOut final : public search::EventSink<Node> {
 public:
  void add(search::EventSink<Node>* sink) {
    if (sink) sinks_.push_back(sink);
  }
  [[nodiscard]] bool empty() const { return sinks_.empty(); }
  void on_event(const search::Event<Node>& e) override {
    for (search::EventSink<Node>* s : sinks_) s->on_event(e);
  }

 private:
  std::vector<search::EventSink<Node>*> sinks_;
};

/// Keeps the nodes of expand events, in order (for pictures).
template <class Node>
class ExpandedNodes final : public search::EventSink<Node> {
 public:
  void on_event(const search::Event<Node>& e) override {
    if (e.kind == search::EventKind::expand) nodes.push_back(e.node);
  }
  std::vector<Node> nodes;
};

}  // namespace waymark::cli
