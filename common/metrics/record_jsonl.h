// One line of profile_export.jsonl (spec §7.5).
#pragma once
#include <string>

#include "metric_record.pb.h"
#include "metrics/metric_context.h"
#include "metrics/metric_descriptor.h"

namespace aiperf::metrics {

// Compact JSON object {"metadata":{…},"metrics":{…},"error":{…}} without a trailing newline.
// Metadata keys in AIPerf order, optional ones (request_ack_ns, cancellation_time_ns) only
// when set; metrics in display units as {"value":v,"unit":u} (lists as arrays), leaving out
// NO_INDIVIDUAL_RECORDS metrics, INTERNAL/EXPERIMENTAL ones unless ctx shows them, and tags
// the registry does not know; then this record's value of each aggregate metric without
// NO_INDIVIDUAL_RECORDS (good_request_count under --goodput: 1 or 0, valid records only);
// "trace_data" (rec.trace_data_json) when set; "spec_decode_acceptance" when the record has
// one; "error" only for error records, its "code" only when set.
std::string format_record_jsonl(const proto::MetricRecord& rec, const MetricContext& ctx);
// The same line appended to `out`.
void append_record_jsonl(std::string& out, const proto::MetricRecord& rec, const MetricContext& ctx);

// The "metadata" object of a line (also used by profile_export_raw.jsonl).
void append_record_metadata(std::string& out, const proto::RecordMetadata& md);

// `base_value` of metric `m` in its display unit, as a JSON number (integers stay integers).
void append_display_value(std::string& out, const MetricDescriptor& m, double base_value);

// The "spec_decode_acceptance" object of a line: AIPerf 0.13's SpecDecodeAcceptanceRecord
// (engine "vllm", the histogram as a sparse {"j": steps} map, unset members left out).
void append_spec_decode_acceptance(std::string& out, const proto::SpecDecodeAcceptance& s);

// The "error" object of a line: code (when set), type, message.
void append_record_error(std::string& out, const proto::ErrorDetails& e);

}  // namespace aiperf::metrics
