// End-to-end: KServe v2 over gRPC (--endpoint-type kserve, grpc:// URLs) against the mock's gRPC
// mode (--grpc-port): ModelStreamInfer and ModelInfer give the same records and metrics as HTTP
// (token counts exact, TTFT/ITL/latency on the mock's schedule), and a server that is gone, too
// slow or stalled gives one error record per credit and a clean exit.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <chrono>
#include <regex>
#include <set>

#include "process.h"

using aiperf::test::MockServer;
using nlohmann::json;

namespace {

using Run = aiperf::test::ProfileRun;

Run profile(const std::string& tmp, std::vector<std::string> args, double timeout_s = 120) {
  std::vector<std::string> full{"--tokenizer", "gpt2",    "--ui-type",       "none",
                                "--model",     "trt-llm", "--endpoint-type", "kserve"};
  full.insert(full.end(), args.begin(), args.end());
  return aiperf::test::run_profile(tmp + "/artifacts", full, tmp, "aiperf", timeout_s);
}

// The mock's grpc:// URL (its gRPC line is printed before the HTTP one MockServer waits for).
std::string grpc_url(MockServer& mock) {
  std::smatch m;
  const std::string out = mock.process().out();
  REQUIRE(std::regex_search(out, m, std::regex(R"(gRPC listening on (grpc://[^\s]+))")));
  return m[1];
}

double avg(const json& summary, const char* metric) { return summary[metric]["avg"].get<double>(); }

}  // namespace

TEST_CASE("kserve streaming over gRPC: ModelStreamInfer, exact tokens, TTFT and ITL on the mock's schedule",
          "[e2e][kserve]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  MockServer mock({"--grpc-port", "0", "--ttft", "40", "--itl", "10"}, tmp);
  Run run = profile(tmp, {"--url", grpc_url(mock), "--streaming", "--concurrency", "4", "--request-count", "20",
                          "--synthetic-input-tokens-mean", "100", "--output-tokens-mean", "12", "--extra-inputs",
                          "ignore_eos:true", "--random-seed", "7"});
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);
  CHECK(run.out.find("NVIDIA AIPerf | LLM Metrics") != std::string::npos);
  const json s = run.summary();
  CHECK(s["request_count"]["avg"] == 20);
  CHECK(s["input_sequence_length"]["min"] == 100);
  CHECK(s["input_sequence_length"]["max"] == 100);
  // Every token is one streamed response whose text_output is one GPT-2 token of the mock's pool.
  CHECK(s["output_sequence_length"]["min"] == 12);
  CHECK(s["output_sequence_length"]["max"] == 12);
  // The mock sends token i at arrival + 40 + 10 i ms (absolute times: no drift), so the first
  // token never comes earlier and the tokens are 10 ms apart on average; the margins above are
  // the loopback's and a loaded (sanitizer) host's scheduler.
  CHECK(s["time_to_first_token"]["min"].get<double>() >= 40.0);
  CHECK(avg(s, "time_to_first_token") < 40.0 + 50.0);
  CHECK(avg(s, "inter_token_latency") >= 9.0);
  CHECK(avg(s, "inter_token_latency") <= 13.0);
  CHECK(s["request_latency"]["min"].get<double>() >= 40.0 + 11 * 10.0);

  const auto records = run.records();
  REQUIRE(records.size() == 20);
  std::set<uint64_t> sessions;
  for (const json& r : records) {
    CHECK_FALSE(r.contains("error"));
    CHECK(r["metrics"]["output_sequence_length"]["value"] == 12);
    CHECK(r["metrics"]["inter_chunk_latency"]["value"].size() == 11);  // 12 responses, 11 gaps
    sessions.insert(r["metadata"]["session_num"].get<uint64_t>());
  }
  CHECK(sessions.size() == 20);  // one record per credit

  // The payload is the KServe JSON inference request: TensorRT-LLM's tensors, as GenAI-Perf sends.
  const json payload = run.inputs()["data"][0]["payloads"][0];
  REQUIRE(payload["inputs"].size() == 4);
  CHECK(payload["inputs"][0]["name"] == "text_input");
  CHECK(payload["inputs"][0]["datatype"] == "BYTES");
  CHECK(payload["inputs"][0]["shape"] == json::array({1, 1}));
  CHECK(payload["inputs"][1] == json::parse(R"({"name":"max_tokens","datatype":"INT32","shape":[1,1],"data":[12]})"));
  CHECK(payload["inputs"][2] == json::parse(R"({"name":"stream","datatype":"BOOL","shape":[1,1],"data":[true]})"));
  CHECK(payload["inputs"][3] == json::parse(R"({"name":"ignore_eos","datatype":"BOOL","shape":[1,1],"data":[true]})"));
}

TEST_CASE("kserve non-streaming over gRPC: ModelInfer, one response with the whole text", "[e2e][kserve]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  MockServer mock({"--grpc-port", "0", "--ttft", "30", "--itl", "5"}, tmp);
  Run run = profile(tmp, {"--url", grpc_url(mock), "--concurrency", "3", "--request-count", "12", "--isl", "50",
                          "--osl", "8", "--extra-inputs", "ignore_eos:true"});
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);
  const json s = run.summary();
  CHECK(s["request_count"]["avg"] == 12);
  CHECK(s["output_sequence_length"]["min"] == 8);
  CHECK(s["output_sequence_length"]["max"] == 8);
  // Answered when the last of 8 tokens is due: 30 + 7 x 5 ms after the request arrived.
  CHECK(s["request_latency"]["min"].get<double>() >= 65.0);
  CHECK(avg(s, "request_latency") < 65.0 + 50.0);
  CHECK_FALSE(s.contains("time_to_first_token"));  // streaming-only metric
  const auto records = run.records();
  REQUIRE(records.size() == 12);
  for (const json& r : records) CHECK_FALSE(r.contains("error"));
  CHECK(run.inputs()["data"][0]["payloads"][0]["inputs"].size() == 3);  // no stream tensor
}

TEST_CASE("kserve faults: server gone, deadline, stalled server: one error record per credit, clean exit",
          "[e2e][kserve]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  SECTION("nobody listens: UNAVAILABLE") {
    const int port = aiperf::test::free_port_range(1);
    Run run = profile(tmp, {"--url", "grpc://127.0.0.1:" + std::to_string(port), "--streaming", "--concurrency", "2",
                            "--request-count", "6", "--isl", "10", "--osl", "4"});
    INFO(run.out << run.err);
    CHECK(run.exit_code == 1);  // no request succeeded
    const auto records = run.records();
    REQUIRE(records.size() == 6);
    for (const json& r : records) {
      CHECK(r["error"]["type"] == "InferenceServerException");
      CHECK(r["error"]["message"].get<std::string>().rfind("[StatusCode.UNAVAILABLE] ", 0) == 0);
    }
  }
  SECTION("first token after a minute, --request-timeout-seconds 0.5: TimeoutError at the deadline") {
    MockServer mock({"--grpc-port", "0", "--ttft", "60000"}, tmp);
    for (const bool streaming : {true, false}) {
      std::vector<std::string> args{"--url", grpc_url(mock), "--concurrency", "3", "--request-count",           "3",
                                    "--isl", "10",           "--osl",         "4", "--request-timeout-seconds", "0.5"};
      if (streaming) args.push_back("--streaming");
      Run run = profile(tmp + (streaming ? "/s" : "/u"), args);
      INFO(run.out << run.err);
      CHECK(run.exit_code == 1);
      const auto records = run.records();
      REQUIRE(records.size() == 3);
      for (const json& r : records) {
        CHECK(r["error"]["type"] == "TimeoutError");
        CHECK(r["error"]["message"] == "Request timed out after 0.5 seconds");
        const int64_t took =
            r["metadata"]["request_end_ns"].get<int64_t>() - r["metadata"]["request_start_ns"].get<int64_t>();
        CHECK(took >= 500'000'000);
        CHECK(took < 3'000'000'000);
      }
    }
  }
  SECTION("stalled server, duration run: the calls in flight are cancelled after the grace period") {
    MockServer mock({"--grpc-port", "0", "--ttft", "600000"}, tmp);
    const auto start = std::chrono::steady_clock::now();
    Run run = profile(tmp, {"--url", grpc_url(mock), "--streaming", "--concurrency", "3", "--benchmark-duration", "1",
                            "--benchmark-grace-period", "1", "--isl", "10"});
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    INFO(run.out << run.err);
    CHECK(run.exit_code == 1);
    CHECK(elapsed < 30);  // far from the server's 10 minutes
    const auto records = run.records();
    REQUIRE(records.size() == 3);
    for (const json& r : records) {
      CHECK(r["error"]["code"] == 499);
      CHECK(r["error"]["type"] == "RequestCancellationError");
      CHECK(r["metadata"]["was_cancelled"] == true);
    }
  }
}

TEST_CASE("kserve options: gRPC URLs need kserve, kserve needs a gRPC URL, no scheme means grpc://", "[e2e][kserve]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  const auto dry = [&](std::vector<std::string> args) {
    std::vector<std::string> full{"--tokenizer", "gpt2", "--model", "m", "--dry-run"};
    full.insert(full.end(), args.begin(), args.end());
    return aiperf::test::run_profile(tmp + "/artifacts", full, tmp, "dry");
  };
  Run chat = dry({"--url", "grpc://h:8001"});
  CHECK(chat.exit_code == 2);
  CHECK(chat.err.find("--url: 'grpc://h:8001': grpc:// and grpcs:// URLs need --endpoint-type kserve") !=
        std::string::npos);
  Run http = dry({"--endpoint-type", "kserve", "--url", "http://h:8000"});
  CHECK(http.exit_code == 2);
  CHECK(http.err.find("is not a grpc:// or grpcs:// URL") != std::string::npos);
  Run transport = dry({"--transport", "grpc", "--url", "h:8001"});
  CHECK(transport.exit_code == 2);
  CHECK(transport.err.find("--transport grpc: KServe v2 over gRPC needs --endpoint-type kserve") != std::string::npos);
  Run plain = dry({"--endpoint-type", "kserve", "--url", "h:8001", "--transport", "grpc"});
  INFO(plain.out << plain.err);
  CHECK(plain.exit_code == 0);
}
