#pragma once
// What the API keeps between requests: the live simulations of `POST /api/sim/*` and the
// navmesh levels a page drops obstacles on (`POST /api/navmesh/obstacle`), each in a bounded
// store of sessions by id, each dropped when stopped or left idle too long. Internal to src/web.

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <utility>
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

/// What every kept session has: when a request last touched it.
struct TimedSession {
  TimedSession() = default;
  TimedSession(const TimedSession&) = delete;
  TimedSession& operator=(const TimedSession&) = delete;
  virtual ~TimedSession() = default;
  /// When a request last touched it (steady_clock ticks): read by other sessions' starts
  /// without this session's mutex, hence atomic.
  std::atomic<std::chrono::steady_clock::rep> used{0};
  void touch() { used = std::chrono::steady_clock::now().time_since_epoch().count(); }
};

/// One live simulation.
struct Session : TimedSession {
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
};

/// At most `capacity` sessions, and at most `per_client` of them started by one client (a
/// remote address; an unnamed client, "", has no share of its own); those untouched for
/// `idle_seconds` make room. Thread-safe. `what` names them in refusals ("simulations"),
/// `stop` says how to end one.
class SessionStoreBase {
 public:
  SessionStoreBase(std::size_t capacity, std::size_t per_client, double idle_seconds, std::string what, std::string stop)
      : capacity_(capacity), per_client_(per_client), idle_seconds_(idle_seconds), what_(std::move(what)), stop_(std::move(stop)) {}

  /// Refuses (ApiError 429) when the store is full once idle sessions are dropped, or when
  /// `client` keeps its share already: called before a new session's work, and again by add().
  void check_room(std::string_view client) const;
  /// Keeps `session`, started by `client`, and returns its id (429 as check_room()).
  std::uint64_t add(std::shared_ptr<TimedSession> session, std::string_view client) const;
  /// Drops `session` (nothing when it is gone already).
  void remove(const std::shared_ptr<TimedSession>& session) const;

 protected:
  /// The session `id`, or ApiError 404.
  [[nodiscard]] std::shared_ptr<TimedSession> find_kept(std::uint64_t id) const;

 private:
  struct Kept {
    std::shared_ptr<TimedSession> session;
    std::string client;  ///< who started it
  };
  /// Under mutex_: drops idle sessions, then ApiError 429 when there is no room for `client`.
  void refuse_when_full(std::string_view client) const;

  std::size_t capacity_;
  std::size_t per_client_;
  double idle_seconds_;
  std::string what_;
  std::string stop_;
  mutable std::mutex mutex_;
  mutable std::map<std::uint64_t, Kept> sessions_;
  mutable std::uint64_t next_ = 1;
};

/// A store of sessions of type S (derived from TimedSession).
template <class S>
class SessionStoreOf : public SessionStoreBase {
 public:
  using SessionStoreBase::SessionStoreBase;
  /// The session `id`, or ApiError 404.
  [[nodiscard]] std::shared_ptr<S> find(std::uint64_t id) const { return std::static_pointer_cast<S>(find_kept(id)); }
};

/// The live simulations.
class SessionStore : public SessionStoreOf<Session> {
 public:
  SessionStore(std::size_t capacity, std::size_t per_client, double idle_seconds)
      : SessionStoreOf(capacity, per_client, idle_seconds, "simulations", "stop one (POST /api/sim/stop)") {}
};

}  // namespace waymark::web
