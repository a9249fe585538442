#pragma once
/// @file Search events as values: what a search did, recorded, sent over the wire or replayed.
/// A sink receives them at run time (one virtual call per event); EventObserver turns the
/// compile-time observer hooks into events for a sink, and a search without a sink uses
/// NullObserver and pays nothing.

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "waymark/core/cost.hpp"
#include "waymark/core/enum_names.hpp"
#include "waymark/core/status.hpp"
#include "waymark/search/goal.hpp"
#include "waymark/search/observer.hpp"

namespace waymark::search {

enum class EventKind : std::uint8_t {
  begin = 0,      ///< a query started; `node` is its goal when the goal is one node
  open = 1,       ///< `node` entered the open list (or frontier) from `parent`, with g and h
  expand = 2,     ///< `node` was taken from the open list to be expanded
  close = 3,      ///< all successors of `node` were generated
  goal = 4,       ///< `node` is a goal, reached with cost g
  end = 5,        ///< the query finished with `status`
  slice_end = 6,  ///< a step() used up its budget; the search goes on at the next step()
};

inline constexpr EnumNames<EventKind, 7> event_kind_names{{
    {EventKind::begin, "begin"},
    {EventKind::open, "open"},
    {EventKind::expand, "expand"},
    {EventKind::close, "close"},
    {EventKind::goal, "goal"},
    {EventKind::end, "end"},
    {EventKind::slice_end, "slice-end"},
}};
[[nodiscard]] constexpr std::string_view to_string(EventKind k) { return name_of(event_kind_names, k); }

/// Which search of a bidirectional pair reported an event (forward for all others).
enum class Direction : std::uint8_t { forward, backward };
[[nodiscard]] constexpr std::string_view to_string(Direction d) {
  return d == Direction::forward ? "forward" : "backward";
}

/// One event. Fields that do not apply to a kind keep their defaults.
template <class Node>
struct Event {
  EventKind kind = EventKind::begin;
  Direction direction = Direction::forward;
  bool has_node = false;    ///< `node` is meaningful (false for end, slice_end and a begin without one goal node)
  bool has_parent = false;  ///< open: `parent` is meaningful (false for sources)
  bool improved = false;    ///< open: the node had been reached before and got a better g
  Status status{};          ///< end: how the query finished
  Node node{};
  Node parent{};
  Cost g = 0;
  Cost h = 0;
};

/// Receives events at run time. Implementations must not throw.
template <class Node>
class EventSink {
 public:
  EventSink() = default;
  EventSink(const EventSink&) = default;
  EventSink& operator=(const EventSink&) = default;
  virtual ~EventSink() = default;
  virtual void on_event(const Event<Node>& event) = 0;
};

/// Keeps the first `capacity` events in memory reserved up front, so recording allocates
/// nothing; later events are counted as dropped.
template <class Node>
class EventRecorder final : public EventSink<Node> {
 public:
  /// Events a recorder keeps when not told otherwise: 2^20 (at 40–56 bytes each, about 50 MB).
  static constexpr std::size_t default_capacity = std::size_t{1} << 20;

  explicit EventRecorder(std::size_t capacity = default_capacity) : capacity_(capacity) { events_.reserve(capacity); }

  void on_event(const Event<Node>& event) override {
    if (events_.size() < capacity_) {
      events_.push_back(event);
    } else {
      ++dropped_;
    }
  }

  [[nodiscard]] const std::vector<Event<Node>>& events() const { return events_; }
  [[nodiscard]] std::size_t capacity() const { return capacity_; }
  /// Events that arrived after the recorder was full.
  [[nodiscard]] std::uint64_t dropped() const { return dropped_; }
  [[nodiscard]] bool truncated() const { return dropped_ != 0; }
  /// Forgets the events (keeps the memory).
  void clear() {
    events_.clear();
    dropped_ = 0;
  }

 private:
  std::size_t capacity_;
  std::vector<Event<Node>> events_;
  std::uint64_t dropped_ = 0;
};

/// A compile-time observer that sends every hook to a sink as an Event (nothing when the sink
/// is null). `direction` tags the events of one side of a bidirectional search.
template <class Node>
class EventObserver : public NullObserver {
 public:
  explicit EventObserver(EventSink<Node>* sink = nullptr, Direction direction = Direction::forward)
      : sink_(sink), direction_(direction) {}

  [[nodiscard]] EventSink<Node>* sink() const { return sink_; }

  void on_begin(const Goal<Node>& goal) {
    Event<Node> e = make(EventKind::begin);
    if (goal.kind() == Goal<Node>::Kind::node) {
      e.has_node = true;
      e.node = goal.node();
    }
    send(e);
  }
  void on_open(const Node& node, const Node* parent, Cost g, Cost h, bool improved) {
    Event<Node> e = make(EventKind::open, node, g, h);
    if (parent != nullptr) {
      e.has_parent = true;
      e.parent = *parent;
    }
    e.improved = improved;
    send(e);
  }
  void on_expand(const Node& node, Cost g, Cost h) { send(make(EventKind::expand, node, g, h)); }
  void on_close(const Node& node) { send(make(EventKind::close, node, 0, 0)); }
  void on_goal(const Node& node, Cost g) { send(make(EventKind::goal, node, g, 0)); }
  void on_end(Status status) {
    Event<Node> e = make(EventKind::end);
    e.status = status;
    send(e);
  }
  void on_slice_end() { send(make(EventKind::slice_end)); }
  using NullObserver::on_generate;

 private:
  Event<Node> make(EventKind kind) const {
    Event<Node> e;
    e.kind = kind;
    e.direction = direction_;
    return e;
  }
  Event<Node> make(EventKind kind, const Node& node, Cost g, Cost h) const {
    Event<Node> e = make(kind);
    e.has_node = true;
    e.node = node;
    e.g = g;
    e.h = h;
    return e;
  }
  void send(const Event<Node>& e) {
    if (sink_ != nullptr) sink_->on_event(e);
  }

  EventSink<Node>* sink_;
  Direction direction_;
};

/// `observer` set to report as `direction`: for the two sides of a bidirectional search.
/// Observers that do not tag events are copied as they are.
template <class Obs>
[[nodiscard]] Obs with_direction(const Obs& observer, Direction) {
  return observer;
}
template <class Node>
[[nodiscard]] EventObserver<Node> with_direction(const EventObserver<Node>& observer, Direction d) {
  return EventObserver<Node>(observer.sink(), d);
}

}  // namespace waymark::search
