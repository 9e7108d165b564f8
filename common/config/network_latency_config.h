// Network latency section of RunConfig (AIPerf "Network Latency" options): the client-to-
// endpoint round trip subtracted from the request-start-anchored latencies, reported as the
// separate network_adjusted_* metrics (the raw ones are kept).
#pragma once
#include <optional>

#include "config/json_optional.h"

namespace aiperf::config {

struct NetworkLatencyConfig {
  bool enabled = false;           // --network-latency-automatic or --network-latency-mean
  std::optional<double> mean_ms;  // --network-latency-mean: a fixed RTT, no probes
  double ping_interval_s = 1.0;   // --network-latency-ping-interval (automatic only)
  // Automatic mode: probe the endpoints (enabled and no fixed mean).
  bool should_probe() const { return enabled && !mean_ms; }
};

NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(NetworkLatencyConfig, enabled, mean_ms, ping_interval_s)

}  // namespace aiperf::config
