// `genai-perf process-export-files`' pure parts: its command line, Python's json.dumps layout,
// finding and merging the runs' export pairs, and the merged statistics (with a stand-in token
// counter: one token per byte, so every count below follows from the texts).
#include <catch2/catch.hpp>
#include <unistd.h>

#include <filesystem>
#include <limits>
#include <fstream>
#include <string>
#include <vector>

#include "genai_perf_merge.h"
#include "genai_perf_options.h"
#include "genai_perf_process_args.h"
#include "genai_perf_telemetry.h"
#include "python_json.h"

using namespace aiperf::cli::genai_perf;
using aiperf::cli::python_json_dumps;
using J = nlohmann::ordered_json;
namespace fs = std::filesystem;

namespace {

fs::path fresh_dir(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / ("genai_perf_process_" + std::to_string(getpid())) / name;
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

void write(const fs::path& p, const std::string& text) {
  fs::create_directories(p.parent_path());
  std::ofstream(p) << text;
}

std::string chunk(const std::string& content) {
  return "data: " +
         J{{"object", "chat.completion.chunk"}, {"choices", J::array({{{"delta", {{"content", content}}}}})}}.dump() +
         "\n\n";
}

J request(int64_t start, const std::vector<std::pair<int64_t, std::string>>& responses,
          const std::vector<std::string>& prompts) {
  J messages = J::array();
  for (const std::string& p : prompts) messages.push_back({{"role", "user"}, {"content", p}});
  J ts = J::array(), outs = J::array();
  for (const auto& r : responses) {
    ts.push_back(start + r.first);
    outs.push_back({{"response", r.second}});
  }
  return J{{"timestamp", start},
           {"request_inputs", {{"payload", J{{"messages", messages}}.dump()}}},
           {"response_timestamps", ts},
           {"response_outputs", outs}};
}

J pa_export(const J& requests, int64_t window_start) {
  return J{{"experiments", J::array({{{"experiment", {{"mode", "concurrency"}, {"value", 2}}},
                                      {"requests", requests},
                                      {"window_boundaries", J::array({window_start, window_start + 1})}}})},
           {"version", "x"},
           {"service_kind", "openai"},
           {"endpoint", "v1/chat/completions"}};
}

J input_config(const std::string& model) {
  return J{{"model_names", J::array({model})},
           {"subcommand", "profile"},
           {"endpoint", {{"type", "chat"}, {"streaming", true}, {"service_kind", "openai"}}},
           {"perf_analyzer", {{"stimulus", {{"concurrency", 2}}}}},
           {"input", {{"goodput", {{"request_latency", 20.0}}}, {"prompt_source", "synthetic"}}},
           {"tokenizer", {{"name", "gpt2"}, {"revision", "main"}}}};
}

J gap(double request_throughput, double token_throughput, const std::string& model) {
  return J{{"request_throughput", {{"unit", "requests/sec"}, {"avg", request_throughput}}},
           {"output_token_throughput", {{"unit", "tokens/sec"}, {"avg", token_throughput}}},
           {"input_config", input_config(model)}};
}

constexpr int64_t kMs = 1000000;

// Two runs (r1: two requests, r2: one), a subdirectory without a pair and a plain file.
fs::path two_runs() {
  const fs::path in = fresh_dir("two_runs");
  write(in / "r2" / "profile_export.json",
        pa_export(J::array({request(5000 * kMs, {{5 * kMs, chunk("a")}}, {"hey you"})}), 5000 * kMs).dump());
  write(in / "r2" / "profile_export_genai_perf.json", gap(2.0, 7.75, "other").dump());
  write(in / "r1" / "profile_export.json",
        pa_export(J::array({request(1000 * kMs,
                                    {{10 * kMs, chunk("ab")}, {14 * kMs, chunk("cd")}, {15 * kMs, "data: [DONE]\n\n"}},
                                    {"sys", "hello"}),
                            request(1001 * kMs, {{20 * kMs, chunk("abc")}, {30 * kMs, chunk("d")}}, {"hi"})}),
                  1000 * kMs)
            .dump());
  write(in / "r1" / "profile_export_genai_perf.json", gap(10.5, 100.25, "org/m").dump());
  write(in / "r1" / "inputs.json", R"({"data": []})");  // never taken for the export
  write(in / "junk" / "inputs.json", R"({"data": []})");
  write(in / "notes.json", "{}");
  return in;
}

int64_t bytes(const std::string& text) { return static_cast<int64_t>(text.size()); }

}  // namespace

TEST_CASE("python_json_dumps: json.dumps' separators, escapes and float spellings", "[genai_perf][process]") {
  const J v = J::parse(R"({"b": [1, 2.5, 5.0, 1e-05, 1e16, null, true], "a": "\u00e9\n\"\\/\u0001\ud83d\ude00"})");
  CHECK(python_json_dumps(v) ==
        R"({"b": [1, 2.5, 5.0, 1e-05, 1e+16, null, true], "a": "\u00e9\n\"\\/\u0001\ud83d\ude00"})");
  CHECK(python_json_dumps(J::object()) == "{}");
  CHECK(python_json_dumps(J::array()) == "[]");
}

TEST_CASE("process-export-files command line: argparse's spellings and errors", "[genai_perf][process]") {
  ProcessArgs a = parse_process_args({"--input", "runs/", "-v", "--art=out", "--generate-plots", "--prof", "x.json"});
  CHECK(a.input_path == "runs/");
  CHECK(a.artifact_dir == "out");
  CHECK(a.verbose);
  CHECK(a.generate_plots);
  CHECK_FALSE(a.enable_checkpointing);
  CHECK(a.profile_export_file == "x.json");
  CHECK(parse_process_args({"-dA", "-d", "B"}).input_path == "B");  // the last one wins
  CHECK(parse_process_args({}).input_path == "aggregated");
  CHECK_THROWS_WITH(parse_process_args({"--input-path", "x"}), "unrecognized arguments: --input-path x");
  CHECK_THROWS_WITH(parse_process_args({"-d"}), "argument --input-directory/-d: expected one argument");
  CHECK_THROWS_WITH(parse_process_args({"-d", "--verbose"}), "argument --input-directory/-d: expected one argument");
  CHECK(process_config_error(parse_process_args({"--profile-export-file", "a/b.json"})) ==
        "Please use artifact_directory option to define intermediary paths to the profile_export_file.");
  CHECK(process_config_error(parse_process_args({"--profile-export-file", "./b.json"})).empty());
  CHECK(python_path("./a//b/.") == "a/b");
  CHECK(python_path("x/") == "x");
  CHECK(python_path("") == ".");
  CHECK(python_path("/") == "/");
}

TEST_CASE("process-export-files: the runs' pairs, merged in name order", "[genai_perf][process]") {
  const fs::path in = two_runs();
  const std::vector<ExportPair> pairs = find_export_pairs(in);
  REQUIRE(pairs.size() == 2);
  CHECK(pairs[0].pa_file == in / "r1" / "profile_export.json");  // X.json beside X_genai_perf.json, not inputs.json
  CHECK(pairs[1].gap_file == in / "r2" / "profile_export_genai_perf.json");

  const MergedExports m = merge_exports(pairs);
  const J& exp = m.pa["experiments"][0];
  REQUIRE(exp["requests"].size() == 3);
  CHECK(exp["requests"][0]["timestamp"] == 1000 * kMs);
  CHECK(exp["requests"][2]["timestamp"] == 5000 * kMs);
  CHECK(exp["window_boundaries"][0] == 1000 * kMs);  // the first run's experiment
  CHECK(m.input_config["model_names"][0] == "org/m");
  CHECK(m.request_throughputs == std::vector<double>{10.5, 2.0});
  CHECK(m.output_token_throughputs == std::vector<double>{100.25, 7.75});
  REQUIRE(merged_format(m.pa) == Format::kChat);
  check_load_level(m.pa, m.input_config);

  const std::vector<PaRequest> requests = merged_requests(m.pa, Format::kChat, bytes);
  REQUIRE(requests.size() == 3);
  CHECK(requests[0].input_tokens == 9);   // "sys hello"
  CHECK(requests[0].output_tokens == 4);  // "abcd"
  CHECK(requests[2].input_tokens == 7);   // "hey you"
  const J s = merged_statistics(requests, Format::kChat, m);
  CHECK(s["request_throughput"]["avg"] == 12.5);        // 10.5 + 2.0, not 3 requests / 4 s
  CHECK(s["output_token_throughput"]["avg"] == 108.0);  // 100.25 + 7.75
  CHECK(s["request_count"]["avg"] == 3.0);
  CHECK(s["time_to_first_token"]["min"] == 5.0);
  CHECK(s["time_to_first_token"]["max"] == 20.0);
  CHECK(s["request_latency"]["avg"] == Approx((14.0 + 30.0 + 5.0) / 3));
  CHECK(s["time_to_second_token"]["avg"] == 7.0);  // (4 + 10) / 2
  // ITL: round(4 ms / 3) and round(10 ms / 3) ns, scaled to ms as GenAI-Perf scales (x * 1e-6).
  CHECK(s["inter_token_latency"]["min"] == 1333333 * 1e-6);
  CHECK(s["inter_token_latency"]["max"] == 3333333 * 1e-6);
  // Goodput (request_latency <= 20 ms): 2 of 3 requests over the merged span, 1000 ms to 5005 ms.
  CHECK(s["request_goodput"]["avg"] == Approx(2 / 4.005));

  const ProcessArgs a = parse_process_args({"-d", in.string() + "/", "--artifact-dir", "out/"});
  const J ic = process_input_config(m.input_config, a);
  CHECK(ic["subcommand"] == "process");
  CHECK(ic["process"]["input_path"] == in.string());
  CHECK(ic["output"]["artifact_directory"] == "out");
  CHECK(ic["endpoint"]["backend"] == "tensorrtllm");  // GenAI-Perf's default, the run's file having none
  CHECK(ic["endpoint"]["type"] == "chat");
  CHECK(ic["input"]["goodput"]["request_latency"] == 20.0);
  CHECK(process_artifact_directory(m.input_config, a) == "out/org_m-openai-chat-concurrency2");
}

TEST_CASE("process-export-files: bad runs are named", "[genai_perf][process]") {
  const fs::path in = two_runs();
  MergedExports m = merge_exports(find_export_pairs(in));
  m.input_config["perf_analyzer"]["stimulus"] = J{{"concurrency", 4}};
  CHECK_THROWS_WITH(check_load_level(m.pa, m.input_config), "Profile with concurrency=4 does not exist.");
  m.pa["endpoint"] = "v1/embeddings";
  CHECK_THROWS_WITH(merged_format(m.pa), Catch::Contains("chat, completions"));

  write(in / "r2" / "profile_export.json", R"({"experiments": []})");
  CHECK_THROWS_WITH(merge_exports(find_export_pairs(in)), "Invalid profile data in file '" +
                                                              (in / "r2" / "profile_export.json").string() +
                                                              "': 'experiments' key is missing or empty");
  write(in / "r2" / "profile_export.json", "{not json");
  CHECK_THROWS_WITH(merge_exports(find_export_pairs(in)),
                    Catch::StartsWith("Error reading file '" + (in / "r2" / "profile_export.json").string() + "'"));
  CHECK(find_export_pairs(fresh_dir("empty")).empty());
}

TEST_CASE("process-export-files: Triton runs keep every response and read text_input", "[genai_perf][process]") {
  // perf_analyzer records a Triton request's tensors by name; our profile, the KServe body it sent.
  const J body{{"inputs", J::array({{{"name", "text_input"}, {"datatype", "BYTES"}, {"data", {"from body"}}}})}};
  J pa{{"experiments",
        J::array({{{"experiment", {{"mode", "concurrency"}, {"value", 1}}},
                   {"requests",
                    J::array({{{"timestamp", 0},
                               {"request_inputs", {{"text_input", "tensor"}, {"max_tokens", 3}}},
                               {"response_timestamps", {2 * kMs, 3 * kMs, 7 * kMs}},
                               {"response_outputs",
                                J::array({{{"text_output", "ab"}}, {{"text_output", ""}}, {{"text_output", "c"}}})}},
                              {{"timestamp", 1 * kMs},
                               {"request_inputs", {{"payload", body.dump()}}},
                               {"response_timestamps", {5 * kMs}},
                               {"response_outputs", J::array({{{"text_output", ""}}})}}})}}})},
       {"version", "x"},
       {"service_kind", "triton"},
       {"endpoint", ""}};
  REQUIRE(merged_format(pa) == Format::kKserve);
  const std::vector<PaRequest> requests = merged_requests(pa, Format::kKserve, bytes);
  REQUIRE(requests.size() == 2);
  CHECK(requests[0].input_tokens == 6);   // "tensor"
  CHECK(requests[0].output_tokens == 3);  // "abc"
  CHECK(requests[1].input_tokens == 9);   // "from body"
  CHECK(requests[1].output_tokens == 0);
  MergedExports m;
  m.pa = pa;
  m.input_config = input_config("m");
  m.input_config["input"]["goodput"] = "";
  const J s = merged_statistics(requests, Format::kKserve, m);
  // The empty middle response still counts as the second one (TTST 1 ms), and the request of one
  // empty response still counts (GenAI-Perf drops empty responses of OpenAI runs only).
  CHECK(s["request_count"]["avg"] == 2.0);
  CHECK(s["time_to_second_token"]["avg"] == 1.0);
  CHECK(s["request_latency"]["max"] == 7.0);
  CHECK(s["time_to_first_token"]["min"] == 2.0);
  CHECK(s["request_throughput"]["avg"] == 0.0);  // neither run reported one: sum([]) is 0
}

TEST_CASE("process-export-files: the runs' GPU telemetry, aggregated as GenAI-Perf does", "[genai_perf][process]") {
  const J run1 = J::parse(R"({"gpu_power_usage": {"unit": "W", "gpu0": {"avg": 100.0, "p99": 120.0}},
                              "gpu_power_limit": {"unit": "W", "gpu0": {"avg": 300.0}},
                              "gpu_memory_used": {"unit": "GB", "gpu0": {"avg": 10.0}},
                              "gpu_utilization": {"unit": "%", "gpu0": {"avg": 40.5}}})");
  const J run2 = J::parse(R"({"gpu_power_usage": {"unit": "kW", "gpu0": {"avg": 110.25}, "gpu1": {"avg": 1234.5}},
                              "gpu_memory_used": {"unit": "GB", "gpu0": {"avg": 4.0}},
                              "gpu_utilization": {"unit": "%", "gpu0": {"avg": 41.5}}})");
  const J agg = aggregate_telemetry({run1, run2});
  CHECK(agg["gpu_power_usage"]["unit"] == "W");             // the first run's
  CHECK(agg["gpu_power_usage"]["gpu0"]["avg"] == 105.125);  // mean
  CHECK(agg["gpu_power_usage"]["gpu1"]["avg"] == 1234.5);   // one run's GPU
  CHECK(agg["gpu_memory_used"]["gpu0"]["avg"] == 10.0);     // max (not the sum)
  CHECK(agg["gpu_power_limit"]["gpu0"]["avg"] == 300.0);    // max of one
  CHECK(agg["gpu_power_usage"]["gpu0"].size() == 1);        // the runs' p99 is not carried
  CHECK(telemetry_json(agg) == agg);
  CHECK(telemetry_json(aggregate_telemetry({})).is_null());
  CHECK(telemetry_csv(agg) ==
        "\r\nMetric,GPU,avg,min,max,p99,p95,p90,p75,p50,p25,p10,p5,p1\r\n"
        "GPU Power Usage (W),gpu0,105.12,0.00,0.00,0.00,0.00,0.00,0.00,0.00,0.00,0.00,0.00,0.00\r\n"
        "GPU Power Usage (W),gpu1,\"1,234.50\",0.00,0.00,0.00,0.00,0.00,0.00,0.00,0.00,0.00,0.00,0.00\r\n"
        "GPU Memory Used (GB),gpu0,10.00,0.00,0.00,0.00,0.00,0.00,0.00,0.00,0.00,0.00,0.00,0.00\r\n"
        "GPU Utilization (%),gpu0,41.00,0.00,0.00,0.00,0.00,0.00,0.00,0.00,0.00,0.00,0.00,0.00\r\n"
        "\r\nMetric,GPU,Value\r\n"
        "GPU Power Limit (W),gpu0,300.00\r\n");
  const std::string console = telemetry_console(agg);
  CHECK(console.find("NVIDIA GenAI-Perf | Power Metrics") != std::string::npos);
  CHECK(console.find("│ │      gpu1 │ 1,234.50 │ N/A │") != std::string::npos);
  CHECK(console.find("│ │      gpu0 │  41 │ N/A │") != std::string::npos);  // utilization: round(41.0)
  CHECK(console.find("Memory Metrics") < console.find("Utilization Metrics"));
}

TEST_CASE("process-export-files: per-session statistics over each session's own span", "[genai_perf][process]") {
  MergedExports m = merge_exports(find_export_pairs(two_runs()));
  J& records = m.pa["experiments"][0]["requests"];
  CHECK(session_statistics(m.pa, merged_requests(m.pa, Format::kChat, bytes), Format::kChat).is_null());
  records[0]["request_inputs"]["session_id"] = 7;  // an integer id becomes the key "7"
  records[1]["request_inputs"]["session_id"] = "b";
  records[2]["request_inputs"]["session_id"] = 7;
  const J s = session_statistics(m.pa, merged_requests(m.pa, Format::kChat, bytes), Format::kChat);
  REQUIRE(s.size() == 2);
  CHECK(s.begin().key() == "7");  // first appearance first
  CHECK(s["7"]["request_count"]["avg"] == 2.0);
  // Session 7: requests at 1000 ms (14 ms) and 5000 ms (5 ms): 2 requests, 5 tokens over 4.005 s.
  CHECK(s["7"]["request_throughput"]["avg"] == 2 / 4.005);
  CHECK(s["7"]["output_token_throughput"]["avg"] == 5 / 4.005);
  CHECK(s["b"]["request_latency"]["avg"] == 30.0);
  CHECK_FALSE(s["7"].contains("request_goodput"));  // the first run's goodput is for the whole only
}

TEST_CASE("process-export-files: split SSE events joined, error events refused", "[genai_perf][process]") {
  const std::string event = chunk("abc");
  J pa = pa_export(J::array({request(0, {{4 * kMs, event.substr(0, 20)}, {9 * kMs, event.substr(20)}}, {"p"})}), 0);
  // The tail (no "data: ") joins the head: one response with text, at 4 ms; the emptied one goes.
  std::vector<PaRequest> requests = merged_requests(pa, Format::kChat, bytes);
  REQUIRE(requests.size() == 1);
  CHECK(requests[0].output_tokens == 3);
  MergedExports m;
  m.pa = pa;
  m.input_config = input_config("m");
  CHECK(merged_statistics(requests, Format::kChat, m)["request_latency"]["avg"] == 4.0);

  pa = pa_export(J::array({request(0, {{4 * kMs, chunk("a")}, {9 * kMs, "event: Error\ndata: {}\n\n"}}, {"p"})}), 0);
  CHECK_THROWS_WITH(merged_requests(pa, Format::kChat, bytes),
                    "Detected an error event in the SSE response: event: Error\ndata: {}");
  pa = pa_export(J::array({request(0, {{4 * kMs, "{}"}, {9 * kMs, "tail"}}, {"p"})}), 0);
  CHECK_THROWS_WITH(merged_requests(pa, Format::kChat, bytes), Catch::StartsWith("Detected a splintered SSE response"));
}

TEST_CASE("python_json_strict: Python's NaN and Infinity read back, strings untouched", "[genai_perf][process]") {
  const std::string text = R"({"a": NaN, "b": Infinity, "c": -Infinity, "s": "NaN Infinity \" NaN", "d": 1.5})";
  const J j = J::parse(aiperf::cli::python_json_strict(text));
  CHECK(j["a"].is_null());
  CHECK(j["b"].get<double>() == std::numeric_limits<double>::max());
  CHECK(j["c"].get<double>() == -std::numeric_limits<double>::max());
  CHECK(j["s"] == "NaN Infinity \" NaN");
  CHECK(j["d"] == 1.5);
}
