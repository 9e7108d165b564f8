#include "remote_export.h"

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <map>

using namespace aiperf;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

struct Call {
  std::string method, url, body;
  double timeout;
};

// Answers by "METHOD url-prefix" (longest match), records every call.
class FakeTransport : public control::ControlTransport {
 public:
  std::map<std::string, control::ControlResponse> answers;
  std::vector<Call> calls;
  control::ControlResponse send(const std::string& method, const std::string& url, const control::Headers&,
                                const std::string& body, double timeout_s) override {
    calls.push_back({method, url, body, timeout_s});
    control::ControlResponse best{0, "", "ClientConnectorError: refused"};
    size_t best_len = 0;
    for (const auto& [key, r] : answers) {
      const std::string k = key.substr(key.find(' ') + 1);
      if (key.substr(0, key.find(' ')) == method && url.rfind(k, 0) == 0 && k.size() >= best_len) {
        best = r;
        best_len = k.size();
      }
    }
    return best;
  }
};

std::string temp_dir() {
  std::string t = (fs::temp_directory_path() / "aiperf-remote-export-XXXXXX").string();
  REQUIRE(mkdtemp(t.data()) != nullptr);
  return t;
}

void write(const std::string& path, const std::string& text) {
  fs::create_directories(fs::path(path).parent_path());
  std::ofstream(path) << text;
}

const char* kSummary = R"({"benchmark_id":"abcdef12-3456","was_cancelled":false,
  "request_latency":{"unit":"ms","avg":2.5,"p50":2.0,"max":4.0,"count":2},
  "request_count":{"unit":"requests","avg":2},
  "error_request_count":{"unit":"requests","avg":1},
  "input_config":{"endpoint":{"type":"chat"}}})";

cli::RemoteExportSettings settings(const std::string& dir) {
  cli::RemoteExportSettings s;
  s.artifact_dir = dir;
  s.records_jsonl = dir + "/profile_export.jsonl";
  s.summary_json = dir + "/profile_export_aiperf.json";
  s.benchmark_id = "abcdef12-3456";
  s.endpoint_type = "chat";
  s.urls = {"http://127.0.0.1:8000"};
  s.models = {"m1"};
  s.timeout_s = 3;
  s.now_unix_ns = 1700000000123456789;
  s.version = "0.1.0";
  return s;
}

}  // namespace

TEST_CASE("mlflow metric payload: avg under the tag, other statistics as tag.stat, completed requests") {
  const auto p = cli::mlflow_metric_payload(json::parse(kSummary));
  const std::vector<std::pair<std::string, double>> want{
      {"aiperf.completed_requests", 3}, {"error_request_count", 1}, {"request_count", 2},      {"request_latency", 2.5},
      {"request_latency.count", 2},     {"request_latency.max", 4}, {"request_latency.p50", 2}};
  CHECK(p == want);
}

TEST_CASE("mlflow artifact globs: AIPerf's defaults (top-level data files, images at any depth), given globs") {
  const std::string dir = temp_dir();
  for (const char* f :
       {"a.json", "b.csv", "r.jsonl", "logs/aiperf.log", "plots/x.png", "y.png", "mlflow_export.json", "sub/deep.json"})
    write(dir + "/" + f, "x");
  CHECK(cli::mlflow_artifact_files(dir, {}) ==
        std::vector<std::string>{"a.json", "b.csv", "r.jsonl", "plots/x.png", "y.png"});
  CHECK(cli::mlflow_artifact_files(dir, {"logs/*", "*.csv", "logs/aiperf.log"}) ==
        std::vector<std::string>{"logs/aiperf.log", "b.csv"});
  fs::remove_all(dir);
}

TEST_CASE("mlflow export: experiment created, run with name, parent and tags, log-batch, artifacts, finished") {
  const std::string dir = temp_dir();
  write(dir + "/profile_export_aiperf.json", kSummary);
  write(dir + "/profile_export.jsonl", "{}\n");
  FakeTransport t;
  const std::string api = "http://mlf:5000/api/2.0/mlflow/";
  t.answers["GET " + api + "experiments/get-by-name"] = {404, R"({"error_code":"RESOURCE_DOES_NOT_EXIST"})", ""};
  t.answers["POST " + api + "experiments/create"] = {200, R"({"experiment_id":"7"})", ""};
  t.answers["GET " + api + "runs/get"] = {200, R"({"run":{}})", ""};
  t.answers["POST " + api + "runs/create"] = {
      200, R"({"run":{"info":{"run_id":"r1","artifact_uri":"mlflow-artifacts:/7/r1/artifacts"}}})", ""};
  t.answers["POST " + api + "runs/log-batch"] = {200, "{}", ""};
  t.answers["POST " + api + "runs/update"] = {200, "{}", ""};
  t.answers["PUT http://mlf:5000/api/2.0/mlflow-artifacts/artifacts/"] = {200, "{}", ""};
  auto s = settings(dir);
  s.mlflow_uri = "http://mlf:5000/";
  s.mlflow_experiment = "my exp";
  s.mlflow_parent_run_id = "p9";
  s.mlflow_tags = {{"team", "perf"}};
  s.params = {{"endpoint.type", "chat"}};
  const auto warnings = cli::run_remote_exports(s, t);
  CHECK(warnings.empty());
  REQUIRE(t.calls.size() == 9);
  CHECK(t.calls[0].method == "GET");
  CHECK(t.calls[0].url == api + "experiments/get-by-name?experiment_name=my%20exp");
  CHECK(t.calls[0].timeout == 3);
  CHECK(json::parse(t.calls[1].body) == json{{"name", "my exp"}});
  CHECK(t.calls[2].url == api + "runs/get?run_id=p9");
  const json create = json::parse(t.calls[3].body);
  CHECK(create["experiment_id"] == "7");
  CHECK(create["run_name"] == "aiperf-abcdef12");
  CHECK(create["start_time"] == 1700000000123);
  CHECK(create["tags"] == json::parse(R"([{"key":"mlflow.runName","value":"aiperf-abcdef12"},
                                          {"key":"mlflow.parentRunId","value":"p9"}])"));
  const json batch = json::parse(t.calls[4].body);
  CHECK(batch["run_id"] == "r1");
  CHECK(batch["metrics"].size() == 7);
  CHECK(batch["metrics"][3] ==
        json{{"key", "request_latency"}, {"value", 2.5}, {"timestamp", 1700000000123}, {"step", 0}});
  CHECK(batch["params"] == json::parse(R"([{"key":"endpoint.type","value":"chat"}])"));
  CHECK(batch["tags"] == json::parse(R"([{"key":"aiperf.version","value":"0.1.0"},
                                         {"key":"aiperf.was_cancelled","value":"false"},
                                         {"key":"benchmark_id","value":"abcdef12-3456"},
                                         {"key":"team","value":"perf"}])"));
  // Default globs in order (*.json, then *.jsonl), then mlflow_export.json written just before.
  CHECK(t.calls[5].url ==
        "http://mlf:5000/api/2.0/mlflow-artifacts/artifacts/7/r1/artifacts/profile_export_aiperf.json");
  CHECK(t.calls[5].body == kSummary);
  CHECK(t.calls[6].url == "http://mlf:5000/api/2.0/mlflow-artifacts/artifacts/7/r1/artifacts/profile_export.jsonl");
  CHECK(t.calls[7].url == "http://mlf:5000/api/2.0/mlflow-artifacts/artifacts/7/r1/artifacts/mlflow_export.json");
  const json meta = json::parse(t.calls[7].body);
  CHECK(meta["run_id"] == "r1");
  CHECK(meta["experiment"] == "my exp");
  CHECK(meta["parent_run_id"] == "p9");
  CHECK(meta["uploaded_artifacts"] ==
        json({"profile_export_aiperf.json", "profile_export.jsonl", "mlflow_export.json"}));
  CHECK(meta["tag_keys"] == json({"aiperf.version", "aiperf.was_cancelled", "benchmark_id", "team"}));
  CHECK(json::parse(t.calls[8].body) == json{{"run_id", "r1"}, {"status", "FINISHED"}, {"end_time", 1700000000123}});
  fs::remove_all(dir);
}

TEST_CASE("mlflow export: a missing parent makes a root run with a warning, and a dead server only warns") {
  const std::string dir = temp_dir();
  write(dir + "/profile_export_aiperf.json", kSummary);
  FakeTransport t;
  const std::string api = "http://mlf/api/2.0/mlflow/";
  t.answers["GET " + api + "experiments/get-by-name"] = {200, R"({"experiment":{"experiment_id":"3"}})", ""};
  t.answers["GET " + api + "runs/get"] = {404, "{}", ""};
  t.answers["POST " + api + "runs/create"] = {200, R"({"run":{"info":{"run_id":"r2","artifact_uri":"s3://b/x"}}})", ""};
  t.answers["POST " + api + "runs/log-batch"] = {200, "{}", ""};
  t.answers["POST " + api + "runs/update"] = {200, "{}", ""};
  auto s = settings(dir);
  s.mlflow_uri = "http://mlf";
  s.mlflow_parent_run_id = "gone";
  s.mlflow_run_name = "mine";
  auto warnings = cli::run_remote_exports(s, t);
  REQUIRE(warnings.size() == 2);
  CHECK(warnings[0] == "parent_run_id gone not found; creating root MLflow run instead (HTTP 404)");
  CHECK(warnings[1].find("(s3://b/x) is not served by the tracking server") != std::string::npos);
  const json create = json::parse(t.calls[2].body);
  CHECK(create["run_name"] == "mine");
  CHECK(create["experiment_id"] == "3");
  CHECK(create["tags"].size() == 1);

  FakeTransport dead;
  warnings = cli::run_remote_exports(s, dead);
  REQUIRE(warnings.size() == 2);
  CHECK(warnings[0] == "MLflow export: experiment 'aiperf' lookup at http://mlf failed (no response)");
  CHECK(warnings[1] == "MLflow export to http://mlf failed; the run's results are unaffected");
  CHECK(dead.calls.size() == 1);
  fs::remove_all(dir);
}

TEST_CASE("otel export: one POST of the JSON histograms, failures are warnings") {
  const std::string dir = temp_dir();
  write(dir + "/profile_export.jsonl",
        R"({"metadata":{"worker_id":"w"},"metrics":{"request_latency":{"value":20.0,"unit":"ms"}}})"
        "\n");
  FakeTransport t;
  t.answers["POST http://c:4318/v1/metrics"] = {200, "{}", ""};
  auto s = settings(dir);
  s.otel_endpoint = "http://c:4318/v1/metrics";
  s.resource_attributes = {{"aiperf.model.name", "override"}, {"team", "perf"}};
  CHECK(cli::run_remote_exports(s, t).empty());
  REQUIRE(t.calls.size() == 1);
  const json body = json::parse(t.calls[0].body);
  CHECK(body["resourceMetrics"][0]["resource"]["attributes"] == json::parse(R"([
    {"key":"service.name","value":{"stringValue":"aiperf"}},
    {"key":"service.instance.id","value":{"stringValue":"records-manager"}},
    {"key":"aiperf.benchmark.id","value":{"stringValue":"abcdef12-3456"}},
    {"key":"aiperf.endpoint.type","value":{"stringValue":"chat"}},
    {"key":"aiperf.model.name","value":{"stringValue":"override"}},
    {"key":"team","value":{"stringValue":"perf"}}])"));
  CHECK(body["resourceMetrics"][0]["scopeMetrics"][0]["metrics"][0]["histogram"]["dataPoints"][0]["sum"] == 0.02);

  t.answers["POST http://c:4318/v1/metrics"] = {500, "boom", ""};
  auto warnings = cli::run_remote_exports(s, t);
  REQUIRE(warnings.size() == 1);
  CHECK(warnings[0] ==
        "OTel export to http://c:4318/v1/metrics failed: HTTP 500 boom (the run's results are unaffected)");

  s.stream_metrics = false;
  warnings = cli::run_remote_exports(s, t);
  REQUIRE(warnings.size() == 1);
  CHECK(warnings[0].rfind("OTel export: --stream selects no domain", 0) == 0);
  CHECK(t.calls.size() == 2);
  fs::remove_all(dir);
}
