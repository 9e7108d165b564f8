#include "metrics/aggregator.h"

#include <catch2/catch.hpp>

#include "metrics/record_metrics.h"
#include "record_fixtures.h"

using namespace aiperf;
using namespace aiperf::metrics;
using namespace aiperf::metrics::testing;

namespace {

constexpr int64_t kT0 = 1'700'000'000'000'000'000;

proto::MetricRecord to_record(const ParsedRecord& r, const MetricContext& ctx, int64_t start_ns,
                              proto::Phase phase = proto::PHASE_PROFILING) {
  proto::MetricRecord rec;
  compute_record_metrics(r, ctx, rec.mutable_metrics());
  rec.mutable_metadata()->set_request_start_ns(start_ns);
  rec.mutable_metadata()->set_request_end_ns(start_ns + r.end_perf_ns);
  rec.mutable_metadata()->set_phase(phase);
  if (r.error) *rec.mutable_error() = *r.error;
  return rec;
}

const proto::MetricResult& result(const proto::ProfileResults& res, const std::string& tag) {
  for (const auto& m : res.records()) {
    if (m.tag() == tag) return m;
  }
  FAIL("no result for " << tag);
  throw;
}

bool has_result(const proto::ProfileResults& res, const std::string& tag) {
  for (const auto& m : res.records()) {
    if (m.tag() == tag) return true;
  }
  return false;
}

proto::ProfileResults small_run() {
  MetricContext ctx;
  ctx.streaming = true;
  Aggregator agg(ctx);
  // Valid: latency 70 ms from T0; latency 100 ms from T0+100 ms (ends last, at T0+200 ms).
  agg.add(to_record(streamed({50, 60, 70}, 3, 100), ctx, kT0));
  agg.add(to_record(failed(500, "Internal Server Error", "boom", 50), ctx, kT0 + 10 * kMs));
  agg.add(to_record(streamed({40, 60, 80, 100}, 4, 200), ctx, kT0 + 100 * kMs));
  agg.add(to_record(failed(std::nullopt, "TimeoutError", "", 60), ctx, kT0 + 20 * kMs));
  agg.add(to_record(failed(500, "Internal Server Error", "boom", 50), ctx, kT0 + 30 * kMs));
  // Warmup must not count anywhere, even though it would stretch the duration.
  agg.add(to_record(streamed({10}, 1, 5), ctx, kT0 - 1'000 * kMs, proto::PHASE_WARMUP));
  return agg.finalize();
}

}  // namespace

TEST_CASE("aggregator: counts, duration from wall times, throughputs") {
  const proto::ProfileResults res = small_run();
  CHECK(res.completed() == 5);
  CHECK(result(res, "request_count").avg() == 2);
  CHECK(result(res, "error_request_count").avg() == 3);
  // max(T0 + 70 ms, T0 + 100 ms + 100 ms) - T0 = 200 ms
  CHECK(result(res, "benchmark_duration").avg() == 0.2);
  CHECK(result(res, "benchmark_duration").unit() == "sec");
  CHECK(result(res, "request_throughput").avg() == 10.0);       // 2 / 0.2
  CHECK(result(res, "total_osl").avg() == 7);
  CHECK(result(res, "output_token_throughput").avg() == 35.0);  // 7 / 0.2
  CHECK(result(res, "total_isl").avg() == 300);
  CHECK(result(res, "total_token_throughput").avg() == 1535.0);  // 307 / 0.2
  CHECK(result(res, "input_token_throughput").avg() == 1500.0);  // 300 / 0.2
  CHECK(result(res, "input_token_throughput").unit() == "tokens/sec");
  CHECK(result(res, "total_output_tokens").avg() == 7);
  CHECK(result(res, "total_error_isl").avg() == 160);
  CHECK(result(res, "request_count").count() == 1);
  CHECK_FALSE(result(res, "request_count").has_min());
  CHECK_FALSE(has_result(res, "total_reasoning_tokens"));  // nobody reasoned
  // INTERNAL metrics are kept in results (exports filter them by flags).
  CHECK(result(res, "min_request_timestamp").avg() == static_cast<double>(kT0));
}

TEST_CASE("aggregator: record metric statistics in display units") {
  const proto::ProfileResults res = small_run();
  const auto& latency = result(res, "request_latency");
  CHECK(latency.unit() == "ms");
  CHECK(latency.is_record_metric());
  CHECK_FALSE(latency.integer_values());
  CHECK(latency.count() == 2);
  CHECK(latency.avg() == 85.0);
  CHECK(latency.min() == 70.0);
  CHECK(latency.max() == 100.0);
  CHECK(latency.sum() == 170.0);
  CHECK(latency.p50() == 85.0);
  CHECK(latency.p99() == 99.7);
  CHECK(latency.std() == 15.0);
  CHECK(latency.display_order() == 300);
  CHECK(latency.header() == "Request Latency");

  const auto& icl = result(res, "inter_chunk_latency");  // [10,10] + [20,20,20] flattened
  CHECK(icl.count() == 5);
  CHECK(icl.avg() == 16.0);
  CHECK(icl.sum() == 80.0);
  CHECK(icl.std() == 4.898979485566357);

  const auto& osl = result(res, "output_sequence_length");
  CHECK(osl.integer_values());
  CHECK(osl.unit() == "tokens");
  CHECK(osl.avg() == 3.5);
  CHECK(osl.min() == 3);
  CHECK(osl.max() == 4);

  const auto& itl = result(res, "inter_token_latency");  // 10 ms and (100-40)/3 = 20 ms
  CHECK(itl.avg() == 15.0);

  const auto& error_isl = result(res, "error_isl");
  CHECK(error_isl.count() == 3);
  CHECK(error_isl.avg() == 53.333333333333336);
  CHECK(error_isl.std() == 4.714045207910317);
}

TEST_CASE("aggregator: error summary grouped by (code, type, message) in first-seen order") {
  const proto::ProfileResults res = small_run();
  REQUIRE(res.error_summary_size() == 2);
  CHECK(res.error_summary(0).error_details().code() == 500);
  CHECK(res.error_summary(0).error_details().type() == "Internal Server Error");
  CHECK(res.error_summary(0).error_details().message() == "boom");
  CHECK(res.error_summary(0).count() == 2);
  CHECK_FALSE(res.error_summary(1).error_details().has_code());
  CHECK(res.error_summary(1).error_details().type() == "TimeoutError");
  CHECK(res.error_summary(1).count() == 1);
}

TEST_CASE("aggregator: only errors means no duration and no throughput") {
  MetricContext ctx;
  Aggregator agg(ctx);
  agg.add(to_record(failed(503, "Service Unavailable", "busy", 10), ctx, kT0));
  const proto::ProfileResults res = agg.finalize();
  CHECK(res.completed() == 1);
  CHECK(result(res, "error_request_count").avg() == 1);
  CHECK_FALSE(has_result(res, "request_count"));
  CHECK_FALSE(has_result(res, "benchmark_duration"));
  CHECK_FALSE(has_result(res, "request_throughput"));
}

TEST_CASE("aggregator: peak in-flight requests counts overlapping wire intervals, not queue time") {
  Aggregator agg(MetricContext{});
  auto add = [&](int64_t start_ms, int64_t end_ms, int64_t queued_ms = 0, bool error = false,
                 proto::Phase phase = proto::PHASE_PROFILING) {
    proto::MetricRecord rec;
    rec.mutable_metadata()->set_request_start_ns(kT0 + start_ms * 1'000'000);
    rec.mutable_metadata()->set_request_end_ns(kT0 + end_ms * 1'000'000);
    rec.mutable_metadata()->set_queued_ns(queued_ms * 1'000'000);
    rec.mutable_metadata()->set_phase(phase);
    if (error) rec.mutable_error()->set_type("ServerDisconnectedError");
    agg.add(rec);
  };
  add(0, 100);
  add(10, 50);
  add(20, 60, 0, /*error=*/true);  // a failed request was on the wire too: 3 open at 20..50 ms
  add(100, 200);                   // starts as the first ends: not overlapping it
  add(0, 150, /*queued_ms=*/120);  // on the wire only from 120 ms: overlaps [100, 200) alone
  add(0, 1000, 0, false, proto::PHASE_WARMUP);  // warmup: not counted
  const proto::ProfileResults res = agg.finalize();
  CHECK(result(res, "peak_in_flight_requests").avg() == 3);
  CHECK(result(res, "peak_in_flight_requests").integer_values());

  add(30, 40);
  CHECK(result(agg.finalize(), "peak_in_flight_requests").avg() == 4);
}
