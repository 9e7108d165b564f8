// Endpoint section of RunConfig (AIPerf "Endpoint" options).
#pragma once
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
};

NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(EndpointConfig, model_names, model_selection_strategy,
                                                custom_endpoint, type, streaming, urls, timeout_seconds, api_key,
                                                use_legacy_max_tokens, use_server_token_count,
                                                connection_reuse_strategy, service_kind, local_addresses,
                                                connection_limit, verify_tls)

}  // namespace aiperf::config
