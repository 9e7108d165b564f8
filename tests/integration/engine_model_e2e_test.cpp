// The mock's engine model (--engine-slots) under aiperf: at concurrency 1 vs 8 against 4 slots,
// TTFT rises by a queue wait, ITL by the bigger batch, and output throughput saturates at the
// ceiling the model predicts (docs/user-guide.md "Engine model"). Bounds are loose: they are
// derived from the model, the tolerance only absorbs the client's and the scheduler's delays.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "process.h"

using aiperf::test::MockServer;
using nlohmann::json;

namespace {

// 4 slots, prefill 10000 tokens/s, decode step 10 + 2 x n ms.
constexpr double kPrefillPerS = 10000, kStepMs = 10, kPerSeqMs = 2;
constexpr int kSlots = 4, kOutput = 20;

aiperf::test::ProfileRun profile(const std::string& url, int concurrency, int requests) {
  const std::string tmp = aiperf::test::make_temp_dir();
  return aiperf::test::run_profile(
      tmp + "/artifacts",
      {"--tokenizer", "gpt2", "--model", "m", "--url", url, "--streaming", "--isl", "100", "--osl",
       std::to_string(kOutput), "--extra-inputs", "ignore_eos:true", "--concurrency", std::to_string(concurrency),
       "--request-count", std::to_string(requests), "--ui-type", "none"},
      tmp);
}

// One series' stats from server_metrics_export.json (the mock's /metrics as aiperf scraped it).
json server_stats(const aiperf::test::ProfileRun& run, const std::string& name) {
  return run.json_file("server_metrics_export.json")["metrics"][name]["series"][0]["stats"];
}

double avg(const json& summary, const char* metric) { return summary[metric]["avg"].get<double>(); }

}  // namespace

TEST_CASE("engine model: TTFT and ITL rise with load and throughput saturates at the model's ceiling", "[e2e]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  MockServer mock({"--engine-slots", std::to_string(kSlots), "--engine-prefill-tokens-per-s", "10000",
                   "--engine-step-ms", "10", "--engine-step-per-seq-ms", "2"},
                  tmp);

  const auto one = profile(mock.url(), 1, 8);
  INFO(one.out << one.err);
  REQUIRE(one.exit_code == 0);
  const auto eight = profile(mock.url(), 8, 32);
  INFO(eight.out << eight.err);
  REQUIRE(eight.exit_code == 0);
  const json s1 = one.summary(), s8 = eight.summary();
  REQUIRE(s1["request_count"]["avg"] == 8);
  REQUIRE(s8["request_count"]["avg"] == 32);
  CHECK(s8["output_sequence_length"]["min"] == kOutput);

  // The prompt length the mock charges prefill for (its own count, as in usage.prompt_tokens).
  const double prompt = server_stats(eight, "vllm:prompt_tokens")["total"].get<double>() / 32;
  REQUIRE(prompt > 50);
  const double prefill_ms = prompt / kPrefillPerS * 1000;  // ~12 ms
  const double step1 = kStepMs + kPerSeqMs * 1, step4 = kStepMs + kPerSeqMs * kSlots;  // 12, 18 ms
  const double wave_ms = prefill_ms + (kOutput - 1) * step4;                            // ~354 ms
  const double ceiling = kSlots * kOutput / wave_ms * 1000;                              // ~226 tokens/s
  const double alone = kOutput / (prefill_ms + (kOutput - 1) * step1) * 1000;            // ~83 tokens/s
  INFO("prompt " << prompt << " wave " << wave_ms << " ms, ceiling " << ceiling << " tokens/s");

  // Concurrency 1: no queue, a batch of one.
  CHECK(s1["time_to_first_token"]["p50"].get<double>() >= prefill_ms * 0.9);
  CHECK(s1["time_to_first_token"]["p50"].get<double>() <= prefill_ms + 30);
  CHECK(avg(s1, "inter_token_latency") == Approx(step1).epsilon(0.2));
  CHECK(avg(s1, "output_token_throughput") == Approx(alone).epsilon(0.2));

  // Concurrency 8: the first 4 start at once; every later request waits a whole wave for a slot.
  CHECK(s8["time_to_first_token"]["min"].get<double>() <= prefill_ms + 30);
  CHECK(s8["time_to_first_token"]["p50"].get<double>() >= 0.85 * (wave_ms + prefill_ms));
  CHECK(s8["time_to_first_token"]["p50"].get<double>() <= 1.3 * (wave_ms + prefill_ms));
  CHECK(avg(s8, "inter_token_latency") == Approx(step4).epsilon(0.2));
  CHECK(avg(s8, "inter_token_latency") > 1.25 * avg(s1, "inter_token_latency"));
  // Saturation: near the ceiling and never above it (the engine cannot go faster).
  const double throughput = avg(s8, "output_token_throughput");
  CHECK(throughput >= 0.75 * ceiling);
  CHECK(throughput <= 1.03 * ceiling);
  CHECK(throughput > 2 * avg(s1, "output_token_throughput"));

  // What the engine did, as --server-metrics read it from the mock's /metrics.
  CHECK(server_stats(one, "vllm:num_requests_waiting")["max"] == 0);
  CHECK(server_stats(one, "vllm:num_requests_running")["max"].get<double>() <= 1);
  CHECK(server_stats(eight, "vllm:num_requests_running")["max"] == kSlots);
  CHECK(server_stats(eight, "vllm:num_requests_waiting")["max"] == 8 - kSlots);
  CHECK(server_stats(eight, "vllm:kv_cache_usage_perc")["max"] == 1);
  CHECK(server_stats(eight, "vllm:generation_tokens")["total"] == 32 * kOutput);
  // Queue time: none alone; at 8, 28 of the 32 requests waited about a wave.
  CHECK(server_stats(one, "vllm:request_queue_time_seconds")["sum"] == 0);
  CHECK(server_stats(eight, "vllm:request_queue_time_seconds")["count"] == 32);
  CHECK(server_stats(eight, "vllm:request_queue_time_seconds")["sum"].get<double>() >= 0.7 * 28 * wave_ms / 1000);
  CHECK(server_stats(eight, "vllm:request_queue_time_seconds")["sum"].get<double>() <= 1.3 * 28 * wave_ms / 1000);
}

TEST_CASE("engine model: a full queue answers 429, which aiperf records as errors", "[e2e]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  MockServer mock({"--engine-slots", "2", "--engine-max-queue", "0", "--engine-step-ms", "5"}, tmp);
  const auto run = profile(mock.url(), 4, 40);
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);  // some requests succeeded
  const json s = run.summary();
  // 4 clients on 2 slots without a queue: some requests are refused, the others complete.
  CHECK(s["request_count"]["avg"].get<int>() >= 2);
  CHECK(s["error_request_count"]["avg"].get<int>() >= 2);
  CHECK(s["request_count"]["avg"].get<int>() + s["error_request_count"]["avg"].get<int>() == 40);
  bool saw_429 = false;
  for (const json& r : run.records())
    if (r.contains("error") && !r["error"].is_null() && r["error"]["code"] == 429) saw_429 = true;
  CHECK(saw_429);
}

TEST_CASE("engine model: options the engine cannot work with are refused at start", "[e2e]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  aiperf::test::Process fast(std::string(AIPERF_BIN_DIR) + "/aiperf-mock-server",
                             {"--port", "0", "--engine-slots", "4", "--fast"}, tmp, "fast");
  CHECK(fast.wait(30) == 2);
  CHECK(fast.err().find("--engine-slots cannot be combined with --fast") != std::string::npos);
  aiperf::test::Process processes(std::string(AIPERF_BIN_DIR) + "/aiperf-mock-server",
                                  {"--port", "0", "--engine-slots", "4", "--processes", "2"}, tmp, "processes");
  CHECK(processes.wait(30) == 2);
  CHECK(processes.err().find("--engine-slots cannot be combined with --processes 2") != std::string::npos);
}
