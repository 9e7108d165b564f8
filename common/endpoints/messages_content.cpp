#include "endpoints/messages_content.h"

#include "endpoints/usage_json.h"

namespace aiperf::endpoints {

namespace {

using nlohmann::ordered_json;

std::string_view str(const ordered_json& j, const char* key) {
  auto it = j.find(key);
  return it != j.end() && it->is_string() ? std::string_view(it->get_ref<const std::string&>()) : std::string_view();
}

void push(ParseResult& out, int64_t perf_ns, std::string text, std::string reasoning) {
  out.responses.push_back(metrics::ContentResponse{perf_ns, std::move(text), std::move(reasoning)});
}

// A usage block (object, non-empty) completed with the keys earlier blocks of the record had.
void take_usage(const ordered_json& holder, MessagesStreamState& state, ParseResult& out) {
  auto it = holder.find("usage");
  if (it == holder.end() || !it->is_object() || it->empty()) return;
  ordered_json merged = *it;
  for (const auto& [key, value] : state.seen_usage.items())
    if (!merged.contains(key)) merged[key] = value;
  for (const auto& [key, value] : it->items())
    if (!state.seen_usage.contains(key)) state.seen_usage[key] = value;
  // read_usage_block takes the unordered spelling; the key order does not matter there.
  out.usage = read_usage_block(nlohmann::json(merged));
}

void full_message(const ordered_json& j, int64_t perf_ns, MessagesStreamState& state, ParseResult& out) {
  take_usage(j, state, out);
  auto content = j.find("content");
  if (content == j.end() || !content->is_array()) return;
  std::string text, thinking, tool_calls;
  for (const ordered_json& block : *content) {
    if (!block.is_object()) continue;
    const std::string_view type = str(block, "type");
    if (type == "text") {
      text += str(block, "text");
    } else if (type == "thinking") {
      thinking += str(block, "thinking");
    } else if (type == "tool_use") {
      tool_calls += str(block, "name");
      // An empty or missing input adds nothing (AIPerf tests the input's truthiness).
      auto input = block.find("input");
      if (input != block.end() && !input->is_null() && !(input->is_object() && input->empty()) &&
          !(input->is_array() && input->empty()) && !(input->is_string() && input->get_ref<const std::string&>().empty()))
        tool_calls += input->dump();
    }
  }
  if (!thinking.empty()) return push(out, perf_ns, std::move(text), std::move(thinking));
  if (!tool_calls.empty()) return push(out, perf_ns, text + tool_calls, {});
  if (!text.empty()) push(out, perf_ns, std::move(text), {});
}

void content_delta(const ordered_json& j, int64_t perf_ns, ParseResult& out) {
  auto delta = j.find("delta");
  if (delta == j.end() || !delta->is_object()) return;
  const std::string_view type = str(*delta, "type");
  const char* field = type == "text_delta"         ? "text"
                      : type == "thinking_delta"   ? "thinking"
                      : type == "input_json_delta" ? "partial_json"
                                                   : nullptr;
  if (!field) return;  // signature_delta and unknown deltas are not generated text
  const std::string_view piece = str(*delta, field);
  if (piece.empty()) return;
  if (type == "thinking_delta") return push(out, perf_ns, {}, std::string(piece));
  push(out, perf_ns, std::string(piece), {});
}

}  // namespace

void extract_messages_content(const ordered_json& j, int64_t perf_ns, MessagesStreamState& state, ParseResult& out) {
  if (!j.is_object()) return;
  const std::string_view type = str(j, "type");
  if (type == "message") return full_message(j, perf_ns, state, out);
  if (type == "content_block_delta") return content_delta(j, perf_ns, out);
  if (type == "message_start") {
    if (auto message = j.find("message"); message != j.end() && message->is_object()) take_usage(*message, state, out);
  } else if (type == "message_delta") {
    take_usage(j, state, out);
  }
}

}  // namespace aiperf::endpoints
