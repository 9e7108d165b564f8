#include "metrics.h"

#include <sys/mman.h>

#include <algorithm>
#include <cstdio>
#include <new>
#include <stdexcept>

namespace aiperf::mock {
namespace {

constexpr const char* kPrefix = "mock_server_";

void append_header(std::string& out, const char* name, const char* type, const char* help) {
  out += "# HELP ";
  out += kPrefix;
  out += name;
  out += ' ';
  out += help;
  out += "\n# TYPE ";
  out += kPrefix;
  out += name;
  out += ' ';
  out += type;
  out += '\n';
}

void append_sample(std::string& out, const char* name, const std::string& labels, double value) {
  char number[64];
  std::snprintf(number, sizeof number, "%.17g", value);
  out += kPrefix;
  out += name;
  out += labels;
  out += ' ';
  out += number;
  out += '\n';
}

std::string format_bound(double bound) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", bound);
  return text;
}

}  // namespace

void LatencyHistogram::observe_ns(int64_t ns) {
  const double seconds = static_cast<double>(ns) * 1e-9;
  const auto bucket =
      std::lower_bound(kLatencyBuckets.begin(), kLatencyBuckets.end(), seconds) - kLatencyBuckets.begin();
  buckets[bucket].add(1);
  sum_ns.add(ns);
}

void MetricsShard::count_request(Route route, int status) {
  const auto code = std::find(kStatusCodes.begin(), kStatusCodes.end(), status) - kStatusCodes.begin();
  if (code == static_cast<std::ptrdiff_t>(kStatusCodes.size())) return;  // a status the server never sends
  requests[static_cast<size_t>(route)][code].add(1);
}

SharedShards make_shared_shards(size_t total) {
  void* memory = ::mmap(nullptr, sizeof(MetricsShard) * total, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (memory == MAP_FAILED) throw std::runtime_error("cannot map shared metrics memory");
  auto* shards = static_cast<MetricsShard*>(memory);
  for (size_t i = 0; i < total; ++i) new (&shards[i]) MetricsShard();
  return {shards, total, 0};
}

Metrics::Metrics(size_t shard_count, SharedShards shared) {
  if (!shared.shards) {
    for (size_t i = 0; i < shard_count; ++i) all_.push_back(owned_.emplace_back(std::make_unique<MetricsShard>()).get());
    return;
  }
  if (shared.first + shard_count > shared.total) throw std::logic_error("shared metrics shards out of range");
  for (size_t i = 0; i < shared.total; ++i) all_.push_back(&shared.shards[i]);
  first_ = shared.first;
}

std::string Metrics::render() const {
  auto total = [this](auto member) {
    int64_t sum = 0;
    for (const MetricsShard* shard : all_) sum += member(*shard).get();
    return sum;
  };
  std::string out;
  out.reserve(4096);

  append_header(out, "requests_total", "counter", "Requests answered, by endpoint and HTTP status.");
  for (size_t route = 0; route < kRouteCount; ++route) {
    for (size_t code = 0; code < kStatusCodes.size(); ++code) {
      const int64_t count =
          total([&](const MetricsShard& s) -> const ShardCounter& { return s.requests[route][code]; });
      if (count == 0) continue;
      const std::string labels = "{endpoint=\"" + std::string(kRouteLabels[route]) + "\",status=\"" +
                                 std::to_string(kStatusCodes[code]) + "\"}";
      append_sample(out, "requests_total", labels, static_cast<double>(count));
    }
  }
  append_header(out, "faults_injected_total", "counter", "Responses the --fault modes broke, by fault.");
  for (size_t f = 0; f < kFaultCount; ++f) {
    const int64_t count = total([&](const MetricsShard& s) -> const ShardCounter& { return s.faults[f]; });
    if (count == 0) continue;
    append_sample(out, "faults_injected_total", "{fault=\"" + std::string(kFaultNames[f]) + "\"}",
                  static_cast<double>(count));
  }
  struct ScalarSpec {
    const char* name;
    const char* type;
    const char* help;
    ShardCounter MetricsShard::*member;
  };
  static constexpr ScalarSpec kScalars[] = {
      {"prompt_tokens_total", "counter", "Prompt tokens received (character-based estimate).",
       &MetricsShard::prompt_tokens},
      {"generation_tokens_total", "counter", "Output tokens sent.", &MetricsShard::generation_tokens},
      {"requests_running", "gauge", "Generation requests in progress.", &MetricsShard::running},
  };
  for (const ScalarSpec& spec : kScalars) {
    append_header(out, spec.name, spec.type, spec.help);
    const int64_t value = total([&](const MetricsShard& s) -> const ShardCounter& { return s.*spec.member; });
    append_sample(out, spec.name, "", static_cast<double>(value));
  }

  struct HistogramSpec {
    const char* name;
    const char* help;
    LatencyHistogram MetricsShard::*member;
  };
  static constexpr HistogramSpec kHistograms[] = {
      {"time_to_first_token_seconds", "Request arrival to first token sent (streaming).",
       &MetricsShard::time_to_first_token},
      {"inter_token_latency_seconds", "Time between consecutive tokens sent (streaming).",
       &MetricsShard::inter_token_latency},
      {"request_latency_seconds", "Request arrival to last byte queued.", &MetricsShard::request_latency},
  };
  for (const HistogramSpec& spec : kHistograms) {
    append_header(out, spec.name, "histogram", spec.help);
    const std::string bucket_name = std::string(spec.name) + "_bucket";
    int64_t cumulative = 0;
    for (size_t b = 0; b <= kLatencyBuckets.size(); ++b) {
      cumulative +=
          total([&](const MetricsShard& s) -> const ShardCounter& { return (s.*spec.member).buckets[b]; });
      const std::string le = b < kLatencyBuckets.size() ? format_bound(kLatencyBuckets[b]) : "+Inf";
      append_sample(out, bucket_name.c_str(), "{le=\"" + le + "\"}", static_cast<double>(cumulative));
    }
    const int64_t sum_ns =
        total([&](const MetricsShard& s) -> const ShardCounter& { return (s.*spec.member).sum_ns; });
    append_sample(out, (std::string(spec.name) + "_sum").c_str(), "", static_cast<double>(sum_ns) * 1e-9);
    append_sample(out, (std::string(spec.name) + "_count").c_str(), "", static_cast<double>(cumulative));
  }
  return out;
}

}  // namespace aiperf::mock
