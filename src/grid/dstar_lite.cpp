#include "waymark/grid/dstar_lite.hpp"

#include <algorithm>

#include "waymark/core/stopwatch.hpp"
#include "waymark/grid/heuristics.hpp"

namespace waymark::grid {

DStarLite::DStarLite(const GridMap& map, const DStarLiteOptions& options)
    : options_(options),
      space_(map, options.diagonal),
      positions_{&records_},
      heap_(positions_),
      four_connected_(!is_eight_connected(options.diagonal)) {
  WAYMARK_ASSERT(options.restart_area_fraction > 0);
  records_.assign(map.cell_count());
  records_.touch_all();
  refreshed_.assign(map.cell_count());
}

std::size_t DStarLite::memory_bytes() const {
  return records_.memory_bytes() + space_.node_count() * (sizeof(std::uint8_t) + sizeof(search::GenerationMark)) +
         heap_.memory_bytes() + path_.nodes.capacity() * sizeof(CellId);
}

Cost DStarLite::heuristic(std::uint32_t a, std::uint32_t b) const {
  const CellCoord p = map().coord(CellId{a});
  const CellCoord q = map().coord(CellId{b});
  const auto dx = static_cast<double>(p.x > q.x ? p.x - q.x : q.x - p.x);
  const auto dy = static_cast<double>(p.y > q.y ? p.y - q.y : q.y - p.y);
  return scale_ * (four_connected_ ? ManhattanMetric::distance(dx, dy) : OctileMetric::distance(dx, dy));
}

Cost DStarLite::lowest_rhs(std::uint32_t c, std::uint64_t& looked) const {
  if (c == goal_.value) return 0;
  Cost best = infinite_cost;
  space_.for_each_successor(CellId{c}, [&](CellId n, Cost cost) {
    best = std::min(best, cost + record(n.value).g);
    ++looked;
  });
  return best;
}

std::size_t DStarLite::invariant_violations() const {
  if (!planned_) return 0;
  std::size_t bad = 0;
  std::uint64_t looked = 0;
  for (std::uint32_t c = 0; c < map().cell_count(); ++c) {
    const Record& r = record(c);
    if (r.rhs != lowest_rhs(c, looked)) ++bad;
    const Cost key = std::min(r.g, r.rhs) + heuristic(start_.value, c) + km_;
    if (r.g != r.rhs && (r.position == no_position || r.key > key + key_slack * key)) ++bad;
  }
  return bad;
}

void DStarLite::update_vertex(std::uint32_t c, Record& r) {
  if (r.g == r.rhs) return;  // consistent: a heap entry, if any, is dropped when it surfaces
  const Cost h = heuristic(start_.value, c);
  const Cost key = std::min(r.g, r.rhs) + h + km_;
  // Ties toward the larger h + km: the smaller second key part min(g, rhs).
  if (r.position == no_position) {
    r.key = key;
    heap_.push(c, key, h + km_);
    stats_.max_open_size = std::max<std::uint64_t>(stats_.max_open_size, heap_.size());
  } else if (key < r.key) {
    r.key = key;
    heap_.decrease_key(r.position, key, h + km_);
  }
  // A higher key stays low in the heap until the entry surfaces and is pushed again.
}

Status DStarLite::check_ends() const {
  const GridMap& m = map();
  const auto cells = m.cell_count();
  if (start_.value >= cells || goal_.value >= cells)
    return Status::failure(StatusDetail::invalid_query | StatusDetail::out_of_bounds);
  if (!m.passable(goal_)) return Status::failure(StatusDetail::invalid_query | StatusDetail::goal_blocked);
  if (!m.passable(start_)) return Status::failure(StatusDetail::invalid_query | StatusDetail::start_blocked);
  return Status{SearchState::running, StatusDetail::none};
}

Status DStarLite::finish(Status s) {
  status_ = s;
  if (!s.succeeded()) path_.clear();
  return s;
}

Status DStarLite::solve(Status ends, const Stopwatch& clock, const search::Budget& budget) {
  Status s = ends;
  if (!ends.failed()) {
    if (!compute(budget)) {
      stats_.time_s += clock.seconds();
      path_.clear();
      status_ = Status{SearchState::running, StatusDetail::none};
      return status_;
    }
    s = extract_path();
  }
  stats_.time_s += clock.seconds();
  return finish(s);
}

Status DStarLite::plan(CellId start, CellId goal, const search::Budget& budget) {
  const Stopwatch clock;
  stats_ = {};
  path_.clear();
  start_ = last_start_ = start;
  goal_ = goal;
  planned_ = false;
  const Status ends = check_ends();
  if (ends.has(StatusDetail::out_of_bounds)) return finish(ends);
  // A map made from another (a size class) that is behind it: the old world, refused.
  if (map().behind()) return finish(Status::failure(StatusDetail::stale_world));
  planned_ = true;
  if (space_.stale()) space_.sync();
  synced_version_ = map().version();
  records_.reset();
  heap_.clear();
  km_ = 0;
  scale_ = map().heuristic_scale();
  Record& g = touch(goal_.value);
  g.rhs = 0;
  update_vertex(goal_.value, g);
  return solve(ends, clock, budget);
}

void DStarLite::move_start(CellId start) { start_ = start; }

Status DStarLite::replan(const search::Budget& budget) {
  if (!planned_) {
    stats_ = {};
    if (start_.valid() && goal_.valid()) return plan(start_, goal_, budget);
    return finish(Status::failure(StatusDetail::invalid_query));
  }
  const Stopwatch clock;
  if (!status_.running()) stats_ = {};  // a new re-plan; an unfinished one goes on, its stats adding up
  const Status ends = check_ends();
  if (ends.has(StatusDetail::out_of_bounds)) return finish(ends);
  if (map().behind()) return finish(Status::failure(StatusDetail::stale_world));
  if (start_ != last_start_) {
    // The paper's km: keys queued before the move stay lower bounds of the keys after it.
    km_ += heuristic(last_start_.value, start_.value);
    last_start_ = start_;
  }
  if (!repair_edits()) {
    ++restarts_;
    const SearchStats before = stats_;
    const Status s = plan(start_, goal_, budget);
    stats_.generated += before.generated;
    stats_.time_s = before.time_s + clock.seconds();
    return s;
  }
  return solve(ends, clock, budget);
}

bool DStarLite::repair_edits() {
  const GridMap& m = map();
  if (synced_version_ == m.version()) return true;
  const auto changes = m.changes_since(synced_version_);
  space_.sync();
  synced_version_ = m.version();
  // The log no longer reaches back, or keys queued with the old scale could overestimate.
  if (!changes || m.heuristic_scale() < scale_) return false;
  const auto area_of = [&](const GridChange& c) {
    // A cell's edges change with its own cost or passability and, through the diagonal rule,
    // with its two corner cells': every cell whose rhs may change is within one cell.
    return c.area.grown(1).clipped(m.width(), m.height());
  };
  double area = 0;
  for (const GridChange& c : *changes) {
    const CellRect r = area_of(c);
    if (!r.empty()) area += static_cast<double>(r.x1 - r.x0) * static_cast<double>(r.y1 - r.y0);
  }
  if (area > options_.restart_area_fraction * static_cast<double>(m.cell_count())) return false;
  refreshed_.reset();
  for (const GridChange& c : *changes) {
    const CellRect r = area_of(c);
    for (int y = r.y0; y < r.y1; ++y) {
      for (int x = r.x0; x < r.x1; ++x) {
        const std::uint32_t cell = m.cell(x, y).value;
        if (!refreshed_.insert(cell)) continue;
        Record& rc = touch(cell);
        rc.rhs = lowest_rhs(cell, stats_.generated);
        update_vertex(cell, rc);
      }
    }
  }
  return true;
}

bool DStarLite::compute(const search::Budget& budget) {
  return budget.is_unlimited() ? compute_within<false>(budget) : compute_within<true>(budget);
}

template <bool budgeted>
bool DStarLite::compute_within(const search::Budget& budget) {
  const std::uint32_t s = start_.value;
  const search::BudgetMeter meter(budget, stats_.expanded, stats_.generated);
  while (!heap_.empty()) {
    const Record& rs = record(s);
    // The agent's key is (min(g, rhs) + km, min(g, rhs)): h is 0 there. Every other node with
    // the same first part has a smaller second part, so ties are expanded too, and so are
    // keys within key_slack above it: rounding (km, sums in another order) can lift a key
    // that is exactly tied in real numbers a few ulps above, and a skipped tie can be a
    // node of the shortest path.
    const Cost start_key = std::min(rs.g, rs.rhs) + km_;
    if (rs.g == rs.rhs && heap_.top().key() > start_key + key_slack * start_key) break;
    if constexpr (budgeted) {
      if (meter.exhausted(stats_.expanded, stats_.generated)) return false;
    }
    const auto top = heap_.pop();
    const std::uint32_t u = top.slot();
    Record& ru = records_[u];
    ru.position = no_position;
    if (ru.g == ru.rhs) continue;  // became consistent while queued
    const Cost h = heuristic(s, u);
    const Cost key = std::min(ru.g, ru.rhs) + h + km_;
    if (top.key() < key) {  // queued before its key rose (km, or an rhs raised meanwhile)
      ru.key = key;
      heap_.push(u, key, h + km_);
      continue;
    }
    ++stats_.expanded;
    std::uint64_t looked = 0;
    if (ru.g > ru.rhs) {  // overconsistent: settle it, offer it to its neighbours
      ru.g = ru.rhs;
      const Cost gu = ru.g;
      space_.for_each_successor(CellId{u}, [&](CellId p, Cost c) {
        ++looked;
        if (p == goal_) return;
        Record& rp = touch(p.value);
        if (c + gu < rp.rhs) {
          rp.rhs = c + gu;
          update_vertex(p.value, rp);
        }
      });
    } else {  // underconsistent: forget it, and recompute the neighbours that relied on it
      const Cost g_old = ru.g;
      ru.g = infinite_cost;
      update_vertex(u, ru);
      space_.for_each_successor(CellId{u}, [&](CellId p, Cost c) {
        ++looked;
        if (p == goal_) return;
        Record& rp = touch(p.value);
        // Costs are symmetric to the bit, so an rhs taken through u equals c + g_old exactly.
        if (rp.rhs == c + g_old) {
          rp.rhs = lowest_rhs(p.value, looked);
          update_vertex(p.value, rp);
        }
      });
    }
    stats_.generated += looked;
  }
  return true;
}

Status DStarLite::extract_path() {
  path_.clear();
  if (record(start_.value).g == infinite_cost) return Status::failure(StatusDetail::unreachable);
  // Down the g values (the paper's path): each step to a neighbour minimising cost + g.
  std::uint32_t cur = start_.value;
  path_.nodes.push_back(start_);
  Cost total = 0;
  const std::size_t most = map().cell_count();
  std::uint64_t looked = 0;
  while (cur != goal_.value) {
    Cost best = infinite_cost;
    Cost step = 0;
    std::uint32_t next = cur;
    space_.for_each_successor(CellId{cur}, [&](CellId n, Cost c) {
      ++looked;
      const Cost via = c + record(n.value).g;
      if (via < best) {
        best = via;
        step = c;
        next = n.value;
      }
    });
    if (best == infinite_cost || path_.nodes.size() > most) {  // cannot happen with consistent g values
      path_.clear();
      return Status::failure(StatusDetail::unreachable);
    }
    total += step;
    cur = next;
    path_.nodes.push_back(CellId{cur});
  }
  stats_.generated += looked;
  path_.cost = total;
  return Status::success();
}

}  // namespace waymark::grid
