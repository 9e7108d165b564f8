// A local stand-in for the HuggingFace Hub: a Beast HTTP server on 127.0.0.1:<ephemeral> that
// answers fixed routes and records the Authorization header of every request. Tests point
// HF_ENDPOINT at it; nothing ever reaches the internet.
#pragma once
#include <atomic>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace aiperf::test {

struct FakeRoute {
  int status = 200;
  std::map<std::string, std::string> headers;
  std::string body;
};

class FakeHub {
 public:
  // target -> response, others 404. "{port}" in a header value becomes the server's port.
  explicit FakeHub(std::map<std::string, FakeRoute> routes);
  ~FakeHub();
  int port() const { return port_; }
  // (target, Authorization header or "") of each request received, in order.
  std::vector<std::pair<std::string, std::string>> requests() const;

 private:
  std::map<std::string, FakeRoute> routes_;
  int port_ = 0;
  std::atomic<bool> stop_{false};
  mutable std::mutex mu_;
  std::vector<std::pair<std::string, std::string>> requests_;
  std::thread thread_;
};

}  // namespace aiperf::test
