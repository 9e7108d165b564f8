// GenAI-Perf's checkpoint (genai_perf_checkpoint.h): perf_analyzer's command line and the
// representation a run is matched by, built as GenAI-Perf 0.0.16 builds them, checked against a
// checkpoint the reference wrote (tests/data/genai_perf/checkpoint_reference.json: `genai-perf
// analyze -m m --tokenizer /work/main/common/tokenizer/data/gpt2 --random-seed 42 --endpoint-type
// chat --streaming --url http://127.0.0.1:18731 --request-count 8 --synthetic-input-tokens-mean 50
// --synthetic-input-tokens-stddev 0 --output-tokens-mean 10 --output-tokens-stddev 0
// --extra-inputs ignore_eos:true --sweep-type concurrency --sweep-range 1:2 --enable-checkpointing`
// against our mock; the tokenizer path is only a string here, nothing reads it).
#include <catch2/catch.hpp>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "genai_perf_analyze.h"
#include "genai_perf_checkpoint.h"
#include "genai_perf_config.h"
#include "genai_perf_options.h"

using namespace aiperf::cli::genai_perf;
using J = nlohmann::ordered_json;
using Words = std::vector<std::string>;
namespace fs = std::filesystem;

namespace {

const Words kReferenceCommand = {"-m",
                                 "m",
                                 "--tokenizer",
                                 "/work/main/common/tokenizer/data/gpt2",
                                 "--random-seed",
                                 "42",
                                 "--endpoint-type",
                                 "chat",
                                 "--streaming",
                                 "--url",
                                 "http://127.0.0.1:18731",
                                 "--request-count",
                                 "8",
                                 "--synthetic-input-tokens-mean",
                                 "50",
                                 "--synthetic-input-tokens-stddev",
                                 "0",
                                 "--output-tokens-mean",
                                 "10",
                                 "--output-tokens-stddev",
                                 "0",
                                 "--extra-inputs",
                                 "ignore_eos:true",
                                 "--sweep-type",
                                 "concurrency",
                                 "--sweep-range",
                                 "1:2",
                                 "--enable-checkpointing"};

fs::path scratch() {
  fs::path dir = fs::temp_directory_path() / ("genai_perf_ckpt_" + std::to_string(getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

// An analyze point as genai_perf_command.cpp builds it: its input_config echoes the sweep's base.
struct Point {
  std::vector<std::string> cli;
  J gap;
};

Point point(const ProfileArgs& base, const Sweep& sweep, int64_t value) {
  const ProfileArgs a = point_args(base, sweep, value);
  J ic = input_config(a);
  const J base_ic = input_config(base);
  ic["input"]["num_dataset_entries"] = base_ic["input"]["num_dataset_entries"];
  ic["input"]["synthetic_tokens"] = base_ic["input"]["synthetic_tokens"];
  const PointParameters p = sweep_parameters(sweep.type, value);
  return {pa_cli_args(a, p, point_directory(base, sweep, value)), gap_parameters(ic, p)};
}

}  // namespace

TEST_CASE("perf_analyzer's command line of an analyze point is GenAI-Perf's", "[genai_perf][checkpoint]") {
  const ProfileArgs base = parse_profile_args(kReferenceCommand, true);
  CHECK(base.enable_checkpointing);
  const Sweep sweep = sweep_from_cli(base.sweep_type, base.sweep_range, base.sweep_list);
  CHECK(point(base, sweep, 2).cli == Words{"perf_analyzer",
                                           "-m",
                                           "m",
                                           "--async",
                                           "--stability-percentage",
                                           "999",
                                           "--request-count",
                                           "8",
                                           "-i",
                                           "http",
                                           "-u",
                                           "http://127.0.0.1:18731",
                                           "--concurrency-range",
                                           "2",
                                           "--service-kind",
                                           "openai",
                                           "--endpoint",
                                           "v1/chat/completions",
                                           "--input-data",
                                           "artifacts/m-openai-chat-concurrency2/inputs.json",
                                           "--profile-export-file",
                                           "artifacts/m-openai-chat-concurrency2/profile_export.json"});
  CHECK(representation(point(base, sweep, 2).cli, J::object()) ==
        "-m m --async --stability-percentage 999 --request-count 8 --concurrency-range 2 --service-kind openai "
        "--endpoint v1/chat/completions {}");
}

TEST_CASE("a profile's command line: triton's protocol and shapes, a request rate, warmup, headers",
          "[genai_perf][checkpoint]") {
  const ProfileArgs a = parse_profile_args({"-m", "m", "--request-rate", "5", "--warmup-request-count", "3", "-H",
                                            "X-A:1", "--stability-percentage", "10", "--measurement-interval", "800"});
  CHECK(pa_cli_args(a, profile_parameters(a), artifact_directory(a)) ==
        Words{"perf_analyzer",
              "-m",
              "m",
              "--async",
              "--warmup-request-count",
              "3",
              "--stability-percentage",
              "10.0",
              "--measurement-interval",
              "800",
              "-i",
              "grpc",
              "--streaming",
              "--shape",
              "max_tokens:1",
              "--shape",
              "text_input:1",
              "-u",
              "localhost:8001",
              "--request-rate-range",
              "5.0",
              "--service-kind",
              "triton",
              "-H",
              "X-A:1",
              "--input-data",
              "artifacts/m-triton-tensorrtllm-request_rate5.0/inputs.json",
              "--profile-export-file",
              "artifacts/m-triton-tensorrtllm-request_rate5.0/profile_export.json"});
  CHECK(profile_parameters(a).pa == J{{"request_rate", 5.0}});
  // A swept GenAI-Perf parameter is not perf_analyzer's: the user's load (none here) stays.
  const ProfileArgs b = parse_profile_args({"-m", "m", "--endpoint-type", "chat"});
  const PointParameters entries = sweep_parameters("num_dataset_entries", 20);
  CHECK(entries.pa.empty());
  CHECK(entries.gap == J{{"num_dataset_entries", 20}});
  CHECK(pa_cli_args(b, entries, "artifacts/x") ==
        Words{"perf_analyzer", "-m", "m", "--async", "--stability-percentage", "999", "--request-count", "10", "-i",
              "http", "--service-kind", "openai", "--endpoint", "v1/chat/completions", "--input-data",
              "artifacts/x/inputs.json", "--profile-export-file", "artifacts/x/profile_export.json"});
  CHECK(gap_parameters(input_config(b), entries).back() == 20);
}

TEST_CASE("the reference's checkpoint resumes ours: both points found by name, a new one is not",
          "[genai_perf][checkpoint]") {
  const fs::path dir = scratch();
  fs::copy_file(fs::path(AIPERF_TEST_DATA) / "genai_perf" / "checkpoint_reference.json", dir / "checkpoint.json");
  const Checkpoint checkpoint(dir.string());
  REQUIRE(checkpoint.run_configs().size() == 2);
  const ProfileArgs base = parse_profile_args(kReferenceCommand, true);
  const Sweep wider = sweep_from_cli("concurrency", "1:4", "");
  const Point p1 = point(base, wider, 1), p2 = point(base, wider, 2), p4 = point(base, wider, 4);
  const J* one = checkpoint.find(representation(p1.cli, p1.gap));
  const J* two = checkpoint.find(representation(p2.cli, p2.gap));
  REQUIRE(one != nullptr);
  REQUIRE(two != nullptr);
  CHECK((*one)["name"] == "m_run_config_0");
  CHECK((*two)["name"] == "m_run_config_1");
  CHECK(checkpoint.find(representation(p4.cli, p4.gap)) == nullptr);
  CHECK(checkpoint.next_name("m") == "m_run_config_2");
  // Another input length is another run, though perf_analyzer's command is the same.
  ProfileArgs longer = base;
  longer.synthetic_tokens_mean = 60;
  const Point q = point(longer, wider, 1);
  CHECK(q.cli == p1.cli);
  CHECK(checkpoint.find(representation(q.cli, q.gap)) == nullptr);
  // Its statistics come back in ms, as the CSV reports them (the file holds ns).
  CHECK(inference_value(*two) == 2);
  CHECK_FALSE(inference_is_request_rate(*two));
  const J stats = stats_from_measurement((*two)["measurement"], "m");
  CHECK(stats["request_latency"]["avg"].get<double>() == Approx(38.534815375).epsilon(1e-15));
  CHECK(stats["request_throughput"]["avg"].get<double>() == 51.741322852421256);
  CHECK(stats["output_sequence_length"]["p99"].get<double>() == 10.0);
  fs::remove_all(dir);
}

TEST_CASE("our checkpoint file: Python's json.dump, best first, ids after the largest", "[genai_perf][checkpoint]") {
  const fs::path dir = scratch() / "nested";
  Checkpoint checkpoint(dir.string());
  CHECK(checkpoint.run_configs().empty());
  CHECK(checkpoint.next_name("m") == "m_run_config_0");
  const J slow = {{"request_throughput", {{"unit", "requests/sec"}, {"avg", 2.0}}},
                  {"request_latency", {{"unit", "ms"}, {"avg", 1.5}, {"p99", 2.25}}}};
  const J fast = {{"request_throughput", {{"unit", "requests/sec"}, {"avg", 4.0}}}};
  const PointParameters p = sweep_parameters("concurrency", 1);
  checkpoint.add(run_config_json("m_run_config_0", J::object(), "m", p, {"perf_analyzer", "--concurrency-range", "1"},
                                 measurement_json(slow, "m")));
  checkpoint.add(run_config_json("m_run_config_1", J::object(), "m", sweep_parameters("concurrency", 2),
                                 {"perf_analyzer", "--concurrency-range", "2"}, measurement_json(fast, "m")));
  checkpoint.save();
  std::ifstream in(dir / "checkpoint.json");
  std::stringstream text;
  text << in.rdbuf();
  CHECK(text.str().rfind("{\"Results\": {\"run_configs\": [{\"name\": \"m_run_config_1\", ", 0) == 0);
  CHECK(text.str().find("\"request_latency_p99\": [\"request_latency_p99\", {\"_value\": 2250000.0, \"_timestamp\": "
                        "0}]") != std::string::npos);
  const Checkpoint again(dir.string());
  REQUIRE(again.run_configs().size() == 2);
  CHECK(again.run_configs()[0]["name"] == "m_run_config_1");
  CHECK(again.next_name("m") == "m_run_config_2");
  CHECK(again.find("--concurrency-range 1 {}") == &again.run_configs()[1]);
  CHECK(stats_from_measurement(again.run_configs()[1]["measurement"], "m") ==
        J{{"request_throughput", {{"avg", 2.0}}}, {"request_latency", {{"avg", 1.5}, {"p99", 2.25}}}});
  CHECK_FALSE(fs::exists(dir / "checkpoint.json.tmp"));
  fs::remove_all(dir.parent_path());
}

TEST_CASE("a checkpoint that is not one is refused, naming the file", "[genai_perf][checkpoint]") {
  const fs::path dir = scratch();
  for (const std::string& text : {std::string(""), std::string("{\"Results\": {}}"), std::string("[1]"),
                                  std::string("{\"Results\": {\"run_configs\": [{\"name\": \"x\"}]}}")}) {
    std::ofstream(dir / "checkpoint.json", std::ios::trunc) << text;
    INFO(text);
    try {
      Checkpoint c(dir.string());
      FAIL("accepted");
    } catch (const GenAiPerfOptionError& e) {
      CHECK(std::string(e.what()).find((dir / "checkpoint.json").string()) != std::string::npos);
    }
  }
  fs::remove_all(dir);
}

TEST_CASE("a config file's output section turns checkpointing on", "[genai_perf][checkpoint]") {
  const fs::path dir = scratch();
  const fs::path file = dir / "cfg.yaml";
  std::ofstream(file) << "model_names: m\noutput:\n  checkpoint_directory: ck\n  enable_checkpointing: True\n";
  const ConfigRun run = read_config(file.string());
  const ProfileArgs a = parse_profile_args(run.words);
  CHECK(a.enable_checkpointing);
  CHECK(a.checkpoint_dir == "ck");
  CHECK(input_config(a)["output"]["enable_checkpointing"] == true);
  std::ofstream(file, std::ios::trunc) << "model_names: m\noutput:\n  enable_checkpointing: False\n";
  CHECK_FALSE(parse_profile_args(read_config(file.string()).words).enable_checkpointing);
  fs::remove_all(dir);
}
