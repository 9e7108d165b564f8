// Endpoint section of RunConfig (AIPerf "Endpoint" options).
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "config/json_optional.h"

namespace aiperf::config {

struct EndpointConfig {
  std::vector<std::string> model_names;
  std::string model_selection_strategy = "round_robin";
  std::string custom_endpoint;                  // --endpoint
  std::string type = "chat";                    // --endpoint-type
  bool streaming = false;
  std::vector<std::string> urls{"localhost:8000"};
  double timeout_seconds = 21600;               // --request-timeout-seconds
  std::string api_key;                          // never exported
  bool use_legacy_max_tokens = false;
  bool use_server_token_count = false;
  std::string connection_reuse_strategy = "pooled";
  std::string service_kind = "openai";          // --service-kind (GenAI-Perf): openai or triton
  // Ours. Source addresses new connections are bound to, in turn (--local-address, or
  // 127.0.0.1..127.0.0.N when a loopback server needs more than one address's ephemeral
  // ports); empty = the kernel picks.
  std::vector<std::string> local_addresses;
  // Requests one worker keeps on connections at once; later ones queue (0 = the worker's
  // open-file capacity). From AIPERF_HTTP_CONNECTION_LIMIT.
  uint64_t connection_limit = 0;
  bool verify_tls = true;                       // AIPERF_HTTP_SSL_VERIFY
  // Readiness probe and control hooks (common/control/; docs/user-guide.md "Server readiness
  // and control hooks"). Timeouts unset = the reference's 30 s; paths empty = its defaults.
  double wait_for_model_timeout = 0;            // 0 = no probe
  std::string wait_for_model_mode = "inference";  // models | inference | both
  double wait_for_model_interval = 5;
  bool reset_kv_cache = false;
  std::optional<double> reset_kv_cache_timeout_seconds;
  std::string reset_kv_cache_path;              // "" = /reset_prefix_cache
  bool server_profiler = false;
  std::optional<double> server_profiler_timeout_seconds;
  std::string server_profiler_start_path;       // "" = /start_profile
  std::string server_profiler_stop_path;        // "" = /stop_profile
  std::string session_header;                   // "" = X-Correlation-ID
  std::string request_content_type;             // "" = application/json
  bool uuid_and_strip = false;
  bool per_chunk_usage = false;                 // stream_options.continuous_usage_stats
  bool download_video_content = false;          // video_generation: GET the video once the job completes
  double video_poll_interval_seconds = 0.1;     // AIPERF_HTTP_VIDEO_POLL_INTERVAL (0.001 to 10)
};

NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(EndpointConfig, model_names, model_selection_strategy,
                                                custom_endpoint, type, streaming, urls, timeout_seconds, api_key,
                                                use_legacy_max_tokens, use_server_token_count,
                                                connection_reuse_strategy, service_kind, local_addresses,
                                                connection_limit, verify_tls, wait_for_model_timeout,
                                                wait_for_model_mode, wait_for_model_interval, reset_kv_cache,
                                                reset_kv_cache_timeout_seconds, reset_kv_cache_path, server_profiler,
                                                server_profiler_timeout_seconds, server_profiler_start_path,
                                                server_profiler_stop_path, session_header, request_content_type,
                                                uuid_and_strip, per_chunk_usage, download_video_content,
                                                video_poll_interval_seconds)

}  // namespace aiperf::config
