#include "genai_perf_telemetry.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>

#include "export/csv_row.h"
#include "genai_perf_export.h"

namespace aiperf::cli::genai_perf {
namespace {

using J = nlohmann::ordered_json;

const std::vector<std::string> kConstant = {"gpu_power_limit", "total_gpu_memory"};

bool has_gpu_data(const J& metric) {
  for (auto it = metric.begin(); it != metric.end(); ++it)
    if (it.key() != "unit" && it.value().is_object() && !it.value().empty()) return true;
  return false;
}

// "gpu_power_usage" -> "GPU Power Usage": words capitalized (Python's str.capitalize), "gpu"
// upper-cased.
std::string metric_title(const std::string& metric) {
  std::string out;
  size_t start = 0;
  while (start <= metric.size()) {
    const size_t end = metric.find('_', start);
    std::string w = metric.substr(start, end == std::string::npos ? std::string::npos : end - start);
    if (!w.empty()) {
      std::string lower = w;
      for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      if (lower == "gpu") {
        for (char& c : w) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
      } else {
        w = lower;
        w[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(w[0])));
      }
      out += (out.empty() ? "" : " ") + w;
    }
    if (end == std::string::npos) break;
    start = end + 1;
  }
  return out;
}

std::string unit_of(const J& metric) {
  return metric.contains("unit") && metric["unit"].is_string() ? metric["unit"].get<std::string>() : "";
}

size_t text_cols(const std::string& s) {
  size_t n = 0;
  for (const char c : s) n += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  return n;
}

std::string repeat_text(const std::string& s, size_t n) {
  std::string out;
  for (size_t i = 0; i < n; ++i) out += s;
  return out;
}

std::string right_align(const std::string& s, size_t w) {
  return std::string(w > text_cols(s) ? w - text_cols(s) : 0, ' ') + s;
}
std::string left_align(const std::string& s, size_t w) {
  return s + std::string(w > text_cols(s) ? w - text_cols(s) : 0, ' ');
}
std::string center_text(const std::string& s, size_t w) {
  const size_t n = text_cols(s);
  if (n >= w) return s;
  const size_t left = (w - n) / 2;
  return std::string(left, ' ') + s + std::string(w - n - left, ' ');
}

// One metric's table: "GPU Index" and the console's statistics, one row per GPU (name order).
std::vector<std::string> metric_table(const std::string& name, const J& metric) {
  static const std::vector<std::string> kStats{"avg", "min", "max", "p99", "p90", "p75"};
  std::vector<std::string> gpus;
  for (auto it = metric.begin(); it != metric.end(); ++it)
    if (it.key() != "unit") gpus.push_back(it.key());
  std::sort(gpus.begin(), gpus.end());
  std::vector<std::vector<std::string>> rows;
  for (const std::string& g : gpus) {
    std::vector<std::string> row{g};
    for (const std::string& s : kStats) {
      const J& v = metric[g].is_object() && metric[g].contains(s) ? metric[g][s] : J();
      if (!v.is_number_float()) row.push_back(v.is_null() ? "N/A" : v.dump());
      else if (name == "gpu_utilization")
        row.push_back(std::to_string(static_cast<long long>(std::nearbyint(v.get<double>()))));
      else row.push_back(format_stat(v.get<double>()));
    }
    rows.push_back(row);
  }
  std::vector<std::string> header{"GPU Index"};
  header.insert(header.end(), kStats.begin(), kStats.end());
  std::vector<size_t> w(header.size());
  for (size_t c = 0; c < header.size(); ++c) w[c] = text_cols(header[c]);
  for (const auto& r : rows)
    for (size_t c = 0; c < r.size(); ++c) w[c] = std::max(w[c], text_cols(r[c]));
  const auto border = [&](const char* l, const char* fill, const char* mid, const char* r) {
    std::string s = l;
    for (size_t c = 0; c < w.size(); ++c) s += repeat_text(fill, w[c] + 2) + (c + 1 < w.size() ? mid : r);
    return s;
  };
  const auto line = [&](const std::vector<std::string>& cells, const char* bar) {
    std::string s = bar;
    for (size_t c = 0; c < w.size(); ++c) s += " " + right_align(cells[c], w[c]) + " " + bar;
    return s;
  };
  std::vector<std::string> out;
  const std::string unit = unit_of(metric);
  std::string title = metric_title(name) + (unit.empty() ? "" : " (" + unit + ")");
  const size_t width = text_cols(border("┏", "━", "┳", "┓"));
  out.push_back(center_text(title, width));
  out.push_back(border("┏", "━", "┳", "┓"));
  out.push_back(line(header, "┃"));
  out.push_back(border("┡", "━", "╇", "┩"));
  for (const auto& r : rows) out.push_back(line(r, "│"));
  out.push_back(border("└", "─", "┴", "┘"));
  return out;
}

}  // namespace

J aggregate_telemetry(const std::vector<J>& runs) {
  J out = J::object();
  if (runs.empty()) return out;
  for (auto m = runs[0].begin(); m != runs[0].end(); ++m) {
    const std::string& name = m.key();
    J metric = J::object();
    metric["unit"] = m.value().is_object() ? unit_of(m.value()) : "";
    std::vector<std::string> gpus;
    for (const J& run : runs) {
      if (!run.contains(name) || !run[name].is_object()) continue;
      for (auto g = run[name].begin(); g != run[name].end(); ++g)
        if (g.key() != "unit" && std::find(gpus.begin(), gpus.end(), g.key()) == gpus.end()) gpus.push_back(g.key());
    }
    for (const std::string& gpu : gpus) {
      std::vector<double> values;
      for (const J& run : runs)
        if (run.contains(name) && run[name].is_object() && run[name].contains(gpu) && run[name][gpu].is_object() &&
            run[name][gpu].contains("avg") && run[name][gpu]["avg"].is_number())
          values.push_back(run[name][gpu]["avg"].get<double>());
      if (values.empty()) continue;
      double v = 0;
      if (name == "gpu_power_usage" || name == "gpu_utilization" || name == "energy_consumption") {
        // Python's statistics.mean: the exact sum, divided once (long double keeps the few
        // runs' sum exact in practice).
        long double sum = 0;
        for (const double x : values) sum += x;
        v = static_cast<double>(sum / static_cast<long double>(values.size()));
      } else if (name == "gpu_memory_usage") {
        for (const double x : values) v += x;
      } else {
        v = *std::max_element(values.begin(), values.end());
      }
      metric[gpu] = J{{"avg", v}};
    }
    out[name] = metric;
  }
  return out;
}

J telemetry_json(const J& aggregated) {
  J out = J::object();
  for (auto m = aggregated.begin(); m != aggregated.end(); ++m)
    if (has_gpu_data(m.value())) out[m.key()] = m.value();
  return out.empty() ? J() : out;
}

std::string telemetry_csv(const J& aggregated) {
  static const std::vector<std::string> kStats{"avg", "min", "max", "p99", "p95", "p90",
                                               "p75", "p50", "p25", "p10", "p5",  "p1"};
  if (telemetry_json(aggregated).is_null()) return "";
  std::string out;
  const auto row = [&out](const std::vector<std::string>& cells) { exporting::append_csv_row(out, cells); };
  out += "\r\n";
  std::vector<std::string> header{"Metric", "GPU"};
  header.insert(header.end(), kStats.begin(), kStats.end());
  row(header);
  const auto name_of = [](const std::string& metric, const J& data) {
    return metric_title(metric) + " (" + unit_of(data) + ")";
  };
  for (auto m = aggregated.begin(); m != aggregated.end(); ++m) {
    if (std::find(kConstant.begin(), kConstant.end(), m.key()) != kConstant.end()) continue;
    for (auto g = m.value().begin(); g != m.value().end(); ++g) {
      if (g.key() == "unit") continue;
      std::vector<std::string> cells{name_of(m.key(), m.value()), g.key()};
      // A statistic the runs' files do not hold is written as 0.00, as GenAI-Perf does.
      for (const std::string& s : kStats)
        cells.push_back(format_stat(g.value().contains(s) ? g.value()[s].get<double>() : 0.0));
      row(cells);
    }
  }
  out += "\r\n";
  row({"Metric", "GPU", "Value"});
  for (auto m = aggregated.begin(); m != aggregated.end(); ++m) {
    if (std::find(kConstant.begin(), kConstant.end(), m.key()) == kConstant.end()) continue;
    for (auto g = m.value().begin(); g != m.value().end(); ++g) {
      if (g.key() == "unit") continue;
      char buf[64];
      std::snprintf(buf, sizeof buf, "%.2f", g.value()["avg"].get<double>());  // "{:.2f}": no grouping here
      row({name_of(m.key(), m.value()), g.key(), buf});
    }
  }
  return out;
}

std::string telemetry_console(const J& aggregated) {
  static const std::vector<std::pair<std::string, std::vector<std::string>>> kGroups = {
      {"Power", {"gpu_power_usage", "gpu_power_limit", "energy_consumption"}},
      {"Memory", {"gpu_memory_used", "total_gpu_memory"}},
      {"Utilization", {"gpu_utilization"}}};
  std::string out;
  for (const auto& [group, metrics] : kGroups) {
    std::vector<std::vector<std::string>> tables;
    for (const std::string& m : metrics)
      if (aggregated.contains(m) && has_gpu_data(aggregated[m])) tables.push_back(metric_table(m, aggregated[m]));
    if (tables.empty()) continue;
    // One outer table of one empty-headed column holding the metric tables, left-aligned.
    size_t inner = 0;
    for (const auto& t : tables)
      for (const std::string& l : t) inner = std::max(inner, text_cols(l));
    const size_t total = inner + 4;
    out += center_text("NVIDIA GenAI-Perf | " + group + " Metrics", total) + "\n";
    out += "┏" + repeat_text("━", inner + 2) + "┓\n";
    out += "┃" + std::string(inner + 2, ' ') + "┃\n";
    out += "┡" + repeat_text("━", inner + 2) + "┩\n";
    for (const auto& t : tables)
      for (const std::string& l : t) out += "│ " + left_align(l, inner) + " │\n";
    out += "└" + repeat_text("─", inner + 2) + "┘\n";
  }
  return out;
}

}  // namespace aiperf::cli::genai_perf
