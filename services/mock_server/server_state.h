// ServerState: what every connection of one MockServer shares. Immutable after start except the
// metrics shards (one writer each), the error injector (locked) and the response id counter.
#pragma once
#include <atomic>
#include <chrono>
#include <cstdint>
#include <string>

#include "error_injector.h"
#include "metrics.h"
#include "mock_config.h"
#include "request_recorder.h"
#include "text_pool.h"

namespace aiperf::mock {

struct ServerState {
  ServerState(MockConfig config_in, TextPool pool_in);

  const MockConfig config;
  const TextPool pool;
  const std::chrono::nanoseconds ttft;
  const std::chrono::nanoseconds itl;
  const std::string models_body;  // GET /v1/models
  const std::string root_body;    // GET /
  Metrics metrics;                // one shard per io thread
  ErrorInjector errors;
  RequestRecorder recorder;
  std::atomic<uint64_t> next_response_id{1};
};

}  // namespace aiperf::mock
