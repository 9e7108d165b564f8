// `aiperf plot` and `profile --auto-plot`, as a user runs them against the mock: the PNG files
// AIPerf names (plot ids), valid PNGs of 2400x1200 (as AIPerf's) that are not blank, summary.txt, the
// multi-run plots of a sweep (per-GPU ones need GPU telemetry), the single-run plots, themes,
// and the refusals (exit 2, nothing written).
#include <cairo.h>

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>

#include "process.h"

using aiperf::test::MockServer;
using aiperf::test::Process;
namespace fs = std::filesystem;

namespace {

struct Png {
  int width = 0, height = 0;
  double variance = 0;
  uint32_t corner = 0;
};

// Reads the IHDR (width, height) from the bytes, then decodes with cairo for the pixels.
Png check_png(const std::string& path) {
  INFO(path);
  std::ifstream in(path, std::ios::binary);
  unsigned char head[24] = {};
  in.read(reinterpret_cast<char*>(head), sizeof head);
  REQUIRE(in.gcount() == 24);
  const unsigned char sig[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
  REQUIRE(std::equal(sig, sig + 8, head));
  REQUIRE(std::string(reinterpret_cast<char*>(head + 12), 4) == "IHDR");
  Png p;
  p.width = (head[16] << 24) | (head[17] << 16) | (head[18] << 8) | head[19];
  p.height = (head[20] << 24) | (head[21] << 16) | (head[22] << 8) | head[23];
  cairo_surface_t* s = cairo_image_surface_create_from_png(path.c_str());
  REQUIRE(cairo_surface_status(s) == CAIRO_STATUS_SUCCESS);
  const unsigned char* data = cairo_image_surface_get_data(s);
  const int stride = cairo_image_surface_get_stride(s);
  double sum = 0, sum2 = 0, n = 0;
  for (int y = 0; y < p.height; y += 2)
    for (int x = 0; x < p.width; x += 2) {
      const uint32_t px = *reinterpret_cast<const uint32_t*>(data + y * stride + x * 4);
      const double lum = ((px >> 16) & 255) + ((px >> 8) & 255) + (px & 255);
      sum += lum, sum2 += lum * lum, ++n;
    }
  p.corner = *reinterpret_cast<const uint32_t*>(data) & 0xFFFFFF;
  p.variance = sum2 / n - (sum / n) * (sum / n);
  cairo_surface_destroy(s);
  return p;
}

struct Plot {
  int exit_code = -1;
  std::string out, err;
};

Plot run_plot(const std::string& tmp, const std::vector<std::string>& args, const std::string& name) {
  std::vector<std::string> a{"plot"};
  a.insert(a.end(), args.begin(), args.end());
  Process p(std::string(AIPERF_BIN_DIR) + "/aiperf", a, tmp, name);
  const auto rc = p.wait(120);
  REQUIRE(rc.has_value());
  return {*rc, p.out(), p.err()};
}

std::vector<std::string> pngs_in(const fs::path& dir) {
  std::vector<std::string> out;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.path().extension() == ".png") out.push_back(e.path().filename().string());
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

TEST_CASE("plot: a 3-point concurrency sweep with GPU telemetry and --auto-plot gets the four multi-run plots",
          "[e2e]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  // Real (small) latencies, as the telemetry e2e test: every point lasts long enough for its
  // GPU scrapes, which the per-GPU plots are derived from.
  MockServer mock({"--ttft", "5", "--itl", "2", "--dcgm-num-gpus", "2", "--dcgm-gpu-name", "h100-sxm", "--dcgm-seed", "3"},
                  tmp);
  const auto run = aiperf::test::run_named(
      tmp, "sweep",
      {"--url", mock.url(), "--streaming", "--isl", "8", "--osl", "3", "--concurrency", "1,2,4", "--request-count",
       "6", "--gpu-telemetry", mock.url() + "/dcgm1/metrics", "--auto-plot"});
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);
  for (const char* point : {"concurrency_1", "concurrency_2", "concurrency_4"}) {
    INFO(point << ": the run's GPU telemetry (per-GPU throughput needs it)");
    REQUIRE(run.json_file(std::string(point) + "/profile_export_aiperf.json")["telemetry_data"]["endpoints"].size() == 1);
  }
  const fs::path plots = fs::path(run.dir) / "plots";
  CHECK(run.out.find("Saved 4 plots to: " + plots.string()) != std::string::npos);
  CHECK(pngs_in(plots) == std::vector<std::string>{"latency_throughput_uncertainty.png",
                                                   "pareto_curve_throughput_per_gpu_vs_interactivity.png",
                                                   "pareto_curve_throughput_per_gpu_vs_latency.png",
                                                   "ttft_vs_throughput.png"});
  for (const std::string& f : pngs_in(plots)) {
    INFO(f);
    const Png p = check_png((plots / f).string());
    CHECK(p.width == 2400);  // AIPerf's 1600 x 800 at scale 1.5
    CHECK(p.height == 1200);
    CHECK(p.corner == 0xFFFFFF);  // light theme
    CHECK(p.variance > 100);
  }
  const std::string summary = aiperf::test::read_file((plots / "summary.txt").string());
  CHECK(summary.find("Generated 4 plots:") != std::string::npos);
  CHECK(summary.find("  - ttft_vs_throughput.png") != std::string::npos);
  const std::string log = aiperf::test::read_file((plots / "aiperf_plot.log").string());
  CHECK(log.find("Detected MULTI_RUN mode: 3 run directories found") != std::string::npos);

  // `aiperf plot` on one point of the sweep: the single-run plots (no timeslices: skipped).
  const std::string point = run.dir + "/concurrency_4";
  const Plot single = run_plot(tmp, {point, "--theme", "DARK", "--output", tmp + "/dark"}, "single");
  INFO(single.out << single.err);
  REQUIRE(single.exit_code == 0);
  CHECK(pngs_in(tmp + "/dark") == std::vector<std::string>{"gpu_utilization_and_throughput_over_time.png",
                                                           "ttft_over_time.png", "ttft_timeline.png"});
  CHECK(single.err.find("Warning: Skipping plot 'timeslices_ttft'") != std::string::npos);
  for (const std::string& f : pngs_in(tmp + "/dark")) {
    const Png p = check_png(tmp + "/dark/" + f);
    CHECK(p.corner == 0x1A1A1A);  // dark theme background
    CHECK(p.variance > 100);
  }
}

TEST_CASE("plot: runs without GPU telemetry get ttft_vs_throughput and say why the per-GPU plots are skipped",
          "[e2e]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  // Tokens 1 ms apart: with --fast a response's chunks could arrive together, leaving no decode
  // time to spread tokens over, and dispersed_throughput_over_time (below) was then skipped.
  MockServer mock({"--ttft", "2", "--itl", "1"}, tmp);
  for (const char* c : {"2", "4"}) {
    const auto run = aiperf::test::run_named(tmp, std::string("c") + c,
                                             {"--url", mock.url(), "--streaming", "--isl", "8", "--osl", "3",
                                              "--concurrency", c, "--request-count", "8", "--slice-duration", "0.05",
                                              "--no-gpu-telemetry"});
    INFO(run.out << run.err);
    REQUIRE(run.exit_code == 0);
  }
  // Two run directories given with --paths: a comparison.
  const Plot multi = run_plot(tmp, {"--paths", tmp + "/c2", tmp + "/c4"}, "multi");
  INFO(multi.out << multi.err);
  REQUIRE(multi.exit_code == 0);
  CHECK(pngs_in(tmp + "/c2/plots") == std::vector<std::string>{"ttft_vs_throughput.png"});
  CHECK(multi.err.find("Warning: Skipping plot 'pareto_curve_throughput_per_gpu_vs_latency': required metric "
                       "column(s) missing from run data: ['output_token_throughput_per_gpu']") != std::string::npos);
  CHECK(multi.out.find("Saved 1 plot to: ") != std::string::npos);
  // One run with timeslices: TTFT plots and the timeslice plots; the GPU one is skipped.
  const Plot single = run_plot(tmp, {tmp + "/c4"}, "single");
  INFO(single.out << single.err);
  REQUIRE(single.exit_code == 0);
  CHECK(pngs_in(tmp + "/c4/plots") ==
        std::vector<std::string>{"timeslices_itl.png", "timeslices_ttft.png", "ttft_over_time.png", "ttft_timeline.png"});
  CHECK(single.err.find("Skipping plot 'gpu_utilization_and_throughput_over_time'") != std::string::npos);
  for (const std::string& f : pngs_in(tmp + "/c4/plots")) {
    const Png p = check_png(tmp + "/c4/plots/" + f);
    CHECK(p.width == 2400);
    CHECK(p.variance > 100);
  }
  // --config: the plots its single_run_defaults lists (built-in presets beyond the defaults).
  std::ofstream(tmp + "/plots.yaml") << "visualization:\n  single_run_defaults:\n    - itl_over_time\n"
                                        "    - latency_over_time\n    - dispersed_throughput_over_time\n"
                                        "    - timeslices_latency\n";
  const Plot configured = run_plot(tmp, {tmp + "/c4", "--config", tmp + "/plots.yaml", "--output", tmp + "/cfg"}, "cfg");
  INFO(configured.out << configured.err);
  REQUIRE(configured.exit_code == 0);
  CHECK(pngs_in(tmp + "/cfg") == std::vector<std::string>{"dispersed_throughput_over_time.png", "itl_over_time.png",
                                                          "latency_over_time.png", "timeslices_latency.png"});
}

TEST_CASE("plot: bad options and paths exit 2 naming the option and write nothing", "[e2e]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  fs::create_directories(tmp + "/empty");
  std::ofstream(tmp + "/bad.yaml") << "visualization:\n  single_run_defaults: 3\n";
  const struct {
    std::vector<std::string> args;
    std::string message;
  } cases[] = {
      {{tmp + "/missing"}, "Error: --paths: Path does not exist: " + tmp + "/missing"},
      {{tmp + "/empty"}, "Error: --paths: Path does not contain any valid run directories: " + tmp + "/empty"},
      {{tmp + "/empty", "--theme", "purple"}, "Error: --theme: must be one of light, dark, got 'purple'"},
      {{tmp + "/empty", "--dashboard"}, "Error: --dashboard: the interactive Dash dashboard server is not available"},
      {{tmp + "/empty", "--mlflow-upload"}, "Error: --mlflow-upload: uploading plots to MLflow is not supported"},
      {{tmp + "/empty", "--dashboard", "--mlflow-upload"}, "Error: --dashboard and --mlflow-upload are mutually exclusive"},
      {{tmp + "/empty", "--config", tmp + "/x.yaml"}, "Error: --config: " + tmp + "/x.yaml: cannot be read"},
      {{tmp + "/empty", "--config", tmp + "/bad.yaml"},
       "Error: --config: " + tmp + "/bad.yaml: visualization.single_run_defaults: expected a list of plot names"},
  };
  int i = 0;
  for (const auto& c : cases) {
    const Plot p = run_plot(tmp, c.args, "bad" + std::to_string(i++));
    INFO(p.out << p.err);
    CHECK(p.exit_code == 2);
    CHECK(p.err.find(c.message) != std::string::npos);
  }
  CHECK_FALSE(fs::exists(tmp + "/empty/plots"));
  CHECK_FALSE(fs::exists(tmp + "/missing"));
}

TEST_CASE("plot: --auto-plot failing is a warning, or exit 1 with --plot-required", "[e2e]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  MockServer mock({"--fast"}, tmp);
  for (const bool required : {false, true}) {
    const std::string name = required ? "required" : "optional";
    // A file where the plots directory would go: the run succeeds, the plots cannot be written.
    fs::create_directories(tmp + "/" + name);
    std::ofstream(tmp + "/" + name + "/plots") << "x";
    std::vector<std::string> args{"--url", mock.url(), "--streaming", "--isl", "8", "--osl", "3", "--request-count",
                                  "4", "--auto-plot"};
    if (required) args.push_back("--plot-required");
    const auto run = aiperf::test::run_named(tmp, name, args);
    INFO(run.out << run.err);
    CHECK(fs::exists(run.dir + "/profile_export_aiperf.json"));
    if (required) {
      CHECK(run.exit_code == 1);
      CHECK(run.err.find("Error: --plot-required: auto-plot failed for " + run.dir) != std::string::npos);
    } else {
      CHECK(run.exit_code == 0);
      CHECK(run.err.find("Warning: auto-plot failed (run artifacts intact at " + run.dir + ")") != std::string::npos);
    }
  }
  // Without the obstacle, --auto-plot on a single run draws its single-run plots.
  const auto ok = aiperf::test::run_named(tmp, "ok", {"--url", mock.url(), "--streaming", "--isl", "8", "--osl", "3",
                                                      "--request-count", "4", "--auto-plot"});
  INFO(ok.out << ok.err);
  REQUIRE(ok.exit_code == 0);
  CHECK(pngs_in(ok.dir + "/plots") == std::vector<std::string>{"ttft_over_time.png", "ttft_timeline.png"});
}
