// Timeslices: slice assignment by wall start time and each slice's own statistics.
#include "timeslices.h"

#include <catch2/catch.hpp>

#include "metrics/record_metrics.h"

using namespace aiperf;
using namespace aiperf::metrics;
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
  rec.mutable_metadata()->set_phase(phase);
  return rec;
}

proto::MetricRecord error_record(int64_t start_ns) {
  proto::MetricRecord rec;
  rec.mutable_metadata()->set_request_start_ns(start_ns);
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

TEST_CASE("slice index is the epoch-aligned int(start / width), rounding like Python") {
  CHECK(Timeslices::slice_index(kT0, kSec) == 1'700'000'000);
  CHECK(Timeslices::slice_index(kT0 + kSec - 1'000, kSec) == 1'700'000'000);
  CHECK(Timeslices::slice_index(kT0 + kSec, kSec) == 1'700'000'001);
  CHECK(Timeslices::slice_index(kT0 + 2'500 * kMs, 2'500 * kMs) == 680'000'001);
  // 1 ns before a boundary: the exact quotient 1700000000.999999999 rounds to the float
  // 1700000001.0, so Python's int(start / width) is already the next slice.
  CHECK(Timeslices::slice_index(kT0 + kSec - 1, kSec) == 1'700'000'001);
}

TEST_CASE("records are grouped into renumbered slices, each with its own statistics") {
  Timeslices slices(MetricContext{}, 1.0);
  // Slice A (epoch second kT0): two requests, 100 ms and 300 ms latency, the second starting
  // 200 ms in, so this slice's duration is 500 ms.
  slices.add(record(kT0 + 0, 100, 5));
  slices.add(record(kT0 + 200 * kMs, 300, 7));
  // No records in kT0 + 1 s: that slice simply does not exist.
  // Slice B (kT0 + 2 s): one request of 252 ms that ends after the slice: still this slice's.
  // (Offsets are multiples of 4 ms so wall times stay exact as doubles near 1.7e18.)
  slices.add(record(kT0 + 2 * kSec + 900 * kMs, 252, 4));
  slices.add(error_record(kT0 + 2 * kSec + 100 * kMs));
  // Warmup never counts.
  slices.add(record(kT0 + 2 * kSec, 1, 1, proto::PHASE_WARMUP));

  const std::vector<proto::ProfileResults> out = slices.finalize();
  REQUIRE(out.size() == 2);

  const proto::ProfileResults& a = out[0];
  CHECK(avg(a, "request_count") == 2);
  CHECK(find(a, "error_request_count") == nullptr);
  CHECK(avg(a, "request_latency") == 200.0);      // ms: (100 + 300) / 2
  CHECK(find(a, "request_latency")->min() == 100.0);
  CHECK(find(a, "request_latency")->max() == 300.0);
  CHECK(find(a, "request_latency")->p50() == 200.0);
  CHECK(avg(a, "benchmark_duration") == 0.5);     // sec: (200 + 300) ms - 0
  CHECK(avg(a, "request_throughput") == 4.0);     // 2 / 0.5 s
  CHECK(avg(a, "total_osl") == 12);
  CHECK(avg(a, "output_token_throughput") == 24.0);  // 12 / 0.5 s

  const proto::ProfileResults& b = out[1];
  CHECK(avg(b, "request_count") == 1);
  CHECK(avg(b, "error_request_count") == 1);
  CHECK(avg(b, "request_latency") == 252.0);
  CHECK(avg(b, "benchmark_duration") == 0.252);
  CHECK(avg(b, "request_throughput") == 1 / 0.252);
  REQUIRE(b.error_summary_size() == 1);
  CHECK(b.error_summary(0).count() == 1);
}

TEST_CASE("fractional slice widths truncate to whole nanoseconds like int(S * 1e9)") {
  Timeslices slices(MetricContext{}, 0.1);  // 0.1 * 1e9 = 100000000.0 exactly
  slices.add(record(kT0 + 99 * kMs, 10, 1));
  slices.add(record(kT0 + 100 * kMs, 10, 1));
  slices.add(record(kT0 + 150 * kMs, 10, 1));
  const auto out = slices.finalize();
  REQUIRE(out.size() == 2);
  CHECK(avg(out[0], "request_count") == 1);
  CHECK(avg(out[1], "request_count") == 2);
}
