#include "config/run_config.h"

#include <cmath>
#include <sstream>

namespace aiperf::config {
namespace {

using nlohmann::json;

template <typename J, typename T>
void put(J& j, const char* key, const std::optional<T>& v) {
  if (v) j[key] = *v;
}

template <typename T>
void get(const json& j, const char* key, T& out) {
  if (auto it = j.find(key); it != j.end() && !it->is_null()) out = it->get<T>();
}

template <typename T>
void get(const json& j, const char* key, std::optional<T>& out) {
  if (auto it = j.find(key); it != j.end() && !it->is_null()) out = it->get<T>();
}

// Python float repr for whole numbers keeps ".0" (AIPerf prints request_rate10.0).
std::string python_float(double v) {
  std::ostringstream os;
  os.precision(17);
  os << v;
  std::string s = os.str();
  if (s.find_first_of(".eE") == std::string::npos) s += ".0";
  return s;
}

}  // namespace

std::string RunConfig::stimulus() const {
  std::string out;
  if (loadgen.concurrency) out = "concurrency" + std::to_string(*loadgen.concurrency);
  if (loadgen.request_rate) {
    if (!out.empty()) out += "-";
    out += "request_rate" + python_float(*loadgen.request_rate);
  }
  return out.empty() ? "concurrency1" : out;
}

json to_json(const RunConfig& c) {
  json j;
  auto& e = j["endpoint"];
  e["model_names"] = c.endpoint.model_names;
  e["model_selection_strategy"] = c.endpoint.model_selection_strategy;
  e["custom_endpoint"] = c.endpoint.custom_endpoint;
  e["type"] = c.endpoint.type;
  e["streaming"] = c.endpoint.streaming;
  e["urls"] = c.endpoint.urls;
  e["timeout_seconds"] = c.endpoint.timeout_seconds;
  e["api_key"] = c.endpoint.api_key;
  e["use_legacy_max_tokens"] = c.endpoint.use_legacy_max_tokens;
  e["use_server_token_count"] = c.endpoint.use_server_token_count;
  e["connection_reuse_strategy"] = c.endpoint.connection_reuse_strategy;

  auto& in = j["input"];
  in["extra_inputs"] = c.input.extra_inputs;
  in["headers"] = c.input.headers;
  put(in, "random_seed", c.input.random_seed);
  in["isl_mean"] = c.input.isl_mean;
  in["isl_stddev"] = c.input.isl_stddev;
  put(in, "osl_mean", c.input.osl_mean);
  in["osl_stddev"] = c.input.osl_stddev;
  in["batch_size"] = c.input.batch_size;
  in["num_dataset_entries"] = c.input.num_dataset_entries;
  in["turn_mean"] = c.input.turn_mean;
  in["turn_stddev"] = c.input.turn_stddev;
  in["turn_delay_mean"] = c.input.turn_delay_mean;
  in["turn_delay_stddev"] = c.input.turn_delay_stddev;
  in["turn_delay_ratio"] = c.input.turn_delay_ratio;

  auto& out = j["output"];
  out["artifact_dir"] = c.output.artifact_dir;
  out["artifact_dir_explicit"] = c.output.artifact_dir_explicit;
  out["profile_export_prefix"] = c.output.profile_export_prefix;
  out["export_level"] = c.output.export_level;

  auto& t = j["tokenizer"];
  t["name"] = c.tokenizer.name;
  t["revision"] = c.tokenizer.revision;
  t["trust_remote_code"] = c.tokenizer.trust_remote_code;
  t["resolved_path"] = c.tokenizer.resolved_path;

  auto& l = j["loadgen"];
  put(l, "concurrency", c.loadgen.concurrency);
  put(l, "request_count", c.loadgen.request_count);
  put(l, "warmup_request_count", c.loadgen.warmup_request_count);
  put(l, "benchmark_duration", c.loadgen.benchmark_duration);
  l["benchmark_grace_period"] = c.loadgen.benchmark_grace_period;
  put(l, "request_rate", c.loadgen.request_rate);
  l["arrival_pattern"] = c.loadgen.arrival_pattern;
  put(l, "conversation_num", c.loadgen.conversation_num);

  auto& s = j["service"];
  s["workers"] = c.service.workers;
  s["workers_remote"] = c.service.workers_remote;
  s["record_processors"] = c.service.record_processors;
  s["zmq_host"] = c.service.zmq_host;
  s["zmq_ipc_path"] = c.service.zmq_ipc_path;
  s["zmq_base_port"] = c.service.zmq_base_port;
  s["log_level"] = c.service.log_level;
  s["ui_type"] = c.service.ui_type;
  put(s, "fail_on_error_rate", c.service.fail_on_error_rate);
  s["cli_command"] = c.service.cli_command;

  j["benchmark_id"] = c.benchmark_id;
  return j;
}

RunConfig run_config_from_json(const json& j) {
  RunConfig c;
  const json& e = j.at("endpoint");
  get(e, "model_names", c.endpoint.model_names);
  get(e, "model_selection_strategy", c.endpoint.model_selection_strategy);
  get(e, "custom_endpoint", c.endpoint.custom_endpoint);
  get(e, "type", c.endpoint.type);
  get(e, "streaming", c.endpoint.streaming);
  get(e, "urls", c.endpoint.urls);
  get(e, "timeout_seconds", c.endpoint.timeout_seconds);
  get(e, "api_key", c.endpoint.api_key);
  get(e, "use_legacy_max_tokens", c.endpoint.use_legacy_max_tokens);
  get(e, "use_server_token_count", c.endpoint.use_server_token_count);
  get(e, "connection_reuse_strategy", c.endpoint.connection_reuse_strategy);

  const json& in = j.at("input");
  if (in.contains("extra_inputs")) c.input.extra_inputs = in["extra_inputs"];
  get(in, "headers", c.input.headers);
  get(in, "random_seed", c.input.random_seed);
  get(in, "isl_mean", c.input.isl_mean);
  get(in, "isl_stddev", c.input.isl_stddev);
  get(in, "osl_mean", c.input.osl_mean);
  get(in, "osl_stddev", c.input.osl_stddev);
  get(in, "batch_size", c.input.batch_size);
  get(in, "num_dataset_entries", c.input.num_dataset_entries);
  get(in, "turn_mean", c.input.turn_mean);
  get(in, "turn_stddev", c.input.turn_stddev);
  get(in, "turn_delay_mean", c.input.turn_delay_mean);
  get(in, "turn_delay_stddev", c.input.turn_delay_stddev);
  get(in, "turn_delay_ratio", c.input.turn_delay_ratio);

  const json& out = j.at("output");
  get(out, "artifact_dir", c.output.artifact_dir);
  get(out, "artifact_dir_explicit", c.output.artifact_dir_explicit);
  get(out, "profile_export_prefix", c.output.profile_export_prefix);
  get(out, "export_level", c.output.export_level);

  const json& t = j.at("tokenizer");
  get(t, "name", c.tokenizer.name);
  get(t, "revision", c.tokenizer.revision);
  get(t, "trust_remote_code", c.tokenizer.trust_remote_code);
  get(t, "resolved_path", c.tokenizer.resolved_path);

  const json& l = j.at("loadgen");
  get(l, "concurrency", c.loadgen.concurrency);
  get(l, "request_count", c.loadgen.request_count);
  get(l, "warmup_request_count", c.loadgen.warmup_request_count);
  get(l, "benchmark_duration", c.loadgen.benchmark_duration);
  get(l, "benchmark_grace_period", c.loadgen.benchmark_grace_period);
  get(l, "request_rate", c.loadgen.request_rate);
  get(l, "arrival_pattern", c.loadgen.arrival_pattern);
  get(l, "conversation_num", c.loadgen.conversation_num);

  const json& s = j.at("service");
  get(s, "workers", c.service.workers);
  get(s, "workers_remote", c.service.workers_remote);
  get(s, "record_processors", c.service.record_processors);
  get(s, "zmq_host", c.service.zmq_host);
  get(s, "zmq_ipc_path", c.service.zmq_ipc_path);
  get(s, "zmq_base_port", c.service.zmq_base_port);
  get(s, "log_level", c.service.log_level);
  get(s, "ui_type", c.service.ui_type);
  get(s, "fail_on_error_rate", c.service.fail_on_error_rate);
  get(s, "cli_command", c.service.cli_command);

  get(j, "benchmark_id", c.benchmark_id);
  return c;
}

nlohmann::ordered_json input_config_json(const RunConfig& c) {
  nlohmann::ordered_json j;
  auto& e = j["endpoint"];
  e["model_names"] = c.endpoint.model_names;
  e["type"] = c.endpoint.type;
  e["streaming"] = c.endpoint.streaming;
  e["urls"] = c.endpoint.urls;
  if (!c.endpoint.custom_endpoint.empty()) e["custom_endpoint"] = c.endpoint.custom_endpoint;
  e["timeout_seconds"] = c.endpoint.timeout_seconds;

  auto& in = j["input"];
  if (!c.input.extra_inputs.empty()) in["extra_inputs"] = c.input.extra_inputs;
  if (c.input.random_seed) in["random_seed"] = *c.input.random_seed;
  in["prompt"]["input_tokens"] = {{"mean", c.input.isl_mean}, {"stddev", c.input.isl_stddev}};
  if (c.input.osl_mean)
    in["prompt"]["output_tokens"] = {{"mean", *c.input.osl_mean}, {"stddev", c.input.osl_stddev}};
  in["conversation"]["num_dataset_entries"] = c.input.num_dataset_entries;

  j["output"]["artifact_directory"] = c.output.artifact_dir;
  j["tokenizer"]["name"] = c.tokenizer.name;

  auto& l = j["loadgen"];
  put(l, "concurrency", c.loadgen.concurrency);
  put(l, "request_count", c.loadgen.request_count);
  put(l, "warmup_request_count", c.loadgen.warmup_request_count);
  put(l, "benchmark_duration", c.loadgen.benchmark_duration);
  put(l, "request_rate", c.loadgen.request_rate);
  return j;
}

}  // namespace aiperf::config
