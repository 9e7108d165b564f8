#include "export/otel_payload.h"

#include <algorithm>
#include <cctype>
#include <regex>

#include "util/py_repr.h"
#include "util/text.h"

namespace aiperf::exporting {
namespace {

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// The spec's buckets (AIPerf 0.13 genai_semconv).
const std::vector<double> kDurationBounds{0.01, 0.02, 0.04, 0.08,  0.16,  0.32,  0.64,
                                          1.28, 2.56, 5.12, 10.24, 20.48, 40.96, 81.92};
const std::vector<double> kChunkBounds{0.001, 0.005, 0.01, 0.02, 0.04, 0.06, 0.08, 0.1,  0.12, 0.14, 0.16, 0.18,
                                       0.2,   0.25,  0.3,  0.35, 0.4,  0.45, 0.5,  0.75, 1.0,  2.0,  5.0};
const std::vector<double> kTokenBounds{1, 4, 16, 64, 256, 1024, 4096, 16384, 65536, 262144, 1048576, 4194304, 16777216};
// The OTel SDK's default explicit bucket histogram.
const std::vector<double> kDefaultBounds{0, 5, 10, 25, 50, 75, 100, 250, 500, 750, 1000, 2500, 5000, 7500, 10000};

struct Semconv {
  const char* aiperf;
  const char* name;
  const char* unit;
  const std::vector<double>* bounds;
  const char* token_type;  // nullptr = a duration (error.type applies)
};
const Semconv kSemconv[] = {
    {"request_latency", "gen_ai.client.operation.duration", "s", &kDurationBounds, nullptr},
    {"time_to_first_token", "gen_ai.client.operation.time_to_first_chunk", "s", &kChunkBounds, nullptr},
    {"inter_token_latency", "gen_ai.client.operation.time_per_output_chunk", "s", &kChunkBounds, nullptr},
    {"input_token_count", "gen_ai.client.token.usage", "{token}", &kTokenBounds, "input"},
    {"output_token_count", "gen_ai.client.token.usage", "{token}", &kTokenBounds, "output"},
};

nlohmann::ordered_json key_value(const std::string& key, const nlohmann::json& v) {
  nlohmann::ordered_json value;
  if (v.is_boolean()) value["boolValue"] = v.get<bool>();
  else if (v.is_number_integer()) value["intValue"] = std::to_string(v.get<int64_t>());
  else if (v.is_number()) value["doubleValue"] = v.get<double>();
  else value["stringValue"] = v.is_string() ? v.get<std::string>() : v.dump();
  return {{"key", key}, {"value", value}};
}

// AIPerf's error.type of a failed request: http_5xx / http_4xx by status, timeout, cancelled,
// parse_error for JSON decode failures, else _OTHER.
std::string error_type(const nlohmann::json& error) {
  if (error.contains("code") && error["code"].is_number_integer()) {
    const int64_t code = error["code"].get<int64_t>();
    if (code >= 500 && code <= 599) return "http_5xx";
    if (code >= 400 && code <= 499) return "http_4xx";
  }
  const std::string type = error.value("type", std::string());
  if (type == "timeout" || type == "asyncio.TimeoutError" || type == "TimeoutError") return "timeout";
  if (type == "cancelled") return "cancelled";
  const std::string message = lower(
      error.contains("message") && error["message"].is_string() ? error["message"].get<std::string>() : std::string());
  if (message.find("json") != std::string::npos &&
      (message.find("parse") != std::string::npos || message.find("decode") != std::string::npos))
    return "parse_error";
  return "_OTHER";
}

// The numbers of one metric entry ({"value": x or [..], "unit": u}); booleans are not numbers.
std::vector<double> numbers(const nlohmann::json& v) {
  std::vector<double> out;
  if (v.is_number()) out.push_back(v.get<double>());
  else if (v.is_array())
    for (const auto& x : v)
      if (x.is_number()) out.push_back(x.get<double>());
  return out;
}

}  // namespace

std::string normalize_otel_url(const std::string& url) {
  std::string u = util::trim(url, util::kAsciiSpace);
  if (u.empty()) throw std::invalid_argument("--otel-url cannot be empty.");
  if (u.find("://") == std::string::npos) u = "http://" + u;
  const size_t sep = u.find("://");
  const std::string scheme = u.substr(0, sep);
  std::string rest = u.substr(sep + 3);
  const size_t path_at = rest.find_first_of("/?#");
  const std::string netloc = rest.substr(0, path_at);
  std::string tail = path_at == std::string::npos ? "" : rest.substr(path_at);
  // host = netloc without userinfo and port (an IPv6 literal keeps its brackets' content).
  std::string host = netloc.substr(netloc.rfind('@') == std::string::npos ? 0 : netloc.rfind('@') + 1);
  if (!host.empty() && host.front() == '[')
    host = host.substr(1, host.find(']') == std::string::npos ? 0 : host.find(']') - 1);
  else host = host.substr(0, host.find(':'));
  if (scheme.empty() || netloc.empty() || host.empty())
    throw std::invalid_argument("Invalid --otel-url value: " + util::py_repr(url) +
                                ". Expected host[:port] or a full URL.");
  if (lower(scheme) != "http" && lower(scheme) != "https")
    throw std::invalid_argument("Invalid --otel-url value: " + util::py_repr(url) +
                                ". Only http and https schemes are supported (got " + util::py_repr(scheme) +
                                "). OTLP/gRPC is not supported; use the OTLP/HTTP exporter endpoint.");
  const size_t q = tail.find_first_of("?#");
  std::string path = tail.substr(0, q);
  const std::string query = q == std::string::npos ? "" : tail.substr(q);
  while (!path.empty() && path.back() == '/') path.pop_back();
  const std::string suffix = "/v1/metrics";
  if (path.empty()) path = suffix;
  else if (!(path.size() >= suffix.size() && path.compare(path.size() - suffix.size(), suffix.size(), suffix) == 0))
    path += suffix;
  return scheme + "://" + netloc + path + query;
}

OtelAttributes parse_otel_resource_attributes(const std::vector<std::string>& items) {
  OtelAttributes out;
  for (const std::string& item : items) {
    size_t start = 0;
    while (start <= item.size()) {
      size_t comma = item.find(',', start);
      if (comma == std::string::npos) comma = item.size();
      const std::string pair = util::trim(item.substr(start, comma - start), util::kAsciiSpace);
      start = comma + 1;
      if (pair.empty()) continue;
      const size_t eq = pair.find('=');
      if (eq == std::string::npos)
        throw std::invalid_argument("Invalid --otel-resource-attributes entry " + util::py_repr(pair) +
                                    ": expected key=value.");
      const std::string key = util::trim(pair.substr(0, eq), util::kAsciiSpace),
                        value = util::trim(pair.substr(eq + 1), util::kAsciiSpace);
      if (key.empty())
        throw std::invalid_argument("Invalid --otel-resource-attributes entry " + util::py_repr(pair) +
                                    ": key cannot be empty.");
      if (value.empty())
        throw std::invalid_argument("Invalid --otel-resource-attributes entry " + util::py_repr(pair) +
                                    ": value cannot be empty.");
      auto it = std::find_if(out.begin(), out.end(), [&](const auto& kv) { return kv.first == key; });
      if (it != out.end()) it->second = value;
      else out.emplace_back(key, value);
    }
  }
  return out;
}

std::pair<bool, bool> resolve_otel_stream(const std::vector<std::string>& domains) {
  std::vector<std::string> invalid;
  for (const auto& d : domains)
    if (d != "default" && d != "metrics" && d != "timing" && d != "none") invalid.push_back(d);
  if (!invalid.empty()) {
    std::string list = "[";
    for (size_t i = 0; i < invalid.size(); ++i) list += (i ? ", " : "") + util::py_repr(invalid[i]);
    throw std::invalid_argument("Invalid --stream value(s) " + list +
                                "]. Allowed: ['default', 'metrics', 'none', 'timing'].");
  }
  const auto has = [&](const char* d) { return std::find(domains.begin(), domains.end(), d) != domains.end(); };
  if (has("none")) return {false, false};
  const bool all = domains.empty() || has("default");
  return {all || has("metrics"), all || has("timing")};
}

std::string infer_gen_ai_provider(const std::string& override_name, const std::vector<std::string>& urls) {
  if (!override_name.empty()) return override_name;
  static const std::pair<std::regex, const char*> kHosts[] = {
      {std::regex(R"(api\.openai\.com$)"), "openai"},
      {std::regex(R"(api\.anthropic\.com$)"), "anthropic"},
      {std::regex(R"(api\.deepseek\.com$)"), "deepseek"},
      {std::regex(R"(api\.mistral\.ai$)"), "mistral_ai"},
      {std::regex(R"(api\.cohere\.(ai|com)$)"), "cohere"},
      {std::regex(R"(api\.x\.ai$)"), "x_ai"},
      {std::regex(R"(api\.groq\.com$)"), "groq"},
      {std::regex(R"(api\.perplexity\.ai$)"), "perplexity"},
      {std::regex(R"(generativelanguage\.googleapis\.com$)"), "gcp.gemini"},
      {std::regex(R"(.*-aiplatform\.googleapis\.com$)"), "gcp.vertex_ai"},
      {std::regex(R"(bedrock-runtime\..*\.amazonaws\.com$)"), "aws.bedrock"},
      {std::regex(R"(.*\.openai\.azure\.com$)"), "azure.ai.openai"},
      {std::regex(R"(.*\.services\.ai\.azure\.com$)"), "azure.ai.inference"},
      {std::regex(R"(.*\.ibm\.com$)"), "ibm.watsonx.ai"},
  };
  for (const std::string& raw : urls) {
    std::string u = lower(util::trim(raw, util::kAsciiSpace));
    if (u.empty()) continue;
    if (const size_t s = u.find("://"); s != std::string::npos) u = u.substr(s + 3);
    std::string host = u.substr(0, u.find_first_of("/?#"));
    host = host.substr(host.rfind('@') == std::string::npos ? 0 : host.rfind('@') + 1);
    host = host.substr(0, host.find(':'));
    if (host.empty()) continue;
    for (const auto& [pattern, provider] : kHosts)
      if (std::regex_search(host, pattern)) return provider;
  }
  return "_OTHER";
}

std::string gen_ai_operation_name(const std::string& endpoint_type) {
  const std::string t = lower(endpoint_type);
  if (t == "completions") return "text_completion";
  if (t == "embeddings") return "embeddings";
  return "chat";
}

void OtelHistogramBuilder::observe(const std::string& name, const std::string& unit, const std::string& description,
                                   const std::vector<double>& bounds, const nlohmann::ordered_json& attributes,
                                   double value) {
  auto m = std::find_if(metrics_.begin(), metrics_.end(), [&](const Metric& x) { return x.name == name; });
  if (m == metrics_.end()) {
    metrics_.push_back(Metric{name, unit, description, bounds, {}});
    m = std::prev(metrics_.end());
  }
  // Attribute sets compare as sets (the SDK's identity); ours are always built in one order.
  auto p = std::find_if(m->points.begin(), m->points.end(), [&](const Point& x) { return x.attributes == attributes; });
  if (p == m->points.end()) {
    m->points.push_back(Point{attributes, 0, 0, value, value, std::vector<uint64_t>(m->bounds.size() + 1, 0)});
    p = std::prev(m->points.end());
  }
  ++p->count;
  p->sum += value;
  p->min = std::min(p->min, value);
  p->max = std::max(p->max, value);
  // OTel buckets are upper-inclusive: (b[i-1], b[i]].
  const size_t i = static_cast<size_t>(std::lower_bound(m->bounds.begin(), m->bounds.end(), value) - m->bounds.begin());
  ++p->buckets[i];
}

void OtelHistogramBuilder::add_record(const nlohmann::json& record) {
  if (!record.is_object() || !record.contains("metrics") || !record["metrics"].is_object()) return;
  const nlohmann::json meta = record.value("metadata", nlohmann::json::object());
  const bool has_error = record.contains("error") && !record["error"].is_null();
  nlohmann::ordered_json base = nlohmann::ordered_json::array();
  base.push_back(key_value("aiperf.worker.id", meta.value("worker_id", std::string())));
  base.push_back(key_value("aiperf.record_processor.id", meta.value("record_processor_id", std::string())));
  base.push_back(key_value("aiperf.benchmark_phase", meta.value("benchmark_phase", std::string("profiling"))));
  base.push_back(key_value("aiperf.was_cancelled", meta.value("was_cancelled", false)));
  base.push_back(key_value("aiperf.has_error", has_error));
  for (const auto& [metric, entry] : record["metrics"].items()) {
    const nlohmann::json value = entry.is_object() ? entry.value("value", nlohmann::json()) : entry;
    std::vector<double> values = numbers(value);
    if (values.empty()) continue;
    const std::string unit = entry.is_object() ? entry.value("unit", std::string()) : std::string();
    const Semconv* spec = nullptr;
    for (const auto& s : kSemconv)
      if (metric == s.aiperf) spec = &s;
    if (spec) {
      nlohmann::ordered_json attrs = base;
      attrs.push_back(key_value("gen_ai.operation.name", context_.operation));
      attrs.push_back(key_value("gen_ai.provider.name", context_.provider));
      if (!context_.model.empty()) attrs.push_back(key_value("gen_ai.request.model", context_.model));
      if (spec->token_type) attrs.push_back(key_value("gen_ai.token.type", spec->token_type));
      else if (has_error) attrs.push_back(key_value("error.type", error_type(record["error"])));
      // The file holds durations in ms; the spec wants seconds.
      const double scale = spec->token_type ? 1.0 : unit == "ms" ? 1e-3 : unit == "ns" ? 1e-9 : 1.0;
      for (double v : values)
        observe(spec->name, spec->unit, std::string("GenAI semconv metric: ") + spec->name, *spec->bounds, attrs,
                v * scale);
      continue;
    }
    // Everything else as AIPerf streams it: its base unit (durations in ns).
    std::string out_unit = unit.empty() ? "1" : unit;
    double scale = 1.0;
    if (unit == "ms") {
      out_unit = "ns";
      scale = 1e6;
    }
    for (double v : values)
      observe("aiperf." + metric, out_unit, "AIPerf streaming metric: " + metric, kDefaultBounds, base, v * scale);
  }
}

nlohmann::ordered_json OtelHistogramBuilder::request() const {
  nlohmann::ordered_json resource_attrs = nlohmann::ordered_json::array();
  for (const auto& [k, v] : context_.resource) resource_attrs.push_back(key_value(k, v));
  nlohmann::ordered_json metrics = nlohmann::ordered_json::array();
  for (const Metric& m : metrics_) {
    nlohmann::ordered_json points = nlohmann::ordered_json::array();
    for (const Point& p : m.points) {
      nlohmann::ordered_json buckets = nlohmann::ordered_json::array();
      for (uint64_t b : p.buckets) buckets.push_back(std::to_string(b));
      points.push_back({{"attributes", p.attributes},
                        {"startTimeUnixNano", std::to_string(context_.start_unix_ns)},
                        {"timeUnixNano", std::to_string(context_.time_unix_ns)},
                        {"count", std::to_string(p.count)},
                        {"sum", p.sum},
                        {"bucketCounts", buckets},
                        {"explicitBounds", m.bounds},
                        {"min", p.min},
                        {"max", p.max}});
    }
    metrics.push_back({{"name", m.name},
                       {"description", m.description},
                       {"unit", m.unit},
                       {"histogram", {{"dataPoints", points}, {"aggregationTemporality", 2}}}});
  }
  nlohmann::ordered_json scope = {{"scope", {{"name", "aiperf.records"}}}, {"metrics", metrics}};
  nlohmann::ordered_json rm = {{"resource", {{"attributes", resource_attrs}}},
                               {"scopeMetrics", nlohmann::ordered_json::array({scope})}};
  return {{"resourceMetrics", nlohmann::ordered_json::array({rm})}};
}

}  // namespace aiperf::exporting
