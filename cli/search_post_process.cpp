#include "search_post_process.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <stdexcept>

#include "search_itl_surface.h"
#include "search_pareto.h"
#include "search_spec.h"
#include "sweep_plan.h"

namespace aiperf::cli::search {
namespace {

// A swept value as AIPerf writes it: an int when it is whole.
nlohmann::ordered_json swept(double x) {
  if (x == std::floor(x) && std::fabs(x) < 9e15) return static_cast<long long>(x);
  return x;
}

}  // namespace

std::vector<std::pair<double, double>> extract_points(const nlohmann::ordered_json& sweep, const std::string& swept_param,
                                                      const std::string& metric_tag, const std::string& stat) {
  const std::string flat = metric_tag + "_" + stat;
  const std::string leaf = swept_param.substr(swept_param.rfind('.') + 1);
  std::vector<std::pair<double, double>> points;
  if (sweep.contains("per_combination_metrics") && sweep["per_combination_metrics"].is_array())
    for (const auto& row : sweep["per_combination_metrics"]) {
      const auto params = row.value("parameters", nlohmann::ordered_json::object());
      const auto metrics = row.value("metrics", nlohmann::ordered_json::object());
      nlohmann::ordered_json value;
      if (params.contains(swept_param)) value = params[swept_param];
      else if (params.contains(leaf)) value = params[leaf];
      else continue;
      const nlohmann::ordered_json* block = metrics.contains(flat) ? &metrics[flat] : nullptr;
      if (!block || !block->contains("mean")) block = metrics.contains(metric_tag) ? &metrics[metric_tag] : nullptr;
      if (!block || !block->contains("mean") || !(*block)["mean"].is_number() || !value.is_number()) continue;
      points.emplace_back(value.get<double>(), (*block)["mean"].get<double>());
    }
  if (points.empty())
    throw std::runtime_error("post-process: sweep aggregate has no rows with parameter " + py_repr(swept_param) +
                             " and metric " + py_repr(metric_tag) + " (flat key " + py_repr(flat) +
                             "); check that the recipe swept that parameter and that the metric is enabled (e.g. "
                             "--streaming for time_to_first_token).");
  std::stable_sort(points.begin(), points.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  return points;
}

nlohmann::ordered_json degradation_knee(const nlohmann::ordered_json& sweep, const nlohmann::ordered_json& params) {
  const double threshold = params.at("threshold_pct").get<double>();
  const std::string metric = params.at("metric_tag").get<std::string>();
  const std::string stat = params.at("stat").get<std::string>();
  const std::string path = params.at("swept_param").get<std::string>();
  const auto points = extract_points(sweep, path, metric, stat);
  const auto [bx, by] = points.front();
  if (!std::isfinite(by))
    throw std::runtime_error("degradation_knee_detect: baseline " + stat + " for " + py_repr(metric) + " is non-finite");
  if (by <= 0)
    throw std::runtime_error("degradation_knee_detect: baseline " + stat + " for " + py_repr(metric) +
                             " must be positive (got " + sweep::python_str(nlohmann::json(by)) +
                             ", which is zero or negative)");
  const double cutoff = by * (1.0 + threshold);
  std::optional<std::pair<double, double>> knee;
  for (size_t i = 1; i < points.size(); ++i)
    if (points[i].second > cutoff) {
      knee = points[i];
      break;
    }
  const std::string leaf = path.substr(path.rfind('.') + 1);
  nlohmann::ordered_json out;
  out["baseline_" + leaf] = swept(bx);
  out["baseline_" + stat] = by;
  out["knee_" + leaf] = knee ? swept(knee->first) : nlohmann::ordered_json(nullptr);
  out["knee_" + stat] = knee ? nlohmann::ordered_json(knee->second) : nlohmann::ordered_json(nullptr);
  out["threshold_pct"] = threshold;
  out["swept_metric"] = metric;
  out["stat"] = stat;
  out["swept_param"] = path;
  auto& all = out["all_points"] = nlohmann::ordered_json::array();
  for (const auto& [x, y] : points) all.push_back({{leaf, swept(x)}, {stat, y}});
  return out;
}

namespace {
// A row's stat of a metric: "<tag>_<stat>".mean, else <tag>.<stat> (AIPerf's read_metric_value).
std::optional<double> metric_value(const nlohmann::ordered_json& metrics, const std::string& tag, const std::string& stat) {
  const std::string flat = tag + "_" + stat;
  if (metrics.contains(flat) && metrics[flat].is_object() && metrics[flat].contains("mean") &&
      metrics[flat]["mean"].is_number())
    return metrics[flat]["mean"].get<double>();
  if (metrics.contains(tag) && metrics[tag].is_object() && metrics[tag].contains(stat) && metrics[tag][stat].is_number())
    return metrics[tag][stat].get<double>();
  return std::nullopt;
}

bool compare(double v, const std::string& op, double threshold) {
  if (op == "lt") return v < threshold;
  if (op == "le") return v <= threshold;
  if (op == "gt") return v > threshold;
  return v >= threshold;
}
}  // namespace

nlohmann::ordered_json sla_breach_knee(const nlohmann::ordered_json& sweep, const nlohmann::ordered_json& params) {
  const std::string path = params.at("swept_param").get<std::string>();
  const auto& filters = params.at("sla_filters");
  const std::string leaf = path.substr(path.rfind('.') + 1);
  std::vector<nlohmann::ordered_json> rows;
  if (sweep.contains("per_combination_metrics") && sweep["per_combination_metrics"].is_array())
    for (const auto& r : sweep["per_combination_metrics"]) rows.push_back(r);
  const std::string key =
      !rows.empty() && rows.front().contains("parameters") && rows.front()["parameters"].contains(path) ? path : leaf;
  std::vector<nlohmann::ordered_json> kept;
  for (const auto& r : rows)
    if (r.contains("parameters") && r["parameters"].contains(key)) kept.push_back(r);
  std::stable_sort(kept.begin(), kept.end(), [&](const auto& a, const auto& b) {
    return a["parameters"][key].template get<double>() < b["parameters"][key].template get<double>();
  });
  std::vector<double> xs;
  std::vector<nlohmann::ordered_json> points;
  for (const auto& r : kept) {
    const double x = r["parameters"][key].get<double>();
    nlohmann::ordered_json breaches = nlohmann::ordered_json::array();
    const auto metrics = r.value("metrics", nlohmann::ordered_json::object());
    for (const auto& f : filters) {
      const auto observed = metric_value(metrics, f.at("metric_tag"), f.at("stat"));
      const double threshold = f.at("threshold").get<double>();
      if (!(observed && compare(*observed, f.at("op"), threshold)))
        breaches.push_back({{"metric_tag", f.at("metric_tag")},
                            {"stat", f.at("stat")},
                            {"op", f.at("op")},
                            {"threshold", threshold},
                            {"observed", observed ? nlohmann::ordered_json(*observed) : nlohmann::ordered_json(nullptr)}});
    }
    const auto at = std::find(xs.begin(), xs.end(), x);
    if (at == xs.end()) {
      xs.push_back(x);
      points.push_back({{leaf, r["parameters"][key]}, {"feasible", breaches.empty()}, {"breaches", breaches}});
    } else {
      auto& p = points[static_cast<size_t>(at - xs.begin())];
      p["feasible"] = p["feasible"].get<bool>() && breaches.empty();
      for (const auto& b : breaches) p["breaches"].push_back(b);
    }
  }
  nlohmann::ordered_json max_passing = nullptr, first_failing = nullptr, first_breach = nullptr;
  bool seen_infeasible = false, monotonic = true;
  for (const auto& p : points) {
    if (p["feasible"].get<bool>()) {
      if (max_passing.is_null() || p[leaf].get<double>() > max_passing.get<double>()) max_passing = p[leaf];
      if (seen_infeasible) monotonic = false;
    } else {
      if (first_failing.is_null() || p[leaf].get<double>() < first_failing.get<double>()) {
        first_failing = p[leaf];
        first_breach = p["breaches"][0];
      }
      seen_infeasible = true;
    }
  }
  nlohmann::ordered_json out;
  out["swept_param"] = path;
  out["max_passing_" + leaf] = max_passing;
  out["first_failing_" + leaf] = first_failing;
  out["first_failing_breach"] = first_breach;
  out["all_points"] = points;
  out["monotonicity_check"] = monotonic;
  out["filters"] = filters;
  return out;
}

std::pair<std::vector<double>, double> polyfit_r2(const std::vector<double>& x, const std::vector<double>& y, int deg) {
  // Normal equations in long double on x scaled to [-1, 1] (well conditioned for the few
  // points a curve recipe sweeps), then expanded back to powers of x.
  const size_t n = x.size(), m = static_cast<size_t>(deg) + 1;
  long double lo = x[0], hi = x[0];
  for (double v : x) {
    lo = std::min<long double>(lo, v);
    hi = std::max<long double>(hi, v);
  }
  const long double mid = (lo + hi) / 2, half = hi > lo ? (hi - lo) / 2 : 1;
  std::vector<std::vector<long double>> a(m, std::vector<long double>(m + 1, 0));
  for (size_t i = 0; i < n; ++i) {
    const long double t = (x[i] - mid) / half;
    std::vector<long double> pw(2 * m, 1);
    for (size_t k = 1; k < 2 * m; ++k) pw[k] = pw[k - 1] * t;
    for (size_t r = 0; r < m; ++r) {
      for (size_t c = 0; c < m; ++c) a[r][c] += pw[r + c];
      a[r][m] += pw[r] * y[i];
    }
  }
  for (size_t c = 0; c < m; ++c) {  // Gauss-Jordan with partial pivoting
    size_t piv = c;
    for (size_t r = c + 1; r < m; ++r)
      if (std::fabs(static_cast<double>(a[r][c])) > std::fabs(static_cast<double>(a[piv][c]))) piv = r;
    std::swap(a[c], a[piv]);
    for (size_t r = 0; r < m; ++r) {
      if (r == c || a[c][c] == 0) continue;
      const long double f = a[r][c] / a[c][c];
      for (size_t k = c; k <= m; ++k) a[r][k] -= f * a[c][k];
    }
  }
  std::vector<long double> b(m);  // in t: b[k] * t^k
  for (size_t k = 0; k < m; ++k) b[k] = a[k][k] != 0 ? a[k][m] / a[k][k] : 0;
  // t = (x - mid) / half: expand sum b_k ((x - mid)/half)^k into powers of x.
  std::vector<long double> coef(m, 0);  // coef[j]: x^j
  for (size_t k = 0; k < m; ++k) {
    // (x - mid)^k / half^k = sum_j C(k, j) x^j (-mid)^(k-j) / half^k
    long double binom = 1;
    for (size_t j = 0; j <= k; ++j) {
      if (j > 0) binom = binom * static_cast<long double>(k - j + 1) / static_cast<long double>(j);
      coef[j] += b[k] * binom * std::pow(-mid, static_cast<long double>(k - j)) / std::pow(half, static_cast<long double>(k));
    }
  }
  std::vector<double> out(m);
  for (size_t j = 0; j < m; ++j) out[m - 1 - j] = static_cast<double>(coef[j]);
  double mean = 0;
  for (double v : y) mean += v;
  mean /= static_cast<double>(n);
  double ss_res = 0, ss_tot = 0;
  for (size_t i = 0; i < n; ++i) {
    double yh = 0;
    for (double c : out) yh = yh * x[i] + c;
    ss_res += (y[i] - yh) * (y[i] - yh);
    ss_tot += (y[i] - mean) * (y[i] - mean);
  }
  return {out, ss_tot == 0 ? 0.0 : 1.0 - ss_res / ss_tot};
}

nlohmann::ordered_json ttft_curve_fit(const nlohmann::ordered_json& sweep, const nlohmann::ordered_json& params) {
  const std::string metric = params.at("metric_tag").get<std::string>();
  const std::string stat = params.at("stat").get<std::string>();
  const std::string path = params.at("swept_param").get<std::string>();
  const double floor = params.value("r_squared_floor", 0.85);
  const auto points = extract_points(sweep, path, metric, stat);
  if (points.size() < 2)
    throw std::runtime_error("ttft_curve_fit: need >= 2 sweep points to fit a curve (got " +
                             std::to_string(points.size()) + " for " + py_repr(metric) + "/" + py_repr(stat) +
                             "); widen the recipe's ISL range or sweep more steps.");
  std::vector<double> x, y;
  for (const auto& [a, b] : points)
    if (std::isfinite(a) && std::isfinite(b)) {
      x.push_back(a);
      y.push_back(b);
    }
  nlohmann::ordered_json raw = nlohmann::ordered_json::array();
  for (const auto& [a, b] : points) raw.push_back({{"isl", a}, {"ttft_ms", b}});
  nlohmann::ordered_json out;
  if (x.size() < 2) {
    out = {{"fit_form", "linear"}, {"coefficients", nlohmann::ordered_json::array()}, {"r_squared", 0.0},
           {"below_floor", true}, {"r_squared_floor", floor},
           {"error_reason", "ttft_curve_fit: fewer than 2 finite trial points after dropping non-finite metric values (got " +
                                std::to_string(x.size()) + " of " + std::to_string(points.size()) +
                                "); check that swept cells produced successful requests."}};
  } else {
    auto [coeffs, r2] = polyfit_r2(x, y, 1);
    std::string form = "linear";
    if (r2 < floor && x.size() >= 3) {
      auto [q, qr2] = polyfit_r2(x, y, 2);
      if (qr2 > r2) {
        form = "quadratic";
        coeffs = q;
        r2 = qr2;
      }
    }
    bool below = r2 < floor || std::isnan(r2);
    for (double c : coeffs) below = below || !std::isfinite(c);
    out = {{"fit_form", form}, {"coefficients", coeffs}, {"r_squared", r2}, {"below_floor", below},
           {"r_squared_floor", floor}};
  }
  out["raw_points"] = raw;
  out["swept_metric"] = metric;
  out["stat"] = stat;
  out["swept_param"] = path;
  return out;
}

bool row_passes(const nlohmann::ordered_json& row, const std::string& metric_tag, const std::string& stat,
                const std::string& op, double threshold) {
  if (!row.contains("metrics")) return false;
  const auto& m = row["metrics"];
  std::optional<double> v;
  const std::string flat = metric_tag + "_" + stat;
  if (m.contains(flat) && m[flat].contains("mean") && m[flat]["mean"].is_number()) v = m[flat]["mean"].get<double>();
  else if (m.contains(metric_tag) && m[metric_tag].contains(stat) && m[metric_tag][stat].is_number())
    v = m[metric_tag][stat].get<double>();
  if (!v || !std::isfinite(*v)) return false;
  if (op == "lt") return *v < threshold;
  if (op == "le") return *v <= threshold;
  if (op == "gt") return *v > threshold;
  return *v >= threshold;
}

nlohmann::ordered_json with_sweep_metadata(const nlohmann::ordered_json& metadata,
                                           const nlohmann::ordered_json& sla_constraints,
                                           const nlohmann::ordered_json& pareto_axes) {
  nlohmann::ordered_json out = nlohmann::ordered_json::object();
  for (auto it = metadata.begin(); it != metadata.end(); ++it) {
    if (it.key() == "aggregation_type" && !pareto_axes.is_null()) out["pareto_axes"] = pareto_axes;
    out[it.key()] = it.value();
    if (it.key() == "num_combinations" && !sla_constraints.is_null()) out["sla_constraints"] = sla_constraints;
  }
  if (!pareto_axes.is_null() && !out.contains("pareto_axes")) out["pareto_axes"] = pareto_axes;
  return out;
}

nlohmann::ordered_json recipe_pareto_axes(const std::string& recipe) {
  auto axes = [](const char* xm, const char* xs, const char* ym, const char* ys) {
    return nlohmann::ordered_json{{"x_metric", xm},     {"x_stat", xs},      {"x_minimize", true},
                                  {"y_metric", ym},     {"y_stat", ys},      {"y_maximize", true},
                                  {"series_keys", nlohmann::ordered_json::array()}};
  };
  if (recipe == "max-throughput-ttft-sla")
    return axes("time_to_first_token", "p99", "output_token_throughput", "avg");
  if (recipe == "max-throughput-itl-sla")
    return axes("inter_token_latency", "p99", "output_token_throughput", "avg");
  if (recipe == "concurrency-ramp") return axes("request_latency", "p95", "output_token_throughput", "avg");
  if (recipe == "max-concurrency-under-sla") return axes("request_latency", "p95", "concurrency", "value");
  if (recipe == "max-goodput-under-slo") return axes("request_latency", "p95", "goodput", "avg");
  if (recipe == "pareto-sweep") {
    auto a = axes("time_to_first_token", "p95", "output_token_throughput", "avg");
    a["series_keys"] = {"isl", "osl"};
    return a;
  }
  return nullptr;
}

std::string checked_stat(const nlohmann::ordered_json& value, const std::string& handler) {
  for (const char* s : {"avg", "p50", "p90", "p95", "p99"})
    if (value.is_string() && value.get<std::string>() == s) return s;
  throw std::runtime_error(handler + ": params['stat']=" + (value.is_string() ? py_repr(value.get<std::string>()) : value.dump()) +
                           " is not a recognized statistic; expected one of ('avg', 'p50', 'p90', 'p95', 'p99').");
}

nlohmann::ordered_json post_process(const std::string& handler, const nlohmann::ordered_json& sweep,
                                    const nlohmann::ordered_json& params) {
  if (handler == "itl_surface_fit") return itl_surface_fit(sweep, params);
  if (handler == "pareto_sweep_export") return pareto_sweep_export(sweep, params);
  if (handler == "degradation_knee_detect") return degradation_knee(sweep, params);
  if (handler == "sla_breach_knee") return sla_breach_knee(sweep, params);
  if (handler == "ttft_curve_fit") return ttft_curve_fit(sweep, params);
  throw std::runtime_error("post-process handler " + py_repr(handler) + " is not available natively");
}

}  // namespace aiperf::cli::search
