// parse_response (spec §5.7-5.8): raw record bytes -> content responses, usage or an error.
#include <cctype>

#include <nlohmann/json.hpp>

#include "endpoints/endpoint.h"
#include "endpoints/kserve_content.h"
#include "endpoints/media_content.h"
#include "endpoints/messages_content.h"
#include "endpoints/openai_content.h"
#include "endpoints/other_content.h"
#include "endpoints/prompt_content.h"
#include "endpoints/responses_content.h"
#include "endpoints/template_content.h"
#include "endpoints/video_generation.h"
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

// How the decoded JSON documents of one record become content; one per record, since the
// Responses API deduplication needs state across its events.
struct Context {
  enum class Family {
    openai,
    other,
    responses,
    image,
    solido,
    triton,
    kserve,
    template_,
    messages,
    image_retrieval,
    image_edit,
    transcription,
    video
  } family = Family::openai;
  ResponseKind openai = ResponseKind::kChat;
  OtherKind other = OtherKind::embeddings;
  const JsonPath* response_field = nullptr;
  ResponsesStreamState responses;
  MessagesStreamState messages;
};

Context make_context(const EndpointInfo& info, const ParseOptions& options) {
  using F = Context::Family;
  const std::string_view t = info.type;
  Context ctx;
  if (t == "chat" || t == "completions") {
    ctx.openai = t == "chat" ? ResponseKind::kChat : ResponseKind::kCompletions;
  } else if (auto other = other_kind(info)) {
    ctx.family = F::other;
    ctx.other = *other;
  } else if (t == "responses") {
    ctx.family = F::responses;
  } else if (t == "image_generation") {
    ctx.family = F::image;
  } else if (t == "solido_rag") {
    ctx.family = F::solido;
  } else if (t == "generate") {
    ctx.family = F::triton;
  } else if (t == "kserve") {
    ctx.family = F::kserve;
  } else if (t == "messages") {
    ctx.family = F::messages;
  } else if (t == "image_retrieval") {
    ctx.family = F::image_retrieval;
  } else if (t == "image_edit") {
    ctx.family = F::image_edit;
  } else if (t == "audio_transcription") {
    ctx.family = F::transcription;
  } else if (t == "video_generation") {
    ctx.family = F::video;
  } else if (t == "template" || t == "raw") {  // raw parses like template (auto-detect or response_field)
    ctx.family = F::template_;
    ctx.response_field = options.response_field.get();
  }
  return ctx;
}

// Decodes one JSON document and extracts its content; false when the record failed.
bool parse_json(Context& ctx, std::string_view data, int64_t perf_ns, ParseResult& out) {
  using F = Context::Family;
  if (ctx.family == F::openai && scan_content(ctx.openai, data, perf_ns, out)) return true;
  if (ctx.family == F::messages) {  // parsed in key order: tool_use inputs are re-serialised
    const nlohmann::ordered_json j = nlohmann::ordered_json::parse(data, nullptr, /*allow_exceptions=*/false);
    if (j.is_discarded()) {
      out.error = make_error(std::nullopt, "JSONDecodeError",
                             "Failed to decode JSON response: '" + excerpt(data) + "'");
      return false;
    }
    extract_messages_content(j, perf_ns, ctx.messages, out);
    return true;
  }
  const nlohmann::json j = nlohmann::json::parse(data, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) {
    if (ctx.family == F::template_) {  // a template server may answer plain text
      extract_template_text(data, perf_ns, out);
      return true;
    }
    if (ctx.family == F::transcription) {  // response_format text / srt / vtt
      extract_transcription_text(data, perf_ns, out);
      return true;
    }
    out.error = make_error(std::nullopt, "JSONDecodeError",
                           "Failed to decode JSON response: '" + excerpt(data) + "'");
    return false;
  }
  std::optional<proto::ErrorDetails> error;
  switch (ctx.family) {
    case F::openai: error = extract_content(ctx.openai, j, perf_ns, out); break;
    case F::other: error = extract_other_content(ctx.other, j, perf_ns, out); break;
    case F::responses: extract_responses_content(j, perf_ns, ctx.responses, out); break;
    case F::image: extract_image_content(j, perf_ns, out); break;
    case F::solido: extract_solido_content(j, perf_ns, out); break;
    case F::triton: extract_triton_content(j, perf_ns, out); break;
    case F::kserve:
      extract_kserve_content(j, perf_ns, out);
      break;
    case F::template_: extract_template_content(j, perf_ns, ctx.response_field, out); break;
    case F::messages: break;  // handled above
    case F::image_retrieval: extract_image_retrieval_content(j, perf_ns, out); break;
    case F::image_edit: extract_image_edit_content(j, perf_ns, out); break;
    case F::transcription: extract_transcription_content(j, data, perf_ns, out); break;
    case F::video: extract_video_content(j, perf_ns, out); break;
  }
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

void parse_sse(Context& kind, const proto::RawRecord& raw, ParseResult& out) {
  // Each event is parsed as it completes; after an error event or an unparsable one, the rest
  // are ignored.
  bool stopped = false;
  const sse::SseParser::Sink on_event = [&](sse::SseEvent& event) {
    if (stopped) return;
    if (event.event == "error") {
      const std::string& detail = !event.comment.empty() ? event.comment : event.data;
      out.error = make_error(502, "SSEResponseError", "Error occurred in SSE response: " + detail);
      stopped = true;
      return;
    }
    if (event.data.empty() || event.data == "[DONE]") return;
    stopped = !parse_json(kind, event.data, event.perf_ns, out);
  };
  sse::SseParser parser;
  out.responses.reserve(static_cast<size_t>(raw.chunks_size()));
  for (const proto::BodyChunk& chunk : raw.chunks()) parser.feed(chunk.data(), chunk.perf_ns(), on_event);
  parser.finish(eof_time(raw), on_event);
}

void parse_body(Context& kind, const proto::RawRecord& raw, ParseResult& out) {
  std::string body;
  for (const proto::BodyChunk& chunk : raw.chunks()) body += chunk.data();
  if (body.find_first_not_of(" \t\r\n") == std::string::npos) return;  // empty: no content
  const int64_t stamp = raw.chunks_size() > 0 ? raw.chunks(raw.chunks_size() - 1).perf_ns()
                                              : raw.end_perf_ns();
  parse_json(kind, body, stamp, out);
}

}  // namespace

ParseResult parse_response(const EndpointInfo& info, const proto::RawRecord& raw, const ParseOptions& options) {
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
  Context kind = make_context(info, options);
  if (info.requires_polling || starts_with_nocase(raw.content_type(), "application/grpc")) {
    // A job's record holds one whole response body per chunk (the submit answer, then the
    // completed poll answer), a gRPC record one response message per chunk (kserve/grpc_client.h):
    // each is its own document, stamped when it arrived.
    for (const proto::BodyChunk& chunk : raw.chunks()) {
      if (chunk.data().find_first_not_of(" \t\r\n") == std::string::npos) continue;
      if (!parse_json(kind, chunk.data(), chunk.perf_ns(), out)) break;
    }
  } else if (starts_with_nocase(raw.content_type(), "text/event-stream")) {
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

namespace {
ParseOptions& default_options() {
  static ParseOptions options;
  return options;
}
}  // namespace

void set_default_parse_options(ParseOptions options) { default_options() = std::move(options); }

ParseResult parse_response(const EndpointInfo& info, const proto::RawRecord& raw) {
  return parse_response(info, raw, default_options());
}

ParseOptions parse_options_for(const std::string& endpoint_type, const nlohmann::json& extra_inputs) {
  ParseOptions options;
  if ((endpoint_type != "template" && endpoint_type != "raw") || !extra_inputs.is_object()) return options;
  auto it = extra_inputs.find("response_field");
  // "text" is AIPerf's spelling of "auto-detect".
  if (it != extra_inputs.end() && it->is_string() && !it->get_ref<const std::string&>().empty() &&
      *it != "text") {
    options.response_field = std::make_shared<const JsonPath>(it->get<std::string>());
  }
  return options;
}

}  // namespace aiperf::endpoints
