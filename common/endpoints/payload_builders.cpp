#include "endpoints/payload_builders.h"

namespace aiperf::endpoints {

using nlohmann::ordered_json;

std::vector<std::string> turn_texts(const proto::Turn& turn) {
  std::vector<std::string> out;
  for (const proto::Text& text : turn.texts())
    for (const std::string& c : text.contents())
      if (!c.empty()) out.push_back(c);
  return out;
}

ordered_json embeddings_payload(const proto::Turn& turn, const std::string& model, bool nim) {
  std::vector<std::string> input = turn_texts(turn);
  if (nim) {
    std::vector<std::string> images;
    for (const proto::Text& batch : turn.images())
      for (const std::string& c : batch.contents())
        if (!c.empty()) images.push_back(c);
    if (input.empty()) {
      input = std::move(images);
    } else if (!images.empty()) {
      // Text and image pairs; a count mismatch pairs what it can (AIPerf raises instead).
      for (size_t i = 0; i < input.size() && i < images.size(); ++i) input[i] += " " + images[i];
      input.resize(std::min(input.size(), images.size()));
    }
  }
  ordered_json payload;
  payload["model"] = model;
  payload["input"] = std::move(input);
  return payload;
}

ordered_json rankings_payload(const proto::Turn& turn, const std::string& model, RankingsFlavor flavor) {
  std::string query;
  std::vector<std::string> passages;
  for (const proto::Text& text : turn.texts()) {
    const std::string& name = text.name();
    for (const std::string& c : text.contents()) {
      if ((name == "query" || name == "queries") && query.empty()) query = c;
      if (name == "passages" || name == "passage") passages.push_back(c);
    }
  }
  ordered_json payload;
  switch (flavor) {
    case RankingsFlavor::nim: {
      payload["model"] = model;
      payload["query"] = {{"text", query}};
      ordered_json list = ordered_json::array();
      for (const auto& p : passages) list.push_back({{"text", p}});
      payload["passages"] = std::move(list);
      break;
    }
    case RankingsFlavor::cohere:
      payload["model"] = model;
      payload["query"] = query;
      payload["documents"] = passages;
      break;
    case RankingsFlavor::hf_tei:
      payload["query"] = query;
      payload["texts"] = passages;
      break;
  }
  return payload;
}

ordered_json tgi_generate_payload(const proto::Turn& turn, const nlohmann::json* extra_inputs) {
  std::string inputs;
  for (const std::string& t : turn_texts(turn)) inputs += (inputs.empty() ? "" : " ") + t;
  ordered_json parameters = ordered_json::object();
  if (turn.has_max_tokens()) parameters["max_new_tokens"] = turn.max_tokens();
  if (extra_inputs && extra_inputs->is_object())
    for (const auto& [key, value] : extra_inputs->items()) parameters[key] = value;
  ordered_json payload;
  payload["inputs"] = std::move(inputs);
  payload["parameters"] = std::move(parameters);
  return payload;
}

}  // namespace aiperf::endpoints
