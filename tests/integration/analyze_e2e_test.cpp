// End-to-end: the analysis commands as a user runs them. `analyze-trace` and `validate` on
// trace files; `analyze swim-lane` on the run directory of a real `aiperf profile` against the
// mock. Checks what they print, the files they write and the exit codes for bad input.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "process.h"

using aiperf::test::Process;
using aiperf::test::read_file;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

struct Result {
  int exit_code = -1;
  std::string out, err;
};

Result aiperf_cmd(const std::string& tmp, const std::vector<std::string>& args, const std::string& name = "cmd") {
  Process p(std::string(AIPERF_BIN_DIR) + "/aiperf", args, tmp, name);
  const auto rc = p.wait(120);
  REQUIRE(rc.has_value());
  return {*rc, p.out(), p.err()};
}

std::string write(const std::string& path, const std::string& text) {
  std::ofstream(path) << text;
  return path;
}

const char* kTrace =
    "{\"timestamp\": 0, \"input_length\": 1000, \"output_length\": 10, \"hash_ids\": [1, 2]}\n"
    "{\"timestamp\": 10, \"input_length\": 1500, \"output_length\": 20, \"hash_ids\": [1, 2, 3]}\n"
    "{\"timestamp\": 20, \"input_length\": 600, \"output_length\": 5, \"hash_ids\": [4, 5]}\n"
    "{\"timestamp\": 30, \"text_input\": \"hello\", \"output_length\": 7}\n"
    "{\"timestamp\": 40, \"input_length\": 512, \"output_length\": 3, \"hash_ids\": [1]}\n";

}  // namespace

TEST_CASE("analyze-trace prints the statistics and writes the JSON report", "[e2e][analyze]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  const std::string trace = write(tmp + "/trace.jsonl", kTrace);
  const std::string report = tmp + "/out/sub/report.json";
  const Result r = aiperf_cmd(tmp, {"analyze-trace", trace, "--block-size", "512", "--output-file", report});
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(r.out.find("Total requests:   5\nUnique prefixes:  5\nPrefix groups:    1\n") != std::string::npos);
  CHECK(r.out.find("│        Context Length │ 507.20 │  452.65 │ 0.00 │   0.00 │ 512.00 │ 1,000.00 │ 1,024.00 │") !=
        std::string::npos);
  CHECK(r.out.find("Analysis report saved to " + report + "\n") != std::string::npos);
  const json j = json::parse(read_file(report));
  CHECK(j["cache_hit_rate"] == 0.41666666666666663);
  CHECK(j["prefix_reuse_ratio"] == 0.625);
  CHECK(j["context_length_stats"]["max"] == 1024.0);
  // A smaller block: the shared blocks count fewer context tokens.
  const Result small = aiperf_cmd(tmp, {"analyze-trace", "--input-file", trace, "--block-size", "100",
                                        "--output-file", tmp + "/small.json"});
  REQUIRE(small.exit_code == 0);
  CHECK(json::parse(read_file(tmp + "/small.json"))["context_length_stats"]["mean"] == 342.4);  // (1000+200+0+0+512)/5
}

TEST_CASE("analyze-trace rejects bad input with exit 2 and writes nothing", "[e2e][analyze]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  const std::string report = tmp + "/report.json";
  const Result missing = aiperf_cmd(tmp, {"analyze-trace", tmp + "/nope.jsonl", "--output-file", report});
  CHECK(missing.exit_code == 2);
  CHECK(missing.err.find("--input-file: input file not found: " + tmp + "/nope.jsonl") != std::string::npos);
  const std::string bad = write(tmp + "/bad.jsonl", "{\"input_length\": 5}\n\n{\"input_length\": 5, \"hash_ids\": 3}\n");
  const Result malformed = aiperf_cmd(tmp, {"analyze-trace", bad, "--output-file", report});
  CHECK(malformed.exit_code == 2);
  CHECK(malformed.err.find(bad + ":3: field 'hash_ids': must be a list of integers, got 3") != std::string::npos);
  const Result block = aiperf_cmd(tmp, {"analyze-trace", bad, "--block-size", "0"});
  CHECK(block.exit_code == 2);
  CHECK(block.err.find("--block-size") != std::string::npos);
  CHECK_FALSE(fs::exists(report));
}

TEST_CASE("validate mooncake-trace passes a good trace and lists a bad one's lines", "[e2e][validate]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  const Result ok = aiperf_cmd(tmp, {"validate", "mooncake-trace", "--input", write(tmp + "/t.jsonl", kTrace)});
  CHECK(ok.exit_code == 0);
  CHECK(ok.out == "Validation passed: 5 rows are Mooncake-compatible.\n");
  const std::string bad = write(tmp + "/bad.jsonl", "{\"input_length\": 5}\n{\"text_input\": \"x\", \"hash_ids\": [1]}\n{}\n");
  const Result failed = aiperf_cmd(tmp, {"validate", "--target", "mooncake-trace", "--input", bad});
  CHECK(failed.exit_code == 1);
  CHECK(failed.out ==
        "Validation failed with 2 error(s):\n"
        "  Line 2: field 'hash_ids': only allowed with 'input_length'\n"
        "  Line 3: exactly one of 'input_length', 'text_input' or 'messages' is required\n");
  const Result missing = aiperf_cmd(tmp, {"validate", "mooncake-trace", "--input", tmp + "/nope.jsonl"});
  CHECK(missing.exit_code == 1);
  CHECK(missing.out == "Validation failed: " + tmp + "/nope.jsonl is not a file.\n");
  const Result target = aiperf_cmd(tmp, {"validate", "sharegpt", "--input", bad});
  CHECK(target.exit_code == 2);
  CHECK(target.err.find("--target") != std::string::npos);
}
