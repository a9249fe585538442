#pragma once
/// @file One search event as a JSON object, the format of `waymark path --trace` and of the
/// viewer API's "events": {"event":"open","node":[3,1],"parent":[2,1],"g":1,"h":33.1,"improved":false}.

#include <cstdio>
#include <string>

#include "waymark/core/text.hpp"
#include "waymark/grid/grid_map.hpp"
#include "waymark/search/events.hpp"

namespace waymark::io {

/// Appends `e` to `out` as one JSON object (no newline). Nodes are spelled by `spell(node)`,
/// which returns their JSON text (a grid cell as [x,y], a graph vertex as its id);
/// "direction":"backward" marks the second side of a bidirectional search. Numbers use 17
/// significant digits, so costs read back exactly.
template <class Node, class Spell>
void append_event_json(std::string& out, const search::Event<Node>& e, const Spell& spell) {
  const auto number = [&out](const char* key, double v) {
    char buf[48];
    std::snprintf(buf, sizeof buf, ",\"%s\":%.17g", key, v);
    out += buf;
  };
  out += "{\"event\":\"";
  out += to_string(e.kind);
  out += '"';
  if (e.direction == search::Direction::backward) out += ",\"direction\":\"backward\"";
  if (e.has_node) {
    out += e.kind == search::EventKind::begin ? ",\"goal\":" : ",\"node\":";
    out += spell(e.node);
  }
  if (e.has_parent) {
    out += ",\"parent\":";
    out += spell(e.parent);
  }
  switch (e.kind) {
    case search::EventKind::open:
      number("g", e.g);
      number("h", e.h);
      out += e.improved ? ",\"improved\":true" : ",\"improved\":false";
      break;
    case search::EventKind::expand:
      number("g", e.g);
      number("h", e.h);
      break;
    case search::EventKind::goal: number("g", e.g); break;
    case search::EventKind::end:
      out += ",\"status\":\"";
      out += describe(e.status);
      out += '"';
      break;
    default: break;
  }
  out += '}';
}

/// A grid cell as the events spell it: [x,y].
struct SpellGridCell {
  const grid::GridMap* map;
  std::string operator()(CellId c) const {
    const grid::CellCoord p = map->coord(c);
    std::string text(1, '[');  // appended piece by piece: GCC 12 warns falsely (-Wrestrict) on a + chain
    text += number_text(p.x);
    text += ',';
    text += number_text(p.y);
    text += ']';
    return text;
  }
};

}  // namespace waymark::io
