// The worker's HTTP trace (RawRecord.trace plus the timestamped body chunks) seen two ways:
// as the phases the http_req_* metrics measure, and as the "trace_data" object AIPerf writes
// into profile_export.jsonl with --export-http-trace.
#pragma once
#include <string>

#include "metrics/parsed_record.h"
#include "raw_record.pb.h"

namespace aiperf::record_processor {

// Phases for the http_req_* metrics; nullopt when the record carries no trace (the request
// was never handed to the HTTP client).
std::optional<metrics::HttpTiming> http_timing(const proto::RawRecord& raw);

// AIPerf's AioHttpTraceDataExport as compact JSON: steady timestamps turned into wall clock
// through the record's start anchor, keys in pydantic order with unset values left out, the
// k6 durations (sending_ns … connecting_ns) last, credential headers "<redacted>". Empty when
// the record carries no trace.
std::string format_trace_data(const proto::RawRecord& raw);

}  // namespace aiperf::record_processor
