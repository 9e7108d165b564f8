// AIPerf 0.13's "Server Metrics: Speculative Decoding" table from SGLang's gauges.
#include <catch2/catch.hpp>
#include <string>

#include "server_metrics.h"
#include "sglang_spec_console.h"

using namespace aiperf::telemetry;

namespace {

constexpr int64_t kS = 1'000'000'000;

// One scrape: accept rate and length for `model` on the leader and (different values, which
// must not show) on tensor-parallel rank 1.
std::string page(const std::string& model, double rate, double length, const std::string& extra = "") {
  const std::string leader = "{model_name=\"" + model + "\",pp_rank=\"0\",tp_rank=\"0\"" + extra + "}";
  const std::string rank1 = "{model_name=\"" + model + "\",pp_rank=\"0\",tp_rank=\"1\"" + extra + "}";
  return "# TYPE sglang:spec_accept_rate gauge\nsglang:spec_accept_rate" + leader + " " + std::to_string(rate) +
         "\nsglang:spec_accept_rate" + rank1 + " 0.99\n# TYPE sglang:spec_accept_length gauge\n" +
         "sglang:spec_accept_length" + leader + " " + std::to_string(length) + "\nsglang:spec_accept_length" + rank1 +
         " 9.5\n";
}

// Scrapes at 1..4 s (the window starts at 1 s) with rates 0.5..0.8 and lengths 2..3.5.
ServerMetrics run(const std::string& model, const std::string& url = "http://h:30000/metrics",
                  ServerMetrics m = ServerMetrics("")) {
  for (int i = 0; i < 4; ++i)
    REQUIRE(m.add_scrape(url, (1 + i) * kS, 0, 1000, page(model, 0.5 + 0.1 * i, 2 + 0.5 * i)));
  return m;
}

}  // namespace

TEST_CASE("sglang spec decode console: the leader's gauges of the run's model, scaled and rounded") {
  const ServerMetrics m = run("Meta/Llama");
  const std::string table = sglang_spec_decode_console(m.series(), kS, {"meta/llama"}, false);
  CHECK(table ==
        " NVIDIA AIPerf | Server Metrics: Speculative Decoding\n"
        "+----------------------------------------------------+\n"
        "| Metric          | mean |  min |  max |  p50 |  p90 |\n"
        "|-----------------+------+------+------+------+------|\n"
        "| Accept Rate (%) | 65.0 | 50.0 | 80.0 | 65.0 | 77.0 |\n"
        "| Accept Length   | 2.75 | 2.00 | 3.50 | 2.75 | 3.35 |\n"
        "+----------------------------------------------------+\n");
}

TEST_CASE("sglang spec decode console: nothing for other models, idle gauges or no SGLang series") {
  CHECK(sglang_spec_decode_console(run("other").series(), kS, {"meta/llama"}, false).empty());
  ServerMetrics idle("");
  for (int i = 0; i < 3; ++i) REQUIRE(idle.add_scrape("http://h/metrics", (1 + i) * kS, 0, 1000, page("m", 0, 0)));
  CHECK(sglang_spec_decode_console(idle.series(), kS, {"m"}, false).empty());
  ServerMetrics none("");
  REQUIRE(none.add_scrape("http://h/metrics", kS, 0, 1000, "# TYPE x gauge\nx 1\n"));
  CHECK(sglang_spec_decode_console(none.series(), kS, {"m"}, false).empty());
}

TEST_CASE("sglang spec decode console: several series are told apart by what differs") {
  // Two servers: rows named by endpoint (scheme and /metrics dropped).
  ServerMetrics two = run("m", "http://a:1/metrics", run("m", "http://b:2/metrics"));
  const std::string table = sglang_spec_decode_console(two.series(), kS, {"m"}, false);
  CHECK(table.find("| Accept Rate (%) (endpoint=a:1) ") != std::string::npos);
  CHECK(table.find("| Accept Rate (%) (endpoint=b:2) ") != std::string::npos);
  CHECK(table.find("| Accept Length (endpoint=b:2)   ") != std::string::npos);
  // Two models on one server: by model_name; a label that differs: by that label.
  ServerMetrics models("");
  for (int i = 0; i < 2; ++i)
    REQUIRE(models.add_scrape("http://h/metrics", (1 + i) * kS, 0, 1000,
                              "# TYPE sglang:spec_accept_rate gauge\n"
                              "sglang:spec_accept_rate{model_name=\"a\",dp_rank=\"0\"} 0.5\n"
                              "sglang:spec_accept_rate{model_name=\"b\",dp_rank=\"1\"} 0.5\n"
                              "# TYPE sglang:spec_accept_length gauge\n"
                              "sglang:spec_accept_length{model_name=\"a\",dp_rank=\"0\"} 2\n"
                              "sglang:spec_accept_length{model_name=\"b\",dp_rank=\"1\"} 2\n"));
  const std::string by_model = sglang_spec_decode_console(models.series(), kS, {"a", "b"}, false);
  CHECK(by_model.find("| Accept Rate (%) (model_name=a, dp_rank=0) ") != std::string::npos);
  CHECK(by_model.find("| Accept Length (model_name=b, dp_rank=1)   ") != std::string::npos);
}
