#include "export/otel_payload.h"

#include <catch2/catch.hpp>

using namespace aiperf::exporting;
using nlohmann::json;

namespace {

std::string invalid(const std::function<void()>& f) {
  try {
    f();
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "(no error)";
}

OtelRunContext context() {
  OtelRunContext c;
  c.resource = {{"service.name", "aiperf"}, {"team", "perf"}};
  c.operation = "chat";
  c.provider = "_OTHER";
  c.model = "m1";
  c.start_unix_ns = 1000;
  c.time_unix_ns = 2000;
  return c;
}

json record(const std::string& worker, double latency_ms, int osl, const json& error = nullptr) {
  json r = {{"metadata",
             {{"worker_id", worker},
              {"record_processor_id", "rp"},
              {"benchmark_phase", "profiling"},
              {"was_cancelled", false}}},
            {"metrics",
             {{"request_latency", {{"value", latency_ms}, {"unit", "ms"}}},
              {"output_token_count", {{"value", osl}, {"unit", "tokens"}}},
              {"inter_chunk_latency", {{"value", json::array({1.5, 2.5})}, {"unit", "ms"}}}}}};
  if (!error.is_null()) r["error"] = error;
  return r;
}

}  // namespace

TEST_CASE("otel url: scheme added, /v1/metrics appended or kept, reference messages") {
  CHECK(normalize_otel_url("localhost:4318") == "http://localhost:4318/v1/metrics");
  CHECK(normalize_otel_url(" https://c.example/ ") == "https://c.example/v1/metrics");
  CHECK(normalize_otel_url("http://c:4318/otlp") == "http://c:4318/otlp/v1/metrics");
  CHECK(normalize_otel_url("http://c:4318/otlp/v1/metrics/") == "http://c:4318/otlp/v1/metrics");
  CHECK(invalid([] { normalize_otel_url("  "); }) == "--otel-url cannot be empty.");
  CHECK(invalid([] { normalize_otel_url(":4318"); }) ==
        "Invalid --otel-url value: ':4318'. Expected host[:port] or a full URL.");
  CHECK(invalid([] { normalize_otel_url("grpc://c:4317"); }) ==
        "Invalid --otel-url value: 'grpc://c:4317'. Only http and https schemes are supported (got 'grpc'). "
        "OTLP/gRPC is not supported; use the OTLP/HTTP exporter endpoint.");
}

TEST_CASE("otel resource attributes and stream domains as the reference parses them") {
  CHECK(parse_otel_resource_attributes({"a=1, b = 2", "a=3"}) == OtelAttributes{{"a", "3"}, {"b", "2"}});
  CHECK(invalid([] { parse_otel_resource_attributes({"a"}); }) ==
        "Invalid --otel-resource-attributes entry 'a': expected key=value.");
  CHECK(invalid([] { parse_otel_resource_attributes({"=1"}); }) ==
        "Invalid --otel-resource-attributes entry '=1': key cannot be empty.");
  CHECK(invalid([] { parse_otel_resource_attributes({"k="}); }) ==
        "Invalid --otel-resource-attributes entry 'k=': value cannot be empty.");
  CHECK(resolve_otel_stream({}) == std::pair<bool, bool>{true, true});
  CHECK(resolve_otel_stream({"metrics"}) == std::pair<bool, bool>{true, false});
  CHECK(resolve_otel_stream({"timing"}) == std::pair<bool, bool>{false, true});
  CHECK(resolve_otel_stream({"metrics", "none"}) == std::pair<bool, bool>{false, false});
  CHECK(invalid([] {
          resolve_otel_stream({"x", "metrics"});
        }) == "Invalid --stream value(s) ['x']. Allowed: ['default', 'metrics', 'none', 'timing'].");
}

TEST_CASE("gen_ai provider and operation names") {
  CHECK(infer_gen_ai_provider("", {"https://api.openai.com/v1"}) == "openai");
  CHECK(infer_gen_ai_provider("", {"localhost:8000", "x.openai.azure.com:443"}) == "azure.ai.openai");
  CHECK(infer_gen_ai_provider("", {"127.0.0.1:8000"}) == "_OTHER");
  CHECK(infer_gen_ai_provider("vllm", {"https://api.openai.com"}) == "vllm");
  CHECK(gen_ai_operation_name("completions") == "text_completion");
  CHECK(gen_ai_operation_name("embeddings") == "embeddings");
  CHECK(gen_ai_operation_name("rankings") == "chat");
}

TEST_CASE("otel histograms: exact OTLP JSON, semconv metrics in seconds, others in base units") {
  OtelHistogramBuilder b(context());
  b.add_record(record("w1", 30.0, 4));
  b.add_record(record("w1", 500.0, 20));
  b.add_record(record("w2", 10.0, 1, {{"code", 503}, {"type", "Service Unavailable"}, {"message", "x"}}));
  const json got = json::parse(b.request().dump());
  const json attrs_w1 = json::parse(R"([
    {"key":"aiperf.worker.id","value":{"stringValue":"w1"}},
    {"key":"aiperf.record_processor.id","value":{"stringValue":"rp"}},
    {"key":"aiperf.benchmark_phase","value":{"stringValue":"profiling"}},
    {"key":"aiperf.was_cancelled","value":{"boolValue":false}},
    {"key":"aiperf.has_error","value":{"boolValue":false}}])");
  json gen_w1 = attrs_w1;
  gen_w1.push_back({{"key", "gen_ai.operation.name"}, {"value", {{"stringValue", "chat"}}}});
  gen_w1.push_back({{"key", "gen_ai.provider.name"}, {"value", {{"stringValue", "_OTHER"}}}});
  gen_w1.push_back({{"key", "gen_ai.request.model"}, {"value", {{"stringValue", "m1"}}}});
  REQUIRE(got["resourceMetrics"].size() == 1);
  const json& rm = got["resourceMetrics"][0];
  CHECK(rm["resource"]["attributes"] == json::parse(R"([{"key":"service.name","value":{"stringValue":"aiperf"}},
                                                       {"key":"team","value":{"stringValue":"perf"}}])"));
  CHECK(rm["scopeMetrics"][0]["scope"] == json{{"name", "aiperf.records"}});
  const json& metrics = rm["scopeMetrics"][0]["metrics"];
  REQUIRE(metrics.size() == 3);
  // First-seen order; a record's metrics come in key order (nlohmann::json objects are sorted).
  CHECK(metrics[0]["name"] == "aiperf.inter_chunk_latency");
  CHECK(metrics[1]["name"] == "gen_ai.client.token.usage");

  const json& duration = metrics[2];
  CHECK(duration["name"] == "gen_ai.client.operation.duration");
  CHECK(duration["unit"] == "s");
  CHECK(duration["description"] == "GenAI semconv metric: gen_ai.client.operation.duration");
  CHECK(duration["histogram"]["aggregationTemporality"] == 2);
  const json& points = duration["histogram"]["dataPoints"];
  REQUIRE(points.size() == 2);
  CHECK(points[0]["attributes"] == gen_w1);
  CHECK(points[0]["count"] == "2");
  CHECK(points[0]["sum"].get<double>() == Approx(0.53).epsilon(1e-12));
  CHECK(points[0]["min"].get<double>() == Approx(0.03).epsilon(1e-12));
  CHECK(points[0]["max"].get<double>() == Approx(0.5).epsilon(1e-12));
  CHECK(points[0]["startTimeUnixNano"] == "1000");
  CHECK(points[0]["timeUnixNano"] == "2000");
  // 0.03 in (0.02, 0.04], 0.5 in (0.32, 0.64]
  CHECK(points[0]["bucketCounts"] == json({"0", "0", "1", "0", "0", "0", "1", "0", "0", "0", "0", "0", "0", "0", "0"}));
  CHECK(points[0]["explicitBounds"].size() == 14);
  // The failed request: has_error true and error.type from its status.
  CHECK(points[1]["attributes"][4] == json{{"key", "aiperf.has_error"}, {"value", {{"boolValue", true}}}});
  CHECK(points[1]["attributes"].back() == json{{"key", "error.type"}, {"value", {{"stringValue", "http_5xx"}}}});
  CHECK(points[1]["count"] == "1");

  const json& tokens = metrics[1];
  CHECK(tokens["name"] == "gen_ai.client.token.usage");
  CHECK(tokens["unit"] == "{token}");
  CHECK(tokens["histogram"]["dataPoints"][0]["attributes"].back() ==
        json{{"key", "gen_ai.token.type"}, {"value", {{"stringValue", "output"}}}});
  CHECK(tokens["histogram"]["dataPoints"][0]["sum"] == 24.0);
  // 4 in (1, 4], 20 in (16, 64]
  CHECK(tokens["histogram"]["dataPoints"][0]["bucketCounts"] ==
        json({"0", "1", "0", "1", "0", "0", "0", "0", "0", "0", "0", "0", "0", "0"}));

  // Not in the semconv table: aiperf.<name>, ms back to ns, every list value observed.
  const json& icl = metrics[0];
  CHECK(icl["name"] == "aiperf.inter_chunk_latency");
  CHECK(icl["unit"] == "ns");
  CHECK(icl["description"] == "AIPerf streaming metric: inter_chunk_latency");
  CHECK(icl["histogram"]["dataPoints"][0]["attributes"] == attrs_w1);
  CHECK(icl["histogram"]["dataPoints"][0]["count"] == "4");
  CHECK(icl["histogram"]["dataPoints"][0]["sum"] == 8e6);
  CHECK(icl["histogram"]["dataPoints"][0]["explicitBounds"] ==
        json({0.0, 5.0, 10.0, 25.0, 50.0, 75.0, 100.0, 250.0, 500.0, 750.0, 1000.0, 2500.0, 5000.0, 7500.0, 10000.0}));
  CHECK(icl["histogram"]["dataPoints"][0]["bucketCounts"].back() == "4");
}

TEST_CASE("otel histograms: records without metrics and non-numeric values add nothing") {
  OtelHistogramBuilder b(context());
  b.add_record(json{{"metadata", json::object()}});
  b.add_record(json{{"metrics", {{"flag", {{"value", true}, {"unit", ""}}}, {"text", {{"value", "x"}}}}}});
  CHECK(b.metric_count() == 0);
  CHECK(b.request()["resourceMetrics"][0]["scopeMetrics"][0]["metrics"].empty());
}
