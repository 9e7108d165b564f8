// The Client vs Server section (export/client_server.h): rows from usage, llama.cpp timings and
// server counters with exact numbers, warnings past the threshold, console and CSV renderings.
#include <catch2/catch.hpp>

#include "export/client_server.h"
#include "results_fixtures.h"

using namespace aiperf;
using namespace aiperf::exporting;
using namespace aiperf::exporting::testing;
using Json = nlohmann::ordered_json;

namespace {

// A record metric with the given count, mean and sum (other statistics irrelevant here).
void rec(proto::ProfileResults& res, const std::string& tag, const std::string& unit, uint64_t count, double avg,
         double sum) {
  proto::MetricResult& m = record_metric(res, tag, tag, unit, 0, 0, {avg, 0, 0, sum, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0});
  m.set_count(count);
}

// 4 streamed requests of 10 input and 5 output tokens against a llama.cpp server.
proto::ProfileResults llama_run() {
  proto::ProfileResults res;
  scalar_metric(res, "request_count", "Request Count", "requests", 0, 0, 4, true);
  rec(res, "input_sequence_length", "tokens", 4, 10, 40);
  rec(res, "output_sequence_length", "tokens", 4, 5, 20);
  rec(res, "time_to_first_token", "ms", 4, 12.5, 50);
  rec(res, "inter_token_latency", "ms", 4, 2.25, 9);
  rec(res, "request_latency", "ms", 4, 21.5, 86);
  rec(res, "usage_prompt_tokens", "tokens", 4, 10, 40);
  rec(res, "usage_completion_tokens", "tokens", 4, 5, 20);
  rec(res, "server_prefill_time", "ms", 4, 2.5, 10);
  rec(res, "server_prefill_tokens", "tokens", 4, 8, 32);
  rec(res, "server_cached_tokens", "tokens", 4, 2, 8);
  rec(res, "server_decode_time", "ms", 4, 8, 32);
  rec(res, "server_decode_tokens", "tokens", 4, 5, 20);
  rec(res, "server_inter_token_latency", "ms", 4, 2, 8);
  return res;
}

const Json* row(const Json& section, const std::string& quantity, const std::string& source) {
  for (const Json& r : section["rows"])
    if (r["quantity"] == quantity && r["source"] == source) return &r;
  return nullptr;
}

}  // namespace

TEST_CASE("client vs server: no section without server-side data") {
  proto::ProfileResults res;
  scalar_metric(res, "request_count", "Request Count", "requests", 0, 0, 4, true);
  rec(res, "input_sequence_length", "tokens", 4, 10, 40);
  rec(res, "time_to_first_token", "ms", 4, 12.5, 50);
  const Json section = client_server_section(res, std::nullopt);
  CHECK(section.is_null());
  CHECK(format_client_server_console(section, false).empty());
  CHECK(format_client_server_csv(section).empty());
}

TEST_CASE("client vs server: usage and timings rows with exact numbers and no warning when they agree") {
  const Json s = client_server_section(llama_run(), std::nullopt);
  REQUIRE(s.is_object());
  CHECK(s["sources"] == Json::array({"usage", "timings"}));
  const Json* in_usage = row(s, "input_tokens_total", "usage");
  REQUIRE(in_usage);
  CHECK((*in_usage)["client"] == 40);
  CHECK((*in_usage)["server"] == 40);
  CHECK((*in_usage)["difference"] == 0);
  const Json* in_timings = row(s, "input_tokens_total", "timings");
  REQUIRE(in_timings);
  CHECK((*in_timings)["server"] == 40);  // prompt_n 32 + cache_n 8
  CHECK((*row(s, "cached_input_tokens_total", "timings"))["server"] == 8);
  CHECK_FALSE(row(s, "cached_input_tokens_total", "timings")->contains("client"));
  CHECK((*row(s, "output_tokens_total", "timings"))["server"] == 20);
  CHECK((*row(s, "requests", "timings"))["server"] == 4);
  const Json* ttft = row(s, "ttft_vs_server_prefill", "timings");
  CHECK((*ttft)["client"] == 12.5);
  CHECK((*ttft)["server"] == 2.5);
  CHECK((*ttft)["difference"] == 10);
  const Json* itl = row(s, "itl_vs_server_decode_per_token", "timings");
  CHECK((*itl)["difference"] == 0.25);
  const Json* latency = row(s, "latency_vs_server_time", "timings");
  CHECK((*latency)["server"] == 10.5);  // 2.5 + 8
  CHECK((*latency)["difference"] == 11);
  CHECK((*row(s, "server_prefill_time_total", "timings"))["server"] == 0.01);
  CHECK((*row(s, "server_decode_time_total", "timings"))["server"] == 0.032);
  CHECK(s["warnings"].empty());
  CHECK(s["threshold_pct"] == 5.0);
}

TEST_CASE("client vs server: counters of a llama.cpp server become rows of their own") {
  ServerCounterTotals c;
  c.family = "llamacpp";
  c.prompt_tokens = 40;
  c.cached_prompt_tokens = 8;
  c.generation_tokens = 20;
  c.prompt_seconds = 0.0085;
  c.generation_seconds = 0.032;
  const Json s = client_server_section(llama_run(), c);
  CHECK(s["sources"] == Json::array({"usage", "timings", "llamacpp"}));
  CHECK((*row(s, "input_tokens_total", "llamacpp"))["server"] == 40);
  CHECK((*row(s, "output_tokens_total", "llamacpp"))["server"] == 20);
  CHECK((*row(s, "cached_input_tokens_total", "llamacpp"))["server"] == 8);
  CHECK((*row(s, "server_prefill_time_total", "llamacpp"))["server"] == 0.0085);
  CHECK((*row(s, "server_decode_time_total", "llamacpp"))["server"] == 0.032);
  CHECK(s["server_counters"]["family"] == "llamacpp");
  CHECK(s["server_counters"]["prompt_seconds"] == 0.0085);
  CHECK(s["warnings"].empty());
  // The counters round-trip through the telemetry service's JSON.
  const auto back = counter_totals_from_json(counter_totals_json(c).dump());
  REQUIRE(back);
  CHECK(back->family == "llamacpp");
  CHECK(*back->prompt_seconds == 0.0085);
  CHECK_FALSE(counter_totals_from_json(""));
  CHECK_FALSE(counter_totals_from_json("{}"));
}

TEST_CASE("client vs server: warnings past 5 percent and for requests without server data") {
  proto::ProfileResults res;
  scalar_metric(res, "request_count", "Request Count", "requests", 0, 0, 4, true);
  rec(res, "input_sequence_length", "tokens", 4, 100, 400);
  rec(res, "output_sequence_length", "tokens", 4, 10, 40);
  rec(res, "usage_prompt_tokens", "tokens", 3, 150, 450);      // 12.5% more: templated
  rec(res, "usage_completion_tokens", "tokens", 3, 13.8, 41);  // 2.5%: under the threshold
  ServerCounterTotals c;
  c.family = "vllm";
  c.prompt_tokens = 300;  // 25% fewer
  c.requests = 4;         // as many as the client: no warning
  const Json s = client_server_section(res, c);
  CHECK((*row(s, "requests", "vllm"))["server"] == 4);
  REQUIRE(s["warnings"].size() == 2);
  CHECK(s["warnings"][0] == "Requests: the client counted 4, the server 3 (usage blocks): the other responses "
                            "carried no usage blocks.");
  CHECK(s["warnings"][1] == "Input tokens: the client counted 400, the server 450 (usage blocks) and 300 (vllm "
                            "counters), up to 25.0% apart: the server truncated or templated the prompt (a chat "
                            "template adds tokens), or --tokenizer is not the server's. Counters also move with "
                            "requests outside the profiling window or from other clients.");
  CHECK((*row(s, "input_tokens_total", "usage"))["difference"] == -50);
  CHECK((*row(s, "input_tokens_total", "usage"))["difference_pct"] == -12.5);
  const std::string console = format_client_server_console(s, false);
  CHECK(console.find("NVIDIA AIPerf | Client vs Server") != std::string::npos);
  CHECK(console.find("| Input tokens, total (tokens)") != std::string::npos);
  CHECK(console.find("-50 (-12.5%)") != std::string::npos);
  CHECK(console.find("Client vs Server Disagreement Warning") != std::string::npos);
}

// A chat server renders messages with its template: more input tokens there is expected (no warning),
// fewer is truncation (warned).
TEST_CASE("client vs server: with a server-side chat template only fewer input tokens are warned about") {
  proto::ProfileResults res;
  scalar_metric(res, "request_count", "Request Count", "requests", 0, 0, 4, true);
  rec(res, "input_sequence_length", "tokens", 4, 100, 400);
  rec(res, "usage_prompt_tokens", "tokens", 4, 125, 500);  // 25% more: the template's tokens
  CHECK(client_server_section(res, std::nullopt, false, /*server_templates_prompt=*/true)["warnings"].empty());
  CHECK(client_server_section(res, std::nullopt, false, false)["warnings"].size() == 1);
  ServerCounterTotals c;
  c.family = "vllm";
  c.prompt_tokens = 300;  // 25% fewer: truncated
  const Json s = client_server_section(res, c, false, true);
  REQUIRE(s["warnings"].size() == 1);
  CHECK(s["warnings"][0].get<std::string>().rfind("Input tokens: the client counted 400, the server 300 (vllm "
                                                  "counters), 25.0% apart:", 0) == 0);
}

TEST_CASE("client vs server: CSV rows") {
  const std::string csv = format_client_server_csv(client_server_section(llama_run(), std::nullopt));
  CHECK(csv.rfind("Client vs Server,Source,Unit,Client,Server,Difference\r\n", 0) == 0);
  CHECK(csv.find("input_tokens_total,timings,tokens,40,40,0\r\n") != std::string::npos);
  CHECK(csv.find("ttft_vs_server_prefill,timings,ms,12.50,2.50,10.00\r\n") != std::string::npos);
  CHECK(csv.find("server_prefill_time_total,timings,sec,,0.010000,\r\n") != std::string::npos);
}

TEST_CASE("client vs server: the warning panel wraps its lines at 100 columns") {
  proto::ProfileResults res;
  scalar_metric(res, "request_count", "Request Count", "requests", 0, 0, 4, true);
  rec(res, "input_sequence_length", "tokens", 4, 100, 400);
  rec(res, "usage_prompt_tokens", "tokens", 4, 150, 600);
  const std::string console = format_client_server_console(client_server_section(res, std::nullopt), false);
  const std::size_t at = console.find("|  Input tokens: the client counted 400, the server 600 (usage blocks), 50.0% apart: the server");
  REQUIRE(at != std::string::npos);
  CHECK(console.find("|    truncated or templated the prompt (a chat template adds tokens), or --tokenizer is not the  ") !=
        std::string::npos);
  CHECK(console.find("|    server's.  ") != std::string::npos);
}

TEST_CASE("client vs server: counters that saw fewer finished requests than the client warn") {
  proto::ProfileResults res;
  scalar_metric(res, "request_count", "Request Count", "requests", 0, 0, 20, true);
  ServerCounterTotals c;
  c.family = "sglang";
  c.requests = 18;
  const Json s = client_server_section(res, c);
  REQUIRE(s["warnings"].size() == 1);
  CHECK(s["warnings"][0] == "Requests: the client counted 20, the server 18 (sglang counters), 10.0% apart: the server "
                            "counted fewer finished requests than succeeded for the client. Counters also move with "
                            "requests outside the profiling window or from other clients.");
}

TEST_CASE("client vs server: counters that may hold the warmup are shown but not compared") {
  ServerCounterTotals c;
  c.family = "llamacpp";
  c.prompt_tokens = 60;  // the profiling's 40 plus a warmup's 20
  c.generation_tokens = 30;
  const Json s = client_server_section(llama_run(), c, /*counters_include_warmup=*/true);
  const Json* in = row(s, "input_tokens_total", "llamacpp");
  REQUIRE(in);
  CHECK((*in)["server"] == 60);
  CHECK_FALSE(in->contains("client"));
  CHECK_FALSE(in->contains("difference"));
  CHECK((*row(s, "input_tokens_total", "usage"))["difference"] == 0);  // the records' sources still compared
  CHECK(s["warnings"].empty());
  CHECK(s["counters_note"].get<std::string>().rfind("The llamacpp counters' window", 0) == 0);
  CHECK(format_client_server_console(s, false).find("\nThe llamacpp counters' window starts at the last scrape") != std::string::npos);
  CHECK_FALSE(client_server_section(llama_run(), c, false).contains("counters_note"));
}

TEST_CASE("client vs server: sources that agree with each other share one warning") {
  proto::ProfileResults res = llama_run();
  for (auto& m : *res.mutable_records())
    if (m.tag() == "output_sequence_length") m.set_sum(24);  // the client counted 24, every source 20
  const Json s = client_server_section(res, std::nullopt);
  REQUIRE(s["warnings"].size() == 1);
  CHECK(s["warnings"][0] == "Output tokens: the client counted 24, the server 20 (usage blocks, llama.cpp timings), "
                            "16.7% apart: the client's tokenizer does not count the server's text as the server does "
                            "(--use-server-token-count takes the server's counts), or responses were cut short.");
}
