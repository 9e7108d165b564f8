// MockConfig: everything aiperf-mock-server is told on its command line (or MOCK_SERVER_* env vars).
#pragma once
#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <thread>

namespace aiperf::mock {

struct MockConfig {
  std::string host = "127.0.0.1";
  uint16_t port = 8000;  // 0 = let the kernel pick; MockServer::port() tells which
  // io threads, each with its own io_context. One thread serves ~25k req/s or ~150k SSE chunks/s;
  // more than 4 only takes cores from the client sharing the machine.
  unsigned workers = std::clamp(std::thread::hardware_concurrency(), 1u, 4u);
  double ttft_ms = 20.0;
  double itl_ms = 5.0;
  bool fast = false;  // overrides ttft_ms/itl_ms with 0
  double error_rate_percent = 0.0;
  std::optional<uint64_t> random_seed;  // set => error injection is reproducible
  std::string tokenizer = "gpt2";
  bool no_tokenizer = false;
  std::string log_level = "INFO";
  bool access_logs = false;
  std::string record_requests;  // file receiving every POST request as a JSON line; empty = off

  double effective_ttft_ms() const { return fast ? 0.0 : ttft_ms; }
  double effective_itl_ms() const { return fast ? 0.0 : itl_ms; }
  bool logs_info() const { return log_level == "DEBUG" || log_level == "INFO"; }
};

}  // namespace aiperf::mock
