// Starts a MockServer in-process on a free port for one test.
#pragma once
#include <nlohmann/json.hpp>

#include <algorithm>
#include <stdexcept>
#include <string>
#include <utility>
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

// A POST of `body` to `target`.
inline Request post(const std::string& target, std::string body) {
  return make_request(http::verb::post, target, std::move(body));
}

// "event: <type>\ndata: {...}\n\n" (a named SSE event) -> (type, its JSON payload).
inline std::pair<std::string, nlohmann::json> typed_event(const std::string& chunk) {
  const size_t newline = chunk.find('\n');
  if (chunk.rfind("event: ", 0) != 0 || newline == std::string::npos)
    throw std::runtime_error("not a named SSE event: " + chunk);
  return {chunk.substr(7, newline - 7), event_json(chunk.substr(newline + 1))};
}

// Spaces in a text: the mock's words are space-separated, one token each.
inline int spaces(const std::string& text) { return static_cast<int>(std::count(text.begin(), text.end(), ' ')); }

}  // namespace aiperf::mock::test
