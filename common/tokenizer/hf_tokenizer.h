// Tokenizer for HuggingFace tokenizer.json files (BPE, WordPiece and Unigram models),
// reproducing the Rust `tokenizers` pipeline: added tokens -> normalizer -> pre-tokenizer ->
// model, and decoders.
#pragma once
#include <memory>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "tokenizer/added_tokens.h"
#include "tokenizer/decoders.h"
#include "tokenizer/model.h"
#include "tokenizer/normalizers.h"
#include "tokenizer/pre_tokenizers.h"
#include "tokenizer/tokenizer.h"

namespace aiperf::tok {

class HfTokenizer final : public Tokenizer {
 public:
  // `json` is the parsed tokenizer.json; `config` the parsed tokenizer_config.json or null.
  // Throws TokenizerError (without the file name) on unsupported or malformed content.
  HfTokenizer(const nlohmann::json& json, const nlohmann::json& config);
  // The same with the model built already (the tokenizer cache): `json`'s model object is
  // then only read for its type. Throws TokenizerError when `model` does not fit `json`.
  HfTokenizer(const nlohmann::json& json, const nlohmann::json& config, ModelPtr model);

  const Model& model() const { return *model_; }

  std::vector<TokenId> encode(std::string_view text) const override;
  std::string decode(std::span<const TokenId> ids, bool skip_special_tokens = true) const override;
  size_t vocab_size() const override { return vocab_size_; }
  std::optional<TokenId> block_separator() const override { return separator_; }

 private:
  struct AddedToken {
    std::string text;  // the string handed to the decoder
    bool special;
  };

  // Encodes text between raw-matched added tokens: normalize, split out normalized added
  // tokens, then pre-tokenize and run the model on each remaining part.
  void encode_segment(std::string_view segment, bool at_start, std::vector<TokenId>& out) const;
  void encode_normalized(std::string_view text, bool at_start, std::vector<TokenId>& out) const;
  void load_added_tokens(const nlohmann::json& added);
  std::optional<TokenId> find_separator(const nlohmann::json& config) const;

  NormalizerPtr normalizer_;
  PreTokenizerPtr pre_tokenizer_;
  ModelPtr model_;
  DecoderPtr decoder_;
  std::unique_ptr<AddedTokenMatcher> raw_tokens_;         // normalized:false, matched on raw text
  std::unique_ptr<AddedTokenMatcher> normalized_tokens_;  // normalized:true, on normalized text
  std::unordered_map<TokenId, AddedToken> added_by_id_;
  std::unordered_map<std::string, TokenId> added_by_content_;
  size_t vocab_size_ = 0;
  std::optional<TokenId> separator_;
};

}  // namespace aiperf::tok
