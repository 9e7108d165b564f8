// --network-latency-automatic (AIPerf 0.13's network latency manager and probe collector):
// one probe target per distinct host:port of the --url list; every ping interval during the
// run a fresh TCP connection is opened to each and its handshake timed (a pooled connection
// would measure nothing; https targets get a plain TCP connect, so the RTT means the same for
// both). At the end of the profiling phase each target is topped up to 5 successful samples
// (at most 10 tries, 3 s in all). Every sample, failed ones included, becomes one line of
// profile_export_network_latency.jsonl; the mean of the successful RTTs is what the records
// service subtracts for the network_adjusted_* metrics.
#pragma once
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace aiperf::records {

struct ProbeTarget {
  std::string url;   // the --url it came from
  std::string host;  // as written in the URL
  uint16_t port = 80;
};

// One probe: rtt_ns when the handshake completed, else the error (Python's exception class
// name and message, as the reference writes them).
struct ProbeSample {
  int64_t timestamp_ns = 0;  // wall clock when the probe was issued
  size_t target = 0;         // index into the targets
  std::optional<int64_t> rtt_ns;
  std::string error_type, error_message;
};

// The distinct host:port targets of `urls`, first appearance first (scheme default ports;
// a URL without a scheme is http). URLs that do not parse are skipped.
std::vector<ProbeTarget> probe_targets(const std::vector<std::string>& urls);

// Times one TCP handshake.
class Connector {
 public:
  virtual ~Connector() = default;
  virtual ProbeSample probe(size_t target_index, const ProbeTarget& target) = 0;
};
// The real one: resolves each target once (probes then time the connect only), non-blocking
// connect with `timeout_s`.
std::unique_ptr<Connector> tcp_connector(const std::vector<ProbeTarget>& targets, double timeout_s = 5.0);

// profile_export_network_latency.jsonl's line for one sample (no trailing newline).
std::string network_latency_jsonl(const ProbeSample& s, const ProbeTarget& target);
// Mean RTT over the successful samples; nullopt when there are none.
std::optional<double> mean_rtt_ns(const std::vector<ProbeSample>& samples);
uint64_t successful_samples(const std::vector<ProbeSample>& samples);

// Probes every target every `interval_s` on its own thread, from start() to finish().
class NetworkProber {
 public:
  static constexpr int kMinSamples = 5;                 // AIPERF_NETWORK_LATENCY_MIN_SAMPLES
  static constexpr int64_t kTopUpBudgetNs = 3'000'000'000;  // ..._COMPLETE_TOPUP_TIMEOUT

  NetworkProber(std::vector<ProbeTarget> targets, double interval_s, std::unique_ptr<Connector> connector);
  ~NetworkProber();  // stops the thread; no top-up
  NetworkProber(const NetworkProber&) = delete;
  NetworkProber& operator=(const NetworkProber&) = delete;

  // Starts probing (the first round at once). A second call does nothing.
  void start();
  // Stops the thread, tops each target up to kMinSamples successes (at most twice that many
  // tries, within kTopUpBudgetNs in all) and returns every sample in the order taken. Later
  // calls return the same samples.
  const std::vector<ProbeSample>& finish();
  const std::vector<ProbeTarget>& targets() const { return targets_; }

 private:
  void run();

  std::vector<ProbeTarget> targets_;
  double interval_s_;
  std::unique_ptr<Connector> connector_;
  std::mutex mu_;
  std::condition_variable wake_;
  bool stopping_ = false;
  bool finished_ = false;
  std::vector<ProbeSample> samples_;  // guarded by mu_ while the thread runs
  std::thread thread_;
};

}  // namespace aiperf::records
