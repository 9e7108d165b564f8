// The sweep-line metrics (AIPerf 0.13's effective_*/active_*/tokens_in_flight) and the
// record-times latencies (credit_to_start_latency, effective_latency), on scripted records whose
// curves are worked out by hand in the comments.
#include "metrics/sweep_line.h"

#include <catch2/catch.hpp>

#include "metrics/aggregator.h"
#include "metrics/metric_registry.h"

using namespace aiperf;
using namespace aiperf::metrics;

namespace {

constexpr double kSec = 1e9;

// Two streaming requests without chunk timing (s = seconds from 0):
//   A: start 0, first token 2, end 6, ISL 100, OSL 9
//   B: start 1, first token 3, end 4, ISL 50, OSL 5
std::vector<SweepRecord> two_requests() {
  SweepRecord a;
  a.start_ns = 0;
  a.generation_start_ns = 2 * kSec;
  a.end_ns = 6 * kSec;
  a.input_tokens = 100;
  a.output_tokens = 9;
  SweepRecord b;
  b.start_ns = 1 * kSec;
  b.generation_start_ns = 3 * kSec;
  b.end_ns = 4 * kSec;
  b.input_tokens = 50;
  b.output_tokens = 5;
  return {a, b};
}

const MetricDescriptor& metric(std::string_view tag) {
  const MetricDescriptor* m = builtin_metrics().find(tag);
  REQUIRE(m);
  return *m;
}

SweepStats stats(std::string_view tag, const SweepCurves& curves, double from = 0, double to = 6 * kSec) {
  return sweep_stats(metric(tag), curves, from, to);
}

const proto::MetricResult* find(const proto::ProfileResults& res, std::string_view tag) {
  for (const auto& m : res.records()) {
    if (m.tag() == tag) return &m;
  }
  return nullptr;
}

}  // namespace

TEST_CASE("sweep: concurrencies are time-weighted over the window") {
  const auto records = two_requests();
  const SweepCurves curves(records, {});
  REQUIRE_FALSE(curves.empty());
  CHECK(curves.first_ns() == 0);
  CHECK(curves.last_ns() == 6 * kSec);

  // In flight: [0,1) 1, [1,4) 2, [4,6) 1: avg (1 + 6 + 2) / 6 = 1.5; std 0.5 (every segment is
  // 0.5 from the mean); by time, 1 holds half the window (3 s) so p50 = 1, p90.. = 2.
  const SweepStats c = stats("effective_concurrency", curves);
  CHECK(c.avg == Approx(1.5));
  CHECK(c.min == 1);
  CHECK(c.max == 2);
  CHECK(c.std == Approx(0.5));
  CHECK(c.p50 == 1);
  CHECK(c.p90 == 2);
  CHECK(c.p99 == 2);
  // Prefill [start, first token): [0,1) 1, [1,2) 2, [2,3) 1, [3,6) 0: avg 4/6.
  CHECK(stats("effective_prefill_concurrency", curves).avg == Approx(4.0 / 6));
  CHECK(stats("effective_prefill_concurrency", curves).min == 0);
  // Decode [first token, end): [0,2) 0, [2,3) 1, [3,4) 2, [4,6) 1: avg 5/6.
  CHECK(stats("effective_decode_concurrency", curves).avg == Approx(5.0 / 6));
}

TEST_CASE("sweep: throughputs spread each request's tokens over its phase, in tokens/sec") {
  const auto records = two_requests();
  const SweepCurves curves(records, {});
  // Prefill: A 100 tokens / 2 s = 50/s over [0,2), B 50 / 2 s = 25/s over [1,3):
  // [0,1) 50, [1,2) 75, [2,3) 25, [3,6) 0: avg 150/6 = 25 (all input tokens over the window).
  const SweepStats prefill = stats("effective_prefill_throughput", curves);
  CHECK(prefill.avg == Approx(25));
  CHECK(prefill.max == Approx(75));
  CHECK(prefill.min == 0);
  // Decode (the first token is not a rate): A (9-1) / 4 s = 2/s over [2,6), B (5-1) / 1 s = 4/s
  // over [3,4): [2,3) 2, [3,4) 6, [4,6) 2: avg 12/6 = 2.
  CHECK(stats("effective_decode_throughput", curves).avg == Approx(2));
  CHECK(stats("effective_decode_throughput", curves).max == Approx(6));
  // Total: [0,1) 50, [1,2) 75, [2,3) 27, [3,4) 6, [4,6) 2: avg 162/6 = 27.
  CHECK(stats("effective_total_throughput", curves).avg == Approx(27));
  // Per user: decode [2,3) 2/1, [3,4) 6/2, [4,6) 2/1, 0 while nothing decodes: avg 9/6;
  // prefill [0,1) 50/1, [1,2) 75/2, [2,3) 25/1: avg 112.5/6 = 18.75.
  CHECK(stats("effective_decode_throughput_per_user", curves).avg == Approx(1.5));
  CHECK(stats("effective_prefill_throughput_per_user", curves).avg == Approx(18.75));
}

TEST_CASE("sweep: active variants weigh only the time the phase is running") {
  const auto records = two_requests();
  const SweepCurves curves(records, {});
  // Decode runs [2,6) (4 s): 12 / 4 = 3; prefill runs [0,3) (3 s): 150 / 3 = 50; per user
  // 9 / 4 = 2.25 and 112.5 / 3 = 37.5; something is in flight all of [0,6): total 162/6 = 27.
  const SweepStats decode = stats("active_decode_throughput", curves);
  CHECK(decode.avg == Approx(3));
  CHECK(decode.min == Approx(2));  // the idle [0,2) is not a segment
  CHECK(stats("active_prefill_throughput", curves).avg == Approx(50));
  CHECK(stats("active_prefill_throughput", curves).min == Approx(25));
  CHECK(stats("active_decode_throughput_per_user", curves).avg == Approx(2.25));
  CHECK(stats("active_prefill_throughput_per_user", curves).avg == Approx(37.5));
  CHECK(stats("active_total_throughput", curves).avg == Approx(27));
}

TEST_CASE("sweep: tokens in flight hold the input from start, the output from the first token") {
  const auto records = two_requests();
  const SweepCurves curves(records, {});
  // A +100 at 0, +9 at 2, -109 at 6; B +50 at 1, +5 at 3, -55 at 4:
  // [0,1) 100, [1,2) 150, [2,3) 159, [3,4) 164, [4,6) 109: avg 791/6; by time 109 reaches half
  // the window (1 s at 100 + 2 s at 109), 164 the last sixth.
  const SweepStats t = stats("tokens_in_flight", curves);
  CHECK(t.avg == Approx(791.0 / 6));
  CHECK(t.min == 100);
  CHECK(t.max == 164);
  CHECK(t.p50 == 109);
  CHECK(t.p90 == 164);
}

TEST_CASE("sweep: a window weighs only its own part of the curve, idle time included") {
  const auto records = two_requests();
  const SweepCurves curves(records, {});
  // [1,3): both in flight.
  CHECK(stats("effective_concurrency", curves, 1 * kSec, 3 * kSec).avg == Approx(2));
  // [5,8): 1 request for 1 s, then nothing for 2 s.
  const SweepStats tail = stats("effective_concurrency", curves, 5 * kSec, 8 * kSec);
  CHECK(tail.avg == Approx(1.0 / 3));
  CHECK(tail.min == 0);
  CHECK(tail.p50 == 0);
  // An empty window has no statistics: all zeros.
  CHECK(stats("effective_concurrency", curves, 2 * kSec, 2 * kSec).avg == 0);
}

TEST_CASE("sweep: with inter-chunk latencies, decode and tokens follow the chunks") {
  // One request: start 0, first token 1, end 4, ISL 10, OSL 7, chunk gaps 1 s, 0, 2 s.
  SweepRecord r;
  r.start_ns = 0;
  r.generation_start_ns = 1 * kSec;
  r.end_ns = 4 * kSec;
  r.input_tokens = 10;
  r.output_tokens = 7;
  r.icl_offset = 0;
  r.icl_count = 3;
  const std::vector<double> icl{1 * kSec, 0, 2 * kSec};
  const std::vector<SweepRecord> records{r};
  const SweepCurves curves(records, icl);
  // Decode: the 6 tokens after the first shared by the 2 nonzero gaps, 3 each: [1,2) 3/s,
  // [2,4) 1.5/s: avg over [0,4] 6/4, while decoding (3 s) 6/3.
  CHECK(stats("effective_decode_throughput", curves, 0, 4 * kSec).avg == Approx(1.5));
  CHECK(stats("active_decode_throughput", curves, 0, 4 * kSec).avg == Approx(2));
  CHECK(stats("active_decode_throughput", curves, 0, 4 * kSec).max == Approx(3));
  // The total still spreads the decode evenly: 10/s over [0,1), 6/3 = 2/s over [1,4): 16/4.
  CHECK(stats("effective_total_throughput", curves, 0, 4 * kSec).avg == Approx(4));
  // Tokens: 10 from 0, +1 at the first token (1), +2 per chunk (6 / 3 gaps) at 2, 2 and at the
  // end (moved just before it): [0,1) 10, [1,2) 11, [2,4) 15, a last instant at 17.
  const SweepStats t = stats("tokens_in_flight", curves, 0, 4 * kSec);
  CHECK(t.avg == Approx((10 + 11 + 2 * 15) / 4.0));
  CHECK(t.max == 17);
  CHECK(t.p90 == 15);
}

TEST_CASE("sweep: step function helpers") {
  // A request ending when another starts never overlaps it; one value per time (the last).
  const StepFunction f = sweep_cumsum({{2, -1}, {1, 1}, {0, 1}, {1, -1}});
  CHECK(f.at(-1) == 0);
  CHECK(f.at(0.5) == 1);
  CHECK(f.at(1) == 1);
  CHECK(f.ts == std::vector<double>{0, 1, 2});
  CHECK(f.values == std::vector<double>{1, 1, 0});
  // A step per event (AIPerf's arrays): the end at t = 1 comes before the start.
  const StepFunction each = sweep_cumsum({{2, -1}, {1, 1}, {0, 1}, {1, -1}}, StepsAt::kEachEvent);
  CHECK(each.ts == std::vector<double>{0, 1, 1, 2});
  CHECK(each.values == std::vector<double>{1, 0, 1, 0});
  // Rounding left by cancelling rates snaps to 0.
  const StepFunction g = sweep_cumsum({{0, 0.1}, {0, 0.2}, {1, -0.3}});
  CHECK(g.values.back() == 0);
  // Division: 0 where the denominator is 0.
  const StepFunction q = divide_steps(sweep_cumsum({{0, 6}, {2, -6}}), sweep_cumsum({{1, 2}, {3, -2}}));
  CHECK(q.ts == std::vector<double>{0, 1, 2, 3});
  CHECK(q.values == std::vector<double>{0, 3, 0, 0});
}

namespace {

constexpr int64_t kT0 = 1'700'000'000'000'000'000;  // wall ns; multiples of 256 stay exact as doubles
constexpr int64_t kMsNs = 1'000'000;

// A profiling record: credit issued at `issued`, started `wait_ms` later, first token after
// 200 ms, 9 chunks 20 ms apart to the end at +380 ms; ISL 50, OSL 10.
proto::MetricRecord streamed_record(int64_t issued, int64_t wait_ms, proto::Phase phase = proto::PHASE_PROFILING) {
  proto::MetricRecord rec;
  auto* md = rec.mutable_metadata();
  md->set_phase(phase);
  md->set_credit_issued_ns(issued);
  md->set_request_start_ns(issued + wait_ms * kMsNs);
  md->set_request_end_ns(issued + (wait_ms + 380) * kMsNs);
  auto add = [&](const char* tag, double v) {
    auto* m = rec.add_metrics();
    m->set_tag(tag);
    m->set_value(v);
  };
  add("input_sequence_length", 50);
  add("time_to_first_token", 200.0 * kMsNs);
  add("output_sequence_length", 10);
  auto* icl = rec.add_metrics();
  icl->set_tag("inter_chunk_latency");
  icl->set_is_list(true);
  for (int i = 0; i < 9; ++i) icl->add_values(20.0 * kMsNs);
  return rec;
}

MetricContext streaming_context() {
  MetricContext ctx;
  ctx.streaming = true;
  return ctx;
}

}  // namespace

TEST_CASE("aggregator: sweep results carry avg, min, max, p50..p99 and std, no count or sum") {
  Aggregator agg(streaming_context());
  // Two requests back to back in one lane, credits issued 2 ms and 4 ms before they start:
  // in flight [2, 382) and [386, 766) ms. A warmup record moves nothing.
  agg.add(streamed_record(kT0, 2));
  agg.add(streamed_record(kT0 + 384 * kMsNs, 2));
  agg.add(streamed_record(kT0 - 1000 * kMsNs, 0, proto::PHASE_WARMUP));
  const proto::ProfileResults res = agg.finalize();

  const proto::MetricResult* c = find(res, "effective_concurrency");
  REQUIRE(c);
  // Window: the first start to the last end, [2, 766) ms; 4 ms of it idle: 760 / 764.
  CHECK(c->avg() == Approx(760.0 / 764));
  CHECK(c->unit() == "requests");
  CHECK(c->is_record_metric());
  CHECK(c->count() == 0);
  CHECK_FALSE(c->has_sum());
  CHECK_FALSE(c->has_p1());
  CHECK_FALSE(c->has_p75());
  CHECK(c->has_p50());
  CHECK(c->has_p99());
  CHECK(c->has_std());
  // Decode: 9 tokens over 180 ms (50/s) in each request: 2 * 9 tokens / 0.764 s.
  const proto::MetricResult* d = find(res, "effective_decode_throughput");
  REQUIRE(d);
  CHECK(d->unit() == "tokens/sec");
  CHECK(d->avg() == Approx(18 / 0.764));
  CHECK(find(res, "active_decode_throughput")->avg() == Approx(50));
  CHECK(find(res, "active_prefill_throughput")->avg() == Approx(250));  // 50 tokens / 0.2 s
  CHECK(find(res, "active_prefill_throughput_per_user")->unit() == "tokens/sec/user");
  for (std::string_view tag :
       {"effective_prefill_throughput", "effective_decode_concurrency", "effective_prefill_concurrency",
        "effective_total_throughput", "effective_decode_throughput_per_user", "effective_prefill_throughput_per_user",
        "tokens_in_flight", "active_decode_throughput_per_user", "active_total_throughput"}) {
    CHECK(find(res, tag));
  }
}

TEST_CASE("aggregator: credit-to-start and effective latency from the records' credit times") {
  Aggregator agg(streaming_context());
  agg.add(streamed_record(kT0, 2));
  agg.add(streamed_record(kT0 + 384 * kMsNs, 4));
  proto::MetricRecord no_credit = streamed_record(kT0 + 1000 * kMsNs, 1);
  no_credit.mutable_metadata()->set_credit_issued_ns(0);  // no issue time: no value
  agg.add(no_credit);
  // A scheduled credit sent 5 ms ahead of its intended time, started 3 ms after that time: it
  // waited 3 ms, not 8 (AIPerf issues a credit when it is due).
  proto::MetricRecord scheduled = streamed_record(kT0 + 2000 * kMsNs, 8);
  scheduled.mutable_metadata()->set_intended_start_ns(kT0 + 2005 * kMsNs);
  agg.add(scheduled);
  const proto::ProfileResults res = agg.finalize();
  // Waits 2, 4 and 3 ms: avg 3, p50 3, sum 9, count 3; p1 = 2 + 0.02 * (3 - 2) (linear).
  const proto::MetricResult* c = find(res, "credit_to_start_latency");
  REQUIRE(c);
  CHECK(c->unit() == "ms");
  CHECK(c->count() == 3);
  CHECK(c->avg() == Approx(3));
  CHECK(c->sum() == Approx(9));
  CHECK(c->min() == Approx(2));
  CHECK(c->max() == Approx(4));
  CHECK(c->p50() == Approx(3));
  CHECK(c->p1() == Approx(2.02));
  // Effective latency = wait + 380 ms: 382, 384 and 383.
  const proto::MetricResult* e = find(res, "effective_latency");
  REQUIRE(e);
  CHECK(e->avg() == Approx(383));
  CHECK(e->max() == Approx(384));
  // Neither is shown in our console table nor written per record.
  CHECK(has_flags(c->flags(), flags::kNoConsole));
  CHECK(has_flags(metric("effective_latency").flags, flags::kNoIndividualRecords));
}

TEST_CASE("aggregator: the sweep window is the phase when given, and a timeslice computes none of these") {
  Aggregator agg(streaming_context());
  agg.add(streamed_record(kT0, 2));
  // The phase ran [0, 400) ms: the request was in flight [2, 382).
  agg.set_sweep_window_ns(static_cast<double>(kT0), static_cast<double>(kT0 + 400 * kMsNs));
  CHECK(find(agg.finalize(), "effective_concurrency")->avg() == Approx(380.0 / 400));

  Aggregator slice(streaming_context());
  slice.set_per_timeslice();
  slice.add(streamed_record(kT0, 2));
  const proto::ProfileResults res = slice.finalize();
  CHECK(find(res, "input_sequence_length"));
  CHECK_FALSE(find(res, "effective_concurrency"));
  CHECK_FALSE(find(res, "credit_to_start_latency"));
  CHECK_FALSE(find(res, "effective_latency"));
}

TEST_CASE("aggregator: only errors still give a concurrency, and zeros for what needs tokens") {
  Aggregator agg(streaming_context());
  proto::MetricRecord rec;
  rec.mutable_metadata()->set_phase(proto::PHASE_PROFILING);
  rec.mutable_metadata()->set_request_start_ns(kT0);
  rec.mutable_metadata()->set_request_end_ns(kT0 + 100 * kMsNs);
  rec.mutable_error()->set_code(500);
  agg.add(rec);
  const proto::ProfileResults res = agg.finalize();
  CHECK(find(res, "effective_concurrency")->avg() == Approx(1));
  CHECK(find(res, "effective_decode_throughput")->avg() == 0);
  CHECK(find(res, "tokens_in_flight")->max() == 0);
}
