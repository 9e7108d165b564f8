// profile_export_aiperf_timeslices.csv / .json on hand-made slice results.
#include <catch2/catch.hpp>

#include "export/timeslice_csv.h"
#include "export/timeslice_json.h"
#include "results_fixtures.h"

using namespace aiperf;
using namespace aiperf::exporting;
using namespace aiperf::exporting::testing;
namespace f = aiperf::metrics::flags;

namespace {

// Two slices: the first with a latency distribution, an integer scalar, a float scalar and an
// INTERNAL metric (never exported); the second with just a count.
std::vector<proto::ProfileResults> two_slices() {
  std::vector<proto::ProfileResults> slices(2);
  scalar_metric(slices[0], "request_count", "Request Count", "requests",
                f::kLargerIsBetter | f::kNoIndividualRecords, 1100, 2, true);
  record_metric(slices[0], "request_latency", "Request Latency", "ms", f::kNone, 300,
                {85.0, 70.0, 100.0, 170.0, 70.3, 71.5, 73.0, 77.5, 85.0, 92.5, 97.0, 98.5, 99.7, 15.0});
  scalar_metric(slices[0], "request_throughput", "Request Throughput", "requests/sec",
                f::kLargerIsBetter, 900, 1.2345);
  scalar_metric(slices[0], "min_request_timestamp", "Minimum Request Timestamp", "ns",
                f::kNoConsole | f::kNoIndividualRecords | f::kInternal, 0, 1.7e18, true);
  scalar_metric(slices[1], "request_count", "Request Count", "requests",
                f::kLargerIsBetter | f::kNoIndividualRecords, 1100, 1, true);
  return slices;
}

// The two slices' windows: 100 ms each, the second cut short at 1.7e18 + 148 ms.
std::vector<TimesliceExport> windows(const std::vector<proto::ProfileResults>& results) {
  return {{1'700'000'000'000'000'000, 1'700'000'000'100'000'000, true, &results[0]},
          {1'700'000'000'100'000'000, 1'700'000'000'148'000'000, false, &results[1]}};
}

}  // namespace

TEST_CASE("timeslice CSV: tidy rows per slice with its window, metrics by tag, stats in STAT_KEYS order") {
  const auto results = two_slices();
  const std::string csv = format_timeslice_csv(windows(results));
  const std::string head =
      "Timeslice,Start_NS,End_NS,Metric,Unit,Stat,Value\r\n"
      "0,1700000000000000000,1700000000100000000,Request Count,requests,avg,2.00\r\n"
      "0,1700000000000000000,1700000000100000000,Request Latency,ms,avg,85.00\r\n";
  CHECK(csv.substr(0, head.size()) == head);
  // The same rows without the window columns.
  std::string rows;
  for (std::size_t at = csv.find("\r\n") + 2; at < csv.size();) {
    const std::size_t end = csv.find("\r\n", at) + 2;
    std::string line = csv.substr(at, end - at);
    const std::size_t first = line.find(','), third = line.find(',', line.find(',', first + 1) + 1);
    rows += line.substr(0, first) + line.substr(third);
    at = end;
  }
  CHECK(rows ==
        "0,Request Count,requests,avg,2.00\r\n"
        "0,Request Latency,ms,avg,85.00\r\n"
        "0,Request Latency,ms,min,70.00\r\n"
        "0,Request Latency,ms,max,100.00\r\n"
        "0,Request Latency,ms,sum,170.00\r\n"
        "0,Request Latency,ms,p1,70.30\r\n"
        "0,Request Latency,ms,p5,71.50\r\n"
        "0,Request Latency,ms,p10,73.00\r\n"
        "0,Request Latency,ms,p25,77.50\r\n"
        "0,Request Latency,ms,p50,85.00\r\n"
        "0,Request Latency,ms,p75,92.50\r\n"
        "0,Request Latency,ms,p90,97.00\r\n"
        "0,Request Latency,ms,p95,98.50\r\n"
        "0,Request Latency,ms,p99,99.70\r\n"
        "0,Request Latency,ms,std,15.00\r\n"
        "0,Request Throughput,requests/sec,avg,1.23\r\n"
        "1,Request Count,requests,avg,1.00\r\n");
  CHECK(csv.find("1,1700000000100000000,1700000000148000000,Request Count,requests,avg,1.00\r\n") != std::string::npos);
}

TEST_CASE("timeslice CSV: integer metrics print with 2 decimals too, min/max/sum included") {
  std::vector<proto::ProfileResults> slices(1);
  record_metric(slices[0], "output_sequence_length", "Output Sequence Length", "tokens", f::kNone, 600,
                {95.2, 29, 295, 952, 30.6, 36.8, 44.2, 51, 63, 120, 176.2, 235.6, 283.12, 77.08}, true);
  const std::string csv = format_timeslice_csv({{5, 10, true, &slices[0]}});
  CHECK(csv.find("0,5,10,Output Sequence Length,tokens,avg,95.20\r\n"
                 "0,5,10,Output Sequence Length,tokens,min,29.00\r\n"
                 "0,5,10,Output Sequence Length,tokens,max,295.00\r\n"
                 "0,5,10,Output Sequence Length,tokens,sum,952.00\r\n"
                 "0,5,10,Output Sequence Length,tokens,p1,30.60\r\n") != std::string::npos);
}

TEST_CASE("timeslice JSON: slices with their windows, float metric objects, input_config last") {
  const auto config = nlohmann::ordered_json::parse(R"({"loadgen": {"concurrency": 2}})");
  const auto results = two_slices();
  CHECK(format_timeslice_json(windows(results), config) == R"({
  "timeslices": [
    {
      "start_ns": 1700000000000000000,
      "end_ns": 1700000000100000000,
      "request_count": {
        "unit": "requests",
        "avg": 2.0
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
      "request_throughput": {
        "unit": "requests/sec",
        "avg": 1.2345
      }
    },
    {
      "start_ns": 1700000000100000000,
      "end_ns": 1700000000148000000,
      "is_complete": false,
      "request_count": {
        "unit": "requests",
        "avg": 1.0
      }
    }
  ],
  "input_config": {
    "loadgen": {
      "concurrency": 2
    }
  }
})");
}

TEST_CASE("timeslice JSON without slices or config") {
  CHECK(format_timeslice_json({}, nullptr) == "{\n  \"timeslices\": []\n}");
}

TEST_CASE("timeslice JSON: an integer metric's min, max and sum are floats, its count an integer") {
  std::vector<proto::ProfileResults> slices(1);
  record_metric(slices[0], "input_sequence_length", "Input Sequence Length", "tokens", f::kNone, 600,
                {20, 20, 20, 80, 20, 20, 20, 20, 20, 20, 20, 20, 20, 0}, true);
  const std::string json = format_timeslice_json({{5, 10, true, &slices[0]}}, nullptr);
  CHECK(json.find("\"min\": 20.0,") != std::string::npos);
  CHECK(json.find("\"max\": 20.0,") != std::string::npos);
  CHECK(json.find("\"sum\": 80.0\n") != std::string::npos);
  CHECK(json.find("\"count\": 10,") != std::string::npos);
  CHECK(json.find("is_complete") == std::string::npos);  // only on a slice cut short
}
