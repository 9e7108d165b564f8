#include "endpoints/openai_content.h"

#include <nlohmann/json.hpp>

#include "endpoints/json_scan.h"
#include "endpoints/server_timings.h"
#include "endpoints/spec_decode.h"
#include "endpoints/usage_fields.h"
#include "endpoints/usage_json.h"

namespace aiperf::endpoints {

namespace {

using nlohmann::json;

const json* member(const json& j, const char* key) {
  if (!j.is_object()) return nullptr;
  auto it = j.find(key);
  return it == j.end() || it->is_null() ? nullptr : &*it;
}

std::string_view string_member(const json* j, const char* key) {
  if (!j) return {};
  const json* v = member(*j, key);
  return v && v->is_string() ? std::string_view(v->get_ref<const std::string&>()) : std::string_view();
}

}  // namespace

std::optional<proto::ErrorDetails> extract_content(ResponseKind kind, const json& j,
                                                   int64_t perf_ns, ParseResult& out) {
  if (j.is_null()) return std::nullopt;  // "data: null" carries nothing
  if (!j.is_object()) return value_error("Expected a JSON object, got: " + j.dump());

  const json* choices = member(j, "choices");
  const json* choice = choices && choices->is_array() && !choices->empty() ? &(*choices)[0] : nullptr;
  const std::string_view object = string_member(&j, "object");

  // Which part of choices[0] holds the content; a missing `object` is inferred from it.
  const json* part = nullptr;
  std::string_view text;
  std::string_view reasoning;
  if (kind == ResponseKind::kChat) {
    if (object == "chat.completion.chunk") {
      part = choice ? member(*choice, "delta") : nullptr;
    } else if (object == "chat.completion") {
      part = choice ? member(*choice, "message") : nullptr;
    } else if (object.empty()) {
      part = choice ? member(*choice, "delta") : nullptr;
      if (!part && choice) part = member(*choice, "message");
    } else {
      return value_error("Invalid OpenAI chat object type: " + std::string(object));
    }
    text = string_member(part, "content");
    reasoning = string_member(part, "reasoning_content");
    if (reasoning.empty()) reasoning = string_member(part, "reasoning");
  } else {
    if (!object.empty() && object != "text_completion" && object != "completion") {
      return value_error("Invalid OpenAI completions object type: " + std::string(object));
    }
    text = string_member(choice, "text");
  }

  const json* usage = member(j, "usage");
  const bool has_usage = usage && usage->is_object() && !usage->empty();  // AIPerf: `usage or None`
  if (has_usage) out.usage = read_usage_block(*usage);
  read_server_timings(j, out);
  read_spec_decode_stats(j, out);
  if (!text.empty() || !reasoning.empty()) {
    out.responses.push_back(
        metrics::ContentResponse{perf_ns, std::string(text), std::string(reasoning)});
    if (has_usage && !out.first_content_chunk_tokens) out.first_content_chunk_tokens = out.usage->completion_tokens;
  }
  return std::nullopt;
}

}  // namespace aiperf::endpoints

namespace aiperf::endpoints {
namespace {

// choices[0].delta or .message as extract_content reads it: present (not null), and its
// string members when it is an object. Each later occurrence of a key replaces the earlier
// one, as in the decoded tree.
struct Part {
  bool present = false;
  std::string content, reasoning_content, reasoning;
};

bool scan_string_member(JsonScan& s, std::string& out) {
  if (s.peek() == '"') return s.string(&out);
  out.clear();
  return s.skip_value();
}

bool scan_part(JsonScan& s, Part& part) {
  part = Part{};
  if (s.peek() == 'n') return s.skip_value();  // null: absent
  part.present = true;
  if (s.peek() != '{') return s.skip_value();
  return s.object([&](std::string_view key) {
    if (key == "content") return scan_string_member(s, part.content);
    if (key == "reasoning_content") return scan_string_member(s, part.reasoning_content);
    if (key == "reasoning") return scan_string_member(s, part.reasoning);
    return s.skip_value();
  });
}

struct Choice {  // choices[0]; all empty when choices is not a non-empty array
  Part delta, message;
  std::string text;      // completions
};

bool scan_choices(JsonScan& s, Choice& choice) {
  choice = Choice{};
  if (s.peek() != '[') return s.skip_value();
  s.consume('[');
  if (s.consume(']')) return true;
  bool ok = s.peek() != '{' ? s.skip_value() : s.object([&](std::string_view key) {
    if (key == "delta") return scan_part(s, choice.delta);
    if (key == "message") return scan_part(s, choice.message);
    if (key == "text") return scan_string_member(s, choice.text);
    return s.skip_value();
  });
  while (ok && s.consume(',')) ok = s.skip_value();
  return ok && s.consume(']');
}

// A usage member: present, and its value when an int64 integer; a number other than that is
// left to the tree path (its conversion rules).
bool scan_slot(JsonScan& s, UsageSlot& slot) {
  slot = UsageSlot{};
  slot.present = true;
  const char c = s.peek();
  if (c == '-' || (c >= '0' && c <= '9')) {
    int64_t v;
    if (!s.int64(v)) return false;  // a fraction or exponent: the tree path converts it
    slot.integer = true;
    slot.int_value = v;
    slot.number = static_cast<double>(v);
    return true;
  }
  return s.skip_value();
}

// The usage members of every vendor spelling (usage_fields.h), each occurrence replacing the
// earlier one as in the decoded tree. The envelopes AIPerf unwraps (Gemini's usageMetadata,
// Cohere's meta and tokens) are left to the tree path.
bool scan_usage(JsonScan& s, std::optional<metrics::Usage>& usage) {
  usage.reset();
  if (s.peek() != '{') return s.skip_value();
  UsageFields f;
  bool any = false;
  const bool ok = s.object([&](std::string_view key) {
    any = true;
    if (auto k = usage_top_level_key(key)) return scan_slot(s, f[*k]);
    if (const int d = usage_details_index(key); d >= 0) {
      clear_usage_details(f, d);  // a repeated details object replaces the earlier one
      if (s.peek() != '{') return s.skip_value();
      return s.object([&](std::string_view inner) {
        auto k = usage_detail_key(d, inner);
        return k ? scan_slot(s, f[*k]) : s.skip_value();
      });
    }
    if (usage_envelope_key(key)) return false;
    return s.skip_value();
  });
  if (any) usage = resolve_usage(f);  // an empty object is no usage (AIPerf: `usage or None`)
  return ok;
}

}  // namespace

bool scan_content(ResponseKind kind, std::string_view text, int64_t perf_ns, ParseResult& out) {
  JsonScan s(text);
  if (s.peek() != '{') return false;  // null, other values, a byte-order mark: the tree decides
  std::string_view object;            // a view into the text unless escaped (then into object_buf)
  std::string object_buf;
  Choice choice;
  std::optional<metrics::Usage> usage;
  const bool ok = s.object([&](std::string_view key) {
    if (key == "object") {
      object = {};
      return s.peek() == '"' ? s.string_view(object, object_buf) : s.skip_value();
    }
    if (key == "choices") return scan_choices(s, choice);
    if (key == "usage") return scan_usage(s, usage);
    // llama.cpp's `timings` (once per request, with float members): the tree path reads it.
    if (key == "timings") return false;
    // vLLM's per-request speculative-decoding stats (once per request): the tree path reads them.
    if (key == "metrics") return false;
    return s.skip_value();
  });
  if (!ok || !s.at_end()) return false;

  std::string* content = &choice.text;  // completions
  std::string* reasoning = nullptr;
  if (kind == ResponseKind::kChat) {
    Part* part;
    if (object == "chat.completion.chunk") {
      part = &choice.delta;
    } else if (object == "chat.completion") {
      part = &choice.message;
    } else if (object.empty()) {
      part = choice.delta.present ? &choice.delta : &choice.message;
    } else {
      return false;  // the tree path words the error
    }
    content = &part->content;
    reasoning = part->reasoning_content.empty() ? &part->reasoning : &part->reasoning_content;
  } else if (!object.empty() && object != "text_completion" && object != "completion") {
    return false;
  }
  if (usage) out.usage = usage;
  if (!content->empty() || (reasoning && !reasoning->empty())) {
    out.responses.push_back(metrics::ContentResponse{perf_ns, std::move(*content),
                                                     reasoning ? std::move(*reasoning) : std::string()});
    if (usage && !out.first_content_chunk_tokens) out.first_content_chunk_tokens = usage->completion_tokens;
  }
  return true;
}

}  // namespace aiperf::endpoints
