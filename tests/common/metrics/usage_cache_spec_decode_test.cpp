// AIPerf 0.13's prompt-cache and other usage-field metrics, its speculative-decoding metrics
// (per record, totals, run-level ratios) and the usage discrepancy threshold, through the
// record computation and the aggregator, with exact values.
#include <catch2/catch.hpp>

#include "metrics/aggregator.h"
#include "metrics/metric_registry.h"
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

proto::MetricRecord to_record(const ParsedRecord& r, const MetricContext& ctx, int64_t start_ns = kT0) {
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

const proto::MetricResult* result(const proto::ProfileResults& res, const std::string& tag) {
  for (const auto& m : res.records()) {
    if (m.tag() == tag) return &m;
  }
  return nullptr;
}

std::optional<double> avg(const proto::ProfileResults& res, const std::string& tag) {
  const proto::MetricResult* m = result(res, tag);
  return m && m->has_avg() ? std::optional<double>(m->avg()) : std::nullopt;
}

ParsedRecord cached(int64_t prompt, int64_t read, std::optional<int64_t> write = std::nullopt) {
  ParsedRecord r = streamed({50, 60, 70}, 3, prompt);
  Usage u;
  u.prompt_tokens = prompt;
  u.completion_tokens = 3;
  u.total_tokens = prompt + 3;
  u.prompt_cache_read_tokens = read;
  u.prompt_cache_write_tokens = write;
  r.usage = u;
  return r;
}

SpecDecode spec(int64_t accepted, int64_t drafted, int64_t steps, double mean, double rate) {
  SpecDecode s;
  s.num_accepted_draft_tokens = accepted;
  s.num_draft_tokens = drafted;
  s.num_spec_steps = steps;
  s.mean_acceptance_length = mean;
  s.draft_acceptance_rate = rate;
  return s;
}

}  // namespace

TEST_CASE("usage cache metrics: per request, totals, and the token-weighted overall cache-read %") {
  const proto::MetricRecord a = to_record(cached(100, 80, 20), streaming());
  CHECK(value(a, "usage_prompt_cache_read_tokens") == 80);
  CHECK(value(a, "usage_prompt_cache_write_tokens") == 20);
  CHECK_FALSE(value(a, "usage_prompt_cache_miss_tokens"));  // DeepSeek's field was not reported

  Aggregator agg(streaming());
  agg.add(a);
  agg.add(to_record(cached(300, 30), streaming()));
  agg.add(to_record(failed(500, "x", "y", 5), streaming()));  // an error record has no usage metric
  const proto::ProfileResults res = agg.finalize();
  CHECK(avg(res, "usage_prompt_cache_read_tokens") == 55);  // (80 + 30) / 2
  CHECK(avg(res, "total_usage_prompt_cache_read_tokens") == 110);
  CHECK(avg(res, "total_usage_prompt_cache_write_tokens") == 20);  // only the first request reported one
  CHECK(avg(res, "total_usage_prompt_tokens") == 400);
  // 110 / 400, not the mean of 80 % and 10 %.
  CHECK(avg(res, "overall_usage_prompt_cache_read_pct") == Approx(27.5));
  CHECK_FALSE(result(res, "total_usage_prompt_cache_miss_tokens"));  // no request reported misses
  const proto::MetricResult* pct = result(res, "overall_usage_prompt_cache_read_pct");
  REQUIRE(pct);
  CHECK(pct->unit() == "%");
  CHECK(pct->display_order() == 2012);
  CHECK(pct->console_group() == proto::CONSOLE_GROUP_USAGE);
}

TEST_CASE("usage cache metrics: no overall % without cache reads or without prompt tokens") {
  Aggregator none(streaming());
  ParsedRecord r = streamed({50, 60}, 2, 10);
  r.usage = Usage{10, 2, 12, std::nullopt};
  none.add(to_record(r, streaming()));
  const proto::ProfileResults res = none.finalize();
  CHECK(avg(res, "total_usage_prompt_tokens") == 10);
  CHECK_FALSE(result(res, "total_usage_prompt_cache_read_tokens"));
  CHECK_FALSE(result(res, "overall_usage_prompt_cache_read_pct"));

  Aggregator zero(streaming());
  zero.add(to_record(cached(0, 0), streaming()));
  const proto::ProfileResults z = zero.finalize();
  CHECK(avg(z, "total_usage_prompt_cache_read_tokens") == 0);
  CHECK_FALSE(result(z, "overall_usage_prompt_cache_read_pct"));  // 0 / 0
}

TEST_CASE("usage extras: audio, predictions, tool use, misses and audio seconds") {
  ParsedRecord r = streamed({50, 60, 70}, 3, 10);
  Usage u;
  u.prompt_tokens = 10;
  u.prompt_cache_miss_tokens = 4;
  u.prompt_audio_tokens = 6;
  u.completion_audio_tokens = 2;
  u.accepted_prediction_tokens = 9;
  u.rejected_prediction_tokens = 1;
  u.tool_use_prompt_tokens = 5;
  u.prompt_audio_seconds = 1.25;
  u.reasoning_tokens = 3;
  r.usage = u;

  MetricContext audio = streaming();
  audio.supports_audio = true;
  const proto::MetricRecord rec = to_record(r, audio);
  CHECK(value(rec, "usage_prompt_cache_miss_tokens") == 4);
  CHECK(value(rec, "usage_prompt_audio_tokens") == 6);
  CHECK(value(rec, "usage_completion_audio_tokens") == 2);
  CHECK(value(rec, "usage_accepted_prediction_tokens") == 9);
  CHECK(value(rec, "usage_rejected_prediction_tokens") == 1);
  CHECK(value(rec, "usage_tool_use_prompt_tokens") == 5);
  CHECK(value(rec, "usage_prompt_audio_seconds") == 1.25);

  Aggregator agg(audio);
  agg.add(rec);
  agg.add(rec);
  const proto::ProfileResults res = agg.finalize();
  CHECK(avg(res, "total_usage_prompt_cache_miss_tokens") == 8);
  CHECK(avg(res, "total_usage_prompt_audio_tokens") == 12);
  CHECK(avg(res, "total_usage_completion_audio_tokens") == 4);
  CHECK(avg(res, "total_usage_accepted_prediction_tokens") == 18);
  CHECK(avg(res, "total_usage_rejected_prediction_tokens") == 2);
  CHECK(avg(res, "total_usage_tool_use_prompt_tokens") == 10);
  CHECK(avg(res, "total_usage_prompt_audio_seconds") == 2.5);
  CHECK(avg(res, "total_usage_reasoning_tokens") == 6);
  const proto::MetricResult* seconds = result(res, "usage_prompt_audio_seconds");
  REQUIRE(seconds);
  CHECK(seconds->unit() == "sec");
  CHECK(seconds->display_order() == 1040);

  // The audio ones exist only for an endpoint that takes audio (SUPPORTS_AUDIO_ONLY).
  const proto::MetricRecord text = to_record(r, streaming());
  CHECK_FALSE(value(text, "usage_prompt_audio_tokens"));
  CHECK_FALSE(value(text, "usage_completion_audio_tokens"));
  CHECK_FALSE(value(text, "usage_prompt_audio_seconds"));
  CHECK(value(text, "usage_accepted_prediction_tokens") == 9);
}

TEST_CASE("spec decode: per-request metrics from the acceptance record") {
  ParsedRecord r = streamed({50, 60, 70}, 3, 10);
  r.spec_decode = spec(7, 12, 4, 2.75, 0.5833333333333334);
  const proto::MetricRecord rec = to_record(r, streaming());
  CHECK(value(rec, "spec_decode_acceptance_length") == 2.75);  // the server's, not recomputed
  CHECK(value(rec, "spec_decode_draft_acceptance_rate") == Approx(58.33333333333334));
  CHECK(value(rec, "spec_decode_accepted_per_verified") == Approx(11.0 / 16.0));  // (7 + 4) / (12 + 4)
  CHECK(value(rec, "spec_decode_steps") == 4);
  CHECK(value(rec, "spec_decode_accepted_draft_tokens") == 7);
  CHECK(value(rec, "spec_decode_draft_tokens") == 12);

  // Zero verify steps and zero drafts: accepted-per-verified is undefined, the rest are values.
  ParsedRecord idle = streamed({50}, 1, 10);
  idle.spec_decode = spec(0, 0, 0, 1.0, 0.0);
  const proto::MetricRecord z = to_record(idle, streaming());
  CHECK_FALSE(value(z, "spec_decode_accepted_per_verified"));
  CHECK(value(z, "spec_decode_steps") == 0);
  CHECK(value(z, "spec_decode_acceptance_length") == 1.0);

  // No record (spec decode off): no spec-decode metric at all.
  const proto::MetricRecord off = to_record(streamed({50, 60}, 2, 10), streaming());
  CHECK_FALSE(value(off, "spec_decode_steps"));
  CHECK_FALSE(value(off, "spec_decode_acceptance_length"));
}

TEST_CASE("spec decode: totals and the token-weighted run-level ratios") {
  Aggregator agg(streaming());
  ParsedRecord a = streamed({50, 60, 70}, 3, 10);
  a.spec_decode = spec(6, 8, 2, 4.0, 0.75);  // 3 accepted per step
  ParsedRecord b = streamed({50, 60, 70}, 3, 10);
  b.spec_decode = spec(2, 16, 4, 1.5, 0.125);  // 0.5 per step
  agg.add(to_record(a, streaming()));
  agg.add(to_record(b, streaming()));
  const proto::ProfileResults res = agg.finalize();
  CHECK(avg(res, "total_spec_decode_steps") == 6);
  CHECK(avg(res, "total_accepted_draft_tokens") == 8);
  CHECK(avg(res, "total_draft_tokens") == 24);
  // Per-request means average requests equally; the run-level ones weigh steps and drafts.
  CHECK(avg(res, "spec_decode_acceptance_length") == 2.75);  // (4 + 1.5) / 2
  CHECK(avg(res, "spec_decode_token_weighted_acceptance_length") == Approx(1.0 + 8.0 / 6.0));
  CHECK(avg(res, "spec_decode_draft_acceptance_rate") == Approx(43.75));                // (75 + 12.5) / 2
  CHECK(avg(res, "spec_decode_overall_draft_acceptance_rate") == Approx(100.0 / 3.0));  // 8 / 24
  const proto::MetricResult* len = result(res, "spec_decode_token_weighted_acceptance_length");
  REQUIRE(len);
  CHECK(len->unit() == "ratio");
  CHECK(len->display_order() == 5010);
  CHECK(len->console_group() == proto::CONSOLE_GROUP_SPEC_DECODE);
  // The draft-token counts are exported but not shown on the console.
  const proto::MetricResult* drafted = result(res, "total_draft_tokens");
  REQUIRE(drafted);
  CHECK(has_flags(drafted->flags(), flags::kNoConsole));
}

TEST_CASE("usage discrepancy count: the threshold comes from the run's context") {
  auto run = [](double threshold) {
    MetricContext ctx = streaming();
    ctx.usage_diff_threshold_pct = threshold;
    Aggregator agg(ctx);
    for (int64_t prompt : {100, 104, 112}) {  // 0 %, 4 %, 12 % off our ISL of 100
      ParsedRecord r = streamed({50, 60, 70}, 3, 100);
      r.usage = Usage{prompt, 3, prompt + 3, std::nullopt};
      agg.add(to_record(r, ctx));
    }
    return avg(agg.finalize(), "usage_discrepancy_count");
  };
  CHECK(run(10.0) == 1);  // the default: only 12 %
  CHECK(run(3.0) == 2);   // 4 % and 12 %
  CHECK(run(12.0) == 0);  // exactly the threshold is not above it
  CHECK(run(0.0) == 2);
}
