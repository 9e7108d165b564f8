#include "output_fragment.h"

#include <nlohmann/json.hpp>

#include "metrics/json_number.h"
#include "metrics/metric_registry.h"
#include "metrics/record_jsonl.h"

namespace aiperf::record_processor {

namespace {

// The reference's allow-list, in its order (post_processors/outputs_json_record_processor.py).
constexpr const char* kMetricAllowList[] = {"input_sequence_length", "output_token_count",
                                            "output_sequence_length", "request_latency",
                                            "time_to_first_token", "inter_token_latency"};

const proto::MetricValue* find_value(const proto::MetricRecord& rec, std::string_view tag) {
  for (const proto::MetricValue& mv : rec.metrics()) {
    if (mv.tag() == tag) return &mv;
  }
  return nullptr;
}

}  // namespace

std::string format_output_fragment(const proto::MetricRecord& rec, std::string_view response_text) {
  using metrics::append_json_string;
  const proto::RecordMetadata& md = rec.metadata();
  std::string out = "{\"session_num\":" + std::to_string(md.session_num());
  out += ",\"conversation_id\":";
  append_json_string(out, md.conversation_id());
  out += ",\"turn_index\":" + std::to_string(md.turn_index());
  out += ",\"x_request_id\":";
  append_json_string(out, md.x_request_id());
  out += ",\"request_start_ns\":" + std::to_string(md.request_start_ns());
  out += ",\"request_end_ns\":" + std::to_string(md.request_end_ns());
  out += ",\"metrics\":{";
  const metrics::MetricRegistry& registry = metrics::builtin_metrics();
  bool first = true;
  for (const char* tag : kMetricAllowList) {
    const proto::MetricValue* mv = find_value(rec, tag);
    const metrics::MetricDescriptor* m = registry.find(tag);
    if (!mv || !m || mv->is_list()) continue;
    if (!first) out += ',';
    first = false;
    append_json_string(out, tag);
    out += ':';
    metrics::append_display_value(out, *m, mv->value());
  }
  out += "},\"response_text\":";
  if (response_text.empty()) {
    out += "null";
  } else {
    // Generated text may hold invalid UTF-8 (a server's bytes): replaced, so the line stays JSON.
    out += nlohmann::json(std::string(response_text)).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  }
  out += '}';
  return out;
}

}  // namespace aiperf::record_processor
