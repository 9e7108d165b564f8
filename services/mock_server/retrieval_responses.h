// Embeddings and rankings responses (spec §8.1): deterministic values derived from a hash of
// the inputs, so the same request always gets the same answer.
#pragma once
#include <string>
#include <string_view>
#include <variant>

#include "generation_request.h"  // BadRequest

namespace aiperf::mock {

enum class RetrievalApi { embeddings, nim_ranking, tei_rerank, cohere_rerank };

inline constexpr size_t kEmbeddingDims = 768;

// /v1/embeddings takes "input" (a string or list of strings) or chat "messages" (one vector);
// /v1/ranking {"query":{"text"},"passages":[{"text"}]}; /rerank {"query","texts"};
// /v2/rerank {"query","documents"}. The JSON body of the answer, or what is wrong.
std::variant<std::string, BadRequest> retrieval_response(RetrievalApi api, std::string_view body);

// The same answer and how many inputs (embeddings) or passages (rankings) it covers, which
// the latency knobs scale with.
struct RetrievalAnswer {
  std::string body;
  size_t items = 0;
};
std::variant<RetrievalAnswer, BadRequest> retrieval_answer(RetrievalApi api, std::string_view body);

}  // namespace aiperf::mock
