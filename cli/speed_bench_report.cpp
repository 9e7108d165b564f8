#include "speed_bench_report.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "export/text_table.h"

namespace aiperf::cli::speed_bench {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

constexpr const char* kProfileJson = "profile_export_aiperf.json";
constexpr const char* kServerMetricsJson = "server_metrics_export.json";

const std::vector<std::string> kQualitative = {"coding",    "humanities", "math", "multilingual",  "qa",     "rag",
                                               "reasoning", "roleplay",   "stem", "summarization", "writing"};
const std::vector<std::string> kThroughputTiers = {"low_entropy", "mixed", "high_entropy"};
// spec_al_* benchmarks in the reference's reading order (math, chat, code), not alphabetical.
const std::vector<std::string> kSpecAl = {"gsm8k", "math500", "mtbench", "humaneval", "mbpp"};
constexpr std::array<const char*, 2> kCategoryPrefixes = {"speed_bench_", "spec_al_"};
// Engine metric names, in priority order.
constexpr std::array<const char*, 3> kAcceptLength = {
    "sglang:spec_accept_length", "vllm:spec_decode_mean_accepted_length", "trtllm:spec_accept_length"};
constexpr std::array<const char*, 3> kAcceptRate = {"sglang:spec_accept_rate", "vllm:spec_decode_draft_acceptance_rate",
                                                    "trtllm:spec_accept_rate"};

// The file's JSON, or null with a warning when it exists but cannot be read; null when absent.
json load(const fs::path& path, std::ostream& err) {
  std::error_code ec;
  if (!fs::exists(path, ec)) return nullptr;
  std::ifstream in(path);
  json j = json::parse(in, nullptr, false);
  if (j.is_discarded()) {
    err << "Warning: failed to read " << path.string() << "\n";
    return nullptr;
  }
  return j;
}

std::optional<std::string> category_of(const json& profile) {
  const json* datasets = nullptr;
  if (profile.contains("input_config") && profile["input_config"].is_object() &&
      profile["input_config"].contains("datasets"))
    datasets = &profile["input_config"]["datasets"];
  if (datasets == nullptr || !datasets->is_array()) return std::nullopt;
  for (const json& entry : *datasets) {
    if (!entry.is_object()) continue;
    std::string name;
    for (const char* key : {"format", "dataset"})
      if (name.empty() && entry.contains(key) && entry[key].is_string()) name = entry[key].get<std::string>();
    for (const char* prefix : kCategoryPrefixes)
      if (name.rfind(prefix, 0) == 0) return name.substr(std::string(prefix).size());
  }
  return std::nullopt;
}

std::string model_of(const json& profile) {
  const json ic = profile.value("input_config", json::object());
  if (!ic.is_object() || !ic.contains("models") || !ic["models"].is_object()) return "unknown";
  const json items = ic["models"].value("items", json::array());
  if (!items.is_array()) return "unknown";
  for (const json& entry : items)
    if (entry.is_object() && entry.contains("name") && entry["name"].is_string() &&
        !entry["name"].get<std::string>().empty())
      return entry["name"].get<std::string>();
  return "unknown";
}

// A named metric's first series' statistic.
std::optional<double> stat_of(const json& metrics, const std::string& name, const char* stat) {
  if (!metrics.contains(name) || !metrics[name].is_object()) return std::nullopt;
  const json series = metrics[name].value("series", json::array());
  if (!series.is_array() || series.empty() || !series[0].is_object()) return std::nullopt;
  const json stats = series[0].value("stats", json::object());
  if (!stats.is_object() || !stats.contains(stat) || !stats[stat].is_number()) return std::nullopt;
  return stats[stat].get<double>();
}

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// vLLM's accepted-token counter over the `denominator` counter (totals over the run).
std::optional<double> vllm_ratio(const json& metrics, const char* denominator) {
  const auto accepted = stat_of(metrics, "vllm:spec_decode_num_accepted_tokens", "total");
  const auto total = stat_of(metrics, denominator, "total");
  if (accepted && total && *total > 0) return *accepted / *total;
  return std::nullopt;
}

// SGLang/TRT-LLM expose a gauge; vLLM counters give accepted / drafts + 1 (each draft step also
// verifies one token); otherwise any "spec...accept...length" metric.
std::optional<double> accept_length(const json& server) {
  const json metrics = server.value("metrics", json::object());
  for (const char* name : kAcceptLength)
    if (auto v = stat_of(metrics, name, "avg")) return v;
  if (auto ratio = vllm_ratio(metrics, "vllm:spec_decode_num_drafts")) return *ratio + 1.0;
  for (const auto& [name, data] : metrics.items()) {
    const std::string l = lower(name);
    if (l.find("spec") != std::string::npos && l.find("accept") != std::string::npos &&
        l.find("length") != std::string::npos)
      if (auto v = stat_of(metrics, name, "avg")) return v;
  }
  return std::nullopt;
}

std::optional<double> accept_rate(const json& server) {
  const json metrics = server.value("metrics", json::object());
  for (const char* name : kAcceptRate)
    if (auto v = stat_of(metrics, name, "avg")) return v;
  return vllm_ratio(metrics, "vllm:spec_decode_num_draft_tokens");
}

std::optional<double> throughput(const json& profile) {
  if (!profile.contains("output_token_throughput") || !profile["output_token_throughput"].is_object())
    return std::nullopt;
  const json& otp = profile["output_token_throughput"];
  if (!otp.contains("avg") || !otp["avg"].is_number()) return std::nullopt;
  return otp["avg"].get<double>();
}

std::string two_places(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.2f", v);
  return buf;
}

// One model's cells for `columns` (missing: `none`) and its Overall.
std::vector<std::string> row_cells(const std::map<std::string, std::optional<double>>& data,
                                   const std::vector<std::string>& columns, const std::string& none) {
  std::vector<std::string> cells;
  double sum = 0;
  size_t n = 0;
  for (const std::string& col : columns) {
    const auto it = data.find(col);
    if (it != data.end() && it->second) {
      cells.push_back(two_places(*it->second));
      sum += *it->second;
      ++n;
    } else {
      cells.push_back(none);
    }
  }
  cells.push_back(n > 0 ? two_places(sum / static_cast<double>(n)) : none);
  return cells;
}

}  // namespace

std::vector<std::string> find_run_dirs(const std::vector<std::string>& paths, std::ostream& err) {
  std::vector<std::string> out;
  for (const std::string& p : paths) {
    std::error_code ec;
    if (!fs::is_directory(p, ec)) {
      err << "Warning: " << p << " is not a directory, skipping\n";
      continue;
    }
    if (fs::exists(fs::path(p) / kProfileJson, ec)) {
      out.push_back(p);
      continue;
    }
    std::vector<fs::path> children;
    for (const auto& entry : fs::directory_iterator(p, ec)) children.push_back(entry.path());
    std::sort(children.begin(), children.end());
    for (const fs::path& child : children)
      if (fs::is_directory(child, ec) && fs::exists(child / kProfileJson, ec)) out.push_back(child.string());
  }
  return out;
}

Matrix build_report(const std::vector<std::string>& run_dirs, const std::string& metric, std::ostream& err) {
  Matrix m;
  for (const std::string& dir : run_dirs) {
    const json profile = load(fs::path(dir) / kProfileJson, err);
    if (!profile.is_object() || profile.empty()) {
      err << "Warning: no " << kProfileJson << " in " << dir << ", skipping\n";
      continue;
    }
    const std::optional<std::string> category = category_of(profile);
    if (!category || category->empty()) {
      err << "Warning: cannot determine category from " << dir << ", skipping\n";
      continue;
    }
    std::optional<double> value;
    if (metric == "throughput") {
      value = throughput(profile);
    } else {
      const json server = load(fs::path(dir) / kServerMetricsJson, err);
      if (server.is_object()) value = metric == "accept_length" ? accept_length(server) : accept_rate(server);
      else err << "Warning: no " << kServerMetricsJson << " in " << dir << "\n";
    }
    if (value && std::isnan(*value)) value.reset();
    m[model_of(profile)][*category] = value;
  }
  return m;
}

std::vector<std::string> detect_columns(const Matrix& m) {
  std::set<std::string> all;
  for (const auto& [model, data] : m)
    for (const auto& [cat, v] : data) all.insert(cat);
  for (const std::vector<std::string>* family : {&kQualitative, &kThroughputTiers, &kSpecAl}) {
    const bool inside = std::all_of(all.begin(), all.end(), [family](const std::string& c) {
      return std::find(family->begin(), family->end(), c) != family->end();
    });
    if (!inside) continue;
    std::vector<std::string> cols;
    for (const std::string& c : *family)
      if (all.count(c)) cols.push_back(c);
    return cols;
  }
  return {all.begin(), all.end()};
}

std::string format_csv(const Matrix& m, const std::vector<std::string>& columns) {
  // Python's csv module: quote a field holding a comma, a quote or a line break; \r\n rows.
  auto field = [](const std::string& s) {
    if (s.find_first_of(",\"\r\n") == std::string::npos) return s;
    std::string q = "\"";
    for (char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
    return q + "\"";
  };
  std::ostringstream out;
  out << "Model";
  for (const std::string& c : columns) out << ',' << field(c);
  out << ",Overall\r\n";
  for (const auto& [model, data] : m) {
    out << field(model);
    for (const std::string& cell : row_cells(data, columns, "")) out << ',' << cell;
    out << "\r\n";
  }
  return out.str();
}

std::string format_table(const Matrix& m, const std::vector<std::string>& columns, const std::string& metric) {
  exporting::TextTable t;
  t.title = metric == "accept_length" ? "Acceptance Length Report"
            : metric == "accept_rate" ? "Acceptance Rate Report"
                                      : "Throughput Report (tokens/sec)";
  t.headers.push_back("Model");
  t.justify.push_back(exporting::Justify::kLeft);
  for (const std::string& c : columns) {
    t.headers.push_back(c);
    t.justify.push_back(exporting::Justify::kRight);
  }
  t.headers.push_back("Overall");
  t.justify.push_back(exporting::Justify::kRight);
  for (const auto& [model, data] : m) {
    std::vector<std::string> row{model};
    for (std::string& cell : row_cells(data, columns, "-")) row.push_back(std::move(cell));
    t.rows.push_back(std::move(row));
  }
  std::string text = exporting::render_table(t, true);
  // Rich pads this command's title line out to the table's width (the profile tables' titles
  // are not padded): count the border line's code points, not its UTF-8 bytes.
  const size_t title_end = text.find('\n');
  const size_t border_end = text.find('\n', title_end + 1);
  if (title_end != std::string::npos && border_end != std::string::npos) {
    size_t width = 0;
    for (size_t i = title_end + 1; i < border_end; ++i) width += (static_cast<unsigned char>(text[i]) & 0xC0) != 0x80;
    if (width > title_end) text.insert(title_end, width - title_end, ' ');
  }
  return text;
}

int run(const Options& o, std::ostream& out, std::ostream& err) {
  const std::vector<std::string> dirs = find_run_dirs(o.paths, err);
  if (dirs.empty()) {
    err << "Error: no aiperf run directories found.\n";
    return 1;
  }
  out << "Found " << dirs.size() << " run directories.\n";
  const Matrix m = build_report(dirs, o.metric, err);
  bool any = false;
  for (const auto& [model, data] : m)
    for (const auto& [cat, v] : data) any = any || v.has_value();
  if (!any) {
    err << "Error: no SPEED-Bench results extracted.\n";
    return 1;
  }
  const std::vector<std::string> columns = detect_columns(m);
  if (o.format == "table" || o.format == "both") out << format_table(m, columns, o.metric);
  if (o.format == "csv" || o.format == "both") {
    std::ofstream f(o.output, std::ios::binary);
    f << format_csv(m, columns);
    if (!f) {
      err << "Error: cannot write " << o.output << ".\n";
      return 1;
    }
    out << "CSV written to " << o.output << "\n";
  }
  return 0;
}

}  // namespace aiperf::cli::speed_bench
