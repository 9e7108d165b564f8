// Network Latency group (AIPerf 0.13): --network-latency-automatic probes the endpoints' TCP
// handshake round trip during the profiling phase, --network-latency-mean sets it directly;
// either way the mean is subtracted from request latency, TTFT and TTFO as the separate
// network_adjusted_* metrics (services/records/network_probe.h, metrics/network_adjusted.h).
#include "options.h"
#include "validators.h"

namespace aiperf::cli {

void add_network_latency_options(CLI::App& app, ProfileOptions& o) {
  auto& n = o.network_latency;
  const char* g = "Network Latency";
  app.add_flag("--network-latency-automatic", n.automatic,
               "Measure the endpoint's TCP-handshake RTT during profiling and report latencies with its mean "
               "subtracted (network_adjusted_*); exclusive with --network-latency-mean")
      ->group(g);
  add_optional(app, "--network-latency-mean", n.mean_ms,
               "Fixed mean network RTT in ms to subtract (no probes); enables the adjustment")
      ->check(kNonNegative)->group(g);
  add_optional(app, "--network-latency-ping-interval", n.ping_interval,
               "Seconds between RTT probes (default 1.0); only with --network-latency-automatic")
      ->check(kPositive)->group(g);
}

// AIPerf's build_network_latency checks, with its messages.
void finalize_network_latency_options(ProfileOptions& o) {
  const auto& n = o.network_latency;
  auto& c = o.config.network_latency;
  if (n.mean_ms && n.automatic)
    throw OptionError(
        "Cannot use both --network-latency-automatic and --network-latency-mean together. "
        "Automatic measures the RTT; mean sets it directly.");
  if (n.mean_ms) {
    if (n.ping_interval)
      throw OptionError(
          "--network-latency-ping-interval only applies with --network-latency-automatic, "
          "not with --network-latency-mean.");
    c.enabled = true;
    c.mean_ms = n.mean_ms;
    return;
  }
  if (!n.automatic) {
    if (n.ping_interval)
      throw OptionError(
          "--network-latency-ping-interval only applies when --network-latency-automatic "
          "is set (or --network-latency-mean is provided).");
    return;
  }
  c.enabled = true;
  if (n.ping_interval) c.ping_interval_s = *n.ping_interval;
}

}  // namespace aiperf::cli
