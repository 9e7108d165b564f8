// Solido RAG and Triton generate: prompt in, generated text out (see scripted_apis.h).
#include <optional>

#include <nlohmann/json.hpp>

#include "scripted_apis.h"
#include "token_budget.h"

namespace aiperf::mock {

std::optional<int> int_field(const nlohmann::json& body, const char* key) {
  auto it = body.find(key);
  if (it == body.end() || it->is_null()) return std::nullopt;
  if (!it->is_number_integer() || it->get<int64_t>() < 0 || it->get<int64_t>() > 1'000'000)
    throw BadRequest{std::string("'") + key + "' must be a non-negative integer"};
  return it->get<int>();
}

namespace {

using nlohmann::json;

// A string or a list of strings, added to the tally.
void tally_texts(const json& body, const char* key, PromptTally& tally) {
  const auto it = body.find(key);
  if (it == body.end()) throw BadRequest{std::string("'") + key + "' is required"};
  if (it->is_string()) return tally.add(it->get_ref<const std::string&>());
  if (!it->is_array()) throw BadRequest{std::string("'") + key + "' must be a string or a list of strings"};
  for (const json& item : *it) {
    if (!item.is_string()) throw BadRequest{std::string("'") + key + "' must contain strings"};
    tally.add(item.get_ref<const std::string&>());
  }
}

json parse_object(std::string_view text) {
  json body = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (body.is_discarded() || !body.is_object()) throw BadRequest{"request body must be a JSON object"};
  return body;
}

// One text per output token, on the chat schedule; `event(i, piece)` frames token i.
template <typename Event>
void stream_tokens(ScriptedReply& reply, const TextPool& pool, size_t offset, const Pacing& pacing, Event event) {
  reply.stream = true;
  reply.content_type = "text/event-stream";
  for (int i = 0; i < reply.output_tokens; ++i)
    reply.pieces.push_back({pacing.token(i), sse_data(event(pool.piece(offset, i)))});
}

std::string full_text(const TextPool& pool, size_t offset, int tokens) {
  std::string text;
  for (int i = 0; i < tokens; ++i) text += pool.piece(offset, i);
  return text;
}

template <typename Build>
ScriptedOrBad guarded(Build build) {
  try {
    return build();
  } catch (const BadRequest& bad) {
    return bad;
  } catch (const json::exception& e) {
    return BadRequest{e.what()};
  }
}

}  // namespace

ScriptedOrBad solido_rag_reply(std::string_view body_text, const TextPool& pool, const Pacing& pacing) {
  return guarded([&]() -> ScriptedOrBad {
    const json body = parse_object(body_text);
    PromptTally tally;
    tally_texts(body, "query", tally);
    const OutputPlan plan = plan_output(OutputRequest{}, tally.tokens(), tally.hash());
    const size_t offset = tally.hash() % pool.size();
    const json sources = json::array({{{"title", "SDE User Guide"}, {"page", 1 + tally.hash() % 400}, {"score", 0.87}},
                                      {{"title", "Solido Variation Designer"}, {"page", 12}, {"score", 0.74}}});
    ScriptedReply reply;
    reply.prompt_tokens = tally.tokens();
    reply.output_tokens = plan.tokens;
    if (!body.value("stream", false)) {
      json response = {{"content", full_text(pool, offset, plan.tokens)},
                       {"sources", sources},
                       {"inference_model", body.value("inference_model", "mock-model")},
                       {"filters", body.value("filters", json::object())}};
      reply.pieces.push_back({pacing.token(plan.tokens - 1), response.dump()});
      return reply;
    }
    stream_tokens(reply, pool, offset, pacing,
                  [](std::string_view piece) { return json{{"content", std::string(piece)}}.dump(); });
    reply.pieces.push_back({pacing.token(plan.tokens - 1), sse_data(json{{"content", ""}, {"sources", sources}}.dump())});
    return reply;
  });
}

ScriptedOrBad triton_generate_reply(std::string_view target, std::string_view body_text, bool stream,
                                    const TextPool& pool, const Pacing& pacing) {
  return guarded([&]() -> ScriptedOrBad {
    const json body = parse_object(body_text);
    PromptTally tally;
    tally_texts(body, "text_input", tally);
    OutputRequest want;
    want.max_tokens = int_field(body, "max_tokens");
    want.min_tokens = int_field(body, "min_tokens");
    want.ignore_eos = body.value("ignore_eos", false);
    const OutputPlan plan = plan_output(want, tally.tokens(), tally.hash());
    // /v2/models/<name>/generate...: Triton echoes the model from the path.
    std::string_view model = target.substr(std::string_view("/v2/models/").size());
    model = model.substr(0, model.find('/'));
    const size_t offset = tally.hash() % pool.size();
    ScriptedReply reply;
    reply.prompt_tokens = tally.tokens();
    reply.output_tokens = plan.tokens;
    const auto answer = [&](std::string_view text) {
      return json{{"model_name", std::string(model)}, {"model_version", "1"}, {"text_output", std::string(text)}}.dump();
    };
    if (!stream) {
      reply.pieces.push_back({pacing.token(plan.tokens - 1), answer(full_text(pool, offset, plan.tokens))});
      return reply;
    }
    stream_tokens(reply, pool, offset, pacing, answer);
    return reply;
  });
}

ScriptedOrBad retrieval_reply(RetrievalApi api, std::string_view body, std::chrono::nanoseconds base,
                              std::chrono::nanoseconds per_item) {
  auto answer = retrieval_answer(api, body);
  if (auto* bad = std::get_if<BadRequest>(&answer)) return *bad;
  RetrievalAnswer& ok = std::get<RetrievalAnswer>(answer);
  ScriptedReply reply;
  reply.pieces.push_back({base + static_cast<int64_t>(ok.items) * per_item, std::move(ok.body)});
  return reply;
}

}  // namespace aiperf::mock
