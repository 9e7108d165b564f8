#include "live_metrics.h"

#include <algorithm>

#include "log/log.h"
#include "time/clock.h"

namespace aiperf::records {

bool live_metrics_wanted(const config::RunConfig& config) {
  return config.service.ui_type == config::UiType::kDashboard || config.service.api_port.has_value();
}

LiveMetrics::LiveMetrics(bus::Reactor& reactor, Count count, Snapshot snapshot, Publish publish)
    : reactor_(reactor), count_(std::move(count)), snapshot_(std::move(snapshot)), publish_(std::move(publish)) {
  schedule(kMinIntervalNs);
}

LiveMetrics::~LiveMetrics() { reactor_.cancel(timer_); }

int64_t LiveMetrics::next_interval_ns(int64_t cost_ns) { return std::max(kMinIntervalNs, kCostMultiple * cost_ns); }

void LiveMetrics::schedule(int64_t delay_ns) {
  timer_ = reactor_.call_after(delay_ns, [this] { schedule(next_interval_ns(publish_if_new())); });
}

int64_t LiveMetrics::publish_if_new() {
  const uint64_t count = count_();
  if (count == published_count_) return 0;
  // Wall time of the computation on this thread, which is what the bound above limits.
  const Nanos t0 = steady_now_ns();
  proto::BusMessage msg;
  *msg.mutable_live_metrics() = snapshot_();
  publish_(msg);
  published_count_ = count;
  const int64_t cost = steady_now_ns() - t0;
  AIPERF_LOG(kDebug) << "live metrics: snapshot of " << count << " records took " << cost / 1000 << " us";
  return cost;
}

}  // namespace aiperf::records
