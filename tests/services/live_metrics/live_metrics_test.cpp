// Live metric snapshots: when they are published, how they are spaced, and what one costs
// over 100k records (printed, not asserted: timings depend on the machine).
#include "live_metrics.h"

#include <catch2/catch.hpp>

#include <chrono>
#include <iostream>

#include "metrics/aggregator.h"
#include "metrics/record_metrics.h"

using namespace aiperf;
using aiperf::records::LiveMetrics;

namespace {
constexpr int64_t kMs = 1'000'000;

// A streaming record: first token after `ttft_ms`, then `tokens - 1` more 10 ms apart.
proto::MetricRecord streaming_record(const metrics::MetricContext& ctx, int64_t start_ns, int64_t ttft_ms, int tokens) {
  metrics::ParsedRecord r;
  r.start_perf_ns = start_ns;
  r.start_wall_ns = start_ns;
  r.ack_perf_ns = start_ns + kMs;
  for (int i = 0; i < tokens; ++i) r.responses.push_back({start_ns + (ttft_ms + 10 * i) * kMs, "tok", ""});
  r.end_perf_ns = r.responses.back().perf_ns;
  r.input_tokens = 100;
  r.output_tokens = tokens;
  proto::MetricRecord rec;
  metrics::compute_record_metrics(r, ctx, rec.mutable_metrics());
  rec.mutable_metadata()->set_request_start_ns(start_ns);
  rec.mutable_metadata()->set_request_end_ns(r.end_perf_ns);
  rec.mutable_metadata()->set_phase(proto::PHASE_PROFILING);
  return rec;
}

const proto::MetricResult* find(const proto::ProfileResults& r, const std::string& tag) {
  for (const auto& m : r.records()) {
    if (m.tag() == tag) return &m;
  }
  return nullptr;
}
}  // namespace

TEST_CASE("snapshots are wanted only for the dashboard or the API") {
  config::RunConfig cfg;
  cfg.service.ui_type = aiperf::config::UiType::kNone;
  CHECK_FALSE(records::live_metrics_wanted(cfg));
  cfg.service.ui_type = aiperf::config::UiType::kSimple;
  CHECK_FALSE(records::live_metrics_wanted(cfg));
  cfg.service.ui_type = aiperf::config::UiType::kDashboard;
  CHECK(records::live_metrics_wanted(cfg));
  cfg.service.ui_type = aiperf::config::UiType::kNone;
  cfg.service.api_port = 9090;
  CHECK(records::live_metrics_wanted(cfg));
}

TEST_CASE("snapshots are spaced at least 1 s and 10x their own cost apart") {
  CHECK(LiveMetrics::next_interval_ns(0) == 1'000'000'000);
  CHECK(LiveMetrics::next_interval_ns(100 * kMs) == 1'000'000'000);
  CHECK(LiveMetrics::next_interval_ns(250 * kMs) == 2'500'000'000);
}

TEST_CASE("a snapshot is published only when records arrived since the last one") {
  metrics::MetricContext ctx;
  ctx.streaming = true;
  metrics::Aggregator agg(ctx);
  uint64_t count = 0;
  std::vector<proto::BusMessage> published;
  bus::Reactor reactor;
  LiveMetrics live(
      reactor, [&] { return count; }, [&] { return agg.finalize(); },
      [&](proto::BusMessage& m) { published.push_back(m); });

  CHECK(live.publish_if_new() == 0);  // nothing yet
  CHECK(published.empty());
  for (int i = 0; i < 3; ++i) {
    agg.add(streaming_record(ctx, (i + 1) * 1000 * kMs, 20 + i, 5));
    ++count;
  }
  live.publish_if_new();
  REQUIRE(published.size() == 1);
  const proto::ProfileResults& snap = published[0].live_metrics();
  CHECK(snap.completed() == 3);
  const proto::MetricResult* ttft = find(snap, "time_to_first_token");
  REQUIRE(ttft);
  CHECK(ttft->min() == 20.0);
  CHECK(ttft->max() == 22.0);
  CHECK(live.publish_if_new() == 0);  // no new records: no message
  CHECK(published.size() == 1);
}

TEST_CASE("cost of one snapshot over 100k streaming records", "[bench]") {
  metrics::MetricContext ctx;
  ctx.streaming = true;
  metrics::Aggregator agg(ctx);
  constexpr int kRecords = 100'000;
  constexpr int kTokens = 32;
  for (int i = 0; i < kRecords; ++i) agg.add(streaming_record(ctx, (i + 1) * 10 * kMs, 20 + i % 50, kTokens));
  const auto t0 = std::chrono::steady_clock::now();
  const proto::ProfileResults snap = agg.finalize();
  const auto ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  std::cout << "live metrics snapshot: " << kRecords << " records x " << kTokens << " tokens, " << snap.records_size()
            << " metrics, " << ms << " ms\n";
  CHECK(snap.completed() == kRecords);
  CHECK(find(snap, "inter_token_latency")->count() == kRecords);
}
