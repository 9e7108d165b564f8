// GPU energy efficiency (AIPerf 0.13's EnergyEfficiencyAnalyzer): a scripted power and energy
// series gives exact joules and watts per GPU window, and those totals with the run's tokens,
// requests and latency give exact tokens per joule, energy per token/request/user, the
// energy-delay product and the per-watt rates; the console table that shows them.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "gpu_telemetry.h"
#include "metrics/energy_efficiency.h"
#include "metrics/metric_flags.h"

using namespace aiperf;
using telemetry::GpuTelemetry;

namespace {

const std::string kUrl = "http://node:9400/metrics";

// One DCGM page: each GPU's power (W) and energy counter (mJ), as dcgm-exporter writes them.
struct GpuSample {
  std::string uuid;
  double power_w;
  double energy_mj;
};
std::string page(const std::vector<GpuSample>& gpus) {
  std::string power = "# TYPE DCGM_FI_DEV_POWER_USAGE gauge\n";
  std::string energy = "# TYPE DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION counter\n";
  for (size_t i = 0; i < gpus.size(); ++i) {
    const std::string labels = "{gpu=\"" + std::to_string(i) + "\",UUID=\"" + gpus[i].uuid + "\",modelName=\"H100\"}";
    power += "DCGM_FI_DEV_POWER_USAGE" + labels + " " + std::to_string(gpus[i].power_w) + "\n";
    if (gpus[i].energy_mj >= 0)
      energy += "DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION" + labels + " " + std::to_string(gpus[i].energy_mj) + "\n";
  }
  return power + energy;
}

// Window [1000, 2000] ns, energy read up to 2000 + 500. GPU A: a reading before the window
// (its energy baseline), three in it (power 200, 300, 400: mean 300 W), one in the grace (its
// energy closes the window: 2e6 - 1e6 mJ = 1000 J; its 900 W is after the window's end) and one
// past the grace (ignored). GPU B appears at the window start: its first reading is the
// baseline (5.5e6 - 5e6 mJ = 500 J), power 100 W.
GpuTelemetry scripted_run() {
  GpuTelemetry t;
  REQUIRE(t.add_scrape(kUrl, 500, page({{"GPU-A", 100, 1'000'000}})) == 1);
  REQUIRE(t.add_scrape(kUrl, 1000, page({{"GPU-A", 200, 1'200'000}, {"GPU-B", 100, 5'000'000}})) == 2);
  REQUIRE(t.add_scrape(kUrl, 1500, page({{"GPU-A", 300, 1'500'000}, {"GPU-B", 100, 5'200'000}})) == 2);
  REQUIRE(t.add_scrape(kUrl, 2000, page({{"GPU-A", 400, 1'800'000}, {"GPU-B", 100, 5'500'000}})) == 2);
  REQUIRE(t.add_scrape(kUrl, 2400, page({{"GPU-A", 900, 2'000'000}})) == 1);
  REQUIRE(t.add_scrape(kUrl, 2600, page({{"GPU-A", 900, 9'000'000}, {"GPU-B", 900, 9'000'000}})) == 2);
  return t;
}

// The run of the examples: 30 requests, 300 output and 1200 input tokens, mean latency 250 ms,
// 6 requests/s, 60 output tokens/s, concurrency 3.
metrics::RunTotals run_of_thirty() {
  metrics::RunTotals run;
  run.total_osl = 300;
  run.total_isl = 1200;
  run.request_count = 30;
  run.request_latency_ms = 250;
  run.request_throughput = 6;
  run.output_token_throughput = 60;
  run.concurrency = 3;
  return run;
}

struct Value {
  std::string tag, unit;
  double avg;
};
std::vector<Value> values(const std::vector<proto::MetricResult>& results) {
  std::vector<Value> out;
  for (const auto& r : results) out.push_back({r.tag(), r.unit(), r.avg()});
  return out;
}
void check_values(const std::vector<proto::MetricResult>& results, const std::vector<Value>& expected) {
  const auto got = values(results);
  REQUIRE(got.size() == expected.size());
  for (size_t i = 0; i < got.size(); ++i) {
    INFO(expected[i].tag);
    CHECK(got[i].tag == expected[i].tag);
    CHECK(got[i].unit == expected[i].unit);
    CHECK(got[i].avg == Approx(expected[i].avg).epsilon(1e-12));
  }
}

}  // namespace

TEST_CASE("energy totals: counter increase over the window plus grace, mean power over the window") {
  const GpuTelemetry t = scripted_run();
  const metrics::GpuEnergyTotals totals = t.energy_totals("nvidia", 1000, 2000, 500);
  CHECK(totals.energy_gpus == 2);
  CHECK(totals.energy_j == Approx(1500.0).epsilon(1e-12));  // 1000 J (A) + 500 J (B)
  CHECK(totals.power_gpus == 2);
  CHECK(totals.power_w == Approx(400.0).epsilon(1e-12));  // 300 W (A) + 100 W (B)

  CHECK(t.platforms() == std::vector<std::string>{"nvidia"});
  CHECK(t.scrape_span() == std::pair<int64_t, int64_t>{500, 2600});
  const metrics::GpuEnergyTotals amd = t.energy_totals("amd", 1000, 2000, 500);
  CHECK(amd.energy_gpus == 0);
  CHECK(amd.power_gpus == 0);
}

TEST_CASE("energy totals: a counter that went back (exporter restart) counts 0, not a negative energy") {
  GpuTelemetry t;
  REQUIRE(t.add_scrape(kUrl, 500, page({{"GPU-A", 100, 4'000'000}})) == 1);
  REQUIRE(t.add_scrape(kUrl, 1500, page({{"GPU-A", 250, 1'000'000}})) == 1);
  const metrics::GpuEnergyTotals totals = t.energy_totals("nvidia", 1000, 2000, 0);
  CHECK(totals.energy_gpus == 1);
  CHECK(totals.energy_j == 0.0);
  CHECK(totals.power_w == 250.0);
}

TEST_CASE("energy efficiency: every metric of the counter's energy, AIPerf 0.13's tags, units and order") {
  metrics::GpuEnergyTotals gpu;
  gpu.energy_j = 1500;
  gpu.energy_gpus = 2;
  gpu.power_w = 400;
  gpu.power_gpus = 2;
  const auto results = metrics::energy_efficiency_metrics("nvidia", gpu, 5.0, run_of_thirty());
  check_values(results, {
                            {"nvidia_total_gpu_power", "W", 400},                     // sum of the GPUs' mean power
                            {"nvidia_average_gpu_power", "W", 300},                   // 1500 J / 5 s
                            {"nvidia_total_gpu_energy", "J", 1500},                   //
                            {"nvidia_output_tokens_per_joule", "tokens/J", 0.2},      // 300 / 1500
                            {"nvidia_energy_per_output_token", "mJ/token", 5000},     // 1500e3 mJ / 300
                            {"nvidia_energy_per_total_token", "mJ/token", 1000},      // 1500e3 mJ / 1500
                            {"nvidia_energy_per_request", "joules/request", 50},      // 1500 / 30
                            {"nvidia_energy_per_user", "joules/user", 500},           // 1500 / 3
                            {"nvidia_energy_delay_product", "J*s", 12.5},             // 50 J x 0.25 s
                            {"nvidia_performance_per_watt", "requests/sec/W", 0.02},  // 6 / 300
                            {"nvidia_output_tps_per_watt", "tokens/sec/W", 0.2},      // 60 / 300
                        });
  CHECK(results[0].header() == "Total GPU Power");
  CHECK(results[4].header() == "Energy per Output Token");
  CHECK(results[4].display_order() == 750);
  CHECK(results[8].display_order() == 700);
  CHECK(results[3].flags() ==
        (metrics::flags::kLargerIsBetter | metrics::flags::kProducesTokensOnly | metrics::flags::kNoConsole));
  CHECK(results[1].flags() == metrics::flags::kNoConsole);  // not in the main table: their own table
}

TEST_CASE("energy efficiency: without an energy counter the energy is mean power x duration") {
  metrics::GpuEnergyTotals gpu;
  gpu.power_w = 400;
  gpu.power_gpus = 2;
  metrics::RunTotals run;
  run.request_count = 8;
  run.request_throughput = 4;
  run.goodput = 0;  // --goodput given and no request met it: 0 per watt, still reported
  const auto results = metrics::energy_efficiency_metrics("amd", gpu, 2.0, run);
  check_values(results, {
                            {"amd_total_gpu_power", "W", 400},
                            {"amd_average_gpu_power", "W", 400},
                            {"amd_total_gpu_energy", "J", 800},  // 400 W x 2 s
                            {"amd_energy_per_request", "joules/request", 100},
                            {"amd_performance_per_watt", "requests/sec/W", 0.01},
                            {"amd_goodput_per_watt", "good-req/s/W", 0},
                        });
  CHECK(results[0].display_order() == 840);  // AMD's order: NVIDIA's + 100
}

TEST_CASE("energy efficiency: no energy means total power alone, no power and no energy mean nothing") {
  metrics::GpuEnergyTotals idle;
  idle.power_gpus = 1;  // a power reading of 0 W and no energy counter
  check_values(metrics::energy_efficiency_metrics("nvidia", idle, 3.0, run_of_thirty()),
               {{"nvidia_total_gpu_power", "W", 0}});
  CHECK(metrics::energy_efficiency_metrics("nvidia", {}, 3.0, run_of_thirty()).empty());
  metrics::GpuEnergyTotals gpu{1500, 2, 400, 2};
  CHECK(metrics::energy_efficiency_metrics("intel", gpu, 3.0, run_of_thirty()).empty());
  // A zero-length window: the energy stands, no average power and nothing per watt.
  check_values(metrics::energy_efficiency_metrics("nvidia", gpu, 0.0, metrics::RunTotals{}),
               {{"nvidia_total_gpu_power", "W", 400}, {"nvidia_total_gpu_energy", "J", 1500}});
}

TEST_CASE("energy efficiency: the run's values come from the summary records by tag") {
  proto::ProfileResults results;
  auto add = [&](const std::string& tag, double avg) {
    auto* m = results.add_records();
    m->set_tag(tag);
    m->set_avg(avg);
  };
  add("request_latency", 250);
  add("total_osl", 300);
  add("total_isl", 1200);
  add("request_count", 30);
  add("request_throughput", 6);
  add("output_token_throughput", 60);
  results.add_records()->set_tag("goodput");  // no value: absent
  const metrics::RunTotals run = metrics::run_totals(results, 3);
  CHECK(*run.request_latency_ms == 250);
  CHECK(*run.total_osl == 300);
  CHECK(*run.total_isl == 1200);
  CHECK(*run.request_count == 30);
  CHECK(*run.request_throughput == 6);
  CHECK(*run.output_token_throughput == 60);
  CHECK_FALSE(run.goodput);
  CHECK(*run.concurrency == 3);
}

TEST_CASE("energy efficiency: the console's GPU Power Efficiency table, by display order, avg only") {
  metrics::GpuEnergyTotals gpu{1500, 2, 400, 2};
  const auto results = metrics::energy_efficiency_metrics("nvidia", gpu, 5.0, run_of_thirty());
  CHECK(telemetry::power_efficiency_console("nvidia", results, false) ==
        "           GPU Power Efficiency (NVIDIA)\n"
        "+--------------------------------------------------+\n"
        "|                                Metric |      avg |\n"
        "|---------------------------------------+----------|\n"
        "|            Energy Delay Product (J*s) |    12.50 |\n"
        "| Performance per Watt (requests/sec/W) |     0.02 |\n"
        "|     Output Tokens per Second per Watt |     0.20 |\n"
        "|                        (tokens/sec/W) |          |\n"
        "|                 Average GPU Power (W) |   300.00 |\n"
        "|                  Total GPU Energy (J) | 1,500.00 |\n"
        "|                   Total GPU Power (W) |   400.00 |\n"
        "|     Energy per Total Token (mJ/token) | 1,000.00 |\n"
        "|    Energy per Output Token (mJ/token) | 5,000.00 |\n"
        "|   Energy per Request (joules/request) |    50.00 |\n"
        "|    Output Tokens per Joule (tokens/J) |     0.20 |\n"
        "|         Energy per User (joules/user) |   500.00 |\n"
        "+--------------------------------------------------+\n");
  CHECK(telemetry::power_efficiency_console("amd", results, false).empty());
}
