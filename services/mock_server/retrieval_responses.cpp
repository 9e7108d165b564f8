#include "retrieval_responses.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include <nlohmann/json.hpp>

#include "token_budget.h"

namespace aiperf::mock {
namespace {

using nlohmann::json;

uint64_t hash_of(std::string_view text) {
  PromptTally tally;
  tally.add(text);
  return tally.hash();
}

// A value in [-1, 1) with 4 decimals, from a 64-bit mix of `seed` and `k` (splitmix64).
double unit_value(uint64_t seed, uint64_t k) {
  uint64_t z = seed + 0x9e3779b97f4a7c15ull * (k + 1);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  z ^= z >> 31;
  return static_cast<double>(z % 20000) / 10000.0 - 1.0;
}

std::vector<std::string> string_list(const json& body, const char* key) {
  const auto it = body.find(key);
  if (it == body.end()) throw BadRequest{std::string("'") + key + "' is required"};
  if (it->is_string()) return {it->get<std::string>()};
  if (!it->is_array()) throw BadRequest{std::string("'") + key + "' must be a string or a list of strings"};
  std::vector<std::string> out;
  for (const json& item : *it) {
    if (!item.is_string()) throw BadRequest{std::string("'") + key + "' must contain strings"};
    out.push_back(item.get<std::string>());
  }
  return out;
}

RetrievalAnswer embeddings(const json& body) {
  std::vector<std::string> inputs;
  if (body.contains("messages")) {
    inputs.push_back(body["messages"].dump());  // chat_embeddings: one vector per conversation
  } else {
    inputs = string_list(body, "input");
  }
  int prompt_tokens = 0;
  json data = json::array();
  for (size_t i = 0; i < inputs.size(); ++i) {
    prompt_tokens += count_prompt_tokens(inputs[i]);
    const uint64_t seed = hash_of(inputs[i]);
    std::vector<double> vector(kEmbeddingDims);
    for (size_t k = 0; k < kEmbeddingDims; ++k) vector[k] = unit_value(seed, k);
    data.push_back({{"object", "embedding"}, {"index", i}, {"embedding", std::move(vector)}});
  }
  return {json{{"object", "list"},
               {"data", std::move(data)},
               {"model", body.value("model", "mock-model")},
               {"usage", {{"prompt_tokens", prompt_tokens}, {"total_tokens", prompt_tokens}}}}
              .dump(),
          inputs.size()};
}

// (index, score) of every passage, best first.
std::vector<std::pair<size_t, double>> scores(const std::string& query, const std::vector<std::string>& passages) {
  std::vector<std::pair<size_t, double>> out;
  const uint64_t seed = hash_of(query);
  for (size_t i = 0; i < passages.size(); ++i) out.emplace_back(i, unit_value(seed ^ hash_of(passages[i]), 0));
  std::stable_sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
  return out;
}

RetrievalAnswer rankings(RetrievalApi api, const json& body) {
  std::string query;
  std::vector<std::string> passages;
  if (api == RetrievalApi::nim_ranking) {
    const auto q = body.find("query");
    if (q == body.end() || !q->is_object() || !q->contains("text")) throw BadRequest{"'query.text' is required"};
    query = (*q)["text"].get<std::string>();
    const auto p = body.find("passages");
    if (p == body.end() || !p->is_array()) throw BadRequest{"'passages' must be a list"};
    for (const json& item : *p) passages.push_back(item.at("text").get<std::string>());
  } else {
    const auto q = body.find("query");
    if (q == body.end() || !q->is_string()) throw BadRequest{"'query' must be a string"};
    query = q->get<std::string>();
    passages = string_list(body, api == RetrievalApi::tei_rerank ? "texts" : "documents");
  }
  json results = json::array();
  for (const auto& [index, score] : scores(query, passages)) {
    switch (api) {
      case RetrievalApi::nim_ranking: results.push_back({{"index", index}, {"logit", score * 10}}); break;
      case RetrievalApi::tei_rerank: results.push_back({{"index", index}, {"score", (score + 1) / 2}}); break;
      default: results.push_back({{"index", index}, {"relevance_score", (score + 1) / 2}}); break;
    }
  }
  if (api == RetrievalApi::nim_ranking) return {json{{"rankings", std::move(results)}}.dump(), passages.size()};
  if (api == RetrievalApi::tei_rerank) return {results.dump(), passages.size()};
  return {json{{"id", "rerank-" + std::to_string(hash_of(query) % 1000000)},
               {"results", std::move(results)},
               {"meta", {{"billed_units", {{"search_units", 1}}}}}}
              .dump(),
          passages.size()};
}

}  // namespace

std::variant<std::string, BadRequest> retrieval_response(RetrievalApi api, std::string_view body) {
  auto answer = retrieval_answer(api, body);
  if (auto* bad = std::get_if<BadRequest>(&answer)) return *bad;
  return std::move(std::get<RetrievalAnswer>(answer).body);
}

std::variant<RetrievalAnswer, BadRequest> retrieval_answer(RetrievalApi api, std::string_view body) {
  const json parsed = json::parse(body, nullptr, /*allow_exceptions=*/false);
  if (parsed.is_discarded() || !parsed.is_object()) return BadRequest{"request body must be a JSON object"};
  try {
    return api == RetrievalApi::embeddings ? embeddings(parsed) : rankings(api, parsed);
  } catch (const BadRequest& bad) {
    return bad;
  } catch (const json::exception& e) {
    return BadRequest{e.what()};
  }
}

}  // namespace aiperf::mock
