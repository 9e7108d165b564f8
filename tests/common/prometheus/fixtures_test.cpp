// Recorded pages in each exporter's documented format parse into exactly what they say.
#include <catch2/catch.hpp>
#include <cmath>

#include "fixture.h"
#include "prometheus/exposition.h"
#include "prometheus/series.h"

using namespace aiperf::prometheus;
using aiperf::test::prometheus_fixture;

namespace {

Exposition parse_fixture(const std::string& name) {
  ParseResult r = parse(prometheus_fixture(name));
  INFO(name << ": " << (r.error ? std::to_string(r.error->line) + " " + r.error->message : ""));
  REQUIRE(r.ok());
  return *r.exposition;
}

const Family& family(const Exposition& e, std::string_view name) {
  const Family* f = e.find(name);
  INFO(name);
  REQUIRE(f != nullptr);
  return *f;
}

}  // namespace

TEST_CASE("DCGM exporter page: 25 fields x 2 GPUs with identity labels") {
  const Exposition e = parse_fixture("dcgm_exporter.txt");
  CHECK(e.families.size() == 25);
  const Family& power = family(e, "DCGM_FI_DEV_POWER_USAGE");
  CHECK(power.type == MetricType::kGauge);
  CHECK(power.help == "Power draw (in W).");
  REQUIRE(power.samples.size() == 2);
  CHECK(power.samples[0].value == 312.457);
  CHECK(*power.samples[1].label("gpu") == "1");
  CHECK(*power.samples[1].label("UUID") == "GPU-3f9d7a10-5b6c-4d7e-8f90-a1b2c3d4e5f6");
  CHECK(*power.samples[1].label("modelName") == "NVIDIA H100 80GB HBM3");
  CHECK(*power.samples[1].label("pci_bus_id") == "00000000:2A:00.0");
  CHECK(*power.samples[1].label("Hostname") == "dgx-node-07");
  const Family& energy = family(e, "DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION");
  CHECK(energy.type == MetricType::kCounter);
  CHECK(energy.samples[0].value == 98765432109.0);
  CHECK(family(e, "DCGM_FI_PROF_SM_ACTIVE").samples[1].value == 0.617002);
}

TEST_CASE("vLLM page: counters per finished_reason, histograms, _created gauges, process metrics") {
  const Exposition e = parse_fixture("vllm.txt");
  CHECK(e.families.size() == 12);
  const Family& success = family(e, "vllm:request_success_total");
  CHECK(success.type == MetricType::kCounter);
  REQUIRE(success.samples.size() == 3);
  CHECK(*success.samples[1].label("finished_reason") == "length");
  CHECK(success.samples[1].value == 29);
  CHECK(family(e, "vllm:prompt_tokens_created").type == MetricType::kGauge);
  const auto ttft = histogram_series(family(e, "vllm:time_to_first_token_seconds"));
  REQUIRE(ttft.size() == 1);
  CHECK(ttft[0].labels == Labels{{"engine", "0"}, {"model_name", "meta-llama/Llama-3.1-8B-Instruct"}});
  CHECK(ttft[0].buckets.size() == 10);
  CHECK(ttft[0].buckets[2].le == "0.01");
  CHECK(ttft[0].buckets[2].cumulative == 2);
  CHECK(ttft[0].count == 100);
  CHECK(ttft[0].sum == 3.4127);
  CHECK(family(e, "process_start_time_seconds").samples[0].value == 1.73412345678e9);
  CHECK(family(e, "python_gc_objects_collected_total").samples.size() == 3);
}

TEST_CASE("SGLang page: _sum before buckets still regroups") {
  const Exposition e = parse_fixture("sglang.txt");
  CHECK(e.families.size() == 10);
  const auto ttft = histogram_series(family(e, "sglang:time_to_first_token_seconds"));
  REQUIRE(ttft.size() == 1);
  CHECK(ttft[0].sum == 2.3518979474117756e+04);
  CHECK(ttft[0].buckets.back().cumulative == 83);
  const auto func = histogram_series(family(e, "sglang:func_latency_seconds"));
  REQUIRE(func.size() == 1);
  CHECK(func[0].labels == Labels{{"name", "generate_request"}});
  CHECK(family(e, "sglang:cache_hit_rate").samples[0].value == 0.007507552643049313);
}

TEST_CASE("TRT-LLM and Dynamo page: summary with timestamps, infinities, escapes") {
  const Exposition e = parse_fixture("trtllm_dynamo.txt");
  CHECK(e.families.size() == 9);
  const Family& summary = family(e, "dynamo_component_request_duration_seconds");
  CHECK(summary.type == MetricType::kSummary);
  CHECK(summary.help == "Request duration summary with a free-text note: \"p99 \\ tail\" and a line\nbreak");
  REQUIRE(summary.samples.size() == 5);
  CHECK(summary.samples[0].timestamp_ms == 1734123456789);
  CHECK(std::isnan(summary.samples[2].value));
  CHECK(summary.samples[4].name == "dynamo_component_request_duration_seconds_count");
  CHECK(summary.samples[4].value == 242);
  const Family& util = family(e, "trtllm_kv_cache_utilization");
  CHECK(util.samples[0].value == INFINITY);
  CHECK(util.samples[1].value == -INFINITY);
  const Family& info = family(e, "dynamo_component_info");
  CHECK(info.samples[0].labels ==
        Labels{{"path", "C:\\models\\llama"}, {"note", "say \"hi\""}, {"multi", "a\nb"}});
  const auto requests = family(e, "dynamo_frontend_requests_total");
  CHECK(requests.samples.size() == 2);
  CHECK(*requests.samples[1].label("status") == "error");
}

TEST_CASE("llama.cpp page: unlabelled samples") {
  const Exposition e = parse_fixture("llamacpp.txt");
  CHECK(e.families.size() == 12);
  const Family& tokens = family(e, "llamacpp:tokens_predicted_total");
  CHECK(tokens.type == MetricType::kCounter);
  CHECK(tokens.samples[0].labels.empty());
  CHECK(tokens.samples[0].value == 2048);
  CHECK(family(e, "llamacpp:kv_cache_usage_ratio").samples[0].value == 0.0625);
}
