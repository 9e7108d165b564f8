#include "search_pareto.h"

#include <cctype>
#include <cmath>
#include <stdexcept>

#include "search_post_process.h"
#include "search_spec.h"

namespace aiperf::cli::search {
namespace {

std::string strip(const std::string& s) {
  const auto b = s.find_first_not_of(" \t\n\r\f\v");
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(" \t\n\r\f\v") - b + 1);
}

// Python's int() of a decimal string (already stripped): optional sign, digits, single '_'
// between digits. False when it is not one.
bool python_int(const std::string& s, long long& out) {
  size_t i = 0;
  bool negative = false;
  if (i < s.size() && (s[i] == '+' || s[i] == '-')) negative = s[i++] == '-';
  if (i >= s.size()) return false;
  long long v = 0;
  bool digit_before = false;
  for (; i < s.size(); ++i) {
    const char c = s[i];
    if (c == '_') {
      if (!digit_before || i + 1 >= s.size() || !std::isdigit(static_cast<unsigned char>(s[i + 1]))) return false;
      digit_before = false;
      continue;
    }
    if (!std::isdigit(static_cast<unsigned char>(c))) return false;
    if (v > (static_cast<long long>(1) << 60)) return false;  // far beyond any ISL; refuse rather than wrap
    v = v * 10 + (c - '0');
    digit_before = true;
  }
  out = negative ? -v : v;
  return true;
}

// A metric block of a sweep row: "<metric>_<stat>", else "<metric>" (Python's `a or b`: an
// empty or missing first block falls through).
const nlohmann::ordered_json* block_of(const nlohmann::ordered_json& metrics, const std::string& flat,
                                       const std::string& metric) {
  if (metrics.contains(flat) && !metrics[flat].empty()) return &metrics[flat];
  if (metrics.contains(metric) && !metrics[metric].empty()) return &metrics[metric];
  return nullptr;
}

double number(const nlohmann::ordered_json& v) {
  if (v.is_number()) return v.get<double>();
  return std::nan("");  // null (a non-finite value the exporter could not write)
}

}  // namespace

std::vector<std::pair<long long, long long>> parse_isl_osl_pairs(const std::string& raw) {
  const std::string cleaned = strip(raw);
  if (cleaned.empty()) throw SearchError("--isl-osl-pairs: at least one pair required, got empty string");
  std::vector<std::pair<long long, long long>> pairs;
  size_t start = 0;
  while (start <= cleaned.size()) {
    const size_t comma = cleaned.find(',', start);
    const std::string token = strip(cleaned.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
    start = comma == std::string::npos ? cleaned.size() + 1 : comma + 1;
    if (token.empty()) continue;
    const size_t slash = token.find('/');
    if (slash == std::string::npos || token.find('/', slash + 1) != std::string::npos)
      throw SearchError("--isl-osl-pairs: " + py_repr(token) + " expected '<isl>/<osl>' (one slash)");
    long long isl = 0, osl = 0;
    if (!python_int(strip(token.substr(0, slash)), isl) || !python_int(strip(token.substr(slash + 1)), osl) || isl <= 0 ||
        osl <= 0)
      throw SearchError("--isl-osl-pairs: " + py_repr(token) + " both sides must be a positive int");
    for (const auto& p : pairs)
      if (p == std::make_pair(isl, osl)) throw SearchError("--isl-osl-pairs: duplicate pair " + py_repr(token));
    pairs.emplace_back(isl, osl);
  }
  if (pairs.empty()) throw SearchError("--isl-osl-pairs: at least one pair required after parsing");
  return pairs;
}

void mark_pareto_optimal(std::vector<ParetoPoint>& points, bool x_minimize, bool y_maximize) {
  auto x_no_worse = [&](double a, double b) { return x_minimize ? a <= b : a >= b; };
  auto y_no_worse = [&](double a, double b) { return y_maximize ? a >= b : a <= b; };
  auto x_better = [&](double a, double b) { return x_minimize ? a < b : a > b; };
  auto y_better = [&](double a, double b) { return y_maximize ? a > b : a < b; };
  auto finite = [](const ParetoPoint& p) { return std::isfinite(p.x) && std::isfinite(p.y); };
  for (size_t i = 0; i < points.size(); ++i) {
    ParetoPoint& c = points[i];
    if (!finite(c)) {
      c.optimal = false;
      continue;
    }
    bool dominated = false;
    for (size_t j = 0; j < points.size() && !dominated; ++j) {
      const ParetoPoint& o = points[j];
      if (i == j || !finite(o)) continue;
      dominated = x_no_worse(o.x, c.x) && y_no_worse(o.y, c.y) && (x_better(o.x, c.x) || y_better(o.y, c.y));
    }
    c.optimal = !dominated;
  }
}

nlohmann::ordered_json pareto_sweep_export(const nlohmann::ordered_json& sweep, const nlohmann::ordered_json& params) {
  const std::string x_metric = params.at("x_metric").get<std::string>();
  const std::string x_stat = checked_stat(params.at("x_stat"), "pareto_sweep_export");
  const std::string y_metric = params.at("y_metric").get<std::string>();
  const std::string y_stat = checked_stat(params.at("y_stat"), "pareto_sweep_export");
  const std::string isl_key = params.at("isl_key").get<std::string>();
  const std::string osl_key = params.at("osl_key").get<std::string>();
  const std::string conc_key = params.at("concurrency_key").get<std::string>();
  const std::string x_flat = x_metric + "_" + x_stat, y_flat = y_metric + "_" + y_stat;

  struct Row {
    long long isl, osl, concurrency;
  };
  std::vector<Row> rows;
  std::vector<ParetoPoint> points;
  if (sweep.contains("per_combination_metrics") && sweep["per_combination_metrics"].is_array())
    for (const auto& row : sweep["per_combination_metrics"]) {
      const auto p = row.value("parameters", nlohmann::ordered_json::object());
      const auto m = row.value("metrics", nlohmann::ordered_json::object());
      const auto* xb = block_of(m, x_flat, x_metric);
      const auto* yb = block_of(m, y_flat, y_metric);
      if (!xb || !yb || !xb->contains("mean") || !yb->contains("mean")) continue;
      if (!p.contains(isl_key) || !p.contains(osl_key) || !p.contains(conc_key)) continue;
      // Python's int(): toward zero.
      rows.push_back({static_cast<long long>(p[isl_key].get<double>()), static_cast<long long>(p[osl_key].get<double>()),
                      static_cast<long long>(p[conc_key].get<double>())});
      points.push_back({number((*xb)["mean"]), number((*yb)["mean"]), false});
    }
  if (rows.empty())
    throw std::runtime_error("pareto_sweep_export: no rows with the expected (isl, osl, concurrency) parameters and metrics (" +
                             x_flat + ", " + y_flat + "); check that the recipe ran end-to-end with --streaming.");
  mark_pareto_optimal(points);
  nlohmann::ordered_json cells = nlohmann::ordered_json::array();
  for (size_t i = 0; i < rows.size(); ++i)
    cells.push_back({{"isl", rows[i].isl},
                     {"osl", rows[i].osl},
                     {"concurrency", rows[i].concurrency},
                     {"x", std::isfinite(points[i].x) ? nlohmann::ordered_json(points[i].x) : nlohmann::ordered_json(nullptr)},
                     {"y", std::isfinite(points[i].y) ? nlohmann::ordered_json(points[i].y) : nlohmann::ordered_json(nullptr)},
                     {"pareto_optimal", points[i].optimal}});
  return {{"x_metric", x_metric}, {"x_stat", x_stat}, {"y_metric", y_metric}, {"y_stat", y_stat}, {"cells", cells}};
}

}  // namespace aiperf::cli::search
