// Timeslices: AIPerf 0.13's grid (anchored at the first request start, edges as doubles),
// slice assignment by request start and each slice's own statistics.
#include "timeslices.h"

#include <catch2/catch.hpp>

#include "metrics/record_metrics.h"

using namespace aiperf;
using namespace aiperf::metrics;
using aiperf::records::make_slice_grid;
using aiperf::records::TimesliceResult;
using aiperf::records::Timeslices;

namespace {

constexpr int64_t kMs = 1'000'000;
constexpr int64_t kSec = 1'000'000'000;
constexpr int64_t kT0 = 1'700'000'000 * kSec;  // a whole second: slice boundaries fall on it

// A valid non-streaming record starting at `start_ns` whose latency is `latency_ms`.
proto::MetricRecord record(int64_t start_ns, int64_t latency_ms, int64_t osl,
                           proto::Phase phase = proto::PHASE_PROFILING) {
  ParsedRecord r;
  r.responses.push_back({latency_ms * kMs, "text", ""});
  r.output_tokens = osl;
  r.input_tokens = 10;
  proto::MetricRecord rec;
  compute_record_metrics(r, MetricContext{}, rec.mutable_metrics());
  rec.mutable_metadata()->set_request_start_ns(start_ns);
  rec.mutable_metadata()->set_request_end_ns(start_ns + latency_ms * kMs);
  rec.mutable_metadata()->set_phase(phase);
  return rec;
}

proto::MetricRecord error_record(int64_t start_ns) {
  proto::MetricRecord rec;
  rec.mutable_metadata()->set_request_start_ns(start_ns);
  rec.mutable_metadata()->set_request_end_ns(start_ns);
  rec.mutable_metadata()->set_phase(proto::PHASE_PROFILING);
  rec.mutable_error()->set_code(500);
  rec.mutable_error()->set_type("Internal Server Error");
  rec.mutable_error()->set_message("boom");
  return rec;
}

const proto::MetricResult* find(const proto::ProfileResults& res, const std::string& tag) {
  for (const auto& m : res.records()) {
    if (m.tag() == tag) return &m;
  }
  return nullptr;
}

double avg(const proto::ProfileResults& res, const std::string& tag) {
  const proto::MetricResult* m = find(res, tag);
  REQUIRE(m);
  return m->avg();
}

}  // namespace

TEST_CASE("the grid starts at the first request start and spans to the last start or end") {
  // Starts 0.05 s past a whole second: epoch alignment would put the edges elsewhere.
  const int64_t origin = kT0 + 52 * kMs;
  const auto g = make_slice_grid(origin, origin + 412 * kMs, 100 * kMs);
  CHECK(g.count == 5);  // int(0.412 / 0.1) + 1
  CHECK(static_cast<int64_t>(g.edge(0)) == origin);
  CHECK(static_cast<int64_t>(g.edge(1)) == origin + 100 * kMs);
  CHECK(g.index_of(origin) == 0);
  CHECK(g.index_of(origin + 100 * kMs - 1'024) == 0);
  CHECK(g.index_of(origin + 100 * kMs) == 1);
  CHECK(g.index_of(origin + 412 * kMs) == 4);
}

TEST_CASE("slice edges are doubles: a start within the last ulp of an edge goes where numpy puts it") {
  // Near 1.7e18 doubles are 256 ns apart: kT0 + 1 s - 100 ns rounds up onto the edge kT0 + 1 s,
  // so numpy.digitize already puts it in slice 1.
  const auto g = make_slice_grid(kT0, kT0 + 3 * kSec, kSec);
  CHECK(g.count == 4);
  CHECK(g.index_of(kT0 + kSec - 100) == 1);
  CHECK(g.index_of(kT0 + kSec - 1'000) == 0);
}

TEST_CASE("records are grouped into renumbered slices, each with its own statistics") {
  Timeslices slices(MetricContext{}, 1.0);
  const int64_t t0 = kT0 + 300 * kMs;  // the first request start anchors the grid
  // Slice 0 [t0, t0 + 1 s): two requests, 100 ms and 300 ms latency, the second starting
  // 200 ms in, so this slice's benchmark_duration is 500 ms; its throughputs divide by 1 s.
  slices.add(record(t0 + 200 * kMs, 300, 7));
  slices.add(record(t0, 100, 5));
  // Nothing in [t0 + 1 s, t0 + 2 s): that slice simply does not exist.
  // Slice 2 [t0 + 2 s, …): one request of 252 ms starting at 2.9 s that ends after the grid
  // edge t0 + 3 s, so the grid gets a 4th (empty) slice and slice 2 stays complete. An error
  // at 2.1 s. (Offsets are multiples of 4 ms so wall times stay exact as doubles.)
  slices.add(record(t0 + 2 * kSec + 900 * kMs, 252, 4));
  slices.add(error_record(t0 + 2 * kSec + 100 * kMs));
  // Warmup never counts (nor moves the anchor).
  slices.add(record(kT0, 1, 1, proto::PHASE_WARMUP));

  const std::vector<TimesliceResult> out = slices.finalize();
  REQUIRE(out.size() == 2);

  CHECK(out[0].start_ns == t0);
  CHECK(out[0].end_ns == t0 + kSec);
  CHECK(out[0].complete);
  const proto::ProfileResults& a = out[0].results;
  CHECK(avg(a, "request_count") == 2);
  CHECK(find(a, "error_request_count") == nullptr);
  CHECK(avg(a, "request_latency") == 200.0);      // ms: (100 + 300) / 2
  CHECK(find(a, "request_latency")->min() == 100.0);
  CHECK(find(a, "request_latency")->max() == 300.0);
  CHECK(find(a, "request_latency")->p50() == 200.0);
  CHECK(avg(a, "benchmark_duration") == 0.5);     // sec: (200 + 300) ms - 0
  CHECK(avg(a, "request_throughput") == 2.0);     // 2 / the 1 s window
  CHECK(avg(a, "total_osl") == 12);
  CHECK(avg(a, "output_token_throughput") == 12.0);  // 12 / 1 s
  CHECK(avg(a, "total_isl") == 20);
  CHECK(avg(a, "input_token_throughput") == 20.0);   // 20 / 1 s, not / its 0.5 s span
  CHECK(avg(a, "total_token_throughput") == 32.0);   // (20 + 12) / 1 s

  CHECK(out[1].start_ns == t0 + 2 * kSec);
  CHECK(out[1].end_ns == t0 + 3 * kSec);
  CHECK(out[1].complete);
  const proto::ProfileResults& b = out[1].results;
  CHECK(avg(b, "request_count") == 1);
  CHECK(avg(b, "error_request_count") == 1);
  CHECK(avg(b, "request_latency") == 252.0);
  CHECK(avg(b, "benchmark_duration") == 0.252);
  CHECK(avg(b, "request_throughput") == 1.0);
  REQUIRE(b.error_summary_size() == 1);
  CHECK(b.error_summary(0).count() == 1);
}

TEST_CASE("the last slice ends at the run's last instant and is flagged incomplete") {
  Timeslices slices(MetricContext{}, 0.1);  // 0.1 * 1e9 = 100000000.0 exactly
  slices.add(record(kT0, 40, 1));
  slices.add(record(kT0 + 60 * kMs, 40, 1));     // ends exactly on the edge t0 + 100 ms
  slices.add(record(kT0 + 100 * kMs, 20, 1));    // starts on it: slice 1
  slices.add(record(kT0 + 120 * kMs, 28, 1));    // the run's last end: t0 + 148 ms
  const auto out = slices.finalize();
  REQUIRE(out.size() == 2);
  CHECK(avg(out[0].results, "request_count") == 2);
  CHECK(out[0].end_ns == kT0 + 100 * kMs);
  CHECK(out[0].complete);
  CHECK(avg(out[1].results, "request_count") == 2);
  CHECK(out[1].start_ns == kT0 + 100 * kMs);
  CHECK(out[1].end_ns == kT0 + 148 * kMs);
  CHECK_FALSE(out[1].complete);
  // 2 requests over the 48 ms the cut slice lasts; its benchmark_duration is the same 48 ms.
  CHECK(avg(out[1].results, "request_throughput") == 2 / 0.048);
}

TEST_CASE("no profiling records: no slices") {
  Timeslices slices(MetricContext{}, 1.0);
  slices.add(record(kT0, 1, 1, proto::PHASE_WARMUP));
  CHECK(slices.finalize().empty());
}

TEST_CASE("a record without a start time stays off the grid (it would anchor it at 1970)") {
  Timeslices slices(MetricContext{}, 1.0);
  slices.add(error_record(0));
  slices.add(record(kT0, 100, 1));
  const auto out = slices.finalize();
  REQUIRE(out.size() == 1);
  CHECK(out[0].start_ns == kT0);
  CHECK(out[0].end_ns == kT0 + 100 * kMs);  // the run's last end: the one slice is cut short
  CHECK_FALSE(out[0].complete);
  CHECK(avg(out[0].results, "request_count") == 1);
  CHECK(find(out[0].results, "error_request_count") == nullptr);
}

TEST_CASE("a long idle gap: only the two occupied slices of a million-slice grid") {
  Timeslices slices(MetricContext{}, 0.001);
  slices.add(record(kT0, 4, 1));
  slices.add(record(kT0 + 1'000 * kSec, 4, 1));  // 1e6 slices of 1 ms later
  const auto out = slices.finalize();
  REQUIRE(out.size() == 2);
  CHECK(out[0].start_ns == kT0);
  // Edges are doubles, 256 ns apart up here: t0 + 1 ms is not one, int(edge) is 64 ns short
  // (as int(numpy float) is in AIPerf).
  CHECK(out[0].end_ns == 1'700'000'000'000'999'936);
  CHECK(out[1].start_ns == kT0 + 1'000 * kSec);
  CHECK(out[1].end_ns == 1'700'001'000'000'999'936);
  CHECK(out[1].complete);  // ends exactly on its grid edge
}

TEST_CASE("sweep-line metrics weigh the whole run's curve over each slice's window") {
  Timeslices ts(MetricContext{}, 1.0);
  // R1 in flight [0, 1.5 s), R2 [1.2, 1.7 s): slice 0 is [0, 1) and holds R1; slice 1 holds R2
  // and is cut at 1.7 s. Its concurrency counts R1, which started in slice 0:
  // [1, 1.2) 1, [1.2, 1.5) 2, [1.5, 1.7) 1: avg 1.0 / 0.7.
  proto::MetricRecord r1 = record(kT0, 1500, 5);
  r1.mutable_metadata()->set_credit_issued_ns(kT0 - kMs);
  ts.add(r1);
  ts.add(record(kT0 + 1200 * kMs, 500, 5));
  const std::vector<TimesliceResult> slices = ts.finalize();
  REQUIRE(slices.size() == 2);
  CHECK(avg(slices[0].results, "effective_concurrency") == Approx(1.0));
  CHECK(avg(slices[1].results, "effective_concurrency") == Approx(1.0 / 0.7));
  CHECK(find(slices[1].results, "effective_concurrency")->max() == 2);
  CHECK(find(slices[1].results, "tokens_in_flight"));
  CHECK(find(slices[1].results, "active_total_throughput"));
  // The credit latencies are run-wide only, as in AIPerf 0.13.
  CHECK_FALSE(find(slices[0].results, "credit_to_start_latency"));
  CHECK_FALSE(find(slices[0].results, "effective_latency"));
}
