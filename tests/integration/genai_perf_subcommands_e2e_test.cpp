// End-to-end: `genai-perf analyze`, `genai-perf config -f` and `genai-perf create-template` run
// through the `genai-perf` symlink (and `aiperf genai-perf ...`) against the mock: one artifact
// directory per sweep point, analyze_export_genai_perf.csv whose numbers are each point's
// statistics, config files run as profile or analyze, refusals exit 2 and write nothing.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
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

using Run = aiperf::test::GenAiPerfRun;

Run genai_perf(const std::string& tmp, const std::vector<std::string>& args, const std::string& name,
               bool through_aiperf = false) {
  return aiperf::test::run_genai_perf(tmp, args, name, through_aiperf, 240);
}

std::vector<std::string> split(const std::string& line, char sep) {
  std::vector<std::string> out;
  std::stringstream s(line);
  std::string f;
  while (std::getline(s, f, sep)) out.push_back(f);
  return out;
}

std::string two(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.2f", v);
  return buf;
}

// One statistic of a point's profile_export_genai_perf.json. inter_token_latency may be absent:
// GenAI-Perf drops it when every request's is 0, which happens here when the client reads all of
// a response's tokens at once (the mock's 1 ms ITL on a loaded machine), and the CSV says 0.00
// then. Every other metric must be there.
double stat(const json& s, const std::string& metric, const std::string& which) {
  if (!s.contains(metric)) {
    INFO("metric absent from profile_export_genai_perf.json: " << metric);
    CHECK(metric == "inter_token_latency");
    return 0;
  }
  return s.at(metric).at(which).get<double>();
}

// The CSV row GenAI-Perf writes for a point, from that point's profile_export_genai_perf.json.
std::vector<std::string> expected_row(const std::string& name, int load, int entries, const json& s) {
  return {name,
          std::to_string(load),
          std::to_string(static_cast<long long>(stat(s, "input_sequence_length", "p99"))),
          std::to_string(entries),
          two(stat(s, "time_to_first_token", "p99")),
          two(stat(s, "inter_token_latency", "p99")),
          two(stat(s, "request_latency", "p99")),
          two(stat(s, "output_sequence_length", "p99")),
          two(stat(s, "output_token_throughput", "avg")),
          two(stat(s, "request_throughput", "avg"))};
}

const char* kPerfHeader =
    "Config Name,Concurrency,ISL,Num Dataset Entries,p99 Time To First Token (ms),p99 Inter Token Latency (ms),"
    "p99 Request Latency (ms),p99 Output Sequence Length (tokens),Avg. Output Token Throughput (tokens/sec),"
    "Request Throughput (requests/sec)\r";
const char* kGpuHeader =
    "Config Name,GPU,p99 GPU Power Usage (W),p99 GPU Energy Consumption (MJ),p99 GPU Utilization (%),"
    "p99 GPU Memory Used (GB),Avg. GPU Power Limit (W),Avg. GPU Total Memory (GB)\r";

// Checks the analyze CSV under `arts` against the points' own statistics: one row per point
// (named by run order), best request throughput first as GenAI-Perf orders them.
void check_analyze_csv(const std::string& arts, const std::vector<std::pair<std::string, int>>& points, int entries,
                       const std::string& load_header = "Concurrency") {
  std::vector<std::pair<double, std::vector<std::string>>> expected;
  for (size_t i = 0; i < points.size(); ++i) {
    const json stats = json::parse(read_file(arts + "/" + points[i].first + "/profile_export_genai_perf.json"));
    CHECK(stats["input_config"]["subcommand"] == "analyze");
    // entries 0: the point's own value (a num_dataset_entries sweep), read from its name.
    const int point_entries =
        entries ? entries : std::stoi(points[i].first.substr(points[i].first.find("num_dataset_entries") + 19));
    expected.emplace_back(stat(stats, "request_throughput", "avg"),
                          expected_row("m_run_config_" + std::to_string(i), points[i].second, point_entries, stats));
  }
  std::stable_sort(expected.begin(), expected.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  const std::vector<std::string> lines = read_lines(arts + "/analyze_export_genai_perf.csv");
  REQUIRE(lines.size() == points.size() + 3);
  std::string header = kPerfHeader;
  header.replace(header.find("Concurrency"), 11, load_header);
  CHECK(lines[0] == header);
  for (size_t i = 0; i < points.size(); ++i) {
    std::string row = lines[i + 1];
    REQUIRE(!row.empty());
    CHECK(row.back() == '\r');
    row.pop_back();
    CHECK(split(row, ',') == expected[i].second);
  }
  CHECK(lines[points.size() + 1] == "\r");
  CHECK(lines[points.size() + 2] == kGpuHeader);
}

}  // namespace

TEST_CASE("genai-perf analyze sweeps concurrency into one directory per point and a CSV", "[e2e][genai_perf]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  MockServer mock({"--ttft", "20", "--itl", "2"}, tmp);
  const std::string arts = tmp + "/arts";
  const Run r = genai_perf(tmp,
                           {"analyze", "-m", "m", "--endpoint-type", "chat", "--streaming", "-u", mock.url(),
                            "--sweep-type", "concurrency", "--sweep-range", "1:2", "--request-count", "6",
                            "--num-prompts", "5", "--isl", "20", "--osl", "6", "--tokenizer", "gpt2",
                            "--artifact-dir", arts},
                           "analyze");
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(r.out.find("Artifacts: " + arts + "/m-openai-chat-concurrency1\n") != std::string::npos);
  CHECK(r.out.find("Generating " + arts + "/analyze_export_genai_perf.csv\n") != std::string::npos);
  std::vector<std::string> entries;
  for (const auto& e : fs::directory_iterator(arts)) entries.push_back(e.path().filename().string());
  std::sort(entries.begin(), entries.end());
  CHECK(entries == std::vector<std::string>{"analyze_export_genai_perf.csv", "m-openai-chat-concurrency1",
                                            "m-openai-chat-concurrency2"});
  const json p2 = json::parse(read_file(arts + "/m-openai-chat-concurrency2/profile_export.json"));
  CHECK(p2["experiments"][0]["experiment"] == json{{"mode", "concurrency"}, {"value", 2}});
  CHECK(p2["experiments"][0]["requests"].size() == 6);
  const json s2 = json::parse(read_file(arts + "/m-openai-chat-concurrency2/profile_export_genai_perf.json"));
  CHECK(s2["input_config"]["analyze"]["sweep_parameters"] == json::parse(R"({"concurrency":{"min":1,"max":2}})"));
  CHECK(s2["output_sequence_length"]["avg"] == 6.0);
  check_analyze_csv(arts, {{"m-openai-chat-concurrency1", 1}, {"m-openai-chat-concurrency2", 2}}, 5);
}

TEST_CASE("aiperf genai-perf analyze sweeps a list of request rates", "[e2e][genai_perf]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  MockServer mock({"--ttft", "5", "--itl", "1"}, tmp);
  const std::string arts = tmp + "/arts";
  const Run r = genai_perf(tmp,
                           {"analyze", "-m", "m", "--endpoint-type", "chat", "--streaming", "-u", mock.url(),
                            "--sweep-type", "request_rate", "--sweep-list", "50,100", "--request-count", "4",
                            "--isl", "10", "--osl", "3", "--tokenizer", "gpt2", "--artifact-dir", arts},
                           "analyze_rate", true);
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 0);
  const json pa = json::parse(read_file(arts + "/m-openai-chat-request_rate100/profile_export.json"));
  CHECK(pa["experiments"][0]["experiment"] == json{{"mode", "request_rate"}, {"value", 100.0}});
  const std::vector<std::string> lines = read_lines(arts + "/analyze_export_genai_perf.csv");
  REQUIRE(lines.size() == 5);
  CHECK(lines[0].rfind("Config Name,Request Rate,ISL,Num Dataset Entries,", 0) == 0);
  check_analyze_csv(arts, {{"m-openai-chat-request_rate50", 50}, {"m-openai-chat-request_rate100", 100}}, 100,
                    "Request Rate");
}

TEST_CASE("genai-perf analyze sweeps dataset entries and input length through the dataset", "[e2e][genai_perf]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  MockServer mock({"--ttft", "5", "--itl", "1"}, tmp);
  const std::vector<std::string> common{"-m", "m", "--endpoint-type", "chat", "--streaming", "-u", mock.url(),
                                        "--request-count", "4", "--osl", "3", "--tokenizer", "gpt2"};
  std::vector<std::string> args{"analyze", "--sweep-type", "num_dataset_entries", "--sweep-list", "3,4", "--isl", "10",
                                "--artifact-dir", tmp + "/entries"};
  args.insert(args.end(), common.begin(), common.end());
  Run r = genai_perf(tmp, args, "analyze_entries");
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 0);
  // Ours applies the point to the dataset (GenAI-Perf 0.0.16 only renames the directory).
  for (int n : {3, 4}) {
    const json inputs = json::parse(
        read_file(tmp + "/entries/m-openai-chat-num_dataset_entries" + std::to_string(n) + "/inputs.json"));
    CHECK(inputs["data"].size() == static_cast<size_t>(n));
  }
  check_analyze_csv(tmp + "/entries", {{"m-openai-chat-num_dataset_entries3", 1}, {"m-openai-chat-num_dataset_entries4", 1}},
                    0);

  args = {"analyze", "--sweep-type", "input_sequence_length", "--sweep-list", "8,16", "--artifact-dir", tmp + "/isl"};
  args.insert(args.end(), common.begin(), common.end());
  r = genai_perf(tmp, args, "analyze_isl");
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 0);
  const std::vector<std::string> lines = read_lines(tmp + "/isl/analyze_export_genai_perf.csv");
  REQUIRE(lines.size() == 5);
  std::vector<std::string> isl_cells;
  for (int i : {1, 2}) isl_cells.push_back(split(lines[i], ',').at(0) + "=" + split(lines[i], ',').at(2));
  std::sort(isl_cells.begin(), isl_cells.end());
  CHECK(isl_cells == std::vector<std::string>{"m_run_config_0=8", "m_run_config_1=16"});
}

TEST_CASE("genai-perf analyze refuses a bad sweep before running anything", "[e2e][genai_perf]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  const std::string arts = tmp + "/arts";
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"--sweep-type", "concurrency", "--sweep-range", "3:8"},
       "Error: argument --sweep-range: min/max values must be powers of 2 when sweeping concurrency\n"},
      {{"--sweep-type", "concurrency", "--sweep-list", "1,x"}, "Error: argument --sweep-list: invalid int value: 'x'\n"},
      {{"--sweep-type", "batch_size", "--sweep-list", "1"},
       "Error: argument --sweep-type: batch_size is not a valid analyze parameter (choose from concurrency, "
       "request_rate, num_dataset_entries, input_sequence_length)\n"},
      {{"--sweep-range", "1:4"},
       "Error: the following arguments are required: --sweep-type (with --sweep-range or --sweep-list)\n"},
  };
  for (const auto& [sweep, message] : cases) {
    std::vector<std::string> args{"analyze", "-m", "m", "--endpoint-type", "chat", "-u", "http://127.0.0.1:9",
                                  "--artifact-dir", arts};
    args.insert(args.end(), sweep.begin(), sweep.end());
    const Run r = genai_perf(tmp, args, "bad_sweep");
    INFO(r.out << r.err);
    CHECK(r.exit_code == 2);
    CHECK(r.err == message);
    CHECK_FALSE(fs::exists(arts));
  }
  const Run compare = genai_perf(tmp, {"compare", "-f", "x"}, "compare");
  CHECK(compare.exit_code == 2);
  CHECK(compare.err.find("GenAI-Perf 0.0.16 (the version this front end follows) has no `compare`") != std::string::npos);
}

TEST_CASE("genai-perf create-template, then config runs profile or analyze", "[e2e][genai_perf]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  MockServer mock({"--ttft", "5", "--itl", "1"}, tmp);
  const std::string tpl = tmp + "/tpl.yaml";
  Run r = genai_perf(tmp, {"create-template", "-f", tpl}, "template");
  REQUIRE(r.exit_code == 0);
  CHECK(r.out.empty());
  std::string text = read_file(tpl);
  CHECK(text.rfind("  model_names: \n\n  analyze:\n", 0) == 0);
  r = genai_perf(tmp, {"create-template", "--file", tpl}, "template_again");
  CHECK(r.exit_code == 2);
  CHECK(r.err == "Error: File '" + tpl + "' already exists. Please specify a different filename.\n");
  CHECK(read_file(tpl) == text);

  // Fill the template in as a user would.
  const auto set = [&](const std::string& from, const std::string& to) {
    const size_t at = text.find(from);
    REQUIRE(at != std::string::npos);
    text.replace(at, from.size(), to);
  };
  const std::string arts = tmp + "/arts";
  set("model_names: \n", "model_names: m\n");
  set("type: kserve", "type: chat");
  set("streaming: False", "streaming: True");
  set("url: localhost:8001", "url: " + mock.url());
  set("stimulus: {'concurrency': 1}", "stimulus: {'concurrency': 2}");
  set("      num: \n", "      num: 5\n");
  set("artifact_directory: artifacts", "artifact_directory: " + arts);
  set("    name: \n", "    name: gpt2\n");
  set("    mean: 550", "    mean: 12");
  std::ofstream(tmp + "/profile.yaml") << text;
  r = genai_perf(tmp, {"config", "-f", tmp + "/profile.yaml"}, "config_profile");
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 0);
  const json stats = json::parse(read_file(arts + "/m-openai-chat-concurrency2/profile_export_genai_perf.json"));
  CHECK(stats["request_count"]["avg"] == 5.0);
  CHECK(stats["input_sequence_length"]["avg"] == 12.0);
  CHECK(stats["input_config"]["endpoint"]["streaming"] == true);
  CHECK_FALSE(fs::exists(arts + "/analyze_export_genai_perf.csv"));

  // A command-line option needs --override-config.
  r = genai_perf(tmp, {"config", "-f", tmp + "/profile.yaml", "--concurrency", "1"}, "config_no_override");
  CHECK(r.exit_code == 2);
  CHECK(r.err == "Error: In order to use the CLI to override the config, the --override-config flag must be set.\n");
  CHECK_FALSE(fs::exists(arts + "/m-openai-chat-concurrency1"));

  // The analyze: section turns config into analyze.
  const std::string arts2 = tmp + "/arts2";
  set("artifact_directory: " + arts, "artifact_directory: " + arts2);
  set("  analyze:\n", "  analyze:\n    concurrency:\n      start: 1\n      stop: 2\n");
  std::ofstream(tmp + "/analyze.yaml") << text;
  r = genai_perf(tmp, {"config", "-f", tmp + "/analyze.yaml"}, "config_analyze", true);
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 0);
  check_analyze_csv(arts2, {{"m-openai-chat-concurrency1", 1}, {"m-openai-chat-concurrency2", 2}}, 100);
}

TEST_CASE("genai-perf config refuses a bad file naming file, line and key", "[e2e][genai_perf]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  const std::string arts = tmp + "/arts";
  const std::string file = tmp + "/bad.yaml";
  std::ofstream(file) << "model_names: m\nendpoint:\n  type: chat\n  url: http://127.0.0.1:9\n  colour: red\n"
                         "output:\n  artifact_directory: " + arts + "\n";
  Run r = genai_perf(tmp, {"config", "-f", file}, "bad_key");
  CHECK(r.exit_code == 2);
  CHECK(r.err == "Error: " + file + ":5: endpoint.colour: colour is not a valid endpoint parameter\n");
  std::ofstream(file) << "model_names: m\nendpoint:\n  type: chat\ninput:\n  synthetic_tokens:\n    mean: -3\n"
                         "output:\n  artifact_directory: " + arts + "\n";
  r = genai_perf(tmp, {"config", "-f", file}, "bad_value");
  CHECK(r.exit_code == 2);
  CHECK(r.err == "Error: " + file +
                     ":6: input.synthetic_tokens.mean: argument --synthetic-input-tokens-mean: must be a positive "
                     "integer, got -3\n");
  r = genai_perf(tmp, {"config"}, "no_file");
  CHECK(r.exit_code == 2);
  CHECK(r.err.rfind("Error: the following arguments are required: -f/--file\n", 0) == 0);
  CHECK_FALSE(fs::exists(arts));
}
