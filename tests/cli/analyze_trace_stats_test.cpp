// analyze-trace statistics against figures produced by AIPerf 0.13's `aiperf analyze-trace`
// on the same five-line trace (tests: kTrace below; reference output recorded by hand).
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <unistd.h>

#include "analyze_trace_stats.h"
#include "dataset_error.h"

using namespace aiperf::cli::analyze;
namespace fs = std::filesystem;

namespace {

const char* kTrace =
    "{\"timestamp\": 0, \"input_length\": 1000, \"output_length\": 10, \"hash_ids\": [1, 2]}\n"
    "{\"timestamp\": 10, \"input_length\": 1500, \"output_length\": 20, \"hash_ids\": [1, 2, 3]}\n"
    "\n"
    "{\"timestamp\": 20, \"input_length\": 600, \"output_length\": 5, \"hash_ids\": [4, 5]}\n"
    "{\"timestamp\": 30, \"text_input\": \"hello\", \"output_length\": 7}\n"
    "{\"timestamp\": 40, \"input_length\": 512, \"output_length\": 3, \"hash_ids\": [1]}\n";

std::string write_temp(const std::string& name, const std::string& text) {
  const fs::path dir = fs::temp_directory_path() / ("aiperf-analyze-" + std::to_string(getpid()));
  fs::create_directories(dir);
  const fs::path p = dir / name;
  std::ofstream(p) << text;
  return p.string();
}

}  // namespace

TEST_CASE("analyze-trace reproduces the reference's report on a small trace", "[analyze]") {
  const TraceStats s = analyze_rows(read_trace_rows(write_temp("t.jsonl", kTrace)), 512);
  const nlohmann::json expected = nlohmann::json::parse(R"({
    "total_requests": 5, "unique_prefixes": 5, "num_prefix_groups": 1,
    "cache_hit_rate": 0.41666666666666663, "min_isl": 0, "max_isl": 1500, "avg_isl": 722.4,
    "min_osl": 3, "max_osl": 20, "avg_osl": 9.0, "prefix_reuse_ratio": 0.625,
    "isl_stats": {"mean": 722.4, "std_dev": 502.5604839220847, "min": 0.0, "p25": 512.0, "median": 600.0, "p75": 1000.0, "max": 1500.0},
    "osl_stats": {"mean": 9.0, "std_dev": 5.966573556070519, "min": 3.0, "p25": 5.0, "median": 7.0, "p75": 10.0, "max": 20.0},
    "context_length_stats": {"mean": 507.2, "std_dev": 452.6501518833281, "min": 0.0, "p25": 0.0, "median": 512.0, "p75": 1000.0, "max": 1024.0},
    "unique_prompt_length_stats": {"mean": 215.2, "std_dev": 266.4660578760454, "min": 0.0, "p25": 0.0, "median": 0.0, "p75": 476.0, "max": 600.0},
    "hit_rate_stats": {"mean": 0.41666666666666663, "std_dev": 0.4330127018922193, "min": 0.0, "p25": 0.0, "median": 0.3333333333333333, "p75": 0.75, "max": 1.0}
  })");
  const nlohmann::ordered_json got = stats_json(s);
  CHECK(nlohmann::json::parse(got.dump()) == expected);
  // The reference's key order (pydantic field order).
  std::vector<std::string> keys;
  for (const auto& [k, v] : got.items()) keys.push_back(k);
  CHECK(keys == std::vector<std::string>{"total_requests", "unique_prefixes", "num_prefix_groups", "cache_hit_rate",
                                         "min_isl", "max_isl", "avg_isl", "min_osl", "max_osl", "avg_osl",
                                         "prefix_reuse_ratio", "isl_stats", "osl_stats", "context_length_stats",
                                         "unique_prompt_length_stats", "hit_rate_stats"});
}

TEST_CASE("analyze-trace console table matches the reference layout", "[analyze]") {
  const TraceStats s = analyze_rows(read_trace_rows(write_temp("t2.jsonl", kTrace)), 512);
  const std::string report = render_report(s);
  CHECK(report.rfind("\nTrace Analysis Report\nTotal requests:   5\nUnique prefixes:  5\nPrefix groups:    1\n\n", 0) == 0);
  CHECK(report.find("│          Input Length │ 722.40 │  502.56 │ 0.00 │ 512.00 │ 600.00 │ 1,000.00 │ 1,500.00 │\n") !=
        std::string::npos);
  CHECK(report.find("│ Theoretical Hit Rates │   0.42 │    0.43 │ 0.00 │   0.00 │   0.33 │     0.75 │     1.00 │\n") !=
        std::string::npos);
  CHECK(report.find("┃                Metric ┃   Mean ┃ Std Dev ┃  Min ┃    P25 ┃ Median ┃      P75 ┃      Max ┃\n") !=
        std::string::npos);
}

TEST_CASE("analyze-trace without hash_ids: no hit-rate stats, context 0", "[analyze]") {
  const TraceStats s = analyze_rows({{100, 10, {}}, {300, 30, {}}}, 512);
  CHECK(s.unique_prefixes == 0);
  CHECK(s.num_prefix_groups == 0);
  CHECK(s.cache_hit_rate == 0.0);
  CHECK_FALSE(s.hit_rate.has_value());
  REQUIRE(s.context_length.has_value());
  CHECK(s.context_length->max == 0.0);
  CHECK(s.unique_prompt_length->mean == 200.0);
  CHECK(stats_json(s)["hit_rate_stats"].is_null());
  CHECK(render_report(s).find("│ Theoretical Hit Rates │    N/A │     N/A │    N/A │    N/A │    N/A │    N/A │    N/A │\n") != std::string::npos);
  // An empty trace: every statistic is absent, the counts are 0.
  const TraceStats empty = analyze_rows({}, 512);
  CHECK(empty.total_requests == 0);
  CHECK_FALSE(empty.isl.has_value());
}

TEST_CASE("metric_stats uses numpy's population std and linear percentiles", "[analyze]") {
  const auto m = metric_stats({1, 2, 3, 4});
  REQUIRE(m.has_value());
  CHECK(m->mean == 2.5);
  CHECK(m->std_dev == Approx(1.118033988749895).epsilon(0));
  CHECK(m->p25 == 1.75);
  CHECK(m->median == 2.5);
  CHECK(m->p75 == 3.25);
}

TEST_CASE("analyze-trace names the file, line and field of a bad row", "[analyze]") {
  const std::string bad = write_temp("bad.jsonl", "{\"input_length\": 5}\n\n{\"input_length\": \"x\"}\n");
  CHECK_THROWS_WITH(read_trace_rows(bad), bad + ":3: field 'input_length': must be an integer >= 0, got \"x\"");
  const std::string broken = write_temp("broken.jsonl", "{\"input_length\": 5}\n{\"input_le\n");
  CHECK_THROWS_WITH(read_trace_rows(broken), Catch::StartsWith(broken + ":2: invalid JSON"));
  const std::string ids = write_temp("ids.jsonl", "{\"input_length\": 5, \"hash_ids\": [1, 2.5]}\n");
  CHECK_THROWS_WITH(read_trace_rows(ids), ids + ":1: field 'hash_ids': must be a list of integers, got 2.5");
  CHECK_THROWS_AS(read_trace_rows("/nonexistent/x.jsonl"), aiperf::dataset::DatasetFileError);
}

TEST_CASE("metric_stats sums like numpy (pairwise), to the last bit", "[analyze]") {
  // numpy: np.mean / np.std of ((i * 7919) % 900 + 1) / 7 for i < N. A plain left-to-right sum
  // gives 64.44200405335344 and 64.81428571428572 for the means.
  const auto values = [](int n) {
    std::vector<double> v;
    for (int i = 0; i < n; ++i) v.push_back(((i * 7919) % 900 + 1) / 7.0);
    return v;
  };
  const auto big = metric_stats(values(3031));
  CHECK(big->mean == 64.44200405335343);
  CHECK(big->std_dev == 37.114397372542626);
  const auto mid = metric_stats(values(1000));
  CHECK(mid->mean == 64.81428571428573);
  CHECK(mid->std_dev == 37.126977374674496);
}
