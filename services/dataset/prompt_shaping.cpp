#include "prompt_shaping.h"

#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "coding_corpus.h"
#include "corpus.h"
#include "endpoints/cache_bust.h"

namespace aiperf::dataset {

std::optional<std::set<tok::TokenId>> hf_special_ids(const std::string& tokenizer_path,
                                                     const tok::Tokenizer& tokenizer) {
  namespace fs = std::filesystem;
  if (tokenizer_path.empty()) return std::nullopt;
  std::error_code ec;
  const fs::path p(tokenizer_path);
  std::ifstream f((fs::is_directory(p, ec) ? p : p.parent_path()) / "tokenizer_config.json");
  if (!f) return std::nullopt;
  const nlohmann::json config = nlohmann::json::parse(f, nullptr, false);
  if (!config.is_object()) return std::nullopt;
  std::set<tok::TokenId> ids;
  auto add = [&](const nlohmann::json& v) {
    std::string text;
    if (v.is_string()) text = v.get<std::string>();
    else if (v.is_object() && v.contains("content") && v["content"].is_string()) text = v["content"].get<std::string>();
    if (text.empty()) return;
    const auto encoded = tokenizer.encode(text);
    if (encoded.size() == 1) ids.insert(encoded[0]);
  };
  for (const char* key : {"bos_token", "eos_token", "unk_token", "sep_token", "pad_token", "cls_token", "mask_token"})
    if (config.contains(key)) add(config[key]);
  for (const char* key : {"additional_special_tokens", "extra_special_tokens"})
    if (config.contains(key) && config[key].is_array())
      for (const auto& v : config[key]) add(v);
  return ids;
}

PromptGenerator make_prompt_generator(const config::InputConfig& in, const tok::Tokenizer& tokenizer,
                                      const std::string& tokenizer_path) {
  const auto& ps = in.prompt_shaping;
  switch (ps.prompt_corpus) {
    case config::PromptCorpus::kRandom: {
      const auto special = hf_special_ids(tokenizer_path, tokenizer);
      return PromptGenerator::random_vocab(tokenizer, ps.random_corpus_style, special ? &*special : nullptr);
    }
    case config::PromptCorpus::kCoding:
      return PromptGenerator(tokenizer, generate_coding_corpus());
    case config::PromptCorpus::kSonnet:
      break;
  }
  return PromptGenerator(tokenizer, generate_corpus());
}

void apply_system_prompt(std::vector<proto::Conversation>& conversations, const config::InputConfig& in) {
  const auto& text = in.prompt_shaping.system_prompt;
  if (!text) return;
  for (auto& conv : conversations) {
    if (conv.system_message().empty()) conv.set_system_message(*text);
    else conv.set_system_message(*text + "\n\n" + conv.system_message());
  }
}

CacheBustBudget cache_bust_budget(const config::InputConfig& in, const tok::Tokenizer& tokenizer) {
  const config::CacheBust target = in.prompt_shaping.cache_bust;
  CacheBustBudget b;
  const uint32_t cost = endpoints::cache_bust_marker_tokens(target, tokenizer);
  if (cost == 0) return b;  // none and the warmup-isolation targets: profiling requests carry no marker
  const bool system_target = endpoints::cache_bust_is_system_target(target);
  const bool has_system = in.shared_system_prompt_length > 0 || in.prompt_shaping.system_prompt.has_value();
  if (system_target && has_system) {
    if (in.shared_system_prompt_length > 0) b.shared_system_tokens = cost;
  } else {
    b.first_turn_tokens = cost;
  }
  return b;
}

}  // namespace aiperf::dataset
