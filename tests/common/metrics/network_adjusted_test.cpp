// network_rtt and network_adjusted_* (--network-latency-*): the per-record shift clamped at 0,
// every statistic in ms, the reference's tags, headers, orders and result order, and nothing
// at all without an RTT.
#include "metrics/aggregator.h"

#include <catch2/catch.hpp>

#include "metrics/record_metrics.h"
#include "record_fixtures.h"

using namespace aiperf;
using namespace aiperf::metrics;
using namespace aiperf::metrics::testing;

namespace {

proto::MetricRecord to_record(const ParsedRecord& r, const MetricContext& ctx) {
  proto::MetricRecord rec;
  compute_record_metrics(r, ctx, rec.mutable_metrics());
  rec.mutable_metadata()->set_request_start_ns(1'700'000'000'000'000'000);
  rec.mutable_metadata()->set_request_end_ns(1'700'000'000'000'000'000 + r.end_perf_ns);
  rec.mutable_metadata()->set_phase(proto::PHASE_PROFILING);
  return rec;
}

const proto::MetricResult* find(const proto::ProfileResults& res, const std::string& tag) {
  for (const auto& m : res.records())
    if (m.tag() == tag) return &m;
  return nullptr;
}

// TTFT 50 and 40 ms, request latency 70 and 100 ms.
proto::ProfileResults run(double rtt_ns) {
  MetricContext ctx;
  ctx.streaming = true;
  Aggregator agg(ctx);
  agg.add(to_record(streamed({50, 60, 70}, 3, 100), ctx));
  agg.add(to_record(streamed({40, 60, 80, 100}, 4, 200), ctx));
  agg.set_network_rtt_ns(rtt_ns);
  return agg.finalize();
}

}  // namespace

TEST_CASE("network adjusted: the mean RTT is subtracted per record, raw metrics untouched") {
  const proto::ProfileResults res = run(30 * kMs);
  const auto* rtt = find(res, "network_rtt");
  REQUIRE(rtt);
  CHECK(rtt->header() == "Network RTT");
  CHECK(rtt->unit() == "ms");
  CHECK(rtt->is_record_metric());  // a row of the CSV's statistics section, as the reference
  CHECK(rtt->count() == 0);  // the reference's summary has no count for injected results
  CHECK(rtt->avg() == 30.0);
  CHECK(rtt->min() == 30.0);
  CHECK(rtt->p99() == 30.0);
  CHECK(rtt->sum() == 30.0);
  CHECK(rtt->std() == 0.0);
  CHECK(rtt->display_order() == 305);

  const auto* latency = find(res, "network_adjusted_request_latency");
  REQUIRE(latency);
  CHECK(latency->header() == "Network-Adjusted Request Latency");
  CHECK(latency->min() == 40.0);  // 70 - 30
  CHECK(latency->max() == 70.0);  // 100 - 30
  CHECK(latency->avg() == 55.0);
  CHECK(latency->sum() == 110.0);
  CHECK(latency->std() == 15.0);  // a shift keeps the spread
  CHECK(latency->p50() == 55.0);
  CHECK(latency->display_order() == 301);

  const auto* ttft = find(res, "network_adjusted_time_to_first_token");
  REQUIRE(ttft);
  CHECK(ttft->header() == "Network-Adjusted Time to First Token");
  CHECK(ttft->avg() == 15.0);  // (50 - 30 + 40 - 30) / 2
  CHECK(ttft->display_order() == 101);
  const auto* ttfo = find(res, "network_adjusted_time_to_first_output_token");
  REQUIRE(ttfo);
  CHECK(ttfo->avg() == 15.0);
  CHECK(ttfo->display_order() == 211);

  CHECK(find(res, "request_latency")->avg() == 85.0);  // raw
  CHECK(find(res, "time_to_first_token")->avg() == 45.0);
  CHECK_FALSE(find(res, "network_adjusted_inter_token_latency"));  // the RTT cancels there

  // Appended after every other metric, in the reference's order.
  const int n = res.records_size();
  REQUIRE(n >= 4);
  CHECK(res.records(n - 4).tag() == "network_rtt");
  CHECK(res.records(n - 3).tag() == "network_adjusted_request_latency");
  CHECK(res.records(n - 2).tag() == "network_adjusted_time_to_first_token");
  CHECK(res.records(n - 1).tag() == "network_adjusted_time_to_first_output_token");
}

TEST_CASE("network adjusted: a latency below the RTT is clamped at zero") {
  const proto::ProfileResults res = run(60 * kMs);
  const auto* ttft = find(res, "network_adjusted_time_to_first_token");
  REQUIRE(ttft);
  CHECK(ttft->max() == 0.0);
  CHECK(ttft->avg() == 0.0);
  const auto* latency = find(res, "network_adjusted_request_latency");
  CHECK(latency->min() == 10.0);
  CHECK(latency->max() == 40.0);
  CHECK(latency->std() == 15.0);
}

TEST_CASE("network adjusted: no RTT, no adjusted metrics") {
  const proto::ProfileResults res = run(0);
  CHECK_FALSE(find(res, "network_rtt"));
  CHECK_FALSE(find(res, "network_adjusted_request_latency"));
}
