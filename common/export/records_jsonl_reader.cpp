#include "export/records_jsonl_reader.h"

#include <cmath>
#include <fstream>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "metrics/metric_registry.h"
#include "metrics/metric_units.h"

namespace aiperf::exporting {
namespace {

using nlohmann::json;

// An integer member (0 when absent). A float is refused: converting one out of range is UB.
int64_t int_field(const json& j, const char* key) {
  if (!j.contains(key)) return 0;
  const json& v = j.at(key);
  if (!v.is_number_integer()) throw std::invalid_argument(std::string(key) + ": must be an integer");
  return v.get<int64_t>();
}

std::string string_field(const json& j, const char* key) {
  return j.contains(key) ? j.at(key).get<std::string>() : std::string();
}

// Display value from the file -> the metric's base unit. Integer metrics (ns, tokens) are
// integral in base units, so rounding undoes the ms -> ns floating-point residue.
double to_base(const metrics::MetricDescriptor& m, double display) {
  const double v = metrics::units::convert(display, m.display_unit, m.unit);
  return m.value_type == metrics::ValueType::kInt ? std::round(v) : v;
}

}  // namespace

proto::MetricRecord parse_record_jsonl(const std::string& line) {
  const json j = json::parse(line);
  const json& md = j.at("metadata");
  proto::MetricRecord rec;
  proto::RecordMetadata* out = rec.mutable_metadata();
  out->set_session_num(static_cast<uint64_t>(int_field(md, "session_num")));
  out->set_x_request_id(string_field(md, "x_request_id"));
  out->set_x_correlation_id(string_field(md, "x_correlation_id"));
  out->set_conversation_id(string_field(md, "conversation_id"));
  out->set_turn_index(static_cast<uint32_t>(int_field(md, "turn_index")));
  out->set_credit_issued_ns(int_field(md, "credit_issued_ns"));
  out->set_request_start_ns(int_field(md, "request_start_ns"));
  if (md.contains("request_ack_ns")) out->set_request_ack_ns(int_field(md, "request_ack_ns"));
  out->set_request_end_ns(int_field(md, "request_end_ns"));
  out->set_worker_id(string_field(md, "worker_id"));
  out->set_record_processor_id(string_field(md, "record_processor_id"));
  out->set_phase(string_field(md, "benchmark_phase") == "warmup" ? proto::PHASE_WARMUP : proto::PHASE_PROFILING);
  out->set_was_cancelled(md.value("was_cancelled", false));
  if (md.contains("cancellation_time_ns")) out->set_cancellation_time_ns(int_field(md, "cancellation_time_ns"));
  out->set_intended_start_ns(int_field(md, "intended_start_ns"));

  const metrics::MetricRegistry& registry = metrics::builtin_metrics();
  const json metrics_obj = j.value("metrics", json::object());  // named: items() must not outlive it
  for (const auto& [tag, entry] : metrics_obj.items()) {
    const metrics::MetricDescriptor* m = registry.find(tag);
    if (!m) continue;
    const json& value = entry.at("value");
    proto::MetricValue* mv = rec.add_metrics();
    mv->set_tag(tag);
    if (value.is_array()) {
      mv->set_is_list(true);
      for (const json& v : value) mv->add_values(to_base(*m, v.get<double>()));
    } else {
      mv->set_value(to_base(*m, value.get<double>()));
    }
  }

  // The request's spec-decode acceptance record: its histogram feeds the pooled one.
  if (auto sd = j.find("spec_decode_acceptance"); sd != j.end() && sd->is_object()) {
    proto::SpecDecodeAcceptance* s = rec.mutable_spec_decode();
    s->set_mean_acceptance_length(sd->value("mean_acceptance_length", 0.0));
    s->set_draft_acceptance_rate(sd->value("draft_acceptance_rate", 0.0));
    if (auto h = sd->find("acceptance_histogram"); h != sd->end() && h->is_object()) {
      for (const auto& [bucket, steps] : h->items()) {
        const auto j_index = static_cast<int>(std::stol(bucket));
        if (j_index < 0 || j_index > 4096) throw std::invalid_argument("acceptance_histogram: bucket " + bucket);
        while (s->acceptance_histogram_size() <= j_index) s->add_acceptance_histogram(0);
        s->set_acceptance_histogram(j_index, steps.get<int64_t>());
      }
    }
    s->set_num_accepted_draft_tokens(sd->value("num_accepted_draft_tokens", int64_t{0}));
    s->set_num_draft_tokens(sd->value("num_draft_tokens", int64_t{0}));
    s->set_num_spec_steps(sd->value("num_spec_steps", int64_t{0}));
    if (sd->contains("num_spec_tokens")) s->set_num_spec_tokens(int_field(*sd, "num_spec_tokens"));
    if (sd->contains("completion_tokens")) s->set_completion_tokens(int_field(*sd, "completion_tokens"));
  }

  if (j.contains("error")) {
    const json& e = j.at("error");
    proto::ErrorDetails* err = rec.mutable_error();
    if (e.contains("code") && !e.at("code").is_null()) err->set_code(static_cast<int32_t>(int_field(e, "code")));
    err->set_type(string_field(e, "type"));
    err->set_message(string_field(e, "message"));
  }
  return rec;
}

JsonlSpan read_records_jsonl(const std::string& path, metrics::Aggregator& aggregator,
                             const std::function<void(const std::string&)>& on_line, bool allow_torn_tail) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path);
  JsonlSpan span;
  std::string line;
  for (size_t n = 1; std::getline(in, line); ++n) {
    if (line.empty()) continue;
    if (allow_torn_tail && in.eof()) break;  // no newline after it: cut off mid-write
    proto::MetricRecord rec;
    try {
      rec = parse_record_jsonl(line);
    } catch (const std::exception& e) {
      throw std::runtime_error(path + " line " + std::to_string(n) + ": " + e.what());
    }
    const proto::RecordMetadata& md = rec.metadata();
    if (md.phase() == proto::PHASE_PROFILING) {
      if (span.start_ns == 0 || md.request_start_ns() < span.start_ns) span.start_ns = md.request_start_ns();
      span.end_ns = std::max(span.end_ns, md.request_end_ns());
      span.cancelled = span.cancelled || md.was_cancelled();
    }
    aggregator.add(rec);
    ++span.records;
    if (on_line) on_line(line);
  }
  if (in.bad()) throw std::runtime_error("cannot read " + path);
  return span;
}

}  // namespace aiperf::exporting
