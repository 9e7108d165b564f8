// common/plot: tick choice, the run loaders on a small tree written here (exact numbers), run
// discovery (single vs multi-run, shadow aggregates, profile_runs), the Pareto frontier, the
// figures built from the tree, and the PNG renderer's output read back with cairo.
#include <cairo.h>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "plot/figures.h"
#include "plot/pareto.h"
#include "plot/plot_config.h"
#include "plot/plot_controller.h"
#include "plot/png_renderer.h"
#include "plot/run_data.h"
#include "plot/run_discovery.h"
#include "plot/ticks.h"

namespace fs = std::filesystem;
using namespace aiperf::plot;
using nlohmann::json;

namespace {

std::string temp_dir() {
  std::string tmpl = (fs::temp_directory_path() / "aiperf-plot-test-XXXXXX").string();
  REQUIRE(mkdtemp(tmpl.data()) != nullptr);
  return tmpl;
}

void write(const fs::path& p, const std::string& text) {
  fs::create_directories(p.parent_path());
  std::ofstream(p) << text;
}

// A run's summary: ttft p50 = 10 * c, request_latency p50 = 100 + c, throughput = 5 * c,
// output_token_throughput avg = 400 * c, per user avg = 50 / c; `gpus` GPUs in telemetry.
std::string summary_json(int c, int gpus, const std::string& model = "m") {
  nlohmann::ordered_json j;  // the file's key order is the summary table's row order
  j["schema_version"] = "1.0";
  j["time_to_first_token"] = {{"unit", "ms"}, {"avg", 11.0 * c}, {"p50", 10.0 * c}, {"min", 9.0 * c},
                              {"max", 13.0 * c}, {"p90", 12.0 * c}, {"p99", 12.5 * c}, {"std", 1.0}};
  j["inter_token_latency"] = {{"unit", "ms"}, {"avg", 3.0}, {"p50", 3.0}, {"std", 0.5}};
  j["request_latency"] = {{"unit", "ms"}, {"avg", 101.0 + c}, {"p50", 100.0 + c}};
  j["request_throughput"] = {{"unit", "requests/sec"}, {"avg", 5.0 * c}};
  j["output_token_throughput"] = {{"unit", "tokens/sec"}, {"avg", 400.0 * c}};
  j["output_token_throughput_per_user"] = {{"unit", "tokens/sec/user"}, {"avg", 50.0 / c}, {"p50", 49.0 / c}};
  j["request_count"] = {{"unit", "requests"}, {"avg", 3}};
  j["benchmark_duration"] = {{"unit", "sec"}, {"avg", 0.25}};  // not on the console (NO_CONSOLE)
  j["input_config"] = {{"endpoint", {{"model_names", {model}}, {"type", "chat"}}},
                       {"loadgen", {{"concurrency", c}}}};
  nlohmann::ordered_json g = nlohmann::ordered_json::object();
  for (int i = 0; i < gpus; ++i) g["gpu_" + std::to_string(i)] = {{"gpu_index", i}};
  if (gpus > 0) j["telemetry_data"] = {{"summary", nlohmann::ordered_json::object()}, {"endpoints", {{"h:9400", {{"gpus", g}}}}}};
  return j.dump(2);
}

// Three requests: two streamed (TTFT 20 and 30 ms) and one error without metrics.
const char* kJsonl =
    R"({"metadata":{"request_start_ns":1000000000,"request_end_ns":1100000000},"metrics":{"time_to_first_token":{"value":20.0,"unit":"ms"},"request_latency":{"value":100.0,"unit":"ms"},"output_sequence_length":{"value":8,"unit":"tokens"}}})"
    "\n"
    R"({"metadata":{"request_start_ns":1000000000,"request_end_ns":1001000000},"metrics":{},"error":{"code":500,"type":"Internal","message":"x"}})"
    "\n"
    R"({"metadata":{"request_start_ns":1050000000,"request_end_ns":1250000000},"metrics":{"time_to_first_token":{"value":30.0,"unit":"ms"},"request_latency":{"value":200.0,"unit":"ms"},"output_sequence_length":{"value":17,"unit":"tokens"}}})"
    "\n";

const char* kSlices =
    "Timeslice,Metric,Unit,Stat,Value\n"
    "0,Time to First Token,ms,avg,20.00\n"
    "0,Time to First Token,ms,max,21.00\n"
    "1,Time to First Token,ms,avg,30.00\n"
    "1,Time to First Token,ms,std,2.00\n"
    "0,Inter Token Latency,ms,avg,3.00\n";

void write_run(const fs::path& dir, int c, int gpus, bool slices = false) {
  write(dir / "profile_export_aiperf.json", summary_json(c, gpus));
  write(dir / "profile_export.jsonl", kJsonl);
  if (slices) write(dir / "profile_export_aiperf_timeslices.csv", kSlices);
}

struct Png {
  int width = 0, height = 0;
  double variance = 0;
  uint32_t corner = 0;  // the top-left pixel, 0xRRGGBB
};

Png read_png(const std::string& path) {
  cairo_surface_t* s = cairo_image_surface_create_from_png(path.c_str());
  REQUIRE(cairo_surface_status(s) == CAIRO_STATUS_SUCCESS);
  Png p;
  p.width = cairo_image_surface_get_width(s);
  p.height = cairo_image_surface_get_height(s);
  const unsigned char* data = cairo_image_surface_get_data(s);
  const int stride = cairo_image_surface_get_stride(s);
  double sum = 0, sum2 = 0, n = 0;
  for (int y = 0; y < p.height; y += 2)
    for (int x = 0; x < p.width; x += 2) {
      const uint32_t px = *reinterpret_cast<const uint32_t*>(data + y * stride + x * 4) & 0xFFFFFF;
      const double lum = ((px >> 16) & 255) + ((px >> 8) & 255) + (px & 255);
      sum += lum, sum2 += lum * lum, ++n;
    }
  p.corner = *reinterpret_cast<const uint32_t*>(data) & 0xFFFFFF;
  p.variance = sum2 / n - (sum / n) * (sum / n);
  cairo_surface_destroy(s);
  return p;
}

}  // namespace

TEST_CASE("linear ticks are 1, 2, 2.5 or 5 times a power of ten around the data", "[unit][plot]") {
  AxisRange r = nice_linear(0, 97, 6);
  CHECK(r.step == 20);
  CHECK(r.ticks == std::vector<double>{0, 20, 40, 60, 80, 100});
  CHECK(r.lo == 0);
  CHECK(r.hi == 100);
  r = nice_linear(0.13, 0.92, 5);
  CHECK(r.step == Approx(0.2));
  REQUIRE(r.ticks.size() == 6);
  CHECK(r.ticks[0] == 0);
  CHECK(r.ticks[5] == Approx(1.0));
  // One value: a range around it.
  r = nice_linear(5, 5, 6);
  CHECK(r.lo == Approx(4.4));
  CHECK(r.hi == Approx(5.6));
  CHECK(r.step == Approx(0.2));
  // Reversed input is swapped; negatives work.
  r = nice_linear(10, -10, 4);
  CHECK(r.step == 5);
  CHECK(r.ticks == std::vector<double>{-10, -5, 0, 5, 10});
}

TEST_CASE("log ticks are powers of ten covering whole decades", "[unit][plot]") {
  AxisRange r = nice_log(3, 4500, 8);
  CHECK(r.ticks == std::vector<double>{1, 10, 100, 1000, 10000});
  CHECK(r.lo == 1);
  CHECK(r.hi == 10000);
  r = nice_log(1e-3, 1e9, 4);  // 12 decades, 4 ticks at most: every third decade
  CHECK(r.step == 3);
  CHECK(r.ticks.size() == 5);
  // Zero cannot be shown on a log axis: clamped to hi / 1000.
  r = nice_log(0, 50, 8);
  CHECK(r.lo == Approx(0.01));
  CHECK(r.hi == 100);
}

TEST_CASE("tick text uses the decimals the step needs and thousands separators", "[unit][plot]") {
  CHECK(format_tick(1500, 500) == "1,500");
  CHECK(format_tick(0.25, 0.25) == "0.25");
  CHECK(format_tick(0.5, 0.1) == "0.5");
  CHECK(format_tick(20.1, 0.05) == "20.10");
  CHECK(format_tick(0, 0.2) == "0");
  CHECK(format_tick(-1200000, 200000) == "-1,200,000");
  CHECK(format_tick(2e7, 1e7) == "2e+07");
  CHECK(format_tick(1000, 0) == "1,000");
  CHECK(format_tick(0.01, 0) == "0.01");
}

TEST_CASE("Pareto frontier: lower latency and higher throughput win", "[unit][plot]") {
  // (latency, throughput): the middle point is beaten by the first on both.
  const std::vector<double> lat{77.144, 77.159, 77.197}, tput{259, 130, 485};
  CHECK(pareto_frontier(lat, tput, false, true) == std::vector<bool>{true, false, true});
  // Identical points are all on the frontier; a same-x worse-y twin is not.
  CHECK(pareto_frontier({1, 1, 1, 2}, {5, 5, 4, 6}, false, true) == std::vector<bool>{true, true, false, true});
  // Both higher-better: only the top-right corner survives over a dominated point.
  CHECK(pareto_frontier({1, 2, 3}, {1, 2, 3}, true, true) == std::vector<bool>{false, false, true});
  CHECK(pareto_frontier({}, {}, true, true).empty());
}

TEST_CASE("a run's summary, requests, timeslices and derived per-GPU throughput are loaded", "[unit][plot]") {
  const fs::path dir = fs::path(temp_dir()) / "concurrency_4";
  write_run(dir, 4, 2, true);
  const RunData run = load_run(dir.string(), true);
  CHECK(run.name == "concurrency_4");
  CHECK(run.model == "m");
  CHECK(run.endpoint_type == "chat");
  CHECK(run.concurrency == 4);
  CHECK(run.gpu_count == 2);
  CHECK(run.metric("time_to_first_token")->unit == "ms");
  CHECK(*run.metric("time_to_first_token")->get("avg") == 44.0);
  // p50 first (AIPerf's DEFAULT_PERCENTILE), avg otherwise.
  CHECK(*run.point_value("time_to_first_token") == 40.0);
  CHECK(*run.point_value("request_throughput") == 20.0);
  CHECK(*run.point_value("output_token_throughput_per_gpu") == 800.0);
  CHECK(run.metric("output_token_throughput_per_gpu")->unit == "tokens/sec/gpu");
  REQUIRE(run.requests.size() == 3);
  CHECK(*run.requests[0].ttft_ms == 20.0);
  CHECK(*run.requests[0].osl == 8.0);
  CHECK(run.requests[0].start_ns == 1000000000);
  CHECK(run.requests[1].error);
  CHECK_FALSE(run.requests[1].ttft_ms);
  CHECK(*run.requests[2].latency_ms == 200.0);
  REQUIRE(run.timeslices.size() == 5);
  CHECK(run.timeslices[2].slice == 1);
  CHECK(run.timeslices[2].value == 30.0);
  CHECK(run.timeslices[4].metric == "Inter Token Latency");
  // Without telemetry there is no per-GPU throughput.
  write_run(dir, 4, 0);
  CHECK_FALSE(load_run(dir.string(), false).point_value("output_token_throughput_per_gpu"));
}

TEST_CASE("a confidence aggregate is read as the trials' means with their interval", "[unit][plot]") {
  const fs::path dir = fs::path(temp_dir()) / "aggregate" / "concurrency_2";
  json j;
  j["metadata"] = {{"model", "m"}, {"num_successful_runs", 3},
                   {"variation_values", {{"phases.profiling.concurrency", 2}}}};
  j["metrics"]["request_latency_p50"] = {{"mean", 120.0}, {"ci_low", 110.0}, {"ci_high", 130.0}, {"unit", "ms"}};
  j["metrics"]["request_latency_avg"] = {{"mean", 125.0}, {"ci_low", 115.0}, {"ci_high", 135.0}, {"unit", "ms"}};
  j["metrics"]["request_throughput_avg"] = {{"mean", 9.0}, {"ci_low", 8.0}, {"ci_high", 10.0}, {"unit", "requests/sec"}};
  write(dir / "profile_export_aiperf_aggregate.json", j.dump());
  const RunData run = load_run(dir.string(), true);
  CHECK(run.aggregate);
  CHECK(run.trials == 3);
  CHECK(run.concurrency == 2);
  CHECK(*run.point_value("request_latency") == 120.0);
  CHECK(run.metric("request_latency")->ci_low.at("p50") == 110.0);
  CHECK(run.metric("request_throughput")->ci_high.at("avg") == 10.0);
  CHECK(run.requests.empty());
}

TEST_CASE("malformed files are refused naming file and line", "[unit][plot]") {
  const fs::path dir = temp_dir();
  write(dir / "profile_export.jsonl", std::string(kJsonl) + "{not json\n");
  CHECK_THROWS_WITH(load_requests((dir / "profile_export.jsonl").string()),
                    Catch::Contains("profile_export.jsonl:4: not a JSON object"));
  write(dir / "t.csv", "Timeslice,Metric\n");
  CHECK_THROWS_WITH(load_timeslices((dir / "t.csv").string()), Catch::Contains("t.csv:1: expected the header"));
  write(dir / "u.csv", "Timeslice,Metric,Unit,Stat,Value\nx,TTFT,ms,avg,1\n");
  CHECK_THROWS_WITH(load_timeslices((dir / "u.csv").string()), Catch::Contains("u.csv:2:"));
}

TEST_CASE("timeslice CSV in AIPerf 0.13's layout (with Start_NS,End_NS) loads like the old one", "[unit][plot]") {
  const fs::path dir = temp_dir();
  write(dir / "t.csv",
        "Timeslice,Start_NS,End_NS,Metric,Unit,Stat,Value\r\n"
        "0,100,200,Time to First Token,ms,avg,20.50\r\n"
        "1,200,248,Request Count,requests,avg,2.00\r\n");
  const auto rows = load_timeslices((dir / "t.csv").string());
  REQUIRE(rows.size() == 2);
  CHECK(rows[0].slice == 0);
  CHECK(rows[0].metric == "Time to First Token");
  CHECK(rows[0].unit == "ms");
  CHECK(rows[0].stat == "avg");
  CHECK(rows[0].value == 20.5);
  CHECK(rows[1].slice == 1);
  CHECK(rows[1].value == 2.0);
  write(dir / "u.csv", "Timeslice,Start_NS,End_NS,Metric,Unit,Stat,Value\n0,1,2,TTFT,ms,avg\n");
  CHECK_THROWS_WITH(load_timeslices((dir / "u.csv").string()), Catch::Contains("u.csv:2: expected 7 fields"));
}

TEST_CASE("run discovery: single run, sweep points once, profile_runs skipped beside aggregate/", "[unit][plot]") {
  const fs::path root = temp_dir();
  // A trials == 1 sweep: points and their pass-through aggregates (shadows).
  for (int c : {1, 2}) {
    write_run(root / "sweep" / ("concurrency_" + std::to_string(c)), c, 0);
    write(root / "sweep" / "aggregate" / ("concurrency_" + std::to_string(c)) / "profile_export_aiperf_aggregate.json",
          R"({"metadata":{},"metrics":{}})");
  }
  auto runs = find_run_directories({(root / "sweep").string()});
  REQUIRE(runs.size() == 2);
  CHECK(fs::path(runs[0]).filename() == "concurrency_1");
  CHECK(fs::path(runs[1]).filename() == "concurrency_2");
  // Trials > 1 (repeated): the aggregates are the runs; profile_runs/ is skipped.
  write_run(root / "trials" / "profile_runs" / "trial_0001" / "concurrency_1", 1, 0);
  write_run(root / "trials" / "profile_runs" / "trial_0002" / "concurrency_1", 1, 0);
  write(root / "trials" / "aggregate" / "concurrency_1" / "profile_export_aiperf_aggregate.json", R"({"metrics":{}})");
  runs = find_run_directories({(root / "trials").string()});
  REQUIRE(runs.size() == 1);
  CHECK(runs[0] == (root / "trials" / "aggregate" / "concurrency_1").string());
  // Asked for explicitly, the trials are runs.
  CHECK(find_run_directories({(root / "trials" / "profile_runs").string()}).size() == 2);
  // The same directory twice counts once.
  CHECK(find_run_directories({(root / "sweep").string(), (root / "sweep" / "concurrency_1").string()}).size() == 2);
  CHECK_THROWS_WITH(find_run_directories({(root / "nope").string()}), Catch::StartsWith("Path does not exist: "));
  fs::create_directories(root / "empty");
  CHECK_THROWS_WITH(find_run_directories({(root / "empty").string()}),
                    Catch::StartsWith("Path does not contain any valid run directories: "));
  write(root / "file", "x");
  CHECK_THROWS_WITH(find_run_directories({(root / "file").string()}), Catch::StartsWith("Path is not a directory: "));
}

TEST_CASE("single-run figures: TTFT per request, the timeline phases, timeslices", "[unit][plot]") {
  const fs::path dir = fs::path(temp_dir()) / "run";
  write_run(dir, 2, 0, true);
  const FigureSet set = single_run_figures(load_run(dir.string(), true));
  REQUIRE(set.figures.size() == 4);
  const Figure& ttft = set.figures[0];
  CHECK(ttft.id == "ttft_over_time");
  CHECK(ttft.title == "TTFT Per Request Over Time");
  CHECK(ttft.x.label == "Request Number");
  CHECK(ttft.y.label == "Time to First Token (ms)");
  CHECK(ttft.series[0].x == std::vector<double>{0, 2});  // the error (request 1) has no TTFT
  CHECK(ttft.series[0].y == std::vector<double>{20, 30});
  const Figure& tl = set.figures[1];
  CHECK(tl.id == "ttft_timeline");
  REQUIRE(tl.series.size() == 2);
  CHECK(tl.series[0].name == "Prefill Phase");
  CHECK(tl.series[1].name == "Decode Phase");
  CHECK_FALSE(tl.y.from_zero);
  CHECK(tl.series[0].x == std::vector<double>{0, 0.05});
  CHECK(tl.series[0].x_end[0] == Approx(0.02));
  CHECK(tl.series[0].x_end[1] == Approx(0.08));
  CHECK(tl.series[1].x_end[1] == Approx(0.25));
  const Figure& ts = set.figures[2];
  CHECK(ts.id == "timeslices_ttft");
  CHECK(ts.y.label == "Time to First Token (ms)");
  CHECK(ts.y.from_zero);
  // The run's TTFT avg is 22 and std 1: slice 0 (20 ms) is normal, slice 1 (30 ms) above
  // avg + std is drawn red; error bars are each slice's own std (slice 1: 2 ms, slice 0 none).
  REQUIRE(ts.series.size() == 3);
  CHECK(ts.series[0].name == "Timeslice Average");
  CHECK(ts.series[0].x == std::vector<double>{0});
  CHECK(ts.series[0].y == std::vector<double>{20});
  CHECK(ts.series[0].y_low == std::vector<double>{20});
  CHECK(ts.series[1].x == std::vector<double>{1});
  CHECK(ts.series[1].color == 100);
  CHECK(ts.series[1].y_low == std::vector<double>{28});
  CHECK(ts.series[1].y_high == std::vector<double>{32});
  CHECK(ts.series[2].name == "Run Average: 22.00 ms");
  CHECK(ts.series[2].y == std::vector<double>{22, 22});
  CHECK(set.figures[3].id == "timeslices_itl");
  REQUIRE(set.skipped.size() == 1);
  CHECK(set.skipped[0].rfind("Skipping plot 'gpu_utilization_and_throughput_over_time'", 0) == 0);
}

TEST_CASE("multi-run figures: Pareto frontiers and per-GPU plots need GPU telemetry", "[unit][plot]") {
  const fs::path root = temp_dir();
  std::vector<RunData> with_gpu, without;
  for (int c : {1, 2, 4}) {
    write_run(root / "g" / std::to_string(c), c, 2);
    write_run(root / "n" / std::to_string(c), c, 0);
    with_gpu.push_back(load_run((root / "g" / std::to_string(c)).string(), false));
    without.push_back(load_run((root / "n" / std::to_string(c)).string(), false));
  }
  FigureSet set = multi_run_figures(without);
  REQUIRE(set.figures.size() == 1);
  CHECK(set.figures[0].id == "ttft_vs_throughput");
  CHECK(set.figures[0].x.label == "Time to First Token (ms)");
  CHECK(set.figures[0].y.label == "Request Throughput (requests/sec)");
  CHECK(set.figures[0].series[0].x == std::vector<double>{10, 20, 40});
  CHECK(set.figures[0].series[0].labels == std::vector<std::string>{"1", "2", "4"});
  REQUIRE(set.skipped.size() == 3);
  CHECK(set.skipped[0] ==
        "Skipping plot 'pareto_curve_throughput_per_gpu_vs_latency': required metric column(s) missing from run data: "
        "['output_token_throughput_per_gpu']. It is derived from GPU telemetry (run with --gpu-telemetry).");

  set = multi_run_figures(with_gpu);
  REQUIRE(set.figures.size() == 4);
  CHECK(set.skipped.empty());
  const Figure& p = set.figures[0];
  CHECK(p.id == "pareto_curve_throughput_per_gpu_vs_latency");
  CHECK(p.y.label == "Output Token Throughput Per GPU (tokens/sec/gpu)");
  REQUIRE(p.series.size() == 2);
  CHECK(p.series[0].x == std::vector<double>{101, 102, 104});  // request_latency p50
  CHECK(p.series[0].y == std::vector<double>{200, 400, 800});
  // Latency and throughput both grow: every point is on the frontier.
  CHECK(p.series[1].name.empty());  // the frontier line has no legend entry of its own
  CHECK(p.series[1].mark == Mark::Line);
  CHECK(p.x.from_zero);
  CHECK(p.y.from_zero);
  CHECK(p.series[1].x.size() == 3);
  const Figure& inter = set.figures[1];
  // Per-user rate falls as throughput rises: all on the frontier, sorted by x (per user p50).
  CHECK(inter.series[0].x.front() == Approx(49.0 / 4));
  CHECK(inter.series[1].x.size() == 3);
  CHECK(set.figures[3].id == "latency_throughput_uncertainty");
  CHECK(set.figures[3].series[0].y_low.empty());  // single trials: no interval
  CHECK(set.figures[3].note.find("No confidence interval") == 0);
}

TEST_CASE("the report tables show the summary and one row per run", "[unit][plot]") {
  const fs::path dir = fs::path(temp_dir()) / "run";
  write_run(dir, 2, 0);
  const RunData run = load_run(dir.string(), false);
  const Table t = summary_table(run);
  CHECK(t.columns == std::vector<std::string>{"Metric", "avg", "min", "max", "p99", "p90", "p50", "std"});
  // The console's rows in its order (display order): benchmark_duration is not one of them.
  std::vector<std::string> names;
  for (const auto& row : t.rows) names.push_back(row[0]);
  CHECK(names == std::vector<std::string>{"Time to First Token (ms)", "Request Latency (ms)",
                                          "Inter Token Latency (ms)",
                                          "Output Token Throughput Per User (tokens/sec/user)",
                                          "Output Token Throughput (tokens/sec)", "Request Throughput (requests/sec)",
                                          "Request Count (requests)"});
  REQUIRE(t.rows.size() >= 1);
  CHECK(t.rows[0] == std::vector<std::string>{"Time to First Token (ms)", "22.00", "18.00", "26.00", "25.00",
                                              "24.00", "20.00", "1.00"});
  const Table r = runs_table({run});
  CHECK(r.columns[3] == "Request Throughput (requests/sec)");
  CHECK(r.rows[0][0] == "run");
  CHECK(r.rows[0][2] == "2");
  CHECK(r.rows[0][3] == "10.00");
}

TEST_CASE("PNG renderer: the size asked, not blank, the theme's background, 10 000 points", "[unit][plot]") {
  const std::string dir = temp_dir();
  Figure f;
  f.id = "t";
  f.title = "Title";
  f.x.label = "X (s)";
  f.y.label = "Y (ms)";
  f.y2.label = "Z (%)";
  Series pts;
  pts.name = "points";
  pts.mark = Mark::Points;
  for (int i = 0; i < 10000; ++i) pts.x.push_back(i), pts.y.push_back(std::sin(i / 500.0) * 100 + 200);
  Series area;
  area.name = "area";
  area.mark = Mark::Area;
  area.secondary_axis = true;
  area.x = {0, 5000, 9999};
  area.y = {10, 80, 40};
  Series err;
  err.name = "ci";
  err.mark = Mark::Line;
  err.x = {1000, 2000};
  err.y = {150, 250};
  err.y_low = {140, 230};
  err.y_high = {160, 270};
  err.labels = {"1", "2"};
  f.series = {pts, area, err};
  f.note = "a note";
  render_png(f, Theme::Light, dir + "/light.png");
  render_png(f, Theme::Dark, dir + "/dark.png", 800, 400);
  const Png light = read_png(dir + "/light.png");
  CHECK(light.width == 2400);  // AIPerf's 1600 x 800 at scale 1.5
  CHECK(light.height == 1200);
  CHECK(light.corner == 0xFFFFFF);
  CHECK(light.variance > 100);
  const Png dark = read_png(dir + "/dark.png");
  CHECK(dark.width == 800);
  CHECK(dark.height == 400);
  CHECK(dark.corner == 0x1A1A1A);
  CHECK(dark.variance > 100);
  // Log axes (points from 1 to 10^4 and a zero, which a log axis cannot show) still draw.
  Figure lg = f;
  lg.x.log = lg.y.log = true;
  lg.series[0].x[0] = 0;
  render_png(lg, Theme::Light, dir + "/log.png", 800, 400);
  CHECK(read_png(dir + "/log.png").variance > 100);
  // An empty figure still draws (frame, title, "No data").
  render_png(Figure{}, Theme::Light, dir + "/empty.png");
  CHECK(read_png(dir + "/empty.png").variance > 1);
  CHECK_THROWS_AS(render_png(f, Theme::Light, dir + "/no/such/dir/x.png"), RenderError);
}

TEST_CASE("make_plots writes one PNG per figure, summary.txt and the log into <path>/plots", "[unit][plot]") {
  const fs::path root = temp_dir();
  write_run(root / "run", 2, 0, true);
  PlotRequest req;
  req.paths = {(root / "run").string()};
  const PlotResult r = make_plots(req);
  CHECK_FALSE(r.multi_run);
  CHECK(r.output_dir == (root / "run" / "plots").string());
  REQUIRE(r.files.size() == 4);
  CHECK(fs::path(r.files[0]).filename() == "ttft_over_time.png");
  CHECK(fs::exists(root / "run" / "plots" / "summary.txt"));
  CHECK(fs::exists(root / "run" / "plots" / "aiperf_plot.log"));
  CHECK(r.report.tables.size() == 1);
  CHECK(r.report.figures.size() == 4);
  // A path without runs: nothing is written.
  req.paths = {(root / "run" / "plots").string()};
  req.output = (root / "out").string();
  CHECK_THROWS_AS(make_plots(req), DiscoveryError);
  CHECK_FALSE(fs::exists(root / "out"));
}

TEST_CASE("uncertainty plot: the trials at one concurrency become their mean with a 95% interval", "[unit][plot]") {
  auto make = [](int64_t c, double latency, double per_gpu) {
    RunData r;
    r.model = "m";
    r.concurrency = c;
    r.metrics["request_latency"] = MetricStats{"ms", {{"p50", latency}}, {}, {}};
    r.metrics["output_token_throughput_per_gpu"] = MetricStats{"tokens/sec/gpu", {{"avg", per_gpu}}, {}, {}};
    r.metrics["output_token_throughput_per_user"] = MetricStats{"tokens/sec/user", {{"avg", 10}}, {}, {}};
    return r;
  };
  const std::vector<RunData> runs{make(2, 100, 200), make(2, 110, 220), make(2, 120, 240), make(4, 150, 400)};
  const FigureSet set = multi_run_figures(runs);
  const Figure* u = nullptr;
  for (const Figure& f : set.figures)
    if (f.id == "latency_throughput_uncertainty") u = &f;
  REQUIRE(u != nullptr);
  REQUIRE(u->series.size() == 1);
  const Series& s = u->series[0];
  CHECK(s.x == std::vector<double>{110, 150});
  CHECK(s.y == std::vector<double>{220, 400});
  CHECK(s.labels == std::vector<std::string>{"2", "4"});
  // sd 10 and 20 over 3 trials: t(0.975, 2) = 4.303.
  CHECK(s.x_low[0] == Approx(110 - 4.303 * 10 / std::sqrt(3.0)));
  CHECK(s.x_high[0] == Approx(110 + 4.303 * 10 / std::sqrt(3.0)));
  CHECK(s.y_low[0] == Approx(220 - 4.303 * 20 / std::sqrt(3.0)));
  // The lone run at concurrency 4 has no interval.
  CHECK(s.x_low[1] == 150);
  CHECK(s.y_high[1] == 400);
  CHECK(u->note.rfind("Error bars: 95% confidence interval", 0) == 0);
}

TEST_CASE("the other built-in single-run presets: ITL per request, rolling latency percentiles, dispersed throughput",
          "[unit][plot]") {
  const fs::path dir = fs::path(temp_dir()) / "run";
  write_run(dir, 2, 0, true);
  const RunData run = load_run(dir.string(), true);
  const FigureSet set = single_run_figures(
      run, {"latency_over_time", "dispersed_throughput_over_time", "itl_over_time", "timeslices_latency", "my_plot"});
  REQUIRE(set.figures.size() == 2);
  const Figure& lat = set.figures[0];
  CHECK(lat.id == "latency_over_time");
  CHECK(lat.title == "Request Latency Over Time with Percentiles");
  CHECK(lat.x.label == "Time (seconds)");
  REQUIRE(lat.series.size() == 4);
  CHECK(lat.series[0].name == "Individual Requests");
  REQUIRE(lat.series[0].x.size() == 2);  // by end time, from the first end; the error has no latency
  CHECK(lat.series[0].x[1] == Approx(0.15));
  CHECK(lat.series[0].y == std::vector<double>{100, 200});
  // Rolling over min(10, n) = 2 requests, linear interpolation.
  CHECK(lat.series[1].name == "p50");
  CHECK(lat.series[1].y == std::vector<double>{100, 150});
  CHECK(lat.series[2].y[1] == Approx(195));
  const Figure& tput = set.figures[1];
  CHECK(tput.id == "dispersed_throughput_over_time");
  // 8 tokens over 80 ms and 17 over 170 ms after their first tokens: 100 tokens/s each,
  // overlapping from 0.06 s to 0.08 s.
  REQUIRE(tput.series.size() == 1);
  CHECK(tput.series[0].mark == Mark::Area);
  const std::vector<double> xs{0, 0.06, 0.06, 0.08, 0.08, 0.23, 0.23}, ys{100, 100, 200, 200, 100, 100, 0};
  REQUIRE(tput.series[0].x.size() == xs.size());
  for (size_t i = 0; i < xs.size(); ++i) {
    CHECK(tput.series[0].x[i] == Approx(xs[i]));
    CHECK(tput.series[0].y[i] == Approx(ys[i]).margin(1e-9));  // summed rates leave ~1e-14
  }
  REQUIRE(set.skipped.size() == 3);
  CHECK(set.skipped[0] == "Skipping plot 'itl_over_time': required data not available: 'inter_token_latency' "
                          "(streaming runs only)");
  CHECK(set.skipped[1] == "Skipping plot 'timeslices_latency': required data not available: no 'Request Latency' "
                          "rows in the timeslices");
  CHECK(set.skipped[2] == "Skipping plot 'my_plot': not a built-in single-run plot (custom plot presets are not "
                          "supported)");
}

TEST_CASE("a plot config chooses among the built-in plots; bad files name the file", "[unit][plot]") {
  const fs::path dir = temp_dir();
  write(dir / "p.yaml",
        "visualization:\n"
        "  multi_run_defaults:\n"
        "    - ttft_vs_throughput\n"
        "  single_run_defaults:\n"
        "    - itl_over_time\n"
        "    - ttft_over_time\n"
        "  single_run_plots:\n"
        "    itl_over_time: {type: scatter}\n");
  PlotSelection sel = read_plot_config((dir / "p.yaml").string());
  CHECK(sel.multi_run == std::vector<std::string>{"ttft_vs_throughput"});
  CHECK(sel.single_run == std::vector<std::string>{"itl_over_time", "ttft_over_time"});
  REQUIRE(sel.notes.size() == 1);
  CHECK(sel.notes[0].find("the presets' settings (single_run_plots, multi_run_plots) are not read") !=
        std::string::npos);
  // A list the file does not give keeps AIPerf's defaults.
  write(dir / "q.yaml", "visualization:\n  single_run_defaults: [ttft_timeline]\n");
  sel = read_plot_config((dir / "q.yaml").string());
  CHECK(sel.single_run == std::vector<std::string>{"ttft_timeline"});
  CHECK(sel.multi_run == default_multi_run_plots());
  CHECK(sel.notes.empty());
  write(dir / "bad.yaml", "visualization:\n  single_run_defaults: [a\n");
  CHECK_THROWS_WITH(read_plot_config((dir / "bad.yaml").string()), Catch::StartsWith((dir / "bad.yaml").string() + ": line "));
  write(dir / "map.yaml", "visualization:\n  single_run_defaults: {a: 1}\n");
  CHECK_THROWS_WITH(read_plot_config((dir / "map.yaml").string()),
                    (dir / "map.yaml").string() + ": visualization.single_run_defaults: expected a list of plot names");
  CHECK_THROWS_WITH(read_plot_config((dir / "none.yaml").string()), (dir / "none.yaml").string() + ": cannot be read");
}
