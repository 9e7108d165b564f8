// One line of server_metrics_export.jsonl as AIPerf 0.13 writes it (its slim scrape record): the
// families as its prometheus_client-based collector keeps them, numbers as orjson prints them.
#include <algorithm>
#include <cmath>
#include <map>
#include <optional>

#include "metrics/json_number.h"
#include "prometheus/series.h"
#include "server_metrics.h"

namespace aiperf::telemetry {
namespace {

namespace pm = prometheus;

// A sample as 0.13 records it: labels (sorted; none when empty), then either a value or a
// histogram's buckets (page order, "+Inf" for a bucket without "le"), sum and count.
struct JsonlSample {
  pm::Labels labels;
  std::optional<double> value;
  std::vector<std::pair<std::string, double>> buckets;
  std::optional<double> sum, count;
};

// Families 0.13's collector drops: creation and uptime timestamps, not metrics.
bool metadata_family(const std::string& name) {
  return name.ends_with("_created") || name.ends_with("_uptime") || name.find("_uptime_") != std::string::npos;
}

// Counters, gauges, untyped: one sample per label set (the last value wins, at the place of the
// first), without `_created` samples and non-finite values.
std::vector<JsonlSample> simple_samples(const pm::Family& fam) {
  std::vector<JsonlSample> out;
  std::map<std::string, size_t> at;
  for (const pm::Sample& s : fam.samples) {
    if (s.name.ends_with("_created") || !std::isfinite(s.value)) continue;
    auto [it, inserted] = at.try_emplace(pm::label_key(s.labels), out.size());
    if (inserted) out.push_back(JsonlSample{pm::sorted_labels(s.labels), s.value, {}, {}, {}});
    out[it->second].value = s.value;
  }
  return out;
}

// Histograms: one sample per label set without "le"; a label set with any non-finite value is
// dropped whole.
std::vector<JsonlSample> histogram_samples(const pm::Family& fam) {
  std::vector<JsonlSample> out;
  std::map<std::string, size_t> at;
  std::vector<bool> tainted;
  for (const pm::Sample& s : fam.samples) {
    const bool bucket = s.name.ends_with("_bucket"), sum = s.name.ends_with("_sum"), count = s.name.ends_with("_count");
    if (!bucket && !sum && !count) continue;  // prometheus_client's histogram has no other samples
    const std::string key = pm::label_key(s.labels, "le");
    auto [it, inserted] = at.try_emplace(key, out.size());
    if (inserted) {
      out.push_back(JsonlSample{pm::sorted_labels(s.labels, "le"), std::nullopt, {}, {}, {}});
      tainted.push_back(false);
    }
    JsonlSample& h = out[it->second];
    if (!std::isfinite(s.value)) {
      tainted[it->second] = true;
    } else if (bucket) {
      const std::string* le = s.label("le");
      const std::string bound = le ? *le : "+Inf";
      auto b = std::find_if(h.buckets.begin(), h.buckets.end(), [&](const auto& e) { return e.first == bound; });
      if (b == h.buckets.end()) h.buckets.emplace_back(bound, s.value);
      else b->second = s.value;
    } else if (sum) {
      h.sum = s.value;
    } else {
      h.count = s.value;
    }
  }
  std::vector<JsonlSample> kept;
  for (size_t i = 0; i < out.size(); ++i)
    if (!tainted[i] && (!out[i].buckets.empty() || out[i].sum || out[i].count)) kept.push_back(std::move(out[i]));
  return kept;
}

void append_sample(std::string& out, const JsonlSample& s) {
  out += '{';
  bool first = true;
  auto key = [&](const char* k) {
    if (!first) out += ',';
    first = false;
    out += '"';
    out += k;
    out += "\":";
  };
  if (!s.labels.empty()) {
    key("labels");
    out += '{';
    for (size_t i = 0; i < s.labels.size(); ++i) {
      if (i) out += ',';
      metrics::append_json_string(out, s.labels[i].first);
      out += ':';
      metrics::append_json_string(out, s.labels[i].second);
    }
    out += '}';
  }
  if (s.value) {
    key("value");
    metrics::append_json_float(out, *s.value);
  } else {
    key("buckets");
    out += '{';
    for (size_t i = 0; i < s.buckets.size(); ++i) {
      if (i) out += ',';
      metrics::append_json_string(out, s.buckets[i].first);
      out += ':';
      metrics::append_json_float(out, s.buckets[i].second);
    }
    out += '}';
    if (s.sum) {
      key("sum");
      metrics::append_json_float(out, *s.sum);
    }
    if (s.count) {
      key("count");
      metrics::append_json_float(out, *s.count);
    }
  }
  out += '}';
}

}  // namespace

std::string jsonl_record(const JsonlScrape& scrape, const prometheus::Exposition& page) {
  // Family name -> samples, in order of first appearance (a later family of the same name
  // replaces an earlier one in its place, as in 0.13's dict).
  std::vector<std::pair<std::string, std::vector<JsonlSample>>> families;
  for (const pm::Family& fam : page.families) {
    std::string name = fam.name;  // prometheus_client names a counter family without "_total"
    if (fam.type == pm::MetricType::kCounter && name.size() > 6 && name.ends_with("_total"))
      name.resize(name.size() - 6);
    if (metadata_family(name) || fam.type == pm::MetricType::kSummary) continue;
    std::vector<JsonlSample> samples =
        fam.type == pm::MetricType::kHistogram ? histogram_samples(fam) : simple_samples(fam);
    // Families without samples are left out, and so are "_info" families (metadata, in the
    // exports only).
    if (samples.empty() || name.ends_with("_info")) continue;
    auto it = std::find_if(families.begin(), families.end(), [&](const auto& f) { return f.first == name; });
    if (it == families.end()) families.emplace_back(std::move(name), std::move(samples));
    else it->second = std::move(samples);
  }
  if (families.empty()) return {};  // 0.13 keeps no record of an empty scrape

  std::string out = "{\"endpoint_url\":";
  metrics::append_json_string(out, scrape.endpoint_url);
  out += ",\"timestamp_ns\":" + std::to_string(scrape.timestamp_ns);
  out += ",\"endpoint_latency_ns\":" + std::to_string(scrape.latency_ns);
  out += ",\"metrics\":{";
  for (size_t i = 0; i < families.size(); ++i) {
    if (i) out += ',';
    metrics::append_json_string(out, families[i].first);
    out += ":[";
    for (size_t j = 0; j < families[i].second.size(); ++j) {
      if (j) out += ',';
      append_sample(out, families[i].second[j]);
    }
    out += ']';
  }
  out += "},\"request_sent_ns\":" + std::to_string(scrape.request_sent_ns);
  if (scrape.first_byte_ns) out += ",\"first_byte_ns\":" + std::to_string(*scrape.first_byte_ns);
  if (const ScrapePhase* p = scrape.phase) {
    out += ",\"benchmark_phase\":";
    metrics::append_json_string(out, p->phase);
    out += ",\"phase_index\":" + std::to_string(p->phase_index);
    if (p->profiling_index) out += ",\"profiling_index\":" + std::to_string(*p->profiling_index);
    out += ",\"phase_name\":";
    metrics::append_json_string(out, p->name);
    out += ",\"phase_kind\":";
    metrics::append_json_string(out, p->kind);
  }
  out += '}';
  return out;
}

}  // namespace aiperf::telemetry
