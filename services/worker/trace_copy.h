// http::Trace -> proto::HttpTrace, the worker's hand-over of HTTP trace data to the record
// processors (raw export, http_req_* metrics).
#pragma once
#include "http/http_client.h"
#include "raw_record.pb.h"

namespace aiperf::worker {

// Moves the trace's headers (the result is finished with them) and copies the rest.
void copy_trace(http::Trace&& trace, proto::HttpTrace* out);

}  // namespace aiperf::worker
