// End-to-end: `genai-perf analyze --enable-checkpointing` killed (SIGKILL, the whole process
// group: the front end, its engine and the engine's services) once the first point is in the
// checkpoint, then run again with the same command line: the points already measured are not
// run again (the mock, which records every request, receives exactly the missing points'
// requests), their files are left as they were, and the sweep finishes with every point in
// checkpoint.json and analyze_export_genai_perf.csv. `profile` resumes the same way.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "genai_perf_run.h"
#include "process.h"

using aiperf::test::MockServer;
using aiperf::test::Process;
using aiperf::test::read_file;
using aiperf::test::read_lines;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

size_t lines_in(const std::string& path) { return fs::exists(path) ? read_lines(path).size() : 0; }

// The checkpoint's run configs, or an empty list while there is no (whole) file.
json run_configs(const std::string& file) {
  if (!fs::exists(file)) return json::array();
  // A statistic can be Infinity or NaN (tokens arriving together: ITL 0), as Python writes them.
  std::string text = read_file(file);
  for (const auto& [from, to] :
       {std::pair<std::string, std::string>{"NaN", "null"}, {"Infinity", "1.7976931348623157e308"}})
    for (size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
      text.replace(at, from.size(), to);
  const json doc = json::parse(text, nullptr, false);
  if (doc.is_discarded()) return json::array();
  return doc["Results"]["run_configs"];
}

std::string two(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.2f", v);
  return buf;
}

}  // namespace

TEST_CASE("a checkpointed analyze sweep killed midway resumes without repeating its measured points",
          "[e2e][genai_perf]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  const std::string record = tmp + "/requests.jsonl";
  MockServer mock({"--ttft", "30", "--itl", "2", "--record-requests", record}, tmp);
  const std::string arts = tmp + "/arts", ckpt = tmp + "/ckpt", file = ckpt + "/checkpoint.json";
  const std::vector<std::string> args = {"analyze",
                                         "-m",
                                         "m",
                                         "--endpoint-type",
                                         "chat",
                                         "--streaming",
                                         "-u",
                                         mock.url(),
                                         "--sweep-type",
                                         "concurrency",
                                         "--sweep-list",
                                         "1,2,4",
                                         "--request-count",
                                         "8",
                                         "--isl",
                                         "20",
                                         "--osl",
                                         "5",
                                         "--extra-inputs",
                                         "ignore_eos:true",
                                         "--tokenizer",
                                         "gpt2",
                                         "--artifact-dir",
                                         arts,
                                         "--checkpoint-dir",
                                         ckpt,
                                         "--enable-checkpointing"};
  size_t done = 0;
  {
    Process first(std::string(AIPERF_BIN_DIR) + "/genai-perf", args, tmp, "first");
    REQUIRE(aiperf::test::wait_until([&] { return !run_configs(file).empty(); }, 120));
    first.kill_now(9);
    REQUIRE(first.wait(10).has_value());
    done = run_configs(file).size();
  }
  // Killed midway: at least the first point is checkpointed, not the whole sweep.
  REQUIRE(done >= 1);
  REQUIRE(done < 3);
  const std::string p1 = arts + "/m-openai-chat-concurrency1";
  const auto p1_time = fs::last_write_time(p1 + "/profile_export_genai_perf.json");
  const std::string p1_json = read_file(p1 + "/profile_export_genai_perf.json");
  // The rerun talks to a fresh mock (the URL is not part of a run's identity, as in GenAI-Perf):
  // requests the killed run still had in flight cannot reach its count.
  const std::string record2 = tmp + "/requests2.jsonl";
  fs::create_directories(tmp + "/mock2");  // its own log: the port is read from it
  MockServer mock2({"--ttft", "30", "--itl", "2", "--record-requests", record2}, tmp + "/mock2");
  REQUIRE(mock2.url() != mock.url());
  std::vector<std::string> args2 = args;
  *std::find(args2.begin(), args2.end(), mock.url()) = mock2.url();
  const size_t before = 0;

  const auto again = aiperf::test::run_genai_perf(tmp, args2, "again", false, 240);
  INFO(again.out << again.err);
  REQUIRE(again.exit_code == 0);
  // Only the points missing from the checkpoint were sent: 8 requests each.
  CHECK(lines_in(record2) - before == 8 * (3 - done));
  CHECK(again.out.find("m_run_config_0:concurrency1 found in checkpoint. Results in '" + p1 +
                       "/' - skipping profiling...\n") != std::string::npos);
  CHECK(again.out.find("Artifacts: " + p1 + "\n") == std::string::npos);
  CHECK(fs::last_write_time(p1 + "/profile_export_genai_perf.json") == p1_time);
  CHECK(read_file(p1 + "/profile_export_genai_perf.json") == p1_json);

  // Every point is in the checkpoint once, under GenAI-Perf's names, best first.
  const json configs = run_configs(file);
  REQUIRE(configs.size() == 3);
  std::vector<std::string> names;
  std::vector<int> loads;
  for (const json& rc : configs) {
    names.push_back(rc["name"]);
    loads.push_back(rc["perf_analyzer_config"]["_parameters"]["concurrency"]);
    CHECK(rc["measurement"]["_model_config_measurements"]["m"]["_perf_metrics"]["request_count_avg"][1]["_value"] ==
          8.0);
  }
  for (size_t i = 1; i < configs.size(); ++i)
    CHECK(configs[i - 1]["measurement"]["_model_config_measurements"]["m"]["_perf_metrics"]["request_throughput_avg"][1]
                 ["_value"]
                     .get<double>() >= configs[i]["measurement"]["_model_config_measurements"]["m"]["_perf_metrics"]
                                              ["request_throughput_avg"][1]["_value"]
                                                  .get<double>());
  std::vector<std::string> sorted_names = names;
  std::sort(sorted_names.begin(), sorted_names.end());
  CHECK(sorted_names == std::vector<std::string>{"m_run_config_0", "m_run_config_1", "m_run_config_2"});
  // Names follow run order: concurrency 1, 2, 4.
  for (size_t i = 0; i < names.size(); ++i)
    CHECK(loads[i] == (names[i] == "m_run_config_0" ? 1 : names[i] == "m_run_config_1" ? 2 : 4));

  // Every point's files are whole, and the CSV has one row per point, the resumed one's numbers
  // those of its own profile_export_genai_perf.json.
  for (const char* point : {"concurrency1", "concurrency2", "concurrency4"}) {
    const std::string dir = arts + "/m-openai-chat-" + point;
    for (const char* f :
         {"inputs.json", "profile_export.json", "profile_export_genai_perf.json", "profile_export_genai_perf.csv"})
      CHECK(fs::exists(dir + "/" + f));
    const json s = json::parse(read_file(dir + "/profile_export_genai_perf.json"));
    CHECK(s["request_count"]["avg"] == 8.0);
    CHECK(s["input_config"]["output"]["enable_checkpointing"] == true);
  }
  const std::vector<std::string> csv = read_lines(arts + "/analyze_export_genai_perf.csv");
  REQUIRE(csv.size() == 6);
  const json s1 = json::parse(p1_json);
  const std::string row1 =
      "m_run_config_0,1,20,100," + two(s1["time_to_first_token"]["p99"].get<double>()) + "," +
      two(s1.contains("inter_token_latency") ? s1["inter_token_latency"]["p99"].get<double>() : 0) + "," +
      two(s1["request_latency"]["p99"].get<double>()) + ",5.00," +
      two(s1["output_token_throughput"]["avg"].get<double>()) + "," +
      two(s1["request_throughput"]["avg"].get<double>()) + "\r";
  CHECK(std::count(csv.begin(), csv.end(), row1) == 1);
  for (const std::string& name : names)
    CHECK(std::count_if(csv.begin() + 1, csv.begin() + 4,
                        [&](const std::string& l) { return l.rfind(name + ",", 0) == 0; }) == 1);

  // A third run finds everything done: no request, the same CSV.
  const auto third = aiperf::test::run_genai_perf(tmp, args2, "third", true, 120);
  INFO(third.out << third.err);
  CHECK(third.exit_code == 0);
  CHECK(lines_in(record2) - before == 8 * (3 - done));
  CHECK(read_lines(arts + "/analyze_export_genai_perf.csv") == csv);
}

TEST_CASE("a checkpointed profile is not run twice; a corrupt checkpoint is refused", "[e2e][genai_perf]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  const std::string record = tmp + "/requests.jsonl";
  MockServer mock({"--ttft", "5", "--itl", "1", "--record-requests", record}, tmp);
  const std::string arts = tmp + "/arts", ckpt = tmp + "/ckpt";
  const std::vector<std::string> args = {"profile",  "-m",
                                         "m",        "--endpoint-type",
                                         "chat",     "-u",
                                         mock.url(), "--request-count",
                                         "4",        "--isl",
                                         "10",       "--osl",
                                         "3",        "--tokenizer",
                                         "gpt2",     "--artifact-dir",
                                         arts,       "--checkpoint-dir",
                                         ckpt,       "--enable-checkpointing"};
  const auto first = aiperf::test::run_genai_perf(tmp, args, "first", false, 120);
  INFO(first.out << first.err);
  REQUIRE(first.exit_code == 0);
  CHECK(lines_in(record) == 4);
  const json configs = run_configs(ckpt + "/checkpoint.json");
  REQUIRE(configs.size() == 1);
  CHECK(configs[0]["name"] == "m_run_config_0");
  CHECK(configs[0]["perf_analyzer_config"]["_parameters"] == json{{"concurrency", 1}});
  const auto second = aiperf::test::run_genai_perf(tmp, args, "second", false, 120);
  INFO(second.out << second.err);
  CHECK(second.exit_code == 0);
  CHECK(lines_in(record) == 4);
  CHECK(second.out.find("m_run_config_0:concurrency1 found in checkpoint. Results in '" + arts +
                        "/m-openai-chat-concurrency1/' - skipping profiling...") != std::string::npos);

  // Another load is another run.
  std::vector<std::string> two_args = args;
  two_args.insert(two_args.end(), {"--concurrency", "2"});
  const auto third = aiperf::test::run_genai_perf(tmp, two_args, "third", false, 120);
  CHECK(third.exit_code == 0);
  CHECK(lines_in(record) == 8);
  CHECK(run_configs(ckpt + "/checkpoint.json").size() == 2);

  // Not a checkpoint: exit 2 naming the file, nothing run or written.
  const std::string bad = tmp + "/bad";
  fs::create_directories(bad);
  {
    std::FILE* f = std::fopen((bad + "/checkpoint.json").c_str(), "w");
    std::fputs("{\"Results\": 1}", f);
    std::fclose(f);
  }
  std::vector<std::string> bad_args = args;
  bad_args[bad_args.size() - 2] = bad;
  bad_args[bad_args.size() - 4] = tmp + "/bad_arts";
  const auto refused = aiperf::test::run_genai_perf(tmp, bad_args, "bad", false, 60);
  CHECK(refused.exit_code == 2);
  CHECK(refused.err.find("--enable-checkpointing: Checkpoint file " + bad + "/checkpoint.json is empty or corrupted") !=
        std::string::npos);
  CHECK_FALSE(fs::exists(tmp + "/bad_arts"));
  CHECK(lines_in(record) == 8);
}
