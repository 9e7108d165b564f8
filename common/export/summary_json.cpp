#include "export/summary_json.h"

#include <cmath>
#include <cstdio>
#include <ctime>
#include <string_view>
#include <vector>

#include "util/output_paths.h"
#include "metrics/json_number.h"
#include "metrics/metric_flags.h"

namespace aiperf::exporting {

namespace {

using metrics::append_json_float;
using metrics::append_json_int;
using metrics::append_json_string;

// Fields of AIPerf's JsonExportData declared before telemetry_data, in declaration order.
constexpr std::string_view kPredeclared[] = {
    "request_throughput",     "request_latency",
    "request_count",          "time_to_first_token",
    "time_to_second_token",   "inter_token_latency",
    "output_token_throughput", "output_token_throughput_per_user",
    "output_sequence_length", "input_sequence_length",
    "goodput",                "good_request_count",
    "output_token_count",     "reasoning_token_count",
    "min_request_timestamp",  "max_response_timestamp",
    "inter_chunk_latency",    "total_output_tokens",
    "total_reasoning_tokens", "benchmark_duration",
    "total_isl",              "total_osl",
    "error_request_count",    "error_isl",
    "total_error_isl",
};

bool predeclared(const std::string& tag) {
  for (auto p : kPredeclared) {
    if (p == tag) return true;
  }
  return false;
}

// Writes `"key": ` entries of the top-level object, with the separators between them.
class TopLevel {
 public:
  explicit TopLevel(std::string& out) : out_(out) { out_ += "{"; }
  std::string& key(std::string_view k) {
    out_ += first_ ? "\n  " : ",\n  ";
    first_ = false;
    append_json_string(out_, std::string(k));
    out_ += ": ";
    return out_;
  }
  void close() { out_ += first_ ? "}" : "\n}"; }

 private:
  std::string& out_;
  bool first_ = true;
};

void append_metric(std::string& out, const proto::MetricResult& m) { append_metric_json(out, m, 1); }

void append_error_summary(std::string& out, const proto::ProfileResults& results) {
  if (results.error_summary_size() == 0) {
    out += "[]";
    return;
  }
  out += "[";
  for (int i = 0; i < results.error_summary_size(); ++i) {
    const auto& e = results.error_summary(i);
    const auto& d = e.error_details();
    out += i ? ",\n    {\n" : "\n    {\n";
    out += "      \"error_details\": {\n";
    if (d.has_code()) out += "        \"code\": " + std::to_string(d.code()) + ",\n";
    out += "        \"type\": ";
    append_json_string(out, d.type());
    out += ",\n        \"message\": ";
    append_json_string(out, d.message());
    out += "\n      },\n      \"count\": " + std::to_string(e.count()) + "\n    }";
  }
  out += "\n  ]";
}

std::string nested_json(const nlohmann::ordered_json& j) { return nested_json_at(j, 1); }

}  // namespace

void append_metric_json(std::string& out, const proto::MetricResult& m, int depth) {
  const std::string pad(2 * static_cast<std::size_t>(depth), ' ');
  out += "{\n" + pad + "  \"unit\": ";
  append_json_string(out, m.unit());
  auto stat = [&](const char* name, bool present, double v, bool integral) {
    if (!present) return;
    out += ",\n" + pad + "  \"";
    out += name;
    out += "\": ";
    integral ? append_json_int(out, v) : append_json_float(out, v);
  };
  // AIPerf 0.13 writes every statistic as a float ("request_count": {"avg": 10.0}, an ISL's
  // min 50.0): avg and the percentiles are float fields, and min/max/sum come from float
  // arrays (scalars have none). Only the sample count is an integer.
  stat("avg", m.has_avg(), m.avg(), false);
  stat("p1", m.has_p1(), m.p1(), false);
  stat("p5", m.has_p5(), m.p5(), false);
  stat("p10", m.has_p10(), m.p10(), false);
  stat("p25", m.has_p25(), m.p25(), false);
  stat("p50", m.has_p50(), m.p50(), false);
  stat("p75", m.has_p75(), m.p75(), false);
  stat("p90", m.has_p90(), m.p90(), false);
  stat("p95", m.has_p95(), m.p95(), false);
  stat("p99", m.has_p99(), m.p99(), false);
  stat("min", m.has_min(), m.min(), false);
  stat("max", m.has_max(), m.max(), false);
  stat("std", m.has_std(), m.std(), false);
  // AIPerf >= 0.7 ends a record metric's statistics with the sample count and the sum.
  // Count 0: a result injected after aggregation (network_adjusted_*), which has none there.
  stat("count", m.is_record_metric() && m.count() > 0, static_cast<double>(m.count()), true);
  stat("sum", m.is_record_metric() && m.has_sum(), m.sum(), false);
  // AIPerf's accuracy.* results: the responses counted and passed (or unparsed), both integers.
  if (!m.is_record_metric() && m.tag().rfind("accuracy.", 0) == 0) {
    stat("count", true, static_cast<double>(m.count()), true);
    stat("sum", m.has_sum(), m.sum(), true);
  }
  out += "\n" + pad + "}";
}

// nlohmann's indent-2 dump nested `depth` levels deeper. Floats inside the user config keep
// nlohmann's formatting, which agrees with ryu for the round values configs hold.
std::string nested_json_at(const nlohmann::ordered_json& j, int depth) {
  const std::string dumped = j.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
  const std::string pad(2 * static_cast<std::size_t>(depth), ' ');
  std::string out;
  for (char c : dumped) {
    out += c;
    if (c == '\n') out += pad;
  }
  return out;
}

std::string local_iso_datetime(int64_t wall_ns) {
  // Same float path as Python: seconds as a double, microseconds rounded half-even.
  const double t = static_cast<double>(wall_ns) / 1e9;
  double whole = 0;
  const double frac = std::modf(t, &whole);
  double micros = std::nearbyint(frac * 1e6);
  if (micros >= 1e6) {
    whole += 1;
    micros -= 1e6;
  }
  const auto secs = static_cast<std::time_t>(whole);
  std::tm tm{};
  localtime_r(&secs, &tm);
  char buf[64];
  std::snprintf(buf, sizeof buf, "%04d-%02d-%02dT%02d:%02d:%02d", tm.tm_year + 1900, tm.tm_mon + 1,
                tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec);
  std::string out = buf;
  if (micros != 0) {
    std::snprintf(buf, sizeof buf, ".%06d", static_cast<int>(micros));
    out += buf;
  }
  return out;
}

std::string format_summary_json(const proto::ProfileResults& results, const SummaryInfo& info) {
  std::vector<const proto::MetricResult*> exported;
  for (const auto& m : results.records()) {
    if (!metrics::has_any_flag(m.flags(), metrics::flags::kHiddenFromExports)) exported.push_back(&m);
  }
  auto lookup = [&](std::string_view tag) -> const proto::MetricResult* {
    for (const auto* m : exported) {
      if (m->tag() == tag) return m;
    }
    return nullptr;
  };

  std::string out;
  TopLevel top(out);
  top.key("schema_version") += "\"1.0\"";
  append_json_string(top.key("aiperf_version"), info.aiperf_version);
  append_json_string(top.key("benchmark_id"), info.benchmark_id);
  for (auto tag : kPredeclared) {
    if (const auto* m = lookup(tag)) append_metric(top.key(tag), *m);
  }
  if (!info.telemetry_data_json.empty())
    top.key("telemetry_data") += nested_json(nlohmann::ordered_json::parse(info.telemetry_data_json));
  if (!info.input_config.is_null()) top.key("input_config") += nested_json(info.input_config);
  top.key("was_cancelled") += info.was_cancelled ? "true" : "false";
  append_error_summary(top.key("error_summary"), results);
  if (info.start_ns) append_json_string(top.key("start_time"), local_iso_datetime(info.start_ns));
  if (info.end_ns) append_json_string(top.key("end_time"), local_iso_datetime(info.end_ns));
  if (results.pooled_spec_decode_histogram_size() > 0) {
    // AIPerf 0.13's {j: steps} map: string keys, zero buckets left out.
    std::string& h = top.key("pooled_spec_decode_acceptance_histogram");
    h += '{';
    bool first = true;
    for (int j = 0; j < results.pooled_spec_decode_histogram_size(); ++j) {
      if (results.pooled_spec_decode_histogram(j) == 0) continue;
      h += first ? "\n    \"" : ",\n    \"";
      first = false;
      h += std::to_string(j) + "\": " + std::to_string(results.pooled_spec_decode_histogram(j));
    }
    h += "\n  }";
  }
  for (const auto* m : exported) {
    if (!predeclared(m->tag())) append_metric(top.key(m->tag()), *m);
  }
  if (!info.client_server.is_null()) top.key("client_server") += nested_json(info.client_server);
  if (!info.metadata.is_null()) top.key("metadata") += nested_json(info.metadata);
  top.close();
  return out;
}

void write_summary_json(const std::string& path, const proto::ProfileResults& results,
                        const SummaryInfo& info) {
  util::write_file_atomically(path, format_summary_json(results, info));
}

}  // namespace aiperf::exporting
