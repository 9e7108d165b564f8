// --request-rate-series: the file's two shapes and every refusal with the reference's message,
// the piecewise-linear value, and the arrivals it produces when the timing service applies it
// every 100 ms (ArrivalSchedule::change_rate), on a fake timeline.
#include "rate_series.h"

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include "arrival_schedule.h"

using namespace aiperf::timing;

namespace {
std::string refusal(const std::string& text) {
  try {
    parse_rate_series(text, "s.json");
  } catch (const RateSeriesError& e) {
    return e.what();
  }
  return "accepted";
}
}  // namespace

TEST_CASE("rate series: an object with points or a bare array") {
  const RatePoints a = parse_rate_series(R"({"points": [{"time_s": 0, "qps": 2}, {"time_s": 10, "qps": 20.5}]})", "s.json");
  REQUIRE(a.size() == 2);
  CHECK(a[0] == std::pair{0.0, 2.0});
  CHECK(a[1] == std::pair{10.0, 20.5});
  const RatePoints b = parse_rate_series(R"([{"qps": 1, "time_s": 1}, {"time_s": 2.5, "qps": 3}])", "s.json");
  CHECK(b == RatePoints{{1.0, 1.0}, {2.5, 3.0}});
}

TEST_CASE("rate series: refusals name what is wrong as the reference does") {
  CHECK(refusal("{") == "Invalid request-rate series JSON 's.json'");
  CHECK(refusal(R"({"points": [], "x": 1})") == "Request-rate series JSON must contain exactly one top-level key: points");
  CHECK(refusal("3") == "Request-rate series JSON must be an object with points or a points array");
  CHECK(refusal(R"({"points": {}})") == "Request-rate series JSON points must be an array");
  CHECK(refusal(R"([{"time_s": 0, "qps": 1}])") == "Request-rate series requires at least two points");
  CHECK(refusal(R"([{"time_s": 0, "qps": 1}, {"time_s": 1, "qps": 0}])") ==
        "Invalid request-rate series point 1: qps: Input should be greater than 0");
  CHECK(refusal(R"([{"time_s": -1, "qps": 1}, {"time_s": 1, "qps": 2}])") ==
        "Invalid request-rate series point 0: time_s: Input should be greater than or equal to 0");
  CHECK(refusal(R"([{"time_s": 0, "qps": 1, "x": 1}, {"time_s": 1, "qps": 2}])") ==
        "Invalid request-rate series point 0: x: Extra inputs are not permitted");
  CHECK(refusal(R"([{"time_s": 0}, {"time_s": 1, "qps": 2}])") == "Invalid request-rate series point 0: qps: Field required");
  CHECK(refusal(R"([{"time_s": 0, "qps": "2"}, {"time_s": 1, "qps": 2}])") ==
        "Invalid request-rate series point 0: qps: Input should be a valid number");
  CHECK(refusal(R"([{"time_s": 0, "qps": 1}, {"time_s": 0, "qps": 2}])") ==
        "Request-rate series time_s values must be strictly increasing");
  CHECK(refusal(R"([{"time_s": 0, "qps": 1}, {"time_s": 1e999, "qps": 2}])") != "accepted");
}

TEST_CASE("rate series: a file that cannot be read") {
  try {
    read_rate_series_file("/nonexistent/series.json");
    FAIL("accepted");
  } catch (const RateSeriesError& e) {
    CHECK(std::string(e.what()) == "Cannot read request-rate series JSON '/nonexistent/series.json'");
  }
  const auto path = std::filesystem::temp_directory_path() / "aiperf_rate_series_test.json";
  std::ofstream(path) << R"({"points": [{"time_s": 0, "qps": 4}, {"time_s": 2, "qps": 8}]})";
  CHECK(read_rate_series_file(path.string()) == RatePoints{{0.0, 4.0}, {2.0, 8.0}});
  std::filesystem::remove(path);
}

TEST_CASE("rate series: piecewise-linear, held before the first and after the last point") {
  const RatePoints p{{1, 10}, {3, 30}, {4, 2}};
  CHECK(rate_series_value(p, 0) == 10);
  CHECK(rate_series_value(p, 1) == 10);
  CHECK(rate_series_value(p, 2) == 20);
  CHECK(rate_series_value(p, 3) == 30);
  CHECK(rate_series_value(p, 3.5) == 16);
  CHECK(rate_series_value(p, 4) == 2);
  CHECK(rate_series_value(p, 100) == 2);
}

TEST_CASE("a rate change brings the pending arrival forward only when that is sooner") {
  ArrivalSchedule s(ArrivalPattern::kConstant, 1, 1, std::mt19937_64(1));
  s.start(0);
  const int64_t pending = s.next(0);
  CHECK(pending == 1'000'000'000);
  // 0.1 s in, the rate goes to 100/s: the arrival due at 1 s comes at 0.1 + 0.01 s instead.
  CHECK(s.change_rate(100, 100'000'000, pending) == 110'000'000);
  CHECK(s.next(110'000'000) == 120'000'000);  // and the schedule goes on from there
  // The same rate again changes nothing.
  CHECK(s.change_rate(100, 115'000'000, 120'000'000) == 120'000'000);
  // Slower: the pending arrival keeps its time; the next interval is the slow one.
  CHECK(s.change_rate(2, 115'000'000, 120'000'000) == 120'000'000);
  CHECK(s.next(120'000'000) == 620'000'000);
}

// The timing service's loop on a fake timeline: constant arrivals, the series sampled every
// 100 ms from t = 0. Counting arrivals per second shows the rate following the series.
TEST_CASE("rate series: constant arrivals follow a step-like series second by second") {
  const RatePoints series{{0, 10}, {1, 10}, {1.001, 50}, {3, 50}};
  ArrivalSchedule s(ArrivalPattern::kConstant, 10, 1, std::mt19937_64(1), INT64_MAX);
  s.start(0);
  std::vector<int64_t> sent;
  int64_t pending = s.next(0);
  int64_t tick = 0;
  const int64_t end = 3'000'000'000;
  while (pending < end) {
    if (tick <= pending) {  // the 100 ms update comes first
      pending = s.change_rate(rate_series_value(series, tick / 1e9), tick, pending);
      tick += 100'000'000;
      continue;
    }
    sent.push_back(pending);
    pending = s.next(pending);
  }
  auto in_second = [&](int k) {
    return std::count_if(sent.begin(), sent.end(), [k](int64_t t) { return t >= k * 1'000'000'000ll && t < (k + 1) * 1'000'000'000ll; });
  };
  CHECK(sent.front() == 100'000'000);
  CHECK(in_second(0) == 9);   // 0.1, 0.2, ..., 0.9 s at 10/s
  // 1.0 and 1.1 s (already pending when the rate rose: 1.1 + 20 ms is not sooner), then every
  // 20 ms from 1.12 to 1.98 s.
  CHECK(in_second(1) == 46);
  CHECK(in_second(2) == 50);  // 2.00 ... 2.98 s
  CHECK(sent.back() == 2'980'000'000);
}
