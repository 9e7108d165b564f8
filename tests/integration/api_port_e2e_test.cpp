// End-to-end: `aiperf profile --api-port P` serves the run while it goes. A slow mock keeps
// the run going long enough to scrape /metrics and read /api/progress mid-run.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <map>
#include <regex>
#include <set>
#include <sstream>

#include "process.h"
#include "services/controller/http_get.h"

using aiperf::test::MockServer;
using aiperf::test::Process;
using aiperf::test::wait_until;
using nlohmann::json;

namespace {

const std::string kAiperf = std::string(AIPERF_BIN_DIR) + "/aiperf";

// Checks Prometheus text format line by line; returns the problems found (empty = valid) and
// fills `samples` (name{labels} -> value).
std::vector<std::string> check_format(const std::string& text, std::map<std::string, double>& samples) {
  static const std::regex kComment(R"(^# (HELP|TYPE) ([a-zA-Z_:][a-zA-Z0-9_:]*) (.*)$)");
  static const std::regex kSample(
      R"(^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\]|\\.)*"(?:,[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\]|\\.)*")*\})? (\S+)$)");
  std::vector<std::string> problems;
  std::map<std::string, std::string> types;
  std::stringstream in(text);
  std::smatch m;
  for (std::string line; std::getline(in, line);) {
    if (line.empty()) continue;
    if (std::regex_match(line, m, kComment)) {
      if (m[1] == "TYPE") {
        const std::string type = m[3];
        if (type != "counter" && type != "gauge" && type != "summary" && type != "histogram" && type != "untyped")
          problems.push_back("bad TYPE: " + line);
        types[m[2]] = type;
      }
      continue;
    }
    if (!std::regex_match(line, m, kSample)) {
      problems.push_back("not a sample: " + line);
      continue;
    }
    const std::string name = m[1];
    std::string family = name;
    for (const std::string suffix : {"_sum", "_count"}) {
      const std::string base = name.size() > suffix.size() ? name.substr(0, name.size() - suffix.size()) : "";
      if (name.ends_with(suffix) && types.count(base) && types[base] == "summary") family = base;
    }
    if (!types.count(family)) problems.push_back("sample without TYPE: " + line);
    try {
      std::size_t used = 0;
      const double v = std::stod(m[3], &used);
      if (used != static_cast<std::size_t>(m[3].length())) problems.push_back("bad value: " + line);
      samples[name + m[2].str()] = v;
    } catch (const std::exception&) {
      problems.push_back("bad value: " + line);
    }
  }
  return problems;
}

double sample_matching(const std::map<std::string, double>& samples, const std::string& name, const std::string& label) {
  for (const auto& [key, v] : samples) {
    if (key.rfind(name + "{", 0) == 0 && key.find(label) != std::string::npos) return v;
  }
  return -1;
}

}  // namespace

TEST_CASE("the live API of --api-port serves Prometheus /metrics and the JSON API during the run", "[e2e][api]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  // 30 requests, 2 at a time, each >= 300 ms: several seconds of run.
  MockServer mock({"--ttft", "300", "--itl", "10"}, tmp);
  const int port = aiperf::test::free_port_range(1);
  Process aiperf(kAiperf,
                 {"profile", "--artifact-dir", tmp + "/artifacts", "--tokenizer", "gpt2", "--model", "m", "--url",
                  mock.url(), "--endpoint-type", "chat", "--streaming", "--concurrency", "2", "--request-count", "30",
                  "--synthetic-input-tokens-mean", "20", "--output-tokens-mean", "5", "--extra-inputs",
                  "ignore_eos:true", "--ui-type", "none", "--api-port", std::to_string(port)},
                 tmp, "aiperf");

  // Mid-run: some records in and a live snapshot with TTFT quantiles.
  std::string text;
  std::map<std::string, double> samples;
  double live_success = -1;
  const bool scraped = wait_until(
      [&] {
        auto reply = aiperf::test::http_get(port, "/metrics");
        if (!reply || reply->status != 200) return false;
        text = reply->body;
        samples.clear();
        check_format(text, samples);
        live_success = sample_matching(samples, "aiperf_records_total", "status=\"success\"");
        return live_success > 0 && sample_matching(samples, "aiperf_time_to_first_token_ms", "quantile=\"0.5\"") > 0;
      },
      60);
  INFO(text << aiperf.err());
  REQUIRE(scraped);
  CHECK(check_format(text, samples).empty());
  CHECK(text.find("# TYPE aiperf_time_to_first_token_ms summary\n") != std::string::npos);
  CHECK(text.find("# TYPE aiperf_records_total counter\n") != std::string::npos);
  // The mock never sends a first token before 300 ms.
  CHECK(sample_matching(samples, "aiperf_time_to_first_token_ms", "quantile=\"0.5\"") >= 300.0);
  CHECK(sample_matching(samples, "aiperf_request_latency_ms", "quantile=\"0.99\"") >= 300.0);
  CHECK(sample_matching(samples, "aiperf_requests_in_flight", "phase=\"profiling\"") >= 0);
  CHECK(sample_matching(samples, "aiperf_requests_expected", "phase=\"profiling\"") == 30);
  CHECK(sample_matching(samples, "aiperf_info", "model=\"m\"") == 1);

  auto progress = aiperf::test::http_get(port, "/api/progress");
  REQUIRE(progress);
  CHECK(progress->status == 200);
  const json p = json::parse(progress->body);
  CHECK(p["phases"]["profiling"]["total_expected_requests"] == 30);
  CHECK(p["phases"]["profiling"]["requests_completed"].get<int>() <= 30);
  CHECK(p["system_state"] == "profiling");
  auto metrics = aiperf::test::http_get(port, "/api/metrics");
  REQUIRE(metrics);
  CHECK(json::parse(metrics->body)["metrics"]["time_to_first_token"]["unit"] == "ms");
  CHECK(aiperf::test::http_get(port, "/healthz")->body == "ok");
  CHECK(aiperf::test::http_get(port, "/readyz")->status == 200);

  const auto rc = aiperf.wait(120);
  REQUIRE(rc);
  CHECK(*rc == 0);
  const json summary = json::parse(aiperf::test::read_file(tmp + "/artifacts/profile_export_aiperf.json"));
  const double final_count = summary["request_count"]["avg"].get<double>();
  CHECK(final_count == 30);
  CHECK(live_success <= final_count);
  // The server lives only as long as the run.
  CHECK_FALSE(aiperf::test::http_get(port, "/healthz"));
}
