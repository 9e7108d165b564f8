// Resolved addresses per "host:port", kept for a fixed time like aiohttp's connector
// (ttl_dns_cache = 300 s), so new connections do not pay a getaddrinfo round trip each.
#pragma once
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include <boost/asio/ip/tcp.hpp>

namespace aiperf::http {

class DnsCache {
 public:
  using Endpoints = std::vector<boost::asio::ip::tcp::endpoint>;

  // nullptr when absent or expired.
  const Endpoints* find(const std::string& key, int64_t now_ns) const {
    auto it = entries_.find(key);
    if (it == entries_.end() || it->second.expires_ns <= now_ns) return nullptr;
    return &it->second.endpoints;
  }

  void store(const std::string& key, Endpoints endpoints, int64_t now_ns) {
    Entry& e = entries_[key];
    e.endpoints = std::move(endpoints);
    e.expires_ns = now_ns + kTtlNs;
  }

 private:
  static constexpr int64_t kTtlNs = 300'000'000'000;
  struct Entry {
    Endpoints endpoints;
    int64_t expires_ns = 0;
  };
  std::unordered_map<std::string, Entry> entries_;
};

}  // namespace aiperf::http
