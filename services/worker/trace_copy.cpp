#include "trace_copy.h"

namespace aiperf::worker {

namespace {

void move_headers(http::Headers&& headers, google::protobuf::RepeatedPtrField<proto::HttpHeader>* out) {
  out->Reserve(static_cast<int>(headers.size()));
  for (auto& [name, value] : headers) {
    proto::HttpHeader* h = out->Add();
    h->set_name(std::move(name));
    h->set_value(std::move(value));
  }
}

}  // namespace

void copy_trace(http::Trace&& trace, proto::HttpTrace* out) {
  out->set_send_start_perf_ns(trace.send_start_perf_ns);
  out->set_send_end_perf_ns(trace.send_end_perf_ns);
  out->set_bytes_sent(trace.bytes_sent);
  move_headers(std::move(trace.request_headers), out->mutable_request_headers());
  move_headers(std::move(trace.response_headers), out->mutable_response_headers());
}

}  // namespace aiperf::worker
