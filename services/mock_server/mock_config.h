// MockConfig: everything aiperf-mock-server is told on its command line (or MOCK_SERVER_* env vars).
#pragma once
#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "control_routes.h"
#include "engine_model.h"
#include "fault_injector.h"
#include "reply_rules.h"
#include "usage_script.h"

namespace aiperf::mock {

struct MockConfig {
  std::string host = "127.0.0.1";
  uint16_t port = 8000;  // 0 = let the kernel pick; MockServer::port() tells which
  // KServe v2 gRPC mode (grpc_server.h) on this port too; 0 = the kernel picks, -1 = off.
  int grpc_port = -1;
  // io threads, each with its own io_context. One thread serves ~25k req/s or ~150k SSE chunks/s;
  // more than 4 only takes cores from the client sharing the machine.
  unsigned workers = std::clamp(std::thread::hardware_concurrency(), 1u, 4u);
  // Server processes sharing the port (SO_REUSEPORT), each with its own open-file limit, for more
  // connections than one process may open (ulimit -Hn). Metrics are summed over all of them.
  unsigned processes = 1;
  double ttft_ms = 20.0;
  double itl_ms = 5.0;
  bool fast = false;  // overrides every latency with 0
  // Imitates llama.cpp's server: the connection ends after each streamed response although the
  // response said keep-alive (the next request is read and discarded, then FIN).
  bool close_after_stream = false;
  // Imitates llama.cpp's `timings` object (llama_timings.h) in chat/completions answers: in the
  // non-streaming body and in the stream's last event (the usage one, or one of its own).
  bool timings = false;
  // --usage-cached-tokens, --usage-fields, --spec-decode: scripted usage extras (usage_script.h).
  UsageScript usage;
  // Embeddings/rankings answer after base + per_item * inputs (passages), ms (spec §8.1).
  double embedding_base_latency_ms = 10.0;
  double embedding_per_input_latency_ms = 2.0;
  double ranking_base_latency_ms = 10.0;
  double ranking_per_passage_latency_ms = 1.0;
  double error_rate_percent = 0.0;
  // --max-context N: a generation request whose prompt + max tokens exceed N gets vLLM's HTTP 400
  // "maximum context length" answer (AIPerf's agentic replay classifies it as a context overflow).
  std::optional<uint64_t> max_context;
  std::optional<uint64_t> random_seed;  // set => error and fault injection are reproducible
  // --fault KIND[:PERCENT] (fault_injector.h) and the faults' parameters.
  std::vector<FaultSpec> faults;
  double fault_stall_ms = 30000.0;         // stall_after_headers, stall_mid_stream
  unsigned fault_retry_after_s = 1;        // http_429's Retry-After
  double fault_slow_headers_ms = 2000.0;   // slow_headers: the head's pieces span this
  size_t fault_event_bytes = 10u << 20;    // huge_event: extra text in one event (10 MiB)
  std::string tokenizer = "gpt2";
  bool no_tokenizer = false;
  std::string log_level = "INFO";
  bool access_logs = false;
  // Fake DCGM exporters (spec §8.1): GPU model, GPUs per exporter, load following throughput.
  std::string dcgm_gpu_name = "h200";
  unsigned dcgm_num_gpus = 2;
  bool dcgm_auto_load = true;
  double dcgm_min_throughput = 100.0;  // tokens/s: the load floor's scale
  double dcgm_window_sec = 1.0;
  std::string dcgm_hostname = "localhost";
  std::optional<uint64_t> dcgm_seed;
  std::string record_requests;  // file receiving every POST request as a JSON line; empty = off
  ControlSpec control;          // control hooks, readiness, header counts (control_routes.h)
  EngineSpec engine;            // --engine-*: a continuous-batching engine sets the generation latencies
  std::vector<ReplyRule> reply_rules;  // --reply-rules: scripted answers (reply_rules.h)

  double effective_ttft_ms() const { return fast ? 0.0 : ttft_ms; }
  double effective_itl_ms() const { return fast ? 0.0 : itl_ms; }
  bool logs_info() const { return log_level == "DEBUG" || log_level == "INFO"; }
};

}  // namespace aiperf::mock
