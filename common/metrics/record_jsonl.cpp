#include "metrics/record_jsonl.h"

#include <optional>
#include <vector>

#include "metrics/json_number.h"
#include "metrics/metric_registry.h"
#include "metrics/metric_units.h"

namespace aiperf::metrics {

namespace {

void key(std::string& out, const char* name) {
  out += '"';
  out += name;
  out += "\":";
}

void int_list(std::string& out, const google::protobuf::RepeatedField<int64_t>& values) {
  out += '[';
  for (int i = 0; i < values.size(); ++i) {
    if (i > 0) out += ',';
    out += std::to_string(values[i]);
  }
  out += ']';
}

}  // namespace

void append_spec_decode_acceptance(std::string& out, const proto::SpecDecodeAcceptance& s) {
  out += '{';
  key(out, "engine");
  out += "\"vllm\",";
  key(out, "mean_acceptance_length");
  append_json_float(out, s.mean_acceptance_length());
  out += ',';
  key(out, "draft_acceptance_rate");
  append_json_float(out, s.draft_acceptance_rate());
  out += ',';
  key(out, "acceptance_histogram");  // sparse {j: steps}, zero buckets left out
  out += '{';
  bool first = true;
  for (int j = 0; j < s.acceptance_histogram_size(); ++j) {
    if (s.acceptance_histogram(j) == 0) continue;
    if (!first) out += ',';
    first = false;
    out += '"' + std::to_string(j) + "\":" + std::to_string(s.acceptance_histogram(j));
  }
  out += "},";
  key(out, "num_accepted_draft_tokens");
  out += std::to_string(s.num_accepted_draft_tokens()) + ',';
  key(out, "num_draft_tokens");
  out += std::to_string(s.num_draft_tokens()) + ',';
  key(out, "num_spec_steps");
  out += std::to_string(s.num_spec_steps());
  // Unset members are left out, as AIPerf writes the record without its None fields.
  if (s.has_num_spec_tokens()) {
    out += ',';
    key(out, "num_spec_tokens");
    out += std::to_string(s.num_spec_tokens());
  }
  if (s.has_completion_tokens()) {
    out += ',';
    key(out, "completion_tokens");
    out += std::to_string(s.completion_tokens());
  }
  if (s.has_per_step_accepted()) {
    out += ',';
    key(out, "per_step_accepted");
    int_list(out, s.per_step_accepted());
  }
  if (s.has_per_step_drafted()) {
    out += ',';
    key(out, "per_step_drafted");
    int_list(out, s.per_step_drafted());
  }
  out += '}';
}

void append_record_metadata(std::string& out, const proto::RecordMetadata& md) {
  out += '{';
  key(out, "session_num");
  out += std::to_string(md.session_num());
  out += ',';
  key(out, "x_request_id");
  append_json_string(out, md.x_request_id());
  out += ',';
  key(out, "x_correlation_id");
  append_json_string(out, md.x_correlation_id());
  out += ',';
  key(out, "conversation_id");
  append_json_string(out, md.conversation_id());
  out += ',';
  key(out, "turn_index");
  out += std::to_string(md.turn_index());
  out += ',';
  key(out, "credit_issued_ns");
  out += std::to_string(md.credit_issued_ns());
  out += ',';
  key(out, "request_start_ns");
  out += std::to_string(md.request_start_ns());
  if (md.has_request_ack_ns()) {
    out += ',';
    key(out, "request_ack_ns");
    out += std::to_string(md.request_ack_ns());
  }
  out += ',';
  key(out, "request_end_ns");
  out += std::to_string(md.request_end_ns());
  out += ',';
  key(out, "worker_id");
  append_json_string(out, md.worker_id());
  out += ',';
  key(out, "record_processor_id");
  append_json_string(out, md.record_processor_id());
  out += ',';
  key(out, "benchmark_phase");
  out += md.phase() == proto::PHASE_WARMUP ? "\"warmup\"" : "\"profiling\"";
  out += ',';
  key(out, "was_cancelled");
  out += md.was_cancelled() ? "true" : "false";
  if (md.has_cancellation_time_ns()) {
    out += ',';
    key(out, "cancellation_time_ns");
    out += std::to_string(md.cancellation_time_ns());
  }
  // Not in AIPerf (its schedules carry no intent): last, so AIPerf's keys keep their order.
  if (md.intended_start_ns() != 0) {
    out += ',';
    key(out, "intended_start_ns");
    out += std::to_string(md.intended_start_ns());
  }
  out += '}';
}

void append_display_value(std::string& out, const MetricDescriptor& m, double base_value) {
  if (m.integer_display()) {
    append_json_int(out, base_value);
  } else {
    append_json_float(out, units::convert(base_value, m.unit, m.display_unit));
  }
}

namespace {

// Aggregate metrics AIPerf writes per record (those without NO_INDIVIDUAL_RECORDS, applicable
// and exported in this context: good_request_count under --goodput). The context is fixed for
// a run, so the list is worked out when it changes, not for every line (a hot path).
const std::vector<const MetricDescriptor*>& per_record_aggregates(const MetricContext& ctx) {
  thread_local std::optional<MetricContext> cached_ctx;
  thread_local std::vector<const MetricDescriptor*> cached;
  if (!cached_ctx || !(*cached_ctx == ctx)) {
    cached.clear();
    for (const MetricDescriptor* m : builtin_metrics().applicable(ctx)) {
      if (m->kind == MetricKind::kAggregate && !has_flags(m->flags, flags::kNoIndividualRecords) &&
          exported(m->flags, ctx))
        cached.push_back(m);
    }
    cached_ctx = ctx;
  }
  return cached;
}

void append_metrics(std::string& out, const proto::MetricRecord& rec, const MetricContext& ctx) {
  const MetricRegistry& registry = builtin_metrics();
  out += '{';
  bool first = true;
  for (const proto::MetricValue& mv : rec.metrics()) {
    const MetricDescriptor* m = registry.find(mv.tag());
    if (!m || has_flags(m->flags, flags::kNoIndividualRecords) || !exported(m->flags, ctx)) {
      continue;
    }
    if (!first) out += ',';
    first = false;
    append_json_string(out, mv.tag());
    out += ":{\"value\":";
    if (mv.is_list()) {
      out += '[';
      for (int i = 0; i < mv.values_size(); ++i) {
        if (i) out += ',';
        append_display_value(out, *m, mv.values(i));
      }
      out += ']';
    } else {
      append_display_value(out, *m, mv.value());
    }
    out += ",\"unit\":";
    append_json_string(out, std::string(m->display_unit));
    out += '}';
  }
  // This record's contribution to each per-record aggregate, on the records it folds over
  // (ERROR_ONLY ones on error records, the others on valid ones), as the aggregator adds it.
  const bool is_error = rec.has_error();
  for (const MetricDescriptor* m : per_record_aggregates(ctx)) {
    if (has_flags(m->flags, flags::kErrorOnly) != is_error) continue;
    const std::optional<double> v = m->aggregate(rec, ctx);
    if (!v) continue;
    if (!first) out += ',';
    first = false;
    append_json_string(out, std::string(m->tag));
    out += ":{\"value\":";
    append_display_value(out, *m, *v);
    out += ",\"unit\":";
    append_json_string(out, std::string(m->display_unit));
    out += '}';
  }
  out += '}';
}

}  // namespace

void append_record_error(std::string& out, const proto::ErrorDetails& e) {
  out += '{';
  if (e.has_code()) {
    key(out, "code");
    out += std::to_string(e.code());
    out += ',';
  }
  key(out, "type");
  append_json_string(out, e.type());
  out += ',';
  key(out, "message");
  append_json_string(out, e.message());
  out += '}';
}

std::string format_record_jsonl(const proto::MetricRecord& rec, const MetricContext& ctx) {
  std::string out;
  out.reserve(1024);
  append_record_jsonl(out, rec, ctx);
  return out;
}

void append_record_jsonl(std::string& out, const proto::MetricRecord& rec, const MetricContext& ctx) {
  out += '{';
  key(out, "metadata");
  append_record_metadata(out, rec.metadata());
  out += ',';
  key(out, "metrics");
  append_metrics(out, rec, ctx);
  if (!rec.trace_data_json().empty()) {
    out += ',';
    key(out, "trace_data");
    out += rec.trace_data_json();
  }
  if (rec.has_spec_decode()) {
    out += ',';
    key(out, "spec_decode_acceptance");
    append_spec_decode_acceptance(out, rec.spec_decode());
  }
  if (rec.has_error()) {
    out += ',';
    key(out, "error");
    append_record_error(out, rec.error());
  }
  out += '}';
}

}  // namespace aiperf::metrics
