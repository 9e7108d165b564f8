// End-to-end: llama.cpp's `timings` and the Client vs Server section (issue 20), against the mock
// with --timings, whose timings follow its latency model exactly (prompt_ms = --ttft, predicted_ms
// = (tokens - 1) x --itl), so every server-side figure the run reports is known in advance.
#include <cmath>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "process.h"

using nlohmann::json;
using namespace aiperf::test;

namespace {

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

const json* row(const json& section, const std::string& quantity, const std::string& source) {
  for (const json& r : section["rows"])
    if (r["quantity"] == quantity && r["source"] == source) return &r;
  return nullptr;
}

double value(const json& record, const char* tag) { return record["metrics"][tag]["value"].get<double>(); }

struct Run {
  std::string tmp;
  std::unique_ptr<MockServer> mock;
  ProfileRun run;
};

Run run_against(const std::vector<std::string>& mock_args, const std::vector<std::string>& args) {
  Run r;
  r.tmp = make_temp_dir();
  r.mock = std::make_unique<MockServer>(mock_args, r.tmp);
  std::vector<std::string> full{"--url", r.mock->url(), "--random-seed", "5", "--synthetic-input-tokens-mean", "20",
                                "--synthetic-input-tokens-stddev", "0", "--output-tokens-mean", "5",
                                "--extra-inputs", "ignore_eos:true"};
  full.insert(full.end(), args.begin(), args.end());
  r.run = run_named(r.tmp, "run", full);
  return r;
}

}  // namespace

TEST_CASE("client vs server: streaming chat with mock timings gives exact server figures", "[e2e]") {
  Run r = run_against({"--timings", "--ttft", "10", "--itl", "2"},
                      {"--endpoint-type", "chat", "--streaming", "--use-server-token-count", "--request-count", "6",
                       "--concurrency", "2", "--auto-plot"});
  INFO(r.run.out << r.run.err);
  REQUIRE(r.run.exit_code == 0);
  const auto records = r.run.records();
  REQUIRE(records.size() == 6);
  double usage_prompt = 0;
  for (const json& rec : records) {
    CHECK(value(rec, "server_prefill_time") == 10.0);  // ms
    CHECK(value(rec, "server_decode_time") == 8.0);    // 4 tokens after the first x 2 ms
    CHECK(value(rec, "server_decode_tokens") == 5);
    CHECK(value(rec, "server_inter_token_latency") == 2.0);
    CHECK(value(rec, "server_cached_tokens") == 0);
    CHECK(value(rec, "server_prefill_tokens") == value(rec, "usage_prompt_tokens"));
    CHECK(std::fabs(value(rec, "ttft_server_gap") - (value(rec, "time_to_first_token") - 10.0)) < 1e-9);
    CHECK(std::fabs(value(rec, "request_latency_server_gap") - (value(rec, "request_latency") - 18.0)) < 1e-9);
    CHECK(value(rec, "ttft_server_gap") >= 0);  // the mock waits --ttft before the first token
    usage_prompt += value(rec, "usage_prompt_tokens");
  }

  const json summary = r.run.summary();
  CHECK(summary["server_prefill_time"]["avg"] == 10.0);
  CHECK(summary["server_prefill_time"]["unit"] == "ms");
  CHECK(summary["server_decode_tokens"]["sum"] == 30);
  REQUIRE(summary.contains("client_server"));
  const json& s = summary["client_server"];
  CHECK(s["sources"] == json::array({"usage", "timings", "vllm"}));  // the mock's /metrics speaks vLLM
  CHECK((*row(s, "requests", "timings"))["server"] == 6);
  CHECK((*row(s, "requests", "vllm"))["server"] == 6);  // vllm:request_success_total
  for (const char* source : {"usage", "timings", "vllm"}) {
    INFO(source);
    REQUIRE(row(s, "input_tokens_total", source));
    CHECK((*row(s, "input_tokens_total", source))["server"] == usage_prompt);
    CHECK((*row(s, "input_tokens_total", source))["client"] == usage_prompt);
    CHECK((*row(s, "output_tokens_total", source))["server"] == 30);
    CHECK((*row(s, "output_tokens_total", source))["difference"] == 0);
  }
  CHECK((*row(s, "cached_input_tokens_total", "timings"))["server"] == 0);
  CHECK((*row(s, "server_prefill_time_total", "timings"))["server"].get<double>() == Approx(0.06).epsilon(1e-12));
  CHECK((*row(s, "server_decode_time_total", "timings"))["server"].get<double>() == Approx(0.048).epsilon(1e-12));
  const json& ttft = *row(s, "ttft_vs_server_prefill", "timings");
  CHECK(ttft["server"] == 10.0);
  CHECK(ttft["client"] == summary["time_to_first_token"]["avg"]);
  CHECK(std::fabs(ttft["difference"].get<double>() - summary["ttft_server_gap"]["avg"].get<double>()) < 1e-9);
  CHECK((*row(s, "itl_vs_server_decode_per_token", "timings"))["server"] == 2.0);
  CHECK((*row(s, "latency_vs_server_time", "timings"))["server"] == 18.0);
  CHECK(s["warnings"].empty());

  CHECK(has(r.run.out, "NVIDIA AIPerf | Client vs Server"));
  CHECK(has(r.run.out, "TTFT vs server prefill, mean (ms)"));
  CHECK_FALSE(has(r.run.out, "Disagreement Warning"));
  // Hidden from the main table, like the usage_* metrics.
  CHECK_FALSE(has(r.run.out, "Server Prefill Time"));
  const std::string csv = read_file(r.run.dir + "/profile_export_aiperf.csv");
  CHECK(has(csv, "Server Prefill Time (ms),10.00,10.00,10.00,60.00,"));
  CHECK(has(csv, "\r\nClient vs Server,Source,Unit,Client,Server,Difference\r\n"));
  CHECK(has(csv, "\r\nserver_decode_time_total,timings,sec,,0.048000,\r\n"));
  // The HTML report (--auto-plot) shows the section with the console's cells.
  const std::string html = read_file(r.run.dir + "/plots/report.html");
  CHECK(has(html, "<h2>NVIDIA AIPerf | Client vs Server</h2>"));
  CHECK(has(html, "<tr><td>Server decode time, total (sec)</td><td>llama.cpp timings</td><td>-</td><td>0.0480</td>"
                  "<td>-</td></tr>"));
  CHECK(has(html, "<td>Output tokens, total (tokens)</td><td>vllm counters</td><td>30</td><td>30</td><td>0 (0.0%)</td>"));
  CHECK(has(html, "<li>Difference = client - server."));
  CHECK_FALSE(has(html, "notes warn"));
}

TEST_CASE("client vs server: process-export-files rebuilds the records' rows, not the counters'", "[e2e]") {
  Run r = run_against({"--timings", "--ttft", "10", "--itl", "2"},
                      {"--endpoint-type", "chat", "--request-count", "4", "--concurrency", "2"});
  INFO(r.run.out << r.run.err);
  REQUIRE(r.run.exit_code == 0);
  const json original = r.run.summary()["client_server"];
  REQUIRE(original["sources"] == json::array({"usage", "timings", "vllm"}));
  Process p(std::string(AIPERF_BIN_DIR) + "/aiperf", {"process-export-files", r.run.dir, "--output-dir", r.tmp + "/merged"},
            r.tmp, "merge");
  const auto rc = p.wait(60);
  REQUIRE(rc.has_value());
  INFO(p.out() << p.err());
  REQUIRE(*rc == 0);
  const json merged = json::parse(read_file(r.tmp + "/merged/profile_export_aiperf.json"))["client_server"];
  CHECK(merged["sources"] == json::array({"usage", "timings"}));
  size_t record_rows = 0;
  for (const json& row : original["rows"]) {
    if (row["source"] == "vllm") continue;
    ++record_rows;
    INFO(row.dump());
    const json* again = ::row(merged, row["quantity"], row["source"]);
    REQUIRE(again);
    CHECK((*again)["server"] == row["server"]);
    CHECK(again->contains("client") == row.contains("client"));
  }
  CHECK(record_rows == merged["rows"].size());
  // Chat: the server's template tokens are not warned about, as in the run itself.
  for (const json& w : merged["warnings"]) CHECK_FALSE(has(w.get<std::string>(), "Input tokens"));
  REQUIRE((*::row(merged, "input_tokens_total", "timings"))["difference"].get<double>() < 0);
  CHECK(has(p.out(), "NVIDIA AIPerf | Client vs Server"));
  CHECK(has(read_file(r.tmp + "/merged/profile_export_aiperf.csv"), "\r\nClient vs Server,Source,Unit,Client,Server,Difference\r\n"));
}

TEST_CASE("client vs server: non-streaming completions give latency gaps but no TTFT row", "[e2e]") {
  Run r = run_against({"--timings", "--ttft", "4", "--itl", "1"},
                      {"--endpoint-type", "completions", "--request-count", "4", "--concurrency", "1",
                       "--no-server-metrics"});
  INFO(r.run.out << r.run.err);
  REQUIRE(r.run.exit_code == 0);
  double client_isl = 0, server_prompt = 0;
  for (const json& rec : r.run.records()) {
    CHECK(value(rec, "server_prefill_time") == 4.0);
    CHECK(value(rec, "server_decode_time") == 4.0);
    CHECK_FALSE(rec["metrics"].contains("ttft_server_gap"));
    CHECK(std::fabs(value(rec, "request_latency_server_gap") - (value(rec, "request_latency") - 8.0)) < 1e-9);
    CHECK(value(rec, "server_prefill_tokens") == value(rec, "usage_prompt_tokens"));
    client_isl += value(rec, "input_sequence_length");
    server_prompt += value(rec, "server_prefill_tokens");
  }
  const json s = r.run.summary()["client_server"];
  CHECK(s["sources"] == json::array({"usage", "timings"}));
  // No TTFT unstreamed: the row shows the server's prefill alone.
  REQUIRE(row(s, "ttft_vs_server_prefill", "timings"));
  CHECK_FALSE(row(s, "ttft_vs_server_prefill", "timings")->contains("client"));
  CHECK((*row(s, "ttft_vs_server_prefill", "timings"))["server"] == 4.0);
  CHECK((*row(s, "latency_vs_server_time", "timings"))["server"] == 8.0);
  // The mock counts a completions prompt its own way (not GPT-2's): the section says how far apart,
  // and warns past 5 %.
  const json& in = *row(s, "input_tokens_total", "timings");
  CHECK(in["client"] == client_isl);
  CHECK(in["server"] == server_prompt);
  CHECK(in["difference"] == client_isl - server_prompt);
  const bool apart = std::fabs(client_isl - server_prompt) > 0.05 * client_isl;
  bool warned = false;
  for (const json& w : s["warnings"]) warned = warned || has(w.get<std::string>(), "llama.cpp timings), ");
  CHECK(warned == apart);
  CHECK(has(r.run.out, "Client vs Server Disagreement Warning") == apart);
}

TEST_CASE("client vs server: no section without server-side data", "[e2e]") {
  // Streaming asks for the usage chunk unless the author turns it off, as here.
  Run r = run_against({"--ttft", "1", "--itl", "1"},
                      {"--endpoint-type", "chat", "--streaming", "--request-count", "3", "--no-server-metrics",
                       "--extra-inputs", R"({"stream_options": {"include_usage": false}})"});
  INFO(r.run.out << r.run.err);
  REQUIRE(r.run.exit_code == 0);
  const json summary = r.run.summary();
  CHECK_FALSE(summary.contains("client_server"));
  CHECK_FALSE(summary.contains("server_prefill_time"));
  CHECK_FALSE(has(r.run.out, "Client vs Server"));
  CHECK_FALSE(has(read_file(r.run.dir + "/profile_export_aiperf.csv"), "Client vs Server"));
}

TEST_CASE("client vs server: with a warmup the counter rows are shown but not compared", "[e2e]") {
  Run r = run_against({"--timings", "--fast"},
                      {"--endpoint-type", "chat", "--request-count", "4", "--warmup-request-count", "4",
                       "--use-server-token-count"});
  INFO(r.run.out << r.run.err);
  REQUIRE(r.run.exit_code == 0);
  const json s = r.run.summary()["client_server"];
  REQUIRE(s.contains("counters_note"));
  const json* counted = row(s, "output_tokens_total", "vllm");
  REQUIRE(counted);
  CHECK_FALSE(counted->contains("client"));
  CHECK((*counted)["server"].get<double>() >= 20);  // 4 profiling requests of 5 tokens, and maybe the warmup's
  CHECK((*row(s, "output_tokens_total", "usage"))["difference"] == 0);
  CHECK(s["warnings"].empty());
  CHECK(has(r.run.out, "counters' window starts at the last scrape"));
}
