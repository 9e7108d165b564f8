// End-to-end: `aiperf profile --otel-url ... --mlflow-tracking-uri ...` against the mock, with an
// in-process fake OTLP collector and MLflow tracking server (tests/fakes/fake_http_server.h)
// recording what arrives; a collector that is down only warns; bad options exit 2.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <map>
#include <mutex>

#include "fakes/fake_http_server.h"
#include "process.h"

using aiperf::test::MockServer;
using aiperf::test::read_file;
using aiperf::testing::FakeHttpServer;
using aiperf::testing::FakeRequest;
using aiperf::testing::FakeResponse;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

using Run = aiperf::test::ProfileRun;

Run profile(const std::string& tmp, const std::string& name, std::vector<std::string> args) {
  std::vector<std::string> full{
      "--tokenizer", "builtin",        "--ui-type",      "none", "--model",         "m1", "--endpoint-type",
      "chat",        "--streaming",    "--concurrency",  "1",    "--request-count", "3",  "--output-tokens-mean",
      "3",           "--extra-inputs", "ignore_eos:true"};
  full.insert(full.end(), args.begin(), args.end());
  return aiperf::test::run_profile(tmp + "/" + name, full, tmp, name, 120);
}

FakeResponse ok(const std::string& body) {
  FakeResponse r;
  r.headers = {{"Content-Type", "application/json"}};
  r.body_parts = {body};
  return r;
}

// The fake collector + MLflow server's answers.
FakeResponse answer(const FakeRequest& q) {
  const std::string api = "/api/2.0/mlflow/";
  if (q.target == "/otlp/v1/metrics") return ok("{}");
  if (q.target.rfind(api + "experiments/get-by-name", 0) == 0) {
    FakeResponse r = ok(R"({"error_code":"RESOURCE_DOES_NOT_EXIST","message":"no"})");
    r.status = 404;
    return r;
  }
  if (q.target == api + "experiments/create") return ok(R"({"experiment_id":"5"})");
  if (q.target == api + "runs/create")
    return ok(R"({"run":{"info":{"run_id":"run42","artifact_uri":"mlflow-artifacts:/5/run42/artifacts"}}})");
  if (q.target == api + "runs/log-batch" || q.target == api + "runs/update") return ok("{}");
  if (q.method == "PUT" && q.target.rfind("/api/2.0/mlflow-artifacts/artifacts/5/run42/artifacts/", 0) == 0)
    return ok("{}");
  FakeResponse r = ok("{}");
  r.status = 404;
  return r;
}

std::string attr(const json& attributes, const std::string& key) {
  for (const auto& kv : attributes)
    if (kv["key"] == key)
      return kv["value"].begin().value().is_string() ? kv["value"].begin().value().get<std::string>()
                                                     : kv["value"].begin().value().dump();
  return "(absent)";
}

}  // namespace

TEST_CASE("otel and mlflow exports: what the collector and the tracking server receive", "[e2e]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  MockServer mock({"--fast"}, tmp);
  FakeHttpServer server(answer);
  const std::string base = "http://127.0.0.1:" + std::to_string(server.port());
  Run run = profile(
      tmp, "run",
      {"--url", mock.url(), "--otel-url", base + "/otlp", "--otel-resource-attributes", "team=perf,env=ci",
       "--gen-ai-provider", "vllm", "--mlflow-tracking-uri", base, "--mlflow-experiment", "bench", "--mlflow-run-name",
       "nightly", "--mlflow-tag", "owner:me", "--mlflow-artifact-glob", "profile_*.csv,*.jsonl"});
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);
  const auto requests = server.requests();
  std::vector<std::string> seen;
  for (const auto& q : requests) seen.push_back(q.method + " " + q.target.substr(0, q.target.find('?')));
  CHECK(seen ==
        std::vector<std::string>{"POST /otlp/v1/metrics", "GET /api/2.0/mlflow/experiments/get-by-name",
                                 "POST /api/2.0/mlflow/experiments/create", "POST /api/2.0/mlflow/runs/create",
                                 "POST /api/2.0/mlflow/runs/log-batch",
                                 "PUT /api/2.0/mlflow-artifacts/artifacts/5/run42/artifacts/profile_export_aiperf.csv",
                                 "PUT /api/2.0/mlflow-artifacts/artifacts/5/run42/artifacts/profile_export.jsonl",
                                 "PUT /api/2.0/mlflow-artifacts/artifacts/5/run42/artifacts/mlflow_export.json",
                                 "POST /api/2.0/mlflow/runs/update"});
  REQUIRE(requests.size() == 9);

  // OTLP: JSON, the resource attributes, the GenAI histograms counting the 3 requests.
  CHECK(requests[0].header("Content-Type") == "application/json");
  const json otlp = json::parse(requests[0].body);
  const json summary = run.summary();
  const json& res = otlp["resourceMetrics"][0]["resource"]["attributes"];
  CHECK(attr(res, "service.name") == "aiperf");
  CHECK(attr(res, "aiperf.benchmark.id") == summary["benchmark_id"].get<std::string>());
  CHECK(attr(res, "aiperf.endpoint.type") == "chat");
  CHECK(attr(res, "aiperf.model.name") == "m1");
  CHECK(attr(res, "team") == "perf");
  CHECK(attr(res, "env") == "ci");
  std::map<std::string, json> metrics;
  for (const auto& m : otlp["resourceMetrics"][0]["scopeMetrics"][0]["metrics"]) metrics[m["name"]] = m;
  REQUIRE(metrics.count("gen_ai.client.operation.duration") == 1);
  const json& duration = metrics["gen_ai.client.operation.duration"];
  CHECK(duration["unit"] == "s");
  uint64_t count = 0;
  double sum = 0;
  for (const auto& p : duration["histogram"]["dataPoints"]) {
    count += std::stoull(p["count"].get<std::string>());
    sum += p["sum"].get<double>();
    CHECK(attr(p["attributes"], "gen_ai.provider.name") == "vllm");
    CHECK(attr(p["attributes"], "gen_ai.request.model") == "m1");
    CHECK(attr(p["attributes"], "aiperf.has_error") == "false");
  }
  CHECK(count == 3);
  // The same requests as the summary's latency (ms -> s).
  CHECK(sum == Approx(summary["request_latency"]["sum"].get<double>() / 1000).epsilon(1e-9));
  CHECK(metrics.count("gen_ai.client.operation.time_to_first_chunk") == 1);
  CHECK(metrics.count("gen_ai.client.token.usage") == 1);
  REQUIRE(metrics.count("aiperf.output_sequence_length") == 1);
  CHECK(metrics["aiperf.output_sequence_length"]["unit"] == "tokens");

  // MLflow: experiment created by name, run named with the tag, summary metrics and params.
  CHECK(requests[1].target == "/api/2.0/mlflow/experiments/get-by-name?experiment_name=bench");
  CHECK(json::parse(requests[2].body) == json{{"name", "bench"}});
  const json create = json::parse(requests[3].body);
  CHECK(create["experiment_id"] == "5");
  CHECK(create["run_name"] == "nightly");
  const json batch = json::parse(requests[4].body);
  CHECK(batch["run_id"] == "run42");
  std::map<std::string, double> logged;
  for (const auto& m : batch["metrics"]) logged[m["key"]] = m["value"];
  CHECK(logged.at("request_latency") == summary["request_latency"]["avg"].get<double>());
  CHECK(logged.at("request_latency.p99") == summary["request_latency"]["p99"].get<double>());
  CHECK(logged.at("request_count") == 3);
  CHECK(logged.at("aiperf.completed_requests") == 3);
  std::map<std::string, std::string> params, tags;
  for (const auto& p : batch["params"]) params[p["key"]] = p["value"];
  for (const auto& t : batch["tags"]) tags[t["key"]] = t["value"];
  CHECK(params.at("endpoint.type") == "chat");
  CHECK(params.at("endpoint.models") == "m1");
  CHECK(params.at("loadgen.concurrency") == "1");
  CHECK(params.at("loadgen.request_count") == "3");
  CHECK(params.at("aiperf.cli_command").find("--mlflow-run-name 'nightly'") != std::string::npos);
  CHECK(tags.at("owner") == "me");
  CHECK(tags.at("benchmark_id") == summary["benchmark_id"].get<std::string>());
  CHECK(tags.at("aiperf.was_cancelled") == "false");
  // Uploaded bytes are the files' bytes; mlflow_export.json is also kept in the artifacts.
  CHECK(requests[6].body == read_file(run.dir + "/profile_export.jsonl"));
  const json meta = json::parse(read_file(run.dir + "/mlflow_export.json"));
  CHECK(json::parse(requests[7].body) == meta);
  CHECK(meta["run_id"] == "run42");
  CHECK(meta["experiment"] == "bench");
  CHECK(meta["uploaded_artifacts"] ==
        json({"profile_export_aiperf.csv", "profile_export.jsonl", "mlflow_export.json"}));
  CHECK(json::parse(requests[8].body)["status"] == "FINISHED");
  fs::remove_all(tmp);
}

TEST_CASE("a collector that is down: the run succeeds, writes its files and warns", "[e2e]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  MockServer mock({"--fast"}, tmp);
  const int dead = aiperf::test::free_port_range(1);  // nothing listens there
  const std::string url = "127.0.0.1:" + std::to_string(dead);
  Run run = profile(tmp, "run", {"--url", mock.url(), "--otel-url", url, "--mlflow-tracking-uri", "http://" + url});
  INFO(run.out << run.err);
  CHECK(run.exit_code == 0);
  CHECK(fs::exists(run.dir + "/profile_export_aiperf.json"));
  CHECK(run.summary()["request_count"]["avg"] == 3);
  const std::string otel_warning = "OTel export to http://" + url + "/v1/metrics failed: ";
  CHECK(run.err.find(otel_warning) != std::string::npos);
  CHECK(run.err.find("MLflow export to http://" + url + " failed; the run's results are unaffected") !=
        std::string::npos);
  CHECK(read_file(run.dir + "/logs/aiperf.log").find(otel_warning) != std::string::npos);
  CHECK_FALSE(fs::exists(run.dir + "/mlflow_export.json"));
  fs::remove_all(tmp);
}

TEST_CASE("remote export options: the reference's refusals exit 2 and write nothing", "[e2e]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases{
      {{"--stream", "metrics"},
       "--stream requires --otel-url to be set; OTel streaming is disabled when no OTLP endpoint is configured."},
      {{"--otel-url", "grpc://c:4317"}, "Only http and https schemes are supported (got 'grpc')"},
      {{"--otel-url", "c:4318", "--stream", "bogus"}, "Invalid --stream value(s) ['bogus']."},
      {{"--otel-url", "c:4318", "--otel-resource-attributes", "novalue"},
       "Invalid --otel-resource-attributes entry 'novalue': expected key=value."},
      {{"--mlflow-experiment", "x"}, "require --mlflow-tracking-uri to be set."},
      {{"--mlflow-tracking-uri", "file:///tmp/mlruns"}, "--mlflow-tracking-uri: 'file:///tmp/mlruns' is not supported"},
      {{"--wandb-project", "p"}, "--wandb-project: Weights & Biases export is not supported by this aiperf build."},
      {{"--wandb-tag", "t"}, "--wandb-entity, --wandb-run-name, and --wandb-tag require --wandb-project to be set."},
  };
  int i = 0;
  for (const auto& [args, message] : cases) {
    const std::string name = "bad" + std::to_string(i++);
    std::vector<std::string> full{"--url", "127.0.0.1:1"};
    full.insert(full.end(), args.begin(), args.end());
    Run run = profile(tmp, name, full);
    INFO(name << ": " << run.err);
    CHECK(run.exit_code == 2);
    CHECK(run.err.find(message) != std::string::npos);
    CHECK_FALSE(fs::exists(tmp + "/" + name));
  }
  fs::remove_all(tmp);
}
