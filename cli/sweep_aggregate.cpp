#include "sweep_aggregate.h"
#include "export/csv_row.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>
#include <sstream>

namespace aiperf::cli::sweep {
namespace {

using ojson = nlohmann::ordered_json;

void csv_row(std::ostringstream& out, const std::vector<std::string>& fields) {
  std::string line;
  exporting::append_csv_row(line, fields);
  out << line;
}

// AIPerf's _format_number: missing or non-finite -> "", numbers with `decimals` places.
std::string number(const ojson* v, int decimals = 2) {
  if (!v || !v->is_number()) return "";
  const double d = v->get<double>();
  if (!std::isfinite(d)) return "";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, d);
  return buf;
}

const ojson* find(const ojson& obj, const std::string& key) {
  if (!obj.is_object()) return nullptr;
  const auto it = obj.find(key);
  return it == obj.end() ? nullptr : &*it;
}

// Python's repr of a small JSON value (dicts and lists of scalars), as in the CSV metadata.
std::string python_repr(const ojson& v) {
  if (v.is_string()) return "'" + v.get<std::string>() + "'";
  if (v.is_object()) {
    std::string s = "{";
    bool first = true;
    for (const auto& [k, x] : v.items()) {
      s += (first ? "'" : ", '") + k + "': " + python_repr(x);
      first = false;
    }
    return s + "}";
  }
  return python_str(v);
}

ojson params_of(const Point& p, const std::vector<std::pair<std::string, std::string>>& names) {
  ojson out = ojson::object();
  for (const auto& [path, value] : p.values)
    for (const auto& [n, display] : names)
      if (n == path) out[display] = ojson(value);
  return out;
}

double mean_of(const ojson& stats, const std::string& key) { return stats.at(key).at("mean").get<double>(); }

bool all_have(const std::vector<std::pair<ojson, ojson>>& combos, const std::string& key) {
  for (const auto& c : combos)
    if (!c.second.contains(key)) return false;
  return true;
}

// Python's tuple(sorted(params.items())) ordering, for the Pareto list.
bool params_less(const ojson& a, const ojson& b) {
  std::vector<std::pair<std::string, ojson>> x, y;
  for (const auto& [k, v] : a.items()) x.emplace_back(k, v);
  for (const auto& [k, v] : b.items()) y.emplace_back(k, v);
  auto by_key = [](const auto& l, const auto& r) { return l.first < r.first; };
  std::sort(x.begin(), x.end(), by_key);
  std::sort(y.begin(), y.end(), by_key);
  for (size_t i = 0; i < std::min(x.size(), y.size()); ++i) {
    if (x[i].first != y[i].first) return x[i].first < y[i].first;
    if (x[i].second != y[i].second) return x[i].second < y[i].second;
  }
  return x.size() < y.size();
}

}  // namespace

ojson cell_stats(const std::vector<exporting::TrialResult>& trials, double confidence_level) {
  if (trials.empty()) return nullptr;
  if (trials.size() == 1) {
    const exporting::TrialResult& t = trials.front();
    if (!t.success || t.metrics.empty()) return nullptr;
    ojson out = ojson::object();
    for (const auto& [tag, m] : t.metrics.items()) {
      // AIPerf reads the summary into float fields (count stays an integer): 4 -> 4.0.
      auto as_float = [](const ojson& v) { return v.is_number() ? ojson(v.get<double>()) : v; };
      const ojson* avg_p = find(m, "avg");
      const ojson avg = avg_p && avg_p->is_number() ? as_float(*avg_p) : ojson(0.0);
      ojson s;
      s["mean"] = avg;
      s["avg"] = avg;
      s["std"] = 0.0;
      const ojson* mn = find(m, "min");
      const ojson* mx = find(m, "max");
      s["min"] = mn && !mn->is_null() ? as_float(*mn) : avg;
      s["max"] = mx && !mx->is_null() ? as_float(*mx) : avg;
      s["cv"] = 0.0;
      s["ci_low"] = avg;
      s["ci_high"] = avg;
      s["unit"] = m.contains("unit") ? m["unit"] : ojson(nullptr);
      for (const char* f : {"p1", "p5", "p10", "p25", "p50", "p75", "p90", "p95", "p99", "count", "sum"})
        if (const ojson* v = find(m, f); v && !v->is_null()) s[f] = std::string(f) == "count" ? *v : as_float(*v);
      out[tag] = std::move(s);
    }
    return out;
  }
  ojson agg;
  try {
    agg = exporting::aggregate_confidence(trials, confidence_level, 0, "");
  } catch (const std::exception&) {
    return nullptr;
  }
  ojson out = ojson::object();
  for (const auto& [key, m] : agg["metrics"].items()) {
    ojson s;
    for (const char* f : {"mean", "std", "min", "max", "cv", "ci_low", "ci_high", "unit"})
      s[f] = m.contains(f) ? m[f] : ojson(nullptr);
    out[key] = std::move(s);
  }
  return out;
}

ojson sweep_aggregate(const std::vector<Cell>& cells, const std::string& sweep_mode, double confidence_level) {
  std::vector<Point> points;
  for (const Cell& c : cells) points.push_back(c.point);
  const auto names = display_names(points);

  // Parameter values in first-seen order.
  ojson sweep_parameters = ojson::array();
  size_t combinations = 1;
  for (const auto& [path, display] : names) {
    ojson values = ojson::array();
    for (const Point& p : points)
      for (const auto& [pp, v] : p.values)
        if (const ojson ov(v); pp == path && std::find(values.begin(), values.end(), ov) == values.end())
          values.push_back(ov);
    combinations *= values.size();
    sweep_parameters.push_back({{"name", display}, {"values", values}});
  }

  std::vector<std::pair<ojson, ojson>> combos;  // (parameters, stats) of points with results
  size_t runs = 0, ok = 0, per_value = 0;
  ojson failed = ojson::array();
  for (const Cell& c : cells) {
    per_value = std::max(per_value, c.trials.size());
    for (const auto& t : c.trials) {
      ++runs;
      if (t.success) ++ok;
      else failed.push_back({{"label", t.label}, {"error", t.error}});
    }
    ojson stats = cell_stats(c.trials, confidence_level);
    if (!stats.is_null()) combos.emplace_back(params_of(c.point, names), std::move(stats));
  }

  ojson best = ojson::object();
  ojson pareto = ojson::array();
  std::string latency_key;
  for (const char* k : {"time_to_first_token_p99", "request_latency_p99"})
    if (!combos.empty() && all_have(combos, k)) {
      latency_key = k;
      break;
    }
  const bool has_tput = !combos.empty() && all_have(combos, "request_throughput_avg");
  if (has_tput) {
    size_t bi = 0;
    for (size_t i = 1; i < combos.size(); ++i)
      if (mean_of(combos[i].second, "request_throughput_avg") > mean_of(combos[bi].second, "request_throughput_avg"))
        bi = i;
    const ojson& m = combos[bi].second["request_throughput_avg"];
    best["best_throughput"] = {{"parameters", combos[bi].first},
                               {"metric", m["mean"]},
                               {"unit", m.contains("unit") && m["unit"].is_string() ? m["unit"] : ojson("requests/sec")}};
  }
  if (!latency_key.empty()) {
    size_t bi = 0;
    for (size_t i = 1; i < combos.size(); ++i)
      if (mean_of(combos[i].second, latency_key) < mean_of(combos[bi].second, latency_key)) bi = i;
    const ojson& m = combos[bi].second[latency_key];
    best["best_latency_p99"] = {{"parameters", combos[bi].first},
                                {"metric", m["mean"]},
                                {"unit", m.contains("unit") && m["unit"].is_string() ? m["unit"] : ojson("ms")}};
  }
  if (has_tput && !latency_key.empty()) {
    std::vector<ojson> front;
    for (size_t i = 0; i < combos.size(); ++i) {
      const double ti = mean_of(combos[i].second, "request_throughput_avg");
      const double li = mean_of(combos[i].second, latency_key);
      bool dominated = false;
      for (size_t j = 0; j < combos.size() && !dominated; ++j) {
        if (j == i || combos[j].first == combos[i].first) continue;
        const double tj = mean_of(combos[j].second, "request_throughput_avg");
        const double lj = mean_of(combos[j].second, latency_key);
        dominated = tj >= ti && lj <= li && (tj > ti || lj < li);
      }
      if (!dominated) front.push_back(combos[i].first);
    }
    std::stable_sort(front.begin(), front.end(), params_less);
    for (auto& f : front) pareto.push_back(f);
  }

  ojson out;
  out["aggregation_type"] = "sweep";
  out["num_profile_runs"] = runs;
  out["num_successful_runs"] = ok;
  out["failed_runs"] = failed;
  ojson md;
  md["sweep_parameters"] = sweep_parameters;
  md["num_combinations"] = combinations;
  md["sweep_mode"] = sweep_mode;
  md["confidence_level"] = confidence_level;
  md["num_trials_per_value"] = per_value;
  md["aggregation_type"] = "sweep";
  out["metadata"] = md;
  ojson per = ojson::array();
  for (auto& [params, stats] : combos) per.push_back({{"parameters", params}, {"metrics", stats}});
  out["per_combination_metrics"] = per;
  out["best_configurations"] = best;
  out["pareto_optimal"] = pareto;
  return out;
}

std::string sweep_csv(const ojson& sweep) {
  std::ostringstream out;
  std::vector<std::string> params;
  for (const auto& p : sweep["metadata"]["sweep_parameters"]) params.push_back(p["name"].get<std::string>());
  const ojson& per = sweep["per_combination_metrics"];
  if (!per.empty()) {
    std::set<std::string> metric_names;
    for (const auto& c : per)
      for (const auto& [k, v] : c["metrics"].items()) metric_names.insert(k);
    std::vector<std::string> header = params;
    for (const std::string& m : metric_names)
      for (const char* s : {"_mean", "_std", "_min", "_max", "_cv"}) header.push_back(m + s);
    csv_row(out, header);
    for (const auto& c : per) {
      std::vector<std::string> row;
      for (const std::string& p : params) row.push_back(c["parameters"].contains(p) ? python_str(c["parameters"][p]) : "");
      for (const std::string& m : metric_names) {
        const ojson* md = find(c["metrics"], m);
        if (!md || !md->is_object()) {
          row.insert(row.end(), {"", "", "", "", ""});
          continue;
        }
        row.push_back(number(find(*md, "mean")));
        row.push_back(number(find(*md, "std")));
        row.push_back(number(find(*md, "min")));
        row.push_back(number(find(*md, "max")));
        row.push_back(number(find(*md, "cv"), 4));
      }
      csv_row(out, row);
    }
  }
  out << "\r\n";
  csv_row(out, {"Best Configurations"});
  const ojson& best = sweep["best_configurations"];
  if (!best.empty()) {
    std::vector<std::string> header{"Configuration"};
    header.insert(header.end(), params.begin(), params.end());
    header.insert(header.end(), {"Metric", "Unit"});
    csv_row(out, header);
    for (const auto& [name, b] : best.items()) {
      // best_throughput -> Best Throughput (Python's str.title()).
      std::string title;
      bool up = true;
      for (char ch : name) {
        const char c = ch == '_' ? ' ' : ch;
        const bool alpha = std::isalpha(static_cast<unsigned char>(c));
        title += alpha ? static_cast<char>(up ? std::toupper(c) : std::tolower(c)) : c;
        up = !alpha;
      }
      std::vector<std::string> row{title};
      for (const std::string& p : params) row.push_back(b["parameters"].contains(p) ? python_str(b["parameters"][p]) : "");
      row.push_back(number(find(b, "metric")));
      row.push_back(b.value("unit", ""));
      csv_row(out, row);
    }
  }
  out << "\r\n";
  csv_row(out, {"Pareto Optimal Points"});
  const ojson& pareto = sweep["pareto_optimal"];
  if (!pareto.empty()) {
    csv_row(out, params);
    for (const auto& c : pareto) {
      std::vector<std::string> row;
      for (const std::string& p : params) row.push_back(c.contains(p) ? python_str(c[p]) : "");
      csv_row(out, row);
    }
  } else {
    csv_row(out, {"None"});
  }
  out << "\r\n";
  csv_row(out, {"Metadata"});
  csv_row(out, {"Field", "Value"});
  csv_row(out, {"Aggregation Type", sweep.value("aggregation_type", "sweep")});
  std::string joined;
  for (size_t i = 0; i < params.size(); ++i) joined += (i ? ", " : "") + params[i];
  csv_row(out, {"Sweep Parameters", joined});
  csv_row(out, {"Number of Combinations", std::to_string(sweep["metadata"].value("num_combinations", 0))});
  csv_row(out, {"Number of Profile Runs", std::to_string(sweep.value("num_profile_runs", 0))});
  csv_row(out, {"Number of Successful Runs", std::to_string(sweep.value("num_successful_runs", 0))});
  return out.str();
}

ojson point_aggregate(const Cell& cell, double confidence_level, double cooldown_seconds, const std::string& sweep_mode,
                      const std::string& model, const std::string& version) {
  ojson agg = exporting::aggregate_confidence(cell.trials, confidence_level, cooldown_seconds, version);
  ojson& md = agg["metadata"];
  md["variation_label"] = cell.point.label;
  ojson values = ojson::object();
  for (const auto& [path, v] : cell.point.values) values[path] = ojson(v);
  md["variation_values"] = values;
  md["sweep_mode"] = sweep_mode;
  if (!model.empty()) md["model"] = model;
  return agg;
}

// The extra metadata rows of a point's aggregate CSV, after aggregate_csv's own.
std::string point_csv_extra(const ojson& agg) {
  std::ostringstream out;
  const ojson& md = agg["metadata"];
  if (md.contains("variation_label")) csv_row(out, {"Variation Label", md["variation_label"].get<std::string>()});
  if (md.contains("variation_values")) csv_row(out, {"Variation Values", python_repr(md["variation_values"])});
  if (md.contains("sweep_mode")) csv_row(out, {"Sweep Mode", md["sweep_mode"].get<std::string>()});
  if (md.contains("model")) csv_row(out, {"Model", md["model"].get<std::string>()});
  return out.str();
}

std::string params_text(const ojson& parameters) {
  std::string out;
  for (const auto& [k, v] : parameters.items()) out += (out.empty() ? "" : ", ") + k + "=" + python_str(v);
  return out;
}

std::string sweep_table(const std::vector<Cell>& cells, double confidence_level) {
  static const std::vector<std::pair<std::string, std::string>> kHeadline = {
      {"output_token_throughput", "avg"},
      {"time_to_first_token", "p99"},
      {"inter_token_latency", "p99"},
      {"request_latency", "p95"}};
  std::set<std::string> paths;
  for (const Cell& c : cells)
    for (const auto& [p, v] : c.point.values) paths.insert(p);
  std::vector<std::string> header(paths.begin(), paths.end());
  for (const auto& [m, s] : kHeadline) header.push_back(m);
  header.push_back("trials");
  std::vector<std::vector<std::string>> rows;
  for (const Cell& c : cells) {
    std::vector<std::string> row;
    for (const std::string& p : paths) {
      std::string text;
      for (const auto& [pp, v] : c.point.values)
        if (pp == p) text = python_str(v);
      row.push_back(text);
    }
    const ojson stats = cell_stats(c.trials, confidence_level);
    for (const auto& [m, s] : kHeadline) {
      const ojson* md = stats.is_object() ? find(stats, m) : nullptr;
      row.push_back(md ? number(find(*md, s)) : "");
    }
    row.push_back(std::to_string(c.trials.size()));
    rows.push_back(std::move(row));
  }
  // Rich's SIMPLE_HEAVY box: no outer border, a heavy rule under the header, right-justified.
  std::vector<size_t> width(header.size());
  for (size_t i = 0; i < header.size(); ++i) {
    width[i] = header[i].size();
    for (const auto& r : rows) width[i] = std::max(width[i], r[i].size());
  }
  auto line = [&](const std::vector<std::string>& cells_) {
    std::string s;
    for (size_t i = 0; i < cells_.size(); ++i) s += " " + std::string(width[i] - cells_[i].size(), ' ') + cells_[i] + " ";
    while (!s.empty() && s.back() == ' ') s.pop_back();
    return s + "\n";
  };
  std::string out = line(header);
  std::string rule;
  for (size_t i = 0; i < width.size(); ++i) {
    for (size_t k = 0; k < width[i] + 2; ++k) rule += "\u2501";
  }
  out += rule + "\n";
  for (const auto& r : rows) out += line(r);
  return out;
}

}  // namespace aiperf::cli::sweep
