// The readiness probe (--wait-for-model-*), the control hooks (--reset-kv-cache*,
// --server-profiler*) and the endpoint options around them, run as a user runs them against
// the mock, which counts every control call, the generation requests before it, and the
// requests carrying a header (services/mock_server/control_routes.h).
#include <catch2/catch.hpp>

#include <filesystem>
#include <map>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "process.h"
#include "services/controller/http_get.h"

using aiperf::test::MockServer;
using aiperf::test::Process;
using aiperf::test::ProfileRun;

namespace {

// The mock's mock_control_* samples: "name{labels}" -> value.
std::map<std::string, double> control_metrics(int port) {
  const auto reply = aiperf::test::http_get(port, "/metrics");
  REQUIRE(reply);
  std::map<std::string, double> out;
  std::istringstream in(reply->body);
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("mock_control_", 0) != 0) continue;
    const size_t space = line.rfind(' ');
    out[line.substr(0, space)] = std::stod(line.substr(space + 1));
  }
  return out;
}

std::vector<std::string> base_args(const std::string& url, const std::string& model = "gpt2") {
  return {"--tokenizer", "gpt2", "--ui-type", "none", "--model", model, "--url", url, "--concurrency", "1",
          "--random-seed", "5"};
}

ProfileRun run(const std::string& tmp, const std::string& name, std::vector<std::string> args,
               const std::vector<std::string>& more) {
  args.insert(args.end(), more.begin(), more.end());
  return aiperf::test::run_profile(tmp + "/" + name, args, tmp, name, 120);
}

}  // namespace

TEST_CASE("readiness probe, KV-cache reset and server profiler: each call once, in order, around the right requests",
          "[e2e][control]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  // The first 3 requests answer 503, as a server still loading its model.
  MockServer mock({"--fast", "--unready-requests", "3", "--count-header", "X-Session-ID", "--count-header",
                   "X-Correlation-ID"},
                  tmp);
  const ProfileRun r = run(tmp, "all", base_args(mock.url()),
                           {"--request-count", "5", "--warmup-request-count", "2", "--wait-for-model-timeout", "60",
                            "--wait-for-model-interval", "0.05", "--wait-for-model-mode", "both", "--reset-kv-cache",
                            "--server-profiler", "--session-header", "X-Session-ID"});
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(r.err.find("Waiting for endpoint readiness (mode=both, timeout=60.0s, interval=0.05s) across 1 URL(s) x 1 "
                   "model(s)\n") != std::string::npos);
  CHECK(r.err.find("Probe to " + mock.url() + "/v1/models returned 503 (attempt 3), retrying in 0.05s") != std::string::npos);
  CHECK(r.err.find("Model 'gpt2' ready at " + mock.url() + " after 4 attempt(s)") != std::string::npos);
  CHECK(r.err.find("Inference probe ready at " + mock.url() + "/v1/chat/completions (status=200, attempt 1)") !=
        std::string::npos);
  const auto m = control_metrics(mock.port());
  CHECK(m.at("mock_control_unready_answers_total") == 3);
  CHECK(m.at("mock_control_calls_total{path=\"/reset_prefix_cache\"}") == 1);
  CHECK(m.at("mock_control_calls_total{path=\"/start_profile\"}") == 1);
  CHECK(m.at("mock_control_calls_total{path=\"/stop_profile\"}") == 1);
  CHECK(m.at("mock_control_order{path=\"/reset_prefix_cache\"}") == 1);
  CHECK(m.at("mock_control_order{path=\"/start_profile\"}") == 2);
  CHECK(m.at("mock_control_order{path=\"/stop_profile\"}") == 3);
  // The reset came after the probe's one inference request; the profiler started after the 2
  // warmup requests and stopped after the 5 profiling ones.
  CHECK(m.at("mock_control_generation_before{path=\"/reset_prefix_cache\"}") == 1);
  CHECK(m.at("mock_control_generation_before{path=\"/start_profile\"}") == 3);
  CHECK(m.at("mock_control_generation_before{path=\"/stop_profile\"}") == 8);
  CHECK(m.at("mock_control_generation_posts_total") == 8);
  // The session id travels in the header named by --session-header, instead of X-Correlation-ID.
  CHECK(m.at("mock_control_header_requests_total{header=\"X-Session-ID\"}") == 7);
  CHECK(m.at("mock_control_header_requests_total{header=\"X-Correlation-ID\"}") == 0);
  std::set<std::string> sessions;
  for (const auto& rec : r.records()) sessions.insert(rec["metadata"]["x_correlation_id"].get<std::string>());
  REQUIRE(r.records().size() == 5);
  CHECK(sessions.size() == 5);
  const std::string log = aiperf::test::read_file(r.dir + "/logs/aiperf.log");
  CHECK(log.find("reset_kv_cache: POST " + mock.url() + "/reset_prefix_cache succeeded") != std::string::npos);
  CHECK(log.find("server_profiler: POST " + mock.url() + "/stop_profile succeeded") != std::string::npos);
}

TEST_CASE("custom hook paths; the default X-Correlation-ID without --session-header; no probe at timeout 0",
          "[e2e][control]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  MockServer mock({"--fast", "--control-path", "/admin/reset", "--control-path", "/prof/on", "--control-path",
                   "/prof/off", "--count-header", "X-Correlation-ID"},
                  tmp);
  const ProfileRun r = run(tmp, "paths", base_args(mock.url()),
                           {"--request-count", "3", "--reset-kv-cache-path", "/admin/reset",
                            "--server-profiler-start-path", "/prof/on", "--server-profiler-stop-path", "/prof/off",
                            "--server-profiler-timeout-seconds", "5"});
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 0);
  const auto m = control_metrics(mock.port());
  // A sub-option turns its hook on; the default paths are not called.
  CHECK(m.at("mock_control_calls_total{path=\"/admin/reset\"}") == 1);
  CHECK(m.at("mock_control_calls_total{path=\"/prof/on\"}") == 1);
  CHECK(m.at("mock_control_calls_total{path=\"/prof/off\"}") == 1);
  CHECK(m.at("mock_control_calls_total{path=\"/reset_prefix_cache\"}") == 0);
  CHECK(m.at("mock_control_calls_total{path=\"/start_profile\"}") == 0);
  CHECK(m.at("mock_control_generation_before{path=\"/prof/on\"}") == 0);
  CHECK(m.at("mock_control_generation_before{path=\"/prof/off\"}") == 3);
  CHECK(m.at("mock_control_header_requests_total{header=\"X-Correlation-ID\"}") == 3);
  CHECK(r.err.find("Waiting for endpoint readiness") == std::string::npos);
}

TEST_CASE("repeated runs and sweeps: the probe once, the reset and the profiler once per run", "[e2e][control]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  MockServer mock({"--fast"}, tmp);
  const ProfileRun trials = run(tmp, "trials", base_args(mock.url()),
                                {"--request-count", "3", "--num-profile-runs", "2", "--profile-run-cooldown-seconds", "0",
                                 "--wait-for-model-timeout", "30", "--reset-kv-cache", "--server-profiler"});
  INFO(trials.out << trials.err);
  REQUIRE(trials.exit_code == 0);
  auto m = control_metrics(mock.port());
  CHECK(m.at("mock_control_calls_total{path=\"/reset_prefix_cache\"}") == 2);
  CHECK(m.at("mock_control_calls_total{path=\"/start_profile\"}") == 2);
  CHECK(m.at("mock_control_calls_total{path=\"/stop_profile\"}") == 2);
  CHECK(m.at("mock_control_generation_posts_total") == 1 + 2 * 3);  // one probe, two trials of 3

  std::vector<std::string> sweep_args = base_args(mock.url());
  sweep_args.at(9) = "1,2";  // --concurrency 1,2: two runs
  const ProfileRun sweep = run(tmp, "sweep", sweep_args,
                               {"--request-count", "3", "--wait-for-model-timeout", "30", "--reset-kv-cache"});
  INFO(sweep.out << sweep.err);
  REQUIRE(sweep.exit_code == 0);
  m = control_metrics(mock.port());
  CHECK(m.at("mock_control_calls_total{path=\"/reset_prefix_cache\"}") == 2 + 2);
  CHECK(m.at("mock_control_generation_posts_total") == 7 + 1 + 2 * 3);
}

TEST_CASE("readiness timeout: nothing listening -> the reference's message, exit 1, nothing written", "[e2e][control]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  const int port = aiperf::test::free_port_range(1);  // nobody listens there
  const std::string url = "http://127.0.0.1:" + std::to_string(port);
  const ProfileRun r = run(tmp, "down", base_args(url, "m"),
                           {"--request-count", "3", "--wait-for-model-timeout", "1", "--wait-for-model-interval", "0.25",
                            "--reset-kv-cache"});
  INFO(r.out << r.err);
  CHECK(r.exit_code == 1);
  const std::regex message("Error: Timed out after 1\\.0s probing " + url +
                           "/v1/chat/completions with model 'm' \\(checked [1-9][0-9]* time\\(s\\)\\)\n");
  CHECK(std::regex_search(r.err, message));
  CHECK(r.err.find("Inference probe to " + url + "/v1/chat/completions returned connection error") != std::string::npos);
  CHECK_FALSE(std::filesystem::exists(r.dir));
}

TEST_CASE("readiness timeout: the model never listed in /v1/models -> exit 1, no request sent, nothing written",
          "[e2e][control]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  MockServer mock({"--fast"}, tmp);  // lists "gpt2" only
  const ProfileRun r = run(tmp, "unlisted", base_args(mock.url(), "m"),
                           {"--request-count", "3", "--wait-for-model-timeout", "0.5", "--wait-for-model-interval", "0.1",
                            "--wait-for-model-mode", "models"});
  INFO(r.out << r.err);
  CHECK(r.exit_code == 1);
  const std::regex message("Error: Timed out after 0\\.5s waiting for model 'm' to become ready at " + mock.url() +
                           " \\(checked [1-9][0-9]* time\\(s\\)\\)\n");
  CHECK(std::regex_search(r.err, message));
  CHECK(control_metrics(mock.port()).at("mock_control_generation_posts_total") == 0);
  CHECK_FALSE(std::filesystem::exists(r.dir));
}

TEST_CASE("a refused KV-cache reset stops the run before any request: exit 1, the reason named", "[e2e][control]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  MockServer mock({"--fast", "--control-status", "400"}, tmp);
  const ProfileRun r = run(tmp, "reset400", base_args(mock.url()), {"--request-count", "3", "--reset-kv-cache"});
  INFO(r.out << r.err);
  CHECK(r.exit_code == 1);
  CHECK(r.err.find("Error: reset_kv_cache failed before benchmark start: control_plane POST " + mock.url() +
                   "/reset_prefix_cache failed with status 400\n") != std::string::npos);
  const auto m = control_metrics(mock.port());
  CHECK(m.at("mock_control_calls_total{path=\"/reset_prefix_cache\"}") == 1);  // 400 is not retried
  CHECK(m.at("mock_control_generation_posts_total") == 0);
  CHECK_FALSE(std::filesystem::exists(r.dir + "/profile_export.jsonl"));
  CHECK_FALSE(std::filesystem::exists(r.dir + "/profile_export_aiperf.json"));
}

TEST_CASE("a failed profiler start fails the run before the profiling phase sends anything", "[e2e][control]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  MockServer mock({"--fast", "--control-status", "500"}, tmp);
  const ProfileRun r = run(tmp, "prof500", base_args(mock.url()),
                           {"--request-count", "3", "--warmup-request-count", "2", "--server-profiler"});
  INFO(r.out << r.err);
  CHECK(r.exit_code == 1);
  CHECK(r.err.find("server_profiler start failed: control_plane POST " + mock.url() +
                   "/start_profile failed with status 500") != std::string::npos);
  const auto m = control_metrics(mock.port());
  CHECK(m.at("mock_control_calls_total{path=\"/start_profile\"}") == 1);
  CHECK(m.at("mock_control_calls_total{path=\"/stop_profile\"}") == 0);  // nothing was started
  CHECK(m.at("mock_control_generation_posts_total") == 2);               // the warmup only
}

TEST_CASE("option per-chunk-usage asks for usage on every chunk", "[e2e][control]") {
  const auto run = aiperf::test::run_captured(
      {"--model", "m", "--request-count", "2", "--streaming", "--use-server-token-count", "--per-chunk-usage"});
  aiperf::test::check_clean(run, 2);
  for (const auto& req : run.requests)
    CHECK(req.body["stream_options"] == nlohmann::json{{"include_usage", true}, {"continuous_usage_stats", true}});
}

TEST_CASE("endpoint and service options: the reference's validation, exit 2 before anything starts",
          "[e2e][control]") {
  struct Row {
    std::vector<std::string> args;
    std::string expected;
  };
  const std::vector<Row> rows = {
      {{"--wait-for-model-interval", "1"},
       "Error: --wait-for-model-interval has no effect unless --wait-for-model-timeout is set to a positive value. "
       "Set --wait-for-model-timeout to enable the readiness probe."},
      {{"--wait-for-model-interval", "2", "--wait-for-model-mode", "both"},
       "Error: --wait-for-model-interval, --wait-for-model-mode has no effect unless"},
      {{"--wait-for-model-timeout", "-1"}, "Error: --wait-for-model-timeout: must be a number >= 0, got '-1'"},
      {{"--wait-for-model-timeout", "5", "--wait-for-model-interval", "0"},
       "Error: --wait-for-model-interval: must be a number > 0, got '0'"},
      {{"--wait-for-model-timeout", "5", "--wait-for-model-mode", "ready"}, "--wait-for-model-mode: ready not in"},
      {{"--reset-kv-cache-path", "reset"}, "Error: --reset-kv-cache-path: must be a relative path starting with '/', got 'reset'"},
      {{"--server-profiler-stop-path", "http://x/stop"},
       "Error: --server-profiler-stop-path: must be a relative path starting with '/', got 'http://x/stop'"},
      {{"--reset-kv-cache-timeout-seconds", "0"}, "Error: --reset-kv-cache-timeout-seconds: must be a number > 0, got '0'"},
      {{"--server-profiler-timeout-seconds", "-2"}, "Error: --server-profiler-timeout-seconds: must be a number > 0"},
      {{"--uuid-and-strip", "--endpoint-type", "completions"}, "Error: --uuid-and-strip requires endpoint type 'chat'"},
      {{"--per-chunk-usage", "--streaming"}, "Error: --per-chunk-usage requires --use-server-token-count"},
      {{"--per-chunk-usage", "--use-server-token-count"}, "Error: --per-chunk-usage requires --streaming"},
      {{"--per-chunk-usage", "--use-server-token-count", "--streaming", "--endpoint-type", "completions"},
       "Error: --per-chunk-usage requires endpoint type 'chat'"},
      {{"--request-content-type", "multipart/form-data"},
       "Error: --request-content-type: request_content_type=multipart/form-data is only supported for endpoint types "
       "that accept form-data (e.g. image_edit, video_generation); endpoint type chat does not."},
      {{"--request-content-type", "text/plain"}, "--request-content-type: text/plain not in"},
      {{"--stats-interval", "1001"}, "Error: --stats-interval: must be a number from 0 to 1000, got '1001'"},
  };
  const std::string tmp = aiperf::test::make_temp_dir();
  int i = 0;
  for (const Row& row : rows) {
    std::vector<std::string> args{"profile", "--model", "m", "--url", "http://127.0.0.1:9", "--tokenizer", "gpt2",
                                  "--ui-type", "none", "--artifact-dir", tmp + "/bad" + std::to_string(i)};
    args.insert(args.end(), row.args.begin(), row.args.end());
    Process p(AIPERF_BIN_DIR "/aiperf", args, tmp, "bad" + std::to_string(i));
    const auto rc = p.wait(60);
    INFO(row.expected << "\n" << p.err());
    CHECK(rc == 2);
    CHECK(p.err().find(row.expected) != std::string::npos);
    CHECK_FALSE(std::filesystem::exists(tmp + "/bad" + std::to_string(i)));
    ++i;
  }
  // Accepted: the reference's spellings, and the options that change nothing here.
  Process ok(AIPERF_BIN_DIR "/aiperf",
             {"profile", "--model", "m", "--url", "http://127.0.0.1:9", "--tokenizer", "gpt2", "--ui-type", "none",
              "--dry-run", "--request-content-type", "Application/JSON", "--stats-interval", "0", "--zmq-dual-bind",
              "--uuid-and-strip", "--wait-for-model-timeout", "3", "--wait-for-model-mode", "MODELS",
              "--session-header", "X-Session-ID"},
             tmp, "ok");
  const auto rc = ok.wait(60);
  INFO(ok.err());
  CHECK(rc == 0);
  CHECK(ok.err().find("--uuid-and-strip: image stripping is not implemented here") != std::string::npos);
}
