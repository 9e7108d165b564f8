// The HTML report in a real browser: headless Chromium opens the file with the network off
// (a dead proxy, and the page's own CSP), runs its script, and we check the DOM it leaves
// (every figure drawn with its exact point count, no error) and a screenshot (the plots'
// colours are on it). Every browser run has a deadline and a virtual-time budget.
#include <cairo/cairo.h>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <cmath>
#include <filesystem>
#include <regex>
#include <string>
#include <vector>

#include "plot/html_report.h"
#include "plot/html_text.h"
#include "process.h"
#include "synthetic_report.h"

using namespace aiperf;
namespace fs = std::filesystem;

namespace {

const char* kChromium = "/usr/bin/chromium-headless-shell";

struct Browser {
  int exit_code = -1;
  std::string out, err;
};

// Runs the browser on `page` with `extra` arguments (--dump-dom or --screenshot=...).
Browser open_page(const fs::path& page, const std::vector<std::string>& extra, const std::string& log_dir,
                  const std::string& name, const std::string& fragment = "") {
  std::vector<std::string> args = {"--headless", "--no-sandbox", "--disable-gpu", "--proxy-server=127.0.0.1:9",
                                   "--proxy-bypass-list=<-loopback>", "--no-first-run", "--disable-extensions",
                                   "--enable-logging=stderr", "--virtual-time-budget=5000",
                                   "--user-data-dir=" + log_dir + "/" + name + "-profile"};
  args.insert(args.end(), extra.begin(), extra.end());
  args.push_back("file://" + page.string() + fragment);
  test::Process browser(kChromium, args, log_dir, name);
  auto code = browser.wait(120);
  if (!code) {
    browser.kill_now();
    FAIL("chromium did not finish within 120 s");
  }
  fs::remove_all(log_dir + "/" + name + "-profile");
  return {*code, browser.out(), browser.err()};
}

std::string attribute_of(const std::string& dom, const std::string& element_id, const std::string& attribute) {
  const size_t at = dom.find("id=\"" + element_id + "\"");
  if (at == std::string::npos) return "<no element " + element_id + ">";
  const size_t tag_start = dom.rfind('<', at), tag_end = dom.find('>', at);
  const std::string tag = dom.substr(tag_start, tag_end - tag_start);
  std::smatch m;
  if (!std::regex_search(tag, m, std::regex(" " + attribute + "=\"([^\"]*)\""))) return "<no " + attribute + ">";
  return m[1];
}

std::string body_attribute(const std::string& dom, const std::string& attribute) {
  std::smatch m;
  if (!std::regex_search(dom, m, std::regex("<body[^>]* " + attribute + "=\"([^\"]*)\""))) return "<none>";
  return m[1];
}

// The page's column encoding undone as its script does (html_text.h): {"ref":N} is the N-th
// column written, {"seq":[first,step,count]} first + i * step.
void resolve_columns(nlohmann::json& figures) {
  std::vector<nlohmann::json> columns;
  for (auto& fig : figures) {
    for (auto& s : fig["series"]) {
      for (const char* key : {"x", "y", "xd", "lo", "hi", "xlo", "xhi"}) {
        if (!s.contains(key)) continue;
        nlohmann::json& v = s[key];
        if (v.is_object() && v.contains("seq")) {
          nlohmann::json values = nlohmann::json::array();
          for (int i = 0; i < v["seq"][2].get<int>(); ++i) values.push_back(v["seq"][0].get<double>() + i * v["seq"][1].get<double>());
          v = values;
        } else if (v.is_object()) {
          v = columns.at(v["ref"].get<size_t>());
          continue;
        }
        columns.push_back(v);
      }
    }
  }
}

struct PixelCounts {
  int width = 0, height = 0;
  long non_background = 0;  // pixels unlike the top-left one
  long green = 0;           // pixels close to the first series colour #76B900
  uint32_t background = 0;  // the top-left pixel, 0xRRGGBB
};

PixelCounts count_pixels(const fs::path& png) {
  cairo_surface_t* image = cairo_image_surface_create_from_png(png.c_str());
  PixelCounts c;
  if (cairo_surface_status(image) != CAIRO_STATUS_SUCCESS) {
    cairo_surface_destroy(image);
    return c;
  }
  cairo_surface_flush(image);
  c.width = cairo_image_surface_get_width(image);
  c.height = cairo_image_surface_get_height(image);
  const int stride = cairo_image_surface_get_stride(image);
  const unsigned char* data = cairo_image_surface_get_data(image);
  const uint32_t background = *reinterpret_cast<const uint32_t*>(data) & 0xffffff;
  c.background = background;
  for (int y = 0; y < c.height; ++y) {
    const uint32_t* row = reinterpret_cast<const uint32_t*>(data + y * stride);
    for (int x = 0; x < c.width; ++x) {
      const uint32_t p = row[x] & 0xffffff;
      if (p != background) ++c.non_background;
      const int r = (p >> 16) & 0xff, g = (p >> 8) & 0xff, b = p & 0xff;
      if (std::abs(r - 0x76) <= 24 && std::abs(g - 0xb9) <= 24 && std::abs(b - 0x00) <= 24) ++c.green;
    }
  }
  cairo_surface_destroy(image);
  return c;
}

}  // namespace

TEST_CASE("Chromium draws every figure and table of a 10 000-request report offline", "[plot][html][e2e]") {
  if (!fs::exists(kChromium)) {
    WARN("SKIP: " << kChromium << " is not installed (apt-get install chromium-headless-shell)");
    return;
  }
  const std::string tmp = test::make_temp_dir();
  const fs::path page = fs::path(tmp) / "report.html";
  const plot::Report report = test::synthetic_run_report(10000);
  plot::write_html_report(report, page);
  REQUIRE(fs::file_size(page) < 2'000'000);

  // #selftest: the page hovers, zooms, resets, toggles a legend entry and a log axis, and sorts
  // a table column with real DOM events, and records which of these worked.
  const Browser dom = open_page(page, {"--dump-dom"}, tmp, "dom", "#selftest");
  REQUIRE(dom.exit_code == 0);
  INFO(dom.err.substr(0, 4000));
  CHECK(body_attribute(dom.out, "data-status") == "ok");
  CHECK(body_attribute(dom.out, "data-figures") == "5");
  CHECK(attribute_of(dom.out, "figure-0", "data-rendered") == "10000 points");
  CHECK(attribute_of(dom.out, "figure-1", "data-rendered") == "10000 points");
  CHECK(attribute_of(dom.out, "figure-2", "data-rendered") == "10000 points");
  CHECK(attribute_of(dom.out, "figure-3", "data-rendered") == "10000 points");
  CHECK(attribute_of(dom.out, "figure-4", "data-rendered") == "14 points");
  // The script built the interactive parts and made the table sortable.
  CHECK(std::regex_search(dom.out, std::regex("<canvas[^>]*aria-label=\"Request timeline\"")));
  // Drawn ranges: TTFT's y axis reaches down to 0 (Axis::from_zero), latency's y is log, the
  // throughput figure's x is log with a right-hand axis.
  CHECK(std::regex_search(dom.out, std::regex("aria-label=\"Time to First Token over time\"[^>]* data-ranges=\"x:[0-9.e-]+\\.\\.[0-9.]+ y:0\\.\\.")));
  CHECK(std::regex_search(dom.out, std::regex("aria-label=\"Request latency over time\"[^>]* data-ranges=\"x:[^ ]+ y\\(log\\):")));
  CHECK(std::regex_search(dom.out, std::regex("aria-label=\"Throughput and latency by concurrency\"[^>]* data-ranges=\"x\\(log\\):[^ ]+ y:[^ ]+ y2:[^\"]+\"")));
  CHECK(dom.out.find("<th scope=\"col\" class=\"sortable\"") != std::string::npos);
  CHECK(dom.out.find(">Reset zoom</button>") != std::string::npos);
  CHECK(dom.out.find("id=\"errors\" role=\"alert\" hidden=\"\"") != std::string::npos);
  CHECK(body_attribute(dom.out, "data-selftest") == "tip,span,zoom,reset,legend,log,sort");
  // A timeline bar's tooltip: its start and end as in the data, its duration, its level.
  const std::string span_point = body_attribute(dom.out, "data-selftest-span-point");
  std::smatch bar;
  REQUIRE(std::regex_match(span_point, bar, std::regex("figure-3,0,(\\d+)")));
  const size_t k = std::stoul(bar[1]);
  const auto& spans = report.figures[3].series[0];
  REQUIRE(k < spans.x.size());
  const std::string span_tip = body_attribute(dom.out, "data-selftest-span-tip");
  std::smatch parts;
  REQUIRE(std::regex_match(span_tip, parts, std::regex("Requests\nTime \\(s\\): (\\S+) \\.\\. (\\S+) \\(duration (\\S+)\\)\nWorker: (\\S+)")));
  CHECK(parts[1] == plot::html::json_number(spans.x[k]));
  CHECK(std::stod(parts[2]) == Approx(spans.x_end[k]).epsilon(1e-5));
  CHECK(parts[3] == plot::html::json_number(spans.x_end[k] - spans.x[k]));
  CHECK(parts[4] == plot::html::json_number(spans.y[k]));
  // The tooltip shows the values of the point it names (the one nearest the hovered pixel).
  std::smatch point;
  const std::string hovered = body_attribute(dom.out, "data-selftest-point");
  REQUIRE(std::regex_match(hovered, point, std::regex("figure-0,0,(\\d+)")));
  const size_t j = std::stoul(point[1]);
  const auto& first = report.figures[0].series[0];
  REQUIRE(j < first.x.size());
  CHECK(body_attribute(dom.out, "data-selftest-tip") == "TTFT\nTime (s): " + plot::html::json_number(first.x[j]) +
                                                          "\nTime to First Token (ms): " +
                                                          plot::html::json_number(first.y[j]));
  // Nothing was refused by the page's policy and no script failed.
  CHECK(dom.err.find("Content Security Policy") == std::string::npos);
  CHECK(dom.err.find("Uncaught") == std::string::npos);

  const fs::path shot = fs::path(tmp) / "report.png";
  const Browser screenshot = open_page(page, {"--screenshot=" + shot.string(), "--window-size=1280,3000"}, tmp, "shot");
  REQUIRE(screenshot.exit_code == 0);
  const PixelCounts pixels = count_pixels(shot);
  CHECK(pixels.width == 1280);
  CHECK(pixels.height == 3000);
  // Not blank: plots and text cover a good part of the page, and the series colour is there.
  CHECK(pixels.non_background > 1280L * 3000 / 5);
  CHECK(pixels.green > 20000);
  CHECK(pixels.background == 0xf6f7f9);  // the light theme's --bg

  // A browser that prefers dark colours gets the dark theme, plots included.
  const fs::path dark = fs::path(tmp) / "dark.png";
  const Browser dark_shot = open_page(page, {"--screenshot=" + dark.string(), "--window-size=1280,1200",
                                             "--force-dark-mode", "--blink-settings=preferredColorScheme=0"},
                                      tmp, "dark");
  REQUIRE(dark_shot.exit_code == 0);
  const PixelCounts dark_pixels = count_pixels(dark);
  CHECK(dark_pixels.background == 0x14171c);  // the dark theme's --bg
  CHECK(dark_pixels.green > 1000);
}

TEST_CASE("Chromium shows a figure without data as a message, not an empty canvas", "[plot][html][e2e]") {
  if (!fs::exists(kChromium)) {
    WARN("SKIP: " << kChromium << " is not installed (apt-get install chromium-headless-shell)");
    return;
  }
  const std::string tmp = test::make_temp_dir();
  plot::Report report;
  report.title = "</script> & \"quotes\"";
  plot::Figure empty;
  empty.id = "empty";
  empty.title = "Nothing here";
  empty.series.resize(1);
  empty.series[0].name = "no points";
  empty.series[0].x = {std::nan("")};
  empty.series[0].y = {1};
  plot::Figure one;
  one.id = "one";
  one.title = "One point";
  one.series.resize(1);
  one.series[0].mark = plot::Mark::Line;
  one.series[0].x = {5};
  one.series[0].y = {7};
  report.figures = {empty, one};
  const fs::path page = fs::path(tmp) / "report.html";
  plot::write_html_report(report, page);

  const Browser dom = open_page(page, {"--dump-dom"}, tmp, "dom");
  REQUIRE(dom.exit_code == 0);
  CHECK(body_attribute(dom.out, "data-status") == "ok");
  CHECK(attribute_of(dom.out, "figure-0", "data-rendered") == "0 points");
  CHECK(attribute_of(dom.out, "figure-0", "data-empty") == "true");
  CHECK(dom.out.find("<p class=\"empty\">No data to plot for this figure.</p>") != std::string::npos);
  CHECK(attribute_of(dom.out, "figure-1", "data-rendered") == "1 point");
  CHECK(dom.out.find("<title>&lt;/script&gt; &amp; \"quotes\"</title>") != std::string::npos);
}

TEST_CASE("aiperf plot writes report.html for a 10 000-request run against the mock, and Chromium draws it",
          "[plot][html][e2e]") {
  if (!fs::exists(kChromium)) {
    WARN("SKIP: " << kChromium << " is not installed (apt-get install chromium-headless-shell)");
    return;
  }
  const std::string tmp = test::make_temp_dir();
  test::MockServer mock({"--fast"}, tmp);
  const auto run = test::run_named(tmp, "run",
                                   {"--url", mock.url(), "--endpoint-type", "chat", "--streaming", "--concurrency",
                                    "32", "--request-count", "10000", "--output-tokens-mean", "8",
                                    "--synthetic-input-tokens-mean", "16"});
  REQUIRE(run.exit_code == 0);
  REQUIRE(run.records().size() == 10000);

  const std::string plots = tmp + "/plots";
  test::Process plot(std::string(AIPERF_BIN_DIR) + "/aiperf", {"plot", run.dir, "--output", plots}, tmp, "plot");
  REQUIRE(plot.wait(120) == 0);
  CHECK(plot.out().find("Report: " + plots + "/report.html") != std::string::npos);
  const fs::path page = plots + "/report.html";
  REQUIRE(fs::exists(page));
  INFO("report.html bytes: " << fs::file_size(page));
  CHECK(fs::file_size(page) < 2'000'000);

  // What the page holds: the points each figure should draw, counted from its own data.
  const std::string html = test::read_file(page.string());
  const size_t open = html.find("id=\"aiperf-figures\">") + 20;
  auto figures = nlohmann::json::parse(html.substr(open, html.find("</script>", open) - open));
  resolve_columns(figures);
  REQUIRE(figures.size() >= 2);
  CHECK(figures[0]["id"] == "ttft_over_time");

  const Browser dom = open_page(page, {"--dump-dom"}, tmp, "dom", "#selftest");
  REQUIRE(dom.exit_code == 0);
  CHECK(body_attribute(dom.out, "data-status") == "ok");
  CHECK(body_attribute(dom.out, "data-figures") == std::to_string(figures.size()));
  for (size_t i = 0; i < figures.size(); ++i) {
    size_t points = 0;
    for (const auto& s : figures[i]["series"])
      for (size_t j = 0; j < s["x"].size(); ++j) points += s["x"][j].is_number() && s["y"][j].is_number();
    INFO("figure " << figures[i]["id"]);
    CHECK(attribute_of(dom.out, "figure-" + std::to_string(i), "data-rendered") == std::to_string(points) + " points");
  }
  // One TTFT point per request.
  CHECK(attribute_of(dom.out, "figure-0", "data-rendered") == "10000 points");
  CHECK(body_attribute(dom.out, "data-selftest") == "tip,span,zoom,reset,legend,log,sort");
  std::smatch point;
  const std::string hovered = body_attribute(dom.out, "data-selftest-point");
  REQUIRE(std::regex_match(hovered, point, std::regex("figure-0,0,(\\d+)")));
  const size_t j = std::stoul(point[1]);
  const auto& first = figures[0]["series"][0];
  REQUIRE(j < first["x"].size());
  const std::string name = first["name"];
  CHECK(body_attribute(dom.out, "data-selftest-tip") ==
        (name.empty() ? "" : name + "\n") + "Request Number: " + plot::html::json_number(first["x"][j].get<double>()) +
            "\nTime to First Token (ms): " + plot::html::json_number(first["y"][j].get<double>()));
  // The summary table holds the run's request count.
  CHECK(dom.out.find("<td class=\"num\">10,000.00</td>") != std::string::npos);

  // Looked at: the page is not blank and the first series' colour is drawn.
  const fs::path shot = fs::path(tmp) / "report.png";
  const Browser screenshot = open_page(page, {"--screenshot=" + shot.string(), "--window-size=1280,2400"}, tmp, "shot");
  REQUIRE(screenshot.exit_code == 0);
  const PixelCounts pixels = count_pixels(shot);
  CHECK(pixels.width == 1280);
  CHECK(pixels.non_background > 1280L * 2400 / 5);
  CHECK(pixels.green > 5000);
}
