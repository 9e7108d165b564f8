// Endpoint section of RunConfig (AIPerf "Endpoint" options).
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "config/config_enum.h"
#include "config/json_optional.h"

namespace aiperf::config {

// --model-selection-strategy: which model a dataset entry is sent to.
enum class ModelSelectionStrategy { kRoundRobin, kRandom };
constexpr auto enum_names(ModelSelectionStrategy) {
  using E = ModelSelectionStrategy;
  return std::array{EnumName<E>{E::kRoundRobin, "round_robin"}, EnumName<E>{E::kRandom, "random"}};
}
AIPERF_CONFIG_ENUM_JSON(ModelSelectionStrategy, "model_selection_strategy")

// --connection-reuse-strategy: keep-alive pool, or a new connection per request.
enum class ConnectionReuseStrategy { kPooled, kNever, kStickyUserSessions };
constexpr auto enum_names(ConnectionReuseStrategy) {
  using E = ConnectionReuseStrategy;
  return std::array{EnumName<E>{E::kPooled, "pooled"}, EnumName<E>{E::kNever, "never"},
                    EnumName<E>{E::kStickyUserSessions, "sticky-user-sessions"}};
}
AIPERF_CONFIG_ENUM_JSON(ConnectionReuseStrategy, "connection_reuse_strategy")

// --wait-for-model-mode: what the readiness probe asks (GET /v1/models, a 1-token request, both).
enum class WaitForModelMode { kModels, kInference, kBoth };
constexpr auto enum_names(WaitForModelMode) {
  using E = WaitForModelMode;
  return std::array{EnumName<E>{E::kModels, "models"}, EnumName<E>{E::kInference, "inference"},
                    EnumName<E>{E::kBoth, "both"}};
}
AIPERF_CONFIG_ENUM_JSON(WaitForModelMode, "wait_for_model_mode")

// --request-content-type; kNone (not given) = the endpoint type's own encoding.
enum class RequestContentType { kNone, kJson, kFormData };
constexpr auto enum_names(RequestContentType) {
  using E = RequestContentType;
  return std::array{EnumName<E>{E::kNone, ""}, EnumName<E>{E::kJson, "application/json"},
                    EnumName<E>{E::kFormData, "multipart/form-data"}};
}
AIPERF_CONFIG_ENUM_JSON(RequestContentType, "request_content_type")

struct EndpointConfig {
  std::vector<std::string> model_names;
  ModelSelectionStrategy model_selection_strategy = ModelSelectionStrategy::kRoundRobin;
  std::string custom_endpoint;                  // --endpoint
  std::string type = "chat";                    // --endpoint-type
  bool streaming = false;
  std::vector<std::string> urls{"localhost:8000"};
  double timeout_seconds = 21600;               // --request-timeout-seconds
  std::string api_key;                          // never exported
  bool use_legacy_max_tokens = false;
  bool use_server_token_count = false;
  ConnectionReuseStrategy connection_reuse_strategy = ConnectionReuseStrategy::kPooled;
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
  WaitForModelMode wait_for_model_mode = WaitForModelMode::kInference;
  double wait_for_model_interval = 5;
  bool reset_kv_cache = false;
  std::optional<double> reset_kv_cache_timeout_seconds;
  std::string reset_kv_cache_path;              // "" = /reset_prefix_cache
  bool server_profiler = false;
  std::optional<double> server_profiler_timeout_seconds;
  std::string server_profiler_start_path;       // "" = /start_profile
  std::string server_profiler_stop_path;        // "" = /stop_profile
  std::string session_header;                   // "" = X-Correlation-ID
  RequestContentType request_content_type = RequestContentType::kNone;
  bool uuid_and_strip = false;
  bool per_chunk_usage = false;                 // stream_options.continuous_usage_stats
  // GenAI-Perf 0.0.16's request bodies (the genai-perf front end): no stream_options, a completions
  // prompt always a list.
  bool genai_perf_payloads = false;
  // kserve: the tensors of Triton's vLLM backend (GenAI-Perf's --backend vllm) instead of
  // TensorRT-LLM's (the genai-perf front end).
  bool kserve_vllm = false;
  // chat: every message's content as a list of parts, a lone text too (GenAI-Perf's multimodal
  // converter; the genai-perf front end).
  bool chat_content_parts = false;
  bool download_video_content = false;          // video_generation: GET the video once the job completes
  double video_poll_interval_seconds = 0.1;     // AIPERF_HTTP_VIDEO_POLL_INTERVAL (0.001 to 10)
};

NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(EndpointConfig, model_names, model_selection_strategy, custom_endpoint,
                                                type, streaming, urls, timeout_seconds, api_key, use_legacy_max_tokens,
                                                use_server_token_count, connection_reuse_strategy, service_kind,
                                                local_addresses, connection_limit, verify_tls, wait_for_model_timeout,
                                                wait_for_model_mode, wait_for_model_interval, reset_kv_cache,
                                                reset_kv_cache_timeout_seconds, reset_kv_cache_path, server_profiler,
                                                server_profiler_timeout_seconds, server_profiler_start_path,
                                                server_profiler_stop_path, session_header, request_content_type,
                                                uuid_and_strip, per_chunk_usage, genai_perf_payloads, kserve_vllm,
                                                chat_content_parts, download_video_content, video_poll_interval_seconds)

}  // namespace aiperf::config
