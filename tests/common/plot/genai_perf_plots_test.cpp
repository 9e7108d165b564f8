// GenAI-Perf's --generate-plots: the points each of the five plots takes from a small hand-built
// set of requests, the 2-D histogram's cells, the box statistics, and the files written.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

#include <unistd.h>

#include "plot/genai_perf_plots.h"

using namespace aiperf::plot;
namespace fs = std::filesystem;

namespace {

// Two requests (times in ns): A starts at 1e9, responds at +20 ms, +25 ms, +35 ms (the last
// response holding 2 tokens); B starts at 2e9 and responds once at +30 ms.
std::vector<GenaiPerfRequest> two_requests() {
  GenaiPerfRequest a;
  a.start_ns = 1'000'000'000;
  a.response_ns = {1'020'000'000, 1'025'000'000, 1'035'000'000};
  a.response_tokens = {1, 1, 2};
  a.input_tokens = 100;
  a.output_tokens = 4;
  GenaiPerfRequest b;
  b.start_ns = 2'000'000'000;
  b.response_ns = {2'030'000'000};
  b.response_tokens = {3};
  b.input_tokens = 50;
  b.output_tokens = 3;
  GenaiPerfRequest none;  // no response with text: skipped
  none.start_ns = 3'000'000'000;
  return {a, b, none};
}

std::string read(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace

TEST_CASE("genai-perf plot data: the points of each plot", "[unit][plot]") {
  const GenaiPerfPlotData d = genai_perf_plot_data(two_requests());
  CHECK(d.ttft_ms == std::vector<double>{20, 30});
  CHECK(d.latency_ms == std::vector<double>{35, 30});
  CHECK(d.isl == std::vector<double>{100, 50});
  CHECK(d.osl == std::vector<double>{4, 3});
  // A's gaps: 5 ms for 1 token, 10 ms for 2 tokens -> 5 ms each; B has none.
  CHECK(d.token_position == std::vector<double>{1, 2});
  CHECK(d.itl_ms == std::vector<double>{5, 5});
}

TEST_CASE("genai-perf plot data: a response of 0 tokens counts as one, halves round to even", "[unit][plot]") {
  GenaiPerfRequest r;
  r.start_ns = 0;
  r.response_ns = {10, 13, 18};
  r.response_tokens = {1, 0, 2};  // 3 ns / 1; 5 ns / 2 = 2.5 -> 2 (Python's round)
  r.input_tokens = 1;
  r.output_tokens = 3;
  const GenaiPerfPlotData d = genai_perf_plot_data({r});
  CHECK(d.itl_ms == std::vector<double>{3e-6, 2e-6});
}

TEST_CASE("genai-perf figures: names, titles, axes and data as GenAI-Perf's defaults", "[unit][plot]") {
  const std::vector<Figure> f = genai_perf_figures(genai_perf_plot_data(two_requests()));
  REQUIRE(f.size() == 5);
  CHECK(f[0].id == "time_to_first_token");
  CHECK(f[0].title == "Time to First Token");
  CHECK(f[0].x.label == "Time to First Token (ms)");
  CHECK(f[0].x.hide_ticks);
  CHECK(f[0].y.label.empty());
  REQUIRE(f[0].series.size() == 1);
  CHECK(f[0].series[0].mark == Mark::Box);
  CHECK(f[0].series[0].y == std::vector<double>{20, 30});
  CHECK(f[0].series[0].box == std::vector<double>{20, 22.5, 25, 27.5, 30});
  CHECK(f[1].id == "request_latency");
  CHECK(f[1].x.label == "Request Latency (ms)");
  CHECK(f[1].series[0].y == std::vector<double>{35, 30});
  CHECK(f[2].id == "distribution_of_input_sequence_lengths_to_output_sequence_lengths");
  CHECK(f[2].x.label == "Input Sequence Length");
  CHECK(f[2].y.label == "Output Sequence Length");
  CHECK(f[2].series[0].mark == Mark::Cells);
  CHECK(f[3].id == "time_to_first_token_vs_input_sequence_lengths");
  CHECK(f[3].x.label == "Input Sequence Length");
  CHECK(f[3].y.label == "Time to First Token (ms)");
  CHECK(f[3].series[0].mark == Mark::Points);
  CHECK(f[3].series[0].x == std::vector<double>{100, 50});
  CHECK(f[3].series[0].y == std::vector<double>{20, 30});
  CHECK(f[4].id == "token-to-token_latency_vs_output_token_position");
  CHECK(f[4].x.label == "Output Token Position");
  CHECK(f[4].y.label == "Token-to-Token Latency (ms)");
  CHECK(f[4].series[0].x == std::vector<double>{1, 2});
  CHECK(f[4].series[0].y == std::vector<double>{5, 5});
}

TEST_CASE("genai-perf heat map: counts in nice bins", "[unit][plot]") {
  // One value a side: a single cell of width 1 centred on it.
  Series one = histogram_2d({50, 50, 50}, {10, 10, 10});
  CHECK(one.x == std::vector<double>{49.5});
  CHECK(one.x_end == std::vector<double>{50.5});
  CHECK(one.y == std::vector<double>{9.5});
  CHECK(one.y_end == std::vector<double>{10.5});
  CHECK(one.z == std::vector<double>{3});
  // Whole numbers 0..9 (10 values, ceil(sqrt(10)) = 4 bins wanted): width 5, edges at -0.5.
  std::vector<double> x, y;
  for (int i = 0; i < 10; ++i) x.push_back(i), y.push_back(1);
  Series s = histogram_2d(x, y);
  CHECK(s.x == std::vector<double>{-0.5, 4.5});
  CHECK(s.x_end == std::vector<double>{4.5, 9.5});
  CHECK(s.z == std::vector<double>{5, 5});
}

TEST_CASE("genai-perf box statistics: linear quartiles, whiskers within 1.5 IQR", "[unit][plot]") {
  CHECK(box_stats({}).empty());
  CHECK(box_stats({7}) == std::vector<double>{7, 7, 7, 7, 7});
  // 1..8 and an outlier 100: q1 3, median 5, q3 7, IQR 4: the upper whisker stops at 8.
  CHECK(box_stats({100, 1, 2, 3, 4, 5, 6, 7, 8}) == std::vector<double>{1, 3, 5, 7, 8});
}

TEST_CASE("genai-perf plots: ten files, real JPEGs and pages holding the data", "[unit][plot]") {
  const fs::path dir = fs::temp_directory_path() / ("gp_plots_" + std::to_string(::getpid())) / "plots";
  fs::remove_all(dir.parent_path());
  const auto written = write_genai_perf_plots(genai_perf_figures(genai_perf_plot_data(two_requests())), dir);
  REQUIRE(written.size() == 10);
  for (const auto& p : written) {
    INFO(p.string());
    REQUIRE(fs::exists(p));
    const std::string bytes = read(p);
    if (p.extension() == ".jpeg") {
      CHECK(bytes.compare(0, 3, "\xFF\xD8\xFF") == 0);
      CHECK(bytes.compare(bytes.size() - 2, 2, "\xFF\xD9") == 0);
    } else {
      CHECK(bytes.find("\"id\":\"" + p.stem().string() + "\"") != std::string::npos);
    }
  }
  CHECK(read(dir / "time_to_first_token_vs_input_sequence_lengths.html").find("\"x\":[100,50],\"y\":[20,30]") !=
        std::string::npos);
  fs::remove_all(dir.parent_path());
}
