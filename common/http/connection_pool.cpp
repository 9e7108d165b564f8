#include "http/connection_pool.h"

namespace aiperf::http {

std::unique_ptr<Connection> ConnectionPool::take(const std::string& origin) {
  auto it = idle_.find(origin);
  if (it == idle_.end() || it->second.empty()) return nullptr;
  std::unique_ptr<Connection> c = std::move(it->second.back());
  it->second.pop_back();
  return c;
}

void ConnectionPool::put(const std::string& origin, std::unique_ptr<Connection> connection) {
  auto& list = idle_[origin];
  if (list.size() >= max_idle_) {
    connection->close();
    return;
  }
  list.push_back(std::move(connection));
}

void ConnectionPool::clear() {
  for (auto& [origin, list] : idle_) {
    for (auto& c : list) c->close();
  }
  idle_.clear();
}

}  // namespace aiperf::http
