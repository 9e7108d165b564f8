// End-to-end: `genai-perf profile --measurement-interval MS [--stability-percentage P]` against
// the mock: perf_analyzer's time windows (1.2 x the interval, back to back) run until the last 3
// are stable, and the files hold exactly the requests that ended within the windows; a run that
// cannot stabilise ends as perf_analyzer (and GenAI-Perf) end: its message, exit 1, inputs.json only.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "genai_perf_run.h"
#include "process.h"

using aiperf::test::MockServer;
using aiperf::test::read_file;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

using Run = aiperf::test::GenAiPerfRun;
using aiperf::test::files_under;

Run genai_perf(const std::string& tmp, std::vector<std::string> args, const std::string& name) {
  args.insert(args.begin(), "profile");
  return aiperf::test::run_genai_perf(tmp, args, name, false, 180);
}

size_t count_of(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

}  // namespace

TEST_CASE("genai-perf -p: stable time windows; the files hold the windows' requests", "[e2e][genai_perf][windows]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  MockServer mock({"--ttft", "20", "--itl", "5"}, tmp);
  // The default stability percentage (999) accepts any 3 windows that measured a request: 3 windows.
  const Run r = genai_perf(tmp,
                           {"-m", "m", "--endpoint-type", "chat", "--streaming", "-u", mock.url(), "--concurrency", "2",
                            "--measurement-interval", "300", "--synthetic-input-tokens-mean", "20",
                            "--output-tokens-mean", "4", "--extra-inputs", "ignore_eos:true", "--tokenizer", "gpt2",
                            "--artifact-dir", tmp + "/arts", "-v"},
                           "stable");
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 0);
  // perf_analyzer's verbose pass lines, one per window; the front end's own stop is not reported
  // as a cancelled benchmark.
  CHECK(count_of(r.out, "  Pass [") == 3);
  CHECK(r.out.find("  Pass [3] throughput: ") != std::string::npos);
  CHECK(r.err.find("BENCHMARK CANCELLED") == std::string::npos);
  const std::string dir = tmp + "/arts/m-openai-chat-concurrency2";
  CHECK(files_under(dir) == std::vector<std::string>{"inputs.json", "logs/aiperf.log", "profile_export.json",
                                                     "profile_export_genai_perf.csv",
                                                     "profile_export_genai_perf.json"});
  const json pa = json::parse(read_file(dir + "/profile_export.json"));
  const json& experiment = pa["experiments"][0];
  const std::vector<int64_t> wb = experiment["window_boundaries"].get<std::vector<int64_t>>();
  REQUIRE(wb.size() == 4);  // 3 windows, back to back, each 1.2 x 300 ms
  for (size_t i = 1; i < wb.size(); ++i) CHECK(wb[i] - wb[i - 1] == 360'000'000);
  // Every request reported ended within the windows; each window measured some.
  std::vector<int> per_window(3, 0);
  for (const json& req : experiment["requests"]) {
    const int64_t end = req["response_timestamps"].back().get<int64_t>();
    REQUIRE(end >= wb.front());
    REQUIRE(end <= wb.back());
    ++per_window[std::min<size_t>(2, static_cast<size_t>((end - wb.front() - 1) / 360'000'000))];
  }
  for (const int n : per_window) CHECK(n > 0);
  const size_t reported = experiment["requests"].size();
  const json stats = json::parse(read_file(dir + "/profile_export_genai_perf.json"));
  CHECK(stats["request_count"]["avg"].get<double>() == static_cast<double>(reported));
  // ~40 ms requests at concurrency 2 over 1.08 s (~50): more than the 10 a request count would send.
  CHECK(reported > 10);
  CHECK(stats["input_config"]["perf_analyzer"]["measurement"] == json{{"mode", "interval"}, {"num", 300}});
  CHECK(stats["input_config"]["perf_analyzer"]["stability_percentage"] == 999);
}

TEST_CASE("genai-perf -p: windows that never stabilise fail as perf_analyzer does", "[e2e][genai_perf][windows]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  // One ~100 ms request at a time, 150 ms windows: the windows alternate 1 and 2 requests (3 in a
  // row never agree within 10 %), for all 10 windows.
  MockServer mock({"--ttft", "100", "--itl", "0"}, tmp);
  const Run r = genai_perf(tmp,
                           {"-m", "m", "--endpoint-type", "chat", "--streaming", "-u", mock.url(), "--concurrency", "1",
                            "-p", "125", "-s", "10", "--synthetic-input-tokens-mean", "20", "--output-tokens-mean", "1",
                            "--extra-inputs", "ignore_eos:true", "--tokenizer", "gpt2", "--artifact-dir", tmp + "/arts"},
                           "unstable");
  INFO(r.out << r.err);
  CHECK(r.exit_code == 1);
  CHECK(r.err.find("Failed to obtain stable measurement within 10 measurement windows for concurrency 1. Please try "
                   "to increase the --measurement-interval.\nFailed to obtain stable measurement.\n") !=
        std::string::npos);
  CHECK(r.err.find("WARNING: Pass contained only one request, so sample latency standard deviation will be infinity "
                   "(UINT64_MAX).") != std::string::npos);
  // GenAI-Perf wrote inputs.json before perf_analyzer failed, and nothing after.
  CHECK(files_under(tmp + "/arts/m-openai-chat-concurrency1") ==
        std::vector<std::string>{"inputs.json", "logs/aiperf.log"});
}

TEST_CASE("genai-perf -p: windows shorter than any request end with no valid requests", "[e2e][genai_perf][windows]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  MockServer mock({"--ttft", "300", "--itl", "0"}, tmp);
  // 12 ms windows: all 10 are over before the first 300 ms request ends.
  const Run r = genai_perf(tmp,
                           {"-m", "m", "--endpoint-type", "chat", "-u", mock.url(), "-p", "10", "-s", "50",
                            "--synthetic-input-tokens-mean", "20", "--output-tokens-mean", "1", "--tokenizer", "gpt2",
                            "--artifact-dir", tmp + "/arts"},
                           "empty");
  INFO(r.out << r.err);
  CHECK(r.exit_code == 1);
  CHECK(r.err.find("No valid requests recorded within time interval. Please use a larger time window.\n") !=
        std::string::npos);
  CHECK(r.err.find("perf_analyzer exit status 3") != std::string::npos);
  CHECK(files_under(tmp + "/arts/m-openai-chat-concurrency1") ==
        std::vector<std::string>{"inputs.json", "logs/aiperf.log"});
}

TEST_CASE("genai-perf -p/-s: out-of-range values exit 2 and write nothing", "[e2e][genai_perf][windows]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  const Run p = genai_perf(tmp, {"-m", "m", "--endpoint-type", "chat", "-p", "-5", "--artifact-dir", tmp + "/arts"}, "p");
  CHECK(p.exit_code == 2);
  CHECK(p.err.find("argument --measurement-interval/-p: User Config: -5 exceeds lower bounds") != std::string::npos);
  const Run s = genai_perf(
      tmp, {"-m", "m", "--endpoint-type", "chat", "-p", "100", "-s", "1000", "--artifact-dir", tmp + "/arts"}, "s");
  CHECK(s.exit_code == 2);
  CHECK(s.err.find("argument -s/--stability-percentage: User Config: 1000.0 exceeds upper bounds") != std::string::npos);
  CHECK_FALSE(fs::exists(tmp + "/arts"));
}
