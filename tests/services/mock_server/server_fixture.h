// Starts a MockServer in-process on a free port for one test.
#pragma once
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "mock_server.h"
#include "test_client.h"

namespace aiperf::mock::test {

// Zero latencies and two io threads: tests check behaviour, not pacing, unless they say so.
inline MockConfig fast_config() {
  MockConfig config;
  config.port = 0;
  config.workers = 2;
  config.fast = true;
  config.no_tokenizer = true;
  return config;
}

struct ServerFixture {
  explicit ServerFixture(MockConfig config = fast_config(), TextPool pool = TextPool::builtin_words())
      : server(std::move(config), std::move(pool)) {
    server.start();
  }
  TestClient client() const { return TestClient(server.port()); }

  MockServer server;
};

// The JSON payload of one `data: {...}\n\n` SSE event.
inline nlohmann::json event_json(const std::string& event) {
  const std::string prefix = "data: ";
  if (event.rfind(prefix, 0) != 0 || event.size() < prefix.size() + 2 ||
      event.substr(event.size() - 2) != "\n\n")
    throw std::runtime_error("not a single SSE data event: " + event);
  return nlohmann::json::parse(event.substr(prefix.size(), event.size() - prefix.size() - 2));
}

}  // namespace aiperf::mock::test
