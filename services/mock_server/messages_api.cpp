// POST /v1/messages (Anthropic Messages API, see scripted_apis.h).
#include <algorithm>
#include <cstdio>

#include <nlohmann/json.hpp>

#include "scripted_apis.h"
#include "token_budget.h"

namespace aiperf::mock {

namespace {

using nlohmann::json;

// User text of `messages`: string content or `text` blocks of user messages (as chat counts).
void tally_messages(const json& messages, PromptTally& tally) {
  if (!messages.is_array()) throw BadRequest{"'messages' must be a list of messages"};
  for (const json& message : messages) {
    if (!message.is_object() || message.value("role", "") != "user") continue;
    const auto content = message.find("content");
    if (content == message.end()) continue;
    if (content->is_string()) {
      tally.add(content->get_ref<const std::string&>());
    } else if (content->is_array()) {
      for (const json& block : *content)
        if (block.is_object() && block.value("type", "") == "text") tally.add(block.value("text", std::string()));
    }
  }
}

// Extended thinking: {"thinking": {"type": "enabled", "budget_tokens": N}} reasons for N tokens
// first (capped by the output budget).
int thinking_budget(const json& body) {
  const auto thinking = body.find("thinking");
  if (thinking == body.end() || !thinking->is_object() || thinking->value("type", "") != "enabled") return 0;
  return int_field(*thinking, "budget_tokens").value_or(0);
}

json block_delta(int index, const char* type, const char* field, std::string_view value) {
  return {{"type", "content_block_delta"}, {"index", index}, {"delta", {{"type", type}, {field, value}}}};
}

}  // namespace

ScriptedOrBad messages_reply(std::string_view body_text, const TextPool& pool, const Pacing& pacing, uint64_t id) {
  const json body = json::parse(body_text, nullptr, /*allow_exceptions=*/false);
  if (body.is_discarded() || !body.is_object()) return BadRequest{"request body must be a JSON object"};
  try {
    const auto messages = body.find("messages");
    if (messages == body.end()) throw BadRequest{"messages: Field required"};
    PromptTally tally;
    tally_messages(*messages, tally);
    OutputRequest want;
    want.max_tokens = int_field(body, "max_tokens");
    if (!want.max_tokens) throw BadRequest{"max_tokens: Field required"};
    want.min_tokens = int_field(body, "min_tokens");
    want.ignore_eos = body.value("ignore_eos", false);
    const OutputPlan plan = plan_output(want, tally.tokens(), tally.hash());
    const std::string model = body.contains("model") && body["model"].is_string() ? body["model"].get<std::string>()
                                                                                 : "mock-model";
    const int reasoning = std::min(thinking_budget(body), plan.tokens);
    const size_t offset = tally.hash() % pool.size();
    std::string thinking_text, text;
    for (int i = 0; i < plan.tokens; ++i) (i < reasoning ? thinking_text : text) += pool.piece(offset, i);

    char id_text[32];
    std::snprintf(id_text, sizeof id_text, "msg_%016llx", static_cast<unsigned long long>(id));
    const char* stop_reason = plan.hit_limit ? "max_tokens" : "end_turn";
    const std::string signature = "mock-signature";
    json content = json::array();
    if (reasoning > 0) content.push_back({{"type", "thinking"}, {"thinking", thinking_text}, {"signature", signature}});
    if (!text.empty()) content.push_back({{"type", "text"}, {"text", text}});
    const json message_head = {{"id", id_text}, {"type", "message"}, {"role", "assistant"}, {"model", model}};

    ScriptedReply reply;
    reply.prompt_tokens = tally.tokens();
    reply.output_tokens = plan.tokens;
    const int last = std::max(plan.tokens - 1, 0);
    if (!body.value("stream", false)) {
      json message = message_head;
      message["content"] = std::move(content);
      message["stop_reason"] = stop_reason;
      message["stop_sequence"] = nullptr;
      message["usage"] = {{"input_tokens", tally.tokens()},
                          {"cache_creation_input_tokens", 0},
                          {"cache_read_input_tokens", 0},
                          {"output_tokens", plan.tokens}};
      reply.pieces.push_back({pacing.token(last), message.dump()});
      return reply;
    }
    reply.stream = true;
    reply.content_type = "text/event-stream";
    // "mock_error_after": N (ours) ends the stream after N content deltas with the error event
    // the API sends when it fails mid-stream (`event: error`, an overloaded_error payload).
    const std::optional<int> error_after = int_field(body, "mock_error_after");
    int deltas = 0;
    bool failed = false;
    auto send = [&](std::chrono::nanoseconds at, const char* type, const json& event) {
      if (failed) return;
      if (error_after && std::string_view(type) == "content_block_delta" && deltas++ == *error_after) {
        failed = true;
        const json error = {{"type", "error"}, {"error", {{"type", "overloaded_error"}, {"message", "Overloaded"}}}};
        reply.pieces.push_back({at, sse_event("error", error.dump())});
        return;
      }
      reply.pieces.push_back({at, sse_event(type, event.dump())});
    };
    // message_start carries the input tokens (and output_tokens 1, as the API does); the final
    // output count comes with message_delta.
    json start = message_head;
    start["content"] = json::array();
    start["stop_reason"] = nullptr;
    start["stop_sequence"] = nullptr;
    start["usage"] = {{"input_tokens", tally.tokens()},
                      {"cache_creation_input_tokens", 0},
                      {"cache_read_input_tokens", 0},
                      {"output_tokens", 1}};
    send(std::chrono::nanoseconds(0), "message_start", {{"type", "message_start"}, {"message", std::move(start)}});
    send(std::chrono::nanoseconds(0), "ping", {{"type", "ping"}});
    int index = 0;
    if (reasoning > 0) {
      send(pacing.token(0), "content_block_start",
           {{"type", "content_block_start"}, {"index", index}, {"content_block", {{"type", "thinking"}, {"thinking", ""}, {"signature", ""}}}});
      for (int i = 0; i < reasoning; ++i)
        send(pacing.token(i), "content_block_delta", block_delta(index, "thinking_delta", "thinking", pool.piece(offset, i)));
      send(pacing.token(reasoning - 1), "content_block_delta", block_delta(index, "signature_delta", "signature", signature));
      send(pacing.token(reasoning - 1), "content_block_stop", {{"type", "content_block_stop"}, {"index", index}});
      ++index;
    }
    if (reasoning < plan.tokens) {
      send(pacing.token(reasoning), "content_block_start",
           {{"type", "content_block_start"}, {"index", index}, {"content_block", {{"type", "text"}, {"text", ""}}}});
      for (int i = reasoning; i < plan.tokens; ++i)
        send(pacing.token(i), "content_block_delta", block_delta(index, "text_delta", "text", pool.piece(offset, i)));
      send(pacing.token(last), "content_block_stop", {{"type", "content_block_stop"}, {"index", index}});
    }
    send(pacing.token(last), "message_delta",
         {{"type", "message_delta"},
          {"delta", {{"stop_reason", stop_reason}, {"stop_sequence", nullptr}}},
          {"usage", {{"output_tokens", plan.tokens}}}});
    send(pacing.token(last), "message_stop", {{"type", "message_stop"}});
    return reply;
  } catch (const BadRequest& bad) {
    return bad;
  } catch (const json::exception& e) {
    return BadRequest{e.what()};
  }
}

}  // namespace aiperf::mock
