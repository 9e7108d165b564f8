#include "plot/genai_perf_plots.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <utility>

#include "plot/html_report.h"
#include "plot/png_renderer.h"

namespace aiperf::plot {

namespace {

// Python's round() of a / b: half to even (nearbyint under the default rounding mode).
double round_div(double a, double b) { return std::nearbyint(a / b); }

// Linear interpolation between closest ranks, as numpy's and Plotly's "linear" quartiles.
double quantile(const std::vector<double>& sorted, double q) {
  const double rank = q * static_cast<double>(sorted.size() - 1);
  const size_t lo = static_cast<size_t>(std::floor(rank));
  const size_t hi = std::min(lo + 1, sorted.size() - 1);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (rank - static_cast<double>(lo));
}

struct Bins {
  double start = 0, step = 1;
  size_t count = 1;
};

Bins bins_of(const std::vector<double>& v) {
  double lo = INFINITY, hi = -INFINITY;
  bool whole = true;
  for (double x : v) {
    if (!std::isfinite(x)) continue;
    lo = std::min(lo, x), hi = std::max(hi, x);
    whole = whole && x == std::floor(x);
  }
  if (lo > hi) return {};
  if (lo == hi) return {lo - 0.5, 1, 1};
  const double target = std::clamp(std::ceil(std::sqrt(static_cast<double>(v.size()))), 1.0, 20.0);
  const double raw = (hi - lo) / target;
  const double mag = std::pow(10, std::floor(std::log10(raw)));
  double step = mag * 10;
  for (double m : {1.0, 2.0, 5.0, 10.0})
    if (mag * m >= raw * (1 - 1e-9)) {
      step = mag * m;
      break;
    }
  if (whole) step = std::max(1.0, std::round(step));
  const double start = std::floor(lo / step) * step - (whole ? 0.5 : 0);
  const size_t count = static_cast<size_t>(std::floor((hi - start) / step)) + 1;
  return {start, step, count};
}

Figure box_figure(const std::string& title, const std::string& x_label, const std::vector<double>& values) {
  Figure f;
  f.title = title;
  f.x.label = x_label;
  f.x.hide_ticks = true;
  Series s;
  s.mark = Mark::Box;
  s.y = values;
  s.box = box_stats(values);
  // Markers left of the box, spread by a fixed low-discrepancy jitter (the same file every run).
  for (size_t i = 0; i < values.size(); ++i) {
    const double u = std::fmod(static_cast<double>(i) * 0.6180339887498949, 1.0);
    s.x.push_back(-0.6 + (u - 0.5) * 0.24);
  }
  f.series.push_back(std::move(s));
  return f;
}

Figure scatter_figure(const std::string& title, const std::string& x_label, const std::string& y_label,
                      const std::vector<double>& x, const std::vector<double>& y) {
  Figure f;
  f.title = title;
  f.x.label = x_label;
  f.y.label = y_label;
  Series s;
  s.mark = Mark::Points;
  s.x = x;
  s.y = y;
  f.series.push_back(std::move(s));
  return f;
}

// GenAI-Perf's file name of a plot: the title in lower case, words joined by "_".
std::string file_stem(const std::string& title) {
  std::string out, word;
  auto flush = [&] {
    if (word.empty()) return;
    out += (out.empty() ? "" : "_") + word;
    word.clear();
  };
  for (char c : title) {
    if (c == ' ' || c == '\t' || c == '\n') flush();
    else word += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  flush();
  return out;
}

}  // namespace

GenaiPerfPlotData genai_perf_plot_data(const std::vector<GenaiPerfRequest>& requests) {
  GenaiPerfPlotData d;
  for (const GenaiPerfRequest& r : requests) {
    if (r.response_ns.empty()) continue;
    d.ttft_ms.push_back(static_cast<double>(r.response_ns.front() - r.start_ns) / 1e6);
    d.latency_ms.push_back(static_cast<double>(r.response_ns.back() - r.start_ns) / 1e6);
    d.isl.push_back(static_cast<double>(r.input_tokens));
    d.osl.push_back(static_cast<double>(r.output_tokens));
    for (size_t i = 1; i < r.response_ns.size(); ++i) {
      const int64_t tokens = i < r.response_tokens.size() && r.response_tokens[i] > 0 ? r.response_tokens[i] : 1;
      d.token_position.push_back(static_cast<double>(i));
      d.itl_ms.push_back(
          round_div(static_cast<double>(r.response_ns[i] - r.response_ns[i - 1]), static_cast<double>(tokens)) / 1e6);
    }
  }
  return d;
}

Series histogram_2d(const std::vector<double>& x, const std::vector<double>& y) {
  Series s;
  s.mark = Mark::Cells;
  const size_t n = std::min(x.size(), y.size());
  const Bins bx = bins_of(std::vector<double>(x.begin(), x.begin() + static_cast<std::ptrdiff_t>(n)));
  const Bins by = bins_of(std::vector<double>(y.begin(), y.begin() + static_cast<std::ptrdiff_t>(n)));
  std::map<std::pair<size_t, size_t>, double> counts;
  for (size_t i = 0; i < n; ++i) {
    if (!std::isfinite(x[i]) || !std::isfinite(y[i])) continue;
    const auto cell = [](const Bins& b, double v) {
      return std::min(b.count - 1, static_cast<size_t>(std::max(0.0, std::floor((v - b.start) / b.step))));
    };
    counts[{cell(bx, x[i]), cell(by, y[i])}] += 1;
  }
  for (const auto& [c, count] : counts) {
    s.x.push_back(bx.start + static_cast<double>(c.first) * bx.step);
    s.x_end.push_back(bx.start + static_cast<double>(c.first + 1) * bx.step);
    s.y.push_back(by.start + static_cast<double>(c.second) * by.step);
    s.y_end.push_back(by.start + static_cast<double>(c.second + 1) * by.step);
    s.z.push_back(count);
  }
  return s;
}

std::vector<double> box_stats(std::vector<double> values) {
  values.erase(std::remove_if(values.begin(), values.end(), [](double v) { return !std::isfinite(v); }), values.end());
  if (values.empty()) return {};
  std::sort(values.begin(), values.end());
  const double q1 = quantile(values, 0.25), med = quantile(values, 0.5), q3 = quantile(values, 0.75);
  const double reach = 1.5 * (q3 - q1);
  double lo = q1, hi = q3;
  for (double v : values) {
    if (v >= q1 - reach) lo = std::min(lo, v);
    if (v <= q3 + reach) hi = std::max(hi, v);
  }
  return {lo, q1, med, q3, hi};
}

std::vector<Figure> genai_perf_figures(const GenaiPerfPlotData& d) {
  std::vector<Figure> figures;
  figures.push_back(box_figure("Time to First Token", "Time to First Token (ms)", d.ttft_ms));
  figures.push_back(box_figure("Request Latency", "Request Latency (ms)", d.latency_ms));
  Figure heat;
  heat.title = "Distribution of Input Sequence Lengths to Output Sequence Lengths";
  heat.x.label = "Input Sequence Length";
  heat.y.label = "Output Sequence Length";
  heat.series.push_back(histogram_2d(d.isl, d.osl));
  heat.note = "Colour: the number of requests in each cell.";
  figures.push_back(std::move(heat));
  figures.push_back(scatter_figure("Time to First Token vs Input Sequence Lengths", "Input Sequence Length",
                                   "Time to First Token (ms)", d.isl, d.ttft_ms));
  figures.push_back(scatter_figure("Token-to-Token Latency vs Output Token Position", "Output Token Position",
                                   "Token-to-Token Latency (ms)", d.token_position, d.itl_ms));
  for (Figure& f : figures) f.id = file_stem(f.title);
  return figures;
}

std::vector<std::filesystem::path> write_genai_perf_plots(const std::vector<Figure>& figures,
                                                          const std::filesystem::path& dir) {
  std::filesystem::create_directories(dir);
  std::vector<std::filesystem::path> written;
  for (const Figure& f : figures) {
    Report report;
    report.title = f.title;
    report.notes.push_back("genai-perf profile --generate-plots");
    report.figures.push_back(f);
    const std::filesystem::path html = dir / (f.id + ".html"), jpeg = dir / (f.id + ".jpeg");
    write_html_report(report, html);
    render_jpeg(f, Theme::Light, jpeg.string(), 1400, 900);
    written.push_back(html);
    written.push_back(jpeg);
  }
  return written;
}

}  // namespace aiperf::plot
