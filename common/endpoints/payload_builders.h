// Request bodies of the non-OpenAI-chat endpoint types (spec §5.4). Private to the endpoints
// library; build_payload dispatches here and merges --extra-inputs.
#pragma once
#include <vector>

#include <nlohmann/json.hpp>

#include "dataset.pb.h"

namespace aiperf::endpoints {

// Every non-empty text content of `turn`, in order.
std::vector<std::string> turn_texts(const proto::Turn& turn);

// embeddings: {"model", "input": [texts]}; nim_embeddings: texts, images, or "<text> <image>"
// pairs when both are present.
nlohmann::ordered_json embeddings_payload(const proto::Turn& turn, const std::string& model, bool nim);

// Rankings read texts named query/queries and passages (other names are ignored):
// nim {"model", "query": {"text"}, "passages": [{"text"}]}; cohere {"model", "query",
// "documents"}; hf_tei {"query", "texts"} (no model).
enum class RankingsFlavor { nim, cohere, hf_tei };
nlohmann::ordered_json rankings_payload(const proto::Turn& turn, const std::string& model, RankingsFlavor flavor);

// huggingface_generate (TGI): {"inputs": texts joined by " ", "parameters": {"max_new_tokens"?}};
// extras go inside "parameters".
nlohmann::ordered_json tgi_generate_payload(const proto::Turn& turn, const nlohmann::json* extra_inputs);

}  // namespace aiperf::endpoints
