// http::Trace -> proto::HttpTrace, the worker's hand-over of HTTP trace data to the record
// processors (raw export, http_req_* metrics).
#pragma once
#include "http/http_client.h"
#include "raw_record.pb.h"

namespace aiperf::worker {

// Copies the trace's timings and addresses; moves its headers too (the result is finished with
// them) when `with_headers`: only the HTTP trace and raw exports print them, and a dozen
// header messages per record are most of what a record costs to build, send and parse.
void copy_trace(http::Trace&& trace, proto::HttpTrace* out, bool with_headers);

}  // namespace aiperf::worker
