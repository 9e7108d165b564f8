// parse_response (spec §5.7-5.8): raw record bytes -> content responses, usage or an error.
#include <cctype>

#include <nlohmann/json.hpp>

#include "endpoints/endpoint.h"
#include "endpoints/openai_content.h"
#include "endpoints/other_content.h"
#include "sse/sse_parser.h"

namespace aiperf::endpoints {

namespace {

proto::ErrorDetails make_error(std::optional<int> code, std::string type, std::string message) {
  proto::ErrorDetails e;
  if (code) e.set_code(*code);
  e.set_type(std::move(type));
  e.set_message(std::move(message));
  return e;
}

// Reason phrases for statuses that reach here without a transport error (the worker
// normally records non-2xx as errors already, with the server's own phrase).
std::string reason_phrase(int status) {
  switch (status) {
    case 201: return "Created";
    case 202: return "Accepted";
    case 203: return "Non-Authoritative Information";
    case 204: return "No Content";
    case 206: return "Partial Content";
    case 0: return "NoResponse";
    default: return "HTTP " + std::to_string(status);
  }
}

bool starts_with_nocase(std::string_view s, std::string_view prefix) {
  if (s.size() < prefix.size()) return false;
  for (size_t i = 0; i < prefix.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(s[i])) != prefix[i]) return false;
  }
  return true;
}

std::string excerpt(std::string_view data) {
  constexpr size_t kMax = 100;
  return data.size() <= kMax ? std::string(data) : std::string(data.substr(0, kMax)) + "...";
}

// How one decoded JSON document of this endpoint type becomes content.
struct Kind {
  ResponseKind openai;
  std::optional<OtherKind> other;  // set: not an OpenAI chat/completions endpoint
};

// Decodes one JSON document and extracts its content; false when the record failed.
bool parse_json(const Kind& kind, std::string_view data, int64_t perf_ns, ParseResult& out) {
  const nlohmann::json j = nlohmann::json::parse(data, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) {
    out.error = make_error(std::nullopt, "JSONDecodeError",
                           "Failed to decode JSON response: '" + excerpt(data) + "'");
    return false;
  }
  auto error = kind.other ? extract_other_content(*kind.other, j, perf_ns, out)
                          : extract_content(kind.openai, j, perf_ns, out);
  if (error) {
    out.error = std::move(*error);
    return false;
  }
  return true;
}

int64_t eof_time(const proto::RawRecord& raw) {
  if (raw.end_perf_ns() != 0) return raw.end_perf_ns();
  return raw.chunks_size() > 0 ? raw.chunks(raw.chunks_size() - 1).perf_ns() : 0;
}

void parse_sse(const Kind& kind, const proto::RawRecord& raw, ParseResult& out) {
  sse::SseParser parser;
  std::vector<sse::SseEvent> events;
  for (const proto::BodyChunk& chunk : raw.chunks()) parser.feed(chunk.data(), chunk.perf_ns(), events);
  parser.finish(eof_time(raw), events);

  for (const sse::SseEvent& event : events) {
    if (event.event == "error") {
      const std::string& detail = !event.comment.empty() ? event.comment : event.data;
      out.error = make_error(502, "SSEResponseError", "Error occurred in SSE response: " + detail);
      return;
    }
    if (event.data.empty() || event.data == "[DONE]") continue;
    if (!parse_json(kind, event.data, event.perf_ns, out)) return;
  }
}

void parse_body(const Kind& kind, const proto::RawRecord& raw, ParseResult& out) {
  std::string body;
  for (const proto::BodyChunk& chunk : raw.chunks()) body += chunk.data();
  if (body.find_first_not_of(" \t\r\n") == std::string::npos) return;  // empty: no content
  const int64_t stamp = raw.chunks_size() > 0 ? raw.chunks(raw.chunks_size() - 1).perf_ns()
                                              : raw.end_perf_ns();
  parse_json(kind, body, stamp, out);
}

}  // namespace

ParseResult parse_response(const EndpointInfo& info, const proto::RawRecord& raw) {
  ParseResult out;
  if (raw.has_error()) {
    out.error = raw.error();
    return out;
  }
  if (raw.status_code() != 200) {
    out.error = make_error(raw.status_code(), reason_phrase(raw.status_code()),
                           "Unexpected HTTP status " + std::to_string(raw.status_code()));
    return out;
  }
  const Kind kind{info.type == "chat" ? ResponseKind::kChat : ResponseKind::kCompletions, other_kind(info)};
  if (starts_with_nocase(raw.content_type(), "text/event-stream")) {
    parse_sse(kind, raw, out);
  } else {
    parse_body(kind, raw, out);
  }
  if (out.error) {
    out.responses.clear();  // an error record has no content responses
  } else if (out.responses.empty()) {
    out.error = make_error(std::nullopt, "InvalidInferenceResultError",
                           "Invalid inference result: No responses with actual content were "
                           "received from the server (only usage/metadata, null/empty data, or "
                           "[DONE] markers)");
  }
  return out;
}

}  // namespace aiperf::endpoints
