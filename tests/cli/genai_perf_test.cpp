// GenAI-Perf front end: its command line mapped onto `aiperf profile` (exact arguments), its
// directory naming, its metrics on hand-made perf_analyzer records, and its file layouts.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "genai_perf_export.h"
#include "genai_perf_metrics.h"
#include "genai_perf_options.h"

using namespace aiperf::cli::genai_perf;
using Words = std::vector<std::string>;

namespace {
std::string chunk(const std::string& content, bool role = false) {
  return std::string("data: {\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,\"delta\":{") +
         (role ? "\"role\":\"assistant\"," : "") + "\"content\":\"" + content + "\"}}]}\n\n";
}
}  // namespace

TEST_CASE("genai-perf profile maps onto aiperf profile with exact arguments", "[genai_perf]") {
  const ProfileArgs a = parse_profile_args({"-m", "org/model", "--endpoint-type", "chat", "--streaming", "-u",
                                            "http://h:1", "--concurrency", "4", "--num-prompts", "7", "--isl", "30",
                                            "--synthetic-input-tokens-stddev", "2", "--osl", "12",
                                            "--output-tokens-stddev", "1", "--extra-inputs", "ignore_eos:true",
                                            "-H", "A:b", "--warmup-request-count=3", "--random-seed", "9",
                                            "--tokenizer", "gpt2", "--artifact-dir", "out/"});
  CHECK(artifact_directory(a) == "out/org_model-openai-chat-concurrency4");
  CHECK(request_count(a) == 10);  // max(10, 2 * 4)
  const Words expected{"--model",
                       "org/model",
                       "--endpoint-type",
                       "chat",
                       "--genai-perf-payloads",
                       "--streaming",
                       "--url",
                       "http://h:1",
                       "--concurrency",
                       "4",
                       "--request-count",
                       "10",
                       "--warmup-request-count",
                       "3",
                       "--num-dataset-entries",
                       "7",
                       "--synthetic-input-tokens-mean",
                       "30",
                       "--synthetic-input-tokens-stddev",
                       "2",
                       "--output-tokens-mean",
                       "12",
                       "--output-tokens-stddev",
                       "1",
                       "--use-legacy-max-tokens",
                       "--random-seed",
                       "9",
                       "--extra-inputs",
                       "ignore_eos:true",
                       "--header",
                       "A:b",
                       "--tokenizer",
                       "gpt2",
                       "--artifact-dir",
                       "D",
                       "--export-level",
                       "raw",
                       "--ui",
                       "none"};
  CHECK(to_aiperf_args(a, "D") == expected);
}

TEST_CASE("genai-perf --input-file maps to a sequential single_turn dataset", "[genai_perf]") {
  const std::string file = std::filesystem::temp_directory_path().string() + "/genai_perf_test_prompts.jsonl";
  std::ofstream(file) << "{\"text\": \"hi\"}\n";
  const ProfileArgs a = parse_profile_args({"-m", "m", "--endpoint-type", "completions", "--input-file", file});
  const Words expected{"--model",
                       "m",
                       "--endpoint-type",
                       "completions",
                       "--genai-perf-payloads",
                       "--url",
                       "localhost:8000",
                       "--concurrency",
                       "1",
                       "--request-count",
                       "10",
                       "--input-file",
                       file,
                       "--custom-dataset-type",
                       "single_turn",
                       "--dataset-sampling-strategy",
                       "sequential",
                       "--random-seed",
                       "0",
                       "--artifact-dir",
                       "D",
                       "--export-level",
                       "raw",
                       "--ui",
                       "none"};
  CHECK(to_aiperf_args(a, "D") == expected);
  CHECK(input_config(a)["input"]["file"] == file);
  CHECK(input_config(a)["input"]["prompt_source"] == "file");
  std::filesystem::remove(file);
}

TEST_CASE("genai-perf profile defaults and request-rate naming", "[genai_perf]") {
  const ProfileArgs a = parse_profile_args({"--model", "m", "--endpoint-type", "embeddings", "--request-rate", "2.5"});
  CHECK(artifact_directory(a) == "artifacts/m-openai-embeddings-request_rate2.5");
  CHECK(profile_export_path(a) == "artifacts/m-openai-embeddings-request_rate2.5/profile_export.json");
  CHECK(request_count(a) == 10);
  const Words v = to_aiperf_args(a, "D");
  const Words expected{"--model",
                       "m",
                       "--endpoint-type",
                       "embeddings",
                       "--genai-perf-payloads",
                       "--url",
                       "localhost:8000",
                       "--request-rate",
                       "2.5",
                       "--arrival-pattern",
                       "constant",
                       "--request-count",
                       "10",
                       "--num-dataset-entries",
                       "100",
                       "--synthetic-input-tokens-mean",
                       "550",
                       "--synthetic-input-tokens-stddev",
                       "0",
                       "--random-seed",
                       "0",
                       "--artifact-dir",
                       "D",
                       "--export-level",
                       "raw",
                       "--ui",
                       "none"};
  CHECK(v == expected);
  CHECK(python_float(5) == "5.0");
  CHECK(python_float(0.1) == "0.1");
  CHECK(python_float(50) == "50.0");
  CHECK(python_float(2.5e-5) == "2.5e-05");
  CHECK(python_float(1e16) == "1e+16");
  // Two models: "_multi"; --request-count wins over the derived count.
  const ProfileArgs b = parse_profile_args({"-m", "a", "b", "--endpoint-type", "completions", "--concurrency", "8",
                                            "--num-requests", "3", "--profile-export-file", "run.json"});
  CHECK(artifact_directory(b) == "artifacts/a_multi-openai-completions-concurrency8");
  CHECK(request_count(b) == 3);
  CHECK(profile_export_path(b) == "artifacts/a_multi-openai-completions-concurrency8/run.json");
  CHECK(b.models == Words{"a", "b"});
}

TEST_CASE("genai-perf options: prefixes, = values, and refusals naming the option", "[genai_perf]") {
  const ProfileArgs a = parse_profile_args({"-mm", "--endpoint-t=chat", "--stream", "--request-c", "5"});
  CHECK(a.models == Words{"m"});
  CHECK(a.endpoint_type == "chat");
  CHECK(a.streaming);
  CHECK(*a.request_count == 5);
  CHECK_FALSE(a.dry_run);
  CHECK(parse_profile_args({"-m", "m", "--endpoint-type", "chat", "--dry-run"}).dry_run);
  const auto refuses = [](const Words& w, const std::string& fragment) {
    try {
      parse_profile_args(w);
      FAIL("accepted: " << w.back());
    } catch (const GenAiPerfOptionError& e) {
      INFO(e.what());
      CHECK(std::string(e.what()).find(fragment) != std::string::npos);
    }
  };
  CHECK(parse_profile_args({"-m", "m"}).endpoint_type == "kserve");  // GenAI-Perf's default: Triton over gRPC
  // --backend vllm: Triton's vLLM backend tensors (the engine's hidden --kserve-vllm).
  const ProfileArgs vllm = parse_profile_args({"-m", "m", "--backend", "vllm"});
  CHECK(artifact_directory(vllm) == "artifacts/m-triton-vllm-concurrency1");
  CHECK(input_config(vllm)["endpoint"]["output_format"] == "vllm");
  const Words vllm_args = to_aiperf_args(vllm, "D");
  CHECK(std::find(vllm_args.begin(), vllm_args.end(), "--kserve-vllm") != vllm_args.end());
  refuses({"-m", "m", "--backend", "vllm", "--osl", "5", "--output-tokens-mean-deterministic"},
          "--output-tokens-mean-deterministic with --backend vllm: not supported yet");
  refuses({"-m", "m", "-b", "2"}, "The --batch-size-text flag is not supported for tensorrtllm.");
  refuses({"-m", "m", "--endpoint-type", "chat", "--measurement-interval", "1000", "--request-count", "5"},
          "argument --request-count/--num-requests: not allowed with argument --measurement-interval/-p");
  refuses({"-m", "m", "--endpoint-type", "chat", "--grpc-method", "a.B/C", "--fixed-schedule", "f"},
          "front end: --grpc-method (dynamic gRPC), --fixed-schedule (fixed schedule);");
  CHECK(parse_profile_args({"-m", "m", "--endpoint-type", "chat", "--enable-checkpointing"}).enable_checkpointing);
  refuses({"-m", "m", "--endpoint-type", "embeddings", "--generate-plots"},
          "User Config: generate_plots is not supported with the OutputFormat.OPENAI_EMBEDDINGS output format");
  CHECK(parse_profile_args({"-m", "m", "--endpoint-type", "chat", "--generate-plots"}).generate_plots);
  CHECK_FALSE(parse_profile_args({"-m", "m", "--endpoint-type", "chat"}).generate_plots);
  refuses({"-m", "m", "--endpoint-type", "chat", "--input-file", "/nonexistent.jsonl"},
          "argument --input-file: '/nonexistent.jsonl' is not a valid file or directory");
  refuses({"-m", "m", "--endpoint-type", "chat", "--input-file", "payload:{}"}, "--input-file payload: (synthetic");
  refuses({"-m", "m", "--endpoint-type", "chat", "--input-file", "/tmp"}, "(a directory of JSONL files; give one file)");
  refuses({"-m", "m", "--endpoint-type", "chat", "-g", "request_latency=3"}, "Invalid format found for goodput");
  refuses({"-m", "m", "--endpoint-type", "chat", "-g", "request_latency:-1"}, "should be non-negative");
  refuses({"-m", "m", "--endpoint-type", "chat", "--bogus"}, "unrecognized arguments: --bogus");
  // --help: what we take (CLI11-style choice lists), then what we refuse, each with its reason.
  CHECK(parse_profile_args({"--help"}).help);
  const std::string help = profile_help();
  CHECK(help.find("\n  --endpoint-type TEXT:{chat,completions,embeddings,kserve,multimodal,vision}\n") !=
        std::string::npos);
  CHECK(help.find("\n  --request-count, --num-requests\n") != std::string::npos);
  CHECK(help.find("\n  --measurement-interval, -p\n") != std::string::npos);
  CHECK(help.find("\n  --stability-percentage, -s\n") != std::string::npos);
  CHECK(help.find("refused: --measurement-interval") == std::string::npos);
  refuses({"-m", "m", "--endpoint-type", "chat", "--output-tokens"}, "ambiguous option: --output-tokens");
  refuses({"-m", "m", "--endpoint-type", "chat", "--concurrency", "x"}, "argument --concurrency: invalid int value: 'x'");
  refuses({"-m", "m", "--endpoint-type", "chat", "--concurrency", "2", "--request-rate", "3"}, "cannot be used together");
  refuses({"--endpoint-type", "chat"}, "required: -m/--model");
  refuses({"-m", "m", "--endpoint-type", "nope"}, "invalid choice: 'nope'");
}

TEST_CASE("genai-perf input_config echoes the command line in GenAI-Perf's layout", "[genai_perf]") {
  const ProfileArgs a = parse_profile_args({"-m", "m", "--endpoint-type", "chat", "--streaming", "-u", "http://x:1",
                                            "--concurrency", "2", "--request-count", "20", "--extra-inputs",
                                            "ignore_eos:true", "--extra-inputs", "temperature:0.5"});
  const auto c = input_config(a);
  CHECK(c["endpoint"]["custom"] == "v1/chat/completions");
  CHECK(c["endpoint"]["output_format"] == "openai_chat_completions");
  CHECK(c["perf_analyzer"]["stimulus"] == nlohmann::ordered_json{{"concurrency", 2}});
  CHECK(c["perf_analyzer"]["measurement"] == nlohmann::ordered_json{{"mode", "request_count"}, {"num", 20}});
  // Unset values are echoed as GenAI-Perf echoes None: "".
  const auto d = input_config(parse_profile_args({"-m", "m", "--endpoint-type", "chat"}));
  CHECK(d["perf_analyzer"]["measurement"]["num"] == "");
  CHECK(d["input"]["extra"] == "");
  CHECK(d["input"]["output_tokens"]["mean"] == "");
  CHECK(c["input"]["extra"].dump() == R"({"ignore_eos":true,"temperature":0.5})");
  CHECK(c["tokenizer"]["name"] == "m");
  CHECK(c["input"]["goodput"] == "");
  CHECK(c["input"]["header"] == "");
  CHECK(input_config(parse_profile_args({"-m", "m", "--endpoint-type", "chat", "-H", "A:1", "--header", "B:2"}))["input"]["header"]
            .dump() == R"(["A:1","B:2"])");
  const auto gp = input_config(parse_profile_args(
      {"-m", "m", "--endpoint-type", "chat", "-g", "request_latency:300", "inter_token_latency:20.5", "request_latency:250"}));
  CHECK(gp["input"]["goodput"].dump() == R"({"request_latency":250.0,"inter_token_latency":20.5})");
  std::vector<std::string> keys;
  for (auto it = c.begin(); it != c.end(); ++it) keys.push_back(it.key());
  CHECK(keys == Words{"model_names", "subcommand", "verbose", "template_filename", "analyze", "endpoint",
                      "perf_analyzer", "input", "output", "tokenizer", "process"});
}

TEST_CASE("genai-perf metrics follow GenAI-Perf's formulas", "[genai_perf]") {
  // Request 1: start 0, role chunk at 100 ms, tokens at 100/120/140 ms (OSL 3 tokens), [DONE] at 150.
  PaRequest r1;
  r1.timestamp = 1'000'000'000;
  r1.response_timestamps = {1'100'000'000, 1'120'000'000, 1'140'000'000, 1'150'000'000};
  r1.response_outputs = {chunk("a", true), chunk("b"), chunk("c"), "data: [DONE]\n\n"};
  r1.input_tokens = 10;
  r1.output_tokens = 3;
  // Request 2: start 50 ms later, an empty role chunk first (dropped), tokens at 250/290 ms.
  PaRequest r2;
  r2.timestamp = 1'050'000'000;
  r2.response_timestamps = {1'200'000'000, 1'250'000'000, 1'290'000'000};
  r2.response_outputs = {chunk("", true), chunk("x"), chunk("y")};
  r2.input_tokens = 20;
  r2.output_tokens = 2;
  const auto s = compute_statistics({r1, r2}, Format::kChat);
  std::vector<std::string> keys;
  for (auto it = s.begin(); it != s.end(); ++it) keys.push_back(it.key());
  CHECK(keys == Words{"request_throughput", "request_latency", "request_count", "time_to_first_token",
                      "time_to_second_token", "inter_token_latency", "output_token_throughput",
                      "output_token_throughput_per_user", "output_sequence_length", "input_sequence_length"});
  // Latency: last non-empty response: 140 ms and 240 ms.
  CHECK(s["request_latency"]["avg"].get<double>() == Approx(190.0));
  CHECK(s["request_latency"]["min"].get<double>() == Approx(140.0));
  CHECK(s["request_latency"]["p50"].get<double>() == Approx(190.0));
  CHECK(s["request_latency"]["p90"].get<double>() == Approx(230.0));  // 140 + 0.9 * 100
  CHECK(s["request_latency"]["std"].get<double>() == Approx(50.0));
  // TTFT 100 and 200 ms; TTST 20 and 40 ms.
  CHECK(s["time_to_first_token"]["avg"].get<double>() == Approx(150.0));
  CHECK(s["time_to_second_token"]["avg"].get<double>() == Approx(30.0));
  // ITL: (140-100)/(3-1) = 20 ms, (240-200)/(2-1) = 40 ms; TPS/user 50 and 25.
  CHECK(s["inter_token_latency"]["avg"].get<double>() == Approx(30.0));
  CHECK(s["output_token_throughput_per_user"]["avg"].get<double>() == Approx(37.5));
  // Duration: 1.000 s -> 1.290 s; 2 requests, 5 tokens.
  CHECK(s["request_throughput"]["avg"].get<double>() == Approx(2 / 0.29));
  CHECK(s["output_token_throughput"]["avg"].get<double>() == Approx(5 / 0.29));
  CHECK(s["request_throughput"].size() == 2);  // unit and avg only
  CHECK(s["request_count"]["avg"].get<double>() == 2.0);
  CHECK(s["input_sequence_length"]["avg"].get<double>() == 15.0);
  CHECK_FALSE(s.contains("request_goodput"));
  // Goodput: latencies 140 / 240 ms, TTST 20 / 40 ms, per-user 50 / 25 tokens/s; 0.29 s.
  const auto g = [&](const Goodput& c) {
    return compute_statistics({r1, r2}, Format::kChat, c)["request_goodput"]["avg"].get<double>();
  };
  CHECK(g({{"request_latency", 200}}) == Approx(1 / 0.29));
  CHECK(g({{"request_latency", 240}}) == Approx(2 / 0.29));  // at the target is good
  CHECK(g({{"output_token_throughput_per_user", 40}}) == Approx(1 / 0.29));
  CHECK(g({{"time_to_second_token", 30}, {"request_latency", 1000}}) == Approx(1 / 0.29));
  CHECK(g({{"request_latency", 1000}, {"output_token_throughput_per_user", 60}}) == 0.0);
  CHECK(g({{"request_latency", 1000}, {"bogus", 1}}) == -1.0);
  const auto with_goodput = compute_statistics({r1, r2}, Format::kChat, {{"request_latency", 200}});
  std::vector<std::string> gkeys;
  for (auto it = with_goodput.begin(); it != with_goodput.end(); ++it) gkeys.push_back(it.key());
  CHECK(std::vector<std::string>(gkeys.begin(), gkeys.begin() + 4) ==
        Words{"request_throughput", "request_latency", "request_goodput", "request_count"});
  CHECK(with_goodput["request_goodput"]["unit"] == "requests/sec");
  CHECK(csv_text(with_goodput, Format::kChat, true).find("\r\nRequest Goodput (per sec),3.45\r\n") != std::string::npos);
  CHECK(s["request_latency"]["unit"] == "ms");
  CHECK(s["output_token_throughput_per_user"]["unit"] == "tokens/sec/user");
}

TEST_CASE("genai-perf metrics: embeddings keep every response, empty requests are skipped", "[genai_perf]") {
  PaRequest e;
  e.timestamp = 0;
  e.response_timestamps = {200'000'000};
  e.response_outputs = {"{\"data\":[]}"};
  const auto s = compute_statistics({e}, Format::kEmbeddings);
  std::vector<std::string> keys;
  for (auto it = s.begin(); it != s.end(); ++it) keys.push_back(it.key());
  CHECK(keys == Words{"request_throughput", "request_latency", "request_count"});
  CHECK(s["request_latency"]["avg"].get<double>() == Approx(200.0));
  CHECK(s["request_throughput"]["avg"].get<double>() == Approx(5.0));
  // A chat request whose responses are all empty is not counted, but still divides throughput.
  PaRequest empty;
  empty.timestamp = 0;
  empty.response_timestamps = {10};
  empty.response_outputs = {"data: [DONE]\n\n"};
  PaRequest one;
  one.timestamp = 0;
  one.response_timestamps = {500'000'000};
  one.response_outputs = {"{\"object\":\"chat.completion\",\"choices\":[{\"message\":{\"content\":\"hi\"}}]}"};
  one.output_tokens = 1;
  const auto c = compute_statistics({empty, one}, Format::kChat);
  CHECK(c["request_count"]["avg"].get<double>() == 1.0);
  CHECK(c["request_throughput"]["avg"].get<double>() == Approx(4.0));
  CHECK_FALSE(c.contains("inter_token_latency"));
  CHECK_FALSE(c.contains("time_to_second_token"));
  CHECK(response_text("data: {\"choices\":[{\"text\":\"a\"}]}\n\ndata: {\"choices\":[{\"text\":\"b\"}]}\n\n",
                      Format::kCompletions) == "ab");
  CHECK(response_text(": ping\n\n", Format::kChat).empty());
}

TEST_CASE("genai-perf CSV and console layouts", "[genai_perf]") {
  nlohmann::ordered_json s;
  s["request_throughput"] = {{"unit", "requests/sec"}, {"avg", 1234.5678}};
  s["request_latency"] = {{"unit", "ms"}, {"avg", 1.0}, {"p1", 1.0}, {"p5", 1.0}, {"p10", 1.0}, {"p25", 1.0},
                          {"p50", 1.0}, {"p75", 1.0}, {"p90", 1.0}, {"p95", 1.0}, {"p99", 1.0}, {"min", 1.0},
                          {"max", 2.0}, {"std", 0.0}};
  s["request_count"] = {{"unit", "count"}, {"avg", 3.0}};
  CHECK(csv_text(s, Format::kEmbeddings, false) ==
        "Metric,avg,min,max,p99,p95,p90,p75,p50,p25,p10,p5,p1\r\n"
        "Request Latency (ms),1.00,1.00,2.00,1.00,1.00,1.00,1.00,1.00,1.00,1.00,1.00,1.00\r\n"
        "\r\n"
        "Metric,Value\r\n"
        "Request Throughput (per sec),\"1,234.57\"\r\n"
        "Request Count (count),3.00\r\n");
  // Non-streaming chat: streaming rows are left out, missing metrics are N/A.
  const std::string chat = csv_text(s, Format::kChat, false);
  CHECK(chat.find("Time To First Token") == std::string::npos);
  CHECK(chat.find("Output Sequence Length (tokens),N/A,N/A") != std::string::npos);
  CHECK(chat.find("Output Token Throughput (tokens/sec),N/A\r\n") != std::string::npos);
  const std::string table = console_table(s, Format::kEmbeddings, false);
  CHECK(table.find("NVIDIA GenAI-Perf | Embeddings Metrics") != std::string::npos);
  CHECK(table.find("│         Request Latency (ms) │     1.00 │ 1.00 │ 2.00 │ 1.00 │ 1.00 │ 1.00 │\n") != std::string::npos);
  CHECK(table.find("│ Request Throughput (per sec) │ 1,234.57 │  N/A │  N/A │  N/A │  N/A │  N/A │\n") !=
        std::string::npos);
  // Wide values narrow the name column (rich fits 80 columns): words wrap, a word too long for
  // the column ends in an ellipsis (as a reference run on a loaded machine printed it).
  nlohmann::ordered_json w;
  w["output_token_throughput_per_user"] = {{"unit", "tokens/sec/user"}, {"avg", 23412.13}, {"min", 108.75},
                                           {"max", 466635.56}, {"p99", 378028.80}, {"p90", 254.47}, {"p75", 195.0}};
  const std::string wide = console_table(w, Format::kChat, true);
  CHECK(wide.find("┃   Statistic ┃       avg ┃    min ┃        max ┃        p99 ┃    p90 ┃    p75 ┃\n") !=
        std::string::npos);
  CHECK(wide.find("│      Output │ 23,412.13 │ 108.75 │ 466,635.56 │ 378,028.80 │ 254.47 │ 195.00 │\n"
                  "│       Token │           │        │            │            │        │        │\n"
                  "│  Throughput │           │        │            │            │        │        │\n"
                  "│    Per User │           │        │            │            │        │        │\n"
                  "│ (tokens/se… │           │        │            │            │        │        │\n") != std::string::npos);
  CHECK(format_stat(-1234567.891) == "-1,234,567.89");
  CHECK(format_stat(0.005) == "0.01");
}

TEST_CASE("genai-perf exports: our raw records become perf_analyzer's layout", "[genai_perf]") {
  std::istringstream raw(
      R"({"metadata":{"x_request_id":"r1","request_start_ns":1000,"benchmark_phase":"profiling"},"start_perf_ns":50,"payload":{"model":"m"},"status":200,"responses":[{"perf_ns":150,"packets":[{"name":"data","value":"{}"}]},{"perf_ns":170,"packets":[{"name":"data","value":"[DONE]"}]}]})"
      "\n"
      R"({"metadata":{"x_request_id":"w","request_start_ns":10,"benchmark_phase":"warmup"},"start_perf_ns":0,"responses":[]})"
      "\n"
      R"({"metadata":{"x_request_id":"r2","request_start_ns":900,"benchmark_phase":"profiling"},"start_perf_ns":0,"payload":{"model":"m"},"status":200,"responses":[{"perf_ns":300,"text":"{\"x\":1}"}]})"
      "\n");
  std::istringstream records(
      R"({"metadata":{"x_request_id":"r1"},"metrics":{"input_sequence_length":{"value":7},"output_token_count":{"value":3},"output_sequence_length":{"value":5}}})"
      "\n");
  const std::vector<PaRequest> reqs = requests_from_exports(raw, records);
  REQUIRE(reqs.size() == 2);
  CHECK(reqs[0].timestamp == 900);  // request order
  CHECK(reqs[0].response_timestamps == std::vector<int64_t>{1200});
  CHECK(reqs[0].response_outputs == Words{"{\"x\":1}"});
  CHECK(reqs[1].response_timestamps == std::vector<int64_t>{1100, 1120});
  CHECK(reqs[1].response_outputs == Words{"data: {}\n\n", "data: [DONE]\n\n"});
  CHECK(reqs[1].input_tokens == 7);
  CHECK(reqs[1].output_tokens == 3);  // the content's count, not reasoning included
  const auto pa = pa_profile_export(reqs, "concurrency", 2, "openai", "v1/chat/completions", "0.1.0");
  CHECK(pa.dump() ==
        R"({"experiments":[{"experiment":{"mode":"concurrency","value":2},"requests":[)"
        R"({"timestamp":900,"request_inputs":{"payload":"{\"model\":\"m\"}"},"response_timestamps":[1200],"response_outputs":[{"response":"{\"x\":1}"}]},)"
        R"({"timestamp":1000,"request_inputs":{"payload":"{\"model\":\"m\"}"},"response_timestamps":[1100,1120],"response_outputs":[{"response":"data: {}\n\n"},{"response":"data: [DONE]\n\n"}]}],)"
        R"("window_boundaries":[900,1200]}],"version":"0.1.0","service_kind":"openai","endpoint":"v1/chat/completions"})");
  const auto inputs = genai_inputs(
      nlohmann::ordered_json::parse(R"({"data":[{"session_id":"s","payloads":[{"z":1,"a":0},{"b":2}]}]})"));
  CHECK(inputs.dump() == R"({"data":[{"payload":[{"z":1,"a":0}]},{"payload":[{"b":2}]}]})");  // key order kept
}
