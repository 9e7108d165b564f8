// Idle keep-alive connections per origin ("scheme://host:port"). Single-threaded: used only
// from the client's io thread.
#pragma once
#include <cstddef>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "http/connection.h"

namespace aiperf::http {

class ConnectionPool {
 public:
  explicit ConnectionPool(size_t max_idle_per_origin) : max_idle_(max_idle_per_origin) {}

  // The most recently returned idle connection (the one least likely to have been closed
  // by the server's idle timeout), or nullptr.
  std::unique_ptr<Connection> take(const std::string& origin);

  // Keeps `connection` for reuse; closes it instead when the origin already has the maximum.
  void put(const std::string& origin, std::unique_ptr<Connection> connection);

  void clear();

 private:
  size_t max_idle_;
  std::unordered_map<std::string, std::vector<std::unique_ptr<Connection>>> idle_;
};

}  // namespace aiperf::http
