// POST /v1/responses (see scripted_apis.h).
#include <algorithm>
#include <cstdio>
#include <ctime>

#include <nlohmann/json.hpp>

#include "scripted_apis.h"
#include "token_budget.h"

namespace aiperf::mock {

namespace {

using nlohmann::json;

// User text of `input`: a plain string, or items with string content or input_text parts.
void tally_input(const json& input, PromptTally& tally) {
  if (input.is_string()) return tally.add(input.get_ref<const std::string&>());
  if (!input.is_array()) throw BadRequest{"'input' must be a string or a list of items"};
  for (const json& item : input) {
    if (!item.is_object() || item.value("role", "user") != "user") continue;
    const auto content = item.find("content");
    if (content == item.end()) continue;
    if (content->is_string()) {
      tally.add(content->get_ref<const std::string&>());
    } else if (content->is_array()) {
      for (const json& part : *content)
        if (part.is_object() && part.value("type", "") == "input_text") tally.add(part.value("text", std::string()));
    }
  }
}

int reasoning_budget(const std::string& model, const json& body) {
  if (model.find("gpt-oss") == std::string::npos && model.find("qwen") == std::string::npos) return 0;
  std::string effort = "medium";
  if (auto r = body.find("reasoning"); r != body.end() && r->is_object()) effort = r->value("effort", effort);
  return effort == "low" ? 100 : effort == "high" ? 500 : 250;
}

}  // namespace

ScriptedOrBad responses_reply(std::string_view body_text, const TextPool& pool, const Pacing& pacing, uint64_t id) {
  const json body = json::parse(body_text, nullptr, /*allow_exceptions=*/false);
  if (body.is_discarded() || !body.is_object()) return BadRequest{"request body must be a JSON object"};
  try {
    const auto input = body.find("input");
    if (input == body.end()) throw BadRequest{"'input' is required"};
    PromptTally tally;
    tally_input(*input, tally);
    OutputRequest want;
    want.max_tokens = int_field(body, "max_output_tokens");
    want.min_tokens = int_field(body, "min_tokens");
    want.ignore_eos = body.value("ignore_eos", false);
    const OutputPlan plan = plan_output(want, tally.tokens(), tally.hash());
    const std::string model = body.contains("model") && body["model"].is_string() ? body["model"].get<std::string>()
                                                                                 : "mock-model";
    const int reasoning = std::min(reasoning_budget(model, body), plan.tokens);
    const size_t offset = tally.hash() % pool.size();
    std::string reasoning_text, text;
    for (int i = 0; i < plan.tokens; ++i) (i < reasoning ? reasoning_text : text) += pool.piece(offset, i);

    char id_text[32];
    std::snprintf(id_text, sizeof id_text, "resp_%016llx", static_cast<unsigned long long>(id));
    const int64_t created = std::time(nullptr);
    json usage = {{"input_tokens", tally.tokens()},
                  {"input_tokens_details", {{"cached_tokens", 0}}},
                  {"output_tokens", plan.tokens},
                  {"output_tokens_details", {{"reasoning_tokens", reasoning}}},
                  {"total_tokens", tally.tokens() + plan.tokens}};
    json output = json::array();
    if (reasoning > 0) {
      output.push_back({{"type", "reasoning"},
                        {"id", std::string("rs_") + (id_text + 5)},
                        {"summary", json::array({{{"type", "summary_text"}, {"text", reasoning_text}}})}});
    }
    output.push_back({{"type", "message"},
                      {"id", std::string("msg_") + (id_text + 5)},
                      {"status", "completed"},
                      {"role", "assistant"},
                      {"content", json::array({{{"type", "output_text"}, {"text", text}, {"annotations", json::array()}}})}});
    json response = {{"id", id_text},       {"object", "response"}, {"created_at", created},
                     {"status", "completed"}, {"model", model},     {"output", std::move(output)},
                     {"usage", std::move(usage)}};

    ScriptedReply reply;
    reply.prompt_tokens = tally.tokens();
    reply.output_tokens = plan.tokens;
    const int last = std::max(plan.tokens - 1, 0);
    if (!body.value("stream", false)) {
      reply.pieces.push_back({pacing.token(last), response.dump()});
      return reply;
    }
    reply.stream = true;
    reply.content_type = "text/event-stream";
    int seq = 0;
    json created_event = {{"type", "response.created"}, {"sequence_number", seq++},
                          {"response", {{"id", id_text}, {"object", "response"}, {"created_at", created},
                                        {"status", "in_progress"}, {"model", model}, {"output", json::array()}}}};
    reply.pieces.push_back({std::chrono::nanoseconds(0), sse_event("response.created", created_event.dump())});
    const int message_index = reasoning > 0 ? 1 : 0;
    for (int i = 0; i < plan.tokens; ++i) {
      const bool thinking = i < reasoning;
      const char* type = thinking ? "response.reasoning_text.delta" : "response.output_text.delta";
      json delta = {{"type", type},
                    {"sequence_number", seq++},
                    {"item_id", thinking ? std::string("rs_") + (id_text + 5) : std::string("msg_") + (id_text + 5)},
                    {"output_index", thinking ? 0 : message_index},
                    {"content_index", 0},
                    {"delta", std::string(pool.piece(offset, i))}};
      reply.pieces.push_back({pacing.token(i), sse_event(type, delta.dump())});
    }
    json done = {{"type", "response.output_text.done"}, {"sequence_number", seq++},
                 {"item_id", std::string("msg_") + (id_text + 5)}, {"output_index", message_index},
                 {"content_index", 0}, {"text", text}};
    reply.pieces.push_back({pacing.token(last), sse_event("response.output_text.done", done.dump())});
    json completed = {{"type", "response.completed"}, {"sequence_number", seq++}, {"response", std::move(response)}};
    reply.pieces.push_back({pacing.token(last), sse_event("response.completed", completed.dump())});
    return reply;
  } catch (const BadRequest& bad) {
    return bad;
  } catch (const json::exception& e) {
    return BadRequest{e.what()};
  }
}

}  // namespace aiperf::mock
