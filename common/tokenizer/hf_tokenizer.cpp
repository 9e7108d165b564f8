#include "tokenizer/hf_tokenizer.h"

#include <nlohmann/json.hpp>

#include "tokenizer/bpe_model.h"
#include "tokenizer/unicode_util.h"

namespace aiperf::tok {

HfTokenizer::HfTokenizer(const nlohmann::json& json, const nlohmann::json& config)
    : HfTokenizer(json, config, nullptr) {}

HfTokenizer::HfTokenizer(const nlohmann::json& json, const nlohmann::json& config, ModelPtr model) {
  normalizer_ = make_normalizer(json.value("normalizer", nlohmann::json()));
  const auto& model_json = json.at("model");
  bool bytes_deferred = false;
  pre_tokenizer_ = make_pre_tokenizer(json.value("pre_tokenizer", nlohmann::json()),
                                      model_type(model_json) == "BPE", bytes_deferred);
  decoder_ = make_decoder(json.value("decoder", nlohmann::json()));
  if (model) {
    const auto* bpe = dynamic_cast<const BpeModel*>(model.get());
    if (!bpe || bpe->byte_input() != bytes_deferred) throw TokenizerError("cached model does not fit tokenizer.json");
    model_ = std::move(model);
  } else {
    model_ = make_model(model_json, bytes_deferred);
  }

  load_added_tokens(json.value("added_tokens", nlohmann::json::array()));
  separator_ = find_separator(config);
}

void HfTokenizer::load_added_tokens(const nlohmann::json& added) {
  std::vector<AddedTokenSpec> raw, normalized;
  vocab_size_ = model_->vocab_size();
  for (const auto& t : added) {
    AddedTokenSpec spec;
    spec.content = t.at("content").get<std::string>();
    const auto& id = t.at("id");
    if (!id.is_number_integer() || id.get<int64_t>() < 0 || id.get<int64_t>() >= (int64_t{1} << 24))
      throw TokenizerError("invalid id for added token '" + spec.content + "'");
    spec.id = id.get<TokenId>();
    spec.lstrip = t.value("lstrip", false);
    spec.rstrip = t.value("rstrip", false);
    spec.single_word = t.value("single_word", false);
    bool special = t.value("special", false);
    if (!model_->token_to_id(spec.content)) ++vocab_size_;
    added_by_content_.emplace(spec.content, spec.id);
    if (t.value("normalized", !special)) {
      // HF matches normalized tokens by their normalized form and decodes them to it too.
      if (normalizer_) normalizer_->normalize(spec.content);
      added_by_id_[spec.id] = {spec.content, special};
      normalized.push_back(std::move(spec));
    } else {
      added_by_id_[spec.id] = {spec.content, special};
      raw.push_back(std::move(spec));
    }
  }
  if (!raw.empty()) raw_tokens_ = std::make_unique<AddedTokenMatcher>(raw);
  if (!normalized.empty()) normalized_tokens_ = std::make_unique<AddedTokenMatcher>(normalized);
}

std::optional<TokenId> HfTokenizer::find_separator(const nlohmann::json& config) const {
  auto lookup = [&](const std::string& content) -> std::optional<TokenId> {
    if (auto it = added_by_content_.find(content); it != added_by_content_.end()) return it->second;
    return model_->token_to_id(content);
  };
  // tokenizer_config.json names the token as a string or as {"content": ...}.
  auto from_config = [&](const char* key) -> std::optional<TokenId> {
    if (!config.is_object() || !config.contains(key)) return std::nullopt;
    const auto& v = config[key];
    if (v.is_string()) return lookup(v.get<std::string>());
    if (v.is_object() && v.contains("content") && v["content"].is_string()) {
      return lookup(v["content"].get<std::string>());
    }
    return std::nullopt;
  };
  auto special_named = [&](std::initializer_list<const char*> names) -> std::optional<TokenId> {
    for (const char* name : names) {
      auto it = added_by_content_.find(name);
      if (it != added_by_content_.end() && added_by_id_.at(it->second).special) return it->second;
    }
    return std::nullopt;
  };
  if (auto bos = from_config("bos_token")) return bos;
  if (auto bos = special_named({"<s>", "<|begin_of_text|>", "<bos>"})) return bos;
  if (auto eos = from_config("eos_token")) return eos;
  return special_named({"<|endoftext|>", "</s>", "<eos>", "<|end_of_text|>"});
}

std::vector<TokenId> HfTokenizer::encode(std::string_view text) const {
  // Every later stage assumes valid UTF-8 (HF only accepts Rust strings); invalid input is
  // decoded lossily first, as Python would have to do before calling the tokenizer.
  std::string repaired;
  if (!uni::is_valid_utf8(text)) {
    repaired = uni::from_utf8_lossy(text);
    text = repaired;
  }
  std::vector<TokenId> out;
  out.reserve(text.size() / 3 + 1);
  if (!raw_tokens_) {
    encode_segment(text, true, out);
    return out;
  }
  std::vector<Segment> segments;
  raw_tokens_->split(text, segments);
  for (const Segment& s : segments) {
    if (s.id >= 0) {
      out.push_back(s.id);
    } else {
      encode_segment(text.substr(s.begin, s.end - s.begin), s.begin == 0, out);
    }
  }
  return out;
}

void HfTokenizer::encode_segment(std::string_view segment, bool at_start, std::vector<TokenId>& out) const {
  std::string normalized;
  if (normalizer_) {
    normalized.assign(segment);
    normalizer_->normalize(normalized);
    segment = normalized;
  }
  if (!normalized_tokens_) {
    encode_normalized(segment, at_start, out);
    return;
  }
  std::vector<Segment> parts;
  normalized_tokens_->split(segment, parts);
  for (const Segment& p : parts) {
    if (p.id >= 0) {
      out.push_back(p.id);
    } else {
      encode_normalized(segment.substr(p.begin, p.end - p.begin), at_start && p.begin == 0, out);
    }
  }
}

void HfTokenizer::encode_normalized(std::string_view text, bool at_start, std::vector<TokenId>& out) const {
  if (text.empty()) return;
  if (!pre_tokenizer_) {
    model_->tokenize(text, out);
    return;
  }
  PieceList list;
  list.buf.assign(text);
  list.pieces.push_back({0, static_cast<uint32_t>(text.size()), at_start});
  pre_tokenizer_->pre_tokenize(list);
  for (const Piece& p : list.pieces) model_->tokenize(list.view(p), out);
}

std::string HfTokenizer::decode(std::span<const TokenId> ids, bool skip_special_tokens) const {
  std::vector<std::string> tokens;
  tokens.reserve(ids.size());
  for (TokenId id : ids) {
    if (auto it = added_by_id_.find(id); it != added_by_id_.end()) {
      if (!(skip_special_tokens && it->second.special)) tokens.push_back(it->second.text);
    } else if (const std::string* t = model_->id_to_token(id)) {
      tokens.push_back(*t);
    }
  }
  std::string text;
  if (decoder_) {
    decoder_->decode_chain(tokens);
    for (const auto& t : tokens) text += t;
  } else {
    for (size_t i = 0; i < tokens.size(); ++i) {
      if (i > 0) text += ' ';
      text += tokens[i];
    }
  }
  return text;
}

}  // namespace aiperf::tok
