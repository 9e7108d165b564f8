#include "genai_perf_checkpoint.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <utility>

#include "genai_perf_process_args.h"
#include "python_json.h"

namespace aiperf::cli::genai_perf {
namespace {

namespace fs = std::filesystem;
using J = nlohmann::ordered_json;

const char* kCheckpointFileName = "checkpoint.json";

// The metrics GenAI-Perf scales from ns to ms when it exports (Statistics._is_time_metric).
bool ns_time_metric(const std::string& metric) {
  return metric == "inter_token_latency" || metric == "time_to_first_token" || metric == "time_to_second_token" ||
         metric == "request_latency" || metric == "image_latency";
}

// Python's f"{value}" of a JSON number or string.
std::string f_string(const J& v) {
  if (v.is_string()) return v.get<std::string>();
  if (v.is_number_float()) return python_float(v.get<double>());
  if (v.is_boolean()) return v.get<bool>() ? "True" : "False";
  return v.dump();
}

double checkpoint_throughput(const J& run_config) {
  const J* m = &run_config;
  for (const char* key : {"measurement", "_model_config_measurements"}) {
    if (!m->is_object() || !m->contains(key)) return 0;
    m = &(*m)[key];
  }
  if (!m->is_object() || m->empty()) return 0;
  const J& perf = m->begin().value();
  if (!perf.contains("_perf_metrics") || !perf["_perf_metrics"].contains("request_throughput_avg")) return 0;
  const J& rec = perf["_perf_metrics"]["request_throughput_avg"];
  if (!rec.is_array() || rec.size() != 2 || !rec[1].contains("_value") || !rec[1]["_value"].is_number()) return 0;
  return rec[1]["_value"].get<double>();
}

const J* cli_args_of(const J& run_config) {
  if (!run_config.contains("perf_analyzer_config")) return nullptr;
  const J& pa = run_config["perf_analyzer_config"];
  if (!pa.is_object() || !pa.contains("_cli_args") || !pa["_cli_args"].is_array()) return nullptr;
  return &pa["_cli_args"];
}

// The value after `option` in the run config's perf_analyzer command line.
std::optional<std::string> cli_value(const J& run_config, const std::string& option) {
  const J* args = cli_args_of(run_config);
  if (!args) return std::nullopt;
  for (size_t i = 0; i + 1 < args->size(); ++i)
    if ((*args)[i] == option && (*args)[i + 1].is_string()) return (*args)[i + 1].get<std::string>();
  return std::nullopt;
}

// A run config's representation, from what the checkpoint holds.
std::string stored_representation(const J& run_config) {
  std::vector<std::string> args;
  if (const J* a = cli_args_of(run_config))
    for (const J& w : *a) args.push_back(w.is_string() ? w.get<std::string>() : w.dump());
  J gap = J::object();
  if (run_config.contains("genai_perf_config") && run_config["genai_perf_config"].is_object() &&
      run_config["genai_perf_config"].contains("_parameters"))
    gap = run_config["genai_perf_config"]["_parameters"];
  return representation(args, gap);
}

}  // namespace

PointParameters profile_parameters(const ProfileArgs& a) {
  PointParameters p;
  if (a.session_concurrency) p.pa["session_concurrency"] = *a.session_concurrency;
  else if (a.concurrency) p.pa["concurrency"] = *a.concurrency;
  else if (a.request_rate) p.pa["request_rate"] = *a.request_rate;  // argparse's float
  else p.pa["concurrency"] = 1;                                     // the default stimulus
  return p;
}

PointParameters sweep_parameters(const std::string& sweep_type, int64_t value) {
  PointParameters p;
  if (sweep_type == "concurrency" || sweep_type == "request_rate") p.pa[sweep_type] = value;
  else p.gap[sweep_type] = value;
  return p;
}

std::vector<std::string> pa_cli_args(const ProfileArgs& a, const PointParameters& p, const std::string& dir) {
  const bool triton = service_kind(a) == "triton";
  std::vector<std::string> v{"perf_analyzer", "-m", a.models.front(), "--async"};
  if (a.warmup_request_count > 0) v.insert(v.end(), {"--warmup-request-count", std::to_string(a.warmup_request_count)});
  // The prompt source is synthetic or a file here (never a payload file): stability and the
  // measurement always follow.
  const std::string stability = !a.stability_percentage ? "999"
                                : a.stability_percentage_integral
                                    ? std::to_string(static_cast<int64_t>(*a.stability_percentage))
                                    : python_float(*a.stability_percentage);
  v.insert(v.end(), {"--stability-percentage", stability});
  if (a.measurement_interval) v.insert(v.end(), {"--measurement-interval", std::to_string(*a.measurement_interval)});
  else v.insert(v.end(), {"--request-count", std::to_string(request_count(a))});
  if (triton) {
    v.insert(v.end(), {"-i", "grpc", "--streaming"});
    if (a.backend == "tensorrtllm") v.insert(v.end(), {"--shape", "max_tokens:1", "--shape", "text_input:1"});
  } else {
    v.insert(v.end(), {"-i", "http"});
  }
  if (a.url || triton) v.insert(v.end(), {"-u", a.url.value_or("localhost:8001")});
  // The load: the objectives' concurrency or request rate, else the user's stimulus.
  std::vector<std::pair<std::string, std::string>> appended;
  if (p.pa.empty()) {
    if (a.session_concurrency) v.insert(v.end(), {"--session-concurrency", std::to_string(*a.session_concurrency)});
    else if (a.concurrency) v.insert(v.end(), {"--concurrency-range", std::to_string(*a.concurrency)});
    else if (a.request_rate) v.insert(v.end(), {"--request-rate-range", python_float(*a.request_rate)});
  } else {
    for (const auto& [name, value] : p.pa.items()) {
      if (name == "concurrency") v.insert(v.end(), {"--concurrency-range", f_string(value)});
      else if (name == "request_rate") v.insert(v.end(), {"--request-rate-range", f_string(value)});
      else if (name == "session_concurrency")
        appended.emplace_back("--session-concurrency", f_string(value));  // added after the paths
    }
  }
  v.insert(v.end(), {"--service-kind", service_kind(a)});
  if (const std::string custom = endpoint_path(a); !custom.empty()) v.insert(v.end(), {"--endpoint", custom});
  for (const std::string& h : a.headers) v.insert(v.end(), {"-H", h});
  const std::string base = python_path(dir);
  const std::string export_file = a.profile_export_file.empty() || a.profile_export_file.front() != '/'
                                      ? python_path(base + "/" + a.profile_export_file)
                                      : python_path(a.profile_export_file);
  v.insert(v.end(), {"--input-data", python_path(base + "/inputs.json"), "--profile-export-file", export_file});
  for (const auto& [option, value] : appended) v.insert(v.end(), {option, value});
  return v;
}

J gap_parameters(const J& input_config, const PointParameters& p) {
  J params = J::object();
  J endpoint = input_config.value("endpoint", J::object());
  endpoint.erase("server_metrics_urls");
  endpoint.erase("url");
  params["endpoint"] = endpoint;
  params["input"] = input_config.value("input", J::object());
  params["tokenizer"] = input_config.value("tokenizer", J::object());
  for (const auto& [name, value] : p.gap.items()) params[name] = value;
  return params;
}

std::string representation(const std::vector<std::string>& cli_args, const J& gap_params) {
  std::vector<std::string> cmd(cli_args.begin() + (cli_args.empty() ? 0 : 1), cli_args.end());
  for (const char* option : {"--url", "--metrics-url", "--latency-report-file", "--measurement-request-count",
                             "--input-data", "--profile-export-file", "-i", "-u"}) {
    const auto at = std::find(cmd.begin(), cmd.end(), option);
    if (at != cmd.end()) cmd.erase(at, std::min(at + 2, cmd.end()));
  }
  for (const char* flag : {"--verbose", "--extra-verbose", "--verbose-csv"}) {
    const auto at = std::find(cmd.begin(), cmd.end(), flag);
    if (at != cmd.end()) cmd.erase(at);
  }
  std::string out;
  for (const std::string& w : cmd) out += (out.empty() ? "" : " ") + w;
  // GenAI-Perf compares str() of its parameter dict: the same keys in the same order with the
  // same values (an int is not a float); python_json_dumps keeps those distinctions.
  return out + " " + python_json_dumps(gap_params);
}

J measurement_json(const J& stats, const std::string& model) {
  J perf = J::object();
  for (const auto& [metric, block] : stats.items()) {
    if (!block.is_object()) continue;
    for (const auto& [stat, value] : block.items()) {
      if (stat == "unit" || !value.is_number()) continue;
      const std::string tag = metric + "_" + stat;
      const J v = ns_time_metric(metric) ? J(value.get<double>() * 1e6) : value;
      perf[tag] = J::array({tag, {{"_value", v}, {"_timestamp", 0}}});
    }
  }
  return {{"_gpu_metrics", J::object()}, {"_model_config_measurements", {{model, {{"_perf_metrics", perf}}}}}};
}

J stats_from_measurement(const J& measurement, const std::string& model) {
  J stats = J::object();
  if (!measurement.is_object() || !measurement.contains("_model_config_measurements")) return stats;
  const J& models = measurement["_model_config_measurements"];
  if (!models.is_object() || !models.contains(model) || !models[model].contains("_perf_metrics")) return stats;
  for (const auto& [tag, rec] : models[model]["_perf_metrics"].items()) {
    if (!rec.is_array() || rec.size() != 2 || !rec[1].is_object() || !rec[1].contains("_value")) continue;
    const J& value = rec[1]["_value"];
    if (!value.is_number()) continue;
    const size_t cut = tag.rfind('_');
    if (cut == std::string::npos) continue;
    const std::string metric = tag.substr(0, cut);
    stats[metric][tag.substr(cut + 1)] = ns_time_metric(metric) ? J(value.get<double>() / 1e6) : value;
  }
  return stats;
}

int64_t inference_value(const J& run_config) {
  for (const char* option : {"--concurrency-range", "--request-rate-range"})
    if (const auto v = cli_value(run_config, option)) {
      try {
        return static_cast<int64_t>(std::stod(*v));
      } catch (const std::exception&) {
        return 1;
      }
    }
  return 1;  // AnalyzeDefaults.MIN_CONCURRENCY
}

bool inference_is_request_rate(const J& run_config) {
  return !cli_value(run_config, "--concurrency-range") && cli_value(run_config, "--request-rate-range").has_value();
}

Checkpoint::Checkpoint(std::string dir) : dir_(std::move(dir)) {
  const fs::path file = path();
  std::error_code ec;
  if (!fs::is_regular_file(file, ec)) return;
  std::ifstream in(file);
  std::stringstream text;
  text << in.rdbuf();
  // GenAI-Perf (and ours, python_json_dumps) write a non-finite statistic as Infinity/NaN.
  const J doc = J::parse(python_json_strict(text.str()), nullptr, false);
  if (doc.is_discarded() || !doc.is_object() || !doc.contains("Results") || !doc["Results"].is_object() ||
      !doc["Results"].contains("run_configs") || !doc["Results"]["run_configs"].is_array())
    throw GenAiPerfOptionError("Checkpoint file " + file.string() +
                               " is empty or corrupted (expected {\"Results\": {\"run_configs\": [...]}}). Delete it "
                               "and rerun GAP");
  for (const J& rc : doc["Results"]["run_configs"]) {
    if (!rc.is_object() || !rc.contains("name") || !rc["name"].is_string() || !cli_args_of(rc))
      throw GenAiPerfOptionError("Checkpoint file " + file.string() +
                                 ": a run config without name or perf_analyzer_config._cli_args. Delete it and rerun "
                                 "GAP");
    run_configs_.push_back(rc);
  }
}

std::string Checkpoint::path() const { return (fs::path(dir_) / kCheckpointFileName).string(); }

const J* Checkpoint::find(const std::string& repr) const {
  for (const J& rc : run_configs_)
    if (stored_representation(rc) == repr) return &rc;
  return nullptr;
}

std::string Checkpoint::next_name(const std::string& model) const {
  int64_t max_id = -1;
  for (const J& rc : run_configs_) {
    const std::string name = rc["name"].get<std::string>();
    try {
      max_id = std::max<int64_t>(max_id, std::stoll(name.substr(name.rfind('_') + 1)));
    } catch (const std::exception&) {
      // GenAI-Perf's int() would fail on such a name; ours skips it.
    }
  }
  return model + "_run_config_" + std::to_string(max_id + 1);
}

void Checkpoint::add(J run_config) {
  run_configs_.push_back(std::move(run_config));
  std::stable_sort(run_configs_.begin(), run_configs_.end(),
                   [](const J& x, const J& y) { return checkpoint_throughput(x) > checkpoint_throughput(y); });
}

void Checkpoint::save() const {
  J doc = {{"Results", {{"run_configs", J(run_configs_)}}}};
  std::error_code ec;
  fs::create_directories(dir_, ec);
  const fs::path file = path();
  const fs::path tmp = file.string() + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out << python_json_dumps(doc);
    out.flush();
    if (!out) throw std::runtime_error("cannot write " + tmp.string());
  }
  // A kill between points never leaves a half-written checkpoint behind.
  fs::rename(tmp, file, ec);
  if (ec) throw std::runtime_error("cannot write " + file.string() + ": " + ec.message());
}

J run_config_json(const std::string& name, const J& gap_params, const std::string& model, const PointParameters& p,
                  const std::vector<std::string>& cli_args, const J& measurement) {
  return {{"name", name},
          {"genai_perf_config", {{"_parameters", gap_params}}},
          {"perf_analyzer_config", {{"_model_name", model}, {"_parameters", p.pa}, {"_cli_args", cli_args}}},
          {"measurement", measurement}};
}

}  // namespace aiperf::cli::genai_perf
