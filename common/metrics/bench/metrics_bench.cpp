// metrics_bench: aggregates 1M synthetic streaming records (11 values each incl. a 9-value
// inter_chunk_latency list; 1% errors) and prints the time of add() + finalize() and the
// process peak RSS; also the cost of compute_record_metrics per record. With a chunk count,
// each response has that many chunks (the sweep-line curves follow every chunk).
// Usage: metrics_bench [records [chunks]]
#include <sys/resource.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <random>

#include "metrics/aggregator.h"
#include "metrics/record_metrics.h"
#include "time/clock.h"

using namespace aiperf;

namespace {

int g_chunks = 10;

metrics::ParsedRecord synthetic_record(std::mt19937_64& rng, int64_t i) {
  std::uniform_int_distribution<int64_t> ttft(20'000'000, 200'000'000);
  std::uniform_int_distribution<int64_t> gap(5'000'000, 15'000'000);
  metrics::ParsedRecord r;
  r.start_perf_ns = i * 1'000'000;
  r.start_wall_ns = 1'700'000'000'000'000'000 + r.start_perf_ns;
  int64_t t = r.start_perf_ns + ttft(rng);
  for (int k = 0; k < g_chunks; ++k) {
    r.responses.push_back({t, "tok", ""});
    t += gap(rng);
  }
  r.end_perf_ns = t;
  r.input_tokens = 550;
  r.output_tokens = g_chunks;
  if (i % 100 == 0) r.error = proto::ErrorDetails();
  if (r.error) {
    r.error->set_code(500);
    r.error->set_type("Internal Server Error");
    r.error->set_message("boom");
  }
  return r;
}

}  // namespace

int main(int argc, char** argv) {
  const int64_t n = argc > 1 ? std::atoll(argv[1]) : 1'000'000;
  if (argc > 2) g_chunks = std::max(1, std::atoi(argv[2]));
  metrics::MetricContext ctx;
  ctx.streaming = true;

  // Build the records' MetricValues once and vary only the metadata: the benchmark measures
  // aggregation, not record construction.
  std::mt19937_64 rng(42);
  std::vector<proto::MetricRecord> samples(64);
  for (std::size_t s = 0; s < samples.size(); ++s) {
    metrics::ParsedRecord r = synthetic_record(rng, static_cast<int64_t>(s));
    metrics::compute_record_metrics(r, ctx, samples[s].mutable_metrics());
    if (r.error) *samples[s].mutable_error() = *r.error;
  }

  // Per-record computation cost (record processor side), over 100k records.
  const auto c0 = aiperf::steady_now_ns();
  constexpr int kComputeRecords = 100'000;
  std::size_t computed = 0;
  for (int i = 0; i < kComputeRecords; ++i) {
    google::protobuf::RepeatedPtrField<proto::MetricValue> out;
    metrics::compute_record_metrics(synthetic_record(rng, i), ctx, &out);
    computed += static_cast<std::size_t>(out.size());
  }
  const auto c1 = aiperf::steady_now_ns();

  metrics::Aggregator agg(ctx);
  const auto t0 = aiperf::steady_now_ns();
  for (int64_t i = 0; i < n; ++i) {
    proto::MetricRecord& rec = samples[static_cast<std::size_t>(i) % samples.size()];
    rec.mutable_metadata()->set_request_start_ns(1'700'000'000'000'000'000 + i * 1'000'000);
    agg.add(rec);
  }
  const auto t1 = aiperf::steady_now_ns();
  proto::ProfileResults results = agg.finalize();
  const auto t2 = aiperf::steady_now_ns();

  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  const auto secs = [](aiperf::Nanos d) { return static_cast<double>(d) / 1e9; };
  std::printf("compute_us_per_record=%.2f (values=%zu)\n",
              secs(c1 - c0) * 1e6 / kComputeRecords, computed);
  std::printf("records=%lld metrics=%d add_s=%.3f finalize_s=%.3f total_s=%.3f peak_rss_mib=%.1f\n",
              static_cast<long long>(n), results.records_size(), secs(t1 - t0), secs(t2 - t1),
              secs(t2 - t0), static_cast<double>(usage.ru_maxrss) / 1024.0);
  return 0;
}
