// Request bodies that carry the turn's text as one prompt field: image_generation,
// solido_rag and Triton generate (spec §5.4; GenAI-Perf for generate).
#include "endpoints/payload_builders.h"

namespace aiperf::endpoints {

using nlohmann::ordered_json;

ordered_json image_generation_payload(const proto::Turn& turn, const std::string& model, bool streaming) {
  // AIPerf sends only the first content of the first text as the prompt.
  static const std::string kNone;
  const std::string& prompt =
      turn.texts_size() > 0 && turn.texts(0).contents_size() > 0 ? turn.texts(0).contents(0) : kNone;
  ordered_json payload;
  payload["prompt"] = prompt;
  payload["model"] = model;
  payload["response_format"] = "b64_json";  // the only format SGLang serves; extras may change it
  payload["n"] = 1;
  if (streaming) payload["stream"] = true;
  return payload;
}

ordered_json solido_rag_payload(const proto::Turn& turn, const std::string& model) {
  ordered_json payload;
  payload["query"] = turn_texts(turn);
  payload["filters"] = {{"family", "Solido"}, {"tool", "SDE"}};
  payload["inference_model"] = model;
  return payload;
}

ordered_json triton_generate_payload(const proto::Turn& turn, bool streaming) {
  std::string text_input;
  for (const std::string& t : turn_texts(turn)) text_input += (text_input.empty() ? "" : " ") + t;
  ordered_json payload;
  payload["text_input"] = std::move(text_input);
  if (streaming) payload["stream"] = true;
  if (turn.has_max_tokens()) payload["max_tokens"] = turn.max_tokens();
  return payload;
}

}  // namespace aiperf::endpoints
