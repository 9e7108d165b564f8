// End-to-end: `aiperf speed-bench-report` over real per-category `aiperf profile` runs of the
// SPEED-Bench qualitative file against a mock that scripts speculative decoding (--spec-decode
// 3:2,0,3: SGLang's gauges say acceptance length 8/3 and rate 5/9). The same command lines were
// run with AIPerf 0.13 on the same run directories: its CSV and table are the ones checked here.
#include <catch2/catch.hpp>

#include <filesystem>
#include <string>
#include <vector>

#include "process.h"

using aiperf::test::Process;
using aiperf::test::read_file;
namespace fs = std::filesystem;

namespace {

struct Result {
  int exit_code = -1;
  std::string out, err;
};

Result report(const std::string& tmp, const std::vector<std::string>& args) {
  std::vector<std::string> argv{"speed-bench-report"};
  argv.insert(argv.end(), args.begin(), args.end());
  Process p(std::string(AIPERF_BIN_DIR) + "/aiperf", argv, tmp, "report");
  const auto rc = p.wait(60);
  REQUIRE(rc.has_value());
  return {*rc, p.out(), p.err()};
}

void category_run(const std::string& tmp, const aiperf::test::MockServer& mock, const std::string& model,
                  const std::string& category, const std::string& dir) {
  const auto run = aiperf::test::run_profile(
      dir,
      {"--tokenizer", "gpt2", "--ui-type", "none", "--model", model, "--endpoint-type", "chat", "--url", mock.url(),
       "--streaming", "--input-file", std::string(AIPERF_TEST_DATA) + "/datasets/speed_bench/qualitative.jsonl",
       "--custom-dataset-type", "speed-bench-" + category, "--request-count", "3", "--server-metrics",
       mock.url() + "/metrics"},
      tmp, model + "_" + category);
  INFO(run.err);
  REQUIRE(run.exit_code == 0);
}

}  // namespace

TEST_CASE("speed-bench-report builds the model x category matrix from per-category runs", "[e2e][speed_bench]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  aiperf::test::MockServer mock({"--fast", "--spec-decode", "3:2,0,3"}, tmp);
  category_run(tmp, mock, "m", "math", tmp + "/runs/run_math");
  category_run(tmp, mock, "m", "coding", tmp + "/runs/run_coding");
  category_run(tmp, mock, "other", "math", tmp + "/runs/other_math");

  SECTION("acceptance length: the table and the CSV, categories in the paper's order") {
    const Result r = report(tmp, {tmp + "/runs", "--output", tmp + "/len.csv"});
    INFO(r.err);
    REQUIRE(r.exit_code == 0);
    CHECK(r.out ==
          "Found 3 run directories.\n"
          "     Acceptance Length Report      \n"
          "┏━━━━━━━┳━━━━━━━━┳━━━━━━┳━━━━━━━━━┓\n"
          "┃ Model ┃ coding ┃ math ┃ Overall ┃\n"
          "┡━━━━━━━╇━━━━━━━━╇━━━━━━╇━━━━━━━━━┩\n"
          "│ m     │   2.67 │ 2.67 │    2.67 │\n"
          "│ other │      - │ 2.67 │    2.67 │\n"
          "└───────┴────────┴──────┴─────────┘\n"
          "CSV written to " +
              tmp + "/len.csv\n");
    CHECK(read_file(tmp + "/len.csv") == "Model,coding,math,Overall\r\nm,2.67,2.67,2.67\r\nother,,2.67,2.67\r\n");
  }
  SECTION("acceptance rate as CSV only, from run directories named one by one") {
    const Result r = report(tmp, {tmp + "/runs/run_math", tmp + "/runs/other_math", "--metric", "accept_rate",
                                  "--format", "csv", "--output", tmp + "/rate.csv"});
    REQUIRE(r.exit_code == 0);
    CHECK(r.out == "Found 2 run directories.\nCSV written to " + tmp + "/rate.csv\n");
    CHECK(read_file(tmp + "/rate.csv") == "Model,math,Overall\r\nm,0.56,0.56\r\nother,0.56,0.56\r\n");
  }
  SECTION("nothing to report: exit 1 with the reference's messages") {
    const Result none = report(tmp, {tmp + "/nothing_here", "--format", "table"});
    CHECK(none.exit_code == 1);
    CHECK(none.err == "Warning: " + tmp + "/nothing_here is not a directory, skipping\n" +
                          "Error: no aiperf run directories found.\n");
    // A synthetic run has no SPEED-Bench category.
    const auto synthetic = aiperf::test::run_profile(
        tmp + "/synthetic",
        {"--tokenizer", "gpt2", "--ui-type", "none", "--model", "m", "--url", mock.url(), "--request-count", "2"}, tmp,
        "synthetic");
    REQUIRE(synthetic.exit_code == 0);
    const Result r = report(tmp, {tmp + "/synthetic"});
    CHECK(r.exit_code == 1);
    CHECK(r.err == "Warning: cannot determine category from " + tmp + "/synthetic, skipping\n" +
                       "Error: no SPEED-Bench results extracted.\n");
    CHECK_FALSE(fs::exists("speed_bench_report.csv"));
  }
}
