#include "raw_export.h"

#include <vector>

#include "metrics/json_number.h"
#include "metrics/record_jsonl.h"
#include "sse/sse_parser.h"
#include "util/redact.h"

namespace aiperf::record_processor {

namespace {

using metrics::append_json_string;

// Credential headers (the --api-key Authorization, -H X-Api-Key: ...) are written redacted:
// the raw export is meant to be shared, the key is not.
void append_headers(std::string& out, const google::protobuf::RepeatedPtrField<proto::HttpHeader>& headers) {
  out += '{';
  for (int i = 0; i < headers.size(); ++i) {
    if (i) out += ',';
    append_json_string(out, headers[i].name());
    out += ':';
    append_json_string(out, util::is_sensitive_header(headers[i].name()) ? std::string(util::kRedacted)
                                                                          : headers[i].value());
  }
  out += '}';
}

void append_sse_responses(std::string& out, const proto::RawRecord& raw) {
  sse::SseParser parser;
  std::vector<sse::SseEvent> events;
  for (const auto& c : raw.chunks()) parser.feed(c.data(), c.perf_ns(), events);
  parser.finish(raw.end_perf_ns(), events);
  bool first = true;
  for (const auto& e : events) {
    if (!first) out += ',';
    first = false;
    out += "{\"perf_ns\":" + std::to_string(e.perf_ns) + ",\"packets\":[";
    bool first_packet = true;
    auto packet = [&](const char* name, const std::string& value) {
      if (!first_packet) out += ',';
      first_packet = false;
      out += "{\"name\":\"";
      out += name;
      out += "\",\"value\":";
      append_json_string(out, value);
      out += '}';
    };
    if (!e.comment.empty()) packet("", e.comment);
    if (!e.event.empty()) packet("event", e.event);
    if (!e.id.empty()) packet("id", e.id);
    if (e.has_data) packet("data", e.data);
    out += "]}";
  }
}

void append_text_response(std::string& out, const proto::RawRecord& raw) {
  std::string body;
  for (const auto& c : raw.chunks()) body += c.data();
  // Like AIPerf: a non-streamed body is one response stamped when reading ended.
  out += "{\"perf_ns\":" + std::to_string(raw.end_perf_ns()) + ",\"content_type\":";
  append_json_string(out, raw.content_type());
  out += ",\"text\":";
  append_json_string(out, body);
  out += '}';
}

// A gRPC record (kserve) holds one response message per chunk, each stamped when it arrived.
void append_message_responses(std::string& out, const proto::RawRecord& raw) {
  bool first = true;
  for (const auto& c : raw.chunks()) {
    if (!first) out += ',';
    first = false;
    out += "{\"perf_ns\":" + std::to_string(c.perf_ns()) + ",\"content_type\":";
    append_json_string(out, raw.content_type());
    out += ",\"text\":";
    append_json_string(out, c.data());
    out += '}';
  }
}

}  // namespace

std::string format_raw_record_jsonl(const proto::RawRecord& raw, const proto::RecordMetadata& metadata) {
  std::string out;
  out.reserve(256 + raw.payload().size() + 2 * static_cast<std::size_t>(raw.chunks_size()) * 64);
  out += "{\"metadata\":";
  metrics::append_record_metadata(out, metadata);
  out += ",\"start_perf_ns\":" + std::to_string(raw.start_perf_ns());
  out += ",\"payload\":";
  // The body we sent is JSON already; embedding it keeps it byte-exact.
  out += raw.payload().empty() ? "null" : raw.payload();
  out += ",\"request_headers\":";
  append_headers(out, raw.trace().request_headers());
  if (raw.status_code() != 0) out += ",\"status\":" + std::to_string(raw.status_code());
  out += ",\"response_headers\":";
  append_headers(out, raw.trace().response_headers());
  out += ",\"responses\":[";
  if (!raw.has_error() && raw.chunks_size() > 0) {
    if (raw.content_type().rfind("text/event-stream", 0) == 0) {
      append_sse_responses(out, raw);
    } else if (raw.content_type().rfind("application/grpc", 0) == 0) {
      append_message_responses(out, raw);
    } else {
      append_text_response(out, raw);
    }
  }
  out += ']';
  if (raw.has_error()) {
    out += ",\"error\":";
    metrics::append_record_error(out, raw.error());
  }
  out += '}';
  return out;
}

}  // namespace aiperf::record_processor
