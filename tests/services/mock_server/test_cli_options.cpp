// Command line and MOCK_SERVER_* environment variables.
#include <catch2/catch.hpp>
#include <cstdlib>

#include "cli_options.h"

using namespace aiperf::mock;

namespace {

MockConfig parse(std::vector<std::string> args) {
  CLI::App app;
  MockConfig config;
  add_mock_options(app, config);
  std::reverse(args.begin(), args.end());  // CLI11 takes the vector back to front
  app.parse(args);
  return config;
}

}  // namespace

TEST_CASE("defaults match AIPerf's mock server") {
  const MockConfig config = parse({});
  CHECK(config.host == "127.0.0.1");
  CHECK(config.port == 8000);
  CHECK(config.effective_ttft_ms() == 20.0);
  CHECK(config.effective_itl_ms() == 5.0);
  CHECK(config.error_rate_percent == 0.0);
  CHECK_FALSE(config.random_seed);
  CHECK(config.tokenizer == "gpt2");
  CHECK_FALSE(config.no_tokenizer);
  CHECK(config.workers >= 1);
}

TEST_CASE("options are parsed and --fast zeroes latencies") {
  const MockConfig config =
      parse({"-p", "0", "-w", "3", "--ttft", "7.5", "--itl", "2", "--error-rate", "12.5", "--random-seed",
             "42", "--no-tokenizer", "--log-level", "debug", "--access-logs"});
  CHECK(config.port == 0);
  CHECK(config.workers == 3);
  CHECK(config.effective_ttft_ms() == 7.5);
  CHECK(config.effective_itl_ms() == 2.0);
  CHECK(config.error_rate_percent == 12.5);
  CHECK(config.random_seed == 42u);
  CHECK(config.no_tokenizer);
  CHECK(config.log_level == "DEBUG");
  CHECK(config.access_logs);

  const MockConfig fast = parse({"--ttft", "7.5", "-f"});
  CHECK(fast.effective_ttft_ms() == 0.0);
  CHECK(fast.effective_itl_ms() == 0.0);
}

TEST_CASE("out-of-range values are rejected") {
  CHECK_THROWS_AS(parse({"--error-rate", "101"}), CLI::ValidationError);
  CHECK_THROWS_AS(parse({"--log-level", "loud"}), CLI::ValidationError);
}

TEST_CASE("MOCK_SERVER_* environment variables set options") {
  setenv("MOCK_SERVER_TTFT", "50", 1);
  setenv("MOCK_SERVER_FAST", "false", 1);
  const MockConfig config = parse({});
  unsetenv("MOCK_SERVER_TTFT");
  unsetenv("MOCK_SERVER_FAST");
  CHECK(config.effective_ttft_ms() == 50.0);
}

TEST_CASE("the --fault options reach the config") {
  const MockConfig config = parse({"--fault", "reset_mid_stream:10", "--fault", "http_429:20,malformed_json:5",
                                   "--fault-stall-ms", "250", "--fault-retry-after", "7", "--fault-slow-headers-ms",
                                   "40", "--fault-event-bytes", "1000"});
  CHECK(config.faults == std::vector<FaultSpec>{{Fault::reset_mid_stream, 10}, {Fault::http_429, 20},
                                                {Fault::malformed_json, 5}});
  CHECK(config.fault_stall_ms == 250);
  CHECK(config.fault_retry_after_s == 7);
  CHECK(config.fault_slow_headers_ms == 40);
  CHECK(config.fault_event_bytes == 1000);
  const MockConfig defaults = parse({});
  CHECK(defaults.faults.empty());
  CHECK(defaults.fault_event_bytes == 10u << 20);
  CHECK_THROWS_AS(parse({"--fault", "meteor"}), CLI::ValidationError);
  CHECK_THROWS_AS(parse({"--fault", "http_5xx:70", "--fault", "http_429:40"}), CLI::ValidationError);
}
