#include "web/session_store.hpp"

#include <algorithm>
#include <string>
#include <utility>

#include "web/request.hpp"

#include "waymark/core/text.hpp"

namespace waymark::web {
namespace {

using SessionClock = std::chrono::steady_clock;

}  // namespace

void SessionStoreBase::refuse_when_full(std::string_view client) const {
  const auto idle = std::chrono::duration_cast<SessionClock::duration>(std::chrono::duration<double>(idle_seconds_));
  const SessionClock::rep now = SessionClock::now().time_since_epoch().count();
  std::erase_if(sessions_, [&](const auto& entry) { return now - entry.second.session->used.load() > idle.count(); });
  if (sessions_.size() >= capacity_)
    throw ApiError(http_too_many, "the server keeps " + number_text(capacity_) + " " + what_ + " already; " + stop_);
  if (client.empty()) return;
  const auto own = static_cast<std::size_t>(
      std::count_if(sessions_.begin(), sessions_.end(), [&](const auto& entry) { return entry.second.client == client; }));
  if (own >= per_client_)
    throw ApiError(http_too_many, "this client keeps " + number_text(own) + " of the server's " + number_text(capacity_) + " " +
                                      what_ + " already, as many as one client may (the server's max_client_session_share); " + stop_);
}

void SessionStoreBase::check_room(std::string_view client) const {
  const std::lock_guard lock(mutex_);
  refuse_when_full(client);
}

std::uint64_t SessionStoreBase::add(std::shared_ptr<TimedSession> session, std::string_view client) const {
  const std::lock_guard lock(mutex_);
  refuse_when_full(client);
  const std::uint64_t id = next_++;
  sessions_.emplace(id, Kept{std::move(session), std::string(client)});
  return id;
}

std::shared_ptr<TimedSession> SessionStoreBase::find_kept(std::uint64_t id) const {
  const std::lock_guard lock(mutex_);
  const auto it = sessions_.find(id);
  if (it == sessions_.end()) throw ApiError(http_not_found, "no " + what_.substr(0, what_.size() - 1) + " " + number_text(id) + " (stopped, or idle too long)");
  return it->second.session;
}

void SessionStoreBase::remove(const std::shared_ptr<TimedSession>& session) const {
  const std::lock_guard lock(mutex_);
  std::erase_if(sessions_, [&](const auto& entry) { return entry.second.session == session; });
}

}  // namespace waymark::web
