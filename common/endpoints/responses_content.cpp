#include "endpoints/responses_content.h"

#include <nlohmann/json.hpp>

#include "endpoints/usage_json.h"

namespace aiperf::endpoints {

namespace {

using nlohmann::json;

std::string_view str(const json& j, const char* key) {
  auto it = j.find(key);
  return it != j.end() && it->is_string() ? std::string_view(it->get_ref<const std::string&>()) : std::string_view();
}

int64_t index_or(const json& j, const char* key) {
  auto it = j.find(key);
  return it != j.end() && it->is_number_integer() ? it->get<int64_t>() : -1;
}

void push_part(ParseResult& out, int64_t perf_ns, std::string_view text, std::string_view reasoning) {
  out.responses.push_back(metrics::ContentResponse{perf_ns, std::string(text), std::string(reasoning)});
}

void stream_event(const json& j, std::string_view type, int64_t perf_ns, ResponsesStreamState& state,
                  ParseResult& out) {
  if (type == "response.output_text.delta" || type == "response.output_text.done") {
    const std::pair<int64_t, int64_t> part{index_or(j, "output_index"), index_or(j, "content_index")};
    if (type == "response.output_text.delta") {
      const std::string_view delta = str(j, "delta");
      if (delta.empty()) return;
      state.streamed_parts.insert(part);
      push_part(out, perf_ns, delta, {});
    } else if (state.streamed_parts.count(part)) {
      // The deltas carried this text already; an empty response keeps the last-content
      // timestamp the same as AIPerf's.
      push_part(out, perf_ns, {}, {});
    } else if (const std::string_view text = str(j, "text"); !text.empty()) {
      push_part(out, perf_ns, text, {});
    }
  } else if (type == "response.reasoning_text.delta") {
    if (const std::string_view delta = str(j, "delta"); !delta.empty()) push_part(out, perf_ns, {}, delta);
  } else if (type == "response.function_call_arguments.delta") {
    if (const std::string_view delta = str(j, "delta"); !delta.empty()) push_part(out, perf_ns, delta, {});
  } else if (type == "response.completed") {
    if (auto it = j.find("response"); it != j.end() && it->is_object()) read_usage_member(*it, out);
  }
  // Every other event (created, in_progress, output_item.*, content_part.*, ...) is structure.
}

void full_response(const json& j, int64_t perf_ns, ParseResult& out) {
  read_usage_member(j, out);
  std::string text, reasoning, tool_calls;
  if (auto output = j.find("output"); output != j.end() && output->is_array()) {
    for (const json& item : *output) {
      if (!item.is_object()) continue;
      const std::string_view type = str(item, "type");
      const char* list_key = type == "reasoning" ? "summary" : type == "message" ? "content" : nullptr;
      if (list_key) {
        const char* part_type = type == "reasoning" ? "summary_text" : "output_text";
        std::string& into = type == "reasoning" ? reasoning : text;
        auto parts = item.find(list_key);
        if (parts == item.end() || !parts->is_array()) continue;
        for (const json& part : *parts)
          if (part.is_object() && str(part, "type") == part_type) into += str(part, "text");
      } else if (type == "function_call") {
        tool_calls += str(item, "name");
        tool_calls += str(item, "arguments");
      }
    }
    if (!reasoning.empty()) return push_part(out, perf_ns, text, reasoning);
    if (!text.empty()) return push_part(out, perf_ns, text, {});
    if (!tool_calls.empty()) return push_part(out, perf_ns, tool_calls, {});
  }
  if (const std::string_view output_text = str(j, "output_text"); !output_text.empty())
    push_part(out, perf_ns, output_text, {});
}

}  // namespace

void extract_responses_content(const json& j, int64_t perf_ns, ResponsesStreamState& state, ParseResult& out) {
  if (!j.is_object()) return;
  if (j.contains("type")) return stream_event(j, str(j, "type"), perf_ns, state, out);
  if (str(j, "object") == "response") full_response(j, perf_ns, out);
}

}  // namespace aiperf::endpoints
