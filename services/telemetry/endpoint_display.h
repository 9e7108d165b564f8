// How an endpoint URL is shown in exports: "http://node1:9401/metrics" -> "node1:9401", and a
// URL with a longer path keeps it ("127.0.0.1:8000/dcgm1") so two exporters behind one port
// stay apart.
#pragma once
#include <string>

namespace aiperf::telemetry {

inline std::string endpoint_display(std::string url) {
  const size_t scheme = url.find("://");
  if (scheme != std::string::npos) url.erase(0, scheme + 3);
  const std::string suffix = "/metrics";
  if (url.size() >= suffix.size() && url.compare(url.size() - suffix.size(), suffix.size(), suffix) == 0)
    url.resize(url.size() - suffix.size());
  return url;
}

}  // namespace aiperf::telemetry
