#include "config/run_config.h"

#include <cmath>
#include <sstream>

namespace aiperf::config {
namespace {

using nlohmann::json;

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
  j["given_options"] = c.given_options;
  if (c.fixed_schedule_records) j["fixed_schedule_records"] = *c.fixed_schedule_records;
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
  c.given_options = j.value("given_options", std::vector<std::string>());
  if (j.contains("fixed_schedule_records")) c.fixed_schedule_records = j.at("fixed_schedule_records").get<uint64_t>();
  return c;
}

}  // namespace aiperf::config
