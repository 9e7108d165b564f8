#include "export/summary_csv.h"

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "results_fixtures.h"

using namespace aiperf;
using namespace aiperf::exporting;
using namespace aiperf::exporting::testing;

TEST_CASE("summary CSV: exact text, CRLF, tag order, every number with 2 decimals (counts too), INTERNAL left out") {
  CHECK(format_summary_csv(small_results()) ==
        "Metric,avg,min,max,sum,p1,p5,p10,p25,p50,p75,p90,p95,p99,std\r\n"
        "Output Sequence Length (tokens),3.50,3.00,4.00,7.00,3.01,3.05,3.10,3.25,3.50,3.75,3.90,3.95,3.99,"
        "0.50\r\n"
        "Request Latency (ms),85.00,70.00,100.00,170.00,70.30,71.50,73.00,77.50,85.00,92.50,97.00,"
        "98.50,99.70,15.00\r\n"
        "\r\n"
        "Metric,Value\r\n"
        "Benchmark Duration (sec),0.20\r\n"
        "Error Request Count,3.00\r\n"
        "Request Count,2.00\r\n"
        "Request Throughput (requests/sec),10.00\r\n"
        "Total Token Throughput (tokens/sec),1535.00\r\n");
}

TEST_CASE("summary CSV: fields with commas or quotes are quoted like csv.writer") {
  proto::ProfileResults res;
  scalar_metric(res, "x", "Odd, \"Name\"", "count", 0, 0, 1, true);
  CHECK(format_summary_csv(res) == "Metric,Value\r\n\"Odd, \"\"Name\"\"\",1.00\r\n");
}

TEST_CASE("summary CSV is written atomically") {
  const auto dir = std::filesystem::temp_directory_path() / "aiperf_csv_test";
  std::filesystem::create_directories(dir);
  const std::string path = (dir / "profile_export_aiperf.csv").string();
  write_summary_csv(path, small_results());
  std::ifstream in(path, std::ios::binary);
  std::stringstream content;
  content << in.rdbuf();
  CHECK(content.str() == format_summary_csv(small_results()));
  CHECK_FALSE(std::filesystem::exists(path + ".tmp"));
  CHECK_THROWS_AS(write_summary_csv((dir / "missing" / "x.csv").string(), small_results()),
                  std::runtime_error);
  std::filesystem::remove_all(dir);
}
