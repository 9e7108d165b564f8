#include "completion_format.h"

#include <cstdio>
#include <nlohmann/json.hpp>

namespace aiperf::mock {
namespace {

bool is_chat(const GenerationRequest& r) { return r.api == Api::chat; }

std::string make_envelope(const GenerationRequest& request, uint64_t id, int64_t created, bool stream) {
  const char* prefix = is_chat(request) ? "chatcmpl-" : "cmpl-";
  const char* object =
      is_chat(request) ? (stream ? "chat.completion.chunk" : "chat.completion") : "text_completion";
  char head[160];
  std::snprintf(head, sizeof head,
                "{\"id\":\"%s%016llx\",\"object\":\"%s\",\"created\":%lld,\"model\":", prefix,
                static_cast<unsigned long long>(id), object, static_cast<long long>(created));
  std::string envelope = head;
  envelope += request.model_json;
  envelope += ',';
  return envelope;
}

}  // namespace

CompletionFormatter::CompletionFormatter(GenerationRequest request, const TextPool& pool, uint64_t id,
                                         int64_t created)
    : request_(std::move(request)),
      pool_(pool),
      pool_offset_(request_.prompt_hash % pool.size()),
      envelope_(make_envelope(request_, id, created, request_.stream)) {}

std::string_view CompletionFormatter::finish_reason() const { return request_.hit_limit ? "length" : "stop"; }

// TGI generate_stream event: {"index","token":{...},"generated_text","details"}; the last one
// repeats the whole text and carries the finish reason, as text-generation-inference does.
void CompletionFormatter::append_tgi_token_event(std::string& out, int index, std::string_view extra) const {
  out += R"(data: {"index":)";
  out += std::to_string(index);
  out += R"(,"token":{"id":)";
  out += std::to_string(index);
  out += R"(,"text":")";
  out += piece(index);
  out += extra;
  out += R"(","logprob":0.0,"special":false},"generated_text":)";
  if (index + 1 == request_.output_tokens) {
    out += '"';
    for (int i = 0; i < request_.output_tokens; ++i) out += piece(i);
    out += R"(","details":{"finish_reason":")";
    out += request_.hit_limit ? "length" : "eos_token";
    out += R"(","generated_tokens":)";
    out += std::to_string(request_.output_tokens);
    out += "}}\n\n";
  } else {
    out += "null,\"details\":null}\n\n";
  }
}

void CompletionFormatter::append_token_event(std::string& out, int index, std::string_view extra) const {
  if (request_.api == Api::tgi_generate) return append_tgi_token_event(out, index, extra);
  out += "data: ";
  out += envelope_;
  if (is_chat(request_))
    out += index == 0 ? R"("choices":[{"index":0,"delta":{"role":"assistant","content":")"
                      : R"("choices":[{"index":0,"delta":{"content":")";
  else
    out += R"("choices":[{"index":0,"text":")";
  out += piece(index);
  out += extra;
  out += is_chat(request_) ? R"("},"finish_reason":)" : R"(","finish_reason":)";
  if (index + 1 == request_.output_tokens) {
    out += '"';
    out += finish_reason();
    out += '"';
  } else {
    out += "null";
  }
  out += "}]}\n\n";
}

void CompletionFormatter::append_usage(std::string& out) const {
  out += R"("usage":{"prompt_tokens":)";
  out += std::to_string(request_.prompt_tokens);
  out += R"(,"completion_tokens":)";
  out += std::to_string(request_.output_tokens);
  out += R"(,"total_tokens":)";
  out += std::to_string(request_.prompt_tokens + request_.output_tokens);
  out += usage_extras_;
  out += '}';
  append_root_extras(out);
}

void CompletionFormatter::append_root_extras(std::string& out) const {
  if (!timings_.empty()) {
    out += R"(,"timings":)";
    out += timings_;
  }
  if (!spec_decode_.empty()) {
    out += R"(,"metrics":{"speculative_decoding":)";
    out += spec_decode_;
    out += '}';
  }
}

void CompletionFormatter::append_root_extras_event(std::string& out) const {
  out += "data: ";
  out += envelope_;
  out += R"("choices":[])";
  append_root_extras(out);
  out += "}\n\n";
}

void CompletionFormatter::append_usage_event(std::string& out) const {
  out += "data: ";
  out += envelope_;
  out += R"("choices":[],)";
  append_usage(out);
  out += "}\n\n";
}

std::string CompletionFormatter::full_body(std::string_view extra) const {
  if (request_.api == Api::tgi_generate) {
    std::string body = R"({"generated_text":")";
    for (int i = 0; i < request_.output_tokens; ++i) body += piece(i);
    body += extra;
    return body + "\"}";
  }
  std::string body = envelope_;
  body.reserve(body.size() + 160 + static_cast<size_t>(request_.output_tokens) * 8 + extra.size());
  body += is_chat(request_) ? R"("choices":[{"index":0,"message":{"role":"assistant","content":")"
                            : R"("choices":[{"index":0,"text":")";
  for (int i = 0; i < request_.output_tokens; ++i) body += piece(i);
  body += extra;
  body += is_chat(request_) ? R"("},"finish_reason":")" : R"(","finish_reason":")";
  body += finish_reason();
  body += R"("}],)";
  append_usage(body);
  body += '}';
  return body;
}

std::string error_body(std::string_view message, std::string_view type, int status) {
  return nlohmann::json{{"error", {{"message", message}, {"type", type}, {"code", status}}}}.dump();
}

}  // namespace aiperf::mock
