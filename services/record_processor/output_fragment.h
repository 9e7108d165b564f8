// --export-outputs-json: one line per profiling record with the generated text and a few
// per-request metrics (AIPerf 0.13's outputs.json entries). Each record processor writes its
// lines to util::kOutputFragmentsDir/output_fragments_<processor id>.jsonl; the records service
// merges them into outputs.json (records/outputs_json.h).
#pragma once
#include <string>
#include <string_view>

#include "metric_record.pb.h"

namespace aiperf::record_processor {

// {"session_num","conversation_id","turn_index","x_request_id","request_start_ns",
//  "request_end_ns","metrics":{…},"response_text"} without a newline, keys in the order of
// the reference's entries. "metrics" holds, of input_sequence_length, output_token_count,
// output_sequence_length, request_latency, time_to_first_token and inter_token_latency, those
// the record has, in display units (ms, tokens). "response_text" is the concatenation of every
// response's reasoning then content, or null when that is empty (error records).
std::string format_output_fragment(const proto::MetricRecord& rec, std::string_view response_text);

}  // namespace aiperf::record_processor
