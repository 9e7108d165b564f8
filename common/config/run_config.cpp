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
  if (loadgen.arrival_pattern == ArrivalPattern::kFixedSchedule) return "fixed_schedule";
  if (loadgen.num_users && loadgen.user_centric_rate)
    return "user_centric-users" + std::to_string(*loadgen.num_users) + "-qps" + python_float(*loadgen.user_centric_rate);
  std::string out;
  if (loadgen.concurrency) out = "concurrency" + std::to_string(*loadgen.concurrency);
  if (loadgen.request_rate) {
    if (!out.empty()) out += "-";
    out += "request_rate" + python_float(*loadgen.request_rate);
  }
  return out.empty() ? "concurrency1" : out;
}

json to_json(const RunConfig& c) {
  json j{{"endpoint", c.endpoint}, {"input", c.input},     {"output", c.output},
         {"tokenizer", c.tokenizer}, {"loadgen", c.loadgen}, {"service", c.service},
         {"telemetry", c.telemetry}, {"benchmark_id", c.benchmark_id}};
  j["network_latency"] = c.network_latency;
  j["accuracy"] = c.accuracy;
  return j;
}

RunConfig run_config_from_json(const json& j) {
  RunConfig c;
  j.at("endpoint").get_to(c.endpoint);
  j.at("input").get_to(c.input);
  j.at("output").get_to(c.output);
  j.at("tokenizer").get_to(c.tokenizer);
  j.at("loadgen").get_to(c.loadgen);
  j.at("service").get_to(c.service);
  if (j.contains("telemetry")) j.at("telemetry").get_to(c.telemetry);
  if (j.contains("network_latency")) j.at("network_latency").get_to(c.network_latency);
  if (j.contains("accuracy")) j.at("accuracy").get_to(c.accuracy);
  c.benchmark_id = j.value("benchmark_id", std::string());
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
