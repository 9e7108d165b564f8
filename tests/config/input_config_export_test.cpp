// input_config_json: AIPerf 0.13's dump of what the user set. Expected documents are the
// reference's own input_config for the same command lines (aiperf 0.13.0 against our mock).
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "config/run_config.h"

using aiperf::config::RunConfig;
using nlohmann::ordered_json;

namespace {

RunConfig base(std::vector<std::string> given) {
  RunConfig c;
  c.endpoint.model_names = {"m"};
  c.endpoint.urls = {"127.0.0.1:8000"};
  c.tokenizer.name = "gpt2";
  c.output.artifact_dir = "/tmp/a";
  given.insert(given.end(), {"model", "url", "tokenizer", "ui-type"});
  c.given_options = std::move(given);
  return c;
}

}  // namespace

TEST_CASE("input_config: streaming chat at concurrency 2 with a seed, as the reference dumps it") {
  // aiperf profile -m m --url 127.0.0.1:8000 --tokenizer gpt2 --ui none --endpoint-type chat --streaming
  //   --concurrency 2 --request-count 10 --isl 50 --osl 10 --isl-stddev 0 --extra-inputs ignore_eos:true
  //   --random-seed 42
  RunConfig c = base({"endpoint-type", "streaming", "concurrency", "request-count", "synthetic-input-tokens-mean",
                      "output-tokens-mean", "synthetic-input-tokens-stddev", "extra-inputs", "random-seed"});
  c.endpoint.streaming = true;
  c.loadgen.concurrency = 2;
  c.loadgen.request_count = 10;
  c.input.isl_mean = 50;
  c.input.osl_mean = 10;
  c.input.extra_inputs = {{"ignore_eos", true}};
  c.input.random_seed = 42;
  const ordered_json want = ordered_json::parse(R"({
    "models": {"items": [{"name": "m"}]},
    "endpoint": {"urls": ["http://127.0.0.1:8000"], "type": "chat", "streaming": true, "extra": {"ignore_eos": true}},
    "datasets": [{"name": "main", "type": "synthetic", "entries": 10, "random_seed": 42,
                  "prompts": {"isl": {"mean": 50.0, "stddev": 0.0}, "osl": {"mean": 10.0}}}],
    "phases": [{"name": "profiling", "kind": "profiling", "type": "concurrency", "requests": 10, "concurrency": 2}],
    "artifacts": {"dir": "/tmp/a", "auto_plot": false, "plot_required": false},
    "tokenizer": {"name": "gpt2"},
    "gpu_telemetry": {"enabled": true},
    "server_metrics": {"enabled": true, "urls": [], "formats": ["json", "csv"]},
    "network_latency": {"enabled": false},
    "otel": {}, "mlflow": {}, "wandb": {},
    "runtime": {"ui": "none"}})");
  CHECK(aiperf::config::input_config_json(c).dump() == want.dump());
}

TEST_CASE("input_config: a Poisson rate for a duration with warmup, goodput, headers and a key") {
  // ... --endpoint-type completions --request-rate 5 --benchmark-duration 2 --warmup-request-count 2
  //     --goodput request_latency:250 -H X-A:b --api-key k
  RunConfig c = base(
      {"endpoint-type", "request-rate", "benchmark-duration", "warmup-request-count", "goodput", "header", "api-key"});
  c.endpoint.type = "completions";
  c.loadgen.request_rate = 5;
  c.loadgen.benchmark_duration = 2;
  c.loadgen.warmup_request_count = 2;
  c.loadgen.arrival_pattern = aiperf::config::ArrivalPattern::kPoisson;
  c.loadgen.warmup.arrival_pattern = aiperf::config::ArrivalPattern::kPoisson;
  c.output.goodput = "request_latency:250";
  c.input.headers = {{"X-A", "b"}, {"Authorization", "Bearer s3cret"}};
  c.endpoint.api_key = "k";
  const ordered_json j = aiperf::config::input_config_json(c);
  CHECK(j["endpoint"].dump() == R"({"urls":["http://127.0.0.1:8000"],"type":"completions","api_key":"<redacted>",)"
                                R"("headers":{"X-A":"b","Authorization":"<redacted>"}})");
  CHECK(j["datasets"].dump() == R"([{"name":"main","type":"synthetic","prompts":{"isl":{"mean":550.0}}}])");
  CHECK(j["phases"].dump() ==
        R"([{"name":"warmup","kind":"warmup","type":"poisson","exclude_from_results":true,"requests":2,"rate":5.0},)"
        R"({"name":"profiling","kind":"profiling","type":"poisson","duration":2.0,"grace_period":30.0,"rate":5.0}])");
  CHECK(j["slos"].dump() == R"({"request_latency":250.0})");
}

TEST_CASE("input_config: a fixed-schedule trace counts its records; automatic latency probing keeps its null") {
  RunConfig c = base({"endpoint-type", "input-file", "custom-dataset-type", "fixed-schedule", "output-tokens-mean",
                      "network-latency-automatic"});
  c.input.input_file = "/data/trace.jsonl";
  c.input.custom_dataset_type = aiperf::config::CustomDatasetType::kMooncakeTrace;
  c.input.fixed_schedule = true;
  c.input.osl_mean = 7;
  c.fixed_schedule_records = 12;
  c.network_latency.enabled = true;
  const ordered_json j = aiperf::config::input_config_json(c);
  CHECK(j["datasets"].dump() ==
        R"([{"name":"main","type":"file","path":"/data/trace.jsonl","format":"mooncake_trace","osl":{"mean":7.0}}])");
  CHECK(j["phases"].dump() == R"([{"name":"profiling","kind":"profiling","type":"fixed_schedule","requests":12}])");
  CHECK(j["network_latency"].dump() == R"({"enabled":true})");
  CHECK(aiperf::config::input_config_json(c, true)["network_latency"].dump() == R"({"enabled":true,"mean_ms":null})");
}
