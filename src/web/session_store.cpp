#include "web/session_store.hpp"

#include <string>
#include <utility>

#include "web/request.hpp"

namespace waymark::web {
namespace {

using SessionClock = std::chrono::steady_clock;

}  // namespace

bool SessionStoreBase::full() const {
  const auto idle = std::chrono::duration_cast<SessionClock::duration>(std::chrono::duration<double>(idle_seconds_));
  const SessionClock::rep now = SessionClock::now().time_since_epoch().count();
  std::erase_if(sessions_, [&](const auto& entry) { return now - entry.second->used.load() > idle.count(); });
  return sessions_.size() >= capacity_;
}

void SessionStoreBase::refuse_when_full() const {
  if (full())
    throw ApiError(http_too_many, "the server keeps " + std::to_string(capacity_) + " " + what_ + " already; " + stop_);
}

void SessionStoreBase::check_room() const {
  const std::lock_guard lock(mutex_);
  refuse_when_full();
}

std::uint64_t SessionStoreBase::add(std::shared_ptr<TimedSession> session) const {
  const std::lock_guard lock(mutex_);
  refuse_when_full();
  const std::uint64_t id = next_++;
  sessions_.emplace(id, std::move(session));
  return id;
}

std::shared_ptr<TimedSession> SessionStoreBase::find_kept(std::uint64_t id) const {
  const std::lock_guard lock(mutex_);
  const auto it = sessions_.find(id);
  if (it == sessions_.end()) throw ApiError(http_not_found, "no " + what_.substr(0, what_.size() - 1) + " " + std::to_string(id) + " (stopped, or idle too long)");
  return it->second;
}

void SessionStoreBase::remove(const std::shared_ptr<TimedSession>& session) const {
  const std::lock_guard lock(mutex_);
  std::erase_if(sessions_, [&](const auto& entry) { return entry.second == session; });
}

}  // namespace waymark::web
