#include "http_trace.h"

#include <algorithm>
#include <cstdint>
#include <string_view>
#include <utility>
#include <vector>

#include "metrics/json_number.h"
#include "util/redact.h"

namespace aiperf::record_processor {

namespace {

using metrics::append_json_string;

// aiohttp's connection "create end" is the connection being usable: after TLS for https.
int64_t connection_ready_ns(const proto::HttpTrace& t) {
  return t.tls_start_perf_ns() != 0 ? t.tls_end_perf_ns() : t.tcp_connect_end_perf_ns();
}

// aiohttp reports the body only: one chunk for our single body write, none without a body.
bool has_request_chunk(const proto::HttpTrace& t) {
  return t.body_bytes_sent() > 0 && t.send_end_perf_ns() != 0;
}

// Python dict(headers): a repeated name keeps its first position and its last value.
void append_headers(std::string& out, const google::protobuf::RepeatedPtrField<proto::HttpHeader>& headers,
                    bool redact) {
  out += '{';
  bool first = true;
  for (int i = 0; i < headers.size(); ++i) {
    const std::string& name = headers[i].name();
    bool seen = false;
    for (int j = 0; j < i && !seen; ++j) seen = headers[j].name() == name;
    if (seen) continue;
    int last = i;
    for (int j = i + 1; j < headers.size(); ++j) {
      if (headers[j].name() == name) last = j;
    }
    if (!first) out += ',';
    first = false;
    append_json_string(out, name);
    out += ':';
    append_json_string(out, redact && util::is_sensitive_header(name) ? std::string(util::kRedacted)
                                                                    : headers[last].value());
  }
  out += '}';
}

// Writes `"key":value` members, the separators between them and nothing for unset values.
class Members {
 public:
  Members(std::string& out, const proto::RawRecord& raw)
      : out_(out), wall0_(raw.start_wall_ns()), perf0_(raw.start_perf_ns()) {}

  std::string& key(const char* name) {
    if (!first_) out_ += ',';
    first_ = false;
    out_ += '"';
    out_ += name;
    out_ += "\":";
    return out_;
  }
  void integer(const char* name, int64_t v) { key(name) += std::to_string(v); }
  // A steady timestamp as wall clock; 0 means "did not happen" and is left out.
  void time(const char* name, int64_t perf_ns) {
    if (perf_ns != 0) integer(name, wall(perf_ns));
  }
  void duration(const char* name, bool known, int64_t v) {
    if (known) integer(name, v);
  }
  int64_t wall(int64_t perf_ns) const { return wall0_ + (perf_ns - perf0_); }

 private:
  std::string& out_;
  bool first_ = true;
  int64_t wall0_, perf0_;
};

}  // namespace

std::optional<metrics::HttpTiming> http_timing(const proto::RawRecord& raw) {
  if (!raw.has_trace()) return std::nullopt;
  const proto::HttpTrace& tr = raw.trace();
  metrics::HttpTiming t;
  t.pool_wait_start_ns = tr.pool_wait_start_perf_ns();
  t.pool_wait_end_ns = tr.pool_wait_end_perf_ns();
  t.connection_reused_ns = tr.connection_reused_perf_ns();
  t.dns_cache_hit_ns = tr.dns_cache_hit_perf_ns();
  t.dns_start_ns = tr.dns_start_perf_ns();
  t.dns_end_ns = tr.dns_end_perf_ns();
  t.connect_start_ns = tr.tcp_connect_start_perf_ns();
  t.connect_end_ns = connection_ready_ns(tr);
  t.send_start_ns = tr.send_start_perf_ns();
  if (has_request_chunk(tr)) {
    t.send_end_ns = tr.send_end_perf_ns();
    t.request_chunks = 1;
    t.request_bytes = static_cast<int64_t>(tr.body_bytes_sent());
  }
  t.response_chunks = raw.chunks_size();
  for (const auto& c : raw.chunks()) t.response_bytes += static_cast<int64_t>(c.data().size());
  if (!raw.chunks().empty()) {
    t.first_chunk_ns = raw.chunks(0).perf_ns();
    t.last_chunk_ns = raw.chunks(raw.chunks_size() - 1).perf_ns();
  }
  return t;
}

std::string format_trace_data(const proto::RawRecord& raw) {
  if (!raw.has_trace()) return {};
  const proto::HttpTrace& tr = raw.trace();
  const metrics::HttpTiming t = *http_timing(raw);
  const bool responded = raw.status_code() != 0;

  std::string out;
  out.reserve(1024 + static_cast<std::size_t>(raw.chunks_size()) * 32);
  out += '{';
  Members m(out, raw);
  m.key("trace_type") += "\"aiohttp\"";
  m.time("request_send_start_ns", t.send_start_ns);
  if (t.send_start_ns != 0) append_headers(m.key("request_headers"), tr.request_headers(), true);
  // Head and body leave in one write: the head is known to be out when the write completes.
  m.time("request_headers_sent_ns", tr.send_end_perf_ns());
  std::string& chunks = m.key("request_chunks");
  chunks += '[';
  if (t.request_chunks) {
    chunks += '[' + std::to_string(m.wall(t.send_end_ns)) + ',' + std::to_string(t.request_bytes) + ']';
  }
  chunks += ']';
  m.time("request_send_end_ns", t.send_end_ns);
  m.integer("request_chunks_count", t.request_chunks);
  m.integer("request_bytes_total", t.request_bytes);
  if (responded) {
    m.integer("response_status_code", raw.status_code());
    append_json_string(m.key("response_reason"), tr.response_reason());
  }
  m.time("response_receive_start_ns", t.first_chunk_ns);
  if (responded) append_headers(m.key("response_headers"), tr.response_headers(), false);
  m.time("response_headers_received_ns", raw.ack_perf_ns());
  std::string& received = m.key("response_chunks");
  received += '[';
  for (int i = 0; i < raw.chunks_size(); ++i) {
    if (i) received += ',';
    received += '[' + std::to_string(m.wall(raw.chunks(i).perf_ns())) + ',' +
                std::to_string(raw.chunks(i).data().size()) + ']';
  }
  received += ']';
  m.integer("response_chunks_count", t.response_chunks);
  m.integer("response_bytes_total", t.response_bytes);
  m.time("response_receive_end_ns", t.last_chunk_ns);
  m.time("error_timestamp_ns", tr.error_perf_ns());
  m.time("connection_pool_wait_start_ns", t.pool_wait_start_ns);
  m.time("connection_pool_wait_end_ns", t.pool_wait_end_ns);
  m.time("tcp_connect_start_ns", t.connect_start_ns);
  m.time("tcp_connect_end_ns", t.connect_end_ns);
  m.time("connection_reused_ns", t.connection_reused_ns);
  m.time("dns_cache_hit_ns", t.dns_cache_hit_ns);
  m.time("dns_cache_miss_ns", tr.dns_cache_miss_perf_ns());
  m.time("dns_lookup_start_ns", t.dns_start_ns);
  m.time("dns_lookup_end_ns", t.dns_end_ns);
  if (!tr.local_ip().empty()) {
    append_json_string(m.key("local_ip"), tr.local_ip());
    m.integer("local_port", tr.local_port());
    append_json_string(m.key("remote_ip"), tr.remote_ip());
    m.integer("remote_port", tr.remote_port());
  }
  // pydantic computed fields: TraceDataExport's, then AioHttpTraceDataExport's.
  m.duration("sending_ns", t.send_start_ns && t.send_end_ns, t.send_end_ns - t.send_start_ns);
  m.duration("waiting_ns", t.send_end_ns && t.first_chunk_ns, t.first_chunk_ns - t.send_end_ns);
  m.duration("receiving_ns", t.response_chunks > 0,
             t.response_chunks == 1 ? 0 : t.last_chunk_ns - t.first_chunk_ns);
  m.duration("duration_ns", t.send_start_ns && t.last_chunk_ns, t.last_chunk_ns - t.send_start_ns);
  m.duration("blocked_ns", t.pool_wait_start_ns && t.pool_wait_end_ns, t.pool_wait_end_ns - t.pool_wait_start_ns);
  m.duration("dns_lookup_ns", t.dns_start_ns && t.dns_end_ns, t.dns_end_ns - t.dns_start_ns);
  m.duration("connecting_ns", t.connect_start_ns && t.connect_end_ns, t.connect_end_ns - t.connect_start_ns);
  // Not in AIPerf (aiohttp folds TLS into connecting): last, so AIPerf's keys keep their order.
  m.time("tls_handshake_start_ns", tr.tls_start_perf_ns());
  m.time("tls_handshake_end_ns", tr.tls_end_perf_ns());
  out += '}';
  return out;
}

}  // namespace aiperf::record_processor
