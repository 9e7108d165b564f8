// ServerState: what every connection of one MockServer shares. Immutable after start except the
// metrics shards (one writer each), the error and fault injectors (locked) and the response id counter.
#pragma once
#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <string>

#include "dcgm_simulator.h"
#include "engine_driver.h"
#include "error_injector.h"
#include "fault_injector.h"
#include "metrics.h"
#include "mock_config.h"
#include "request_recorder.h"
#include "text_pool.h"
#include "video_api.h"

namespace aiperf::mock {

struct ServerState {
  // `shared`: where this process writes its metrics when several processes serve (--processes).
  ServerState(MockConfig config_in, TextPool pool_in, SharedShards shared = {});

  const MockConfig config;
  const TextPool pool;
  const std::chrono::nanoseconds ttft;
  const std::chrono::nanoseconds itl;
  struct PerItemLatency {
    std::chrono::nanoseconds base{0};
    std::chrono::nanoseconds per_item{0};
  };
  const PerItemLatency embedding_latency;  // 0 with --fast
  const PerItemLatency ranking_latency;
  const std::string models_body;  // GET /v1/models
  const std::string root_body;    // GET /
  Metrics metrics;                // one shard per io thread
  DcgmSimulator dcgm{config};     // /dcgm1/metrics, /dcgm2/metrics
  ErrorInjector errors;
  FaultInjector faults;
  const std::chrono::nanoseconds fault_stall;
  const std::chrono::nanoseconds fault_slow_headers;
  const std::string huge_text;  // huge_event's extra text; empty unless that fault is set
  RequestRecorder recorder;
  ControlRoutes control{config.control};  // control hooks, readiness, header counts
  std::atomic<uint64_t> next_response_id{1};
  VideoJobs videos;  // /v1/videos jobs
  // --engine-slots: the engine model pacing generation requests; null when off.
  const std::unique_ptr<EngineDriver> engine;
};

}  // namespace aiperf::mock
