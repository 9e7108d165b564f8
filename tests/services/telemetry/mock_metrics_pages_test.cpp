// The mock server's fake DCGM exporters and vLLM page parse as what they claim to be, stay in
// the GPU's range and follow the load.
#include <catch2/catch.hpp>

#include "dcgm_simulator.h"
#include "gpu_telemetry.h"
#include "metrics_pages.h"
#include "prometheus/exposition.h"
#include "prometheus/series.h"

using namespace aiperf;

namespace {

double value(const prometheus::Exposition& e, const std::string& family, size_t sample = 0) {
  const prometheus::Family* f = e.find(family);
  REQUIRE(f != nullptr);
  REQUIRE(f->samples.size() > sample);
  return f->samples[sample].value;
}

prometheus::Exposition parse_ok(const std::string& text) {
  auto r = prometheus::parse(text);
  INFO((r.error ? r.error->message : ""));
  REQUIRE(r.ok());
  return *r.exposition;
}

}  // namespace

TEST_CASE("fake DCGM exporter: N GPUs of the chosen model, two instances, no third") {
  mock::MockConfig config;
  config.dcgm_gpu_name = "a100";
  config.dcgm_num_gpus = 3;
  config.dcgm_seed = 7;
  config.dcgm_hostname = "mock-node";
  mock::DcgmSimulator sim(config);
  const auto page = sim.render(1, 0);
  REQUIRE(page);
  CHECK_FALSE(sim.render(3, 0).has_value());
  CHECK_FALSE(sim.render(0, 0).has_value());
  telemetry::GpuTelemetry t;
  CHECK(t.add_scrape("http://x/dcgm1/metrics", 1, *page) == 3);
  const auto gpus = t.summarize(0);
  REQUIRE(gpus.size() == 3);
  CHECK(gpus[2].id.index == 2);
  CHECK(gpus[2].id.model_name == "NVIDIA A100-SXM4-80GB");
  CHECK(gpus[2].id.hostname == "mock-node");
  const auto e = parse_ok(*page);
  CHECK(value(e, "DCGM_FI_DEV_FB_TOTAL") == 81920);
  CHECK(value(e, "DCGM_FI_DEV_FB_USED") + value(e, "DCGM_FI_DEV_FB_FREE") == 81920);
  const double power = value(e, "DCGM_FI_DEV_POWER_USAGE");
  CHECK(power >= 60);
  CHECK(power <= 400);
  // The second instance's GPUs are other GPUs.
  const auto e2 = parse_ok(*sim.render(2, 0));
  CHECK(*e2.find("DCGM_FI_DEV_GPU_UTIL")->samples[0].label("UUID") !=
        *e.find("DCGM_FI_DEV_GPU_UTIL")->samples[0].label("UUID"));
}

TEST_CASE("fake DCGM load follows throughput, energy integrates power") {
  mock::MockConfig config;
  config.dcgm_min_throughput = 100;
  mock::DcgmSimulator sim(config);
  CHECK(sim.load_for(0) == 0.05);
  CHECK(sim.load_for(500) == 0.5);
  CHECK(sim.load_for(5000) == 1.0);
  config.dcgm_auto_load = false;
  CHECK(mock::DcgmSimulator(config).load_for(5000) == 0.5);
}

TEST_CASE("vLLM page counts what the server served") {
  mock::Metrics metrics(2);
  metrics.shard(0).count_request(mock::Route::chat_completions, 200);
  metrics.shard(1).count_request(mock::Route::completions, 200);
  metrics.shard(1).count_request(mock::Route::chat_completions, 500);
  metrics.shard(1).count_request(mock::Route::metrics, 200);
  metrics.shard(0).prompt_tokens.add(120);
  metrics.shard(1).generation_tokens.add(33);
  metrics.shard(0).request_latency.observe_ns(20'000'000);
  metrics.shard(1).request_latency.observe_ns(300'000'000);
  const auto e = parse_ok(mock::render_vllm_metrics(metrics));
  CHECK(value(e, "vllm:request_success_total") == 2);
  CHECK(value(e, "vllm:prompt_tokens_total") == 120);
  CHECK(value(e, "vllm:generation_tokens_total") == 33);
  const auto lat = prometheus::histogram_series(*e.find("vllm:e2e_request_latency_seconds"));
  REQUIRE(lat.size() == 1);
  CHECK(lat[0].count == 2);
  CHECK(lat[0].sum == Approx(0.32).epsilon(1e-15));
  CHECK(e.find("vllm:e2e_request_latency_seconds")->type == prometheus::MetricType::kHistogram);
  CHECK(*e.find("vllm:request_success_total")->samples[0].label("model_name") == "mock");
}

TEST_CASE("metrics paths") {
  CHECK(mock::is_metrics_path("/metrics"));
  CHECK(mock::is_metrics_path("/vllm/metrics"));
  CHECK(mock::is_metrics_path("/dcgm1/metrics"));
  CHECK(mock::is_metrics_path("/dcgm2/metrics"));
  CHECK_FALSE(mock::is_metrics_path("/dcgm/metrics"));
  CHECK_FALSE(mock::is_metrics_path("/dcgmx/metrics"));
  CHECK_FALSE(mock::is_metrics_path("/v1/metrics"));
}
