#include "waymark/io/nav_links.hpp"

#include <array>
#include <cmath>
#include <cstdint>
#include <string_view>

#include "text_lines.hpp"

#include "waymark/core/text.hpp"

namespace waymark::io {

using detail::LineReader;
using detail::parse_number;
using detail::split_fields;

namespace {

/// `c`, six coordinates, radius, direction, area, flags.
constexpr std::size_t link_fields = 11;

}  // namespace

std::vector<navmesh::OffMeshLink> parse_nav_links(std::istream& in, const std::string& name,
                                                  const NavLinksLoadOptions& options) {
  std::vector<navmesh::OffMeshLink> links;
  LineReader r(in, name);
  std::string line;
  while (r.next(line)) {
    const auto f = split_fields(line);
    if (f.empty() || f[0] != "c") continue;
    if (f.size() != link_fields) {
      r.fail("expected 'c X0 Y0 Z0 X1 Y1 Z1 RADIUS BIDIR AREA FLAGS', got " + number_text(f.size() - 1) + " fields");
    }
    if (links.size() >= options.max_links) {
      r.fail("more than " + number_text(options.max_links) +
             " links (the limit NavLinksLoadOptions::max_links; a navmesh holds at most navmesh::max_links)");
    }
    std::array<double, 7> v{};
    for (std::size_t i = 0; i < v.size(); ++i) {
      if (!parse_number(f[i + 1], v[i]) || !std::isfinite(v[i])) {
        r.fail(std::string(i < 6 ? "link coordinate" : "link radius") + " must be a finite number, got " +
               waymark::quoted(f[i + 1]));
      }
    }
    if (!(v[6] > 0)) r.fail("link radius must be > 0, got " + waymark::quoted(f[7]));
    if (f[8] != "0" && f[8] != "1") r.fail("link direction must be 0 (one way) or 1 (both ways), got " + waymark::quoted(f[8]));
    unsigned area = 0;
    if (!parse_number(f[9], area) || area >= navmesh::max_areas) {
      r.fail("link area must be a number from 0 to " + number_text(navmesh::max_areas - 1) + ", got " + waymark::quoted(f[9]));
    }
    navmesh::OffMeshLink l;
    l.start = {v[0], v[1], v[2]};
    l.end = {v[3], v[4], v[5]};
    l.radius = v[6];
    l.bidirectional = f[8] == "1";
    l.area = static_cast<std::uint8_t>(area);
    l.flags = detail::parse_flag_mask(r, f[10], "link flags");
    l.user_id = static_cast<std::uint32_t>(links.size());
    links.push_back(l);
  }
  return links;
}

std::vector<navmesh::OffMeshLink> load_nav_links(const std::string& path, const NavLinksLoadOptions& options) {
  std::ifstream in = open_input_file(path);
  return parse_nav_links(in, path, options);
}

}  // namespace waymark::io
