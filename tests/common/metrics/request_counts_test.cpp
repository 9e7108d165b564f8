// AIPerf 0.13's completion counts (completed_request_count, request_error_rate), and
// good_request_count written per record in profile_export.jsonl.
#include <catch2/catch.hpp>

#include "metrics/aggregator.h"
#include "metrics/goodput_slos.h"
#include "metrics/metric_registry.h"
#include "metrics/record_jsonl.h"
#include "metrics/record_metrics.h"
#include "record_fixtures.h"

using namespace aiperf;
using namespace aiperf::metrics;
using namespace aiperf::metrics::testing;

namespace {

MetricContext streaming() {
  MetricContext ctx;
  ctx.streaming = true;
  return ctx;
}

proto::MetricRecord to_record(const ParsedRecord& r, const MetricContext& ctx) {
  proto::MetricRecord rec;
  compute_record_metrics(r, ctx, rec.mutable_metrics());
  rec.mutable_metadata()->set_request_start_ns(1'700'000'000'000'000'000);
  rec.mutable_metadata()->set_phase(proto::PHASE_PROFILING);
  if (r.error) *rec.mutable_error() = *r.error;
  return rec;
}

const proto::MetricResult* result(const proto::ProfileResults& res, const std::string& tag) {
  for (const auto& m : res.records()) {
    if (m.tag() == tag) return &m;
  }
  return nullptr;
}

// Finalized results of `valid` successes and `errors` failures.
proto::ProfileResults run(int valid, int errors) {
  const MetricContext ctx = streaming();
  Aggregator agg(ctx);
  for (int i = 0; i < valid; ++i) agg.add(to_record(streamed({40, 60, 70}, 3, 10), ctx));
  for (int i = 0; i < errors; ++i) agg.add(to_record(failed(500, "Internal Server Error", "boom", 10), ctx));
  return agg.finalize();
}

}  // namespace

TEST_CASE("completed_request_count and request_error_rate: successes + errors, and the errors' share in %") {
  const proto::ProfileResults mixed = run(3, 1);
  const auto* completed = result(mixed, "completed_request_count");
  const auto* rate = result(mixed, "request_error_rate");
  REQUIRE(completed);
  REQUIRE(rate);
  CHECK(completed->avg() == 4.0);
  CHECK(rate->avg() == 25.0);  // 100 * 1 / (3 + 1)
  CHECK(completed->unit() == "requests");
  CHECK(completed->header() == "Completed Requests (Success + Error)");
  CHECK(rate->unit() == "%");
  CHECK(rate->header() == "Request Error Rate");
  CHECK_FALSE(completed->is_record_metric());

  // A clean run has no error count: the rate is 0, not absent.
  const proto::ProfileResults clean = run(10, 0);
  CHECK(result(clean, "completed_request_count")->avg() == 10.0);
  CHECK(result(clean, "request_error_rate")->avg() == 0.0);
  // An all-error run has no request count: errors alone.
  const proto::ProfileResults broken = run(0, 2);
  CHECK(result(broken, "completed_request_count")->avg() == 2.0);
  CHECK(result(broken, "request_error_rate")->avg() == 100.0);
  // Nothing completed: neither exists.
  const proto::ProfileResults none = run(0, 0);
  CHECK_FALSE(result(none, "completed_request_count"));
  CHECK_FALSE(result(none, "request_error_rate"));
}

TEST_CASE("completed_request_count and request_error_rate: AIPerf's flags and console order") {
  const MetricDescriptor* completed = builtin_metrics().find("completed_request_count");
  const MetricDescriptor* rate = builtin_metrics().find("request_error_rate");
  REQUIRE(completed);
  REQUIRE(rate);
  CHECK(completed->flags == flags::kNoIndividualRecords);
  CHECK(rate->flags == flags::kNoIndividualRecords);
  CHECK(completed->display_order == 1075);
  CHECK(rate->display_order == 1080);
  CHECK(completed->kind == MetricKind::kDerived);
  CHECK(rate->kind == MetricKind::kDerived);
}

TEST_CASE("profile_export.jsonl: good_request_count per valid record under --goodput, 1 or 0") {
  MetricContext ctx = streaming();
  ctx.goodput_slos = parse_goodput("time_to_first_token:45", ctx);
  ctx.goodput = true;
  const std::string good = format_record_jsonl(to_record(streamed({40, 60, 70}, 3, 10), ctx), ctx);
  const std::string slow = format_record_jsonl(to_record(streamed({50, 60, 70}, 3, 10), ctx), ctx);
  const std::string error = format_record_jsonl(to_record(failed(500, "x", "y", 10), ctx), ctx);
  // After the record metrics, last in "metrics".
  CHECK(good.find(",\"good_request_count\":{\"value\":1,\"unit\":\"requests\"}}}") != std::string::npos);
  CHECK(slow.find(",\"good_request_count\":{\"value\":0,\"unit\":\"requests\"}}}") != std::string::npos);
  CHECK(error.find("good_request_count") == std::string::npos);
  // Run-level counts are never per record.
  CHECK(good.find("\"request_count\"") == std::string::npos);
  CHECK(good.find("completed_request_count") == std::string::npos);
  CHECK(good.find("request_error_rate") == std::string::npos);

  // Without --goodput the metric does not exist.
  const MetricContext plain = streaming();
  CHECK(format_record_jsonl(to_record(streamed({40, 60, 70}, 3, 10), plain), plain).find("good_request_count") ==
        std::string::npos);
}
