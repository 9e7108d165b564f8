// perf_analyzer's measurement windows (genai_perf_windows.h): window statistics, the stability
// verdict, its messages, and the watcher that closes windows as records arrive, on exact numbers.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <limits>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "genai_perf_config.h"
#include "genai_perf_options.h"
#include "genai_perf_windows.h"

using namespace aiperf::cli::genai_perf;

namespace {

constexpr int64_t kT0 = 1'000'000'000'000;
constexpr int64_t kMs = 1'000'000;

WindowStat w(int64_t count, double ips, uint64_t latency) {
  WindowStat s;
  s.count = count;
  s.infer_per_sec = ips;
  s.avg_latency_ns = latency;
  return s;
}

std::string record(int64_t start, int64_t end, const std::string& phase = "profiling", bool error = false) {
  nlohmann::json j{{"metadata", {{"request_start_ns", start}, {"request_end_ns", end}, {"benchmark_phase", phase},
                                 {"was_cancelled", false}}},
                   {"metrics", nlohmann::json::object()}};
  if (error) j["error"] = {{"type", "X"}, {"message", "boom"}};
  return j.dump();
}

}  // namespace

TEST_CASE("a window counts the requests that end in it, with perf_analyzer's statistics", "[genai_perf][windows]") {
  const int64_t len = 600 * kMs;  // -p 500
  const std::vector<Completion> c{
      {kT0 - 500'000, kT0 + 65'500'000 - 500'000},  // started before the window, ended in it: 65 ms
      {kT0 + 1 * kMs, kT0 + len},                     // ends on the boundary: the first window's
      {kT0 + 500 * kMs, kT0 + len + 1},               // one ns later: the second window's
      {kT0 - 10 * kMs, kT0 - 1},                      // ended before the first window: none
  };
  const WindowStat first = window_stat(c, kT0, len, 0);
  CHECK(first.count == 2);
  CHECK(first.avg_latency_ns == 332'250'000);  // (65'500'000 + 599'000'000) / 2
  CHECK(first.std_latency_us == 377'241);      // sqrt(2 * 266'750'000^2 / 1) / 1000, truncated
  CHECK(first.infer_per_sec == 3.3333332538604736);  // 2 / 0.6f, in float as perf_analyzer
  const WindowStat second = window_stat(c, kT0, len, 1);
  CHECK(second.count == 1);
  CHECK(second.avg_latency_ns == 100'000'001);
  CHECK(second.std_latency_us == std::numeric_limits<uint64_t>::max());
  const WindowStat third = window_stat(c, kT0, len, 2);
  CHECK(third.count == 0);
  CHECK(third.avg_latency_ns == 0);
  CHECK(third.infer_per_sec == 0.0);
  // A request that ends exactly at the series' start belongs to the first window.
  CHECK(window_stat({{kT0 - 5, kT0}}, kT0, len, 0).count == 1);
  WindowWatcher sample({500, 999});
  CHECK(sample.plan().window_ns() == 600'000'000);  // perf_analyzer sleeps 1.2 x the interval
}

TEST_CASE("perf_analyzer's verdict: the last 3 windows within the stability percentage", "[genai_perf][windows]") {
  // Fewer than 3 windows is never stable.
  CHECK(judge({w(8, 8, 100), w(8, 8, 100)}, 999) == Outcome::kMeasuring);
  CHECK(judge({w(8, 8, 100), w(8, 8, 100), w(8, 8, 100)}, 1) == Outcome::kStable);
  // max/min <= 1 + P/100, inclusive: 10/8 = 1.25.
  CHECK(judge({w(8, 8, 100), w(9, 9, 100), w(10, 10, 100)}, 25) == Outcome::kStable);
  CHECK(judge({w(8, 8, 100), w(9, 9, 100), w(10, 10, 100)}, 24) == Outcome::kMeasuring);
  // Latency is checked too: 125/100.
  CHECK(judge({w(8, 8, 100), w(8, 8, 125), w(8, 8, 110)}, 25) == Outcome::kStable);
  CHECK(judge({w(8, 8, 100), w(8, 8, 125), w(8, 8, 110)}, 20) == Outcome::kMeasuring);
  // Only the last 3 count; an empty window before them does not matter.
  CHECK(judge({w(0, 0, 0), w(30, 30, 100), w(5, 5, 100), w(5, 5, 100), w(5, 5, 100)}, 1) == Outcome::kStable);
  // An empty window among the last 3 is never stable, even at 999 %.
  CHECK(judge({w(5, 5, 100), w(0, 0, 0), w(5, 5, 100)}, 999) == Outcome::kMeasuring);

  // At the 10th window: throughput alone suffices (with a warning), else failure.
  std::vector<WindowStat> latency_jitter;
  for (int i = 0; i < 10; ++i) latency_jitter.push_back(w(4, 4, i % 2 ? 200 : 100));
  CHECK(judge(std::vector<WindowStat>(latency_jitter.begin(), latency_jitter.begin() + 9), 10) == Outcome::kMeasuring);
  CHECK(judge(latency_jitter, 10) == Outcome::kLatencyUnstable);
  std::vector<WindowStat> alternating;
  for (int i = 0; i < 10; ++i) alternating.push_back(w(i % 2 ? 2 : 1, i % 2 ? 2 : 1, 100));
  CHECK(judge(alternating, 50) == Outcome::kUnstable);
  CHECK(judge(alternating, 100) == Outcome::kStable);  // 2/1 <= 2
  alternating[8] = w(0, 0, 0);
  CHECK(judge(alternating, 50) == Outcome::kNoValidRequests);
  CHECK(judge(alternating, 50, 12) == Outcome::kMeasuring);  // a larger --max-trials goes on
}

TEST_CASE("perf_analyzer's messages and exit status per outcome", "[genai_perf][windows]") {
  WindowPlan conc{125, 10};
  conc.concurrency = 2;
  CHECK(outcome_messages(Outcome::kUnstable, conc) ==
        std::vector<std::string>{"Failed to obtain stable measurement within 10 measurement windows for concurrency 2. "
                                 "Please try to increase the --measurement-interval.",
                                 "Failed to obtain stable measurement."});
  WindowPlan rate{125, 10};
  rate.request_rate = true;
  CHECK(outcome_messages(Outcome::kUnstable, rate) ==
        std::vector<std::string>{"Failed to obtain stable measurement.", "Failed to obtain stable measurement."});
  CHECK(outcome_messages(Outcome::kNoValidRequests, conc) ==
        std::vector<std::string>{"No valid requests recorded within time interval. Please use a larger time window."});
  CHECK(outcome_messages(Outcome::kLatencyUnstable, conc) ==
        std::vector<std::string>{"Warning: Request latency is not stabilizing. Please try lowering the request rate."});
  CHECK(outcome_messages(Outcome::kStable, conc).empty());
  CHECK(pa_exit_status(Outcome::kStable) == 0);
  CHECK(pa_exit_status(Outcome::kLatencyUnstable) == 0);
  CHECK(pa_exit_status(Outcome::kUnstable) == 2);
  CHECK(pa_exit_status(Outcome::kNoValidRequests) == 3);

  WindowStat s = w(8, 33.33333206176758, 65'362'999);
  s.std_latency_us = 73;
  CHECK(pass_line(1, s) == "  Pass [2] throughput: 33.3333 infer/sec. Avg latency: 65362 usec (std 73 usec). ");
  CHECK(pass_line(0, WindowStat{}) ==
        "  Pass [1] cb::Error: No valid requests recorded within time interval. Please use a larger time window.");
}

TEST_CASE("the watcher closes windows as the clock passes them and stops at stability", "[genai_perf][windows]") {
  WindowWatcher watch({500, 10}, true, 300 * kMs);  // windows of 600 ms, settled 300 ms later
  CHECK(watch.poll(kT0 + 10'000 * kMs) == Outcome::kMeasuring);  // no record yet: no start
  CHECK_FALSE(watch.started());
  watch.add_record_line(record(kT0 - 5'000 * kMs, kT0 - 4'000 * kMs, "warmup"));  // ignored
  watch.add_record_line("not json");                                            // ignored
  // A failed request still marks the start of the load; it is not measured.
  watch.add_record_line(record(kT0, kT0 + 50 * kMs, "profiling", true));
  for (int i = 0; i < 3; ++i) {
    const int64_t base = kT0 + i * 600 * kMs;
    watch.add_record_line(record(base + 10 * kMs, base + 110 * kMs));
    watch.add_record_line(record(base + 20 * kMs, base + 120 * kMs));
  }
  // The next request ends after the third window: the third can close once settled.
  watch.add_record_line(record(kT0 + 1'790 * kMs, kT0 + 1'890 * kMs));
  CHECK(watch.poll(kT0 + 900 * kMs - 1) == Outcome::kMeasuring);  // window 1 not settled yet
  CHECK(watch.windows().empty());
  CHECK(watch.poll(kT0 + 900 * kMs) == Outcome::kMeasuring);
  REQUIRE(watch.windows().size() == 1);
  CHECK(watch.t0() == kT0);
  CHECK(watch.windows()[0].count == 2);
  CHECK(watch.windows()[0].avg_latency_ns == 100 * kMs);
  // Windows 2 and 3 settle together; the third makes the last 3 stable.
  CHECK(watch.poll(kT0 + 2'100 * kMs) == Outcome::kStable);
  CHECK(watch.windows().size() == 3);
  CHECK(watch.boundaries() == std::vector<int64_t>{kT0, kT0 + 600 * kMs, kT0 + 1'200 * kMs, kT0 + 1'800 * kMs});
  CHECK(watch.poll(kT0 + 100'000 * kMs) == Outcome::kStable);  // decided: no more windows
  CHECK(watch.windows().size() == 3);
  const std::vector<std::string> out = watch.take_stdout();
  REQUIRE(out.size() == 3);
  CHECK(out[0] == "  Pass [1] throughput: 3.33333 infer/sec. Avg latency: 100000 usec (std 0 usec). ");
  CHECK(watch.take_stderr().empty());
}

TEST_CASE("a window waits for a record that ends after it, 2 s at most", "[genai_perf][windows]") {
  WindowWatcher watch({500, 999}, false, 300 * kMs);
  watch.add_record_line(record(kT0, kT0 + 100 * kMs));
  // Settled, but no record ends after the first window yet (they come roughly in end order).
  CHECK(watch.poll(kT0 + 900 * kMs) == Outcome::kMeasuring);
  CHECK(watch.windows().empty());
  watch.add_record_line(record(kT0 + 100 * kMs, kT0 + 601 * kMs));
  CHECK(watch.poll(kT0 + 900 * kMs) == Outcome::kMeasuring);
  REQUIRE(watch.windows().size() == 1);
  CHECK(watch.windows()[0].count == 1);
  // Nothing ends after the second window: it closes 2 s after settling, by the clock alone.
  CHECK(watch.poll(kT0 + 3'500 * kMs - 1) == Outcome::kMeasuring);
  CHECK(watch.windows().size() == 1);
  CHECK(watch.poll(kT0 + 3'500 * kMs) == Outcome::kMeasuring);
  REQUIRE(watch.windows().size() == 2);
  CHECK(watch.windows()[1].count == 1);
}

TEST_CASE("the watcher fails as perf_analyzer does after 10 windows", "[genai_perf][windows]") {
  WindowPlan plan{125, 10};  // windows of 150 ms
  plan.concurrency = 1;
  WindowWatcher watch(plan, false, 0);
  // One request every 100 ms: the windows alternate 1, 2, 1, 2, ... requests; never 3 alike.
  for (int i = 0; i < 20; ++i) watch.add_record_line(record(kT0 + i * 100 * kMs, kT0 + (i + 1) * 100 * kMs));
  CHECK(watch.poll(kT0 + 1'350 * kMs) == Outcome::kMeasuring);  // 9 windows
  CHECK(watch.windows().size() == 9);
  CHECK(watch.poll(kT0 + 1'500 * kMs) == Outcome::kUnstable);
  std::vector<int64_t> counts;
  for (const WindowStat& s : watch.windows()) counts.push_back(s.count);
  CHECK(counts == std::vector<int64_t>{1, 2, 1, 2, 1, 2, 1, 2, 1, 2});
  const std::vector<std::string> err = watch.take_stderr();
  REQUIRE(err.size() == 7);  // 5 one-request warnings, then the two failure lines
  CHECK(err[0] == "WARNING: Pass contained only one request, so sample latency standard deviation will be infinity "
                  "(UINT64_MAX).");
  CHECK(err[5] == "Failed to obtain stable measurement within 10 measurement windows for concurrency 1. Please try to "
                  "increase the --measurement-interval.");
  CHECK(err[6] == "Failed to obtain stable measurement.");
  CHECK(watch.take_stdout().empty());  // not verbose
}

TEST_CASE("a windowed run reports the requests that ended within its windows", "[genai_perf][windows]") {
  CHECK(requests_in_windows({5, 10, 15, 25, 20, 21}, {10, 15, 20}) == std::vector<size_t>{1, 2, 4});
  CHECK(requests_in_windows({5, 10}, {10}).empty());  // no closed window
}

TEST_CASE("genai-perf profile -p/-s: parsed, checked and mapped as GenAI-Perf does", "[genai_perf][windows]") {
  const std::vector<std::string> base{"-m", "m", "--endpoint-type", "chat", "--concurrency", "2"};
  const auto with = [&](std::vector<std::string> extra) {
    std::vector<std::string> w = base;
    w.insert(w.end(), extra.begin(), extra.end());
    return parse_profile_args(w);
  };
  const ProfileArgs a = with({"-p", "500", "-s", "25"});
  CHECK(a.measurement_interval == 500);
  CHECK(a.stability_percentage == 25.0);
  // No request count: one continuous load, bounded by 10 windows of 0.6 s plus 10 s.
  const std::vector<std::string> args = to_aiperf_args(a, "D");
  CHECK(std::find(args.begin(), args.end(), "--request-count") == args.end());
  const auto d = std::find(args.begin(), args.end(), "--benchmark-duration");
  REQUIRE(d != args.end());
  CHECK(*(d + 1) == "16.0");
  const nlohmann::ordered_json pa = input_config(a)["perf_analyzer"];
  CHECK(pa["stability_percentage"].dump() == "25.0");
  CHECK(pa["measurement"].dump() == R"({"mode":"interval","num":500})");
  // -v is GenAI-Perf's own verbosity; perf_analyzer's stays false.
  const nlohmann::ordered_json verbose = input_config(with({"-v"}));
  CHECK(verbose["verbose"] == true);
  CHECK(verbose["perf_analyzer"]["verbose"] == false);
  // Unset, and 0 for either (GenAI-Perf's falsy values): request-count mode, stability 999.
  for (const ProfileArgs& unset : {with({}), with({"--measurement-interval=0", "--stability-percentage", "0"})}) {
    CHECK_FALSE(unset.measurement_interval);
    CHECK_FALSE(unset.stability_percentage);
    const nlohmann::ordered_json p = input_config(unset)["perf_analyzer"];
    CHECK(p["stability_percentage"].dump() == "999");
    CHECK(p["measurement"].dump() == R"({"mode":"request_count","num":""})");
  }
  const auto refuses = [&](std::vector<std::string> extra, const std::string& message) {
    try {
      with(extra);
      FAIL("accepted: " << extra.back());
    } catch (const GenAiPerfOptionError& e) {
      CHECK(std::string(e.what()) == message);
    }
  };
  refuses({"-p", "-5"}, "argument --measurement-interval/-p: User Config: -5 exceeds lower bounds ({'lower': 0})");
  refuses({"-p", "abc"}, "argument --measurement-interval/-p: invalid int value: 'abc'");
  refuses({"-s", "0.5"}, "argument -s/--stability-percentage: User Config: 0.5 exceeds lower bounds ({'lower': 1, 'upper': 999})");
  refuses({"-s", "1000"},
          "argument -s/--stability-percentage: User Config: 1000.0 exceeds upper bounds ({'lower': 1, 'upper': 999})");
  refuses({"-s", "-3"}, "argument -s/--stability-percentage: User Config: -3.0 exceeds lower bounds ({'lower': 1, 'upper': 999})");
  refuses({"-s", "x"}, "argument -s/--stability-percentage: invalid float value: 'x'");
  refuses({"-p", "0", "--request-count", "5"},
          "argument --request-count/--num-requests: not allowed with argument --measurement-interval/-p");
}

TEST_CASE("genai-perf config -f: measurement interval mode and the stability percentage", "[genai_perf][windows]") {
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / "aiperf_genai_perf_windows_test";
  std::filesystem::create_directories(dir);
  const auto write = [&](const std::string& name, const std::string& text) {
    std::ofstream(dir / name) << text;
    return (dir / name).string();
  };
  const ConfigRun interval = read_config(write(
      "interval.yaml", "model_names: m\nendpoint:\n  type: chat\nperf_analyzer:\n  stability_percentage: 80\n"
                       "  measurement:\n    mode: interval\n    num: 200\n"));
  CHECK(interval.words ==
        std::vector<std::string>{"--model=m", "--endpoint-type=chat", "--stability-percentage=80", "--measurement-interval=200"});
  CHECK(interval.stability_percentage_integral);
  ProfileArgs a = parse_profile_args(interval.words);
  a.stability_percentage_integral = interval.stability_percentage_integral;
  CHECK(input_config(a)["perf_analyzer"]["stability_percentage"].dump() == "80");
  CHECK(input_config(a)["perf_analyzer"]["measurement"].dump() == R"({"mode":"interval","num":200})");
  // interval without num: GenAI-Perf's 10000 ms; a fractional percentage stays a float.
  const ConfigRun inferred = read_config(write(
      "inferred.yaml", "model_names: m\nendpoint:\n  type: chat\nperf_analyzer:\n  stability_percentage: 12.5\n"
                       "  measurement:\n    mode: interval\n"));
  CHECK(inferred.words == std::vector<std::string>{"--model=m", "--endpoint-type=chat", "--stability-percentage=12.5",
                                                   "--measurement-interval=10000"});
  CHECK_FALSE(inferred.stability_percentage_integral);
  // The template's 999 is the default: not passed on.
  const ConfigRun deflt =
      read_config(write("default.yaml", "model_names: m\nendpoint:\n  type: chat\nperf_analyzer:\n  stability_percentage: 999\n"));
  CHECK(deflt.words == std::vector<std::string>{"--model=m", "--endpoint-type=chat"});
  std::filesystem::remove_all(dir);
}
