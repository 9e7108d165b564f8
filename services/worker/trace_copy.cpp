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

void copy_trace(http::Trace&& trace, proto::HttpTrace* out, bool with_headers) {
  out->set_send_start_perf_ns(trace.send_start_perf_ns);
  out->set_send_end_perf_ns(trace.send_end_perf_ns);
  out->set_bytes_sent(trace.bytes_sent);
  out->set_pool_wait_start_perf_ns(trace.pool_wait_start_perf_ns);
  out->set_pool_wait_end_perf_ns(trace.pool_wait_end_perf_ns);
  out->set_connection_reused_perf_ns(trace.connection_reused_perf_ns);
  out->set_dns_cache_hit_perf_ns(trace.dns_cache_hit_perf_ns);
  out->set_dns_cache_miss_perf_ns(trace.dns_cache_miss_perf_ns);
  out->set_dns_start_perf_ns(trace.dns_start_perf_ns);
  out->set_dns_end_perf_ns(trace.dns_end_perf_ns);
  out->set_tcp_connect_start_perf_ns(trace.tcp_connect_start_perf_ns);
  out->set_tcp_connect_end_perf_ns(trace.tcp_connect_end_perf_ns);
  out->set_tls_start_perf_ns(trace.tls_start_perf_ns);
  out->set_tls_end_perf_ns(trace.tls_end_perf_ns);
  out->set_body_bytes_sent(trace.body_bytes_sent);
  out->set_error_perf_ns(trace.error_perf_ns);
  out->set_local_ip(std::move(trace.local_ip));
  out->set_local_port(trace.local_port);
  out->set_remote_ip(std::move(trace.remote_ip));
  out->set_remote_port(trace.remote_port);
  if (!with_headers) return;
  move_headers(std::move(trace.request_headers), out->mutable_request_headers());
  move_headers(std::move(trace.response_headers), out->mutable_response_headers());
}

}  // namespace aiperf::worker
