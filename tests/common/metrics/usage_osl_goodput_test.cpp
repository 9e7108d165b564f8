// Usage, OSL mismatch, goodput and schedule lag metrics: per-record formulas, the counts
// the aggregator folds from them, and --goodput parsing.
#include <catch2/catch.hpp>

#include "metrics/aggregator.h"
#include "metrics/goodput_slos.h"
#include "metrics/record_jsonl.h"
#include "metrics/record_metrics.h"
#include "record_fixtures.h"

using namespace aiperf;
using namespace aiperf::metrics;
using namespace aiperf::metrics::testing;

namespace {

constexpr int64_t kT0 = 1'700'000'000'000'000'000;

MetricContext streaming() {
  MetricContext ctx;
  ctx.streaming = true;
  return ctx;
}

// Streamed record with server usage and the max_tokens it asked for.
ParsedRecord with_usage(int64_t isl, int64_t osl, int64_t usage_prompt, int64_t usage_completion,
                        int64_t requested) {
  ParsedRecord r = streamed({50, 60, 70}, osl, isl);
  r.usage = Usage{usage_prompt, usage_completion, usage_prompt + usage_completion, std::nullopt};
  r.requested_osl = requested;
  return r;
}

proto::MetricRecord to_record(const ParsedRecord& r, const MetricContext& ctx, int64_t start_ns) {
  proto::MetricRecord rec;
  compute_record_metrics(r, ctx, rec.mutable_metrics());
  rec.mutable_metadata()->set_request_start_ns(start_ns);
  rec.mutable_metadata()->set_phase(proto::PHASE_PROFILING);
  if (r.error) *rec.mutable_error() = *r.error;
  return rec;
}

std::optional<double> value(const proto::MetricRecord& rec, const std::string& tag) {
  for (const auto& m : rec.metrics()) {
    if (m.tag() == tag) return m.value();
  }
  return std::nullopt;
}

std::optional<double> avg(const proto::ProfileResults& res, const std::string& tag) {
  for (const auto& m : res.records()) {
    if (m.tag() == tag) return m.avg();
  }
  return std::nullopt;
}

}  // namespace

TEST_CASE("usage metrics copy the server's counts and diffs are abs percentages of ours") {
  const proto::MetricRecord rec = to_record(with_usage(100, 3, 110, 4, 3), streaming(), kT0);
  CHECK(value(rec, "usage_prompt_tokens") == 110);
  CHECK(value(rec, "usage_completion_tokens") == 4);
  CHECK(value(rec, "usage_total_tokens") == 114);
  CHECK_FALSE(value(rec, "usage_reasoning_tokens"));
  CHECK(value(rec, "usage_prompt_tokens_diff_pct") == 10.0);                  // |110-100|/100
  CHECK(value(rec, "usage_completion_tokens_diff_pct") == Approx(100.0 / 3));  // |4-3|/3
  CHECK_FALSE(value(rec, "usage_reasoning_tokens_diff_pct"));

  // --use-server-token-count: diffs would compare the server with itself.
  MetricContext server = streaming();
  server.use_server_token_count = true;
  const proto::MetricRecord same = to_record(with_usage(100, 3, 110, 4, 3), server, kT0);
  CHECK(value(same, "usage_prompt_tokens") == 110);
  CHECK_FALSE(value(same, "usage_prompt_tokens_diff_pct"));
}

TEST_CASE("OSL mismatch: signed diff % and the min(5 %, 50 tokens) tolerance") {
  const proto::MetricRecord rec = to_record(with_usage(100, 3, 100, 3, 4), streaming(), kT0);
  CHECK(value(rec, "requested_osl") == 4);
  CHECK(value(rec, "osl_mismatch_diff_pct") == -25.0);  // (3 - 4) / 4

  Aggregator agg(streaming());
  agg.add(to_record(with_usage(100, 3, 100, 3, 4), streaming(), kT0));          // miss 1 > 0.2
  agg.add(to_record(with_usage(100, 1000, 100, 1000, 1000), streaming(), kT0));  // exact
  agg.add(to_record(with_usage(100, 1950, 100, 1950, 2000), streaming(), kT0));  // miss 50 = cap
  agg.add(to_record(with_usage(100, 1949, 100, 1949, 2000), streaming(), kT0));  // miss 51 > 50
  // Prompt 111 vs 100 is 11 % (> 10 %): one usage discrepancy; 110 would not be.
  agg.add(to_record(with_usage(100, 4, 111, 4, 4), streaming(), kT0));
  agg.add(to_record(with_usage(100, 4, 110, 4, 4), streaming(), kT0));
  const proto::ProfileResults res = agg.finalize();
  CHECK(avg(res, "osl_mismatch_count") == 2);
  CHECK(avg(res, "usage_discrepancy_count") == 1);  // exactly 10 % is not above the threshold
  CHECK(avg(res, "total_usage_prompt_tokens") == 100 * 4 + 111 + 110);
  CHECK(avg(res, "total_usage_completion_tokens") == 3 + 1000 + 1950 + 1949 + 4 + 4);
  // INTERNAL: kept in results (exports filter it).
  CHECK(avg(res, "requested_osl") == Approx((4 + 1000 + 2000 + 2000 + 4 + 4) / 6.0));
}

TEST_CASE("goodput: records meeting every SLO, per second of benchmark") {
  MetricContext ctx = streaming();
  ctx.goodput_slos = parse_goodput("time_to_first_token:45 output_sequence_length:3", ctx);
  ctx.goodput = true;
  REQUIRE(ctx.goodput_slos.size() == 2);
  CHECK(ctx.goodput_slos[0].threshold == 45.0 * kMs);  // ms -> ns
  CHECK_FALSE(ctx.goodput_slos[0].larger_is_better);
  CHECK(ctx.goodput_slos[1].larger_is_better);

  Aggregator agg(ctx);
  ParsedRecord fast = streamed({40, 60, 70}, 3, 10);   // TTFT 40 <= 45, OSL 3 >= 3: good
  ParsedRecord slow = streamed({50, 60, 70}, 3, 10);   // TTFT 50 > 45
  ParsedRecord short_ = streamed({45, 60}, 2, 10);     // TTFT 45 ok, OSL 2 < 3
  agg.add(to_record(fast, ctx, kT0));
  agg.add(to_record(slow, ctx, kT0));
  agg.add(to_record(short_, ctx, kT0));
  agg.add(to_record(failed(500, "x", "y", 5), ctx, kT0));  // errors are never good
  // Duration: max(start + latency) - min(start) needs max_response_timestamp's end times.
  const proto::ProfileResults res = agg.finalize();
  CHECK(avg(res, "good_request_count") == 1);
  const auto duration = avg(res, "benchmark_duration");
  REQUIRE(duration);
  CHECK(avg(res, "goodput") == Approx(1.0 / *duration));
  // AIPerf's good_request_fraction: good / (valid + errors) = 1 / (3 + 1).
  CHECK(avg(res, "good_request_fraction") == 0.25);
}

TEST_CASE("good_request_fraction is 0 when no request met the SLOs, and absent without --goodput") {
  MetricContext ctx = streaming();
  ctx.goodput_slos = parse_goodput("time_to_first_token:10", ctx);
  ctx.goodput = true;
  Aggregator agg(ctx);
  agg.add(to_record(streamed({40, 60, 70}, 3, 10), ctx, kT0));
  agg.add(to_record(streamed({50, 60, 70}, 3, 10), ctx, kT0));
  CHECK(avg(agg.finalize(), "good_request_fraction") == 0.0);
  MetricContext plain = streaming();
  Aggregator none(plain);
  none.add(to_record(streamed({40, 60, 70}, 3, 10), plain, kT0));
  CHECK_FALSE(avg(none.finalize(), "good_request_fraction"));
}

TEST_CASE("goodput option errors name the problem") {
  MetricContext chat;  // not streaming
  auto message = [&](const std::string& spec) {
    try {
      parse_goodput(spec, chat);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  CHECK(message("time_to_first_token:100 request_throughput:5") ==
        "Invalid --goodput: metric(s) time_to_first_token, request_throughput are not applicable to the "
        "current endpoint/configuration");
  CHECK(message("request_latency") == "Invalid --goodput: expected space-separated 'tag:value' pairs, got 'request_latency'");
  CHECK(message("request_latency:fast") == "Invalid --goodput: value 'fast' of 'request_latency' is not a number");
  CHECK(message("request_latency:-1") == "Invalid --goodput: value of 'request_latency' must not be negative, got -1");
  CHECK(message("request_latency:1 request_latency:2") ==
        "Invalid --goodput: metric 'request_latency' is given more than once");
  CHECK(message("  ") == "Invalid --goodput: no 'tag:value' pairs given");
  CHECK(message("request_latency:250") == "no error");
}

TEST_CASE("schedule lag: actual start - intended start, exported with intended_start_ns") {
  ParsedRecord r = streamed({50}, 1, 10);
  r.start_wall_ns = kT0 + 1'500'000;
  r.intended_start_wall_ns = kT0;
  proto::MetricRecord rec = to_record(r, streaming(), kT0 + 1'500'000);
  CHECK(value(rec, "schedule_lag") == 1'500'000);
  rec.mutable_metadata()->set_intended_start_ns(kT0);
  const std::string line = format_record_jsonl(rec, streaming());
  CHECK(line.find("\"was_cancelled\":false,\"intended_start_ns\":1700000000000000000}") != std::string::npos);
  CHECK(line.find("\"schedule_lag\":{\"value\":1.5,\"unit\":\"ms\"}") != std::string::npos);

  ParsedRecord asap = streamed({50}, 1, 10);  // no intended time: no lag, no key
  proto::MetricRecord rec2 = to_record(asap, streaming(), kT0);
  CHECK_FALSE(value(rec2, "schedule_lag"));
  CHECK(format_record_jsonl(rec2, streaming()).find("intended_start_ns") == std::string::npos);
}
