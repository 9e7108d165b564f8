// Live metrics: while the profiling phase runs, the records service publishes a snapshot of
// the metrics so far (the same aggregator computation as the final results) for the dashboard
// and the --api-port server. Only runs when one of them is configured, and only when records
// arrived since the last snapshot.
#pragma once
#include <cstdint>
#include <functional>

#include "bus/reactor.h"
#include "config/run_config.h"
#include "control.pb.h"
#include "results.pb.h"

namespace aiperf::records {

// True when something in the controller consumes the snapshots: the dashboard UI or --api-port.
bool live_metrics_wanted(const config::RunConfig& config);

class LiveMetrics {
 public:
  using Count = std::function<uint64_t()>;                     // records received so far
  using Snapshot = std::function<proto::ProfileResults()>;     // metrics of those records
  using Publish = std::function<void(proto::BusMessage&)>;  // may stamp the message

  static constexpr int64_t kMinIntervalNs = 1'000'000'000;
  // A snapshot sorts every record metric column, which grows with the run; spacing snapshots
  // by this multiple of the last one's cost keeps them under ~10% of the records thread.
  static constexpr int64_t kCostMultiple = 10;

  LiveMetrics(bus::Reactor& reactor, Count count, Snapshot snapshot, Publish publish);
  ~LiveMetrics();  // cancels the pending timer
  LiveMetrics(const LiveMetrics&) = delete;
  LiveMetrics& operator=(const LiveMetrics&) = delete;

  // Delay before the next snapshot after one that took `cost_ns`.
  static int64_t next_interval_ns(int64_t cost_ns);

  // Publishes a snapshot if records arrived since the last one; returns what it cost (0 = skipped).
  int64_t publish_if_new();

 private:
  void schedule(int64_t delay_ns);

  bus::Reactor& reactor_;
  Count count_;
  Snapshot snapshot_;
  Publish publish_;
  uint64_t published_count_ = 0;
  bus::Reactor::TimerId timer_ = 0;
};

}  // namespace aiperf::records
