#pragma once
// --trace FILE: a search's events as JSON lines, written as they happen (a search of any
// length streams to the file; nothing is kept in memory).

#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "cli_support.hpp"
#include "waymark/io/event_json.hpp"
#include "waymark/search/events.hpp"

namespace waymark::cli {

/// Writes one JSON object per event and line (io::append_event_json).
template <class Node, class Spell>
class TraceWriter final : public search::EventSink<Node> {
 public:
  TraceWriter(const std::string& path, Spell spell) : out_(path), spell_(spell), path_(path) {
    if (!out_) throw UsageError("cannot write trace to " + path);
  }

  void on_event(const search::Event<Node>& e) override {
    line_.clear();
    io::append_event_json(line_, e, spell_);
    line_ += '\n';
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

}  // namespace waymark::cli
