// --show-trace-timing: the HTTP trace metrics in their own console table.
#include "export/trace_timing_table.h"

#include <catch2/catch.hpp>

#include "results_fixtures.h"

using namespace aiperf;
using namespace aiperf::exporting;
using namespace aiperf::exporting::testing;
namespace f = aiperf::metrics::flags;

namespace {

constexpr uint64_t kTrace = f::kHttpTraceOnly | f::kNoConsole;

}  // namespace

TEST_CASE("trace timing table: only http_req metrics, in display order, AIPerf's title") {
  proto::ProfileResults res;
  record_metric(res, "request_latency", "Request Latency", "ms", f::kNone, 300,
                {85.0, 70.0, 100.0, 170.0, 70.3, 71.5, 73.0, 77.5, 85.0, 92.5, 97.0, 98.5, 99.7, 15.0});
  record_metric(res, "http_req_waiting", "HTTP Waiting (TTFB)", "ms", kTrace, 2040,
                {1.5, 1.0, 2.0, 3.0, 1.01, 1.05, 1.1, 1.25, 1.5, 1.75, 1.9, 1.95, 1.99, 0.5});
  record_metric(res, "http_req_blocked", "HTTP Blocked", "ms", kTrace, 2000,
                {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0});
  record_metric(res, "http_req_connection_reused", "HTTP Connection Reused", "ratio", kTrace, 2060,
                {0.5, 0, 1, 1, 0.01, 0.05, 0.1, 0.25, 0.5, 0.75, 0.9, 0.95, 0.99, 0.5}, true);
  CHECK(format_trace_timing_table(res, false) ==
        "                         NVIDIA AIPerf | HTTP Trace Timing\n"
        "+---------------------------------------------------------------------------------+\n"
        "|                         Metric |  avg |  min |  max |  p99 |  p90 |  p50 |  std |\n"
        "|--------------------------------+------+------+------+------+------+------+------|\n"
        "|              HTTP Blocked (ms) | 0.00 | 0.00 | 0.00 | 0.00 | 0.00 | 0.00 | 0.00 |\n"
        "|       HTTP Waiting (TTFB) (ms) | 1.50 | 1.00 | 2.00 | 1.99 | 1.90 | 1.50 | 0.50 |\n"
        "| HTTP Connection Reused (ratio) | 0.50 | 0.00 | 1.00 | 0.99 | 0.90 | 0.50 | 0.50 |\n"
        "+---------------------------------------------------------------------------------+\n");
}

TEST_CASE("trace timing table is empty when no request produced trace metrics") {
  proto::ProfileResults res;
  scalar_metric(res, "request_count", "Request Count", "requests", f::kNoIndividualRecords, 1100, 0, true);
  CHECK(format_trace_timing_table(res, true).empty());
}
