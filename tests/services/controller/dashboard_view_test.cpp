// The dashboard frame and the log tail, as text.
#include "dashboard_view.h"

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include "log_tail.h"
#include "metrics/metric_flags.h"

using namespace aiperf;
using namespace aiperf::controller::ui;

namespace {
constexpr int64_t kT0 = 1'700'000'000'000'000'000;
constexpr int64_t kSec = 1'000'000'000;

proto::MetricResult ttft() {
  proto::MetricResult m;
  m.set_tag("time_to_first_token");
  m.set_header("Time to First Token");
  m.set_unit("ms");
  m.set_display_order(200);
  m.set_is_record_metric(true);
  m.set_avg(20.5);
  m.set_min(10);
  m.set_max(1234.5);
  m.set_p99(30.126);
  m.set_p90(28);
  m.set_p50(20);
  m.set_count(40);
  return m;
}

proto::MetricResult request_count() {
  proto::MetricResult m;
  m.set_tag("request_count");
  m.set_header("Request Count");
  m.set_unit("requests");
  m.set_display_order(1000);
  m.set_integer_values(true);
  m.set_avg(40);
  m.set_count(1);
  return m;
}

}  // namespace

TEST_CASE("metric rows follow the final table: label, avg, min, max, p99, p90, p50, display order") {
  proto::ProfileResults r;
  *r.add_records() = request_count();
  *r.add_records() = ttft();
  proto::MetricResult hidden = ttft();
  hidden.set_tag("hidden_from_console");
  hidden.set_flags(metrics::flags::kNoConsole);
  *r.add_records() = hidden;
  const auto rows = metric_rows(r);
  REQUIRE(rows.size() == 2);
  CHECK(rows[0] == "Time to First Token (ms)                                   20.50       10.00    1,234.50"
                   "       30.13       28.00       20.00");
  CHECK(rows[1] == "Request Count (requests)                                      40         N/A         N/A"
                   "         N/A         N/A         N/A");
}

TEST_CASE("fit_width cuts by characters, not bytes, and drops control characters") {
  CHECK(fit_width("abc\x1b[2Jdef", 5) == "abc[2");
  CHECK(fit_width("\u2588\u2588\u2588x", 2) == "\u2588\u2588");
  CHECK(fit_width("short", 80) == "short");
}

TEST_CASE("the dashboard frame has exactly the terminal's rows, each within its columns") {
  RunState st;
  st.on_stage("running");
  proto::PhaseEvent ev;
  ev.set_kind(proto::PHASE_EVENT_PROGRESS);
  ev.set_phase(proto::PHASE_PROFILING);
  ev.set_sent(44);
  ev.set_completed(40);
  ev.set_total_expected(100);
  ev.set_start_wall_ns(kT0);
  st.on_phase(ev);
  proto::Register reg;
  reg.set_service_id("worker_1");
  reg.set_service_type("worker");
  reg.set_pid(4242);
  reg.set_hostname("hostA");
  st.on_register(reg, false, 5 * kSec);
  proto::Heartbeat hb;
  hb.set_service_id("worker_1");
  hb.set_service_type("worker");
  hb.set_state(proto::STATE_RUNNING);
  st.on_heartbeat(hb, 6 * kSec);
  proto::ProfileResults live;
  *live.add_records() = ttft();
  live.set_completed(40);
  st.on_live_metrics(live);

  DashboardInput in;
  in.state = &st;
  in.subtitle = "model m | chat streaming | http://x";
  in.cols = 120;
  in.rows = 30;
  in.now_wall_ns = kT0 + 4 * kSec;
  in.now_steady_ns = 7 * kSec;
  in.log_path = "/tmp/a/logs/aiperf.log";
  for (int i = 0; i < 40; ++i) in.log_tail.push_back("log line " + std::to_string(i));
  const auto lines = render_dashboard(in);
  REQUIRE(lines.size() == 30);
  for (const auto& l : lines) CHECK(fit_width(l.text, 120) == l.text);

  CHECK(lines[0].text == "NVIDIA AIPerf | Dashboard   stage: running   profiling 00:04   (Ctrl-C: cancel, twice: abort)");
  CHECK(lines[0].heading);
  CHECK(lines[1].text == "model m | chat streaming | http://x");
  CHECK(lines[3].text == "Progress");
  std::string bar;
  for (int i = 0; i < 30; ++i) bar += i < 12 ? "\u2588" : " ";
  CHECK(lines[4].text == "  Profiling: 40/100 |" + bar + "|  40% [00:04<00:06, 10.00 req/s, 0 errors]");
  CHECK(lines[5].text == "  in flight 4 | sent 44 | cancelled 0 | records 0 ok, 0 errors");
  CHECK(lines[7].text.rfind("Metrics (live, 40 records)", 0) == 0);
  CHECK(lines[8].text == fit_width(metric_rows(live)[0], 120));  // the p50 column is cut at 120
  CHECK(lines[10].text == "Workers (1 registered, 1 healthy, 0 other services)");
  CHECK(lines[11].text ==
        "  worker_1                    pid 4242    hostA               running               last seen 1.0s ago");
  CHECK(lines[13].text == "Log: /tmp/a/logs/aiperf.log");
  // The log takes the rest of the screen: rows 14..29 hold the last 16 lines.
  CHECK(lines[14].text == "  log line 24");
  CHECK(lines[29].text == "  log line 39");
}

TEST_CASE("a short terminal keeps the top of the frame") {
  RunState st;
  DashboardInput in;
  in.state = &st;
  in.cols = 40;
  in.rows = 5;
  const auto lines = render_dashboard(in);
  REQUIRE(lines.size() == 5);
  CHECK(lines[0].text == "NVIDIA AIPerf | Dashboard   stage: regis");
  CHECK(lines[4].text == "  waiting for the benchmark to start");
}

TEST_CASE("tail_lines returns the last complete lines, oldest first") {
  const std::string path = std::filesystem::temp_directory_path() / ("aiperf_tail_" + std::to_string(getpid()));
  {
    std::ofstream f(path, std::ios::binary);
    f << "one\ntwo\tTAB\nthree\nfour\npartial";
  }
  CHECK(tail_lines(path, 2) == std::vector<std::string>{"three", "four"});
  CHECK(tail_lines(path, 10) == std::vector<std::string>{"one", "two TAB", "three", "four"});
  // A 15-byte window starts inside "three": that partial line is dropped.
  CHECK(tail_lines(path, 10, 15) == std::vector<std::string>{"four"});
  CHECK(tail_lines(path + ".missing", 10).empty());
  std::filesystem::remove(path);
}
