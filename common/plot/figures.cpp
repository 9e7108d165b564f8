#include "plot/figures.h"

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdio>
#include <map>

#include "metrics/metric_flags.h"
#include "metrics/metric_registry.h"
#include "plot/pareto.h"

namespace aiperf::plot {

namespace {
constexpr int kRed = 100;  // palette index of the outlier colour (png renderer: OUTLIER_RED)

std::string display_name(const std::string& tag) {
  if (tag == "output_token_throughput_per_gpu") return "Output Token Throughput Per GPU";
  if (const auto* d = metrics::builtin_metrics().find(tag)) return std::string(d->header);
  // AIPerf's fallback: the tag title-cased.
  std::string out;
  bool up = true;
  for (char c : tag) {
    if (c == '_') {
      out += ' ';
      up = true;
    } else {
      out += up ? static_cast<char>(std::toupper(static_cast<unsigned char>(c))) : c;
      up = false;
    }
  }
  return out;
}

std::string unit_of(const RunData& run, const std::string& tag) {
  const MetricStats* m = run.metric(tag);
  return m ? m->unit : "";
}

std::string fmt2(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.2f", v);
  std::string s = buf;
  // thousands separators, as the console table
  size_t dot = s.find('.');
  size_t start = s[0] == '-' ? 1 : 0;
  for (long i = static_cast<long>(dot) - 3; i > static_cast<long>(start); i -= 3) s.insert(static_cast<size_t>(i), ",");
  return s;
}
}  // namespace

std::string metric_label(const std::string& tag, const std::string& unit) {
  const std::string name = display_name(tag);
  return unit.empty() ? name : name + " (" + unit + ")";
}

bool larger_is_better(const std::string& tag) {
  if (tag == "output_token_throughput_per_gpu" || tag == "output_token_throughput_per_user") return true;
  if (const auto* d = metrics::builtin_metrics().find(tag)) return (d->flags & metrics::flags::kLargerIsBetter) != 0;
  return false;
}

// ---------------------------------------------------------------- single run

namespace {

Figure ttft_over_time(const RunData& run) {
  Figure f;
  f.id = "ttft_over_time";
  f.title = "TTFT Per Request Over Time";
  f.x.label = "Request Number";
  f.y.label = metric_label("time_to_first_token", unit_of(run, "time_to_first_token"));
  f.y.from_zero = true;
  Series s;
  s.name = f.y.label;
  s.mark = Mark::Points;
  for (size_t i = 0; i < run.requests.size(); ++i) {
    if (!run.requests[i].ttft_ms) continue;
    s.x.push_back(static_cast<double>(i));
    s.y.push_back(*run.requests[i].ttft_ms);
  }
  f.series.push_back(std::move(s));
  return f;
}

// Each request as two bars at the height of its TTFT: start -> first token, first token -> end.
Figure ttft_timeline(const RunData& run) {
  Figure f;
  f.id = "ttft_timeline";
  f.title = "Request Timeline: TTFT Phases Over Time";
  f.x.label = "Time (seconds)";
  f.y.label = metric_label("time_to_first_token", unit_of(run, "time_to_first_token"));
  int64_t t0 = INT64_MAX;
  for (const auto& r : run.requests)
    if (r.ttft_ms && r.end_ns > 0) t0 = std::min(t0, r.start_ns);
  Series ttft, gen;
  ttft.name = "Prefill Phase";  // start -> first token
  gen.name = "Decode Phase";    // first token -> end
  ttft.mark = gen.mark = Mark::Spans;
  for (const auto& r : run.requests) {
    if (!r.ttft_ms || r.end_ns <= 0) continue;
    const double start = static_cast<double>(r.start_ns - t0) / 1e9;
    const double end = static_cast<double>(r.end_ns - t0) / 1e9;
    const double first = start + *r.ttft_ms / 1000.0;
    if (first > end) continue;  // TTFT beyond the request's end: dropped, as the reference
    ttft.x.push_back(start), ttft.x_end.push_back(first), ttft.y.push_back(*r.ttft_ms);
    gen.x.push_back(first), gen.x_end.push_back(end), gen.y.push_back(*r.ttft_ms);
  }
  f.series.push_back(std::move(ttft));
  f.series.push_back(std::move(gen));
  return f;
}

// Per-slice averages of one metric, the run's average as a line, slices above avg + std in red.
std::optional<Figure> timeslice_figure(const RunData& run, const std::string& id, const std::string& metric,
                                       const std::string& tag, const std::string& title) {
  Figure f;
  f.id = id;
  f.title = title;
  // The reference's axis: the slice index, labelled "Timeslice (s)".
  f.x.label = "Timeslice (s)";
  f.y.from_zero = true;
  std::string unit;
  Series normal, high;
  normal.name = "Timeslice Average";
  normal.mark = Mark::Points;
  high.name = "Above run average + std";
  high.mark = Mark::Points;
  high.color = kRed;
  const MetricStats* summary = run.metric(tag);
  const double avg = summary && summary->get("avg") ? *summary->get("avg") : NAN;
  const double sd = summary && summary->get("std") ? *summary->get("std") : 0;
  std::map<int, double> slice_sd;  // the slice's own std: its error bar (+-1 std)
  for (const auto& row : run.timeslices)
    if (row.metric == metric && row.stat == "std") slice_sd[row.slice] = row.value;
  for (const auto& row : run.timeslices) {
    if (row.metric != metric || row.stat != "avg") continue;
    unit = row.unit;
    Series& s = std::isfinite(avg) && row.value > avg + sd ? high : normal;
    s.x.push_back(row.slice);
    s.y.push_back(row.value);
    const double e = slice_sd.count(row.slice) ? slice_sd[row.slice] : 0;
    s.y_low.push_back(row.value - e);
    s.y_high.push_back(row.value + e);
  }
  if (normal.x.empty() && high.x.empty()) return std::nullopt;
  f.y.label = unit.empty() ? metric : metric + " (" + unit + ")";
  f.series.push_back(std::move(normal));
  if (!high.x.empty()) f.series.push_back(std::move(high));
  if (std::isfinite(avg)) {
    double lo = 1e300, hi = -1e300;
    for (const auto& s : f.series)
      for (double x : s.x) lo = std::min(lo, x), hi = std::max(hi, x);
    Series line;
    char name[96];
    std::snprintf(name, sizeof name, "Run Average: %.2f %s", avg, unit.c_str());
    line.name = name;
    line.mark = Mark::Line;
    line.color = 1;
    line.x = {lo, hi};
    line.y = {avg, avg};
    f.series.push_back(std::move(line));
  }
  return f;
}

// Output tokens/s over time as a step series (defined below, with dispersed_throughput).
Series throughput_steps(const RunData& run, int64_t& t0);

// Output tokens/s over time, spreading each request's tokens evenly from its first token to its
// end (a step function), under the GPUs' mean utilization on the right axis.
Figure gpu_and_throughput(const RunData& run) {
  Figure f;
  f.id = "gpu_utilization_and_throughput_over_time";
  f.title = "Output Token Throughput with GPU Utilization";
  f.x.label = "Time (s)";
  // The reference's labels: its fallback title-casing of the column names.
  f.y.label = "Throughput Tokens Per Sec";
  f.y2.label = "Nvidia Gpu Utilization (%)";
  f.y.from_zero = f.y2.from_zero = true;
  int64_t t0 = 0;
  Series tput = throughput_steps(run, t0);
  // GPU utilization averaged over GPUs per scrape instant.
  std::map<int64_t, std::pair<double, int>> by_time;
  for (const auto& g : run.gpu)
    if (g.utilization) {
      auto& [s, n] = by_time[g.timestamp_ns];
      s += *g.utilization;
      ++n;
    }
  Series util;
  util.name = "Nvidia Gpu Utilization (%)";
  util.mark = Mark::Area;
  util.secondary_axis = true;
  util.color = 1;
  // Samples before the first token: the last of them holds at time 0 (the axis starts there).
  const std::pair<double, int>* before = nullptr;
  for (const auto& [t, sn] : by_time) {
    if (t < t0) {
      before = &sn;
      continue;
    }
    if (before && util.x.empty() && t > t0) util.x.push_back(0), util.y.push_back(before->first / before->second);
    util.x.push_back(static_cast<double>(t - t0) / 1e9);
    util.y.push_back(sn.first / sn.second);
  }
  if (before && util.x.empty()) util.x.push_back(0), util.y.push_back(before->first / before->second);
  f.series.push_back(std::move(util));
  f.series.push_back(std::move(tput));
  f.series.back().color = 0;
  return f;
}

}  // namespace

namespace {

// One per-request value by request number (the file's line order), as ttft_over_time.
Figure per_request_scatter(const RunData& run, const std::string& id, const std::string& title,
                           const std::string& tag, std::optional<double> RequestRow::*field) {
  Figure f;
  f.id = id;
  f.title = title;
  f.x.label = "Request Number";
  f.y.label = metric_label(tag, unit_of(run, tag).empty() ? "ms" : unit_of(run, tag));
  f.y.from_zero = true;
  Series s;
  s.name = f.y.label;
  s.mark = Mark::Points;
  for (size_t i = 0; i < run.requests.size(); ++i) {
    if (!(run.requests[i].*field)) continue;
    s.x.push_back(static_cast<double>(i));
    s.y.push_back(*(run.requests[i].*field));
  }
  f.series.push_back(std::move(s));
  return f;
}

// The pandas rolling quantile (linear interpolation) over the last `w` values ending at each i.
std::vector<double> rolling_quantile(const std::vector<double>& v, size_t w, double q) {
  std::vector<double> out;
  std::vector<double> win;
  for (size_t i = 0; i < v.size(); ++i) {
    win.assign(v.begin() + static_cast<long>(i + 1 >= w ? i + 1 - w : 0), v.begin() + static_cast<long>(i + 1));
    std::sort(win.begin(), win.end());
    const double pos = q * static_cast<double>(win.size() - 1);
    const size_t lo = static_cast<size_t>(pos);
    const double frac = pos - static_cast<double>(lo);
    out.push_back(lo + 1 < win.size() ? win[lo] + (win[lo + 1] - win[lo]) * frac : win[lo]);
  }
  return out;
}

// Request latency by end time with rolling p50/p95/p99 over the last min(10, n) requests.
Figure latency_over_time(const RunData& run) {
  Figure f;
  f.id = "latency_over_time";
  f.title = "Request Latency Over Time with Percentiles";
  f.x.label = "Time (seconds)";
  f.y.label = metric_label("request_latency", unit_of(run, "request_latency").empty() ? "ms" : unit_of(run, "request_latency"));
  f.y.from_zero = true;
  std::vector<std::pair<int64_t, double>> pts;
  for (const auto& r : run.requests)
    if (r.latency_ms && r.end_ns > 0) pts.emplace_back(r.end_ns, *r.latency_ms);
  std::stable_sort(pts.begin(), pts.end(), [](auto& a, auto& b) { return a.first < b.first; });
  Series s;
  s.name = "Individual Requests";
  s.mark = Mark::Points;
  std::vector<double> ys;
  for (const auto& [t, v] : pts) {
    s.x.push_back(static_cast<double>(t - pts.front().first) / 1e9);
    s.y.push_back(v);
  }
  const size_t w = std::min<size_t>(10, pts.size());
  f.series.push_back(s);
  int color = 1;
  for (const auto& [name, q] : {std::pair{"p50", 0.5}, std::pair{"p95", 0.95}, std::pair{"p99", 0.99}}) {
    Series line;
    line.name = name;
    line.mark = Mark::Line;
    line.color = color++;
    line.x = s.x;
    line.y = rolling_quantile(s.y, std::max<size_t>(1, w), q);
    f.series.push_back(std::move(line));
  }
  return f;
}

// Output tokens/s over time: each request's tokens spread evenly from its first token to its
// end, summed (a step function); t0 is the first first-token. Empty when no request has both.
Series throughput_steps(const RunData& run, int64_t& t0) {
  std::vector<std::pair<int64_t, double>> events;
  for (const auto& r : run.requests) {
    if (r.start_ns <= 0 || r.end_ns <= 0) continue;
    const double ttft = r.ttft_ms.value_or(0);
    const int64_t gen_start = ttft > 0 ? r.start_ns + static_cast<int64_t>(ttft * 1e6) : r.start_ns;
    const double tokens = r.osl.value_or(0);
    const int64_t dur = r.end_ns - gen_start;
    if (dur <= 0 || tokens <= 0) continue;
    const double rate = tokens / (static_cast<double>(dur) / 1e9);
    events.emplace_back(gen_start, rate);
    events.emplace_back(r.end_ns, -rate);
  }
  std::stable_sort(events.begin(), events.end(), [](auto& a, auto& b) { return a.first < b.first; });
  t0 = events.empty() ? 0 : events.front().first;
  Series tput;
  tput.name = "Throughput Tokens Per Sec";
  tput.mark = Mark::Step;
  double sum = 0;
  for (const auto& [t, d] : events) {
    sum += d;
    tput.x.push_back(static_cast<double>(t - t0) / 1e9);
    tput.y.push_back(std::max(0.0, sum));
  }
  return tput;
}

Figure dispersed_throughput(const RunData& run) {
  Figure f;
  f.id = "dispersed_throughput_over_time";
  f.title = "Dispersed Output Token Throughput Over Time";
  f.x.label = "Time (s)";
  f.y.label = "Throughput Tokens Per Sec";
  f.y.from_zero = true;
  int64_t t0 = 0;
  Series s = throughput_steps(run, t0);
  s.mark = Mark::Area;
  // An area under a step function: each level held until the next event.
  Series stepped = s;
  stepped.x.clear();
  stepped.y.clear();
  for (size_t i = 0; i < s.x.size(); ++i) {
    if (i > 0) stepped.x.push_back(s.x[i]), stepped.y.push_back(s.y[i - 1]);
    stepped.x.push_back(s.x[i]), stepped.y.push_back(s.y[i]);
  }
  f.series.push_back(std::move(stepped));
  return f;
}

bool has(const RunData& run, std::optional<double> RequestRow::*field) {
  for (const auto& r : run.requests)
    if (r.*field) return true;
  return false;
}

}  // namespace

const std::vector<std::string>& default_single_run_plots() {
  static const std::vector<std::string> ids{"ttft_over_time", "ttft_timeline", "timeslices_ttft", "timeslices_itl",
                                            "gpu_utilization_and_throughput_over_time"};
  return ids;
}

const std::vector<std::string>& builtin_single_run_plots() {
  static const std::vector<std::string> ids{"ttft_over_time",
                                            "itl_over_time",
                                            "latency_over_time",
                                            "dispersed_throughput_over_time",
                                            "ttft_timeline",
                                            "timeslices_ttft",
                                            "timeslices_itl",
                                            "timeslices_throughput",
                                            "timeslices_latency",
                                            "gpu_utilization_and_throughput_over_time"};
  return ids;
}

FigureSet single_run_figures(const RunData& run) { return single_run_figures(run, default_single_run_plots()); }

FigureSet single_run_figures(const RunData& run, const std::vector<std::string>& ids) {
  FigureSet out;
  auto skip = [&](const std::string& id, const std::string& why) {
    out.skipped.push_back("Skipping plot '" + id + "': " + why);
  };
  const std::string no_requests = "required data source(s) missing or empty: ['requests']";
  const struct {
    const char *id, *metric, *tag, *title;
  } slices[] = {{"timeslices_ttft", "Time to First Token", "time_to_first_token", "Time to First Token Across Time Slices"},
                {"timeslices_itl", "Inter Token Latency", "inter_token_latency", "Inter Token Latency Across Time Slices"},
                {"timeslices_throughput", "Request Throughput", "request_throughput", "Request Throughput Across Time Slices"},
                {"timeslices_latency", "Request Latency", "request_latency", "Request Latency Across Time Slices"}};
  for (const std::string& id : ids) {
    if (id == "ttft_over_time" || id == "ttft_timeline") {
      if (run.requests.empty()) skip(id, no_requests);
      else if (!has(run, &RequestRow::ttft_ms)) skip(id, "required data not available: 'time_to_first_token' (streaming runs only)");
      else out.figures.push_back(id == "ttft_over_time" ? ttft_over_time(run) : ttft_timeline(run));
    } else if (id == "itl_over_time") {
      if (run.requests.empty()) skip(id, no_requests);
      else if (!has(run, &RequestRow::itl_ms)) skip(id, "required data not available: 'inter_token_latency' (streaming runs only)");
      else out.figures.push_back(per_request_scatter(run, id, "Inter-Token Latency Per Request Over Time",
                                                     "inter_token_latency", &RequestRow::itl_ms));
    } else if (id == "latency_over_time") {
      if (run.requests.empty() || !has(run, &RequestRow::latency_ms)) skip(id, no_requests);
      else out.figures.push_back(latency_over_time(run));
    } else if (id == "dispersed_throughput_over_time") {
      int64_t t0 = 0;
      if (run.requests.empty() || throughput_steps(run, t0).x.empty()) skip(id, no_requests);
      else out.figures.push_back(dispersed_throughput(run));
    } else if (id == "gpu_utilization_and_throughput_over_time") {
      bool has_util = false;
      for (const auto& g : run.gpu) has_util = has_util || g.utilization.has_value();
      if (!has_util)
        skip(id, "required data source(s) missing or empty: ['gpu_telemetry'] (requires --gpu-telemetry)");
      else
        out.figures.push_back(gpu_and_throughput(run));
    } else {
      bool found = false;
      for (const auto& s : slices) {
        if (id != s.id) continue;
        found = true;
        if (run.timeslices.empty())
          skip(s.id, "required data source(s) missing or empty: ['timeslices'] (run with --slice-duration)");
        else if (auto f = timeslice_figure(run, s.id, s.metric, s.tag, s.title))
          out.figures.push_back(std::move(*f));
        else
          skip(s.id, std::string("required data not available: no '") + s.metric + "' rows in the timeslices");
      }
      if (!found) skip(id, "not a built-in single-run plot (custom plot presets are not supported)");
    }
  }
  return out;
}

// ---------------------------------------------------------------- multi run

namespace {

struct Spec {
  const char* id;
  const char* title;
  const char* x;
  const char* y;
  enum Kind { Pareto, ScatterLine, Uncertainty } kind;
};

const Spec kMultiSpecs[] = {
    {"pareto_curve_throughput_per_gpu_vs_latency", "Pareto Curve: Token Throughput per GPU vs Latency",
     "request_latency", "output_token_throughput_per_gpu", Spec::Pareto},
    {"pareto_curve_throughput_per_gpu_vs_interactivity", "Pareto Curve: Token Throughput per GPU vs Interactivity",
     "output_token_throughput_per_user", "output_token_throughput_per_gpu", Spec::Pareto},
    {"ttft_vs_throughput", "TTFT vs Throughput", "time_to_first_token", "request_throughput", Spec::ScatterLine},
    {"latency_throughput_uncertainty", "Latency vs Throughput (Joint Uncertainty)", "request_latency",
     "output_token_throughput_per_gpu", Spec::Uncertainty},
};

struct Point {
  double x, y;
  std::string label;
  std::optional<double> x_lo, x_hi, y_lo, y_hi;
};

// The CI of the value point_value() took (p50 when there, else avg), when the run has one.
void ci_of(const RunData& r, const std::string& tag, std::optional<double>& lo, std::optional<double>& hi) {
  const MetricStats* m = r.metric(tag);
  if (!m) return;
  const std::string stat = m->get("p50") ? "p50" : "avg";
  if (auto it = m->ci_low.find(stat); it != m->ci_low.end()) lo = it->second;
  if (auto it = m->ci_high.find(stat); it != m->ci_high.end()) hi = it->second;
}

// Student's t for a two-sided 95% interval with `df` degrees of freedom.
double t95(size_t df) {
  static const double t[] = {0, 12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
                             2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086};
  return df < sizeof t / sizeof *t ? t[df] : 1.96 + 2.4 / static_cast<double>(df);
}

// The uncertainty plot's operating points: runs of one model at one concurrency (the trials of
// a point, e.g. `aiperf plot <dir>/profile_runs`) become their mean with a 95% interval on each
// axis (mean +- t * sd / sqrt(n)); a lone run keeps its own interval when it is an aggregate.
std::vector<Point> operating_points(const Spec& spec, const std::vector<const RunData*>& runs) {
  std::map<int64_t, std::vector<const RunData*>> by_conc;
  for (const RunData* r : runs)
    if (r->point_value(spec.x) && r->point_value(spec.y)) by_conc[r->concurrency].push_back(r);
  std::vector<Point> out;
  for (const auto& [conc, group] : by_conc) {
    Point p{0, 0, std::to_string(conc), {}, {}, {}, {}};
    if (group.size() == 1) {
      p.x = *group[0]->point_value(spec.x);
      p.y = *group[0]->point_value(spec.y);
      ci_of(*group[0], spec.x, p.x_lo, p.x_hi);
      ci_of(*group[0], spec.y, p.y_lo, p.y_hi);
    } else {
      const double n = static_cast<double>(group.size());
      const auto& trials = group;  // clang 14 (clang-tidy) cannot capture a structured binding
      auto mean_ci = [&](const char* tag, double& mean, std::optional<double>& lo, std::optional<double>& hi) {
        double s = 0, s2 = 0;
        for (const RunData* r : trials) s += *r->point_value(tag);
        mean = s / n;
        for (const RunData* r : trials) s2 += (*r->point_value(tag) - mean) * (*r->point_value(tag) - mean);
        const double half = t95(trials.size() - 1) * std::sqrt(s2 / (n - 1)) / std::sqrt(n);
        lo = mean - half, hi = mean + half;
      };
      mean_ci(spec.x, p.x, p.x_lo, p.x_hi);
      mean_ci(spec.y, p.y, p.y_lo, p.y_hi);
    }
    out.push_back(p);
  }
  return out;
}

Figure multi_figure(const Spec& spec, const std::vector<RunData>& runs) {
  Figure f;
  f.id = spec.id;
  f.title = spec.title;
  f.x.label = metric_label(spec.x, unit_of(runs.front(), spec.x));
  f.y.label = metric_label(spec.y, unit_of(runs.front(), spec.y));
  f.x.from_zero = f.y.from_zero = true;
  std::map<std::string, std::vector<Point>> groups;  // by model, sorted
  if (spec.kind == Spec::Uncertainty) {
    std::map<std::string, std::vector<const RunData*>> by_model;
    for (const RunData& r : runs) by_model[r.model].push_back(&r);
    for (const auto& [model, rs] : by_model) groups[model] = operating_points(spec, rs);
  } else {
    for (const RunData& r : runs) {
      auto x = r.point_value(spec.x), y = r.point_value(spec.y);
      if (!x || !y) continue;
      groups[r.model].push_back(Point{*x, *y, std::to_string(r.concurrency), {}, {}, {}, {}});
    }
  }
  int color = 0;
  for (auto& [model, pts] : groups) {
    std::sort(pts.begin(), pts.end(), [](const Point& a, const Point& b) { return a.x < b.x; });
    Series all;
    all.name = model;
    all.mark = spec.kind == Spec::ScatterLine ? Mark::Line : Mark::Points;
    all.color = color;
    for (const Point& p : pts) all.x.push_back(p.x), all.y.push_back(p.y), all.labels.push_back(p.label);
    if (spec.kind == Spec::Uncertainty) {
      bool any_ci = false;
      for (const Point& p : pts) any_ci = any_ci || (p.x_lo && p.x_hi) || (p.y_lo && p.y_hi);
      if (any_ci) {
        for (const Point& p : pts) {
          all.x_low.push_back(p.x_lo.value_or(p.x));
          all.x_high.push_back(p.x_hi.value_or(p.x));
          all.y_low.push_back(p.y_lo.value_or(p.y));
          all.y_high.push_back(p.y_hi.value_or(p.y));
        }
      }
    }
    if (spec.kind == Spec::Pareto) {
      const auto on = pareto_frontier(all.x, all.y, larger_is_better(spec.x), larger_is_better(spec.y));
      Series front;
      front.name.clear();  // one legend entry per group, as the reference
      front.mark = Mark::Line;
      front.color = color;
      for (size_t i = 0; i < on.size(); ++i)
        if (on[i]) front.x.push_back(all.x[i]), front.y.push_back(all.y[i]);
      f.series.push_back(std::move(all));
      f.series.push_back(std::move(front));
    } else {
      f.series.push_back(std::move(all));
    }
    ++color;
  }
  if (spec.kind == Spec::Pareto) f.note = "Lines connect Pareto frontier points only; other points remain markers.";
  if (spec.kind == Spec::Uncertainty) {
    bool any = false;
    for (const auto& s : f.series) any = any || !s.y_low.empty();
    f.note = any ? "Error bars: 95% confidence interval of each axis over the runs at each concurrency."
                 : "No confidence interval: one run per concurrency (plot a sweep's profile_runs/ to see the trials).";
  }
  return f;
}

}  // namespace

const std::vector<std::string>& default_multi_run_plots() {
  static const std::vector<std::string> ids = [] {
    std::vector<std::string> v;
    for (const Spec& s : kMultiSpecs) v.push_back(s.id);
    return v;
  }();
  return ids;
}

FigureSet multi_run_figures(const std::vector<RunData>& runs) { return multi_run_figures(runs, default_multi_run_plots()); }

FigureSet multi_run_figures(const std::vector<RunData>& runs, const std::vector<std::string>& ids) {
  FigureSet out;
  if (runs.empty()) return out;
  for (const std::string& id : ids) {
    const Spec* found = nullptr;
    for (const Spec& s : kMultiSpecs)
      if (id == s.id) found = &s;
    if (!found) {
      out.skipped.push_back("Skipping plot '" + id + "': not a built-in multi-run plot (custom plot presets are not supported)");
      continue;
    }
    const Spec& spec = *found;
    std::vector<std::string> missing;
    for (const char* tag : {spec.x, spec.y}) {
      bool any = false;
      for (const RunData& r : runs) any = any || r.point_value(tag).has_value();
      if (!any && std::find(missing.begin(), missing.end(), tag) == missing.end()) missing.push_back(tag);
    }
    if (!missing.empty()) {
      std::string list;
      for (const auto& m : missing) list += (list.empty() ? "'" : ", '") + m + "'";
      std::string why = "required metric column(s) missing from run data: [" + list + "].";
      if (std::find(missing.begin(), missing.end(), "output_token_throughput_per_gpu") != missing.end())
        why += " It is derived from GPU telemetry (run with --gpu-telemetry).";
      else if (std::find(missing.begin(), missing.end(), "time_to_first_token") != missing.end())
        why += " 'time_to_first_token' only exists for streaming runs.";
      out.skipped.push_back(std::string("Skipping plot '") + spec.id + "': " + why);
      continue;
    }
    out.figures.push_back(multi_figure(spec, runs));
  }
  return out;
}

// ---------------------------------------------------------------- tables

Table summary_table(const RunData& run) {
  Table t;
  t.title = "NVIDIA AIPerf | LLM Metrics";
  t.columns = {"Metric", "avg", "min", "max", "p99", "p90", "p50", "std"};
  // The console's main table: metrics not hidden from it nor printed in a table of their own
  // group, by display order (none = last, file order).
  std::vector<std::pair<int, std::string>> shown;
  for (const std::string& tag : run.metric_order) {
    const auto* d = metrics::builtin_metrics().find(tag);
    if (d && (metrics::has_any_flag(d->flags, metrics::flags::kHiddenFromConsole) ||
              d->console_group != metrics::ConsoleGroup::kDefault)) {
      continue;
    }
    shown.emplace_back(d && d->display_order != 0 ? d->display_order : INT32_MAX, tag);
  }
  std::stable_sort(shown.begin(), shown.end(), [](auto& a, auto& b) { return a.first < b.first; });
  for (const auto& [order, tag] : shown) {
    const MetricStats& m = run.metrics.at(tag);
    std::vector<std::string> row{metric_label(tag, m.unit)};
    for (size_t c = 1; c < t.columns.size(); ++c) {
      auto v = m.get(t.columns[c]);
      row.push_back(v ? fmt2(*v) : "N/A");
    }
    t.rows.push_back(std::move(row));
  }
  return t;
}

Table runs_table(const std::vector<RunData>& runs) {
  Table t;
  t.title = "Runs";
  t.columns = {"Run", "Model", "Concurrency"};
  const std::vector<std::string> tags{"request_throughput", "output_token_throughput", "time_to_first_token",
                                      "inter_token_latency", "request_latency", "output_token_throughput_per_user",
                                      "output_token_throughput_per_gpu"};
  std::vector<std::string> shown;
  for (const std::string& tag : tags) {
    bool any = false;
    for (const RunData& r : runs) any = any || r.point_value(tag).has_value();
    if (!any) continue;
    shown.push_back(tag);
    const RunData* with = nullptr;
    for (const RunData& r : runs)
      if (r.metric(tag)) with = &r;
    const MetricStats* m = with->metric(tag);
    t.columns.push_back(metric_label(tag, m->unit) + (m->get("p50") ? " p50" : ""));
  }
  for (const RunData& r : runs) {
    std::vector<std::string> row{r.name, r.model, std::to_string(r.concurrency)};
    for (const std::string& tag : shown) {
      auto v = r.point_value(tag);
      row.push_back(v ? fmt2(*v) : "N/A");
    }
    t.rows.push_back(std::move(row));
  }
  return t;
}

}  // namespace aiperf::plot
