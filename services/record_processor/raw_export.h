// profile_export_raw.jsonl lines (spec §7.6) and the per-processor file they go to
// (raw_records/raw_records_<processor id>.jsonl; the records service merges them).
#pragma once
#include <string>

#include "metric_record.pb.h"
#include "raw_record.pb.h"

namespace aiperf::record_processor {

// {"metadata":{…},"start_perf_ns":n,"payload":{exact request JSON},"request_headers":{…},
//  "status":200,"response_headers":{…},"responses":[…],"error":{…}} without a newline.
// SSE bodies become {"perf_ns","packets":[{"name","value"}…]} per event; any other body one
// {"perf_ns","content_type","text"}; failed requests have no responses. "status" is
// omitted when no response arrived, "error" for successful requests.
std::string format_raw_record_jsonl(const proto::RawRecord& raw, const proto::RecordMetadata& metadata);

}  // namespace aiperf::record_processor
