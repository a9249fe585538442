#pragma once
/// @file The cells of a uniform grid of square cells that a ray passes through, in order
/// (Amanatides–Woo), in floating point: the one walk shared by the visibility graph's broad
/// phase, the obstacle world's broad phase and its raycasts over a GridMap's cells. Inline, no
/// allocation.
///
/// Exact line of sight between two grid cell centres is another kernel: it walks in integers
/// and reports the corners a segment passes exactly through (grid/line_of_sight.hpp,
/// walk_segment).

#include <cmath>
#include <limits>

#include "waymark/core/geometry.hpp"

namespace waymark {

/// The walk along o + t·d (t ≥ 0 growing) over square cells of side `side` whose cell (0, 0)
/// has its low corner at `origin`. It knows no grid size: the caller stops it, at the grid's
/// border or once exit() passes the last parameter it wants.
///
/// Cell borders are computed from the cell index (origin + index·side), not by adding steps,
/// so a long walk does not drift. Where the ray crosses a corner exactly (both borders at the
/// same t) it steps in x first, then in y: the cell beside the corner is visited, not skipped.
class CellWalk {
 public:
  /// Which border the last step crossed.
  struct Step {
    bool across_x = false;  ///< a vertical border (x changed); else a horizontal one
    double t = 0;           ///< the parameter at which the ray crossed it
    double border = 0;      ///< the border's world coordinate (x for a vertical border, else y)
  };

  /// Starts in cell (x, y): the cell holding the point the caller starts from.
  CellWalk(Vec2 origin, double side, Vec2 o, Vec2 d, int x, int y)
      : origin_(origin), side_(side), o_(o), d_(d), sx_(d.x > 0 ? 1 : d.x < 0 ? -1 : 0),
        sy_(d.y > 0 ? 1 : d.y < 0 ? -1 : 0), ahead_x_(sx_ > 0 ? 1 : 0), ahead_y_(sy_ > 0 ? 1 : 0), x_(x), y_(y),
        tx_(next_x()), ty_(next_y()) {}

  [[nodiscard]] int x() const { return x_; }
  [[nodiscard]] int y() const { return y_; }
  /// The step direction per axis: -1, 0 or +1.
  [[nodiscard]] int step_x() const { return sx_; }
  [[nodiscard]] int step_y() const { return sy_; }
  /// The parameter at which the ray leaves the current cell: infinity when it never does.
  [[nodiscard]] double exit() const { return tx_ < ty_ ? tx_ : ty_; }

  /// Moves into the next cell along the ray, through the border crossed first.
  Step step() {
    if (tx_ <= ty_) {
      const Step s{true, tx_, border_x()};
      x_ += sx_;
      tx_ = next_x();
      return s;
    }
    const Step s{false, ty_, border_y()};
    y_ += sy_;
    ty_ = next_y();
    return s;
  }

 private:
  static constexpr double never = std::numeric_limits<double>::infinity();

  /// The world coordinate of the current cell's border the ray leaves through, per axis.
  [[nodiscard]] double border_x() const { return origin_.x + (x_ + ahead_x_) * side_; }
  [[nodiscard]] double border_y() const { return origin_.y + (y_ + ahead_y_) * side_; }
  [[nodiscard]] double next_x() const { return sx_ == 0 ? never : (border_x() - o_.x) / d_.x; }
  [[nodiscard]] double next_y() const { return sy_ == 0 ? never : (border_y() - o_.y) / d_.y; }

  Vec2 origin_;
  double side_;
  Vec2 o_;
  Vec2 d_;
  int sx_;
  int sy_;
  int ahead_x_;  ///< 1 when the walk heads towards +x: the border it leaves by is the cell's far one
  int ahead_y_;
  int x_;
  int y_;
  double tx_;
  double ty_;
};

}  // namespace waymark
