#include "export/console_table.h"

#include <catch2/catch.hpp>

#include "results_fixtures.h"

using namespace aiperf;
using namespace aiperf::exporting;
using namespace aiperf::exporting::testing;
namespace f = aiperf::metrics::flags;

namespace {

// The README example of spec 7.7, rebuilt from its numbers (rows added out of order).
proto::ProfileResults readme_results() {
  proto::ProfileResults res;
  const Dist ttft{7463.28, 7125.81, 9484.24, 0, 0, 0, 0, 0, 7240.23, 0, 7596.62, 0, 9295.48, 677.23};
  scalar_metric(res, "request_count", "Request Count", "requests",
                f::kLargerIsBetter | f::kNoIndividualRecords, 1100, 10, true);
  record_metric(res, "inter_chunk_latency", "Inter Chunk Latency", "ms",
                f::kStreamingTokensOnly | f::kNoConsole, 0, ttft);
  record_metric(res, "time_to_first_token", "Time to First Token", "ms", f::kStreamingTokensOnly,
                100, ttft);
  record_metric(res, "time_to_second_token", "Time to Second Token", "ms",
                f::kStreamingTokensOnly, 200,
                {68.73, 32.01, 102.86, 0, 0, 0, 0, 0, 67.37, 0, 99.80, 0, 102.55, 24.95});
  record_metric(res, "time_to_first_output_token", "Time to First Output Token", "ms",
                f::kStreamingTokensOnly | f::kSupportsReasoning, 210, ttft);
  record_metric(res, "request_latency", "Request Latency", "ms", f::kNone, 300,
                {13829.40, 9029.36, 27905.46, 0, 0, 0, 0, 0, 11338.31, 0, 21228.48, 0, 27237.77,
                 5614.32});
  record_metric(res, "inter_token_latency", "Inter Token Latency", "ms", f::kStreamingTokensOnly,
                400, {65.31, 53.06, 81.31, 0, 0, 0, 0, 0, 63.79, 0, 80.64, 0, 81.24, 9.09});
  record_metric(res, "output_token_throughput_per_user", "Output Token Throughput Per User",
                "tokens/sec/user", f::kStreamingTokensOnly | f::kLargerIsBetter, 500,
                {15.60, 12.30, 18.85, 0, 0, 0, 0, 0, 15.68, 0, 18.08, 0, 18.77, 2.05});
  record_metric(res, "output_sequence_length", "Output Sequence Length", "tokens",
                f::kProducesTokensOnly | f::kLargerIsBetter, 600,
                {95.20, 29, 295, 952, 0, 0, 0, 0, 63.00, 0, 176.20, 0, 283.12, 77.08}, true);
  record_metric(res, "input_sequence_length", "Input Sequence Length", "tokens",
                f::kTokenizesInputOnly | f::kLargerIsBetter, 700,
                {550, 550, 550, 5500, 550, 550, 550, 550, 550, 550, 550, 550, 550, 0}, true);
  scalar_metric(res, "output_token_throughput", "Output Token Throughput", "tokens/sec",
                f::kProducesTokensOnly | f::kLargerIsBetter, 800, 6.854);
  scalar_metric(res, "request_throughput", "Request Throughput", "requests/sec",
                f::kLargerIsBetter, 900, 0.072);
  scalar_metric(res, "error_request_count", "Error Request Count", "requests",
                f::kErrorOnly | f::kNoIndividualRecords, 0, 2, true);
  scalar_metric(res, "min_request_timestamp", "Minimum Request Timestamp", "ns",
                f::kNoConsole | f::kNoIndividualRecords | f::kInternal, 0, 1.7e18, true);
  return res;
}

}  // namespace

TEST_CASE("console table reproduces the AIPerf README example exactly") {
  const std::string expected =
R"(                                               NVIDIA AIPerf | LLM Metrics
┏━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━┳━━━━━━━━━━┳━━━━━━━━━━━┳━━━━━━━━━━━┳━━━━━━━━━━━┳━━━━━━━━━━━┳━━━━━━━━━━┓
┃                               Metric ┃       avg ┃      min ┃       max ┃       p99 ┃       p90 ┃       p50 ┃      std ┃
┡━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━╇━━━━━━━━━━╇━━━━━━━━━━━╇━━━━━━━━━━━╇━━━━━━━━━━━╇━━━━━━━━━━━╇━━━━━━━━━━┩
│             Time to First Token (ms) │  7,463.28 │ 7,125.81 │  9,484.24 │  9,295.48 │  7,596.62 │  7,240.23 │   677.23 │
│            Time to Second Token (ms) │     68.73 │    32.01 │    102.86 │    102.55 │     99.80 │     67.37 │    24.95 │
│      Time to First Output Token (ms) │  7,463.28 │ 7,125.81 │  9,484.24 │  9,295.48 │  7,596.62 │  7,240.23 │   677.23 │
│                 Request Latency (ms) │ 13,829.40 │ 9,029.36 │ 27,905.46 │ 27,237.77 │ 21,228.48 │ 11,338.31 │ 5,614.32 │
│             Inter Token Latency (ms) │     65.31 │    53.06 │     81.31 │     81.24 │     80.64 │     63.79 │     9.09 │
│     Output Token Throughput Per User │     15.60 │    12.30 │     18.85 │     18.77 │     18.08 │     15.68 │     2.05 │
│                    (tokens/sec/user) │           │          │           │           │           │           │          │
│      Output Sequence Length (tokens) │     95.20 │    29.00 │    295.00 │    283.12 │    176.20 │     63.00 │    77.08 │
│       Input Sequence Length (tokens) │    550.00 │   550.00 │    550.00 │    550.00 │    550.00 │    550.00 │     0.00 │
│ Output Token Throughput (tokens/sec) │      6.85 │      N/A │       N/A │       N/A │       N/A │       N/A │      N/A │
│    Request Throughput (requests/sec) │      0.07 │      N/A │       N/A │       N/A │       N/A │       N/A │      N/A │
│             Request Count (requests) │     10.00 │      N/A │       N/A │       N/A │       N/A │       N/A │      N/A │
└──────────────────────────────────────┴───────────┴──────────┴───────────┴───────────┴───────────┴───────────┴──────────┘
)";
  CHECK(format_console_table(readme_results(), "LLM Metrics", true) == expected);
}

TEST_CASE("console table in ASCII for non-terminals") {
  proto::ProfileResults res;
  scalar_metric(res, "request_count", "Request Count", "requests", f::kLargerIsBetter, 1100, 1234,
                true);
  record_metric(res, "request_latency", "Request Latency", "ms", f::kNone, 300,
                {1500.5, 1.0, 3000.0, 0, 0, 0, 0, 0, 1500.5, 0, 2700.0, 0, 2970.0, 1499.5});
  CHECK(format_console_table(res, "LLM Metrics", false) ==
        "                                     NVIDIA AIPerf | LLM Metrics\n"
        "+---------------------------------------------------------------------------------------------------+\n"
        "|                   Metric |      avg |  min |      max |      p99 |      p90 |      p50 |      std |\n"
        "|--------------------------+----------+------+----------+----------+----------+----------+----------|\n"
        "|     Request Latency (ms) | 1,500.50 | 1.00 | 3,000.00 | 2,970.00 | 2,700.00 | 1,500.50 | 1,499.50 |\n"
        "| Request Count (requests) | 1,234.00 |  N/A |      N/A |      N/A |      N/A |      N/A |      N/A |\n"
        "+---------------------------------------------------------------------------------------------------+\n");
}

TEST_CASE("console tables per group in AIPerf 0.13's order: Effective, Active, Usage, then the main one") {
  // Rows and numbers from AIPerf 0.13.0's own console (a 20-request streaming run), added out
  // of order; a hidden usage metric and an empty group print nothing. Its server reported no
  // prompt-cache reads, so the cache-reporting hint follows the tables.
  proto::ProfileResults res;
  record_metric(res, "time_to_first_token", "Time to First Token", "ms", f::kStreamingTokensOnly, 100,
                {8.01, 2.73, 15.77, 0, 0, 0, 0, 0, 7.73, 0, 13.47, 0, 15.38, 3.75});
  scalar_metric(res, "total_usage_prompt_tokens", "Total Usage Prompt Tokens", "tokens", f::kLargerIsBetter, 2000, 327,
                true)
      .set_console_group(proto::CONSOLE_GROUP_USAGE);
  record_metric(res, "usage_prompt_tokens", "Usage Prompt Tokens", "tokens", f::kLargerIsBetter, 1000,
                {16.35, 13, 19, 0, 0, 0, 0, 0, 16, 0, 18.10, 0, 19, 1.39}, true)
      .set_console_group(proto::CONSOLE_GROUP_USAGE);
  record_metric(res, "usage_prompt_tokens_diff_pct", "Usage Prompt Diff %", "%", f::kNoConsole, 0,
                {1, 1, 1, 0, 0, 0, 0, 0, 1, 0, 1, 0, 1, 0})
      .set_console_group(proto::CONSOLE_GROUP_USAGE);
  record_metric(res, "effective_concurrency", "Effective Concurrency", "requests", f::kNoIndividualRecords, 1200,
                {1.73, 0, 4, 0, 0, 0, 0, 0, 2, 0, 3, 0, 4, 1.25})
      .set_console_group(proto::CONSOLE_GROUP_EFFECTIVE);
  CHECK(format_console_table(res, "LLM Metrics", false) ==
        R"(                       NVIDIA AIPerf | LLM Metrics: Effective
+-----------------------------------------------------------------------------------+
|                           Metric |  avg |  min |  max |  p99 |  p90 |  p50 |  std |
|----------------------------------+------+------+------+------+------+------+------|
| Effective Concurrency (requests) | 1.73 | 0.00 | 4.00 | 4.00 | 3.00 | 2.00 | 1.25 |
+-----------------------------------------------------------------------------------+
                              NVIDIA AIPerf | LLM Metrics: Usage
+--------------------------------------------------------------------------------------------+
|                             Metric |    avg |   min |   max |   p99 |   p90 |   p50 |  std |
|------------------------------------+--------+-------+-------+-------+-------+-------+------|
|       Usage Prompt Tokens (tokens) |  16.35 | 13.00 | 19.00 | 19.00 | 18.10 | 16.00 | 1.39 |
| Total Usage Prompt Tokens (tokens) | 327.00 |   N/A |   N/A |   N/A |   N/A |   N/A |  N/A |
+--------------------------------------------------------------------------------------------+
                          NVIDIA AIPerf | LLM Metrics
+------------------------------------------------------------------------------+
|                   Metric |  avg |  min |   max |   p99 |   p90 |  p50 |  std |
|--------------------------+------+------+-------+-------+-------+------+------|
| Time to First Token (ms) | 8.01 | 2.73 | 15.77 | 15.38 | 13.47 | 7.73 | 3.75 |
+------------------------------------------------------------------------------+

Token usage is reported but no prompt-cache read tokens were seen (usage.prompt_tokens_details.cached_tokens absent). If your server uses 
prefix/KV caching, enable cache reporting so AIPerf can populate the prompt-cache metrics: vLLM --enable-prompt-tokens-details, SGLang 
--enable-cache-report (TRT-LLM reports it by default).
)");
}

TEST_CASE("error table: N/A for missing code and type, grouped counts") {
  proto::ProfileResults res;
  add_error(res, std::nullopt, "TimeoutError", "", 5);
  CHECK(format_error_table(res, true) ==
        "      NVIDIA AIPerf | Error Summary\n"
        "┏━━━━━━┳━━━━━━━━━━━━━━┳━━━━━━━━━┳━━━━━━━┓\n"
        "┃ Code ┃         Type ┃ Message ┃ Count ┃\n"
        "┡━━━━━━╇━━━━━━━━━━━━━━╇━━━━━━━━━╇━━━━━━━┩\n"
        "│  N/A │ TimeoutError │         │     5 │\n"
        "└──────┴──────────────┴─────────┴───────┘\n");
  add_error(res, 429, "", "Too Many Requests", 1234);
  const std::string two = format_error_table(res, true);
  CHECK(two.find("│  429 │          N/A │ Too Many Requests │ 1,234 │\n") != std::string::npos);
}

TEST_CASE("no errors, no error table") { CHECK(format_error_table(proto::ProfileResults{}).empty()); }

namespace {

google::protobuf::RepeatedField<int64_t> buckets(std::initializer_list<int64_t> counts) {
  return google::protobuf::RepeatedField<int64_t>(counts.begin(), counts.end());
}

}  // namespace

TEST_CASE("console: the pooled accepted-draft histogram line, as AIPerf 0.13 prints it") {
  google::protobuf::RepeatedField<int64_t> h;
  CHECK(format_acceptance_histogram_line(h).empty());  // spec decode off
  CHECK(format_acceptance_histogram_line(buckets({6, 0, 1, 1})) ==
        "Accepted drafts per step (% of steps):  0: 75%   1: 0%   2: 12%   3: 12%");  // 12.5 rounds to even
  // Buckets from 8 up fold into one ">=8" bucket; trailing empty buckets are not shown.
  CHECK(format_acceptance_histogram_line(buckets({1, 0, 0, 0, 0, 0, 0, 0, 2, 0, 1, 0})) ==
        "Accepted drafts per step (% of steps):  0: 25%   1: 0%   2: 0%   3: 0%   4: 0%   5: 0%   6: 0%   7: 0%"
        "   >=8: 75%");
  CHECK(format_acceptance_histogram_line(buckets({0, 0, 0})).empty());  // no verify step at all
}

TEST_CASE("console: the Spec Decode table and the cache-reporting hint around the main table") {
  proto::ProfileResults res;
  scalar_metric(res, "total_usage_prompt_tokens", "Total Usage Prompt Tokens", "tokens", f::kNone, 2000, 300, true)
      .set_console_group(proto::CONSOLE_GROUP_USAGE);
  record_metric(res, "spec_decode_steps", "Spec Decode Steps", "count", f::kNone, 5040,
                {4, 4, 4, 0, 0, 0, 0, 0, 4, 0, 4, 0, 4, 0})
      .set_console_group(proto::CONSOLE_GROUP_SPEC_DECODE);
  res.add_pooled_spec_decode_histogram(2);
  res.add_pooled_spec_decode_histogram(0);
  res.add_pooled_spec_decode_histogram(2);
  CHECK(usage_without_cache_reads(res));
  const std::string out = format_console_table(res, "LLM Metrics", false);
  const std::string hint =
      "\nToken usage is reported but no prompt-cache read tokens were seen (usage.prompt_tokens_details.cached_tokens "
      "absent). If your server uses \nprefix/KV caching, enable cache reporting so AIPerf can populate the "
      "prompt-cache metrics: vLLM --enable-prompt-tokens-details, SGLang \n--enable-cache-report (TRT-LLM reports it "
      "by default).\n";
  const auto hint_at = out.find(hint);
  const auto table_at = out.find("NVIDIA AIPerf | LLM Metrics: Spec Decode");
  REQUIRE(hint_at != std::string::npos);
  REQUIRE(table_at != std::string::npos);
  CHECK(hint_at < table_at);  // the hint closes the metrics exporter; Spec Decode is the next one
  CHECK(out.substr(hint_at + hint.size(), 2) == "\n\n");
  const std::string line = "+\n  Accepted drafts per step (% of steps):  0: 50%   1: 0%   2: 50%\n";
  REQUIRE(out.size() > line.size());
  CHECK(out.substr(out.size() - line.size()) == line);  // right under the Spec Decode table

  // A reported total of cache reads, even 0, means the server reports them: no hint.
  scalar_metric(res, "total_usage_prompt_cache_read_tokens", "Total Usage Prompt Cache Read Tokens", "tokens", f::kNone,
                2010, 0, true);
  CHECK_FALSE(usage_without_cache_reads(res));
  CHECK(format_console_table(res, "LLM Metrics", false).find("Token usage is reported") == std::string::npos);
}
