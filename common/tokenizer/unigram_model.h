// HF Unigram model (SentencePiece unigram as in T5, ALBERT, XLM-R): the segmentation of each
// pre-token with the highest total log-probability (Viterbi over every vocab piece matching at
// each position), as HF's encode_optimized computes it.
#pragma once
#include <array>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "tokenizer/bpe_cache.h"
#include "tokenizer/byte_trie.h"
#include "tokenizer/model.h"

namespace aiperf::tok {

class UnigramModel final : public Model {
 public:
  // `model` is tokenizer.json's `model` object: vocab [[piece, score], ...] (id = index),
  // unk_id, byte_fallback. Throws TokenizerError when malformed.
  explicit UnigramModel(const nlohmann::json& model);

  void tokenize(std::string_view piece, std::vector<TokenId>& out) const override;
  std::optional<TokenId> token_to_id(std::string_view token) const override;
  const std::string* id_to_token(TokenId id) const override;
  size_t vocab_size() const override { return pieces_.size(); }

 private:
  void viterbi(std::string_view s, std::vector<TokenId>& out) const;
  // Ids of a run of unknown characters: the piece if the run happens to be one, else its
  // <0xXX> byte pieces (byte_fallback), else unk.
  void emit_unknown(std::string_view run, std::vector<TokenId>& out) const;

  struct Hash {
    using is_transparent = void;
    size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
  };
  std::vector<std::string> pieces_;
  std::vector<double> scores_;
  std::unordered_map<std::string, TokenId, Hash, std::equal_to<>> ids_;  // repeated piece: last id
  ByteTrie trie_;
  std::optional<TokenId> unk_id_;
  bool byte_fallback_ = false;
  double unk_score_ = 0;               // lowest piece score minus HF's unknown penalty of 10
  std::array<TokenId, 256> byte_ids_;  // byte -> id of "<0xXX>", or -1
  BpeCache cache_;
};

}  // namespace aiperf::tok
