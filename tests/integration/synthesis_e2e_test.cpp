// End-to-end: --synthesis-* on a mooncake trace against aiperf-mock-server: which lines are
// sent, their ISLs, max tokens and schedule after synthesis.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>

#include "process.h"

using aiperf::test::MockServer;
using nlohmann::json;

namespace {

const std::string kData = std::string(AIPERF_TEST_DATA) + "/datasets/synthesis/";
using Run = aiperf::test::ProfileRun;

}  // namespace

TEST_CASE("mooncake trace with synthesis: max-isl drops, prompt/output multipliers and speedup apply",
          "[e2e][datasets]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  const std::string rec = tmp + "/requests.jsonl";
  MockServer mock({"--fast", "--record-requests", rec}, tmp);
  // Block size 16. Line 4 (100 tokens) is over --synthesis-max-isl and dropped first; of the
  // rest, blocks 1 and 2 are shared. Line 1: 32 prefix tokens + 2 x 8 = 48; line 2: 32 + 2 x 4
  // = 40; line 3: 16 + 2 x 4 = 24. Output lengths doubled, timestamps halved.
  Run run = aiperf::test::run_named(tmp, "run",
                                    {"--url",
                                     mock.url(),
                                     "--input-file",
                                     kData + "e2e_trace.jsonl",
                                     "--custom-dataset-type",
                                     "mooncake_trace",
                                     "--isl-block-size",
                                     "16",
                                     "--synthesis-prompt-len-multiplier",
                                     "2",
                                     "--synthesis-output-len-multiplier",
                                     "2",
                                     "--synthesis-speedup-ratio",
                                     "2",
                                     "--synthesis-max-isl",
                                     "80",
                                     "--synthesis-max-osl",
                                     "7",
                                     "--random-seed",
                                     "3",
                                     "--extra-inputs",
                                     "ignore_eos:true"});
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);
  const auto bodies = aiperf::test::recorded_bodies(rec);
  REQUIRE(bodies.size() == 3);
  std::vector<int64_t> max_tokens;
  for (const auto& b : bodies) max_tokens.push_back(b["max_completion_tokens"]);
  CHECK(max_tokens == std::vector<int64_t>{6, 7, 4});  // 3 x 2, 4 x 2 capped at 7, 2 x 2

  auto records = run.records();
  REQUIRE(records.size() == 3);
  std::sort(records.begin(), records.end(), [](const json& a, const json& b) {
    return a["metadata"]["intended_start_ns"] < b["metadata"]["intended_start_ns"];
  });
  const int64_t isl[] = {48, 40, 24};
  const int64_t offsets_ms[] = {0, 100, 200};
  const int64_t t0 = records[0]["metadata"]["intended_start_ns"];
  for (size_t i = 0; i < 3; ++i) {
    INFO("record " << i);
    CHECK(records[i]["metrics"]["input_sequence_length"]["value"] == isl[i]);
    CHECK(records[i]["metadata"]["intended_start_ns"].get<int64_t>() - t0 == offsets_ms[i] * 1'000'000);
    CHECK_FALSE(records[i].contains("error"));
  }
  const json inputs = run.inputs();
  REQUIRE(inputs["data"].size() == 3);
  // Lines 1 and 2 share their two prefix blocks: the same first 32 tokens of prompt text.
  const std::string p1 = inputs["data"][0]["payloads"][0]["messages"][0]["content"];
  const std::string p2 = inputs["data"][1]["payloads"][0]["messages"][0]["content"];
  const std::string p3 = inputs["data"][2]["payloads"][0]["messages"][0]["content"];
  size_t common = 0;
  while (common < std::min(p1.size(), p2.size()) && p1[common] == p2[common]) ++common;
  CHECK(common > 40);                           // 32 shared tokens are well over 40 characters
  CHECK(common < p2.size());                    // then each has its own prompt block
  CHECK(p3.substr(0, 20) == p1.substr(0, 20));  // block 1 only
}
