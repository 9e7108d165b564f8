// End-to-end: AIPerf 0.13's prompt-cache usage metrics, its speculative-decoding metrics and the
// usage discrepancy threshold (issue 15), against the mock scripted to report known cache
// counts (--usage-cached-tokens, --usage-fields) and vLLM's per-request acceptance stats
// (--spec-decode), so every figure the run writes is known in advance.
#include <cmath>
#include <cstdlib>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "process.h"

using nlohmann::json;
using namespace aiperf::test;

namespace {

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

double value(const json& record, const char* tag) { return record["metrics"][tag]["value"].get<double>(); }

struct Run {
  std::string tmp;
  std::unique_ptr<MockServer> mock;
  ProfileRun run;
};

// 6 requests of 50 input and exactly 10 output tokens.
Run run_against(const std::vector<std::string>& mock_args, const std::vector<std::string>& args) {
  Run r;
  r.tmp = make_temp_dir();
  r.mock = std::make_unique<MockServer>(mock_args, r.tmp);
  std::vector<std::string> full{"--url",
                                r.mock->url(),
                                "--random-seed",
                                "5",
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
                                "--request-count",
                                "6",
                                "--concurrency",
                                "2"};
  full.insert(full.end(), args.begin(), args.end());
  r.run = run_named(r.tmp, "run", full);
  return r;
}

const std::vector<std::string> kScriptedMock{"--fast",
                                             "--usage-cached-tokens",
                                             "16",
                                             "--usage-fields",
                                             R"({"cache_creation_input_tokens":4,"prompt_cache_miss_tokens":7})",
                                             "--spec-decode",
                                             "3:2,0,3"};

}  // namespace

TEST_CASE("usage cache and spec decode: streamed chat with scripted usage gives exact metrics", "[e2e]") {
  // The mock labels its SGLang gauges model_name="mock": a second model name makes the run's.
  Run r = run_against(kScriptedMock, {"--endpoint-type", "chat", "--streaming", "--model", "mock"});
  INFO(r.run.out << r.run.err);
  REQUIRE(r.run.exit_code == 0);
  const auto records = r.run.records();
  REQUIRE(records.size() == 6);
  // 10 tokens: the first from the prefill, then verify steps accepting 2, 0, 3 and (1 token
  // left) 0 drafts of 3: histogram [2, 0, 1, 1], 5 of 12 drafts accepted in 4 steps.
  const json expected_acceptance =
      json::parse(R"({"engine":"vllm","mean_acceptance_length":2.25,"draft_acceptance_rate":0.4166666666666667,)"
                  R"("acceptance_histogram":{"0":2,"2":1,"3":1},"num_accepted_draft_tokens":5,"num_draft_tokens":12,)"
                  R"("num_spec_steps":4,"num_spec_tokens":3,"completion_tokens":10})");
  double usage_prompt = 0;
  for (const json& rec : records) {
    CHECK(value(rec, "usage_prompt_cache_read_tokens") == 16);
    CHECK(value(rec, "usage_prompt_cache_write_tokens") == 4);
    CHECK(value(rec, "usage_prompt_cache_miss_tokens") == 7);
    CHECK(rec["metrics"]["usage_prompt_cache_read_tokens"]["unit"] == "tokens");
    CHECK(value(rec, "spec_decode_acceptance_length") == 2.25);
    CHECK(value(rec, "spec_decode_draft_acceptance_rate") == Approx(500.0 / 12.0));
    CHECK(value(rec, "spec_decode_accepted_per_verified") == 0.5625);  // (5 + 4) / (12 + 4)
    CHECK(value(rec, "spec_decode_steps") == 4);
    CHECK(value(rec, "spec_decode_accepted_draft_tokens") == 5);
    CHECK(value(rec, "spec_decode_draft_tokens") == 12);
    CHECK(rec["spec_decode_acceptance"] == expected_acceptance);
    usage_prompt += value(rec, "usage_prompt_tokens");
  }

  const json summary = r.run.summary();
  CHECK(summary["usage_prompt_cache_read_tokens"]["avg"] == 16.0);
  CHECK(summary["total_usage_prompt_cache_read_tokens"]["avg"] == 96);
  CHECK(summary["total_usage_prompt_cache_write_tokens"]["avg"] == 24);
  CHECK(summary["total_usage_prompt_cache_miss_tokens"]["avg"] == 42);
  CHECK(summary["overall_usage_prompt_cache_read_pct"]["avg"].get<double>() == Approx(96.0 / usage_prompt * 100.0));
  CHECK(summary["overall_usage_prompt_cache_read_pct"]["unit"] == "%");
  CHECK(summary["total_spec_decode_steps"]["avg"] == 24);
  CHECK(summary["total_accepted_draft_tokens"]["avg"] == 30);
  CHECK(summary["total_draft_tokens"]["avg"] == 72);
  CHECK(summary["spec_decode_token_weighted_acceptance_length"]["avg"] == 2.25);  // 1 + 30 / 24
  CHECK(summary["spec_decode_overall_draft_acceptance_rate"]["avg"].get<double>() == Approx(3000.0 / 72.0));
  CHECK(summary["pooled_spec_decode_acceptance_histogram"] == json::parse(R"({"0":12,"2":6,"3":6})"));

  const std::string csv = read_file(r.run.dir + "/profile_export_aiperf.csv");
  CHECK(has(csv, "Usage Prompt Cache Read Tokens (tokens),16.00,16.00,16.00,96.00,"));
  CHECK(has(csv, "Total Usage Prompt Cache Read Tokens (tokens),96.00\r\n"));
  CHECK(has(csv, "Overall Draft Acceptance Rate (%),41.67\r\n"));
  CHECK(has(csv, "Spec Decode Steps,4.00,4.00,4.00,24.00,"));

  CHECK(has(r.run.out, "NVIDIA AIPerf | LLM Metrics: Usage"));
  CHECK(has(r.run.out, "NVIDIA AIPerf | LLM Metrics: Spec Decode"));
  CHECK(has(r.run.out, "\n  Accepted drafts per step (% of steps):  0: 50%   1: 0%   2: 25%   3: 25%\n"));
  CHECK_FALSE(has(r.run.out, "Token usage is reported but no prompt-cache read tokens were seen"));
  // SGLang's scheduler gauges the mock exposes (drafts 2, 0, 3 of 3 accepted per step: rate 5/9,
  // length 1 + 5/3), the leader rank's only.
  CHECK(has(r.run.out,
            " NVIDIA AIPerf | Server Metrics: Speculative Decoding\n"
            "+----------------------------------------------------+\n"
            "| Metric          | mean |  min |  max |  p50 |  p90 |\n"
            "|-----------------+------+------+------+------+------|\n"
            "| Accept Rate (%) | 55.6 | 55.6 | 55.6 | 55.6 | 55.6 |\n"
            "| Accept Length   | 2.67 | 2.67 | 2.67 | 2.67 | 2.67 |\n"));

  // process-export-files rebuilds the summary from the records: the pooled histogram too.
  const std::string merged = r.tmp + "/merged";
  Process merge(std::string(AIPERF_BIN_DIR) + "/aiperf", {"process-export-files", r.run.dir, "--output-dir", merged},
                r.tmp, "merge");
  const auto rc = merge.wait(60);
  INFO(merge.out() << merge.err());
  REQUIRE(rc == 0);
  const json m = json::parse(read_file(merged + "/profile_export_aiperf.json"));
  CHECK(m["pooled_spec_decode_acceptance_histogram"] == json::parse(R"({"0":12,"2":6,"3":6})"));
  CHECK(m["total_spec_decode_steps"]["avg"] == 24);
  CHECK(m["total_usage_prompt_cache_read_tokens"]["avg"] == 96);
}

TEST_CASE("spec decode: a non-streaming completions body carries the stats too", "[e2e]") {
  Run r = run_against({"--fast", "--spec-decode", "4"}, {"--endpoint-type", "completions"});
  INFO(r.run.out << r.run.err);
  REQUIRE(r.run.exit_code == 0);
  const auto records = r.run.records();
  REQUIRE(records.size() == 6);
  for (const json& rec : records) {
    // Every draft accepted: steps of 4 + 1 tokens cover 9 tokens in 2 steps (4, then 3 of 4).
    CHECK(value(rec, "spec_decode_steps") == 2);
    CHECK(value(rec, "spec_decode_accepted_draft_tokens") == 7);
    CHECK(value(rec, "spec_decode_draft_tokens") == 8);
    CHECK(rec["spec_decode_acceptance"]["acceptance_histogram"] == json::parse(R"({"3":1,"4":1})"));
  }
  CHECK(r.run.summary()["pooled_spec_decode_acceptance_histogram"] == json::parse(R"({"3":6,"4":6})"));
  // The mock reports no cached_tokens: AIPerf's hint, in the console and once in the log.
  CHECK(has(r.run.out,
            "\nToken usage is reported but no prompt-cache read tokens were seen "
            "(usage.prompt_tokens_details.cached_tokens absent). If your server uses \n"));
  CHECK_FALSE(r.run.summary().contains("total_usage_prompt_cache_read_tokens"));
}

TEST_CASE("usage discrepancy threshold: AIPERF_METRICS_USAGE_PCT_DIFF_THRESHOLD", "[e2e]") {
  // Records whose prompt or completion usage is off our count by more than `threshold` percent,
  // from the per-record diffs the run wrote.
  auto over = [](const std::vector<json>& records, double threshold) {
    int n = 0;
    for (const json& rec : records) {
      const json& m = rec["metrics"];
      n += m["usage_prompt_tokens_diff_pct"]["value"].get<double>() > threshold ||
           m["usage_completion_tokens_diff_pct"]["value"].get<double>() > threshold;
    }
    return n;
  };

  Run plain = run_against({"--fast"}, {"--endpoint-type", "chat"});
  INFO(plain.run.out << plain.run.err);
  REQUIRE(plain.run.exit_code == 0);
  // The mock counts the chat template's tokens too, so the prompt diffs are well above 10 %.
  const int expected = over(plain.run.records(), 10.0);
  REQUIRE(expected > 0);
  CHECK(plain.run.summary()["usage_discrepancy_count"]["avg"] == expected);
  CHECK(has(plain.run.out, "show a difference exceeding 10% between:"));
  CHECK(has(plain.run.out, "4. Adjust threshold: AIPERF_METRICS_USAGE_PCT_DIFF_THRESHOLD=10 "));

  {
    ScopedEnv env("AIPERF_METRICS_USAGE_PCT_DIFF_THRESHOLD", "99.5");
    Run lenient = run_against({"--fast"}, {"--endpoint-type", "chat"});
    INFO(lenient.run.out << lenient.run.err);
    REQUIRE(lenient.run.exit_code == 0);
    REQUIRE(over(lenient.run.records(), 99.5) == 0);
    CHECK(lenient.run.summary()["usage_discrepancy_count"]["avg"] == 0);
    CHECK_FALSE(has(lenient.run.out, "Token Count Discrepancy Warning"));
  }
  {
    ScopedEnv env("AIPERF_METRICS_USAGE_PCT_DIFF_THRESHOLD", "150");
    Run bad = run_against({"--fast"}, {"--endpoint-type", "chat"});
    CHECK(bad.run.exit_code == 2);
    CHECK(has(bad.run.err, "AIPERF_METRICS_USAGE_PCT_DIFF_THRESHOLD"));
  }
}
