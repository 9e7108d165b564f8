// HF WordPiece model (BERT): greedy longest-match-first over each pre-token, pieces after the
// first carrying the continuing-subword prefix ("##"); a pre-token that cannot be covered, or
// that is longer than max_input_chars_per_word characters, becomes the single unk token.
#pragma once
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <unordered_map>
#include <vector>

#include "tokenizer/model.h"

namespace aiperf::tok {

class WordPieceModel final : public Model {
 public:
  // `model` is tokenizer.json's `model` object. Throws TokenizerError when malformed or when
  // unk_token is not in the vocab.
  explicit WordPieceModel(const nlohmann::json& model);

  void tokenize(std::string_view piece, std::vector<TokenId>& out) const override;
  std::optional<TokenId> token_to_id(std::string_view token) const override;
  const std::string* id_to_token(TokenId id) const override;
  size_t vocab_size() const override { return vocab_.size(); }

 private:
  struct Hash {
    using is_transparent = void;
    size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
  };
  std::unordered_map<std::string, TokenId, Hash, std::equal_to<>> vocab_;
  std::vector<std::string> id_to_token_;
  std::vector<bool> has_id_;
  std::string prefix_;
  size_t max_chars_ = 100;
  size_t max_token_bytes_ = 0;  // longest vocab entry: no longer candidate needs a lookup
  TokenId unk_id_ = -1;
};

}  // namespace aiperf::tok
