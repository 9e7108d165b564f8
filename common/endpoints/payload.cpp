// build_payload (spec §5.4): chat and completions here, the other types in payload_builders.cpp.
// Keys are emitted in AIPerf's insertion order (ordered_json), so request bodies and
// inputs.json match it byte for byte.
#include <algorithm>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "endpoints/video_generation.h"
#include "endpoints/endpoint.h"
#include "endpoints/payload_builders.h"

namespace aiperf::endpoints {

namespace {

using ordered_json = nlohmann::ordered_json;

// The conversation's latest tools (AIPerf 0.13 sends the most recent turn's that has any), or null.
const std::string* latest_raw_tools(const std::vector<const proto::Turn*>& turns) {
  const auto it =
      std::find_if(turns.rbegin(), turns.rend(), [](const proto::Turn* t) { return !t->raw_tools().empty(); });
  return it == turns.rend() ? nullptr : &(*it)->raw_tools();
}

bool has_media(const proto::Turn& turn) {
  return turn.images_size() > 0 || turn.audios_size() > 0 || turn.videos_size() > 0;
}

// "wav,<base64>" -> {"data": "<base64>", "format": "wav"}.
ordered_json audio_part(const std::string& content) {
  const size_t comma = content.find(',');
  const std::string format = comma == std::string::npos ? "wav" : content.substr(0, comma);
  const std::string data = comma == std::string::npos ? content : content.substr(comma + 1);
  return {{"type", "input_audio"}, {"input_audio", {{"data", data}, {"format", format}}}};
}

// One chat message per turn, role and content only (AIPerf 0.13 sends no "name", whatever the
// text's name): a single text without media is sent as plain content (unless `as_parts`: a user
// turn's content is then always a list, as GenAI-Perf's multimodal converter writes it); anything
// else as a list of parts (text, then images, audio, video), empties skipped.
ordered_json chat_message(const proto::Turn& turn, bool as_parts = false) {
  ordered_json message;
  message["role"] = turn.role().empty() ? "user" : turn.role();
  const bool list = as_parts && message["role"] == "user";
  if (turn.texts_size() == 1 && turn.texts(0).contents_size() == 1 && !has_media(turn) && !list) {
    message["content"] = turn.texts(0).contents(0);
    return message;
  }
  ordered_json parts = ordered_json::array();
  auto each = [&parts](const auto& batches, auto&& make) {
    for (const proto::Text& batch : batches)
      for (const std::string& content : batch.contents())
        if (!content.empty()) parts.push_back(make(content));
  };
  each(turn.texts(), [](const std::string& c) { return ordered_json{{"type", "text"}, {"text", c}}; });
  each(turn.images(), [](const std::string& c) {
    return ordered_json{{"type", "image_url"}, {"image_url", {{"url", c}}}};
  });
  each(turn.audios(), audio_part);
  each(turn.videos(), [](const std::string& c) {
    return ordered_json{{"type", "video_url"}, {"video_url", {{"url", c}}}};
  });
  message["content"] = std::move(parts);
  return message;
}

ordered_json chat_payload(const std::vector<const proto::Turn*>& turns, const std::string& system_message,
                          const std::string& user_context_message, bool as_parts = false) {
  ordered_json messages = ordered_json::array();
  if (!system_message.empty()) {
    messages.push_back({{"role", "system"}, {"content", system_message}});
  }
  if (!user_context_message.empty()) {
    messages.push_back({{"role", "user"}, {"content", user_context_message}});
  }
  ordered_json payload;
  // A trace's "messages" are the whole conversation so far: sent verbatim.
  if (!turns.empty() && !turns.back()->raw_messages().empty() && !turns.back()->raw_messages_delta()) {
    payload["messages"] = ordered_json::parse(turns.back()->raw_messages());
    return payload;
  }
  for (const proto::Turn* turn : turns) {
    if (!turn->raw_messages_delta()) {
      messages.push_back(chat_message(*turn, as_parts));
      continue;
    }
    for (auto& m : ordered_json::parse(turn->raw_messages())) messages.push_back(std::move(m));  // dag_jsonl deltas
  }
  payload["messages"] = std::move(messages);
  return payload;
}

// A single prompt goes out as a bare string (AIPerf 0.13, the canonical OpenAI form), any
// other number of them (none included) as a list.
ordered_json completions_payload(const proto::Turn& turn, bool prompt_list) {
  ordered_json prompt = ordered_json::array();
  for (const proto::Text& text : turn.texts()) {
    for (const std::string& content : text.contents()) {
      if (!content.empty()) prompt.push_back(content);
    }
  }
  ordered_json payload;
  if (prompt.size() == 1 && !prompt_list) {
    payload["prompt"] = std::move(prompt[0]);
  } else {
    payload["prompt"] = std::move(prompt);
  }
  return payload;
}

}  // namespace

namespace {

void merge_extra_inputs(ordered_json& payload, const nlohmann::json* extra_inputs) {
  // Python's dict.update: existing keys keep their position, new keys are appended.
  if (extra_inputs && extra_inputs->is_object()) {
    for (const auto& [key, value] : extra_inputs->items()) payload[key] = value;
  }
}

// Python's truth value of a JSON value, as AIPerf reads the merged payload's "stream".
bool truthy(const ordered_json& v) {
  if (v.is_boolean()) return v.get<bool>();
  if (v.is_number_integer()) return v.get<int64_t>() != 0;
  if (v.is_number_unsigned()) return v.get<uint64_t>() != 0;
  if (v.is_number_float()) return v.get<double>() != 0.0;
  if (v.is_string() || v.is_array() || v.is_object()) return !v.empty();
  return false;  // null
}

// Chat and completions (AIPerf 0.13): every request whose merged payload streams (the extras
// may override "stream") asks for the usage chunk, whatever --use-server-token-count says.
// The author's stream_options keys stay, in their order, and an explicit value is never
// overridden (include_usage: false stays false); an explicit null counts as absent; a
// stream_options that is not an object is left alone. --per-chunk-usage (chat only, validated
// by the CLI) adds continuous_usage_stats the same way.
void ensure_include_usage(ordered_json& payload, bool continuous) {
  const auto stream = payload.find("stream");
  if (stream == payload.end() || !truthy(*stream)) return;
  ordered_json& stream_options = payload["stream_options"];
  if (stream_options.is_null()) stream_options = ordered_json::object();
  if (!stream_options.is_object()) return;
  if (!stream_options.contains("include_usage")) stream_options["include_usage"] = true;
  if (continuous && !stream_options.contains("continuous_usage_stats")) stream_options["continuous_usage_stats"] = true;
}

// Responses (AIPerf 0.13): only a streaming run with --use-server-token-count asks for the
// usage, "stream" as configured (not as the extras left it); a stream_options that is not an
// object is replaced, an explicit include_usage kept.
void responses_include_usage(ordered_json& payload, const PayloadOptions& options) {
  if (!options.streaming || !options.use_server_token_count) return;
  ordered_json& stream_options = payload["stream_options"];
  if (!stream_options.is_object()) stream_options = ordered_json::object();
  if (!stream_options.contains("include_usage")) stream_options["include_usage"] = true;
}

// Endpoint types whose body comes from the current turn alone, extras merged at the top level
// (spec §5.4).
std::optional<ordered_json> single_turn_payload(const EndpointInfo& info, const PayloadOptions& options,
                                                   const std::vector<const proto::Turn*>& turns,
                                                   const std::string& system_message,
                                                   const std::string& user_context_message) {
  static const proto::Turn kEmptyTurn;
  const proto::Turn& last = turns.empty() ? kEmptyTurn : *turns.back();
  const std::string& model = last.model().empty() ? options.model : last.model();
  const std::string_view type = info.type;
  if (type == "embeddings" || type == "nim_embeddings") return embeddings_payload(last, model, type == "nim_embeddings");
  if (type == "nim_rankings") return rankings_payload(last, model, RankingsFlavor::nim);
  if (type == "cohere_rankings") return rankings_payload(last, model, RankingsFlavor::cohere);
  if (type == "hf_tei_rankings") return rankings_payload(last, model, RankingsFlavor::hf_tei);
  if (type == "image_generation") return image_generation_payload(last, model, options.streaming);
  if (type == "solido_rag") return solido_rag_payload(last, model);
  if (type == "generate") return triton_generate_payload(last, options.streaming);
  if (type == "chat_embeddings") {
    ordered_json payload = chat_payload({&last}, system_message, user_context_message);
    payload["model"] = model;
    return payload;
  }
  return std::nullopt;
}

}  // namespace

namespace {

// The texts of a verbatim request body, space-joined as AIPerf counts its input tokens (its
// payload walk): per chat message its content (a string, or the parts of type "text"), the
// name/arguments of its tool_calls; then each tool schema's name, description and compact
// parameters; a body without "messages" gives its completions "prompt".
std::string raw_payload_text(const ordered_json& payload) {
  std::string out;
  auto add = [&out](const ordered_json& v) {
    if (!v.is_string() || v.get_ref<const std::string&>().empty()) return;
    if (!out.empty()) out.push_back(' ');
    out += v.get_ref<const std::string&>();
  };
  auto fields = [&add](const ordered_json& source, std::initializer_list<const char*> keys) {
    if (!source.is_object()) return;
    for (const char* k : keys)
      if (auto it = source.find(k); it != source.end()) add(*it);
  };
  if (!payload.is_object()) return out;
  auto messages = payload.find("messages");
  const bool chat = messages != payload.end() && messages->is_array();
  if (chat) {
    for (const auto& m : *messages) {
      if (!m.is_object()) continue;
      if (auto content = m.find("content"); content != m.end()) {
        if (content->is_array()) {
          for (const auto& part : *content)
            if (part.is_object() && part.value("type", "") == "text" && part.contains("text")) add(part["text"]);
        } else {
          add(*content);
        }
      }
      if (auto calls = m.find("tool_calls"); calls != m.end() && calls->is_array())
        for (const auto& call : *calls)
          if (call.is_object() && call.contains("function")) fields(call["function"], {"name", "arguments"});
    }
  }
  if (auto tools = payload.find("tools"); tools != payload.end() && tools->is_array()) {
    for (const auto& tool : *tools) {
      if (!tool.is_object()) continue;
      for (const ordered_json* source : {tool.contains("function") ? &tool["function"] : nullptr, &tool}) {
        if (!source || !source->is_object()) continue;
        fields(*source, {"name", "description"});
        if (auto params = source->find("parameters"); params != source->end() && params->is_object())
          add(ordered_json(params->dump()));
      }
    }
  }
  if (!chat) {
    if (auto prompt = payload.find("prompt"); prompt != payload.end()) {
      if (prompt->is_array()) {
        for (const auto& p : *prompt) add(p);
      } else {
        add(*prompt);
      }
    }
  }
  return out;
}

ordered_json parse_or_null(const std::string& text) {
  return ordered_json::parse(text, nullptr, /*allow_exceptions=*/false);
}

}  // namespace

std::string input_text(const std::vector<const proto::Turn*>& turns, const std::string& system_message,
                       const std::string& user_context_message) {
  // A verbatim body already holds the whole conversation.
  if (!turns.empty() && !turns.back()->raw_payload().empty()) return raw_payload_text(parse_or_null(turns.back()->raw_payload()));
  // A trace's verbatim messages (and tools) are the whole request, as sent by chat_payload.
  if (!turns.empty() && !turns.back()->raw_messages().empty()) {
    ordered_json payload;
    payload["messages"] = turns.back()->raw_messages_delta()
                              ? chat_payload(turns, system_message, user_context_message)["messages"]
                              : parse_or_null(turns.back()->raw_messages());
    if (const std::string* tools = latest_raw_tools(turns)) payload["tools"] = parse_or_null(*tools);
    return raw_payload_text(payload);
  }
  std::string out;
  bool first = true;
  auto separate = [&] {
    if (!first) out.push_back(' ');
    first = false;
  };
  for (const std::string* part : {&system_message, &user_context_message}) {
    if (part->empty()) continue;
    separate();
    out += *part;
  }
  for (const proto::Turn* turn : turns) {
    for (const auto& text : turn->texts()) {
      separate();
      for (const auto& c : text.contents()) out += c;
    }
  }
  return out;
}

std::string build_payload(const EndpointInfo& info, const PayloadOptions& options,
                          const std::vector<const proto::Turn*>& turns,
                          const std::string& system_message,
                          const std::string& user_context_message) {
  static const proto::Turn kEmptyTurn;
  const proto::Turn& last = turns.empty() ? kEmptyTurn : *turns.back();
  // A raw_payload / inputs_json turn is the request body itself: no formatting, no extras.
  if (!last.raw_payload().empty()) return last.raw_payload();
  const std::string& model = last.model().empty() ? options.model : last.model();
  if (info.type == "huggingface_generate") return tgi_generate_payload(last, options.extra_inputs).dump();
  if (info.type == "kserve")
    return kserve_payload(last, options.streaming, options.extra_inputs, options.kserve_vllm).dump();
  if (info.type == "template") return template_payload(turns, model, options.streaming, options.extra_inputs).dump();
  if (info.type == "raw") {
    // raw formats nothing: only raw_payload / inputs_json turns (sent verbatim above) can be sent.
    throw std::invalid_argument(
        "RawEndpoint received request_info with " + std::to_string(turns.size()) +
        " turn(s) but the last turn (index " + std::to_string(static_cast<int>(turns.size()) - 1) +
        ") has no raw_payload set. Use --custom-dataset-type raw_payload or inputs_json so the loader "
        "populates raw_payload on every turn.");
  }
  if (info.type == "image_retrieval") {
    ordered_json payload = image_retrieval_payload(turns);
    merge_extra_inputs(payload, options.extra_inputs);
    return payload.dump();
  }
  if (info.type == "image_edit") return image_edit_payload(turns, model, options.extra_inputs).dump();
  if (info.type == "audio_transcription") return audio_transcription_payload(turns, model, options.extra_inputs).dump();
  if (info.type == "video_generation") return video_generation_payload(turns, model, options.extra_inputs).dump();
  if (info.type == "messages") {
    ordered_json payload = messages_payload(turns, model, options.streaming, system_message, user_context_message);
    merge_extra_inputs(payload, options.extra_inputs);
    return payload.dump();
  }
  if (info.type == "responses") {
    ordered_json payload = responses_payload(turns, model, options.streaming, system_message, user_context_message);
    merge_extra_inputs(payload, options.extra_inputs);
    responses_include_usage(payload, options);
    return payload.dump();
  }
  if (auto payload = single_turn_payload(info, options, turns, system_message, user_context_message)) {
    merge_extra_inputs(*payload, options.extra_inputs);
    return payload->dump();
  }
  const bool chat = info.type == "chat";

  ordered_json payload = chat ? chat_payload(turns, system_message, user_context_message, options.chat_content_parts)
                              : completions_payload(last, options.genai_perf);
  payload["model"] = model;
  payload["stream"] = options.streaming;
  // Chat: the latest tools of the conversation, before the token limit (AIPerf 0.13's order).
  if (chat) {
    if (const std::string* tools = latest_raw_tools(turns)) payload["tools"] = ordered_json::parse(*tools);
  }
  // Chat sends any max_tokens the turn has; completions only a non-zero one (AIPerf 0.13).
  if (last.has_max_tokens() && (chat || last.max_tokens() != 0)) {
    const bool legacy = !chat || options.use_legacy_max_tokens;
    payload[legacy ? "max_tokens" : "max_completion_tokens"] = last.max_tokens();
  }
  merge_extra_inputs(payload, options.extra_inputs);  // extras override everything above
  // The turn's own body fields come last (AIPerf's Turn.extra_body update).
  if (!last.extra_body().empty()) {
    const ordered_json body = ordered_json::parse(last.extra_body());
    for (const auto& [key, value] : body.items()) payload[key] = value;
  }
  if (!options.genai_perf) ensure_include_usage(payload, chat && options.per_chunk_usage);
  return payload.dump();
}

}  // namespace aiperf::endpoints
