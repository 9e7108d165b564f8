#include "export/summary_json.h"

#include <stdlib.h>
#include <time.h>

#include <catch2/catch.hpp>

#include "results_fixtures.h"

using namespace aiperf;
using namespace aiperf::exporting;
using namespace aiperf::exporting::testing;

namespace {

SummaryInfo info() {
  // Local time is the exported time zone; pin it so the expected strings hold anywhere.
  setenv("TZ", "UTC", 1);
  tzset();
  SummaryInfo i;
  i.aiperf_version = "0.6.0";
  i.benchmark_id = "2900a136-3c1a-4520-adaa-5719822b729b";
  i.input_config = nlohmann::ordered_json::parse(
      R"({"endpoint": {"model_names": ["m"], "streaming": true}, "loadgen": {"concurrency": 10}})");
  i.start_ns = 1765764263028529000;
  i.end_ns = 1765764276450000000;
  return i;
}

}  // namespace

TEST_CASE("summary JSON: exact text and key order of spec 7.4") {
  CHECK(format_summary_json(small_results(), info()) == R"({
  "schema_version": "1.0",
  "aiperf_version": "0.6.0",
  "benchmark_id": "2900a136-3c1a-4520-adaa-5719822b729b",
  "request_throughput": {
    "unit": "requests/sec",
    "avg": 10.0
  },
  "request_latency": {
    "unit": "ms",
    "avg": 85.0,
    "p1": 70.3,
    "p5": 71.5,
    "p10": 73.0,
    "p25": 77.5,
    "p50": 85.0,
    "p75": 92.5,
    "p90": 97.0,
    "p95": 98.5,
    "p99": 99.7,
    "min": 70.0,
    "max": 100.0,
    "std": 15.0,
    "count": 10,
    "sum": 170.0
  },
  "request_count": {
    "unit": "requests",
    "avg": 2.0
  },
  "output_sequence_length": {
    "unit": "tokens",
    "avg": 3.5,
    "p1": 3.01,
    "p5": 3.05,
    "p10": 3.1,
    "p25": 3.25,
    "p50": 3.5,
    "p75": 3.75,
    "p90": 3.9,
    "p95": 3.95,
    "p99": 3.99,
    "min": 3.0,
    "max": 4.0,
    "std": 0.5,
    "count": 10,
    "sum": 7.0
  },
  "benchmark_duration": {
    "unit": "sec",
    "avg": 0.2
  },
  "error_request_count": {
    "unit": "requests",
    "avg": 3.0
  },
  "input_config": {
    "endpoint": {
      "model_names": [
        "m"
      ],
      "streaming": true
    },
    "loadgen": {
      "concurrency": 10
    }
  },
  "was_cancelled": false,
  "error_summary": [
    {
      "error_details": {
        "code": 500,
        "type": "Internal Server Error",
        "message": "boom"
      },
      "count": 2
    },
    {
      "error_details": {
        "type": "TimeoutError",
        "message": ""
      },
      "count": 1
    }
  ],
  "start_time": "2025-12-15T02:04:23.028529",
  "end_time": "2025-12-15T02:04:36.450000",
  "total_token_throughput": {
    "unit": "tokens/sec",
    "avg": 1535.0
  }
})");
}

TEST_CASE("summary JSON: empty error summary, cancelled run, whole-second time") {
  SummaryInfo i = info();
  i.was_cancelled = true;
  i.end_ns = 1765764276000000000;
  const std::string text = format_summary_json(proto::ProfileResults{}, i);
  CHECK(text.find("\"was_cancelled\": true,\n  \"error_summary\": [],\n") != std::string::npos);
  CHECK(text.find("\"end_time\": \"2025-12-15T02:04:36\"\n}") != std::string::npos);
}
