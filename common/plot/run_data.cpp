#include "plot/run_data.h"

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

namespace aiperf::plot {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

// Ordered: the summary's metrics keep the file's order (the console's).
nlohmann::ordered_json read_json(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw DataLoadError(path + ": cannot be read");
  try {
    return nlohmann::ordered_json::parse(in);
  } catch (const json::exception& e) {
    throw DataLoadError(path + ": not valid JSON: " + e.what());
  }
}

std::optional<double> number(const json& j) {
  if (j.is_number()) return j.get<double>();
  return std::nullopt;
}

// The summary's keys that are not metrics (AIPerf's NON_METRIC_KEYS).
bool non_metric_key(const std::string& k) {
  static const std::set<std::string> keys{"schema_version", "aiperf_version", "benchmark_id", "input_config",
                                          "telemetry_data", "start_time", "end_time", "was_cancelled",
                                          "error_summary", "client_server"};
  return keys.count(k) > 0;
}

// Model, concurrency and endpoint type from input_config (legacy layout: endpoint.model_names,
// loadgen.concurrency; YAML v2: models.items[0].name, phases[profiling].concurrency).
void read_input_config(const json& cfg, RunData& run) {  // cfg: converted from ordered
  if (!cfg.is_object()) return;
  if (auto m = cfg.find("models"); m != cfg.end() && m->is_object()) {
    const json& items = m->value("items", json::array());
    if (items.is_array() && !items.empty() && items[0].is_object() && items[0].value("name", "") != "")
      run.model = items[0]["name"].get<std::string>();
  }
  if (run.model == "Unknown") {
    if (auto e = cfg.find("endpoint"); e != cfg.end() && e->is_object()) {
      const json& names = e->value("model_names", json::array());
      if (names.is_array() && !names.empty() && names[0].is_string()) run.model = names[0].get<std::string>();
    }
  }
  // AIPerf 0.13 writes endpoint.type only when it was given (the default, chat, is then absent).
  if (auto e = cfg.find("endpoint");
      e != cfg.end() && e->is_object() && e->contains("type") && (*e)["type"].is_string())
    run.endpoint_type = (*e)["type"].get<std::string>();
  std::optional<double> conc;
  if (auto p = cfg.find("phases"); p != cfg.end() && p->is_array()) {
    for (const json& ph : *p)
      if (ph.is_object() && ph.value("name", "") == "profiling" && ph.contains("concurrency"))
        conc = number(ph["concurrency"]);
  }
  if (!conc) {
    if (auto l = cfg.find("loadgen"); l != cfg.end() && l->is_object() && l->contains("concurrency"))
      conc = number((*l)["concurrency"]);
  }
  if (conc && *conc > 0) run.concurrency = static_cast<int64_t>(*conc);
  for (const char* section : {"artifacts", "output"})  // AIPerf 0.13's input_config, then 0.6's
    if (auto o = cfg.find(section);
        !run.slice_duration && o != cfg.end() && o->is_object() && o->contains("slice_duration"))
      run.slice_duration = number((*o)["slice_duration"]);
}

int count_gpus(const json& telemetry) {
  if (!telemetry.is_object()) return 0;
  const json& endpoints = telemetry.value("endpoints", json::object());
  int n = 0;
  if (!endpoints.is_object()) return 0;
  for (const auto& [_, ep] : endpoints.items())
    if (ep.is_object() && ep.contains("gpus") && ep["gpus"].is_object()) n += static_cast<int>(ep["gpus"].size());
  return n;
}

void add_per_gpu(RunData& run) {
  const MetricStats* tput = run.metric("output_token_throughput");
  if (run.gpu_count <= 0 || !tput) return;
  MetricStats per_gpu;
  per_gpu.unit = "tokens/sec/gpu";
  for (const auto& [k, v] : tput->stats) per_gpu.stats[k] = v / run.gpu_count;
  for (const auto& [k, v] : tput->ci_low) per_gpu.ci_low[k] = v / run.gpu_count;
  for (const auto& [k, v] : tput->ci_high) per_gpu.ci_high[k] = v / run.gpu_count;
  run.metrics["output_token_throughput_per_gpu"] = per_gpu;
  run.metric_order.push_back("output_token_throughput_per_gpu");
}

void load_summary(const std::string& path, RunData& run) {
  const nlohmann::ordered_json j = read_json(path);
  if (!j.is_object()) throw DataLoadError(path + ": not a JSON object");
  for (const auto& [key, value] : j.items()) {
    if (non_metric_key(key) || !value.is_object() || !value.contains("unit")) continue;
    MetricStats m;
    if (value["unit"].is_string()) m.unit = value["unit"].get<std::string>();
    for (const auto& [stat, v] : value.items())
      if (v.is_number()) m.stats[stat] = v.get<double>();
    run.metric_order.push_back(key);
    run.metrics[key] = std::move(m);
  }
  if (j.contains("input_config")) read_input_config(json::parse(j["input_config"].dump()), run);
  if (j.contains("telemetry_data")) run.gpu_count = count_gpus(json::parse(j["telemetry_data"].dump()));
  if (j.contains("client_server")) run.client_server = j["client_server"];
}

// A confidence aggregate: metrics are flattened "<tag>_<stat>": {mean, ci_low, ci_high, unit}.
void load_aggregate(const std::string& path, RunData& run) {
  const json j = json::parse(read_json(path).dump());
  if (!j.is_object() || !j.contains("metrics") || !j["metrics"].is_object())
    throw DataLoadError(path + ": no \"metrics\" object");
  static const std::vector<std::string> stats{"avg", "min", "max", "std", "p1", "p5", "p10", "p25",
                                              "p50", "p75", "p90", "p95", "p99"};
  for (const auto& [flat, value] : j["metrics"].items()) {
    if (!value.is_object() || !value.contains("mean")) continue;
    std::string tag = flat, stat = "avg";
    for (const std::string& s : stats) {
      const std::string suffix = "_" + s;
      if (flat.size() > suffix.size() && flat.compare(flat.size() - suffix.size(), suffix.size(), suffix) == 0) {
        tag = flat.substr(0, flat.size() - suffix.size());
        stat = s;
        break;
      }
    }
    auto [it, inserted] = run.metrics.try_emplace(tag);
    if (inserted) run.metric_order.push_back(tag);
    MetricStats& m = it->second;
    if (value.contains("unit") && value["unit"].is_string()) m.unit = value["unit"].get<std::string>();
    if (auto v = number(value["mean"])) m.stats[stat] = *v;
    if (auto v = number(value.value("ci_low", json())); v) m.ci_low[stat] = *v;
    if (auto v = number(value.value("ci_high", json())); v) m.ci_high[stat] = *v;
  }
  const json& meta = j.value("metadata", json::object());
  if (meta.is_object()) {
    if (meta.value("model", json()).is_string()) run.model = meta["model"].get<std::string>();
    if (auto n = number(meta.value("num_successful_runs", json()))) run.trials = static_cast<int>(*n);
    const json& vv = meta.value("variation_values", json::object());
    if (vv.is_object())
      for (const auto& [k, v] : vv.items())
        if (k.size() >= 11 && k.compare(k.size() - 11, 11, "concurrency") == 0 && v.is_number())
          run.concurrency = v.get<int64_t>();
  }
}

std::vector<std::string> split_csv_line(const std::string& line) {
  std::vector<std::string> out;
  std::string cur;
  bool quoted = false;
  for (char c : line) {
    if (c == '"') quoted = !quoted;
    else if (c == ',' && !quoted) out.push_back(std::move(cur)), cur.clear();
    else if (c != '\r') cur += c;
  }
  out.push_back(cur);
  return out;
}

std::optional<double> metric_value(const json& metrics, const char* tag) {
  auto it = metrics.find(tag);
  if (it == metrics.end() || !it->is_object()) return std::nullopt;
  return number(it->value("value", json()));
}

}  // namespace

std::optional<double> RunData::point_value(const std::string& tag) const {
  const MetricStats* m = metric(tag);
  if (!m) return std::nullopt;
  if (auto v = m->get("p50")) return v;
  if (auto v = m->get("avg")) return v;
  return m->get("value");
}

std::vector<RequestRow> load_requests(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw DataLoadError(path + ": cannot be read");
  std::vector<RequestRow> rows;
  std::string line;
  size_t line_no = 0;
  while (std::getline(in, line)) {
    ++line_no;
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    json j;
    try {
      j = json::parse(line);
    } catch (const json::exception&) {
      throw DataLoadError(path + ":" + std::to_string(line_no) + ": not a JSON object");
    }
    if (!j.is_object()) throw DataLoadError(path + ":" + std::to_string(line_no) + ": not a JSON object");
    RequestRow r;
    const json& meta = j.value("metadata", json::object());
    if (meta.is_object()) {
      if (auto v = meta.find("request_start_ns"); v != meta.end() && v->is_number()) r.start_ns = v->get<int64_t>();
      if (auto v = meta.find("request_end_ns"); v != meta.end() && v->is_number()) r.end_ns = v->get<int64_t>();
    }
    const json& m = j.value("metrics", json::object());
    if (m.is_object()) {
      r.ttft_ms = metric_value(m, "time_to_first_token");
      r.itl_ms = metric_value(m, "inter_token_latency");
      r.latency_ms = metric_value(m, "request_latency");
      r.osl = metric_value(m, "output_sequence_length");
    }
    r.error = j.contains("error") && !j["error"].is_null();
    rows.push_back(r);
  }
  return rows;
}

std::vector<TimesliceRow> load_timeslices(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw DataLoadError(path + ": cannot be read");
  std::string line;
  // AIPerf 0.13 (and ours) put each slice's window after its index; older files have none.
  const std::vector<std::string> old_header{"Timeslice", "Metric", "Unit", "Stat", "Value"};
  const std::vector<std::string> new_header{"Timeslice", "Start_NS", "End_NS", "Metric", "Unit", "Stat", "Value"};
  std::vector<std::string> header;
  if (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    header = split_csv_line(line);
  }
  if (header != old_header && header != new_header)
    throw DataLoadError(path + ":1: expected the header Timeslice,Start_NS,End_NS,Metric,Unit,Stat,Value");
  const std::size_t skip = header.size() - old_header.size();  // the window columns
  std::vector<TimesliceRow> rows;
  size_t line_no = 1;
  while (std::getline(in, line)) {
    ++line_no;
    if (line.empty() || line == "\r") continue;
    const auto f = split_csv_line(line);
    if (f.size() != header.size())
      throw DataLoadError(path + ":" + std::to_string(line_no) + ": expected " + std::to_string(header.size()) + " fields");
    try {
      rows.push_back({std::stoi(f[0]), f[1 + skip], f[2 + skip], f[3 + skip], std::stod(f[4 + skip])});
    } catch (const std::exception&) {
      throw DataLoadError(path + ":" + std::to_string(line_no) + ": Timeslice and Value must be numbers");
    }
  }
  return rows;
}

namespace {
std::vector<GpuSample> load_gpu(const std::string& path) {
  std::ifstream in(path);
  std::vector<GpuSample> out;
  std::string line;
  size_t line_no = 0;
  while (std::getline(in, line)) {
    ++line_no;
    if (line.empty()) continue;
    json j;
    try {
      j = json::parse(line);
    } catch (const json::exception&) {
      throw DataLoadError(path + ":" + std::to_string(line_no) + ": not a JSON object");
    }
    GpuSample s;
    if (auto v = number(j.value("timestamp_ns", json()))) s.timestamp_ns = static_cast<int64_t>(*v);
    s.gpu = j.value("gpu_uuid", json()).is_string() ? j["gpu_uuid"].get<std::string>()
                                                      : std::to_string(j.value("gpu_index", 0));
    const json& t = j.value("telemetry_data", json::object());
    // AIPerf 0.13 namespaces the field; files of older runs have the bare name.
    if (t.is_object()) s.utilization = number(t.value("nvidia_gpu_utilization", t.value("gpu_utilization", json())));
    out.push_back(s);
  }
  return out;
}
}  // namespace

RunData load_run(const std::string& dir, bool with_requests) {
  RunData run;
  run.dir = dir;
  run.name = fs::path(dir).lexically_normal().filename().string();
  if (run.name.empty()) run.name = fs::path(dir).lexically_normal().parent_path().filename().string();
  const fs::path d(dir);
  const bool single = fs::exists(d / "profile_export_aiperf.json") && fs::exists(d / "profile_export.jsonl");
  if (single) {
    load_summary((d / "profile_export_aiperf.json").string(), run);
  } else if (fs::exists(d / "profile_export_aiperf_aggregate.json")) {
    run.aggregate = true;
    load_aggregate((d / "profile_export_aiperf_aggregate.json").string(), run);
    // An INDEPENDENT sweep's <point>/aggregate/ is named for its point.
    if (run.name == "aggregate") run.name = d.lexically_normal().parent_path().filename().string();
  } else {
    throw DataLoadError(dir + ": neither profile_export_aiperf.json with profile_export.jsonl nor "
                              "profile_export_aiperf_aggregate.json");
  }
  add_per_gpu(run);
  if (with_requests && single) {
    run.requests = load_requests((d / "profile_export.jsonl").string());
    if (fs::exists(d / "profile_export_aiperf_timeslices.csv"))
      run.timeslices = load_timeslices((d / "profile_export_aiperf_timeslices.csv").string());
    if (fs::exists(d / "gpu_telemetry_export.jsonl")) run.gpu = load_gpu((d / "gpu_telemetry_export.jsonl").string());
  }
  return run;
}

}  // namespace aiperf::plot
