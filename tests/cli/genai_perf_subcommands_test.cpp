// GenAI-Perf front end's other subcommands: analyze's sweep (points, validation messages,
// directory naming, the summary CSV), create-template's file, config's YAML -> command line.
#include <catch2/catch.hpp>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <limits>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "genai_perf_analyze.h"
#include "genai_perf_config.h"
#include "genai_perf_export.h"
#include "genai_perf_options.h"
#include "genai_perf_template.h"

using namespace aiperf::cli::genai_perf;
using Words = std::vector<std::string>;
using Values = std::vector<int64_t>;
namespace fs = std::filesystem;

namespace {

fs::path scratch(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / ("genai_perf_sub_" + std::to_string(getpid()));
  fs::create_directories(dir);
  return dir / name;
}

std::string write(const std::string& name, const std::string& text) {
  const fs::path p = scratch(name);
  std::ofstream(p) << text;
  return p.string();
}

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const GenAiPerfOptionError& e) {
    return e.what();
  }
  return "(no error)";
}

}  // namespace

TEST_CASE("genai-perf analyze: sweep points as GenAI-Perf enumerates them", "[genai_perf]") {
  Sweep s = sweep_from_cli("concurrency", "1:8", "");
  CHECK(s.values == Values{1, 2, 4, 8});
  CHECK(s.echo.dump() == R"({"concurrency":{"min":1,"max":8}})");
  // request_rate's range need not be powers of two: 2^int(log2(10)) .. 2^int(log2(100)).
  CHECK(sweep_from_cli("request_rate", "10:100", "").values == Values{8, 16, 32, 64});
  CHECK(sweep_from_cli("num_dataset_entries", "100:103", "").values == Values{100, 101, 102, 103});
  CHECK(sweep_from_cli("input_sequence_length", "100:1000:300", "").values == Values{100, 400, 700, 1000});
  s = sweep_from_cli("concurrency", "", "3,1,5");
  CHECK(s.values == Values{3, 1, 5});
  CHECK(s.echo.dump() == R"({"concurrency":[3,1,5]})");
  // A config file's range is not checked for powers of two (3..8 walks 2, 4, 8).
  CHECK(sweep_from_range("concurrency", 3, 8, std::nullopt).values == Values{2, 4, 8});
  CHECK(sweep_from_range("concurrency", 1, 5, 2).values == Values{1, 3, 5});
}

TEST_CASE("genai-perf analyze: sweep validation messages", "[genai_perf]") {
  const auto err = [](const std::string& type, const std::string& range, const std::string& list) {
    return error_of([&] { sweep_from_cli(type, range, list); });
  };
  CHECK(err("concurrency", "3:8", "") ==
        "argument --sweep-range: min/max values must be powers of 2 when sweeping concurrency");
  CHECK(err("concurrency", "1:8:2", "") == "argument --sweep-range: step is not supported when sweeping concurrency");
  CHECK(err("concurrency", "8:1", "") == "argument --sweep-range: max must be greater than min");
  CHECK(err("concurrency", "4:4", "") == "argument --sweep-range: max must be greater than min");
  CHECK(err("concurrency", "0:4", "") == "argument --sweep-range: min/max value must be positive");
  CHECK(err("request_rate", "1:8:0", "") == "argument --sweep-range: step value must be positive");
  CHECK(err("concurrency", "1-8", "") ==
        "argument --sweep-range: The format of '--sweep-range' must be min:max or min:max:step.");
  CHECK(err("concurrency", "a:8", "") == "argument --sweep-range: invalid int value: 'a'");
  CHECK(err("concurrency", "", "1,x") == "argument --sweep-list: invalid int value: 'x'");
  CHECK(err("concurrency", "", "1,-2") == "argument --sweep-list: Values in -sweep-list must be positive");
  CHECK(err("concurrency", "1:4", "1,2") == "argument --sweep-list: not allowed with argument --sweep-range");
  CHECK(err("batch_size", "", "1,2") ==
        "argument --sweep-type: batch_size is not a valid analyze parameter (choose from concurrency, request_rate, "
        "num_dataset_entries, input_sequence_length)");
  CHECK(err("", "1:4", "") ==
        "the following arguments are required: --sweep-type (with --sweep-range or --sweep-list)");
  CHECK(err("concurrency", "", "") ==
        "argument --sweep-type: give the points with --sweep-range min:max[:step] or --sweep-list a,b,c");
  // The sweep options belong to analyze: profile does not know them, analyze checks the choice.
  CHECK(error_of([] { parse_profile_args({"-m", "x", "--endpoint-type", "chat", "--sweep-type", "concurrency"}); }) ==
        "unrecognized arguments: --sweep-type");
  CHECK(error_of([] {
          parse_profile_args({"-m", "x", "--endpoint-type", "chat", "--sweep-type", "foo"}, true);
        }) == "argument --sweep-type: invalid choice: 'foo' (choose from 'batch_size', 'concurrency', "
              "'num_dataset_entries', 'input_sequence_length', 'request_rate')");
  const ProfileArgs a = parse_profile_args(
      {"-m", "x", "--endpoint-type", "chat", "--sweep-t", "request_rate", "--sweep-range=16:64"}, true);
  CHECK(a.sweep_type == "request_rate");
  CHECK(a.sweep_range == "16:64");
}

TEST_CASE("genai-perf analyze: each point's arguments and directory", "[genai_perf]") {
  const ProfileArgs base = parse_profile_args(
      {"-m", "org/m", "--endpoint-type", "chat", "--artifact-dir", "out", "--num-prompts", "20"}, true);
  const Sweep conc = sweep_from_cli("concurrency", "1:4", "");
  CHECK(point_directory(base, conc, 4) == "out/org_m-openai-chat-concurrency4");
  CHECK(point_args(base, conc, 4).concurrency == 4);
  CHECK(point_load(base, conc, 4) == 4);
  CHECK_FALSE(load_is_request_rate(base, conc));

  const Sweep rate = sweep_from_cli("request_rate", "", "16");
  CHECK(point_directory(base, rate, 16) == "out/org_m-openai-chat-request_rate16");
  const Words args = to_aiperf_args(point_args(base, rate, 16), "D");
  const auto at = std::find(args.begin(), args.end(), "--request-rate");
  REQUIRE(at != args.end());
  CHECK(*(at + 1) == "16.0");
  CHECK(load_is_request_rate(base, rate));

  const Sweep entries = sweep_from_cli("num_dataset_entries", "", "200");
  CHECK(point_directory(base, entries, 200) == "out/org_m-openai-chat-num_dataset_entries200");
  CHECK(point_args(base, entries, 200).num_dataset_entries == 200);
  CHECK(point_load(base, entries, 200) == 1);  // no load given: perf_analyzer's concurrency 1

  const Sweep isl = sweep_from_cli("input_sequence_length", "", "64");
  CHECK(point_args(base, isl, 64).synthetic_tokens_mean == 64);
  const ProfileArgs rated = parse_profile_args({"-m", "m", "--endpoint-type", "chat", "--request-rate", "2.5"}, true);
  CHECK(point_load(rated, isl, 64) == 2);
  CHECK(load_is_request_rate(rated, isl));
}

TEST_CASE("genai-perf analyze: analyze_export_genai_perf.csv layout and formats", "[genai_perf]") {
  AnalyzeRow r0;
  r0.name = "m_run_config_0";
  r0.load = 1;
  r0.num_dataset_entries = 100;
  r0.stats = nlohmann::ordered_json::parse(R"({
    "request_throughput": {"unit": "requests/sec", "avg": 12.345},
    "request_latency": {"unit": "ms", "p99": 1234.5678},
    "time_to_first_token": {"unit": "ms", "p99": 10.005},
    "inter_token_latency": {"unit": "ms", "p99": 2.0},
    "output_token_throughput": {"unit": "tokens/sec", "avg": 1000.0},
    "output_sequence_length": {"unit": "tokens", "p99": 15.999},
    "input_sequence_length": {"unit": "tokens", "p99": 99.99}})");
  AnalyzeRow r1 = r0;
  r1.name = "m_run_config_1";
  r1.load = 2;
  r1.stats.erase("inter_token_latency");  // absent metric: 0.00
  r1.stats.erase("time_to_first_token");
  const std::string expected =
      "Config Name,Concurrency,ISL,Num Dataset Entries,p99 Time To First Token (ms),p99 Inter Token Latency (ms),"
      "p99 Request Latency (ms),p99 Output Sequence Length (tokens),Avg. Output Token Throughput (tokens/sec),"
      "Request Throughput (requests/sec)\r\n"
      "m_run_config_0,1,99,100,10.01,2.00,1234.57,16.00,1000.00,12.35\r\n"
      "m_run_config_1,2,99,100,0.00,0.00,1234.57,16.00,1000.00,12.35\r\n"
      "\r\n"
      "Config Name,GPU,p99 GPU Power Usage (W),p99 GPU Energy Consumption (MJ),p99 GPU Utilization (%),"
      "p99 GPU Memory Used (GB),Avg. GPU Power Limit (W),Avg. GPU Total Memory (GB)\r\n";
  CHECK(analyze_csv({r0, r1}, false) == expected);
  // Best request throughput first; equal ones keep the run order.
  AnalyzeRow r2 = r0;
  r2.name = "m_run_config_2";
  r2.stats["request_throughput"]["avg"] = 20.0;
  const std::string sorted = analyze_csv({r0, r1, r2}, false);
  const size_t first = sorted.find("\r\nm_run_config_2,"), second = sorted.find("\r\nm_run_config_0,"),
               third = sorted.find("\r\nm_run_config_1,");
  CHECK(first != std::string::npos);
  CHECK(first < second);
  CHECK(second < third);
  const std::string rate = analyze_csv({}, true);
  CHECK(rate.rfind("Config Name,Request Rate,ISL,", 0) == 0);
}

TEST_CASE("genai-perf create-template: GenAI-Perf's file, never overwritten", "[genai_perf]") {
  const std::string plain = config_template(false);
  CHECK(plain.rfind("  model_names: \n\n  analyze:\n    # Uncomment the lines below to enable the analyze subcommand\n", 0) == 0);
  CHECK(plain.find("\n    stimulus: {'concurrency': 1}\n") != std::string::npos);
  CHECK(plain.find("\n    type: kserve\n") != std::string::npos);
  CHECK(plain.find("\n    artifact_directory: artifacts\n") != std::string::npos);
  CHECK(std::count(plain.begin(), plain.end(), '\n') == 105);  // wc -l of the reference's file
  const std::string verbose = config_template(true);
  CHECK(verbose.rfind("  # The name of the model(s) to benchmark.\n  model_names: \n", 0) == 0);
  CHECK(std::count(verbose.begin(), verbose.end(), '\n') == 262);

  const fs::path p = scratch("tpl.yaml");
  fs::remove(p);
  CHECK(write_template(p.string(), false) == "");
  CHECK(slurp(p) == plain);
  std::ofstream(p) << "mine";
  CHECK(write_template(p.string(), true) == "File '" + p.string() + "' already exists. Please specify a different filename.");
  CHECK(slurp(p) == "mine");
}

TEST_CASE("genai-perf config: the template, filled in, is the profile command line", "[genai_perf]") {
  std::string text = config_template(false);
  text.replace(text.find("model_names: "), 13, "model_names: org/m");
  text.replace(text.find("type: kserve"), 12, "type: chat");
  text.replace(text.find("url: localhost:8001"), 19, "url: 127.0.0.1:9");
  text.replace(text.find("num_dataset_entries: 100"), 24, "num_dataset_entries: 7");
  const std::string path = write("filled.yaml", text);
  const ConfigRun run = read_config(path);
  CHECK_FALSE(run.sweep.has_value());
  const Words expected{
      "--model=org/m", "--model-selection-strategy=round_robin", "--endpoint-type=chat", "--url=127.0.0.1:9",
      "--concurrency=1", "--warmup-request-count=0", "--batch-size-text=1", "--num-dataset-entries=7",
      "--random-seed=0",
      // audio, image and sessions at the template's values (GenAI-Perf's defaults)
      "--batch-size-audio=1", "--audio-format=wav", "--audio-depths=16", "--audio-sample-rates=16",
      "--audio-num-channels=1", "--audio-length-mean=0", "--audio-length-stddev=0", "--batch-size-image=1",
      "--image-format=png", "--image-width-mean=0", "--image-width-stddev=0", "--image-height-mean=0",
      "--image-height-stddev=0", "--output-tokens-stddev=0", "--synthetic-input-tokens-mean=550",
      "--synthetic-input-tokens-stddev=0", "--num-prefix-prompts=0", "--prefix-prompt-length=100", "--num-sessions=0",
      "--session-turns-mean=1", "--session-turns-stddev=0", "--session-turn-delay-mean=0", "--session-delay-ratio=1.0",
      "--session-turn-delay-stddev=0", "--artifact-dir=artifacts", "--checkpoint-dir=checkpoint",
      "--profile-export-file=profile_export.json", "--tokenizer-revision=main"};
  CHECK(run.words == expected);
  const ProfileArgs a = parse_profile_args(run.words);
  CHECK(artifact_directory(a) == "artifacts/org_m-openai-chat-concurrency1");
  CHECK(a.num_dataset_entries == 7);
  // The template's values echo as GenAI-Perf's defaults do (the file's sample rates as integers).
  ProfileArgs echoed = a;
  echoed.audio_sample_rates_integral = run.audio_sample_rates_integral;
  CHECK(input_config(echoed)["input"]["audio"] == input_config(parse_profile_args({"-m", "m"}))["input"]["audio"]);
  CHECK(input_config(echoed)["input"]["sessions"] ==
        input_config(parse_profile_args({"-m", "m"}))["input"]["sessions"]);

  const ConfigRun swept = read_config(write("swept.yaml",
                                            "model_names: [m]\nendpoint:\n  type: chat\nanalyze:\n  concurrency:\n"
                                            "    start: 1\n    stop: 4\ninput:\n  goodput: {request_latency: 100}\n"
                                            "  extra: {ignore_eos: true, max_tokens: 5}\n  header: [\"A: b\"]\n"));
  REQUIRE(swept.sweep.has_value());
  CHECK(swept.sweep->values == Values{1, 2, 4});
  CHECK(swept.words == Words{"--model=m", "--endpoint-type=chat", "--goodput=request_latency:100",
                             R"(--extra-inputs={"ignore_eos":true,"max_tokens":5})", "--header=A: b"});
  CHECK(read_config(write("models.yaml", "model_name: a, b\n")).words == Words{"--model", "a", "b"});
}

TEST_CASE("genai-perf config: errors name file, line and key", "[genai_perf]") {
  const auto err = [](const std::string& name, const std::string& text) {
    const std::string path = write(name, text);
    return std::make_pair(path, error_of([&] { read_config(path); }));
  };
  auto [p1, e1] = err("unknown.yaml", "model_names: m\nendpoint:\n  type: chat\n  colour: red\n");
  CHECK(e1 == p1 + ":4: endpoint.colour: colour is not a valid endpoint parameter");
  auto [p2, e2] = err("top.yaml", "model_names: m\nbenchmark: 1\n");
  CHECK(e2 == p2 + ":2: benchmark: benchmark is not a valid top-level parameter");
  auto [p3, e3] = err("bad.yaml", "model_names: m\nendpoint:\n  type: chat\ninput:\n  num_dataset_entries: lots\n");
  CHECK(e3 == p3 + ":5: input.num_dataset_entries: argument --num-dataset-entries: invalid int value: 'lots'");
  auto [p4, e4] = err("audio.yaml", "model_names: m\ninput:\n  audio:\n    num_channels: 3\n");
  CHECK(e4 == p4 + ":4: input.audio.num_channels: argument --audio-num-channels: invalid choice: 3 (choose from 1, 2)");
  CHECK(read_config(write("kserve.yaml", "model_names: m\nendpoint:\n  type: kserve\n  backend: vllm\n")).words ==
        Words{"--model=m", "--endpoint-type=kserve", "--backend=vllm"});
  auto [p6, e6] = err("sweep.yaml", "model_names: m\nanalyze:\n  batch_size:\n    start: 1\n");
  CHECK(e6 == p6 + ":3: analyze.batch_size: batch_size is not a valid analyze parameter");
  auto [p7, e7] = err("stim.yaml", "model_names: m\nperf_analyzer:\n  stimulus: {fixed_schedule: 2}\n");
  CHECK(e7 == p7 + ":3: perf_analyzer.stimulus: not supported yet by aiperf's genai-perf front end "
                   "(--fixed-schedule: fixed schedule)");
  auto [p11, e11] = err("sess.yaml", "model_names: m\ninput:\n  sessions:\n    num: -2\n");
  CHECK(e11 == p11 +
                   ":4: input.sessions.num: argument --num-sessions: User Config: -2 exceeds lower bounds "
                   "({'lower': 0})");
  // GenAI-Perf's combination rules, for a value other than the template's.
  auto [p9, e9] = err("backend.yaml", "model_names: m\nendpoint:\n  type: chat\n  backend: vllm\n");
  CHECK(e9 == p9 + ":4: endpoint.backend: argument --backend: The backend should only be used with the following "
                   "combination: 'service_kind: triton' & 'type: kserve'");
  auto [p10, e10] = err("det.yaml", "model_names: m\ninput:\n  output_tokens:\n    mean: 5\n    deterministic: True\n");
  CHECK(e10 == p10 + ":5: input.output_tokens.deterministic: argument --output-tokens-mean-deterministic: only "
                     "supported with Triton or TensorRT-LLM Engine service kinds");
  auto [p8, e8] = err("yaml.yaml", "model_names: [m\n");
  CHECK(e8.rfind(p8 + ":2: not valid YAML: ", 0) == 0);
  CHECK(error_of([] { read_config("/nonexistent/x.yaml"); }) == "argument --file/-f: cannot read '/nonexistent/x.yaml'");
  // Audio, image and session settings are the command line's options (lists as several values).
  const ConfigRun media = read_config(write("media.yaml",
                                            "model_names: m\nendpoint:\n  type: multimodal\ninput:\n"
                                            "  audio:\n    depths: [8, 16]\n    sample_rates: 16, 44\n"
                                            "    format: MP3\n    length: {mean: 2}\n"
                                            "  image: {format: JPEG, width: {mean: 8}}\n"
                                            "  sessions:\n    num: 3\n    turn_delay:\n      ratio: 1\n"
                                            "perf_analyzer:\n  stimulus: {session_concurrency: 2}\n"));
  CHECK(media.words == Words{"--model=m", "--endpoint-type=multimodal", "--audio-depths", "8", "16",
                             "--audio-sample-rates", "16", "44", "--audio-format=mp3", "--audio-length-mean=2",
                             "--image-format=jpeg", "--image-width-mean=8", "--num-sessions=3",
                             "--session-delay-ratio=1", "--session-concurrency=2"});
  CHECK(media.audio_sample_rates_integral);
  CHECK(parse_profile_args(media.words).session_concurrency == 2);
  // generate_plots: true is --generate-plots (GenAI-Perf's five plots).
  CHECK(read_config(write("plots.yaml", "model_names: m\noutput:\n  generate_plots: true\n")).words ==
        Words{"--model=m", "--generate-plots"});
}

TEST_CASE("genai-perf number format: inf and nan as Python prints them", "[genai_perf]") {
  CHECK(format_stat(1234567.891) == "1,234,567.89");
  CHECK(format_stat(std::numeric_limits<double>::infinity()) == "inf");
  CHECK(format_stat(-std::numeric_limits<double>::infinity()) == "-inf");
  CHECK(format_stat(std::nan("")) == "nan");
}

TEST_CASE("genai-perf profile: GenAI-Perf's combination checks", "[genai_perf]") {
  const auto err = [](Words w) {
    w.insert(w.begin(), {"-m", "m", "--endpoint-type", "chat"});
    return error_of([&] { parse_profile_args(w); });
  };
  CHECK(err({"--backend", "vllm"}) == "argument --backend: The backend should only be used with the following "
                                      "combination: 'service_kind: triton' & 'type: kserve'");
  CHECK(err({"--osl", "5", "--output-tokens-mean-deterministic"}) ==
        "argument --output-tokens-mean-deterministic: only supported with Triton or TensorRT-LLM Engine service kinds");
  CHECK(err({"--output-tokens-stddev", "2"}) ==
        "argument --output-tokens-stddev: If output tokens stddev is set, mean must also be set");
  CHECK(err({"--output-tokens-stddev", "0"}) == "(no error)");  // 0 is argparse's "not given"
  CHECK(err({"--profile-export-file", "/tmp/run.json"}) ==
        "argument --profile-export-file: Please use artifact_directory option to define intermediary paths to the "
        "profile_export_file.");
}
