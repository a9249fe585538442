#pragma once
// The live simulations `POST /api/sim/*` keeps between requests: a bounded store of sessions
// by id, each dropped when stopped or left idle too long. Internal to src/web.

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "waymark/navmesh/nav_mesh.hpp"
#include "waymark/steer/simulation.hpp"

namespace waymark::web {

/// A collider a page dropped into a simulation (POST /api/sim/obstacle): only these may be
/// removed again (a navmesh's walls are colliders of the same world).
struct SessionObstacle {
  steer::ColliderId id;
  steer::Shape shape;  ///< a Circle or a Box
};

/// One live simulation.
struct Session {
  std::mutex mutex;  ///< one request at a time steps, grows or edits it
  std::unique_ptr<steer::Simulation> sim;
  /// A navmesh session's level (the path service refers to it) and its name; null and empty
  /// on a grid map.
  std::shared_ptr<const navmesh::NavMesh> mesh;
  std::string level;
  double dt = 0.05;
  /// Bumped by every change of the world a request makes (a map edit, an obstacle added or
  /// removed): a page that sees a step answer's "world" ahead of its own fetches the world.
  std::uint64_t world = 0;
  std::vector<SessionObstacle> obstacles;
  /// When a request last touched it (steady_clock ticks): read by other sessions' starts
  /// without this session's mutex, hence atomic.
  std::atomic<std::chrono::steady_clock::rep> used{0};
  void touch() { used = std::chrono::steady_clock::now().time_since_epoch().count(); }
};

/// At most `capacity` sessions; those untouched for `idle_seconds` make room. Thread-safe.
class SessionStore {
 public:
  SessionStore(std::size_t capacity, double idle_seconds) : capacity_(capacity), idle_seconds_(idle_seconds) {}

  /// Refuses (ApiError 429) when the store is full once idle sessions are dropped: called
  /// before a new session's work, and again by add().
  void check_room() const;
  /// Keeps `session` and returns its id (429 when full).
  std::uint64_t add(std::shared_ptr<Session> session) const;
  /// The session `id`, or ApiError 404.
  [[nodiscard]] std::shared_ptr<Session> find(std::uint64_t id) const;
  /// Drops `session` (nothing when it is gone already).
  void remove(const std::shared_ptr<Session>& session) const;

 private:
  /// Under mutex_: drops idle sessions, then says whether there is room.
  [[nodiscard]] bool full() const;
  /// Under mutex_: ApiError 429 when full().
  void refuse_when_full() const;

  std::size_t capacity_;
  double idle_seconds_;
  mutable std::mutex mutex_;
  mutable std::map<std::uint64_t, std::shared_ptr<Session>> sessions_;
  mutable std::uint64_t next_ = 1;
};

}  // namespace waymark::web
