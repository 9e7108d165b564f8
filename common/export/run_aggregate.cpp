#include "export/run_aggregate.h"

#include <cmath>
#include <cstdio>
#include <fstream>
#include <limits>
#include <sstream>
#include <stdexcept>

#include "stats/inference.h"
#include "csv_row.h"

namespace aiperf::exporting {
namespace {

using ojson = nlohmann::ordered_json;

// AIPerf's statistic keys, in its order.
constexpr const char* kStatKeys[] = {"avg", "min", "max", "sum", "p1", "p5", "p10", "p25",
                                     "p50", "p75", "p90", "p95", "p99", "std"};

double sample_mean(const std::vector<double>& v) {
  double s = 0;
  for (double x : v) s += x;
  return s / static_cast<double>(v.size());
}

double sample_std(const std::vector<double>& v, double mean) {
  if (v.size() < 2) return 0;
  double s = 0;
  for (double x : v) s += (x - mean) * (x - mean);
  return std::sqrt(s / static_cast<double>(v.size() - 1));
}

// JSON has no inf/NaN: they are written as null, as AIPerf does.
ojson finite_or_null(double v) { return std::isfinite(v) ? ojson(v) : ojson(nullptr); }

std::optional<double> stat_value(const TrialResult& t, const std::string& tag, const std::string& stat) {
  auto m = t.metrics.find(tag);
  if (m == t.metrics.end()) return std::nullopt;
  auto s = m->find(stat);
  if (s == m->end() || !s->is_number()) return std::nullopt;
  const double v = s->get<double>();
  return std::isfinite(v) ? std::optional<double>(v) : std::nullopt;
}

std::vector<double> values_of(const std::vector<TrialResult>& trials, const std::string& tag, const std::string& stat) {
  std::vector<double> out;
  for (const auto& t : trials)
    if (t.success)
      if (auto v = stat_value(t, tag, stat)) out.push_back(*v);
  return out;
}

std::string fixed(const ojson& v, int decimals) {
  if (v.is_null()) return "inf";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v.get<double>());
  return buf;
}

// Python's str() of a list of strings, as AIPerf's CSV writes run_labels.
std::string python_list(const ojson& list) {
  std::string out = "[";
  for (size_t i = 0; i < list.size(); ++i) out += (i ? ", '" : "'") + list[i].get<std::string>() + "'";
  return out + "]";
}

std::string title_case(std::string key) {
  bool start = true;
  for (char& c : key) {
    if (c == '_') {
      c = ' ';
      start = true;
    } else {
      c = start ? static_cast<char>(std::toupper(static_cast<unsigned char>(c))) : c;
      start = false;
    }
  }
  return key;
}

// The per-request values of one metric in a profile_export.jsonl (profiling records only).
std::vector<double> request_values(const std::string& path, const std::string& tag) {
  std::vector<double> out;
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    const auto j = nlohmann::json::parse(line, nullptr, false);
    if (j.is_discarded() || !j.contains("metrics")) continue;
    if (j.contains("metadata") && j["metadata"].value("benchmark_phase", "profiling") != "profiling") continue;
    auto m = j["metrics"].find(tag);
    if (m == j["metrics"].end() || !m->contains("value")) continue;
    const auto& v = (*m)["value"];
    if (v.is_number()) out.push_back(v.get<double>());
    else if (v.is_array())
      for (const auto& x : v)
        if (x.is_number()) out.push_back(x.get<double>());
  }
  return out;
}

}  // namespace

TrialResult read_trial(const std::string& label, const std::string& dir, const std::string& summary_file) {
  TrialResult t;
  t.label = label;
  t.dir = dir;
  std::ifstream in(dir + "/" + summary_file);
  const auto j = in ? ojson::parse(in, nullptr, false) : ojson();
  if (!j.is_object()) {
    t.error = "No metrics found in artifacts - run may have failed to complete";
    return t;
  }
  t.was_cancelled = j.value("was_cancelled", false);
  for (const auto& [key, value] : j.items())
    if (value.is_object() && value.contains("unit")) t.metrics[key] = value;
  const double ok = stat_value(t, "request_count", "avg").value_or(0);
  const double failed = stat_value(t, "error_request_count", "avg").value_or(0);
  if (t.metrics.empty()) {
    t.error = "No metrics found in artifacts - run may have failed to complete";
  } else if (ok == 0) {
    t.error = failed > 0 ? "All " + std::to_string(static_cast<long long>(failed)) + " requests failed"
                         : "No requests completed";
  } else {
    t.success = true;
  }
  return t;
}

ojson aggregate_confidence(const std::vector<TrialResult>& trials, double confidence_level, double cooldown_seconds,
                           const std::string& version) {
  size_t successful = 0;
  ojson failed = ojson::array(), labels = ojson::array();
  for (const auto& t : trials) {
    if (t.success) {
      ++successful;
      labels.push_back(t.label);
    } else {
      failed.push_back({{"label", t.label}, {"error", t.error}});
    }
  }
  if (successful == 0)
    throw std::runtime_error("All runs failed - cannot compute confidence statistics. Total runs: " +
                             std::to_string(trials.size()) + ", Failed runs: " + std::to_string(failed.size()));

  ojson out;
  out["schema_version"] = "1.0";
  out["aiperf_version"] = version;
  out["metadata"] = {{"aggregation_type", "confidence"}, {"num_profile_runs", trials.size()},
                     {"num_successful_runs", successful}, {"failed_runs", failed},
                     {"confidence_level", confidence_level}, {"run_labels", labels}};
  if (successful == 1) out["metadata"]["single_run"] = true;  // point estimates, no interval
  out["metadata"]["cooldown_seconds"] = cooldown_seconds;
  ojson& metrics = out["metrics"] = ojson::object();
  // Metric order: as the first trial that has each metric lists them, statistics in AIPerf's order.
  for (const auto& t : trials) {
    if (!t.success) continue;
    for (const auto& [tag, metric] : t.metrics.items()) {
      for (const char* stat : kStatKeys) {
        const std::string key = tag + "_" + stat;
        if (metrics.contains(key)) continue;
        const std::vector<double> v = values_of(trials, tag, stat);
        if (v.empty()) continue;
        const double n = static_cast<double>(v.size());
        const double mean = sample_mean(v);
        const double sd = sample_std(v, mean);
        const double se = sd / std::sqrt(n);
        const double t_crit = v.size() > 1 ? stats::student_t_quantile(1 - (1 - confidence_level) / 2, n - 1)
                                           : std::numeric_limits<double>::quiet_NaN();
        const double margin = v.size() > 1 ? t_crit * se : 0;
        double lo = v[0], hi = v[0];
        for (double x : v) lo = std::min(lo, x), hi = std::max(hi, x);
        metrics[key] = {{"mean", mean},
                        {"std", sd},
                        {"min", lo},
                        {"max", hi},
                        // One successful trial: AIPerf's degenerate record, cv 0 even for a zero mean.
                        {"cv", successful == 1 ? ojson(0.0)
                               : mean != 0     ? finite_or_null(sd / mean)
                                               : ojson(nullptr)},
                        {"se", se},
                        {"ci_low", mean - margin},
                        {"ci_high", mean + margin},
                        {"t_critical", finite_or_null(t_crit)},
                        {"unit", metric.value("unit", "")}};
      }
    }
  }
  return out;
}

std::string aggregate_csv(const ojson& agg) {
  std::ostringstream out;
  out << "metric,mean,std,min,max,cv,se,ci_low,ci_high,t_critical,unit\r\n";
  for (const auto& [key, m] : agg.at("metrics").items()) {
    out << csv_field(key) << ',' << fixed(m["mean"], 2) << ',' << fixed(m["std"], 2) << ',' << fixed(m["min"], 2) << ','
        << fixed(m["max"], 2) << ',' << fixed(m["cv"], 4) << ',' << fixed(m["se"], 4) << ',' << fixed(m["ci_low"], 2)
        << ',' << fixed(m["ci_high"], 2) << ',' << (m["t_critical"].is_null() ? "nan" : fixed(m["t_critical"], 4))
        << ',' << csv_field(m.value("unit", "")) << "\r\n";
  }
  const ojson& md = agg.at("metadata");
  out << "\r\n";
  out << "Aggregation Type," << md.value("aggregation_type", "") << "\r\n";
  out << "Total Runs," << md.value("num_profile_runs", 0) << "\r\n";
  out << "Successful Runs," << md.value("num_successful_runs", 0) << "\r\n";
  for (const char* key : {"confidence_level", "run_labels", "single_run", "cooldown_seconds"}) {
    if (!md.contains(key)) continue;
    const ojson& v = md[key];
    std::string text;
    if (std::string(key) == "run_labels") text = python_list(v);
    else if (v.is_boolean()) text = v.get<bool>() ? "True" : "False";
    else if (v.is_number_float()) {
      std::ostringstream f;
      f << v.get<double>();
      text = f.str();
      if (text.find_first_of(".e") == std::string::npos) text += ".0";
    } else text = v.dump();
    out << title_case(key) << ',' << csv_field(text) << "\r\n";
  }
  return out.str();
}

std::string aggregate_console(const ojson& agg) {
  const ojson& md = agg.at("metadata");
  const double level = md.value("confidence_level", 0.95);
  std::ostringstream out;
  char buf[256];
  const std::string rule(80, '=');
  out << rule << "\nAGGREGATE STATISTICS SUMMARY\n" << rule << "\n";
  out << "Aggregation Type: confidence\nTotal Runs: " << md.value("num_profile_runs", 0)
      << "\nSuccessful Runs: " << md.value("num_successful_runs", 0) << "\n";
  for (const auto& f : md.value("failed_runs", ojson::array()))
    out << "Failed Run: " << f.value("label", "") << " (" << f.value("error", "") << ")\n";
  std::snprintf(buf, sizeof buf, "Confidence Level: %.0f%%\n\nKey Metrics:\n", level * 100);
  out << buf << std::string(80, '-') << "\n";
  const std::pair<const char*, const char*> key_metrics[] = {
      {"request_throughput_avg", "Request Throughput (Avg)"},
      {"time_to_first_token_avg", "Time To First Token (Avg)"},
      {"inter_token_latency_avg", "Inter Token Latency (Avg)"},
      {"request_latency_avg", "Request Latency (Avg)"}};
  for (const auto& [key, title] : key_metrics) {
    if (!agg["metrics"].contains(key)) continue;
    const ojson& m = agg["metrics"][key];
    const std::string unit = m.value("unit", "");
    out << "\n" << title << ":\n";
    for (const auto& [label, field] : {std::pair{"Mean:", "mean"}, {"Std Dev:", "std"}, {"Min:", "min"}, {"Max:", "max"}}) {
      std::snprintf(buf, sizeof buf, "  %-10s %12.4f %s\n", label, m[field].get<double>(), unit.c_str());
      out << buf;
    }
    if (m["cv"].is_null()) out << "  CV:                 N/A\n";
    else {
      std::snprintf(buf, sizeof buf, "  %-10s %11.2f%%\n", "CV:", m["cv"].get<double>() * 100);
      out << buf;
    }
    std::snprintf(buf, sizeof buf, "  %.0f%% CI: [%.4f, %.4f] %s\n", level * 100, m["ci_low"].get<double>(),
                  m["ci_high"].get<double>(), unit.c_str());
    out << buf;
  }
  out << rule << "\n";
  return out.str();
}

bool converged(const std::vector<TrialResult>& trials, const Convergence& c, double confidence_level,
               const std::string& records_file) {
  if (c.mode == "distribution") {
    std::vector<const TrialResult*> ok;
    for (const auto& t : trials)
      if (t.success) ok.push_back(&t);
    if (ok.size() < std::max<size_t>(c.min_runs, 2)) return false;
    std::vector<double> earlier;
    for (size_t i = 0; i + 1 < ok.size(); ++i) {
      const auto v = request_values(ok[i]->dir + "/" + records_file, c.metric);
      earlier.insert(earlier.end(), v.begin(), v.end());
    }
    const auto last = request_values(ok.back()->dir + "/" + records_file, c.metric);
    if (earlier.size() < 2 || last.size() < 2) return false;
    return stats::ks_two_sample(earlier, last).p_value > c.threshold.value_or(0.05);
  }
  const std::vector<double> v = values_of(trials, c.metric, c.stat);
  if (v.size() < std::max<size_t>(c.min_runs, 2)) return false;
  const double mean = sample_mean(v);
  if (mean == 0) return false;
  const double sd = sample_std(v, mean);
  if (c.mode == "cv") return sd / std::fabs(mean) < c.threshold.value_or(0.05);
  const double n = static_cast<double>(v.size());
  const double half = stats::student_t_quantile((1 + confidence_level) / 2, n - 1) * sd / std::sqrt(n);
  return 2 * half / std::fabs(mean) < c.threshold.value_or(0.10);
}

}  // namespace aiperf::exporting
