// End-to-end: `genai-perf profile ...` run through the `genai-perf` symlink beside `aiperf` (and
// `aiperf genai-perf profile ...`) against the mock: GenAI-Perf's directory, files, keys and
// numbers; its statistics agree with the perf_analyzer-layout records it wrote; refused options
// exit 2 and write nothing.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <numeric>
#include <regex>
#include <string>
#include <vector>

#include "genai_perf_run.h"
#include "process.h"

using aiperf::test::MockServer;
using aiperf::test::Process;
using aiperf::test::read_file;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

using Run = aiperf::test::GenAiPerfRun;
using aiperf::test::files_under;

Run genai_perf(const std::string& tmp, std::vector<std::string> args, const std::string& name,
               bool through_aiperf = false) {
  args.insert(args.begin(), "profile");
  return aiperf::test::run_genai_perf(tmp, args, name, through_aiperf, 180);
}

// The latency GenAI-Perf derives from a perf_analyzer record: last response with content.
double last_content_latency_ms(const json& request) {
  const auto& ts = request["response_timestamps"];
  const auto& outs = request["response_outputs"];
  for (size_t i = ts.size(); i-- > 0;) {
    const std::string r = outs[i]["response"].get<std::string>();
    if (r.find("\"content\":\"") != std::string::npos)
      return static_cast<double>(ts[i].get<int64_t>() - request["timestamp"].get<int64_t>()) / 1e6;
  }
  return -1;
}

}  // namespace

TEST_CASE("genai-perf profile (symlink) writes GenAI-Perf's files for streaming chat", "[e2e][genai_perf]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  MockServer mock({"--ttft", "40", "--itl", "5"}, tmp);
  REQUIRE(fs::is_symlink(std::string(AIPERF_BIN_DIR) + "/genai-perf"));
  const Run r = genai_perf(tmp,
                           {"-m", "org/m", "--endpoint-type", "chat", "--streaming", "-u", mock.url(), "--concurrency",
                            "2", "--request-count", "8", "--synthetic-input-tokens-mean", "20",
                            "--synthetic-input-tokens-stddev", "0", "--output-tokens-mean", "4", "--extra-inputs",
                            "ignore_eos:true", "--tokenizer", "gpt2", "--artifact-dir", tmp + "/arts", "--goodput",
                            "request_latency:100000", "output_token_throughput_per_user:0.001"},
                           "chat");
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 0);
  const std::string dir = tmp + "/arts/org_m-openai-chat-concurrency2";
  CHECK(files_under(dir) == std::vector<std::string>{"inputs.json", "logs/aiperf.log", "profile_export.json",
                                                     "profile_export_genai_perf.csv",
                                                     "profile_export_genai_perf.json"});
  const json stats = json::parse(read_file(dir + "/profile_export_genai_perf.json"));
  CHECK(stats["request_count"]["avg"] == 8.0);
  for (const char* s : {"avg", "min", "max", "p50"}) {
    CHECK(stats["input_sequence_length"][s] == 20.0);
    CHECK(stats["output_sequence_length"][s] == 4.0);
  }
  CHECK(stats["time_to_first_token"]["min"].get<double>() >= 40.0);
  CHECK(stats["inter_token_latency"]["unit"] == "ms");
  CHECK(stats["input_config"]["endpoint"]["type"] == "chat");
  // Every request meets both constraints: goodput is the request throughput.
  CHECK(stats["request_goodput"]["avg"].get<double>() == Approx(stats["request_throughput"]["avg"].get<double>()));
  CHECK(stats["input_config"]["input"]["goodput"]["request_latency"] == 100000.0);
  CHECK(stats["input_config"]["perf_analyzer"]["measurement"]["num"] == 8);

  // perf_analyzer's layout, and the statistics are those of its records.
  const json pa = json::parse(read_file(dir + "/profile_export.json"));
  CHECK(pa["service_kind"] == "openai");
  CHECK(pa["endpoint"] == "v1/chat/completions");
  CHECK(pa["experiments"][0]["experiment"] == json{{"mode", "concurrency"}, {"value", 2}});
  const json& requests = pa["experiments"][0]["requests"];
  REQUIRE(requests.size() == 8);
  std::vector<double> lat;
  for (const json& q : requests) {
    CHECK(json::parse(q["request_inputs"]["payload"].get<std::string>())["max_tokens"] == 4);
    lat.push_back(last_content_latency_ms(q));
  }
  std::sort(lat.begin(), lat.end());
  CHECK(stats["request_latency"]["avg"].get<double>() ==
        Approx(std::accumulate(lat.begin(), lat.end(), 0.0) / 8).epsilon(1e-9));
  CHECK(stats["request_latency"]["max"].get<double>() == Approx(lat.back()).epsilon(1e-9));

  const std::string csv = read_file(dir + "/profile_export_genai_perf.csv");
  CHECK(csv.rfind("Metric,avg,min,max,p99,p95,p90,p75,p50,p25,p10,p5,p1\r\nTime To First Token (ms),", 0) == 0);
  CHECK(csv.find("\r\n\r\nMetric,Value\r\nOutput Token Throughput (tokens/sec),") != std::string::npos);
  CHECK(csv.find("Request Count (count),8.00\r\n") != std::string::npos);
  CHECK(csv.find("\r\nRequest Goodput (per sec),") != std::string::npos);
  CHECK(json::parse(read_file(dir + "/inputs.json"))["data"][0]["payload"].size() == 1);
  CHECK(r.out.find("NVIDIA GenAI-Perf | LLM Metrics") != std::string::npos);
  // Column widths follow the widest cell: under load a request's chunks can arrive at one
  // instant (ITL 0, throughput per user inf), so only the row's cells are pinned.
  CHECK(std::regex_search(r.out, std::regex("│ +Request Count \\(count\\) │ +8\\.00 │")));
}

TEST_CASE("genai-perf profile with its default kserve type: Triton over gRPC, perf_analyzer's text_output records",
          "[e2e][genai_perf]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  MockServer mock({"--grpc-port", "0", "--ttft", "40", "--itl", "5"}, tmp);
  std::smatch m;
  const std::string mock_out = mock.process().out();
  REQUIRE(std::regex_search(mock_out, m, std::regex(R"(gRPC listening on grpc://([^\s]+))")));
  const std::string url = m[1];
  // No --endpoint-type (kserve) and a URL without a scheme, as GenAI-Perf users give Triton's.
  const Run r = genai_perf(tmp,
                           {"-m",
                            "ensemble",
                            "--streaming",
                            "-u",
                            url,
                            "--concurrency",
                            "2",
                            "--request-count",
                            "6",
                            "--synthetic-input-tokens-mean",
                            "20",
                            "--synthetic-input-tokens-stddev",
                            "0",
                            "--output-tokens-mean",
                            "5",
                            "--extra-inputs",
                            "ignore_eos:true",
                            "--tokenizer",
                            "gpt2",
                            "--artifact-dir",
                            tmp + "/arts"},
                           "kserve");
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 0);
  const std::string dir = tmp + "/arts/ensemble-triton-tensorrtllm-concurrency2";
  CHECK(files_under(dir) == std::vector<std::string>{"inputs.json", "logs/aiperf.log", "profile_export.json",
                                                     "profile_export_genai_perf.csv",
                                                     "profile_export_genai_perf.json"});
  const json stats = json::parse(read_file(dir + "/profile_export_genai_perf.json"));
  CHECK(stats["request_count"]["avg"] == 6.0);
  for (const char* s : {"avg", "min", "max"}) {
    CHECK(stats["input_sequence_length"][s] == 20.0);
    CHECK(stats["output_sequence_length"][s] == 5.0);
  }
  CHECK(stats["time_to_first_token"]["min"].get<double>() >= 40.0);
  CHECK(stats["inter_token_latency"]["avg"].get<double>() >= 4.0);
  CHECK(stats["input_config"]["endpoint"]["service_kind"] == "triton");
  CHECK(stats["input_config"]["endpoint"]["output_format"] == "tensorrtllm");
  const json pa = json::parse(read_file(dir + "/profile_export.json"));
  CHECK(pa["service_kind"] == "triton");
  const json& requests = pa["experiments"][0]["requests"];
  REQUIRE(requests.size() == 6);
  for (const json& q : requests) {
    // One streamed response per token, each exported as perf_analyzer exports Triton's outputs.
    REQUIRE(q["response_outputs"].size() == 5);
    CHECK(q["response_outputs"][0].contains("text_output"));
    CHECK_FALSE(q["response_outputs"][0]["text_output"].get<std::string>().empty());
    const json payload = json::parse(q["request_inputs"]["payload"].get<std::string>());
    CHECK(payload["inputs"][1] == json::parse(R"({"name":"max_tokens","datatype":"INT32","shape":[1,1],"data":[5]})"));
  }
}

TEST_CASE("aiperf genai-perf profile: embeddings at a request rate, named as GenAI-Perf names it", "[e2e][genai_perf]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  MockServer mock({"--embedding-base-latency", "20"}, tmp);
  const Run r = genai_perf(tmp,
                           {"-m", "e", "--endpoint-type", "embeddings", "-u", mock.url(), "--request-rate", "50",
                            "--request-count", "5", "--synthetic-input-tokens-mean", "10", "--tokenizer", "gpt2",
                            "--artifact-dir", tmp + "/arts", "--profile-export-file", "run.json"},
                           "embeddings", true);
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 0);
  const std::string dir = tmp + "/arts/e-openai-embeddings-request_rate50.0";
  CHECK(files_under(dir) ==
        std::vector<std::string>{"inputs.json", "logs/aiperf.log", "run.json", "run_genai_perf.csv", "run_genai_perf.json"});
  const json stats = json::parse(read_file(dir + "/run_genai_perf.json"));
  std::vector<std::string> keys;
  for (auto it = stats.begin(); it != stats.end(); ++it) keys.push_back(it.key());
  std::sort(keys.begin(), keys.end());
  CHECK(keys == std::vector<std::string>{"input_config", "request_count", "request_latency", "request_throughput"});
  CHECK(stats["request_count"]["avg"] == 5.0);
  CHECK(stats["request_latency"]["min"].get<double>() >= 20.0);
  const json pa = json::parse(read_file(dir + "/run.json"));
  CHECK(pa["experiments"][0]["experiment"] == json{{"mode", "request_rate"}, {"value", 50.0}});
  CHECK(read_file(dir + "/run_genai_perf.csv").find("Request Latency (ms),") != std::string::npos);
  CHECK(r.out.find("NVIDIA GenAI-Perf | Embeddings Metrics") != std::string::npos);
}

TEST_CASE("genai-perf profile --generate-plots writes GenAI-Perf's five plots as HTML and JPEG", "[e2e][genai_perf]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  MockServer mock({"--ttft", "20", "--itl", "3"}, tmp);
  const Run r = genai_perf(tmp,
                           {"-m",
                            "m",
                            "--endpoint-type",
                            "chat",
                            "--streaming",
                            "-u",
                            mock.url(),
                            "--concurrency",
                            "2",
                            "--request-count",
                            "6",
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
                            tmp + "/arts",
                            "--generate-plots"},
                           "plots", true);
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 0);
  const std::string dir = tmp + "/arts/m-openai-chat-concurrency2/plots";
  const std::vector<std::string> names = {
      "distribution_of_input_sequence_lengths_to_output_sequence_lengths", "request_latency", "time_to_first_token",
      "time_to_first_token_vs_input_sequence_lengths", "token-to-token_latency_vs_output_token_position"};
  std::vector<std::string> expected;
  for (const std::string& n : names) expected.insert(expected.end(), {n + ".html", n + ".jpeg"});
  CHECK(files_under(dir) == expected);
  const json pa = json::parse(read_file(tmp + "/arts/m-openai-chat-concurrency2/profile_export.json"));
  const json& requests = pa["experiments"][0]["requests"];
  REQUIRE(requests.size() == 6);
  for (const std::string& n : names) {
    INFO(n);
    const std::string jpeg = read_file(dir + "/" + n + ".jpeg");
    REQUIRE(jpeg.size() > 1000);
    CHECK(jpeg.compare(0, 3, "\xFF\xD8\xFF") == 0);            // SOI and the next marker
    CHECK(jpeg.compare(jpeg.size() - 2, 2, "\xFF\xD9") == 0);  // EOI
    const std::string html = read_file(dir + "/" + n + ".html");
    CHECK(html.rfind("<!DOCTYPE html>", 0) == 0);
    CHECK(html.find("id=\"aiperf-figures\"") != std::string::npos);
    CHECK(html.find("\"id\":\"" + n + "\"") != std::string::npos);
  }
  // A box plot carries its box (whiskers, quartiles, median).
  const std::string ttft = read_file(dir + "/time_to_first_token.html");
  CHECK(ttft.find("\"mark\":\"box\"") != std::string::npos);
  CHECK(ttft.find("\"box\":[") != std::string::npos);
  // The heat map counts the 6 requests in one cell (ISL 20, OSL 4).
  const std::string heat = read_file(dir + "/distribution_of_input_sequence_lengths_to_output_sequence_lengths.html");
  CHECK(heat.find("\"mark\":\"cells\"") != std::string::npos);
  CHECK(heat.find("\"x\":[19.5],\"y\":[3.5],\"xd\":[1],\"yd\":[1],\"z\":[6]") != std::string::npos);
  CHECK(r.out.find("Generating plots in ") != std::string::npos);
}

TEST_CASE("genai-perf refuses what it cannot honour yet: exit 2, nothing written", "[e2e][genai_perf]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  // vLLM's deterministic lengths (min_tokens in sampling_parameters) are not written yet.
  const Run vllm = genai_perf(tmp,
                              {"-m", "m", "--backend", "vllm", "--output-tokens-mean", "5",
                               "--output-tokens-mean-deterministic", "--artifact-dir", tmp + "/arts"},
                              "vllm");
  CHECK(vllm.exit_code == 2);
  CHECK(vllm.err.find("--output-tokens-mean-deterministic with --backend vllm: not supported yet") !=
        std::string::npos);
  const Run windows = genai_perf(tmp,
                                 {"-m", "m", "--endpoint-type", "chat", "--measurement-interval", "500",
                                  "--request-count", "5", "--artifact-dir", tmp + "/arts"},
                                 "windows");
  CHECK(windows.exit_code == 2);
  CHECK(windows.err.find("argument --request-count/--num-requests: not allowed with argument "
                         "--measurement-interval/-p") != std::string::npos);
  const Run no_model = genai_perf(tmp, {}, "no_model");  // `genai-perf profile` with no model
  CHECK(no_model.exit_code == 2);
  CHECK(no_model.err.find("-m/--model") != std::string::npos);
  // --dry-run (ours): the mapped command line is checked as `aiperf profile --dry-run` would.
  const Run dry = genai_perf(tmp, {"-m", "m", "--endpoint-type", "chat", "--dry-run", "--artifact-dir", tmp + "/arts"}, "dry");
  CHECK(dry.exit_code == 0);
  CHECK(dry.out.find("options valid") != std::string::npos);
  const Run bad = genai_perf(
      tmp, {"-m", "m", "--endpoint-type", "chat", "--dry-run", "--extra-inputs", "nocolon", "--artifact-dir", tmp + "/arts"},
      "dry_bad");
  CHECK(bad.exit_code == 2);
  CHECK(bad.err.find("--extra-inputs") != std::string::npos);
  // process-export-files (genai_perf_process_e2e_test.cpp) refuses an option it does not have,
  // as argparse does; `aiperf --help` lists the front end.
  Process other(std::string(AIPERF_BIN_DIR) + "/genai-perf", {"process-export-files", "--input-path", "x"}, tmp, "other");
  REQUIRE(other.wait(60) == 2);
  CHECK(other.err().find("unrecognized arguments: --input-path x") != std::string::npos);
  Process help(std::string(AIPERF_BIN_DIR) + "/aiperf", {"--help"}, tmp, "help");
  REQUIRE(help.wait(60) == 0);
  CHECK(help.out().find("genai-perf ") != std::string::npos);
  CHECK_FALSE(fs::exists(tmp + "/arts"));
}
