// End-to-end: two `genai-perf profile` runs against the mock, then `genai-perf
// process-export-files` over their directories: the merged export holds both runs' requests,
// the throughputs are the runs' sums and every other statistic is that of the merged requests
// (tokens counted again: the same ISL and OSL as each run's). Bad input exits 1, names what is
// wrong and writes nothing.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "genai_perf_run.h"
#include "process.h"

using aiperf::test::MockServer;
using aiperf::test::read_file;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

using Run = aiperf::test::GenAiPerfRun;
using aiperf::test::files_under;

const char* kDir = "m-openai-chat-concurrency2";

// One streaming chat run of `count` requests; its directory is then moved to `into`, one
// subdirectory per run as process-export-files reads them.
void profile(const std::string& tmp, const MockServer& mock, const std::string& count, const fs::path& into) {
  const std::string arts = tmp + "/arts_" + into.filename().string();
  const Run r = aiperf::test::run_genai_perf(tmp,
                                             {"profile",
                                              "-m",
                                              "m",
                                              "--endpoint-type",
                                              "chat",
                                              "--streaming",
                                              "-u",
                                              mock.url(),
                                              "--concurrency",
                                              "2",
                                              "--request-count",
                                              count,
                                              "--synthetic-input-tokens-mean",
                                              "20",
                                              "--synthetic-input-tokens-stddev",
                                              "0",
                                              "--output-tokens-mean",
                                              "4",
                                              "--extra-inputs",
                                              "ignore_eos:true",
                                              "--tokenizer",
                                              "gpt2",
                                              "--artifact-dir",
                                              arts},
                                             "profile_" + count, false, 180);
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 0);
  fs::create_directories(into.parent_path());
  fs::rename(fs::path(arts) / kDir, into);
}

Run process(const std::string& tmp, const std::vector<std::string>& args, const std::string& name) {
  std::vector<std::string> full{"process-export-files"};
  full.insert(full.end(), args.begin(), args.end());
  return aiperf::test::run_genai_perf(tmp, full, name, true, 120);
}

// numpy.percentile (linear) of unsorted values.
double percentile(std::vector<double> v, double p) {
  std::sort(v.begin(), v.end());
  const double rank = p / 100 * static_cast<double>(v.size() - 1);
  const size_t lo = static_cast<size_t>(std::floor(rank));
  const size_t hi = std::min(lo + 1, v.size() - 1);
  return v[lo] + (v[hi] - v[lo]) * (rank - static_cast<double>(lo));
}

// GenAI-Perf's request latency (ms) of a perf_analyzer record: its last response with content.
double latency_ms(const json& request) {
  const auto& ts = request["response_timestamps"];
  const auto& outs = request["response_outputs"];
  for (size_t i = ts.size(); i-- > 0;)
    if (outs[i]["response"].get<std::string>().find("\"content\":\"") != std::string::npos)
      return static_cast<double>(ts[i].get<int64_t>() - request["timestamp"].get<int64_t>()) / 1e6;
  return -1;
}

}  // namespace

TEST_CASE("genai-perf process-export-files merges two profile runs (6 + 4 requests)", "[e2e][genai_perf]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  MockServer mock({"--ttft", "20", "--itl", "5"}, tmp);
  const fs::path in = fs::path(tmp) / "runs";
  profile(tmp, mock, "6", in / "run1");
  profile(tmp, mock, "4", in / "run2");
  const json pa1 = json::parse(read_file((in / "run1" / "profile_export.json").string()));
  const json pa2 = json::parse(read_file((in / "run2" / "profile_export.json").string()));
  const json gp1 = json::parse(read_file((in / "run1" / "profile_export_genai_perf.json").string()));
  const json gp2 = json::parse(read_file((in / "run2" / "profile_export_genai_perf.json").string()));

  const Run r = process(tmp, {"-d", in.string(), "--artifact-dir", tmp + "/out"}, "merge");
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 0);
  const std::string dir = tmp + "/out/" + kDir;
  CHECK(files_under(dir) == std::vector<std::string>{"profile_export.json", "profile_export_genai_perf.csv",
                                                     "profile_export_genai_perf.json"});
  CHECK(r.out.find("NVIDIA GenAI-Perf | LLM Metrics") != std::string::npos);
  CHECK(r.out.find("Generating " + dir + "/profile_export_genai_perf.csv") != std::string::npos);

  // The merged export: run1's experiment with run2's requests after its own, in json.dump's
  // one-line layout.
  const std::string text = read_file(dir + "/profile_export.json");
  CHECK(text.rfind(
            R"({"experiments": [{"experiment": {"mode": "concurrency", "value": 2}, "requests": [{"timestamp": )", 0) ==
        0);
  CHECK(text.find('\n') == std::string::npos);
  const json merged = json::parse(text);
  const json& reqs = merged["experiments"][0]["requests"];
  REQUIRE(reqs.size() == 10);
  for (size_t i = 0; i < 6; ++i) CHECK(reqs[i] == pa1["experiments"][0]["requests"][i]);
  for (size_t i = 0; i < 4; ++i) CHECK(reqs[6 + i] == pa2["experiments"][0]["requests"][i]);
  CHECK(merged["experiments"][0]["window_boundaries"] == pa1["experiments"][0]["window_boundaries"]);
  CHECK(merged["service_kind"] == "openai");
  CHECK(merged["endpoint"] == "v1/chat/completions");

  const json s = json::parse(read_file(dir + "/profile_export_genai_perf.json"));
  CHECK(s["request_count"]["avg"] == 10.0);
  // Throughputs: the runs' sums (each run measured its own span; the runs did not overlap).
  CHECK(s["request_throughput"]["avg"].get<double>() ==
        gp1["request_throughput"]["avg"].get<double>() + gp2["request_throughput"]["avg"].get<double>());
  CHECK(s["output_token_throughput"]["avg"].get<double>() ==
        gp1["output_token_throughput"]["avg"].get<double>() + gp2["output_token_throughput"]["avg"].get<double>());
  // Tokens counted again from the texts agree with what each run counted.
  for (const char* stat : {"avg", "min", "max", "p50", "p99"}) {
    CHECK(s["input_sequence_length"][stat] == 20.0);
    CHECK(s["output_sequence_length"][stat] == 4.0);
  }
  // Time metrics over all ten requests: the extremes are the runs' extremes, the mean their
  // weighted mean, the percentiles those of the merged records.
  CHECK(s["time_to_first_token"]["min"] ==
        std::min(gp1["time_to_first_token"]["min"].get<double>(), gp2["time_to_first_token"]["min"].get<double>()));
  CHECK(s["request_latency"]["max"] ==
        std::max(gp1["request_latency"]["max"].get<double>(), gp2["request_latency"]["max"].get<double>()));
  CHECK(s["request_latency"]["avg"].get<double>() ==
        Approx((6 * gp1["request_latency"]["avg"].get<double>() + 4 * gp2["request_latency"]["avg"].get<double>()) / 10)
            .epsilon(1e-12));
  std::vector<double> latencies;
  for (const json& q : reqs) latencies.push_back(latency_ms(q));
  CHECK(s["request_latency"]["p50"].get<double>() == Approx(percentile(latencies, 50)).epsilon(1e-12));
  CHECK(s["request_latency"]["p90"].get<double>() == Approx(percentile(latencies, 90)).epsilon(1e-12));
  CHECK(s["time_to_first_token"]["min"].get<double>() >= 20.0);

  const json& ic = s["input_config"];
  CHECK(ic["subcommand"] == "process");
  CHECK(ic["process"]["input_path"] == in.string());
  CHECK(ic["output"]["artifact_directory"] == tmp + "/out");
  CHECK(ic["perf_analyzer"]["measurement"]["num"] == 6);  // run1's, the first run by name
  CHECK(ic["endpoint"]["streaming"] == true);

  const std::string csv = read_file(dir + "/profile_export_genai_perf.csv");
  CHECK(csv.find("Request Count (count),10.00\r\n") != std::string::npos);
  CHECK(csv.find("Input Sequence Length (tokens),20.00,20.00,20.00") != std::string::npos);

  // `genai-perf config -f` with a process section is the same merge (GenAI-Perf's rule: no
  // model needed, only the output section applies).
  std::ofstream(tmp + "/merge.yaml") << "process:\n  input_path: " << in.string()
                                     << "\noutput:\n  artifact_directory: " << tmp << "/out_cfg\n";
  const Run cfg = aiperf::test::run_genai_perf(tmp, {"config", "-f", tmp + "/merge.yaml"}, "config", false, 120);
  INFO(cfg.out << cfg.err);
  REQUIRE(cfg.exit_code == 0);
  const std::string cfg_dir = tmp + "/out_cfg/" + kDir;
  CHECK(read_file(cfg_dir + "/profile_export.json") == text);
  CHECK(read_file(cfg_dir + "/profile_export_genai_perf.csv") == csv);
  CHECK(json::parse(
            read_file(cfg_dir + "/profile_export_genai_perf.json"))["input_config"]["output"]["artifact_directory"] ==
        tmp + "/out_cfg");
}

TEST_CASE("genai-perf process-export-files: bad input exits 1, names it and writes nothing", "[e2e][genai_perf]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  const std::string out = tmp + "/out";

  const Run missing = process(tmp, {"-d", tmp + "/nope", "--artifact-dir", out}, "missing");
  CHECK(missing.exit_code == 1);
  CHECK(missing.err.find("User Config: input path " + tmp + "/nope is not a valid directory.") != std::string::npos);

  fs::create_directories(tmp + "/empty/run1");
  const Run empty = process(tmp, {"-d", tmp + "/empty", "--artifact-dir", out}, "empty");
  CHECK(empty.exit_code == 1);
  CHECK(empty.err.find("no run to merge in " + tmp + "/empty") != std::string::npos);

  // A run whose export was cut short: the first run alone would merge, the second names its file.
  const fs::path bad = fs::path(tmp) / "bad";
  const json config{{"model_names", {"m"}},
                    {"endpoint", {{"type", "chat"}, {"service_kind", "openai"}}},
                    {"perf_analyzer", {{"stimulus", {{"concurrency", 1}}}}},
                    {"input", json::object()},
                    {"tokenizer", {{"name", "gpt2"}}}};
  for (const char* run : {"a", "b"}) {
    fs::create_directories(bad / run);
    std::ofstream(bad / run / "profile_export_genai_perf.json") << json{{"input_config", config}}.dump();
  }
  std::ofstream(bad / "a" / "profile_export.json")
      << R"({"experiments": [{"experiment": {"mode": "concurrency", "value": 1}, "requests": []}]})";
  std::ofstream(bad / "b" / "profile_export.json") << R"({"experiments": [{"experiment": )";
  const Run cut = process(tmp, {"-d", bad.string(), "--artifact-dir", out}, "cut");
  CHECK(cut.exit_code == 1);
  CHECK(cut.err.find("Error reading file '" + (bad / "b" / "profile_export.json").string() + "'") != std::string::npos);

  const Run option = process(tmp, {"--input-path", bad.string()}, "option");
  CHECK(option.exit_code == 2);
  CHECK(option.err.find("unrecognized arguments: --input-path") != std::string::npos);
  const Run nested =
      process(tmp, {"-d", bad.string(), "--profile-export-file", "x/y.json", "--artifact-dir", out}, "nested");
  CHECK(nested.exit_code == 1);
  CHECK(nested.err.find("Please use artifact_directory option") != std::string::npos);
  CHECK_FALSE(fs::exists(out));
}
