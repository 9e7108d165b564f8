// Hand-built ProfileResults for the export tests (display units, as the Aggregator emits).
#pragma once
#include <array>
#include <optional>
#include <string>

#include "metrics/metric_flags.h"
#include "results.pb.h"

namespace aiperf::exporting::testing {

struct Dist {
  double avg, min, max, sum, p1, p5, p10, p25, p50, p75, p90, p95, p99, std;
};

inline proto::MetricResult& record_metric(proto::ProfileResults& res, const std::string& tag,
                                          const std::string& header, const std::string& unit,
                                          uint64_t flags, int order, const Dist& d,
                                          bool integer_values = false) {
  proto::MetricResult& m = *res.add_records();
  m.set_tag(tag);
  m.set_header(header);
  m.set_unit(unit);
  m.set_flags(flags);
  m.set_display_order(order);
  m.set_is_record_metric(true);
  m.set_integer_values(integer_values);
  m.set_count(10);
  m.set_avg(d.avg);
  m.set_min(d.min);
  m.set_max(d.max);
  m.set_sum(d.sum);
  m.set_p1(d.p1);
  m.set_p5(d.p5);
  m.set_p10(d.p10);
  m.set_p25(d.p25);
  m.set_p50(d.p50);
  m.set_p75(d.p75);
  m.set_p90(d.p90);
  m.set_p95(d.p95);
  m.set_p99(d.p99);
  m.set_std(d.std);
  return m;
}

inline proto::MetricResult& scalar_metric(proto::ProfileResults& res, const std::string& tag,
                                          const std::string& header, const std::string& unit,
                                          uint64_t flags, int order, double value,
                                          bool integer_values = false) {
  proto::MetricResult& m = *res.add_records();
  m.set_tag(tag);
  m.set_header(header);
  m.set_unit(unit);
  m.set_flags(flags);
  m.set_display_order(order);
  m.set_integer_values(integer_values);
  m.set_count(1);
  m.set_avg(value);
  return m;
}

inline void add_error(proto::ProfileResults& res, std::optional<int> code, const std::string& type,
                      const std::string& message, uint64_t count) {
  auto* e = res.add_error_summary();
  if (code) e->mutable_error_details()->set_code(*code);
  e->mutable_error_details()->set_type(type);
  e->mutable_error_details()->set_message(message);
  e->set_count(count);
}

// A small streaming run: two record metrics, one integer-valued, plus scalars, an INTERNAL
// metric (never exported) and an error.
inline proto::ProfileResults small_results() {
  namespace f = metrics::flags;
  proto::ProfileResults res;
  record_metric(res, "request_latency", "Request Latency", "ms", f::kNone, 300,
                {85.0, 70.0, 100.0, 170.0, 70.3, 71.5, 73.0, 77.5, 85.0, 92.5, 97.0, 98.5, 99.7,
                 15.0});
  record_metric(res, "output_sequence_length", "Output Sequence Length", "tokens",
                f::kProducesTokensOnly | f::kLargerIsBetter, 600,
                {3.5, 3, 4, 7, 3.01, 3.05, 3.1, 3.25, 3.5, 3.75, 3.9, 3.95, 3.99, 0.5}, true);
  scalar_metric(res, "request_throughput", "Request Throughput", "requests/sec",
                f::kLargerIsBetter, 900, 10.0);
  scalar_metric(res, "request_count", "Request Count", "requests",
                f::kLargerIsBetter | f::kNoIndividualRecords, 1100, 2, true);
  scalar_metric(res, "min_request_timestamp", "Minimum Request Timestamp", "ns",
                f::kNoConsole | f::kNoIndividualRecords | f::kInternal, 0, 1.7e18, true);
  scalar_metric(res, "error_request_count", "Error Request Count", "requests",
                f::kErrorOnly | f::kNoIndividualRecords, 0, 3, true);
  scalar_metric(res, "benchmark_duration", "Benchmark Duration", "sec", f::kNoConsole, 0, 0.2);
  scalar_metric(res, "total_token_throughput", "Total Token Throughput", "tokens/sec",
                f::kProducesTokensOnly | f::kLargerIsBetter | f::kNoConsole, 0, 1535.0);
  add_error(res, 500, "Internal Server Error", "boom", 2);
  add_error(res, std::nullopt, "TimeoutError", "", 1);
  res.set_completed(5);
  return res;
}

}  // namespace aiperf::exporting::testing
