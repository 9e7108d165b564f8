// OTLP/HTTP metrics export of a run (`--otel-url`): the run's per-request metric records as
// OTLP histograms, JSON-encoded (the OTLP protobuf's JSON mapping), under AIPerf 0.13's names:
// the five metrics with a GenAI semantic-convention equivalent (request_latency, TTFT, ITL,
// input/output token counts) as gen_ai.client.* in seconds or {token} with the spec's bucket
// bounds and gen_ai.* attributes, every other numeric metric as aiperf.<name> in its base
// unit (ms values back in ns) with the OTel SDK's default bounds. Pure functions: the sender
// lives in cli/remote_export.cpp.
#pragma once
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace aiperf::exporting {

using OtelAttributes = std::vector<std::pair<std::string, std::string>>;

// `--otel-url` as AIPerf normalises it: "http://" added when there is no scheme, only http(s),
// a host required, and the path made to end in /v1/metrics (kept when it already does, else
// appended). Throws std::invalid_argument with the reference's message.
std::string normalize_otel_url(const std::string& url);

// `--otel-resource-attributes` entries ("k=v", each possibly "k=v,k2=v2"), in order, later
// keys replacing earlier ones. Throws std::invalid_argument with the reference's message.
OtelAttributes parse_otel_resource_attributes(const std::vector<std::string>& items);

// `--stream` domains -> {metrics, timing}; none given = both. Throws std::invalid_argument.
std::pair<bool, bool> resolve_otel_stream(const std::vector<std::string>& domains);

// gen_ai.provider.name: the override, else from the first endpoint URL host AIPerf knows
// (api.openai.com -> openai, ...), else "_OTHER".
std::string infer_gen_ai_provider(const std::string& override_name, const std::vector<std::string>& urls);

// gen_ai.operation.name of an endpoint type: chat, text_completion, embeddings; else chat.
std::string gen_ai_operation_name(const std::string& endpoint_type);

struct OtelRunContext {
  OtelAttributes resource;    // service.name, service.instance.id, aiperf.* and the user's
  std::string operation;      // gen_ai.operation.name
  std::string provider;       // gen_ai.provider.name
  std::string model;          // gen_ai.request.model ("" = none)
  int64_t start_unix_ns = 0;  // the histograms' startTimeUnixNano
  int64_t time_unix_ns = 0;   // their timeUnixNano
};

// Accumulates records (profile_export.jsonl objects) into cumulative histograms, one data
// point per distinct attribute set, metrics in first-seen order.
class OtelHistogramBuilder {
 public:
  explicit OtelHistogramBuilder(OtelRunContext context) : context_(std::move(context)) {}
  // One record line's object; records without "metrics" are ignored.
  void add_record(const nlohmann::json& record);
  // The ExportMetricsServiceRequest as OTLP JSON (int64 fields as strings, as the mapping says).
  nlohmann::ordered_json request() const;
  size_t metric_count() const { return metrics_.size(); }

 private:
  struct Point {
    nlohmann::ordered_json attributes;  // OTLP KeyValue list
    uint64_t count = 0;
    double sum = 0, min = 0, max = 0;
    std::vector<uint64_t> buckets;
  };
  struct Metric {
    std::string name, unit, description;
    std::vector<double> bounds;
    std::vector<Point> points;
  };
  void observe(const std::string& name, const std::string& unit, const std::string& description,
               const std::vector<double>& bounds, const nlohmann::ordered_json& attributes, double value);

  OtelRunContext context_;
  std::vector<Metric> metrics_;
};

}  // namespace aiperf::exporting
