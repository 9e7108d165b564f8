// End-to-end: --variant scenario sweeps against the mock. Each variant is a point of its own
// (folder by label, v<index> when unnamed), run with the base command line plus the variant's
// options; the sweep files name a point by the JSON of what it changes, as AIPerf 0.13 writes it
// (the strings below are the reference's, from the same command line).
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <filesystem>

#include "process.h"

using aiperf::test::MockServer;
using nlohmann::json;
namespace fs = std::filesystem;

TEST_CASE("scenario sweep: --variant runs one point per variant, named by label, in the sweep files", "[e2e][sweep]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  const std::string rec = tmp + "/requests.jsonl";
  MockServer mock({"--fast", "--record-requests", rec}, tmp);
  const auto run = aiperf::test::run_named(tmp, "variants",
                                           {"--url", mock.url(), "--isl", "16", "--osl", "3", "--request-count", "4",
                                            "--variant", "small: concurrency=1, isl=32", "--variant", "concurrency=2"});
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);
  CHECK(aiperf::test::recorded_bodies(rec).size() == 2 * 4);

  const json small = run.json_file("small/profile_export_aiperf.json");
  CHECK(small["input_sequence_length"]["avg"] == 32);
  CHECK(small["input_config"]["phases"].back()["concurrency"] == 1);
  const json v1 = run.json_file("v1/profile_export_aiperf.json");
  CHECK(v1["input_sequence_length"]["avg"] == 16);  // the base's
  CHECK(v1["input_config"]["phases"].back()["concurrency"] == 2);
  CHECK(fs::exists(run.dir + "/aggregate/small/profile_export_aiperf_aggregate.json"));
  CHECK(fs::exists(run.dir + "/aggregate/v1/profile_export_aiperf_aggregate.json"));

  const std::string small_diff =
      R"({"datasets":[{"name":"main","prompts":{"isl":{"mean":32}}}],"phases":[{"concurrency":1,"name":"profiling"}]})";
  const std::string v1_diff = R"({"phases":[{"concurrency":2,"name":"profiling"}]})";
  const json sweep = run.json_file("sweep_aggregate/profile_export_aiperf_sweep.json");
  CHECK(sweep["metadata"]["sweep_parameters"] ==
        json::array({{{"name", "benchmark"}, {"values", {small_diff, v1_diff}}}}));
  REQUIRE(sweep["per_combination_metrics"].size() == 2);
  CHECK(sweep["per_combination_metrics"][0]["parameters"] == json{{"benchmark", small_diff}});
  CHECK(sweep["per_combination_metrics"][1]["parameters"] == json{{"benchmark", v1_diff}});
  CHECK(run.json_file("aggregate/small/profile_export_aiperf_aggregate.json")["metadata"]["variation_label"] ==
        "small");
}

TEST_CASE("scenario sweep: --variant refusals: one variant, an unknown key, a magic list, a repeated name",
          "[e2e][sweep]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  MockServer mock({"--fast"}, tmp);
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"--variant", "concurrency=2"}, "--variant: single occurrence is rejected."},
      {{"--variant", "a:concurrency=1", "--variant", "b:bogus=2"}, "unknown key(s) ['bogus']"},
      {{"--concurrency", "1,2", "--variant", "concurrency=1", "--variant", "concurrency=2"},
       "--variant is mutually exclusive with magic-list flags ['concurrency']"},
      {{"--variant", "x:concurrency=1", "--variant", "x:concurrency=2"},
       "scenario sweep runs must have unique names; duplicates: ['x']."},
  };
  int i = 0;
  for (const auto& [extra, message] : cases) {
    const std::string name = "bad" + std::to_string(i++);
    std::vector<std::string> args{"--url", mock.url(), "--request-count", "2"};
    args.insert(args.end(), extra.begin(), extra.end());
    const auto run = aiperf::test::run_named(tmp, name, args);
    INFO(name << ": " << run.err);
    CHECK(run.exit_code == 2);
    CHECK(run.err.find(message) != std::string::npos);
    CHECK_FALSE(fs::exists(tmp + "/" + name));  // nothing written
  }
}
